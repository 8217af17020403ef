#include "gpuplan/plan/PlanDocument.h"

#include "gpuplan/catalog/Catalog.h"

#include <utility>

namespace gpuplan::core {

namespace {

PlanPrice planPrice(const Price& price)
{
    return {price.amount, price.currency, price.unit, price.source.url, price.source.asOf, price.source.retrieved};
}

PlanMode planMode(const ModeCost& m, const Range& extrasCost)
{
    PlanMode out;
    out.mode = m.mode;
    out.price = planPrice(*m.price);
    out.hours = m.hours;
    out.cost = m.cost;
    out.eligible = m.eligible;
    if (m.managed) {
        out.managedOffer = m.managed->instanceType;
    }
    if (!m.eligible) {
        out.whyNot = m.why;
    }
    if (m.commitment) {
        out.commitment = PlanMode::Commitment{m.commitment->months, m.commitment->amount};
    }
    if (m.spot) {
        PlanSpot spot;
        spot.monthlyInterruption = m.spot->rate.monthlyProbability;
        spot.rateSource = m.spot->rate.source.url;
        spot.mtbfHours = m.spot->mtbfHours;
        spot.checkpointIntervalHours = m.spot->intervalHours;
        spot.checkpointHours = m.spot->checkpointHours;
        spot.expectedComputeHours = m.spot->expectedHours;
        if (m.spot->simulated) {
            const SpotOutcome& mc = *m.spot->simulated;
            spot.simulated = mc;
            spot.extraHours = m.spot->extraHours;
            // The simulated hours are compute only: the run also pays for setup and upload, and for its storage.
            auto cost = [&](double hours) { return (hours + m.spot->extraHours) * m.spot->perHour + extrasCost.value; };
            spot.simulatedCost = PlanSpot::CostPercentiles{
                cost(mc.p10Hours), cost(mc.p25Hours), cost(mc.p50Hours), cost(mc.p75Hours), cost(mc.p90Hours)};
        }
        out.spot = std::move(spot);
    }
    return out;
}

PlanOption planOption(const RankedOption& ranked, int rank)
{
    const OfferEstimate& e = ranked.estimate;
    PlanOption o;
    o.rank = rank;
    o.provider = e.provider->id;
    o.providerName = e.provider->name;
    o.providerNameZh = e.provider->nameZh;
    o.instanceType = e.offer->instanceType;
    o.region = e.region;
    o.gpu = e.gpu->id;
    o.gpuName = e.gpu->name;
    o.gpus = e.gpus;
    o.nodes = e.nodes;
    o.mode = ranked.mode.mode;
    o.spotShare = ranked.mode.spotShare;
    const Range& cost = ranked.mode.cost;
    o.computeCost = {cost.value - e.extrasCost.value, cost.low - e.extrasCost.low, cost.high - e.extrasCost.high};
    o.storageCost = e.storageCost;
    o.egressCost = e.egressCost;
    o.setupHours = e.setupHours;
    o.transferHours = e.transferHours;
    o.checkpointHours = e.checkpointHours;
    if (ranked.mode.price->unit == PriceUnit::Hour) {
        o.pricePerHour = ranked.mode.price->amount * e.nodes;
    }
    o.priceCurrency = ranked.mode.price->currency;
    o.hours = ranked.mode.hours;
    o.cost = cost;
    for (const ModeCost& m : e.modes) {
        o.modes.push_back(planMode(m, e.extrasCost));
    }
    o.training = makePlanTraining(*e.training, *e.gpu, e.gpus);
    o.kwh = e.kwh;
    o.kgCo2e = e.kgCo2e;
    o.reasons = ranked.reasons;
    o.notes = e.notes;
    return o;
}

PlanWorkload planWorkload(const Workload& w)
{
    PlanWorkload out;
    out.id = w.id;
    out.name = w.name;
    out.nameZh = w.nameZh;
    out.description = w.description;
    out.descriptionZh = w.descriptionZh;
    out.task = taskTypeName(w.task);
    out.modelClass = modelClassName(w.modelClass);
    out.method = trainingMethodName(w.method);
    out.kind = workKindName(w.kind);
    out.parameters = w.model.parameters;
    out.epochs = w.epochs;
    out.units = w.totalUnits();
    out.unit = w.countsTokens() ? "tokens" : w.sampleUnit;
    if (w.countsTokens()) {
        out.tokensPerEpoch = w.tokensPerEpoch;
        out.sequenceLength = w.sequenceLength;
    } else {
        out.samplesPerEpoch = w.samplesPerEpoch;
    }
    out.definition = w;
    return out;
}

} // namespace

PlanTraining makePlanTraining(const TrainingEstimate& e, const GpuSpec& gpu, int gpus)
{
    PlanTraining t;
    t.gpu = gpu.id;
    t.count = gpus;
    t.precision = precisionName(e.precision);
    t.stack = stackName(e.stack);
    t.known = e.known;
    if (e.memory.known && !e.memory.fits) {
        t.fitsMemory = false;
        t.fitReason = e.fit;
    }
    if (!e.known) {
        t.unknownReason = e.unknown;
        return t;
    }
    t.throughput = e.throughput;
    t.throughputUnit = e.unit;
    t.hours = e.computeHours;
    t.gpuHours = e.gpuHours;
    t.mfu = e.mfu;
    t.peakTflops = e.peak.tflops;
    t.peakUsed = e.peak.used;
    t.gpuFigures = confidenceName(e.gpuFigures);
    t.efficiency = e.efficiency;
    t.efficiencyBasis = e.efficiencyBasis;
    t.scaling = e.scaling;
    // What limits the run, and where the time of one GPU goes (the performance model's view).
    const Prediction& p = e.prediction;
    t.limitedBy = limiterName(e.limiter);
    t.timeShares = PlanTraining::TimeShares{p.computeShare, p.memoryShare, p.hostShare, p.communicationShare};
    t.inputPipelineCeiling = p.inputCeiling;
    t.storageCeiling = e.storageCeiling;
    t.nearness = int(e.nearness);
    t.basedOn = e.basedOn;
    t.userData = e.userData;
    if (e.memory.known) {
        t.fitsMemory = e.memory.fits;
    }
    t.memory = PlanTraining::Memory{shardingName(e.memory.sharding),
                                    e.memory.activationCheckpointing,
                                    e.memory.microBatch,
                                    e.memory.totalGb(),
                                    e.memory.capacityGb,
                                    e.memory.weightsGb,
                                    e.memory.gradientsGb,
                                    e.memory.optimizerGb,
                                    e.memory.activationsGb,
                                    e.memory.reserveGb};
    t.notes = e.notes;
    return t;
}

PlanDocument makePlanDocument(const Workload& workload,
                              const Constraints& constraints,
                              const Catalog& catalog,
                              const Recommendation& recommendation,
                              const std::string& created,
                              const std::string& notes,
                              const CostModel& model,
                              std::optional<BuyVsRent> buyVsRent)
{
    PlanDocument plan;
    plan.created = created;
    plan.notes = notes;
    plan.workload = planWorkload(workload);
    plan.constraints = constraints;
    plan.priceDate = newestPriceDate(catalog.offers());
    if (model.exchangeRate || catalog.exchangeRate()) {
        const ExchangeRate used = planExchangeRate(catalog, model);
        plan.exchangeRate = PlanExchangeRate{used.cnyPerUsd,
                                             used.source.url,
                                             used.source.asOf.empty() ? used.source.retrieved : used.source.asOf,
                                             used.userSet};
    }
    plan.assumptions = PlanAssumptions{model.setupHours,
                                       model.uploadMbps,
                                       model.checkpointWriteGBs,
                                       model.checkpointEveryHours,
                                       model.monteCarlo ? model.monteCarloRuns : 0};
    PlanResults& results = plan.results;
    results.objective = recommendation.objective;
    results.eligible = recommendation.eligibleCount;
    int rank = 0;
    for (const RankedOption& ranked : recommendation.options) {
        results.options.push_back(planOption(ranked, ++rank));
    }
    for (const Exclusion& x : recommendation.excluded) {
        results.excluded.push_back(
            {x.provider->id, x.provider->name, x.provider->nameZh, x.instanceType, x.region, x.rule, x.reason});
    }
    results.notes = recommendation.notes;
    plan.buyVsRent = std::move(buyVsRent);
    return plan;
}

PlanVerification makePlanVerification(const ProbeResult& result,
                                      const Verdict& verdict,
                                      const ExpectedHardware& promised,
                                      const std::string& host,
                                      const std::string& when)
{
    PlanVerification v;
    v.when = when;
    v.host = host;
    v.verdict = verdict.level;
    v.expectedGpu = promised.gpuId;
    v.expectedCount = promised.count;
    v.gpuName = result.gpus.empty() ? std::string() : result.gpus.front().name;
    v.gpuCount = static_cast<int>(result.gpus.size());
    v.driver = result.driver.version.value_or("");
    for (const VerdictLine& line : verdict.lines) {
        v.checks.push_back({line.check, line.gpu, line.level, line.measured, line.expected, line.reason});
    }
    return v;
}

const PlanMode* PlanOption::rankedMode() const
{
    for (const PlanMode& m : modes) {
        if (m.mode == mode && m.managedOffer.empty()) {
            return &m;
        }
    }
    return nullptr;
}

const PlanMode* PlanOption::firstEligible(bool (*matches)(PricingMode)) const
{
    for (const PlanMode& m : modes) {
        if (m.eligible && m.managedOffer.empty() && matches(m.mode)) {
            return &m;
        }
    }
    return nullptr;
}

std::string PlanOption::label() const
{
    return providerName + " " + instanceType + " (" + region + ")";
}

bool isOnDemand(PricingMode mode)
{
    return mode == PricingMode::OnDemand;
}

bool isSpot(PricingMode mode)
{
    return mode == PricingMode::Spot;
}

bool isReserved(PricingMode mode)
{
    return mode == PricingMode::Reserved1Year || mode == PricingMode::Reserved3Year;
}

bool isSubscription(PricingMode mode)
{
    return mode == PricingMode::SubscriptionMonthly || mode == PricingMode::SubscriptionYearly;
}

} // namespace gpuplan::core
