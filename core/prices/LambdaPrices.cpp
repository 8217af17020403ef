#include "PriceReading.h"

#include "gpuplan/prices/PriceAnswers.h"

#include "core/JsonChecker.h"
#include "gpuplan/net/signers/ApiKey.h"

namespace gpuplan::core {

namespace {

using nlohmann::json;

} // namespace

Result<PriceRefresh> refreshLambdaPrices(HttpTransport& http,
                                         const Catalog& catalog,
                                         const std::string& region,
                                         const PriceListAccess& access,
                                         const RefreshProgress& progress,
                                         const CancelToken* cancel)
{
    Result<pricing::Reading> reading = pricing::startReading(
        catalog, "lambda", "Lambda", region, !access.apiKey.empty(), "error.prices.needs_lambda_key");
    if (!reading) {
        return reading.error();
    }
    PriceRefresh& refresh = reading.value().refresh;
    const std::map<std::string, std::set<std::string>>& wanted = reading.value().offered;
    const std::string url = pricing::endpoint("lambda", "https://cloud.lambda.ai") + "/api/v1/instance-types";
    if (Status go = pricing::keepGoing(progress, cancel, Reason{"refresh.progress_lambda"}, 0, 1, url); !go) {
        return go.error();
    }
    HttpRequest request;
    request.url = url;
    request.safeToRetry = true;
    authorizeWithApiKey(request, access.apiKey);
    Result<HttpResponse> response = http.send(request, cancel);
    if (!response) {
        return response.error();
    }
    if (response->status != 200) {
        // {"error": {"code": "global/invalid-api-key", "message": ..., "suggestion": ...}}
        Reason reason{"error.prices.answered_http", {{"status", std::to_string(response->status)}}};
        if (Result<json> body = parseJson(response->body, url); body && body->contains("error")) {
            const json& e = body->at("error");
            reason = Reason{"error.prices.answered_http_code",
                            {{"status", std::to_string(response->status)},
                             {"code", pricing::text(e, "code")},
                             {"said", pricing::text(e, "message")}}};
            if (const std::string s = pricing::text(e, "suggestion"); !s.empty()) {
                reason.key = "error.prices.answered_http_code_suggestion";
                reason.params["suggestion"] = s;
            }
        }
        return Error{response->status == 401 || response->status == 403 ? ErrorCode::Credentials
                                                                        : ErrorCode::HttpStatus,
                     std::move(reason),
                     url,
                     response->status};
    }
    Result<json> body = parseJson(response->body, url);
    if (!body) {
        return body.error();
    }
    const json* data = body->is_object() && body->contains("data") ? &body->at("data") : nullptr;
    if (!data || !data->is_object()) {
        return Error{ErrorCode::SchemaViolation, Reason{"error.prices.not_lambda_instance_types"}, url};
    }
    for (const auto& [type, regions] : wanted) {
        const auto entry = data->find(type);
        if (entry == data->end()) {
            continue;
        }
        const json& instanceType = entry->contains("instance_type") ? entry->at("instance_type") : json();
        const std::optional<double> cents = pricing::number(instanceType, "price_cents_per_hour");
        if (!cents || *cents <= 0) {
            refresh.notes.push_back({Reason{"refresh.lambda_no_price", {{"type", type}}}});
            continue;
        }
        std::set<std::string> withCapacity;
        if (const auto available = entry->find("regions_with_capacity_available");
            available != entry->end() && available->is_array()) {
            for (const json& r : *available) {
                withCapacity.insert(pricing::text(r, "name"));
            }
        }
        for (const std::string& r : regions) {
            // source: the price's provenance as its API names it, saved with the price (English data, as
            // resources/catalog's sources) One price for every region; whether a region has capacity now is not a
            // price, only a note.
            refresh.prices.push_back(
                {type,
                 pricing::livePrice(r,
                                    PricingMode::OnDemand,
                                    *cents / 100.0,
                                    Currency::USD,
                                    url,
                                    "Lambda Cloud API instance-types, live: " + std::to_string(int(*cents))
                                        + " US cents per hour ("
                                        + (withCapacity.contains(r) ? "capacity available in " + r + " when read"
                                                                    : "no capacity in " + r + " when read")
                                        + ")")});
        }
    }
    pricing::noteUnpriced(refresh, wanted, PricingMode::OnDemand, "refresh.unpriced_not_listed");
    pricing::compareWithCatalog(catalog, refresh);
    return std::move(refresh);
}

} // namespace gpuplan::core
