#pragma once

#include "gpuplan/catalog/CatalogChecks.h"
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/estimate/Assumptions.h"
#include "gpuplan/estimate/Calibration.h"
#include "gpuplan/estimate/Ownership.h"
#include "gpuplan/workload/WorkloadLoader.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace gpuplan::ui {

/// Everything the planner reads from disk, loaded once off the UI thread and then shared read-only.
struct PlanningData
{
    std::optional<core::LoadedCatalog> catalog; // nullopt: see failure
    std::vector<core::Finding> findings;
    std::optional<core::Error> failure;
    core::LoadedWorkloads presets;
    core::Calibration calibration;
    core::Assumptions assumptions;
    core::OwnershipFacts ownership;
    std::string watchdogScript;               // resources/scripts/gpuplan-watchdog.sh, the instances' user-data
    std::string runScript;                    // resources/scripts/gpuplan-run.sh, what a run's job runs under
    std::optional<core::Error> scriptProblem; // why a script could not be read
    std::vector<core::Error> problems;        // of presets, calibration, regions and ownership; each is left out
    std::filesystem::path workloadDir;        // presets.json and calibration.json, to rebuild the calibration

    bool canPlan() const { return catalog && catalog->catalog.exchangeRate() && !presets.presets.empty(); }
};

/// Reads the catalog (with the user's offers), checks it, and reads presets, calibration, regions, ownership and
/// the watchdog and run scripts (in the scripts folder beside the catalog's).
/// Blocking disk work: call it from a worker thread.
PlanningData loadPlanningData(const std::filesystem::path& catalogDir,
                              const std::filesystem::path& userCatalogDir,
                              const std::filesystem::path& workloadDir);

} // namespace gpuplan::ui
