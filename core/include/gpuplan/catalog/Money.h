#pragma once

#include "gpuplan/catalog/Source.h"

#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::core {

/// The currencies prices are quoted in: USD for the international clouds, CNY for the mainland Chinese ones.
enum class Currency
{
    USD,
    CNY,
};

/// "USD" or "CNY".
const char* currencyCode(Currency currency);

/// Parses an ISO 4217 code; nullopt for a currency the catalog does not use.
std::optional<Currency> parseCurrency(std::string_view code);

/// How many CNY one USD buys, from a dated source. Prices stay in their own currency in the catalog; this
/// converts them for display and comparison only.
struct ExchangeRate
{
    double cnyPerUsd = 0;
    Source source;
    bool userSet = false; // entered by the user instead of the bundled, sourced rate

    /// `amount` in `from` expressed in `to`.
    double convert(double amount, Currency from, Currency to) const;
};

/// "3.06 USD": the amount with two decimals (more where the price has them), then the code.
/// `maxDecimals` caps the precision (2 for converted prices, which are estimates anyway).
std::string formatMoney(double amount, Currency currency, int maxDecimals = 4);

} // namespace gpuplan::core
