#include "workers/RunMonitor.h"

#include "AppSettings.h"
#include "secrets/CredentialStore.h"
#include "wording/ErrorText.h"
#include "workers/CloudJobs.h"

#include "gpuplan/net/Clock.h"
#include "gpuplan/net/HttpClient.h"
#include "gpuplan/plan/PlanDocument.h"

#include <QCoreApplication>
#include <QTimer>
#include <QWidget>

#include <future>

namespace gpuplan::ui {

RunMonitor::RunMonitor(core::RunRecord run,
                       std::filesystem::path ledgerFile,
                       core::AdviceSettings advice,
                       int pollSeconds,
                       QObject* page,
                       UiThreadPrompter::Answers answers,
                       Recovery recovery)
    : m_run(std::move(run))
    , m_ledgerFile(std::move(ledgerFile))
    , m_advice(advice)
    , m_pollSeconds(std::max(1, pollSeconds))
    , m_page(page)
    , m_answers(std::move(answers))
    , m_recovery(std::move(recovery))
    , m_cancel(std::make_shared<core::CancelToken>())
{
    qRegisterMetaType<gpuplan::ui::RunPoll>();
    qRegisterMetaType<gpuplan::core::RecoveryProgress>();
}

RunMonitor::~RunMonitor() = default;

void RunMonitor::cancel()
{
    m_cancel->cancel();
}

void RunMonitor::start()
{
    m_timer = new QTimer(this); // made here, in the monitor's thread
    m_timer->setInterval(m_pollSeconds * 1000);
    connect(m_timer, &QTimer::timeout, this, &RunMonitor::poll);
    poll();
    m_timer->start();
}

void RunMonitor::stop()
{
    if (m_timer) {
        m_timer->stop();
    }
    m_follower.reset();
}

void RunMonitor::poll()
{
    if (m_cancel->cancelled()) {
        return;
    }
    if (!m_follower) {
        UiThreadPrompter prompter(m_page, m_cancel, m_answers);
        core::Result<std::unique_ptr<core::RunFollower>> follower =
            core::RunFollower::attach(m_run, m_ledgerFile, prompter, m_cancel.get());
        if (!follower) {
            const bool lost =
                follower.error().code == core::ErrorCode::Network || follower.error().code == core::ErrorCode::Timeout;
            // A spot instance that does not answer may have been reclaimed: its provider says.
            if (lost && recovers() && reclaimed()) {
                recover();
                return;
            }
            emit failed(m_run.id, errorText(follower.error()), true);
            return;
        }
        m_follower = std::move(follower).value();
        emit attached(m_run.id);
    }
    core::Result<core::RunUpdate> update = m_follower->poll(m_cancel.get(), core::unixNow());
    if (!update) {
        const bool lost =
            update.error().code == core::ErrorCode::Network || update.error().code == core::ErrorCode::Timeout;
        if (lost) {
            m_follower.reset(); // the session is gone: the next poll logs in again
            if (recovers() && reclaimed()) {
                recover();
                return;
            }
        }
        emit failed(m_run.id, errorText(update.error()), lost);
        return;
    }
    RunPoll result{std::move(update).value(),
                   m_follower->record(),
                   std::vector<core::MonitorSample>(m_follower->samples().begin(), m_follower->samples().end()),
                   m_follower->advice(m_advice)};
    // The job ended on a spot notice: recovered once its checkpoint is in the bucket (or the deadline passed).
    const bool interrupted = result.update.notice && result.update.state == core::RunState::Interrupted && recovers();
    const bool settled =
        interrupted && core::noticeSettled(*result.update.notice, result.update.checkpointSyncedAt, core::unixNow());
    const bool ended = core::isFinal(result.update.state) && !interrupted;
    emit polled(m_run.id, result);
    if (settled) {
        recover();
    } else if (ended) {
        stop();
    }
}

bool RunMonitor::recovers() const
{
    const core::Result<core::RunSpec> spec = core::runSpecOf(m_run);
    return spec && spec->spot.recover && m_run.launchId != 0;
}

core::Result<core::RecoveryServices> RunMonitor::services()
{
    core::RecoveryEnvironment environment;
    environment.ledgerFile = m_ledgerFile;
    environment.scriptsDir = m_recovery.scriptsDir;
    environment.catalog = m_recovery.catalog;
    environment.http = std::make_shared<core::HttpClient>(AppSettings().httpOptions());
    environment.plan = m_recovery.plan;
    if (const core::Result<core::RunConnection> connection = core::readRunConnection(m_run.connection)) {
        environment.sshPort = connection->target.port;
    }
    // The user's stored access, loaded on the page's thread from the main window's store (the Launch page's way);
    // the secret goes straight to the provider's signer and is never logged.
    QObject* page = m_page;
    const PageJob::Token cancel = m_cancel;
    const QPointer<CredentialStore> credentials = m_recovery.credentials;
    environment.access = [page, cancel, credentials](const std::string& provider) -> core::Result<core::CloudAccess> {
        using Found = std::pair<std::vector<core::CloudAccess>, std::map<std::string, core::Error>>;
        auto promise = std::make_shared<std::promise<Found>>();
        std::future<Found> found = promise->get_future();
        QMetaObject::invokeMethod(
            page,
            [credentials, provider, promise] {
                CredentialStore* store = credentials.data();
                if (!store) {
                    promise->set_value({});
                    return;
                }
                loadCloudAccess(store,
                                {provider},
                                [promise](std::vector<core::CloudAccess> access, std::map<std::string, core::Error> e) {
                                    promise->set_value({std::move(access), std::move(e)});
                                });
            },
            Qt::QueuedConnection);
        while (found.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
            if (cancel->cancelled()) {
                return core::Error{core::ErrorCode::Cancelled, core::Reason{"error.net.cancelled", {}}, provider};
            }
        }
        Found got;
        try {
            got = found.get();
        } catch (const std::future_error&) {
            return core::Error{core::ErrorCode::Cancelled, core::Reason{"error.net.cancelled", {}}, provider};
        }
        if (!got.first.empty()) {
            return std::move(got.first.front());
        }
        if (const auto failure = got.second.find(provider); failure != got.second.end()) {
            return failure->second;
        }
        return core::Error{core::ErrorCode::Credentials, core::Reason{"error.reconcile.no_credential", {}}, provider};
    };
    return core::makeRecoveryServices(environment);
}

bool RunMonitor::reclaimed()
{
    core::Result<core::RecoveryServices> s = services();
    if (!s) {
        return false;
    }
    core::Result<bool> gone = core::instanceReclaimed(m_run, *s, m_cancel.get());
    return gone && *gone;
}

bool RunMonitor::recover()
{
    if (m_timer) {
        m_timer->stop(); // no poll while the instance is replaced
    }
    m_follower.reset();
    const core::Result<core::RecoveryServices> s = services();
    if (!s) {
        emit failed(m_run.id, errorText(s.error()), false);
        stop();
        return false;
    }
    UiThreadPrompter prompter(m_page, m_cancel, m_answers);
    const qint64 id = m_run.id;
    core::Result<core::RunRecord> resumed = core::recoverRun(
        m_run.id, *s, prompter, m_cancel.get(), [this, id](const core::RecoveryProgress& p) { emit recovery(id, p); });
    if (!resumed) {
        // The ledger has the run Interrupted (recoverRun says so where it gave up); the page reads it again.
        emit failed(m_run.id, errorText(resumed.error()), false);
        stop();
        return false;
    }
    m_run = std::move(resumed).value();
    poll(); // logs in to the new instance (its host key: the page's question)
    if (m_timer && !m_cancel->cancelled()) {
        m_timer->start();
    }
    return true;
}

} // namespace gpuplan::ui
