#include "gpuplan/prices/PriceRefresh.h"

#include "PriceReading.h"

#include "core/JsonChecker.h"
#include "gpuplan/catalog/CatalogChecks.h"
#include "gpuplan/catalog/CatalogJson.h"
#include "gpuplan/cloud/PublicAddress.h"
#include "gpuplan/core/Log.h"
#include "gpuplan/core/Paths.h"
#include "gpuplan/net/Crypto.h"
#include "gpuplan/prices/AwsOfferFile.h"
#include "gpuplan/secrets/SignerCredentials.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <set>

namespace gpuplan::core {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using pricing::compareWithCatalog;
using pricing::getJson;
using pricing::offeredRegions;

constexpr const char* kRefreshedSchema = "gpuplan-refreshed-prices/1";

} // namespace

Result<PriceRefresh> refreshAwsPrices(HttpTransport& http,
                                      const Catalog& catalog,
                                      const std::string& region,
                                      const fs::path& workDir,
                                      const RefreshProgress& progress,
                                      const CancelToken* cancel)
{
    PriceRefresh refresh;
    refresh.provider = "aws";
    // What to look for: the catalog's AWS instance types, per region (one offer file per region).
    Result<std::map<std::string, std::set<std::string>>> offered = offeredRegions(catalog, "aws", "AWS", region);
    if (!offered) {
        return offered.error();
    }
    std::map<std::string, std::set<std::string>> wanted; // region -> instance types
    for (const auto& [type, regions] : *offered) {
        for (const std::string& r : regions) {
            wanted[r].insert(type);
        }
    }

    const std::string base = pricing::endpoint("aws_pricing", "https://pricing.us-east-1.amazonaws.com");
    const std::string indexUrl = base + "/offers/v1.0/aws/AmazonEC2/current/region_index.json";
    Result<json> index = getJson(http, indexUrl, cancel);
    if (!index) {
        return index.error();
    }
    const json* regions = index->is_object() && index->contains("regions") ? &index->at("regions") : nullptr;
    if (!regions || !regions->is_object()) {
        return Error{ErrorCode::SchemaViolation, Reason{"error.prices.not_a_region_index"}, indexUrl};
    }

    const std::string retrieved = todayUtc();
    for (const auto& [code, types] : wanted) {
        const auto entry = regions->find(code);
        if (entry == regions->end() || !entry->is_object() || !entry->contains("currentVersionUrl")
            || !entry->at("currentVersionUrl").is_string()) {
            refresh.notes.push_back({Reason{"refresh.no_region_file", {{"region", code}}}});
            continue;
        }
        const std::string url = base + entry->at("currentVersionUrl").get<std::string>();
        const fs::path file = workDir / ("aws-" + code + ".json");
        const Reason what{"refresh.progress_aws_file", {{"region", code}}};
        const Reason reading{"refresh.progress_aws_reading", {{"region", code}}};
        HttpRequest request;
        request.url = url;
        request.safeToRetry = true;
        request.saveBodyTo = file;
        request.totalTimeout = std::chrono::hours(2);
        request.onProgress = [&](std::uint64_t done, std::uint64_t total) {
            return !progress || progress(what, done, total, true);
        };
        Result<HttpResponse> response = http.send(request, cancel);
        if (!response) {
            std::error_code ec;
            fs::remove(file, ec);
            return response.error();
        }
        if (response->status != 200) {
            std::error_code ec;
            fs::remove(file, ec);
            return Error{
                ErrorCode::HttpStatus,
                Reason{"error.prices.http_status",
                       {{"status", std::to_string(response->status)}, {"said", response->body.substr(0, 200)}}},
                url,
                response->status};
        }
        Result<AwsOfferFile> read = readAwsOfferFile(file, [&](std::uint64_t done, std::uint64_t total) {
            return (!cancel || !cancel->cancelled()) && (!progress || progress(reading, done, total, true));
        });
        std::error_code ec;
        fs::remove(file, ec);
        if (!read) {
            Error error = read.error();
            error.where = url; // the downloaded copy is gone; the URL is what the user can check
            return error;
        }
        refresh.asOf = std::max(refresh.asOf, read->publicationDate);
        std::set<std::string> priced;
        for (const AwsListedPrice& listed : read->prices) {
            if (listed.regionCode != code || !types.contains(listed.instanceType)) {
                continue;
            }
            Price price;
            price.region = code;
            price.mode = listed.mode;
            price.amount = listed.usdPerHour;
            price.currency = Currency::USD;
            price.unit = PriceUnit::Hour;
            // source: the price's provenance as its API names it, saved with the price (English data, as
            // resources/catalog's sources)
            price.source = {.url = url,
                            .asOf = read->publicationDate,
                            .retrieved = retrieved,
                            .note = "AWS Price List bulk API, EC2 offer file version " + read->version + ", SKU "
                                    + listed.sku + ": Linux, shared tenancy, no pre-installed software"
                                    + (listed.mode == PricingMode::OnDemand
                                           ? ""
                                           : "; standard reservation, no upfront, effective hourly")};
            refresh.prices.push_back({listed.instanceType, price});
            priced.insert(listed.instanceType);
        }
        std::string unpriced;
        int count = 0;
        for (const std::string& type : types) {
            if (!priced.contains(type)) {
                unpriced += (unpriced.empty() ? "" : ", ") + type;
                ++count;
            }
        }
        if (count > 0) {
            refresh.notes.push_back({Reason{"refresh.aws_unpriced",
                                            {{"region", code},
                                             {"count", std::to_string(count)},
                                             {"total", std::to_string(types.size())},
                                             {"types", unpriced}}}});
        }
    }
    compareWithCatalog(catalog, refresh);
    return refresh;
}

Result<PriceRefresh> refreshAzurePrices(HttpTransport& http,
                                        const Catalog& catalog,
                                        const std::string& region,
                                        const RefreshProgress& progress,
                                        const CancelToken* cancel)
{
    PriceRefresh refresh;
    refresh.provider = "azure";
    refresh.asOf = todayUtc();
    const std::string base = pricing::endpoint("azure_pricing", "https://prices.azure.com");
    // Each VM size of the catalog, with the regions the catalog prices it in.
    Result<std::map<std::string, std::set<std::string>>> wanted = offeredRegions(catalog, "azure", "Azure", region);
    if (!wanted) {
        return wanted.error();
    }
    const std::string retrieved = refresh.asOf;
    int done = 0;
    for (const auto& [size, regions] : *wanted) {
        if (progress
            && !progress(
                Reason{"refresh.progress_azure", {{"size", size}}}, std::uint64_t(done), wanted->size(), false)) {
            return Error{ErrorCode::Cancelled, Reason{"error.prices.cancelled"}, base};
        }
        ++done;
        // wire: the Retail Prices API's filter
        std::string filter = "serviceName eq 'Virtual Machines' and armSkuName eq '" + size + "'";
        if (!region.empty()) {
            // wire: the Retail Prices API's filter
            filter += " and armRegionName eq '" + region + "'";
        }
        std::string url = base + "/api/retail/prices?%24filter=" + uriEncode(filter);
        std::set<std::string> priced;
        for (int page = 0; !url.empty(); ++page) {
            if (page >= 200) {
                return Error{ErrorCode::SchemaViolation, Reason{"error.prices.too_many_pages_vm_size"}, url};
            }
            Result<json> answer = getJson(http, url, cancel);
            if (!answer) {
                return answer.error();
            }
            const json* items = answer->is_object() && answer->contains("Items") ? &answer->at("Items") : nullptr;
            if (!items || !items->is_array()) {
                return Error{ErrorCode::SchemaViolation, Reason{"error.prices.not_a_retail_page"}, url};
            }
            for (const json& item : *items) {
                auto text = [&](const char* key) {
                    const auto it = item.find(key);
                    return it != item.end() && it->is_string() ? it->get<std::string>() : std::string();
                };
                const auto price = item.find("retailPrice");
                const std::string where = text("armRegionName");
                const std::string sku = text("skuName");
                if (price == item.end() || !price->is_number() || price->get<double>() <= 0
                    || text("armSkuName") != size || !regions.contains(where) || text("type") != "Consumption"
                    || text("unitOfMeasure") != "1 Hour" || text("currencyCode") != "USD"
                    || text("productName").find("Windows") != std::string::npos
                    || sku.find("Low Priority") != std::string::npos) {
                    continue;
                }
                const bool spot = sku.size() >= 5 && sku.ends_with(" Spot");
                Price p;
                p.region = where;
                p.mode = spot ? PricingMode::Spot : PricingMode::OnDemand;
                p.amount = price->get<double>();
                p.currency = Currency::USD;
                p.unit = PriceUnit::Hour;
                // source: the price's provenance as its API names it, saved with the price (English data, as
                // resources/catalog's sources)
                p.source = {.url = url,
                            .asOf = retrieved,
                            .retrieved = retrieved,
                            .note = "Azure Retail Prices API, live: " + text("productName") + ", " + sku + ", meter "
                                    + text("meterId") + ", effective since "
                                    + text("effectiveStartDate").substr(0, 10)};
                refresh.prices.push_back({size, p});
                priced.insert(where);
            }
            const auto next = answer->find("NextPageLink");
            url = next != answer->end() && next->is_string() ? next->get<std::string>() : std::string();
        }
        std::string missing;
        for (const std::string& r : regions) {
            if (!priced.contains(r)) {
                missing += (missing.empty() ? "" : ", ") + r;
            }
        }
        if (!missing.empty()) {
            refresh.notes.push_back({Reason{"refresh.azure_unpriced", {{"size", size}, {"regions", missing}}}});
        }
    }
    compareWithCatalog(catalog, refresh);
    return refresh;
}

bool priceListNeedsCredential(const std::string& provider)
{
    static const std::set<std::string> needing{"aws", "gcp", "lambda", "alibaba", "tencent", "huawei"};
    return needing.contains(provider);
}

Result<PriceListAccess> priceListAccessFrom(const std::string& provider, const Result<Credential>& stored)
{
    auto made = [&]() -> Result<PriceListAccess> {
        if (!stored) {
            return stored.error();
        }
        PriceListAccess access;
        if (provider == "lambda") {
            Result<std::string> key = apiKeyFrom(*stored);
            if (!key) {
                return key.error();
            }
            access.apiKey = std::move(key).value();
        } else if (provider == "gcp") {
            Result<GoogleServiceAccount> account = googleAccountFrom(*stored);
            if (!account) {
                return account.error();
            }
            access.googleAccount = std::move(account).value();
        } else {
            Result<AccessKey> key = accessKeyFrom(*stored);
            if (!key) {
                return key.error();
            }
            access.key = std::move(key).value();
        }
        return access;
    }();
    if (!made && provider == "aws") {
        return PriceListAccess{};
    }
    return made;
}

Result<PriceRefresh> refreshProviderPrices(HttpTransport& http,
                                           const std::string& provider,
                                           const Catalog& catalog,
                                           const std::string& region,
                                           const fs::path& pricesDir,
                                           const PriceListAccess& access,
                                           const RefreshProgress& progress,
                                           const CancelToken* cancel)
{
    if (provider == "paperspace") {
        return Error{ErrorCode::InvalidArgument, Reason{"error.prices.paperspace_no_api"}, "--provider"};
    }
    using Reader = Result<PriceRefresh> (*)(HttpTransport&,
                                            const Catalog&,
                                            const std::string&,
                                            const PriceListAccess&,
                                            const RefreshProgress&,
                                            const CancelToken*);
    static const std::map<std::string, Reader> signedReaders{{"gcp", refreshGcpPrices},
                                                             {"lambda", refreshLambdaPrices},
                                                             {"alibaba", refreshAlibabaPrices},
                                                             {"tencent", refreshTencentPrices},
                                                             {"huawei", refreshHuaweiPrices}};
    const auto reader = signedReaders.find(provider);
    if (provider != "aws" && provider != "azure" && reader == signedReaders.end()) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.prices.unknown_provider", {{"provider", provider}}},
                     "--provider"};
    }
    const fs::path work = pricesDir / ".download";
    std::error_code ec;
    fs::create_directories(work, ec);
    if (ec) {
        return Error{
            ErrorCode::FileUnreadable, Reason{"error.prices.cannot_create", {{"said", ec.message()}}}, work.string()};
    }
    logInfo(LogCategory::Prices, [&] {
        return "refreshing the prices of " + provider + " in " + (region.empty() ? "every region" : region)
               + (access.key || !access.apiKey.empty() || access.googleAccount ? ", signed" : ", unsigned");
    });
    Result<PriceRefresh> refreshed = Error{ErrorCode::InvalidArgument, Reason{"error.prices.not_read"}, provider};
    if (provider == "aws") {
        refreshed = refreshAwsPrices(http, catalog, region, work, progress, cancel);
        if (refreshed && access.key) {
            // Spot prices are not in the Price List: EC2's spot price history, signed with the user's key.
            Result<PriceRefresh> spot = refreshAwsSpotPrices(http, catalog, region, access, progress, cancel);
            if (!spot) {
                refreshed = spot.error();
            } else {
                PriceRefresh& whole = refreshed.value();
                whole.prices.insert(whole.prices.end(), spot->prices.begin(), spot->prices.end());
                whole.notes.insert(whole.notes.end(), spot->notes.begin(), spot->notes.end());
                whole.changes.clear();
                whole.unchanged = 0;
                compareWithCatalog(catalog, whole);
            }
        } else if (refreshed) {
            refreshed.value().notes.push_back({Reason{"refresh.aws_spot_needs_key"}});
        }
    } else if (provider == "azure") {
        refreshed = refreshAzurePrices(http, catalog, region, progress, cancel);
    } else {
        refreshed = reader->second(http, catalog, region, access, progress, cancel);
    }
    fs::remove_all(work, ec);
    if (refreshed) {
        if (Status saved = saveRefreshedPrices(*refreshed, pricesDir); !saved) {
            return saved.error();
        }
    }
    logInfo(LogCategory::Prices, [&] {
        return refreshed ? "read " + std::to_string(refreshed->prices.size()) + " prices of " + provider + " ("
                               + std::to_string(refreshed->changes.size()) + " changed, "
                               + std::to_string(refreshed->unchanged) + " unchanged), saved in " + pricesDir.string()
                         : "refreshing the prices of " + provider + " failed: " + describe(refreshed.error());
    });
    return refreshed;
}

fs::path refreshedPricesDir()
{
    if (const char* overridden = std::getenv("GPUPLAN_PRICES_DIR"); overridden && *overridden) {
        return fs::path(overridden);
    }
    const fs::path data = userDataDir();
    return data.empty() ? fs::path() : data / "prices";
}

Status saveRefreshedPrices(const PriceRefresh& refresh, const fs::path& dir)
{
    json prices = json::array();
    for (const RefreshedPrice& r : refresh.prices) {
        prices.push_back({{"instance_type", r.instanceType}, {"price", toJson(r.price)}});
    }
    const json document{{"schema", kRefreshedSchema}, {"provider", refresh.provider}, {"prices", prices}};
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path file = dir / (refresh.provider + ".json");
    const fs::path partial = dir / (refresh.provider + ".json.partial");
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out << document.dump(1) << '\n';
        if (!out) {
            return Error{ErrorCode::FileUnreadable, Reason{"error.prices.cannot_write"}, partial.string()};
        }
    }
    fs::rename(partial, file, ec);
    if (ec) {
        return Error{
            ErrorCode::FileUnreadable, Reason{"error.prices.cannot_replace", {{"said", ec.message()}}}, file.string()};
    }
    return Ok{};
}

} // namespace gpuplan::core
