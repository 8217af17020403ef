#include "gpuplan/catalog/CatalogLoader.h"

#include "gpuplan/core/Paths.h"

#include "core/JsonChecker.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace gpuplan::core {

using nlohmann::json;
using Need = JsonChecker::Need;
namespace fs = std::filesystem;

namespace {
// wire: the schema tag a data file carries

constexpr const char* kGpusSchema = "gpuplan-gpus/1";
// wire: the schema tag a data file carries
constexpr const char* kOffersSchema = "gpuplan-offers/1";
// wire: the schema tag a data file carries
constexpr const char* kExchangeRateSchema = "gpuplan-exchange-rate/1";
constexpr const char* kExchangeRateFile = "exchange_rate.json";

std::optional<GpuSpec> readGpu(JsonChecker& check, const json& node, const std::string& at)
{
    if (!check.isObject(node, at)) {
        return std::nullopt;
    }
    const std::size_t before = check.problemCount();
    check.onlyKnownKeys(node,
                        at,
                        {"id",
                         "name",
                         "aliases",
                         "vendor",
                         "architecture",
                         "compute_capability",
                         "memory_gb",
                         "memory_type",
                         "memory_bandwidth_gbs",
                         "peak_tflops",
                         "interconnect",
                         "tdp_w",
                         "confidence",
                         "notes",
                         "source"});
    GpuSpec gpu;
    gpu.id = check.string(node, "id", at, Need::Required).value_or("");
    if (!gpu.id.empty() && !std::all_of(gpu.id.begin(), gpu.id.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        })) {
        check.problem(JsonChecker::child(at, "id"), Reason{"error.catalog.gpu_id_chars", {{"found", gpu.id}}});
    }
    gpu.name = check.string(node, "name", at, Need::Required).value_or("");
    gpu.aliases = check.stringList(node, "aliases", at);
    gpu.vendor = check.string(node, "vendor", at, Need::Required).value_or("");
    gpu.architecture = check.string(node, "architecture", at, Need::Required).value_or("");
    gpu.computeCapability = check.string(node, "compute_capability", at, Need::Optional).value_or("");
    gpu.memoryGb = check.positiveNumber(node, "memory_gb", at, Need::Required).value_or(0);
    gpu.memoryType = check.string(node, "memory_type", at, Need::Required).value_or("");
    gpu.memoryBandwidthGBs = check.positiveNumber(node, "memory_bandwidth_gbs", at, Need::Optional);
    if (const json* peak = check.object(node, "peak_tflops", at, Need::Required)) {
        const std::string peakAt = JsonChecker::child(at, "peak_tflops");
        check.onlyKnownKeys(*peak, peakAt, {"fp32", "tf32", "fp16", "bf16", "fp8"});
        gpu.peak.fp32 = check.positiveNumber(*peak, "fp32", peakAt, Need::Optional);
        gpu.peak.tf32 = check.positiveNumber(*peak, "tf32", peakAt, Need::Optional);
        gpu.peak.fp16 = check.positiveNumber(*peak, "fp16", peakAt, Need::Optional);
        gpu.peak.bf16 = check.positiveNumber(*peak, "bf16", peakAt, Need::Optional);
        gpu.peak.fp8 = check.positiveNumber(*peak, "fp8", peakAt, Need::Optional);
    }
    gpu.interconnect = check.string(node, "interconnect", at, Need::Optional).value_or("");
    gpu.tdpWatts = check.positiveNumber(node, "tdp_w", at, Need::Optional);
    // wire: the values the file may hold, as it writes them (a reason parameter)
    gpu.confidence = check.choice(node, "confidence", at, Need::Required, parseConfidence, "high, medium, low")
                         .value_or(Confidence::High);
    gpu.notes = check.string(node, "notes", at, Need::Optional).value_or("");
    std::optional<Source> source = readSource(check, node, "source", at);
    if (!source || check.problemCount() != before) {
        return std::nullopt;
    }
    gpu.source = *source;
    return gpu;
}

/// Reads the GPU specs document into `out`; entries with problems are left out.
void readGpus(JsonChecker& check, const json& root, Catalog& out)
{
    if (!check.isObject(root, "$")) {
        return;
    }
    check.onlyKnownKeys(root, "$", {"schema", "gpus"});
    if (!checkSchemaTag(check, root, kGpusSchema)) {
        return;
    }
    const json* gpus = check.array(root, "gpus", "$", Need::Required);
    if (!gpus) {
        return;
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < gpus->size(); ++i) {
        const std::string at = JsonChecker::index("$.gpus", i);
        std::optional<GpuSpec> gpu = readGpu(check, (*gpus)[i], at);
        if (!gpu) {
            continue;
        }
        if (!seen.insert(gpu->id).second) {
            check.problem(JsonChecker::child(at, "id"), Reason{"error.catalog.duplicate_gpu", {{"gpu", gpu->id}}});
            continue;
        }
        out.addGpu(std::move(*gpu));
    }
}

std::optional<Price> readPrice(JsonChecker& check, const json& node, const std::string& at)
{
    if (!check.isObject(node, at)) {
        return std::nullopt;
    }
    const std::size_t before = check.problemCount();
    check.onlyKnownKeys(node, at, {"region", "mode", "amount", "currency", "unit", "interruption", "source"});
    Price price;
    price.location = check.where(at);
    price.region = check.string(node, "region", at, Need::Required).value_or("");
    price.mode = check.choice(node, "mode", at, Need::Required, parsePricingMode, kPricingModeNames)
                     .value_or(PricingMode::OnDemand);
    price.amount = check.positiveNumber(node, "amount", at, Need::Required).value_or(0);
    // wire: the values the file may hold, as it writes them (a reason parameter)
    price.currency =
        check.choice(node, "currency", at, Need::Required, parseCurrency, "USD, CNY").value_or(Currency::USD);
    // wire: the values the file may hold, as it writes them (a reason parameter)
    std::optional<PriceUnit> unit = check.choice(node, "unit", at, Need::Required, parsePriceUnit, "hour, month");
    if (unit && check.problemCount() == before && *unit != expectedUnit(price.mode)) {
        check.problem(JsonChecker::child(at, "unit"),
                      Reason{"error.catalog.price_unit",
                             {{"mode", pricingModeName(price.mode)},
                              {"expected", priceUnitName(expectedUnit(price.mode))},
                              {"found", priceUnitName(*unit)}}});
    }
    price.unit = unit.value_or(PriceUnit::Hour);
    price.interruption = check.string(node, "interruption", at, Need::Optional).value_or("");
    if (!price.interruption.empty() && price.mode != PricingMode::Spot) {
        check.problem(JsonChecker::child(at, "interruption"), Reason{"error.catalog.interruption_not_spot", {}});
    }
    std::optional<Source> source = readSource(check, node, "source", at);
    if (!source || check.problemCount() != before) {
        return std::nullopt;
    }
    price.source = *source;
    return price;
}

std::optional<Billing> readBilling(JsonChecker& check, const json& node, const std::string& at)
{
    const json* billing = check.object(node, "billing", at, Need::Optional);
    if (!billing) {
        return std::nullopt;
    }
    const std::string billingAt = JsonChecker::child(at, "billing");
    check.onlyKnownKeys(*billing, billingAt, {"granularity", "minimum_seconds"});
    // wire: the values the file may hold, as it writes them (a reason parameter)
    std::optional<Billing::Granularity> granularity =
        check.choice(*billing, "granularity", billingAt, Need::Required, parseGranularity, "second, minute, hour");
    std::optional<int> minimum = check.count(*billing, "minimum_seconds", billingAt, Need::Optional);
    if (!granularity) {
        return std::nullopt;
    }
    return Billing{*granularity, minimum.value_or(0)};
}

std::optional<Offer>
readOffer(JsonChecker& check, const json& node, const std::string& at, const Provider& provider, const Catalog* gpus)
{
    if (!check.isObject(node, at)) {
        return std::nullopt;
    }
    const std::size_t before = check.problemCount();
    check.onlyKnownKeys(node,
                        at,
                        {"instance_type",
                         "service",
                         "gpu",
                         "gpu_count",
                         "vcpus",
                         "ram_gib",
                         "local_disk_gb",
                         "network",
                         "rdma",
                         "rdma_note",
                         "bare_metal",
                         "compliance",
                         "mig",
                         "billing",
                         "regions",
                         "notes",
                         "spec_source",
                         "prices"});
    Offer offer;
    offer.providerId = provider.id;
    offer.location = check.where(at);
    offer.instanceType = check.string(node, "instance_type", at, Need::Required).value_or("");
    // wire: the values the file may hold, as it writes them (a reason parameter)
    offer.service = check.choice(node, "service", at, Need::Optional, parseServiceKind, "vm, bare_metal, managed, tpu")
                        .value_or(ServiceKind::Vm);
    offer.gpuId = check.string(node, "gpu", at, Need::Required).value_or("");
    if (gpus && !offer.gpuId.empty() && !gpus->findGpu(offer.gpuId)) {
        check.problem(JsonChecker::child(at, "gpu"),
                      Reason{"error.catalog.unknown_gpu_id", {{"gpu", offer.gpuId}}},
                      ErrorCode::UnknownReference);
    }
    offer.gpuCount = check.count(node, "gpu_count", at, Need::Required).value_or(0);
    // A TPU slice or a managed service is not a machine the user sizes: its host figures may be absent.
    const Need hostNeed =
        offer.service == ServiceKind::Vm || offer.service == ServiceKind::BareMetal ? Need::Required : Need::Optional;
    offer.vcpus = check.count(node, "vcpus", at, hostNeed);
    offer.ramGib = check.positiveNumber(node, "ram_gib", at, hostNeed);
    offer.localDiskGb = check.positiveNumber(node, "local_disk_gb", at, Need::Optional);
    offer.network = check.string(node, "network", at, Need::Optional).value_or("");
    offer.rdma = check.boolean(node, "rdma", at, Need::Optional);
    offer.rdmaNote = check.string(node, "rdma_note", at, Need::Optional).value_or("");
    offer.bareMetal = check.boolean(node, "bare_metal", at, Need::Optional);
    offer.compliance = check.stringList(node, "compliance", at);
    offer.mig = check.boolean(node, "mig", at, Need::Optional);
    offer.billing = readBilling(check, node, at);
    offer.notes = check.string(node, "notes", at, Need::Optional).value_or("");
    offer.availableRegions = check.stringList(node, "regions", at);
    std::optional<Source> specSource = readSource(check, node, "spec_source", at);
    if (const json* prices = check.array(node, "prices", at, Need::Required)) {
        const std::string pricesAt = JsonChecker::child(at, "prices");
        for (std::size_t i = 0; i < prices->size(); ++i) {
            const std::string priceAt = JsonChecker::index(pricesAt, i);
            std::optional<Price> price = readPrice(check, (*prices)[i], priceAt);
            if (!price) {
                continue;
            }
            if (offer.findPrice(price->region, price->mode)) {
                check.problem(priceAt,
                              Reason{"error.catalog.duplicate_price",
                                     {{"mode", pricingModeName(price->mode)}, {"region", price->region}}});
                continue;
            }
            offer.prices.push_back(std::move(*price));
        }
    }
    if (!specSource || check.problemCount() != before) {
        return std::nullopt;
    }
    offer.specSource = *specSource;
    return offer;
}

/// Reads a provider's offers document. Returns the provider when the document itself is sound; offers
/// with problems are left out of `offers`.
std::optional<Provider>
readOffers(JsonChecker& check, const json& root, const Catalog* gpus, std::vector<Offer>& offers)
{
    if (!check.isObject(root, "$")) {
        return std::nullopt;
    }
    check.onlyKnownKeys(root, "$", {"schema", "provider", "offers"});
    if (!checkSchemaTag(check, root, kOffersSchema)) {
        return std::nullopt;
    }
    const std::size_t before = check.problemCount();
    Provider provider;
    if (const json* node = check.object(root, "provider", "$", Need::Required)) {
        check.onlyKnownKeys(*node, "$.provider", {"id", "name", "name_zh", "currency", "homepage"});
        provider.id = check.string(*node, "id", "$.provider", Need::Required).value_or("");
        if (!provider.id.empty() && !std::all_of(provider.id.begin(), provider.id.end(), [](char c) {
                return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            })) {
            check.problem("$.provider.id", Reason{"error.catalog.provider_id_chars", {{"found", provider.id}}});
        }
        provider.name = check.string(*node, "name", "$.provider", Need::Required).value_or("");
        provider.nameZh = check.string(*node, "name_zh", "$.provider", Need::Optional).value_or("");
        // wire: the values the file may hold, as it writes them (a reason parameter)
        provider.currency = check.choice(*node, "currency", "$.provider", Need::Required, parseCurrency, "USD, CNY")
                                .value_or(Currency::USD);
        provider.homepage = check.string(*node, "homepage", "$.provider", Need::Optional).value_or("");
    }
    const bool providerOk = check.problemCount() == before;
    const json* list = check.array(root, "offers", "$", Need::Required);
    if (!list) {
        return std::nullopt;
    }
    // The offers are checked even when the provider block is broken, so that every problem is named.
    std::set<std::string> seen;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string at = JsonChecker::index("$.offers", i);
        std::optional<Offer> offer = readOffer(check, (*list)[i], at, provider, gpus);
        if (!offer) {
            continue;
        }
        if (!seen.insert(offer->instanceType).second) {
            check.problem(JsonChecker::child(at, "instance_type"),
                          Reason{"error.catalog.duplicate_instance_type", {{"instance_type", offer->instanceType}}});
            continue;
        }
        offers.push_back(std::move(*offer));
    }
    if (!providerOk) {
        offers.clear();
        return std::nullopt;
    }
    return provider;
}

/// The *.json files of a folder, sorted; a missing folder is a problem.
std::vector<fs::path> jsonFilesIn(const fs::path& dir, std::vector<Error>& problems)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        // Folders and other non-files named *.json are reported by readFile, not skipped silently.
        if (it->path().extension() == ".json") {
            files.push_back(it->path());
        }
    }
    if (ec) {
        problems.push_back(Error{ErrorCode::FileNotFound,
                                 Reason{"error.catalog.cannot_list_folder", {{"said", ec.message()}}},
                                 dir.string()});
    }
    std::sort(files.begin(), files.end());
    return files;
}

/// Reads one offers file against the GPU specs loaded so far; its problems go to `loaded.problems`.
std::optional<std::pair<Provider, std::vector<Offer>>> readOffersFile(const fs::path& file, LoadedCatalog& loaded)
{
    Result<std::string> text = readJsonFile(file);
    if (!text) {
        loaded.problems.push_back(text.error());
        return std::nullopt;
    }
    Result<json> document = parseJson(*text, file.string());
    if (!document) {
        loaded.problems.push_back(document.error());
        return std::nullopt;
    }
    JsonChecker check(file.string());
    std::vector<Offer> offers;
    std::optional<Provider> provider = readOffers(check, *document, &loaded.catalog, offers);
    for (Error& problem : check.takeProblems()) {
        loaded.problems.push_back(std::move(problem));
    }
    if (!provider) {
        return std::nullopt;
    }
    return std::make_pair(std::move(*provider), std::move(offers));
}

std::optional<ExchangeRate> readExchangeRate(const fs::path& file, std::vector<Error>& problems)
{
    Result<std::string> text = readJsonFile(file);
    Result<json> document = text ? parseJson(*text, file.string()) : Result<json>(text.error());
    if (!document) {
        problems.push_back(document.error());
        return std::nullopt;
    }
    JsonChecker check(file.string());
    std::optional<ExchangeRate> rate;
    if (check.isObject(*document, "$")) {
        check.onlyKnownKeys(*document, "$", {"schema", "cny_per_usd", "source"});
        const bool schemaOk = checkSchemaTag(check, *document, kExchangeRateSchema);
        std::optional<double> cnyPerUsd = check.positiveNumber(*document, "cny_per_usd", "$", Need::Required);
        std::optional<Source> source = readSource(check, *document, "source", "$");
        if (schemaOk && cnyPerUsd && source) {
            rate = ExchangeRate{*cnyPerUsd, *source, false};
        }
    }
    for (Error& problem : check.takeProblems()) {
        problems.push_back(std::move(problem));
    }
    return rate;
}

} // namespace

Result<LoadedCatalog> loadCatalog(const fs::path& dir, const fs::path& userDir, const fs::path& pricesDir)
{
    const fs::path gpusFile = dir / "gpus.json";
    Result<std::string> gpusText = readJsonFile(gpusFile);
    if (!gpusText) {
        Error error = gpusText.error();
        // Worded after the reason: " (a catalog folder holds gpus.json and offers/*.json)".
        error.reason.params["catalog_folder"] = dir.string();
        return error;
    }
    Result<json> gpusJson = parseJson(*gpusText, gpusFile.string());
    if (!gpusJson) {
        return gpusJson.error();
    }
    LoadedCatalog loaded;
    JsonChecker gpuCheck(gpusFile.string());
    readGpus(gpuCheck, *gpusJson, loaded.catalog);
    loaded.problems = gpuCheck.takeProblems();
    if (loaded.catalog.gpus().empty()) {
        return loaded.problems.empty() ? Error{ErrorCode::SchemaViolation,
                                               Reason{"error.catalog.no_gpus", {}},
                                               gpusFile.string() + ": $.gpus"}
                                       : loaded.problems.front();
    }

    const fs::path rateFile = dir / kExchangeRateFile;
    if (std::error_code ec; fs::exists(rateFile, ec)) {
        const std::size_t before = loaded.problems.size();
        if (std::optional<ExchangeRate> rate = readExchangeRate(rateFile, loaded.problems)) {
            loaded.catalog.setExchangeRate(*rate);
        } else {
            loaded.exchangeRateProblem = loaded.problems.size() > before
                                             ? loaded.problems[before]
                                             : Error{ErrorCode::SchemaViolation,
                                                     Reason{"error.catalog.no_exchange_rate", {}},
                                                     rateFile.string()};
        }
    } else {
        loaded.exchangeRateProblem =
            Error{ErrorCode::FileNotFound,
                  Reason{"error.catalog.exchange_rate_missing", {{"schema", kExchangeRateSchema}}},
                  rateFile.string()};
    }

    for (const fs::path& file : jsonFilesIn(dir / "offers", loaded.problems)) {
        std::optional<std::pair<Provider, std::vector<Offer>>> read = readOffersFile(file, loaded);
        if (!read) {
            continue;
        }
        auto& [provider, offers] = *read;
        if (loaded.catalog.findProvider(provider.id)) {
            loaded.problems.push_back(Error{ErrorCode::SchemaViolation,
                                            Reason{"error.catalog.duplicate_provider", {{"provider", provider.id}}},
                                            file.string() + ": $.provider.id"});
            continue;
        }
        loaded.catalog.addProvider(std::move(provider));
        for (Offer& offer : offers) {
            loaded.catalog.addOffer(std::move(offer));
        }
    }

    // Prices refreshed from the providers' price lists lie over the bundled ones.
    if (std::error_code ec; !pricesDir.empty() && fs::is_directory(pricesDir, ec)) {
        applyRefreshedPrices(loaded, pricesDir);
    }

    // The user's own offers come last: they add to the bundled ones or replace them, and say so.
    if (std::error_code ec; !userDir.empty() && fs::is_directory(userDir, ec)) {
        for (const fs::path& file : jsonFilesIn(userDir, loaded.problems)) {
            addUserOffers(loaded, file);
        }
    }
    return loaded;
}

void applyRefreshedPrices(LoadedCatalog& loaded, const fs::path& dir)
{
    for (const fs::path& file : jsonFilesIn(dir, loaded.problems)) {
        Result<json> document = readJsonDocument(file);
        if (!document) {
            loaded.problems.push_back(document.error());
            continue;
        }
        JsonChecker check(file.string());
        // wire: the schema tag a data file carries
        if (!check.isObject(*document, "$") || !checkSchemaTag(check, *document, "gpuplan-refreshed-prices/1")) {
            std::vector<Error> problems = check.takeProblems();
            loaded.problems.insert(loaded.problems.end(), problems.begin(), problems.end());
            continue;
        }
        check.onlyKnownKeys(*document, "$", {"schema", "provider", "prices"});
        const std::string provider = check.string(*document, "provider", "$", Need::Required).value_or("");
        std::map<std::string, Offer> changed; // instance type -> its offer with the refreshed prices
        if (const json* prices = check.array(*document, "prices", "$", Need::Required)) {
            for (std::size_t i = 0; i < prices->size(); ++i) {
                const std::string at = JsonChecker::index("$.prices", i);
                const json& entry = (*prices)[i];
                if (!check.isObject(entry, at)) {
                    continue;
                }
                check.onlyKnownKeys(entry, at, {"instance_type", "price"});
                const std::optional<std::string> type = check.string(entry, "instance_type", at, Need::Required);
                const json* node = check.object(entry, "price", at, Need::Required);
                std::optional<Price> price =
                    node ? readPrice(check, *node, JsonChecker::child(at, "price")) : std::nullopt;
                if (!type || !price) {
                    continue;
                }
                auto it = changed.find(*type);
                if (it == changed.end()) {
                    const Offer* offer = loaded.catalog.findOffer(provider, *type);
                    if (!offer) {
                        check.problem(JsonChecker::child(at, "instance_type"),
                                      Reason{"error.catalog.refreshed_unknown_offer",
                                             {{"instance_type", *type}, {"provider", provider}}});
                        continue;
                    }
                    it = changed.emplace(*type, *offer).first;
                }
                price->refreshed = true;
                std::vector<Price>& list = it->second.prices;
                auto same = std::find_if(list.begin(), list.end(), [&](const Price& p) {
                    return p.region == price->region && p.mode == price->mode;
                });
                if (same != list.end()) {
                    *same = *price;
                } else {
                    list.push_back(*price);
                }
            }
        }
        for (auto& [type, offer] : changed) {
            loaded.catalog.replaceOffer(std::move(offer));
        }
        std::vector<Error> problems = check.takeProblems();
        loaded.problems.insert(loaded.problems.end(), problems.begin(), problems.end());
    }
}

void addUserOffers(LoadedCatalog& loaded, const fs::path& file)
{
    std::optional<std::pair<Provider, std::vector<Offer>>> read = readOffersFile(file, loaded);
    if (!read) {
        return;
    }
    auto& [provider, offers] = *read;
    if (!loaded.catalog.findProvider(provider.id)) {
        loaded.catalog.addProvider(provider);
    }
    for (Offer& offer : offers) {
        offer.origin = OfferOrigin::UserOverride;
        if (!loaded.catalog.replaceOffer(offer)) {
            offer.origin = OfferOrigin::UserAdded;
            loaded.catalog.addOffer(std::move(offer));
        }
    }
}

fs::path userCatalogDir()
{
    if (const char* overridden = std::getenv("GPUPLAN_USER_CATALOG_DIR"); overridden && *overridden) {
        return fs::path(overridden);
    }
    const fs::path data = userDataDir();
    return data.empty() ? fs::path() : data / "offers";
}

std::vector<Error> validateCatalogFile(const fs::path& file, const Catalog* gpus)
{
    Result<std::string> text = readJsonFile(file);
    if (!text) {
        return {text.error()};
    }
    Result<json> document = parseJson(*text, file.string());
    if (!document) {
        return {document.error()};
    }
    JsonChecker check(file.string());
    const json& root = *document;
    if (!check.isObject(root, "$")) {
        return check.takeProblems();
    }
    const auto schema = root.find("schema");
    if (schema != root.end() && *schema == kGpusSchema) {
        Catalog scratch;
        readGpus(check, root, scratch);
    } else if (schema != root.end() && *schema == kOffersSchema) {
        std::vector<Offer> offers;
        readOffers(check, root, gpus, offers);
    } else {
        // No "found" parameter: the file has no schema member.
        Reason reason{"error.catalog.unknown_schema", {{"gpus_schema", kGpusSchema}, {"offers_schema", kOffersSchema}}};
        if (schema != root.end()) {
            putFound(reason, *schema);
        }
        check.problem("$.schema", std::move(reason));
    }
    return check.takeProblems();
}

fs::path bundledCatalogDir(const fs::path& executableDir)
{
    if (const char* overridden = std::getenv("GPUPLAN_CATALOG_DIR"); overridden && *overridden) {
        return fs::path(overridden);
    }
    return (executableDir / ".." / "share" / "gpuplanner" / "catalog").lexically_normal();
}

} // namespace gpuplan::core
