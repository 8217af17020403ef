#pragma once

#include "gpuplan/core/Result.h"

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
    std::string unit;            // "TFLOPS" or "GB/s"
    std::string method;          // cublaslt, wmma, fma, copy, triad, pinned, peer
    std::optional<double> value; // median; nullopt when skipped, or null (the probe writes NaN as null)
    std::optional<double> min;
    std::optional<double> max;
    int repetitions = 0;
    std::string shape;
    std::optional<std::string> skipped;
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
    std::vector<ProbeMeasurement> measurements;
    std::optional<ProbeCorrectness> correctness; // absent only when `error` says why
    std::optional<ProbeError> error;             // when this GPU could not be measured

    /// The measurement of that name, or nullptr.
    const ProbeMeasurement* measurement(std::string_view name) const;
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
