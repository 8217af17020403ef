// The verdict on a probe document: its levels, the run over the groups of checks (core/probe/verdict/) and the
// figures they share.
#include "gpuplan/probe/Verdict.h"

#include "probe/VerdictJudge.h"

#include <algorithm>
#include <cstdlib>

namespace gpuplan::core {

const char* verdictLevelName(VerdictLevel level)
{
    switch (level) {
        case VerdictLevel::Pass:
            return "pass";
        case VerdictLevel::Unknown:
            return "unknown";
        case VerdictLevel::Warn:
            return "warn";
        case VerdictLevel::Fail:
            return "fail";
    }
    return "unknown";
}

std::optional<VerdictLevel> parseVerdictLevel(std::string_view name)
{
    for (VerdictLevel level : {VerdictLevel::Pass, VerdictLevel::Unknown, VerdictLevel::Warn, VerdictLevel::Fail}) {
        if (name == verdictLevelName(level)) {
            return level;
        }
    }
    return std::nullopt;
}

const VerdictLine* Verdict::find(std::string_view check, std::optional<int> gpu) const
{
    auto it = std::find_if(
        lines.begin(), lines.end(), [&](const VerdictLine& line) { return line.check == check && line.gpu == gpu; });
    return it == lines.end() ? nullptr : &*it;
}

namespace verdict {

// ---- formatting -----------------------------------------------------------------------------------------

std::string joined(const std::vector<std::string>& items, const char* separator)
{
    std::string text;
    for (const std::string& item : items) {
        text += (text.empty() ? "" : separator) + item;
    }
    return text;
}

Reason reason(std::string key, std::map<std::string, std::string> params)
{
    return Reason{std::move(key), std::move(params)};
}

Reason figure(std::string key)
{
    return Reason{std::move(key), {}};
}

Reason valueFigure(double value, std::string unit)
{
    return Reason{"figure.value", {{"value", reasonNumber(value)}, {"unit", std::move(unit)}}};
}

Reason textFigure(std::string text)
{
    return Reason{"figure.text", {{"text", std::move(text)}}};
}

Reason thresholdFigure(double pass, double peak, const std::string& unit, double fail)
{
    return Reason{
        "figure.share_threshold",
        {{"pass", reasonNumber(pass)}, {"peak", reasonNumber(peak)}, {"unit", unit}, {"fail", reasonNumber(fail)}}};
}

std::optional<double> nvlinkPerDirection(const GpuSpec& spec)
{
    if (spec.interconnect.rfind("NVLink", 0) != 0) {
        return std::nullopt;
    }
    const std::size_t space = spec.interconnect.find(' ');
    if (space == std::string::npos) {
        return std::nullopt;
    }
    const std::string rest = spec.interconnect.substr(space + 1);
    char* end = nullptr;
    const double value = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str() || value <= 0) {
        return std::nullopt;
    }
    const std::string unit(end);
    const double gbs = unit.rfind(" TB/s", 0) == 0 ? value * 1000 : unit.rfind(" GB/s", 0) == 0 ? value : 0;
    return gbs > 0 ? std::optional<double>(gbs / 2) : std::nullopt;
}

std::optional<double> linkBandwidth(const ProbeGpu& gpu)
{
    if (!gpu.pcie || !gpu.pcie->genUnderLoad || !gpu.pcie->widthUnderLoad) {
        return std::nullopt;
    }
    double x16 = 0;
    switch (*gpu.pcie->genUnderLoad) {
        case 3:
            x16 = 15.75;
            break;
        case 4:
            x16 = 31.5;
            break;
        case 5:
            x16 = 63;
            break;
        default:
            return std::nullopt;
    }
    return x16 * *gpu.pcie->widthUnderLoad / 16.0;
}

// ---- the judge ----------------------------------------------------------------------------------------------

Judge::Judge(const ProbeResult& result, const Catalog& catalog, const ExpectedHardware& promised)
    : m_result(result)
    , m_catalog(catalog)
    , m_promised(promised)
{
    m_promisedSpec = catalog.findGpu(promised.gpuId);
    if (!m_promisedSpec) {
        Result<const GpuSpec*> resolved = catalog.resolveGpu(promised.gpuId);
        m_promisedSpec = resolved ? *resolved : nullptr;
    }
}

Verdict Judge::run()
{
    judgeDriver();
    const bool fatal = judgeProbeError();
    if (!fatal || !m_result.gpus.empty()) {
        judgeCount();
        for (const ProbeGpu& gpu : m_result.gpus) {
            judgeGpu(gpu);
        }
        judgeMultiGpu();
    }
    if (!m_result.ok && !m_result.error
        && std::none_of(m_result.gpus.begin(), m_result.gpus.end(), [](auto& g) { return g.error.has_value(); })) {
        add(Check::ProbeIncomplete,
            std::nullopt,
            VerdictLevel::Warn,
            reason("figure.probe_ok", {{"ok", "false"}}),
            reason("figure.probe_ok", {{"ok", "true"}}),
            reason("probe.incomplete", {}));
    }
    for (const VerdictLine& line : m_verdict.lines) {
        if (line.level != VerdictLevel::Unknown && line.level > m_verdict.level) {
            m_verdict.level = line.level;
        }
    }
    return std::move(m_verdict);
}

void Judge::add(Check check, std::optional<int> gpu, VerdictLevel level, Reason measured, Reason expected, Reason why)
{
    add(std::string(checkKey(check)), gpu, level, std::move(measured), std::move(expected), std::move(why));
}

void Judge::add(
    std::string check, std::optional<int> gpu, VerdictLevel level, Reason measured, Reason expected, Reason why)
{
    m_verdict.lines.push_back(
        VerdictLine{std::move(check), gpu, level, std::move(measured), std::move(expected), std::move(why)});
}

void Judge::judgeGpu(const ProbeGpu& gpu)
{
    const GpuSpec* spec = judgeModel(gpu);
    judgeMemory(gpu);
    if (gpu.error) {
        judgeGpuError(gpu);
    }
    judgeCorrectness(gpu);
    for (const ProbeMeasurement& m : gpu.measurements) {
        judgeMeasurement(gpu, spec, m);
    }
    judgeEcc(gpu);
    judgeRetiredPages(gpu);
    judgeRemappedRows(gpu);
    judgeTemperature(gpu);
    judgePower(gpu, spec);
    judgePcie(gpu);
    judgeThrottle(gpu);
    judgeBurn(gpu);
    if (gpu.migEnabled.value_or(false)) {
        add(Check::Mig,
            gpu.index,
            VerdictLevel::Warn,
            figure("figure.on"),
            figure("figure.off"),
            reason("probe.mig.on", {}));
    }
}

} // namespace verdict

Verdict judgeProbe(const ProbeResult& result, const Catalog& catalog, const ExpectedHardware& promised)
{
    return verdict::Judge(result, catalog, promised).run();
}

} // namespace gpuplan::core
