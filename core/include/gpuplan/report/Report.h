#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/estimate/Range.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

// The PI's report as data: what it says, read from a plan document (.gpuplan JSON), with no drawing and no
// wording. ui/report words and draws it. Reasons stay as the plan's {"key", "params", "text"} objects so the UI
// words them in its language (core/Reason.h).

/// A catalog price as the plan used it.
struct ReportPrice
{
    double amount = 0;
    std::string currency;
    std::string unit; // hour, month
    std::string asOf; // the date its source states; empty: undated
    std::string source;
};

/// One pricing mode of an option.
struct ReportMode
{
    std::string mode; // on_demand, spot, reserved_1y, reserved_3y, subscription_monthly, subscription_yearly
    bool eligible = true;
    nlohmann::json whyNot; // reason when not eligible; null otherwise
    Range hours;
    Range cost; // in the plan's currency
    std::optional<ReportPrice> price;
    std::optional<double> commitmentAmount; // reservations and subscriptions, in the plan's currency
    double commitmentMonths = 0;
};

/// One ranked offer of the plan.
struct ReportOption
{
    int rank = 0;
    std::string provider; // id
    std::string providerName;
    std::string providerNameZh;
    std::string instanceType;
    std::string region;
    std::string gpuName;
    int gpus = 0;
    int nodes = 1;
    std::string mode; // the pricing mode it is ranked with
    Range hours;
    Range cost;
    std::optional<ReportPrice> price; // of `mode`
    /// What `mode` binds the lab to pay in all (reservations and subscriptions), in the plan's currency; a report
    /// shows it wherever it shows the option's cost. nullopt: `mode` has no term.
    std::optional<double> commitmentAmount;
    double commitmentMonths = 0;
    std::vector<ReportMode> modes;
    nlohmann::json reasons = nlohmann::json::array();
};

/// How the recommendation stands against a limit the user set.
enum class LimitVerdict
{
    NotSet,  // no budget / no deadline was given
    Within,  // even the high end of the range is within it
    AtRisk,  // the central estimate is within it, the high end is not
    Exceeds, // the central estimate is over it
};

struct ReportSummary
{
    ReportOption recommended;
    std::optional<ReportOption> runnerUp;
    std::optional<ReportOption>
        cheapest;                        // by central cost over every ranked option; nullopt when it is the recommended
    std::optional<ReportOption> fastest; // by central hours, likewise
    int eligibleCount = 0;
    int excludedCount = 0;
    std::string objective; // cheapest, fastest, value
    std::optional<double> budget;
    LimitVerdict budgetVerdict = LimitVerdict::NotSet;
    std::optional<double> deadlineHours;
    LimitVerdict deadlineVerdict = LimitVerdict::NotSet;
};

struct ReportSource
{
    std::string url;
    std::string date;
};

/// What the estimate assumes beyond the workload.
struct ReportAssumptions
{
    std::string precisionAsked; // "auto" or the precision the user chose
    std::string precisionUsed;  // of the recommended option ("bf16"); empty: unknown
    std::optional<double> peakTflops;
    std::optional<Range> efficiency;
    nlohmann::json efficiencyBasis; // reason
    std::optional<double> mfu;
    std::string framework;
    bool sensitive = false;
    std::vector<std::string> countries;
    double cnyPerUsd = 0;
    std::string exchangeRateDate;
    std::string exchangeRateSource;
    bool exchangeRateUserSet = false;
    std::optional<double> electricityPerKwh; // unknown when absent
    std::string electricityCurrency;
    std::optional<double> pue;
    std::string catalogPriceDate;
    Range setupHours;
    Range uploadMbps;
    std::optional<double> checkpointWriteGbs;
    int monteCarloRuns = 0;
    std::vector<ReportSource> priceSources; // of every price in the comparison table, newest first
};

/// One line of the comparison table: an option in one pricing mode.
struct ComparisonRow
{
    int rank = 0;
    bool ranked = true;     // false: another mode of the option above
    std::size_t option = 0; // index in Report::options
    ReportMode mode;
};

struct SpotRisk
{
    int rank = 0;
    std::string offer; // "aws g5.xlarge (us-east-1)"
    Range monthlyInterruption;
    double mtbfHours = 0;
    std::optional<double> checkpointIntervalHours;
    std::optional<double> p90Hours;
    std::optional<double> p90Cost;
    std::optional<double> meanInterruptions;
    std::string rateSource;
};

struct CommitmentRisk
{
    int rank = 0;
    std::string offer;
    std::string mode;
    double months = 0;
    double amount = 0;
    Range runCost; // what the run itself costs in that mode
    bool eligible = true;
};

struct ReportRisks
{
    /// The ranked options with a spot price that could be judged, best first, at most kReportTableOptions: also
    /// those below the comparison table, so the PI sees what spot would do.
    std::vector<SpotRisk> spot;
    std::vector<CommitmentRisk> commitments; // of the comparison table's options

    bool sensitive = false;
    int excludedAsSensitive = 0;         // offers left out because they are neither isolated nor compliant
    nlohmann::json recommendedIsolation; // the recommended option's reason.isolated, or null
    std::vector<std::pair<std::string, int>> exclusionsByRule; // rule -> count, most first
};

struct ReportRentLine
{
    std::string key; // on_demand, reserved_1y, reserved_3y, subscription_monthly
    std::string offer;
    double upfront = 0;
    double monthly = 0;
    double total = 0; // after `months`
    std::optional<double> breakEvenMonth;
    ReportSource source;
};

struct ReportBuyVsRent
{
    bool available = false;
    std::string unavailableReason;
    std::string system;
    std::string gpuName;
    int gpus = 0;
    double powerW = 0;
    int months = 0;
    double utilisation = 0;
    double pue = 0;
    double maintenancePerYear = 0;
    double depreciationYears = 0;
    std::optional<double> electricityPerKwh;
    ReportRentLine own;
    std::vector<ReportRentLine> rent;
};

/// One judged check of a probe run (core/probe/Verdict.h), as the plan keeps it.
struct ReportCheck
{
    std::string check; // model, gemm_bf16, ecc, ...
    std::optional<int> gpu;
    std::string level; // pass, unknown, warn, fail
    std::string measured;
    std::string expected;
    nlohmann::json reason;
};

/// A probe run on an instance of the plan (plan["verifications"], written by `gpuplan probe --plan`).
struct ReportVerification
{
    std::string when;
    std::string host;
    std::string expectedGpu;
    int expectedCount = 0;
    std::string gpuName; // as the driver names it
    int gpuCount = 0;
    std::string driver;
    std::string level; // pass, warn, fail
    std::vector<ReportCheck> checks;
};

/// A ledger entry attached to the plan (plan["ledger"]): one instance and what it cost.
struct ReportSpend
{
    std::string provider;
    std::string instanceId;
    std::string instanceType;
    std::string region;
    std::string started;
    std::string ended; // empty: still running
    double hours = 0;
    double cost = 0;
    std::string currency;
};

struct Report
{
    std::string title;   // the plan's workload name
    std::string titleZh; // its Chinese name, when it has one
    std::string workloadId;
    std::string created;     // when the plan was computed
    std::string notes;       // the plan's notes
    std::string currency;    // of every amount
    nlohmann::json workload; // the plan's workload document
    ReportSummary summary;
    ReportAssumptions assumptions;
    std::vector<ReportOption> options; // the comparison table's options, best first
    std::vector<ComparisonRow> comparison;
    ReportRisks risks;
    ReportBuyVsRent buyVsRent;
    std::vector<ReportVerification> verifications;
    std::vector<ReportSpend> spend;
};

/// How many ranked options the comparison table shows.
constexpr int kReportTableOptions = 10;

/// Reads a report out of a plan document. InvalidArgument naming the member when the plan has no ranked
/// option (nothing to recommend) or a member of the wrong kind; `where` names the file.
Result<Report> buildReport(const nlohmann::json& plan, const std::string& where);

/// A plan's ranked option as "provider instance (region)", the way tables and risks name it.
std::string offerLabel(const ReportOption& option);

} // namespace gpuplan::core
