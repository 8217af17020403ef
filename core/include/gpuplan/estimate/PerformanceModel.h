#pragma once

#include "gpuplan/catalog/GpuSpec.h"
#include "gpuplan/estimate/Throughput.h"
#include "gpuplan/workload/Workload.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// What limits a run most: where the time of one training step goes (estimate --json "limited_by").
enum class Limiter
{
    Compute,         // tensor-core (or CUDA-core) arithmetic
    MemoryBandwidth, // memory-bound kernels: normalisation, activations, optimizer, small GEMMs
    Host,            // what the software stack around the GPU cannot feed (dispatch, framework overhead)
    InputPipeline,   // JPEG decoding and augmentation on the instance's vCPUs
    Communication,   // gradient all-reduce over NVLink, PCIe or the network
};

const char* limiterName(Limiter limiter);

/// What the performance model needs to know of one training run: a calibration case or a question.
struct RunShape
{
    ModelClass modelClass = ModelClass::Cnn;
    double flopsPerUnit = 0;      // training FLOPs per sample or token
    bool tokens = false;          // counted in tokens (a language model) rather than samples
    double trainedParameters = 0; // parameters whose gradients are all-reduced; 0: unknown
    int hidden = 0;               // transformers: the model width; 0: unknown or not a transformer
    double unitsPerGpuStep = 0;   // samples or tokens per GPU per optimizer step; 0: unknown
    const GpuSpec* gpu = nullptr;
    PeakChoice peak; // the precision's datasheet peak on `gpu`
    int gpus = 1;
    int gpusPerNode = 1;
    double intraNodeBandwidth = 0; // bytes/s of an all-reduce inside a server; 0: intraNodeBusBandwidth(*gpu)
    bool rdma = true;              // between nodes: InfiniBand / EFA / RoCE, else TCP
    SoftwareStack stack = SoftwareStack::Typical;
    bool cpuDecode = false; // images decoded and augmented by the CPU (real data, no GPU decoder)
    std::optional<int> vcpusPerNode;
};

/// Bus bandwidth of an all-reduce inside one server, bytes/s: 80 % of NVLink's one-way rate (the datasheet figure
/// counts both directions), or what a ring over PCIe reaches (about 20 GB/s on Gen4, nccl-tests issue 178; half per
/// older generation, double per newer one).
double intraNodeBusBandwidth(const GpuSpec& gpu);

/// How fast one run goes, and why.
struct Prediction
{
    double perGpu = 0;     // units/s of one GPU alone
    double total = 0;      // units/s over all GPUs, after communication, scaling overheads and the input pipeline
    double scaling = 1;    // total / (gpus × perGpu), the input pipeline not counted
    double efficiency = 0; // achieved / peak FLOP/s of one GPU alone (its model FLOPs utilisation)
    Limiter limiter = Limiter::Compute;
    double computeShare = 0; // of one GPU's time per unit
    double memoryShare = 0;
    double hostShare = 0;
    double communicationShare = 0;      // exposed communication, of the step time
    std::optional<double> inputCeiling; // units/s of the whole run the vCPUs can decode; nullopt: no CPU decoding
};

/// The training-throughput model (docs/estimator.md). Time per unit on one GPU is the sum of a compute term
/// FLOPs / (peak × η) and a memory term FLOPs / (bandwidth × intensity), softly capped by what the software stack
/// can feed a GPU; GPUs together lose the exposed part of the gradient all-reduce (its time over NVLink, PCIe and
/// the network, less what hides behind the backward pass) and a fitted overhead per doubling; CPU-decoded images
/// are capped by the vCPUs. The free parameters are fitted to the calibration cases.
class PerformanceModel
{
public:
    /// Every free parameter, by name (docs/estimator.md lists what each means).
    enum Parameter
    {
        EtaCnn, // compute efficiency of a tuned stack, per class (fraction of the tensor peak)
        EtaDetector,
        EtaEncoder,
        EtaDecoder,
        IntensityCnn, // effective arithmetic intensity of the memory-bound part, FLOPs per byte
        IntensityDetector,
        IntensityEncoder,
        IntensityDecoder,
        TypicalVision, // a typical stack's efficiency relative to a tuned one: CNNs and detectors
        PlainVision,
        TypicalLanguage, // ... encoders and decoders
        PlainLanguage,
        IntensityTypicalVision, // a typical / plain stack's arithmetic intensity relative to a tuned one (unfused
        IntensityPlainVision,   // kernels, NCHW layouts move more bytes per FLOP): CNNs and detectors
        HostCnnTypical,         // FLOP/s per GPU a typical / plain stack can feed at most (detectors: images/s)
        HostDetectorTypical,
        HostVisionPlain,
        HostLanguageTypical,
        HostLanguagePlain,
        ArchVolta, // efficiency of a generation relative to Ampere
        ArchTuring,
        ArchAda,
        ArchHopper,
        ArchBlackwell,
        FamilyFp32, // efficiency of a peak family relative to FP16/BF16 tensor cores
        FamilyTf32,
        FamilyFp8,
        SmallWidth,          // transformers: efficiency × hidden / (hidden + this), small GEMMs
        Overlap,             // the share of the backward pass the all-reduce hides behind
        OverheadPerDoubling, // throughput kept per doubling of GPUs, communication aside
        ParameterCount
    };

    struct ParameterInfo
    {
        const char* name;
        double prior;  // centre of the weak prior the fit is pulled towards
        double spread; // the prior's standard deviation, in log space
        double lower;  // bounds
        double upper;
    };
    static const ParameterInfo& info(Parameter p);

    PerformanceModel();

    /// One published (or the user's) measurement to fit.
    struct Observation
    {
        RunShape shape;
        double measured = 0; // units/s over all GPUs
        double weight = 1;   // 1 / cases of its source group: a big table does not outvote a small one
    };

    /// Fits the parameters to `cases` (weighted least squares of log(predicted / measured), with weak priors),
    /// starting from `start` when given (the cross-validation starts every fold from the full fit).
    static PerformanceModel fit(const std::vector<Observation>& cases, const PerformanceModel* start = nullptr);

    Prediction predict(const RunShape& shape) const;

    double value(Parameter p) const { return m_values[p]; }
    void set(Parameter p, double value);

private:
    std::array<double, ParameterCount> m_values{};
};

} // namespace gpuplan::core
