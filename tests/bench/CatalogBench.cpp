// How fast the planner can load and query the catalog. Prints figures; asserts nothing (STYLE.md: no timing
// assertions in ctest). Run: build/tests/bench/gpuplan-bench-catalog
#include "gpuplan/catalog/CatalogChecks.h"
#include "gpuplan/catalog/CatalogLoader.h"

#include <benchmark/benchmark.h>

namespace {

using namespace gpuplan::core;

const std::filesystem::path kBundled = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog";

const Catalog& bundled()
{
    static const Catalog catalog = loadCatalog(kBundled)->catalog;
    return catalog;
}

void loadBundledCatalog(benchmark::State& state)
{
    for (auto _ : state) {
        Result<LoadedCatalog> loaded = loadCatalog(kBundled);
        benchmark::DoNotOptimize(loaded);
    }
    state.counters["offers"] = static_cast<double>(bundled().offers().size());
}
BENCHMARK(loadBundledCatalog)->Unit(benchmark::kMillisecond);

void selectAll(benchmark::State& state)
{
    for (auto _ : state) {
        benchmark::DoNotOptimize(bundled().select({}));
    }
}
BENCHMARK(selectAll)->Unit(benchmark::kMicrosecond);

void selectPlannerQuery(benchmark::State& state)
{
    // A typical planner question: 8+ GPUs with 80 GB each, RDMA, any A100/H100 in the US.
    const OfferFilter filter{.gpu = "h100", .region = "us", .minGpus = 8, .minGpuMemoryGb = 80, .rdma = true};
    for (auto _ : state) {
        benchmark::DoNotOptimize(bundled().select(filter));
    }
}
BENCHMARK(selectPlannerQuery)->Unit(benchmark::kMicrosecond);

void checkBundledCatalog(benchmark::State& state)
{
    CheckOptions options;
    options.today = "2026-12-02";
    for (auto _ : state) {
        benchmark::DoNotOptimize(checkCatalog(bundled(), options));
    }
}
BENCHMARK(checkBundledCatalog)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
