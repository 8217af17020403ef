#include "PriceReading.h"

#include "gpuplan/prices/PriceAnswers.h"

#include "core/JsonChecker.h"
#include "gpuplan/net/signers/AlibabaAcs3.h"

#include <algorithm>

namespace gpuplan::core {

namespace {

using nlohmann::json;

constexpr const char* kEcsVersion = "2014-05-26";

/// Whether an Alibaba error code means the key itself is refused, so no further call can work.
bool keyRefused(const std::string& code)
{
    for (const char* prefix : {"InvalidAccessKeyId",
                               "SignatureDoesNotMatch",
                               "IncompleteSignature",
                               "Forbidden",
                               "NoPermission",
                               "InvalidSecurityToken"}) {
        if (code.starts_with(prefix)) {
            return true;
        }
    }
    return false;
}

/// One signed ECS RPC call (GET, signature V2). The parsed answer, or an Error whose providerCode is Alibaba's Code.
Result<json> ecsCall(HttpTransport& http,
                     const std::string& base,
                     std::map<std::string, std::string> params,
                     const PriceListAccess& access,
                     const CancelToken* cancel)
{
    params["Version"] = kEcsVersion;
    params["Format"] = "JSON";
    Result<std::string> query = signAlibabaRpcV2("GET", std::move(params), *access.key, access.clock());
    if (!query) {
        return query.error();
    }
    HttpRequest request;
    request.url = base + "/?" + *query;
    request.safeToRetry = true;
    Result<HttpResponse> response = http.send(request, cancel);
    if (!response) {
        return response.error();
    }
    const std::string where = base + " " + params["Action"];
    Result<json> body = parseJson(response->body, where);
    if (response->status != 200) {
        // {"RequestId": ..., "HostId": ..., "Code": "InvalidInstanceType.NotFound", "Message": ..., "Recommend": ...}
        Error error{ErrorCode::HttpStatus,
                    Reason{"error.prices.answered_http", {{"status", std::to_string(response->status)}}},
                    where,
                    response->status};
        if (body) {
            error.providerCode = pricing::text(*body, "Code");
            error.reason = Reason{"error.prices.answered_http_request",
                                  {{"status", std::to_string(response->status)},
                                   {"code", error.providerCode},
                                   {"said", pricing::text(*body, "Message")},
                                   {"request_id", pricing::text(*body, "RequestId")}}};
            if (keyRefused(error.providerCode)) {
                error.code = ErrorCode::Credentials;
            } else if (error.providerCode == "Throttling" || error.providerCode.starts_with("Throttling.")) {
                error.code = ErrorCode::Throttled;
            }
        }
        return error;
    }
    return body;
}

} // namespace

std::optional<std::pair<double, Currency>> alibabaInstancePrice(const json& answer)
{
    // PriceInfo.Price.DetailInfos.DetailInfo[] (older SDKs: ResourcePriceModel[]): the entry of Resource
    // "instanceType" is the instance alone, without its system disk.
    const json price = answer.value("/PriceInfo/Price"_json_pointer, json());
    const std::string currencyCode = pricing::text(price, "Currency");
    const std::optional<Currency> currency = currencyCode == "CNY"   ? std::optional(Currency::CNY)
                                             : currencyCode == "USD" ? std::optional(Currency::USD)
                                                                     : std::nullopt;
    if (!currency) {
        return std::nullopt;
    }
    if (!price.contains("DetailInfos")) {
        // Accounts without the detail (the documented example has none): the configuration's whole list price.
        if (const std::optional<double> original = pricing::number(price, "OriginalPrice"); original && *original > 0) {
            return std::pair(*original, *currency);
        }
        return std::nullopt;
    }
    const json& infos = price.at("DetailInfos");
    for (const char* listName : {"DetailInfo", "ResourcePriceModel"}) {
        if (!infos.is_object() || !infos.contains(listName) || !infos.at(listName).is_array()) {
            continue;
        }
        for (const json& detail : infos.at(listName)) {
            if (pricing::text(detail, "Resource") == "instanceType") {
                if (const std::optional<double> original = pricing::number(detail, "OriginalPrice");
                    original && *original > 0) {
                    return std::pair(*original, *currency);
                }
            }
        }
    }
    return std::nullopt;
}

std::optional<std::pair<std::string, double>> alibabaCheapestSpot(const json& answer, const std::string& instanceType)
{
    // SpotPrices.SpotPriceType[]: {ZoneId, SpotPrice, OriginPrice, Timestamp}. The newest entry per zone is its
    // current price; the cheapest zone's is kept.
    const json list = answer.value("/SpotPrices/SpotPriceType"_json_pointer, json::array());
    std::map<std::string, std::pair<std::string, double>> newest; // zone -> (timestamp, price)
    for (const json& entry : list) {
        const std::string zone = pricing::text(entry, "ZoneId");
        const std::string at = pricing::text(entry, "Timestamp");
        const std::optional<double> price = pricing::number(entry, "SpotPrice");
        if (zone.empty() || !price || *price <= 0
            || (!instanceType.empty() && pricing::text(entry, "InstanceType") != instanceType)) {
            continue;
        }
        auto [it, added] = newest.emplace(zone, std::pair(at, *price));
        if (!added && at > it->second.first) {
            it->second = {at, *price};
        }
    }
    std::optional<std::pair<std::string, double>> cheapest;
    for (const auto& [zone, entry] : newest) {
        if (!cheapest || entry.second < cheapest->second) {
            cheapest = std::pair(zone, entry.second);
        }
    }
    return cheapest;
}

std::vector<AlibabaSpotAdvice> parseAlibabaSpotAdvice(const json& answer)
{
    // source: ECS API reference, DescribeSpotAdvice, https://alibabacloud.com/help/en/ecs/api-describespotadvice
    // (tests/data/alibaba/README.md): AvailableSpotZones.AvailableSpotZone[] {ZoneId, AvailableSpotResources.
    // AvailableSpotResource[] {InstanceType, InterruptionRate, InterruptRateDesc, AverageSpotDiscount}}.
    // The list at node.outer.inner; null when any of it is missing or of another type.
    auto list = [](const json& node, const char* outer, const char* inner) -> const json* {
        if (!node.is_object() || !node.contains(outer) || !node.at(outer).is_object()) {
            return nullptr;
        }
        const json& middle = node.at(outer);
        return middle.contains(inner) && middle.at(inner).is_array() ? &middle.at(inner) : nullptr;
    };
    std::vector<AlibabaSpotAdvice> rows;
    const json* zones = list(answer, "AvailableSpotZones", "AvailableSpotZone");
    if (!zones) {
        return rows;
    }
    for (const json& zone : *zones) {
        const std::string zoneId = pricing::text(zone, "ZoneId");
        const json* resources = list(zone, "AvailableSpotResources", "AvailableSpotResource");
        if (zoneId.empty() || !resources) {
            continue;
        }
        for (const json& resource : *resources) {
            AlibabaSpotAdvice row{zoneId,
                                  pricing::text(resource, "InstanceType"),
                                  pricing::text(resource, "InterruptRateDesc"),
                                  pricing::number(resource, "InterruptionRate"),
                                  pricing::number(resource, "AverageSpotDiscount")};
            if (!row.instanceType.empty() && !row.band.empty()) {
                rows.push_back(std::move(row));
            }
        }
    }
    return rows;
}

std::string
alibabaSpotBand(const std::vector<AlibabaSpotAdvice>& advice, const std::string& instanceType, const std::string& zone)
{
    for (const AlibabaSpotAdvice& row : advice) {
        if (row.instanceType == instanceType && row.zone == zone) {
            // wire: the band's name in resources/catalog/regions.json's spot_bands, saved with the refreshed price.
            // Prefixed because Alibaba's "5-10%" is also an AWS Spot Advisor band, defined otherwise.
            return "alibaba:" + row.band;
        }
    }
    return {};
}

Result<PriceRefresh> refreshAlibabaPrices(HttpTransport& http,
                                          const Catalog& catalog,
                                          const std::string& region,
                                          const PriceListAccess& access,
                                          const RefreshProgress& progress,
                                          const CancelToken* cancel)
{
    Result<pricing::Reading> reading = pricing::startReading(
        catalog, "alibaba", "Alibaba Cloud", region, access.key.has_value(), "error.prices.needs_alibaba_key");
    if (!reading) {
        return reading.error();
    }
    PriceRefresh& refresh = reading.value().refresh;
    const std::map<std::string, std::set<std::string>>& wanted = reading.value().offered;
    const std::string overridden = pricing::endpoint("alibaba", "");
    std::uint64_t total = 0;
    for (const auto& [type, regions] : wanted) {
        total += regions.size();
    }
    std::uint64_t done = 0;
    for (const auto& [type, regions] : wanted) {
        for (const std::string& r : regions) {
            const std::string base = overridden.empty() ? "https://ecs." + r + ".aliyuncs.com" : overridden;
            if (Status go = pricing::keepGoing(progress,
                                               cancel,
                                               Reason{"refresh.progress_alibaba", {{"type", type}, {"region", r}}},
                                               done++,
                                               total,
                                               base);
                !go) {
                return go.error();
            }
            // Pay-as-you-go per hour, a month and a year of subscription: the list prices (OriginalPrice).
            struct Quote
            {
                const char* unit;
                PricingMode mode;
                double perUnit; // what one quoted period is in the catalog's unit
            };
            for (const Quote& q : {Quote{"Hour", PricingMode::OnDemand, 1.0},
                                   Quote{"Month", PricingMode::SubscriptionMonthly, 1.0},
                                   Quote{"Year", PricingMode::SubscriptionYearly, 12.0}}) {
                Result<json> answer = ecsCall(http,
                                              base,
                                              {{"Action", "DescribePrice"},
                                               {"RegionId", r},
                                               {"ResourceType", "instance"},
                                               {"InstanceType", type},
                                               {"PriceUnit", q.unit},
                                               {"Period", "1"},
                                               {"SystemDisk.Category", "cloud_essd"}},
                                              access,
                                              cancel);
                if (!answer) {
                    if (answer.error().code != ErrorCode::HttpStatus || answer.error().httpStatus >= 500) {
                        return answer.error();
                    }
                    // The type not sold there, or not by subscription: a note, and the bundled price stays.
                    refresh.notes.push_back(
                        {Reason{"refresh.quote_failed", {{"type", type}, {"region", r}, {"unit", q.unit}}},
                         answer.error()});
                    continue;
                }
                const std::optional<std::pair<double, Currency>> price = alibabaInstancePrice(*answer);
                if (!price) {
                    return Error{ErrorCode::SchemaViolation,
                                 Reason{"error.prices.alibaba_price_without_type"},
                                 base + " DescribePrice " + type};
                }
                // source: the price's provenance as its API names it, saved with the price (English data, as
                // resources/catalog's sources)
                refresh.prices.push_back(
                    {type,
                     pricing::livePrice(r,
                                        q.mode,
                                        price->first / q.perUnit,
                                        price->second,
                                        base,
                                        std::string("Alibaba Cloud ECS DescribePrice, live: Linux, PriceUnit ") + q.unit
                                            + ", Period 1, OriginalPrice of the instanceType (list price, "
                                            + "before discounts; system disk not included)"
                                            + (q.perUnit > 1 ? "; the year's price divided by 12" : ""))});
            }
            Result<json> spot = ecsCall(http,
                                        base,
                                        {{"Action", "DescribeSpotPriceHistory"},
                                         {"RegionId", r},
                                         {"InstanceType", type},
                                         {"NetworkType", "vpc"},
                                         {"OSType", "linux"}},
                                        access,
                                        cancel);
            if (!spot) {
                if (spot.error().code != ErrorCode::HttpStatus || spot.error().httpStatus >= 500) {
                    return spot.error();
                }
                refresh.notes.push_back(
                    {Reason{"refresh.quote_failed", {{"type", type}, {"region", r}, {"unit", "spot"}}}, spot.error()});
                continue;
            }
            const auto cheapest = alibabaCheapestSpot(*spot, type);
            if (!cheapest) {
                continue;
            }
            const std::string code = pricing::text(*spot, "Currency");
            // source: the price's provenance as its API names it, saved with the price (English data, as
            // resources/catalog's sources)
            Price spotPrice = pricing::livePrice(r,
                                                 PricingMode::Spot,
                                                 cheapest->second,
                                                 code == "USD" ? Currency::USD : Currency::CNY,
                                                 base,
                                                 "Alibaba Cloud ECS DescribeSpotPriceHistory, live: the newest "
                                                 "SpotPrice of the cheapest zone, "
                                                     + cheapest->first + " (Linux, VPC)");
            // The published interruption band of the type over the previous 30 days (DescribeSpotAdvice), per zone.
            // The price above is one zone's (the cheapest), so the band is that zone's too: another zone's band, or
            // the worst across zones, would describe instances the price does not.
            // wire: DescribeSpotAdvice's parameters; InstanceTypes.N is a list numbered from 1, as the documented
            // sample request writes it (InstanceTypes.1=ecs.c5.large)
            Result<json> advice =
                ecsCall(http,
                        base,
                        {{"Action", "DescribeSpotAdvice"}, {"RegionId", r}, {"InstanceTypes.1", type}},
                        access,
                        cancel);
            if (!advice) {
                if (advice.error().code != ErrorCode::HttpStatus || advice.error().httpStatus >= 500) {
                    return advice.error();
                }
                // Refused (the region or the type not covered): the price stays, without a band.
                refresh.notes.push_back(
                    {Reason{"refresh.alibaba_spot_advice_failed", {{"type", type}, {"region", r}}}, advice.error()});
            } else {
                spotPrice.interruption = alibabaSpotBand(parseAlibabaSpotAdvice(*advice), type, cheapest->first);
                if (spotPrice.interruption.empty()) {
                    refresh.notes.push_back({Reason{"refresh.alibaba_no_spot_band",
                                                    {{"type", type}, {"region", r}, {"zone", cheapest->first}}},
                                             std::nullopt});
                }
            }
            refresh.prices.push_back({type, std::move(spotPrice)});
        }
    }
    pricing::noteUnpriced(refresh, wanted, PricingMode::Spot, "refresh.unpriced_no_spot_history");
    pricing::compareWithCatalog(catalog, refresh);
    return std::move(refresh);
}

} // namespace gpuplan::core
