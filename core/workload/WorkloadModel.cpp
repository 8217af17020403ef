#include "gpuplan/workload/WorkloadModel.h"

#include <algorithm>
#include <cmath>

namespace gpuplan::core {

namespace {

constexpr double kGb = 1e9;

bool hasTransformerShape(const Workload& w)
{
    return w.model.layers && w.model.hidden && w.sequenceLength > 0;
}

} // namespace

double trainedParameters(const Workload& w)
{
    return w.method == TrainingMethod::Lora ? w.model.trainableParameters.value_or(0) : w.model.parameters;
}

std::optional<double> trainingFlopsPerUnit(const Workload& w)
{
    switch (w.kind) {
        case WorkKind::PerSample:
            return w.trainingGflopsPerSample * 1e9;
        case WorkKind::Transformer:
        case WorkKind::Measured: {
            if (w.kind == WorkKind::Measured && (!w.measured || !w.measured->tokens || w.model.parameters <= 0)) {
                if (w.trainingGflopsPerSample > 0) {
                    return w.trainingGflopsPerSample * 1e9;
                }
                return std::nullopt;
            }
            const double n = w.model.parameters;
            const double attention = hasTransformerShape(w)
                                         ? double(*w.model.layers) * double(*w.model.hidden) * double(w.sequenceLength)
                                         : 0.0;
            if (w.method == TrainingMethod::Lora) {
                return 4 * n + 8 * attention + 6 * trainedParameters(w);
            }
            return 6 * n + 12 * attention;
        }
    }
    return std::nullopt;
}

const char* shardingName(Sharding sharding)
{
    return sharding == Sharding::FullySharded ? "fsdp" : "ddp";
}

MemoryPlan memoryPlan(const Workload& w,
                      Precision precision,
                      double gpuMemoryGb,
                      int gpus,
                      Sharding sharding,
                      bool checkpointing,
                      int microBatch)
{
    MemoryPlan plan;
    plan.sharding = sharding;
    plan.activationCheckpointing = checkpointing;
    plan.microBatch = microBatch;
    plan.capacityGb = gpuMemoryGb;
    plan.reserveGb = 1.0 + 0.05 * gpuMemoryGb;
    if (w.model.parameters <= 0) {
        plan.known = false;
        plan.fits = true; // nothing says it does not; the caller reports it as unknown
        return plan;
    }
    const bool fp32 = precision == Precision::Fp32 || precision == Precision::Tf32;
    const double trained = trainedParameters(w);
    const double frozen = w.method == TrainingMethod::Lora ? w.model.parameters : 0.0; // adapters come on top
    const double weightBytes = fp32 ? 4 : 2;
    const double gradientBytes = fp32 ? 4 : 2;
    const double optimizerBytes = fp32 ? 8 : 12; // Adam moments (+ FP32 master weights in mixed precision)
    const double share = sharding == Sharding::FullySharded ? 1.0 / std::max(1, gpus) : 1.0;
    plan.weightsGb = (frozen + trained) * weightBytes * share / kGb;
    plan.gradientsGb = trained * gradientBytes * share / kGb;
    plan.optimizerGb = trained * optimizerBytes * share / kGb;

    const double b = microBatch;
    if (w.countsTokens() && hasTransformerShape(w)) {
        const double s = w.sequenceLength;
        const double h = *w.model.hidden;
        const double layers = *w.model.layers;
        const double perLayer = (checkpointing ? 2.0 : 34.0) * s * b * h;
        const double logits = w.model.vocab ? 4.0 * s * b * double(*w.model.vocab) : 0.0;
        plan.activationsGb = (perLayer * layers + logits) / kGb;
    } else if (w.activationGbPerSample) {
        // Checkpointing a CNN keeps roughly the square root of its layers' activations (Chen et al. 2016);
        // without a layer count, count it as a third.
        plan.activationsGb = *w.activationGbPerSample * b * (checkpointing ? 1.0 / 3.0 : 1.0);
    }
    plan.fits = plan.totalGb() <= gpuMemoryGb;
    return plan;
}

MemoryPlan fitMemory(const Workload& w, Precision precision, double gpuMemoryGb, int gpus)
{
    MemoryPlan last;
    for (int micro = std::max(1, w.microBatch);; micro /= 2) {
        for (Sharding sharding : {Sharding::DataParallel, Sharding::FullySharded}) {
            if (sharding == Sharding::FullySharded && gpus < 2) {
                continue;
            }
            for (bool checkpointing : {false, true}) {
                last = memoryPlan(w, precision, gpuMemoryGb, gpus, sharding, checkpointing, micro);
                if (last.fits || !last.known) {
                    return last;
                }
            }
        }
        if (micro <= 1) {
            return last;
        }
    }
}

std::optional<int> gpusNeededToFit(const Workload& w, Precision precision, double gpuMemoryGb, int maxGpus)
{
    for (int gpus = 1; gpus <= maxGpus; gpus = gpus < 8 ? gpus * 2 : gpus + 8) {
        if (fitMemory(w, precision, gpuMemoryGb, gpus).fits) {
            return gpus;
        }
    }
    return std::nullopt;
}

} // namespace gpuplan::core
