#include "gpuplan/plan/BuyVsRent.h"

#include "gpuplan/plan/PlanFile.h"

#include <algorithm>

namespace gpuplan::core {

using nlohmann::json;

namespace {

constexpr double kHoursPerMonth = 730;

/// The cheapest price per GPU of one pricing mode for `gpuId`, converted; per hour or per month as the price is.
std::optional<CostLine> cheapestLine(
    const Catalog& catalog, const std::string& gpuId, PricingMode mode, Currency currency, const ExchangeRate& rate)
{
    std::optional<CostLine> best;
    double bestPerGpu = 0;
    for (const Offer& offer : catalog.offers()) {
        if (offer.gpuId != gpuId || offer.gpuCount < 1) {
            continue;
        }
        for (const Price& price : offer.prices) {
            if (price.mode != mode) {
                continue;
            }
            const double perGpu = rate.convert(price.amount, price.currency, currency) / offer.gpuCount;
            if (!best || perGpu < bestPerGpu) {
                bestPerGpu = perGpu;
                best = CostLine{pricingModeName(mode),
                                offer.providerId + " " + offer.instanceType + " (" + price.region + ")",
                                0,
                                price.unit == PriceUnit::Month ? perGpu : perGpu * kHoursPerMonth,
                                {},
                                std::nullopt,
                                price.source};
            }
        }
    }
    return best;
}

} // namespace

BuyVsRent compareBuyVsRent(const Catalog& catalog,
                           const OwnershipFacts& facts,
                           const std::string& preferredGpu,
                           Currency currency,
                           const ExchangeRate& rate,
                           const BuyVsRentSettings& settings)
{
    BuyVsRent out;
    out.currency = currency;
    if (facts.systems.empty()) {
        out.unavailableReason = Reason{"buy.no_server", {}};
        return out;
    }
    const OwnedSystem* chosen = nullptr;
    for (const OwnedSystem& s : facts.systems) {
        if (s.gpuId == preferredGpu) {
            chosen = &s;
        }
    }
    for (const OwnedSystem& s : facts.systems) {
        if (!chosen && cheapestLine(catalog, s.gpuId, PricingMode::OnDemand, currency, rate)) {
            chosen = &s;
        }
    }
    std::optional<CostLine> onDemand =
        chosen ? cheapestLine(catalog, chosen->gpuId, PricingMode::OnDemand, currency, rate) : std::nullopt;
    if (!chosen || !onDemand) {
        out.unavailableReason = Reason{"buy.no_on_demand_offer", {}};
        return out;
    }
    out.available = true;
    out.system = *chosen;
    const GpuSpec* gpu = catalog.findGpu(chosen->gpuId);
    out.gpuName = gpu ? gpu->name : chosen->gpuId;
    out.utilisation = settings.utilisation.value_or(facts.utilisation.value.value);
    out.pue = settings.pue.value_or(facts.pue.value.value);
    out.maintenancePerYear = facts.maintenancePerYear.value.value;
    out.depreciationYears = facts.depreciationYears.value.value;
    out.months = settings.months > 0 ? settings.months : int(out.depreciationYears * 12 + 0.5);
    if (settings.electricityPerKwh) {
        out.electricityPerKwh = rate.convert(*settings.electricityPerKwh, settings.electricityCurrency, currency);
    }

    const double gpus = chosen->gpus;
    const double purchase = rate.convert(chosen->price, chosen->currency, currency);
    const double energy =
        chosen->powerWatts / 1000 * out.pue * out.electricityPerKwh.value_or(0) * kHoursPerMonth * out.utilisation;
    out.own = CostLine{
        "own", "", purchase, purchase * out.maintenancePerYear / 12 + energy, {}, std::nullopt, chosen->source};

    onDemand->monthly *= gpus * out.utilisation; // on-demand is paid only for the busy hours
    out.rent.push_back(*onDemand);
    for (PricingMode mode :
         {PricingMode::Reserved1Year, PricingMode::Reserved3Year, PricingMode::SubscriptionMonthly}) {
        if (std::optional<CostLine> line = cheapestLine(catalog, chosen->gpuId, mode, currency, rate)) {
            line->monthly *= gpus; // a commitment is paid for every hour, busy or not
            out.rent.push_back(*line);
        }
    }
    auto fill = [&](CostLine& line) {
        line.cumulative.clear();
        for (int m = 0; m <= out.months; ++m) {
            line.cumulative.push_back(line.upfront + line.monthly * m);
        }
    };
    fill(out.own);
    for (CostLine& line : out.rent) {
        fill(line);
        const double gain = line.monthly - out.own.monthly;
        if (gain > 0 && purchase / gain <= out.months) {
            line.breakEvenMonth = purchase / gain;
        }
    }
    return out;
}

json buyVsRentJson(const BuyVsRent& c)
{
    if (!c.available) {
        return {{"available", false}, {"reason", reasonJson(c.unavailableReason)}};
    }
    auto lineJson = [](const CostLine& line) {
        json out = {{"key", line.key},
                    {"offer", line.offer},
                    {"upfront", line.upfront},
                    {"monthly", line.monthly},
                    {"cumulative", line.cumulative},
                    {"break_even_month", line.breakEvenMonth ? json(*line.breakEvenMonth) : json(nullptr)},
                    {"source", line.source.url},
                    {"date", line.source.asOf.empty() ? line.source.retrieved : line.source.asOf}};
        return out;
    };
    json rent = json::array();
    for (const CostLine& line : c.rent) {
        rent.push_back(lineJson(line));
    }
    return {{"available", true},
            {"system", c.system.what},
            {"gpu", c.system.gpuId},
            {"gpu_name", c.gpuName},
            {"gpus", c.system.gpus},
            {"power_w", c.system.powerWatts},
            {"currency", currencyCode(c.currency)},
            {"utilisation", c.utilisation},
            {"pue", c.pue},
            {"maintenance_per_year", c.maintenancePerYear},
            {"depreciation_years", c.depreciationYears},
            {"electricity_per_kwh", c.electricityPerKwh ? json(*c.electricityPerKwh) : json(nullptr)},
            {"months", c.months},
            {"own", lineJson(c.own)},
            {"rent", rent}};
}

} // namespace gpuplan::core
