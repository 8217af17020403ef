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

/// Writes a plan atomically (core::writeFileAtomically): a temporary file beside it, flushed, renamed over it. A
/// replaced plan keeps its permissions; a new one is 0600. FileUnreadable naming the file and the reason.
Status savePlan(const std::filesystem::path& file, const nlohmann::json& plan);

/// Checks a plan document as the readers (report, GUI, launch) use it: its format and version, then every member
/// they read against the kind the writers give it (a null or a string where a number belongs is refused), the
/// members they index without looking, and the length of every text (short text at most 1,000 characters, notes
/// and descriptions 20,000). SchemaViolation naming `where` and the JSON path ("plan.gpuplan:
/// $.results.options[0].modes[1].price"). A document it accepts can be read without a type error. Thread-safe.
Status checkPlan(const nlohmann::json& plan, const std::string& where);

/// Reads a plan (at most 32 MB) and checks it (checkPlan): a plan from a newer GPU Planner, a file that is not a
/// plan, or a member of the wrong kind is refused with a message that names the file and the JSON path.
Result<nlohmann::json> loadPlan(const std::filesystem::path& file);

} // namespace gpuplan::core
