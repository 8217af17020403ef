#include "gpuplan/run/StarterScript.h"

#include "gpuplan/plan/PlanDocument.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string_view>
#include <tuple>
#include <utility>

namespace gpuplan::core {

namespace {

// GPT-2 124M's shape: the transformer a plan without one gets.
// source: https://huggingface.co/openai-community/gpt2/blob/b57efa2c4b00d481a02466eccc3e48f7c3f4d86c/config.json
constexpr int kDefaultLayers = 12;
constexpr int kDefaultHidden = 768;
constexpr int kDefaultHeads = 12;
constexpr int kDefaultVocabulary = 50257;
constexpr int kDefaultSequence = 1024;
constexpr std::int64_t kDefaultSteps = 1000;
constexpr double kDefaultCheckpointHours = 1.0;
constexpr double kLogSeconds = 10.0;
constexpr std::int64_t kMostSteps = 1'000'000'000'000;

Error badSetting(const std::string& setting, const std::string& value)
{
    return Error{ErrorCode::InvalidArgument,
                 Reason{"error.run.starter_bad_setting", {{"setting", setting}, {"value", value}}},
                 setting};
}

Status inRange(const std::string& setting, std::int64_t value, std::int64_t low, std::int64_t high)
{
    if (value < low || value > high) {
        return badSetting(setting, std::to_string(value));
    }
    return Ok{};
}

Status oneOf(const std::string& setting, const std::string& value, std::initializer_list<std::string_view> names)
{
    if (std::find(names.begin(), names.end(), value) == names.end()) {
        return badSetting(setting, value);
    }
    return Ok{};
}

/// A Python string literal: JSON's escaping ("\"", "\\", control characters as \n or \u00XX) is valid Python, and
/// bytes that are not UTF-8 become U+FFFD instead of failing.
std::string pythonString(const std::string& text)
{
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// The plan's precision as the starter trains it.
std::string starterPrecision(const std::string& planned)
{
    if (planned == "amp") {
        return "fp16";
    }
    if (planned == "fp32" || planned == "tf32" || planned == "bf16") {
        return planned;
    }
    return "bf16"; // fp8 (bf16 master weights; the starter has no Transformer Engine), or none
}

std::string familyOf(const PlanWorkload& workload)
{
    if (workload.modelClass == "encoder" || workload.modelClass == "decoder") {
        return "transformer";
    }
    if (workload.modelClass == "cnn" || workload.modelClass == "detector") {
        return "cnn";
    }
    return workload.task == "nlp" || workload.task == "llm" ? "transformer" : "cnn";
}

int positive(std::optional<int> value, int fallback)
{
    return value && *value > 0 ? *value : fallback;
}

} // namespace

StarterSettings starterSettingsOf(const PlanDocument& plan, std::optional<int> option)
{
    StarterSettings s;
    s.workloadName = plan.workload.name;
    s.family = familyOf(plan.workload);
    const Workload* workload = plan.workload.definition ? &*plan.workload.definition : nullptr;
    const int index = option.value_or(plan.choice.value_or(0));
    const PlanOption* chosen = index >= 0 && static_cast<std::size_t>(index) < plan.results.options.size()
                                   ? &plan.results.options[static_cast<std::size_t>(index)]
                                   : nullptr;
    const bool transformer = s.family == "transformer";

    s.precision = starterPrecision(chosen ? chosen->training.precision : std::string());
    if (chosen && chosen->gpus > 0) {
        s.gpus = std::max(1, chosen->gpus / std::max(1, chosen->nodes));
    }
    int batch = 0;
    if (chosen && chosen->training.memory) {
        batch = chosen->training.memory->microBatch;
    }
    if (batch <= 0 && workload) {
        batch = workload->microBatch;
    }
    s.batchSize = batch > 0 ? batch : (transformer ? 8 : 32);

    if (transformer) {
        std::optional<int> sequence = plan.workload.sequenceLength;
        if (!sequence && workload) {
            sequence = workload->sequenceLength;
        }
        s.sequenceLength = positive(sequence, kDefaultSequence);
        const ModelShape shape = workload ? workload->model : ModelShape{};
        s.vocabulary = positive(shape.vocab, kDefaultVocabulary);
        s.layers = positive(shape.layers, kDefaultLayers);
        s.hidden = positive(shape.hidden, kDefaultHidden);
        s.heads = positive(shape.heads, kDefaultHeads);
        if (s.hidden % s.heads != 0) { // a shape the attention cannot split: heads of 64 as GPT-2's, else one
            s.heads = s.hidden % 64 == 0 ? s.hidden / 64 : 1;
        }
    }

    // The work: samples, or tokens when the plan counts them (a language model's work measured in samples counts
    // sequences).
    const double perSample = transformer && plan.workload.unit == "tokens" ? s.sequenceLength : 1.0;
    const double perStep = double(s.batchSize) * s.gpus * perSample;
    if (plan.workload.units > 0) {
        s.totalSteps = std::clamp<std::int64_t>(
            static_cast<std::int64_t>(std::ceil(plan.workload.units / perStep)), 1, kMostSteps);
    } else {
        s.totalSteps = kDefaultSteps;
    }

    double hours = kDefaultCheckpointHours;
    if (plan.assumptions && plan.assumptions->checkpointEveryHours > 0) {
        hours = plan.assumptions->checkpointEveryHours;
    }
    std::optional<double> stepsPerSecond;
    if (chosen) {
        if (const PlanMode* spot = chosen->firstEligible(&isSpot);
            spot && spot->spot && spot->spot->checkpointIntervalHours > 0) {
            hours = spot->spot->checkpointIntervalHours;
        }
        // The planned throughput is of all the option's GPUs, each with its micro-batch.
        const PlanTraining& training = chosen->training;
        const int gpus = std::max(1, training.count > 0 ? training.count : chosen->gpus);
        const double unitsPerSample = training.throughputUnit.starts_with("tokens") ? s.sequenceLength : 1.0;
        if (training.throughput.value > 0 && unitsPerSample > 0) {
            stepsPerSecond = training.throughput.value / (double(s.batchSize) * gpus * unitsPerSample);
        }
    }
    if (stepsPerSecond) {
        const double steps = std::floor(hours * 3600.0 * *stepsPerSecond);
        s.checkpointEvery = steps >= double(kMostSteps) ? kMostSteps : std::max<std::int64_t>(1, std::int64_t(steps));
        s.logEvery = int(std::clamp<double>(std::llround(*stepsPerSecond * kLogSeconds), 1, 100));
    } else {
        s.checkpointEvery = kDefaultSteps;
        s.logEvery = 10;
    }
    s.checkpointEvery = std::min(s.checkpointEvery, s.totalSteps);
    return s;
}

Status checkStarterSettings(const StarterSettings& s)
{
    if (Status ok = oneOf("family", s.family, {"cnn", "transformer"}); !ok) {
        return ok;
    }
    if (Status ok = oneOf("precision", s.precision, {"bf16", "fp16", "fp32", "tf32"}); !ok) {
        return ok;
    }
    const std::vector<std::string>& signals = interruptSignals();
    if (std::find(signals.begin(), signals.end(), s.interruptSignal) == signals.end()) {
        return badSetting("interrupt_signal", s.interruptSignal);
    }
    const bool transformer = s.family == "transformer";
    const std::array<std::tuple<const char*, std::int64_t, std::int64_t, std::int64_t>, 13> numbers{{
        {"gpus", s.gpus, 1, 1024},
        {"batch_size", s.batchSize, 1, 1'000'000},
        {"sequence_length", s.sequenceLength, transformer ? 1 : 0, 1'048'576},
        {"vocabulary", s.vocabulary, transformer ? 2 : 0, 10'000'000},
        {"layers", s.layers, transformer ? 1 : 0, 1000},
        {"hidden", s.hidden, transformer ? 1 : 0, 65536},
        {"heads", s.heads, transformer ? 1 : 0, 65536},
        {"image_size", s.imageSize, 8, 4096},
        {"classes", s.classes, 2, 1'000'000},
        {"total_steps", s.totalSteps, 1, kMostSteps},
        {"checkpoint_every", s.checkpointEvery, 1, kMostSteps},
        {"log_every", s.logEvery, 1, 1'000'000},
        {"seed", s.seed, 0, 2'147'483'647},
    }};
    for (const auto& [setting, value, low, high] : numbers) {
        if (Status ok = inRange(setting, value, low, high); !ok) {
            return ok;
        }
    }
    if (transformer && s.hidden % s.heads != 0) { // the attention splits the hidden size among the heads
        return badSetting("hidden", std::to_string(s.hidden));
    }
    return Ok{};
}

Result<std::string> starterScript(const StarterSettings& s, const std::string& templateText)
{
    if (Status ok = checkStarterSettings(s); !ok) {
        return ok.error();
    }
    const std::map<std::string, std::string> values{
        {"workload_name", pythonString(s.workloadName)},
        {"family", pythonString(s.family)},
        {"precision", pythonString(s.precision)},
        {"interrupt_signal", pythonString(s.interruptSignal)},
        {"gpus", std::to_string(s.gpus)},
        {"batch_size", std::to_string(s.batchSize)},
        {"sequence_length", std::to_string(s.sequenceLength)},
        {"vocabulary", std::to_string(s.vocabulary)},
        {"layers", std::to_string(s.layers)},
        {"hidden", std::to_string(s.hidden)},
        {"heads", std::to_string(s.heads)},
        {"image_size", std::to_string(s.imageSize)},
        {"classes", std::to_string(s.classes)},
        {"total_steps", std::to_string(s.totalSteps)},
        {"checkpoint_every", std::to_string(s.checkpointEvery)},
        {"log_every", std::to_string(s.logEvery)},
        {"seed", std::to_string(s.seed)},
    };
    std::map<std::string, int> used;
    std::string out;
    out.reserve(templateText.size() + 256);
    std::size_t at = 0;
    while (true) {
        const std::size_t open = templateText.find("{{", at);
        if (open == std::string::npos) {
            out.append(templateText, at, std::string::npos);
            break;
        }
        out.append(templateText, at, open - at);
        const std::size_t close = templateText.find("}}", open + 2);
        const std::string name = close == std::string::npos ? templateText.substr(open, 40)
                                                            : templateText.substr(open + 2, close - open - 2);
        const auto value = values.find(name);
        if (close == std::string::npos || value == values.end()) {
            return Error{ErrorCode::SchemaViolation,
                         Reason{"error.run.starter_unknown_placeholder", {{"placeholder", name}}},
                         kStarterTemplateFile};
        }
        out += value->second;
        ++used[name];
        at = close + 2;
    }
    for (const auto& [name, value] : values) {
        if (!used.contains(name)) {
            return Error{ErrorCode::SchemaViolation,
                         Reason{"error.run.starter_missing_placeholder", {{"placeholder", name}}},
                         kStarterTemplateFile};
        }
    }
    return out;
}

ThroughputPattern starterThroughput(const StarterSettings& settings)
{
    ThroughputPattern pattern;
    pattern.preset = "custom";
    pattern.unit = settings.family == "transformer" ? "tokens" : "samples";
    // wire: the speed line the starter script prints ("gpuplan-train step 120/1000 loss 2.3130 samples/s 512.3")
    pattern.regex = "gpuplan-train step [0-9]+/[0-9]+ loss \\S+ " + pattern.unit + "/s ([0-9]+(?:\\.[0-9]+)?)";
    return pattern;
}

RunSpec starterRunSpec(const StarterSettings& settings, const std::string& workdir)
{
    RunSpec spec;
    spec.workdir = workdir;
    const std::string script = kStarterScriptFile;
    // wire: the training command run on the instance
    spec.command = settings.gpus > 1
                       ? "torchrun --standalone --nproc_per_node=" + std::to_string(settings.gpus) + " " + script
                       : "python3 " + script;
    spec.throughput = starterThroughput(settings);
    spec.spot.checkpointDir = "checkpoints"; // the script's default when $GPUPLAN_CHECKPOINT_DIR is unset
    spec.spot.signal = settings.interruptSignal;
    spec.results = {spec.spot.checkpointDir};
    return spec;
}

} // namespace gpuplan::core
