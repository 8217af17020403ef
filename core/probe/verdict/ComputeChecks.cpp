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
            reason("probe.correctness.unknown", {}));
        return;
    }
    const ProbeCorrectness& c = *gpu.correctness;
    const double tolerance = *c.tolerance;
    // Wrong: the same GEMM twice gave different bits, NaN results, a relative error against the FP32 reference
    // that is not finite or over the tolerance, or the probe marked the check failed. ui/wording lists the faults
    // from the parameters.
    const bool wrong =
        !c.repeatIdentical || c.nanCount > 0 || !c.maxRelativeError || *c.maxRelativeError > tolerance || !c.ok;
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
    // cuda_probe.md section 5 (last table row) and cuda_probe/README.md: a hard fail whatever the speed.
    add(Check::Correctness,
        gpu.index,
        wrong ? VerdictLevel::Fail : VerdictLevel::Pass,
        measured,
        expected,
        reason(wrong ? "probe.correctness.failed" : "probe.correctness.ok", params));
}

void Judge::judgeMeasurement(const ProbeGpu& gpu, const GpuSpec* spec, const ProbeMeasurement& m)
{
    std::map<std::string, std::string> params = {{"test", m.name}, {"method", m.method}};
    if (m.skipped) {
        params["why"] = *m.skipped;
        add(m.name, gpu.index, VerdictLevel::Unknown, "skipped", "", reason("probe.measurement.skipped", params));
        return;
    }
    if (!m.value) {
        add(m.name, gpu.index, VerdictLevel::Unknown, "no figure", "", reason("probe.measurement.no_value", params));
        return;
    }
    const double value = *m.value;
    const std::string measured = figure(value) + " " + m.unit;
    params["value"] = reasonNumber(value);
    params["unit"] = m.unit;
    if (!m.test) { // a newer probe's test: shown by its name, never judged
        add(m.name, gpu.index, VerdictLevel::Unknown, measured, "", reason("probe.measurement.unknown_test", params));
        return;
    }

    if (m.informational) {
        judgeInformational(gpu, m, measured, params);
        return;
    }
    if (m.test == Check::P2p) {
        judgePeer(gpu, spec, m, measured, params);
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
        params["expected_unit"] = peakUnit;
        add(m.name, gpu.index, VerdictLevel::Unknown, measured, peakUnit, reason("probe.measurement.unit", params));
        return;
    }
    if (!peak || *peak <= 0) {
        params["gpu"] = spec ? spec->name : gpu.name;
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measured,
            "unknown",
            reason(isHostCopy(m) ? "probe.measurement.no_link" : "probe.measurement.no_peak", params));
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
            reason("probe.measurement.no_threshold", params));
        return;
    }
    if (gpu.migEnabled.value_or(false)) {
        add(m.name, gpu.index, VerdictLevel::Unknown, measuredShare, "", reason("probe.measurement.mig", params));
        return;
    }
    params["pass"] = reasonNumber(threshold->pass);
    params["fail"] = reasonNumber(threshold->fail);
    params["rule"] = threshold->rule;
    if (isHostCopy(m)) {
        // The peak is that of the PCIe link the copy ran on (linkBandwidth() had both figures).
        params["pcie_gen"] = std::to_string(gpu.pcie->genUnderLoad.value_or(0));
        params["pcie_width"] = std::to_string(gpu.pcie->widthUnderLoad.value_or(0));
    }
    const std::string expected = ">= " + ratioText(threshold->pass) + " of " + figure(*peak) + " " + peakUnit
                                 + " (fail < " + ratioText(threshold->fail) + ")";
    const VerdictLevel level = ratio >= threshold->pass  ? VerdictLevel::Pass
                               : ratio < threshold->fail ? VerdictLevel::Fail
                                                         : VerdictLevel::Warn;
    const char* key = level == VerdictLevel::Pass   ? "probe.measurement.ok"
                      : level == VerdictLevel::Fail ? "probe.measurement.slow"
                                                    : "probe.measurement.low";
    add(m.name, gpu.index, level, measuredShare, expected, reason(key, params));
}

/// Our own GEMM kernel: shown as a share of cuBLASLt on the same GPU (itself a health signal: a GPU on which
/// a plain kernel keeps up with the library's but the library lags is suspicious), never judged until a device
/// check has validated the kernel.
void Judge::judgeInformational(const ProbeGpu& gpu,
                               const ProbeMeasurement& m,
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
            reason("probe.measurement.informational", params));
        return;
    }
    add(m.name,
        gpu.index,
        VerdictLevel::Unknown,
        measured,
        "informational",
        reason("probe.measurement.informational_alone", params));
}

} // namespace gpuplan::core::verdict
