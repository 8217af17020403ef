#pragma once

#include "PlanningData.h"
#include "gpuplan/deploy/VerifyWorkflow.h"
#include "workers/PageJob.h"

#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

#include "gpuplan/plan/PlanDocument.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace gpuplan::ui {

class StatusLabel;

/// Proves over SSH that a machine's GPUs are what was paid for: the user names the host (key file, jump host), and
/// optionally the launch it is and the GPU promised; the page shows connect -> detect -> upload -> (build ->) run
/// as it goes, then the verdict table with the reason for each line. A host seen for the first time is shown by
/// its fingerprint and trusted only when the user says so. The verdict is kept with the launch in the ledger and
/// can be added to the open plan for its report.
class VerifyPage final : public QWidget
{
    Q_OBJECT

public:
    explicit VerifyPage(QWidget* parent = nullptr);

    void setData(std::shared_ptr<const PlanningData> data);
    /// Whether a plan is open, to which the verdict can be added.
    void setPlanOpen(bool open);
    /// Reads the ledger's launches for the launch list (off the UI thread).
    void refreshLaunches();
    /// Chooses ledger entry `entryId` as the launch to verify (once the list has it); the host is left to the user,
    /// who knows which address and user the image logs in with.
    void chooseLaunch(std::int64_t entryId);
    /// Starts a verification with what the form says; a bad host or jump host is reported, nothing connects.
    void verify();
    void cancel();
    bool isBusy() const { return m_job.isBusy(); }
    /// The last verdict, as the plan keeps it; nullopt before one.
    const std::optional<core::PlanVerification>& lastVerification() const { return m_lastVerification; }
    void retranslate();

    /// Tests: the known_hosts file to use instead of ~/.ssh/known_hosts (questions are answered through Questions).
    void setKnownHostsFile(const QString& path) { m_knownHostsFile = path; }

signals:
    /// The user asked to add the verdict to the open plan.
    void addToPlan(const core::PlanVerification& verification);
    void finished();

protected:
    void changeEvent(QEvent* event) override;

private:
    void onStage(core::VerifyStep stage);
    void onFinished(core::Result<core::VerifyOutcome> outcome);
    void showOutcome(const core::VerifyOutcome& outcome);
    void fillStages();
    void updateButtons();
    void fillGpuChoices();

    std::shared_ptr<const PlanningData> m_data;
    QLabel* m_introLabel = nullptr;
    QLabel* m_hostLabel = nullptr;
    QLineEdit* m_host = nullptr;
    QLabel* m_keyLabel = nullptr;
    QLineEdit* m_keyFile = nullptr;
    QPushButton* m_browseKey = nullptr;
    QLabel* m_jumpLabel = nullptr;
    QLineEdit* m_jump = nullptr;
    QLabel* m_launchLabel = nullptr;
    QComboBox* m_launch = nullptr;
    QLabel* m_gpuLabel = nullptr;
    QComboBox* m_gpu = nullptr;
    QSpinBox* m_count = nullptr;
    QCheckBox* m_quick = nullptr;
    QSpinBox* m_burn = nullptr; // burn-in seconds; 0: none
    QPushButton* m_verifyButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_addToPlanButton = nullptr;
    QListWidget* m_stages = nullptr;
    QLabel* m_deployment = nullptr;
    QLabel* m_verdict = nullptr;
    QTableWidget* m_lines = nullptr;
    StatusLabel* m_status = nullptr;
    QThreadPool m_pool; // SSH work may take minutes (a remote build): it must not hold up the global pool
    std::vector<core::LedgerEntry> m_launches;
    std::optional<core::VerifyStep> m_stage;    // the stage running, or where it stopped
    std::vector<core::VerifyStep> m_stagesDone; // in order
    bool m_failed = false;
    bool m_planOpen = false;
    std::int64_t m_launchToChoose = 0; // chooseLaunch before the list had it
    QString m_knownHostsFile;
    std::optional<core::PlanVerification> m_lastVerification;
    std::optional<core::VerifyOutcome> m_lastOutcome;
    PageJob m_launchReader; // refreshLaunches()
    PageJob m_job;          // the verification, in m_pool (declared before: the job waits, then the pool goes)
};

} // namespace gpuplan::ui
