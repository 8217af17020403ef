// `gpuplan instances` (the ledger after reconciling it with each provider it names) and `gpuplan terminate`: what
// follows a launch. `launch` is in LaunchCommands.cpp.
#include "LaunchCommands.h"

#include "CredsCommands.h"
#include "LaunchCommandParts.h"
#include "TerminalOutput.h"
#include "TextTable.h"

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/cloud/LedgerActions.h"
#include "gpuplan/cloud/ManagedJobService.h"
#include "gpuplan/core/Text.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/run/RunWorkflow.h"

#include <QCoreApplication>

#include <algorithm>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include <unistd.h>

namespace gpuplan::cli {

using launching::badInput;
using launching::cloudAccess;
using launching::confirm;
using launching::entryJson;
using launching::fail;
using launching::httpOptions;
using launching::json;
using launching::money;

namespace {

std::string durationText(std::int64_t seconds)
{
    if (seconds < 0) {
        return "-";
    }
    const std::int64_t h = seconds / 3600;
    const std::int64_t m = (seconds % 3600) / 60;
    return std::to_string(h) + "h" + (m < 10 ? "0" : "") + std::to_string(m) + "m";
}

/// Reconciles every provider the ledger names, then ends the instances of plans that spent their budget
/// (core::reconcileLedger), saying what changed on stderr; false when a provider could not be asked.
bool reconcileAll(core::Ledger& ledger,
                  core::HttpClient& http,
                  ui::CredentialStore& store,
                  const core::Catalog* catalog)
{
    std::set<std::string> providers;
    if (core::Result<std::vector<core::LedgerEntry>> all = ledger.entries(); all) {
        for (const core::LedgerEntry& e : *all) {
            providers.insert(e.intent.provider);
        }
    }
    std::vector<core::CloudAccess> access;
    bool complete = true;
    for (const std::string& id : providers) {
        core::Result<core::CloudAccess> a = cloudAccess(id, store);
        if (!a) {
            std::cerr << "gpuplan: not reconciled with " << id << ": " << said(a.error()) << '\n';
            complete = false;
            continue;
        }
        access.push_back(std::move(a).value());
    }
    const std::optional<core::ExchangeRate> rate = catalog ? catalog->exchangeRate() : std::nullopt;
    const core::ReconcileReport report = core::reconcileLedger(access, ledger, http, rate, core::unixNow(), catalog);
    for (const auto& [id, error] : report.failures) {
        std::cerr << "gpuplan: not reconciled with " << id << ": " << said(error) << '\n';
        complete = false;
    }
    for (const core::Reason& note : report.notes) {
        std::cerr << "gpuplan: " << ui::errorReasonText(note).toStdString() << '\n';
    }
    return complete;
}

/// An entry's state as the table shows it: a job that ended says how ("succeeded", "cancelled", "failed").
std::string stateText(const core::LedgerEntry& e)
{
    std::string state = core::instanceStateName(e.state);
    if (e.intent.kind == core::LaunchKind::Job) {
        const auto outcome = e.detail.params.find("outcome");
        if (core::isFinal(e.state) && e.detail.key == "ledger.job_ended" && outcome != e.detail.params.end()
            && !outcome->second.empty()) {
            state = outcome->second;
        }
        state = "job " + state;
    }
    return state + (e.adopted ? " (adopted)" : "");
}

} // namespace

int runInstances(int& argc, char** argv, const CatalogOptions& catalogOptions, const InstancesOptions& options)
{
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::openDefaultLedger();
    if (!ledger) {
        return fail(ledger.error());
    }
    std::optional<QCoreApplication> app;
    makeApplication(argc, argv, app);
    bool incomplete = false;
    if (options.reconcile) {
        core::Result<core::HttpOptions> network = httpOptions(options.network);
        if (!network) {
            return fail(network.error());
        }
        core::initializeHttp();
        core::HttpClient http(*network);
        std::unique_ptr<ui::CredentialStore> store = openCredentialStore();
        core::Result<core::LoadedCatalog> catalog = core::loadCatalog(catalogOptions.catalogDir);
        incomplete = !reconcileAll(**ledger, http, *store, catalog ? &catalog->catalog : nullptr);
    }
    core::Result<std::vector<core::LedgerEntry>> entries = options.all ? (*ledger)->entries() : (*ledger)->live();
    if (!entries) {
        return fail(entries.error());
    }
    const std::int64_t now = core::unixNow();
    if (options.json) {
        json list = json::array();
        for (const core::LedgerEntry& e : *entries) {
            list.push_back(entryJson(e, now));
        }
        std::cout << json{{"reconciled", options.reconcile && !incomplete}, {"instances", list}}.dump(2) << '\n';
        return kExitOk;
    }
    if (entries->empty()) {
        std::cout << (options.all ? "The ledger is empty.\n" : "Nothing is running.\n");
        return kExitOk;
    }
    TextTable table({{"Entry", TextTable::Align::Right},
                     {"Provider"},
                     {"Zone"},
                     {"Instance"},
                     {"Mode"},
                     {"State"},
                     {"Instance ID"},
                     {"Up", TextTable::Align::Right},
                     {"Cost so far", TextTable::Align::Right},
                     {"Dead-man in", TextTable::Align::Right}});
    for (const core::LedgerEntry& e : *entries) {
        const std::int64_t up = e.runningSince ? e.endedAt.value_or(now) - *e.runningSince : -1;
        table.addRow(
            {std::to_string(e.id),
             e.intent.provider,
             e.intent.zone.empty() ? e.intent.region : e.intent.zone,
             e.intent.instanceType,
             e.intent.pricingMode,
             stateText(e),
             e.instanceId.empty() ? "-" : e.instanceId,
             durationText(up),
             money(core::costSoFar(e, now), e.intent.price.currency),
             e.intent.deadmanHours > 0 ? durationText(core::secondsUntilDeadman(e, now).value_or(-1)) : "off"});
    }
    table.print(std::cout);
    if (incomplete) {
        std::cout << "(Not reconciled with every provider: see above. The table is what the ledger knows.)\n";
    }
    return kExitOk;
}

int runTerminate(int& argc, char** argv, const TerminateOptions& options)
{
    if (options.all == !options.target.empty()) {
        return badInput("terminate needs one ledger entry or instance id, or --all");
    }
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::openDefaultLedger();
    if (!ledger) {
        return fail(ledger.error());
    }
    core::Result<std::vector<core::LedgerEntry>> live = (*ledger)->live();
    if (!live) {
        return fail(live.error());
    }
    std::vector<core::LedgerEntry> chosen;
    for (const core::LedgerEntry& e : *live) {
        if (options.all || std::to_string(e.id) == options.target || e.instanceId == options.target) {
            chosen.push_back(e);
        }
    }
    if (chosen.empty()) {
        if (options.all) {
            std::cout << "Nothing is running.\n";
            return kExitOk;
        }
        return badInput("no live ledger entry or instance " + options.target + " (see `gpuplan instances`)");
    }
    if (options.all && !options.yes) {
        if (!isatty(STDIN_FILENO)) {
            return badInput("add --yes to terminate all " + std::to_string(chosen.size())
                            + " instances without being asked (stdin is not a terminal)");
        }
        if (!confirm("Terminate all " + std::to_string(chosen.size()) + " instances?")) {
            return kExitFailure;
        }
    }
    // A run's results still on the instance are lost with it: say which, and ask (or refuse without a terminal).
    if (core::Result<std::vector<core::RunRecord>> runs = (*ledger)->runs(); runs && !options.yes) {
        std::vector<core::RunRecord> atRisk;
        for (const core::LedgerEntry& e : chosen) {
            const std::vector<core::RunRecord> some = core::runsWithResultsAtRisk(*runs, e.id);
            atRisk.insert(atRisk.end(), some.begin(), some.end());
        }
        if (!atRisk.empty()) {
            std::string which;
            for (const core::RunRecord& run : atRisk) {
                which += (which.empty() ? "" : ", ") + std::to_string(run.id);
            }
            std::cerr << "The results of run " << which << " are not downloaded yet (`gpuplan run --download RUN`); "
                      << "terminating loses them.\n";
            if (!isatty(STDIN_FILENO)) {
                return badInput("add --yes to terminate anyway (stdin is not a terminal)");
            }
            if (!confirm("Terminate anyway?")) {
                return kExitFailure;
            }
        }
    }
    std::optional<QCoreApplication> app;
    makeApplication(argc, argv, app);
    core::Result<core::HttpOptions> network = httpOptions(options.network);
    if (!network) {
        return fail(network.error());
    }
    core::initializeHttp();
    core::HttpClient http(*network);
    std::unique_ptr<ui::CredentialStore> store = openCredentialStore();
    std::vector<core::CloudAccess> access;
    std::map<std::string, core::Error> noAccess;
    std::vector<std::int64_t> ids;
    for (const core::LedgerEntry& e : chosen) {
        ids.push_back(e.id);
        const std::string& id = e.intent.provider;
        const bool known = noAccess.count(id) || std::any_of(access.begin(), access.end(), [&](const auto& a) {
                               return a.provider == id;
                           });
        if (!known) {
            core::Result<core::CloudAccess> a = cloudAccess(id, *store);
            if (a) {
                access.push_back(std::move(a).value());
            } else {
                noAccess.emplace(id, a.error());
            }
        }
    }
    const std::map<std::int64_t, core::Error> failures = core::terminateEntries(ids, access, **ledger, http);
    int exit = kExitOk;
    for (const core::LedgerEntry& e : chosen) {
        const auto failed = failures.find(e.id);
        if (failed != failures.end()) {
            const auto why = noAccess.find(e.intent.provider);
            std::cerr << "gpuplan: entry " << e.id << " (" << e.instanceId
                      << "): " << said(why != noAccess.end() ? why->second : failed->second) << '\n';
            exit = kExitFailure;
            continue;
        }
        core::Result<std::optional<core::LedgerEntry>> after = (*ledger)->find(e.id);
        const char* state = after && after->has_value() ? core::instanceStateName((*after)->state) : "terminating";
        std::cout << "Entry " << e.id << " (" << (e.instanceId.empty() ? "never started" : e.instanceId)
                  << "): " << state << '\n';
    }
    return exit;
}

int runLogs(int& argc, char** argv, const LogsOptions& options)
{
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::openDefaultLedger();
    if (!ledger) {
        return fail(ledger.error());
    }
    core::Result<std::vector<core::LedgerEntry>> all = (*ledger)->entries();
    if (!all) {
        return fail(all.error());
    }
    std::optional<core::LedgerEntry> entry;
    for (const core::LedgerEntry& e : *all) {
        if (std::to_string(e.id) == options.target || (!e.instanceId.empty() && e.instanceId == options.target)) {
            entry = e;
        }
    }
    if (!entry) {
        return badInput("no ledger entry or job " + options.target + " (see `gpuplan instances --all`)");
    }
    if (entry->intent.kind != core::LaunchKind::Job) {
        return badInput("entry " + std::to_string(entry->id)
                        + " is an instance, not a managed job: its output is on "
                          "the machine (gpuplan probe --instance "
                        + std::to_string(entry->id) + ", or ssh)");
    }
    if (entry->instanceId.empty()) {
        return badInput("entry " + std::to_string(entry->id)
                        + " has no job id yet: its submission's outcome is "
                          "unknown (gpuplan instances reconciles it)");
    }
    std::optional<QCoreApplication> app;
    makeApplication(argc, argv, app);
    core::Result<core::HttpOptions> network = httpOptions(options.network);
    if (!network) {
        return fail(network.error());
    }
    core::initializeHttp();
    core::HttpClient http(*network);
    std::unique_ptr<ui::CredentialStore> store = openCredentialStore();
    core::Result<core::CloudAccess> access = cloudAccess(entry->intent.provider, *store);
    if (!access) {
        return fail(access.error());
    }
    core::Result<std::unique_ptr<core::CloudProvider>> provider =
        core::connectProvider(*access, http, core::LaunchKind::Job);
    if (!provider) {
        return fail(provider.error());
    }
    auto* service = dynamic_cast<core::ManagedJobService*>(provider->get());
    if (!service) {
        return fail(core::Error{core::ErrorCode::UnknownProvider,
                                core::Reason{"error.cloud.no_managed_jobs", {{"provider", entry->intent.provider}}},
                                entry->intent.provider});
    }
    const std::string& region = entry->intent.region;
    std::string cursor;
    for (;;) {
        core::Result<core::JobLogPage> page = service->logs(region, entry->instanceId, cursor, nullptr);
        if (!page) {
            return fail(page.error());
        }
        for (const core::JobLogLine& line : page->lines) {
            std::cout << core::terminalSafe(line.text) << '\n';
        }
        std::cout.flush();
        const bool more = page->next != cursor;
        cursor = page->next;
        if (!options.follow || more) {
            if (!options.follow) {
                break;
            }
            continue; // read on at once while there is more
        }
        core::Result<core::RemoteInstance> job = service->describe(region, entry->instanceId, nullptr);
        if (!job) {
            return fail(job.error());
        }
        if (core::isFinal(job->state)) {
            // Its last lines may have arrived while it ended: one more read, then the ledger hears how it ended.
            core::Result<core::JobLogPage> last = service->logs(region, entry->instanceId, cursor, nullptr);
            if (last) {
                for (const core::JobLogLine& line : last->lines) {
                    std::cout << core::terminalSafe(line.text) << '\n';
                }
            }
            core::Result<std::vector<core::Reason>> notes =
                core::reconcileWithProvider(**provider, **ledger, nullptr, core::unixNow());
            std::cerr << "gpuplan: job " << entry->instanceId << " ended (" << job->providerState << ")\n";
            if (notes) {
                for (const core::Reason& note : *notes) {
                    std::cerr << "gpuplan: " << ui::errorReasonText(note).toStdString() << '\n';
                }
            }
            break;
        }
        std::this_thread::sleep_for(std::chrono::seconds(std::max(1, options.pollSeconds)));
    }
    return kExitOk;
}

} // namespace gpuplan::cli
