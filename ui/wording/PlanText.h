#pragma once

#include "gpuplan/plan/PlanDocument.h"
#include "gpuplan/workload/WorkloadModel.h"

#include <QString>

namespace gpuplan::ui {

// The words of a plan (core::PlanDocument) in the UI's language: reasons, pricing modes, units.

/// A reason (core/Reason.h) worded in the UI's language, with money, hours and numbers formatted by locale. A key
/// this version does not word (from a newer plan file) reads as the key and its parameters.
QString reasonText(const core::Reason& reason);

/// "FSDP (ZeRO-3) + activation checkpointing, micro-batch 4"
QString memoryPlanText(const core::MemoryPlan& plan);

/// What a pricing mode of a plan binds the lab to pay in all: "¥72,071 over 12 months", in the plan's `currency`.
/// Empty when the mode has no term (on-demand, spot) or no mode is given.
QString commitmentText(const core::PlanMode* mode, core::Currency currency);

/// A pricing mode by its translated name ("on-demand").
QString pricingModeText(core::PricingMode mode);
/// A pricing mode as the catalog quotes it, with the unit of its prices ("on-demand, per hour").
QString pricingModeUnitText(core::PricingMode mode);
/// A pricing mode id ("on_demand", "reserved_1y", ...; a reason's parameter) by its translated name; an unknown id
/// as itself.
QString pricingModeText(const QString& mode);
/// One of an option's modes as a table row names it: "spot", or for the same machine as a managed job "managed job on
/// Azure Machine Learning, on-demand".
QString planModeText(const core::PlanOption& option, const core::PlanMode& mode);
/// A provider as the UI says it: its Chinese name in a Chinese UI when it has one.
QString providerText(const std::string& name, const std::string& nameZh);
QString providerText(const core::PlanOption& option);
/// A plan's workload by name: its Chinese name in a Chinese UI when the workload has one.
QString workloadNameText(const core::PlanWorkload& workload);
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
/// A price unit as the UI says it.
QString priceUnitText(core::PriceUnit unit);

} // namespace gpuplan::ui
