#pragma once

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Http.h"
#include "gpuplan/net/signers/GoogleServiceAccount.h"
#include "gpuplan/net/signers/Signing.h"
#include "gpuplan/secrets/Credential.h"

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

/// Something a refresh tells beside its prices, as data: a key ("refresh.no_region_file" {region}) and its
/// parameters, worded by ui/wording (errorReasonText). When a request failed without stopping the refresh (a type
/// not sold there), `cause` holds its error, worded after the reason ("x in r, Month: <cause>").
struct RefreshNote
{
    Reason reason;
    std::optional<Error> cause;
};

/// What one provider's refresh read, and how it differs from the catalog in use.
struct PriceRefresh
{
    std::string provider;
    std::string asOf; // the provider's date of the prices
    std::vector<RefreshedPrice> prices;
    std::vector<PriceChange> changes; // changed or new prices, largest relative change first
    int unchanged = 0;
    std::vector<RefreshNote> notes; // regions without a price file, instance types the file does not price
};

/// Called with what is being read, as a key ("refresh.progress_aws_file" {region}: "us-east-1 price file"), and how
/// far: bytes so far and in all (0: unknown) for a download (`bytes`), else steps done and in all (regions, instance
/// types); returning false cancels.
using RefreshProgress = std::function<bool(const Reason& what, std::uint64_t done, std::uint64_t total, bool bytes)>;

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

/// What a provider's price API asks of the caller: nothing (AWS Price List, Azure), the access key pair (Alibaba,
/// Tencent, Huawei; AWS spot prices), an API key (Lambda) or the service account (Google). needsKey tells which.
struct PriceListAccess
{
    std::optional<AccessKey> key;
    std::string apiKey;
    std::optional<GoogleServiceAccount> googleAccount;
    Clock clock = systemClock(); // signing time
};

/// Whether `provider`'s price API needs the user's stored credential: aws (for spot prices only: without one, the
/// Price List alone is read), gcp, lambda, alibaba, tencent, huawei.
bool priceListNeedsCredential(const std::string& provider);

/// The part of the stored credential (or the error of loading it) that `provider`'s price API takes. Credentials
/// naming what is missing; except for AWS, whose Price List needs none: without a usable credential its access is
/// empty, and only its spot prices go unread.
Result<PriceListAccess> priceListAccessFrom(const std::string& provider, const Result<Credential>& stored);

/// AWS spot prices: EC2 DescribeSpotPriceHistory (signed with the user's key), per region, Linux/UNIX, the
/// current price per zone (StartTime now); the catalog keeps the cheapest zone's. Endpoint as for launching
/// ($GPUPLAN_ENDPOINT_AWS).
Result<PriceRefresh> refreshAwsSpotPrices(HttpTransport& http,
                                          const Catalog& catalog,
                                          const std::string& region,
                                          const PriceListAccess& access,
                                          const RefreshProgress& progress = {},
                                          const CancelToken* cancel = nullptr);

/// Lambda: GET /api/v1/instance-types (API key), one price per instance type for every region. Endpoint
/// https://cloud.lambda.ai, or $GPUPLAN_ENDPOINT_LAMBDA.
Result<PriceRefresh> refreshLambdaPrices(HttpTransport& http,
                                         const Catalog& catalog,
                                         const std::string& region,
                                         const PriceListAccess& access,
                                         const RefreshProgress& progress = {},
                                         const CancelToken* cancel = nullptr);

/// Google Cloud: the Cloud Billing Catalog API's Compute Engine SKUs (service 6F81-5844-456A, page by page, with
/// the service account's token), joined per machine type: the series' vCPU and RAM SKUs times the machine's
/// vCPUs and GiB, plus the GPU SKU times its GPUs (A4: the GPU SKU alone), on-demand and spot. TPUs are not read.
/// Endpoint https://cloudbilling.googleapis.com, or $GPUPLAN_ENDPOINT_GCP_BILLING.
Result<PriceRefresh> refreshGcpPrices(HttpTransport& http,
                                      const Catalog& catalog,
                                      const std::string& region,
                                      const PriceListAccess& access,
                                      const RefreshProgress& progress = {},
                                      const CancelToken* cancel = nullptr);

/// Alibaba Cloud: ECS DescribePrice (signed, RPC) per instance type and region, pay-as-you-go (Hour), monthly
/// (Month, 1) and yearly (Year, 1; kept as its effective price per month) list prices, and
/// DescribeSpotPriceHistory for the current spot price (the cheapest zone). Endpoint https://ecs.aliyuncs.com,
/// or $GPUPLAN_ENDPOINT_ALIBABA.
Result<PriceRefresh> refreshAlibabaPrices(HttpTransport& http,
                                          const Catalog& catalog,
                                          const std::string& region,
                                          const PriceListAccess& access,
                                          const RefreshProgress& progress = {},
                                          const CancelToken* cancel = nullptr);

/// Tencent Cloud: CVM DescribeZoneInstanceConfigInfos per region for pay-as-you-go and spot (the cheapest zone
/// that sells the type), and InquiryPriceRunInstances for monthly and yearly prepaid quotes in that zone.
/// Endpoint https://cvm.tencentcloudapi.com, or $GPUPLAN_ENDPOINT_TENCENT.
Result<PriceRefresh> refreshTencentPrices(HttpTransport& http,
                                          const Catalog& catalog,
                                          const std::string& region,
                                          const PriceListAccess& access,
                                          const RefreshProgress& progress = {},
                                          const CancelToken* cancel = nullptr);

/// Huawei Cloud: the region's project (IAM KeystoneListProjects), then BSS ListOnDemandResourceRatings and
/// ListRateOnPeriodDetail (monthly, yearly) for each flavor, list prices (official_website_amount). Huawei
/// publishes no spot price. Endpoints https://iam.myhuaweicloud.com and https://bss.myhuaweicloud.com, or
/// $GPUPLAN_ENDPOINT_HUAWEI for both.
Result<PriceRefresh> refreshHuaweiPrices(HttpTransport& http,
                                         const Catalog& catalog,
                                         const std::string& region,
                                         const PriceListAccess& access,
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
                                           const PriceListAccess& access,
                                           const RefreshProgress& progress = {},
                                           const CancelToken* cancel = nullptr);

/// The refreshed prices' folder: $GPUPLAN_PRICES_DIR when set, else `$XDG_DATA_HOME/gpuplanner/prices`.
std::filesystem::path refreshedPricesDir();

/// Writes `<dir>/<provider>.json` (schema gpuplan-refreshed-prices/1), replacing an earlier refresh.
Status saveRefreshedPrices(const PriceRefresh& refresh, const std::filesystem::path& dir);

/// (applyRefreshedPrices, which lays these files over the catalog, is in CatalogLoader.h.)

} // namespace gpuplan::core
