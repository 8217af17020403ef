#pragma once

#include <nlohmann/json.hpp>

#include <QString>

namespace gpuplan::ui {

/// A reason from a plan (`{"key", "params", "text"}`, see core/Reason.h) worded in the UI's language, with
/// money, hours and numbers formatted by locale. A key this version does not know reads as its English text.
QString reasonText(const nlohmann::json& reason);

/// A pricing mode id ("on_demand", "reserved_1y", ...) by its translated name.
QString pricingModeText(const QString& mode);

} // namespace gpuplan::ui
