#pragma once

#include "gpuplan/catalog/Money.h"
#include "gpuplan/catalog/Source.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/estimate/Range.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// A power grid's carbon intensity.
struct Grid
{
    std::string id;
    std::string name;
    double kgCo2ePerKwh = 0;
    Source source;
};

/// A monthly interruption probability with its range and source.
struct InterruptionRate
{
    Range monthlyProbability;
    Source source;
};

struct UnitPrice
{
    double amount = 0; // per GB-month (storage) or per GB (egress)
    Currency currency = Currency::USD;
    std::string what;
    Source source;
};

/// What regions.json says of one provider; absent values are unknown.
struct ProviderFacts
{
    std::string provider;
    std::optional<double> pue;
    std::optional<InterruptionRate> spot; // a default when a spot price has no published band
    std::optional<UnitPrice> storage;
    std::optional<UnitPrice> egress;
    struct Region
    {
        std::string id;
        std::string name;
        std::string gridId;           // empty: unknown
        std::string country;          // ISO 3166-1 alpha-2 ("CN", "US"); empty: unknown
        std::optional<Source> source; // where the location comes from, when the id does not say it
    };
    std::vector<Region> regions;
};

/// The estimator's sourced facts beyond prices and specs: grids, PUEs, spot interruption rates, storage and
/// egress prices (resources/catalog/regions.json, schema gpuplan-regions/1).
struct Assumptions
{
    std::vector<Grid> grids;
    std::vector<std::pair<std::string, InterruptionRate>> spotBands; // "<5%" -> rate
    std::vector<ProviderFacts> providers;

    const ProviderFacts* provider(std::string_view id) const;
    const Grid* grid(std::string_view provider, std::string_view region) const;
    /// What regions.json says of one region of a provider; nullptr when it says nothing.
    const ProviderFacts::Region* region(std::string_view provider, std::string_view region) const;
    /// The interruption rate of a spot price: its band when it has one, else the provider's default.
    std::optional<InterruptionRate> spotRate(std::string_view provider, std::string_view band) const;
};

struct LoadedAssumptions
{
    Assumptions assumptions;
    std::vector<Error> problems;
};

/// Reads `regions.json` in the catalog folder. A missing file gives empty assumptions and a problem.
LoadedAssumptions loadAssumptions(const std::filesystem::path& catalogDir);

} // namespace gpuplan::core
