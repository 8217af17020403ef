#include "PriceReading.h"

#include "core/JsonChecker.h"
#include "gpuplan/cloud/PublicAddress.h"
#include "gpuplan/cloud/providers/tencent/CvmApi.h"
#include "gpuplan/net/signers/TencentTc3.h"
#include "gpuplan/prices/PriceAnswers.h"

namespace gpuplan::core {

namespace {

using nlohmann::json;

/// One signed CVM call; the body of a successful answer, or the Error CvmApi maps it to.
Result<std::string> cvmCall(HttpTransport& http,
                            const std::string& endpoint,
                            const cvm::Call& call,
                            const std::string& region,
                            const PriceListAccess& access,
                            const CancelToken* cancel)
{
    HttpRequest request = cvm::buildRequest(cvm::baseUrl(call.service, endpoint), call, region);
    if (Result<SigningSteps> signedOk = signTencentTc3(request, *access.key, "cvm", access.clock()); !signedOk) {
        return signedOk.error();
    }
    Result<HttpResponse> response = http.send(request, cancel);
    if (!response) {
        return response.error();
    }
    cvm::ErrorContext context;
    context.action = call.action;
    context.region = region;
    context.service = call.service;
    if (std::optional<Error> error = cvm::mapError(*response, context)) {
        return *error;
    }
    return std::move(response).value().body;
}

/// The Response object of a successful answer's body.
Result<json> responseOf(const Result<std::string>& body, const std::string& where)
{
    if (!body) {
        return body.error();
    }
    Result<json> parsed = parseJson(*body, where);
    if (!parsed) {
        return parsed.error();
    }
    return parsed->value("Response", json::object());
}

} // namespace

std::vector<TencentZonePrice> parseTencentZonePrices(const json& response)
{
    // Response.InstanceTypeQuotaSet[]: {Zone, InstanceType, InstanceChargeType, Status, Price{UnitPrice,
    // UnitPriceDiscount, UnitPriceSecondStep, ...}}; prices per hour in the account's currency.
    std::vector<TencentZonePrice> prices;
    const json set = response.value("InstanceTypeQuotaSet", json::array());
    for (const json& row : set) {
        const json price = row.value("Price", json::object());
        TencentZonePrice p;
        p.zone = pricing::text(row, "Zone");
        p.instanceType = pricing::text(row, "InstanceType");
        p.chargeType = pricing::text(row, "InstanceChargeType");
        p.selling = pricing::text(row, "Status") == "SELL";
        p.unitPrice = pricing::number(price, "UnitPrice");
        p.unitPriceDiscount = pricing::number(price, "UnitPriceDiscount");
        p.stepped = pricing::number(price, "UnitPriceSecondStep").value_or(0) > 0;
        if (!p.zone.empty() && !p.instanceType.empty()) {
            prices.push_back(std::move(p));
        }
    }
    return prices;
}

TencentInstancePrice parseTencentInstancePrice(const json& response)
{
    const json price = response.value("/Price/InstancePrice"_json_pointer, json::object());
    auto positive = [&](const char* key) {
        const std::optional<double> value = pricing::number(price, key);
        return value && *value > 0 ? value : std::nullopt;
    };
    return {positive("UnitPrice"), positive("UnitPriceDiscount"), positive("OriginalPrice")};
}

std::optional<double> parseTencentPrepaidPrice(const json& response)
{
    return parseTencentInstancePrice(response).originalPrice;
}

Result<PriceRefresh> refreshTencentPrices(HttpTransport& http,
                                          const Catalog& catalog,
                                          const std::string& region,
                                          const PriceListAccess& access,
                                          const RefreshProgress& progress,
                                          const CancelToken* cancel)
{
    Result<pricing::Reading> reading = pricing::startReading(
        catalog, "tencent", "Tencent Cloud", region, access.key.has_value(), "error.prices.needs_tencent_key");
    if (!reading) {
        return reading.error();
    }
    PriceRefresh& refresh = reading.value().refresh;
    const std::map<std::string, std::set<std::string>>& offered = reading.value().offered;
    const std::string endpoint = endpointOverride("tencent");
    const std::string url = cvm::baseUrl(cvm::Service::Cvm, endpoint);
    const std::map<std::string, std::set<std::string>> wanted = pricing::byRegion(offered);
    std::uint64_t done = 0;
    for (const auto& [r, types] : wanted) {
        if (Status go = pricing::keepGoing(
                progress, cancel, Reason{"refresh.progress_tencent", {{"region", r}}}, done++, wanted.size(), url);
            !go) {
            return go.error();
        }
        const std::vector<std::string> typeList(types.begin(), types.end());
        // Pay-as-you-go and spot: one call each for the region, every zone; the cheapest zone that sells it.
        std::map<std::string, std::string> zoneOf; // type -> the zone of its pay-as-you-go price
        for (const auto& [charge, mode] :
             {std::pair("POSTPAID_BY_HOUR", PricingMode::OnDemand), std::pair("SPOTPAID", PricingMode::Spot)}) {
            const cvm::Call call = cvm::zoneConfigCall(
                typeList, mode == PricingMode::Spot ? LaunchPricing::Spot : LaunchPricing::OnDemand);
            Result<json> answer = responseOf(cvmCall(http, endpoint, call, r, access, cancel), url + " " + call.action);
            if (!answer) {
                return answer.error();
            }
            std::map<std::string, std::pair<std::string, double>> cheapest; // type -> (zone, price)
            bool stepped = false;
            for (const TencentZonePrice& p : parseTencentZonePrices(*answer)) {
                // Spot: the discounted price is what a spot instance pays; pay-as-you-go: the list price.
                const std::optional<double> price = mode == PricingMode::Spot ? p.unitPriceDiscount : p.unitPrice;
                if (!p.selling || !price || *price <= 0 || !types.contains(p.instanceType)
                    || (p.chargeType != charge && !p.chargeType.empty())) {
                    continue;
                }
                stepped = stepped || p.stepped;
                auto it = cheapest.find(p.instanceType);
                if (it == cheapest.end() || *price < it->second.second) {
                    cheapest[p.instanceType] = {p.zone, *price};
                }
            }
            for (const auto& [type, zonePrice] : cheapest) {
                if (mode == PricingMode::OnDemand) {
                    zoneOf[type] = zonePrice.first;
                }
                // source: the price's provenance as its API names it, saved with the price (English data, as
                // resources/catalog's sources)
                refresh.prices.push_back(
                    {type,
                     pricing::livePrice(r,
                                        mode,
                                        zonePrice.second,
                                        Currency::CNY,
                                        url,
                                        std::string("Tencent Cloud CVM DescribeZoneInstanceConfigInfos, live: ")
                                            + charge + ", "
                                            + (mode == PricingMode::Spot ? "UnitPriceDiscount" : "UnitPrice")
                                            + " per hour of the cheapest zone that sells it, " + zonePrice.first
                                            + (stepped && mode == PricingMode::OnDemand
                                                   ? "; the first 96 hours' step (longer runs pay less per hour)"
                                                   : ""))});
            }
        }
        // Monthly and yearly prepaid: InquiryPriceRunInstances in the zone, with a public Ubuntu image.
        for (const auto& [type, zone] : zoneOf) {
            Result<std::string> images = cvmCall(http, endpoint, cvm::describeImagesCall(type), r, access, cancel);
            if (!images) {
                return images.error();
            }
            Result<std::vector<cvm::Image>> parsed = cvm::parseDescribeImages(*images);
            if (!parsed || parsed->empty()) {
                refresh.notes.push_back({Reason{"refresh.tencent_no_image", {{"type", type}, {"region", r}}}});
                continue;
            }
            for (const auto& [months, mode] :
                 {std::pair(1, PricingMode::SubscriptionMonthly), std::pair(12, PricingMode::SubscriptionYearly)}) {
                const cvm::Call call =
                    cvm::inquiryPriceCall(type, zone, parsed->front().imageId, LaunchPricing::Subscription, months);
                Result<json> quote =
                    responseOf(cvmCall(http, endpoint, call, r, access, cancel), url + " " + call.action);
                if (!quote) {
                    if (quote.error().code == ErrorCode::ProviderRefused) {
                        refresh.notes.push_back(
                            {Reason{"refresh.prepaid_quote_failed",
                                    {{"type", type}, {"region", r}, {"months", std::to_string(months)}}},
                             quote.error()});
                        continue;
                    }
                    return quote.error();
                }
                const std::optional<double> total = parseTencentPrepaidPrice(*quote);
                if (!total) {
                    return Error{ErrorCode::SchemaViolation,
                                 Reason{"error.prices.tencent_quote_without_price"},
                                 url + " " + type};
                }
                // source: the price's provenance as its API names it, saved with the price (English data, as
                // resources/catalog's sources)
                refresh.prices.push_back(
                    {type,
                     pricing::livePrice(r,
                                        mode,
                                        *total / months,
                                        Currency::CNY,
                                        url,
                                        "Tencent Cloud CVM InquiryPriceRunInstances, live: PREPAID, Period "
                                            + std::to_string(months) + ", OriginalPrice of the instance in " + zone
                                            + (months > 1 ? " divided by " + std::to_string(months) : std::string()))});
            }
        }
    }
    pricing::noteUnpriced(refresh, offered, PricingMode::OnDemand, "refresh.unpriced_not_sold");
    pricing::compareWithCatalog(catalog, refresh);
    return std::move(refresh);
}

} // namespace gpuplan::core
