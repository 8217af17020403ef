#include "PriceReading.h"

#include "core/JsonChecker.h"
#include "gpuplan/catalog/CatalogChecks.h"
#include "gpuplan/cloud/PublicAddress.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace gpuplan::core::pricing {

using nlohmann::json;

std::string endpoint(const std::string& name, const char* publicUrl)
{
    const std::string overridden = endpointOverride(name);
    std::string base = overridden.empty() ? publicUrl : overridden;
    while (!base.empty() && base.back() == '/') {
        base.pop_back();
    }
    return base;
}

Result<std::map<std::string, std::set<std::string>>>
offeredRegions(const Catalog& catalog, const std::string& provider, const std::string& name, const std::string& region)
{
    std::map<std::string, std::set<std::string>> regions;
    for (const Offer& offer : catalog.offers()) {
        if (offer.providerId != provider) {
            continue;
        }
        for (const std::string& r : offer.regions()) {
            if (region.empty() || r == region) {
                regions[offer.instanceType].insert(r);
            }
        }
    }
    if (regions.empty()) {
        return Error{ErrorCode::InvalidArgument,
                     region.empty() ? Reason{"error.prices.no_offers", {{"name", name}}}
                                    : Reason{"error.prices.no_offer_in_region", {{"name", name}, {"region", region}}},
                     "--region"};
    }
    return regions;
}

Result<Reading> startReading(const Catalog& catalog,
                             const std::string& provider,
                             const std::string& name,
                             const std::string& region,
                             bool hasCredential,
                             const char* needsKey)
{
    Result<std::map<std::string, std::set<std::string>>> offered = offeredRegions(catalog, provider, name, region);
    if (!offered) {
        return offered.error();
    }
    if (!hasCredential) {
        // wire: where names the command that stores the credential
        return Error{ErrorCode::Credentials, Reason{needsKey, {{"name", name}}}, "gpuplan creds set " + provider};
    }
    Reading reading;
    reading.refresh.provider = provider;
    reading.refresh.asOf = todayUtc();
    reading.offered = std::move(offered).value();
    return reading;
}

std::map<std::string, std::set<std::string>> byRegion(const std::map<std::string, std::set<std::string>>& offered)
{
    std::map<std::string, std::set<std::string>> wanted;
    for (const auto& [type, regions] : offered) {
        for (const std::string& r : regions) {
            wanted[r].insert(type);
        }
    }
    return wanted;
}

void compareWithCatalog(const Catalog& catalog, PriceRefresh& refresh)
{
    for (const RefreshedPrice& r : refresh.prices) {
        const Offer* offer = catalog.findOffer(refresh.provider, r.instanceType);
        const Price* before = offer ? offer->findPrice(r.price.region, r.price.mode) : nullptr;
        if (before && before->currency == r.price.currency && std::abs(before->amount - r.price.amount) < 1e-9) {
            ++refresh.unchanged;
            continue;
        }
        refresh.changes.push_back(
            {r.instanceType,
             r.price.region,
             r.price.mode,
             r.price.currency,
             before && before->currency == r.price.currency ? std::optional(before->amount) : std::nullopt,
             r.price.amount});
    }
    auto relative = [](const PriceChange& c) {
        return c.before ? std::abs(c.after / *c.before - 1) : std::numeric_limits<double>::infinity();
    };
    std::stable_sort(refresh.changes.begin(), refresh.changes.end(), [&](const PriceChange& a, const PriceChange& b) {
        return relative(a) > relative(b);
    });
}

Result<HttpResponse> sendForOk(HttpTransport& http, const HttpRequest& request, const CancelToken* cancel)
{
    Result<HttpResponse> response = http.send(request, cancel);
    if (!response) {
        return response.error();
    }
    if (response->status != 200) {
        return Error{ErrorCode::HttpStatus,
                     Reason{"error.prices.http_status",
                            {{"status", std::to_string(response->status)}, {"said", response->body.substr(0, 200)}}},
                     request.url,
                     response->status};
    }
    return response;
}

Result<json> getJson(HttpTransport& http, const std::string& url, const CancelToken* cancel)
{
    HttpRequest request;
    request.url = url;
    request.safeToRetry = true;
    Result<HttpResponse> response = sendForOk(http, request, cancel);
    if (!response) {
        return response.error();
    }
    return parseJson(response->body, url);
}

Status keepGoing(const RefreshProgress& progress,
                 const CancelToken* cancel,
                 const Reason& what,
                 std::uint64_t done,
                 std::uint64_t total,
                 const std::string& where)
{
    if ((cancel && cancel->cancelled()) || (progress && !progress(what, done, total, false))) {
        return Error{ErrorCode::Cancelled, Reason{"error.prices.cancelled"}, where};
    }
    return Ok{};
}

Price livePrice(const std::string& region,
                PricingMode mode,
                double amount,
                Currency currency,
                const std::string& url,
                const std::string& note)
{
    Price price;
    price.region = region;
    price.mode = mode;
    price.amount = amount;
    price.currency = currency;
    price.unit = expectedUnit(mode);
    const std::string today = todayUtc();
    price.source = {.url = url, .asOf = today, .retrieved = today, .note = note};
    return price;
}

std::string joined(const std::set<std::string>& items)
{
    std::string result;
    for (const std::string& item : items) {
        result += (result.empty() ? "" : ", ") + item;
    }
    return result;
}

void noteUnpriced(PriceRefresh& refresh,
                  const std::map<std::string, std::set<std::string>>& wanted,
                  PricingMode mode,
                  const char* noteKey)
{
    for (const auto& [type, regions] : wanted) {
        std::set<std::string> missing = regions;
        for (const RefreshedPrice& r : refresh.prices) {
            if (r.instanceType == type && r.price.mode == mode) {
                missing.erase(r.price.region);
            }
        }
        if (!missing.empty()) {
            refresh.notes.push_back(
                {Reason{noteKey, {{"type", type}, {"mode", pricingModeName(mode)}, {"regions", joined(missing)}}}});
        }
    }
}

std::string text(const json& object, const char* key)
{
    if (!object.is_object()) {
        return {};
    }
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<double> number(const json& object, const char* key)
{
    if (!object.is_object()) {
        return std::nullopt;
    }
    const auto it = object.find(key);
    if (it == object.end()) {
        return std::nullopt;
    }
    if (it->is_number()) {
        const double value = it->get<double>();
        return std::isfinite(value) ? std::optional(value) : std::nullopt;
    }
    if (it->is_string()) {
        const std::string& s = it->get_ref<const std::string&>();
        double value = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
        if (ec == std::errc() && end == s.data() + s.size() && std::isfinite(value)) {
            return value;
        }
    }
    return std::nullopt;
}

} // namespace gpuplan::core::pricing
