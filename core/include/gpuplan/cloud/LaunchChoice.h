#pragma once

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/core/Reason.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/plan/PlanDocument.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gpuplan::core {

/// Why GPU Planner cannot launch an offer. Each front end words it (notLaunchableReason gives it as a reason).
enum class LaunchBlock
{
    Provider,    // launching on this provider is not built (it is not in ProviderRegistry::builtIn())
    Mode,        // the provider cannot launch in this pricing mode (CloudProvider::unsupportedFeatures)
    Reservation, // a reserved price is a term bought from the provider, not an instance launched
};

struct NotLaunchable
{
    LaunchBlock block = LaunchBlock::Provider;
    /// Mode: the provider's own reason ("error.cloud.feature_unsupported" {provider, feature, why_key}); empty
    /// otherwise.
    Reason detail;
};

/// nullopt when GPU Planner can launch `provider`'s instances in `mode` (on demand; spot and monthly where the
/// provider declares them); else why not. Thread-safe.
std::optional<NotLaunchable> launchBlock(std::string_view provider, PricingMode mode);

/// `why` as a reason to word ("error.cloud.provider_not_launchable" {provider, launchable}: "GPU Planner launches
/// on aws and tencent only, not yet on lambda"; "error.cloud.mode_not_launchable" {provider, mode, why_key};
/// "error.cloud.reservation_not_launchable" {mode}). `launchable` lists the provider ids, separated by ','.
Reason notLaunchableReason(const NotLaunchable& why, std::string_view provider, PricingMode mode);

/// One option of a plan, as it is offered for launching.
struct LaunchOption
{
    int rank = 0; // 1-based, as `gpuplan plan` prints it
    std::string provider;
    std::string instanceType;
    std::string region;
    PricingMode mode = PricingMode::OnDemand;
};

/// The budget a plan document sets (constraints.budget and .currency; amount 0: none), under planIdOf(plan); the
/// plan's id empty when it is not a JSON object. autoTerminate is for the launch to say.
PlanBudget planBudgetOf(const PlanDocument& plan);

/// What a plan says about launching one of its options.
struct PlanLaunch
{
    std::string planId; // planIdOf(plan)
    int rank = 0;       // the option's rank, 1-based
    std::string provider;
    std::string instanceType;
    std::string region;
    PricingMode mode = PricingMode::OnDemand;
    double hoursHigh = 0; // the high estimate of the run's hours in that mode (0: unknown)
    double budget = 0;    // the plan's budget (0: none)
    Currency currency = Currency::CNY;
    /// Set when this is not the plan's choice: the choice cannot be launched by GPU Planner (why), and this is the
    /// best-ranked option that can.
    std::optional<std::pair<LaunchOption, NotLaunchable>> passedOver;
};

/// A stable id for a plan: "plan-" and 12 hex digits of the SHA-256 of its creation time and workload id; the
/// ledger groups launches by it, for the budget guard.
std::string planIdOf(const PlanDocument& plan);

/// Option `rank` (1-based, as `gpuplan plan` prints it) of the plan's ranked options; 0: the plan's choice,
/// else its first option, and when GPU Planner cannot launch that one, the best-ranked option it can launch, with
/// the choice and why in PlanLaunch::passedOver. SchemaViolation naming the JSON path when the plan lacks what a
/// launch needs; InvalidArgument when there is no such rank, when the option `rank` names cannot be launched
/// (where: "--option"; an explicit option is never swapped), or when no option can. Thread-safe.
Result<PlanLaunch> planLaunch(const PlanDocument& plan, int rank = 0);

/// The price a launch is recorded at: the catalog's price of the provider's instance type in `region` for
/// `mode`, with the offer's billing; `months` for a subscription. NotFound naming offer, region and mode when the
/// catalog has no such price (the ledger needs one: nothing is launched at an unknown price).
Result<LaunchPrice> catalogLaunchPrice(const Catalog& catalog,
                                       const std::string& provider,
                                       const std::string& instanceType,
                                       const std::string& region,
                                       PricingMode mode,
                                       int months = 0);

} // namespace gpuplan::core
