#include "PriceReading.h"

#include "core/JsonChecker.h"
#include "gpuplan/net/signers/HuaweiSdkHmac.h"
#include "gpuplan/prices/PriceAnswers.h"

#include <cmath>

namespace gpuplan::core {

namespace {

using nlohmann::json;

/// One signed call to a Huawei Cloud global service (IAM, BSS); the parsed answer or an Error with Huawei's
/// error_code.
Result<json> huaweiCall(HttpTransport& http,
                        const std::string& method,
                        const std::string& url,
                        const json& body,
                        const PriceListAccess& access,
                        const CancelToken* cancel)
{
    HttpRequest request;
    request.method = method;
    request.url = url;
    request.safeToRetry = true; // inquiries only
    if (!body.is_null()) {
        request.body = body.dump();
        request.headers.push_back({"Content-Type", "application/json"});
    }
    if (Result<SigningSteps> signedOk = signHuaweiSdkHmac(request, *access.key, access.clock()); !signedOk) {
        return signedOk.error();
    }
    Result<HttpResponse> response = http.send(request, cancel);
    if (!response) {
        return response.error();
    }
    Result<json> parsed = parseJson(response->body, url);
    if (response->status / 100 != 2) {
        // {"error_code": "CBC.0150", "error_msg": "..."}; IAM: {"error": {"code": ..., "message": ...}}
        Error error{response->status == 401 || response->status == 403 ? ErrorCode::Credentials : ErrorCode::HttpStatus,
                    Reason{"error.prices.answered_http", {{"status", std::to_string(response->status)}}},
                    url,
                    response->status};
        if (parsed) {
            const json& e = parsed->contains("error") ? parsed->at("error") : *parsed;
            error.providerCode = pricing::text(e, parsed->contains("error") ? "code" : "error_code");
            error.reason = Reason{"error.prices.answered_http_code",
                                  {{"status", std::to_string(response->status)},
                                   {"code", error.providerCode},
                                   {"said", pricing::text(e, parsed->contains("error") ? "message" : "error_msg")}}};
        }
        if (response->status == 429) {
            error.code = ErrorCode::Throttled;
        }
        return error;
    }
    return parsed;
}

json productInfo(const std::string& id, const std::string& flavor, const std::string& region)
{
    return {{"id", id},
            {"cloud_service_type", "hws.service.type.ec2"},
            {"resource_type", "hws.resource.type.vm"},
            {"resource_spec", flavor + ".linux"},
            {"region", region},
            {"subscription_num", 1}};
}

} // namespace

std::optional<double> huaweiYuan(const json& result)
{
    // official_website_amount in the unit of measure_id: 1 yuan, 2 jiao, 3 fen.
    const std::optional<double> amount = pricing::number(result, "official_website_amount");
    const int measure = int(pricing::number(result, "measure_id").value_or(1));
    if (!amount || *amount <= 0 || measure < 1 || measure > 3) {
        return std::nullopt;
    }
    return *amount / std::pow(10.0, measure - 1);
}

std::map<std::string, double> parseHuaweiRatings(const json& answer)
{
    // On demand: product_rating_results[] at the top; per period: official_website_rating_result holds them.
    const json& holder =
        answer.contains("official_website_rating_result") ? answer.at("official_website_rating_result") : answer;
    std::map<std::string, double> byId;
    for (const json& r : holder.value("product_rating_results", json::array())) {
        if (const std::optional<double> yuan = huaweiYuan(r)) {
            byId[pricing::text(r, "id")] = *yuan;
        }
    }
    return byId;
}

Result<PriceRefresh> refreshHuaweiPrices(HttpTransport& http,
                                         const Catalog& catalog,
                                         const std::string& region,
                                         const PriceListAccess& access,
                                         const RefreshProgress& progress,
                                         const CancelToken* cancel)
{
    Result<pricing::Reading> reading = pricing::startReading(
        catalog, "huawei", "Huawei Cloud", region, access.key.has_value(), "error.prices.needs_huawei_key");
    if (!reading) {
        return reading.error();
    }
    PriceRefresh& refresh = reading.value().refresh;
    const std::map<std::string, std::set<std::string>>& offered = reading.value().offered;
    const std::string iam = pricing::endpoint("huawei", "https://iam.myhuaweicloud.com");
    const std::string bss = pricing::endpoint("huawei", "https://bss.myhuaweicloud.com");
    const std::map<std::string, std::set<std::string>> wanted = pricing::byRegion(offered);
    std::uint64_t done = 0;
    for (const auto& [r, flavorSet] : wanted) {
        if (Status go = pricing::keepGoing(
                progress, cancel, Reason{"refresh.progress_huawei", {{"region", r}}}, done++, wanted.size(), bss);
            !go) {
            return go.error();
        }
        // The BSS inquiries name the region's project.
        Result<json> projects = huaweiCall(http, "GET", iam + "/v3/projects?name=" + r, json(), access, cancel);
        if (!projects) {
            return projects.error();
        }
        const json list = projects->value("projects", json::array());
        const std::string projectId = list.empty() ? std::string() : pricing::text(list.front(), "id");
        if (projectId.empty()) {
            refresh.notes.push_back({Reason{"refresh.huawei_no_project", {{"region", r}}}});
            continue;
        }
        const std::vector<std::string> flavors(flavorSet.begin(), flavorSet.end());
        json onDemand{{"project_id", projectId}, {"product_infos", json::array()}};
        json period{{"project_id", projectId}, {"product_infos", json::array()}};
        for (std::size_t i = 0; i < flavors.size(); ++i) {
            json item = productInfo(std::to_string(i + 1), flavors[i], r);
            item["usage_factor"] = "Duration";
            item["usage_value"] = 1;
            item["usage_measure_id"] = 4; // hours
            onDemand["product_infos"].push_back(item);
        }
        const std::string onDemandUrl = bss + "/v2/bills/ratings/on-demand-resources";
        Result<json> rated = huaweiCall(http, "POST", onDemandUrl, onDemand, access, cancel);
        if (!rated && !(rated.error().code == ErrorCode::HttpStatus && rated.error().httpStatus == 400)) {
            return rated.error();
        }
        if (!rated) {
            // A flavor BSS does not rate there (CBC.0150 and the like): said, and the period inquiries still run.
            refresh.notes.push_back({Reason{"refresh.region_rating_failed", {{"region", r}}}, rated.error()});
        }
        for (const auto& [id, yuan] : rated ? parseHuaweiRatings(*rated) : std::map<std::string, double>()) {
            const std::size_t index = std::size_t(std::stoul("0" + id));
            if (index >= 1 && index <= flavors.size()) {
                // source: the price's provenance as its API names it, saved with the price (English data, as
                // resources/catalog's sources)
                refresh.prices.push_back(
                    {flavors[index - 1],
                     pricing::livePrice(r,
                                        PricingMode::OnDemand,
                                        yuan,
                                        Currency::CNY,
                                        onDemandUrl,
                                        "Huawei Cloud BSS ListOnDemandResourceRatings, live: Linux, 1 hour, "
                                        "official_website_amount (the list price, before the account's discounts)")});
            }
        }
        // Monthly and yearly, one inquiry each (period_type 2 = month, 3 = year).
        const std::string periodUrl = bss + "/v2/bills/ratings/period-resources/subscribe-rate";
        for (const auto& [periodType, mode] :
             {std::pair(2, PricingMode::SubscriptionMonthly), std::pair(3, PricingMode::SubscriptionYearly)}) {
            for (const std::string& flavor : flavors) {
                json body{{"project_id", projectId}, {"product_infos", json::array()}};
                json item = productInfo("1", flavor, r);
                item["period_type"] = periodType;
                item["period_num"] = 1;
                body["product_infos"].push_back(item);
                Result<json> quote = huaweiCall(http, "POST", periodUrl, body, access, cancel);
                if (!quote) {
                    if (quote.error().code == ErrorCode::HttpStatus && quote.error().httpStatus == 400) {
                        refresh.notes.push_back(
                            {Reason{"refresh.quote_failed",
                                    {{"type", flavor}, {"region", r}, {"unit", pricingModeName(mode)}}},
                             quote.error()});
                        continue;
                    }
                    return quote.error();
                }
                const std::optional<double> total =
                    huaweiYuan(quote->value("official_website_rating_result", json::object()));
                if (!total) {
                    return Error{
                        ErrorCode::SchemaViolation, Reason{"error.prices.huawei_period_without_amount"}, periodUrl};
                }
                const double months = periodType == 3 ? 12.0 : 1.0;
                // source: the price's provenance as its API names it, saved with the price (English data, as
                // resources/catalog's sources)
                refresh.prices.push_back(
                    {flavor,
                     pricing::livePrice(r,
                                        mode,
                                        *total / months,
                                        Currency::CNY,
                                        periodUrl,
                                        std::string("Huawei Cloud BSS ListRateOnPeriodDetail, live: Linux, 1 ")
                                            + (periodType == 3 ? "year, divided by 12" : "month")
                                            + ", official_website_amount (the list price)")});
            }
        }
    }
    pricing::noteUnpriced(refresh, offered, PricingMode::OnDemand, "refresh.unpriced_not_rated");
    refresh.notes.push_back({Reason{"refresh.huawei_no_spot"}});
    pricing::compareWithCatalog(catalog, refresh);
    return std::move(refresh);
}

} // namespace gpuplan::core
