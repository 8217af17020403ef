// The pieces core/plan/Planner.cpp shares with the files that estimate every offer (PlannerEstimates.cpp) and apply
// the plan's rules to it (PlannerFilters.cpp): the wording helpers of a reason, and the rules' entry point. Private to
// core/plan.
#pragma once

#include "gpuplan/plan/Planner.h"

#include <map>
#include <optional>
#include <string>

namespace gpuplan::core::planner {

/// Hours in a month (365 x 24 / 12): storage priced per month, and subscriptions.
constexpr double kHoursPerMonth = 730;

/// As printf's "%.*f".
std::string fixed(double value, int decimals);
Reason reason(std::string key, std::map<std::string, std::string> params);
/// A reason that wraps another ("cannot be estimated: <cause>"): the cause's key and parameters travel as
/// `cause` and `cause.<name>`.
Reason nested(std::string key, std::map<std::string, std::string> params, const Reason& cause);

/// Why an offer in a region is left out: the rule's name (Exclusion::rule) and its reason.
struct Excluded
{
    std::string rule;
    Reason why;
};

/// The plan's rules applied to one offer in one region, in the order the recommender has always applied them:
/// framework, country, sensitive data, memory, an estimate at all, scale, RDMA, a price, then the pricing modes
/// chosen, the deadline and the budget per mode (a mode that misses them is marked ineligible with its reason).
/// Nullopt when some mode of it meets every constraint.
std::optional<Excluded> ruledOut(OfferEstimate& e, const Constraints& constraints, const Assumptions& assumptions);

} // namespace gpuplan::core::planner
