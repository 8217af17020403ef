#pragma once

#include "gpuplan/catalog/Catalog.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// A price that loaded (it is well-formed) but looks wrong: flagged, never silently accepted.
struct Finding
{
    enum class Kind
    {
        SpotAboveOnDemand, // a spot price above the on-demand price of the same offer and region
        PriceOutlier,      // per GPU-hour more than `outlierFactor` away from the other providers' median
        StalePrice,        // as of a date more than `maxPriceAgeDays` ago
        FutureDate,        // as of a date after today
        UndatedPrice,      // its source states no date: counted as old
    };
    Kind kind = Kind::PriceOutlier;
    std::string where; // "file: $.offers[1].prices[0]"
    /// The figures by name, from which the wording (ui/wording/CatalogText) says what is odd: undated: retrieved;
    /// stale: as_of, age_days, max_days; future: as_of, today; spot above on-demand: spot, on_demand, currency,
    /// region; outlier: value, currency, per ("hour" or "month"), factor, reference, others, mode, gpu, and
    /// cny_per_usd when converted.
    std::map<std::string, std::string> params;
};

/// "spot_above_on_demand", "price_outlier", "stale_price", "future_date", "undated_price".
const char* findingKindName(Finding::Kind kind);

struct CheckOptions
{
    std::string today; // YYYY-MM-DD; injectable so tests do not depend on the clock
    int maxPriceAgeDays = 365;
    double outlierFactor = 3.0;
    int minOtherProviders = 2; // fewer other providers of a GPU model and mode say nothing about what is normal
};

/// Today's date in UTC, YYYY-MM-DD.
std::string todayUtc();

/// Days from `from` to `to` (both YYYY-MM-DD); nullopt when either is not a valid date.
std::optional<int> daysBetween(const std::string& from, const std::string& to);

/// Runs every rule over every price of the catalog. The median rule compares a price per GPU-hour (per GPU-month
/// for subscriptions) with the median of the other providers' prices for the same GPU model and pricing mode,
/// each provider voting once with the median of its own; prices are converted to USD with the catalog's exchange
/// rate (without one, only prices in the same currency are compared). Thread safety: pure function of its
/// arguments.
std::vector<Finding> checkCatalog(const Catalog& catalog, const CheckOptions& options);

} // namespace gpuplan::core
