#pragma once

#include "PlanningData.h"
#include "workers/CloudJobs.h"
#include "workers/PageJob.h"

#include "gpuplan/cloud/LaunchChoice.h"

#include "gpuplan/plan/PlanDocument.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QHBoxLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace gpuplan::ui {

class CredentialStore;
class StatusLabel;

/// Launches one instance, or submits one managed training job where the cloud has a managed service and the catalog
/// a managed offer of the machine (the Service row: a virtual machine, or a job on Vertex AI / Azure ML, with the
/// container image, command and environment it runs and no SSH or idle rule). Launches: the offer (from the plan's
/// choice, or typed), region and zone, image, SSH key and the address SSH is opened to, the pricing mode (modes the
/// provider lacks are greyed with the reason), the dead-man and idle rules and the plan's budget. Launch asks for a
/// confirmation that states the price and the most it can cost before the dead-man fires, then follows the launch
/// through request -> pending -> running -> SSH reachable. The launch is recorded in the ledger before its request goes
/// out (core::Launcher); all cloud and disk work runs on worker threads.
class LaunchPage final : public QWidget
{
    Q_OBJECT

public:
    LaunchPage(CredentialStore* store, QWidget* parent = nullptr);

    void setData(std::shared_ptr<const PlanningData> data);
    /// Fills the form from the plan's choice (provider, type, region, mode, dead-man from its estimate, budget), or,
    /// when GPU Planner cannot launch the choice, from the best-ranked option it can, saying so. Called on every
    /// change of the open plan: nothing of the previous plan's offer, price, budget or dead-man stays.
    void setPlan(const core::PlanDocument* plan);
    /// Starts the launch as the form says (the same as clicking Launch).
    void launch();
    bool isBusy() const { return m_job.isBusy(); }
    void retranslate();

signals:
    /// A launch ended with an instance recorded in the ledger (or a dry run passed: entryId 0).
    void launched(qint64 entryId);

protected:
    void changeEvent(QEvent* event) override;

private:
    QString
    notLaunchableText(const core::NotLaunchable& why, const std::string& provider, core::PricingMode mode) const;
    void fillInstanceTypes();
    void fillRegions();
    void updatePricing();
    void updatePrice();
    void resetProgress();
    /// After a Cancel while preparing or loading the credential: ends the launch there (true), before the price.
    bool stoppedBeforeSending();
    void onPrepared(core::Result<core::PreparedLaunch> prepared);
    void launchWith(core::CloudAccess access);
    void onProgress(const core::LaunchProgress& progress);
    void onLaunched(const core::Result<core::LaunchOutcome>& outcome);
    /// core::confirmAndLaunch's question, on the UI thread: the dialog, then the status that follows the answer.
    bool confirmLaunch(const core::LaunchOrder& order, const std::optional<core::Error>& quoteProblem);
    /// The confirmation dialog (launchConfirmationLines). `quoteProblem`: why the provider's current price could not
    /// be asked (none when it was, or has no API).
    bool confirm(const core::LaunchOrder& order, const std::optional<core::Error>& quoteProblem);
    core::LaunchPreparation preparation() const;
    std::optional<core::LaunchPricing> pricing() const;
    /// The Service row chose a managed job.
    bool managedJob() const;
    /// The Service row as the provider allows it (greyed with the reason where it has no managed service), and the
    /// form's parts that only one kind has: SSH and the idle rule for a machine, the job's image and command.
    void updateService();
    /// The same machine under the other service: "azureml/X" for "X" and back; empty when the catalog has none.
    QString twinOf(const QString& instanceType, bool managed) const;
    /// The launch progress rows' texts, for a machine or a job.
    void wordProgressRows();

    CredentialStore* m_store = nullptr;
    std::shared_ptr<const PlanningData> m_data;
    std::string m_planId;
    std::string m_planShown; // what of the plan the form was last filled from (setPlan)
    core::Currency m_budgetCurrency = core::Currency::CNY;
    std::string m_launchProvider; // of the launch under way
    QLabel* m_introLabel = nullptr;
    QLabel* m_planLabel = nullptr;
    QGroupBox* m_offerBox = nullptr;
    QGroupBox* m_accessBox = nullptr;
    QGroupBox* m_guardBox = nullptr;
    std::vector<std::pair<QLabel*, const char*>> m_rowLabels; // the form's labels and their source texts
    QComboBox* m_provider = nullptr;
    QComboBox* m_service = nullptr; // 0: a virtual machine; 1: a managed job
    QComboBox* m_instanceType = nullptr;
    QComboBox* m_region = nullptr;
    QLineEdit* m_zone = nullptr;
    QComboBox* m_pricing = nullptr;
    QSpinBox* m_months = nullptr;
    QCheckBox* m_autoRenew = nullptr;
    QDoubleSpinBox* m_spotLimit = nullptr; // spot only: the most to pay per hour; 0: the market price
    QLabel* m_priceLabel = nullptr;
    QDoubleSpinBox* m_priceOverride = nullptr;
    QLineEdit* m_image = nullptr;
    QLineEdit* m_keyFile = nullptr;
    QPushButton* m_browseKey = nullptr;
    QLineEdit* m_sshFrom = nullptr;
    QSpinBox* m_sshPort = nullptr;
    QSpinBox* m_deadman = nullptr;
    QSpinBox* m_idleMinutes = nullptr;
    QSpinBox* m_idlePercent = nullptr;
    QDoubleSpinBox* m_budget = nullptr;
    QCheckBox* m_terminateAtBudget = nullptr;
    QCheckBox* m_dryRun = nullptr;
    QGroupBox* m_jobBox = nullptr;
    QLineEdit* m_jobImage = nullptr;
    QLineEdit* m_jobCommand = nullptr;
    QPlainTextEdit* m_jobEnvironment = nullptr; // NAME=VALUE, one a line
    QFormLayout* m_offerForm = nullptr;         // its Zone, subscription and spot limit rows are hidden for a job
    QHBoxLayout* m_monthsRow = nullptr;
    QFormLayout* m_guardForm = nullptr; // its idle row is hidden for a job (it ends when its command does)
    QHBoxLayout* m_idleRow = nullptr;
    QPushButton* m_launchButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QListWidget* m_progress = nullptr;
    StatusLabel* m_status = nullptr;
    std::optional<core::LaunchOrder> m_order; // of the launch under way, as prepared (before the provider's quote)
    bool m_declined = false;                  // the user said no to its confirmation
    bool m_sent = false;                      // its request went out (a cancel after that is a failed launch)
    PageJob m_job; // busy from Launch to the end: prepare, the credential, the price, the confirmation, the launch
};

} // namespace gpuplan::ui
