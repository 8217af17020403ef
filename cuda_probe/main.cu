// gpuplan-probe: checks this machine's GPUs and prints exactly one JSON document on stdout, whatever happens
// (schema gpuplan-probe/1 in README.md; methods in ../shared/reference/cuda_probe.md). Exit 0 when every
// selected GPU was inventoried and measured, 1 otherwise.
#include "measure.h"
#include "nvml.h"
#include "probe.h"

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <thread>
#include <unistd.h>

#ifndef PROBE_VERSION
#define PROBE_VERSION "1.0.0"
#endif
#ifndef PROBE_ARCHITECTURES
#define PROBE_ARCHITECTURES ""
#endif

namespace {

using probe::Report;
using Clock = std::chrono::steady_clock;

// One document only: whoever prints first (main, the watchdog, a crash handler) wins.
std::atomic<bool> g_printed{false};
// Prepared documents for the watchdog and for fatal signals (a signal handler can only write()).
std::string g_crashDocs[2];
std::atomic<const char*> g_crashDoc{nullptr};
std::atomic<size_t> g_crashDocLength{0};

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

bool emit(const std::string& doc)
{
    bool expected = false;
    if (!g_printed.compare_exchange_strong(expected, true))
        return false;
    writeAll(doc.data(), doc.size());
    return true;
}

extern "C" void onFatalSignal(int)
{
    bool expected = false;
    if (g_printed.compare_exchange_strong(expected, true)) {
        const char* doc = g_crashDoc.load();
        if (doc)
            writeAll(doc, g_crashDocLength.load());
    }
    _exit(1);
}

std::vector<std::string> architectures()
{
    std::vector<std::string> out;
    std::stringstream list(PROBE_ARCHITECTURES);
    std::string item;
    while (std::getline(list, item, ','))
        if (!item.empty())
            out.push_back(item);
    return out;
}

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Prepares the fallback document with the facts known so far (slot 0: crash, 1: time-out).
void prepareFallbacks(const Report& base, Clock::time_point start)
{
    Report crash = base;
    crash.ok = false;
    crash.gpus.clear();
    crash.errorCode = "internal";
    crash.errorMessage = "the probe crashed (fatal signal) before it could report";
    crash.elapsedS = secondsSince(start);
    std::string doc = probe::toJson(crash);
    // Swap in the new text without ever pointing at a string being rewritten.
    const int slot = g_crashDoc.load() == g_crashDocs[0].c_str() ? 1 : 0;
    g_crashDocs[slot] = doc;
    g_crashDocLength = g_crashDocs[slot].size();
    g_crashDoc = g_crashDocs[slot].c_str();
}

bool parseArguments(int argc, char** argv, probe::Options& options, std::string& problem)
{
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--quick") {
            options.quick = true;
        } else if (arg == "--gpu" || arg.rfind("--gpu=", 0) == 0) {
            std::string value;
            if (arg == "--gpu") {
                if (i + 1 >= argc) {
                    problem = "--gpu needs a value: a GPU index or 'all'";
                    return false;
                }
                value = argv[++i];
            } else {
                value = arg.substr(6);
            }
            if (value == "all") {
                options.gpu = -1;
                continue;
            }
            char* end = nullptr;
            errno = 0;
            const long n = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || errno != 0 || n < 0 || n > 1024) {
                problem = "--gpu expects a GPU index (0, 1, ...) or 'all', not '" + value + "'";
                return false;
            }
            options.gpu = static_cast<int>(n);
        } else {
            problem = "unknown argument '" + arg + "' (usage: gpuplan-probe [--quick] [--gpu N|all])";
            return false;
        }
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    const Clock::time_point start = Clock::now();
    Report report;
    report.version = PROBE_VERSION;
    report.architectures = architectures();
    // Static cudart: works without a driver (CUDA 11's may still answer 0; the build's version is the same).
    if (cudaRuntimeGetVersion(&report.cudaRuntime) != cudaSuccess || report.cudaRuntime <= 0)
        report.cudaRuntime = CUDART_VERSION;
    cudaDriverGetVersion(&report.driverCudaVersion); // 0 when no driver is installed

    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        std::signal(s, onFatalSignal);
    prepareFallbacks(report, start);

    probe::Options options;
    std::string problem;
    if (!parseArguments(argc, argv, options, problem)) {
        report.ok = false;
        report.quick = options.quick;
        report.errorCode = "bad_arguments";
        report.errorMessage = problem;
        report.elapsedS = secondsSince(start);
        emit(probe::toJson(report));
        return 1;
    }
    report.quick = options.quick;
    prepareFallbacks(report, start);

    // NVML first: it names the driver even when CUDA cannot start.
    std::string nvmlProblem;
    const bool haveNvml = probe::nvml::load(&nvmlProblem);
    report.driverVersion = probe::nvml::driverVersion();
    prepareFallbacks(report, start);

    int deviceCount = 0;
    const cudaError_t status = cudaGetDeviceCount(&deviceCount);
    if (status != cudaSuccess || deviceCount == 0) {
        report.ok = false;
        const std::string cudaText = status == cudaSuccess
                                         ? std::string("no CUDA device")
                                         : std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
        if (report.driverCudaVersion == 0) {
            report.errorCode = "no_driver";
            report.errorMessage = "no NVIDIA driver found (libcuda.so.1 missing or not loadable; " + cudaText + ")";
        } else if (status == cudaErrorInsufficientDriver
                   || report.driverCudaVersion / 1000 < report.cudaRuntime / 1000) {
            report.errorCode = "driver_too_old";
            report.errorMessage = "the driver supports CUDA " + std::to_string(report.driverCudaVersion / 1000) + "."
                                  + std::to_string(report.driverCudaVersion % 1000 / 10) + " but this probe needs CUDA "
                                  + std::to_string(report.cudaRuntime / 1000) + "."
                                  + std::to_string(report.cudaRuntime % 1000 / 10) + " (" + cudaText + ")";
        } else if (status == cudaSuccess || status == cudaErrorNoDevice) {
            report.errorCode = "no_device";
            report.errorMessage = "the driver is present but sees no CUDA device (" + cudaText + ")";
        } else if (status == cudaErrorSystemDriverMismatch || status == cudaErrorInitializationError
                   || status == cudaErrorUnknown || status == cudaErrorOperatingSystem) {
            // libcuda is there but the kernel driver is not loaded or does not match it.
            report.errorCode = "no_driver";
            report.errorMessage = "the NVIDIA driver could not be initialised (" + cudaText + ")";
        } else {
            report.errorCode = "no_device";
            report.errorMessage = "no usable CUDA device (" + cudaText + ")";
        }
        report.elapsedS = secondsSince(start);
        emit(probe::toJson(report));
        probe::nvml::shutdown();
        return 1;
    }

    std::vector<int> selected;
    if (options.gpu < 0) {
        for (int i = 0; i < deviceCount; ++i)
            selected.push_back(i);
    } else if (options.gpu < deviceCount) {
        selected.push_back(options.gpu);
    } else {
        report.ok = false;
        report.errorCode = "bad_arguments";
        report.errorMessage = "--gpu " + std::to_string(options.gpu) + ": this machine has "
                              + std::to_string(deviceCount) + " GPU(s), numbered from 0";
        report.elapsedS = secondsSince(start);
        emit(probe::toJson(report));
        probe::nvml::shutdown();
        return 1;
    }
    if (!haveNvml) {
        // Inventory only: the measurements still run.
        report.errorCode = "nvml_unavailable";
        report.errorMessage = "NVML is unavailable (" + nvmlProblem
                              + "): names, clocks, power, temperature, ECC and PCIe link are partly or wholly missing";
    }

    // Watchdog: a hung kernel or driver call must still end in one document.
    const double limitS = (options.quick ? 40.0 : 150.0) * static_cast<double>(selected.size()) + 30.0;
    {
        Report timedOut = report;
        timedOut.ok = false;
        timedOut.errorCode = "internal";
        timedOut.errorMessage = "the probe did not finish within " + std::to_string(static_cast<int>(limitS))
                                + " s (a GPU or driver call hung)";
        std::thread([timedOut, limitS, start]() mutable {
            std::this_thread::sleep_for(std::chrono::duration<double>(limitS));
            timedOut.elapsedS = secondsSince(start);
            if (emit(probe::toJson(timedOut)))
                _exit(1);
        }).detach();
    }

    bool allMeasured = true;
    for (int index : selected) {
        probe::GpuReport gpu;
        probe::measureGpu(index, deviceCount, options, gpu);
        allMeasured = allMeasured && gpu.errorCode.empty() && !gpu.measurements.empty();
        report.gpus.push_back(std::move(gpu));
    }
    report.ok = allMeasured;
    report.elapsedS = secondsSince(start);
    const std::string doc = probe::toJson(report);
    emit(doc);
    probe::nvml::shutdown();
    return allMeasured ? 0 : 1;
}
