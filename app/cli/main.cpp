// gpuplan: the command-line face of GPU Planner. Every GUI capability has a CLI form (DESIGN.md).
#include "CatalogCommands.h"

#include "gpuplan/catalog/CatalogLoader.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <system_error>

namespace {

std::filesystem::path executableDir(const char* argv0)
{
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) {
        self = std::filesystem::absolute(argv0, ec);
    }
    return self.parent_path();
}

} // namespace

int main(int argc, char** argv)
{
    using namespace gpuplan::cli;

    CLI::App app{"GPU Planner: compare cloud GPU offers for a training run, launch and verify them."};
    app.name("gpuplan");
    app.require_subcommand(1);

    CatalogOptions options;
    std::string catalogDir;
    app.add_option("--catalog", catalogDir, "Catalog folder to use instead of the bundled one")
        ->check(CLI::ExistingDirectory);

    CLI::App* gpus = app.add_subcommand("gpus", "List the GPU models with their datasheet figures");
    gpus->add_flag("--json", options.json, "Print JSON instead of a table");

    CLI::App* catalog = app.add_subcommand("catalog", "List the cloud offers: instance, GPUs, region, price");
    catalog->add_option("--provider", options.provider, "Only this provider (aws, alibaba, tencent, ...)");
    catalog->add_option("--gpu", options.gpu, "Only GPUs whose id or name contains this (e.g. A100)");
    catalog->add_option("--region", options.region, "Only regions whose name contains this (e.g. us-east)");
    catalog->add_flag("--json", options.json, "Print JSON instead of a table");
    catalog->require_subcommand(0, 1);

    std::string fileToValidate;
    CLI::App* validate = catalog->add_subcommand("validate", "Check a catalog file and name every problem in it");
    validate->add_option("FILE", fileToValidate, "gpus.json or a provider's offers file")->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kExitOk : kExitBadInput;
    }

    options.catalogDir = catalogDir.empty() ? gpuplan::core::bundledCatalogDir(executableDir(argv[0]))
                                            : std::filesystem::path(catalogDir);
    if (*gpus) {
        return runGpus(options);
    }
    if (*validate) {
        return runCatalogValidate(options, fileToValidate);
    }
    if (*catalog) {
        return runCatalog(options);
    }
    return kExitFailure;
}
