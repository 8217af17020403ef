#include "gpuplan/cloud/LedgerActions.h"

#include "gpuplan/cloud/LaunchChoice.h"
#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/core/Log.h"
#include "gpuplan/core/Redaction.h"
#include "gpuplan/secrets/Credential.h"
#include "gpuplan/secrets/SignerCredentials.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace gpuplan::core {

Result<std::unique_ptr<CloudProvider>> connectProvider(const CloudAccess& access, HttpTransport& http, LaunchKind kind)
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
    context.settings = access.settings;
    return ProviderRegistry::builtIn().create(access.provider, std::move(context), kind);
}

Result<CloudAccess> cloudAccessFrom(const Credential& credential, std::string endpoint)
{
    Result<AccessKey> key = providerKeyFrom(credential);
    if (!key) {
        return key.error();
    }
    CloudAccess access{credential.provider(), std::move(key).value(), std::move(endpoint), {}};
    if (const CredentialSpec* spec = credential.spec()) {
        for (const CredentialFieldSpec& field : spec->fields) {
            if (field.kind == CredentialFieldKind::Plain && credential.has(field.name)) {
                const SecretString& value = credential.value(field.name);
                access.settings[std::string(field.name)] = std::string(value.data(), value.size());
            }
        }
    }
    return access;
}

namespace {

/// The entry a note is about: "entry" (its id) and "instance" (its instance id, empty until named).
Reason about(const char* key, const LedgerEntry& e)
{
    return Reason{key, {{"entry", std::to_string(e.id)}, {"instance", e.instanceId}}};
}

/// `error` inside a note: its reason (detailJson) and where.
void addError(Reason& note, const Error& error)
{
    note.params["error"] = detailJson(error.reason);
    note.params["where"] = error.where;
}

std::string entryWhere(const LedgerEntry& e)
{
    return "entry " + std::to_string(e.id) + (e.instanceId.empty() ? "" : " (" + e.instanceId + ")");
}

/// The catalog's price for an adopted entry, or why there is none.
Result<LaunchPrice> adoptedPrice(const LedgerEntry& e, const Catalog* catalog)
{
    if (!catalog) {
        return Error{ErrorCode::NotFound, Reason{"error.reconcile.no_catalog", {}}, entryWhere(e)};
    }
    const std::optional<PricingMode> mode = parsePricingMode(e.intent.pricingMode);
    if (!mode) {
        return Error{ErrorCode::NotFound,
                     Reason{"error.reconcile.payment_unknown", {{"provider", e.intent.provider}}},
                     entryWhere(e)};
    }
    return catalogLaunchPrice(*catalog, e.intent.provider, e.intent.instanceType, e.intent.region, *mode);
}

} // namespace

Result<std::vector<Reason>>
reconcileWithProvider(CloudProvider& provider, Ledger& ledger, const Catalog* catalog, std::int64_t now)
{
    Launcher launcher(provider, ledger, [now] { return now; });
    Result<Reconciliation> r = launcher.reconcile({}, nullptr);
    if (!r) {
        return r.error();
    }
    std::vector<Reason> notes;
    for (std::int64_t id : r->adopted) {
        notes.push_back(Reason{"reconcile.adopted", {{"provider", provider.id()}, {"entry", std::to_string(id)}}});
    }
    for (std::int64_t id : r->closed) {
        Result<std::optional<LedgerEntry>> closed = ledger.find(id);
        const bool failed = closed && *closed && (*closed)->state == InstanceState::Failed;
        if (closed && *closed && (*closed)->detail.key == "ledger.job_ended") {
            // A job ends by itself: how it ended, not "outside this program".
            notes.push_back(Reason{"reconcile.job_ended",
                                   {{"entry", std::to_string(id)},
                                    {"outcome",
                                     (*closed)->detail.params.count("outcome") ? (*closed)->detail.params.at("outcome")
                                                                               : std::string()}}});
            continue;
        }
        notes.push_back(
            failed ? Reason{"reconcile.closed_failed",
                            {{"entry", std::to_string(id)}, {"detail", detailJson((*closed)->detail)}}}
                   : Reason{"reconcile.ended_outside", {{"entry", std::to_string(id)}, {"provider", provider.id()}}});
    }
    for (std::int64_t id : r->updated) {
        Result<std::optional<LedgerEntry>> seen = ledger.find(id);
        if (seen && *seen && (*seen)->detail.key == "ledger.reopened") {
            notes.push_back(Reason{
                "reconcile.reopened",
                {{"entry", std::to_string(id)}, {"instance", (*seen)->instanceId}, {"provider", provider.id()}}});
        }
    }

    Result<std::vector<LedgerEntry>> entries = ledger.entries();
    if (!entries) {
        return entries.error();
    }
    for (const LedgerEntry& e : *entries) {
        if (e.intent.provider != provider.id() || e.intent.kind != provider.kind() || isFinal(e.state)) {
            continue;
        }
        // An adopted instance was recorded without a price: without one it costs nothing and no budget counts it.
        if (e.adopted && e.intent.price.amount <= 0) {
            const bool justAdopted = std::find(r->adopted.begin(), r->adopted.end(), e.id) != r->adopted.end();
            Result<LaunchPrice> price = adoptedPrice(e, catalog);
            if (price) {
                // The catalog's price: its pricing mode, type, region, amount, currency and unit.
                const std::map<std::string, std::string> what{
                    {"pricing_mode", e.intent.pricingMode},
                    {"instance_type", e.intent.instanceType},
                    {"region", e.intent.region},
                    {"amount", reasonNumber(price->amount)},
                    {"currency", currencyCode(price->currency)},
                    {"unit", price->unit == PriceUnit::Month ? "month" : "hour"}};
                Status set = ledger.setAdoptedPrice(e.id, *price, Reason{"ledger.adopted_priced", what});
                Reason note = about(set ? "reconcile.adopted_priced" : "reconcile.adopted_price_failed", e);
                if (set) {
                    note.params.insert(what.begin(), what.end());
                } else {
                    addError(note, set.error());
                }
                notes.push_back(std::move(note));
            } else if (justAdopted) {
                Reason note = about("reconcile.adopted_no_price", e);
                addError(note, price.error());
                notes.push_back(std::move(note));
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
        Reason note = about(ended ? "reconcile.deadman_terminated" : "reconcile.deadman_not_terminated", e);
        note.params["seconds"] = std::to_string(now - deadman);
        note.params["stopped"] = e.state == InstanceState::Stopped ? "true" : "false";
        if (!ended) {
            addError(note, ended.error());
        }
        notes.push_back(std::move(note));
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
    std::map<std::pair<std::string, LaunchKind>, std::unique_ptr<CloudProvider>> providers;
    for (const CloudAccess& a : access) {
        const ProviderDescriptor* descriptor = ProviderRegistry::builtIn().find(a.provider);
        for (LaunchKind kind : {LaunchKind::Instance, LaunchKind::Job}) {
            if (kind == LaunchKind::Job && !(descriptor && descriptor->managedJobs)) {
                continue;
            }
            Result<std::unique_ptr<CloudProvider>> provider = connectProvider(a, http, kind);
            if (!provider) {
                report.failures.emplace(a.provider, provider.error());
                break;
            }
            Result<std::vector<Reason>> notes = reconcileWithProvider(**provider, ledger, catalog, now);
            if (!notes) {
                logInfo(LogCategory::Cloud, [&] {
                    return "reconciling the ledger with " + a.provider + " (" + launchKindName(kind)
                           + "s) failed: " + describe(notes.error());
                });
                report.failures.emplace(a.provider, notes.error());
                break;
            }
            report.notes.insert(report.notes.end(), notes->begin(), notes->end());
            providers.emplace(std::pair(a.provider, kind), std::move(provider).value());
        }
    }
    Result<std::vector<PlanBudget>> budgets = ledger.budgets();
    Result<std::vector<LedgerEntry>> all = ledger.entries();
    const bool budgetsToGuard =
        budgets && std::any_of(budgets->begin(), budgets->end(), [](const PlanBudget& b) { return b.autoTerminate; });
    if (budgetsToGuard && !(rate && rate->cnyPerUsd > 0)) {
        // Said, never skipped in silence: the guard cannot compare spending in two currencies without a rate.
        report.notes.push_back(Reason{"reconcile.budgets_unchecked", {}});
    } else if (rate && budgets && all) {
        for (const LedgerEntry& e : overBudget(*all, *budgets, *rate, now)) {
            auto provider = providers.find(std::pair(e.intent.provider, e.intent.kind));
            if (provider == providers.end()) {
                continue; // not reconciled with it: its failure is reported above
            }
            logInfo(LogCategory::Cloud, [&] {
                return "plan " + e.intent.planId + " has spent its budget: terminating entry " + std::to_string(e.id);
            });
            Status ended = Launcher(*provider->second, ledger).terminate(e.id, nullptr);
            Reason note = about(ended ? "reconcile.budget_terminated" : "reconcile.budget_not_terminated", e);
            note.params["plan"] = e.intent.planId;
            if (!ended) {
                addError(note, ended.error());
            }
            report.notes.push_back(std::move(note));
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
    std::map<std::pair<std::string, LaunchKind>, std::unique_ptr<CloudProvider>> providers;
    for (std::int64_t id : entryIds) {
        Result<std::optional<LedgerEntry>> entry = ledger.find(id);
        if (!entry || !*entry) {
            failures.emplace(
                id,
                entry ? Error{ErrorCode::NotFound, Reason{"error.reconcile.no_entry", {}}, std::to_string(id)}
                      : entry.error());
            continue;
        }
        const std::string& providerId = (*entry)->intent.provider;
        std::unique_ptr<CloudProvider>& provider = providers[std::pair(providerId, (*entry)->intent.kind)];
        if (!provider) {
            auto a = std::find_if(
                access.begin(), access.end(), [&](const CloudAccess& c) { return c.provider == providerId; });
            Result<std::unique_ptr<CloudProvider>> made =
                a == access.end() ? Result<std::unique_ptr<CloudProvider>>(
                    Error{ErrorCode::Credentials, Reason{"error.reconcile.no_credential", {}}, providerId})
                                  : connectProvider(*a, http, (*entry)->intent.kind);
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
