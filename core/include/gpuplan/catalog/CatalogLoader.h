#pragma once

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/core/Result.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace gpuplan::core {

/// A catalog and the problems met while loading it. Offers with a problem are left out; the rest is usable.
struct LoadedCatalog
{
    Catalog catalog;
    std::vector<Error> problems;
    /// Why catalog.exchangeRate() is empty: exchange_rate.json is missing (FileNotFound naming it) or broken (its
    /// first problem, with the file and JSON path; the others are in `problems`). nullopt when the rate loaded.
    std::optional<Error> exchangeRateProblem;
};

/// Loads a catalog folder: `gpus.json`, `exchange_rate.json` (optional) and every `offers/*.json` (one file
/// per provider); then every `*.json` offers file in `userDir` (when given), whose offers replace bundled
/// ones of the same provider and instance type (OfferOrigin::UserOverride) or are added (UserAdded).
/// Fails only when the GPU specs cannot be read (nothing could be checked without them); a broken offers
/// file, or a broken offer in it, becomes a problem naming the file and JSON path, and the rest loads.
/// Thread safety: reentrant; touches only the files it reads.
/// Prices refreshed from the providers (`pricesDir`, see applyRefreshedPrices) lie over the bundled ones, before
/// the user's offers.
Result<LoadedCatalog> loadCatalog(const std::filesystem::path& dir,
                                  const std::filesystem::path& userDir = {},
                                  const std::filesystem::path& pricesDir = {});

/// Lays every refreshed-prices file of `dir` (schema gpuplan-refreshed-prices/1, written by `gpuplan prices
/// refresh`) over the catalog: a refreshed price replaces the catalog's price of the same instance type, region
/// and mode (or is added), marked `refreshed`. Problems (a broken file, an instance type the catalog does not
/// have) go to `loaded.problems`; the rest applies.
void applyRefreshedPrices(LoadedCatalog& loaded, const std::filesystem::path& dir);

/// Reads one user offers file into `loaded`: its offers replace those of the same provider and instance
/// type or are added; a provider not in the catalog yet is added. Problems go to `loaded.problems`.
void addUserOffers(LoadedCatalog& loaded, const std::filesystem::path& file);

/// The user's own offers files: $GPUPLAN_USER_CATALOG_DIR when set, else `$XDG_DATA_HOME/gpuplanner/offers`
/// (`~/.local/share/gpuplanner/offers`). Empty when neither HOME nor XDG_DATA_HOME is set.
std::filesystem::path userCatalogDir();

/// Checks one catalog file, either GPU specs or a provider's offers (told apart by its "schema" field).
/// Offers are checked against `gpus` for known GPU ids (skipped when it is null). Returns every problem
/// found; empty means valid.
std::vector<Error> validateCatalogFile(const std::filesystem::path& file, const Catalog* gpus);

/// Where the bundled catalog lies for a program in `executableDir`: $GPUPLAN_CATALOG_DIR when set,
/// else `<executableDir>/../share/gpuplanner/catalog` (the same in the build tree and when installed).
std::filesystem::path bundledCatalogDir(const std::filesystem::path& executableDir);

} // namespace gpuplan::core
