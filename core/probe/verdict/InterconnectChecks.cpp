// The interconnect between the GPUs: peer-to-peer copies against NVLink or PCIe, and NCCL's all-reduce.
#include "probe/VerdictJudge.h"

namespace gpuplan::core::verdict {

/// A copy from this GPU to another: against the NVLink of a GPU whose datasheet has one (per direction), else
/// against the PCIe link. The thresholds are first guesses (nvbandwidth reaches about 0.8 of NVLink per
/// direction), to be set from device checks.
void Judge::judgePeer(const ProbeGpu& gpu,
                      const GpuSpec* spec,
                      const ProbeMeasurement& m,
                      std::map<std::string, std::string> params)
{
    const std::string peer = m.peer ? std::to_string(*m.peer) : "?";
    params["peer"] = peer;
    params["link"] = m.link;
    // 0: no NVLink (a plain double: GCC 12 warns of an optional copied below as maybe uninitialised)
    const double nvlink = spec ? nvlinkPerDirection(*spec).value_or(0) : 0;
    // "figure.to_peer": the speed to the peer GPU, over which link where the probe said, and (below) its share of
    // the peak.
    std::map<std::string, std::string> figures = {{"value", reasonNumber(*m.value)}, {"unit", m.unit}, {"peer", peer}};
    if (!m.link.empty()) {
        figures["link"] = m.link;
    }
    const Reason toPeer = reason("figure.to_peer", figures);
    if (nvlink > 0 && m.link != "nvlink" && m_result.gpus.size() > 1) {
        params["gpu"] = spec->name; // the model whose datasheet has the NVLink
        add(Check::P2p,
            gpu.index,
            VerdictLevel::Warn,
            toPeer,
            textFigure("NVLink"),
            reason("probe.p2p.no_nvlink", params));
        return;
    }
    double peak = nvlink;
    std::string rule = "p2p_nvlink";
    if (peak <= 0) {
        peak = linkBandwidth(gpu).value_or(0);
        rule = "p2p_pcie";
    }
    if (peak <= 0) {
        add(Check::P2p,
            gpu.index,
            VerdictLevel::Unknown,
            toPeer,
            figure("figure.unknown"),
            reason("probe.p2p.no_link", params));
        return;
    }
    const double ratio = *m.value / peak;
    params["peak"] = reasonNumber(peak);
    params["ratio"] = reasonNumber(static_cast<double>(static_cast<long long>(ratio * 1000 + 0.5)) / 1000);
    const Threshold threshold{0.60, 0.40, ""};
    const Reason expected = thresholdFigure(threshold.pass, peak, "GB/s", threshold.fail);
    const VerdictLevel level = ratio >= threshold.pass  ? VerdictLevel::Pass
                               : ratio < threshold.fail ? VerdictLevel::Fail
                                                        : VerdictLevel::Warn;
    const char* key = level == VerdictLevel::Pass   ? "probe.p2p.ok"
                      : level == VerdictLevel::Fail ? "probe.p2p.slow"
                                                    : "probe.p2p.low";
    params["rule"] = rule;
    figures["ratio"] = reasonNumber(ratio);
    figures["peak"] = reasonNumber(peak);
    add(Check::P2p, gpu.index, level, reason("figure.to_peer", std::move(figures)), expected, reason(key, params));
}

/// The machine-wide tests: NCCL's all-reduce bus bandwidth against the slowest link between the GPUs.
void Judge::judgeMultiGpu()
{
    for (const ProbeMeasurement& m : m_result.multiGpu) {
        if (m.test != Check::NcclAllreduce) {
            continue;
        }
        std::map<std::string, std::string> params = {{"test", m.name}, {"method", m.method}};
        if (m.skipped || !m.value) {
            if (m.skipped) {
                params["why"] = *m.skipped; // the probe's own words
            }
            add(m.name,
                std::nullopt,
                VerdictLevel::Unknown,
                figure("figure.skipped"),
                Reason{},
                reason("probe.nccl.skipped", params));
            continue;
        }
        const Reason measured = valueFigure(*m.value, "GB/s");
        params["value"] = reasonNumber(*m.value);
        std::optional<double> peak = m_promisedSpec ? nvlinkPerDirection(*m_promisedSpec) : std::nullopt;
        const bool viaNvlink = peak.has_value();
        if (!peak && !m_result.gpus.empty()) {
            peak = linkBandwidth(m_result.gpus.front());
        }
        if (!peak) {
            add(m.name,
                std::nullopt,
                VerdictLevel::Unknown,
                measured,
                figure("figure.unknown"),
                reason("probe.nccl.no_link", params));
            continue;
        }
        const double ratio = *m.value / *peak;
        params["peak"] = reasonNumber(*peak);
        params["ratio"] = reasonNumber(static_cast<double>(static_cast<long long>(ratio * 1000 + 0.5)) / 1000);
        params["link"] = viaNvlink ? "nvlink" : "pcie";
        // nccl-tests' bus bandwidth approaches the per-direction link speed on a healthy machine; these first
        // thresholds are loose until device checks on several GPUs set them.
        const VerdictLevel level = ratio >= 0.5  ? VerdictLevel::Pass
                                   : ratio < 0.3 ? VerdictLevel::Fail
                                                 : VerdictLevel::Warn;
        add(m.name,
            std::nullopt,
            level,
            reason("figure.share",
                   {{"value", reasonNumber(*m.value)},
                    {"unit", "GB/s"},
                    {"ratio", reasonNumber(ratio)},
                    {"peak", reasonNumber(*peak)}}),
            thresholdFigure(0.5, *peak, "GB/s", 0.3),
            reason(level == VerdictLevel::Pass   ? "probe.nccl.ok"
                   : level == VerdictLevel::Fail ? "probe.nccl.slow"
                                                 : "probe.nccl.low",
                   params));
    }
}

} // namespace gpuplan::core::verdict
