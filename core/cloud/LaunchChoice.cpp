#include "gpuplan/cloud/LaunchChoice.h"

#include <map>
#include <memory>
#include <vector>

#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/net/Crypto.h"

namespace gpuplan::core {

namespace {

using json = nlohmann::json;

Error missing(const std::string& path, const std::string& what)
{
    return Error{ErrorCode::SchemaViolation, what, path};
}

/// Option `index` (0-based) of `options`, the plan's ranked options.
Result<PlanLaunch> readOption(const json& plan, const json& options, std::size_t index)
{
    const json& option = options[index];
    const std::string at = "$.results.options[" + std::to_string(index) + "]";
    if (!option.is_object()) {
        return missing(at, "an option is a JSON object");
    }
    PlanLaunch out;
    out.planId = planIdOf(plan);
    out.rank = static_cast<int>(index) + 1;
    for (auto [field, target] : {std::pair{"provider", &out.provider},
                                 std::pair{"instance_type", &out.instanceType},
                                 std::pair{"region", &out.region}}) {
        auto f = option.find(field);
        if (f == option.end() || !f->is_string() || f->get<std::string>().empty()) {
            return missing(at + "." + field, "missing or not text");
        }
        *target = f->get<std::string>();
    }
    auto mode = option.find("mode");
    std::optional<PricingMode> parsed =
        mode != option.end() && mode->is_string() ? parsePricingMode(mode->get<std::string>()) : std::nullopt;
    if (!parsed) {
        return missing(at + ".mode", "missing or not a pricing mode");
    }
    out.mode = *parsed;
    if (auto h = option.find("hours"); h != option.end() && h->is_object()) {
        if (auto high = h->find("high"); high != h->end() && high->is_number()) {
            out.hoursHigh = high->get<double>();
        }
    }
    const PlanBudget budget = planBudgetOf(plan);
    out.budget = budget.amount;
    out.currency = budget.currency;
    return out;
}

} // namespace

std::string planIdOf(const nlohmann::json& plan)
{
    std::string seed;
    if (plan.is_object()) {
        if (auto c = plan.find("created"); c != plan.end() && c->is_string()) {
            seed += c->get<std::string>();
        }
        if (auto w = plan.find("workload"); w != plan.end() && w->is_object()) {
            if (auto id = w->find("id"); id != w->end() && id->is_string()) {
                seed += "|" + id->get<std::string>();
            }
        }
    }
    return "plan-" + sha256Hex(seed).substr(0, 12);
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

PlanBudget planBudgetOf(const nlohmann::json& plan)
{
    PlanBudget out;
    if (!plan.is_object()) {
        return out;
    }
    out.planId = planIdOf(plan);
    if (auto c = plan.find("constraints"); c != plan.end() && c->is_object()) {
        if (auto b = c->find("budget"); b != c->end() && b->is_number()) {
            out.amount = b->get<double>();
        }
        if (auto cur = c->find("currency"); cur != c->end() && cur->is_string()) {
            out.currency = parseCurrency(cur->get<std::string>()).value_or(Currency::CNY);
        }
    }
    return out;
}

Result<PlanLaunch> planLaunch(const nlohmann::json& plan, int rank)
{
    if (!plan.is_object()) {
        return missing("$", "a plan is a JSON object");
    }
    const json* options = nullptr;
    if (auto r = plan.find("results"); r != plan.end() && r->is_object()) {
        if (auto o = r->find("options"); o != r->end() && o->is_array()) {
            options = &*o;
        }
    }
    if (!options || options->empty()) {
        return missing("$.results.options", "the plan has no ranked options to launch");
    }
    const auto named = [](const PlanLaunch& o) {
        return "option " + std::to_string(o.rank) + ", " + o.provider + " " + o.instanceType + " in " + o.region + " ("
               + pricingModeName(o.mode) + ")";
    };
    if (rank > 0) {
        if (std::size_t(rank) > options->size()) {
            return Error{ErrorCode::InvalidArgument,
                         "the plan ranks " + std::to_string(options->size()) + " options; there is no option "
                             + std::to_string(rank),
                         "--option"};
        }
        Result<PlanLaunch> asked = readOption(plan, *options, std::size_t(rank) - 1);
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
    if (auto c = plan.find("choice"); c != plan.end() && c->is_number_integer()) {
        const long long chosen = c->get<long long>();
        if (chosen >= 0 && std::size_t(chosen) < options->size()) {
            index = std::size_t(chosen);
        }
    }
    Result<PlanLaunch> chosen = readOption(plan, *options, index);
    if (!chosen) {
        return chosen;
    }
    const std::optional<NotLaunchable> why = launchBlock(chosen->provider, chosen->mode);
    if (!why) {
        return chosen;
    }
    // The choice cannot be launched here: the best-ranked option that can, with the choice and why beside it.
    for (std::size_t i = 0; i < options->size(); ++i) {
        if (i == index) {
            continue;
        }
        Result<PlanLaunch> other = readOption(plan, *options, i);
        if (!other) {
            return other;
        }
        if (!launchBlock(other->provider, other->mode)) {
            PlanLaunch offered = std::move(other).value();
            offered.passedOver = std::pair{
                PlanOption{chosen->rank, chosen->provider, chosen->instanceType, chosen->region, chosen->mode}, *why};
            return offered;
        }
    }
    return Error{ErrorCode::InvalidArgument,
                 "the plan's choice, " + named(*chosen) + ", cannot be launched by GPU Planner yet ("
                     + notLaunchableText(*why, chosen->provider, chosen->mode) + "), and none of its "
                     + std::to_string(options->size()) + " options can",
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
