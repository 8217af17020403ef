#include "progress.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
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

// 0: nothing printed yet, 1: a document is being written, 2: written. Only the thread that moves it from 0 to 1
// writes; nothing is printed after that.
constexpr int kNone = 0, kWriting = 1, kWritten = 2;
std::atomic<int> g_printed{kNone};
std::atomic<int> g_out{STDOUT_FILENO}; // the real stdout (claimStdout)
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
        const ssize_t n = ::write(g_out.load(), data, length);
        if (n < 0 && errno == EINTR)
            continue;
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
    if (g_printed.load() != kNone)
        return; // a handler may be reading the published slot; nothing will be printed again anyway
    try {
        const int next = g_published.load() == 0 ? 1 : 0;
        Documents& d = g_slots[next];
        auto document = [](const char* code, const std::string& message, double elapsedS) {
            Report report = abnormalReport(g_base, g_current, g_stage, code, message);
            report.elapsedS = elapsedS;
            return toJson(report);
        };
        d.crash =
            document("crashed", "the probe crashed (fatal signal)" + where() + "; results so far kept", g_elapsedS);
        d.interrupted =
            document("interrupted",
                     "the probe was interrupted (SIGTERM, SIGHUP or SIGINT)" + where() + "; results so far kept",
                     g_elapsedS);
        d.timeout = document("timeout",
                             "the probe did not finish within " + std::to_string(static_cast<int>(g_limitS)) + " s"
                                 + (g_current ? where() + ": a GPU or driver call hung" : "") + "; results so far kept",
                             g_limitS > 0 ? g_limitS : g_elapsedS);
        g_published.store(next);
    } catch (...) {
        // keep the previous documents (out of memory while serialising)
    }
}

// Async-signal-safe: atomics, write() and nothing else. False when another document was printed or is being printed.
bool emitPublished(std::string Documents::*which)
{
    int expected = kNone;
    if (!g_printed.compare_exchange_strong(expected, kWriting))
        return false;
    const int slot = g_published.load();
    if (slot >= 0) {
        const std::string& doc = g_slots[slot].*which;
        writeAll(doc.data(), doc.size());
    }
    g_printed.store(kWritten);
    return true;
}

extern "C" void onFatalSignal(int)
{
    emitPublished(&Documents::crash);
    _exit(1);
}

extern "C" void onInterrupt(int)
{
    // While another document is being written (the final one, most likely on this very thread), let it finish:
    // the probe exits right after it anyway.
    if (!emitPublished(&Documents::interrupted) && g_printed.load() == kWriting)
        return;
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

void phase(const std::string& name)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_current.reset();
    g_stage = name;
    prepare();
}

void claimStdout()
{
    const int saved = ::dup(STDOUT_FILENO);
    if (saved < 0)
        return; // no stdout to keep (closed): the documents go wherever fd 1 goes
    if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        ::close(saved);
        return;
    }
    g_out.store(saved);
}

bool emit(const std::string& doc)
{
    int expected = kNone;
    if (!g_printed.compare_exchange_strong(expected, kWriting))
        return false;
    writeAll(doc.data(), doc.size());
    g_printed.store(kWritten);
    return true;
}

void installSignalHandlers()
{
    struct sigaction fatal
    { };
    // The main thread's handler runs on its own stack, so a stack overflow (SIGSEGV) still prints the document.
    static char alternate[64 * 1024];
    stack_t stack{};
    stack.ss_sp = alternate;
    stack.ss_size = sizeof alternate;
    const bool haveStack = sigaltstack(&stack, nullptr) == 0;
    fatal.sa_handler = onFatalSignal;
    sigemptyset(&fatal.sa_mask);
    fatal.sa_flags = SA_RESETHAND | (haveStack ? SA_ONSTACK : 0);
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
    if (!emitPublished(&Documents::timeout)) {
        // The main thread (or a signal handler) is writing its document: let it finish (a slow reader on the
        // pipe), for at most 10 s, rather than cut it in half.
        for (int i = 0; i < 1000 && g_printed.load() == kWriting; ++i) {
            const timespec tenMs{0, 10 * 1000 * 1000};
            nanosleep(&tenMs, nullptr);
        }
    }
    _exit(1);
}

} // namespace probe::progress
