#pragma once

#include "JobBoundary.h"

#include "gpuplan/net/Http.h"

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include <QFutureWatcher>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuplan::ui {

/// A page's work off the UI thread, the one way the pages and dialogs do it (after KeePassXC's AsyncTask): a step
/// runs on a worker thread inside guardJob, its result comes back to a callback on the UI thread, and nothing comes
/// back once the page is gone. Not a QObject: no moc, and it dies with the page that holds it as a member.
///
/// Declare it after what its steps use (a thread pool of the page's own): its destructor cancels the step running,
/// waits for it and drops its result, so that a page closed mid-job neither crashes nor is called back. A step thus
/// ends before its page, which is what lets progress and questions name the page from the worker thread.
///
/// Busy is the page's state for a task of several steps and of what it waits for between them (the credentials, the
/// user's confirmation): from begin() to end(). A step alone (a read that refreshes a list) needs no task.
class PageJob final
{
public:
    using Token = std::shared_ptr<core::CancelToken>;

    /// `owner`: the page; results, progress and questions reach it on its thread. `busyChanged`: called by begin()
    /// and end(). `pool`: where the steps run (null: the global pool).
    explicit PageJob(QObject* owner, std::function<void(bool busy)> busyChanged = {}, QThreadPool* pool = nullptr)
        : m_owner(owner)
        , m_busyChanged(std::move(busyChanged))
        , m_pool(pool ? pool : QThreadPool::globalInstance())
    {
        QObject::connect(&m_watcher, &QFutureWatcherBase::finished, &m_watcher, [this] { deliver(); });
    }
    ~PageJob()
    {
        cancel();
        m_watcher.waitForFinished();
    }
    PageJob(const PageJob&) = delete;
    PageJob& operator=(const PageJob&) = delete;

    bool isBusy() const { return m_busy; }
    void begin()
    {
        m_stopRequested = false;
        setBusy(true);
    }
    void end() { setBusy(false); }
    /// Whether cancel() was asked during this task (since begin()): its later steps are not started, and a step
    /// that takes a Token starts with it already cancelled.
    bool stopRequested() const { return m_stopRequested; }

    /// Whether a step has been started whose result has not been delivered yet.
    bool isRunning() const { return static_cast<bool>(m_deliver); }

    /// Runs `work` on a worker thread and calls `done` with what it returns, on the UI thread, unless the page has
    /// gone. A `work` that takes a Token is handed a fresh one, which cancel() sets. An exception out of `work`
    /// becomes the core::Error its result carries (ErrorCode::Internal naming `name`, see guardJob). Returns false,
    /// and runs nothing, while another step is running.
    template <typename Work, typename Done>
    bool run(const char* name, Work work, Done done)
    {
        using T = StepResult<Work>;
        static_assert(std::is_constructible_v<T, core::Error>,
                      "a result that cannot carry a core::Error needs the run() that takes an onError");
        return run(
            name, std::move(work), [](core::Error e) -> T { return e; }, std::move(done));
    }

    /// The same, for a result that cannot carry an error: `onError` makes one of it.
    template <typename Work, typename OnError, typename Done>
    bool run(const char* name, Work work, OnError onError, Done done)
    {
        using T = StepResult<Work>;
        if (isRunning()) {
            return false;
        }
        constexpr bool takesToken = std::is_invocable_v<Work&, Token>;
        m_cancel = takesToken ? std::make_shared<core::CancelToken>() : nullptr;
        if (m_cancel && m_stopRequested) {
            m_cancel->cancel();
        }
        auto result = std::make_shared<std::optional<T>>();
        m_deliver = [name, result, onError, done = std::move(done)]() mutable {
            if (!*result) { // the pool never ran the step (guardJob leaves no other way to end without one)
                result->emplace(onError(frontEndError(
                    core::ErrorCode::Internal,
                    QCoreApplication::translate("gpuplan::ui::MainWindow",
                                                "internal error, nothing more was done: the job did not run"),
                    name)));
            }
            done(std::move(**result));
        };
        m_watcher.setFuture(QtConcurrent::run(
            m_pool, [name, work = std::move(work), onError = std::move(onError), cancel = m_cancel, result]() mutable {
                result->emplace(guardJob(
                    name,
                    [&]() -> T {
                        if constexpr (takesToken) {
                            return work(cancel);
                        } else {
                            return work();
                        }
                    },
                    onError));
            }));
        return true;
    }

    /// Asks the task to stop (stopRequested()) and the running step through its Token; true only when a step that
    /// takes one was running, false while the task is between steps or in a step without a Token.
    bool cancel()
    {
        if (m_busy) {
            m_stopRequested = true;
        }
        if (!m_cancel || !isRunning()) {
            return false;
        }
        m_cancel->cancel();
        return true;
    }
    /// Whether the last step was asked to stop (still so in its `done`); false for a step that takes no Token.
    bool cancelled() const { return m_cancel && m_cancel->cancelled(); }

    /// `f` as a callback for a step's progress: called from the worker thread, it calls `f` on the UI thread, in
    /// order with the step's other callbacks and before its `done`. Only for a step's use (see above).
    template <typename... Args, typename F>
    std::function<void(Args...)> onUiThread(F f) const
    {
        return [owner = m_owner, f = std::move(f)](Args... args) {
            QMetaObject::invokeMethod(
                owner, [f, args...] { f(args...); }, Qt::QueuedConnection);
        };
    }

    /// `f` as a callback for an answer that arrives on the UI thread from elsewhere (the credential store): it is
    /// dropped once the page is gone.
    template <typename F>
    auto guarded(F f) const
    {
        return [alive = QPointer<QObject>(m_owner), f = std::move(f)](auto&&... args) mutable {
            if (alive) {
                f(std::forward<decltype(args)>(args)...);
            }
        };
    }

private:
    // What `work` returns, given a Token when it takes one.
    template <typename Work>
    using StepResult = std::decay_t<typename std::conditional_t<std::is_invocable_v<Work&, Token>,
                                                                std::invoke_result<Work&, Token>,
                                                                std::invoke_result<Work&>>::type>;

    void setBusy(bool busy)
    {
        m_busy = busy;
        if (m_busyChanged) {
            m_busyChanged(busy);
        }
    }

    void deliver()
    {
        // Taken first: `done` may start the next step.
        std::function<void()> deliverResult = std::exchange(m_deliver, nullptr);
        if (deliverResult) {
            deliverResult();
        }
    }

    QObject* m_owner = nullptr;
    std::function<void(bool)> m_busyChanged;
    QThreadPool* m_pool = nullptr;
    QFutureWatcher<void> m_watcher;
    std::function<void()> m_deliver; // the running step's `done`, bound to its result
    Token m_cancel;                  // the last step's; null when it takes none
    bool m_busy = false;
    bool m_stopRequested = false; // cancel() during the task since begin()
};

/// For a step: asks `question` on `page`'s (UI) thread and waits for the answer; `ifCancelled` when the step is
/// cancelled (the page closing) before or while it is asked.
template <typename T>
T askOnUiThread(QObject* page, const PageJob::Token& cancel, T ifCancelled, std::function<T()> question)
{
    auto answer = std::make_shared<std::promise<T>>();
    std::future<T> answered = answer->get_future();
    QMetaObject::invokeMethod(
        page,
        [answer, cancel, ifCancelled, question] { answer->set_value(cancel->cancelled() ? ifCancelled : question()); },
        Qt::QueuedConnection);
    while (answered.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
        if (cancel->cancelled()) {
            return ifCancelled;
        }
    }
    try {
        return answered.get();
    } catch (const std::future_error&) {
        return ifCancelled; // the page went away before asking
    }
}

} // namespace gpuplan::ui
