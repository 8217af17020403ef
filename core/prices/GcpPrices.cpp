#include "PriceReading.h"

#include "core/JsonChecker.h"
#include "gpuplan/cloud/PublicAddress.h"
#include "gpuplan/net/Crypto.h"
#include "gpuplan/prices/PriceAnswers.h"

#include <cmath>

namespace gpuplan::core {

namespace {

using nlohmann::json;

constexpr const char* kComputeService = "6F81-5844-456A"; // Compute Engine in the Cloud Billing Catalog

/// What a catalog machine type is billed as: the series' vCPU and RAM SKUs (none for A4) and a GPU SKU.
struct MachineParts
{
    std::string series;    // "A2", "N1 Predefined"; empty when the GPU SKU is the whole machine
    std::string gpuPrefix; // "Nvidia Tesla A100 GPU"
};

std::optional<MachineParts> partsOf(const Offer& offer)
{
    // wire: values of the provider's price API, matched as it writes them
    static const std::map<std::string, std::string> gpuSkus{{"t4", "Nvidia Tesla T4 GPU"},
                                                            {"v100-sxm2-16gb", "Nvidia Tesla V100 GPU"},
                                                            {"a100-sxm4-40gb", "Nvidia Tesla A100 GPU"},
                                                            {"a100-sxm4-80gb", "Nvidia Tesla A100 80GB GPU"},
                                                            {"l4", "Nvidia L4 GPU"},
                                                            {"h100-sxm5-80gb", "Nvidia H100 80GB GPU"},
                                                            {"h200-sxm-141gb", "Nvidia H200 141GB GPU"},
                                                            {"b200", "Nvidia B200 (1 gpu slice)"}};
    const auto gpu = gpuSkus.find(offer.gpuId);
    if (gpu == gpuSkus.end()) {
        return std::nullopt;
    }
    const std::string& type = offer.instanceType;
    const std::string family = type.substr(0, type.find('-'));
    if (family == "a4") {
        return MachineParts{"", gpu->second};
    }
    if (family == "n1") {
        return MachineParts{"N1 Predefined", gpu->second};
    }
    if (family == "a2" || family == "a3" || family == "g2") {
        std::string series = family;
        series[0] = char(std::toupper(series[0]));
        return MachineParts{series, gpu->second};
    }
    return std::nullopt;
}

} // namespace

std::vector<GcpSku> parseGcpSkus(const json& page)
{
    std::vector<GcpSku> skus;
    for (const json& sku : page.value("skus", json::array())) {
        GcpSku s;
        s.skuId = pricing::text(sku, "skuId");
        s.description = pricing::text(sku, "description");
        const json category = sku.value("category", json::object());
        s.resourceFamily = pricing::text(category, "resourceFamily");
        s.usageType = pricing::text(category, "usageType");
        for (const json& r : sku.value("serviceRegions", json::array())) {
            if (r.is_string()) {
                s.regions.insert(r.get<std::string>());
            }
        }
        // The newest pricingInfo; its first tier (startUsageAmount 0); units (text) + nanos.
        const json infos = sku.value("pricingInfo", json::array());
        if (infos.empty()) {
            continue;
        }
        const json& info = infos.back();
        s.effectiveTime = pricing::text(info, "effectiveTime");
        const json expression = info.value("pricingExpression", json::object());
        s.usageUnit = pricing::text(expression, "usageUnit");
        const json tiers = expression.value("tieredRates", json::array());
        for (const json& tier : tiers) {
            if (pricing::number(tier, "startUsageAmount").value_or(0) != 0) {
                continue;
            }
            const json unit = tier.value("unitPrice", json::object());
            const double units = pricing::number(unit, "units").value_or(0);
            const double nanos = pricing::number(unit, "nanos").value_or(0);
            if (pricing::text(unit, "currencyCode") == "USD") {
                s.usdPerUnit = units + nanos / 1e9;
            }
        }
        if (s.usdPerUnit) {
            skus.push_back(std::move(s));
        }
    }
    return skus;
}

std::optional<double> gcpMachinePrice(const std::vector<GcpSku>& skus,
                                      const std::string& series,
                                      const std::string& gpuPrefix,
                                      int vcpus,
                                      double ramGib,
                                      int gpus,
                                      const std::string& region,
                                      bool spot,
                                      std::string* used)
{
    // A description is "[Spot Preemptible |Preemptible ]<what> running in <place>"; commitments, custom, sole-tenant
    // and reservation SKUs are other products.
    auto find = [&](const std::string& what, const std::string& unit) -> std::optional<double> {
        for (const GcpSku& sku : skus) {
            if (sku.resourceFamily != "Compute" || !sku.regions.contains(region) || sku.usageUnit != unit) {
                continue;
            }
            std::string d = sku.description;
            bool preemptible = sku.usageType == "Preemptible";
            for (const char* prefix : {"Spot Preemptible ", "Preemptible "}) {
                if (d.starts_with(prefix)) {
                    d = d.substr(std::string_view(prefix).size());
                    preemptible = true;
                }
            }
            // wire: values of the provider's price API, matched as it writes them
            if (preemptible != spot || sku.usageType.find("Commit") != std::string::npos
                || !d.starts_with(what + " running in ")) {
                continue;
            }
            if (used) {
                *used += (used->empty() ? "" : ", ") + sku.skuId;
            }
            return *sku.usdPerUnit;
        }
        return std::nullopt;
    };
    const std::optional<double> gpu = find(gpuPrefix, "h");
    if (!gpu) {
        return std::nullopt;
    }
    if (series.empty()) {
        return *gpu * gpus;
    }
    const std::optional<double> core = find(series + " Instance Core", "h");
    const std::optional<double> ram = find(series + " Instance Ram", "GiBy.h");
    if (!core || !ram) {
        return std::nullopt;
    }
    return *core * vcpus + *ram * ramGib + *gpu * gpus;
}

Result<PriceRefresh> refreshGcpPrices(HttpTransport& http,
                                      const Catalog& catalog,
                                      const std::string& region,
                                      const PriceListAccess& access,
                                      const RefreshProgress& progress,
                                      const CancelToken* cancel)
{
    Result<pricing::Reading> reading = pricing::startReading(catalog,
                                                             "gcp",
                                                             "Google Cloud",
                                                             region,
                                                             access.googleAccount || !access.apiKey.empty(),
                                                             "error.prices.needs_gcp_account");
    if (!reading) {
        return reading.error();
    }
    PriceRefresh& refresh = reading.value().refresh;
    const std::map<std::string, std::set<std::string>>& offered = reading.value().offered;
    const std::string base = pricing::endpoint("gcp_billing", "https://cloudbilling.googleapis.com");
    std::optional<GoogleTokenSource> tokens;
    if (access.googleAccount) {
        GoogleServiceAccount account = *access.googleAccount;
        if (const std::string token = endpointOverride("gcp_token"); !token.empty()) {
            account.tokenUri = token; // $GPUPLAN_ENDPOINT_GCP_TOKEN: a private endpoint, or a test's fake
        }
        tokens.emplace(
            std::move(account), "https://www.googleapis.com/auth/cloud-billing.readonly", http, access.clock);
    }
    // Every Compute Engine SKU, page by page (5,000 a page).
    std::vector<GcpSku> skus;
    std::string token;
    const std::string first = base + "/v1/services/" + kComputeService + "/skus?currencyCode=USD&pageSize=5000";
    for (int page = 0; page == 0 || !token.empty(); ++page) {
        if (page >= 200) {
            return Error{ErrorCode::SchemaViolation, Reason{"error.prices.too_many_sku_pages"}, first};
        }
        const std::string url = first + (token.empty() ? "" : "&pageToken=" + uriEncode(token))
                                + (access.apiKey.empty() ? "" : "&key=" + uriEncode(access.apiKey));
        const std::string shown = first + (token.empty() ? "" : "&pageToken=" + token); // no key in messages
        if (Status go = pricing::keepGoing(progress,
                                           cancel,
                                           Reason{"refresh.progress_gcp_skus", {{"page", std::to_string(page + 1)}}},
                                           std::uint64_t(page),
                                           0,
                                           shown);
            !go) {
            return go.error();
        }
        HttpRequest request;
        request.url = url;
        request.safeToRetry = true;
        if (tokens) {
            if (Status authorized = tokens->authorize(request); !authorized) {
                return authorized.error();
            }
        }
        Result<HttpResponse> response = http.send(request, cancel);
        if (!response) {
            Error error = response.error();
            error.where = shown;
            return error;
        }
        Result<json> body = parseJson(response->body, shown);
        if (response->status != 200) {
            // {"error": {"code": 403, "message": "...", "status": "PERMISSION_DENIED"}}
            Reason reason{"error.prices.answered_http", {{"status", std::to_string(response->status)}}};
            if (body && body->contains("error")) {
                reason = Reason{"error.prices.answered_http_code",
                                {{"status", std::to_string(response->status)},
                                 {"code", pricing::text(body->at("error"), "status")},
                                 {"said", pricing::text(body->at("error"), "message")}}};
            }
            return Error{response->status == 401 || response->status == 403 ? ErrorCode::Credentials
                                                                            : ErrorCode::HttpStatus,
                         std::move(reason),
                         shown,
                         response->status};
        }
        if (!body) {
            return body.error();
        }
        if (!body->is_object() || !body->contains("skus")) {
            return Error{ErrorCode::SchemaViolation, Reason{"error.prices.not_a_sku_list"}, shown};
        }
        std::vector<GcpSku> read = parseGcpSkus(*body);
        skus.insert(skus.end(), std::make_move_iterator(read.begin()), std::make_move_iterator(read.end()));
        token = pricing::text(*body, "nextPageToken");
    }
    const std::string listUrl = base + "/v1/services/" + kComputeService + "/skus";
    for (const auto& [type, regions] : offered) {
        const Offer* offer = catalog.findOffer("gcp", type);
        const std::optional<MachineParts> parts = offer ? partsOf(*offer) : std::nullopt;
        if (!parts) {
            refresh.notes.push_back({Reason{"refresh.gcp_not_joined", {{"type", type}}}});
            continue;
        }
        for (const std::string& r : regions) {
            for (const bool spot : {false, true}) {
                std::string used;
                const std::optional<double> price = gcpMachinePrice(skus,
                                                                    parts->series,
                                                                    parts->gpuPrefix,
                                                                    offer->vcpus.value_or(0),
                                                                    offer->ramGib.value_or(0),
                                                                    offer->gpuCount,
                                                                    r,
                                                                    spot,
                                                                    &used);
                if (!price) {
                    continue;
                }
                // source: the price's provenance as its API names it, saved with the price (English data, as
                // resources/catalog's sources)
                refresh.prices.push_back(
                    {type,
                     pricing::livePrice(r,
                                        spot ? PricingMode::Spot : PricingMode::OnDemand,
                                        *price,
                                        Currency::USD,
                                        listUrl,
                                        "Google Cloud Billing Catalog API, live: "
                                            + (parts->series.empty()
                                                   ? std::string("the GPU SKU x ") + std::to_string(offer->gpuCount)
                                                   : parts->series + " vCPU x "
                                                         + std::to_string(offer->vcpus.value_or(0)) + " + RAM x "
                                                         + std::to_string(int(offer->ramGib.value_or(0)))
                                                         + " GiB + GPU x " + std::to_string(offer->gpuCount))
                                            + " (SKUs " + used + ")")});
            }
        }
    }
    pricing::noteUnpriced(refresh, offered, PricingMode::OnDemand, "refresh.unpriced_no_skus");
    pricing::compareWithCatalog(catalog, refresh);
    return std::move(refresh);
}

} // namespace gpuplan::core
