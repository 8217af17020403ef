#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/workload/Workload.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// The bundled presets, and the problems met while reading them (a broken preset is left out).
struct LoadedWorkloads
{
    std::vector<Workload> presets;
    std::vector<Error> problems;

    /// The preset with this id (case-insensitive); UnknownReference names the closest ids.
    Result<Workload> find(std::string_view id) const;
};

/// Reads `presets.json` (schema gpuplan-workloads/1) in `dir`. Fails when the file cannot be read at all.
Result<LoadedWorkloads> loadPresets(const std::filesystem::path& dir);

/// Reads the user's workload file: one object with the same fields as a preset (schema gpuplan-workload/1).
/// Every problem is named with the file and JSON path; the first one is returned.
Result<Workload> loadWorkloadFile(const std::filesystem::path& file);

/// A workload in the gpuplan-workload/1 format (what a plan file carries, so it can be re-planned), and back.
/// `where` names the document in messages ("plan.gpuplan: $.workload.definition").
nlohmann::json workloadDefinitionJson(const Workload& workload);
Result<Workload> parseWorkload(const nlohmann::json& definition, const std::string& where);

/// Where the bundled workload data lies: $GPUPLAN_WORKLOAD_DIR when set, else
/// `<executableDir>/../share/gpuplanner/workloads`.
std::filesystem::path bundledWorkloadDir(const std::filesystem::path& executableDir);

/// The command line's overrides of a preset's amount of work.
struct WorkOverrides
{
    std::optional<double> epochs;
    std::optional<double> samples; // per epoch
    std::optional<double> tokens;  // per epoch
    std::optional<SoftwareStack> stack;
};

/// Applies the overrides. InvalidArgument when one does not fit the workload (tokens for a per-sample
/// workload, samples for a transformer), naming the flag.
Result<Workload> withOverrides(Workload workload, const WorkOverrides& overrides);

} // namespace gpuplan::core
