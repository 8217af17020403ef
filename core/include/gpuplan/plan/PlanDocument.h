#pragma once

#include "gpuplan/catalog/Money.h"
#include "gpuplan/catalog/Offer.h"
#include "gpuplan/core/Reason.h"
#include "gpuplan/estimate/Range.h"
#include "gpuplan/estimate/SpotModel.h"
#include "gpuplan/plan/BuyVsRent.h"
#include "gpuplan/plan/Planner.h"
#include "gpuplan/probe/Verdict.h"
#include "gpuplan/run/RunSpec.h"
#include "gpuplan/workload/Workload.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

// A plan as the program holds it: what the planner made of one workload and its constraints, plus what happened
// to it later (the probe runs on its instance, the spend the ledger attached). The planner's own structs point
// into the catalog; a plan document stands alone, so a plan opened from a file, mailed by a student to the PI, is
// the same thing as one just computed. The planner makes it (makePlanDocument), PlanSession holds it, the report,
// the charts, the table model and the Launch and Verify pages read it, and PlanFile alone turns it into the
// .gpuplan JSON and back (docs/architecture.md).

/// A catalog price as the plan used it.
struct PlanPrice
{
    double amount = 0;
    Currency currency = Currency::USD;
    PriceUnit unit = PriceUnit::Hour;
    std::string source;    // URL
    std::string asOf;      // the date its source states; empty: undated
    std::string retrieved; // when the source was read
};

/// Spot in one offer: the interruption rate, the checkpointing it asks for, and the Monte Carlo outcome.
struct PlanSpot
{
    Range monthlyInterruption; // probability of an interruption within a month
    std::string rateSource;    // URL
    double mtbfHours = 0;
    double checkpointIntervalHours = 0;
    double checkpointHours = 0;
    double expectedComputeHours = 0;
    double extraHours = 0;                // setup and upload, billed too
    std::optional<SpotOutcome> simulated; // hours (p90Interruptions is not kept)

    /// What the run costs at each percentile of the simulated hours, in the plan's currency.
    struct CostPercentiles
    {
        double p10 = 0;
        double p25 = 0;
        double p50 = 0;
        double p75 = 0;
        double p90 = 0;
    };
    std::optional<CostPercentiles> simulatedCost;
};

/// One pricing mode of an option.
struct PlanMode
{
    PricingMode mode = PricingMode::OnDemand;
    PlanPrice price;
    Range hours;
    Range cost; // in the plan's currency, storage and egress included
    bool eligible = true;
    Reason whyNot; // when not eligible

    /// Reservations and subscriptions: what the term binds the lab to pay, in the plan's currency.
    struct Commitment
    {
        double months = 0;
        double amount = 0;
    };
    std::optional<Commitment> commitment;
    std::optional<PlanSpot> spot;
    /// A mode of the same machine as a managed job ("azureml/Standard_NC4as_T4_v3": the catalog's managed offer);
    /// empty for the machine's own modes. Never the option's ranked mode.
    std::string managedOffer;
};

/// The training estimate of an option (core/estimate/Estimator.h), as figures.
struct PlanTraining
{
    std::string gpu; // id
    int count = 0;
    std::string precision; // bf16, fp16, ...
    std::string stack;
    bool known = false;
    Reason unknownReason; // when not known

    Range throughput;
    std::string throughputUnit; // samples/s, tokens/s, ...
    Range hours;                // compute hours of the run
    Range gpuHours;
    std::optional<double> mfu;
    double peakTflops = 0;
    std::string peakUsed;   // which peak: dense bf16, ...
    std::string gpuFigures; // confidence in the GPU's figures
    Range efficiency;
    Reason efficiencyBasis;
    Range scaling;
    std::string limitedBy; // compute, memory_bandwidth, host, communication, input_pipeline, storage

    /// Where the time of one GPU goes, shares of 1.
    struct TimeShares
    {
        double compute = 0;
        double memoryBandwidth = 0;
        double host = 0;
        double communication = 0;
    };
    std::optional<TimeShares> timeShares;
    std::optional<double> inputPipelineCeiling;
    std::optional<double> storageCeiling;
    int nearness = 0; // of the calibration cases it rests on
    std::vector<std::string> basedOn;
    bool userData = false; // rests on a throughput the user measured

    std::optional<bool> fitsMemory; // nullopt: unknown
    Reason fitReason;               // when it does not fit: "fit.advice"

    /// What one GPU holds, in GB.
    struct Memory
    {
        std::string sharding = "ddp"; // "ddp" or "fsdp"
        bool activationCheckpointing = false;
        int microBatch = 0;
        double perGpuGb = 0;
        double capacityGb = 0;
        double weightsGb = 0;
        double gradientsGb = 0;
        double optimizerGb = 0;
        double activationsGb = 0;
        double reserveGb = 0;
    };
    std::optional<Memory> memory;
    std::vector<Reason> notes; // "note.*"
};

/// One ranked offer: an instance type in a region with `gpus` GPUs, recommended in `mode`.
struct PlanOption
{
    int rank = 0;         // 1 is the recommendation
    std::string provider; // id
    std::string providerName;
    std::string providerNameZh;
    std::string instanceType;
    std::string region;
    std::string gpu; // id
    std::string gpuName;
    int gpus = 0;
    int nodes = 1;
    PricingMode mode = PricingMode::OnDemand; // the mode it is ranked with
    double spotShare = 0;                     // > 0: a blend of spot and on-demand (what-if)
    Range computeCost;                        // `cost` split: compute, storage, egress
    Range storageCost;
    Range egressCost;
    Range setupHours;
    Range transferHours;
    Range checkpointHours;
    std::optional<double> pricePerHour; // of `mode`, all nodes, in `priceCurrency`; nullopt: not billed by the hour
    Currency priceCurrency = Currency::USD;
    Range hours; // in `mode`
    Range cost;  // in `mode`, in the plan's currency
    std::vector<PlanMode> modes;
    PlanTraining training;
    std::optional<double> kwh;
    std::optional<double> kgCo2e;
    std::vector<Reason> reasons; // why it ranks where it does
    std::vector<Reason> notes;   // "note.*"

    /// The mode it is ranked with, among `modes`; nullptr when none is.
    const PlanMode* rankedMode() const;
    /// The first eligible mode for which `matches` holds (isSpot, isReserved, ...); nullptr when none.
    const PlanMode* firstEligible(bool (*matches)(PricingMode)) const;
    /// `provider instance (region)`, the way tables and risks name an option.
    std::string label() const;
};

/// An offer the recommender left out, with the rule that did (framework, sensitive, memory, no_price, rdma,
/// deadline, budget, unknown).
struct PlanExclusion
{
    std::string provider;
    std::string providerName;
    std::string providerNameZh;
    std::string instanceType;
    std::string region;
    std::string rule;
    Reason reason;
};

struct PlanResults
{
    Objective objective = Objective::Value;
    int eligible = 0;                // options that passed every filter, before cutting to the top
    std::vector<PlanOption> options; // best first
    std::vector<PlanExclusion> excluded;
    std::vector<Reason> notes; // "note.*"
};

/// The workload as a plan keeps it: what the report and the pages show, and its definition for planning again.
struct PlanWorkload
{
    std::string id;
    std::string name;
    std::string nameZh;
    std::string description;
    std::string descriptionZh;
    std::string task;       // taskTypeName
    std::string modelClass; // modelClassName
    std::string method;     // trainingMethodName
    std::string kind;       // workKindName
    double parameters = 0;
    double epochs = 0;
    double units = 0; // of `unit`, over every epoch
    std::string unit; // tokens, images, ...
    std::optional<double> tokensPerEpoch;
    std::optional<int> sequenceLength;
    std::optional<double> samplesPerEpoch;
    /// The whole definition; nullopt when the plan's does not read (a plan from an older GPU Planner) and the plan
    /// cannot be planned again.
    std::optional<Workload> definition;
};

/// The exchange rate a plan converted with.
struct PlanExchangeRate
{
    double cnyPerUsd = 0;
    std::string source; // URL
    std::string date;
    bool userSet = false; // the user's rate of the day, not the catalog's
};

/// The estimator's figures beyond the catalog (CostModel), as the plan used them.
struct PlanAssumptions
{
    Range setupHours;
    Range uploadMbps;
    double checkpointWriteGbs = 0;   // 0: not stated (an older plan)
    double checkpointEveryHours = 0; // 0: not stated
    int monteCarloRuns = 0;          // 0: no simulation
};

/// One judged check of a probe run (core/probe/Verdict.h).
struct PlanCheck
{
    std::string check; // a key of gpuplan/probe/Checks.h
    std::optional<int> gpu;
    VerdictLevel level = VerdictLevel::Unknown;
    Reason measured; // a figure as VerdictLine has it ("figure.value" {value, unit}); empty: none. An older plan's
    Reason expected; // text reads as "saved.text" {text}.
    Reason reason;
};

/// A probe run on an instance of the plan. The host is USER@HOST, never a secret.
struct PlanVerification
{
    std::string when; // ISO 8601
    std::string host;
    VerdictLevel verdict = VerdictLevel::Unknown;
    std::string expectedGpu; // id
    int expectedCount = 0;
    std::string gpuName; // as the driver names it
    int gpuCount = 0;
    std::string driver;
    std::vector<PlanCheck> checks;
};

/// A ledger entry attached to the plan: one instance and what it cost.
struct PlanSpend
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

/// A training run on an instance of the plan (gpuplan run, the Run page), plan against actual, as the ledger kept it
/// when the plan was reported. Unknown figures are nullopt.
struct PlanRun
{
    std::string host; // USER@HOST[:PORT], never a secret
    std::string provider;
    std::string instanceType;
    std::string state; // runStateName: "finished", "failed", ...
    std::optional<int> exitCode;
    std::string started; // ISO 8601
    std::string ended;   // empty: not ended
    std::optional<double> plannedHours;
    std::optional<double> plannedHoursLow;
    std::optional<double> plannedHoursHigh;
    double hours = 0; // running time measured
    std::optional<double> plannedThroughput;
    std::optional<double> plannedThroughputLow;
    std::optional<double> plannedThroughputHigh;
    std::optional<double> throughput;
    std::string throughputUnit; // "samples" or "tokens" (per second)
    std::optional<double> plannedCost;
    std::string plannedCurrency;
    std::optional<double> cost;
    std::string costCurrency;
    std::optional<double> gpuUtilization; // percent
};

struct PlanDocument
{
    std::string created;       // ISO 8601, when the plan was computed
    std::string notes;         // the user's
    std::optional<int> choice; // the option the user picked to launch, an index into results.options; nullopt: none
    PlanWorkload workload;
    Constraints constraints;
    std::string priceDate; // the newest price date of the catalog it was planned with
    std::optional<PlanExchangeRate> exchangeRate;
    std::optional<PlanAssumptions> assumptions;
    PlanResults results;
    std::optional<BuyVsRent> buyVsRent; // nullopt: not compared
    std::vector<PlanVerification> verifications;
    std::vector<PlanSpend> ledger;
    std::vector<PlanRun> runs;  // the ledger's runs of this plan, attached for its report (planRunsOf)
    std::optional<RunSpec> run; // how its training runs on the instance (the Run page, gpuplan run); nullopt: not set

    /// The plan's currency: every amount but a catalog price is in it.
    Currency currency() const { return constraints.currency; }
};

/// What the planner made of a workload, as a document. `created` is an ISO 8601 time; `model` gives the exchange
/// rate used and the setup/upload assumptions; `buyVsRent` nullopt: not compared.
PlanDocument makePlanDocument(const Workload& workload,
                              const Constraints& constraints,
                              const Catalog& catalog,
                              const Recommendation& recommendation,
                              const std::string& created,
                              const std::string& notes = {},
                              const CostModel& model = {},
                              std::optional<BuyVsRent> buyVsRent = std::nullopt);

/// One probe run on an instance of the plan, as the plan keeps it.
PlanVerification makePlanVerification(const ProbeResult& result,
                                      const Verdict& verdict,
                                      const ExpectedHardware& promised,
                                      const std::string& host,
                                      const std::string& when);

/// One training estimate as a plan keeps it.
PlanTraining makePlanTraining(const TrainingEstimate& estimate, const GpuSpec& gpu, int gpus);

bool isOnDemand(PricingMode mode);
bool isSpot(PricingMode mode);
bool isReserved(PricingMode mode);     // reserved_1y, reserved_3y
bool isSubscription(PricingMode mode); // subscription_monthly, subscription_yearly

} // namespace gpuplan::core
