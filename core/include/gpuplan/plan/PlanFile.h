#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/plan/Planner.h"
#include "gpuplan/probe/Verdict.h"
#include "gpuplan/workload/WorkloadLoader.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace gpuplan::core {

/// The .gpuplan format: versioned JSON, safe to mail (no secrets). Version 1 is the first.
constexpr int kPlanFormatVersion = 1;

/// {"key", "params", "text"}: what the UI words in its language (core/Reason.h).
nlohmann::json reasonJson(const Reason& reason);
/// A range as JSON: {"value", "low", "high"}.
nlohmann::json rangeJson(const Range& range);
/// One training estimate: throughput {value, unit, low, high}, hours, gpu_hours, mfu, fits_memory, ...
nlohmann::json trainingJson(const TrainingEstimate& estimate, const Workload& workload, const GpuSpec& gpu, int gpus);
/// The ranked options (costs per pricing mode, reasons) and the excluded offers with their rule.
nlohmann::json recommendationJson(const Recommendation& recommendation, const Constraints& constraints);
nlohmann::json workloadJson(const Workload& workload);
nlohmann::json constraintsJson(const Constraints& constraints);
/// The constraints of a plan file back (for re-planning); `where` names the file in messages.
Result<Constraints> constraintsFromJson(const nlohmann::json& constraints, const std::string& where);

/// A whole plan document: workload, constraints, catalog snapshot (price date, exchange rate), results,
/// choice (null until the user picks) and notes. `created` is an ISO 8601 time. `model` gives the exchange rate
/// used and the setup/upload assumptions; `buyVsRent` is buyVsRentJson's document (null: not compared).
nlohmann::json planJson(const Workload& workload,
                        const Constraints& constraints,
                        const Catalog& catalog,
                        const Recommendation& recommendation,
                        const std::string& created,
                        const std::string& notes = {},
                        const CostModel& model = {},
                        const nlohmann::json& buyVsRent = nullptr);

/// One probe run on an instance of the plan, as plan["verifications"] keeps it (and the report reads it):
/// {"when", "host", "verdict", "expected_gpu", "expected_count", "gpu_name", "gpu_count", "driver",
///  "lines": [{"check", "gpu", "level", "measured", "expected", "reason"}]}. No secret: the host is USER@HOST.
nlohmann::json verificationJson(const ProbeResult& result,
                                const Verdict& verdict,
                                const ExpectedHardware& promised,
                                const std::string& host,
                                const std::string& when);

/// Appends a verification (verificationJson) to plan["verifications"], making the list when the plan has none.
void addVerification(nlohmann::json& plan, const nlohmann::json& verification);

/// Writes a plan; FileUnreadable when the file cannot be written.
Status savePlan(const std::filesystem::path& file, const nlohmann::json& plan);

/// Reads a plan and checks its format and version: a plan from a newer GPU Planner, or a file that is not a
/// plan, is refused with a message that says which.
Result<nlohmann::json> loadPlan(const std::filesystem::path& file);

} // namespace gpuplan::core
