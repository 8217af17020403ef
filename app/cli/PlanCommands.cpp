#include "PlanCommands.h"

#include "TextTable.h"

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/estimate/Validation.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/plan/BuyVsRent.h"
#include "gpuplan/plan/PlanFile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <set>

namespace gpuplan::cli {

using nlohmann::json;
using Align = TextTable::Align;

namespace {

std::string fixed(double value, int decimals)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

/// 3 significant figures, as estimates deserve.
std::string approx(double value)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, value >= 1000 ? "%.0f" : "%.3g", value);
    return buffer;
}

/// Every way the offer can be paid for in its region, side by side: the price with the date its source states,
/// what this run costs that way, what a term binds the lab to, and why a mode is out.
void printPricingModes(const core::RankedOption& o, const std::string& currency);

std::string rangeText(const core::Range& r)
{
    return approx(r.value) + " (" + approx(r.low) + "-" + approx(r.high) + ")";
}

void printPricingModes(const core::RankedOption& o, const std::string& currency)
{
    std::cout << "   pricing modes:\n";
    for (const core::ModeCost& m : o.estimate.modes) {
        const core::Price& p = *m.price;
        std::cout << "     " << (m.mode == o.mode.mode ? "* " : "  ") << core::pricingModeName(m.mode) << ": "
                  << core::formatMoney(p.amount, p.currency) << "/" << core::priceUnitName(p.unit) << " (as of "
                  << p.source.asOfOrUndated() << ") -> this run "
                  << (m.cost.low == m.cost.high ? approx(m.cost.value) : rangeText(m.cost)) << " " << currency;
        if (m.commitment) {
            std::cout << ", binds " << approx(m.commitment->amount) << " " << currency << " over "
                      << fixed(m.commitment->months, 0) << (m.commitment->months == 1 ? " month" : " months");
        }
        if (!m.eligible) {
            std::cout << "; out: " << m.why.text;
        }
        std::cout << '\n';
    }
}

int fail(const core::Error& error, int code = kExitBadInput)
{
    std::cerr << "gpuplan: " << error.message() << '\n';
    return code;
}

/// Everything the estimator needs, loaded once.
struct Data
{
    core::LoadedCatalog catalog;
    core::LoadedWorkloads presets;
    core::Workload workload;
    core::Calibration calibration;
    core::Assumptions assumptions;
};

std::optional<Data> loadData(const CatalogOptions& catalogOptions, const WorkloadOptions& options, int& exitCode)
{
    exitCode = kExitBadInput;
    if (options.preset.empty() == options.workloadFile.empty()) {
        fail(core::Error{core::ErrorCode::InvalidArgument, "give either --preset NAME or --workload FILE", "workload"});
        return std::nullopt;
    }
    core::Result<core::LoadedCatalog> catalog =
        core::loadCatalog(catalogOptions.catalogDir, catalogOptions.userCatalogDir, catalogOptions.pricesDir);
    if (!catalog) {
        fail(catalog.error(), catalogOptions.catalogDirGiven ? kExitBadInput : kExitFailure);
        exitCode = catalogOptions.catalogDirGiven ? kExitBadInput : kExitFailure;
        return std::nullopt;
    }
    core::Result<core::LoadedWorkloads> presets = core::loadPresets(options.workloadDir);
    if (!presets) {
        fail(presets.error(), kExitFailure);
        exitCode = kExitFailure;
        return std::nullopt;
    }
    for (const core::Error& problem : presets->problems) {
        std::cerr << "gpuplan: warning: " << problem.message() << '\n';
    }
    core::Result<core::Workload> workload =
        options.preset.empty() ? core::loadWorkloadFile(options.workloadFile) : presets->find(options.preset);
    if (!workload) {
        fail(workload.error());
        return std::nullopt;
    }
    core::Result<core::Workload> adjusted = core::withOverrides(*workload, options.overrides);
    if (!adjusted) {
        fail(adjusted.error());
        return std::nullopt;
    }
    if (!std::isfinite(adjusted->totalUnits())) {
        // Finite epochs times finite samples can still overflow: the estimate would rank offers at "inf h".
        fail(core::Error{core::ErrorCode::InvalidArgument,
                         "the total work (epochs times the samples or tokens per epoch) is too large to estimate",
                         "workload"});
        return std::nullopt;
    }
    Data data{std::move(catalog).value(), std::move(presets).value(), std::move(adjusted).value(), {}, {}};
    std::vector<core::Error> problems;
    core::Result<core::Calibration> calibration = core::Calibration::load(
        options.workloadDir, core::userCalibrationDir(), data.catalog.catalog, data.presets, problems, options.holdOut);
    if (!calibration) {
        const bool badFlag = calibration.error().code == core::ErrorCode::InvalidArgument;
        exitCode = badFlag ? kExitBadInput : kExitFailure;
        fail(calibration.error(), exitCode);
        return std::nullopt;
    }
    data.calibration = std::move(calibration).value();
    core::LoadedAssumptions assumptions = core::loadAssumptions(catalogOptions.catalogDir);
    problems.insert(problems.end(), assumptions.problems.begin(), assumptions.problems.end());
    for (const core::Error& problem : problems) {
        std::cerr << "gpuplan: warning: " << problem.message() << '\n';
    }
    data.assumptions = std::move(assumptions.assumptions);
    exitCode = kExitOk;
    return data;
}

} // namespace

std::optional<double> parseDurationHours(const std::string& text)
{
    if (text.size() < 2) {
        return std::nullopt;
    }
    const char unit = text.back();
    const double factor = unit == 'd' ? 24 : unit == 'h' ? 1 : unit == 'm' ? 1.0 / 60 : unit == 'w' ? 168 : 0;
    if (factor == 0) {
        return std::nullopt;
    }
    try {
        std::size_t used = 0;
        const std::string number = text.substr(0, text.size() - 1);
        const double value = std::stod(number, &used);
        if (used != number.size() || !(value > 0) || !std::isfinite(value)) {
            return std::nullopt;
        }
        return value * factor;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

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
    std::optional<Data> data = loadData(catalogOptions, workloadOptions, exitCode);
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
            return fail(core::Error{core::ErrorCode::InvalidArgument,
                                    "unknown precision '" + options.precision + "' (known: fp32, tf32, amp, bf16, fp8)",
                                    "--precision"});
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
        std::cout << "  cannot estimate: " << e.unknown.text << '\n';
        return kExitFailure;
    }
    std::cout << "  throughput   " << rangeText(e.throughput) << ' ' << e.unit << '\n'
              << "  time         " << rangeText(e.computeHours)
              << " h (training only; `gpuplan plan` adds setup and upload)\n"
              << "  GPU-hours    " << rangeText(e.gpuHours) << '\n'
              << "  MFU          " << (e.mfu ? fixed(*e.mfu * 100, 0) + " %" : "unknown") << '\n'
              << "  peak         " << approx(e.peak.tflops) << " TFLOPS " << e.peak.used << " per GPU; efficiency "
              << rangeText(e.efficiency) << ", " << e.efficiencyBasis.text << "; scaling " << rangeText(e.scaling)
              << '\n'
              << "  limited by   " << limiterText(e) << '\n'
              << "  range        the published figure falls inside it about 80 % of the time (cross-validated)\n"
              << "  memory       "
              << (e.memory.known ? fixed(e.memory.totalGb(), 1) + " of " + fixed(e.memory.capacityGb, 0)
                                       + " GB per GPU with " + e.memory.describe()
                                 : std::string("unknown (no parameter count)"))
              << '\n';
    if (e.memory.known && !e.memory.fits) {
        std::cout << "  DOES NOT FIT: " << e.fit.text << '\n';
    }
    for (const std::string& note : e.notes) {
        std::cout << "  note: " << note << '\n';
    }
    return kExitOk;
}

namespace {

/// The excluding rule as a heading, as the GUI's Compare page words it.
std::string ruleTitle(const std::string& rule)
{
    static const std::map<std::string, std::string> titles{{"framework", "Framework not supported"},
                                                           {"sensitive", "Not for sensitive data"},
                                                           {"region", "Outside the chosen regions"},
                                                           {"unknown", "Cannot be estimated"},
                                                           {"memory", "Does not fit in memory"},
                                                           {"scale", "Needs several servers"},
                                                           {"rdma", "Several servers without RDMA"},
                                                           {"no_price", "No published price"},
                                                           {"deadline", "Misses the deadline"},
                                                           {"budget", "Over the budget"},
                                                           {"pricing", "No pricing mode left"}};
    const auto it = titles.find(rule);
    return it == titles.end() ? rule : it->second;
}

void printExcluded(const std::vector<core::Exclusion>& excluded, bool all)
{
    if (excluded.empty()) {
        return;
    }
    auto offer = [](const core::Exclusion& x) {
        return x.provider->id + " " + x.instanceType + (x.region.empty() ? "" : " in " + x.region);
    };
    if (all) {
        std::cout << "\nExcluded (" << excluded.size() << "):\n";
        for (const core::Exclusion& x : excluded) {
            std::cout << "  " << offer(x) << " [" << x.rule << "] " << x.reason.text << '\n';
        }
        return;
    }
    // By rule, largest group first, as the GUI groups them: a plan excludes hundreds of offers.
    std::map<std::string, std::vector<const core::Exclusion*>> byRule;
    for (const core::Exclusion& x : excluded) {
        byRule[x.rule].push_back(&x);
    }
    std::vector<std::pair<std::string, std::vector<const core::Exclusion*>>> groups(byRule.begin(), byRule.end());
    std::stable_sort(
        groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
    std::cout << "\nExcluded: " << excluded.size() << " offers (--all-excluded lists each with its reason)\n";
    TextTable table({{"RULE"}, {"OFFERS", TextTable::Align::Right}, {"FOR EXAMPLE"}});
    for (const auto& [rule, members] : groups) {
        const core::Exclusion& example = *members.front();
        table.addRow({ruleTitle(rule), std::to_string(members.size()), offer(example) + ": " + example.reason.text});
    }
    table.print(std::cout);
}

} // namespace

int runPlan(const CatalogOptions& catalogOptions, const WorkloadOptions& workloadOptions, PlanOptions options)
{
    if (const core::Constraints& c = options.constraints; c.minGpus > c.maxGpus) {
        return fail(core::Error{core::ErrorCode::InvalidArgument,
                                "at least " + std::to_string(c.minGpus) + " GPUs is more than the most, "
                                    + std::to_string(c.maxGpus)
                                    + " (--max-gpus, 64 when not given): raise --max-gpus or lower --min-gpus",
                                "--min-gpus"});
    }
    if (!options.deadline.empty()) {
        options.constraints.deadlineHours = parseDurationHours(options.deadline);
        if (!options.constraints.deadlineHours) {
            return fail(core::Error{core::ErrorCode::InvalidArgument,
                                    "'" + options.deadline + "' is not a duration: write e.g. 14d, 36h or 90m",
                                    "--deadline"});
        }
    }
    if (!options.countries.empty()) {
        core::Result<std::vector<std::string>> countries = core::parseCountryCodes(options.countries);
        if (!countries) {
            core::Error error = countries.error();
            error.where = "--countries";
            return fail(error);
        }
        options.constraints.countries = *countries;
    }
    int exitCode = kExitOk;
    std::optional<Data> data = loadData(catalogOptions, workloadOptions, exitCode);
    if (!data) {
        return exitCode;
    }
    if (!data->catalog.catalog.exchangeRate()) {
        // Without a rate no USD price can be compared with a CNY one (nor a budget in either): refuse, naming the
        // file and what is wrong in it. A broken file is bad input; a missing one only in a catalog the user gave.
        core::Error e = data->catalog.exchangeRateProblem.value_or(
            core::Error{core::ErrorCode::FileNotFound, "no exchange_rate.json", "catalog"});
        const bool missing = e.code == core::ErrorCode::FileNotFound;
        e.detail = "cannot compare prices in USD and CNY without an exchange rate: " + e.detail;
        return fail(e, !missing || catalogOptions.catalogDirGiven ? kExitBadInput : kExitFailure);
    }
    core::Constraints& c = options.constraints;
    if (!c.countries.empty()) {
        if (core::Status known = core::checkCountries(c.countries, data->assumptions); !known) {
            core::Error e = known.error();
            e.where = "--countries";
            return fail(e);
        }
    }
    core::Planner planner(data->catalog.catalog, data->assumptions, data->calibration);
    core::Recommendation r = planner.recommend(data->workload, c);
    // Buy-vs-rent with ownership.json's defaults; the electricity price is the user's (the GUI's Settings).
    core::LoadedOwnership ownership = core::loadOwnership(catalogOptions.catalogDir);
    for (const core::Error& problem : ownership.problems) {
        std::cerr << "gpuplan: warning: " << problem.message() << '\n';
    }
    const core::BuyVsRent buyVsRent =
        core::compareBuyVsRent(data->catalog.catalog,
                               ownership.facts,
                               r.options.empty() ? std::string() : r.options.front().estimate.gpu->id,
                               c.currency,
                               *data->catalog.catalog.exchangeRate(),
                               {});
    const core::PlanDocument plan = core::makePlanDocument(data->workload,
                                                           c,
                                                           data->catalog.catalog,
                                                           r,
                                                           core::extendedIsoTime(std::chrono::system_clock::now()),
                                                           {},
                                                           {},
                                                           buyVsRent);
    if (!options.output.empty()) {
        if (core::Status saved = core::savePlan(options.output, plan); !saved) {
            return fail(saved.error(), kExitFailure);
        }
    }
    if (catalogOptions.json) {
        std::cout << core::planToJson(plan).dump(2, ' ', false, json::error_handler_t::replace) << '\n';
        return r.options.empty() ? kExitFailure : kExitOk;
    }
    const std::string currency = core::currencyCode(c.currency);
    std::cout << "Plan for " << data->workload.name << " (" << data->workload.id << "), objective "
              << core::objectiveName(r.objective) << ", costs in " << currency << "\n\n";
    // A reservation's or subscription's cost is this run's share; the term binds the lab to its whole amount, so
    // that stands beside it (a column only when some option has one).
    const bool anyCommitment = std::any_of(
        r.options.begin(), r.options.end(), [](const core::RankedOption& o) { return o.mode.commitment.has_value(); });
    std::vector<TextTable::Column> columns{{"#", Align::Right},
                                           {"provider"},
                                           {"instance"},
                                           {"region"},
                                           {"GPUs"},
                                           {"mode"},
                                           {"hours", Align::Right},
                                           {"cost " + currency, Align::Right}};
    if (anyCommitment) {
        columns.push_back({"commitment " + currency, Align::Right});
    }
    TextTable table(columns);
    int rank = 0;
    for (const core::RankedOption& o : r.options) {
        std::vector<std::string> row{std::to_string(++rank),
                                     o.estimate.provider->name,
                                     o.estimate.offer->instanceType,
                                     o.estimate.region,
                                     std::to_string(o.estimate.gpus) + " x " + o.estimate.gpu->name,
                                     core::pricingModeName(o.mode.mode),
                                     rangeText(o.mode.hours),
                                     rangeText(o.mode.cost)};
        if (anyCommitment) {
            row.push_back(o.mode.commitment ? approx(o.mode.commitment->amount) + " over "
                                                  + fixed(o.mode.commitment->months, 0) + " months"
                                            : std::string("-"));
        }
        table.addRow(std::move(row));
    }
    table.print(std::cout);
    rank = 0;
    for (const core::RankedOption& o : r.options) {
        std::cout << "\n"
                  << ++rank << ". " << o.estimate.provider->name << " " << o.estimate.offer->instanceType << " in "
                  << o.estimate.region << ":\n";
        for (const core::Reason& reason : o.reasons) {
            std::cout << "   - " << reason.text << '\n';
        }
        for (const std::string& note : o.estimate.notes) {
            std::cout << "   - note: " << note << '\n';
        }
        printPricingModes(o, currency);
    }
    for (const std::string& note : r.notes) {
        std::cout << "\n" << note << '\n';
    }
    printExcluded(r.excluded, options.allExcluded);
    if (!options.output.empty()) {
        std::cout << "\nSaved the plan to " << options.output << '\n';
    }
    return r.options.empty() ? kExitFailure : kExitOk;
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
        std::cerr << "gpuplan: warning: " << problem.message() << '\n';
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
            std::cerr << "gpuplan: warning: " << problem.message() << '\n';
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
