#pragma once

// The parsers of the providers' price API answers (core/prices/*Prices.cpp), public so that TestPriceAnswers can
// check each on the answers the providers' documentation prints. Pure functions: no network.

#include "gpuplan/catalog/Money.h"
#include "gpuplan/core/Result.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

// ---- AWS: EC2 DescribeSpotPriceHistory (XML).

struct AwsSpotPrice
{
    std::string zone;
    std::string instanceType;
    std::string productDescription;
    std::string timestamp;
    double usdPerHour = 0;
};
struct AwsSpotPage
{
    std::vector<AwsSpotPrice> prices; // items whose spotPrice is not a positive number are left out
    std::string nextToken;            // empty on the last page
};
/// ProviderRefused when the body is not XML or not a DescribeSpotPriceHistoryResponse.
Result<AwsSpotPage> parseSpotPriceHistory(std::string_view body);
/// Each type's cheapest Linux/UNIX price (the zone to ask for it); other products (Windows, SUSE…) are left out.
std::map<std::string, AwsSpotPrice> cheapestLinuxSpot(const std::vector<AwsSpotPrice>& prices);

// ---- Google Cloud: Cloud Billing Catalog, services.skus.list.

struct GcpSku
{
    std::string skuId;
    std::string description; // "Nvidia Tesla A100 GPU running in Americas"
    std::string resourceFamily;
    std::string usageType; // "OnDemand", "Preemptible", "Commit1Yr"
    std::set<std::string> regions;
    std::string usageUnit; // "h", "GiBy.h"
    std::string effectiveTime;
    std::optional<double> usdPerUnit; // the newest pricingInfo's first tier, units + nanos
};
/// The page's SKUs that have a USD price.
std::vector<GcpSku> parseGcpSkus(const nlohmann::json& page);
/// A machine's hourly price in `region`: the series' "<series> Instance Core" x vcpus + "<series> Instance Ram" x
/// GiB + the GPU SKU x gpus; with `series` empty the GPU SKU alone (A4). Spot takes the "Spot Preemptible" /
/// Preemptible SKUs. nullopt when a part has no SKU there. `used` (when given) gets the SKU ids.
std::optional<double> gcpMachinePrice(const std::vector<GcpSku>& skus,
                                      const std::string& series,
                                      const std::string& gpuPrefix,
                                      int vcpus,
                                      double ramGib,
                                      int gpus,
                                      const std::string& region,
                                      bool spot,
                                      std::string* used = nullptr);

// ---- Alibaba Cloud: ECS DescribePrice, DescribeSpotPriceHistory and DescribeSpotAdvice.

/// The instance's list price (DetailInfos' "instanceType" OriginalPrice, without the disk; where the answer has no
/// DetailInfos, as in the documented example, PriceInfo.Price.OriginalPrice) and its currency.
std::optional<std::pair<double, Currency>> alibabaInstancePrice(const nlohmann::json& answer);
/// The cheapest zone's newest SpotPrice of `instanceType` (any type when empty): (zone, price).
std::optional<std::pair<std::string, double>> alibabaCheapestSpot(const nlohmann::json& answer,
                                                                  const std::string& instanceType = {});

/// One row of DescribeSpotAdvice: what Alibaba publishes of an instance type's spot instances in one zone over the
/// previous 30 days.
struct AlibabaSpotAdvice
{
    std::string zone;
    std::string instanceType;
    std::string band;                      // InterruptRateDesc as Alibaba writes it: "0-3%", "3-5%", "5-10%", "10-100%"
    std::optional<double> ratePercent;     // InterruptionRate: the average release rate, in %
    std::optional<double> discountPercent; // AverageSpotDiscount: the average spot price, in % of pay-as-you-go
};
/// The rows of AvailableSpotZones.AvailableSpotZone[].AvailableSpotResources.AvailableSpotResource[]; a row is left
/// out when its zone (the AvailableSpotZone's ZoneId), InstanceType or InterruptRateDesc is missing. Numbers may be
/// JSON numbers or text. Nothing (never an error) for another answer.
std::vector<AlibabaSpotAdvice> parseAlibabaSpotAdvice(const nlohmann::json& answer);
/// The catalog's name of the band Alibaba gives `instanceType` in `zone` (Alibaba's band prefixed "alibaba:", as
/// regions.json's spot_bands name it: "alibaba:0-3%"); empty when the advice has no band for it there.
std::string
alibabaSpotBand(const std::vector<AlibabaSpotAdvice>& advice, const std::string& instanceType, const std::string& zone);

// ---- Tencent Cloud: CVM DescribeZoneInstanceConfigInfos and InquiryPriceRunInstances.

struct TencentZonePrice
{
    std::string zone;
    std::string instanceType;
    std::string chargeType; // POSTPAID_BY_HOUR, SPOTPAID
    bool selling = false;   // Status SELL
    std::optional<double> unitPrice;
    std::optional<double> unitPriceDiscount;
    bool stepped = false; // UnitPriceSecondStep present: UnitPrice covers the first 96 hours
};
/// The rows of Response.InstanceTypeQuotaSet (pass the Response object).
std::vector<TencentZonePrice> parseTencentZonePrices(const nlohmann::json& response);
/// Response.Price.InstancePrice of InquiryPriceRunInstances (pass the Response): per hour the list and discounted
/// prices (UnitPrice, UnitPriceDiscount), prepaid the list price of the whole period (OriginalPrice); each nullopt
/// when missing or not positive.
struct TencentInstancePrice
{
    std::optional<double> unitPrice;
    std::optional<double> unitPriceDiscount;
    std::optional<double> originalPrice;
};
TencentInstancePrice parseTencentInstancePrice(const nlohmann::json& response);
/// Its OriginalPrice: the list price of the whole prepaid period.
std::optional<double> parseTencentPrepaidPrice(const nlohmann::json& response);

// ---- Huawei Cloud: BSS ListOnDemandResourceRatings and ListRateOnPeriodDetail.

/// official_website_amount in yuan (measure_id 1 yuan, 2 jiao, 3 fen); nullopt when missing or not positive.
std::optional<double> huaweiYuan(const nlohmann::json& result);
/// Each product's list price in yuan by its id: product_rating_results of an on-demand answer, or of a period
/// answer's official_website_rating_result.
std::map<std::string, double> parseHuaweiRatings(const nlohmann::json& answer);

} // namespace gpuplan::core
