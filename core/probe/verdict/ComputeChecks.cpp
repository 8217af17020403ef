// The measured speeds against the datasheet (compute, memory bandwidth, host copies; cuda_probe.md section 5,
// "Recommended thresholds") and the GEMM correctness check.
#include "probe/VerdictJudge.h"

#include "gpuplan/core/Names.h"

namespace gpuplan::core::verdict {

namespace {

bool isHbm(const GpuSpec& spec)
{
    return spec.memoryType.rfind("HBM", 0) == 0;
}

/// The FP16/BF16 GEMM row for this GPU's class.
Threshold halfGemmThreshold(const GpuSpec& spec)
{
    const std::string name = normalizedName(spec.id + " " + spec.name);
    if (spec.tdpWatts && *spec.tdpWatts <= 75) {
        return {0.40, 0.30, "70-75 W (power-capped)"};
    }
    if (name.find("geforce") != std::string::npos) {
        return {0.60, 0.45, "GeForce, against the FP32-accumulate peak"};
    }
    if (spec.computeCapability == "7.0") {
        return {0.55, 0.40, "V100"};
    }
    if (isHbm(spec)) {
        if (name.find("pcie") != std::string::npos) {
            return {0.60, 0.45, "PCIe HBM"};
        }
        return {0.65, 0.50, "SXM HBM"};
    }
    return {0.55, 0.40, "GDDR >= 150 W"};
}

/// The English name of a test in the reasons' text (ui/VerdictText words it for the GUI); nullptr for a check
/// that is not a measurement.
const char* label(Check test)
{
    switch (test) {
        case Check::Fp32Fma:
            return "FP32 FMA";
        case Check::GemmFp16:
            return "FP16 tensor GEMM";
        case Check::GemmBf16:
            return "BF16 tensor GEMM";
        case Check::GemmTf32:
            return "TF32 tensor GEMM";
        case Check::GemmFp8:
            return "FP8 tensor GEMM";
        case Check::WmmaFp16:
            return "FP16 WMMA kernel";
        case Check::DramCopy:
            return "memory copy";
        case Check::DramTriad:
            return "memory triad";
        case Check::H2dPinned:
            return "host-to-device copy";
        case Check::D2hPinned:
            return "device-to-host copy";
        case Check::P2p:
            return "peer-to-peer copy";
        case Check::GemmOwnFp16:
            return "own FP16 tensor GEMM";
        case Check::GemmOwnBf16:
            return "own BF16 tensor GEMM";
        case Check::NcclAllreduce:
            return "NCCL all-reduce";
        default:
            return nullptr;
    }
}

bool isHostCopy(const ProbeMeasurement& m)
{
    return m.test == Check::H2dPinned || m.test == Check::D2hPinned;
}

} // namespace

void Judge::judgeCorrectness(const ProbeGpu& gpu)
{
    if (gpu.error) {
        return; // the "gpu_error" line fails this GPU already; its check may not have run
    }
    if (!gpu.correctness || !gpu.correctness->tolerance) {
        add(Check::Correctness,
            gpu.index,
            VerdictLevel::Unknown,
            "not measured",
            "ok",
            reason("probe.correctness.unknown", {}, "The probe did not report the GEMM check."));
        return;
    }
    const ProbeCorrectness& c = *gpu.correctness;
    const double tolerance = *c.tolerance;
    std::vector<std::string> faults;
    if (!c.repeatIdentical) {
        faults.push_back("the same GEMM twice gave different bits");
    }
    if (c.nanCount > 0) {
        faults.push_back(std::to_string(c.nanCount) + " NaN results");
    }
    if (!c.maxRelativeError) {
        faults.push_back("the relative error against the FP32 reference is not a finite number");
    } else if (*c.maxRelativeError > tolerance) {
        faults.push_back("relative error " + figure(*c.maxRelativeError) + " against the FP32 reference, over the "
                         + figure(tolerance) + " allowed");
    }
    if (!c.ok && faults.empty()) {
        faults.push_back("the probe marked the check failed");
    }
    const std::string error = c.maxRelativeError ? figure(*c.maxRelativeError) : "not finite";
    const std::string measured = std::string(c.repeatIdentical ? "repeat identical" : "repeat differs") + ", NaN "
                                 + std::to_string(c.nanCount) + ", max rel. error " + error;
    const std::string expected = "repeat identical, NaN 0, max rel. error <= " + figure(tolerance);
    const std::map<std::string, std::string> params = {
        {"repeat_identical", c.repeatIdentical ? "true" : "false"},
        {"nan_count", std::to_string(c.nanCount)},
        {"max_relative_error", c.maxRelativeError ? reasonNumber(*c.maxRelativeError) : "nan"},
        {"tolerance", reasonNumber(tolerance)},
        {"uuid", gpu.uuid}};
    if (faults.empty()) {
        add(Check::Correctness,
            gpu.index,
            VerdictLevel::Pass,
            measured,
            expected,
            reason("probe.correctness.ok", params, "The GEMM results are right and repeat exactly."));
        return;
    }
    // cuda_probe.md section 5 (last table row) and cuda_probe/README.md: a hard fail whatever the speed.
    add(Check::Correctness,
        gpu.index,
        VerdictLevel::Fail,
        measured,
        expected,
        reason("probe.correctness.failed",
               params,
               "GPU " + std::to_string(gpu.index) + " computes wrong results: " + joined(faults, "; ")
                   + ". A GPU that gives wrong results fails whatever its speed: do not train on it; terminate "
                     "the instance and report the GPU ("
                   + gpu.uuid + ") to the provider."));
}

void Judge::judgeMeasurement(const ProbeGpu& gpu, const GpuSpec* spec, const ProbeMeasurement& m)
{
    const char* known = m.test ? label(*m.test) : nullptr;
    const std::string what = known ? known : m.name;
    std::map<std::string, std::string> params = {{"test", m.name}, {"method", m.method}};
    if (m.skipped) {
        params["why"] = *m.skipped;
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            "skipped",
            "",
            reason("probe.measurement.skipped", params, "The " + what + " test did not run: " + *m.skipped + "."));
        return;
    }
    if (!m.value) {
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            "no figure",
            "",
            reason("probe.measurement.no_value", params, "The " + what + " test gave no finite figure; not judged."));
        return;
    }
    const double value = *m.value;
    const std::string measured = figure(value) + " " + m.unit;
    params["value"] = reasonNumber(value);
    params["unit"] = m.unit;
    if (!known) {
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measured,
            "",
            reason("probe.measurement.unknown_test",
                   params,
                   "The probe reported a test this GPU Planner does not know (" + m.name + "); not judged."));
        return;
    }

    if (m.informational) {
        judgeInformational(gpu, m, what, measured, params);
        return;
    }
    if (m.test == Check::P2p) {
        judgePeer(gpu, spec, m, what, measured, params);
        return;
    }

    // The datasheet figure the test is a share of.
    std::optional<double> peak;
    // Compute tests are in TFLOPS, the copies (DRAM, host, peer) in GB/s, whether or not the catalog knows
    // the GPU.
    const std::string peakUnit(checkInfo(*m.test).unit);
    std::optional<Threshold> threshold;
    if (spec) {
        const bool cublas = m.method == "cublaslt";
        switch (*m.test) {
            case Check::GemmFp16:
            case Check::GemmBf16:
            case Check::WmmaFp16:
                peak = m.test == Check::GemmBf16 ? spec->peak.bf16 : spec->peak.fp16;
                if (cublas) {
                    threshold = halfGemmThreshold(*spec);
                }
                break;
            case Check::GemmTf32:
                peak = spec->peak.tf32;
                if (cublas) {
                    threshold = Threshold{0.50, 0.35, "TF32 GEMM, sm_80+"};
                }
                break;
            case Check::GemmFp8:
                peak = spec->peak.fp8;
                if (cublas) {
                    threshold = Threshold{0.55, 0.40, "FP8 GEMM, sm_89/sm_90/sm_100"};
                }
                break;
            case Check::Fp32Fma:
                peak = spec->peak.fp32;
                break;
            case Check::DramCopy:
            case Check::DramTriad:
                peak = spec->memoryBandwidthGBs;
                threshold = isHbm(*spec) ? Threshold{0.75, 0.60, "DRAM copy/triad, HBM"}
                                         : Threshold{0.70, 0.55, "DRAM copy/triad, GDDR"};
                break;
            case Check::H2dPinned:
            case Check::D2hPinned:
                peak = linkBandwidth(gpu);
                threshold = Threshold{0.60, 0.40, "H2D/D2H pinned, against the negotiated link"};
                break;
            default:
                break;
        }
    }
    if (m.unit != peakUnit) {
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measured,
            peakUnit,
            reason("probe.measurement.unit",
                   params,
                   "The " + what + " test reported " + m.unit + " where " + peakUnit + " was expected; not judged."));
        return;
    }
    if (!peak || *peak <= 0) {
        const std::string gpuName = spec ? spec->name : gpu.name;
        const bool link = isHostCopy(m);
        params["gpu"] = gpuName;
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measured,
            "unknown",
            reason(link ? "probe.measurement.no_link" : "probe.measurement.no_peak",
                   params,
                   link ? "The " + what + " test reached " + measured
                              + "; the PCIe link it ran on is not known, so it is not judged."
                        : "The " + what + " test reached " + measured
                              + "; the catalog has no datasheet peak "
                                "for it on the "
                              + gpuName + ", so its share is unknown and it is not judged."));
        return;
    }
    const double ratio = value / *peak;
    params["peak"] = reasonNumber(*peak);
    params["ratio"] = reasonNumber(static_cast<double>(static_cast<long long>(ratio * 1000 + 0.5)) / 1000);
    const std::string measuredShare = measured + " (" + ratioText(ratio) + " of " + figure(*peak) + ")";
    if (!threshold) {
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measuredShare,
            "peak " + figure(*peak) + " " + peakUnit,
            reason("probe.measurement.no_threshold",
                   params,
                   "The " + what + " test reached " + measured + ", " + ratioText(ratio) + " of the " + figure(*peak)
                       + " " + peakUnit
                       + " datasheet peak; no healthy range is published for it, so it is not judged."));
        return;
    }
    if (gpu.migEnabled.value_or(false)) {
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measuredShare,
            "",
            reason("probe.measurement.mig",
                   params,
                   "The " + what + " test ran on a MIG slice; its share of the whole GPU's peak is not judged."));
        return;
    }
    params["pass"] = reasonNumber(threshold->pass);
    params["fail"] = reasonNumber(threshold->fail);
    params["rule"] = threshold->rule;
    const std::string expected = ">= " + ratioText(threshold->pass) + " of " + figure(*peak) + " " + peakUnit
                                 + " (fail < " + ratioText(threshold->fail) + ")";
    const bool link = isHostCopy(m);
    const std::string peakName = link ? "the " + figure(*peak) + " GB/s of its PCIe Gen"
                                            + std::to_string(gpu.pcie->genUnderLoad.value_or(0)) + " x"
                                            + std::to_string(gpu.pcie->widthUnderLoad.value_or(0)) + " link"
                                      : "the " + figure(*peak) + " " + peakUnit + " datasheet peak";
    const std::string head = "The " + what + " test reached " + measured + ", " + ratioText(ratio) + " of " + peakName;
    if (ratio >= threshold->pass) {
        add(m.name,
            gpu.index,
            VerdictLevel::Pass,
            measuredShare,
            expected,
            reason("probe.measurement.ok",
                   params,
                   head + " (healthy from " + ratioText(threshold->pass) + " for " + threshold->rule + ")."));
    } else if (ratio < threshold->fail) {
        add(m.name,
            gpu.index,
            VerdictLevel::Fail,
            measuredShare,
            expected,
            reason("probe.measurement.slow",
                   params,
                   head + ", under the failing " + ratioText(threshold->fail) + " for " + threshold->rule
                       + ": it is much slower than it should be (throttled, shared or faulty)."));
    } else {
        add(m.name,
            gpu.index,
            VerdictLevel::Warn,
            measuredShare,
            expected,
            reason("probe.measurement.low",
                   params,
                   head + ", below the healthy " + ratioText(threshold->pass) + " for " + threshold->rule
                       + " but above the failing " + ratioText(threshold->fail) + "."));
    }
}

/// Our own GEMM kernel: shown as a share of cuBLASLt on the same GPU (itself a health signal: a GPU on which
/// a plain kernel keeps up with the library's but the library lags is suspicious), never judged until a device
/// check has validated the kernel.
void Judge::judgeInformational(const ProbeGpu& gpu,
                               const ProbeMeasurement& m,
                               const std::string& what,
                               const std::string& measured,
                               std::map<std::string, std::string> params)
{
    const ProbeMeasurement* reference =
        gpu.measurement(m.test == Check::GemmOwnBf16 ? Check::GemmBf16 : Check::GemmFp16);
    if (reference && reference->value && *reference->value > 0) {
        const double ratio = *m.value / *reference->value;
        params["reference"] = reasonNumber(*reference->value);
        params["ratio"] = reasonNumber(static_cast<double>(static_cast<long long>(ratio * 1000 + 0.5)) / 1000);
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measured + " (" + ratioText(ratio) + " of cuBLASLt)",
            "informational",
            reason("probe.measurement.informational",
                   params,
                   "The " + what + " test reached " + measured + ", " + ratioText(ratio) + " of cuBLASLt's "
                       + figure(*reference->value) + " TFLOPS on this GPU; shown for information, not judged."));
        return;
    }
    add(m.name,
        gpu.index,
        VerdictLevel::Unknown,
        measured,
        "informational",
        reason("probe.measurement.informational_alone",
               params,
               "The " + what + " test reached " + measured
                   + "; there is no cuBLASLt figure on this GPU to compare it with, and it is shown for "
                     "information, not judged."));
}

} // namespace gpuplan::core::verdict
