#include "gpuplan/workload/WorkloadLoader.h"

#include "core/JsonChecker.h"
#include "gpuplan/catalog/CatalogJson.h"
#include "gpuplan/core/Names.h"

#include <cmath>
#include <cstdlib>

namespace gpuplan::core {

using nlohmann::json;
using Need = JsonChecker::Need;
namespace fs = std::filesystem;

namespace {
// wire: the schema tag a data file carries

constexpr const char* kPresetsSchema = "gpuplan-workloads/1";
// wire: the schema tag a data file carries
constexpr const char* kWorkloadSchema = "gpuplan-workload/1";
constexpr const char* kPresetsFile = "presets.json";

void readModel(JsonChecker& check, const json& node, const std::string& at, Workload& w)
{
    const json* model =
        check.object(node, "model", at, w.kind == WorkKind::Transformer ? Need::Required : Need::Optional);
    if (!model) {
        return;
    }
    const std::string modelAt = JsonChecker::child(at, "model");
    check.onlyKnownKeys(*model, modelAt, {"parameters", "trainable_parameters", "layers", "hidden", "heads", "vocab"});
    const Need needShape = w.kind == WorkKind::Transformer ? Need::Required : Need::Optional;
    w.model.parameters = check.positiveNumber(*model, "parameters", modelAt, needShape).value_or(0);
    w.model.trainableParameters = check.positiveNumber(
        *model, "trainable_parameters", modelAt, w.method == TrainingMethod::Lora ? Need::Required : Need::Optional);
    w.model.layers = check.count(*model, "layers", modelAt, needShape);
    w.model.hidden = check.count(*model, "hidden", modelAt, needShape);
    w.model.heads = check.count(*model, "heads", modelAt, Need::Optional);
    w.model.vocab = check.count(*model, "vocab", modelAt, Need::Optional);
    if (w.model.trainableParameters && w.model.parameters > 0 && *w.model.trainableParameters > w.model.parameters) {
        check.problem(JsonChecker::child(modelAt, "trainable_parameters"),
                      Reason{"error.workload.trainable_exceeds_parameters", {}});
    }
}

void readWork(JsonChecker& check, const json& node, const std::string& at, Workload& w)
{
    const json* work = check.object(node, "work", at, Need::Required);
    if (!work) {
        return;
    }
    const std::string workAt = JsonChecker::child(at, "work");
    check.onlyKnownKeys(
        *work, workAt, {"training_gflops_per_sample", "samples", "epochs", "sample_unit", "tokens", "sequence_length"});
    w.epochs = check.positiveNumber(*work, "epochs", workAt, Need::Optional).value_or(1);
    w.sampleUnit = check.string(*work, "sample_unit", workAt, Need::Optional).value_or("samples");
    const bool tokens = w.countsTokens();
    w.sequenceLength =
        check.count(*work, "sequence_length", workAt, w.kind == WorkKind::Transformer ? Need::Required : Need::Optional)
            .value_or(0);
    if (tokens) {
        w.tokensPerEpoch = check.positiveNumber(*work, "tokens", workAt, Need::Required).value_or(0);
    } else {
        w.samplesPerEpoch = check.positiveNumber(*work, "samples", workAt, Need::Required).value_or(0);
    }
    w.trainingGflopsPerSample = check
                                    .positiveNumber(*work,
                                                    "training_gflops_per_sample",
                                                    workAt,
                                                    w.kind == WorkKind::PerSample ? Need::Required : Need::Optional)
                                    .value_or(0);
    if (w.kind == WorkKind::PerSample && work->contains("tokens")) {
        check.problem(JsonChecker::child(workAt, "tokens"), Reason{"error.workload.tokens_in_per_sample", {}});
    }
    if (w.kind == WorkKind::Transformer && work->contains("samples")) {
        check.problem(JsonChecker::child(workAt, "samples"), Reason{"error.workload.samples_in_transformer", {}});
    }
}

void readMeasured(JsonChecker& check, const json& node, const std::string& at, Workload& w)
{
    const json* measured = check.object(node, "measured", at, Need::Required);
    if (!measured) {
        return;
    }
    const std::string mAt = JsonChecker::child(at, "measured");
    check.onlyKnownKeys(*measured, mAt, {"value", "unit", "gpu", "count", "precision"});
    MeasuredThroughput m;
    m.value = check.positiveNumber(*measured, "value", mAt, Need::Required).value_or(0);
    const std::string unit = check.string(*measured, "unit", mAt, Need::Required).value_or("");
    if (unit == "tokens/s" || unit == "samples/s") {
        m.tokens = unit == "tokens/s";
    } else if (!unit.empty()) {
        check.problem(JsonChecker::child(mAt, "unit"),
                      Reason{"error.workload.unknown_unit", {{"found", unit}, {"known", "samples/s, tokens/s"}}});
    }
    m.gpuId = check.string(*measured, "gpu", mAt, Need::Required).value_or("");
    m.count = check.count(*measured, "count", mAt, Need::Optional).value_or(1);
    // wire: the values the file may hold, as it writes them (a reason parameter)
    m.precision =
        check.choice(*measured, "precision", mAt, Need::Required, parsePrecision, "fp32, tf32, amp, bf16, fp8")
            .value_or(Precision::Amp);
    w.measured = m;
}

/// One workload object (a preset or the user's file); nullopt when it has problems (recorded in `check`).
std::optional<Workload> readWorkload(JsonChecker& check, const json& node, const std::string& at, bool withSchema)
{
    if (!check.isObject(node, at)) {
        return std::nullopt;
    }
    const std::size_t before = check.problemCount();
    std::initializer_list<std::string_view> keys = {"id",
                                                    "name",
                                                    "name_zh",
                                                    "description",
                                                    "description_zh",
                                                    "task",
                                                    "class",
                                                    "method",
                                                    "kind",
                                                    "model",
                                                    "work",
                                                    "measured",
                                                    "micro_batch",
                                                    "stack",
                                                    "activation_gb_per_sample",
                                                    "dataset_gb",
                                                    "sources",
                                                    "schema"};
    check.onlyKnownKeys(node, at, keys);
    if (!withSchema && node.contains("schema")) {
        check.problem(JsonChecker::child(at, "schema"), Reason{"error.workload.schema_not_at_top", {}});
    }
    Workload w;
    w.id = check.string(node, "id", at, withSchema ? Need::Optional : Need::Required).value_or("custom");
    w.name = check.string(node, "name", at, Need::Required).value_or("");
    w.nameZh = check.string(node, "name_zh", at, Need::Optional).value_or("");
    w.description = check.string(node, "description", at, Need::Optional).value_or("");
    w.descriptionZh = check.string(node, "description_zh", at, Need::Optional).value_or("");
    // wire: the values the file may hold, as it writes them (a reason parameter)
    w.task = check.choice(node, "task", at, Need::Required, parseTaskType, "vision, detection, detection3d, nlp, llm")
                 .value_or(TaskType::Vision);
    // wire: the values the file may hold, as it writes them (a reason parameter)
    w.modelClass = check.choice(node, "class", at, Need::Required, parseModelClass, "cnn, detector, encoder, decoder")
                       .value_or(ModelClass::Cnn);
    // wire: the values the file may hold, as it writes them (a reason parameter)
    w.method = check.choice(node, "method", at, Need::Optional, parseTrainingMethod, "full, lora")
                   .value_or(TrainingMethod::Full);
    // wire: the values the file may hold, as it writes them (a reason parameter)
    w.kind = check.choice(node, "kind", at, Need::Required, parseWorkKind, "per_sample, transformer, measured")
                 .value_or(WorkKind::PerSample);
    if (w.kind == WorkKind::Measured) {
        readMeasured(check, node, at, w);
    } else if (node.contains("measured")) {
        check.problem(JsonChecker::child(at, "measured"), Reason{"error.workload.measured_not_measured_kind", {}});
    }
    readModel(check, node, at, w);
    readWork(check, node, at, w);
    w.microBatch = check.count(node, "micro_batch", at, Need::Optional).value_or(1);
    // wire: the values the file may hold, as it writes them (a reason parameter)
    w.stack = check.choice(node, "stack", at, Need::Optional, parseStack, "tuned, typical, plain")
                  .value_or(SoftwareStack::Typical);
    w.activationGbPerSample = check.positiveNumber(node, "activation_gb_per_sample", at, Need::Optional);
    w.datasetGb = check.positiveNumber(node, "dataset_gb", at, Need::Optional);
    if (const json* sources = check.array(node, "sources", at, withSchema ? Need::Optional : Need::Required)) {
        for (std::size_t i = 0; i < sources->size(); ++i) {
            const std::string sourceAt = JsonChecker::index(JsonChecker::child(at, "sources"), i);
            json holder = {{"source", (*sources)[i]}};
            if (std::optional<Source> source = readSource(check, holder, "source", sourceAt)) {
                w.sources.push_back(*source);
            }
        }
        if (sources->empty() && !withSchema) {
            check.problem(JsonChecker::child(at, "sources"), Reason{"error.workload.no_sources", {}});
        }
    }
    w.location = check.where(at);
    if (check.problemCount() != before) {
        return std::nullopt;
    }
    return w;
}

} // namespace

Result<Workload> LoadedWorkloads::find(std::string_view id) const
{
    const std::string wanted = normalizedName(id);
    std::vector<std::string> ids;
    for (const Workload& preset : presets) {
        if (normalizedName(preset.id) == wanted) {
            return preset;
        }
        ids.push_back(preset.id);
    }
    std::vector<std::string> close = closestNames(id, ids);
    Reason reason{"error.workload.unknown_preset", {{"preset", std::string(id)}}};
    if (close.empty()) {
        reason.params["known"] = joinedNames(ids);
    } else {
        reason.params["alternatives"] = joinedNames(close);
    }
    return Error{ErrorCode::UnknownReference, std::move(reason), "--preset"};
}

Result<LoadedWorkloads> loadPresets(const fs::path& dir)
{
    const fs::path file = dir / kPresetsFile;
    Result<json> document = readJsonDocument(file);
    if (!document) {
        return document.error();
    }
    JsonChecker check(file.string());
    LoadedWorkloads loaded;
    if (check.isObject(*document, "$") && checkSchemaTag(check, *document, kPresetsSchema)) {
        check.onlyKnownKeys(*document, "$", {"schema", "workloads"});
        if (const json* list = check.array(*document, "workloads", "$", Need::Required)) {
            for (std::size_t i = 0; i < list->size(); ++i) {
                const std::string at = JsonChecker::index("$.workloads", i);
                if (std::optional<Workload> w = readWorkload(check, (*list)[i], at, false)) {
                    bool duplicate = false;
                    for (const Workload& other : loaded.presets) {
                        duplicate = duplicate || other.id == w->id;
                    }
                    if (duplicate) {
                        check.problem(JsonChecker::child(at, "id"),
                                      Reason{"error.workload.duplicate_preset", {{"preset", w->id}}});
                    } else {
                        loaded.presets.push_back(std::move(*w));
                    }
                }
            }
        }
    }
    loaded.problems = check.takeProblems();
    if (loaded.presets.empty() && !loaded.problems.empty()) {
        return loaded.problems.front();
    }
    return loaded;
}

Result<Workload> loadWorkloadFile(const fs::path& file)
{
    Result<json> document = readJsonDocument(file);
    if (!document) {
        return document.error();
    }
    JsonChecker check(file.string());
    std::optional<Workload> w;
    if (check.isObject(*document, "$") && checkSchemaTag(check, *document, kWorkloadSchema)) {
        w = readWorkload(check, *document, "$", true);
    }
    std::vector<Error> problems = check.takeProblems();
    if (!w) {
        Error first =
            problems.empty()
                ? Error{ErrorCode::SchemaViolation, Reason{"error.workload.not_a_workload", {}}, file.string()}
                : problems.front();
        if (problems.size() > 1) {
            first.reason.params["more_problems"] = std::to_string(problems.size() - 1);
        }
        return first;
    }
    return *w;
}

Result<Workload> parseWorkload(const json& definition, const std::string& where)
{
    JsonChecker check(where);
    std::optional<Workload> w;
    if (check.isObject(definition, "$") && checkSchemaTag(check, definition, kWorkloadSchema)) {
        w = readWorkload(check, definition, "$", true);
    }
    std::vector<Error> problems = check.takeProblems();
    if (!w) {
        return problems.empty() ? Error{ErrorCode::SchemaViolation, Reason{"error.workload.not_a_workload", {}}, where}
                                : problems.front();
    }
    return *w;
}

json workloadDefinitionJson(const Workload& w)
{
    auto optional = [](const auto& value) { return value ? json(*value) : json(nullptr); };
    json out = {{"schema", kWorkloadSchema},
                {"id", w.id},
                {"name", w.name},
                {"task", taskTypeName(w.task)},
                {"class", modelClassName(w.modelClass)},
                {"method", trainingMethodName(w.method)},
                {"kind", workKindName(w.kind)},
                {"micro_batch", w.microBatch},
                {"stack", stackName(w.stack)}};
    if (!w.nameZh.empty()) {
        out["name_zh"] = w.nameZh;
    }
    if (!w.description.empty()) {
        out["description"] = w.description;
    }
    if (!w.descriptionZh.empty()) {
        out["description_zh"] = w.descriptionZh;
    }
    if (w.model.parameters > 0) {
        out["model"] = {{"parameters", w.model.parameters},
                        {"trainable_parameters", optional(w.model.trainableParameters)},
                        {"layers", optional(w.model.layers)},
                        {"hidden", optional(w.model.hidden)},
                        {"heads", optional(w.model.heads)},
                        {"vocab", optional(w.model.vocab)}};
        // The reader wants numbers or nothing: drop what is unknown.
        for (auto it = out["model"].begin(); it != out["model"].end();) {
            it = it->is_null() ? out["model"].erase(it) : std::next(it);
        }
    }
    json work = {{"epochs", w.epochs}, {"sample_unit", w.sampleUnit}};
    if (w.countsTokens()) {
        work["tokens"] = w.tokensPerEpoch;
    } else {
        work["samples"] = w.samplesPerEpoch;
    }
    if (w.sequenceLength > 0) {
        work["sequence_length"] = w.sequenceLength;
    }
    if (w.trainingGflopsPerSample > 0) {
        work["training_gflops_per_sample"] = w.trainingGflopsPerSample;
    }
    out["work"] = work;
    if (w.measured) {
        out["measured"] = {{"value", w.measured->value},
                           {"unit", w.measured->tokens ? "tokens/s" : "samples/s"},
                           {"gpu", w.measured->gpuId},
                           {"count", w.measured->count},
                           {"precision", precisionName(w.measured->precision)}};
    }
    if (w.activationGbPerSample) {
        out["activation_gb_per_sample"] = *w.activationGbPerSample;
    }
    if (w.datasetGb) {
        out["dataset_gb"] = *w.datasetGb;
    }
    json sources = json::array();
    for (const Source& source : w.sources) {
        sources.push_back(toJson(source));
    }
    out["sources"] = sources;
    return out;
}

fs::path bundledWorkloadDir(const fs::path& executableDir)
{
    if (const char* env = std::getenv("GPUPLAN_WORKLOAD_DIR"); env && *env) {
        return env;
    }
    return executableDir / ".." / "share" / "gpuplanner" / "workloads";
}

Result<Workload> withOverrides(Workload w, const WorkOverrides& overrides)
{
    if (overrides.epochs) {
        if (!(*overrides.epochs > 0) || !std::isfinite(*overrides.epochs)) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.workload.option_not_positive", {}}, "--epochs"};
        }
        w.epochs = *overrides.epochs;
    }
    if (overrides.samples) {
        if (w.countsTokens()) {
            return Error{
                ErrorCode::InvalidArgument, Reason{"error.workload.counts_tokens", {{"workload", w.id}}}, "--samples"};
        }
        if (!(*overrides.samples > 0)) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.workload.option_not_positive", {}}, "--samples"};
        }
        w.samplesPerEpoch = *overrides.samples;
    }
    if (overrides.tokens) {
        if (!w.countsTokens()) {
            return Error{
                ErrorCode::InvalidArgument, Reason{"error.workload.counts_samples", {{"workload", w.id}}}, "--tokens"};
        }
        if (!(*overrides.tokens > 0)) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.workload.option_not_positive", {}}, "--tokens"};
        }
        w.tokensPerEpoch = *overrides.tokens;
    }
    if (overrides.stack) {
        w.stack = *overrides.stack;
    }
    return w;
}

} // namespace gpuplan::core
