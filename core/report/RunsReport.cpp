#include "gpuplan/report/RunsReport.h"

#include "gpuplan/run/SpotRecovery.h"

#include "gpuplan/cloud/LaunchChoice.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <iterator>
#include <map>
#include <set>

namespace gpuplan::core {

namespace {

/// `amount` in `from` (an ISO code) as `to`; nullopt when the code is not one we know or no rate converts it.
std::optional<double> convertCode(double amount, const std::string& from, Currency to, const ExchangeRate& rate)
{
    const std::optional<Currency> currency = parseCurrency(from);
    if (!currency) {
        return std::nullopt;
    }
    if (*currency != to && !(rate.cnyPerUsd > 0)) {
        return std::nullopt;
    }
    return rate.convert(amount, *currency, to);
}

std::optional<double> convertTo(double amount, Currency from, Currency to, const ExchangeRate& rate)
{
    if (from != to && !(rate.cnyPerUsd > 0)) {
        return std::nullopt;
    }
    return rate.convert(amount, from, to);
}

/// Against [low, high] when the plan gave a range, else against the central figure alone (within 10 %: an estimate
/// without a range is still not exact).
RangeFit fitOf(std::optional<double> measured,
               std::optional<double> central,
               std::optional<double> low,
               std::optional<double> high)
{
    if (!measured || (!central && !low && !high)) {
        return RangeFit::Unknown;
    }
    const double lo = low ? *low : *central * 0.9;
    const double hi = high ? *high : *central * 1.1;
    if (*measured < lo) {
        return RangeFit::Below;
    }
    if (*measured > hi) {
        return RangeFit::Above;
    }
    return RangeFit::Within;
}

/// Midnight UTC of the first day of the month after the one holding `t`.
std::int64_t nextMonthStart(std::int64_t t)
{
    const std::time_t time = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&time, &tm);
    tm.tm_mday = 1;
    tm.tm_hour = 0;
    tm.tm_min = 0;
    tm.tm_sec = 0;
    tm.tm_mon += 1;
    if (tm.tm_mon == 12) {
        tm.tm_mon = 0;
        tm.tm_year += 1;
    }
    return static_cast<std::int64_t>(timegm(&tm));
}

/// A plain decimal with a dot whatever the C locale (the GUI sets it from the environment), trailing zeros dropped.
std::string decimal(double value, int decimals = 6)
{
    char buffer[64];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
    if (error != std::errc()) {
        return {};
    }
    std::string text(buffer, end);
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0') {
            text.pop_back();
        }
        if (text.back() == '.') {
            text.pop_back();
        }
    }
    return text == "-0" ? "0" : text;
}

std::string decimal(const std::optional<double>& value, int decimals = 6)
{
    return value ? decimal(*value, decimals) : std::string();
}

} // namespace

std::string utcMonth(std::int64_t unixSeconds)
{
    const std::time_t time = static_cast<std::time_t>(unixSeconds);
    std::tm tm{};
    gmtime_r(&time, &tm);
    char buffer[16];
    std::strftime(buffer, sizeof buffer, "%Y-%m", &tm);
    return buffer;
}

std::string utcIso(std::int64_t unixSeconds)
{
    const std::time_t time = static_cast<std::time_t>(unixSeconds);
    std::tm tm{};
    gmtime_r(&time, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

RunsReport buildRunsReport(const RunsReportInput& input)
{
    RunsReport report;
    report.currency = input.currency;
    report.now = input.now;

    std::map<std::int64_t, const LedgerEntry*> launchById;
    for (const LedgerEntry& e : input.entries) {
        launchById[e.id] = &e;
    }
    std::map<std::string, std::string> planNames; // planId -> the name its runs kept
    for (const RunRecord& run : input.runs) {
        if (!run.planId.empty() && !run.planned.planName.empty()) {
            planNames[run.planId] = run.planned.planName;
        }
    }

    for (const RunRecord& run : input.runs) {
        RunReportRow row;
        row.runId = run.id;
        row.launchId = run.launchId;
        row.planId = run.planId;
        row.planName = run.planned.planName;
        row.host = run.host;
        if (auto found = launchById.find(run.launchId); found != launchById.end()) {
            row.provider = found->second->intent.provider;
            row.instanceType = found->second->intent.instanceType;
            row.region = found->second->intent.region;
        }
        row.state = run.state;
        row.exitCode = run.exitCode;
        row.startedAt = run.startedAt;
        row.endedAt = run.endedAt;
        row.plannedHours = run.planned.hours;
        row.plannedHoursLow = run.planned.hoursLow;
        row.plannedHoursHigh = run.planned.hoursHigh;
        row.hours = run.measured.hours;
        if (run.state == RunState::Finished) { // a run that failed or was stopped did not do the whole training
            row.hoursFit = fitOf(run.measured.hours, run.planned.hours, run.planned.hoursLow, run.planned.hoursHigh);
        }
        row.plannedThroughput = run.planned.throughput;
        row.plannedThroughputLow = run.planned.throughputLow;
        row.plannedThroughputHigh = run.planned.throughputHigh;
        row.throughput = run.measured.throughput;
        row.throughputUnit =
            run.measured.throughputUnit.empty() ? run.planned.throughputUnit : run.measured.throughputUnit;
        row.throughputFit = fitOf(
            run.measured.throughput, run.planned.throughput, run.planned.throughputLow, run.planned.throughputHigh);
        if (run.planned.cost) {
            row.plannedCost = convertCode(*run.planned.cost, run.planned.currency, input.currency, input.rate);
        }
        if (run.measured.cost) {
            row.cost = convertCode(*run.measured.cost, run.measured.costCurrency, input.currency, input.rate);
        }
        std::vector<RunAttempt> attempts;
        std::copy_if(input.attempts.begin(),
                     input.attempts.end(),
                     std::back_inserter(attempts),
                     [&run](const RunAttempt& a) { return a.runId == run.id; });
        if (attempts.size() > 1) { // recovered on other instances: the whole run, every instance's cost
            const RunTotals totals = runTotals(run, attempts, input.entries, input.now);
            row.attempts = totals.attempts;
            row.interruptions = totals.interruptions;
            row.lostHours = totals.lostHours;
            row.hours = totals.hours;
            row.cost = totals.cost ? convertCode(*totals.cost, totals.currency, input.currency, input.rate)
                                   : std::optional<double>();
        }
        if (row.cost && row.plannedCost) {
            row.costFit = *row.cost > *row.plannedCost ? RangeFit::Above : RangeFit::Within;
        }
        row.gpuUtilization = run.measured.gpuUtilization;
        row.resultsDir = run.resultsDir;
        report.runs.push_back(std::move(row));
    }
    std::stable_sort(
        report.runs.begin(), report.runs.end(), [](const auto& a, const auto& b) { return a.startedAt < b.startedAt; });

    std::map<std::string, std::map<std::string, double>> months; // month -> provider -> amount
    std::map<std::string, double> providers;
    std::map<std::string, double> plans;
    for (const LedgerEntry& e : input.entries) {
        LaunchReportRow row;
        row.launchId = e.id;
        row.provider = e.intent.provider;
        row.region = e.intent.region;
        row.instanceType = e.intent.instanceType;
        row.pricingMode = e.intent.pricingMode;
        row.planId = e.intent.planId;
        if (auto name = planNames.find(e.intent.planId); name != planNames.end()) {
            row.planName = name->second;
        }
        row.state = e.state;
        row.startedAt = e.runningSince;
        row.endedAt = e.endedAt;
        const std::int64_t end = e.endedAt.value_or(input.now);
        if (e.runningSince) {
            row.hours = std::max<double>(0, double(end - *e.runningSince)) / 3600;
        }
        row.costOwn = costSoFar(e, input.now);
        row.ownCurrency = e.intent.price.currency;
        row.cost = convertTo(row.costOwn, row.ownCurrency, input.currency, input.rate);
        report.launches.push_back(row);

        if (!row.cost) {
            ++report.unconverted;
            continue;
        }
        if (*row.cost <= 0 || !e.runningSince) {
            continue;
        }
        providers[row.provider] += *row.cost;
        plans[row.planId] += *row.cost;
        report.total += *row.cost;
        // The cost so far spread over the running seconds of each month it ran in.
        const std::int64_t start = *e.runningSince;
        const double seconds = double(std::max<std::int64_t>(0, end - start));
        if (seconds <= 0) {
            months[utcMonth(start)][row.provider] += *row.cost;
            continue;
        }
        for (std::int64_t from = start; from < end;) {
            const std::int64_t to = std::min(end, nextMonthStart(from));
            months[utcMonth(from)][row.provider] += *row.cost * double(to - from) / seconds;
            from = to;
        }
    }
    std::stable_sort(report.launches.begin(), report.launches.end(), [](const auto& a, const auto& b) {
        return a.launchId < b.launchId;
    });

    for (const auto& [provider, amount] : providers) {
        report.byProvider.push_back({provider, amount});
    }
    std::stable_sort(report.byProvider.begin(), report.byProvider.end(), [](const auto& a, const auto& b) {
        return a.amount > b.amount;
    });
    for (const auto& [month, byProvider] : months) {
        MonthSpend spend;
        spend.month = month;
        for (const ProviderSpend& p : report.byProvider) { // the same order in every month: a chart's stacks
            if (auto found = byProvider.find(p.provider); found != byProvider.end()) {
                spend.byProvider.emplace_back(p.provider, found->second);
                spend.total += found->second;
            }
        }
        report.byMonth.push_back(std::move(spend));
    }

    // Every plan that spent or has a budget; a budget the ledger keeps first, else the one its runs kept.
    std::map<std::string, std::optional<double>> budgets;
    for (const RunRecord& run : input.runs) {
        if (!run.planId.empty() && run.planned.budget && *run.planned.budget > 0) {
            budgets[run.planId] = convertCode(*run.planned.budget, run.planned.currency, input.currency, input.rate);
        }
    }
    for (const PlanBudget& b : input.budgets) {
        if (b.amount > 0) {
            budgets[b.planId] = convertTo(b.amount, b.currency, input.currency, input.rate);
        }
    }
    std::set<std::string> planIds;
    for (const auto& [id, amount] : plans) {
        planIds.insert(id);
    }
    for (const auto& [id, budget] : budgets) {
        planIds.insert(id);
    }
    for (const std::string& id : planIds) {
        PlanSpendRow row;
        row.planId = id;
        if (auto name = planNames.find(id); name != planNames.end()) {
            row.planName = name->second;
        }
        if (auto spent = plans.find(id); spent != plans.end()) {
            row.spent = spent->second;
        }
        if (auto budget = budgets.find(id); budget != budgets.end() && budget->second && *budget->second > 0) {
            row.budget = budget->second;
            row.share = row.spent / *row.budget;
        }
        report.byPlan.push_back(std::move(row));
    }
    std::stable_sort(
        report.byPlan.begin(), report.byPlan.end(), [](const auto& a, const auto& b) { return a.spent > b.spent; });
    return report;
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos) {
        return text;
    }
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') {
            out += '"';
        }
        out += c;
    }
    out += '"';
    return out;
}

std::string runsReportCsv(const RunsReport& report)
{
    // wire: column names and values a spreadsheet or script reads; identifiers, never translated
    const std::vector<std::string> header{"section",
                                          "id",
                                          "launch_id",
                                          "plan_id",
                                          "plan",
                                          "provider",
                                          "region",
                                          "instance_type",
                                          "pricing_mode",
                                          "host",
                                          "state",
                                          "exit_code",
                                          "started",
                                          "ended",
                                          "hours_planned",
                                          "hours_planned_low",
                                          "hours_planned_high",
                                          "hours",
                                          "throughput_planned",
                                          "throughput_planned_low",
                                          "throughput_planned_high",
                                          "throughput",
                                          "throughput_unit",
                                          "gpu_utilization_percent",
                                          "cost_planned",
                                          "cost",
                                          "currency",
                                          "results_dir",
                                          "attempts",
                                          "interruptions",
                                          "lost_hours"};
    const std::string currency = currencyCode(report.currency);
    std::string out;
    auto line = [&out](const std::vector<std::string>& fields) {
        for (std::size_t i = 0; i < fields.size(); ++i) {
            if (i) {
                out += ',';
            }
            out += csvField(fields[i]);
        }
        out += "\r\n"; // RFC 4180, 2.1
    };
    line(header);
    for (const RunReportRow& r : report.runs) {
        line({"run",
              std::to_string(r.runId),
              r.launchId ? std::to_string(r.launchId) : std::string(),
              r.planId,
              r.planName,
              r.provider,
              r.region,
              r.instanceType,
              std::string(),
              r.host,
              runStateName(r.state),
              r.exitCode ? std::to_string(*r.exitCode) : std::string(),
              utcIso(r.startedAt),
              r.endedAt ? utcIso(*r.endedAt) : std::string(),
              decimal(r.plannedHours),
              decimal(r.plannedHoursLow),
              decimal(r.plannedHoursHigh),
              decimal(r.hours),
              decimal(r.plannedThroughput),
              decimal(r.plannedThroughputLow),
              decimal(r.plannedThroughputHigh),
              decimal(r.throughput),
              r.throughputUnit,
              decimal(r.gpuUtilization, 2),
              decimal(r.plannedCost, 4),
              decimal(r.cost, 4),
              currency,
              r.resultsDir,
              std::to_string(r.attempts),
              std::to_string(r.interruptions),
              decimal(r.lostHours)});
    }
    for (const LaunchReportRow& l : report.launches) {
        line({"launch",
              std::to_string(l.launchId),
              std::to_string(l.launchId),
              l.planId,
              l.planName,
              l.provider,
              l.region,
              l.instanceType,
              l.pricingMode,
              std::string(),
              instanceStateName(l.state),
              std::string(),
              l.startedAt ? utcIso(*l.startedAt) : std::string(),
              l.endedAt ? utcIso(*l.endedAt) : std::string(),
              std::string(),
              std::string(),
              std::string(),
              decimal(l.hours),
              std::string(),
              std::string(),
              std::string(),
              std::string(),
              std::string(),
              std::string(),
              std::string(),
              decimal(l.cost, 4),
              currency,
              std::string(),
              std::string(),
              std::string(),
              std::string()});
    }
    return out;
}

std::vector<PlanRun>
planRunsOf(const std::vector<RunRecord>& runs, const std::vector<LedgerEntry>& entries, const std::string& planId)
{
    std::vector<PlanRun> out;
    for (const RunRecord& run : runs) {
        if (run.planId != planId || planId.empty()) {
            continue;
        }
        PlanRun r;
        r.host = run.host;
        for (const LedgerEntry& e : entries) {
            if (e.id == run.launchId && run.launchId != 0) {
                r.provider = e.intent.provider;
                r.instanceType = e.intent.instanceType;
            }
        }
        r.state = runStateName(run.state);
        r.exitCode = run.exitCode;
        r.started = utcIso(run.startedAt);
        r.ended = run.endedAt ? utcIso(*run.endedAt) : std::string();
        r.plannedHours = run.planned.hours;
        r.plannedHoursLow = run.planned.hoursLow;
        r.plannedHoursHigh = run.planned.hoursHigh;
        r.hours = run.measured.hours;
        r.plannedThroughput = run.planned.throughput;
        r.plannedThroughputLow = run.planned.throughputLow;
        r.plannedThroughputHigh = run.planned.throughputHigh;
        r.throughput = run.measured.throughput;
        r.throughputUnit =
            run.measured.throughputUnit.empty() ? run.planned.throughputUnit : run.measured.throughputUnit;
        r.plannedCost = run.planned.cost;
        r.plannedCurrency = run.planned.currency;
        r.cost = run.measured.cost;
        r.costCurrency = run.measured.costCurrency;
        r.gpuUtilization = run.measured.gpuUtilization;
        out.push_back(std::move(r));
    }
    std::stable_sort(out.begin(), out.end(), [](const PlanRun& a, const PlanRun& b) { return a.started < b.started; });
    return out;
}

Status attachLedgerRuns(PlanDocument& plan, const std::filesystem::path& ledgerFile)
{
    std::error_code ec;
    if (!std::filesystem::exists(ledgerFile, ec)) {
        return Ok{};
    }
    Result<std::unique_ptr<Ledger>> ledger = Ledger::open(ledgerFile);
    if (!ledger) {
        return ledger.error();
    }
    Result<std::vector<RunRecord>> runs = (*ledger)->runs();
    if (!runs) {
        return runs.error();
    }
    Result<std::vector<LedgerEntry>> entries = (*ledger)->entries();
    if (!entries) {
        return entries.error();
    }
    std::vector<PlanRun> mine = planRunsOf(*runs, *entries, planIdOf(plan));
    if (!mine.empty()) {
        plan.runs = std::move(mine);
    }
    return Ok{};
}

} // namespace gpuplan::core
