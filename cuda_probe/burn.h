// Burn-in (--burn SECONDS, like gpu-burn): every selected GPU runs 8192^3 FP16 GEMMs at once for the requested
// time, each output compared bitwise with the first result of the same inputs, NaNs counted, and once a second
// NVML's clocks, power, temperature and throttle reasons sampled, with Xid errors from NVML events.
#pragma once

#include "cublaslt.h"
#include "probe.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace probe::burn {

// Runs on all `devices` (CUDA ordinals) at once, one host thread each, for `seconds`; stops within ~2 s of the
// deadline. `nvmlDevices[i]` is the NVML handle of devices[i] (nullptr or a short vector: no NVML figures).
// `api` null: the probe's WMMA kernel instead of cuBLASLt. One report per device, in order. Never throws.
std::vector<Burn>
run(const std::vector<int>& devices, double seconds, const std::vector<void*>& nvmlDevices, const lt::Api* api);

// --- pure helpers (unit-tested without a GPU) ---------------------------------------------------------
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
