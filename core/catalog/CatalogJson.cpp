#include "gpuplan/catalog/CatalogJson.h"

namespace gpuplan::core {

using nlohmann::json;

namespace {

json orNull(const std::optional<double>& value)
{
    return value ? json(*value) : json(nullptr);
}

json orNull(const std::optional<bool>& value)
{
    return value ? json(*value) : json(nullptr);
}

json orNull(const std::string& value)
{
    return value.empty() ? json(nullptr) : json(value);
}

} // namespace

json toJson(const Source& source)
{
    json result{{"url", source.url},
                {"as_of", source.asOf.empty() ? json(nullptr) : json(source.asOf)},
                {"retrieved", source.retrieved}};
    if (!source.note.empty()) {
        result["note"] = source.note;
    }
    return result;
}

json toJson(const GpuSpec& gpu)
{
    return json{
        {"id", gpu.id},
        {"name", gpu.name},
        {"aliases", gpu.aliases},
        {"vendor", gpu.vendor},
        {"architecture", gpu.architecture},
        {"compute_capability", orNull(gpu.computeCapability)},
        {"memory_gb", gpu.memoryGb},
        {"memory_type", gpu.memoryType},
        {"memory_bandwidth_gbs", orNull(gpu.memoryBandwidthGBs)},
        {"peak_tflops",
         {{"fp32", orNull(gpu.peak.fp32)},
          {"tf32", orNull(gpu.peak.tf32)},
          {"fp16", orNull(gpu.peak.fp16)},
          {"bf16", orNull(gpu.peak.bf16)},
          {"fp8", orNull(gpu.peak.fp8)}}},
        {"interconnect", orNull(gpu.interconnect)},
        {"tdp_w", orNull(gpu.tdpWatts)},
        {"confidence", confidenceName(gpu.confidence)},
        {"notes", orNull(gpu.notes)},
        {"source", toJson(gpu.source)},
    };
}

json toJson(const Price& price)
{
    json result{
        {"region", price.region},
        {"mode", pricingModeName(price.mode)},
        {"amount", price.amount},
        {"currency", currencyCode(price.currency)},
        {"unit", priceUnitName(price.unit)},
        {"source", toJson(price.source)},
    };
    if (!price.interruption.empty()) {
        result["interruption"] = price.interruption;
    }
    if (price.refreshed) {
        result["refreshed"] = true;
    }
    return result;
}

json toJson(const ExchangeRate& rate)
{
    return json{{"cny_per_usd", rate.cnyPerUsd}, {"source", toJson(rate.source)}, {"user_set", rate.userSet}};
}

const char* offerOriginName(OfferOrigin origin)
{
    switch (origin) {
        case OfferOrigin::Bundled:
            return "bundled";
        case OfferOrigin::UserAdded:
            return "user_added";
        case OfferOrigin::UserOverride:
            return "user_override";
    }
    return "?";
}

json toJson(const Offer& offer, const Catalog& catalog)
{
    const Provider* provider = catalog.findProvider(offer.providerId);
    const GpuSpec* gpu = catalog.findGpu(offer.gpuId);
    json prices = json::array();
    for (const Price& price : offer.prices) {
        prices.push_back(toJson(price));
    }
    return json{
        {"provider", offer.providerId},
        {"provider_name", provider ? json(provider->name) : json(nullptr)},
        {"provider_name_zh", provider ? orNull(provider->nameZh) : json(nullptr)},
        {"instance_type", offer.instanceType},
        {"gpu", offer.gpuId},
        {"gpu_name", gpu ? json(gpu->name) : json(nullptr)},
        {"gpu_count", offer.gpuCount},
        {"gpu_memory_gb", gpu ? json(gpu->memoryGb * offer.gpuCount) : json(nullptr)},
        {"vcpus", offer.vcpus ? json(*offer.vcpus) : json(nullptr)},
        {"ram_gib", orNull(offer.ramGib)},
        {"local_disk_gb", orNull(offer.localDiskGb)},
        {"network", orNull(offer.network)},
        {"service", serviceKindName(offer.service)},
        {"rdma", orNull(offer.rdma)},
        {"rdma_note", orNull(offer.rdmaNote)},
        {"bare_metal", orNull(offer.bareMetal)},
        {"compliance", offer.compliance},
        {"mig", orNull(offer.mig)},
        {"billing",
         offer.billing ? json{{"granularity", granularityName(offer.billing->granularity)},
                              {"minimum_seconds", offer.billing->minimumSeconds}}
                       : json(nullptr)},
        {"origin", offerOriginName(offer.origin)},
        {"regions", offer.regions()},
        {"notes", orNull(offer.notes)},
        {"spec_source", toJson(offer.specSource)},
        {"prices", prices},
    };
}

} // namespace gpuplan::core
