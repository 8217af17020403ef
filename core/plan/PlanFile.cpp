#include "gpuplan/plan/PlanFile.h"

#include "core/JsonChecker.h"
#include "gpuplan/core/Paths.h"
#include "gpuplan/workload/WorkloadLoader.h"
#include "plan/PlanReader.h"

#include <utility>
#include <vector>

namespace gpuplan::core {

using nlohmann::json;
using Need = JsonChecker::Need;

// ---- Writing -------------------------------------------------------------------------------------------------

json reasonJson(const Reason& r)
{
    return {{"key", r.key}, {"params", r.params}};
}

json reasonsJson(const std::vector<Reason>& reasons)
{
    json out = json::array();
    for (const Reason& reason : reasons) {
        out.push_back(reasonJson(reason));
    }
    return out;
}

namespace {

json rangeJson(const Range& range)
{
    return {{"value", range.value}, {"low", range.low}, {"high", range.high}};
}

template <typename T>
json orNull(const std::optional<T>& value)
{
    return value ? json(*value) : json(nullptr);
}

json planTrainingJson(const PlanTraining& t)
{
    json out = {{"gpu", t.gpu}, {"count", t.count}, {"precision", t.precision}, {"stack", t.stack}, {"known", t.known}};
    if (!t.known) {
        out["unknown_reason"] = reasonJson(t.unknownReason);
        if (t.fitsMemory == false) {
            out["fits_memory"] = false;
            out["fit_reason"] = reasonJson(t.fitReason);
        }
        return out;
    }
    json throughput = rangeJson(t.throughput);
    throughput["unit"] = t.throughputUnit;
    out["throughput"] = throughput;
    out["hours"] = rangeJson(t.hours);
    out["gpu_hours"] = rangeJson(t.gpuHours);
    out["mfu"] = orNull(t.mfu);
    out["peak_tflops"] = {{"value", t.peakTflops}, {"used", t.peakUsed}};
    out["gpu_figures"] = t.gpuFigures;
    out["efficiency"] = rangeJson(t.efficiency);
    out["efficiency_basis"] = reasonJson(t.efficiencyBasis);
    out["scaling"] = rangeJson(t.scaling);
    out["limited_by"] = t.limitedBy;
    if (t.timeShares) {
        out["time_shares"] = {{"compute", t.timeShares->compute},
                              {"memory_bandwidth", t.timeShares->memoryBandwidth},
                              {"host", t.timeShares->host},
                              {"communication", t.timeShares->communication}};
    }
    out["input_pipeline_ceiling"] = orNull(t.inputPipelineCeiling);
    out["storage_ceiling"] = orNull(t.storageCeiling);
    out["calibration"] = {{"nearness", t.nearness}, {"based_on", t.basedOn}, {"user_data", t.userData}};
    out["fits_memory"] = orNull(t.fitsMemory);
    if (t.memory) {
        const PlanTraining::Memory& m = *t.memory;
        out["memory"] = {{"sharding", m.sharding},
                         {"activation_checkpointing", m.activationCheckpointing},
                         {"micro_batch", m.microBatch},
                         {"per_gpu_gb", m.perGpuGb},
                         {"capacity_gb", m.capacityGb},
                         {"weights_gb", m.weightsGb},
                         {"gradients_gb", m.gradientsGb},
                         {"optimizer_gb", m.optimizerGb},
                         {"activations_gb", m.activationsGb},
                         {"reserve_gb", m.reserveGb}};
    }
    if (t.fitsMemory == false) {
        out["fit_reason"] = reasonJson(t.fitReason);
    }
    out["notes"] = reasonsJson(t.notes);
    return out;
}

json modeJson(const PlanMode& m, Currency currency)
{
    json out = {{"mode", pricingModeName(m.mode)},
                {"price",
                 {{"amount", m.price.amount},
                  {"currency", currencyCode(m.price.currency)},
                  {"unit", priceUnitName(m.price.unit)},
                  {"source", m.price.source},
                  {"as_of", m.price.asOf.empty() ? json(nullptr) : json(m.price.asOf)},
                  {"retrieved", m.price.retrieved}}},
                {"hours", rangeJson(m.hours)},
                {"cost", rangeJson(m.cost)},
                {"eligible", m.eligible}};
    if (!m.eligible) {
        out["why_not"] = reasonJson(m.whyNot);
    }
    if (!m.managedOffer.empty()) {
        out["managed_offer"] = m.managedOffer;
    }
    if (m.commitment) {
        out["commitment"] = {
            {"months", m.commitment->months}, {"amount", m.commitment->amount}, {"currency", currencyCode(currency)}};
    }
    if (m.spot) {
        const PlanSpot& s = *m.spot;
        json spot = {{"monthly_interruption", rangeJson(s.monthlyInterruption)},
                     {"rate_source", s.rateSource},
                     {"mtbf_hours", s.mtbfHours},
                     {"checkpoint_interval_hours", s.checkpointIntervalHours},
                     {"checkpoint_hours", s.checkpointHours},
                     {"expected_compute_hours", s.expectedComputeHours}};
        if (s.simulated) {
            const SpotOutcome& mc = *s.simulated;
            spot["monte_carlo"] = {{"p10_hours", mc.p10Hours},
                                   {"p25_hours", mc.p25Hours},
                                   {"p50_hours", mc.p50Hours},
                                   {"p75_hours", mc.p75Hours},
                                   {"p90_hours", mc.p90Hours},
                                   {"mean_hours", mc.meanHours},
                                   {"mean_interruptions", mc.meanInterruptions}};
            spot["extra_hours"] = s.extraHours;
        }
        if (s.simulatedCost) {
            const PlanSpot::CostPercentiles& c = *s.simulatedCost;
            spot["monte_carlo_cost"] = {{"p10", c.p10}, {"p25", c.p25}, {"p50", c.p50}, {"p75", c.p75}, {"p90", c.p90}};
        }
        out["spot"] = spot;
    }
    return out;
}

json optionJson(const PlanOption& o, Currency currency)
{
    json modes = json::array();
    for (const PlanMode& m : o.modes) {
        modes.push_back(modeJson(m, currency));
    }
    json reasons = json::array();
    for (const Reason& reason : o.reasons) {
        reasons.push_back(reasonJson(reason));
    }
    return {{"rank", o.rank},
            {"provider", o.provider},
            {"instance_type", o.instanceType},
            {"region", o.region},
            {"gpu", o.gpu},
            {"gpus", o.gpus},
            {"nodes", o.nodes},
            {"provider_name", o.providerName},
            {"provider_name_zh", o.providerNameZh},
            {"gpu_name", o.gpuName},
            {"mode", pricingModeName(o.mode)},
            {"spot_share", o.spotShare},
            {"cost_breakdown",
             {{"compute", rangeJson(o.computeCost)},
              {"storage", rangeJson(o.storageCost)},
              {"egress", rangeJson(o.egressCost)}}},
            {"setup_hours", rangeJson(o.setupHours)},
            {"transfer_hours", rangeJson(o.transferHours)},
            {"checkpoint_hours", rangeJson(o.checkpointHours)},
            {"price_per_hour", orNull(o.pricePerHour)},
            {"price_currency", currencyCode(o.priceCurrency)},
            {"hours", rangeJson(o.hours)},
            {"cost", rangeJson(o.cost)},
            {"currency", currencyCode(currency)},
            {"modes", modes},
            {"training", planTrainingJson(o.training)},
            {"kwh", orNull(o.kwh)},
            {"kg_co2e", orNull(o.kgCo2e)},
            {"reasons", reasons},
            {"notes", reasonsJson(o.notes)}};
}

json resultsJson(const PlanResults& r, Currency currency)
{
    json options = json::array();
    for (const PlanOption& o : r.options) {
        options.push_back(optionJson(o, currency));
    }
    json excluded = json::array();
    for (const PlanExclusion& x : r.excluded) {
        excluded.push_back({{"provider", x.provider},
                            {"provider_name", x.providerName},
                            {"provider_name_zh", x.providerNameZh},
                            {"instance_type", x.instanceType},
                            {"region", x.region},
                            {"rule", x.rule},
                            {"reason", reasonJson(x.reason)}});
    }
    return {{"objective", objectiveName(r.objective)},
            {"eligible", r.eligible},
            {"options", options},
            {"excluded", excluded},
            {"notes", reasonsJson(r.notes)}};
}

json workloadJson(const PlanWorkload& w)
{
    json out = {{"id", w.id},
                {"name", w.name},
                {"task", w.task},
                {"class", w.modelClass},
                {"method", w.method},
                {"kind", w.kind},
                {"parameters", w.parameters},
                {"epochs", w.epochs},
                {"units", w.units},
                {"unit", w.unit}};
    if (w.tokensPerEpoch) {
        out["tokens_per_epoch"] = *w.tokensPerEpoch;
    }
    if (w.sequenceLength) {
        out["sequence_length"] = *w.sequenceLength;
    }
    if (w.samplesPerEpoch) {
        out["samples_per_epoch"] = *w.samplesPerEpoch;
    }
    if (w.definition) {
        out["definition"] = workloadDefinitionJson(*w.definition);
    }
    return out;
}

json spendJson(const PlanSpend& s)
{
    return {{"provider", s.provider},
            {"instance_id", s.instanceId},
            {"instance_type", s.instanceType},
            {"region", s.region},
            {"started", s.started},
            {"ended", s.ended},
            {"hours", s.hours},
            {"cost", s.cost},
            {"currency", s.currency}};
}

json planRunJson(const PlanRun& r)
{
    json out = {{"host", r.host},
                {"provider", r.provider},
                {"instance_type", r.instanceType},
                {"state", r.state},
                {"started", r.started},
                {"ended", r.ended},
                {"hours", r.hours},
                {"throughput_unit", r.throughputUnit},
                {"planned_currency", r.plannedCurrency},
                {"cost_currency", r.costCurrency}};
    // Unknown figures are left out, never written as 0.
    const std::pair<const char*, const std::optional<double>*> figures[] = {
        {"planned_hours", &r.plannedHours},
        {"planned_hours_low", &r.plannedHoursLow},
        {"planned_hours_high", &r.plannedHoursHigh},
        {"planned_throughput", &r.plannedThroughput},
        {"planned_throughput_low", &r.plannedThroughputLow},
        {"planned_throughput_high", &r.plannedThroughputHigh},
        {"throughput", &r.throughput},
        {"planned_cost", &r.plannedCost},
        {"cost", &r.cost},
        {"gpu_utilization", &r.gpuUtilization}};
    for (const auto& [key, value] : figures) {
        if (*value) {
            out[key] = **value;
        }
    }
    if (r.exitCode) {
        out["exit_code"] = *r.exitCode;
    }
    return out;
}

} // namespace

json trainingJson(const TrainingEstimate& e, const Workload& w, const GpuSpec& gpu, int gpus)
{
    json out = planTrainingJson(makePlanTraining(e, gpu, gpus));
    out["workload"] = w.id;
    return out;
}

json verificationJson(const PlanVerification& v)
{
    json lines = json::array();
    for (const PlanCheck& c : v.checks) {
        lines.push_back({{"check", c.check},
                         {"gpu", orNull(c.gpu)},
                         {"level", verdictLevelName(c.level)},
                         {"measured", c.measured.empty() ? json("") : reasonJson(c.measured)},
                         {"expected", c.expected.empty() ? json("") : reasonJson(c.expected)},
                         {"reason", reasonJson(c.reason)}});
    }
    return {{"when", v.when},
            {"host", v.host},
            {"verdict", verdictLevelName(v.verdict)},
            {"expected_gpu", v.expectedGpu},
            {"expected_count", v.expectedCount},
            {"gpu_name", v.gpuName},
            {"gpu_count", v.gpuCount},
            {"driver", v.driver},
            {"lines", lines}};
}

json planToJson(const PlanDocument& plan)
{
    json rate = nullptr;
    if (plan.exchangeRate) {
        const PlanExchangeRate& r = *plan.exchangeRate;
        rate = {{"cny_per_usd", r.cnyPerUsd}, {"source", r.source}, {"date", r.date}, {"user_set", r.userSet}};
    }
    json out = {{"format", "gpuplan"},
                {"version", kPlanFormatVersion},
                {"created", plan.created},
                {"workload", workloadJson(plan.workload)},
                {"constraints", constraintsJson(plan.constraints)},
                {"catalog", {{"price_date", plan.priceDate}, {"exchange_rate", rate}}},
                {"results", resultsJson(plan.results, plan.currency())},
                {"buy_vs_rent", plan.buyVsRent ? buyVsRentJson(*plan.buyVsRent) : json(nullptr)},
                {"choice", orNull(plan.choice)},
                {"notes", plan.notes}};
    if (plan.assumptions) {
        const PlanAssumptions& a = *plan.assumptions;
        out["assumptions"] = {{"setup_hours", rangeJson(a.setupHours)},
                              {"upload_mbps", rangeJson(a.uploadMbps)},
                              {"checkpoint_write_gb_s", a.checkpointWriteGbs},
                              {"checkpoint_every_hours", a.checkpointEveryHours},
                              {"monte_carlo_runs", a.monteCarloRuns}};
    }
    if (!plan.verifications.empty()) {
        json list = json::array();
        for (const PlanVerification& v : plan.verifications) {
            list.push_back(verificationJson(v));
        }
        out["verifications"] = list;
    }
    if (plan.run) {
        out["run"] = runSpecJson(*plan.run);
    }
    if (!plan.ledger.empty()) {
        json list = json::array();
        for (const PlanSpend& s : plan.ledger) {
            list.push_back(spendJson(s));
        }
        out["ledger"] = list;
    }
    if (!plan.runs.empty()) {
        json list = json::array();
        for (const PlanRun& r : plan.runs) {
            list.push_back(planRunJson(r));
        }
        out["runs"] = list;
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
    // wire: the values the file may hold, as it writes them (a reason parameter)
    c.currency = check.choice(node, "currency", at, Need::Required, parseCurrency, "USD, CNY").value_or(Currency::CNY);
    c.sensitive = check.boolean(node, "sensitive", at, Need::Optional).value_or(false);
    c.framework = check.string(node, "framework", at, Need::Optional).value_or("pytorch");
    c.minGpus = check.count(node, "min_gpus", at, Need::Optional).value_or(1);
    c.maxGpus = check.count(node, "max_gpus", at, Need::Optional).value_or(64);
    const std::string precision = check.string(node, "precision", at, Need::Optional).value_or("auto");
    if (precision != "auto") {
        c.precision = parsePrecision(precision);
        if (!c.precision) {
            check.problem(JsonChecker::child(at, "precision"),
                          Reason{"error.plan.unknown_precision", {{"found", precision}}});
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
            check.problem(JsonChecker::child(at, "countries"),
                          Reason{"error.plan.not_country_code", {{"found", country}}});
        }
    }
    for (const std::string& mode : check.stringList(node, "modes", at)) {
        if (std::optional<PricingMode> parsed = parsePricingMode(mode)) {
            c.modes.push_back(*parsed);
        } else {
            check.problem(JsonChecker::child(at, "modes"), Reason{"error.plan.unknown_mode", {{"found", mode}}});
        }
    }
    std::vector<Error> problems = check.takeProblems();
    if (!problems.empty()) {
        return problems.front();
    }
    return c;
}

namespace {

/// Plans are a few hundred kilobytes; a file far larger is not one, and reading it whole would only waste memory.
constexpr std::uintmax_t kMaxPlanBytes = 32U << 20U;

} // namespace

Result<PlanDocument> planFromJson(const json& plan, const std::string& where)
{
    if (Status checked = checkPlan(plan, where); !checked) {
        return checked.error();
    }
    return readPlanDocument(plan, where);
}

Status savePlan(const std::filesystem::path& file, const json& plan)
{
    // Replace, never rewrite in place: a crash or a full disk mid-write must leave the previous plan whole.
    return writeFileAtomically(
        file, plan.dump(2, ' ', false, json::error_handler_t::replace) + '\n', FileAccess::KeepOrPrivate);
}

Status savePlan(const std::filesystem::path& file, const PlanDocument& plan)
{
    return savePlan(file, planToJson(plan));
}

Result<json> loadPlanJson(const std::filesystem::path& file)
{
    std::error_code ec;
    if (const std::uintmax_t size = std::filesystem::file_size(file, ec); !ec && size > kMaxPlanBytes) {
        return Error{ErrorCode::SchemaViolation,
                     Reason{"error.plan.too_large",
                            {{"mb", std::to_string(size >> 20U)}, {"max_mb", std::to_string(kMaxPlanBytes >> 20U)}}},
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

Result<PlanDocument> loadPlan(const std::filesystem::path& file)
{
    Result<json> document = loadPlanJson(file);
    if (!document) {
        return document.error();
    }
    return readPlanDocument(*document, file.string());
}

} // namespace gpuplan::core
