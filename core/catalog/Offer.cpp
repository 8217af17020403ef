#include "gpuplan/catalog/Offer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace gpuplan::core {

namespace {

constexpr std::array<std::pair<PricingMode, const char*>, 6> kModeNames{{
    {PricingMode::OnDemand, "on_demand"},
    {PricingMode::Spot, "spot"},
    {PricingMode::Reserved1Year, "reserved_1y"},
    {PricingMode::Reserved3Year, "reserved_3y"},
    {PricingMode::SubscriptionMonthly, "subscription_monthly"},
    {PricingMode::SubscriptionYearly, "subscription_yearly"},
}};

} // namespace

const char* pricingModeName(PricingMode mode)
{
    for (const auto& [value, name] : kModeNames) {
        if (value == mode) {
            return name;
        }
    }
    return "?";
}

std::optional<PricingMode> parsePricingMode(std::string_view name)
{
    for (const auto& [value, text] : kModeNames) {
        if (name == text) {
            return value;
        }
    }
    return std::nullopt;
}

const char* priceUnitName(PriceUnit unit)
{
    return unit == PriceUnit::Hour ? "hour" : "month";
}

std::optional<PriceUnit> parsePriceUnit(std::string_view name)
{
    if (name == "hour") {
        return PriceUnit::Hour;
    }
    if (name == "month") {
        return PriceUnit::Month;
    }
    return std::nullopt;
}

const char* serviceKindName(ServiceKind kind)
{
    switch (kind) {
        case ServiceKind::Vm:
            return "vm";
        case ServiceKind::BareMetal:
            return "bare_metal";
        case ServiceKind::Managed:
            return "managed";
        case ServiceKind::Tpu:
            return "tpu";
    }
    return "?";
}

std::optional<ServiceKind> parseServiceKind(std::string_view name)
{
    for (ServiceKind kind : {ServiceKind::Vm, ServiceKind::BareMetal, ServiceKind::Managed, ServiceKind::Tpu}) {
        if (name == serviceKindName(kind)) {
            return kind;
        }
    }
    return std::nullopt;
}

const char* granularityName(Billing::Granularity granularity)
{
    switch (granularity) {
        case Billing::Granularity::Second:
            return "second";
        case Billing::Granularity::Minute:
            return "minute";
        case Billing::Granularity::Hour:
            return "hour";
    }
    return "?";
}

std::optional<Billing::Granularity> parseGranularity(std::string_view name)
{
    for (auto granularity : {Billing::Granularity::Second, Billing::Granularity::Minute, Billing::Granularity::Hour}) {
        if (name == granularityName(granularity)) {
            return granularity;
        }
    }
    return std::nullopt;
}

PriceUnit expectedUnit(PricingMode mode)
{
    switch (mode) {
        case PricingMode::SubscriptionMonthly:
        case PricingMode::SubscriptionYearly:
            return PriceUnit::Month;
        default:
            return PriceUnit::Hour;
    }
}

std::vector<std::string> Offer::regions() const
{
    std::vector<std::string> result = availableRegions;
    for (const Price& price : prices) {
        if (std::find(result.begin(), result.end(), price.region) == result.end()) {
            result.push_back(price.region);
        }
    }
    return result;
}

const Price* Offer::findPrice(std::string_view region, PricingMode mode) const
{
    for (const Price& price : prices) {
        if (price.region == region && price.mode == mode) {
            return &price;
        }
    }
    return nullptr;
}

double billedHours(double hours, const std::optional<Billing>& billing)
{
    if (!billing) {
        return std::ceil(hours); // unknown billing: count whole hours
    }
    double seconds = hours * 3600;
    switch (billing->granularity) {
        case Billing::Granularity::Second:
            break;
        case Billing::Granularity::Minute:
            seconds = std::ceil(seconds / 60) * 60;
            break;
        case Billing::Granularity::Hour:
            seconds = std::ceil(seconds / 3600) * 3600;
            break;
    }
    return std::max(seconds, double(billing->minimumSeconds)) / 3600;
}

} // namespace gpuplan::core
