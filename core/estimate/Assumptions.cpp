#include "gpuplan/estimate/Assumptions.h"

#include "core/JsonChecker.h"

namespace gpuplan::core {

using nlohmann::json;
using Need = JsonChecker::Need;

namespace {

std::optional<InterruptionRate> readRate(JsonChecker& check, const json& node, const std::string& at)
{
    const json* p = check.object(node, "monthly_probability", at, Need::Required);
    std::optional<Source> source = readSource(check, node, "source", at);
    if (!p || !source) {
        return std::nullopt;
    }
    const std::string pAt = JsonChecker::child(at, "monthly_probability");
    check.onlyKnownKeys(*p, pAt, {"low", "value", "high"});
    std::optional<double> low = check.nonNegativeNumber(*p, "low", pAt, Need::Required, 1);
    std::optional<double> value = check.nonNegativeNumber(*p, "value", pAt, Need::Required, 1);
    std::optional<double> high = check.nonNegativeNumber(*p, "high", pAt, Need::Required, 1);
    if (!low || !value || !high) {
        return std::nullopt;
    }
    if (!(*low <= *value && *value <= *high)) {
        check.problem(pAt, Reason{"error.estimate.range_order", {}});
        return std::nullopt;
    }
    return InterruptionRate{Range{*value, *low, *high}, *source};
}

std::optional<UnitPrice> readUnitPrice(JsonChecker& check, const json& node, const std::string& at, const char* key)
{
    UnitPrice price;
    std::optional<double> amount = check.nonNegativeNumber(node, key, at, Need::Required);
    // wire: the values the file may hold, as it writes them (a reason parameter)
    std::optional<Currency> currency = check.choice(node, "currency", at, Need::Required, parseCurrency, "USD, CNY");
    price.what = check.string(node, "what", at, Need::Optional).value_or("");
    std::optional<Source> source = readSource(check, node, "source", at);
    if (!amount || !currency || !source) {
        return std::nullopt;
    }
    price.amount = *amount;
    price.currency = *currency;
    price.source = *source;
    return price;
}

} // namespace

const ProviderFacts* Assumptions::provider(std::string_view id) const
{
    for (const ProviderFacts& facts : providers) {
        if (facts.provider == id) {
            return &facts;
        }
    }
    return nullptr;
}

const Grid* Assumptions::grid(std::string_view providerId, std::string_view region) const
{
    const ProviderFacts* facts = provider(providerId);
    if (!facts) {
        return nullptr;
    }
    for (const ProviderFacts::Region& r : facts->regions) {
        if (r.id == region && !r.gridId.empty()) {
            for (const Grid& g : grids) {
                if (g.id == r.gridId) {
                    return &g;
                }
            }
        }
    }
    return nullptr;
}

const ProviderFacts::Region* Assumptions::region(std::string_view providerId, std::string_view region) const
{
    if (const ProviderFacts* facts = provider(providerId)) {
        for (const ProviderFacts::Region& r : facts->regions) {
            if (r.id == region) {
                return &r;
            }
        }
    }
    return nullptr;
}

std::optional<InterruptionRate> Assumptions::spotRate(std::string_view providerId, std::string_view band) const
{
    if (!band.empty()) {
        for (const auto& [name, rate] : spotBands) {
            if (name == band) {
                return rate;
            }
        }
    }
    const ProviderFacts* facts = provider(providerId);
    return facts ? facts->spot : std::nullopt;
}

LoadedAssumptions loadAssumptions(const std::filesystem::path& catalogDir)
{
    LoadedAssumptions loaded;
    const std::filesystem::path file = catalogDir / "regions.json";
    Result<json> document = readJsonDocument(file);
    if (!document) {
        loaded.problems.push_back(document.error());
        return loaded;
    }
    JsonChecker check(file.string());
    Assumptions& a = loaded.assumptions;
    // wire: the schema tag a data file carries
    if (check.isObject(*document, "$") && checkSchemaTag(check, *document, "gpuplan-regions/1")) {
        check.onlyKnownKeys(*document, "$", {"schema", "grids", "spot_bands", "providers"});
        if (const json* grids = check.array(*document, "grids", "$", Need::Required)) {
            for (std::size_t i = 0; i < grids->size(); ++i) {
                const std::string at = JsonChecker::index("$.grids", i);
                const json& node = (*grids)[i];
                if (!check.isObject(node, at)) {
                    continue;
                }
                check.onlyKnownKeys(node, at, {"id", "name", "name_zh", "kg_co2e_per_kwh", "source"});
                std::optional<std::string> id = check.string(node, "id", at, Need::Required);
                std::optional<double> intensity =
                    check.nonNegativeNumber(node, "kg_co2e_per_kwh", at, Need::Required, 2);
                std::optional<Source> source = readSource(check, node, "source", at);
                if (id && intensity && source) {
                    a.grids.push_back(
                        Grid{*id, check.string(node, "name", at, Need::Optional).value_or(*id), *intensity, *source});
                }
            }
        }
        if (const json* bands = check.array(*document, "spot_bands", "$", Need::Optional)) {
            for (std::size_t i = 0; i < bands->size(); ++i) {
                const std::string at = JsonChecker::index("$.spot_bands", i);
                const json& node = (*bands)[i];
                if (!check.isObject(node, at)) {
                    continue;
                }
                check.onlyKnownKeys(node, at, {"band", "monthly_probability", "source"});
                std::optional<std::string> band = check.string(node, "band", at, Need::Required);
                std::optional<InterruptionRate> rate = readRate(check, node, at);
                if (band && rate) {
                    a.spotBands.emplace_back(*band, *rate);
                }
            }
        }
        if (const json* providers = check.array(*document, "providers", "$", Need::Required)) {
            for (std::size_t i = 0; i < providers->size(); ++i) {
                const std::string at = JsonChecker::index("$.providers", i);
                const json& node = (*providers)[i];
                if (!check.isObject(node, at)) {
                    continue;
                }
                check.onlyKnownKeys(node, at, {"provider", "pue", "spot", "storage", "egress", "regions"});
                ProviderFacts facts;
                facts.provider = check.string(node, "provider", at, Need::Required).value_or("");
                if (const json* pue = check.object(node, "pue", at, Need::Optional)) {
                    const std::string pAt = JsonChecker::child(at, "pue");
                    facts.pue = check.positiveNumber(*pue, "value", pAt, Need::Required);
                    readSource(check, *pue, "source", pAt);
                }
                if (const json* spot = check.object(node, "spot", at, Need::Optional)) {
                    facts.spot = readRate(check, *spot, JsonChecker::child(at, "spot"));
                }
                if (const json* storage = check.object(node, "storage", at, Need::Optional)) {
                    facts.storage = readUnitPrice(check, *storage, JsonChecker::child(at, "storage"), "per_gb_month");
                }
                if (const json* egress = check.object(node, "egress", at, Need::Optional)) {
                    facts.egress = readUnitPrice(check, *egress, JsonChecker::child(at, "egress"), "per_gb");
                }
                if (const json* regions = check.array(node, "regions", at, Need::Required)) {
                    for (std::size_t r = 0; r < regions->size(); ++r) {
                        const std::string rAt = JsonChecker::index(JsonChecker::child(at, "regions"), r);
                        const json& region = (*regions)[r];
                        if (!check.isObject(region, rAt)) {
                            continue;
                        }
                        check.onlyKnownKeys(region, rAt, {"id", "name", "country", "grid", "source"});
                        ProviderFacts::Region entry;
                        entry.id = check.string(region, "id", rAt, Need::Required).value_or("");
                        entry.name = check.string(region, "name", rAt, Need::Optional).value_or(entry.id);
                        entry.gridId = check.string(region, "grid", rAt, Need::Optional).value_or("");
                        entry.country = check.string(region, "country", rAt, Need::Optional).value_or("");
                        if (region.contains("source")) {
                            entry.source = readSource(check, region, "source", rAt);
                        }
                        facts.regions.push_back(entry);
                    }
                }
                a.providers.push_back(std::move(facts));
            }
        }
    }
    loaded.problems = check.takeProblems();
    return loaded;
}

} // namespace gpuplan::core
