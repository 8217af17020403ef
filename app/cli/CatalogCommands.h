#pragma once

#include <filesystem>
#include <string>

namespace gpuplan::cli {

/// Exit codes of every gpuplan command (DESIGN.md): 0 success, 2 bad input, 1 any other failure.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

struct CatalogOptions
{
    std::filesystem::path catalogDir;
    std::string provider;
    std::string gpu;
    std::string region;
    bool json = false;
};

/// `gpuplan gpus [--json]`
int runGpus(const CatalogOptions& options);
/// `gpuplan catalog [--provider P] [--gpu G] [--region R] [--json]`
int runCatalog(const CatalogOptions& options);
/// `gpuplan catalog validate FILE`
int runCatalogValidate(const CatalogOptions& options, const std::filesystem::path& file);

} // namespace gpuplan::cli
