#pragma once

#include "CatalogCommands.h"

#include "gpuplan/plan/Planner.h"
#include "gpuplan/workload/WorkloadLoader.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::cli {

/// What `estimate` and `plan` share: the workload and where the data lies.
struct WorkloadOptions
{
    std::filesystem::path workloadDir; // presets.json and calibration.json
    std::string preset;
    std::string workloadFile;
    core::WorkOverrides overrides;
    std::vector<std::string> holdOut; // calibration source groups left out (--hold-out)
};

struct EstimateOptions
{
    std::string gpu;
    int count = 1;
    std::string precision; // empty: the card's best
    int gpusPerNode = 8;
};

struct PlanOptions
{
    core::Constraints constraints;
    std::string deadline;     // "14d", "36h"
    std::string countries;    // "CN,HK"
    std::string output;       // -o PLAN.gpuplan
    bool allExcluded = false; // list every excluded offer, not only a count and an example per rule
};

/// `gpuplan estimate (--preset P | --workload F) --gpu G --count N [--precision P] [--json]`
int runEstimate(const CatalogOptions& catalog, const WorkloadOptions& workload, const EstimateOptions& options);
/// `gpuplan plan (--preset P | --workload F) [--budget X] [--deadline D] ... [--json] [-o PLAN]`
int runPlan(const CatalogOptions& catalog, const WorkloadOptions& workload, PlanOptions options);

/// `gpuplan calibrate --report [--json]`: the leave-one-source-out validation of the estimator, beside the first
/// model's.
int runCalibrate(const CatalogOptions& catalog, const WorkloadOptions& workload, bool asJson);

/// "14d" -> 336, "36h" -> 36, "90m" -> 1.5; nullopt when it is not a positive duration.
std::optional<double> parseDurationHours(const std::string& text);

} // namespace gpuplan::cli
