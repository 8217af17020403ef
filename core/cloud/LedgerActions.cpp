#include "gpuplan/cloud/LedgerActions.h"

#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/cloud/ProviderRegistry.h"

#include <algorithm>
#include <memory>

namespace gpuplan::core {

Result<std::unique_ptr<CloudProvider>> connectProvider(const CloudAccess& access, HttpTransport& http)
{
    ProviderContext context;
    context.http = &http;
    context.key = access.key;
    context.endpoint = access.endpoint;
    return ProviderRegistry::builtIn().create(access.provider, std::move(context));
}

ReconcileReport reconcileLedger(const std::vector<CloudAccess>& access,
                                Ledger& ledger,
                                HttpTransport& http,
                                const std::optional<ExchangeRate>& rate,
                                std::int64_t now)
{
    ReconcileReport report;
    std::map<std::string, std::unique_ptr<CloudProvider>> providers;
    for (const CloudAccess& a : access) {
        Result<std::unique_ptr<CloudProvider>> provider = connectProvider(a, http);
        if (!provider) {
            report.failures.emplace(a.provider, provider.error());
            continue;
        }
        Result<Reconciliation> r = Launcher(**provider, ledger).reconcile({}, nullptr);
        if (!r) {
            report.failures.emplace(a.provider, r.error());
            continue;
        }
        for (std::int64_t id : r->adopted) {
            report.notes.push_back(a.provider + " runs an instance of ours the ledger did not have; recorded as entry "
                                   + std::to_string(id));
        }
        for (std::int64_t id : r->closed) {
            Result<std::optional<LedgerEntry>> closed = ledger.find(id);
            const bool failed = closed && *closed && (*closed)->state == InstanceState::Failed;
            report.notes.push_back("entry " + std::to_string(id)
                                   + (failed ? " closed as failed: " + (*closed)->detail
                                             : " ended at " + a.provider + " (outside this program); closed"));
        }
        for (std::int64_t id : r->updated) {
            Result<std::optional<LedgerEntry>> seen = ledger.find(id);
            if (seen && *seen && (*seen)->detail.starts_with("reopened")) {
                report.notes.push_back("entry " + std::to_string(id) + " (" + (*seen)->instanceId + ") is live at "
                                       + a.provider + " after the ledger had closed it; reopened");
            }
        }
        providers.emplace(a.provider, std::move(provider).value());
    }
    Result<std::vector<PlanBudget>> budgets = ledger.budgets();
    Result<std::vector<LedgerEntry>> all = ledger.entries();
    if (rate && budgets && all) {
        for (const LedgerEntry& e : overBudget(*all, *budgets, *rate, now)) {
            auto provider = providers.find(e.intent.provider);
            if (provider == providers.end()) {
                continue; // not reconciled with it: its failure is reported above
            }
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
