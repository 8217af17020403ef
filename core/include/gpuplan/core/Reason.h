#pragma once

#include <map>
#include <string>

namespace gpuplan::core {

/// A sentence for the user: a stable key with its parameters, and the English text. Parameters are raw
/// values (numbers as plain decimals, amounts without currency, hours without unit, ids and names) so that a
/// front end can word and format the sentence in its own language; `text` is the English wording, for the
/// CLI and for a key a front end does not know.
struct Reason
{
    std::string key;
    std::map<std::string, std::string> params;
    std::string text;

    bool empty() const { return key.empty(); }
};

/// A number as a reason parameter: plain decimal, enough digits to round-trip what a user would see.
std::string reasonNumber(double value);

} // namespace gpuplan::core
