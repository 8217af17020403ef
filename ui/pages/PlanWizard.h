#pragma once

#include "PlanSession.h"

#include <QWizard>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace gpuplan::ui {

/// The plan wizard, following the recommender's decision tree: workload and amount of work, precision and
/// framework, budget and deadline, data sensitivity and scale, pricing modes. Every field has a default, so
/// Finish is available from the first page. Bad input is shown beside its field and blocks Next and Finish.
class PlanWizard final : public QWizard
{
    Q_OBJECT

public:
    explicit PlanWizard(QWidget* parent = nullptr);

    /// Fills the workload list from the loaded presets.
    void setPresets(const core::LoadedWorkloads& presets);
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
    void onPresetChanged();
    bool validateBudgetPage() const;

    std::vector<core::Workload> m_presets;
    QComboBox* m_task = nullptr;
    QComboBox* m_preset = nullptr;
    QLabel* m_presetDescription = nullptr;
    QDoubleSpinBox* m_epochs = nullptr;
    QLabel* m_epochsLabel = nullptr;
    QComboBox* m_precision = nullptr;
    QComboBox* m_framework = nullptr;
    QLineEdit* m_budget = nullptr;
    QLabel* m_budgetError = nullptr;
    QComboBox* m_currency = nullptr;
    QLineEdit* m_deadline = nullptr;
    QLabel* m_deadlineError = nullptr;
    QCheckBox* m_sensitive = nullptr;
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

} // namespace gpuplan::ui
