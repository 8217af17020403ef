#pragma once

#include "workers/UiThreadPrompter.h"

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/run/RunWorkflow.h"
#include "gpuplan/run/SpotRecovery.h"
#include "secrets/CredentialStore.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <filesystem>
#include <memory>
#include <vector>

class QTimer;

namespace gpuplan::core {
struct PlanDocument;
}

namespace gpuplan::ui {

class CredentialStore;

/// What one poll of a run found, with the follower's view after it: values, so that they cross threads.
struct RunPoll
{
    core::RunUpdate update;
    core::RunRecord record;
    std::vector<core::MonitorSample> samples; // the last 30 minutes
    core::RunAdvice advice;
};

/// Follows one run on a thread of its own (STYLE: long-lived work is a worker QObject on a QThread): logs in to the
/// instance, polls it every few seconds until the run ends, logs in again when the connection drops, and sends what
/// is new as signals. The questions of a login (a host key seen for the first time, a key's passphrase) are asked on
/// `page`'s thread. Create it, move it to its thread, then call start() there; stop() (or deleting it there) ends it.
///
/// A spot run with recovery on (RunSpec::spot.recover) is recovered here when its instance is reclaimed: its poll
/// shows the notice and the job ended (once noticeSettled), or the poll fails and instanceReclaimed() says the
/// instance is gone. recoverRun relaunches with the user's stored credentials (loaded on `page`'s thread from the
/// main window's CredentialStore, as the Launch page does), each step sent as recovery(); then it follows the resumed
/// run. A recovery that fails is sent as failed() (the ledger has the run Interrupted) and the monitor stops.
class RunMonitor final : public QObject
{
    Q_OBJECT

public:
    /// What a recovery needs besides the ledger: the instance scripts, the catalog (relaunch prices), the run's plan
    /// (its fallback order; null: the same region only).
    struct Recovery
    {
        std::filesystem::path scriptsDir;
        std::shared_ptr<const core::Catalog> catalog;
        std::shared_ptr<const core::PlanDocument> plan;
        QPointer<CredentialStore> credentials; // the main window's store (the user's keys); null: none to use
    };

    RunMonitor(core::RunRecord run,
               std::filesystem::path ledgerFile,
               core::AdviceSettings advice,
               int pollSeconds,
               QObject* page,
               UiThreadPrompter::Answers answers,
               Recovery recovery = {});
    ~RunMonitor() override;

    /// Cancels what it waits for (the SSH round trip, a question): safe from any thread.
    void cancel();

public slots:
    void start();
    void stop();

signals:
    void attached(qint64 runId);
    void polled(qint64 runId, const gpuplan::ui::RunPoll& poll);
    /// A login or a poll failed; `lost`: the connection is gone and the next poll logs in again.
    void failed(qint64 runId, const QString& message, bool lost);
    /// A step of the run's spot recovery.
    void recovery(qint64 runId, const gpuplan::core::RecoveryProgress& progress);

private:
    void poll();
    bool recovers() const;
    /// Whether the run's instance is gone, as its provider says (false when it cannot be asked).
    bool reclaimed();
    /// Recovers the run (recoverRun) and follows the resumed one; false when it failed (failed() said why).
    bool recover();
    core::Result<core::RecoveryServices> services();

    core::RunRecord m_run;
    std::filesystem::path m_ledgerFile;
    core::AdviceSettings m_advice;
    int m_pollSeconds;
    QObject* m_page;
    UiThreadPrompter::Answers m_answers;
    Recovery m_recovery;
    PageJob::Token m_cancel;
    std::unique_ptr<core::RunFollower> m_follower;
    QTimer* m_timer = nullptr;
};

} // namespace gpuplan::ui

Q_DECLARE_METATYPE(gpuplan::ui::RunPoll)
Q_DECLARE_METATYPE(gpuplan::core::RecoveryProgress)
