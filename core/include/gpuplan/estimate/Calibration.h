#pragma once

#include "gpuplan/catalog/Source.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/estimate/PerformanceModel.h"
#include "gpuplan/estimate/Range.h"
#include "gpuplan/workload/Workload.h"

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

class Catalog;
struct LoadedWorkloads;

/// One published (or the user's own) training-throughput measurement: resources/workloads/calibration.json,
/// schema gpuplan-calibration/2, and the user's cases in $XDG_DATA_HOME/gpuplanner/calibration/.
struct CalibrationCase
{
    std::string id;
    std::string workloadId; // a preset, or empty with flopsPerUnit given
    std::string model;      // what was trained, as the source names it
    ModelClass modelClass = ModelClass::Cnn;
    double flopsPerUnit = 0; // training FLOPs per sample or token; 0 for a preset (computed from it)
    std::string gpuId;
    int count = 1;
    int gpusPerNode = 1;
    Precision precision = Precision::Amp;
    SoftwareStack stack = SoftwareStack::Typical;
    std::optional<double> measured; // total samples/s or tokens/s over `count` GPUs
    bool tokens = false;
    std::optional<double> mfu; // model FLOPs utilisation, when the source states that instead

    // What the model reads of the configuration ("config"); each may be unknown.
    std::optional<double> trainedParameters; // whose gradients are all-reduced
    std::optional<int> hidden;               // transformer width
    std::optional<double> batchPerGpu;       // samples or sequences per GPU per step
    std::optional<int> sequenceLength;
    bool realImages = false;      // real JPEGs decoded by the CPU (not synthetic, not a GPU decoder)
    std::optional<int> hostVcpus; // per node

    std::string group; // the source family: cross-validation holds a whole group out at once
    bool user = false; // the user's own measurement
    Source source;
    std::string location; // "file: $.cases[3]"
};

struct LoadedCalibration
{
    std::vector<CalibrationCase> cases;
    std::vector<Error> problems;
};

/// Reads `name` in `dir` (calibration.json: the cases the model is fitted to; validation.json: published results
/// from other sources, never fitted, for `gpuplan calibrate`); broken cases become problems (file and JSON path).
Result<LoadedCalibration> loadCalibration(const std::filesystem::path& dir,
                                          const std::string& name = "calibration.json");

/// Reads every `*.json` case file in the user's calibration folder (missing folder: none); each is one case with
/// "user": true. Broken files become problems and are skipped.
LoadedCalibration loadUserCalibration(const std::filesystem::path& dir);

/// Writes `c` as a new case file in `dir` (created 0700; the file 0600, written atomically); returns its path.
Result<std::filesystem::path> saveUserCalibration(const CalibrationCase& c, const std::filesystem::path& dir);

/// The user's calibration folder: $XDG_DATA_HOME/gpuplanner/calibration (empty when there is no data folder).
std::filesystem::path userCalibrationDir();

/// The case as JSON (schema gpuplan-calibration/2 case).
std::string calibrationCaseJson(const CalibrationCase& c);

/// How near the calibration data is to a question: it decides the local correction and the range.
enum class Nearness
{
    SameWorkloadAndGpu = 1, // a case of this workload on this GPU (and stack)
    SameClassAndGpu = 2,    // of this model class on this GPU
    SameClassAndArch = 3,   // of this model class on this GPU generation
    ModelOnly = 4,          // nothing near: the fitted model alone
};

/// The fitted estimator: the performance model fitted to every case, a correction from the nearest cases, and
/// ranges from leave-one-source-out cross-validation (the 10th and 90th percentile of the held-out log errors at
/// the same nearness, so the published figure falls inside about 80 % of the time).
class Calibration
{
public:
    /// Resolves the cases against the catalog and presets (unknown GPU or preset: a problem), fits the model,
    /// cross-validates it and derives the ranges.
    static Calibration build(const std::vector<CalibrationCase>& cases,
                             const Catalog& catalog,
                             const LoadedWorkloads& presets,
                             std::vector<Error>& problems);

    struct Estimate
    {
        Prediction prediction; // of the fitted model, before the correction
        double correction = 1; // from the nearest cases (their measured / model)
        Range total;           // units/s over all GPUs, corrected, with its 80 % range
        Nearness nearness = Nearness::ModelOnly;
        std::vector<std::string> basedOn; // the cases that corrected it
        bool userData = false;            // one of them is the user's own measurement
    };

    /// Reads the bundled cases (`workloadDir`/calibration.json) and the user's (`userDir`), leaves out the source
    /// groups in `holdOut` (to see how the estimate does without a source), then builds. A missing or unreadable
    /// bundled file, or a held-out group no case has, is the error; broken cases and user files are added to
    /// `problems` and left out.
    static Result<Calibration> load(const std::filesystem::path& workloadDir,
                                    const std::filesystem::path& userDir,
                                    const Catalog& catalog,
                                    const LoadedWorkloads& presets,
                                    std::vector<Error>& problems,
                                    const std::vector<std::string>& holdOut = {});

    /// The estimate of one run; `workloadId` (a preset, or the user's workload id) finds same-workload cases.
    Estimate estimate(const RunShape& shape, std::string_view workloadId) const;

    /// Leave-one-source-out cross-validation of every case: each predicted by a model fitted without its group.
    struct Heldout
    {
        std::string caseId;
        std::string group;
        ModelClass modelClass = ModelClass::Cnn;
        std::string architecture;
        SoftwareStack stack = SoftwareStack::Typical;
        Nearness nearness = Nearness::ModelOnly;
        double measured = 0;
        Range predicted;
        bool user = false;
    };
    const std::vector<Heldout>& heldout() const { return m_heldout; }

    /// Results the model never saw (validation.json), each estimated by the full calibration with its range.
    std::vector<Heldout> validate(const std::vector<CalibrationCase>& unseen,
                                  const Catalog& catalog,
                                  const LoadedWorkloads& presets,
                                  std::vector<Error>& problems) const;

    const PerformanceModel& model() const { return m_model; }
    std::size_t caseCount() const { return m_cases.size(); }

    /// The range factors (exp of the 7th and 93rd percentile held-out log error, each source group weighing one) at
    /// a nearness, for a stack and a kind of model (language, image classifier, detector).
    std::pair<double, double> rangeFactors(Nearness nearness, SoftwareStack stack, ModelClass modelClass) const;

    /// The resolved cases, for reports.
    struct Resolved
    {
        CalibrationCase source;
        RunShape shape;
        double measured = 0; // units/s
        std::string architecture;
    };
    const std::vector<Resolved>& cases() const { return m_cases; }

private:
    static std::optional<Resolved> resolve(const CalibrationCase& c,
                                           const Catalog& catalog,
                                           const LoadedWorkloads& presets,
                                           std::vector<Error>& problems);
    Estimate estimateWith(const PerformanceModel& model,
                          const std::vector<double>& residuals,
                          const RunShape& shape,
                          std::string_view workloadId,
                          std::string_view excludeGroup) const;

    std::vector<Resolved> m_cases;
    PerformanceModel m_model;
    std::vector<double> m_residuals; // log(measured / model) of each case under m_model
    std::vector<Heldout> m_heldout;
    std::array<std::pair<double, double>, 24> m_ranges{}; // by kind of model, nearness, tuned or not
};

} // namespace gpuplan::core
