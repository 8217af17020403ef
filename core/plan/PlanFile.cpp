#include "gpuplan/plan/PlanFile.h"

#include "core/JsonChecker.h"
#include "gpuplan/core/Paths.h"

#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpuplan::core {

using nlohmann::json;
using Need = JsonChecker::Need;

json reasonJson(const Reason& r)
{
    return {{"key", r.key}, {"params", r.params}, {"text", r.text}};
}

json rangeJson(const Range& range)
{
    return {{"value", range.value}, {"low", range.low}, {"high", range.high}};
}

json trainingJson(const TrainingEstimate& e, const Workload& w, const GpuSpec& gpu, int gpus)
{
    json out = {{"workload", w.id},
                {"gpu", gpu.id},
                {"count", gpus},
                {"precision", precisionName(e.precision)},
                {"stack", stackName(e.stack)},
                {"known", e.known}};
    if (!e.known) {
        out["unknown_reason"] = e.unknown.text;
        if (e.memory.known && !e.memory.fits) {
            out["fits_memory"] = false;
            out["fit_reason"] = e.fit.text;
        }
        return out;
    }
    json throughput = rangeJson(e.throughput);
    throughput["unit"] = e.unit;
    out["throughput"] = throughput;
    out["hours"] = rangeJson(e.computeHours);
    out["gpu_hours"] = rangeJson(e.gpuHours);
    out["mfu"] = e.mfu ? json(*e.mfu) : json(nullptr);
    out["peak_tflops"] = {{"value", e.peak.tflops}, {"used", e.peak.used}};
    out["gpu_figures"] = confidenceName(e.gpuFigures);
    out["efficiency"] = rangeJson(e.efficiency);
    out["efficiency_basis"] = reasonJson(e.efficiencyBasis);
    out["scaling"] = rangeJson(e.scaling);
    // What limits the run, and where the time of one GPU goes (the performance model's view).
    const Prediction& p = e.prediction;
    out["limited_by"] = limiterName(e.limiter);
    out["time_shares"] = {{"compute", p.computeShare},
                          {"memory_bandwidth", p.memoryShare},
                          {"host", p.hostShare},
                          {"communication", p.communicationShare}};
    out["input_pipeline_ceiling"] = p.inputCeiling ? json(*p.inputCeiling) : json(nullptr);
    out["storage_ceiling"] = e.storageCeiling ? json(*e.storageCeiling) : json(nullptr);
    out["calibration"] = {{"nearness", int(e.nearness)}, {"based_on", e.basedOn}, {"user_data", e.userData}};
    out["fits_memory"] = e.memory.known ? json(e.memory.fits) : json(nullptr);
    out["memory"] = {{"strategy", e.memory.describe()},
                     {"per_gpu_gb", e.memory.totalGb()},
                     {"capacity_gb", e.memory.capacityGb},
                     {"weights_gb", e.memory.weightsGb},
                     {"gradients_gb", e.memory.gradientsGb},
                     {"optimizer_gb", e.memory.optimizerGb},
                     {"activations_gb", e.memory.activationsGb},
                     {"reserve_gb", e.memory.reserveGb}};
    if (e.memory.known && !e.memory.fits) {
        out["fit_reason"] = e.fit.text;
    }
    out["notes"] = e.notes;
    return out;
}

namespace {

json modeJson(const ModeCost& m, const Range& extrasCost, Currency currency)
{
    json out = {{"mode", pricingModeName(m.mode)},
                {"price",
                 {{"amount", m.price->amount},
                  {"currency", currencyCode(m.price->currency)},
                  {"unit", priceUnitName(m.price->unit)},
                  {"source", m.price->source.url},
                  {"as_of", m.price->source.asOf.empty() ? json(nullptr) : json(m.price->source.asOf)},
                  {"retrieved", m.price->source.retrieved}}},
                {"hours", rangeJson(m.hours)},
                {"cost", rangeJson(m.cost)},
                {"eligible", m.eligible}};
    if (!m.eligible) {
        out["why_not"] = reasonJson(m.why);
    }
    if (m.commitment) {
        out["commitment"] = {
            {"months", m.commitment->months}, {"amount", m.commitment->amount}, {"currency", currencyCode(currency)}};
    }
    if (m.spot) {
        json spot = {{"monthly_interruption", rangeJson(m.spot->rate.monthlyProbability)},
                     {"rate_source", m.spot->rate.source.url},
                     {"mtbf_hours", m.spot->mtbfHours},
                     {"checkpoint_interval_hours", m.spot->intervalHours},
                     {"checkpoint_hours", m.spot->checkpointHours},
                     {"expected_compute_hours", m.spot->expectedHours}};
        if (m.spot->simulated) {
            spot["monte_carlo"] = {{"p10_hours", m.spot->simulated->p10Hours},
                                   {"p25_hours", m.spot->simulated->p25Hours},
                                   {"p50_hours", m.spot->simulated->p50Hours},
                                   {"p75_hours", m.spot->simulated->p75Hours},
                                   {"p90_hours", m.spot->simulated->p90Hours},
                                   {"mean_hours", m.spot->simulated->meanHours},
                                   {"mean_interruptions", m.spot->simulated->meanInterruptions}};
            const SpotOutcome& mc = *m.spot->simulated;
            auto cost = [&](double hours) { return (hours + m.spot->extraHours) * m.spot->perHour + extrasCost.value; };
            spot["monte_carlo_cost"] = {{"p10", cost(mc.p10Hours)},
                                        {"p25", cost(mc.p25Hours)},
                                        {"p50", cost(mc.p50Hours)},
                                        {"p75", cost(mc.p75Hours)},
                                        {"p90", cost(mc.p90Hours)}};
            spot["extra_hours"] = m.spot->extraHours;
        }
        out["spot"] = spot;
    }
    return out;
}

} // namespace

json recommendationJson(const Recommendation& r, const Constraints& c)
{
    json options = json::array();
    int rank = 0;
    for (const RankedOption& o : r.options) {
        const OfferEstimate& e = o.estimate;
        json modes = json::array();
        for (const ModeCost& m : e.modes) {
            modes.push_back(modeJson(m, e.extrasCost, c.currency));
        }
        json reasons = json::array();
        for (const Reason& reason : o.reasons) {
            reasons.push_back(reasonJson(reason));
        }
        options.push_back(
            {{"rank", ++rank},
             {"provider", e.provider->id},
             {"instance_type", e.offer->instanceType},
             {"region", e.region},
             {"gpu", e.gpu->id},
             {"gpus", e.gpus},
             {"nodes", e.nodes},
             {"provider_name", e.provider->name},
             {"provider_name_zh", e.provider->nameZh},
             {"gpu_name", e.gpu->name},
             {"mode", pricingModeName(o.mode.mode)},
             {"spot_share", o.mode.spotShare},
             {"cost_breakdown",
              {{"compute",
                rangeJson(Range{o.mode.cost.value - e.extrasCost.value,
                                o.mode.cost.low - e.extrasCost.low,
                                o.mode.cost.high - e.extrasCost.high})},
               {"storage", rangeJson(e.storageCost)},
               {"egress", rangeJson(e.egressCost)}}},
             {"setup_hours", rangeJson(e.setupHours)},
             {"transfer_hours", rangeJson(e.transferHours)},
             {"checkpoint_hours", rangeJson(e.checkpointHours)},
             {"price_per_hour",
              o.mode.price->unit == PriceUnit::Hour ? json(o.mode.price->amount * e.nodes) : json(nullptr)},
             {"price_currency", currencyCode(o.mode.price->currency)},
             {"hours", rangeJson(o.mode.hours)},
             {"cost", rangeJson(o.mode.cost)},
             {"currency", currencyCode(c.currency)},
             {"modes", modes},
             {"training", trainingJson(*e.training, Workload{}, *e.gpu, e.gpus)},
             {"kwh", e.kwh ? json(*e.kwh) : json(nullptr)},
             {"kg_co2e", e.kgCo2e ? json(*e.kgCo2e) : json(nullptr)},
             {"reasons", reasons},
             {"notes", e.notes}});
        options.back()["training"].erase("workload");
    }
    json excluded = json::array();
    for (const Exclusion& x : r.excluded) {
        excluded.push_back({{"provider", x.provider->id},
                            {"provider_name", x.provider->name},
                            {"provider_name_zh", x.provider->nameZh},
                            {"instance_type", x.instanceType},
                            {"region", x.region},
                            {"rule", x.rule},
                            {"reason", reasonJson(x.reason)}});
    }
    return {{"objective", objectiveName(r.objective)},
            {"eligible", r.eligibleCount},
            {"options", options},
            {"excluded", excluded},
            {"notes", r.notes}};
}

json workloadJson(const Workload& w)
{
    json out = {{"id", w.id},
                {"name", w.name},
                {"task", taskTypeName(w.task)},
                {"class", modelClassName(w.modelClass)},
                {"method", trainingMethodName(w.method)},
                {"kind", workKindName(w.kind)},
                {"parameters", w.model.parameters},
                {"epochs", w.epochs},
                {"units", w.totalUnits()},
                {"unit", w.countsTokens() ? "tokens" : w.sampleUnit},
                {"definition", workloadDefinitionJson(w)}};
    if (w.countsTokens()) {
        out["tokens_per_epoch"] = w.tokensPerEpoch;
        out["sequence_length"] = w.sequenceLength;
    } else {
        out["samples_per_epoch"] = w.samplesPerEpoch;
    }
    return out;
}

json constraintsJson(const Constraints& c)
{
    json modes = json::array();
    for (PricingMode mode : c.modes) {
        modes.push_back(pricingModeName(mode));
    }
    return {{"budget", c.budget ? json(*c.budget) : json(nullptr)},
            {"currency", currencyCode(c.currency)},
            {"deadline_hours", c.deadlineHours ? json(*c.deadlineHours) : json(nullptr)},
            {"sensitive", c.sensitive},
            {"framework", c.framework},
            {"min_gpus", c.minGpus},
            {"max_gpus", c.maxGpus},
            {"precision", c.precision ? json(precisionName(*c.precision)) : json("auto")},
            {"project_months", c.projectMonths},
            {"top", c.top},
            {"spot_share", c.spotShare ? json(*c.spotShare) : json(nullptr)},
            {"modes", modes},
            {"multi_node", c.multiNode},
            {"require_rdma", c.requireRdma},
            {"countries", c.countries}};
}

Result<Constraints> constraintsFromJson(const json& node, const std::string& where)
{
    JsonChecker check(where);
    const std::string at = "$.constraints";
    Constraints c;
    if (!check.isObject(node, at)) {
        return check.takeProblems().front();
    }
    auto nullable = [&](const char* key) {
        return node.contains(key) && !node[key].is_null() ? check.positiveNumber(node, key, at, Need::Required)
                                                          : std::nullopt;
    };
    c.budget = nullable("budget");
    c.deadlineHours = nullable("deadline_hours");
    c.spotShare = nullable("spot_share");
    c.currency = check.choice(node, "currency", at, Need::Required, parseCurrency, "USD, CNY").value_or(Currency::CNY);
    c.sensitive = check.boolean(node, "sensitive", at, Need::Optional).value_or(false);
    c.framework = check.string(node, "framework", at, Need::Optional).value_or("pytorch");
    c.minGpus = check.count(node, "min_gpus", at, Need::Optional).value_or(1);
    c.maxGpus = check.count(node, "max_gpus", at, Need::Optional).value_or(64);
    const std::string precision = check.string(node, "precision", at, Need::Optional).value_or("auto");
    if (precision != "auto") {
        c.precision = parsePrecision(precision);
        if (!c.precision) {
            check.problem(JsonChecker::child(at, "precision"), "unknown precision \"" + precision + "\"");
        }
    }
    c.projectMonths = check.nonNegativeNumber(node, "project_months", at, Need::Optional).value_or(0);
    c.top = check.count(node, "top", at, Need::Optional).value_or(5);
    c.multiNode = check.boolean(node, "multi_node", at, Need::Optional).value_or(true);
    c.requireRdma = check.boolean(node, "require_rdma", at, Need::Optional).value_or(true);
    for (const std::string& country : check.stringList(node, "countries", at)) {
        if (Result<std::vector<std::string>> code = parseCountryCodes(country); code && code->size() == 1) {
            c.countries.push_back(code->front());
        } else {
            check.problem(JsonChecker::child(at, "countries"), "\"" + country + "\" is not a two-letter country code");
        }
    }
    for (const std::string& mode : check.stringList(node, "modes", at)) {
        if (std::optional<PricingMode> parsed = parsePricingMode(mode)) {
            c.modes.push_back(*parsed);
        } else {
            check.problem(JsonChecker::child(at, "modes"), "unknown pricing mode \"" + mode + "\"");
        }
    }
    std::vector<Error> problems = check.takeProblems();
    if (!problems.empty()) {
        return problems.front();
    }
    return c;
}

json planJson(const Workload& workload,
              const Constraints& constraints,
              const Catalog& catalog,
              const Recommendation& recommendation,
              const std::string& created,
              const std::string& notes,
              const CostModel& model,
              const json& buyVsRent)
{
    json rate = nullptr;
    if (model.exchangeRate || catalog.exchangeRate()) {
        const ExchangeRate used = planExchangeRate(catalog, model);
        rate = {{"cny_per_usd", used.cnyPerUsd},
                {"source", used.source.url},
                {"date", used.source.asOf.empty() ? used.source.retrieved : used.source.asOf},
                {"user_set", used.userSet}};
    }
    return {{"format", "gpuplan"},
            {"version", kPlanFormatVersion},
            {"created", created},
            {"workload", workloadJson(workload)},
            {"constraints", constraintsJson(constraints)},
            {"catalog", {{"price_date", newestPriceDate(catalog.offers())}, {"exchange_rate", rate}}},
            {"assumptions",
             {{"setup_hours", rangeJson(model.setupHours)},
              {"upload_mbps", rangeJson(model.uploadMbps)},
              {"checkpoint_write_gb_s", model.checkpointWriteGBs},
              {"checkpoint_every_hours", model.checkpointEveryHours},
              {"monte_carlo_runs", model.monteCarlo ? model.monteCarloRuns : 0}}},
            {"results", recommendationJson(recommendation, constraints)},
            {"buy_vs_rent", buyVsRent},
            {"choice", nullptr},
            {"notes", notes}};
}

json verificationJson(const ProbeResult& result,
                      const Verdict& verdict,
                      const ExpectedHardware& promised,
                      const std::string& host,
                      const std::string& when)
{
    json lines = json::array();
    for (const VerdictLine& line : verdict.lines) {
        lines.push_back({{"check", line.check},
                         {"gpu", line.gpu ? json(*line.gpu) : json(nullptr)},
                         {"level", verdictLevelName(line.level)},
                         {"measured", line.measured},
                         {"expected", line.expected},
                         {"reason", reasonJson(line.reason)}});
    }
    return {{"when", when},
            {"host", host},
            {"verdict", verdictLevelName(verdict.level)},
            {"expected_gpu", promised.gpuId},
            {"expected_count", promised.count},
            {"gpu_name", result.gpus.empty() ? std::string() : result.gpus.front().name},
            {"gpu_count", result.gpus.size()},
            {"driver", result.driver.version.value_or("")},
            {"lines", lines}};
}

void addVerification(json& plan, const json& verification)
{
    json& list = plan["verifications"];
    if (!list.is_array()) {
        list = json::array();
    }
    list.push_back(verification);
}

Status savePlan(const std::filesystem::path& file, const json& plan)
{
    // Replace, never rewrite in place: a crash or a full disk mid-write must leave the previous plan whole.
    return writeFileAtomically(
        file, plan.dump(2, ' ', false, json::error_handler_t::replace) + '\n', FileAccess::KeepOrPrivate);
}

namespace {

/// What a member of a plan may be: the JSON kinds the writers (planJson, buyVsRentJson, verificationJson) produce.
enum Kind : unsigned
{
    Null = 1U << 0,
    Bool = 1U << 1,
    Whole = 1U << 2, // an integer from -1e9 to 1e9 (the readers keep it in an int)
    Number = 1U << 3,
    Text = 1U << 4,
    List = 1U << 5,
    Object = 1U << 6,
    Required = 1U << 7, // the writers always write it; readers index it without looking
};

/// How long a text may be: names, ids and sources are short; anything longer is not from GPU Planner, and
/// unbounded text would make the report's layout slow (wrapping is worse than linear in an unbroken word).
constexpr std::size_t kMaxShortText = 1000;
constexpr std::size_t kMaxLongText = 20000;

struct Rule
{
    std::string_view path;
    unsigned kinds;
    std::string_view as = {}; // the children follow this shared shape ("@range", "@reason", "@line")
    std::size_t maxText = kMaxShortText;
};

/// The plan document, path by path ("[]" is any element of a list, "*" any member). Members not listed are
/// kept but not read; their text is bounded all the same.
constexpr Rule kRules[] = {
    {"$", Object},
    {"$.format", Text | Required},
    {"$.version", Whole | Required},
    {"$.created", Text},
    {"$.notes", Text, {}, kMaxLongText},
    {"$.choice", Null | Whole},
    {"$.workload", Object | Required},
    {"$.workload.id", Text},
    {"$.workload.name", Text},
    {"$.workload.task", Text},
    {"$.workload.class", Text},
    {"$.workload.method", Text},
    {"$.workload.kind", Text},
    {"$.workload.parameters", Number},
    {"$.workload.epochs", Number},
    {"$.workload.units", Number},
    {"$.workload.unit", Text},
    {"$.workload.tokens_per_epoch", Number},
    {"$.workload.sequence_length", Number},
    {"$.workload.samples_per_epoch", Number},
    {"$.workload.definition", Object},
    {"$.workload.definition.name", Text},
    {"$.workload.definition.name_zh", Text},
    {"$.workload.definition.description", Text, {}, kMaxLongText},
    {"$.workload.definition.description_zh", Text, {}, kMaxLongText},
    {"$.workload.definition.sources[].note", Text, {}, kMaxLongText},
    {"$.constraints", Object | Required},
    {"$.constraints.budget", Null | Number},
    {"$.constraints.currency", Text},
    {"$.constraints.deadline_hours", Null | Number},
    {"$.constraints.sensitive", Bool},
    {"$.constraints.framework", Text},
    {"$.constraints.min_gpus", Whole},
    {"$.constraints.max_gpus", Whole},
    {"$.constraints.precision", Text},
    {"$.constraints.project_months", Number},
    {"$.constraints.top", Whole},
    {"$.constraints.spot_share", Null | Number},
    {"$.constraints.modes", List},
    {"$.constraints.modes[]", Text},
    {"$.constraints.multi_node", Bool},
    {"$.constraints.require_rdma", Bool},
    {"$.constraints.countries", List},
    {"$.constraints.countries[]", Text},
    {"$.catalog", Object | Required},
    {"$.catalog.price_date", Text},
    {"$.catalog.exchange_rate", Null | Object},
    {"$.catalog.exchange_rate.cny_per_usd", Number | Required},
    {"$.catalog.exchange_rate.source", Text},
    {"$.catalog.exchange_rate.date", Text},
    {"$.catalog.exchange_rate.user_set", Bool},
    {"$.assumptions", Object},
    {"$.assumptions.setup_hours", Object, "@range"},
    {"$.assumptions.upload_mbps", Object, "@range"},
    {"$.assumptions.checkpoint_write_gb_s", Number},
    {"$.assumptions.checkpoint_every_hours", Number},
    {"$.assumptions.monte_carlo_runs", Whole},
    {"$.results", Object | Required},
    {"$.results.objective", Text},
    {"$.results.eligible", Whole},
    {"$.results.notes", List},
    {"$.results.notes[]", Text, {}, kMaxLongText},
    {"$.results.excluded", List},
    {"$.results.excluded[]", Object},
    {"$.results.excluded[].provider", Text},
    {"$.results.excluded[].provider_name", Text},
    {"$.results.excluded[].provider_name_zh", Text},
    {"$.results.excluded[].instance_type", Text},
    {"$.results.excluded[].region", Text},
    {"$.results.excluded[].rule", Text},
    {"$.results.excluded[].reason", Object | Required, "@reason"},
    {"$.results.options", List | Required},
    {"$.results.options[]", Object},
    {"$.results.options[].rank", Whole},
    {"$.results.options[].provider", Text | Required},
    {"$.results.options[].instance_type", Text | Required},
    {"$.results.options[].region", Text | Required},
    {"$.results.options[].gpu", Text},
    {"$.results.options[].gpus", Whole | Required},
    {"$.results.options[].nodes", Whole},
    {"$.results.options[].provider_name", Text},
    {"$.results.options[].provider_name_zh", Text},
    {"$.results.options[].gpu_name", Text},
    {"$.results.options[].mode", Text | Required},
    {"$.results.options[].spot_share", Null | Number},
    {"$.results.options[].cost_breakdown", Object | Required},
    {"$.results.options[].cost_breakdown.compute", Object | Required, "@range"},
    {"$.results.options[].cost_breakdown.storage", Object | Required, "@range"},
    {"$.results.options[].cost_breakdown.egress", Object | Required, "@range"},
    {"$.results.options[].setup_hours", Object | Required, "@range"},
    {"$.results.options[].transfer_hours", Object | Required, "@range"},
    {"$.results.options[].checkpoint_hours", Object, "@range"},
    {"$.results.options[].price_per_hour", Null | Number},
    {"$.results.options[].price_currency", Text},
    {"$.results.options[].hours", Object | Required, "@range"},
    {"$.results.options[].cost", Object | Required, "@range"},
    {"$.results.options[].currency", Text},
    {"$.results.options[].modes", List | Required},
    {"$.results.options[].modes[]", Object},
    {"$.results.options[].modes[].mode", Text | Required},
    {"$.results.options[].modes[].price", Object | Required},
    {"$.results.options[].modes[].price.amount", Number | Required},
    {"$.results.options[].modes[].price.currency", Text | Required},
    {"$.results.options[].modes[].price.unit", Text},
    {"$.results.options[].modes[].price.source", Text},
    {"$.results.options[].modes[].price.as_of", Null | Text},
    {"$.results.options[].modes[].price.retrieved", Text},
    {"$.results.options[].modes[].price.date", Text}, // plans written before prices had two dates
    {"$.results.options[].modes[].hours", Object | Required, "@range"},
    {"$.results.options[].modes[].cost", Object | Required, "@range"},
    {"$.results.options[].modes[].eligible", Bool | Required},
    {"$.results.options[].modes[].why_not", Object, "@reason"},
    {"$.results.options[].modes[].commitment", Object},
    {"$.results.options[].modes[].commitment.months", Number | Required},
    {"$.results.options[].modes[].commitment.amount", Number | Required},
    {"$.results.options[].modes[].commitment.currency", Text},
    {"$.results.options[].modes[].spot", Object},
    {"$.results.options[].modes[].spot.monthly_interruption", Object | Required, "@range"},
    {"$.results.options[].modes[].spot.rate_source", Text},
    {"$.results.options[].modes[].spot.mtbf_hours", Number},
    {"$.results.options[].modes[].spot.checkpoint_interval_hours", Number},
    {"$.results.options[].modes[].spot.checkpoint_hours", Number},
    {"$.results.options[].modes[].spot.expected_compute_hours", Number},
    {"$.results.options[].modes[].spot.extra_hours", Number},
    {"$.results.options[].modes[].spot.monte_carlo", Object},
    {"$.results.options[].modes[].spot.monte_carlo.*", Number},
    {"$.results.options[].modes[].spot.monte_carlo_cost", Object},
    {"$.results.options[].modes[].spot.monte_carlo_cost.*", Number},
    {"$.results.options[].training", Object | Required},
    {"$.results.options[].training.gpu", Text},
    {"$.results.options[].training.count", Whole},
    {"$.results.options[].training.precision", Text},
    {"$.results.options[].training.stack", Text},
    {"$.results.options[].training.known", Bool},
    {"$.results.options[].training.unknown_reason", Text},
    {"$.results.options[].training.throughput", Object},
    {"$.results.options[].training.throughput.value", Number},
    {"$.results.options[].training.throughput.low", Number},
    {"$.results.options[].training.throughput.high", Number},
    {"$.results.options[].training.throughput.unit", Text},
    {"$.results.options[].training.hours", Object, "@range"},
    {"$.results.options[].training.gpu_hours", Object, "@range"},
    {"$.results.options[].training.mfu", Null | Number},
    {"$.results.options[].training.peak_tflops", Object},
    {"$.results.options[].training.peak_tflops.value", Number},
    {"$.results.options[].training.peak_tflops.used", Text},
    {"$.results.options[].training.efficiency", Object, "@range"},
    {"$.results.options[].training.efficiency_basis", Object, "@reason"},
    {"$.results.options[].training.scaling", Object, "@range"},
    {"$.results.options[].training.limited_by", Text},
    {"$.results.options[].training.gpu_figures", Text},
    {"$.results.options[].training.time_shares", Object},
    {"$.results.options[].training.time_shares.*", Number},
    {"$.results.options[].training.input_pipeline_ceiling", Null | Number},
    {"$.results.options[].training.storage_ceiling", Null | Number},
    {"$.results.options[].training.calibration", Object},
    {"$.results.options[].training.calibration.nearness", Whole},
    {"$.results.options[].training.calibration.based_on", List},
    {"$.results.options[].training.calibration.based_on[]", Text},
    {"$.results.options[].training.calibration.user_data", Bool},
    {"$.results.options[].training.fits_memory", Null | Bool},
    {"$.results.options[].training.memory", Object},
    {"$.results.options[].training.memory.strategy", Text},
    {"$.results.options[].training.memory.*", Number},
    {"$.results.options[].training.fit_reason", Text},
    {"$.results.options[].training.notes", List},
    {"$.results.options[].training.notes[]", Text},
    {"$.results.options[].kwh", Null | Number},
    {"$.results.options[].kg_co2e", Null | Number},
    {"$.results.options[].reasons", List},
    {"$.results.options[].reasons[]", Object, "@reason"},
    {"$.results.options[].notes", List},
    {"$.results.options[].notes[]", Text},
    {"$.buy_vs_rent", Null | Object},
    {"$.buy_vs_rent.available", Bool | Required},
    {"$.buy_vs_rent.reason", Text},
    {"$.buy_vs_rent.system", Text},
    {"$.buy_vs_rent.gpu", Text},
    {"$.buy_vs_rent.gpu_name", Text},
    {"$.buy_vs_rent.gpus", Whole},
    {"$.buy_vs_rent.power_w", Number},
    {"$.buy_vs_rent.currency", Text},
    {"$.buy_vs_rent.utilisation", Number},
    {"$.buy_vs_rent.pue", Number},
    {"$.buy_vs_rent.maintenance_per_year", Number},
    {"$.buy_vs_rent.depreciation_years", Number},
    {"$.buy_vs_rent.electricity_per_kwh", Null | Number},
    {"$.buy_vs_rent.months", Whole},
    {"$.buy_vs_rent.own", Object, "@line"},
    {"$.buy_vs_rent.rent", List},
    {"$.buy_vs_rent.rent[]", Object, "@line"},
    {"$.verifications", List},
    {"$.verifications[]", Object},
    {"$.verifications[].when", Text | Required},
    {"$.verifications[].host", Text | Required},
    {"$.verifications[].verdict", Text | Required},
    {"$.verifications[].expected_gpu", Text},
    {"$.verifications[].expected_count", Whole},
    {"$.verifications[].gpu_name", Text},
    {"$.verifications[].gpu_count", Whole},
    {"$.verifications[].driver", Text},
    {"$.verifications[].lines", List | Required},
    {"$.verifications[].lines[]", Object},
    {"$.verifications[].lines[].check", Text | Required},
    {"$.verifications[].lines[].gpu", Null | Whole | Required},
    {"$.verifications[].lines[].level", Text | Required},
    {"$.verifications[].lines[].measured", Text},
    {"$.verifications[].lines[].expected", Text},
    {"$.verifications[].lines[].reason", Object | Required, "@reason"},
    {"$.ledger", List},
    {"$.ledger[]", Object},
    {"$.ledger[].provider", Text},
    {"$.ledger[].instance_id", Text},
    {"$.ledger[].instance_type", Text},
    {"$.ledger[].region", Text},
    {"$.ledger[].started", Text},
    {"$.ledger[].ended", Text},
    {"$.ledger[].hours", Number},
    {"$.ledger[].cost", Number},
    {"$.ledger[].currency", Text},
    // Shared shapes.
    {"@range.value", Number | Required},
    {"@range.low", Number | Required},
    {"@range.high", Number | Required},
    {"@reason.key", Text},
    {"@reason.params", Object},
    {"@reason.params.*", Text | Number},
    {"@reason.text", Text, {}, kMaxLongText},
    {"@line.key", Text},
    {"@line.offer", Text},
    {"@line.upfront", Number},
    {"@line.monthly", Number},
    {"@line.cumulative", List},
    {"@line.cumulative[]", Number},
    {"@line.break_even_month", Null | Number},
    {"@line.source", Text},
    {"@line.date", Text},
};

std::string kindsText(unsigned kinds)
{
    std::string out;
    for (auto [kind, name] : {std::pair{Object, "an object"},
                              std::pair{List, "an array"},
                              std::pair{Text, "a string"},
                              std::pair{Whole, "a whole number"},
                              std::pair{Number, "a number"},
                              std::pair{Bool, "true or false"},
                              std::pair{Null, "null"}}) {
        if (kinds & kind) {
            out += (out.empty() ? "" : " or ") + std::string(name);
        }
    }
    return out;
}

bool hasKind(const json& value, unsigned kinds)
{
    switch (value.type()) {
        case json::value_t::null:
            return kinds & Null;
        case json::value_t::boolean:
            return kinds & Bool;
        case json::value_t::number_integer:
        case json::value_t::number_unsigned: {
            if (kinds & Number) {
                return true;
            }
            const double n = value.get<double>();
            return (kinds & Whole) && n >= -1e9 && n <= 1e9;
        }
        case json::value_t::number_float:
            return kinds & Number;
        case json::value_t::string:
            return kinds & Text;
        case json::value_t::array:
            return kinds & List;
        case json::value_t::object:
            return kinds & Object;
        default:
            return false;
    }
}

class PlanShape
{
public:
    PlanShape()
    {
        for (const Rule& rule : kRules) {
            m_rules.emplace(rule.path, &rule);
            if (rule.kinds & Required) {
                const std::size_t dot = rule.path.rfind('.');
                m_required[rule.path.substr(0, dot)].push_back(rule.path.substr(dot + 1));
            }
        }
    }

    /// The first problem of `plan`, or Ok. Iterative over the document's depth (parseJson bounds it at 32).
    Status check(const json& plan, const std::string& file) const { return visit(plan, "$", "$", file); }

private:
    const Rule* find(const std::string& pattern) const
    {
        auto it = m_rules.find(pattern);
        return it == m_rules.end() ? nullptr : it->second;
    }

    Status visit(const json& node, const std::string& path, const std::string& pattern, const std::string& file) const
    {
        const Rule* rule = find(pattern);
        if (!rule) {
            // A member not listed: "*" covers every member of its parent.
            const std::size_t dot = pattern.rfind('.');
            if (dot != std::string::npos && pattern.back() != ']') {
                rule = find(pattern.substr(0, dot) + ".*");
            }
        }
        if (rule && !hasKind(node, rule->kinds)) {
            return Error{ErrorCode::SchemaViolation,
                         "must be " + kindsText(rule->kinds) + ", found " + describeJson(node),
                         file + ": " + path};
        }
        const std::size_t maxText = rule ? rule->maxText : kMaxShortText;
        if (node.is_string() && node.get_ref<const std::string&>().size() > maxText) {
            return Error{ErrorCode::SchemaViolation,
                         "text of " + std::to_string(node.get_ref<const std::string&>().size())
                             + " characters; a plan's text is at most " + std::to_string(maxText),
                         file + ": " + path};
        }
        const std::string shape = rule && !rule->as.empty() ? std::string(rule->as) : pattern;
        if (node.is_object()) {
            if (auto it = m_required.find(shape); it != m_required.end()) {
                for (std::string_view key : it->second) {
                    if (!node.contains(key)) {
                        return Error{ErrorCode::SchemaViolation,
                                     "required field is missing",
                                     file + ": " + path + "." + std::string(key)};
                    }
                }
            }
            for (const auto& [key, value] : node.items()) {
                if (key.size() > kMaxShortText) {
                    return Error{ErrorCode::SchemaViolation, "a member name is too long", file + ": " + path};
                }
                if (Status s = visit(value, path + "." + key, shape + "." + key, file); !s) {
                    return s;
                }
            }
        } else if (node.is_array()) {
            for (std::size_t i = 0; i < node.size(); ++i) {
                if (Status s = visit(node[i], path + "[" + std::to_string(i) + "]", shape + "[]", file); !s) {
                    return s;
                }
            }
        }
        return Ok{};
    }

    std::unordered_map<std::string_view, const Rule*> m_rules;
    std::unordered_map<std::string_view, std::vector<std::string_view>> m_required;
};

/// Plans are a few hundred kilobytes; a file far larger is not one, and reading it whole would only waste memory.
constexpr std::uintmax_t kMaxPlanBytes = 32U << 20U;

} // namespace

Status checkPlan(const json& plan, const std::string& where)
{
    if (!plan.is_object() || plan.value("format", json()) != "gpuplan") {
        return Error{
            ErrorCode::SchemaViolation, "not a GPU Planner plan (no \"format\": \"gpuplan\")", where + ": $.format"};
    }
    const json version = plan.value("version", json());
    if (!version.is_number_integer() || version.get<long long>() < 1) {
        return Error{ErrorCode::SchemaViolation,
                     "the plan has no valid version number (found " + describeJson(version) + ")",
                     where + ": $.version"};
    }
    if (version.get<long long>() > kPlanFormatVersion) {
        return Error{ErrorCode::SchemaViolation,
                     "written by a newer GPU Planner (plan version " + std::to_string(version.get<long long>())
                         + "); this one reads up to version " + std::to_string(kPlanFormatVersion) + ": update it",
                     where + ": $.version"};
    }
    static const PlanShape shape;
    return shape.check(plan, where);
}

Result<json> loadPlan(const std::filesystem::path& file)
{
    std::error_code ec;
    if (const std::uintmax_t size = std::filesystem::file_size(file, ec); !ec && size > kMaxPlanBytes) {
        return Error{ErrorCode::SchemaViolation,
                     "is " + std::to_string(size >> 20U) + " MB; a plan is at most "
                         + std::to_string(kMaxPlanBytes >> 20U) + " MB",
                     file.string()};
    }
    Result<json> document = readJsonDocument(file);
    if (!document) {
        return document.error();
    }
    if (Status checked = checkPlan(*document, file.string()); !checked) {
        return checked.error();
    }
    return document;
}

} // namespace gpuplan::core
