#include "gpuplan/estimate/Ownership.h"

#include <algorithm>

namespace gpuplan::core {

namespace {

constexpr double kHoursPerMonth = 730;

double monthlyEnergy(const OwnershipInputs& in, double utilisation)
{
    return in.powerWatts / 1000 * in.pue * in.electricityPerKwh * kHoursPerMonth * utilisation;
}

double monthlyMaintenance(const OwnershipInputs& in)
{
    return in.purchasePrice * in.maintenancePerYear / 12;
}

} // namespace

double cumulativeOwnCost(const OwnershipInputs& in, double months)
{
    return in.purchasePrice + months * (monthlyMaintenance(in) + monthlyEnergy(in, in.utilisation));
}

double cumulativeRentCost(const OwnershipInputs& in, double rentPerGpuHour, double months)
{
    return months * rentPerGpuHour * in.gpus * kHoursPerMonth * in.utilisation;
}

OwnershipComparison compareOwnership(const OwnershipInputs& in, double rentPerGpuHour)
{
    OwnershipComparison c;
    const double lifeMonths = in.depreciationYears * 12;
    c.ownMonthlyFixed = in.purchasePrice / lifeMonths + monthlyMaintenance(in);
    c.ownMonthlyEnergy = monthlyEnergy(in, in.utilisation);
    c.rentMonthly = cumulativeRentCost(in, rentPerGpuHour, 1);
    const double busyGpuHours = in.gpus * kHoursPerMonth * in.utilisation;
    c.ownCostPerBusyGpuHour = busyGpuHours > 0 ? (c.ownMonthlyFixed + c.ownMonthlyEnergy) / busyGpuHours : 0;

    // Over the life, owning costs F + u E (F fixed per month, E energy per month at 100 %) and renting u R:
    // equal at u = F / (R - E).
    const double rentFull = rentPerGpuHour * in.gpus * kHoursPerMonth;
    const double energyFull = monthlyEnergy(in, 1);
    if (rentFull > energyFull) {
        const double u = c.ownMonthlyFixed / (rentFull - energyFull);
        if (u <= 1) {
            c.breakEvenUtilisation = u;
        }
    }
    // Cumulative: P + m (maintenance + energy) = m rent  ->  m = P / (rent - maintenance - energy).
    const double monthlyGain = c.rentMonthly - monthlyMaintenance(in) - c.ownMonthlyEnergy;
    if (monthlyGain > 0) {
        const double month = in.purchasePrice / monthlyGain;
        if (month <= lifeMonths) {
            c.breakEvenMonth = month;
        }
    }
    return c;
}

} // namespace gpuplan::core
