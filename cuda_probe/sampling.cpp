#include "sampling.h"

#include <algorithm>

namespace probe::sampling {

std::optional<double> regionAverageW(const EnergyRegion& region)
{
    if (!region.startMj || !region.endMj || !(region.seconds >= kMinRegionSeconds))
        return std::nullopt;
    if (*region.endMj < *region.startMj)
        return std::nullopt;
    return static_cast<double>(*region.endMj - *region.startMj) / 1000.0 / region.seconds;
}

std::optional<double> highestAverageW(const std::vector<EnergyRegion>& regions)
{
    std::optional<double> best;
    for (const auto& r : regions)
        if (auto w = regionAverageW(r))
            best = std::max(best.value_or(0.0), *w);
    return best;
}

namespace {
const std::pair<unsigned long long, const char*> kReasons[] = {{0x1ull, "gpu_idle"},
                                                               {0x2ull, "applications_clocks"},
                                                               {0x4ull, "sw_power_cap"},
                                                               {0x8ull, "hw_slowdown"},
                                                               {0x10ull, "sync_boost"},
                                                               {0x20ull, "sw_thermal"},
                                                               {0x40ull, "hw_thermal"},
                                                               {0x80ull, "hw_power_brake"},
                                                               {0x100ull, "display_clocks"}};
} // namespace

std::vector<std::string> reasonNames(unsigned long long bits)
{
    std::vector<std::string> out;
    for (const auto& [bit, name] : kReasons)
        if (bits & bit)
            out.emplace_back(name);
    return out;
}

ThrottleStats throttleStats(const std::vector<unsigned long long>& reasonSamples)
{
    ThrottleStats stats;
    unsigned long long seen = 0;
    std::vector<int> counts(sizeof kReasons / sizeof kReasons[0], 0);
    for (unsigned long long bits : reasonSamples) {
        if (bits & kGpuIdle)
            continue; // between kernels: not a sample of the GPU under load
        ++stats.samples;
        seen |= bits;
        for (size_t i = 0; i < counts.size(); ++i)
            if (bits & kReasons[i].first)
                ++counts[i];
    }
    for (size_t i = 0; i < counts.size(); ++i)
        if (counts[i] > 0)
            stats.shares.emplace_back(kReasons[i].second, static_cast<double>(counts[i]) / stats.samples);
    stats.reasons = reasonNames(seen);
    return stats;
}

const char* linkKind(bool peerAccess, bool nativeAtomics, bool activeNvlink)
{
    if (!peerAccess)
        return "staged";
    return nativeAtomics && activeNvlink ? "nvlink" : "pcie";
}

} // namespace probe::sampling
