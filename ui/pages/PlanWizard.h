#pragma once

#include "PlanSession.h"

#include <QWizard>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace gpuplan::ui {

class CountryPicker;

/// The plan wizard, following the recommender's decision tree: workload and amount of work, precision and
/// framework, budget and deadline, data sensitivity and scale, pricing modes. Every field has a default, so
/// Finish is available from the first page. Bad input is shown beside its field and blocks Next and Finish.
class PlanWizard final : public QWizard
{
    Q_OBJECT

public:
    explicit PlanWizard(QWidget* parent = nullptr);

    /// Fills the workload list from the loaded presets, and the GPUs a throughput may be measured on.
    void setChoices(const core::LoadedWorkloads& presets, const std::vector<core::GpuSpec>& gpus);
    /// The answers that start from the settings (currency, regions) set to them again: for a new plan.
    void useSettingsDefaults();
    /// The answers as planner inputs; nullopt (with the message shown) when one is invalid.
    std::optional<PlanInputs> inputs() const;
    void retranslate();

signals:
    /// Finish was pressed with valid answers.
    void planRequested(const gpuplan::ui::PlanInputs& inputs);

protected:
    void done(int result) override;
    void changeEvent(QEvent* event) override;

private:
    void fillWorkloadList();
    void onPresetChanged();
    void loadWorkloadFile();
    void retranslateUnits();
    /// The precisions, by translated name, with "best each GPU supports" first when `withBest`.
    void fillPrecisions(QComboBox* box, bool withBest);
    bool validateWorkloadPage() const;
    bool validateBudgetPage() const;
    /// The workload the answers describe: a preset, the measured throughput or the file; nullopt when invalid.
    std::optional<core::Workload> chosenWorkload() const;
    /// The user's own measurement of the chosen preset, as a calibration case; nullopt when none was given.
    std::optional<core::CalibrationCase> ownMeasurement(const core::Workload& preset) const;

    std::vector<core::Workload> m_presets;
    QComboBox* m_task = nullptr;
    QComboBox* m_preset = nullptr;
    QLabel* m_presetDescription = nullptr;
    QDoubleSpinBox* m_epochs = nullptr;
    QLabel* m_epochsLabel = nullptr;
    // Your own workload: a throughput you measured ...
    QFormLayout* m_workloadForm = nullptr;
    QDoubleSpinBox* m_measuredValue = nullptr;
    QComboBox* m_measuredUnit = nullptr;
    QComboBox* m_measuredGpu = nullptr;
    QSpinBox* m_measuredCount = nullptr;
    QComboBox* m_measuredPrecision = nullptr;
    QLineEdit* m_units = nullptr;
    QLabel* m_unitsError = nullptr;
    QLineEdit* m_parameters = nullptr;
    QLabel* m_parametersError = nullptr;
    QLineEdit* m_datasetGb = nullptr;
    QLabel* m_datasetError = nullptr;
    // ... or a workload file.
    QLineEdit* m_workloadFile = nullptr;
    QLabel* m_workloadFileError = nullptr;
    std::optional<core::Workload> m_fileWorkload;
    QCheckBox* m_ownMeasurement = nullptr; // a preset the user has timed: the measurement becomes a calibration case
    QList<QWidget*> m_measuredRows; // shown for a measured throughput (the first three also for an own measurement)
    QWidget* m_fileRow = nullptr;   // shown for a workload file
    QComboBox* m_precision = nullptr;
    QComboBox* m_framework = nullptr;
    QComboBox* m_stack = nullptr;
    QLabel* m_stackDescription = nullptr;
    QLineEdit* m_budget = nullptr;
    QLabel* m_budgetError = nullptr;
    QComboBox* m_currency = nullptr;
    QLineEdit* m_deadline = nullptr;
    QLabel* m_deadlineError = nullptr;
    QCheckBox* m_sensitive = nullptr;
    CountryPicker* m_countries = nullptr;
    QSpinBox* m_minGpus = nullptr;
    QSpinBox* m_maxGpus = nullptr;
    QCheckBox* m_multiNode = nullptr;
    QCheckBox* m_rdma = nullptr;
    QCheckBox* m_onDemand = nullptr;
    QCheckBox* m_spot = nullptr;
    QCheckBox* m_reserved = nullptr;
    QCheckBox* m_subscription = nullptr;
    QDoubleSpinBox* m_projectMonths = nullptr;
    QList<QWizardPage*> m_pages;
    QList<QLabel*> m_labels; // retranslated by objectName
};

/// "14d", "36h", "90m", "2w" -> hours; nullopt when it is not such a duration. Empty text is no deadline.
std::optional<double> parseDeadline(const QString& text);
/// "1281167", "1,281,167", "1.28M", "7B", "2e9", "500k" -> the count; nullopt when it is not a positive count.
std::optional<double> parseCount(const QString& text);

} // namespace gpuplan::ui
