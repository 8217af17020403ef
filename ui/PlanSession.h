#pragma once

#include "PlanningData.h"

#include "gpuplan/plan/BuyVsRent.h"
#include "gpuplan/plan/PlanDocument.h"
#include "gpuplan/plan/Planner.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

template <typename T>
class QFutureWatcher;

namespace gpuplan::ui {

/// What a plan is computed from: the wizard's answers plus the what-if and Settings values.
struct PlanInputs
{
    core::Workload workload;
    core::Constraints constraints;
    core::BuyVsRentSettings buyVsRent;
    std::optional<double> cnyPerUsd; // the user's rate; nullopt: the catalog's
    /// A throughput the user measured for this workload: saved as a user calibration case before planning, so that
    /// this plan and every later one rest on it (cleared once saved).
    std::optional<core::CalibrationCase> measurement;
};

/// Computes a whole plan from the inputs. Pure; safe on any thread.
core::PlanDocument computePlan(const PlanningData& data, const PlanInputs& inputs);

/// What a planning job gives back: the plan, and the data it was planned with when that changed (the user's
/// measurement was added to the calibration).
struct PlanJob
{
    std::optional<core::PlanDocument> plan; // nullopt: planning failed
    std::shared_ptr<const PlanningData> data;
    QString unsavedMeasurement; // why the user's measurement could not be saved, empty when it was
};

/// Saves `measurement` as a user calibration case in `userDir` and returns `data` with the calibration rebuilt
/// on it; an error when the case cannot be saved. Blocking: run it off the UI thread.
core::Result<std::shared_ptr<const PlanningData>> withMeasurement(const PlanningData& data,
                                                                  const core::CalibrationCase& measurement,
                                                                  const std::filesystem::path& userDir);

/// The open plan: its inputs, its document, its file. Re-planning runs off the UI thread; when inputs change
/// faster than plans are computed (a slider moving), only the latest inputs are planned next.
class PlanSession final : public QObject
{
    Q_OBJECT

public:
    explicit PlanSession(QObject* parent = nullptr);
    ~PlanSession() override;

    void setData(std::shared_ptr<const PlanningData> data);
    const PlanningData* data() const { return m_data.get(); }

    bool hasPlan() const { return m_plan.has_value(); }
    /// The plan shown; nullptr when none is.
    const core::PlanDocument* plan() const { return m_plan ? &*m_plan : nullptr; }
    /// The inputs of the plan shown; nullopt for an opened plan whose inputs cannot be read back.
    const std::optional<PlanInputs>& inputs() const { return m_inputs; }
    bool isBusy() const;

    /// Plans `inputs` in the background; planChanged() follows. The plan becomes modified.
    void replan(PlanInputs inputs);
    /// Blocks until no plan is being computed (tests, closing).
    void waitForIdle();

    QString filePath() const { return m_filePath; }
    bool isModified() const { return m_modified; }
    /// Writes the plan; an error names the file.
    core::Status save(const QString& path);
    /// Reads a plan file and shows it as saved (not re-planned). Its inputs are read back for what-if.
    core::Status open(const QString& path);
    /// Adds a GPU verification to the plan, for its report; the plan becomes modified. Re-planning keeps the plan's
    /// verifications.
    void addVerification(const core::PlanVerification& verification);
    /// Shows `plan` as a new, unsaved document (an example).
    void setPlan(core::PlanDocument plan, std::optional<PlanInputs> inputs, bool modified);

signals:
    void planChanged();
    /// Planning failed inside a library (an internal error); the plan shown is kept.
    void planFailed();
    /// The user's measured throughput could not be saved as a calibration case (`why` names the file and the
    /// cause); the plan was made without it.
    void measurementNotSaved(const QString& why);
    void busyChanged(bool busy);
    void modifiedChanged(bool modified);

private:
    void start(PlanInputs inputs);
    void onFinished();
    void setModified(bool modified);

    std::shared_ptr<const PlanningData> m_data;
    std::optional<core::PlanDocument> m_plan;
    std::optional<PlanInputs> m_inputs;
    std::optional<PlanInputs> m_running;
    std::optional<PlanInputs> m_pending;
    QFutureWatcher<PlanJob>* m_watcher = nullptr;
    QString m_filePath;
    bool m_modified = false;
};

/// The inputs of a plan, read back; nullopt when its workload definition does not read (an older plan).
std::optional<PlanInputs> inputsFromPlan(const core::PlanDocument& plan);

} // namespace gpuplan::ui
