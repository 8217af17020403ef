// What the NVML samples taken during the load tests mean: power from energy counters, throttle shares.
// Pure functions, tested without a GPU (tests/probe).
#pragma once

#include "probe.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace probe::sampling {

// nvmlDeviceGetTotalEnergyConsumption (mJ since the driver loaded) read at both ends of one timed region.
struct EnergyRegion
{
    std::optional<unsigned long long> startMj, endMj; // empty: the read failed
    double seconds = 0;                               // host wall time between the two reads
};

// Regions shorter than this are ignored: the energy counter advances in steps of tens of milliseconds.
constexpr double kMinRegionSeconds = 0.05;

// Average power of one region (dE/dt), empty when a read is missing, the region is too short or the counter
// went backwards (reset by a driver reload; a 64-bit mJ counter does not wrap in practice).
std::optional<double> regionAverageW(const EnergyRegion& region);
// The highest region average: power.under_load_w with method "energy".
std::optional<double> highestAverageW(const std::vector<EnergyRegion>& regions);

// NVML clocks-event reason bits as the probe names them, in bit order.
std::vector<std::string> reasonNames(unsigned long long bits);

constexpr unsigned long long kGpuIdle = 0x1ull;

// Throttle statistics over per-sample reason bits: only samples under load (gpu_idle clear) count. The samples and
// shares are the document's `throttle` object; `reasons` its union, `throttle_reasons`.
struct ThrottleStats : Throttle
{
    std::vector<std::string> reasons;
};
ThrottleStats throttleStats(const std::vector<unsigned long long>& reasonSamples);

// How a peer copy travels: "nvlink" when the pair has native peer access and atomics and NVML reports an active
// NVLink, "pcie" for other peer access, "staged" when there is no peer access (the driver copies through host).
const char* linkKind(bool peerAccess, bool nativeAtomics, bool activeNvlink);

} // namespace probe::sampling
