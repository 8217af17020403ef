#pragma once

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/ledger/Ledger.h"

#include <nlohmann/json.hpp>

#include <string>

namespace gpuplan::core {

/// What a plan says about launching one of its options.
struct PlanLaunch
{
    std::string planId; // planIdOf(plan)
    std::string provider;
    std::string instanceType;
    std::string region;
    PricingMode mode = PricingMode::OnDemand;
    double hoursHigh = 0; // the high estimate of the run's hours in that mode (0: unknown)
    double budget = 0;    // the plan's budget (0: none)
    Currency currency = Currency::CNY;
};

/// A stable id for a plan: "plan-" and 12 hex digits of the SHA-256 of its creation time and workload id; the
/// ledger groups launches by it, for the budget guard.
std::string planIdOf(const nlohmann::json& plan);

/// Option `rank` (1-based, as `gpuplan plan` prints it) of the plan's ranked options; 0: the plan's choice,
/// else its first option. SchemaViolation naming the JSON path when the plan lacks what a launch needs;
/// InvalidArgument when there is no such rank.
Result<PlanLaunch> planLaunch(const nlohmann::json& plan, int rank = 0);

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
