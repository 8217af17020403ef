// What `plan` (PlanCommands.cpp) shares with `estimate` and `calibrate` (EstimateCommands.cpp): the data the
// estimator loads, the error report, and the way numbers are printed. Private to app/cli.
#pragma once

#include "PlanCommands.h"

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/estimate/Assumptions.h"
#include "gpuplan/estimate/Calibration.h"

#include <optional>
#include <string>

namespace gpuplan::cli::planning {

std::string fixed(double value, int decimals);
/// 3 significant figures, as estimates deserve.
std::string approx(double value);
/// "12.3 (10.1-15.2)": a figure and its range.
std::string rangeText(const core::Range& r);

/// Prints the error and returns `code`.
int fail(const core::Error& error, int code = kExitBadInput);

/// Everything the estimator needs, loaded once.
struct Data
{
    core::LoadedCatalog catalog;
    core::LoadedWorkloads presets;
    core::Workload workload;
    core::Calibration calibration;
    core::Assumptions assumptions;
};

/// The catalog, the presets, the chosen workload with the flags' overrides, the calibration and the assumptions;
/// nullopt (with the error printed and `exitCode` set) when one cannot be loaded.
std::optional<Data> loadData(const CatalogOptions& catalogOptions, const WorkloadOptions& options, int& exitCode);

} // namespace gpuplan::cli::planning
