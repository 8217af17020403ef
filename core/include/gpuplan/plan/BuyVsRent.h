#pragma once

#include "gpuplan/core/Reason.h"

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/estimate/Ownership.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// The user's side of buy-vs-rent (Settings): what the catalog cannot know.
struct BuyVsRentSettings
{
    std::optional<double> electricityPerKwh; // nullopt: unknown, energy is left out and the result says so
    Currency electricityCurrency = Currency::CNY;
    std::optional<double> pue;         // nullopt: ownership.json's default
    std::optional<double> utilisation; // nullopt: ownership.json's default
    int months = 0;                    // 0: the depreciation life
};

/// One way of paying for the same GPUs over the months.
struct CostLine
{
    std::string key;   // own, on_demand, reserved_1y, reserved_3y, subscription_monthly
    std::string offer; // "aws p4d.24xlarge (us-east-1)"; empty for own
    double upfront = 0;
    double monthly = 0;
    std::vector<double> cumulative;       // cost after month 0, 1, ..., months
    std::optional<double> breakEvenMonth; // when owning becomes cheaper than this line; nullopt: not in the horizon
    Source source;
};

/// Buying a server against renting its GPUs, month by month, in one currency.
struct BuyVsRent
{
    bool available = false;
    Reason unavailableReason; // "buy.no_server", "buy.no_on_demand_offer"
    OwnedSystem system;
    std::string gpuName;
    Currency currency = Currency::CNY;
    double utilisation = 0;
    double pue = 0;
    double maintenancePerYear = 0;
    double depreciationYears = 0;
    std::optional<double> electricityPerKwh; // in `currency`
    int months = 0;
    CostLine own;
    std::vector<CostLine> rent; // on-demand first
};

/// Compares the server of `preferredGpu` (or, when none is sold, the first server whose GPU has an on-demand
/// offer) with renting the same GPUs: on-demand at the utilisation, reservations and monthly subscriptions
/// paid every hour. Each rent line is the cheapest catalog price per GPU of its kind. Not available (with the
/// reason) when no server is in ownership.json or none of them can be rented.
BuyVsRent compareBuyVsRent(const Catalog& catalog,
                           const OwnershipFacts& facts,
                           const std::string& preferredGpu,
                           Currency currency,
                           const ExchangeRate& rate,
                           const BuyVsRentSettings& settings);

nlohmann::json buyVsRentJson(const BuyVsRent& comparison);

} // namespace gpuplan::core
