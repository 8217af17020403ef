#include "gpuplan/cloud/LedgerActions.h"

#include "gpuplan/cloud/LaunchChoice.h"
#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/core/Log.h"
#include "gpuplan/core/Redaction.h"
#include "gpuplan/secrets/Credential.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace gpuplan::core {

Result<std::unique_ptr<CloudProvider>> connectProvider(const CloudAccess& access, HttpTransport& http)
{
    // Every key that signs for a provider passes here, whoever made it: it cannot reach the log from now on.
    registerSecret(access.key.secret);
    registerSecret(access.key.sessionToken);
    if (const std::string masked = maskKeyId(access.key.id); !masked.empty()) {
        registerSecret(access.key.id, masked);
    }
    logDebug(LogCategory::Cloud, [&] {
        return "connecting to " + access.provider + " as " + maskKeyId(access.key.id)
               + (access.endpoint.empty() ? "" : " at " + access.endpoint);
    });
    ProviderContext context;
    context.http = &http;
    context.key = access.key;
    context.endpoint = access.endpoint;
    return ProviderRegistry::builtIn().create(access.provider, std::move(context));
}

namespace {

/// "45 min", "3 h 05 min".
std::string durationWords(std::int64_t seconds)
{
    const std::int64_t minutes = std::max<std::int64_t>(0, seconds) / 60;
    if (minutes < 120) {
        return std::to_string(minutes) + " min";
    }
    const std::int64_t rest = minutes % 60;
    return std::to_string(minutes / 60) + " h " + (rest < 10 ? "0" : "") + std::to_string(rest) + " min";
}

std::string entryName(const LedgerEntry& e)
{
    return "entry " + std::to_string(e.id) + (e.instanceId.empty() ? "" : " (" + e.instanceId + ")");
}

/// The catalog's price for an adopted entry, or why there is none.
Result<LaunchPrice> adoptedPrice(const LedgerEntry& e, const Catalog* catalog)
{
    if (!catalog) {
        return Error{ErrorCode::NotFound, "no catalog was loaded", entryName(e)};
    }
    const std::optional<PricingMode> mode = parsePricingMode(e.intent.pricingMode);
    if (!mode) {
        return Error{ErrorCode::NotFound,
                     e.intent.provider + " does not say how it is paid for (a prepaid instance's period is not listed)",
                     entryName(e)};
    }
    return catalogLaunchPrice(*catalog, e.intent.provider, e.intent.instanceType, e.intent.region, *mode);
}

} // namespace

Result<std::vector<std::string>>
reconcileWithProvider(CloudProvider& provider, Ledger& ledger, const Catalog* catalog, std::int64_t now)
{
    Launcher launcher(provider, ledger, [now] { return now; });
    Result<Reconciliation> r = launcher.reconcile({}, nullptr);
    if (!r) {
        return r.error();
    }
    std::vector<std::string> notes;
    for (std::int64_t id : r->adopted) {
        notes.push_back(provider.id() + " runs an instance of ours the ledger did not have; recorded as entry "
                        + std::to_string(id));
    }
    for (std::int64_t id : r->closed) {
        Result<std::optional<LedgerEntry>> closed = ledger.find(id);
        const bool failed = closed && *closed && (*closed)->state == InstanceState::Failed;
        notes.push_back("entry " + std::to_string(id)
                        + (failed ? " closed as failed: " + (*closed)->detail
                                  : " ended at " + provider.id() + " (outside this program); closed"));
    }
    for (std::int64_t id : r->updated) {
        Result<std::optional<LedgerEntry>> seen = ledger.find(id);
        if (seen && *seen && (*seen)->detail.starts_with("reopened")) {
            notes.push_back("entry " + std::to_string(id) + " (" + (*seen)->instanceId + ") is live at " + provider.id()
                            + " after the ledger had closed it; reopened");
        }
    }

    Result<std::vector<LedgerEntry>> entries = ledger.entries();
    if (!entries) {
        return entries.error();
    }
    for (const LedgerEntry& e : *entries) {
        if (e.intent.provider != provider.id() || isFinal(e.state)) {
            continue;
        }
        // An adopted instance was recorded without a price: without one it costs nothing and no budget counts it.
        if (e.adopted && e.intent.price.amount <= 0) {
            const bool justAdopted = std::find(r->adopted.begin(), r->adopted.end(), e.id) != r->adopted.end();
            Result<LaunchPrice> price = adoptedPrice(e, catalog);
            const std::string what =
                e.intent.pricingMode + " price of " + e.intent.instanceType + " in " + e.intent.region;
            if (price) {
                const std::string amount =
                    formatMoney(price->amount, price->currency) + (price->unit == PriceUnit::Month ? "/month" : "/h");
                Status set = ledger.setAdoptedPrice(e.id,
                                                    *price,
                                                    "found at the provider by reconciliation; costed at the catalog's "
                                                        + what + ", " + amount + " (its price at launch is unknown)");
                notes.push_back(entryName(e) + ", adopted, "
                                + (set ? "is costed at the catalog's " + what + ": " + amount
                                       : "could not be given the catalog's price: " + set.error().message()));
            } else if (justAdopted) {
                notes.push_back(entryName(e) + ", adopted: no price is known for it (" + price.error().message()
                                + "), so its cost and the budgets leave it out");
            }
        }
        // The backstop of the dead-man: the watchdog inside should have ended it long ago.
        const bool stillThere =
            e.state == InstanceState::Pending || e.state == InstanceState::Running || e.state == InstanceState::Stopped;
        if (e.intent.deadmanHours <= 0 || !e.runningSince || e.instanceId.empty() || !stillThere) {
            continue;
        }
        const std::int64_t deadman = *e.runningSince + std::llround(e.intent.deadmanHours * 3600);
        if (now < deadman + kDeadmanBackstopSeconds) {
            continue;
        }
        Status ended = launcher.terminate(e.id, nullptr);
        notes.push_back(
            "the dead-man of " + entryName(e) + " passed " + durationWords(now - deadman) + " ago and the "
            + (e.state == InstanceState::Stopped ? "instance is still there (stopped)" : "instance still runs")
            + (ended ? ": terminated it" : ": could NOT terminate it: " + ended.error().message()));
    }
    return notes;
}

ReconcileReport reconcileLedger(const std::vector<CloudAccess>& access,
                                Ledger& ledger,
                                HttpTransport& http,
                                const std::optional<ExchangeRate>& rate,
                                std::int64_t now,
                                const Catalog* catalog)
{
    ReconcileReport report;
    std::map<std::string, std::unique_ptr<CloudProvider>> providers;
    for (const CloudAccess& a : access) {
        Result<std::unique_ptr<CloudProvider>> provider = connectProvider(a, http);
        if (!provider) {
            report.failures.emplace(a.provider, provider.error());
            continue;
        }
        Result<std::vector<std::string>> notes = reconcileWithProvider(**provider, ledger, catalog, now);
        if (!notes) {
            logInfo(LogCategory::Cloud, [&] {
                return "reconciling the ledger with " + a.provider + " failed: " + notes.error().message();
            });
            report.failures.emplace(a.provider, notes.error());
            continue;
        }
        report.notes.insert(report.notes.end(), notes->begin(), notes->end());
        providers.emplace(a.provider, std::move(provider).value());
    }
    Result<std::vector<PlanBudget>> budgets = ledger.budgets();
    Result<std::vector<LedgerEntry>> all = ledger.entries();
    const bool budgetsToGuard =
        budgets && std::any_of(budgets->begin(), budgets->end(), [](const PlanBudget& b) { return b.autoTerminate; });
    if (budgetsToGuard && !(rate && rate->cnyPerUsd > 0)) {
        // Said, never skipped in silence: the guard cannot compare spending in two currencies without a rate.
        report.notes.push_back("the plans' budgets were NOT checked: the catalog has no USD-CNY exchange rate "
                               "(exchange_rate.json in the catalog folder)");
    } else if (rate && budgets && all) {
        for (const LedgerEntry& e : overBudget(*all, *budgets, *rate, now)) {
            auto provider = providers.find(e.intent.provider);
            if (provider == providers.end()) {
                continue; // not reconciled with it: its failure is reported above
            }
            logInfo(LogCategory::Cloud, [&] {
                return "plan " + e.intent.planId + " has spent its budget: terminating entry " + std::to_string(e.id);
            });
            Status ended = Launcher(*provider->second, ledger).terminate(e.id, nullptr);
            report.notes.push_back("plan " + e.intent.planId + " has spent its budget: entry " + std::to_string(e.id)
                                   + " (" + e.instanceId + ") "
                                   + (ended ? "terminated" : "could NOT be terminated: " + ended.error().message()));
        }
    }
    return report;
}

std::map<std::int64_t, Error> terminateEntries(const std::vector<std::int64_t>& entryIds,
                                               const std::vector<CloudAccess>& access,
                                               Ledger& ledger,
                                               HttpTransport& http)
{
    std::map<std::int64_t, Error> failures;
    std::map<std::string, std::unique_ptr<CloudProvider>> providers;
    for (std::int64_t id : entryIds) {
        Result<std::optional<LedgerEntry>> entry = ledger.find(id);
        if (!entry || !*entry) {
            failures.emplace(
                id, entry ? Error{ErrorCode::NotFound, "no such ledger entry", std::to_string(id)} : entry.error());
            continue;
        }
        const std::string& providerId = (*entry)->intent.provider;
        std::unique_ptr<CloudProvider>& provider = providers[providerId];
        if (!provider) {
            auto a = std::find_if(
                access.begin(), access.end(), [&](const CloudAccess& c) { return c.provider == providerId; });
            Result<std::unique_ptr<CloudProvider>> made =
                a == access.end()
                    ? Result<std::unique_ptr<CloudProvider>>(Error{ErrorCode::Credentials, "no credential", providerId})
                    : connectProvider(*a, http);
            if (!made) {
                failures.emplace(id, made.error());
                continue;
            }
            provider = std::move(made).value();
        }
        if (Status done = Launcher(*provider, ledger).terminate(id, nullptr); !done) {
            failures.emplace(id, done.error());
        }
    }
    return failures;
}

} // namespace gpuplan::core
