#pragma once

// Shared by the fuzz targets: a private scratch folder (on tmpfs when there is one) for the readers that take a
// file, and the bundled catalog the judges compare against. Not part of the product.

#include "gpuplan/catalog/CatalogLoader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <unistd.h>

namespace gpuplan::fuzz {

/// A folder of this process's own, made once; libFuzzer's -fork/-jobs workers each get theirs.
inline const std::filesystem::path& scratchDir()
{
    static const std::filesystem::path dir = [] {
        std::error_code ec;
        std::filesystem::path base = std::filesystem::is_directory("/dev/shm", ec)
                                         ? std::filesystem::path("/dev/shm")
                                         : std::filesystem::temp_directory_path();
        const std::filesystem::path made = base / ("gpuplan-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(made);
        std::atexit([] { std::filesystem::remove_all(scratchDir()); });
        return made;
    }();
    return dir;
}

/// Writes the input as `name` in the scratch folder (or a subfolder given in `name`) and returns its path.
inline std::filesystem::path writeInput(const std::string& name, const std::uint8_t* data, std::size_t size)
{
    const std::filesystem::path file = scratchDir() / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return file;
}

inline std::string_view asText(const std::uint8_t* data, std::size_t size)
{
    return {reinterpret_cast<const char*>(data), size};
}

/// The repository's resources/catalog, loaded once. Aborts when it does not load: a broken setup, not a finding.
inline const core::Catalog& bundledCatalog()
{
    static const core::Catalog catalog = [] {
        core::Result<core::LoadedCatalog> loaded =
            core::loadCatalog(std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog");
        if (!loaded) {
            std::abort();
        }
        return loaded->catalog;
    }();
    return catalog;
}

} // namespace gpuplan::fuzz
