#include "gpuplan/catalog/Catalog.h"

#include "gpuplan/core/Names.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>

namespace gpuplan::core {

namespace {

std::string lower(std::string_view text)
{
    std::string result(text);
    std::transform(result.begin(), result.end(), result.begin(), [](unsigned char c) { return std::tolower(c); });
    return result;
}

bool containsIgnoringCase(std::string_view haystack, std::string_view needle)
{
    return lower(haystack).find(lower(needle)) != std::string::npos;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string result;
    for (const std::string& item : items) {
        result += (result.empty() ? "" : ", ") + item;
    }
    return result;
}

} // namespace

std::string RegionalOffer::priceDate() const
{
    std::string date;
    for (const std::optional<Price>& price : {onDemandHourly, spotHourly, monthly, yearly}) {
        if (price && price->source.asOf > date) {
            date = price->source.asOf;
        }
    }
    return date;
}

void Catalog::addGpu(GpuSpec gpu)
{
    m_gpus.push_back(std::move(gpu));
}

void Catalog::addProvider(Provider provider)
{
    m_providers.push_back(std::move(provider));
}

void Catalog::addOffer(Offer offer)
{
    m_offers.push_back(std::move(offer));
}

bool Catalog::replaceOffer(Offer offer)
{
    for (Offer& existing : m_offers) {
        if (existing.providerId == offer.providerId && existing.instanceType == offer.instanceType) {
            existing = std::move(offer);
            return true;
        }
    }
    return false;
}

const GpuSpec* Catalog::findGpu(std::string_view id) const
{
    auto it = std::find_if(m_gpus.begin(), m_gpus.end(), [&](const GpuSpec& gpu) { return gpu.id == id; });
    return it == m_gpus.end() ? nullptr : &*it;
}

Result<const GpuSpec*> Catalog::resolveGpu(std::string_view name) const
{
    const std::string wanted = normalizedName(name);
    std::vector<std::string> names;
    for (const GpuSpec& gpu : m_gpus) {
        names.push_back(gpu.id);
        bool matches = !wanted.empty() && (normalizedName(gpu.id) == wanted || normalizedName(gpu.name) == wanted);
        for (const std::string& alias : gpu.aliases) {
            matches = matches || (!wanted.empty() && normalizedName(alias) == wanted);
            names.push_back(alias);
        }
        if (matches) {
            return &gpu;
        }
    }
    std::vector<std::string> close = closestNames(name, names);
    Reason reason{"error.catalog.unknown_gpu", {{"gpu", std::string(name)}}};
    if (!close.empty()) {
        reason.params["alternatives"] = joinedNames(close);
    }
    return Error{ErrorCode::UnknownGpu, std::move(reason), "--gpu"};
}

const Provider* Catalog::findProvider(std::string_view id) const
{
    auto it = std::find_if(m_providers.begin(), m_providers.end(), [&](const Provider& p) { return p.id == id; });
    return it == m_providers.end() ? nullptr : &*it;
}

const Offer* Catalog::findOffer(std::string_view providerId, std::string_view instanceType) const
{
    auto it = std::find_if(m_offers.begin(), m_offers.end(), [&](const Offer& o) {
        return o.providerId == providerId && o.instanceType == instanceType;
    });
    return it == m_offers.end() ? nullptr : &*it;
}

Result<std::vector<Offer>> Catalog::select(const OfferFilter& filter) const
{
    const std::string providerId = lower(filter.provider);
    if (!providerId.empty() && !findProvider(providerId)) {
        std::vector<std::string> ids;
        for (const Provider& provider : m_providers) {
            ids.push_back(provider.id);
        }
        std::sort(ids.begin(), ids.end());
        return Error{ErrorCode::UnknownProvider,
                     Reason{"error.catalog.unknown_provider", {{"provider", filter.provider}, {"known", joined(ids)}}},
                     "--provider"};
    }

    std::set<std::string> matchingGpus;
    for (const GpuSpec& gpu : m_gpus) {
        if (filter.gpu.empty() || containsIgnoringCase(gpu.id, filter.gpu)
            || containsIgnoringCase(gpu.name, filter.gpu)) {
            matchingGpus.insert(gpu.id);
        }
    }
    if (matchingGpus.empty()) {
        std::set<std::string> offered;
        for (const Offer& offer : m_offers) {
            offered.insert(offer.gpuId);
        }
        return Error{ErrorCode::UnknownGpu,
                     Reason{"error.catalog.no_gpu_match",
                            {{"gpu", filter.gpu},
                             {"offered", joined(std::vector<std::string>(offered.begin(), offered.end()))}}},
                     "--gpu"};
    }

    std::vector<Offer> selected;
    std::set<std::string> allRegions;
    for (const Offer& offer : m_offers) {
        for (const std::string& region : offer.regions()) {
            allRegions.insert(region);
        }
        if ((!providerId.empty() && offer.providerId != providerId) || !matchingGpus.count(offer.gpuId)
            || offer.gpuCount < filter.minGpus || (filter.physicallyIsolated && !offer.physicallyIsolated())
            || (filter.rdma && !offer.rdma.value_or(false)) || (filter.service && offer.service != *filter.service)) {
            continue;
        }
        if (const GpuSpec* gpu = findGpu(offer.gpuId); !gpu || gpu->memoryGb < filter.minGpuMemoryGb) {
            continue;
        }
        if (filter.region.empty()) {
            selected.push_back(offer);
            continue;
        }
        Offer restricted = offer;
        std::erase_if(restricted.availableRegions,
                      [&](const std::string& region) { return !containsIgnoringCase(region, filter.region); });
        std::erase_if(restricted.prices,
                      [&](const Price& price) { return !containsIgnoringCase(price.region, filter.region); });
        if (!restricted.regions().empty()) {
            selected.push_back(std::move(restricted));
        }
    }

    if (!filter.region.empty() && std::none_of(allRegions.begin(), allRegions.end(), [&](const std::string& region) {
            return containsIgnoringCase(region, filter.region);
        })) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.catalog.no_region_match",
                            {{"region", filter.region},
                             {"known", joined(std::vector<std::string>(allRegions.begin(), allRegions.end()))}}},
                     "--region"};
    }
    return selected;
}

std::vector<RegionalOffer> Catalog::regionalOffers(const std::vector<Offer>& offers) const
{
    std::vector<RegionalOffer> rows;
    for (const Offer& offer : offers) {
        const Provider* provider = findProvider(offer.providerId);
        const GpuSpec* gpu = findGpu(offer.gpuId);
        if (!provider || !gpu) {
            continue; // cannot happen for a validated catalog
        }
        std::vector<std::string> pricedRegions;
        for (const Price& price : offer.prices) {
            if (std::find(pricedRegions.begin(), pricedRegions.end(), price.region) == pricedRegions.end()) {
                pricedRegions.push_back(price.region);
            }
        }
        auto makeRow = [&](const std::string& region) {
            RegionalOffer row{*provider, offer, *gpu, region, {}, {}, {}, {}};
            std::erase_if(row.offer.prices, [&](const Price& price) { return price.region != region; });
            if (const Price* price = offer.findPrice(region, PricingMode::OnDemand)) {
                row.onDemandHourly = *price;
            }
            if (const Price* price = offer.findPrice(region, PricingMode::Spot)) {
                row.spotHourly = *price;
            }
            if (const Price* price = offer.findPrice(region, PricingMode::SubscriptionMonthly)) {
                row.monthly = *price;
            }
            if (const Price* price = offer.findPrice(region, PricingMode::SubscriptionYearly)) {
                row.yearly = *price;
            }
            return row;
        };
        if (pricedRegions.empty()) {
            // No price anywhere: one row (region left empty; offer.availableRegions says where it is sold),
            // so the offer is shown with its price unknown rather than silently missing.
            rows.push_back(makeRow(""));
            continue;
        }
        for (const std::string& region : pricedRegions) {
            rows.push_back(makeRow(region));
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const RegionalOffer& a, const RegionalOffer& b) {
        return std::tie(a.provider.id, a.offer.instanceType, a.region)
               < std::tie(b.provider.id, b.offer.instanceType, b.region);
    });
    return rows;
}

std::string Catalog::newestPriceDate() const
{
    return core::newestPriceDate(m_offers);
}

std::string newestPriceDate(const std::vector<Offer>& offers)
{
    std::string newest;
    for (const Offer& offer : offers) {
        for (const Price& price : offer.prices) {
            newest = std::max(newest, price.source.asOf);
        }
    }
    return newest;
}

} // namespace gpuplan::core
