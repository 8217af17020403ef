#include "gpuplan/report/Report.h"

#include "core/JsonChecker.h"

#include <algorithm>
#include <map>
#include <set>

namespace gpuplan::core {

using nlohmann::json;
using Need = JsonChecker::Need;

namespace {

/// A member of an object, or null when `node` is not an object or lacks it (const operator[] would assert).
const json& member(const json& node, const char* key)
{
    static const json null;
    if (!node.is_object()) {
        return null;
    }
    auto it = node.find(key);
    return it == node.end() ? null : *it;
}

/// A numeric member, or `fallback` when it is absent or not a number.
double number(const json& node, const char* key, double fallback = 0)
{
    const json& value = member(node, key);
    return value.is_number() ? value.get<double>() : fallback;
}

std::string text(const json& node, const char* key)
{
    auto it = node.find(key);
    return it != node.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

/// {"value", "low", "high"} -> Range; nullopt (with a problem when required) when absent or malformed.
std::optional<Range>
readRange(JsonChecker& check, const json& parent, const char* key, const std::string& path, Need need)
{
    const json* node = check.object(parent, key, path, need);
    if (!node) {
        return std::nullopt;
    }
    const std::string at = JsonChecker::child(path, key);
    std::optional<double> value = check.nonNegativeNumber(*node, "value", at, Need::Required);
    std::optional<double> low = check.nonNegativeNumber(*node, "low", at, Need::Required);
    std::optional<double> high = check.nonNegativeNumber(*node, "high", at, Need::Required);
    if (!value || !low || !high) {
        return std::nullopt;
    }
    return Range{*value, *low, *high};
}

std::optional<ReportPrice> readPrice(JsonChecker& check, const json& parent, const std::string& path)
{
    const json* node = check.object(parent, "price", path, Need::Optional);
    if (!node) {
        return std::nullopt;
    }
    const std::string at = JsonChecker::child(path, "price");
    ReportPrice price;
    price.amount = check.nonNegativeNumber(*node, "amount", at, Need::Required).value_or(0);
    price.currency = check.string(*node, "currency", at, Need::Required).value_or("");
    price.unit = check.string(*node, "unit", at, Need::Optional).value_or("hour");
    // "date" is what plans written before prices had two dates call it.
    price.asOf = check.string(*node, node->contains("as_of") ? "as_of" : "date", at, Need::Optional).value_or("");
    price.source = check.string(*node, "source", at, Need::Optional).value_or("");
    return price;
}

ReportMode readMode(JsonChecker& check, const json& node, const std::string& path)
{
    ReportMode mode;
    mode.mode = check.string(node, "mode", path, Need::Required).value_or("");
    mode.eligible = check.boolean(node, "eligible", path, Need::Optional).value_or(true);
    if (auto it = node.find("why_not"); it != node.end() && it->is_object()) {
        mode.whyNot = *it;
    }
    mode.hours = readRange(check, node, "hours", path, Need::Required).value_or(Range{});
    mode.cost = readRange(check, node, "cost", path, Need::Required).value_or(Range{});
    mode.price = readPrice(check, node, path);
    if (const json* commitment = check.object(node, "commitment", path, Need::Optional)) {
        const std::string at = JsonChecker::child(path, "commitment");
        mode.commitmentAmount = check.nonNegativeNumber(*commitment, "amount", at, Need::Required);
        mode.commitmentMonths = check.nonNegativeNumber(*commitment, "months", at, Need::Required).value_or(0);
    }
    return mode;
}

ReportOption readOption(JsonChecker& check, const json& node, const std::string& path)
{
    ReportOption option;
    option.rank = check.count(node, "rank", path, Need::Optional).value_or(0);
    option.provider = check.string(node, "provider", path, Need::Required).value_or("");
    option.providerName = check.string(node, "provider_name", path, Need::Optional).value_or(option.provider);
    option.providerNameZh = check.string(node, "provider_name_zh", path, Need::Optional).value_or("");
    option.instanceType = check.string(node, "instance_type", path, Need::Required).value_or("");
    option.region = check.string(node, "region", path, Need::Required).value_or("");
    option.gpuName = check.string(node, "gpu_name", path, Need::Optional)
                         .value_or(check.string(node, "gpu", path, Need::Optional).value_or(""));
    option.gpus = check.count(node, "gpus", path, Need::Required).value_or(0);
    option.nodes = check.count(node, "nodes", path, Need::Optional).value_or(1);
    option.mode = check.string(node, "mode", path, Need::Required).value_or("");
    option.hours = readRange(check, node, "hours", path, Need::Required).value_or(Range{});
    option.cost = readRange(check, node, "cost", path, Need::Required).value_or(Range{});
    if (const json* modes = check.array(node, "modes", path, Need::Optional)) {
        const std::string at = JsonChecker::child(path, "modes");
        for (std::size_t i = 0; i < modes->size(); ++i) {
            if (check.isObject((*modes)[i], JsonChecker::index(at, i))) {
                option.modes.push_back(readMode(check, (*modes)[i], JsonChecker::index(at, i)));
            }
        }
    }
    for (const ReportMode& mode : option.modes) {
        if (mode.mode == option.mode && mode.price) {
            option.price = mode.price;
            break;
        }
    }
    // The term of the mode it is ranked with (the comparison table's first row of the option is that mode too).
    for (const ReportMode& mode : option.modes) {
        if (mode.mode == option.mode) {
            option.commitmentAmount = mode.commitmentAmount;
            option.commitmentMonths = mode.commitmentMonths;
            break;
        }
    }
    if (auto it = node.find("reasons"); it != node.end() && it->is_array()) {
        option.reasons = *it;
    }
    return option;
}

LimitVerdict judgeLimit(std::optional<double> limit, const Range& estimate)
{
    if (!limit) {
        return LimitVerdict::NotSet;
    }
    if (estimate.high <= *limit) {
        return LimitVerdict::Within;
    }
    return estimate.value <= *limit ? LimitVerdict::AtRisk : LimitVerdict::Exceeds;
}

/// The first option best by `key` (lowest), or nullopt when that is `recommended` itself.
template <typename Key>
std::optional<ReportOption> bestBy(const std::vector<ReportOption>& options, Key key)
{
    auto best = std::min_element(
        options.begin(), options.end(), [&](const ReportOption& a, const ReportOption& b) { return key(a) < key(b); });
    if (best == options.end() || best == options.begin()) {
        return std::nullopt;
    }
    return *best;
}

const json* reasonWithKey(const json& reasons, std::string_view key)
{
    for (const json& reason : reasons) {
        if (text(reason, "key") == key) {
            return &reason;
        }
    }
    return nullptr;
}

void readAssumptions(JsonChecker& check, const json& plan, Report& report)
{
    ReportAssumptions& a = report.assumptions;
    const json empty = json::object();
    const json* constraints = check.object(plan, "constraints", "$", Need::Optional);
    const json& c = constraints ? *constraints : empty;
    a.precisionAsked = text(c, "precision");
    a.framework = text(c, "framework");
    a.sensitive = check.boolean(c, "sensitive", "$.constraints", Need::Optional).value_or(false);
    a.countries = check.stringList(c, "countries", "$.constraints");

    const json* catalog = check.object(plan, "catalog", "$", Need::Optional);
    if (catalog) {
        a.catalogPriceDate = text(*catalog, "price_date");
        if (const json* rate = check.object(*catalog, "exchange_rate", "$.catalog", Need::Optional)) {
            a.cnyPerUsd =
                check.positiveNumber(*rate, "cny_per_usd", "$.catalog.exchange_rate", Need::Required).value_or(0);
            a.exchangeRateDate = text(*rate, "date");
            a.exchangeRateSource = text(*rate, "source");
            a.exchangeRateUserSet =
                check.boolean(*rate, "user_set", "$.catalog.exchange_rate", Need::Optional).value_or(false);
        }
    }
    if (const json* model = check.object(plan, "assumptions", "$", Need::Optional)) {
        a.setupHours = readRange(check, *model, "setup_hours", "$.assumptions", Need::Optional).value_or(Range{});
        a.uploadMbps = readRange(check, *model, "upload_mbps", "$.assumptions", Need::Optional).value_or(Range{});
        a.checkpointWriteGbs = check.positiveNumber(*model, "checkpoint_write_gb_s", "$.assumptions", Need::Optional);
        a.monteCarloRuns = check.count(*model, "monte_carlo_runs", "$.assumptions", Need::Optional).value_or(0);
    }
    if (const json* buy = check.object(plan, "buy_vs_rent", "$", Need::Optional)) {
        a.electricityPerKwh = check.nonNegativeNumber(*buy, "electricity_per_kwh", "$.buy_vs_rent", Need::Optional);
        a.electricityCurrency = text(*buy, "currency");
        a.pue = check.positiveNumber(*buy, "pue", "$.buy_vs_rent", Need::Optional);
    }

    // The recommended option's training estimate: precision, peak and efficiency.
    const json& options = member(member(plan, "results"), "options");
    if (const json& training = member(options[0], "training"); training.is_object()) {
        const std::string at = "$.results.options[0].training";
        a.precisionUsed = text(training, "precision");
        if (const json* peak = check.object(training, "peak_tflops", at, Need::Optional)) {
            a.peakTflops = check.positiveNumber(*peak, "value", at + ".peak_tflops", Need::Optional);
        }
        a.efficiency = readRange(check, training, "efficiency", at, Need::Optional);
        if (auto it = training.find("efficiency_basis"); it != training.end() && it->is_object()) {
            a.efficiencyBasis = *it;
        }
        a.mfu = check.nonNegativeNumber(training, "mfu", at, Need::Optional);
    }

    // Every price the comparison table shows, by source, newest first.
    std::set<std::pair<std::string, std::string>> seen;
    for (const ReportOption& option : report.options) {
        for (const ReportMode& mode : option.modes) {
            if (mode.price && !mode.price->source.empty()
                && seen.insert({mode.price->asOf, mode.price->source}).second) {
                a.priceSources.push_back({mode.price->source, mode.price->asOf});
            }
        }
    }
    std::stable_sort(a.priceSources.begin(), a.priceSources.end(), [](const ReportSource& x, const ReportSource& y) {
        return x.date > y.date;
    });
}

/// `ranked`: every ranked option of the plan (the comparison table shows the first kReportTableOptions).
void readRisks(const json& plan, const std::vector<ReportOption>& ranked, Report& report)
{
    ReportRisks& risks = report.risks;
    for (const ReportOption& option : report.options) {
        for (const ReportMode& mode : option.modes) {
            if (mode.commitmentAmount) {
                risks.commitments.push_back({option.rank,
                                             offerLabel(option),
                                             mode.mode,
                                             mode.commitmentMonths,
                                             *mode.commitmentAmount,
                                             mode.cost,
                                             mode.eligible});
            }
        }
    }
    const json& options = member(member(plan, "results"), "options");
    for (std::size_t i = 0; i < ranked.size() && risks.spot.size() < static_cast<std::size_t>(kReportTableOptions);
         ++i) {
        const json& modes = member(options[i], "modes");
        if (!modes.is_array()) {
            continue;
        }
        for (const json& mode : modes) {
            const json& spot = member(mode, "spot");
            if (!spot.is_object() || member(mode, "eligible") == json(false)) {
                continue;
            }
            SpotRisk risk;
            risk.rank = ranked[i].rank;
            risk.offer = offerLabel(ranked[i]);
            const json& p = member(spot, "monthly_interruption");
            if (p.is_object()) {
                risk.monthlyInterruption = {number(p, "value"), number(p, "low"), number(p, "high")};
            }
            risk.mtbfHours = number(spot, "mtbf_hours");
            if (spot.contains("checkpoint_interval_hours") && member(spot, "checkpoint_interval_hours").is_number()) {
                risk.checkpointIntervalHours = member(spot, "checkpoint_interval_hours").get<double>();
            }
            if (const json& mc = member(spot, "monte_carlo"); mc.is_object() && member(mc, "p90_hours").is_number()) {
                // The simulated hours are compute only; the P90 of the whole run adds setup and upload.
                risk.p90Hours = member(mc, "p90_hours").get<double>() + number(spot, "extra_hours");
                if (member(mc, "mean_interruptions").is_number()) {
                    risk.meanInterruptions = member(mc, "mean_interruptions").get<double>();
                }
            }
            if (const json& mc = member(spot, "monte_carlo_cost"); mc.is_object() && member(mc, "p90").is_number()) {
                risk.p90Cost = member(mc, "p90").get<double>();
            }
            risk.rateSource = text(spot, "rate_source");
            risks.spot.push_back(risk);
        }
    }
    risks.sensitive = report.assumptions.sensitive;
    std::map<std::string, int> byRule;
    if (const json& excluded = member(member(plan, "results"), "excluded"); excluded.is_array()) {
        for (const json& e : excluded) {
            if (e.is_object()) {
                ++byRule[text(e, "rule")];
            }
        }
    }
    risks.excludedAsSensitive = byRule.count("sensitive") ? byRule["sensitive"] : 0;
    risks.exclusionsByRule.assign(byRule.begin(), byRule.end());
    std::stable_sort(risks.exclusionsByRule.begin(), risks.exclusionsByRule.end(), [](const auto& x, const auto& y) {
        return x.second > y.second;
    });
    if (const json* isolated = reasonWithKey(report.summary.recommended.reasons, "reason.isolated")) {
        risks.recommendedIsolation = *isolated;
    }
}

ReportRentLine readCostLine(JsonChecker& check, const json& node, const std::string& path)
{
    ReportRentLine line;
    line.key = check.string(node, "key", path, Need::Required).value_or("");
    line.offer = text(node, "offer");
    line.upfront = check.nonNegativeNumber(node, "upfront", path, Need::Optional).value_or(0);
    line.monthly = check.nonNegativeNumber(node, "monthly", path, Need::Optional).value_or(0);
    if (const json* cumulative = check.array(node, "cumulative", path, Need::Optional);
        cumulative && !cumulative->empty() && cumulative->back().is_number()) {
        line.total = cumulative->back().get<double>();
    }
    line.breakEvenMonth = check.nonNegativeNumber(node, "break_even_month", path, Need::Optional);
    line.source = {text(node, "source"), text(node, "date")};
    return line;
}

void readBuyVsRent(JsonChecker& check, const json& plan, Report& report)
{
    const json* node = check.object(plan, "buy_vs_rent", "$", Need::Optional);
    if (!node) {
        return;
    }
    const std::string at = "$.buy_vs_rent";
    ReportBuyVsRent& b = report.buyVsRent;
    b.available = check.boolean(*node, "available", at, Need::Optional).value_or(false);
    b.unavailableReason = text(*node, "reason");
    if (!b.available) {
        return;
    }
    b.system = text(*node, "system");
    b.gpuName = text(*node, "gpu_name");
    b.gpus = check.count(*node, "gpus", at, Need::Optional).value_or(0);
    b.powerW = check.nonNegativeNumber(*node, "power_w", at, Need::Optional).value_or(0);
    b.months = check.count(*node, "months", at, Need::Optional).value_or(0);
    b.utilisation = check.nonNegativeNumber(*node, "utilisation", at, Need::Optional).value_or(0);
    b.pue = check.nonNegativeNumber(*node, "pue", at, Need::Optional).value_or(0);
    b.maintenancePerYear = check.nonNegativeNumber(*node, "maintenance_per_year", at, Need::Optional).value_or(0);
    b.depreciationYears = check.nonNegativeNumber(*node, "depreciation_years", at, Need::Optional).value_or(0);
    b.electricityPerKwh = check.nonNegativeNumber(*node, "electricity_per_kwh", at, Need::Optional);
    if (const json* own = check.object(*node, "own", at, Need::Optional)) {
        b.own = readCostLine(check, *own, at + ".own");
    }
    if (const json* rent = check.array(*node, "rent", at, Need::Optional)) {
        for (std::size_t i = 0; i < rent->size(); ++i) {
            if (check.isObject((*rent)[i], JsonChecker::index(at + ".rent", i))) {
                b.rent.push_back(readCostLine(check, (*rent)[i], JsonChecker::index(at + ".rent", i)));
            }
        }
    }
}

void readVerifications(JsonChecker& check, const json& plan, Report& report)
{
    const json* list = check.array(plan, "verifications", "$", Need::Optional);
    if (!list) {
        return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string at = JsonChecker::index("$.verifications", i);
        const json& node = (*list)[i];
        if (!check.isObject(node, at)) {
            continue;
        }
        ReportVerification v;
        v.when = check.string(node, "when", at, Need::Required).value_or("");
        v.host = check.string(node, "host", at, Need::Required).value_or("");
        v.level = check.string(node, "verdict", at, Need::Required).value_or("");
        v.expectedGpu = text(node, "expected_gpu");
        v.expectedCount = check.count(node, "expected_count", at, Need::Optional).value_or(0);
        v.gpuName = text(node, "gpu_name");
        v.gpuCount = static_cast<int>(check.nonNegativeNumber(node, "gpu_count", at, Need::Optional).value_or(0));
        v.driver = text(node, "driver");
        if (const json* lines = check.array(node, "lines", at, Need::Optional)) {
            for (std::size_t l = 0; l < lines->size(); ++l) {
                const std::string lineAt = JsonChecker::index(at + ".lines", l);
                const json& line = (*lines)[l];
                if (!check.isObject(line, lineAt)) {
                    continue;
                }
                ReportCheck c;
                c.check = check.string(line, "check", lineAt, Need::Required).value_or("");
                c.level = check.string(line, "level", lineAt, Need::Required).value_or("");
                if (auto gpu = check.nonNegativeNumber(line, "gpu", lineAt, Need::Optional)) {
                    c.gpu = static_cast<int>(*gpu);
                }
                c.measured = text(line, "measured");
                c.expected = text(line, "expected");
                if (auto it = line.find("reason"); it != line.end() && it->is_object()) {
                    c.reason = *it;
                }
                v.checks.push_back(std::move(c));
            }
        }
        report.verifications.push_back(std::move(v));
    }
}

void readSpend(JsonChecker& check, const json& plan, Report& report)
{
    const json* list = check.array(plan, "ledger", "$", Need::Optional);
    if (!list) {
        return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string at = JsonChecker::index("$.ledger", i);
        const json& node = (*list)[i];
        if (!check.isObject(node, at)) {
            continue;
        }
        ReportSpend s;
        s.provider = check.string(node, "provider", at, Need::Required).value_or("");
        s.instanceId = check.string(node, "instance_id", at, Need::Required).value_or("");
        s.instanceType = text(node, "instance_type");
        s.region = text(node, "region");
        s.started = text(node, "started");
        s.ended = text(node, "ended");
        s.hours = check.nonNegativeNumber(node, "hours", at, Need::Optional).value_or(0);
        s.cost = check.nonNegativeNumber(node, "cost", at, Need::Required).value_or(0);
        s.currency = check.string(node, "currency", at, Need::Required).value_or("");
        report.spend.push_back(std::move(s));
    }
}

} // namespace

std::string offerLabel(const ReportOption& option)
{
    return option.providerName + " " + option.instanceType + " (" + option.region + ")";
}

Result<Report> buildReport(const json& plan, const std::string& where)
{
    JsonChecker check(where);
    if (!check.isObject(plan, "$")) {
        return check.takeProblems().front();
    }
    const json* results = check.object(plan, "results", "$", Need::Required);
    const json* options = results ? check.array(*results, "options", "$.results", Need::Required) : nullptr;
    if (!options) {
        return check.takeProblems().front();
    }
    if (options->empty()) {
        return Error{ErrorCode::InvalidArgument,
                     "the plan has no ranked option, so there is nothing to recommend (every offer was excluded)",
                     where + ": $.results.options"};
    }

    Report report;
    std::vector<ReportOption> all;
    for (std::size_t i = 0; i < options->size(); ++i) {
        const std::string at = JsonChecker::index("$.results.options", i);
        if (check.isObject((*options)[i], at)) {
            all.push_back(readOption(check, (*options)[i], at));
        }
    }
    if (check.problemCount() > 0) {
        return check.takeProblems().front();
    }

    const json* workload = check.object(plan, "workload", "$", Need::Optional);
    if (workload) {
        report.workload = *workload;
        report.title = text(*workload, "name");
        report.workloadId = text(*workload, "id");
        report.titleZh = text(member((*workload), "definition"), "name_zh");
    }
    report.created = text(plan, "created");
    report.notes = text(plan, "notes");
    const json* constraints = check.object(plan, "constraints", "$", Need::Optional);
    report.currency = constraints ? text(*constraints, "currency") : "";
    if (report.currency.empty()) {
        report.currency = text((*options)[0], "currency");
    }

    ReportSummary& s = report.summary;
    s.recommended = all.front();
    if (all.size() > 1) {
        s.runnerUp = all[1];
    }
    s.cheapest = bestBy(all, [](const ReportOption& o) { return o.cost.value; });
    s.fastest = bestBy(all, [](const ReportOption& o) { return o.hours.value; });
    s.eligibleCount =
        check.count(*results, "eligible", "$.results", Need::Optional).value_or(static_cast<int>(all.size()));
    if (const json* excluded = check.array(*results, "excluded", "$.results", Need::Optional)) {
        s.excludedCount = static_cast<int>(excluded->size());
    }
    s.objective = text(*results, "objective");
    if (constraints) {
        s.budget = check.positiveNumber(*constraints, "budget", "$.constraints", Need::Optional);
        s.deadlineHours = check.positiveNumber(*constraints, "deadline_hours", "$.constraints", Need::Optional);
    }
    s.budgetVerdict = judgeLimit(s.budget, s.recommended.cost);
    s.deadlineVerdict = judgeLimit(s.deadlineHours, s.recommended.hours);

    report.options.assign(
        all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(all.size(), kReportTableOptions)));
    for (std::size_t i = 0; i < report.options.size(); ++i) {
        const ReportOption& option = report.options[i];
        ComparisonRow first{option.rank, true, i, {}};
        bool rankedModeSeen = false;
        for (const ReportMode& mode : option.modes) {
            if (mode.mode == option.mode && !rankedModeSeen) {
                first.mode = mode;
                rankedModeSeen = true;
            }
        }
        if (!rankedModeSeen) {
            first.mode.mode = option.mode;
            first.mode.hours = option.hours;
            first.mode.cost = option.cost;
            first.mode.price = option.price;
        }
        report.comparison.push_back(first);
        for (const ReportMode& mode : option.modes) {
            if (mode.mode != option.mode) {
                report.comparison.push_back({option.rank, false, i, mode});
            }
        }
    }

    readAssumptions(check, plan, report);
    readRisks(plan, all, report);
    readBuyVsRent(check, plan, report);
    readVerifications(check, plan, report);
    readSpend(check, plan, report);
    if (check.problemCount() > 0) {
        return check.takeProblems().front();
    }
    return report;
}

} // namespace gpuplan::core
