#include "workers/RunMonitor.h"

#include "wording/ErrorText.h"

#include "gpuplan/net/Clock.h"

#include <QTimer>

namespace gpuplan::ui {

RunMonitor::RunMonitor(core::RunRecord run,
                       std::filesystem::path ledgerFile,
                       core::AdviceSettings advice,
                       int pollSeconds,
                       QObject* page,
                       UiThreadPrompter::Answers answers)
    : m_run(std::move(run))
    , m_ledgerFile(std::move(ledgerFile))
    , m_advice(advice)
    , m_pollSeconds(std::max(1, pollSeconds))
    , m_page(page)
    , m_answers(std::move(answers))
    , m_cancel(std::make_shared<core::CancelToken>())
{
    qRegisterMetaType<gpuplan::ui::RunPoll>();
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
        }
        emit failed(m_run.id, errorText(update.error()), lost);
        return;
    }
    RunPoll result{std::move(update).value(),
                   m_follower->record(),
                   std::vector<core::MonitorSample>(m_follower->samples().begin(), m_follower->samples().end()),
                   m_follower->advice(m_advice)};
    const bool ended = core::isFinal(result.update.state);
    emit polled(m_run.id, result);
    if (ended) {
        stop();
    }
}

} // namespace gpuplan::ui
