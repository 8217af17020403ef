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

#include "core/JsonChecker.h"

namespace gpuplan::core {

using nlohmann::json;
using Need = JsonChecker::Need;

namespace {

void readDefault(JsonChecker& check, const json& defaults, const char* key, OwnershipDefault& out)
{
    const json* node = check.object(defaults, key, "$.defaults", Need::Required);
    if (!node) {
        return;
    }
    const std::string at = JsonChecker::child("$.defaults", key);
    check.onlyKnownKeys(*node, at, {"value", "low", "high", "source"});
    std::optional<double> value = check.positiveNumber(*node, "value", at, Need::Required);
    std::optional<Source> source = readSource(check, *node, "source", at);
    if (!value || !source) {
        return;
    }
    out.value = Range{*value,
                      check.positiveNumber(*node, "low", at, Need::Optional).value_or(*value),
                      check.positiveNumber(*node, "high", at, Need::Optional).value_or(*value)};
    out.source = *source;
}

} // namespace

LoadedOwnership loadOwnership(const std::filesystem::path& catalogDir)
{
    LoadedOwnership loaded;
    const std::filesystem::path file = catalogDir / "ownership.json";
    Result<json> document = readJsonDocument(file);
    if (!document) {
        loaded.problems.push_back(document.error());
        return loaded;
    }
    JsonChecker check(file.string());
    OwnershipFacts& facts = loaded.facts;
    const json& root = *document;
    // wire: the schema tag a data file carries
    if (check.isObject(root, "$") && checkSchemaTag(check, root, "gpuplan-ownership/1")) {
        check.onlyKnownKeys(root, "$", {"schema", "defaults", "electricity", "systems"});
        if (const json* defaults = check.object(root, "defaults", "$", Need::Required)) {
            readDefault(check, *defaults, "depreciation_years", facts.depreciationYears);
            readDefault(check, *defaults, "maintenance_fraction_per_year", facts.maintenancePerYear);
            readDefault(check, *defaults, "utilisation", facts.utilisation);
            readDefault(check, *defaults, "pue", facts.pue);
        }
        if (const json* tariffs = check.array(root, "electricity", "$", Need::Optional)) {
            for (std::size_t i = 0; i < tariffs->size(); ++i) {
                const std::string at = JsonChecker::index("$.electricity", i);
                const json& node = (*tariffs)[i];
                if (!check.isObject(node, at)) {
                    continue;
                }
                check.onlyKnownKeys(node, at, {"id", "name", "name_zh", "price_per_kwh", "currency", "source"});
                ElectricityTariff t;
                t.id = check.string(node, "id", at, Need::Required).value_or("");
                t.name = check.string(node, "name", at, Need::Optional).value_or(t.id);
                t.nameZh = check.string(node, "name_zh", at, Need::Optional).value_or("");
                if (node.contains("price_per_kwh") && !node["price_per_kwh"].is_null()) {
                    t.pricePerKwh = check.positiveNumber(node, "price_per_kwh", at, Need::Required);
                }
                // wire: the values the file may hold, as it writes them (a reason parameter)
                t.currency = check.choice(node, "currency", at, Need::Required, parseCurrency, "USD, CNY")
                                 .value_or(Currency::CNY);
                // An unknown price has no page to cite; only a known one must say where it is from.
                if (t.pricePerKwh) {
                    t.source = readSource(check, node, "source", at).value_or(Source{});
                }
                facts.electricity.push_back(std::move(t));
            }
        }
        if (const json* systems = check.array(root, "systems", "$", Need::Optional)) {
            for (std::size_t i = 0; i < systems->size(); ++i) {
                const std::string at = JsonChecker::index("$.systems", i);
                const json& node = (*systems)[i];
                if (!check.isObject(node, at)) {
                    continue;
                }
                check.onlyKnownKeys(node, at, {"gpu", "gpus", "what", "price", "power_w", "source"});
                OwnedSystem s;
                std::optional<std::string> gpu = check.string(node, "gpu", at, Need::Required);
                std::optional<int> gpus = check.count(node, "gpus", at, Need::Required);
                std::optional<double> power = check.positiveNumber(node, "power_w", at, Need::Required);
                std::optional<Source> source = readSource(check, node, "source", at);
                const json* price = check.object(node, "price", at, Need::Required);
                std::optional<double> amount;
                std::optional<Currency> currency;
                if (price) {
                    const std::string pAt = JsonChecker::child(at, "price");
                    amount = check.positiveNumber(*price, "amount", pAt, Need::Required);
                    // wire: the values the file may hold, as it writes them (a reason parameter)
                    currency = check.choice(*price, "currency", pAt, Need::Required, parseCurrency, "USD, CNY");
                }
                if (gpu && gpus && power && source && amount && currency) {
                    facts.systems.push_back(OwnedSystem{*gpu,
                                                        *gpus,
                                                        check.string(node, "what", at, Need::Optional).value_or(*gpu),
                                                        *amount,
                                                        *currency,
                                                        *power,
                                                        *source});
                }
            }
        }
    }
    loaded.problems = check.takeProblems();
    return loaded;
}

} // namespace gpuplan::core
