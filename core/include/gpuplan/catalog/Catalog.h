#pragma once

#include "gpuplan/catalog/GpuSpec.h"
#include "gpuplan/catalog/Offer.h"
#include "gpuplan/core/Result.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// What to select from the catalog; empty fields match everything.
struct OfferFilter
{
    std::string provider; // provider id, case-insensitive, exact
    std::string gpu;      // part of a GPU id or name, case-insensitive ("a100" matches every A100)
    std::string region;   // part of a region name, case-insensitive
    int minGpus = 0;
    double minGpuMemoryGb = 0;       // per GPU
    bool physicallyIsolated = false; // only offers with a bare-metal or dedicated-host option
    bool rdma = false;               // only offers with RDMA / InfiniBand / EFA
    std::optional<ServiceKind> service;
};

/// One instance type in one region, as the catalog table shows it.
struct RegionalOffer
{
    Provider provider;
    Offer offer; // its prices restricted to `region`
    GpuSpec gpu;
    std::string region; // empty when no region has a price: then offer.availableRegions lists where it is sold
    std::optional<Price> onDemandHourly;
    std::optional<Price> spotHourly; // the spot price per hour where one is published
    std::optional<Price> monthly;    // monthly subscription where sold
    std::optional<Price> yearly;     // yearly subscription where sold

    double gpuMemoryTotalGb() const { return gpu.memoryGb * offer.gpuCount; }
    /// The most recent as-of date among this row's prices; empty when no source states one.
    std::string priceDate() const;
};

/// The newest as-of date among these offers' prices; empty when none has a dated price.
std::string newestPriceDate(const std::vector<Offer>& offers);

/// The validated GPU specs, providers and offers. A value type: cheap enough to copy to another thread.
class Catalog
{
public:
    void addGpu(GpuSpec gpu);
    void addProvider(Provider provider);
    void addOffer(Offer offer);
    /// Replaces the offer of the same provider and instance type; false when there is none.
    bool replaceOffer(Offer offer);
    void setExchangeRate(ExchangeRate rate) { m_exchangeRate = std::move(rate); }

    const std::vector<GpuSpec>& gpus() const { return m_gpus; }
    const std::vector<Provider>& providers() const { return m_providers; }
    const std::vector<Offer>& offers() const { return m_offers; }
    /// The bundled USD/CNY rate with its source, or the user's; nullopt when the catalog has none.
    const std::optional<ExchangeRate>& exchangeRate() const { return m_exchangeRate; }

    /// nullptr when there is no such id.
    const GpuSpec* findGpu(std::string_view id) const;
    const Provider* findProvider(std::string_view id) const;
    /// The offer of that provider and instance type; nullptr when the catalog has none.
    const Offer* findOffer(std::string_view providerId, std::string_view instanceType) const;
    /// The GPU a user means by `name`: its id, display name or an alias, ignoring case and punctuation
    /// ("A100-SXM4-80GB", "a100 80gb"). Error UnknownGpu names the closest GPUs.
    Result<const GpuSpec*> resolveGpu(std::string_view name) const;

    /// The offers that match, with their prices restricted to the region filter.
    /// Errors: UnknownProvider / UnknownGpu / InvalidArgument (region) when a filter names something
    /// the catalog does not have; the message lists what it has.
    Result<std::vector<Offer>> select(const OfferFilter& filter) const;

    /// One row per offer and region with at least one price, ordered by provider, instance, region;
    /// an offer without any price gets one row with an empty region.
    std::vector<RegionalOffer> regionalOffers(const std::vector<Offer>& offers) const;

    /// The newest as-of date of any price: how fresh the catalog is.
    std::string newestPriceDate() const;

private:
    std::vector<GpuSpec> m_gpus;
    std::vector<Provider> m_providers;
    std::vector<Offer> m_offers;
    std::optional<ExchangeRate> m_exchangeRate;
};

} // namespace gpuplan::core
