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
        return {0.40, 0.30, "power_capped"};
    }
    if (name.find("geforce") != std::string::npos) {
        return {0.60, 0.45, "geforce"};
    }
    if (spec.computeCapability == "7.0") {
        return {0.55, 0.40, "v100"};
    }
    if (isHbm(spec)) {
        if (name.find("pcie") != std::string::npos) {
            return {0.60, 0.45, "pcie_hbm"};
        }
        return {0.65, 0.50, "sxm_hbm"};
    }
    return {0.55, 0.40, "gddr"};
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
            figure("figure.not_measured"),
            figure("figure.ok"),
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
    // "figure.correctness": max_relative_error is absent where it is not finite.
    std::map<std::string, std::string> figures = {{"repeat_identical", c.repeatIdentical ? "true" : "false"},
                                                  {"nan_count", std::to_string(c.nanCount)}};
    if (c.maxRelativeError) {
        figures["max_relative_error"] = reasonNumber(*c.maxRelativeError);
    }
    const Reason measured = reason("figure.correctness", std::move(figures));
    const Reason expected = reason("figure.correctness_expected", {{"tolerance", reasonNumber(tolerance)}});
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
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            figure("figure.skipped"),
            Reason{},
            reason("probe.measurement.skipped", params));
        return;
    }
    if (!m.value) {
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            figure("figure.no_figure"),
            Reason{},
            reason("probe.measurement.no_value", params));
        return;
    }
    const double value = *m.value;
    const Reason measured = valueFigure(value, m.unit);
    params["value"] = reasonNumber(value);
    params["unit"] = m.unit;
    if (!m.test) { // a newer probe's test: shown by its name, never judged
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measured,
            Reason{},
            reason("probe.measurement.unknown_test", params));
        return;
    }

    if (m.informational) {
        judgeInformational(gpu, m, params);
        return;
    }
    if (m.test == Check::P2p) {
        judgePeer(gpu, spec, m, params);
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
                    threshold = Threshold{0.50, 0.35, "tf32_gemm"};
                }
                break;
            case Check::GemmFp8:
                peak = spec->peak.fp8;
                if (cublas) {
                    threshold = Threshold{0.55, 0.40, "fp8_gemm"};
                }
                break;
            case Check::Fp32Fma:
                peak = spec->peak.fp32;
                break;
            case Check::DramCopy:
            case Check::DramTriad:
                peak = spec->memoryBandwidthGBs;
                threshold = isHbm(*spec) ? Threshold{0.75, 0.60, "dram_hbm"} : Threshold{0.70, 0.55, "dram_gddr"};
                break;
            case Check::H2dPinned:
            case Check::D2hPinned:
                peak = linkBandwidth(gpu);
                threshold = Threshold{0.60, 0.40, "pinned_link"};
                break;
            default:
                break;
        }
    }
    if (m.unit != peakUnit) {
        params["expected_unit"] = peakUnit;
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measured,
            textFigure(peakUnit),
            reason("probe.measurement.unit", params));
        return;
    }
    if (!peak || *peak <= 0) {
        params["gpu"] = spec ? spec->name : gpu.name;
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measured,
            figure("figure.unknown"),
            reason(isHostCopy(m) ? "probe.measurement.no_link" : "probe.measurement.no_peak", params));
        return;
    }
    const double ratio = value / *peak;
    params["peak"] = reasonNumber(*peak);
    params["ratio"] = reasonNumber(static_cast<double>(static_cast<long long>(ratio * 1000 + 0.5)) / 1000);
    const Reason measuredShare = reason("figure.share",
                                        {{"value", reasonNumber(value)},
                                         {"unit", m.unit},
                                         {"ratio", reasonNumber(ratio)},
                                         {"peak", reasonNumber(*peak)}});
    if (!threshold) {
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measuredShare,
            reason("figure.peak", {{"peak", reasonNumber(*peak)}, {"unit", peakUnit}}),
            reason("probe.measurement.no_threshold", params));
        return;
    }
    if (gpu.migEnabled.value_or(false)) {
        add(m.name, gpu.index, VerdictLevel::Unknown, measuredShare, Reason{}, reason("probe.measurement.mig", params));
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
    const Reason expected = thresholdFigure(threshold->pass, *peak, peakUnit, threshold->fail);
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
            reason("figure.share_of_cublaslt",
                   {{"value", reasonNumber(*m.value)}, {"unit", m.unit}, {"ratio", reasonNumber(ratio)}}),
            figure("figure.informational"),
            reason("probe.measurement.informational", params));
        return;
    }
    add(m.name,
        gpu.index,
        VerdictLevel::Unknown,
        valueFigure(*m.value, m.unit),
        figure("figure.informational"),
        reason("probe.measurement.informational_alone", params));
}

} // namespace gpuplan::core::verdict
