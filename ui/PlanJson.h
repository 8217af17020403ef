#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <cmath>
#include <string_view>

namespace gpuplan::ui {

/// Reading a plan document (the .gpuplan JSON) in views: a missing member or a node of another kind reads as
/// empty text or `fallback`, never as an exception.
QString jsonText(const nlohmann::json& node, const char* key);
double jsonNumber(const nlohmann::json& node, const char* key, double fallback = NAN);
/// A member, or null when the node is no object or lacks it (const operator[] would be undefined then): for members
/// an older plan may not have.
const nlohmann::json& jsonMember(const nlohmann::json& node, const char* key);

/// The first eligible pricing mode of an option whose name starts with `prefix` ("spot", "on_demand",
/// "reserved" for either term); nullptr when it has none.
const nlohmann::json* eligibleMode(const nlohmann::json& option, std::string_view prefix);

/// The pricing mode an option is ranked with: the first of its "modes" named as its "mode"; nullptr when none is.
const nlohmann::json* rankedMode(const nlohmann::json& option);

} // namespace gpuplan::ui
