#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/plan/PlanDocument.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace gpuplan::core {

// The .gpuplan file: the one place a plan becomes JSON and JSON becomes a plan. Versioned JSON, safe to mail (no
// secrets). Everything else holds a PlanDocument.

/// Version 1 is the first.
constexpr int kPlanFormatVersion = 1;

/// A plan as the .gpuplan JSON document.
nlohmann::json planToJson(const PlanDocument& plan);

/// A .gpuplan document as a plan: checked first (checkPlan), then read; a value the program cannot use (a negative
/// cost, an unknown pricing mode, an exchange rate of 0) is refused too. SchemaViolation or InvalidArgument naming
/// `where` and the JSON path ("plan.gpuplan: $.results.options[0].modes[1].price"). Members not in the format are
/// not kept. A workload definition that does not read leaves PlanWorkload::definition empty (the plan still shows).
Result<PlanDocument> planFromJson(const nlohmann::json& plan, const std::string& where);

/// Writes a plan atomically (core::writeFileAtomically): a temporary file beside it, flushed, renamed over it. A
/// replaced plan keeps its permissions; a new one is 0600. FileUnreadable naming the file and the reason.
Status savePlan(const std::filesystem::path& file, const PlanDocument& plan);
Status savePlan(const std::filesystem::path& file, const nlohmann::json& plan);

/// Reads a plan (at most 32 MB): a plan from a newer GPU Planner, a file that is not a plan, or a member of the
/// wrong kind is refused with a message that names the file and the JSON path.
Result<PlanDocument> loadPlan(const std::filesystem::path& file);
/// The checked JSON document of a plan file (checkPlan), for tools that edit the file itself.
Result<nlohmann::json> loadPlanJson(const std::filesystem::path& file);

/// Checks a plan document as the reader uses it: its format and version, then every member against the kind the
/// writer gives it (a null or a string where a number belongs is refused), the members it always writes, and the
/// length of every text (short text at most 1,000 characters, notes and descriptions 20,000). SchemaViolation
/// naming `where` and the JSON path. Thread-safe.
Status checkPlan(const nlohmann::json& plan, const std::string& where);

/// A probe run as the ledger keeps it (LedgerEntry's verification summary): the plan's verification in JSON.
nlohmann::json verificationJson(const PlanVerification& verification);

/// {"key", "params", "text"}: a reason as JSON (the plan file, the CLI's --json output).
nlohmann::json reasonJson(const Reason& reason);
/// One training estimate as JSON (`gpuplan estimate --json`, and each option's "training" in a plan file).
nlohmann::json trainingJson(const TrainingEstimate& estimate, const Workload& workload, const GpuSpec& gpu, int gpus);
nlohmann::json constraintsJson(const Constraints& constraints);
/// The constraints of a plan file back; `where` names the file in messages.
Result<Constraints> constraintsFromJson(const nlohmann::json& constraints, const std::string& where);

} // namespace gpuplan::core
