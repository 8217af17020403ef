#include "gpuplan/estimate/Calibration.h"

#include "gpuplan/catalog/CatalogJson.h"

#include "core/JsonChecker.h"
#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/core/Paths.h"
#include "gpuplan/workload/WorkloadLoader.h"
#include "gpuplan/workload/WorkloadModel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

namespace gpuplan::core {

using nlohmann::json;
using Need = JsonChecker::Need;

namespace {
// wire: the schema tag a data file carries

constexpr const char* kSchema = "gpuplan-calibration/2";
constexpr double kShrink = 1.0;    // pulls the local correction towards the model: one group's worth
constexpr double kRangeLow = 0.07; // the range: 7th to 93rd percentile of the held-out log errors (80 % with a margin)
constexpr double kRangeHigh = 0.93;
constexpr std::size_t kMinGroupsPerBin = 5; // fewer held-out groups in a range bin: pooled with the next one
constexpr int kBinsPerKind = 8;             // nearness 1-4 x tuned / not tuned
constexpr int kBins = 3 * kBinsPerKind;     // language, image classifiers and detectors: errors of other sizes

int rangeBin(Nearness nearness, SoftwareStack stack, ModelClass modelClass)
{
    const int kind = modelClass == ModelClass::Detector ? 2 : modelClass == ModelClass::Cnn ? 1 : 0;
    return kind * kBinsPerKind + (int(nearness) - 1) * 2 + (stack == SoftwareStack::Tuned ? 0 : 1);
}

std::optional<CalibrationCase> readCase(JsonChecker& check, const json& node, const std::string& at, bool user)
{
    if (!check.isObject(node, at)) {
        return std::nullopt;
    }
    const std::size_t before = check.problemCount();
    check.onlyKnownKeys(node,
                        at,
                        {"id",
                         "workload",
                         "model",
                         "class",
                         "flops_per_unit",
                         "flops_note",
                         "gpu",
                         "count",
                         "gpus_per_node",
                         "precision",
                         "stack",
                         "config",
                         "measured",
                         "mfu",
                         "derived",
                         "group",
                         "user",
                         "source"});
    CalibrationCase c;
    c.user = user;
    c.id = check.string(node, "id", at, Need::Required).value_or("");
    c.workloadId = check.string(node, "workload", at, Need::Optional).value_or("");
    c.model = check.string(node, "model", at, Need::Optional).value_or(c.workloadId);
    // wire: the values the file may hold, as it writes them (a reason parameter)
    c.modelClass = check.choice(node, "class", at, Need::Required, parseModelClass, "cnn, detector, encoder, decoder")
                       .value_or(ModelClass::Cnn);
    c.flopsPerUnit =
        check.positiveNumber(node, "flops_per_unit", at, c.workloadId.empty() ? Need::Required : Need::Optional)
            .value_or(0);
    check.string(node, "flops_note", at, Need::Optional);
    check.string(node, "derived", at, Need::Optional);
    c.gpuId = check.string(node, "gpu", at, Need::Required).value_or("");
    c.count = check.count(node, "count", at, Need::Required).value_or(1);
    c.gpusPerNode = check.count(node, "gpus_per_node", at, Need::Optional).value_or(std::min(c.count, 8));
    // wire: the values the file may hold, as it writes them (a reason parameter)
    c.precision = check.choice(node, "precision", at, Need::Required, parsePrecision, "fp32, tf32, amp, bf16, fp8")
                      .value_or(Precision::Amp);
    // wire: the values the file may hold, as it writes them (a reason parameter)
    c.stack = check.choice(node, "stack", at, Need::Required, parseStack, "tuned, typical, plain")
                  .value_or(SoftwareStack::Typical);
    if (const json* config = check.object(node, "config", at, Need::Optional)) {
        const std::string cAt = JsonChecker::child(at, "config");
        // Free-form description of the run; these members are read.
        c.batchPerGpu = check.positiveNumber(*config, "batch_per_gpu", cAt, Need::Optional);
        c.sequenceLength = check.count(*config, "sequence_length", cAt, Need::Optional);
        c.hidden = check.count(*config, "hidden", cAt, Need::Optional);
        c.trainedParameters = check.positiveNumber(*config, "trainable_parameters", cAt, Need::Optional);
        if (!c.trainedParameters) {
            c.trainedParameters = check.positiveNumber(*config, "parameters", cAt, Need::Optional);
        }
        c.hostVcpus = check.count(*config, "host_vcpus", cAt, Need::Optional);
        const std::string data = check.string(*config, "data", cAt, Need::Optional).value_or("unknown");
        const std::string loader = check.string(*config, "data_loader", cAt, Need::Optional).value_or("");
        c.realImages = data == "real" && loader.find("DALI") == std::string::npos;
    }
    if (const json* measured = check.object(node, "measured", at, Need::Optional)) {
        const std::string mAt = JsonChecker::child(at, "measured");
        check.onlyKnownKeys(*measured, mAt, {"value", "unit"});
        c.measured = check.positiveNumber(*measured, "value", mAt, Need::Required);
        const std::string unit = check.string(*measured, "unit", mAt, Need::Required).value_or("");
        if (unit != "samples/s" && unit != "tokens/s") {
            check.problem(JsonChecker::child(mAt, "unit"), Reason{"error.estimate.unknown_unit", {{"found", unit}}});
        }
        c.tokens = unit == "tokens/s";
    }
    c.mfu = check.nonNegativeNumber(node, "mfu", at, Need::Optional, 1.0);
    if (c.measured.has_value() == c.mfu.has_value()) {
        check.problem(at, Reason{"error.estimate.measured_or_mfu", {}});
    }
    c.group = check.string(node, "group", at, Need::Required).value_or("");
    std::optional<Source> source = readSource(check, node, "source", at);
    c.location = check.where(at);
    if (!source || check.problemCount() != before) {
        return std::nullopt;
    }
    c.source = *source;
    return c;
}

/// The q-quantile of values weighted by w (weights need not sum to 1).
double weightedQuantile(std::vector<std::pair<double, double>> values, double q)
{
    // Each value stands at the middle of its weight; between two such points the quantile is interpolated.
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    double total = 0;
    for (const auto& [v, w] : values) {
        total += w;
    }
    double seen = 0;
    double previousAt = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double at = (seen + values[i].second / 2) / total;
        seen += values[i].second;
        if (q <= at) {
            if (i == 0) {
                return values[0].first;
            }
            const double t = (q - previousAt) / (at - previousAt);
            return values[i - 1].first + t * (values[i].first - values[i - 1].first);
        }
        previousAt = at;
    }
    return values.back().first;
}

} // namespace

Result<LoadedCalibration> loadCalibration(const std::filesystem::path& dir, const std::string& name)
{
    const std::filesystem::path file = dir / name;
    Result<json> document = readJsonDocument(file);
    if (!document) {
        return document.error();
    }
    JsonChecker check(file.string());
    LoadedCalibration loaded;
    if (check.isObject(*document, "$") && checkSchemaTag(check, *document, kSchema)) {
        check.onlyKnownKeys(*document, "$", {"schema", "cases"});
        if (const json* list = check.array(*document, "cases", "$", Need::Required)) {
            std::set<std::string> ids;
            for (std::size_t i = 0; i < list->size(); ++i) {
                const std::string at = JsonChecker::index("$.cases", i);
                if (std::optional<CalibrationCase> c = readCase(check, (*list)[i], at, false)) {
                    if (!ids.insert(c->id).second) {
                        check.problem(at, Reason{"error.estimate.duplicate_case", {{"id", c->id}}});
                        continue;
                    }
                    loaded.cases.push_back(std::move(*c));
                }
            }
        }
    }
    loaded.problems = check.takeProblems();
    return loaded;
}

LoadedCalibration loadUserCalibration(const std::filesystem::path& dir)
{
    LoadedCalibration loaded;
    std::error_code ec;
    if (dir.empty() || !std::filesystem::is_directory(dir, ec)) {
        return loaded;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    for (const std::filesystem::path& file : files) {
        Result<json> document = readJsonDocument(file);
        if (!document) {
            loaded.problems.push_back(document.error());
            continue;
        }
        JsonChecker check(file.string());
        if (check.isObject(*document, "$") && checkSchemaTag(check, *document, kSchema)) {
            check.onlyKnownKeys(*document, "$", {"schema", "case"});
            if (const json* node = check.object(*document, "case", "$", Need::Required)) {
                if (std::optional<CalibrationCase> c = readCase(check, *node, "$.case", true)) {
                    loaded.cases.push_back(std::move(*c));
                }
            }
        }
        for (Error& e : check.takeProblems()) {
            loaded.problems.push_back(std::move(e));
        }
    }
    return loaded;
}

std::string calibrationCaseJson(const CalibrationCase& c)
{
    json node{{"id", c.id},
              {"workload", c.workloadId.empty() ? json(nullptr) : json(c.workloadId)},
              {"model", c.model},
              {"class", modelClassName(c.modelClass)},
              {"gpu", c.gpuId},
              {"count", c.count},
              {"gpus_per_node", c.gpusPerNode},
              {"precision", precisionName(c.precision)},
              {"stack", stackName(c.stack)},
              {"group", c.group},
              {"source", toJson(c.source)}};
    if (c.flopsPerUnit > 0) {
        node["flops_per_unit"] = c.flopsPerUnit;
    }
    if (c.measured) {
        node["measured"] = {{"value", *c.measured}, {"unit", c.tokens ? "tokens/s" : "samples/s"}};
    } else if (c.mfu) {
        node["mfu"] = *c.mfu;
    }
    json config = json::object();
    if (c.batchPerGpu) {
        config["batch_per_gpu"] = *c.batchPerGpu;
    }
    if (c.sequenceLength) {
        config["sequence_length"] = *c.sequenceLength;
    }
    if (!config.empty()) {
        node["config"] = config;
    }
    return json{{"schema", kSchema}, {"case", node}}.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<std::filesystem::path> saveUserCalibration(const CalibrationCase& c, const std::filesystem::path& dir)
{
    if (Status made = ensurePrivateDir(dir); !made) {
        return made.error();
    }
    std::string name;
    for (char ch : c.id) {
        const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
        name += plain ? ch : '-';
    }
    if (name.empty() || name.size() > 120) {
        name = "case";
    }
    std::filesystem::path file = dir / (name + ".json");
    for (int i = 2; std::filesystem::exists(file) && i < 1000; ++i) {
        file = dir / (name + "-" + std::to_string(i) + ".json");
    }
    if (Status written = writeFileAtomically(file, calibrationCaseJson(c), FileAccess::Private); !written) {
        return written.error();
    }
    return file;
}

std::filesystem::path userCalibrationDir()
{
    const std::filesystem::path data = userDataDir();
    return data.empty() ? data : data / "calibration";
}

Result<Calibration> Calibration::load(const std::filesystem::path& workloadDir,
                                      const std::filesystem::path& userDir,
                                      const Catalog& catalog,
                                      const LoadedWorkloads& presets,
                                      std::vector<Error>& problems,
                                      const std::vector<std::string>& holdOut)
{
    Result<LoadedCalibration> bundled = loadCalibration(workloadDir);
    if (!bundled) {
        return bundled.error();
    }
    LoadedCalibration user = loadUserCalibration(userDir);
    std::vector<CalibrationCase> cases = std::move(bundled->cases);
    cases.insert(cases.end(), user.cases.begin(), user.cases.end());
    for (const std::string& group : holdOut) {
        const auto before = cases.size();
        std::erase_if(cases, [&](const CalibrationCase& c) { return c.group == group; });
        if (cases.size() == before) {
            std::set<std::string> known;
            for (const CalibrationCase& c : cases) {
                known.insert(c.group);
            }
            std::string list;
            for (const std::string& k : known) {
                list += (list.empty() ? "" : ", ") + k;
            }
            // wire: the command-line option, by its name
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.estimate.unknown_group", {{"group", group}, {"known", list}}},
                         "--hold-out"};
        }
    }
    problems.insert(problems.end(), bundled->problems.begin(), bundled->problems.end());
    problems.insert(problems.end(), user.problems.begin(), user.problems.end());
    return build(cases, catalog, presets, problems);
}

std::optional<Calibration::Resolved> Calibration::resolve(const CalibrationCase& c,
                                                          const Catalog& catalog,
                                                          const LoadedWorkloads& presets,
                                                          std::vector<Error>& problems)
{
    auto fail = [&](Reason reason) {
        problems.push_back(Error{ErrorCode::UnknownReference, std::move(reason), c.location});
    };
    const GpuSpec* gpu = catalog.findGpu(c.gpuId);
    if (!gpu) {
        fail(Reason{"error.estimate.unknown_gpu", {{"gpu", c.gpuId}}});
        return std::nullopt;
    }
    Resolved r;
    r.source = c;
    r.architecture = gpu->architecture;
    RunShape& s = r.shape;
    s.modelClass = c.modelClass;
    s.flopsPerUnit = c.flopsPerUnit;
    s.tokens = c.tokens;
    s.trainedParameters = c.trainedParameters.value_or(0);
    s.hidden = c.hidden.value_or(0);
    int sequence = c.sequenceLength.value_or(0);
    if (!c.workloadId.empty()) {
        Result<Workload> preset = presets.find(c.workloadId);
        if (!preset) {
            fail(Reason{"error.estimate.unknown_workload", {{"workload", c.workloadId}}});
            return std::nullopt;
        }
        s.flopsPerUnit = trainingFlopsPerUnit(*preset).value_or(0);
        if (s.trainedParameters <= 0) {
            s.trainedParameters = preset->model.trainableParameters.value_or(preset->model.parameters);
        }
        if (s.hidden <= 0) {
            s.hidden = preset->model.hidden.value_or(0);
        }
        if (sequence <= 0) {
            sequence = preset->sequenceLength;
        }
    }
    std::optional<PeakChoice> peak = peakFor(*gpu, c.precision);
    if (!peak || s.flopsPerUnit <= 0) {
        fail(Reason{"error.estimate.no_peak", {}});
        return std::nullopt;
    }
    s.gpu = gpu;
    s.peak = *peak;
    s.gpus = c.count;
    s.gpusPerNode = c.gpusPerNode;
    s.intraNodeBandwidth = intraNodeBusBandwidth(*gpu);
    s.rdma = true; // published multi-node results run on InfiniBand-class networks
    s.stack = c.stack;
    s.cpuDecode = c.realImages;
    s.vcpusPerNode = c.hostVcpus;
    if (c.batchPerGpu) {
        s.unitsPerGpuStep = *c.batchPerGpu * (c.tokens && sequence > 0 ? sequence : 1);
    }
    r.measured = c.measured ? *c.measured : *c.mfu * c.count * peak->tflops * 1e12 / s.flopsPerUnit;
    return r;
}

std::vector<Calibration::Heldout> Calibration::validate(const std::vector<CalibrationCase>& unseen,
                                                        const Catalog& catalog,
                                                        const LoadedWorkloads& presets,
                                                        std::vector<Error>& problems) const
{
    std::vector<Heldout> out;
    for (const CalibrationCase& c : unseen) {
        std::optional<Resolved> r = resolve(c, catalog, presets, problems);
        if (!r) {
            continue;
        }
        const Estimate e = estimate(r->shape, c.workloadId);
        Heldout h;
        h.caseId = c.id;
        h.group = c.group;
        h.modelClass = c.modelClass;
        h.architecture = r->architecture;
        h.stack = c.stack;
        h.nearness = e.nearness;
        h.measured = r->measured;
        h.predicted = e.total;
        out.push_back(h);
    }
    return out;
}

Calibration Calibration::build(const std::vector<CalibrationCase>& cases,
                               const Catalog& catalog,
                               const LoadedWorkloads& presets,
                               std::vector<Error>& problems)
{
    Calibration cal;
    for (const CalibrationCase& c : cases) {
        if (std::optional<Resolved> r = resolve(c, catalog, presets, problems)) {
            cal.m_cases.push_back(std::move(*r));
        }
    }

    // Each source group weighs as much as one case of a group of four: a 40-row table cannot outvote a blog post.
    std::map<std::string, int> groupSize;
    for (const Resolved& r : cal.m_cases) {
        ++groupSize[r.source.group];
    }
    auto observations = [&](std::string_view without) {
        std::vector<PerformanceModel::Observation> list;
        for (const Resolved& r : cal.m_cases) {
            if (r.source.group != without) {
                list.push_back({r.shape, r.measured, 4.0 / std::max(4, groupSize[r.source.group])});
            }
        }
        return list;
    };
    cal.m_model = PerformanceModel::fit(observations({}));
    cal.m_residuals.resize(cal.m_cases.size());
    for (std::size_t i = 0; i < cal.m_cases.size(); ++i) {
        cal.m_residuals[i] = std::log(cal.m_cases[i].measured / cal.m_model.predict(cal.m_cases[i].shape).total);
    }

    // Leave one source group out: fit without it, predict each of its cases with the correction of the others.
    // Ranges per nearness and per kind of stack (a tuned stack is more predictable than lab code).
    std::vector<std::pair<double, std::string>> errors[kBins]; // held-out log error, its source group
    for (const auto& [group, size] : groupSize) {
        const PerformanceModel fold = PerformanceModel::fit(observations(group), &cal.m_model);
        std::vector<double> residuals(cal.m_cases.size());
        for (std::size_t i = 0; i < cal.m_cases.size(); ++i) {
            residuals[i] = std::log(cal.m_cases[i].measured / fold.predict(cal.m_cases[i].shape).total);
        }
        for (std::size_t i = 0; i < cal.m_cases.size(); ++i) {
            const Resolved& r = cal.m_cases[i];
            if (r.source.group != group) {
                continue;
            }
            Estimate e = cal.estimateWith(fold, residuals, r.shape, r.source.workloadId, group);
            Heldout h;
            h.caseId = r.source.id;
            h.group = group;
            h.modelClass = r.shape.modelClass;
            h.architecture = r.architecture;
            h.stack = r.shape.stack;
            h.nearness = e.nearness;
            h.measured = r.measured;
            h.predicted = e.total;
            h.user = r.source.user;
            cal.m_heldout.push_back(h);
            const int bin = rangeBin(e.nearness, r.shape.stack, r.shape.modelClass);
            errors[bin].push_back({std::log(r.measured / e.total.value), group});
        }
    }
    // A bin with too few held-out groups pools with the looser nearness of the same stack kind, then with the other
    // kind, never across kinds of model. Each source group weighs one in its bin (the fit caps a group at four
    // cases' weight for the same reason): a 40-row table does not set the range alone.
    for (int bin = 0; bin < kBins; ++bin) {
        const int end = (bin / kBinsPerKind + 1) * kBinsPerKind;
        std::map<std::string, std::vector<double>> byGroup;
        auto add = [&](int b) {
            for (const auto& [error, group] : errors[b]) {
                byGroup[group].push_back(error);
            }
        };
        for (int b = bin; b < end && byGroup.size() < kMinGroupsPerBin; b += 2) {
            add(b);
        }
        for (int b = bin ^ 1; b < end && byGroup.size() < kMinGroupsPerBin; b += 2) {
            add(b);
        }
        for (int b = bin % kBinsPerKind; byGroup.empty() && b < kBins; b += kBinsPerKind) {
            add(b); // no held-out case of this kind at all: another kind's range
        }
        std::vector<std::pair<double, double>> pooled;
        for (const auto& [group, list] : byGroup) {
            for (double error : list) {
                pooled.push_back({error, 1.0 / double(list.size())});
            }
        }
        const double low = std::min(0.0, weightedQuantile(pooled, kRangeLow));
        const double high = std::max(0.0, weightedQuantile(pooled, kRangeHigh));
        cal.m_ranges[bin] = {std::exp(low), std::exp(high)};
    }
    // Less near data never makes an estimate surer: a looser nearness's range holds the nearer one's.
    for (int bin = 2; bin < kBins; ++bin) {
        if (bin % kBinsPerKind >= 2) {
            cal.m_ranges[bin].first = std::min(cal.m_ranges[bin].first, cal.m_ranges[bin - 2].first);
            cal.m_ranges[bin].second = std::max(cal.m_ranges[bin].second, cal.m_ranges[bin - 2].second);
        }
    }
    // The held-out ranges use the final factors (the report's coverage is of the ranges the estimates show).
    for (Heldout& h : cal.m_heldout) {
        const auto [low, high] = cal.m_ranges[rangeBin(h.nearness, h.stack, h.modelClass)];
        h.predicted.low = h.predicted.value * low;
        h.predicted.high = h.predicted.value * high;
    }
    return cal;
}

std::pair<double, double> Calibration::rangeFactors(Nearness nearness, SoftwareStack stack, ModelClass modelClass) const
{
    return m_ranges[rangeBin(nearness, stack, modelClass)];
}

Calibration::Estimate Calibration::estimate(const RunShape& shape, std::string_view workloadId) const
{
    Estimate e = estimateWith(m_model, m_residuals, shape, workloadId, {});
    const auto [low, high] = rangeFactors(e.nearness, shape.stack, shape.modelClass);
    e.total.low = e.total.value * low;
    e.total.high = e.total.value * high;
    return e;
}

Calibration::Estimate Calibration::estimateWith(const PerformanceModel& model,
                                                const std::vector<double>& residuals,
                                                const RunShape& shape,
                                                std::string_view workloadId,
                                                std::string_view excludeGroup) const
{
    Estimate e;
    e.prediction = model.predict(shape);
    if (!shape.gpu) {
        return e;
    }
    auto matches = [&](const Resolved& r, Nearness level) {
        // Near means the same stack and the same kind of work (a vision transformer is no BERT).
        if (r.source.group == excludeGroup || r.shape.stack != shape.stack || r.shape.tokens != shape.tokens) {
            return false;
        }
        switch (level) {
            case Nearness::SameWorkloadAndGpu:
                return !workloadId.empty() && r.source.workloadId == workloadId && r.shape.gpu == shape.gpu;
            case Nearness::SameClassAndGpu:
                return r.shape.modelClass == shape.modelClass && r.shape.gpu == shape.gpu;
            case Nearness::SameClassAndArch:
                return r.shape.modelClass == shape.modelClass && r.architecture == shape.gpu->architecture;
            case Nearness::ModelOnly:
                return false;
        }
        return false;
    };
    for (Nearness level : {Nearness::SameWorkloadAndGpu, Nearness::SameClassAndGpu, Nearness::SameClassAndArch}) {
        std::map<std::string, std::pair<double, int>> byGroup; // sum of residuals, count
        for (std::size_t i = 0; i < m_cases.size(); ++i) {
            if (matches(m_cases[i], level)) {
                auto& [sum, count] = byGroup[m_cases[i].source.group];
                sum += residuals[i];
                ++count;
                e.basedOn.push_back(m_cases[i].source.id);
                e.userData = e.userData || m_cases[i].source.user;
            }
        }
        if (byGroup.empty()) {
            continue;
        }
        double sum = 0;
        for (const auto& [group, value] : byGroup) {
            sum += value.first / value.second; // each group's mean counts once
        }
        e.correction = std::exp(sum / (double(byGroup.size()) + kShrink));
        e.nearness = level;
        break;
    }
    e.total = Range::exact(e.prediction.total * e.correction);
    return e;
}

} // namespace gpuplan::core
