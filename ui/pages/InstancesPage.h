#pragma once

#include "PlanningData.h"
#include "workers/CloudJobs.h"
#include "workers/PageJob.h"

#include <QWidget>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace gpuplan::ui {

class CredentialStore;
class StatusLabel;
class InstanceTableModel;

/// What the ledger knows is running: state, uptime, cost so far and time to the dead-man, refreshed every half
/// minute. Reconcile now asks each provider the ledger names and makes the ledger agree (adopting instances of ours
/// it lacked, closing those ended elsewhere); Verify GPU opens the Verify page for the selected instance;
/// Terminate and Terminate all end instances after a confirmation.
/// Ledger reads and cloud calls run on worker threads.
class InstancesPage final : public QWidget
{
    Q_OBJECT

public:
    InstancesPage(CredentialStore* store, QWidget* parent = nullptr);

    void setData(std::shared_ptr<const PlanningData> data);
    /// Reads the ledger again (no provider is asked).
    void refresh();
    /// Reconciles the ledger with every provider it names, then refreshes.
    void reconcile();
    /// Reads the ledger and, when it has live instances, reconciles (what the program does at start).
    void reconcileAtStart();
    /// Terminates the selected instances, or all live ones, after asking.
    void terminateSelected();
    void terminateAll();
    bool isBusy() const { return m_job.isBusy(); }
    InstanceTableModel* model() const { return m_model; }
    void retranslate();

signals:
    /// The user asked to verify the GPUs of ledger entry `entryId` (one live instance selected).
    void verifyRequested(std::int64_t entryId);
    /// "Run on this instance…": the Run page with this launch chosen.
    void runRequested(std::int64_t entryId);

protected:
    void changeEvent(QEvent* event) override;

private:
    void onRead(core::Result<LedgerSnapshot> read);
    /// Shows the last snapshot read (the times move on: uptime, cost, dead-man).
    void showSnapshot();
    /// The part of reconcile() after the credentials: `failures` are the providers whose credential could not be had.
    void reconcileWith(std::vector<core::CloudAccess> access, std::map<std::string, core::Error> failures);
    void terminate(std::vector<std::int64_t> ids);
    /// Asks (naming the runs whose results would be lost with them) and terminates.
    void confirmTerminate(const std::vector<std::int64_t>& ids, const std::vector<core::RunRecord>& runsAtRisk);
    void updateButtons();
    void updateSummary();
    /// The selected managed job (one row, a job): its log below the table, read now and every few seconds while it
    /// runs; hidden for anything else.
    void showJobLog();
    void readJobLogPage();

    CredentialStore* m_store = nullptr;
    std::shared_ptr<const PlanningData> m_data;
    QLabel* m_introLabel = nullptr;
    QTableView* m_table = nullptr;
    InstanceTableModel* m_model = nullptr;
    QCheckBox* m_showEnded = nullptr;
    QPushButton* m_reconcileButton = nullptr;
    QPushButton* m_verifyButton = nullptr;
    QPushButton* m_runButton;
    QPushButton* m_terminateButton = nullptr;
    QPushButton* m_terminateAllButton = nullptr;
    QLabel* m_summary = nullptr;
    StatusLabel* m_status = nullptr;
    QTimer* m_timer = nullptr;
    QLabel* m_jobLogLabel = nullptr;
    QPlainTextEdit* m_jobLog = nullptr; // the selected job's log, at most kJobLogLines lines
    QTimer* m_jobLogTimer = nullptr;
    std::optional<core::LedgerEntry> m_logJob;    // the job whose log is shown
    std::string m_logCursor;                      // where its next read goes on
    std::optional<core::CloudAccess> m_logAccess; // its cloud's key, loaded once for the reads
    std::optional<LedgerSnapshot> m_snapshot;
    bool m_refreshAgain = false;
    bool m_reconcileWhenLive = false;
    PageJob m_reader;    // refresh(): not busy, the buttons stay
    PageJob m_job;       // busy: reconcile, terminate
    PageJob m_logReader; // the selected job's log reads: not busy, the buttons stay
};

} // namespace gpuplan::ui
