#include "gpuplan/catalog/Money.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpuplan::core {

const char* currencyCode(Currency currency)
{
    switch (currency) {
        case Currency::USD:
            return "USD";
        case Currency::CNY:
            return "CNY";
    }
    return "?";
}

std::optional<Currency> parseCurrency(std::string_view code)
{
    if (code == "USD") {
        return Currency::USD;
    }
    if (code == "CNY") {
        return Currency::CNY;
    }
    return std::nullopt;
}

double ExchangeRate::convert(double amount, Currency from, Currency to) const
{
    if (from == to) {
        return amount;
    }
    return from == Currency::USD ? amount * cnyPerUsd : amount / cnyPerUsd;
}

std::string formatMoney(double amount, Currency currency, int maxDecimals)
{
    // Two decimals as prices are usually quoted; up to four when the source gives them (21.9576 USD/h).
    int decimals = std::min(2, maxDecimals);
    while (decimals < maxDecimals
           && std::fabs(amount * std::pow(10.0, decimals) - std::round(amount * std::pow(10.0, decimals))) > 1e-6) {
        ++decimals;
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f %s", decimals, amount, currencyCode(currency));
    return buffer;
}

} // namespace gpuplan::core
