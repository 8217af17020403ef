#include "CatalogCommands.h"

#include "TextTable.h"

#include "gpuplan/catalog/CatalogJson.h"
#include "gpuplan/catalog/CatalogLoader.h"

#include <cstdio>
#include <iostream>
#include <set>

namespace gpuplan::cli {

using core::Catalog;
using core::Error;
using core::LoadedCatalog;
using nlohmann::json;
using Align = TextTable::Align;

namespace {

std::string number(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

std::string numberOrUnknown(const std::optional<double>& value)
{
    return value ? number(*value) : "-";
}

void printProblems(const std::vector<Error>& problems)
{
    for (const Error& problem : problems) {
        std::cerr << "gpuplan: " << problem.message() << '\n';
    }
}

json problemsJson(const std::vector<Error>& problems)
{
    json list = json::array();
    for (const Error& problem : problems) {
        list.push_back(
            {{"code", core::errorCodeName(problem.code)}, {"where", problem.where}, {"detail", problem.detail}});
    }
    return list;
}

/// Loads the catalog, or prints why not. A catalog with problems still loads (the rest is usable).
std::optional<LoadedCatalog> load(const CatalogOptions& options)
{
    core::Result<LoadedCatalog> loaded = core::loadCatalog(options.catalogDir);
    if (!loaded) {
        std::cerr << "gpuplan: cannot load the catalog: " << loaded.error().message() << '\n';
        return std::nullopt;
    }
    return std::move(loaded).value();
}

std::string regionCell(const core::RegionalOffer& row)
{
    if (!row.region.empty()) {
        return row.region;
    }
    const auto& regions = row.offer.availableRegions;
    if (regions.empty()) {
        return "unknown";
    }
    return regions.size() == 1 ? regions.front()
                               : regions.front() + " +" + std::to_string(regions.size() - 1) + " more";
}

} // namespace

int runGpus(const CatalogOptions& options)
{
    std::optional<LoadedCatalog> loaded = load(options);
    if (!loaded) {
        return kExitBadInput;
    }
    const Catalog& catalog = loaded->catalog;
    if (options.json) {
        json gpus = json::array();
        for (const core::GpuSpec& gpu : catalog.gpus()) {
            gpus.push_back(core::toJson(gpu));
        }
        std::cout << json{{"gpus", gpus}, {"problems", problemsJson(loaded->problems)}}.dump(2) << '\n';
    } else {
        TextTable table({{"ID"},
                         {"NAME"},
                         {"ARCH"},
                         {"CC"},
                         {"MEMORY", Align::Right},
                         {"GB/S", Align::Right},
                         {"FP32", Align::Right},
                         {"TF32", Align::Right},
                         {"FP16", Align::Right},
                         {"BF16", Align::Right},
                         {"FP8", Align::Right},
                         {"TDP W", Align::Right},
                         {"CONFIDENCE"}});
        for (const core::GpuSpec& gpu : catalog.gpus()) {
            table.addRow({gpu.id,
                          gpu.name,
                          gpu.architecture,
                          gpu.computeCapability.empty() ? "-" : gpu.computeCapability,
                          number(gpu.memoryGb) + " GB " + gpu.memoryType,
                          numberOrUnknown(gpu.memoryBandwidthGBs),
                          numberOrUnknown(gpu.peak.fp32),
                          numberOrUnknown(gpu.peak.tf32),
                          numberOrUnknown(gpu.peak.fp16),
                          numberOrUnknown(gpu.peak.bf16),
                          numberOrUnknown(gpu.peak.fp8),
                          numberOrUnknown(gpu.tdpWatts),
                          core::confidenceName(gpu.confidence)});
        }
        table.print(std::cout);
        std::cout << '\n'
                  << catalog.gpus().size()
                  << " GPUs. Dense datasheet peaks in TFLOPS; '-' means the GPU has no such unit or the datasheet "
                     "does not state it. Sources: gpuplan gpus --json\n";
    }
    printProblems(loaded->problems);
    return loaded->problems.empty() ? kExitOk : kExitBadInput;
}

int runCatalog(const CatalogOptions& options)
{
    std::optional<LoadedCatalog> loaded = load(options);
    if (!loaded) {
        return kExitBadInput;
    }
    const Catalog& catalog = loaded->catalog;
    core::Result<std::vector<core::Offer>> offers =
        catalog.select(core::OfferFilter{options.provider, options.gpu, options.region});
    if (!offers) {
        std::cerr << "gpuplan: " << offers.error().message() << '\n';
        return kExitBadInput;
    }

    if (options.json) {
        json list = json::array();
        for (const core::Offer& offer : *offers) {
            list.push_back(core::toJson(offer, catalog));
        }
        const std::string newest = core::newestPriceDate(*offers);
        std::cout << json{{"newest_price_date", newest.empty() ? json(nullptr) : json(newest)},
                          {"offers", list},
                          {"problems", problemsJson(loaded->problems)}}
                         .dump(2)
                  << '\n';
    } else {
        TextTable table({{"PROVIDER"},
                         {"INSTANCE"},
                         {"GPU"},
                         {"GPU MEM", Align::Right},
                         {"VCPU", Align::Right},
                         {"RAM", Align::Right},
                         {"REGION"},
                         {"PRICE/HOUR", Align::Right},
                         {"PRICE/MONTH", Align::Right},
                         {"PRICE DATE"}});
        std::set<std::string> providers;
        for (const core::RegionalOffer& row : catalog.regionalOffers(*offers)) {
            providers.insert(row.provider.id);
            table.addRow({row.provider.id,
                          row.offer.instanceType,
                          std::to_string(row.offer.gpuCount) + "x " + row.gpu.name,
                          number(row.gpuMemoryTotalGb()) + " GB",
                          std::to_string(row.offer.vcpus),
                          number(row.offer.ramGib) + " GiB",
                          regionCell(row),
                          row.onDemandHourly
                              ? core::formatMoney(row.onDemandHourly->amount, row.onDemandHourly->currency)
                              : "unknown",
                          row.monthly ? core::formatMoney(row.monthly->amount, row.monthly->currency) : "-",
                          row.priceDate().empty() ? "-" : row.priceDate()});
        }
        table.print(std::cout);
        const std::string newest = core::newestPriceDate(*offers);
        std::cout << '\n'
                  << offers->size() << (offers->size() == 1 ? " offer from " : " offers from ") << providers.size()
                  << (providers.size() == 1 ? " provider" : " providers") << "; newest price "
                  << (newest.empty() ? "unknown" : newest)
                  << ". 'unknown': no published price was found, none is guessed. Sources: gpuplan catalog --json\n";
    }
    printProblems(loaded->problems);
    return loaded->problems.empty() ? kExitOk : kExitBadInput;
}

int runCatalogValidate(const CatalogOptions& options, const std::filesystem::path& file)
{
    // Offers are checked against the GPU ids of the catalog in use.
    core::Result<LoadedCatalog> reference = core::loadCatalog(options.catalogDir);
    const Catalog gpus = reference ? reference->catalog : Catalog{};
    if (!reference) {
        std::cerr << "gpuplan: warning: GPU ids cannot be checked, the catalog does not load: "
                  << reference.error().message() << '\n';
    }
    const std::vector<Error> problems = core::validateCatalogFile(file, gpus);
    if (problems.empty()) {
        std::cout << file.string() << ": valid\n";
        return kExitOk;
    }
    printProblems(problems);
    std::cerr << file.string() << ": " << problems.size() << (problems.size() == 1 ? " problem\n" : " problems\n");
    return kExitBadInput;
}

} // namespace gpuplan::cli
