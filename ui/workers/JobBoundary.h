#pragma once

#include "gpuplan/core/Result.h"
#include "wording/ErrorText.h"

#include <QCoreApplication>

#include <exception>
#include <string>
#include <utility>

namespace gpuplan::ui {

/// The boundary of a job run off the UI thread. QtConcurrent keeps an exception and rethrows it from
/// QFuture::result() inside a slot, where it ends the program (Qt does not let exceptions cross the event loop).
/// Core returns its failures as values, but a library under it can still throw (nlohmann on text that is not
/// UTF-8, std::bad_alloc): this turns that into ErrorCode::Internal naming `job`, so the page shows an error
/// and the user's unsaved work survives.
inline core::Error internalError(const char* job)
{
    std::string what = "unknown exception";
    try {
        throw;
    } catch (const std::exception& e) {
        what = e.what();
    } catch (...) { }
    return frontEndError(
        core::ErrorCode::Internal,
        QCoreApplication::translate("gpuplan::ui::MainWindow", "internal error, nothing more was done: %1")
            .arg(QString::fromStdString(what)),
        job);
}

/// Runs `work` and returns what it returns; an exception becomes `onError(internalError(job))`.
template <typename Work, typename OnError>
auto guardJob(const char* job, Work&& work, OnError&& onError) -> decltype(work())
{
    try {
        return std::forward<Work>(work)();
    } catch (...) {
        return std::forward<OnError>(onError)(internalError(job));
    }
}

/// For jobs that return a core::Result: the exception becomes its Error.
template <typename Work>
auto guardJob(const char* job, Work&& work) -> decltype(work())
{
    return guardJob(job, std::forward<Work>(work), [](core::Error e) -> decltype(work()) { return e; });
}

} // namespace gpuplan::ui
