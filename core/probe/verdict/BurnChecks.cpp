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
    const std::string index = std::to_string(gpu.index);
    const std::map<std::string, std::string> counts = {{"seconds", reasonNumber(b.seconds)},
                                                       {"gemms", std::to_string(b.gemms)},
                                                       {"wrong", std::to_string(b.wrongResults)},
                                                       {"nan", std::to_string(b.nanCount)},
                                                       {"xid", b.xidErrors ? std::to_string(*b.xidErrors) : ""}};
    const std::string measured = std::to_string(b.gemms) + " GEMMs in " + fixed(b.seconds, 0) + " s, "
                                 + std::to_string(b.wrongResults) + " wrong, " + std::to_string(b.nanCount)
                                 + " NaN, Xid " + (b.xidErrors ? std::to_string(*b.xidErrors) : "n/a");
    if (b.wrongResults > 0 || b.nanCount > 0) {
        add(Check::BurnErrors,
            gpu.index,
            VerdictLevel::Fail,
            measured,
            "0 wrong, 0 NaN",
            reason("probe.burn.wrong_results",
                   counts,
                   "Under sustained load GPU " + index + " computed " + std::to_string(b.wrongResults)
                       + " wrong result(s) and " + std::to_string(b.nanCount) + " NaN(s) in " + std::to_string(b.gemms)
                       + " GEMMs of the same inputs: it fails when it runs hot or long. Do not train on it; "
                         "terminate the instance and report the GPU ("
                       + gpu.uuid + ")."));
    } else if (b.xidErrors && *b.xidErrors > 0) {
        std::string xids;
        for (long long x : b.xids) {
            xids += (xids.empty() ? "" : ", ") + std::to_string(x);
        }
        std::map<std::string, std::string> params = counts;
        params["xids"] = xids;
        add(Check::BurnErrors,
            gpu.index,
            VerdictLevel::Fail,
            measured,
            "no Xid",
            reason("probe.burn.xid",
                   params,
                   "The driver reported " + std::to_string(*b.xidErrors) + " critical Xid error(s) (" + xids
                       + ") on GPU " + index
                       + " during the burn-in: the GPU or its driver faulted. Terminate the instance and report "
                         "the GPU."));
    } else {
        add(Check::BurnErrors,
            gpu.index,
            VerdictLevel::Pass,
            measured,
            "0 wrong, 0 NaN, no Xid",
            reason("probe.burn.ok",
                   counts,
                   "GPU " + index + " ran " + std::to_string(b.gemms) + " GEMMs in " + fixed(b.seconds, 0)
                       + " s of sustained load with identical results every time."));
    }
    if (b.tflopsFirst && b.tflopsLast && *b.tflopsFirst > 0) {
        const double ratio = *b.tflopsLast / *b.tflopsFirst;
        const std::map<std::string, std::string> params = {{"first", reasonNumber(*b.tflopsFirst)},
                                                           {"last", reasonNumber(*b.tflopsLast)},
                                                           {"ratio", reasonNumber(ratio)}};
        const std::string speed =
            figure(*b.tflopsFirst) + " -> " + figure(*b.tflopsLast) + " TFLOPS (" + ratioText(ratio) + ")";
        const std::string expected = ">= " + ratioText(kBurnWarnRatio) + " (fail < " + ratioText(kBurnFailRatio) + ")";
        if (ratio >= kBurnWarnRatio) {
            add(Check::BurnSpeed,
                gpu.index,
                VerdictLevel::Pass,
                speed,
                expected,
                reason("probe.burn.steady",
                       params,
                       "GPU " + index + " held its speed under sustained load (" + speed + ")."));
        } else {
            const bool fail = ratio < kBurnFailRatio;
            add(Check::BurnSpeed,
                gpu.index,
                fail ? VerdictLevel::Fail : VerdictLevel::Warn,
                speed,
                expected,
                reason(fail ? "probe.burn.slowdown" : "probe.burn.sags",
                       params,
                       "GPU " + index + " slowed down under sustained load, from " + figure(*b.tflopsFirst) + " to "
                           + figure(*b.tflopsLast) + " TFLOPS (" + ratioText(ratio)
                           + "): it cannot hold its clocks (cooling or power)"
                           + (fail ? "; a long training run on it will be much slower than planned." : ".")));
        }
    }
    if (b.throttle) {
        judgeThrottleShares(Check::BurnThrottle, gpu.index, *b.throttle, "burn");
    }
}

} // namespace gpuplan::core::verdict
