#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/estimate/Range.h"
#include "gpuplan/plan/PlanDocument.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

// The PI's report as data: what it says, drawn from a plan document, with no drawing and no wording. ui/report
// words and draws it. Reasons stay core::Reason so the UI words them in its language (core/Reason.h).

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
    PlanOption recommended;
    std::optional<PlanOption> runnerUp;
    std::optional<PlanOption> cheapest; // by central cost over every ranked option; nullopt when it is the recommended
    std::optional<PlanOption> fastest;  // by central hours, likewise
    int eligibleCount = 0;
    int excludedCount = 0;
    Objective objective = Objective::Value;
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
    Reason efficiencyBasis;
    std::optional<double> mfu;
    std::string framework;
    bool sensitive = false;
    std::vector<std::string> countries;
    double cnyPerUsd = 0; // 0: the plan converted nothing
    std::string exchangeRateDate;
    std::string exchangeRateSource;
    bool exchangeRateUserSet = false;
    std::optional<double> electricityPerKwh; // unknown when absent
    std::optional<Currency> electricityCurrency;
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
    PlanMode mode;
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
    PricingMode mode = PricingMode::Reserved1Year;
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
    int excludedAsSensitive = 0;                // offers left out because they are neither isolated nor compliant
    std::optional<Reason> recommendedIsolation; // the recommended option's reason.isolated
    std::vector<std::pair<std::string, int>> exclusionsByRule; // rule -> count, most first
};

struct Report
{
    PlanWorkload workload;
    std::string created;               // when the plan was computed
    std::string notes;                 // the plan's notes
    Currency currency = Currency::CNY; // of every amount but a catalog price
    ReportSummary summary;
    ReportAssumptions assumptions;
    std::vector<PlanOption> options; // the comparison table's options, best first
    std::vector<ComparisonRow> comparison;
    ReportRisks risks;
    std::optional<BuyVsRent> buyVsRent; // nullopt: not compared
    std::vector<PlanVerification> verifications;
    std::vector<PlanSpend> spend;
    std::vector<PlanRun> runs; // the plan's training runs, plan against actual
};

/// How many ranked options the comparison table shows.
constexpr int kReportTableOptions = 10;

/// The report of a plan. InvalidArgument naming `where` when the plan has no ranked option (nothing to recommend).
Result<Report> buildReport(const PlanDocument& plan, const std::string& where);

} // namespace gpuplan::core
