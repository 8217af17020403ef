#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/probe/Checks.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// The schema tag of the probe's JSON document (cuda_probe/README.md).
inline constexpr const char* kProbeSchema = "gpuplan-probe/1";

/// An error the probe reported: `code` is one of the probe's stable codes (no_driver, driver_too_old,
/// no_device, nvml_unavailable, bad_arguments, internal; a newer probe may add more), `message` plain English.
struct ProbeError
{
    std::string code;
    std::string message;
    std::optional<int> gpu; // the GPU being measured when it happened (timeout, interrupted, crashed)
    std::string stage;      // the test in progress then ("gemm_bf16"); empty when not said
};

/// The probe binary itself.
struct ProbeBuild
{
    std::string version;
    std::string mode;                       // "quick" or "full"
    int cudaRuntime = 0;                    // CUDA runtime the binary was built with, e.g. 13000 for 13.0
    std::vector<std::string> architectures; // "sm_75", ..., "compute_90"
};

struct ProbeDriver
{
    std::optional<std::string> version; // from NVML, "570.86.15"; nullopt when NVML could not say
    int cudaVersion = 0;                // from cudaDriverGetVersion; 0 when there is no driver
};

struct ProbeClocks
{
    std::optional<int> smMaxMhz;
    std::optional<int> memoryMaxMhz;
    std::optional<int> smUnderLoadMhz;
};

struct ProbePower
{
    std::optional<double> limitW; // enforced
    std::optional<double> defaultLimitW;
    std::optional<double> underLoadW;
    /// How underLoadW was read: "energy" (the energy counter over each timed GEMM region, the highest average),
    /// "sampled" (the highest of NVML's power readings, a 1 s average on Ampere and newer), or empty (not said).
    std::string method;
};

/// Clock-event (throttle) reasons over the NVML samples taken while the GPU was busy (gpu_idle clear).
struct ProbeThrottle
{
    int samples = 0;
    std::map<std::string, double> shares; // reason -> fraction of those samples, 0..1
};

struct ProbeTemperature
{
    std::optional<int> currentC;
    std::optional<int> slowdownC;
    std::optional<int> shutdownC;
    std::optional<int> maxUnderLoadC;
};

struct ProbeEcc
{
    bool enabled = false;
    long long volatileCorrected = 0;
    long long volatileUncorrected = 0;
    long long aggregateCorrected = 0;
    long long aggregateUncorrected = 0;
};

/// Pre-Ampere page retirement.
struct ProbeRetiredPages
{
    long long count = 0;
    long long pending = 0; // the schema leaves the type open: true/false is read as 1/0
};

/// Ampere and newer row remapping.
struct ProbeRemappedRows
{
    long long correctable = 0;
    long long uncorrectable = 0;
    bool pending = false;
    bool failure = false;
};

struct ProbePcie
{
    std::optional<int> genMax;
    std::optional<int> widthMax;
    std::optional<int> genUnderLoad; // read during a host-to-device copy
    std::optional<int> widthUnderLoad;
};

/// One test's figures; `skipped` holds the reason instead when it could not run.
struct ProbeMeasurement
{
    std::string name;            // fp32_fma, gemm_bf16, dram_copy, h2d_pinned, ...
    std::optional<Check> test;   // the catalogue's check of that name; nullopt for a test this build does not know
    std::string unit;            // "TFLOPS" or "GB/s"
    std::string method;          // cublaslt, wmma, fma, copy, triad, pinned, peer
    std::optional<double> value; // median; nullopt when skipped, or null (the probe writes NaN as null)
    std::optional<double> min;
    std::optional<double> max;
    int repetitions = 0;
    std::string shape;
    std::optional<std::string> skipped;
    /// Reported but never judged against a threshold (our own GEMM kernel until a device check has validated it).
    bool informational = false;
    std::optional<int> peer; // p2p: the GPU written to
    std::string link;        // p2p: "nvlink", "pcie" or "staged" (no peer access: through the host)
};

/// One point of the burn-in's trajectory, about once a second.
struct ProbeBurnPoint
{
    double tS = 0;
    std::optional<int> smMhz;
    std::optional<double> powerW;
    std::optional<int> temperatureC;
    std::optional<double> tflops;
};

/// A GPU under sustained GEMM load (`gpuplan-probe --burn SECONDS`).
struct ProbeBurn
{
    double seconds = 0;
    long long gemms = 0;
    long long wrongResults = 0; // outputs that differ from the first result of the same inputs
    long long nanCount = 0;
    std::optional<long long> xidErrors; // nullopt: NVML events unavailable
    std::vector<long long> xids;
    std::optional<double> tflopsFirst; // averages over the first, last and slowest tenth of the run
    std::optional<double> tflopsLast;
    std::optional<double> tflopsMin;
    std::optional<ProbeThrottle> throttle;
    std::vector<ProbeBurnPoint> trajectory;
};

/// A shared library the probe loaded at run time (cuBLASLt, NCCL).
struct ProbeLibrary
{
    std::string path;
    long long version = 0;
};

struct ProbeLibraries
{
    std::optional<ProbeLibrary> cublasLt;
    std::string cublasLtProblem; // why none was used; empty when one was, or the probe did not say
    std::optional<ProbeLibrary> nccl;
    std::string ncclProblem;
};

struct ProbeCorrectness
{
    bool repeatIdentical = false;
    long long nanCount = 0;
    std::optional<double> maxRelativeError; // null when not finite or not measured
    std::optional<double> tolerance;        // null when the check did not run
    bool ok = false;
};

/// One GPU as the probe saw it.
struct ProbeGpu
{
    int index = 0;
    std::string name; // NVML's, e.g. "NVIDIA A100-SXM4-80GB"
    std::string uuid;
    std::string computeCapability; // "8.0"
    long long memoryTotalMib = 0;
    ProbeClocks clocks;
    ProbePower power;
    ProbeTemperature temperature;
    std::optional<ProbeEcc> ecc;
    std::optional<ProbeRetiredPages> retiredPages;
    std::optional<ProbeRemappedRows> remappedRows;
    std::optional<ProbePcie> pcie;
    std::optional<bool> migEnabled;
    std::vector<std::string> throttleReasons; // during the GEMM test
    std::optional<ProbeThrottle> throttle;    // the same per sample; nullopt from probes before it
    std::optional<std::string> parentName;    // a MIG slice: the physical GPU's name (then `name` is the slice's)
    std::optional<int> hostNumaNode;          // the NUMA node the host-device copies ran on
    std::optional<ProbeBurn> burn;            // only with --burn
    std::vector<ProbeMeasurement> measurements;
    std::optional<ProbeCorrectness> correctness; // absent only when `error` says why
    std::optional<ProbeError> error;             // when this GPU could not be measured

    /// The measurement of that name, or nullptr.
    const ProbeMeasurement* measurement(std::string_view name) const;
    /// The measurement of that check, or nullptr.
    const ProbeMeasurement* measurement(Check test) const;
};

/// The probe's whole document, schema gpuplan-probe/1.
struct ProbeResult
{
    ProbeBuild probe;
    ProbeDriver driver;
    bool ok = false;
    std::optional<ProbeError> error; // when the probe could not run at all
    std::vector<ProbeGpu> gpus;
    std::optional<double> elapsedS;
    ProbeLibraries libraries;
    std::vector<ProbeMeasurement> multiGpu; // tests across the machine's GPUs (nccl_allreduce)
    std::optional<int> burnSeconds;         // the burn-in asked for, when it was
};

/// Reads the probe's output. `output` is what came back on stdout: the JSON document, possibly after
/// other text (a login banner, a shell's messages) and before trailing text; the document starts on the
/// first line that begins with '{' and parses. `where` names the source in errors (host, file).
/// Members the schema does not name are ignored, so that a probe of the same schema may add fields.
/// Errors: JsonSyntax (no JSON object at all, invalid or truncated JSON, with line:column of `output`),
/// SchemaViolation (wrong schema tag, a missing field or one of the wrong type; `where` is
/// "<where>: <JSON path>" of the first problem, the detail counts the others). Never throws.
/// Thread safety: reentrant.
Result<ProbeResult> parseProbeResult(std::string_view output, const std::string& where);

} // namespace gpuplan::core
