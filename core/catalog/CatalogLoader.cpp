#include "gpuplan/catalog/CatalogLoader.h"

#include "JsonChecker.h"

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

constexpr const char* kGpusSchema = "gpuplan-gpus/1";
constexpr const char* kOffersSchema = "gpuplan-offers/1";

Result<std::string> readFile(const fs::path& file)
{
    std::error_code ec;
    if (!fs::exists(file, ec)) {
        return Error{ErrorCode::FileNotFound, "file not found", file.string()};
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        return Error{ErrorCode::FileUnreadable, "cannot open the file for reading", file.string()};
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        return Error{ErrorCode::FileUnreadable, "read error", file.string()};
    }
    return text.str();
}

/// Parses JSON text; a syntax error names the line and column.
Result<json> parseJson(const std::string& text, const std::string& file)
{
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        // nlohmann reports a byte offset; people count lines and columns.
        const std::size_t offset = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
        const std::size_t line = 1
                                 + static_cast<std::size_t>(std::count(
                                     text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
        const std::size_t lineStart = text.rfind('\n', offset == 0 ? 0 : offset - 1);
        const std::size_t column = offset - (lineStart == std::string::npos ? 0 : lineStart + 1) + 1;
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error while parsing ..."
        if (auto colon = what.find(": "); colon != std::string::npos) {
            what = what.substr(colon + 2);
        }
        return Error{ErrorCode::JsonSyntax,
                     "invalid JSON: " + what,
                     file + ":" + std::to_string(line) + ":" + std::to_string(column)};
    }
}

std::optional<Source> readSource(JsonChecker& check, const json& parent, std::string_view key, const std::string& path)
{
    const json* node = check.object(parent, key, path, Need::Required);
    if (!node) {
        return std::nullopt;
    }
    const std::string at = JsonChecker::child(path, key);
    check.onlyKnownKeys(*node, at, {"url", "date", "note"});
    Source source;
    std::optional<std::string> url = check.string(*node, "url", at, Need::Required);
    if (url && url->rfind("https://", 0) != 0 && url->rfind("http://", 0) != 0) {
        check.problem(JsonChecker::child(at, "url"),
                      "must be a web address starting with https://, found \"" + *url + "\"");
        url.reset();
    }
    std::optional<std::string> date = check.date(*node, "date", at);
    source.note = check.string(*node, "note", at, Need::Optional).value_or("");
    if (!url || !date) {
        return std::nullopt;
    }
    source.url = *url;
    source.date = *date;
    return source;
}

bool checkSchemaTag(JsonChecker& check, const json& root, const char* expected)
{
    std::optional<std::string> schema = check.string(root, "schema", "$", Need::Required);
    if (schema && *schema != expected) {
        check.problem("$.schema", "must be \"" + std::string(expected) + "\", found \"" + *schema + "\"");
        return false;
    }
    return schema.has_value();
}

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
        check.problem(JsonChecker::child(at, "id"), "must use only a-z, 0-9 and '-', found \"" + gpu.id + "\"");
    }
    gpu.name = check.string(node, "name", at, Need::Required).value_or("");
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
    if (std::optional<std::string> confidence = check.string(node, "confidence", at, Need::Required)) {
        if (*confidence == "high") {
            gpu.confidence = Confidence::High;
        } else if (*confidence == "medium") {
            gpu.confidence = Confidence::Medium;
        } else if (*confidence == "low") {
            gpu.confidence = Confidence::Low;
        } else {
            check.problem(JsonChecker::child(at, "confidence"),
                          "must be \"high\", \"medium\" or \"low\", found \"" + *confidence + "\"");
        }
    }
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
            check.problem(JsonChecker::child(at, "id"), "duplicate GPU id \"" + gpu->id + "\"");
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
    check.onlyKnownKeys(node, at, {"region", "mode", "amount", "currency", "unit", "source"});
    Price price;
    price.region = check.string(node, "region", at, Need::Required).value_or("");
    if (std::optional<std::string> mode = check.string(node, "mode", at, Need::Required)) {
        if (std::optional<PricingMode> parsed = parsePricingMode(*mode)) {
            price.mode = *parsed;
        } else {
            check.problem(JsonChecker::child(at, "mode"),
                          "unknown pricing mode \"" + *mode
                              + "\" (known: on_demand, spot, reserved_1y, reserved_3y, subscription_monthly, "
                                "subscription_yearly)");
        }
    }
    price.amount = check.positiveNumber(node, "amount", at, Need::Required).value_or(0);
    if (std::optional<std::string> currency = check.string(node, "currency", at, Need::Required)) {
        if (std::optional<Currency> parsed = parseCurrency(*currency)) {
            price.currency = *parsed;
        } else {
            check.problem(JsonChecker::child(at, "currency"),
                          "unknown currency \"" + *currency + "\" (known: USD, CNY)");
        }
    }
    if (std::optional<std::string> unit = check.string(node, "unit", at, Need::Required)) {
        if (std::optional<PriceUnit> parsed = parsePriceUnit(*unit)) {
            price.unit = *parsed;
            if (check.problemCount() == before && price.unit != expectedUnit(price.mode)) {
                check.problem(JsonChecker::child(at, "unit"),
                              std::string(pricingModeName(price.mode)) + " prices are quoted per "
                                  + priceUnitName(expectedUnit(price.mode)) + ", found \"" + *unit + "\"");
            }
        } else {
            check.problem(JsonChecker::child(at, "unit"), "unknown unit \"" + *unit + "\" (known: hour, month)");
        }
    }
    std::optional<Source> source = readSource(check, node, "source", at);
    if (!source || check.problemCount() != before) {
        return std::nullopt;
    }
    price.source = *source;
    return price;
}

std::optional<Offer>
readOffer(JsonChecker& check, const json& node, const std::string& at, const Provider& provider, const Catalog& gpus)
{
    if (!check.isObject(node, at)) {
        return std::nullopt;
    }
    const std::size_t before = check.problemCount();
    check.onlyKnownKeys(node,
                        at,
                        {"instance_type",
                         "gpu",
                         "gpu_count",
                         "vcpus",
                         "ram_gib",
                         "local_disk_gb",
                         "network",
                         "regions",
                         "notes",
                         "spec_source",
                         "prices"});
    Offer offer;
    offer.providerId = provider.id;
    offer.instanceType = check.string(node, "instance_type", at, Need::Required).value_or("");
    offer.gpuId = check.string(node, "gpu", at, Need::Required).value_or("");
    if (!offer.gpuId.empty() && !gpus.findGpu(offer.gpuId)) {
        check.problem(JsonChecker::child(at, "gpu"),
                      "unknown GPU id \"" + offer.gpuId + "\"; it must be one of the ids in gpus.json",
                      ErrorCode::UnknownReference);
    }
    offer.gpuCount = check.count(node, "gpu_count", at, Need::Required).value_or(0);
    offer.vcpus = check.count(node, "vcpus", at, Need::Required).value_or(0);
    offer.ramGib = check.positiveNumber(node, "ram_gib", at, Need::Required).value_or(0);
    offer.localDiskGb = check.positiveNumber(node, "local_disk_gb", at, Need::Optional);
    offer.network = check.string(node, "network", at, Need::Optional).value_or("");
    offer.notes = check.string(node, "notes", at, Need::Optional).value_or("");
    if (const json* regions = check.array(node, "regions", at, Need::Optional)) {
        for (std::size_t i = 0; i < regions->size(); ++i) {
            const json& region = (*regions)[i];
            if (!region.is_string() || region.get<std::string>().empty()) {
                check.problem(JsonChecker::index(JsonChecker::child(at, "regions"), i),
                              "must be a region name, found " + region.dump());
                continue;
            }
            offer.availableRegions.push_back(region.get<std::string>());
        }
    }
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
                              std::string("a second ") + pricingModeName(price->mode) + " price for region "
                                  + price->region);
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
readOffers(JsonChecker& check, const json& root, const Catalog& gpus, std::vector<Offer>& offers)
{
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
            check.problem("$.provider.id", "must use only a-z and 0-9, found \"" + provider.id + "\"");
        }
        provider.name = check.string(*node, "name", "$.provider", Need::Required).value_or("");
        provider.nameZh = check.string(*node, "name_zh", "$.provider", Need::Optional).value_or("");
        if (std::optional<std::string> currency = check.string(*node, "currency", "$.provider", Need::Required)) {
            if (std::optional<Currency> parsed = parseCurrency(*currency)) {
                provider.currency = *parsed;
            } else {
                check.problem("$.provider.currency", "unknown currency \"" + *currency + "\" (known: USD, CNY)");
            }
        }
        provider.homepage = check.string(*node, "homepage", "$.provider", Need::Optional).value_or("");
    }
    const json* list = check.array(root, "offers", "$", Need::Required);
    if (check.problemCount() != before || !list) {
        return std::nullopt;
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string at = JsonChecker::index("$.offers", i);
        std::optional<Offer> offer = readOffer(check, (*list)[i], at, provider, gpus);
        if (!offer) {
            continue;
        }
        if (!seen.insert(offer->instanceType).second) {
            check.problem(JsonChecker::child(at, "instance_type"),
                          "instance type \"" + offer->instanceType + "\" is listed twice");
            continue;
        }
        offers.push_back(std::move(*offer));
    }
    return provider;
}

} // namespace

Result<LoadedCatalog> loadCatalog(const fs::path& dir)
{
    const fs::path gpusFile = dir / "gpus.json";
    Result<std::string> gpusText = readFile(gpusFile);
    if (!gpusText) {
        Error error = gpusText.error();
        error.detail += " (a catalog folder holds gpus.json and offers/*.json)";
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
        return loaded.problems.empty()
                   ? Error{ErrorCode::SchemaViolation, "no GPU specs in the file", gpusFile.string() + ": $.gpus"}
                   : loaded.problems.front();
    }

    std::vector<fs::path> offerFiles;
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir / "offers", ec)) {
        if (entry.path().extension() == ".json") {
            offerFiles.push_back(entry.path());
        }
    }
    if (ec) {
        loaded.problems.push_back(
            Error{ErrorCode::FileNotFound, "no offers folder: " + ec.message(), (dir / "offers").string()});
    }
    std::sort(offerFiles.begin(), offerFiles.end());

    for (const fs::path& file : offerFiles) {
        Result<std::string> text = readFile(file);
        if (!text) {
            loaded.problems.push_back(text.error());
            continue;
        }
        Result<json> document = parseJson(*text, file.string());
        if (!document) {
            loaded.problems.push_back(document.error());
            continue;
        }
        JsonChecker check(file.string());
        std::vector<Offer> offers;
        std::optional<Provider> provider = readOffers(check, *document, loaded.catalog, offers);
        if (provider && loaded.catalog.findProvider(provider->id)) {
            check.problem("$.provider.id", "provider \"" + provider->id + "\" is already defined by another file");
            provider.reset();
        }
        for (Error& problem : check.takeProblems()) {
            loaded.problems.push_back(std::move(problem));
        }
        if (!provider) {
            continue;
        }
        loaded.catalog.addProvider(std::move(*provider));
        for (Offer& offer : offers) {
            loaded.catalog.addOffer(std::move(offer));
        }
    }
    return loaded;
}

std::vector<Error> validateCatalogFile(const fs::path& file, const Catalog& gpus)
{
    Result<std::string> text = readFile(file);
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
        check.problem("$.schema",
                      std::string("must be \"") + kGpusSchema + "\" (GPU specs) or \"" + kOffersSchema
                          + "\" (a provider's offers), found "
                          + (schema == root.end() ? std::string("nothing") : schema->dump()));
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
