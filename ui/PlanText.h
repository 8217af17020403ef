#pragma once

#include <nlohmann/json.hpp>

#include <QString>

namespace gpuplan::ui {

// The words of a plan document (.gpuplan) in the UI's language: reasons, pricing modes, units.

/// A reason from a plan (`{"key", "params", "text"}`, see core/Reason.h) worded in the UI's language, with
/// money, hours and numbers formatted by locale. A key this version does not know reads as its English text,
/// and a plain string (an older plan) as itself.
QString reasonText(const nlohmann::json& reason);

/// What a pricing mode of a plan (one of an option's "modes") binds the lab to pay in all: "¥72,071 over 12
/// months". Empty when the mode has no term (on-demand, spot) or no mode is given.
QString commitmentText(const nlohmann::json* mode);

/// A pricing mode id ("on_demand", "reserved_1y", ...) by its translated name.
QString pricingModeText(const QString& mode);
/// An option's provider as the UI says it: its Chinese name in a Chinese UI when the plan has one.
QString providerText(const nlohmann::json& option);
/// A plan's workload by name: its Chinese name in a Chinese UI when the workload has one.
QString workloadNameText(const nlohmann::json& plan);
/// A workload task id ("vision", "detection", "detection3d", "nlp", "llm") by its translated name; an unknown id
/// as itself.
QString taskText(const QString& task);
/// A software stack id ("tuned", "typical", "plain") by its translated name and what it means; an unknown id as
/// itself.
QString stackText(const QString& stack);
/// What limits a run ("compute", "memory_bandwidth", "host", "input_pipeline", "communication") in words.
QString limiterText(const QString& limiter);
/// "samples/s", "tokens/s" as the UI says them.
QString throughputUnitText(const QString& unit);
/// A price unit ("hour", "month") as the UI says it.
QString priceUnitText(const QString& unit);

} // namespace gpuplan::ui
