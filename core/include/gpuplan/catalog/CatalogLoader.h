#pragma once

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/core/Result.h"

#include <filesystem>
#include <vector>

namespace gpuplan::core {

/// A catalog and the problems met while loading it. Offers with a problem are left out; the rest is usable.
struct LoadedCatalog
{
    Catalog catalog;
    std::vector<Error> problems;
};

/// Loads a catalog folder: `gpus.json` and every `offers/*.json` (one file per provider).
/// Fails only when the GPU specs cannot be read (nothing could be checked without them); a broken offers
/// file, or a broken offer in it, becomes a problem naming the file and JSON path, and the rest loads.
/// Thread safety: reentrant; touches only the files it reads.
Result<LoadedCatalog> loadCatalog(const std::filesystem::path& dir);

/// Checks one catalog file, either GPU specs or a provider's offers (told apart by its "schema" field).
/// Offers are checked against `gpus` for known GPU ids. Returns every problem found; empty means valid.
std::vector<Error> validateCatalogFile(const std::filesystem::path& file, const Catalog& gpus);

/// Where the bundled catalog lies for a program in `executableDir`: $GPUPLAN_CATALOG_DIR when set,
/// else `<executableDir>/../share/gpuplanner/catalog` (the same in the build tree and when installed).
std::filesystem::path bundledCatalogDir(const std::filesystem::path& executableDir);

} // namespace gpuplan::core
