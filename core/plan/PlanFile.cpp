#include "gpuplan/plan/PlanFile.h"

#include "core/JsonChecker.h"

#include <fstream>

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
                {"known", e.known}};
    if (!e.known) {
        out["unknown_reason"] = e.unknown.text;
        return out;
    }
    json throughput = rangeJson(e.throughput);
    throughput["unit"] = e.unit;
    out["throughput"] = throughput;
    out["hours"] = rangeJson(e.computeHours);
    out["gpu_hours"] = rangeJson(e.gpuHours);
    out["mfu"] = e.mfu ? json(*e.mfu) : json(nullptr);
    out["peak_tflops"] = {{"value", e.peak.tflops}, {"used", e.peak.used}};
    out["efficiency"] = rangeJson(e.efficiency);
    out["efficiency_basis"] = reasonJson(e.efficiencyBasis);
    out["scaling"] = rangeJson(e.scaling);
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
                  {"date", m.price->source.date}}},
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
                {"date", used.source.date},
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
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << plan.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
    out.close();
    if (!out) {
        return Error{ErrorCode::FileUnreadable, "cannot write the plan", file.string()};
    }
    return Ok{};
}

Result<json> loadPlan(const std::filesystem::path& file)
{
    Result<json> document = readJsonDocument(file);
    if (!document) {
        return document.error();
    }
    const json& plan = *document;
    if (!plan.is_object() || plan.value("format", json()) != "gpuplan") {
        return Error{ErrorCode::SchemaViolation,
                     "not a GPU Planner plan (no \"format\": \"gpuplan\")",
                     file.string() + ": $.format"};
    }
    const json version = plan.value("version", json());
    if (!version.is_number_integer() || version.get<long long>() < 1) {
        return Error{ErrorCode::SchemaViolation,
                     "the plan has no valid version number (found " + describeJson(version) + ")",
                     file.string() + ": $.version"};
    }
    if (version.get<long long>() > kPlanFormatVersion) {
        return Error{ErrorCode::SchemaViolation,
                     "written by a newer GPU Planner (plan version " + std::to_string(version.get<long long>())
                         + "); this one reads up to version " + std::to_string(kPlanFormatVersion) + ": update it",
                     file.string() + ": $.version"};
    }
    for (const char* member : {"workload", "constraints", "catalog", "results"}) {
        if (!plan.contains(member) || !plan[member].is_object()) {
            return Error{ErrorCode::SchemaViolation,
                         std::string("missing the \"") + member + "\" object",
                         file.string() + ": $." + member};
        }
    }
    return plan;
}

} // namespace gpuplan::core
