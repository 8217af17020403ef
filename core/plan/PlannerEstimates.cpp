// The estimate of every offer: each region and pricing mode of an instance type, with its time, cost, energy and
// the spot model's figures; training estimates and spot simulations cached per distinct setup.
#include "gpuplan/plan/Planner.h"

#include "plan/PlannerParts.h"

#include <algorithm>
#include <cmath>

namespace gpuplan::core {

using planner::fixed;
using planner::kHoursPerMonth;
using planner::reason;

namespace {

std::string trainingKey(const Workload& w, const TrainingSetup& s)
{
    return w.id + "|" + w.name + "|" + fixed(w.totalUnits(), 0) + "|" + stackName(w.stack) + "|"
           + std::to_string(w.microBatch) + "|" + s.gpu->id + "|" + std::to_string(s.gpus) + "|"
           + std::to_string(s.gpusPerNode) + (s.rdma ? "|r|" : "|e|") + precisionName(s.precision) + "|"
           + std::to_string(s.vcpusPerNode.value_or(0)) + "|" + fixed(s.ramGib.value_or(0), 1) + "|"
           + fixed(s.localDiskGb.value_or(0), 0);
}

} // namespace

const ModeCost* OfferEstimate::cheapestEligible() const
{
    const ModeCost* best = nullptr;
    for (const ModeCost& mode : modes) {
        if (mode.eligible && !mode.managed && (!best || mode.cost.value < best->cost.value)) {
            best = &mode;
        }
    }
    return best;
}

ExchangeRate planExchangeRate(const Catalog& catalog, const CostModel& model)
{
    return model.exchangeRate ? *model.exchangeRate : catalog.exchangeRate().value_or(ExchangeRate{});
}

void Planner::clearCache()
{
    m_trainingCache.clear();
    m_spotCache.clear();
}

std::vector<OfferEstimate>
Planner::estimateAll(const Workload& w, const Constraints& constraints, const CostModel& model)
{
    std::vector<OfferEstimate> all;
    const ExchangeRate rate = planExchangeRate(m_catalog, model);
    for (const Offer& offer : m_catalog.offers()) {
        if (!m_folded.count(&offer)) {
            estimateOffer(all, offer, w, constraints, model, rate);
        }
    }
    return all;
}

void Planner::estimateOffer(std::vector<OfferEstimate>& all,
                            const Offer& offer,
                            const Workload& w,
                            const Constraints& constraints,
                            const CostModel& model,
                            const ExchangeRate& rate)
{
    const double datasetGb = w.datasetGb.value_or(0);
    const GpuSpec* gpu = m_catalog.findGpu(offer.gpuId);
    const Provider* provider = m_catalog.findProvider(offer.providerId);
    if (!gpu || !provider || offer.gpuCount < 1) {
        return;
    }
    const Precision precision = constraints.precision.value_or(defaultPrecision(*gpu));
    const bool rdma = offer.rdma.value_or(false);
    int nodes = std::max(1, (constraints.minGpus + offer.gpuCount - 1) / offer.gpuCount);
    // More nodes when the model does not fit, up to the GPU limit.
    while (nodes * offer.gpuCount < constraints.maxGpus
           && !fitMemory(w, precision, gpu->memoryGb, nodes * offer.gpuCount).fits) {
        ++nodes;
    }
    const int gpus = nodes * offer.gpuCount;
    const TrainingSetup setup{gpu, gpus, offer.gpuCount, rdma, precision, offer.vcpus, offer.ramGib, offer.localDiskGb};
    const std::string key = trainingKey(w, setup);
    auto cached = m_trainingCache.find(key);
    if (cached == m_trainingCache.end()) {
        cached =
            m_trainingCache
                .emplace(key,
                         std::make_shared<const TrainingEstimate>(estimateTraining(w, setup, m_calibration, m_catalog)))
                .first;
    }
    const TrainingEstimate& training = *cached->second;
    const ProviderFacts* facts = m_assumptions.provider(provider->id);

    for (const std::string& region : offer.regions()) {
        OfferEstimate e;
        e.provider = provider;
        e.offer = &offer;
        e.gpu = gpu;
        e.region = region;
        e.nodes = nodes;
        e.gpus = gpus;
        e.training = cached->second;
        e.setupHours = model.setupHours;
        const double megabits = datasetGb * 8000;
        e.transferHours = Range{megabits / model.uploadMbps.value / 3600,
                                megabits / model.uploadMbps.low / 3600,
                                megabits / model.uploadMbps.high / 3600};
        const bool anyPrice =
            std::any_of(offer.prices.begin(), offer.prices.end(), [&](const Price& p) { return p.region == region; });
        if (!anyPrice || !training.known) {
            all.push_back(std::move(e));
            continue;
        }
        // An on-demand run saves a checkpoint every hour of training (ASSUMPTION): weights and Adam state at
        // the checkpoint write speed, at least a minute each. Spot has its own interval (Daly).
        const double checkpointGb = trainedParameters(w) * 14 / 1e9; // weights + Adam state, FP32
        const double perCheckpoint = std::max(1.0 / 60, checkpointGb / model.checkpointWriteGBs / 3600);
        auto checkpoints = [&](double hours) { return std::floor(hours / model.checkpointEveryHours) * perCheckpoint; };
        e.checkpointHours = checkpointGb > 0 ? Range{checkpoints(training.computeHours.value),
                                                     checkpoints(training.computeHours.low),
                                                     checkpoints(training.computeHours.high)}
                                             : Range::exact(0);
        const Range baseHours = training.computeHours + e.setupHours + e.transferHours + e.checkpointHours;

        // Storage of the dataset and checkpoints for the run, and taking the final checkpoint home.
        e.storageCost = Range::exact(0);
        e.egressCost = Range::exact(0);
        if (facts && facts->storage) {
            const double perHour = rate.convert(facts->storage->amount, facts->storage->currency, constraints.currency)
                                   * (datasetGb + 2 * checkpointGb) / kHoursPerMonth;
            e.storageCost = baseHours * perHour;
        } else if (datasetGb > 0) {
            e.notes.push_back(Reason{"note.storage_price_unknown",
                                     {{"provider", provider->name}, {"provider_zh", provider->nameZh}}});
        }
        if (facts && facts->egress) {
            e.egressCost = Range::exact(
                rate.convert(facts->egress->amount, facts->egress->currency, constraints.currency) * checkpointGb);
        }
        e.extrasCost = e.storageCost + e.egressCost;
        if (gpu->tdpWatts) {
            const double pue = facts && facts->pue ? *facts->pue : 1.0;
            e.kwh = gpus * *gpu->tdpWatts * 0.8 * pue * baseHours.value / 1000;
            if (const Grid* grid = m_assumptions.grid(provider->id, region)) {
                e.kgCo2e = *e.kwh * grid->kgCo2ePerKwh;
            }
        }

        // The machine's own prices, then its managed twin's (a job on the cloud's training service), on-demand and
        // spot: the same hardware, so the same hours.
        const auto twin = offer.service == ServiceKind::Managed
                              ? m_managedTwins.end()
                              : m_managedTwins.find(offer.providerId + "|" + offer.instanceType);
        std::vector<std::pair<const Price*, const Offer*>> prices;
        for (const Price& price : offer.prices) {
            prices.emplace_back(&price, &offer);
        }
        if (twin != m_managedTwins.end()) {
            for (const Price& price : twin->second->prices) {
                if (price.mode == PricingMode::OnDemand || price.mode == PricingMode::Spot) {
                    prices.emplace_back(&price, twin->second);
                }
            }
        }
        for (const auto& [pricePointer, priced] : prices) {
            const Price& price = *pricePointer;
            if (price.region != region) {
                continue;
            }
            ModeCost mode;
            mode.mode = price.mode;
            mode.price = &price;
            mode.managed = priced == &offer ? nullptr : priced;
            if (price.currency != constraints.currency && !(rate.cnyPerUsd > 0)) {
                // Without a rate the price cannot be compared: converting with 0 would make it free (finding 11).
                mode.eligible = false;
                mode.why = reason("excluded.no_exchange_rate",
                                  {{"from", currencyCode(price.currency)}, {"to", currencyCode(constraints.currency)}});
                e.modes.push_back(std::move(mode));
                continue;
            }
            const double perHour = rate.convert(price.amount, price.currency, constraints.currency) * nodes;
            auto costFor = [&](const Range& hours) {
                return Range{billedHours(hours.value, priced->billing) * perHour,
                             billedHours(hours.low, priced->billing) * perHour,
                             billedHours(hours.high, priced->billing) * perHour}
                       + e.extrasCost;
            };
            mode.hours = baseHours;
            switch (price.mode) {
                case PricingMode::OnDemand:
                    mode.cost = costFor(baseHours);
                    break;
                case PricingMode::Spot: {
                    std::optional<InterruptionRate> interruption =
                        m_assumptions.spotRate(provider->id, price.interruption);
                    mode.cost = costFor(baseHours);
                    if (!interruption) {
                        mode.eligible = false;
                        mode.why = reason("excluded.spot_rate_unknown",
                                          {{"provider", provider->name}, {"provider_zh", provider->nameZh}});
                        break;
                    }
                    SpotDetail spot;
                    spot.rate = *interruption;
                    const Range p = interruption->monthlyProbability;
                    spot.checkpointHours = std::max(1.0 / 60, checkpointGb / model.checkpointWriteGBs / 3600);
                    auto scenario = [&](double work, double probability) {
                        const double mtbf = mtbfFromMonthlyProbability(probability) / nodes;
                        return SpotScenario{work,
                                            mtbf,
                                            spot.checkpointHours,
                                            model.setupHours.value,
                                            dalyInterval(spot.checkpointHours, mtbf)};
                    };
                    const SpotScenario central = scenario(training.computeHours.value, p.value);
                    spot.mtbfHours = central.mtbfHours;
                    spot.intervalHours = central.intervalHours;
                    spot.expectedHours = expectedWallHours(central);
                    const Range extra = e.setupHours + e.transferHours;
                    double high = expectedWallHours(scenario(training.computeHours.high, p.high));
                    if (model.monteCarlo) {
                        const std::string spotKey = fixed(central.workHours, 6) + "|" + fixed(central.mtbfHours, 6)
                                                    + "|" + fixed(central.checkpointHours, 6);
                        auto hit = m_spotCache.find(spotKey);
                        if (hit == m_spotCache.end()) {
                            hit = m_spotCache.emplace(spotKey, simulateSpot(central, model.monteCarloRuns, model.seed))
                                      .first;
                        }
                        spot.simulated = hit->second;
                        high = std::max(high, hit->second.p90Hours);
                    }
                    mode.hours = Range{spot.expectedHours + extra.value,
                                       expectedWallHours(scenario(training.computeHours.low, p.low)) + extra.low,
                                       high + extra.high};
                    // Spot bills the time actually used, restarts included.
                    mode.cost = Range{mode.hours.value * perHour, mode.hours.low * perHour, mode.hours.high * perHour}
                                + e.extrasCost;
                    spot.perHour = perHour;
                    spot.extraHours = extra.value;
                    mode.spot = spot;
                    break;
                }
                case PricingMode::Reserved1Year:
                case PricingMode::Reserved3Year: {
                    const double termMonths = price.mode == PricingMode::Reserved1Year ? 12 : 36;
                    mode.cost = costFor(baseHours);
                    mode.commitment = ModeCost::Commitment{termMonths, perHour * termMonths * kHoursPerMonth};
                    if (constraints.projectMonths < termMonths) {
                        mode.eligible = false;
                        mode.why = reason("excluded.commitment",
                                          {{"months", fixed(termMonths, 0)},
                                           {"project", reasonNumber(constraints.projectMonths)},
                                           {"commitment", reasonNumber(perHour * termMonths * kHoursPerMonth)},
                                           {"currency", currencyCode(constraints.currency)}});
                    }
                    break;
                }
                case PricingMode::SubscriptionMonthly:
                case PricingMode::SubscriptionYearly: {
                    const double minimumMonths = price.mode == PricingMode::SubscriptionYearly ? 12 : 1;
                    auto months = [&](double hours) {
                        return std::max(minimumMonths, std::ceil(hours / kHoursPerMonth));
                    };
                    mode.cost = Range{months(baseHours.value) * perHour,
                                      months(baseHours.low) * perHour,
                                      months(baseHours.high) * perHour}
                                + e.extrasCost;
                    mode.commitment = ModeCost::Commitment{minimumMonths, minimumMonths * perHour};
                    if (constraints.projectMonths < minimumMonths) {
                        mode.eligible = false;
                        mode.why = reason("excluded.subscription_term",
                                          {{"months", fixed(minimumMonths, 0)},
                                           {"project", reasonNumber(constraints.projectMonths)}});
                    }
                    break;
                }
            }
            e.modes.push_back(std::move(mode));
        }
        all.push_back(std::move(e));
    }
}

} // namespace gpuplan::core
