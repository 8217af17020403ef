#pragma once

#include "gpuplan/catalog/GpuSpec.h"
#include "gpuplan/core/Reason.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/estimate/Range.h"
#include "gpuplan/workload/Workload.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

class Catalog;
struct LoadedWorkloads;

/// Which datasheet peak a precision runs at; efficiencies are fitted per family.
enum class PeakFamily
{
    Fp32, // CUDA cores, no tensor cores
    Tf32,
    Half, // FP16 / BF16 tensor cores
    Fp8,
};

const char* peakFamilyName(PeakFamily family);

/// The peak a run at `precision` can use on `gpu`, with what was substituted when the card lacks it.
struct PeakChoice
{
    double tflops = 0;
    PeakFamily family = PeakFamily::Half;
    std::string used; // "bf16", "fp16", ...
    Reason note;      // "note.precision_substituted" (gpu, wanted, used) when the card lacks the precision; else empty
};

/// BF16 falls back to FP16, TF32 to FP32, FP8 to BF16/FP16 (with a note); nullopt when the datasheet states
/// no usable peak.
std::optional<PeakChoice> peakFor(const GpuSpec& gpu, Precision precision);

/// The best precision a card trains at without changing the recipe: BF16 where it has it, else FP16 mixed
/// precision, else FP32. FP8 is never chosen by itself (it needs Transformer Engine and care).
Precision defaultPrecision(const GpuSpec& gpu);

/// How the GPUs of a run talk to each other.
struct Topology
{
    int gpus = 1;
    int gpusPerNode = 1;
    bool fastIntraNode = false;    // NVLink / NVSwitch / Infinity Fabric / ICI, not PCIe
    bool rdmaBetweenNodes = false; // InfiniBand / EFA / RoCE, not plain Ethernet

    int nodes() const { return (gpus + gpusPerNode - 1) / gpusPerNode; }
};

/// The topology of `gpus` GPUs of `gpu`, `gpusPerNode` to a server.
Topology topologyFor(const GpuSpec& gpu, int gpus, int gpusPerNode, bool rdma);

/// Data-parallel scaling efficiency (throughput of n GPUs / n × one GPU): a factor per doubling of GPUs
/// inside a node (NVLink 0.97, PCIe 0.90) and per doubling of nodes (RDMA 0.93, Ethernet 0.70), each with a
/// low/high. See docs/estimator.md for where these come from.
Range scalingFactor(const Topology& topology);

struct CalibrationCase;

/// The first model (wave 1), kept only so that `gpuplan calibrate --report` can show it beside the current one:
/// the efficiency (achieved FLOPs / peak FLOPs, scaling losses taken out) of each calibration case, and a lookup of
/// the median of the cases nearest to the question.
class EfficiencyTable
{
public:
    struct Point
    {
        std::string caseId;
        ModelClass modelClass = ModelClass::Cnn;
        std::string gpuId;
        std::string architecture;
        PeakFamily family = PeakFamily::Half;
        double efficiency = 0;
        double peakTflops = 0;                    // of the case's GPU, for its family
        std::optional<double> memoryBandwidthGBs; // of the case's GPU
    };

    struct Lookup
    {
        Range efficiency;
        int level = 0; // 1 same GPU, 2 same architecture, 3 same class any GPU, 4 any class
        Reason basis;  // efficiency.basis: "median of 3 calibration cases (same architecture, fp16/bf16)"
        std::vector<std::string> caseIds;
    };

    /// Fits the table; cases naming an unknown GPU or preset, or without a peak, become problems.
    static EfficiencyTable fit(const std::vector<CalibrationCase>& cases,
                               const Catalog& catalog,
                               const LoadedWorkloads& presets,
                               std::vector<Error>& problems);

    /// The efficiency for this class, GPU and peak family. A case on another GPU carries over as is for
    /// transformers; for CNNs and detectors, which are bound by memory bandwidth as much as by compute, it is
    /// scaled by min(1, (bandwidth / peak of this GPU) / (bandwidth / peak of the case's GPU)), so the speed-up
    /// over the case's GPU is the smaller of the peak ratio and the bandwidth ratio (a roofline transfer); `without`
    /// leaves one case out (the calibration test's leave-one-out). nullopt when no case of the family exists at all.
    std::optional<Lookup>
    lookup(ModelClass modelClass, const GpuSpec& gpu, PeakFamily family, std::string_view without = {}) const;

    const std::vector<Point>& points() const { return m_points; }

private:
    std::vector<Point> m_points;
};

} // namespace gpuplan::core
