#pragma once

#include "gpuplan/workload/Workload.h"

#include <optional>
#include <string>

namespace gpuplan::core {

/// The parameters that get gradients and optimizer state: the adapters for LoRA, all of them otherwise.
double trainedParameters(const Workload& workload);

/// Training FLOPs per sample or per token (forward + backward, without recomputation), the figure MFU is
/// measured against. Transformers, per token (Chowdhery et al. 2022, PaLM, appendix B):
///   full: 6 N + 12 L h s            (N parameters, L layers, h hidden size, s sequence length)
///   LoRA: 4 N + 8 L h s + 6 N_train (no weight gradients for the frozen N; the adapters train fully)
/// Per-sample work: the file's training GFLOPs per sample. nullopt for measured work without a model.
std::optional<double> trainingFlopsPerUnit(const Workload& workload);

/// How the model state is spread over the GPUs.
enum class Sharding
{
    DataParallel, // every GPU holds the whole model state (DDP)
    FullySharded, // weights, gradients and optimizer state divided over the GPUs (ZeRO-3 / FSDP)
};

const char* shardingName(Sharding sharding);

/// One way of fitting the run into GPU memory and what each part needs per GPU, in GB (1e9 bytes).
struct MemoryPlan
{
    Sharding sharding = Sharding::DataParallel;
    bool activationCheckpointing = false; // recompute activations in the backward pass (costs 1/3 more compute)
    int microBatch = 1;
    double weightsGb = 0;
    double gradientsGb = 0;
    double optimizerGb = 0;
    double activationsGb = 0;
    double reserveGb = 0; // CUDA context, framework and fragmentation: 1 GB + 5 % of the card
    double capacityGb = 0;
    bool known = true; // false when the workload says too little to tell (measured work without a model)
    bool fits = false;

    double totalGb() const { return weightsGb + gradientsGb + optimizerGb + activationsGb + reserveGb; }
};

/// Memory per GPU for one configuration. Model state (Rajbhandari et al. 2020, ZeRO, section 3.1): mixed
/// precision with Adam keeps 16 bytes per trained parameter (2 weights + 2 gradients + 12 optimizer:
/// FP32 master copy, momentum, variance); FP32 training keeps 4 + 4 + 8. Frozen LoRA weights keep 2 bytes
/// (4 in FP32). Transformer activations per layer (Korthikanti et al. 2022, table 2, with attention that
/// does not store the s × s scores, as FlashAttention): 34 s b h bytes; with checkpointing only the layer
/// input, 2 s b h; plus the FP32 logits, 4 s b V. Per-sample work: the file's activation GB per sample × b.
MemoryPlan memoryPlan(const Workload& workload,
                      Precision precision,
                      double gpuMemoryGb,
                      int gpus,
                      Sharding sharding,
                      bool checkpointing,
                      int microBatch);

/// The first configuration that fits, tried in this order at the workload's micro-batch, then at half of
/// it down to 1: DDP, DDP + checkpointing, FSDP, FSDP + checkpointing (FSDP only with 2+ GPUs). When none
/// fits, the FSDP + checkpointing plan at micro-batch 1 with fits = false.
MemoryPlan fitMemory(const Workload& workload, Precision precision, double gpuMemoryGb, int gpus);

/// The smallest number of GPUs of `gpuMemoryGb` that fits, up to `maxGpus` (powers of two, then multiples of
/// 8); nullopt when even that does not fit.
std::optional<int> gpusNeededToFit(const Workload& workload, Precision precision, double gpuMemoryGb, int maxGpus);

} // namespace gpuplan::core
