#include "gpuplan/catalog/CatalogChecks.h"

#include "gpuplan/core/Reason.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

namespace gpuplan::core {

namespace {

std::string figure(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
    return buffer;
}

std::optional<std::chrono::sys_days> parseDate(const std::string& text)
{
    int year = 0;
    unsigned month = 0;
    unsigned day = 0;
    if (text.size() != 10 || std::sscanf(text.c_str(), "%4d-%2u-%2u", &year, &month, &day) != 3) {
        return std::nullopt;
    }
    const std::chrono::year_month_day date{std::chrono::year{year}, std::chrono::month{month}, std::chrono::day{day}};
    if (!date.ok()) {
        return std::nullopt;
    }
    return std::chrono::sys_days{date};
}

/// A price's value per GPU-hour in the currency all prices of the model are compared in.
struct GpuHourPrice
{
    const Offer* offer = nullptr;
    const Price* price = nullptr;
    double value = 0;
};

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

const char* findingKindName(Finding::Kind kind)
{
    switch (kind) {
        case Finding::Kind::SpotAboveOnDemand:
            return "spot_above_on_demand";
        case Finding::Kind::PriceOutlier:
            return "price_outlier";
        case Finding::Kind::StalePrice:
            return "stale_price";
        case Finding::Kind::FutureDate:
            return "future_date";
        case Finding::Kind::UndatedPrice:
            return "undated_price";
    }
    return "?";
}

std::string todayUtc()
{
    const std::chrono::year_month_day today{std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
    char buffer[16];
    std::snprintf(buffer,
                  sizeof buffer,
                  "%04d-%02u-%02u",
                  static_cast<int>(today.year()),
                  static_cast<unsigned>(today.month()),
                  static_cast<unsigned>(today.day()));
    return buffer;
}

std::optional<int> daysBetween(const std::string& from, const std::string& to)
{
    const std::optional<std::chrono::sys_days> a = parseDate(from);
    const std::optional<std::chrono::sys_days> b = parseDate(to);
    if (!a || !b) {
        return std::nullopt;
    }
    return static_cast<int>((*b - *a).count());
}

std::vector<Finding> checkCatalog(const Catalog& catalog, const CheckOptions& options)
{
    std::vector<Finding> findings;

    for (const Offer& offer : catalog.offers()) {
        for (const Price& price : offer.prices) {
            if (price.source.asOf.empty()) {
                findings.push_back(
                    {Finding::Kind::UndatedPrice, price.location, {{"retrieved", price.source.retrieved}}});
            } else if (std::optional<int> age = daysBetween(price.source.asOf, options.today)) {
                if (*age > options.maxPriceAgeDays) {
                    findings.push_back({Finding::Kind::StalePrice,
                                        price.location,
                                        {{"as_of", price.source.asOf},
                                         {"age_days", std::to_string(*age)},
                                         {"max_days", std::to_string(options.maxPriceAgeDays)}}});
                } else if (*age < 0) {
                    findings.push_back({Finding::Kind::FutureDate,
                                        price.location,
                                        {{"as_of", price.source.asOf}, {"today", options.today}}});
                }
            }
            if (price.mode == PricingMode::Spot) {
                const Price* onDemand = offer.findPrice(price.region, PricingMode::OnDemand);
                if (onDemand && onDemand->currency == price.currency && price.amount > onDemand->amount) {
                    findings.push_back({Finding::Kind::SpotAboveOnDemand,
                                        price.location,
                                        {{"spot", reasonNumber(price.amount)},
                                         {"on_demand", reasonNumber(onDemand->amount)},
                                         {"currency", currencyCode(price.currency)},
                                         {"region", price.region}}});
                }
            }
        }
    }

    // The median rule: a price per GPU-hour against what the other providers charge for the same GPU model in the
    // same pricing mode. Each provider has one vote (the median of its own prices), so that one provider's many
    // regions neither outvote the rest nor flag each other. Without an exchange rate only prices in the same
    // currency are compared.
    const std::optional<ExchangeRate>& rate = catalog.exchangeRate();
    struct Key
    {
        std::string gpu;
        PricingMode mode;
        Currency currency;
        auto operator<=>(const Key&) const = default;
    };
    std::map<Key, std::map<std::string, std::vector<GpuHourPrice>>> groups; // key -> provider -> prices
    for (const Offer& offer : catalog.offers()) {
        for (const Price& price : offer.prices) {
            if (offer.gpuCount <= 0) {
                continue;
            }
            const Currency currency = rate ? Currency::USD : price.currency;
            const double perGpu = price.amount / offer.gpuCount;
            const double value = rate ? rate->convert(perGpu, price.currency, Currency::USD) : perGpu;
            groups[{offer.gpuId, price.mode, currency}][offer.providerId].push_back({&offer, &price, value});
        }
    }
    for (const auto& [key, byProvider] : groups) {
        std::map<std::string, double> votes;
        for (const auto& [provider, prices] : byProvider) {
            std::vector<double> values;
            for (const GpuHourPrice& entry : prices) {
                values.push_back(entry.value);
            }
            votes[provider] = median(values);
        }
        for (const auto& [provider, prices] : byProvider) {
            std::vector<double> others;
            for (const auto& [other, vote] : votes) {
                if (other != provider) {
                    others.push_back(vote);
                }
            }
            if (static_cast<int>(others.size()) < options.minOtherProviders) {
                continue;
            }
            const double reference = median(others);
            for (const GpuHourPrice& entry : prices) {
                if (entry.value > reference * options.outlierFactor
                    || entry.value * options.outlierFactor < reference) {
                    const GpuSpec* gpu = catalog.findGpu(key.gpu);
                    std::map<std::string, std::string> params{
                        {"value", figure(entry.value)},
                        {"currency", currencyCode(key.currency)},
                        {"per", expectedUnit(key.mode) == PriceUnit::Month ? "month" : "hour"},
                        {"factor", figure(options.outlierFactor)},
                        {"reference", figure(reference)},
                        {"others", std::to_string(others.size())},
                        {"mode", pricingModeName(key.mode)},
                        {"gpu", gpu ? gpu->name : key.gpu}};
                    if (rate && entry.price->currency != Currency::USD) {
                        params["cny_per_usd"] = figure(rate->cnyPerUsd);
                    }
                    findings.push_back({Finding::Kind::PriceOutlier, entry.price->location, std::move(params)});
                }
            }
        }
    }
    return findings;
}

} // namespace gpuplan::core
