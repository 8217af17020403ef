// Shared types of the probe: what is measured, and how CUDA failures travel (as exceptions).
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace probe {

// A failed CUDA call; carries the error so a GPU can be reported as failed with a readable message.
struct CudaFailure : std::runtime_error
{
    cudaError_t status;
    CudaFailure(cudaError_t s, const std::string& what)
        : std::runtime_error(what)
        , status(s)
    { }
};

[[noreturn]] void throwCuda(cudaError_t status, const char* call, const char* file, int line);

#define PROBE_CUDA(call)                                                 \
    do {                                                                 \
        const cudaError_t probeStatus_ = (call);                         \
        if (probeStatus_ != cudaSuccess)                                 \
            ::probe::throwCuda(probeStatus_, #call, __FILE__, __LINE__); \
    } while (0)

// Checks the launch itself (configuration errors); execution errors surface at the next synchronization.
#define PROBE_LAUNCH() PROBE_CUDA(cudaGetLastError())

struct Measurement
{
    std::string name;
    std::string unit;   // "TFLOPS" or "GB/s"
    std::string method; // cublaslt, wmma, fma, copy, triad, pinned, peer
    std::string shape;
    std::string skipped; // non-empty: the reason, and no figures
    double value = NAN;  // median
    double min = NAN;
    double max = NAN;
    int repetitions = 0;
    std::optional<int> peer;    // p2p: the destination GPU
    std::string link;           // p2p: nvlink, pcie or staged
    bool informational = false; // never fails a verdict (own GEMM)
};

// One checked GEMM output (correctness.checks).
struct CorrectnessCheck
{
    std::string test;
    long long nanCount = 0;
    std::optional<bool> repeatIdentical;    // empty: not run twice
    std::optional<double> maxRelativeError; // empty: not compared with the FP32 reference
};

struct Correctness
{
    bool measured = false;
    bool repeatIdentical = false;
    long long nanCount = 0;
    double maxRelativeError = NAN;
    double tolerance = NAN;
    bool ok = false;
    std::vector<CorrectnessCheck> checks;
};

struct Throttle
{
    int samples = 0;                                    // NVML samples under load (gpu_idle clear)
    std::vector<std::pair<std::string, double>> shares; // reason -> fraction of those samples
};

// One point of the burn-in's trajectory, about once a second.
struct BurnSample
{
    double tS = 0; // seconds since the burn started on this GPU
    std::optional<int> smMhz;
    std::optional<double> powerW;
    std::optional<int> tempC;
    std::optional<double> tflops; // over the GEMMs that finished since the previous sample
};

// One GPU's burn-in (--burn SECONDS, burn.h).
struct Burn
{
    int index = 0;      // CUDA device ordinal
    std::string method; // "cublaslt" or "wmma"
    double seconds = 0; // actually run
    long long gemms = 0;
    long long wrongResults = 0; // GEMM outputs that differ from the first result
    long long nanCount = 0;
    std::optional<long long> xidErrors; // empty: NVML events unavailable
    std::vector<int> xids;
    double tflopsFirst = NAN, tflopsLast = NAN, tflopsMin = NAN;
    Throttle throttle;
    std::vector<BurnSample> trajectory;
    std::string error; // non-empty: the burn stopped on this failure (CUDA error message)
};

struct Ecc
{
    bool enabled = false;
    long long volatileCorrected = 0, volatileUncorrected = 0, aggregateCorrected = 0, aggregateUncorrected = 0;
};
struct RetiredPages
{
    long long count = 0;
    bool pending = false;
};
struct RemappedRows
{
    long long correctable = 0, uncorrectable = 0;
    bool pending = false, failure = false;
};
struct Pcie
{
    std::optional<int> genMax, widthMax, genUnderLoad, widthUnderLoad;
};

struct GpuReport
{
    int index = 0;
    std::string name, uuid, computeCapability;
    long long memoryTotalMib = 0;
    std::optional<int> smMaxMhz, memoryMaxMhz, smUnderLoadMhz;
    std::optional<double> powerLimitW, powerDefaultLimitW, powerUnderLoadW;
    std::string powerMethod; // "energy", "sampled" or empty (null)
    std::optional<int> tempCurrentC, tempSlowdownC, tempShutdownC, tempMaxUnderLoadC;
    std::optional<Ecc> ecc;
    std::optional<RetiredPages> retiredPages;
    std::optional<RemappedRows> remappedRows;
    std::optional<Pcie> pcie;
    std::optional<bool> migEnabled;
    std::optional<std::string> parentName; // MIG: the physical GPU's name
    std::optional<int> hostNumaNode;
    std::vector<std::string> throttleReasons;
    std::optional<Throttle> throttle;
    std::vector<Measurement> measurements;
    Correctness correctness;
    std::string errorCode, errorMessage; // non-empty code: this GPU could not be measured
    std::string errorStage;              // the test it was in then
    std::optional<Burn> burn;            // --burn
};

struct Library
{
    std::string path;
    long long version = 0;
};

struct Report
{
    std::string version;
    bool quick = false;
    int cudaRuntime = 0;
    std::vector<std::string> architectures;
    std::optional<std::string> driverVersion;
    int driverCudaVersion = 0;
    bool ok = false;
    std::string errorCode, errorMessage;
    std::optional<int> errorGpu; // the GPU in progress (timeout, interrupted, crashed)
    std::string errorStage;      // the test in progress
    std::optional<Library> cublaslt, nccl;
    std::string cublasltProblem, ncclProblem;
    std::optional<std::vector<Measurement>> multiGpu; // present with two or more GPUs selected
    std::optional<int> burnSeconds;                   // --burn
    std::vector<GpuReport> gpus;
    double elapsedS = 0;
};

std::string toJson(const Report& report);

struct Options
{
    bool quick = false;
    int gpu = -1;        // -1: all
    int burnSeconds = 0; // --burn; 0: none
};

} // namespace probe
