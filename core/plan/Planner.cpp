#include "gpuplan/plan/Planner.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <tuple>
#include <type_traits>

namespace gpuplan::core {

static_assert(std::is_nothrow_move_constructible_v<RankedOption>, "ranking moves options, never copies them");
static_assert(std::is_nothrow_move_constructible_v<OfferEstimate>);

namespace {

constexpr double kHoursPerMonth = 730;

std::string fixed(double value, int decimals)
{
    // As printf's "%.*f", faster; beyond 1e30 (not a price or an hour count) printf's form is kept.
    if (std::abs(value) < 1e30) {
        char buffer[64];
        const std::to_chars_result end =
            std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
        return std::string(buffer, end.ptr);
    }
    char buffer[400];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string hoursText(double hours)
{
    return fixed(hours, hours < 10 ? 1 : 0) + " h";
}

Reason reason(std::string key, std::map<std::string, std::string> params, std::string text)
{
    return Reason{std::move(key), std::move(params), std::move(text)};
}

/// A reason that wraps another ("cannot be estimated: <cause>"): the cause's key and parameters travel as
/// `cause` and `cause.<name>`.
Reason
nested(std::string key, std::map<std::string, std::string> params, const Reason& cause, const std::string& prefix)
{
    params["cause"] = cause.key;
    for (const auto& [name, value] : cause.params) {
        params["cause." + name] = value;
    }
    return Reason{std::move(key), std::move(params), prefix + cause.text};
}

bool frameworkRuns(const GpuSpec& gpu, const Offer& offer, const std::string& framework, Reason& why)
{
    if (offer.service == ServiceKind::Tpu || gpu.vendor == "Google") {
        if (framework != "jax" && framework != "tensorflow") {
            why = reason("excluded.framework_tpu",
                         {{"framework", framework}},
                         "TPUs train JAX and TensorFlow; " + framework + " needs a GPU");
            return false;
        }
        return true;
    }
    if (gpu.vendor == "AMD") {
        if (framework != "pytorch" && framework != "jax" && framework != "tensorflow") {
            why = reason("excluded.framework_rocm",
                         {{"framework", framework}, {"gpu", gpu.name}},
                         "ROCm on " + gpu.name + " supports PyTorch, TensorFlow and JAX, not " + framework);
            return false;
        }
    }
    return true;
}

std::string trainingKey(const Workload& w, const TrainingSetup& s)
{
    return w.id + "|" + w.name + "|" + fixed(w.totalUnits(), 0) + "|" + stackName(w.stack) + "|"
           + std::to_string(w.microBatch) + "|" + s.gpu->id + "|" + std::to_string(s.gpus) + "|"
           + std::to_string(s.gpusPerNode) + (s.rdma ? "|r|" : "|e|") + precisionName(s.precision) + "|"
           + std::to_string(s.vcpusPerNode.value_or(0)) + "|" + fixed(s.ramGib.value_or(0), 1) + "|"
           + fixed(s.localDiskGb.value_or(0), 0);
}

std::string isolationText(const Offer& offer)
{
    std::string text = offer.physicallyIsolated() ? "physically isolated (bare metal or dedicated host)" : "";
    if (!offer.compliance.empty()) {
        text += text.empty() ? "documented compliance: " : "; compliance: ";
        for (std::size_t i = 0; i < offer.compliance.size(); ++i) {
            text += (i ? ", " : "") + offer.compliance[i];
        }
    }
    return text;
}

} // namespace

Result<std::vector<std::string>> parseCountryCodes(std::string_view text)
{
    std::vector<std::string> codes;
    std::string current;
    auto flush = [&]() -> std::optional<Error> {
        if (current.empty()) {
            return std::nullopt;
        }
        const bool letters = current.size() == 2 && std::isalpha(static_cast<unsigned char>(current[0]))
                             && std::isalpha(static_cast<unsigned char>(current[1]));
        if (!letters) {
            return Error{ErrorCode::InvalidArgument,
                         "\"" + current + "\" is not a country code: write two letters, e.g. CN, HK, US",
                         "countries"};
        }
        for (char& c : current) {
            c = char(std::toupper(static_cast<unsigned char>(c)));
        }
        if (std::find(codes.begin(), codes.end(), current) == codes.end()) {
            codes.push_back(current);
        }
        current.clear();
        return std::nullopt;
    };
    // Separators: ASCII comma, semicolon and blanks, and the Chinese comma and enumeration comma.
    const std::string_view separators[] = {",", ";", " ", "\t", "\xEF\xBC\x8C" /* ， */, "\xE3\x80\x81" /* 、 */};
    for (std::size_t i = 0; i < text.size();) {
        bool separated = false;
        for (std::string_view s : separators) {
            if (text.substr(i, s.size()) == s) {
                if (std::optional<Error> bad = flush()) {
                    return *bad;
                }
                i += s.size();
                separated = true;
                break;
            }
        }
        if (!separated) {
            current += text[i++];
        }
    }
    if (std::optional<Error> bad = flush()) {
        return *bad;
    }
    return codes;
}

Status checkCountries(const std::vector<std::string>& countries, const Assumptions& assumptions)
{
    std::set<std::string> known;
    for (const ProviderFacts& provider : assumptions.providers) {
        for (const ProviderFacts::Region& region : provider.regions) {
            if (!region.country.empty()) {
                known.insert(region.country);
            }
        }
    }
    for (const std::string& code : countries) {
        if (known.count(code)) {
            continue;
        }
        std::string list;
        for (const std::string& k : known) {
            list += (list.empty() ? "" : ", ") + k;
        }
        return Error{ErrorCode::NotFound,
                     "unknown country \"" + code + "\": no region in the catalog is there (its regions are in "
                         + (list.empty() ? std::string("no known country") : list) + ")",
                     "countries"};
    }
    return Ok{};
}

const char* objectiveName(Objective objective)
{
    switch (objective) {
        case Objective::Cheapest:
            return "cheapest";
        case Objective::Fastest:
            return "fastest";
        case Objective::Value:
            return "value";
    }
    return "?";
}

std::optional<Objective> parseObjective(std::string_view name)
{
    for (Objective o : {Objective::Cheapest, Objective::Fastest, Objective::Value}) {
        if (name == objectiveName(o)) {
            return o;
        }
    }
    return std::nullopt;
}

const ModeCost* OfferEstimate::cheapestEligible() const
{
    const ModeCost* best = nullptr;
    for (const ModeCost& mode : modes) {
        if (mode.eligible && (!best || mode.cost.value < best->cost.value)) {
            best = &mode;
        }
    }
    return best;
}

Planner::Planner(const Catalog& catalog, const Assumptions& assumptions, const Calibration& calibration)
    : m_catalog(catalog)
    , m_assumptions(assumptions)
    , m_calibration(calibration)
{ }

std::vector<bool> paretoOptimal(const std::vector<std::pair<double, double>>& points)
{
    std::vector<bool> optimal(points.size(), true);
    for (std::size_t i = 0; i < points.size(); ++i) {
        for (std::size_t j = 0; j < points.size() && optimal[i]; ++j) {
            const bool noWorse = points[j].first <= points[i].first && points[j].second <= points[i].second;
            const bool better = points[j].first < points[i].first || points[j].second < points[i].second;
            optimal[i] = !(noWorse && better);
        }
    }
    return optimal;
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
        estimateOffer(all, offer, w, constraints, model, rate);
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
            e.notes.push_back("storage price unknown for " + provider->name + ": not counted");
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

        for (const Price& price : offer.prices) {
            if (price.region != region) {
                continue;
            }
            ModeCost mode;
            mode.mode = price.mode;
            mode.price = &price;
            if (price.currency != constraints.currency && !(rate.cnyPerUsd > 0)) {
                // Without a rate the price cannot be compared: converting with 0 would make it free (finding 11).
                mode.eligible = false;
                mode.why = reason("excluded.no_exchange_rate",
                                  {{"from", currencyCode(price.currency)}, {"to", currencyCode(constraints.currency)}},
                                  std::string("priced in ") + currencyCode(price.currency)
                                      + ", and without a USD-CNY exchange rate it cannot be compared in "
                                      + currencyCode(constraints.currency));
                e.modes.push_back(std::move(mode));
                continue;
            }
            const double perHour = rate.convert(price.amount, price.currency, constraints.currency) * nodes;
            auto costFor = [&](const Range& hours) {
                return Range{billedHours(hours.value, offer.billing) * perHour,
                             billedHours(hours.low, offer.billing) * perHour,
                             billedHours(hours.high, offer.billing) * perHour}
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
                                          {{"provider", provider->name}, {"provider_zh", provider->nameZh}},
                                          "no published interruption rate for " + provider->name
                                              + " spot: its time and cost would be a guess");
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
                                           {"currency", currencyCode(constraints.currency)}},
                                          "needs a " + fixed(termMonths, 0) + "-month commitment ("
                                              + fixed(perHour * termMonths * kHoursPerMonth, 0) + " "
                                              + currencyCode(constraints.currency) + "); the project is "
                                              + fixed(constraints.projectMonths, 0) + " months");
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
                        mode.why = reason(
                            "excluded.subscription_term",
                            {{"months", fixed(minimumMonths, 0)}, {"project", reasonNumber(constraints.projectMonths)}},
                            "a subscription is paid for at least " + fixed(minimumMonths, 0)
                                + " month(s); the project is " + fixed(constraints.projectMonths, 0) + " months");
                    }
                    break;
                }
            }
            e.modes.push_back(std::move(mode));
        }
        all.push_back(std::move(e));
    }
}

Recommendation Planner::recommend(const Workload& w, const Constraints& constraints, const CostModel& model)
{
    Recommendation result;
    result.objective = constraints.objective.value_or(constraints.deadlineHours ? Objective::Cheapest
                                                      : constraints.budget      ? Objective::Fastest
                                                                                : Objective::Value);
    const std::string currency = currencyCode(constraints.currency);
    auto money = [&](double amount) { return fixed(amount, 0) + " " + currency; };

    // An offer and region that meets every constraint, with the mode it would be paid in.
    struct Candidate
    {
        OfferEstimate* estimate;
        const ModeCost* paid;            // one of its modes
        std::optional<ModeCost> blended; // spot and on-demand in the chosen shares, when the plan mixes them

        const ModeCost& mode() const { return blended ? *blended : *paid; }
    };
    auto better = [&](const Candidate& a, const Candidate& b) {
        return result.objective == Objective::Fastest ? a.mode().hours.value < b.mode().hours.value
                                                      : a.mode().cost.value < b.mode().cost.value;
    };
    // The ranking key. Value ranks by cost x time, the same order as each relative to the cheapest and the
    // fastest, so that no offer has to wait for the others to be ranked.
    auto score = [&](const ModeCost& m) {
        switch (result.objective) {
            case Objective::Cheapest:
                return m.cost.value + m.hours.value * 1e-9;
            case Objective::Fastest:
                return m.hours.value + m.cost.value * 1e-12;
            case Objective::Value:
                return m.cost.value * m.hours.value;
        }
        return 0.0;
    };
    // The shown rows (and the runner-up the first names), best first; equal scores in provider and instance order.
    // Offers are estimated and judged one at a time, and only these few are kept: a catalog of 100 000 offers is
    // ranked without holding its rows.
    struct Kept
    {
        double score;
        OfferEstimate estimate;
        ModeCost mode;
        int regions; // regions of the offer that meet every constraint
    };
    auto before = [](const Kept& a, const Kept& b) {
        if (a.score != b.score) {
            return a.score < b.score;
        }
        return std::tie(a.estimate.provider->id, a.estimate.offer->instanceType)
               < std::tie(b.estimate.provider->id, b.estimate.offer->instanceType);
    };
    const std::size_t keep = std::size_t(std::max(constraints.top, 2));
    std::vector<Kept> kept; // a heap, the worst of the kept on top
    kept.reserve(keep + 1);
    const ExchangeRate rate = planExchangeRate(m_catalog, model);
    std::vector<OfferEstimate>& all = m_rows;
    std::vector<Candidate> candidates;
    for (const Offer& catalogOffer : m_catalog.offers()) {
        all.clear();
        estimateOffer(all, catalogOffer, w, constraints, model, rate);
        candidates.clear();
        for (OfferEstimate& e : all) {
            const Offer& offer = *e.offer;
            auto exclude = [&](const std::string& rule, Reason why) {
                result.excluded.push_back(Exclusion{e.provider, offer.instanceType, e.region, rule, std::move(why)});
            };
            Reason why;
            if (!frameworkRuns(*e.gpu, offer, constraints.framework, why)) {
                exclude("framework", std::move(why));
                continue;
            }
            if (!constraints.countries.empty()) {
                const ProviderFacts::Region* where = m_assumptions.region(e.provider->id, e.region);
                const std::string country = where ? where->country : "";
                std::string allowed;
                for (const std::string& code : constraints.countries) {
                    allowed += (allowed.empty() ? "" : ", ") + code;
                }
                if (country.empty()) {
                    exclude("region",
                            reason("excluded.country_unknown",
                                   {{"region", e.region}, {"allowed", allowed}},
                                   "the catalog does not say which country " + e.region
                                       + " is in, so it may be outside " + allowed));
                    continue;
                }
                if (std::find(constraints.countries.begin(), constraints.countries.end(), country)
                    == constraints.countries.end()) {
                    exclude(
                        "region",
                        reason("excluded.country",
                               {{"region", e.region}, {"country", country}, {"allowed", allowed}},
                               e.region + " is in " + country + ", outside the chosen countries (" + allowed + ")"));
                    continue;
                }
            }
            if (constraints.sensitive && !offer.physicallyIsolated() && offer.compliance.empty()) {
                exclude("sensitive",
                        reason("excluded.sensitive",
                               {},
                               "shared virtual machine: no bare-metal or dedicated-host option and no documented "
                               "compliance programme, so sensitive data should not go there"));
                continue;
            }
            if (e.training->memory.known && !e.training->memory.fits) {
                exclude("memory",
                        nested("excluded.memory",
                               {{"gpus", std::to_string(e.gpus)}, {"gpu", e.gpu->name}},
                               e.training->fit,
                               "does not fit in memory on " + std::to_string(e.gpus) + " x " + e.gpu->name + ": "));
                continue;
            }
            if (!e.training->known) {
                exclude("unknown", nested("excluded.unknown", {}, e.training->unknown, "cannot be estimated: "));
                continue;
            }
            if (e.nodes > 1 && !constraints.multiNode) {
                exclude("scale",
                        reason("excluded.single_node",
                               {{"nodes", std::to_string(e.nodes)}},
                               "needs " + std::to_string(e.nodes) + " servers; the plan allows one"));
                continue;
            }
            if (e.nodes > 1 && constraints.requireRdma && !offer.rdma.value_or(false)) {
                exclude("rdma",
                        reason("excluded.rdma",
                               {{"nodes", std::to_string(e.nodes)}},
                               "needs " + std::to_string(e.nodes)
                                   + " servers but has no RDMA / InfiniBand / EFA between them: "
                                     "NCCL over plain Ethernet would waste most of the GPU time"));
                continue;
            }
            if (e.modes.empty()) {
                exclude("no_price", reason("excluded.no_price", {}, "no published price in this region"));
                continue;
            }
            // Deadline and budget per mode: a mode that misses them is not a way to buy this offer.
            for (ModeCost& mode : e.modes) {
                if (!mode.eligible) {
                    continue;
                }
                if (!constraints.modes.empty()
                    && std::find(constraints.modes.begin(), constraints.modes.end(), mode.mode)
                           == constraints.modes.end()) {
                    mode.eligible = false;
                    mode.why =
                        reason("excluded.mode_not_chosen",
                               {{"mode", pricingModeName(mode.mode)}},
                               std::string("the plan does not consider ") + pricingModeName(mode.mode) + " prices");
                    continue;
                }
                if (constraints.deadlineHours && mode.hours.value > *constraints.deadlineHours) {
                    mode.eligible = false;
                    mode.why = reason("excluded.deadline",
                                      {{"hours", reasonNumber(mode.hours.value)},
                                       {"deadline", reasonNumber(*constraints.deadlineHours)}},
                                      "takes about " + hoursText(mode.hours.value) + ", past the deadline of "
                                          + hoursText(*constraints.deadlineHours));
                } else if (constraints.budget && mode.cost.value > *constraints.budget) {
                    mode.eligible = false;
                    mode.why = reason("excluded.budget",
                                      {{"cost", reasonNumber(mode.cost.value)},
                                       {"budget", reasonNumber(*constraints.budget)},
                                       {"currency", currency}},
                                      "costs about " + money(mode.cost.value) + ", over the budget of "
                                          + money(*constraints.budget));
                }
            }
            const ModeCost* best = e.cheapestEligible();
            if (!best) {
                // Name the most telling mode's reason: on-demand's if there is one.
                const ModeCost* shown = &e.modes.front();
                for (const ModeCost& mode : e.modes) {
                    if (mode.mode == PricingMode::OnDemand) {
                        shown = &mode;
                    }
                }
                const std::string rule = shown->why.key == "excluded.deadline" ? "deadline"
                                         : shown->why.key == "excluded.budget" ? "budget"
                                                                               : "pricing";
                exclude(rule, shown->why);
                continue;
            }
            if (result.objective == Objective::Fastest) {
                for (const ModeCost& mode : e.modes) {
                    if (mode.eligible && mode.hours.value < best->hours.value) {
                        best = &mode;
                    }
                }
            }
            Candidate option{&e, best, std::nullopt};
            if (constraints.spotShare && *constraints.spotShare > 0) {
                const ModeCost* spot = nullptr;
                const ModeCost* onDemand = nullptr;
                for (const ModeCost& mode : e.modes) {
                    if (mode.eligible && mode.mode == PricingMode::Spot) {
                        spot = &mode;
                    } else if (mode.eligible && mode.mode == PricingMode::OnDemand) {
                        onDemand = &mode;
                    }
                }
                if (spot && onDemand) {
                    const double share = std::min(1.0, *constraints.spotShare);
                    ModeCost& mixed = option.blended.emplace(*spot);
                    mixed.spotShare = share;
                    mixed.hours = spot->hours * share + onDemand->hours * (1 - share);
                    mixed.cost = spot->cost * share + onDemand->cost * (1 - share);
                }
            }
            candidates.push_back(std::move(option));
        }
        if (candidates.empty()) {
            continue;
        }
        // One row per instance type: its best region (the others are named in a note).
        ++result.eligibleCount;
        std::size_t best = 0;
        for (std::size_t i = 1; i < candidates.size(); ++i) {
            if (better(candidates[i], candidates[best])) {
                best = i;
            }
        }
        const Candidate& chosen = candidates[best];
        const double key = score(chosen.mode());
        const OfferEstimate& e = *chosen.estimate;
        if (kept.size() == keep) {
            const Kept& worst = kept.front();
            if (key > worst.score
                || (key == worst.score
                    && std::tie(worst.estimate.provider->id, worst.estimate.offer->instanceType)
                           <= std::tie(e.provider->id, e.offer->instanceType))) {
                continue;
            }
            std::pop_heap(kept.begin(), kept.end(), before);
            kept.pop_back();
        }
        ModeCost mode = chosen.mode(); // copied before its estimate (which holds `paid`) moves
        kept.push_back(Kept{key, std::move(*chosen.estimate), std::move(mode), int(candidates.size())});
        std::push_heap(kept.begin(), kept.end(), before);
    }
    if (result.eligibleCount == 0) {
        result.notes.push_back("no offer meets every constraint; the excluded list says what each one missed");
        return result;
    }
    std::sort_heap(kept.begin(), kept.end(), before);
    std::vector<RankedOption> ranked;
    std::vector<int> regionsOf;
    ranked.reserve(kept.size());
    for (Kept& k : kept) {
        ranked.push_back(RankedOption{std::move(k.estimate), std::move(k.mode), {}});
        regionsOf.push_back(k.regions);
    }

    const int n = result.eligibleCount;
    for (int i = 0; i < int(ranked.size()) && i < constraints.top; ++i) {
        RankedOption& o = ranked[std::size_t(i)];
        const OfferEstimate& e = o.estimate;
        const ModeCost& m = o.mode;
        const std::string modeName = pricingModeName(m.mode);
        std::map<std::string, std::string> costParams{{"cost", reasonNumber(m.cost.value)},
                                                      {"low", reasonNumber(m.cost.low)},
                                                      {"high", reasonNumber(m.cost.high)},
                                                      {"currency", currency},
                                                      {"mode", modeName}};
        std::string costText = "costs about " + money(m.cost.value) + " (" + money(m.cost.low) + " to "
                               + money(m.cost.high) + ") paying " + modeName;
        if (m.commitment) {
            // The cost is this run's share of the term; the lab pays the whole term, so it is never said alone.
            costParams["commitment"] = reasonNumber(m.commitment->amount);
            costParams["commitment_months"] = reasonNumber(m.commitment->months);
            costText += ", which commits the lab to " + money(m.commitment->amount) + " over "
                        + fixed(m.commitment->months, 0) + " months";
        }
        o.reasons.push_back(reason("reason.cost", std::move(costParams), costText));
        o.reasons.push_back(reason("reason.time",
                                   {{"hours", reasonNumber(m.hours.value)},
                                    {"low", reasonNumber(m.hours.low)},
                                    {"high", reasonNumber(m.hours.high)}},
                                   "finishes in about " + hoursText(m.hours.value) + " (" + hoursText(m.hours.low)
                                       + " to " + hoursText(m.hours.high) + "), setup and data upload included"));
        if (i == 0) {
            const char* what = result.objective == Objective::Cheapest  ? "the cheapest"
                               : result.objective == Objective::Fastest ? "the fastest"
                                                                        : "the best cost x time";
            std::string text = std::string(what) + " of " + std::to_string(n) + " offers that meet every constraint";
            std::map<std::string, std::string> params{{"objective", objectiveName(result.objective)},
                                                      {"count", std::to_string(n)}};
            if (n > 1) {
                const RankedOption& next = ranked[1];
                text += "; next: " + next.estimate.provider->name + " " + next.estimate.offer->instanceType + " at "
                        + money(next.mode.cost.value);
                if (next.mode.commitment) {
                    text += " (committing " + money(next.mode.commitment->amount) + " over "
                            + fixed(next.mode.commitment->months, 0) + " months)";
                    params["next_commitment"] = reasonNumber(next.mode.commitment->amount);
                    params["next_commitment_months"] = reasonNumber(next.mode.commitment->months);
                }
                text += ", " + hoursText(next.mode.hours.value);
                params["next_provider"] = next.estimate.provider->name;
                params["next_instance"] = next.estimate.offer->instanceType;
                params["next_cost"] = reasonNumber(next.mode.cost.value);
                params["next_hours"] = reasonNumber(next.mode.hours.value);
                params["currency"] = currency;
            }
            o.reasons.push_back(reason("reason.rank", std::move(params), text));
        }
        if (constraints.deadlineHours) {
            o.reasons.push_back(reason(
                "reason.deadline",
                {{"margin", reasonNumber(*constraints.deadlineHours - m.hours.value)},
                 {"misses_at_high", m.hours.high > *constraints.deadlineHours ? "1" : "0"}},
                hoursText(*constraints.deadlineHours - m.hours.value) + " to spare before the deadline"
                    + (m.hours.high > *constraints.deadlineHours ? " (but the slow end of the range misses it)" : "")));
        }
        if (m.spot) {
            const SpotDetail& s = *m.spot;
            const double interval = std::min(s.intervalHours, e.training->computeHours.value);
            std::string text = "spot: " + fixed(s.rate.monthlyProbability.value * 100, 0)
                               + " % chance of interruption per month, checkpoint every " + hoursText(interval);
            std::map<std::string, std::string> params{{"probability", reasonNumber(s.rate.monthlyProbability.value)},
                                                      {"interval", reasonNumber(interval)}};
            if (s.simulated) {
                text += "; P50 " + hoursText(s.simulated->p50Hours) + ", P90 " + hoursText(s.simulated->p90Hours)
                        + " of compute, " + fixed(s.simulated->meanInterruptions, 1) + " interruptions expected";
                params["p50"] = reasonNumber(s.simulated->p50Hours);
                params["p90"] = reasonNumber(s.simulated->p90Hours);
                params["interruptions"] = reasonNumber(s.simulated->meanInterruptions);
            }
            o.reasons.push_back(reason("reason.spot", std::move(params), text));
        }
        // Where the provider's billing rule moves the figure (whole hours when it is not known), say so.
        if (m.mode == PricingMode::OnDemand || m.mode == PricingMode::Spot) {
            const double billed = billedHours(m.hours.value, e.offer->billing);
            if (billed > m.hours.value * 1.05 + 1e-9) {
                const std::string provider = e.provider->name;
                o.reasons.push_back(reason(
                    e.offer->billing ? "reason.billing" : "reason.billing_unknown",
                    {{"provider", provider}, {"hours", reasonNumber(m.hours.value)}, {"billed", reasonNumber(billed)}},
                    e.offer->billing ? "billed as " + hoursText(billed) + " of " + hoursText(m.hours.value) + " by "
                                           + provider + "'s minimum and rounding"
                                     : provider + "'s billing rule is not published: " + hoursText(m.hours.value)
                                           + " is counted as " + hoursText(billed) + ", whole hours"));
            }
        }
        const MemoryPlan& memory = e.training->memory;
        o.reasons.push_back(reason(memory.known ? "reason.memory" : "reason.memory_unknown",
                                   {{"needed_gb", reasonNumber(memory.totalGb())},
                                    {"capacity_gb", reasonNumber(e.gpu->memoryGb)},
                                    {"sharding", shardingName(memory.sharding)},
                                    {"checkpointing", memory.activationCheckpointing ? "1" : "0"},
                                    {"micro_batch", std::to_string(memory.microBatch)}},
                                   e.training->memory.known
                                       ? "fits in memory: " + fixed(e.training->memory.totalGb(), 1) + " of "
                                             + fixed(e.gpu->memoryGb, 0) + " GB per GPU with "
                                             + e.training->memory.describe()
                                       : "memory fit unknown: the workload gives no parameter count"));
        if (constraints.sensitive) {
            std::string compliance;
            for (std::size_t c = 0; c < e.offer->compliance.size(); ++c) {
                compliance += (c ? ", " : "") + e.offer->compliance[c];
            }
            o.reasons.push_back(
                reason("reason.isolated",
                       {{"isolated", e.offer->physicallyIsolated() ? "1" : "0"}, {"compliance", compliance}},
                       isolationText(*e.offer)));
        }
        if (e.kwh) {
            std::string text = "uses about " + fixed(*e.kwh, *e.kwh < 10 ? 1 : 0) + " kWh";
            text += e.kgCo2e ? ", " + fixed(*e.kgCo2e, *e.kgCo2e < 10 ? 1 : 0) + " kgCO2e on the " + e.region + " grid"
                             : " (grid carbon intensity of " + e.region + " unknown)";
            std::map<std::string, std::string> params{{"kwh", reasonNumber(*e.kwh)}, {"region", e.region}};
            if (e.kgCo2e) {
                params["kg_co2e"] = reasonNumber(*e.kgCo2e);
            }
            o.reasons.push_back(reason("reason.energy", std::move(params), text));
        }
        if (const int regions = regionsOf[std::size_t(i)]; regions > 1) {
            o.estimate.notes.push_back("also meets the constraints in " + std::to_string(regions - 1)
                                       + " other region(s)");
        }
    }
    ranked.resize(std::min(ranked.size(), std::size_t(std::max(constraints.top, 0))));
    result.options = std::move(ranked);
    return result;
}

} // namespace gpuplan::core
