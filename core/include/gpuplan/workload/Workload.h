#pragma once

#include "gpuplan/catalog/Source.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// What the run trains for; the recommender's first question.
enum class TaskType
{
    Vision,      // image classification
    Detection,   // 2D object detection
    Detection3d, // 3D (point-cloud) detection
    Nlp,         // language understanding: encoders
    Llm,         // large language models: pre-training and fine-tuning
};

/// The shape of the network, which decides how well it uses a GPU (the efficiency table's key).
enum class ModelClass
{
    Cnn,
    Detector,
    Encoder, // BERT-like transformer
    Decoder, // GPT-like transformer
};

enum class TrainingMethod
{
    Full, // every parameter is trained
    Lora, // low-rank adapters on a frozen model
};

/// How the amount of work is described.
enum class WorkKind
{
    PerSample,   // training GFLOPs per sample × samples × epochs (CNNs, detectors)
    Transformer, // FLOPs from parameters, layers, hidden size and tokens
    Measured,    // a throughput the user has seen on some GPU, scaled to others
};

/// Numeric precision of the training run.
enum class Precision
{
    Fp32,
    Tf32,
    Amp,  // FP16 mixed precision
    Bf16, // BF16 mixed precision
    Fp8,  // FP8 (Transformer Engine) with BF16 master weights
};

/// How tuned the training code is: after the GPU, the biggest single factor in throughput (the same 8×A100
/// ResNet-50 run is published at 11.4 k, 16.6 k and 26.7 k images/s depending on it).
enum class SoftwareStack
{
    Tuned,   // MLPerf / NGC-grade: DALI, fused kernels, CUDA graphs, Megatron/NeMo-class parallelism
    Typical, // framework defaults with mixed precision and a proper data loader (the default)
    Plain,   // eager code, default data loading, no fused kernels
};

const char* taskTypeName(TaskType task);
std::optional<TaskType> parseTaskType(std::string_view name);
const char* modelClassName(ModelClass modelClass);
std::optional<ModelClass> parseModelClass(std::string_view name);
const char* trainingMethodName(TrainingMethod method);
std::optional<TrainingMethod> parseTrainingMethod(std::string_view name);
const char* workKindName(WorkKind kind);
std::optional<WorkKind> parseWorkKind(std::string_view name);
const char* precisionName(Precision precision);
std::optional<Precision> parsePrecision(std::string_view name);
const char* stackName(SoftwareStack stack);
std::optional<SoftwareStack> parseStack(std::string_view name);

struct ModelShape
{
    double parameters = 0;                     // all parameters
    std::optional<double> trainableParameters; // LoRA: the adapters; full: nullopt (= parameters)
    std::optional<int> layers;
    std::optional<int> hidden;
    std::optional<int> heads;
    std::optional<int> vocab;
};

/// A throughput seen on real hardware ("1200 samples/s on one A100 with AMP").
struct MeasuredThroughput
{
    double value = 0;
    bool tokens = false; // tokens/s; else samples/s
    std::string gpuId;
    int count = 1;
    Precision precision = Precision::Amp;
};

/// One training run to estimate: a preset or the user's own file.
struct Workload
{
    std::string id;
    std::string name;
    std::string nameZh;
    std::string description;
    std::string descriptionZh;
    TaskType task = TaskType::Vision;
    ModelClass modelClass = ModelClass::Cnn;
    TrainingMethod method = TrainingMethod::Full;
    WorkKind kind = WorkKind::PerSample;
    ModelShape model;

    // The amount of work: units (samples or tokens) per epoch × epochs.
    double samplesPerEpoch = 0; // per-sample and measured-in-samples work
    double tokensPerEpoch = 0;  // transformer and measured-in-tokens work
    double epochs = 1;
    std::string sampleUnit = "samples"; // what one sample is: "images", "point clouds", ...
    int sequenceLength = 0;             // transformer
    double trainingGflopsPerSample = 0; // per-sample: forward + backward
    std::optional<MeasuredThroughput> measured;

    SoftwareStack stack = SoftwareStack::Typical;
    int microBatch = 1;                          // per GPU, in samples or sequences
    std::optional<double> activationGbPerSample; // per-sample work: activation memory of one sample
    std::optional<double> datasetGb;             // what has to be uploaded
    std::vector<Source> sources;
    std::string location; // "file: $.workloads[3]", for messages

    /// True when the work is counted in tokens (throughput in tokens/s).
    bool countsTokens() const;
    /// "tokens/s" or "samples/s".
    const char* throughputUnit() const;
    /// Samples or tokens over the whole run.
    double totalUnits() const;
};

} // namespace gpuplan::core
