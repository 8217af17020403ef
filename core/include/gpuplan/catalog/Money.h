#pragma once

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

/// "3.06 USD": the amount with two decimals (more where the price has them), then the code.
std::string formatMoney(double amount, Currency currency);

} // namespace gpuplan::core
