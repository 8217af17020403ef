// `gpuplan estimate` (one workload on one GPU setup, with what limits it) and `gpuplan calibrate --report` (the
// estimator's leave-one-source-out validation): the estimator's commands that rank nothing. `plan` is in
// PlanCommands.cpp.
#include "PlanCommands.h"

#include "PlanCommandParts.h"
#include "TerminalOutput.h"
#include "TextTable.h"
#include "wording/PlanText.h"

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/estimate/Validation.h"
#include "gpuplan/plan/PlanFile.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <set>

namespace gpuplan::cli {

using nlohmann::json;
using Align = TextTable::Align;
using planning::approx;
using planning::fail;
using planning::fixed;
using planning::rangeText;

const char* stackMeaning(core::SoftwareStack stack)
{
    switch (stack) {
        case core::SoftwareStack::Tuned:
            return "MLPerf/NGC-grade: DALI, fused kernels, CUDA graphs";
        case core::SoftwareStack::Typical:
            return "framework defaults with mixed precision and a good data loader";
        case core::SoftwareStack::Plain:
            return "eager code, default data loading";
    }
    return "";
}

/// "memory bandwidth (compute 31 %, memory 58 %, host 11 %)": what limits the run, and where one GPU's time goes.
std::string limiterText(const core::TrainingEstimate& e)
{
    const core::Prediction& p = e.prediction;
    std::string text = core::limiterName(e.limiter);
    std::replace(text.begin(), text.end(), '_', ' ');
    text += " (one GPU's time: compute " + fixed(p.computeShare * 100, 0) + " %, memory "
            + fixed(p.memoryShare * 100, 0) + " %, host " + fixed(p.hostShare * 100, 0) + " %";
    if (p.communicationShare > 0.005) {
        text += "; exposed communication " + fixed(p.communicationShare * 100, 0) + " % of a step";
    }
    if (p.inputCeiling) {
        text += "; the vCPUs decode at most " + fixed(*p.inputCeiling, 0) + " images/s";
    }
    return text + ")";
}

int runEstimate(const CatalogOptions& catalogOptions,
                const WorkloadOptions& workloadOptions,
                const EstimateOptions& options)
{
    int exitCode = kExitOk;
    std::optional<planning::Data> data = planning::loadData(catalogOptions, workloadOptions, exitCode);
    if (!data) {
        return exitCode;
    }
    core::Result<const core::GpuSpec*> gpu = data->catalog.catalog.resolveGpu(options.gpu);
    if (!gpu) {
        return fail(gpu.error());
    }
    core::Precision precision = core::defaultPrecision(**gpu);
    if (!options.precision.empty()) {
        std::optional<core::Precision> parsed = core::parsePrecision(options.precision);
        if (!parsed) {
            return fail(
                ui::frontEndError(core::ErrorCode::InvalidArgument,
                                  "unknown precision '" + options.precision + "' (known: fp32, tf32, amp, bf16, fp8)",
                                  "--precision"));
        }
        precision = *parsed;
    }
    const core::Workload& w = data->workload;
    core::TrainingSetup setup{*gpu, options.count, std::min(options.count, options.gpusPerNode), true, precision};
    core::TrainingEstimate e = core::estimateTraining(w, setup, data->calibration, data->catalog.catalog);
    if (catalogOptions.json) {
        std::cout << core::trainingJson(e, w, **gpu, options.count).dump(2) << '\n';
        return e.known ? kExitOk : kExitFailure;
    }
    std::cout << w.name << " on " << options.count << " x " << (*gpu)->name << ", " << core::precisionName(precision)
              << ", " << core::stackName(w.stack) << " stack (" << stackMeaning(w.stack) << ")\n";
    if (!e.known) {
        std::cout << "  cannot estimate: " << said(e.unknown) << '\n';
        return kExitFailure;
    }
    std::cout << "  throughput   " << rangeText(e.throughput) << ' ' << e.unit << '\n'
              << "  time         " << rangeText(e.computeHours)
              << " h (training only; `gpuplan plan` adds setup and upload)\n"
              << "  GPU-hours    " << rangeText(e.gpuHours) << '\n'
              << "  MFU          " << (e.mfu ? fixed(*e.mfu * 100, 0) + " %" : "unknown") << '\n'
              << "  peak         " << approx(e.peak.tflops) << " TFLOPS " << e.peak.used << " per GPU; efficiency "
              << rangeText(e.efficiency) << ", " << said(e.efficiencyBasis) << "; scaling " << rangeText(e.scaling)
              << '\n'
              << "  limited by   " << limiterText(e) << '\n'
              << "  range        the published figure falls inside it about 80 % of the time (cross-validated)\n"
              << "  memory       "
              << (e.memory.known ? fixed(e.memory.totalGb(), 1) + " of " + fixed(e.memory.capacityGb, 0)
                                       + " GB per GPU with " + ui::memoryPlanText(e.memory).toStdString()
                                 : std::string("unknown (no parameter count)"))
              << '\n';
    if (e.memory.known && !e.memory.fits) {
        std::cout << "  DOES NOT FIT: " << said(e.fit) << '\n';
    }
    for (const core::Reason& note : e.notes) {
        std::cout << "  note: " << said(note) << '\n';
    }
    return kExitOk;
}

namespace {

json validationJson(const std::vector<core::ValidationRow>& rows)
{
    json out = json::array();
    for (const core::ValidationRow& r : rows) {
        out.push_back({{"label", r.label},
                       {"cases", r.cases},
                       {"sources", r.groups},
                       {"median_error", r.medianError},
                       {"p90_error", r.p90Error},
                       {"coverage", r.coverage},
                       {"median_width", r.medianWidth}});
    }
    return out;
}

void printValidation(const std::string& title,
                     const std::vector<core::ValidationRow>& current,
                     const std::vector<core::ValidationRow>& first)
{
    std::cout << '\n' << title << '\n';
    TextTable table({{"slice"},
                     {"cases", Align::Right},
                     {"sources", Align::Right},
                     {"median err", Align::Right},
                     {"P90 err", Align::Right},
                     {"coverage", Align::Right},
                     {"width", Align::Right},
                     {"| first model: median err", Align::Right},
                     {"coverage", Align::Right},
                     {"width", Align::Right}});
    auto percent = [](double v) { return fixed(v * 100, 0) + " %"; };
    for (const core::ValidationRow& r : current) {
        std::vector<std::string> row{r.label,
                                     std::to_string(r.cases),
                                     std::to_string(r.groups),
                                     percent(r.medianError),
                                     percent(r.p90Error),
                                     percent(r.coverage),
                                     fixed(r.medianWidth, 2) + "x"};
        auto old =
            std::find_if(first.begin(), first.end(), [&](const core::ValidationRow& o) { return o.label == r.label; });
        if (old != first.end() && old->cases > 0) {
            row.insert(row.end(),
                       {percent(old->medianError), percent(old->coverage), fixed(old->medianWidth, 2) + "x"});
        } else {
            row.insert(row.end(), {"-", "-", "-"});
        }
        table.addRow(row);
    }
    table.print(std::cout);
}

} // namespace

int runCalibrate(const CatalogOptions& catalogOptions, const WorkloadOptions& workloadOptions, bool asJson)
{
    core::Result<core::LoadedCatalog> catalog =
        core::loadCatalog(catalogOptions.catalogDir, catalogOptions.userCatalogDir, catalogOptions.pricesDir);
    if (!catalog) {
        return fail(catalog.error(), catalogOptions.catalogDirGiven ? kExitBadInput : kExitFailure);
    }
    core::Result<core::LoadedWorkloads> presets = core::loadPresets(workloadOptions.workloadDir);
    if (!presets) {
        return fail(presets.error(), kExitFailure);
    }
    std::vector<core::Error> problems;
    core::Result<core::Calibration> loaded = core::Calibration::load(
        workloadOptions.workloadDir, core::userCalibrationDir(), catalog->catalog, *presets, problems);
    if (!loaded) {
        return fail(loaded.error(), kExitFailure);
    }
    for (const core::Error& problem : problems) {
        std::cerr << "gpuplan: warning: " << said(problem) << '\n';
    }
    const core::Calibration& calibration = *loaded;
    std::vector<core::CalibrationCase> cases;
    for (const core::Calibration::Resolved& r : calibration.cases()) {
        cases.push_back(r.source);
    }
    const std::vector<core::Calibration::Heldout> firstHeldout =
        core::crossValidateFirstModel(cases, catalog->catalog, *presets);
    const std::vector<core::Calibration::Heldout>& heldout = calibration.heldout();
    // validation.json: published results from sources the calibration does not use, never fitted.
    std::vector<core::Calibration::Heldout> unseen;
    if (core::Result<core::LoadedCalibration> validation =
            core::loadCalibration(workloadOptions.workloadDir, "validation.json")) {
        for (const core::Error& problem : validation->problems) {
            std::cerr << "gpuplan: warning: " << said(problem) << '\n';
        }
        std::vector<core::Error> ignored;
        unseen = calibration.validate(validation->cases, catalog->catalog, *presets, ignored);
    }

    using Key = std::function<std::string(const core::Calibration::Heldout&)>;
    const std::vector<std::pair<std::string, Key>> slices{
        {"by model class", [](const auto& h) { return std::string(core::modelClassName(h.modelClass)); }},
        {"by GPU generation", [](const auto& h) { return h.architecture; }},
        {"by software stack", [](const auto& h) { return std::string(core::stackName(h.stack)); }},
    };
    std::map<std::string, int> groups; // source group -> cases
    std::set<std::string> gpus;
    for (const core::Calibration::Resolved& r : calibration.cases()) {
        ++groups[r.source.group];
        gpus.insert(r.source.gpuId);
    }

    if (asJson) {
        nlohmann::json out = {{"cases", calibration.caseCount()},
                              {"sources", groups.size()},
                              {"gpu_types", gpus.size()},
                              {"method", "leave-one-source-out"}};
        for (const auto& [title, key] : slices) {
            out["current"][title] = validationJson(core::summariseHeldout(heldout, key));
            out["first_model"][title] = validationJson(core::summariseHeldout(firstHeldout, key));
        }
        nlohmann::json parameters = nlohmann::json::object();
        for (int p = 0; p < core::PerformanceModel::ParameterCount; ++p) {
            const auto parameter = core::PerformanceModel::Parameter(p);
            parameters[core::PerformanceModel::info(parameter).name] = calibration.model().value(parameter);
        }
        out["parameters"] = parameters;
        out["unseen_sources"] = validationJson(core::summariseHeldout(
            unseen, [](const auto& h) { return std::string(core::modelClassName(h.modelClass)); }));
        auto caseList = [](const std::vector<core::Calibration::Heldout>& list) {
            nlohmann::json rows = nlohmann::json::array();
            for (const core::Calibration::Heldout& h : list) {
                rows.push_back({{"id", h.caseId},
                                {"source", h.group},
                                {"measured", h.measured},
                                {"predicted",
                                 {{"value", h.predicted.value}, {"low", h.predicted.low}, {"high", h.predicted.high}}},
                                {"nearness", int(h.nearness)}});
            }
            return rows;
        };
        out["heldout"] = caseList(heldout);
        out["unseen"] = caseList(unseen);
        out["source_cases"] = groups;
        std::cout << out.dump(2) << '\n';
        return kExitOk;
    }

    std::cout << "Calibration: " << calibration.caseCount() << " published results from " << groups.size()
              << " sources on " << gpus.size() << " GPU types.\n"
              << "Leave-one-source-out: every case is predicted by a model fitted without its whole source, and\n"
              << "error is |predicted / published - 1|; coverage is the share inside the stated range; width is\n"
              << "high / low. The first model (wave 1: a median efficiency of the nearest cases) is beside it.\n"
              << "Sources (cases):";
    for (const auto& [group, count] : groups) {
        std::cout << ' ' << group << " (" << count << ')';
    }
    std::cout << '\n';
    for (const auto& [title, key] : slices) {
        printValidation(title, core::summariseHeldout(heldout, key), core::summariseHeldout(firstHeldout, key));
    }
    if (!unseen.empty()) {
        std::cout << "\nResults from sources the calibration does not use (resources/workloads/validation.json),\n"
                  << "estimated by the full calibration:\n";
        printValidation("by model class",
                        core::summariseHeldout(
                            unseen, [](const auto& h) { return std::string(core::modelClassName(h.modelClass)); }),
                        {});
    }
    std::vector<const core::Calibration::Heldout*> worst;
    for (const core::Calibration::Heldout& h : heldout) {
        worst.push_back(&h);
    }
    std::sort(worst.begin(), worst.end(), [](const auto* a, const auto* b) {
        return std::fabs(std::log(a->predicted.value / a->measured))
               > std::fabs(std::log(b->predicted.value / b->measured));
    });
    std::cout << "\nThe cases missed most (held out):\n";
    TextTable misses({{"case"}, {"published", Align::Right}, {"predicted", Align::Right}, {"error", Align::Right}});
    for (std::size_t i = 0; i < std::min<std::size_t>(12, worst.size()); ++i) {
        const auto* h = worst[i];
        misses.addRow({h->caseId,
                       approx(h->measured),
                       rangeText(h->predicted),
                       (h->predicted.value >= h->measured ? "+" : "")
                           + fixed((h->predicted.value / h->measured - 1) * 100, 0) + " %"});
    }
    misses.print(std::cout);
    std::cout << "\nFitted parameters:\n";
    for (int p = 0; p < core::PerformanceModel::ParameterCount; ++p) {
        const auto parameter = core::PerformanceModel::Parameter(p);
        std::cout << "  " << core::PerformanceModel::info(parameter).name << " = "
                  << approx(calibration.model().value(parameter)) << '\n';
    }
    return kExitOk;
}

} // namespace gpuplan::cli
