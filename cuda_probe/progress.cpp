#include "progress.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <mutex>

namespace probe::progress {

Report abnormalReport(const Report& base,
                      const std::optional<GpuReport>& current,
                      const std::string& stage,
                      const std::string& code,
                      const std::string& message)
{
    Report r = base;
    r.ok = false;
    r.errorCode = code;
    r.errorMessage = message;
    r.errorStage = stage;
    r.errorGpu.reset();
    if (current) {
        GpuReport g = *current;
        g.errorCode = code;
        g.errorMessage = "GPU " + std::to_string(g.index) + (stage.empty() ? "" : " during " + stage) + ": " + message;
        r.errorGpu = g.index;
        r.gpus.push_back(std::move(g));
    }
    return r;
}

namespace {

struct Documents
{
    std::string crash, interrupted, timeout;
};

std::atomic<bool> g_printed{false};
Documents g_slots[2];
std::atomic<int> g_published{-1};

std::mutex g_mutex; // guards the record below (not used by signal handlers)
Report g_base;
std::optional<GpuReport> g_current;
std::string g_stage;
double g_limitS = 0;
double g_elapsedS = 0;

void writeAll(const char* data, size_t length)
{
    while (length > 0) {
        const ssize_t n = ::write(STDOUT_FILENO, data, length);
        if (n <= 0)
            return;
        data += n;
        length -= static_cast<size_t>(n);
    }
}

std::string where()
{
    if (!g_current)
        return "";
    return " while measuring GPU " + std::to_string(g_current->index) + (g_stage.empty() ? "" : " (" + g_stage + ")");
}

// Caller holds g_mutex.
void prepare()
{
    if (g_printed.load())
        return; // a handler may be reading the published slot; nothing will be printed again anyway
    try {
        const int next = g_published.load() == 0 ? 1 : 0;
        Documents& d = g_slots[next];
        Report crash = abnormalReport(g_base,
                                      g_current,
                                      g_stage,
                                      "crashed",
                                      "the probe crashed (fatal signal)" + where() + "; results so far kept");
        crash.elapsedS = g_elapsedS;
        d.crash = toJson(crash);
        Report interrupted =
            abnormalReport(g_base,
                           g_current,
                           g_stage,
                           "interrupted",
                           "the probe was interrupted (SIGTERM, SIGHUP or SIGINT)" + where() + "; results so far kept");
        interrupted.elapsedS = g_elapsedS;
        d.interrupted = toJson(interrupted);
        Report timedOut =
            abnormalReport(g_base,
                           g_current,
                           g_stage,
                           "timeout",
                           "the probe did not finish within " + std::to_string(static_cast<int>(g_limitS)) + " s"
                               + (g_current ? where() + ": a GPU or driver call hung" : "") + "; results so far kept");
        timedOut.elapsedS = g_limitS > 0 ? g_limitS : g_elapsedS;
        d.timeout = toJson(timedOut);
        g_published.store(next);
    } catch (...) {
        // keep the previous documents (out of memory while serialising)
    }
}

void emitPublished(std::string Documents::*which)
{
    bool expected = false;
    if (g_printed.compare_exchange_strong(expected, true)) {
        const int slot = g_published.load();
        if (slot >= 0) {
            const std::string& doc = g_slots[slot].*which;
            writeAll(doc.data(), doc.size());
        }
    }
}

extern "C" void onFatalSignal(int)
{
    emitPublished(&Documents::crash);
    _exit(1);
}

extern "C" void onInterrupt(int)
{
    emitPublished(&Documents::interrupted);
    _exit(1);
}

} // namespace

void setBase(const Report& base, double watchdogLimitS)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_base = base;
    g_limitS = watchdogLimitS;
    g_elapsedS = base.elapsedS;
    prepare();
}

void startGpu(const GpuReport& gpu)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_current = gpu;
    g_stage = "inventory";
    prepare();
}

void stage(int gpu, const std::string& name)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_current && g_current->index == gpu) {
        g_stage = name;
        prepare();
    }
}

void update(const GpuReport& gpu)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_current = gpu;
    prepare();
}

void finishGpu(const GpuReport& gpu)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_base.gpus.push_back(gpu);
    g_current.reset();
    g_stage.clear();
    prepare();
}

void setElapsed(double seconds)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_elapsedS = seconds;
}

bool emit(const std::string& doc)
{
    bool expected = false;
    if (!g_printed.compare_exchange_strong(expected, true))
        return false;
    writeAll(doc.data(), doc.size());
    return true;
}

void installSignalHandlers()
{
    struct sigaction fatal
    { };
    fatal.sa_handler = onFatalSignal;
    sigemptyset(&fatal.sa_mask);
    fatal.sa_flags = SA_RESETHAND;
    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        sigaction(s, &fatal, nullptr);
    struct sigaction interrupt
    { };
    interrupt.sa_handler = onInterrupt;
    sigemptyset(&interrupt.sa_mask);
    for (int s : {SIGTERM, SIGHUP, SIGINT})
        sigaction(s, &interrupt, nullptr);
}

void emitTimeoutAndExit()
{
    emitPublished(&Documents::timeout);
    _exit(1);
}

} // namespace probe::progress
