#pragma once

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/net/Http.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// A price read from a provider's price list for an instance type of the catalog.
struct RefreshedPrice
{
    std::string instanceType;
    Price price; // its source: the file read, its as_of the provider's date, retrieved now
};

/// A catalog price the refresh changed (or added: `before` empty).
struct PriceChange
{
    std::string instanceType;
    std::string region;
    PricingMode mode = PricingMode::OnDemand;
    Currency currency = Currency::USD;
    std::optional<double> before;
    double after = 0;
};

/// What one provider's refresh read, and how it differs from the catalog in use.
struct PriceRefresh
{
    std::string provider;
    std::string asOf; // the provider's date of the prices
    std::vector<RefreshedPrice> prices;
    std::vector<PriceChange> changes; // changed or new prices, largest relative change first
    int unchanged = 0;
    std::vector<std::string> notes; // regions without a price file, instance types the file does not price
};

/// Called with what is being read ("us-east-1 price file") and its bytes so far and in all (0: unknown);
/// returning false cancels.
using RefreshProgress = std::function<bool(const std::string& what, std::uint64_t done, std::uint64_t total)>;

/// AWS: the Price List bulk API's EC2 region index, then each region's offer file (streamed to `workDir` and
/// read by readAwsOfferFile), for the AWS instance types of `catalog` in `region` (empty: every region the
/// catalog prices them in). The endpoint is https://pricing.us-east-1.amazonaws.com, or
/// $GPUPLAN_ENDPOINT_AWS_PRICING. Needs no credentials.
Result<PriceRefresh> refreshAwsPrices(HttpTransport& http,
                                      const Catalog& catalog,
                                      const std::string& region,
                                      const std::filesystem::path& workDir,
                                      const RefreshProgress& progress = {},
                                      const CancelToken* cancel = nullptr);

/// Azure: the Retail Prices API (no credentials), page by page (NextPageLink), for the catalog's Azure VM sizes:
/// Linux pay-as-you-go and Spot prices per hour in USD, in `region` (empty: every region the catalog prices them
/// in). The API is live: a price's as_of is the day it was read, its note the date it took effect. The endpoint
/// is https://prices.azure.com, or $GPUPLAN_ENDPOINT_AZURE_PRICING.
Result<PriceRefresh> refreshAzurePrices(HttpTransport& http,
                                        const Catalog& catalog,
                                        const std::string& region,
                                        const RefreshProgress& progress = {},
                                        const CancelToken* cancel = nullptr);

/// One provider's whole refresh, as the CLI and the GUI run it: reads its price list (downloads go to
/// `<pricesDir>/.download`, removed afterwards) and, when that worked, keeps the prices in `<pricesDir>`
/// (saveRefreshedPrices). InvalidArgument for a provider whose price list is not read yet, or that has none.
Result<PriceRefresh> refreshProviderPrices(HttpTransport& http,
                                           const std::string& provider,
                                           const Catalog& catalog,
                                           const std::string& region,
                                           const std::filesystem::path& pricesDir,
                                           const RefreshProgress& progress = {},
                                           const CancelToken* cancel = nullptr);

/// The refreshed prices' folder: $GPUPLAN_PRICES_DIR when set, else `$XDG_DATA_HOME/gpuplanner/prices`.
std::filesystem::path refreshedPricesDir();

/// Writes `<dir>/<provider>.json` (schema gpuplan-refreshed-prices/1), replacing an earlier refresh.
Status saveRefreshedPrices(const PriceRefresh& refresh, const std::filesystem::path& dir);

/// (applyRefreshedPrices, which lays these files over the catalog, is in CatalogLoader.h.)

} // namespace gpuplan::core
