#pragma once

#include "gpuplan/catalog/Catalog.h"

#include <filesystem>
#include <optional>
#include <string>

namespace gpuplan::cli {

/// Exit codes of every gpuplan command (DESIGN.md): 0 success, 2 bad input, 1 any other failure.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

struct CatalogOptions
{
    std::filesystem::path catalogDir;
    bool catalogDirGiven = false; // by --catalog or $GPUPLAN_CATALOG_DIR: a failure to load it is bad input
    std::filesystem::path userCatalogDir;
    std::filesystem::path pricesDir; // prices refreshed from the providers (`gpuplan prices refresh`)
    core::OfferFilter filter;
    std::optional<core::Currency> displayCurrency; // also show prices converted to this currency
    int maxPriceAgeDays = 365;
    bool json = false;
};

/// `gpuplan gpus [--json]`
int runGpus(const CatalogOptions& options);
/// `gpuplan catalog [filters] [--currency C] [--json]`
int runCatalog(const CatalogOptions& options);
/// `gpuplan catalog validate [FILE]`: every problem and finding of one file, or of the catalog in use.
int runCatalogValidate(const CatalogOptions& options, const std::filesystem::path& file);
/// `gpuplan prices refresh --provider P [--region R]`: reads the provider's price list, keeps the prices of the
/// catalog's offers as a layer over the bundled ones, and prints what changed. Providers whose price API is signed
/// use the stored credential (`gpuplan creds set P`).
int runPricesRefresh(
    int& argc, char** argv, const CatalogOptions& options, const std::string& provider, const std::string& region);

} // namespace gpuplan::cli
