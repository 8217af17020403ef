// `gpuplan plan`: the recommendation as a table, each option's reasons and pricing modes, and the excluded offers
// grouped by rule; with it what the estimator's commands share (PlanCommandParts.h). `estimate` and `calibrate` are
// in EstimateCommands.cpp.
#include "PlanCommands.h"

#include "TerminalOutput.h"

#include "PlanCommandParts.h"
#include "TextTable.h"

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/plan/BuyVsRent.h"
#include "gpuplan/plan/PlanFile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

namespace gpuplan::cli {

using nlohmann::json;
using Align = TextTable::Align;
using planning::approx;
using planning::fail;
using planning::fixed;
using planning::rangeText;

namespace planning {

std::string fixed(double value, int decimals)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string approx(double value)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, value >= 1000 ? "%.0f" : "%.3g", value);
    return buffer;
}

std::string rangeText(const core::Range& r)
{
    return approx(r.value) + " (" + approx(r.low) + "-" + approx(r.high) + ")";
}

int fail(const core::Error& error, int code)
{
    std::cerr << "gpuplan: " << said(error) << '\n';
    return code;
}

std::optional<Data> loadData(const CatalogOptions& catalogOptions, const WorkloadOptions& options, int& exitCode)
{
    exitCode = kExitBadInput;
    if (options.preset.empty() == options.workloadFile.empty()) {
        fail(ui::frontEndError(
            core::ErrorCode::InvalidArgument, "give either --preset NAME or --workload FILE", "workload"));
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
        std::cerr << "gpuplan: warning: " << said(problem) << '\n';
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
        fail(ui::frontEndError(core::ErrorCode::InvalidArgument,
                               "the total work (epochs times the samples or tokens per epoch) is too large to estimate",
                               "workload"));
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
        std::cerr << "gpuplan: warning: " << said(problem) << '\n';
    }
    data.assumptions = std::move(assumptions.assumptions);
    exitCode = kExitOk;
    return data;
}

} // namespace planning

namespace {

/// Every way the offer can be paid for in its region, side by side: the price with the date its source states,
/// what this run costs that way, what a term binds the lab to, and why a mode is out.
void printPricingModes(const core::RankedOption& o, const std::string& currency);

void printPricingModes(const core::RankedOption& o, const std::string& currency)
{
    std::cout << "   pricing modes:\n";
    for (const core::ModeCost& m : o.estimate.modes) {
        const core::Price& p = *m.price;
        const bool ranked = m.mode == o.mode.mode && !m.managed;
        std::cout << "     " << (ranked ? "* " : "  ")
                  << (m.managed ? "managed job " + m.managed->instanceType + ", " : std::string())
                  << core::pricingModeName(m.mode) << ": " << core::formatMoney(p.amount, p.currency) << "/"
                  << core::priceUnitName(p.unit) << " (as of " << p.source.asOfOrUndated() << ") -> this run "
                  << (m.cost.low == m.cost.high ? approx(m.cost.value) : rangeText(m.cost)) << " " << currency;
        if (m.commitment) {
            std::cout << ", binds " << approx(m.commitment->amount) << " " << currency << " over "
                      << fixed(m.commitment->months, 0) << (m.commitment->months == 1 ? " month" : " months");
        }
        if (!m.eligible) {
            std::cout << "; out: " << said(m.why);
        }
        std::cout << '\n';
    }
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
            std::cout << "  " << offer(x) << " [" << x.rule << "] " << said(x.reason) << '\n';
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
        table.addRow({ruleTitle(rule), std::to_string(members.size()), offer(example) + ": " + said(example.reason)});
    }
    table.print(std::cout);
}

} // namespace

int runPlan(const CatalogOptions& catalogOptions, const WorkloadOptions& workloadOptions, PlanOptions options)
{
    if (const core::Constraints& c = options.constraints; c.minGpus > c.maxGpus) {
        return fail(ui::frontEndError(core::ErrorCode::InvalidArgument,
                                      "at least " + std::to_string(c.minGpus) + " GPUs is more than the most, "
                                          + std::to_string(c.maxGpus)
                                          + " (--max-gpus, 64 when not given): raise --max-gpus or lower --min-gpus",
                                      "--min-gpus"));
    }
    if (!options.deadline.empty()) {
        options.constraints.deadlineHours = parseDurationHours(options.deadline);
        if (!options.constraints.deadlineHours) {
            return fail(ui::frontEndError(core::ErrorCode::InvalidArgument,
                                          "'" + options.deadline + "' is not a duration: write e.g. 14d, 36h or 90m",
                                          "--deadline"));
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
    std::optional<planning::Data> data = planning::loadData(catalogOptions, workloadOptions, exitCode);
    if (!data) {
        return exitCode;
    }
    if (!data->catalog.catalog.exchangeRate()) {
        // Without a rate no USD price can be compared with a CNY one (nor a budget in either): refuse, naming the
        // file and what is wrong in it. A broken file is bad input; a missing one only in a catalog the user gave.
        core::Error e = data->catalog.exchangeRateProblem.value_or(
            ui::frontEndError(core::ErrorCode::FileNotFound, "no exchange_rate.json", "catalog"));
        const bool missing = e.code == core::ErrorCode::FileNotFound;
        e = e.within(core::Reason{"error.front_end.text",
                                  {{"text", "cannot compare prices in USD and CNY without an exchange rate"}}});
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
        std::cerr << "gpuplan: warning: " << said(problem) << '\n';
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
            std::cout << "   - " << said(reason) << '\n';
        }
        for (const core::Reason& note : o.estimate.notes) {
            std::cout << "   - note: " << said(note) << '\n';
        }
        printPricingModes(o, currency);
    }
    for (const core::Reason& note : r.notes) {
        std::cout << "\n" << said(note) << '\n';
    }
    printExcluded(r.excluded, options.allExcluded);
    if (!options.output.empty()) {
        std::cout << "\nSaved the plan to " << options.output << '\n';
    }
    return r.options.empty() ? kExitFailure : kExitOk;
}

} // namespace gpuplan::cli
