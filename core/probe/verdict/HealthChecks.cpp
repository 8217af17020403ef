// The health checks under load (cuda_probe.md section 5, "Hard health checks"): memory health, temperature,
// power, the PCIe link and clock throttling.
#include "probe/VerdictJudge.h"

#include <algorithm>

namespace gpuplan::core::verdict {

namespace {

/// The share of busy samples with a hardware throttle reason from which a GPU fails: a tenth of the run is a
/// GPU that does not hold its clocks; less is a blip (a warning). Our choice, not a published figure; a device
/// check (tests/gpu/device-check.sh) on a healthy GPU shows no hardware reasons at all.
constexpr double kThrottleFailShare = 0.10;

bool isHardThrottle(const std::string& why)
{
    return why == "hw_slowdown" || why == "hw_thermal" || why == "hw_power_brake";
}

} // namespace

void Judge::judgeEcc(const ProbeGpu& gpu)
{
    if (!gpu.ecc) {
        add(Check::Ecc,
            gpu.index,
            VerdictLevel::Unknown,
            figure("figure.not_reported"),
            figure("figure.zero_uncorrectable"),
            reason("probe.ecc.unknown", {}));
        return;
    }
    const ProbeEcc& e = *gpu.ecc;
    const Reason measured = reason("figure.ecc",
                                   {{"enabled", e.enabled ? "true" : "false"},
                                    {"volatile_uncorrected", std::to_string(e.volatileUncorrected)},
                                    {"aggregate_uncorrected", std::to_string(e.aggregateUncorrected)}});
    const std::map<std::string, std::string> params = {
        {"volatile_uncorrected", std::to_string(e.volatileUncorrected)},
        {"aggregate_uncorrected", std::to_string(e.aggregateUncorrected)},
        {"volatile_corrected", std::to_string(e.volatileCorrected)}};
    if (e.volatileUncorrected > 0) {
        add(Check::Ecc,
            gpu.index,
            VerdictLevel::Fail,
            measured,
            figure("figure.zero_volatile_uncorrectable"),
            reason("probe.ecc.uncorrectable", params));
    } else if (!e.enabled) {
        add(Check::Ecc,
            gpu.index,
            VerdictLevel::Warn,
            measured,
            figure("figure.ecc_on"),
            reason("probe.ecc.off", params));
    } else if (e.aggregateUncorrected > 0) {
        add(Check::Ecc,
            gpu.index,
            VerdictLevel::Warn,
            measured,
            figure("figure.zero_aggregate_uncorrectable"),
            reason("probe.ecc.history", params));
    } else {
        add(Check::Ecc,
            gpu.index,
            VerdictLevel::Pass,
            measured,
            figure("figure.zero_uncorrectable"),
            reason("probe.ecc.ok", params));
    }
}

void Judge::judgeRetiredPages(const ProbeGpu& gpu)
{
    if (!gpu.retiredPages) {
        return; // Ampere and newer remap rows instead
    }
    const ProbeRetiredPages& p = *gpu.retiredPages;
    const std::map<std::string, std::string> params = {{"count", std::to_string(p.count)},
                                                       {"pending", std::to_string(p.pending)}};
    const Reason measured = reason("figure.retired_pages", params);
    if (p.pending > 0) {
        add(Check::RetiredPages,
            gpu.index,
            VerdictLevel::Fail,
            measured,
            figure("figure.none_pending"),
            reason("probe.retired_pages.pending", params));
    } else {
        add(Check::RetiredPages,
            gpu.index,
            VerdictLevel::Pass,
            measured,
            figure("figure.none_pending"),
            reason("probe.retired_pages.ok", params));
    }
}

void Judge::judgeRemappedRows(const ProbeGpu& gpu)
{
    if (!gpu.remappedRows) {
        return; // pre-Ampere retires pages instead
    }
    const ProbeRemappedRows& r = *gpu.remappedRows;
    const std::map<std::string, std::string> params = {{"correctable", std::to_string(r.correctable)},
                                                       {"uncorrectable", std::to_string(r.uncorrectable)},
                                                       {"pending", r.pending ? "true" : "false"},
                                                       {"failure", r.failure ? "true" : "false"}};
    const Reason measured = reason("figure.remapped_rows", params);
    if (r.failure) {
        add(Check::RemappedRows,
            gpu.index,
            VerdictLevel::Fail,
            measured,
            figure("figure.no_remap_failure"),
            reason("probe.remapped_rows.failure", params));
    } else if (r.pending) {
        add(Check::RemappedRows,
            gpu.index,
            VerdictLevel::Fail,
            measured,
            figure("figure.no_remap_failure"),
            reason("probe.remapped_rows.pending", params));
    } else {
        add(Check::RemappedRows,
            gpu.index,
            VerdictLevel::Pass,
            measured,
            figure("figure.no_remap_failure"),
            reason("probe.remapped_rows.ok", params));
    }
}

void Judge::judgeTemperature(const ProbeGpu& gpu)
{
    const ProbeTemperature& t = gpu.temperature;
    const std::optional<int> hottest = t.maxUnderLoadC ? t.maxUnderLoadC : t.currentC;
    if (!hottest || !t.slowdownC) {
        add(Check::Temperature,
            gpu.index,
            VerdictLevel::Unknown,
            hottest ? valueFigure(*hottest, "C") : figure("figure.not_reported"),
            t.slowdownC ? reason("figure.below", {{"value", std::to_string(*t.slowdownC)}, {"unit", "C"}})
                        : figure("figure.unknown"),
            reason("probe.temperature.unknown", {}));
        return;
    }
    const Reason measured = valueFigure(*hottest, "C");
    const Reason expected = reason("figure.below_slowdown", {{"celsius", std::to_string(*t.slowdownC)}});
    const std::map<std::string, std::string> params = {{"celsius", std::to_string(*hottest)},
                                                       {"slowdown", std::to_string(*t.slowdownC)}};
    if (*hottest >= *t.slowdownC) {
        add(Check::Temperature,
            gpu.index,
            VerdictLevel::Fail,
            measured,
            expected,
            reason("probe.temperature.slowdown", params));
    } else {
        add(Check::Temperature,
            gpu.index,
            VerdictLevel::Pass,
            measured,
            expected,
            reason("probe.temperature.ok", params));
    }
}

void Judge::judgePower(const ProbeGpu& gpu, const GpuSpec* spec)
{
    const ProbePower& p = gpu.power;
    if (m_result.probe.mode == "quick") {
        // The quick run's GEMMs last well under a second each, with idle gaps between them: too short for the
        // board to reach its power limit, and NVML's power reading is a 1 s average on Ampere and newer.
        add(Check::Power,
            gpu.index,
            VerdictLevel::Unknown,
            p.underLoadW ? valueFigure(*p.underLoadW, "W") : figure("figure.not_reported"),
            figure("figure.full_run"),
            reason("probe.power.quick", {}));
        return;
    }
    if (!p.underLoadW || !p.limitW || *p.limitW <= 0) {
        add(Check::Power,
            gpu.index,
            VerdictLevel::Unknown,
            p.underLoadW ? valueFigure(*p.underLoadW, "W") : figure("figure.not_reported"),
            p.limitW ? reason("figure.at_least", {{"value", reasonNumber(0.75 * *p.limitW)}, {"unit", "W"}})
                     : figure("figure.unknown"),
            reason("probe.power.unknown", {}));
        return;
    }
    const double ratio = *p.underLoadW / *p.limitW;
    const std::map<std::string, std::string> params = {
        {"watts", reasonNumber(*p.underLoadW)}, {"limit", reasonNumber(*p.limitW)}, {"ratio", reasonNumber(ratio)}};
    const Reason measured = reason("figure.power", params);
    const Reason expected =
        reason("figure.power_expected", {{"share", reasonNumber(0.75)}, {"limit", reasonNumber(*p.limitW)}});
    // DCGM targeted_power's 0.75 (cuda_probe.md section 1.2 and 5); only a warning on 70 W cards.
    if (ratio >= 0.75) {
        add(Check::Power, gpu.index, VerdictLevel::Pass, measured, expected, reason("probe.power.ok", params));
        return;
    }
    const bool lowPower = (spec && spec->tdpWatts && *spec->tdpWatts <= 75) || *p.limitW <= 75;
    add(Check::Power,
        gpu.index,
        lowPower ? VerdictLevel::Warn : VerdictLevel::Fail,
        measured,
        expected,
        reason("probe.power.low", params));
}

void Judge::judgePcie(const ProbeGpu& gpu)
{
    if (!gpu.pcie || !gpu.pcie->genUnderLoad || !gpu.pcie->widthUnderLoad || !gpu.pcie->genMax || !gpu.pcie->widthMax) {
        add(Check::Pcie,
            gpu.index,
            VerdictLevel::Unknown,
            figure("figure.not_reported"),
            figure("figure.unknown"),
            reason("probe.pcie.unknown", {}));
        return;
    }
    const ProbePcie& l = *gpu.pcie;
    const Reason measured =
        reason("figure.pcie", {{"gen", std::to_string(*l.genUnderLoad)}, {"width", std::to_string(*l.widthUnderLoad)}});
    const Reason expected =
        reason("figure.pcie", {{"gen", std::to_string(*l.genMax)}, {"width", std::to_string(*l.widthMax)}});
    const std::map<std::string, std::string> params = {{"gen", std::to_string(*l.genUnderLoad)},
                                                       {"width", std::to_string(*l.widthUnderLoad)},
                                                       {"gen_max", std::to_string(*l.genMax)},
                                                       {"width_max", std::to_string(*l.widthMax)}};
    if (*l.genUnderLoad >= *l.genMax && *l.widthUnderLoad >= *l.widthMax) {
        add(Check::Pcie, gpu.index, VerdictLevel::Pass, measured, expected, reason("probe.pcie.ok", params));
        return;
    }
    // Inside a VM the reported link often is not the physical one: only a warning there.
    add(Check::Pcie,
        gpu.index,
        m_promised.virtualMachine ? VerdictLevel::Warn : VerdictLevel::Fail,
        measured,
        expected,
        reason(m_promised.virtualMachine ? "probe.pcie.degraded_vm" : "probe.pcie.degraded", params));
}

/// Throttling judged by the share of the busy samples that carried each reason: one 25 ms sample of
/// hw_slowdown is a blip (a warning), a tenth of the run is a GPU that does not hold its clocks (a fail).
/// `phase` is "gemm" (the GEMM tests) or "burn" (the burn-in).
void Judge::judgeThrottleShares(Check check, int gpu, const ProbeThrottle& t, const std::string& phase)
{
    if (t.samples <= 0) {
        add(check,
            gpu,
            VerdictLevel::Unknown,
            figure("figure.no_busy_samples"),
            Reason{},
            reason("probe.throttle.no_samples", {{"phase", phase}}));
        return;
    }
    // "figure.throttle_shares": each reason's share as a parameter "share.<reason>"; none is no reason seen.
    std::map<std::string, std::string> shares;
    std::string hardest;
    double hardShare = 0;
    double thermalShare = 0;
    for (const auto& [why, share] : t.shares) {
        shares["share." + why] = reasonNumber(share);
        if (isHardThrottle(why) && share > hardShare) {
            hardShare = share;
            hardest = why;
        } else if (why == "sw_thermal") {
            thermalShare = share;
        }
    }
    const Reason measured = reason("figure.throttle_shares", std::move(shares));
    const Reason expected =
        reason("figure.throttle_expected",
               {{"share", reasonNumber(kThrottleFailShare)}, {"samples", std::to_string(t.samples)}});
    std::map<std::string, std::string> params = {{"phase", phase},
                                                 {"samples", std::to_string(t.samples)},
                                                 {"reason", hardest},
                                                 {"share", reasonNumber(hardShare)}};
    if (hardShare >= kThrottleFailShare) {
        add(check, gpu, VerdictLevel::Fail, measured, expected, reason("probe.throttle.hardware_sustained", params));
    } else if (hardShare > 0) {
        add(check, gpu, VerdictLevel::Warn, measured, expected, reason("probe.throttle.hardware_brief", params));
    } else if (thermalShare >= kThrottleFailShare) {
        params["share"] = reasonNumber(thermalShare);
        add(check, gpu, VerdictLevel::Warn, measured, expected, reason("probe.throttle.thermal_sustained", params));
    } else {
        add(check, gpu, VerdictLevel::Pass, measured, expected, reason("probe.throttle.ok_shares", params));
    }
}

void Judge::judgeThrottle(const ProbeGpu& gpu)
{
    if (gpu.throttle) {
        judgeThrottleShares(Check::Throttle, gpu.index, *gpu.throttle, "gemm");
        return;
    }
    // cuda_probe.md section 5 fails HW slowdown, HW thermal and power brake under load; section 3 also flags
    // SW thermal slowdown, which is the driver's own (softer) reaction to heat: a warning. SW power cap is
    // normal under a GEMM.
    const std::vector<std::string>& reasons = gpu.throttleReasons;
    const bool hard = std::any_of(reasons.begin(), reasons.end(), isHardThrottle);
    const bool soft = std::find(reasons.begin(), reasons.end(), "sw_thermal") != reasons.end();
    const std::map<std::string, std::string> params = {{"reasons", joined(gpu.throttleReasons, ",")}};
    const Reason measured = reason("figure.throttle_reasons", params);
    const Reason expected = figure("figure.no_throttle");
    if (hard) {
        add(Check::Throttle,
            gpu.index,
            VerdictLevel::Fail,
            measured,
            expected,
            reason("probe.throttle.hardware", params));
    } else if (soft) {
        add(Check::Throttle,
            gpu.index,
            VerdictLevel::Warn,
            measured,
            expected,
            reason("probe.throttle.thermal", params));
    } else {
        add(Check::Throttle, gpu.index, VerdictLevel::Pass, measured, expected, reason("probe.throttle.ok", params));
    }
}

} // namespace gpuplan::core::verdict
