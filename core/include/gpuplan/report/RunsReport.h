#pragma once

#include "gpuplan/catalog/Money.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/plan/PlanDocument.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

// The Reports page's content as data (every run and launch, plan against actual, and the spending by month, by
// provider and by plan against its budget), and its CSV. No wording: ui/pages/ReportsPage words it, the CSV carries
// identifiers and plain numbers. Unknown stays unknown (nullopt, an empty CSV cell), never 0.

/// Where a measured figure stands against what the plan expected.
enum class RangeFit
{
    Unknown, // no plan figure, or nothing measured (yet)
    Below,
    Within,
    Above,
};

/// One run, plan against actual. Money is in the report's currency (nullopt: unknown, or not convertible).
struct RunReportRow
{
    std::int64_t runId = 0;
    std::int64_t launchId = 0; // 0: a machine not launched by GPU Planner
    std::string planId;
    std::string planName;     // the plan's workload and option, as the run kept it; empty: not known
    std::string host;         // USER@HOST[:PORT]
    std::string provider;     // of its launch; empty: no launch
    std::string instanceType; // likewise
    std::string region;
    RunState state = RunState::Starting;
    std::optional<int> exitCode;
    std::int64_t startedAt = 0; // Unix seconds
    std::optional<std::int64_t> endedAt;

    std::optional<double> plannedHours, plannedHoursLow, plannedHoursHigh;
    double hours = 0;                      // running time so far (the whole run once it ended)
    RangeFit hoursFit = RangeFit::Unknown; // judged once it finished: before, or failed, it did not do it all

    std::optional<double> plannedThroughput, plannedThroughputLow, plannedThroughputHigh;
    std::optional<double> throughput;
    std::string throughputUnit; // "samples" or "tokens" (per second)
    RangeFit throughputFit = RangeFit::Unknown;

    std::optional<double> plannedCost;
    std::optional<double> cost;
    RangeFit costFit = RangeFit::Unknown; // Above when it cost more than planned, else Within

    std::optional<double> gpuUtilization; // percent
    std::string resultsDir;               // empty: not downloaded
    /// A spot run recovered on other instances: how many it ran on, how often it was reclaimed, and the hours lost to
    /// it; its hours and cost are then the whole run's, every instance included (runTotals).
    int attempts = 1;
    int interruptions = 0;
    double lostHours = 0;
};

/// One launch and what it cost so far.
struct LaunchReportRow
{
    std::int64_t launchId = 0;
    std::string provider;
    std::string region;
    std::string instanceType;
    std::string pricingMode;
    std::string planId; // empty: launched without a plan
    std::string planName;
    InstanceState state = InstanceState::Intent;
    std::optional<std::int64_t> startedAt; // running since; nullopt: never ran
    std::optional<std::int64_t> endedAt;
    std::optional<double> hours; // nullopt: never ran
    double costOwn = 0;          // costSoFar in the price's currency
    Currency ownCurrency = Currency::USD;
    std::optional<double> cost; // in the report's currency; nullopt: not convertible
};

/// Spending of one calendar month (UTC), by provider.
struct MonthSpend
{
    std::string month;                                      // "2025-01"
    std::vector<std::pair<std::string, double>> byProvider; // provider -> amount, in provider order
    double total = 0;
};

struct ProviderSpend
{
    std::string provider;
    double amount = 0;
};

/// A plan's spending against its budget.
struct PlanSpendRow
{
    std::string planId; // empty: launches made without a plan
    std::string planName;
    double spent = 0;
    std::optional<double> budget; // converted; nullopt: the plan has no budget
    std::optional<double> share;  // spent / budget (1 = all of it)
};

struct RunsReport
{
    Currency currency = Currency::CNY; // of every amount but LaunchReportRow::costOwn
    std::int64_t now = 0;
    std::vector<RunReportRow> runs;        // oldest first
    std::vector<LaunchReportRow> launches; // oldest first
    std::vector<MonthSpend> byMonth;       // oldest first
    std::vector<ProviderSpend> byProvider; // most first
    std::vector<PlanSpendRow> byPlan;      // most first
    double total = 0;
    /// Launches whose cost could not be converted to `currency` (no exchange rate): left out of the spending.
    int unconverted = 0;
};

/// What the report is built from.
struct RunsReportInput
{
    std::vector<LedgerEntry> entries;
    std::vector<RunRecord> runs;
    std::vector<RunAttempt> attempts; // of every run (Ledger::attempts)
    std::vector<PlanBudget> budgets;
    ExchangeRate rate; // cnyPerUsd 0: amounts in another currency than `currency` stay unknown
    std::int64_t now = 0;
    Currency currency = Currency::CNY;
};

/// The report. Spending per month splits each launch's cost so far pro rata over its running seconds in each UTC
/// calendar month (a launch that cost something in no time, a minimum charge, counts in the month it started).
RunsReport buildRunsReport(const RunsReportInput& input);

/// The calendar month (UTC) of a Unix time: "2025-01".
std::string utcMonth(std::int64_t unixSeconds);
/// A Unix time as ISO 8601 UTC: "2025-01-31T23:00:00Z".
std::string utcIso(std::int64_t unixSeconds);

/// The runs and launches as one RFC 4180 CSV table (CRLF line ends, a header row). Its first column, "section", says
/// what a row is: "run" or "launch"; the columns one kind does not have stay empty, as does every unknown figure.
/// Numbers are plain decimals with a dot, times ISO 8601 UTC, money in `report.currency` (column "currency").
std::string runsReportCsv(const RunsReport& report);

/// One field as RFC 4180 writes it: quoted when it holds a comma, a quote, CR or LF (quotes doubled).
std::string csvField(const std::string& text);

/// The runs of plan `planId` as a plan document keeps them for its report, oldest first.
std::vector<PlanRun>
planRunsOf(const std::vector<RunRecord>& runs, const std::vector<LedgerEntry>& entries, const std::string& planId);

/// Puts the ledger's runs of `plan` into it (its `runs`) before its report is written; a plan whose runs the ledger
/// does not have (mailed from another computer) keeps the ones it carries. No ledger file: nothing changes.
Status attachLedgerRuns(PlanDocument& plan, const std::filesystem::path& ledgerFile);

} // namespace gpuplan::core
