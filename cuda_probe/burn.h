// Burn-in (--burn SECONDS, like gpu-burn): every selected GPU runs 8192^3 FP16 GEMMs at once for the requested
// time, each output compared bitwise with the first result of the same inputs, NaNs counted, and once a second
// NVML's clocks, power, temperature and throttle reasons sampled, with Xid errors from NVML events.
#pragma once

#include "cublaslt.h"

#include <nlohmann/json_fwd.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace probe::burn {

struct Sample
{
    double tS = 0; // seconds since the burn started on this GPU
    std::optional<int> smMhz;
    std::optional<double> powerW;
    std::optional<int> tempC;
    std::optional<double> tflops; // over the GEMMs that finished since the previous sample
};

// Shares of the under-load NVML samples (gpu_idle bit clear) that carry each throttle reason.
struct Throttle
{
    int samples = 0;
    std::vector<std::pair<std::string, double>> shares; // only reasons seen, in bit order
};

struct BurnReport
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
    std::vector<Sample> trajectory;
    std::string error; // non-empty: the burn stopped on this failure (CUDA error message)
};

// Runs on all `devices` (CUDA ordinals) at once, one host thread each, for `seconds`; stops within ~2 s of the
// deadline. `nvmlDevices[i]` is the NVML handle of devices[i] (nullptr or a short vector: no NVML figures).
// `api` null: the probe's WMMA kernel instead of cuBLASLt. One report per device, in order. Never throws.
std::vector<BurnReport>
run(const std::vector<int>& devices, double seconds, const std::vector<void*>& nvmlDevices, const lt::Api* api);

// The per-GPU "burn" object of the schema (burn_json.cpp).
nlohmann::ordered_json toJson(const BurnReport& report);
// {"samples": n, "shares": {reason: fraction}}; also the per-GPU "throttle" object.
nlohmann::ordered_json toJson(const Throttle& throttle);

// --- pure helpers (unit-tested without a GPU) ---------------------------------------------------------
// NVML clocks-event reason bits as the probe names them (throttle_reasons).
std::vector<std::string> reasonNames(unsigned long long bits);
Throttle throttleShares(const std::vector<unsigned long long>& reasonSamples);

struct Windows
{
    double first = NAN, last = NAN, min = NAN;
};
// Averages over the first, the last and the slowest window of ceil(10 %) of a per-second TFLOPS series
// (at least one sample each); NaN entries are ignored; all NaN when the series holds no finite value.
Windows windows(const std::vector<double>& perSecondTflops);

// How many output buffers to rotate through: fill up to `fraction` of free memory, at least 1, at most `cap`.
int outputBuffers(size_t freeBytes, size_t bytesPerOutput, size_t reservedBytes, double fraction, int cap);

} // namespace probe::burn
