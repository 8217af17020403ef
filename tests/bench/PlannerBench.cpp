// How fast a full re-plan is: every offer x region x pricing mode of the bundled catalog, with and without
// the spot Monte Carlo, and how it grows on synthetic catalogs up to 100 000 offers. The cache is cleared
// each iteration, so each figure is a plan from scratch. Prints figures; asserts nothing. The goal: 100 000
// offers in under a second, with the time per offer flat from 1 000 up.
// Run: build/tests/bench/gpuplan-bench-planner
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/plan/Planner.h"
#include "gpuplan/workload/WorkloadLoader.h"

#include <benchmark/benchmark.h>

namespace {

using namespace gpuplan::core;

const std::filesystem::path kRoot(GPUPLAN_SOURCE_DIR);

struct Data
{
    Catalog catalog;
    Workload workload;
    Calibration calibration;
    Assumptions assumptions;
};

const Data& data()
{
    static const Data loaded = [] {
        Data d;
        d.catalog = loadCatalog(kRoot / "resources" / "catalog")->catalog;
        LoadedWorkloads presets = *loadPresets(kRoot / "resources" / "workloads");
        d.workload = *presets.find("llama2-7b-lora");
        std::vector<Error> problems;
        d.calibration =
            Calibration::build(loadCalibration(kRoot / "resources" / "workloads")->cases, d.catalog, presets, problems);
        d.assumptions = loadAssumptions(kRoot / "resources" / "catalog").assumptions;
        return d;
    }();
    return loaded;
}

/// The bundled offers copied until there are `count`, each copy a new instance type at a slightly different price.
Catalog synthetic(std::size_t count)
{
    const Catalog& bundled = data().catalog;
    Catalog catalog;
    for (const GpuSpec& gpu : bundled.gpus()) {
        catalog.addGpu(gpu);
    }
    for (const Provider& provider : bundled.providers()) {
        catalog.addProvider(provider);
    }
    if (bundled.exchangeRate()) {
        catalog.setExchangeRate(*bundled.exchangeRate());
    }
    for (std::size_t i = 0; i < count; ++i) {
        Offer offer = bundled.offers()[i % bundled.offers().size()];
        offer.instanceType += "-" + std::to_string(i);
        for (Price& price : offer.prices) {
            price.amount *= 1 + double(i % 97) / 1000;
        }
        catalog.addOffer(std::move(offer));
    }
    return catalog;
}

void plan(benchmark::State& state, const Catalog& catalog, bool monteCarlo)
{
    Planner planner(catalog, data().assumptions, data().calibration);
    Constraints constraints;
    constraints.budget = 3000;
    constraints.deadlineHours = 14 * 24;
    CostModel model;
    model.monteCarlo = monteCarlo;
    std::size_t rows = 0;
    for (auto _ : state) {
        planner.clearCache();
        Recommendation r = planner.recommend(data().workload, constraints, model);
        rows = r.excluded.size() + std::size_t(r.eligibleCount);
        benchmark::DoNotOptimize(r);
    }
    state.counters["offers"] = double(catalog.offers().size());
    state.counters["rows"] = double(rows);
    // Time per offer: flat from 1 000 to 100 000 offers when the planner scales linearly.
    state.counters["per_offer"] = benchmark::Counter(
        double(catalog.offers().size()), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void replanBundledWithMonteCarlo(benchmark::State& state)
{
    plan(state, data().catalog, true);
}
void replanBundledWithoutMonteCarlo(benchmark::State& state)
{
    plan(state, data().catalog, false);
}
void replanSynthetic(benchmark::State& state)
{
    static std::map<long, Catalog> catalogs;
    auto it = catalogs.find(state.range(0));
    if (it == catalogs.end()) {
        it = catalogs.emplace(state.range(0), synthetic(std::size_t(state.range(0)))).first;
    }
    plan(state, it->second, true);
}

BENCHMARK(replanBundledWithMonteCarlo)
    ->Unit(benchmark::kMillisecond)
    ->ComputeStatistics("median",
                        [](const std::vector<double>& v) {
                            std::vector<double> s = v;
                            std::sort(s.begin(), s.end());
                            return s[s.size() / 2];
                        })
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK(replanBundledWithoutMonteCarlo)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(replanSynthetic)->Unit(benchmark::kMillisecond)->RangeMultiplier(10)->Range(1000, 100000);

} // namespace

BENCHMARK_MAIN();
