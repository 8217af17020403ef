// The burn-in: wrong results and Xid errors under sustained load, the speed it holds, and its throttling.
#include "probe/VerdictJudge.h"

namespace gpuplan::core::verdict {

namespace {

/// Burn-in: the last tenth of the run against the first. Sustained load costs a healthy data-center GPU a few
/// percent as it warms up; our choice, to be checked against device checks (docs/probe-results.md).
constexpr double kBurnWarnRatio = 0.90;
constexpr double kBurnFailRatio = 0.80;

} // namespace

/// The burn-in: wrong results or Xid errors fail a GPU; so does a GPU that slows down under sustained load.
void Judge::judgeBurn(const ProbeGpu& gpu)
{
    if (!gpu.burn) {
        return;
    }
    const ProbeBurn& b = *gpu.burn;
    const std::map<std::string, std::string> counts = {{"seconds", reasonNumber(b.seconds)},
                                                       {"gemms", std::to_string(b.gemms)},
                                                       {"wrong", std::to_string(b.wrongResults)},
                                                       {"nan", std::to_string(b.nanCount)},
                                                       {"xid", b.xidErrors ? std::to_string(*b.xidErrors) : ""}};
    // "figure.burn": the counts; xid is empty where NVML's events were unavailable.
    const Reason measured = reason("figure.burn", counts);
    if (b.wrongResults > 0 || b.nanCount > 0) {
        std::map<std::string, std::string> params = counts;
        params["uuid"] = gpu.uuid; // the GPU to report
        add(Check::BurnErrors,
            gpu.index,
            VerdictLevel::Fail,
            measured,
            figure("figure.burn_clean"),
            reason("probe.burn.wrong_results", params));
    } else if (b.xidErrors && *b.xidErrors > 0) {
        std::map<std::string, std::string> params = counts;
        std::string xids;
        for (long long x : b.xids) {
            xids += (xids.empty() ? "" : ", ") + std::to_string(x);
        }
        params["xids"] = xids;
        add(Check::BurnErrors,
            gpu.index,
            VerdictLevel::Fail,
            measured,
            figure("figure.no_xid"),
            reason("probe.burn.xid", params));
    } else {
        add(Check::BurnErrors,
            gpu.index,
            VerdictLevel::Pass,
            measured,
            figure("figure.burn_clean_no_xid"),
            reason("probe.burn.ok", counts));
    }
    if (b.tflopsFirst && b.tflopsLast && *b.tflopsFirst > 0) {
        const double ratio = *b.tflopsLast / *b.tflopsFirst;
        const std::map<std::string, std::string> params = {{"first", reasonNumber(*b.tflopsFirst)},
                                                           {"last", reasonNumber(*b.tflopsLast)},
                                                           {"ratio", reasonNumber(ratio)}};
        const Reason speed = reason("figure.burn_speed", params);
        const Reason expected = reason(
            "figure.ratio_threshold", {{"pass", reasonNumber(kBurnWarnRatio)}, {"fail", reasonNumber(kBurnFailRatio)}});
        const VerdictLevel level = ratio >= kBurnWarnRatio  ? VerdictLevel::Pass
                                   : ratio < kBurnFailRatio ? VerdictLevel::Fail
                                                            : VerdictLevel::Warn;
        const char* key = level == VerdictLevel::Pass   ? "probe.burn.steady"
                          : level == VerdictLevel::Fail ? "probe.burn.slowdown"
                                                        : "probe.burn.sags";
        add(Check::BurnSpeed, gpu.index, level, speed, expected, reason(key, params));
    }
    if (b.throttle) {
        judgeThrottleShares(Check::BurnThrottle, gpu.index, *b.throttle, "burn");
    }
}

} // namespace gpuplan::core::verdict
