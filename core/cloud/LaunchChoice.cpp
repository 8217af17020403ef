#include "gpuplan/cloud/LaunchChoice.h"

#include "gpuplan/net/Crypto.h"

namespace gpuplan::core {

namespace {

using json = nlohmann::json;

Error missing(const std::string& path, const std::string& what)
{
    return Error{ErrorCode::SchemaViolation, what, path};
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
    std::size_t index = 0;
    if (rank > 0) {
        if (std::size_t(rank) > options->size()) {
            return Error{ErrorCode::InvalidArgument,
                         "the plan ranks " + std::to_string(options->size()) + " options; there is no option "
                             + std::to_string(rank),
                         "--option"};
        }
        index = std::size_t(rank) - 1;
    } else if (auto c = plan.find("choice"); c != plan.end() && c->is_number_integer()) {
        const long long chosen = c->get<long long>();
        if (chosen >= 0 && std::size_t(chosen) < options->size()) {
            index = std::size_t(chosen);
        }
    }
    const json& option = (*options)[index];
    const std::string at = "$.results.options[" + std::to_string(index) + "]";
    if (!option.is_object()) {
        return missing(at, "an option is a JSON object");
    }
    PlanLaunch out;
    out.planId = planIdOf(plan);
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
    if (auto c = plan.find("constraints"); c != plan.end() && c->is_object()) {
        if (auto b = c->find("budget"); b != c->end() && b->is_number()) {
            out.budget = b->get<double>();
        }
        if (auto cur = c->find("currency"); cur != c->end() && cur->is_string()) {
            out.currency = parseCurrency(cur->get<std::string>()).value_or(Currency::CNY);
        }
    }
    return out;
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
