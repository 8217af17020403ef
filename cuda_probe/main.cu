// gpuplan-probe: checks this machine's GPUs and prints exactly one JSON document on stdout, whatever happens
// (schema gpuplan-probe/1 in README.md; methods in ../shared/reference/cuda_probe.md). Exit 0 when every
// selected GPU was inventoried and measured, 1 otherwise.
#include "burn.h"
#include "cublaslt.h"
#include "errors.h"
#include "measure.h"
#include "nccl.h"
#include "nvml.h"
#include "probe.h"
#include "progress.h"

#include <nlohmann/json.hpp>

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
#define PROBE_VERSION "1.1.0"
#endif
#ifndef PROBE_ARCHITECTURES
#define PROBE_ARCHITECTURES ""
#endif

namespace {

using probe::Report;
using Clock = std::chrono::steady_clock;

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

// The watchdog's deadline (steady-clock ticks), moved as the run learns how many GPUs it has; armed before the
// first driver call, since cuInit itself can hang (a GPU fallen off the bus, an NVSwitch system half up).
std::atomic<long long> g_deadline{0};

void setDeadline(Clock::time_point start, double limitS)
{
    g_deadline.store((start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limitS)))
                         .time_since_epoch()
                         .count());
}

void startWatchdog()
{
    std::thread([] {
        for (;;) {
            const Clock::time_point deadline{Clock::duration(g_deadline.load())};
            const Clock::time_point now = Clock::now();
            if (now >= deadline)
                probe::progress::emitTimeoutAndExit();
            std::this_thread::sleep_for(std::min<Clock::duration>(deadline - now, std::chrono::seconds(1)));
        }
    }).detach();
}

// After the one document: leave at once. Static destructors and the CUDA runtime's teardown could block on a
// GPU that hung (and the detached watchdog would then turn an "ok" run into exit 1).
[[noreturn]] void finish(int code)
{
    _exit(code);
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
        } else if (arg == "--burn" || arg.rfind("--burn=", 0) == 0) {
            std::string value;
            if (arg == "--burn") {
                if (i + 1 >= argc) {
                    problem = "--burn needs a value: seconds (1..86400)";
                    return false;
                }
                value = argv[++i];
            } else {
                value = arg.substr(7);
            }
            char* end = nullptr;
            errno = 0;
            const long n = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || errno != 0 || n < 1 || n > 86400) {
                problem = "--burn expects seconds from 1 to 86400, not '" + value + "'";
                return false;
            }
            options.burnSeconds = static_cast<int>(n);
        } else {
            problem = "unknown argument '" + arg + "' (usage: gpuplan-probe [--quick] [--gpu N|all] [--burn SECONDS])";
            return false;
        }
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    const Clock::time_point start = Clock::now();
    // Fd 1 becomes stderr for everything else; the document goes to the real stdout.
    probe::progress::claimStdout();
    Report report;
    report.version = PROBE_VERSION;
    report.architectures = architectures();
    // Static cudart: works without a driver (CUDA 11's may still answer 0; the build's version is the same).
    if (cudaRuntimeGetVersion(&report.cudaRuntime) != cudaSuccess || report.cudaRuntime <= 0)
        report.cudaRuntime = CUDART_VERSION;
    cudaDriverGetVersion(&report.driverCudaVersion); // 0 when no driver is installed

    // Until the GPUs are counted: NVML and CUDA initialisation get this long.
    constexpr double kInitLimitS = 120.0;
    probe::progress::installSignalHandlers();
    probe::progress::setBase(report, kInitLimitS);

    probe::Options options;
    std::string problem;
    if (!parseArguments(argc, argv, options, problem)) {
        report.ok = false;
        report.quick = options.quick;
        report.errorCode = "bad_arguments";
        report.errorMessage = problem;
        report.elapsedS = secondsSince(start);
        probe::progress::emit(probe::toJson(report));
        finish(1);
    }
    report.quick = options.quick;
    if (options.burnSeconds > 0)
        report.burnSeconds = options.burnSeconds;
    probe::progress::setBase(report, kInitLimitS);
    probe::progress::phase("cuda_init");
    setDeadline(start, kInitLimitS);
    startWatchdog();

    // NVML first: it names the driver even when CUDA cannot start.
    std::string nvmlProblem;
    const bool haveNvml = probe::nvml::load(&nvmlProblem);
    report.driverVersion = probe::nvml::driverVersion();
    probe::progress::setBase(report, kInitLimitS);

    int deviceCount = 0;
    const cudaError_t status = cudaGetDeviceCount(&deviceCount);
    if (status != cudaSuccess || deviceCount == 0) {
        report.ok = false;
        const std::string cudaText = status == cudaSuccess
                                         ? std::string("no CUDA device")
                                         : std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
        const std::string code = probe::errorCode(status);
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
        } else if (code == std::string("system_not_ready")) {
            report.errorCode = code;
            report.errorMessage = "the GPUs are not ready: on NVSwitch systems the fabric manager "
                                  "(nvidia-fabricmanager) is not running or has not finished initialising ("
                                  + cudaText + ")";
        } else if (code == std::string("devices_unavailable")) {
            report.errorCode = code;
            report.errorMessage =
                "the GPUs are busy or their compute mode is exclusive-process or prohibited (" + cudaText + ")";
        } else {
            report.errorCode = code;
            report.errorMessage = "CUDA could not count the GPUs (" + cudaText + ")";
        }
        report.elapsedS = secondsSince(start);
        probe::progress::emit(probe::toJson(report));
        finish(1);
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
        probe::progress::emit(probe::toJson(report));
        finish(1);
    }
    if (!haveNvml) {
        // Inventory only: the measurements still run.
        report.errorCode = "nvml_unavailable";
        report.errorMessage = "NVML is unavailable (" + nvmlProblem
                              + "): names, clocks, power, temperature, ECC and PCIe link are partly or wholly missing";
    }

    // Watchdog: a hung kernel or driver call must still end in one document, with the results so far.
    // Counted from the probe's start (the time-out document reports it as the run time).
    double limitS = secondsSince(start) + (options.quick ? 40.0 : 150.0) * static_cast<double>(selected.size()) + 30.0;
    if (options.burnSeconds > 0)
        limitS += options.burnSeconds + 60.0;
    if (selected.size() >= 2)
        limitS += 60.0; // NCCL all-reduce
    probe::progress::setBase(report, limitS);
    setDeadline(start, limitS);

    bool allMeasured = true;
    for (int index : selected) {
        probe::GpuReport gpu;
        gpu.index = index;
        probe::progress::setElapsed(secondsSince(start));
        probe::progress::startGpu(gpu);
        probe::measureGpu(index, deviceCount, options, gpu);
        allMeasured = allMeasured && gpu.errorCode.empty() && !gpu.measurements.empty();
        probe::progress::setElapsed(secondsSince(start));
        probe::progress::finishGpu(gpu);
        report.gpus.push_back(std::move(gpu));
    }

    // The cuBLASLt actually used (loaded at the first GEMM; a plain FP16 GEMM checked before it was kept).
    std::string ltProblem;
    if (const probe::lt::Api* api = probe::lt::loaded(&ltProblem))
        report.cublaslt = probe::Library{api->path, static_cast<long long>(api->version)};
    else
        report.cublasltProblem = ltProblem.empty() ? "not loaded: no GPU reached the cuBLASLt tests" : ltProblem;

    if (selected.size() >= 2) {
        // Only GPUs measured without error: one with a lost (sticky) context must not be touched again.
        std::vector<int> healthy;
        for (const auto& g : report.gpus)
            if (g.errorCode.empty())
                healthy.push_back(g.index);
        probe::progress::setBase(report, limitS);
        probe::progress::phase("nccl_allreduce");
        probe::nccl::LibraryInfo used;
        probe::Measurement allReduce = probe::nccl::allReduce(healthy, options.quick, &used);
        if (healthy.size() < selected.size() && healthy.size() < 2) {
            allReduce.skipped = "fewer than two GPUs could be measured";
            allReduce.value = allReduce.min = allReduce.max = NAN;
            allReduce.repetitions = 0;
        }
        report.multiGpu = std::vector<probe::Measurement>{allReduce};
        if (!used.path.empty())
            report.nccl = probe::Library{used.path, used.version};
        report.ncclProblem = used.problem;
    } else {
        report.ncclProblem = "not needed: one GPU selected";
    }

    if (options.burnSeconds > 0) {
        probe::progress::setBase(report, limitS);
        probe::progress::phase("burn");
        std::vector<int> burning;
        std::vector<void*> handles;
        for (const auto& g : report.gpus)
            if (g.errorCode.empty()) {
                burning.push_back(g.index);
                handles.push_back(probe::nvmlHandleFor(g.index));
            }
        const auto results =
            probe::burn::run(burning, static_cast<double>(options.burnSeconds), handles, probe::lt::loaded(nullptr));
        for (const auto& b : results)
            for (auto& g : report.gpus)
                if (g.index == b.index) {
                    g.burn = b;
                    if (!b.error.empty())
                        allMeasured = false;
                }
    }

    report.ok = allMeasured;
    report.elapsedS = secondsSince(start);
    const std::string doc = probe::toJson(report);
    probe::progress::emit(doc);
    finish(allMeasured ? 0 : 1); // no nvmlShutdown or CUDA teardown: the process exit releases both
}
