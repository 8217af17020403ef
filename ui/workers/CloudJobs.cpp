#include "CloudJobs.h"

#include "secrets/CredentialStore.h"
#include "wording/ErrorText.h"

#include "gpuplan/secrets/SignerCredentials.h"

#include "gpuplan/cloud/LaunchWorkflow.h"
#include "gpuplan/cloud/ManagedJobService.h"
#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/cloud/PublicAddress.h"
#include "gpuplan/net/HttpClient.h"

#include <algorithm>
#include <set>

namespace gpuplan::ui {

core::Result<core::PreparedLaunch> prepareLaunch(core::LaunchPreparation preparation,
                                                 core::HttpOptions network,
                                                 std::shared_ptr<const core::Catalog> catalog,
                                                 std::string watchdogScript,
                                                 std::int64_t now)
{
    if (!catalog) {
        return core::Error{
            core::ErrorCode::FileUnreadable, core::Reason{"error.cloud.catalog_not_loaded", {}}, "catalog"};
    }
    core::initializeHttp();
    core::HttpClient http(network);
    return core::prepareLaunch(std::move(preparation), *catalog, watchdogScript, http, now);
}

core::Result<core::LaunchOutcome> runLaunch(core::CloudAccess access,
                                            core::HttpOptions network,
                                            core::LaunchOrder order,
                                            core::LaunchWaitOptions wait,
                                            std::filesystem::path ledgerFile,
                                            core::Prompter& prompter,
                                            std::shared_ptr<core::CancelToken> cancel,
                                            std::function<void(core::LaunchProgress)> onProgress,
                                            std::int64_t now)
{
    core::initializeHttp();
    core::HttpClient http(network);
    const core::LaunchKind kind = order.request.job ? core::LaunchKind::Job : core::LaunchKind::Instance;
    core::Result<std::unique_ptr<core::CloudProvider>> provider = core::connectProvider(access, http, kind);
    if (!provider) {
        return provider.error();
    }
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::Ledger::open(ledgerFile);
    if (!ledger) {
        return ledger.error();
    }
    return core::confirmAndLaunch(
        std::move(order),
        **provider,
        **ledger,
        wait,
        prompter,
        cancel.get(),
        [&](const core::LaunchProgress& p) {
            if (onProgress) {
                onProgress(p);
            }
        },
        now);
}

core::Result<JobLogRead> readJobLog(core::CloudAccess access,
                                    core::HttpOptions network,
                                    std::string region,
                                    std::string jobId,
                                    std::string after,
                                    std::shared_ptr<core::CancelToken> cancel)
{
    core::initializeHttp();
    core::HttpClient http(network);
    core::Result<std::unique_ptr<core::CloudProvider>> provider =
        core::connectProvider(access, http, core::LaunchKind::Job);
    if (!provider) {
        return provider.error();
    }
    auto* service = dynamic_cast<core::ManagedJobService*>(provider->get());
    if (!service) {
        return core::Error{core::ErrorCode::UnknownProvider,
                           core::Reason{"error.cloud.no_managed_jobs", {{"provider", access.provider}}},
                           access.provider};
    }
    JobLogRead read;
    core::Result<core::JobLogPage> page = service->logs(region, jobId, after, cancel.get());
    if (!page) {
        return page.error();
    }
    read.page = std::move(page).value();
    core::Result<core::RemoteInstance> job = service->describe(region, jobId, cancel.get());
    if (!job) {
        return job.error();
    }
    read.job = std::move(job).value();
    return read;
}

core::Result<LedgerSnapshot> readLedger(std::filesystem::path ledgerFile, std::int64_t now)
{
    std::error_code ec;
    if (!std::filesystem::exists(ledgerFile, ec)) {
        return LedgerSnapshot{{}, {}, {}, now}; // nothing launched yet: the ledger is made by the first launch
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
    core::Result<std::vector<core::RunRecord>> runs = (*ledger)->runs();
    if (!runs) {
        return runs.error();
    }
    snapshot.runs = std::move(runs).value();
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

core::ReconcileReport runReconcile(std::vector<core::CloudAccess> access,
                                   core::HttpOptions network,
                                   std::filesystem::path ledgerFile,
                                   std::shared_ptr<const core::Catalog> catalog,
                                   std::int64_t now)
{
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::Ledger::open(ledgerFile);
    if (!ledger) {
        core::ReconcileReport report;
        report.failures.emplace("ledger", ledger.error());
        return report;
    }
    core::initializeHttp();
    core::HttpClient http(network);
    const std::optional<core::ExchangeRate> rate = catalog ? catalog->exchangeRate() : std::nullopt;
    return core::reconcileLedger(access, **ledger, http, rate, now, catalog.get());
}

std::map<std::int64_t, core::Error> runTerminate(std::vector<std::int64_t> entryIds,
                                                 std::vector<core::CloudAccess> access,
                                                 core::HttpOptions network,
                                                 std::filesystem::path ledgerFile)
{
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::Ledger::open(ledgerFile);
    if (!ledger) {
        std::map<std::int64_t, core::Error> failures;
        for (std::int64_t id : entryIds) {
            failures.emplace(id, ledger.error());
        }
        return failures;
    }
    core::initializeHttp();
    core::HttpClient http(network);
    return core::terminateEntries(entryIds, access, **ledger, http);
}

void loadCloudAccess(CredentialStore* store,
                     std::vector<std::string> providers,
                     std::function<void(std::vector<core::CloudAccess>, std::map<std::string, core::Error>)> done)
{
    struct State
    {
        std::vector<std::string> todo;
        std::vector<core::CloudAccess> found;
        std::map<std::string, core::Error> failures;
        std::function<void(std::vector<core::CloudAccess>, std::map<std::string, core::Error>)> done;
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
        store->load(QString::fromStdString(provider),
                    [state, next, provider](core::Result<core::Credential> credential) {
                        core::Result<core::CloudAccess> access =
                            credential ? core::cloudAccessFrom(*credential, core::endpointOverride(provider))
                                       : core::Result<core::CloudAccess>(credential.error());
                        if (access) {
                            state->found.push_back(std::move(access).value());
                        } else {
                            state->failures.emplace(provider, access.error());
                        }
                        (*next)();
                    });
    };
    (*next)();
}

} // namespace gpuplan::ui
