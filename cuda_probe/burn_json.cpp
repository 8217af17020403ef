// The burn's JSON (schema gpuplan-probe/1, README.md) and its arithmetic, kept apart from the CUDA code so the
// unit tests build them with the host compiler alone.
#include "burn.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace probe::burn {
namespace {

using Json = nlohmann::ordered_json;

constexpr unsigned long long kIdleBit = 0x1ull;

Json number(double v)
{
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}
template <typename T>
Json optional(const std::optional<T>& v)
{
    if (!v)
        return nullptr;
    if constexpr (std::is_floating_point_v<T>)
        return number(*v);
    else
        return Json(*v);
}

} // namespace

std::vector<std::string> reasonNames(unsigned long long bits)
{
    static const std::pair<unsigned long long, const char*> names[] = {{0x1ull, "gpu_idle"},
                                                                       {0x2ull, "applications_clocks"},
                                                                       {0x4ull, "sw_power_cap"},
                                                                       {0x8ull, "hw_slowdown"},
                                                                       {0x10ull, "sync_boost"},
                                                                       {0x20ull, "sw_thermal"},
                                                                       {0x40ull, "hw_thermal"},
                                                                       {0x80ull, "hw_power_brake"},
                                                                       {0x100ull, "display_clocks"}};
    std::vector<std::string> out;
    for (const auto& [bit, name] : names)
        if (bits & bit)
            out.emplace_back(name);
    return out;
}

Throttle throttleShares(const std::vector<unsigned long long>& reasonSamples)
{
    Throttle t;
    unsigned long long seen = 0;
    for (unsigned long long r : reasonSamples)
        if (!(r & kIdleBit)) {
            ++t.samples;
            seen |= r;
        }
    if (t.samples == 0)
        return t;
    for (int bit = 0; bit < 64; ++bit) {
        const unsigned long long mask = 1ull << bit;
        const auto names = reasonNames(mask);
        if (!(seen & mask) || names.empty())
            continue;
        const auto with = std::count_if(reasonSamples.begin(), reasonSamples.end(), [mask](unsigned long long r) {
            return !(r & kIdleBit) && (r & mask);
        });
        t.shares.emplace_back(names.front(), static_cast<double>(with) / t.samples);
    }
    return t;
}

Windows windows(const std::vector<double>& perSecondTflops)
{
    std::vector<double> v;
    for (double x : perSecondTflops)
        if (std::isfinite(x))
            v.push_back(x);
    Windows w;
    if (v.empty())
        return w;
    const size_t n = v.size();
    const size_t width = std::max<size_t>(1, static_cast<size_t>(std::ceil(0.1 * static_cast<double>(n) - 1e-9)));
    auto mean = [&](size_t from) {
        double sum = 0;
        for (size_t i = from; i < from + width; ++i)
            sum += v[i];
        return sum / static_cast<double>(width);
    };
    w.first = mean(0);
    w.last = mean(n - width);
    w.min = w.first;
    for (size_t from = 1; from + width <= n; ++from)
        w.min = std::min(w.min, mean(from));
    return w;
}

int outputBuffers(size_t freeBytes, size_t bytesPerOutput, size_t reservedBytes, double fraction, int cap)
{
    if (bytesPerOutput == 0 || cap < 1)
        return 1;
    const double room = static_cast<double>(freeBytes) * fraction - static_cast<double>(reservedBytes);
    const double fits = std::floor(room / static_cast<double>(bytesPerOutput));
    return static_cast<int>(std::clamp(fits, 1.0, static_cast<double>(cap)));
}

nlohmann::ordered_json toJson(const Throttle& throttle)
{
    Json shares = Json::object();
    for (const auto& [name, share] : throttle.shares)
        shares[name] = number(share);
    Json j;
    j["samples"] = throttle.samples;
    j["shares"] = shares;
    return j;
}

nlohmann::ordered_json toJson(const BurnReport& r)
{
    Json j;
    j["seconds"] = number(r.seconds);
    j["method"] = r.method.empty() ? Json(nullptr) : Json(r.method);
    j["gemms"] = r.gemms;
    j["wrong_results"] = r.wrongResults;
    j["nan_count"] = r.nanCount;
    j["xid_errors"] = optional(r.xidErrors);
    j["xids"] = r.xids;
    j["tflops_first"] = number(r.tflopsFirst);
    j["tflops_last"] = number(r.tflopsLast);
    j["tflops_min"] = number(r.tflopsMin);
    j["throttle"] = toJson(r.throttle);
    Json trajectory = Json::array();
    for (const auto& s : r.trajectory)
        trajectory.push_back({{"t_s", number(s.tS)},
                              {"sm_mhz", optional(s.smMhz)},
                              {"power_w", optional(s.powerW)},
                              {"temp_c", optional(s.tempC)},
                              {"tflops", optional(s.tflops)}});
    j["trajectory"] = trajectory;
    if (!r.error.empty())
        j["error"] = r.error;
    return j;
}

} // namespace probe::burn
