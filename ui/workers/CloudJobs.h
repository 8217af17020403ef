#pragma once

#include "gpuplan/catalog/Money.h"
#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/LaunchWorkflow.h"
#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/cloud/LedgerActions.h"
#include "gpuplan/cloud/ManagedJobService.h"
#include "gpuplan/core/Prompter.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/net/HttpClient.h"
#include "gpuplan/net/signers/Signing.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// The cloud work of the Launch and Instances pages. Each job blocks (network, SQLite) and is meant for a worker
// thread (a PageJob step, which also turns an exception from a library under core into an error); it takes and
// returns values only, opens its own ledger connection and HTTP client, and never touches a widget. The pages load the
// credentials on the UI thread (the keychain answers on the event loop) and hand the keys in.
namespace gpuplan::ui {

/// core::prepareLaunch through Settings -> Network (`network`, AppSettings::httpOptions).
core::Result<core::PreparedLaunch> prepareLaunch(core::LaunchPreparation preparation,
                                                 core::HttpOptions network,
                                                 std::shared_ptr<const core::Catalog> catalog,
                                                 std::string watchdogScript,
                                                 std::int64_t now);

/// core::confirmAndLaunch through the provider, recorded in `ledgerFile`: its current price, the confirmation
/// (`prompter`, asked from this worker thread), the launch. `onProgress` is called on the worker thread. Every job
/// reaches the provider through `network` (Settings -> Network).
core::Result<core::LaunchOutcome> runLaunch(core::CloudAccess access,
                                            core::HttpOptions network,
                                            core::LaunchOrder order,
                                            core::LaunchWaitOptions wait,
                                            std::filesystem::path ledgerFile,
                                            core::Prompter& prompter,
                                            std::shared_ptr<core::CancelToken> cancel,
                                            std::function<void(core::LaunchProgress)> onProgress,
                                            std::int64_t now);

/// A page of a managed job's log and the job as its service reports it now.
struct JobLogRead
{
    core::JobLogPage page;
    core::RemoteInstance job;
};
/// The log of job `jobId` after `after` (a JobLogPage::next; empty: from its start), from the cloud's managed job
/// service, and the job's state.
core::Result<JobLogRead> readJobLog(core::CloudAccess access,
                                    core::HttpOptions network,
                                    std::string region,
                                    std::string jobId,
                                    std::string after,
                                    std::shared_ptr<core::CancelToken> cancel);

/// What the ledger holds, with the plans' budgets; empty when there is no ledger file yet (none is made).
struct LedgerSnapshot
{
    std::vector<core::LedgerEntry> entries; // every entry, newest first
    std::vector<core::PlanBudget> budgets;
    std::vector<core::RunRecord> runs; // oldest first
    std::int64_t takenAt = 0;          // Unix seconds
};
core::Result<LedgerSnapshot> readLedger(std::filesystem::path ledgerFile, std::int64_t now);

/// The providers the ledger has launched with (whose credentials reconciliation needs).
std::vector<std::string> ledgerProviders(const LedgerSnapshot& snapshot);

/// core::reconcileLedger on the ledger in `ledgerFile` (a failure to open it is reported under "ledger"), with the
/// catalog's exchange rate for the budgets and its prices for adopted instances (none when `catalog` is null).
core::ReconcileReport runReconcile(std::vector<core::CloudAccess> access,
                                   core::HttpOptions network,
                                   std::filesystem::path ledgerFile,
                                   std::shared_ptr<const core::Catalog> catalog,
                                   std::int64_t now);

/// core::terminateEntries on the ledger in `ledgerFile`.
std::map<std::int64_t, core::Error> runTerminate(std::vector<std::int64_t> entryIds,
                                                 std::vector<core::CloudAccess> access,
                                                 core::HttpOptions network,
                                                 std::filesystem::path ledgerFile);

class CredentialStore;

/// Loads each provider's credential from `store` (asynchronously, on the UI thread) and calls `done` with the keys
/// it found and, by provider, why the others could not be had. The endpoint comes from core::endpointOverride.
void loadCloudAccess(CredentialStore* store,
                     std::vector<std::string> providers,
                     std::function<void(std::vector<core::CloudAccess>, std::map<std::string, core::Error>)> done);

} // namespace gpuplan::ui
