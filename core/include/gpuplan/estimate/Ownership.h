#pragma once

#include "gpuplan/catalog/Money.h"
#include "gpuplan/catalog/Source.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/estimate/Range.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// A self-built GPU server room, all money in one currency.
struct OwnershipInputs
{
    double purchasePrice = 0;      // servers with their GPUs
    int gpus = 0;                  // GPUs bought
    double powerWatts = 0;         // the servers' draw at full load
    double pue = 1;                // power usage effectiveness of the room
    double electricityPerKwh = 0;  // price of one kWh
    double maintenancePerYear = 0; // fraction of the purchase price spent each year (support, repairs, admin)
    double depreciationYears = 4;  // useful life
    double utilisation = 1;        // share of hours the GPUs are busy (0..1]; energy is counted for busy hours
};

/// Owning against renting the same number of GPUs at `rentPerGpuHour`, for the same busy hours.
struct OwnershipComparison
{
    double ownMonthlyFixed = 0;       // depreciation + maintenance per month (730 h)
    double ownMonthlyEnergy = 0;      // electricity per month at the utilisation
    double rentMonthly = 0;           // renting the busy GPU-hours of a month
    double ownCostPerBusyGpuHour = 0; // own total over its life / busy GPU-hours over its life
    /// The utilisation at which owning over its life costs as much as renting; nullopt when renting is
    /// cheaper even at 100 % (or electricity alone costs more than the rent).
    std::optional<double> breakEvenUtilisation;
    /// Months after which the cumulative rent exceeds purchase + running costs at this utilisation;
    /// nullopt when that never happens within the depreciation life.
    std::optional<double> breakEvenMonth;
};

/// Cumulative costs after `months`: own = purchase + months * (maintenance + energy); rent = months * rent.
double cumulativeOwnCost(const OwnershipInputs& inputs, double months);
double cumulativeRentCost(const OwnershipInputs& inputs, double rentPerGpuHour, double months);

OwnershipComparison compareOwnership(const OwnershipInputs& inputs, double rentPerGpuHour);

/// A GPU server one can buy, with its sourced price and power draw (ownership.json `systems`).
struct OwnedSystem
{
    std::string gpuId;
    int gpus = 0;
    std::string what;
    double price = 0;
    Currency currency = Currency::USD;
    double powerWatts = 0;
    Source source;
};

/// An electricity tariff; the price is nullopt where no source was read (the user enters theirs).
struct ElectricityTariff
{
    std::string id;
    std::string name;
    std::string nameZh;
    std::optional<double> pricePerKwh;
    Currency currency = Currency::CNY;
    Source source;
};

/// A sourced default of the ownership model.
struct OwnershipDefault
{
    Range value;
    Source source;
};

/// What resources/catalog/ownership.json (schema gpuplan-ownership/1) says.
struct OwnershipFacts
{
    OwnershipDefault depreciationYears{Range::exact(5), {}};
    OwnershipDefault maintenancePerYear{Range::exact(0.1), {}};
    OwnershipDefault utilisation{Range::exact(0.5), {}};
    OwnershipDefault pue{Range::exact(1.5), {}};
    std::vector<ElectricityTariff> electricity;
    std::vector<OwnedSystem> systems;
};

struct LoadedOwnership
{
    OwnershipFacts facts;
    std::vector<Error> problems; // each names the file and JSON path
};

/// Reads `ownership.json` in the catalog folder. A missing or broken file gives the built-in defaults, no
/// systems, and the problem.
LoadedOwnership loadOwnership(const std::filesystem::path& catalogDir);

} // namespace gpuplan::core
