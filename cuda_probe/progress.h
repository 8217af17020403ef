// What the probe has measured so far, kept as ready-to-print documents so a watchdog time-out, an interrupting
// signal (SIGTERM, SIGHUP, SIGINT) or a crash still prints every result so far and names the GPU and the test in
// progress. Signal handlers can only write(): the documents are re-serialised after each finished measurement,
// double-buffered, and the handler writes the published one.
#pragma once

#include "probe.h"

#include <optional>
#include <string>

namespace probe::progress {

// The document for an abnormal end (pure; tested in tests/probe): `base` with its finished GPUs, then `current`
// (the GPU in progress, with the measurements it finished) carrying its own error {code, message}; the top level
// gets the same code, `message`, error.gpu and error.stage; ok is false.
Report abnormalReport(const Report& base,
                      const std::optional<GpuReport>& current,
                      const std::string& stage,
                      const std::string& code,
                      const std::string& message);

// The run's record. Every call re-prepares the fallback documents; none throws.
void setBase(const Report& base, double watchdogLimitS); // the facts known so far (no GPU in progress)
void startGpu(const GpuReport& gpu);
void stage(int gpu, const std::string& name);
void update(const GpuReport& gpu); // after each finished measurement
void finishGpu(const GpuReport& gpu);
void setElapsed(double seconds); // the run time the fallback documents report
// A run-wide step with no GPU in progress (cuda_init, nccl_allreduce, burn): error.stage of the fallback documents.
void phase(const std::string& name);

// Keeps the real stdout for the one document and points file descriptor 1 at stderr, so whatever a library prints
// (NCCL_DEBUG, CUBLASLT_LOG_LEVEL, the driver) cannot break the document. Call first, before any library loads.
void claimStdout();

// Prints `doc` unless another document was printed already (there is only ever one).
bool emit(const std::string& doc);
// Fatal signals print the crash document, SIGTERM/SIGHUP/SIGINT the interrupted one; both exit 1.
void installSignalHandlers();
// For the watchdog thread: prints the time-out document (unless one was printed; a document another thread is still
// writing gets a few seconds to finish) and exits 1.
[[noreturn]] void emitTimeoutAndExit();

} // namespace probe::progress
