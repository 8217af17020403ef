#pragma once

#include "gpuplan/catalog/GpuSpec.h"
#include "gpuplan/core/Reason.h"
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
};

/// How fast one workload trains on one setup, and whether it fits.
struct TrainingEstimate
{
    bool known = false; // false: no usable peak or efficiency (see unknown)
    Reason unknown;     // unknown.no_peak, unknown.no_calibration, unknown.measured_gpu, unknown.no_flops
    Precision precision = Precision::Amp;
    PeakChoice peak;
    Range efficiency;
    Reason efficiencyBasis;
    Range scaling;
    const char* unit = "samples/s";
    Range throughput;   // over all GPUs
    Range computeHours; // training time without setup or data transfer
    Range gpuHours;
    std::optional<double> mfu; // model FLOPs / (GPUs × peak); nullopt when the FLOPs are unknown
    MemoryPlan memory;
    Reason fit; // when it does not fit: fit.advice, with what would fit
    std::vector<std::string> notes;
};

/// throughput = GPUs × peak(precision) × efficiency(class, GPU, family) × scaling / FLOPs per unit; with
/// activation checkpointing × 3/4. Measured work scales the measured rate by the ratio of the two setups'
/// peak × efficiency × scaling.
TrainingEstimate estimateTraining(const Workload& workload,
                                  const TrainingSetup& setup,
                                  const EfficiencyTable& table,
                                  const Catalog& catalog);

} // namespace gpuplan::core
