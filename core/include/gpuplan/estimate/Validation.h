#pragma once

#include "gpuplan/estimate/Calibration.h"

#include <functional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// How well held-out estimates matched the published figures, for one slice of the cases.
struct ValidationRow
{
    std::string label; // "all", "cnn", "Hopper", "typical", ...
    std::size_t cases = 0;
    std::size_t groups = 0; // source families among them
    double medianError = 0; // median |predicted / measured - 1|
    double p90Error = 0;    // 90th percentile of the same
    double coverage = 0;    // share of measured figures inside the stated low-high range
    double medianWidth = 0; // median of high / low
};

/// One row for all the cases, then one per value of `key` (sorted by label).
std::vector<ValidationRow> summariseHeldout(const std::vector<Calibration::Heldout>& heldout,
                                            const std::function<std::string(const Calibration::Heldout&)>& key);

/// The first model (EfficiencyTable) cross-validated the same way: every case predicted from a table fitted
/// without its whole source group, with that model's own range. For the side-by-side in `gpuplan calibrate`.
std::vector<Calibration::Heldout> crossValidateFirstModel(const std::vector<CalibrationCase>& cases,
                                                          const Catalog& catalog,
                                                          const LoadedWorkloads& presets);

} // namespace gpuplan::core
