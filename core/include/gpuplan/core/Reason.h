#pragma once

#include <map>
#include <string>

namespace gpuplan::core {

/// Something core tells the user, as data: a stable key ("excluded.budget", "probe.ecc.off") and its parameters.
/// Core holds no sentences. Parameters are raw values (numbers as plain decimals, amounts without currency, hours
/// without unit, ids and names) so that the wording (ui/wording) can say it in the reader's language with its
/// number format: the CLI in English, the GUI in English or Chinese. tests/quality/core-says-keys.sh checks that
/// every key core can emit is worded in both languages.
struct Reason
{
    std::string key;
    std::map<std::string, std::string> params;

    bool empty() const { return key.empty(); }
    bool operator==(const Reason&) const = default;
};

/// A number as a reason parameter: plain decimal, enough digits to round-trip what a user would see.
std::string reasonNumber(double value);

} // namespace gpuplan::core
