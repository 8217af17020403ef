#include "CloudJobs.h"

#include "secrets/CredentialStore.h"

#include "gpuplan/secrets/SignerCredentials.h"

#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/cloud/PublicAddress.h"
#include "gpuplan/net/HttpClient.h"

#include <algorithm>
#include <set>

namespace gpuplan::ui {

namespace {

core::Result<std::unique_ptr<core::CloudProvider>> connect(const CloudAccess& access, core::HttpTransport& http)
{
    core::ProviderContext context;
    context.http = &http;
    context.key = access.key;
    context.endpoint = access.endpoint;
    return core::ProviderRegistry::builtIn().create(access.provider, std::move(context));
}

const CloudAccess* accessFor(const std::vector<CloudAccess>& access, const std::string& provider)
{
    auto it = std::find_if(access.begin(), access.end(), [&](const CloudAccess& a) { return a.provider == provider; });
    return it == access.end() ? nullptr : &*it;
}

} // namespace

core::Result<core::LaunchOrder> prepareLaunch(LaunchPreparation preparation,
                                              std::shared_ptr<const core::Catalog> catalog,
                                              std::string watchdogScript,
                                              std::int64_t now)
{
    core::LaunchSettings& settings = preparation.settings;
    core::Result<std::string> key = core::readPublicKeyFile(preparation.publicKeyFile);
    if (!key) {
        return key.error();
    }
    settings.sshPublicKey = *key;
    if (settings.sshSourceCidr.empty()) {
        core::initializeHttp();
        core::HttpClient http;
        core::Result<std::string> mine = core::publicAddressCidr(http);
        if (!mine) {
            core::Error e = mine.error();
            e.detail += "; type the address to open SSH to";
            return e;
        }
        settings.sshSourceCidr = *mine;
    }
    if (!catalog) {
        return core::Error{core::ErrorCode::FileUnreadable, "the catalog is not loaded", "catalog"};
    }
    core::Result<std::unique_ptr<core::CloudProvider>> provider =
        core::ProviderRegistry::builtIn().create(settings.provider, {});
    if (!provider) {
        return provider.error();
    }
    return core::makeLaunchOrder(settings, *catalog, watchdogScript, (*provider)->unsupportedFeatures(), now);
}

core::Result<core::LaunchOutcome> runLaunch(CloudAccess access,
                                            core::LaunchOrder order,
                                            core::LaunchWaitOptions wait,
                                            std::filesystem::path ledgerFile,
                                            std::shared_ptr<core::CancelToken> cancel,
                                            std::function<void(core::LaunchProgress)> onProgress)
{
    core::initializeHttp();
    core::HttpClient http;
    core::Result<std::unique_ptr<core::CloudProvider>> provider = connect(access, http);
    if (!provider) {
        return provider.error();
    }
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::Ledger::open(ledgerFile);
    if (!ledger) {
        return ledger.error();
    }
    core::Launcher launcher(**provider, **ledger);
    return launcher.launch(order, wait, cancel.get(), [&](const core::LaunchProgress& p) {
        if (onProgress) {
            onProgress(p);
        }
    });
}

core::Result<LedgerSnapshot> readLedger(std::filesystem::path ledgerFile, std::int64_t now)
{
    std::error_code ec;
    if (!std::filesystem::exists(ledgerFile, ec)) {
        return LedgerSnapshot{{}, {}, now}; // nothing launched yet: the ledger is made by the first launch
    }
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::Ledger::open(ledgerFile);
    if (!ledger) {
        return ledger.error();
    }
    LedgerSnapshot snapshot;
    snapshot.takenAt = now;
    core::Result<std::vector<core::LedgerEntry>> entries = (*ledger)->entries();
    if (!entries) {
        return entries.error();
    }
    snapshot.entries = std::move(entries).value();
    std::sort(
        snapshot.entries.begin(), snapshot.entries.end(), [](const auto& a, const auto& b) { return a.id > b.id; });
    core::Result<std::vector<core::PlanBudget>> budgets = (*ledger)->budgets();
    if (!budgets) {
        return budgets.error();
    }
    snapshot.budgets = std::move(budgets).value();
    return snapshot;
}

std::vector<std::string> ledgerProviders(const LedgerSnapshot& snapshot)
{
    std::set<std::string> ids;
    for (const core::LedgerEntry& e : snapshot.entries) {
        ids.insert(e.intent.provider);
    }
    return {ids.begin(), ids.end()};
}

ReconcileReport reconcileLedger(std::vector<CloudAccess> access,
                                std::filesystem::path ledgerFile,
                                std::optional<core::ExchangeRate> rate,
                                std::int64_t now)
{
    ReconcileReport report;
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::Ledger::open(ledgerFile);
    if (!ledger) {
        report.failures.emplace("ledger", ledger.error());
        return report;
    }
    core::initializeHttp();
    core::HttpClient http;
    std::map<std::string, std::unique_ptr<core::CloudProvider>> providers;
    for (const CloudAccess& a : access) {
        core::Result<std::unique_ptr<core::CloudProvider>> provider = connect(a, http);
        if (!provider) {
            report.failures.emplace(a.provider, provider.error());
            continue;
        }
        core::Launcher launcher(**provider, **ledger);
        core::Result<core::Reconciliation> r = launcher.reconcile({}, nullptr);
        if (!r) {
            report.failures.emplace(a.provider, r.error());
            continue;
        }
        for (std::int64_t id : r->adopted) {
            report.notes.push_back(a.provider + " runs an instance of ours the ledger did not have: recorded as entry "
                                   + std::to_string(id));
        }
        for (std::int64_t id : r->closed) {
            report.notes.push_back("entry " + std::to_string(id) + " ended at " + a.provider
                                   + " (outside this program): closed");
        }
        providers.emplace(a.provider, std::move(provider).value());
    }
    // The budget guard's automatic terminate, for the plans that asked for it.
    core::Result<std::vector<core::PlanBudget>> budgets = (*ledger)->budgets();
    core::Result<std::vector<core::LedgerEntry>> all = (*ledger)->entries();
    if (rate && budgets && all) {
        for (const core::LedgerEntry& e : core::overBudget(*all, *budgets, *rate, now)) {
            auto provider = providers.find(e.intent.provider);
            if (provider == providers.end()) {
                continue;
            }
            core::Status ended = core::Launcher(*provider->second, **ledger).terminate(e.id, nullptr);
            report.notes.push_back("plan " + e.intent.planId + " has spent its budget: entry " + std::to_string(e.id)
                                   + (ended ? " terminated" : " could NOT be terminated: " + ended.error().message()));
        }
    }
    return report;
}

std::map<std::int64_t, core::Error>
terminateEntries(std::vector<std::int64_t> entryIds, std::vector<CloudAccess> access, std::filesystem::path ledgerFile)
{
    std::map<std::int64_t, core::Error> failures;
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::Ledger::open(ledgerFile);
    if (!ledger) {
        for (std::int64_t id : entryIds) {
            failures.emplace(id, ledger.error());
        }
        return failures;
    }
    core::initializeHttp();
    core::HttpClient http;
    std::map<std::string, std::unique_ptr<core::CloudProvider>> providers;
    for (std::int64_t id : entryIds) {
        core::Result<std::optional<core::LedgerEntry>> entry = (*ledger)->find(id);
        if (!entry || !*entry) {
            failures.emplace(id,
                             entry ? core::Error{core::ErrorCode::NotFound, "no such ledger entry", std::to_string(id)}
                                   : entry.error());
            continue;
        }
        const std::string& providerId = (*entry)->intent.provider;
        auto& provider = providers[providerId];
        if (!provider) {
            const CloudAccess* a = accessFor(access, providerId);
            if (!a) {
                failures.emplace(id, core::Error{core::ErrorCode::Credentials, "no credential", providerId});
                continue;
            }
            core::Result<std::unique_ptr<core::CloudProvider>> made = connect(*a, http);
            if (!made) {
                failures.emplace(id, made.error());
                continue;
            }
            provider = std::move(made).value();
        }
        if (core::Status done = core::Launcher(*provider, **ledger).terminate(id, nullptr); !done) {
            failures.emplace(id, done.error());
        }
    }
    return failures;
}

void loadCloudAccess(CredentialStore* store,
                     std::vector<std::string> providers,
                     std::function<void(std::vector<CloudAccess>, std::map<std::string, core::Error>)> done)
{
    struct State
    {
        std::vector<std::string> todo;
        std::vector<CloudAccess> found;
        std::map<std::string, core::Error> failures;
        std::function<void(std::vector<CloudAccess>, std::map<std::string, core::Error>)> done;
    };
    auto state = std::make_shared<State>();
    state->todo = std::move(providers);
    std::reverse(state->todo.begin(), state->todo.end());
    state->done = std::move(done);
    auto next = std::make_shared<std::function<void()>>();
    *next = [store, state, next] {
        if (state->todo.empty()) {
            auto finish = std::move(state->done);
            finish(std::move(state->found), std::move(state->failures));
            *next = nullptr; // breaks the cycle
            return;
        }
        const std::string provider = state->todo.back();
        state->todo.pop_back();
        store->load(
            QString::fromStdString(provider), [state, next, provider](core::Result<core::Credential> credential) {
                core::Result<core::AccessKey> key =
                    credential ? core::accessKeyFrom(*credential) : core::Result<core::AccessKey>(credential.error());
                if (key) {
                    state->found.push_back(
                        CloudAccess{provider, std::move(key).value(), core::endpointOverride(provider)});
                } else {
                    state->failures.emplace(provider, key.error());
                }
                (*next)();
            });
    };
    (*next)();
}

} // namespace gpuplan::ui
