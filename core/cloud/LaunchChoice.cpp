#include "gpuplan/cloud/LaunchChoice.h"

#include <map>
#include <memory>
#include <vector>

#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/net/Crypto.h"

namespace gpuplan::core {

namespace {

/// Option `index` (0-based) of the plan's ranked options.
Result<PlanLaunch> readOption(const PlanDocument& plan, std::size_t index)
{
    const PlanOption& option = plan.results.options[index];
    const std::string at = "$.results.options[" + std::to_string(index) + "]";
    PlanLaunch out;
    out.planId = planIdOf(plan);
    out.rank = static_cast<int>(index) + 1;
    for (auto [field, value] : {std::pair{"provider", &option.provider},
                                std::pair{"instance_type", &option.instanceType},
                                std::pair{"region", &option.region}}) {
        if (value->empty()) {
            return Error{ErrorCode::SchemaViolation, "is empty", at + "." + field};
        }
    }
    out.provider = option.provider;
    out.instanceType = option.instanceType;
    out.region = option.region;
    out.mode = option.mode;
    out.hoursHigh = option.hours.high;
    const PlanBudget budget = planBudgetOf(plan);
    out.budget = budget.amount;
    out.currency = budget.currency;
    return out;
}

} // namespace

std::string planIdOf(const PlanDocument& plan)
{
    return "plan-" + sha256Hex(plan.created + "|" + plan.workload.id).substr(0, 12);
}

std::optional<NotLaunchable> launchBlock(std::string_view provider, PricingMode mode)
{
    const ProviderDescriptor* descriptor = ProviderRegistry::builtIn().find(provider);
    if (!descriptor || !descriptor->canLaunch()) {
        return NotLaunchable{LaunchBlock::Provider, {}};
    }
    std::optional<CloudFeature> needs;
    switch (mode) {
        case PricingMode::OnDemand:
            break;
        case PricingMode::Spot:
            needs = CloudFeature::Spot;
            break;
        case PricingMode::SubscriptionMonthly:
        case PricingMode::SubscriptionYearly:
            needs = CloudFeature::Subscription;
            break;
        case PricingMode::Reserved1Year:
        case PricingMode::Reserved3Year:
            return NotLaunchable{LaunchBlock::Reservation, {}};
    }
    if (needs) {
        const std::map<CloudFeature, std::string>& lacks = descriptor->unsupported;
        if (auto lack = lacks.find(*needs); lack != lacks.end()) {
            return NotLaunchable{LaunchBlock::Mode, lack->second};
        }
    }
    return std::nullopt;
}

std::string notLaunchableText(const NotLaunchable& why, std::string_view provider, PricingMode mode)
{
    switch (why.block) {
        case LaunchBlock::Mode:
            return std::string(provider) + " cannot launch " + pricingModeName(mode) + ": " + why.detail;
        case LaunchBlock::Reservation:
            return std::string("a ") + pricingModeName(mode)
                   + " price is a reservation bought from the provider for a term; GPU Planner launches on demand, "
                     "spot or monthly";
        case LaunchBlock::Provider:
            break;
    }
    std::string list;
    const std::vector<std::string> ids = ProviderRegistry::builtIn().ids();
    for (std::size_t i = 0; i < ids.size(); ++i) {
        list += (i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ") + ids[i];
    }
    return "GPU Planner launches on " + list + " only, not yet on " + std::string(provider);
}

PlanBudget planBudgetOf(const PlanDocument& plan)
{
    PlanBudget out;
    out.planId = planIdOf(plan);
    out.amount = plan.constraints.budget.value_or(0);
    out.currency = plan.constraints.currency;
    return out;
}

Result<PlanLaunch> planLaunch(const PlanDocument& plan, int rank)
{
    const std::vector<PlanOption>& options = plan.results.options;
    if (options.empty()) {
        return Error{ErrorCode::SchemaViolation, "the plan has no ranked options to launch", "$.results.options"};
    }
    const auto named = [](const PlanLaunch& o) {
        return "option " + std::to_string(o.rank) + ", " + o.provider + " " + o.instanceType + " in " + o.region + " ("
               + pricingModeName(o.mode) + ")";
    };
    if (rank > 0) {
        if (std::size_t(rank) > options.size()) {
            return Error{ErrorCode::InvalidArgument,
                         "the plan ranks " + std::to_string(options.size()) + " options; there is no option "
                             + std::to_string(rank),
                         "--option"};
        }
        Result<PlanLaunch> asked = readOption(plan, std::size_t(rank) - 1);
        if (!asked) {
            return asked;
        }
        if (std::optional<NotLaunchable> why = launchBlock(asked->provider, asked->mode)) {
            return Error{ErrorCode::InvalidArgument,
                         named(*asked) + ", cannot be launched by GPU Planner yet ("
                             + notLaunchableText(*why, asked->provider, asked->mode)
                             + "); choose another --option, or leave it out to be offered the best one that can",
                         "--option"};
        }
        return asked;
    }
    std::size_t index = 0;
    if (plan.choice && *plan.choice >= 0 && std::size_t(*plan.choice) < options.size()) {
        index = std::size_t(*plan.choice);
    }
    Result<PlanLaunch> chosen = readOption(plan, index);
    if (!chosen) {
        return chosen;
    }
    const std::optional<NotLaunchable> why = launchBlock(chosen->provider, chosen->mode);
    if (!why) {
        return chosen;
    }
    // The choice cannot be launched here: the best-ranked option that can, with the choice and why beside it.
    for (std::size_t i = 0; i < options.size(); ++i) {
        if (i == index) {
            continue;
        }
        Result<PlanLaunch> other = readOption(plan, i);
        if (!other) {
            return other;
        }
        if (!launchBlock(other->provider, other->mode)) {
            PlanLaunch offered = std::move(other).value();
            offered.passedOver = std::pair{
                LaunchOption{chosen->rank, chosen->provider, chosen->instanceType, chosen->region, chosen->mode}, *why};
            return offered;
        }
    }
    return Error{ErrorCode::InvalidArgument,
                 "the plan's choice, " + named(*chosen) + ", cannot be launched by GPU Planner yet ("
                     + notLaunchableText(*why, chosen->provider, chosen->mode) + "), and none of its "
                     + std::to_string(options.size()) + " options can",
                 "$.results.options"};
}

Result<LaunchPrice> catalogLaunchPrice(const Catalog& catalog,
                                       const std::string& provider,
                                       const std::string& instanceType,
                                       const std::string& region,
                                       PricingMode mode,
                                       int months)
{
    for (const Offer& offer : catalog.offers()) {
        if (offer.providerId != provider || offer.instanceType != instanceType) {
            continue;
        }
        const Price* price = offer.findPrice(region, mode);
        if (!price) {
            return Error{ErrorCode::NotFound,
                         "the catalog has no " + std::string(pricingModeName(mode)) + " price for it in " + region
                             + " (add one in your own catalog, or give it with --price)",
                         provider + " " + instanceType};
        }
        LaunchPrice out;
        out.amount = price->amount;
        out.currency = price->currency;
        out.unit = price->unit;
        out.billing = offer.billing;
        out.prepaidMonths = price->unit == PriceUnit::Month ? std::max(1, months) : 0;
        if (mode == PricingMode::SubscriptionYearly) {
            out.prepaidMonths = std::max(12, months);
        }
        return out;
    }
    return Error{ErrorCode::NotFound, "the catalog has no such instance type", provider + " " + instanceType};
}

} // namespace gpuplan::core
