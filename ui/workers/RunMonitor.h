#pragma once

#include "workers/UiThreadPrompter.h"

#include "gpuplan/run/RunWorkflow.h"

#include <QObject>
#include <QString>

#include <filesystem>
#include <memory>
#include <vector>

class QTimer;

namespace gpuplan::ui {

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
class RunMonitor final : public QObject
{
    Q_OBJECT

public:
    RunMonitor(core::RunRecord run,
               std::filesystem::path ledgerFile,
               core::AdviceSettings advice,
               int pollSeconds,
               QObject* page,
               UiThreadPrompter::Answers answers);
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

private:
    void poll();

    core::RunRecord m_run;
    std::filesystem::path m_ledgerFile;
    core::AdviceSettings m_advice;
    int m_pollSeconds;
    QObject* m_page;
    UiThreadPrompter::Answers m_answers;
    PageJob::Token m_cancel;
    std::unique_ptr<core::RunFollower> m_follower;
    QTimer* m_timer = nullptr;
};

} // namespace gpuplan::ui

Q_DECLARE_METATYPE(gpuplan::ui::RunPoll)
