#pragma once

#include "gpuplan/catalog/GpuSpec.h"
#include "gpuplan/core/Reason.h"
#include "gpuplan/estimate/Calibration.h"
#include "gpuplan/estimate/PerformanceModel.h"
#include "gpuplan/estimate/Range.h"
#include "gpuplan/estimate/Throughput.h"
#include "gpuplan/workload/Workload.h"
#include "gpuplan/workload/WorkloadModel.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

class Catalog;

/// The hardware a run is estimated on.
struct TrainingSetup
{
    const GpuSpec* gpu = nullptr;
    int gpus = 1;
    int gpusPerNode = 8;
    bool rdma = true; // between nodes
    Precision precision = Precision::Amp;
    std::optional<int> vcpusPerNode;   // of the instance: caps CPU-decoded image pipelines; nullopt: not capped
    std::optional<double> ramGib;      // of the instance: a data set that fits its page cache is read from disk once
    std::optional<double> localDiskGb; // instance-local NVMe; a data set on it is read faster than from a volume
};

/// How fast a node reads a data set that does not stay in its page cache, bytes/s: a network volume at AWS gp3's
/// default 125 MiB/s (its range up to the 1,000 MiB/s it can be provisioned with, EC2 CreateVolume), or local NVMe
/// at 2 GB/s (ASSUMPTION).
Range storageReadBytesPerSecond(bool localNvme);

/// How fast one workload trains on one setup, and whether it fits.
struct TrainingEstimate
{
    bool known = false;                       // false: no usable peak or efficiency (see unknown)
    Confidence gpuFigures = Confidence::High; // the catalog's confidence in the GPU's datasheet figures
    Reason unknown; // unknown.no_peak, unknown.no_calibration, unknown.measured_gpu, unknown.no_flops,
                    // unknown.does_not_fit (with `fit`)
    Precision precision = Precision::Amp;
    PeakChoice peak;
    SoftwareStack stack = SoftwareStack::Typical;
    Range efficiency;       // achieved / peak FLOP/s per GPU, scaling losses included
    Reason efficiencyBasis; // efficiency.basis: what the estimate rests on (fitted model, nearby cases)
    Limiter limiter = Limiter::Compute;
    Prediction prediction;                // of the performance model: time shares, per-GPU rate, input ceiling
    std::optional<double> storageCeiling; // samples/s the instance's storage reads, when the data set does not
                                          // stay in its page cache; nullopt: not limited or not known
    Nearness nearness = Nearness::ModelOnly;
    std::vector<std::string> basedOn; // calibration cases that corrected the model
    bool userData = false;            // one of them is the user's own measurement
    Range scaling;
    const char* unit = "samples/s";
    Range throughput;   // over all GPUs
    Range computeHours; // training time without setup or data transfer
    Range gpuHours;
    std::optional<double> mfu; // model FLOPs / (GPUs × peak); nullopt when the FLOPs are unknown
    MemoryPlan memory;
    Reason fit;                // when it does not fit: fit.advice, with what would fit
    std::vector<Reason> notes; // "note.*": what was assumed or substituted
};

/// The performance model's throughput for the workload on the setup, corrected by the nearest calibration cases,
/// with the cross-validated range; × 3/4 with activation checkpointing. Measured work scales the measured rate by
/// the ratio of the model's predictions for the two setups. A workload that does not fit is not estimated (fit
/// says what would fit); an accelerator of a vendor no calibration case covers is not estimated.
TrainingEstimate estimateTraining(const Workload& workload,
                                  const TrainingSetup& setup,
                                  const Calibration& calibration,
                                  const Catalog& catalog);

/// The performance model's view of `workload` on `setup` at `peak`.
RunShape runShape(const Workload& workload, const TrainingSetup& setup, const PeakChoice& peak);

} // namespace gpuplan::core
