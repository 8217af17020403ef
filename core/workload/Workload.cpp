#include "gpuplan/workload/Workload.h"

#include <array>
#include <utility>

namespace gpuplan::core {

namespace {

template <typename Enum, std::size_t N>
const char* nameOf(const std::array<std::pair<Enum, const char*>, N>& names, Enum value)
{
    for (const auto& [candidate, name] : names) {
        if (candidate == value) {
            return name;
        }
    }
    return "?";
}

template <typename Enum, std::size_t N>
std::optional<Enum> parseName(const std::array<std::pair<Enum, const char*>, N>& names, std::string_view text)
{
    for (const auto& [value, name] : names) {
        if (text == name) {
            return value;
        }
    }
    return std::nullopt;
}

constexpr std::array kTasks{std::pair{TaskType::Vision, "vision"},
                            std::pair{TaskType::Detection, "detection"},
                            std::pair{TaskType::Detection3d, "detection3d"},
                            std::pair{TaskType::Nlp, "nlp"},
                            std::pair{TaskType::Llm, "llm"}};
constexpr std::array kClasses{std::pair{ModelClass::Cnn, "cnn"},
                              std::pair{ModelClass::Detector, "detector"},
                              std::pair{ModelClass::Encoder, "encoder"},
                              std::pair{ModelClass::Decoder, "decoder"}};
constexpr std::array kMethods{std::pair{TrainingMethod::Full, "full"}, std::pair{TrainingMethod::Lora, "lora"}};
constexpr std::array kKinds{std::pair{WorkKind::PerSample, "per_sample"},
                            std::pair{WorkKind::Transformer, "transformer"},
                            std::pair{WorkKind::Measured, "measured"}};
constexpr std::array kPrecisions{std::pair{Precision::Fp32, "fp32"},
                                 std::pair{Precision::Tf32, "tf32"},
                                 std::pair{Precision::Amp, "amp"},
                                 std::pair{Precision::Bf16, "bf16"},
                                 std::pair{Precision::Fp8, "fp8"}};

constexpr std::array kStacks{std::pair{SoftwareStack::Tuned, "tuned"},
                             std::pair{SoftwareStack::Typical, "typical"},
                             std::pair{SoftwareStack::Plain, "plain"}};

} // namespace

const char* taskTypeName(TaskType task)
{
    return nameOf(kTasks, task);
}
std::optional<TaskType> parseTaskType(std::string_view name)
{
    return parseName(kTasks, name);
}
const char* modelClassName(ModelClass modelClass)
{
    return nameOf(kClasses, modelClass);
}
std::optional<ModelClass> parseModelClass(std::string_view name)
{
    return parseName(kClasses, name);
}
const char* trainingMethodName(TrainingMethod method)
{
    return nameOf(kMethods, method);
}
std::optional<TrainingMethod> parseTrainingMethod(std::string_view name)
{
    return parseName(kMethods, name);
}
const char* workKindName(WorkKind kind)
{
    return nameOf(kKinds, kind);
}
std::optional<WorkKind> parseWorkKind(std::string_view name)
{
    return parseName(kKinds, name);
}
const char* precisionName(Precision precision)
{
    return nameOf(kPrecisions, precision);
}
std::optional<Precision> parsePrecision(std::string_view name)
{
    return parseName(kPrecisions, name);
}

const char* stackName(SoftwareStack stack)
{
    return nameOf(kStacks, stack);
}
std::optional<SoftwareStack> parseStack(std::string_view name)
{
    return parseName(kStacks, name);
}

bool Workload::countsTokens() const
{
    return kind == WorkKind::Transformer || (kind == WorkKind::Measured && measured && measured->tokens);
}

const char* Workload::throughputUnit() const
{
    return countsTokens() ? "tokens/s" : "samples/s";
}

double Workload::totalUnits() const
{
    return (countsTokens() ? tokensPerEpoch : samplesPerEpoch) * epochs;
}

} // namespace gpuplan::core
