#include "gpuplan/estimate/Throughput.h"

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/estimate/Calibration.h"
#include "gpuplan/workload/WorkloadLoader.h"
#include "gpuplan/workload/WorkloadModel.h"

#include <algorithm>
#include <cmath>

namespace gpuplan::core {

const char* peakFamilyName(PeakFamily family)
{
    switch (family) {
        case PeakFamily::Fp32:
            return "fp32";
        case PeakFamily::Tf32:
            return "tf32";
        case PeakFamily::Half:
            return "fp16/bf16";
        case PeakFamily::Fp8:
            return "fp8";
    }
    return "?";
}

std::optional<PeakChoice> peakFor(const GpuSpec& gpu, Precision precision)
{
    const PeakTflops& p = gpu.peak;
    auto substituted = [&](const std::string& wanted, const std::string& used) {
        return Reason{"note.precision_substituted", {{"gpu", gpu.name}, {"wanted", wanted}, {"used", used}}};
    };
    auto half = [&](const char* wanted) -> std::optional<PeakChoice> {
        if (std::string(wanted) == "bf16" && p.bf16) {
            return PeakChoice{*p.bf16, PeakFamily::Half, "bf16", ""};
        }
        if (p.fp16) {
            return PeakChoice{*p.fp16,
                              PeakFamily::Half,
                              "fp16",
                              std::string(wanted) == "bf16" ? substituted("bf16", "fp16") : Reason{}};
        }
        if (p.bf16) {
            return PeakChoice{*p.bf16, PeakFamily::Half, "bf16", substituted("fp16", "bf16")};
        }
        return std::nullopt;
    };
    switch (precision) {
        case Precision::Fp32:
            if (p.fp32) {
                return PeakChoice{*p.fp32, PeakFamily::Fp32, "fp32", ""};
            }
            return std::nullopt;
        case Precision::Tf32:
            if (p.tf32) {
                return PeakChoice{*p.tf32, PeakFamily::Tf32, "tf32", ""};
            }
            if (p.fp32) {
                return PeakChoice{*p.fp32, PeakFamily::Fp32, "fp32", substituted("tf32", "fp32")};
            }
            return std::nullopt;
        case Precision::Amp:
            return half("fp16");
        case Precision::Bf16:
            return half("bf16");
        case Precision::Fp8:
            if (p.fp8) {
                return PeakChoice{*p.fp8, PeakFamily::Fp8, "fp8", ""};
            }
            if (std::optional<PeakChoice> fallback = half("bf16")) {
                fallback->note = substituted("fp8", fallback->used);
                return fallback;
            }
            return std::nullopt;
    }
    return std::nullopt;
}

Precision defaultPrecision(const GpuSpec& gpu)
{
    if (gpu.peak.bf16) {
        return Precision::Bf16;
    }
    if (gpu.peak.fp16) {
        return Precision::Amp;
    }
    return Precision::Fp32;
}

Topology topologyFor(const GpuSpec& gpu, int gpus, int gpusPerNode, bool rdma)
{
    const std::string& link = gpu.interconnect;
    // wire: interconnects as gpus.json names them
    const bool fast = link.rfind("NVLink", 0) == 0 || link.rfind("Infinity Fabric", 0) == 0 || link.rfind("ICI", 0) == 0
                      || link.find("NVSwitch") == 0;
    return Topology{std::max(1, gpus), std::max(1, gpusPerNode), fast, rdma};
}

Range scalingFactor(const Topology& t)
{
    const int inNode = std::min(t.gpus, t.gpusPerNode);
    const double intraDoublings = std::log2(double(std::max(1, inNode)));
    const double interDoublings = std::log2(double(std::max(1, t.nodes())));
    const Range intra = t.fastIntraNode ? Range{0.97, 0.94, 0.99} : Range{0.90, 0.85, 0.95};
    const Range inter = t.rdmaBetweenNodes ? Range{0.93, 0.88, 0.97} : Range{0.70, 0.55, 0.85};
    auto power = [](double base, double exponent) { return std::pow(base, exponent); };
    return Range{power(intra.value, intraDoublings) * power(inter.value, interDoublings),
                 power(intra.low, intraDoublings) * power(inter.low, interDoublings),
                 power(intra.high, intraDoublings) * power(inter.high, interDoublings)};
}

namespace {

std::optional<double> familyPeak(const GpuSpec& gpu, PeakFamily family)
{
    switch (family) {
        case PeakFamily::Fp32:
            return gpu.peak.fp32;
        case PeakFamily::Tf32:
            return gpu.peak.tf32;
        case PeakFamily::Half:
            return gpu.peak.fp16 ? gpu.peak.fp16 : gpu.peak.bf16;
        case PeakFamily::Fp8:
            return gpu.peak.fp8;
    }
    return std::nullopt;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

EfficiencyTable EfficiencyTable::fit(const std::vector<CalibrationCase>& cases,
                                     const Catalog& catalog,
                                     const LoadedWorkloads& presets,
                                     std::vector<Error>& problems)
{
    EfficiencyTable table;
    for (const CalibrationCase& c : cases) {
        auto fail = [&](Reason reason) {
            problems.push_back(Error{ErrorCode::UnknownReference, std::move(reason), c.location});
        };
        const GpuSpec* gpu = catalog.findGpu(c.gpuId);
        if (!gpu) {
            fail(Reason{"error.estimate.unknown_gpu", {{"gpu", c.gpuId}}});
            continue;
        }
        double flops = c.flopsPerUnit;
        if (!c.workloadId.empty()) {
            Result<Workload> preset = presets.find(c.workloadId);
            if (!preset) {
                fail(Reason{"error.estimate.unknown_workload", {{"workload", c.workloadId}}});
                continue;
            }
            flops = trainingFlopsPerUnit(*preset).value_or(0);
        }
        std::optional<PeakChoice> peak = peakFor(*gpu, c.precision);
        if (!peak || (c.measured && flops <= 0)) {
            fail(Reason{"error.estimate.no_peak", {}});
            continue;
        }
        const bool rdma = true; // published multi-node results run on InfiniBand-class networks
        const Range scaling = scalingFactor(topologyFor(*gpu, c.count, c.gpusPerNode, rdma));
        const double achieved = c.mfu ? *c.mfu : *c.measured * flops / (c.count * peak->tflops * 1e12);
        table.m_points.push_back(Point{c.id,
                                       c.modelClass,
                                       gpu->id,
                                       gpu->architecture,
                                       peak->family,
                                       achieved / scaling.value,
                                       peak->tflops,
                                       gpu->memoryBandwidthGBs});
    }
    return table;
}

std::optional<EfficiencyTable::Lookup>
EfficiencyTable::lookup(ModelClass modelClass, const GpuSpec& gpu, PeakFamily family, std::string_view without) const
{
    struct Level
    {
        int level;
        double widen; // extra relative width of the range for a looser match
    };
    // 1: same GPU, 2: same architecture, 3: same model class on other GPUs, 4: other model classes.
    const Level levels[] = {{1, 0.0}, {2, 0.10}, {3, 0.20}, {4, 0.30}};
    for (const Level& level : levels) {
        std::vector<double> values;
        Lookup found;
        for (const Point& p : m_points) {
            if (p.caseId == without || p.family != family) {
                continue;
            }
            const bool sameClass = p.modelClass == modelClass;
            const bool matches = (level.level == 1 && sameClass && p.gpuId == gpu.id)
                                 || (level.level == 2 && sameClass && p.architecture == gpu.architecture)
                                 || (level.level == 3 && sameClass) || level.level == 4;
            if (matches) {
                double efficiency = p.efficiency;
                const bool bandwidthBound = modelClass == ModelClass::Cnn || modelClass == ModelClass::Detector;
                const std::optional<double> peak = familyPeak(gpu, family);
                if (bandwidthBound && p.gpuId != gpu.id && peak && gpu.memoryBandwidthGBs && p.memoryBandwidthGBs) {
                    const double balance = (*gpu.memoryBandwidthGBs / *peak) / (*p.memoryBandwidthGBs / p.peakTflops);
                    efficiency *= std::min(1.0, balance);
                }
                values.push_back(efficiency);
                found.caseIds.push_back(p.caseId);
            }
        }
        if (values.empty()) {
            continue;
        }
        const double mid = median(values);
        const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
        // One case says little about the spread: at least +-15 %.
        const double low = std::min(*lowest, mid * 0.85) * (1 - level.widen);
        const double high = std::max(*highest, mid * 1.15) * (1 + level.widen);
        found.efficiency = Range{mid, low, std::min(high, 1.0)};
        found.level = level.level;
        found.basis = Reason{"efficiency.basis",
                             {{"cases", std::to_string(values.size())},
                              {"level", std::to_string(level.level)},
                              {"family", peakFamilyName(family)}}};
        return found;
    }
    return std::nullopt;
}

} // namespace gpuplan::core
