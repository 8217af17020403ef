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
            return Error{ErrorCode::SchemaViolation, Reason{"error.cloud.field_empty", {}}, at + "." + field};
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

/// The option's rank, provider, instance type, region and mode, as parameters ("option 1, lambda gpu_8x_a100 in
/// us-east-1 (on_demand)").
std::map<std::string, std::string> optionParams(const PlanLaunch& o)
{
    return {{"rank", std::to_string(o.rank)},
            {"provider", o.provider},
            {"instance_type", o.instanceType},
            {"region", o.region},
            {"mode", pricingModeName(o.mode)}};
}

/// `key` about option `o`, with why it cannot be launched: the why's key in "why", its parameters beside the
/// option's (they name the same provider and mode).
Reason notLaunchableOption(const char* key, const PlanLaunch& o, const NotLaunchable& why)
{
    Reason out{key, optionParams(o)};
    const Reason because = notLaunchableReason(why, o.provider, o.mode);
    out.params["why"] = because.key;
    for (const auto& [name, value] : because.params) {
        out.params.emplace(name, value);
    }
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
        const std::map<CloudFeature, Reason>& lacks = descriptor->unsupported;
        if (auto lack = lacks.find(*needs); lack != lacks.end()) {
            return NotLaunchable{LaunchBlock::Mode,
                                 Reason{"error.cloud.feature_unsupported",
                                        {{"provider", std::string(provider)},
                                         {"feature", cloudFeatureName(*needs)},
                                         {"why_key", lack->second.key}}}};
        }
    }
    return std::nullopt;
}

Reason notLaunchableReason(const NotLaunchable& why, std::string_view provider, PricingMode mode)
{
    switch (why.block) {
        case LaunchBlock::Mode: {
            Reason out{"error.cloud.mode_not_launchable", why.detail.params};
            out.params["provider"] = std::string(provider);
            out.params["mode"] = pricingModeName(mode);
            return out;
        }
        case LaunchBlock::Reservation:
            return Reason{"error.cloud.reservation_not_launchable", {{"mode", pricingModeName(mode)}}};
        case LaunchBlock::Provider:
            break;
    }
    std::string list;
    for (const std::string& id : ProviderRegistry::builtIn().ids()) {
        list += (list.empty() ? "" : ",") + id;
    }
    return Reason{"error.cloud.provider_not_launchable", {{"provider", std::string(provider)}, {"launchable", list}}};
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
        return Error{ErrorCode::SchemaViolation, Reason{"error.cloud.no_options", {}}, "$.results.options"};
    }
    if (rank > 0) {
        if (std::size_t(rank) > options.size()) {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.cloud.no_such_option",
                                {{"options", std::to_string(options.size())}, {"rank", std::to_string(rank)}}},
                         "--option"};
        }
        Result<PlanLaunch> asked = readOption(plan, std::size_t(rank) - 1);
        if (!asked) {
            return asked;
        }
        if (std::optional<NotLaunchable> why = launchBlock(asked->provider, asked->mode)) {
            return Error{ErrorCode::InvalidArgument,
                         notLaunchableOption("error.cloud.option_not_launchable", *asked, *why),
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
    Reason none = notLaunchableOption("error.cloud.nothing_launchable", *chosen, *why);
    none.params["options"] = std::to_string(options.size());
    return Error{ErrorCode::InvalidArgument, std::move(none), "$.results.options"};
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
                         Reason{"error.cloud.no_catalog_price", {{"mode", pricingModeName(mode)}, {"region", region}}},
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
    return Error{ErrorCode::NotFound, Reason{"error.cloud.no_such_instance_type", {}}, provider + " " + instanceType};
}

} // namespace gpuplan::core
