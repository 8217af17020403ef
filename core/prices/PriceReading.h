#pragma once

// What the providers' price readers (core/prices/*Prices.cpp) share: where to send, which offers to price, how a
// read price becomes a catalog price and how the result is compared with the catalog. Internal to core/prices.

#include "gpuplan/catalog/CatalogChecks.h"
#include "gpuplan/prices/PriceRefresh.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>

namespace gpuplan::core::pricing {

/// A price list's base URL: $GPUPLAN_ENDPOINT_<NAME> when set (tests), else the public one; no trailing slash.
std::string endpoint(const std::string& name, const char* publicUrl);

/// The provider's instance types in the catalog, each with the regions the catalog lists it in (only `region` when
/// one is given). InvalidArgument when there is none to refresh.
Result<std::map<std::string, std::set<std::string>>>
offeredRegions(const Catalog& catalog, const std::string& provider, const std::string& name, const std::string& region);

/// What a reader starts from: its refresh (the provider's, as of today) and the catalog's instance types of the
/// provider with their regions.
struct Reading
{
    PriceRefresh refresh;
    std::map<std::string, std::set<std::string>> offered;
};

/// The start of every reader. InvalidArgument when the catalog has no offer of `provider` (in `region`);
/// Credentials, with reason `needsKey` ("error.prices.needs_alibaba_key" {name}), when the caller has no
/// credential: the price API needs it.
Result<Reading> startReading(const Catalog& catalog,
                             const std::string& provider,
                             const std::string& name,
                             const std::string& region,
                             bool hasCredential,
                             const char* needsKey);

/// The same, turned round: region -> instance types.
std::map<std::string, std::set<std::string>> byRegion(const std::map<std::string, std::set<std::string>>& offered);

/// Fills refresh.changes and refresh.unchanged: each read price against the catalog's, largest change first.
void compareWithCatalog(const Catalog& catalog, PriceRefresh& refresh);

/// Sends `request`; HttpStatus naming `what` (and the start of the body) for anything but 200.
Result<HttpResponse> sendForOk(HttpTransport& http, const HttpRequest& request, const CancelToken* cancel);

/// GET `url` (safe to retry) and parse its JSON answer.
Result<nlohmann::json> getJson(HttpTransport& http, const std::string& url, const CancelToken* cancel);

/// Asks `progress` to go on; Cancelled (naming `where`) when it or `cancel` says stop.
Status keepGoing(const RefreshProgress& progress,
                 const CancelToken* cancel,
                 const Reason& what,
                 std::uint64_t done,
                 std::uint64_t total,
                 const std::string& where);

/// A live price read today: as_of and retrieved are today, the note says what was read.
Price livePrice(const std::string& region,
                PricingMode mode,
                double amount,
                Currency currency,
                const std::string& url,
                const std::string& note);

/// "a, b, c".
std::string joined(const std::set<std::string>& items);

/// Adds a note `noteKey` {type, mode, regions} for each instance type of `wanted` without a price of `mode` in
/// refresh.prices in some of its regions; the key says why ("refresh.unpriced_not_sold").
void noteUnpriced(PriceRefresh& refresh,
                  const std::map<std::string, std::set<std::string>>& wanted,
                  PricingMode mode,
                  const char* noteKey);

/// A member of a JSON object as text ("" when missing or not text) and as a number (nullopt when missing, not a
/// number, or text that is not a number: several price APIs write numbers as text).
std::string text(const nlohmann::json& object, const char* key);
std::optional<double> number(const nlohmann::json& object, const char* key);

} // namespace gpuplan::core::pricing
