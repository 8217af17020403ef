#pragma once

#include "gpuplan/catalog/Money.h"
#include "gpuplan/catalog/Source.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// How an offer is paid for.
enum class PricingMode
{
    OnDemand,            // pay as you go
    Spot,                // spot / preemptible, may be interrupted
    Reserved1Year,       // 1-year reservation or commitment, effective hourly price
    Reserved3Year,       // 3-year reservation or commitment, effective hourly price
    SubscriptionMonthly, // monthly subscription (包月), price per month
    SubscriptionYearly,  // yearly subscription (包年), effective price per month
};

enum class PriceUnit
{
    Hour,
    Month,
};

/// "on_demand", "spot", ... as written in the catalog files.
const char* pricingModeName(PricingMode mode);
std::optional<PricingMode> parsePricingMode(std::string_view name);
/// Every pricing mode's name, as a message lists the known ones.
// wire: the values the file may hold, as it writes them (a reason parameter)
inline constexpr const char* kPricingModeNames =
    "on_demand, spot, reserved_1y, reserved_3y, subscription_monthly, subscription_yearly";
const char* priceUnitName(PriceUnit unit);
std::optional<PriceUnit> parsePriceUnit(std::string_view name);

/// The unit a mode is quoted in: per hour for on-demand, spot and reserved; per month for subscriptions.
PriceUnit expectedUnit(PricingMode mode);

/// One price of one instance type in one region, with its source.
struct Price
{
    std::string region;
    PricingMode mode = PricingMode::OnDemand;
    double amount = 0;
    Currency currency = Currency::USD;
    PriceUnit unit = PriceUnit::Hour;
    std::string interruption; // spot only: the published interruption-frequency band, e.g. "<5%"; empty if none
    Source source;
    std::string location;   // where it was read: "file: $.offers[1].prices[0]", for findings
    bool refreshed = false; // read from the provider's price list by `gpuplan prices refresh`, over the bundled one
};

/// A cloud that sells GPU instances.
struct Provider
{
    std::string id;     // "aws", "alibaba", "tencent", ...
    std::string name;   // "Alibaba Cloud"
    std::string nameZh; // "阿里云"; empty when the English name is used in Chinese too
    Currency currency = Currency::USD;
    std::string homepage;
};

/// How an offer is run.
enum class ServiceKind
{
    Vm,        // a virtual machine with GPUs passed through
    BareMetal, // a whole physical server
    Managed,   // a managed training service (Vertex AI, Azure ML): jobs, not machines
    Tpu,       // Google Cloud TPU
};

const char* serviceKindName(ServiceKind kind);
std::optional<ServiceKind> parseServiceKind(std::string_view name);

/// The unit of billing and the minimum charge.
struct Billing
{
    enum class Granularity
    {
        Second,
        Minute,
        Hour,
    };
    Granularity granularity = Granularity::Hour;
    int minimumSeconds = 0;
};

const char* granularityName(Billing::Granularity granularity);
/// The hours a provider bills for `hours` of use: rounded up to its granularity, at least its minimum. Unknown
/// billing counts whole hours.
double billedHours(double hours, const std::optional<Billing>& billing);
std::optional<Billing::Granularity> parseGranularity(std::string_view name);

/// Where an offer comes from: the bundled catalog, or the user's own catalog (a negotiated quote, a campus
/// cluster), which may add offers or override bundled ones.
enum class OfferOrigin
{
    Bundled,
    UserAdded,
    UserOverride,
};

/// One instance type of one provider: its hardware and all its known prices.
struct Offer
{
    std::string providerId;
    std::string instanceType; // "p3.2xlarge"
    std::string gpuId;        // key into the GPU specs
    int gpuCount = 0;
    std::optional<int> vcpus;     // of the host; required for VMs and bare metal, absent for TPUs/managed
    std::optional<double> ramGib; // likewise
    std::optional<double> localDiskGb;
    std::string network;                       // as the provider states it, e.g. "Up to 10 Gigabit"
    std::vector<std::string> availableRegions; // where the provider's spec page says it is sold
    ServiceKind service = ServiceKind::Vm;
    std::optional<bool> rdma;            // RDMA / InfiniBand / EFA / RoCE between nodes; nullopt: unknown
    std::string rdmaNote;                // "EFA, 4 x 100 Gbps"
    std::optional<bool> bareMetal;       // a physically isolated (bare-metal or dedicated-host) option exists
    std::vector<std::string> compliance; // documented programmes, e.g. "HIPAA"
    std::optional<bool> mig;             // the GPUs can be partitioned with MIG
    std::optional<Billing> billing;
    std::string notes;
    Source specSource; // where the instance's hardware figures come from
    std::vector<Price> prices;
    OfferOrigin origin = OfferOrigin::Bundled;
    std::string location; // where it was read: "file: $.offers[1]"

    /// Physically isolated: a bare-metal service, or a bare-metal / dedicated-host option.
    bool physicallyIsolated() const { return service == ServiceKind::BareMetal || bareMetal.value_or(false); }

    /// The regions where it is sold: those listed as available, then any other region with a price.
    std::vector<std::string> regions() const;
    /// The price for a region and mode, or nullptr.
    const Price* findPrice(std::string_view region, PricingMode mode) const;
};

} // namespace gpuplan::core
