#pragma once

#include <optional>

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

} // namespace gpuplan::core
