#pragma once

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/core/Reason.h"
#include "gpuplan/estimate/Assumptions.h"
#include "gpuplan/estimate/Estimator.h"
#include "gpuplan/estimate/SpotModel.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpuplan::core {

enum class Objective
{
    Cheapest, // cheapest within the deadline
    Fastest,  // fastest within the budget
    Value,    // lowest cost × time, both relative to the best
};

const char* objectiveName(Objective objective);
std::optional<Objective> parseObjective(std::string_view name);

/// What the user asks for (the wizard's answers).
struct Constraints
{
    std::optional<double> budget; // in `currency`
    Currency currency = Currency::CNY;
    std::optional<double> deadlineHours;
    bool sensitive = false;            // data may only go to physically isolated or compliant offers
    std::string framework = "pytorch"; // pytorch, tensorflow, jax, paddle, mindspore
    int minGpus = 1;
    int maxGpus = 64;
    std::optional<Precision> precision; // nullopt: the best each card supports (BF16, else FP16, else FP32)
    std::optional<Objective> objective; // nullopt: cheapest with a deadline, fastest with only a budget, else value
    double projectMonths = 0;           // a long project may use reservations and yearly subscriptions
    int top = 5;
    /// What-if: this share (0..1] of the work runs on spot, the rest on demand, for offers that have both.
    std::optional<double> spotShare;
    std::vector<PricingMode> modes; // pricing modes to consider; empty: all
    bool multiNode = true;          // false: one server only
    bool requireRdma = true;        // several servers only with RDMA / InfiniBand / EFA between them
    /// Countries the run may go to (ISO 3166-1 alpha-2, upper case: "CN", "HK"); empty: anywhere. A region
    /// whose country regions.json does not give is left out when this is set.
    std::vector<std::string> countries;
};

/// "CN, HK", "cn hk", "CN、HK" -> {"CN", "HK"}; InvalidArgument naming the first entry that is not a
/// two-letter country code. Empty text is anywhere (an empty list).
Result<std::vector<std::string>> parseCountryCodes(std::string_view text);
/// The entries of a country list as typed, split at commas (also Chinese ones), semicolons and blanks.
std::vector<std::string> countryEntries(std::string_view text);
/// Two letters: what parseCountryCodes accepts as one entry.
bool isCountryCode(std::string_view entry);

/// OK when some region in `assumptions` (regions.json) lies in each of `countries`; else NotFound naming the first
/// that none does ("XX" is no country code, or none of the catalog's regions is there) and the countries the
/// catalog's regions are in, so that a typo is not answered with "no offer meets every constraint".
Status checkCountries(const std::vector<std::string>& countries, const Assumptions& assumptions);

/// Figures the estimate assumes beyond the catalog, each with its range (docs/estimator.md).
struct CostModel
{
    Range setupHours{0.5, 0.25, 1.0}; // boot, environment, first data load
    Range uploadMbps{100, 300, 30};   // the lab's upload bandwidth; low hours at 300, high at 30
    double checkpointWriteGBs = 1.0;  // checkpoint write speed, GB/s
    double checkpointEveryHours = 1;  // an on-demand run saves a checkpoint this often (ASSUMPTION)
    bool monteCarlo = true;
    int monteCarloRuns = 1000;
    std::uint64_t seed = 20261203;
    std::optional<ExchangeRate> exchangeRate; // instead of the catalog's (the user's rate of today)
};

struct SpotDetail
{
    InterruptionRate rate;
    double mtbfHours = 0;     // of the whole job (all nodes)
    double intervalHours = 0; // Daly's optimum checkpoint interval
    double checkpointHours = 0;
    double expectedHours = 0; // closed form, Daly eq. 13
    std::optional<SpotOutcome> simulated;
    double perHour = 0;    // what the hours cost, in the plan's currency (so percentiles of time give cost)
    double extraHours = 0; // setup and upload, billed too
};

/// One pricing mode of one offer in one region.
struct ModeCost
{
    PricingMode mode = PricingMode::OnDemand;
    const Price* price = nullptr; // in the catalog
    Range hours;                  // wall clock, setup and data transfer included
    Range cost;                   // in the plan's currency, storage and egress included
    bool eligible = true;
    Reason why; // when not eligible
    std::optional<SpotDetail> spot;
    double spotShare = 0; // > 0: a blend of spot (this share) and on-demand (Constraints::spotShare)
    /// Reservations and subscriptions: what the term binds the lab to pay, in the plan's currency.
    struct Commitment
    {
        double months = 0;
        double amount = 0;
    };
    std::optional<Commitment> commitment;
    /// A mode of the same machine as a managed job (the offer's managed twin in the catalog: "azureml/X" of X): its
    /// offer. Shown beside the machine's own modes, never chosen as the option's: a job runs a container, not a
    /// machine the user logs in to. Null for the machine's own modes.
    const Offer* managed = nullptr;
};

/// One instance type in one region, estimated.
struct OfferEstimate
{
    const Provider* provider = nullptr;
    const Offer* offer = nullptr;
    const GpuSpec* gpu = nullptr;
    std::string region;
    int nodes = 1;
    int gpus = 1;
    std::shared_ptr<const TrainingEstimate> training; // shared by every region of the offer
    Range setupHours;
    Range transferHours;
    Range checkpointHours; // saving checkpoints on the way (on-demand; spot counts its own)
    Range storageCost;     // dataset and checkpoints for the run's hours, in the plan's currency
    Range egressCost;      // taking the final checkpoint home
    Range extrasCost;      // storage + egress
    std::optional<double> kwh;
    std::optional<double> kgCo2e;
    std::vector<ModeCost> modes;
    std::vector<Reason> notes; // "note.*"

    const ModeCost* cheapestEligible() const;
};

struct RankedOption
{
    OfferEstimate estimate;
    ModeCost mode; // the mode it is recommended with
    std::vector<Reason> reasons;
};

struct Exclusion
{
    const Provider* provider = nullptr; // in the planner's catalog
    std::string instanceType;
    std::string region;
    std::string rule; // framework, sensitive, memory, no_price, rdma, deadline, budget, unknown
    Reason reason;
};

struct Recommendation
{
    Objective objective = Objective::Value;
    std::vector<RankedOption> options; // best first, at most Constraints::top
    int eligibleCount = 0;             // before cutting to top
    std::vector<Exclusion> excluded;
    std::vector<Reason> notes; // "note.*"
};

/// Which points (cost, hours) are Pareto-optimal: no other point is at least as cheap and as fast and
/// better in one of the two. Equal points are all optimal.
std::vector<bool> paretoOptimal(const std::vector<std::pair<double, double>>& costHours);

/// The exchange rate a plan uses: the model's when it has one, else the catalog's.
ExchangeRate planExchangeRate(const Catalog& catalog, const CostModel& model);

/// The estimator and recommender over one catalog. Cheap to run again (the GUI re-plans while a slider
/// moves): training estimates and spot simulations are cached per distinct setup.
class Planner
{
public:
    Planner(const Catalog& catalog, const Assumptions& assumptions, const Calibration& calibration);

    /// Every offer × region × pricing mode estimated, without the recommender's filters.
    std::vector<OfferEstimate>
    estimateAll(const Workload& workload, const Constraints& constraints, const CostModel& model = {});

    /// The five steps (task, budget model, sensitivity, framework, scale) as filters, then the ranking.
    Recommendation recommend(const Workload& workload, const Constraints& constraints, const CostModel& model = {});

    void clearCache();

private:
    /// One offer's rows (a row per region, each with every pricing mode), appended to `rows`.
    void estimateOffer(std::vector<OfferEstimate>& rows,
                       const Offer& offer,
                       const Workload& workload,
                       const Constraints& constraints,
                       const CostModel& model,
                       const ExchangeRate& rate);

    const Catalog& m_catalog;
    const Assumptions& m_assumptions;
    const Calibration& m_calibration;
    std::map<std::string, std::shared_ptr<const TrainingEstimate>> m_trainingCache;
    std::map<std::string, SpotOutcome> m_spotCache;
    /// The catalog's managed offers by the machine they run on ("azure|Standard_NC4as_T4_v3" for
    /// "azureml/Standard_NC4as_T4_v3"), and those whose machine the catalog also sells as a VM (folded into its modes,
    /// not ranked on their own).
    std::map<std::string, const Offer*> m_managedTwins;
    std::set<const Offer*> m_folded;
    std::vector<OfferEstimate> m_rows; // recommend()'s rows of the offer being judged; its storage is reused
};

} // namespace gpuplan::core
