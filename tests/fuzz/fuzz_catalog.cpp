// Catalog files and the user's own offers files (core/catalog/CatalogLoader.cpp): one file's text read as GPU specs,
// an exchange rate or a provider's offers, then used as `gpuplan catalog --json` and the catalog table use it.
#include "FuzzSupport.h"

#include "gpuplan/catalog/CatalogJson.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>

using namespace gpuplan;

namespace {

/// GPU specs, the exchange rate and two small providers' offers of the bundled catalog: what user offers replace
/// or add to. Loaded once from a scratch copy so that each run copies only a small catalog.
const core::LoadedCatalog& baseCatalog()
{
    static const core::LoadedCatalog base = [] {
        const std::filesystem::path from = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog";
        const std::filesystem::path to = fuzz::scratchDir() / "base";
        std::filesystem::create_directories(to / "offers");
        for (const char* file : {"gpus.json", "exchange_rate.json", "offers/paperspace.json", "offers/huawei.json"}) {
            std::filesystem::copy_file(from / file, to / file, std::filesystem::copy_options::overwrite_existing);
        }
        core::Result<core::LoadedCatalog> loaded = core::loadCatalog(to);
        if (!loaded || loaded->catalog.offers().empty()) {
            std::abort();
        }
        return *loaded;
    }();
    return base;
}

void useLikeTheCli(const core::Catalog& catalog)
{
    for (const core::Offer& offer : catalog.offers()) {
        (void)core::toJson(offer, catalog).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    for (const core::GpuSpec& gpu : catalog.gpus()) {
        (void)core::toJson(gpu).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    (void)catalog.regionalOffers(catalog.offers());
    (void)catalog.newestPriceDate();
    (void)catalog.select(core::OfferFilter{.gpu = "a100", .region = "us"});
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const core::LoadedCatalog& base = baseCatalog();

    // A user offers file (`gpuplan catalog add`, the user's offers folder).
    const std::filesystem::path file = fuzz::writeInput("user/offers.json", data, size);
    core::LoadedCatalog withUser = base;
    core::addUserOffers(withUser, file);
    useLikeTheCli(withUser.catalog);

    // `gpuplan catalog validate`: GPU specs or offers, told apart by the schema.
    (void)core::validateCatalogFile(file, &base.catalog);

    // The same text as a catalog folder's gpus.json and exchange_rate.json.
    fuzz::writeInput("folder/gpus.json", data, size);
    fuzz::writeInput("folder/exchange_rate.json", data, size);
    std::filesystem::create_directories(fuzz::scratchDir() / "folder" / "offers");
    if (core::Result<core::LoadedCatalog> folder = core::loadCatalog(fuzz::scratchDir() / "folder")) {
        useLikeTheCli(folder->catalog);
    }
    return 0;
}
