#include "gpuplan/run/SpotRecovery.h"

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/core/Log.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/plan/PlanDocument.h"
#include "gpuplan/run/RunWorkflow.h"
#include "run/ObjectStore.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

namespace gpuplan::core {

namespace {

/// The providers whose in-guest notice the watcher knows (gpuplan-watch.sh); any other watches shutdown only.
bool hasWatcherMode(const std::string& provider)
{
    static const std::set<std::string> known{"aws", "gcp", "azure", "alibaba", "tencent", "huawei"}; // wire: ids
    return known.count(provider) > 0;
}

Error invalid(const char* key, std::int64_t runId)
{
    return Error{
        ErrorCode::InvalidArgument, Reason{key, {{"run", std::to_string(runId)}}}, "run " + std::to_string(runId)};
}

} // namespace

std::string watchConfig(const SpotHandling& spot,
                        const std::string& provider,
                        const std::string& checkpointDir,
                        const std::string& pushScript,
                        int syncEverySeconds)
{
    // wire: gpuplan-watch.sh's settings file, read on the instance
    std::string conf = "# Written by GPU Planner: the spot interruption watcher's settings (gpuplan-watch.sh).\n";
    conf += "provider=" + (hasWatcherMode(provider) ? provider : std::string("none")) + "\n";
    if (!spot.metadataUrl.empty()) {
        conf += "metadata_url=" + spot.metadataUrl + "\n";
    }
    conf += "signal=" + spot.signal + "\n";
    conf += "checkpoint_dir=" + checkpointDir + "\n";
    conf += "push=" + pushScript + "\n";
    conf += "sync_seconds=" + std::to_string(std::max(0, syncEverySeconds)) + "\n";
    return conf;
}

std::string checkpointPushScript(const std::string& checkpointDir, const std::string& checkpointUrl)
{
    // wire: a shell script run on the instance
    return "#!/usr/bin/env bash\n"
           "# Written by GPU Planner: copies the run's checkpoints to its bucket (gpuplan-watch.sh runs it).\n"
           "set -e\n"
           "[ -d "
           + shellQuote(checkpointDir) + " ] || exit 0\n" + objectStoreSync(checkpointDir, checkpointUrl);
}

int syncEverySecondsOf(const SpotHandling& spot, const PlannedRun& planned)
{
    if (spot.syncEverySeconds > 0) {
        return spot.syncEverySeconds;
    }
    if (planned.checkpointIntervalHours && std::isfinite(*planned.checkpointIntervalHours)
        && *planned.checkpointIntervalHours > 0) {
        // At least a minute: a sync takes its own time.
        return static_cast<int>(std::max(60.0, std::min(*planned.checkpointIntervalHours * 3600.0, 1e9)));
    }
    return 0;
}

RunTotals runTotals(const RunRecord& run,
                    const std::vector<RunAttempt>& attempts,
                    const std::vector<LedgerEntry>& entries,
                    std::int64_t now)
{
    RunTotals totals;
    const std::int64_t end = run.endedAt.value_or(now);
    totals.hours = static_cast<double>(std::max<std::int64_t>(0, end - run.startedAt)) / 3600.0;
    totals.attempts = std::max<int>(1, static_cast<int>(attempts.size()));
    std::set<std::int64_t> launches;
    if (run.launchId != 0) {
        launches.insert(run.launchId);
    }
    std::int64_t lostSeconds = 0;
    for (std::size_t i = 0; i < attempts.size(); ++i) {
        const RunAttempt& a = attempts[i];
        if (a.launchId != 0) {
            launches.insert(a.launchId);
        }
        if (a.end != "interrupted") {
            continue;
        }
        ++totals.interruptions;
        const std::int64_t interruptedAt = a.noticeAt.value_or(a.endedAt.value_or(now));
        // The work since the last checkpoint that reached the bucket is done again; without one, all of it.
        lostSeconds += std::max<std::int64_t>(0, interruptedAt - a.checkpointAt.value_or(a.startedAt));
        // And the time until the next attempt ran (or until now, while it is being recovered).
        const std::int64_t restarted = i + 1 < attempts.size() && !attempts[i + 1].remoteDir.empty()
                                           ? attempts[i + 1].startedAt
                                           : (isFinal(run.state) ? end : now);
        lostSeconds += std::max<std::int64_t>(0, restarted - interruptedAt);
    }
    totals.lostHours = static_cast<double>(lostSeconds) / 3600.0;
    double cost = 0;
    std::optional<Currency> currency;
    bool known = true;
    for (const std::int64_t id : launches) {
        const auto it = std::find_if(entries.begin(), entries.end(), [id](const LedgerEntry& e) { return e.id == id; });
        if (it == entries.end() || it->intent.price.amount <= 0) {
            known = false;
            continue;
        }
        if (currency && *currency != it->intent.price.currency) {
            totals.costInMixedCurrencies = true;
            known = false;
            continue;
        }
        currency = it->intent.price.currency;
        cost += costSoFar(*it, now);
    }
    if (known && currency) {
        totals.cost = cost;
        totals.currency = currencyCode(*currency);
    }
    return totals;
}

std::vector<RelaunchCandidate>
relaunchOrder(const LedgerEntry& lost, const PlanDocument* plan, const SpotHandling& spot, int interruptions)
{
    const bool onDemand = spot.onDemandAfter > 0 && interruptions >= spot.onDemandAfter;
    const LaunchPricing pricing = onDemand ? LaunchPricing::OnDemand : LaunchPricing::Spot;
    std::vector<RelaunchCandidate> order;
    std::set<std::tuple<std::string, std::string, std::string, std::string>> seen;
    const auto add = [&](const std::string& provider,
                         const std::string& region,
                         const std::string& zone,
                         const std::string& type,
                         const char* why) {
        if (seen.insert({provider, region, zone, type}).second) {
            RelaunchCandidate c{provider, region, zone, type, pricing, Reason{why, {}}};
            c.why.params["on_demand"] = onDemand ? "yes" : "no";
            order.push_back(std::move(c));
        }
    };
    const LaunchIntent& i = lost.intent;
    if (!i.zone.empty()) {
        add(i.provider, i.region, i.zone, i.instanceType, "recovery.same_zone");
    }
    add(i.provider, i.region, "", i.instanceType, "recovery.other_zones");
    if (!plan) {
        return order;
    }
    const auto usable = [&](const PlanOption& option) {
        return onDemand ? option.firstEligible(&isOnDemand) != nullptr : option.firstEligible(&isSpot) != nullptr;
    };
    for (const PlanOption& option : plan->results.options) {
        if (option.provider == i.provider && option.instanceType == i.instanceType && option.region != i.region
            && usable(option)) {
            add(option.provider, option.region, "", option.instanceType, "recovery.other_region");
        }
    }
    for (const PlanOption& option : plan->results.options) {
        if (option.provider != i.provider && usable(option)) {
            add(option.provider, option.region, "", option.instanceType, "recovery.other_provider");
        }
    }
    return order;
}

bool noticeSettled(const SpotNotice& notice, std::optional<std::int64_t> checkpointSyncedAt, std::int64_t now)
{
    return (checkpointSyncedAt && *checkpointSyncedAt >= notice.seen)
           || (notice.deadline > 0 && now >= notice.deadline);
}

Status recordNotice(const std::filesystem::path& ledgerFile,
                    std::int64_t runId,
                    const SpotNotice& notice,
                    std::optional<std::int64_t> checkpointSyncedAt)
{
    Result<std::unique_ptr<Ledger>> ledger = Ledger::open(ledgerFile);
    if (!ledger) {
        return ledger.error();
    }
    Result<std::optional<RunRecord>> run = (*ledger)->findRun(runId);
    Result<std::vector<RunAttempt>> attempts = (*ledger)->attempts(runId);
    if (!run) {
        return run.error();
    }
    if (!attempts) {
        return attempts.error();
    }
    if (!*run) {
        return Error{ErrorCode::NotFound, Reason{"error.ledger.no_run", {{"run", std::to_string(runId)}}}, "ledger"};
    }
    for (auto it = attempts->rbegin(); it != attempts->rend(); ++it) {
        if (!it->end.empty() || it->launchId != (*run)->launchId) {
            continue;
        }
        RunAttempt a = *it;
        if (notice.seen > 0 && !a.noticeAt) {
            a.noticeAt = notice.seen;
            a.deadlineAt = notice.deadline;
            a.noticeKind = notice.kind;
        }
        if (checkpointSyncedAt && (!a.checkpointAt || *a.checkpointAt < *checkpointSyncedAt)) {
            a.checkpointAt = checkpointSyncedAt;
        }
        return (*ledger)->updateAttempt(a);
    }
    return Ok{};
}

Result<RecoveryServices> makeRecoveryServices(const RecoveryEnvironment& environment)
{
    const auto read = [&](const char* name) -> Result<std::string> {
        std::ifstream in(environment.scriptsDir / name, std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (text.empty()) { // missing, unreadable or empty
            return Error{
                ErrorCode::FileNotFound, Reason{"error.run.no_helper", {}}, (environment.scriptsDir / name).string()};
        }
        return text;
    };
    Result<std::string> runScript = read("gpuplan-run.sh");
    Result<std::string> watchScript = read("gpuplan-watch.sh");
    Result<std::string> watchdog = read("gpuplan-watchdog.sh");
    for (const Result<std::string>* script : {&runScript, &watchScript, &watchdog}) {
        if (!*script) {
            return script->error();
        }
    }
    if (!environment.catalog || !environment.http || !environment.access) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.recovery.not_set_up", {}}, "recovery"};
    }
    RecoveryServices services;
    services.ledgerFile = environment.ledgerFile;
    services.runScript = *runScript;
    services.watchScript = *watchScript;
    services.plan = environment.plan;
    services.wait.until = LaunchWait::Ssh;
    services.wait.sshPort = environment.sshPort;
    const std::shared_ptr<HttpTransport> http = environment.http;
    const auto access = environment.access;
    services.connect = [http, access](const std::string& provider) -> Result<std::unique_ptr<CloudProvider>> {
        Result<CloudAccess> found = access(provider);
        if (!found) {
            return found.error();
        }
        return connectProvider(*found, *http);
    };
    const std::shared_ptr<const Catalog> catalog = environment.catalog;
    const std::string watchdogText = *watchdog;
    services.prepare = [catalog, http, watchdogText](const LaunchPreparation& preparation) -> Result<LaunchOrder> {
        Result<PreparedLaunch> prepared = prepareLaunch(preparation, *catalog, watchdogText, *http, unixNow());
        if (!prepared) {
            return prepared.error();
        }
        return prepared->order;
    };
    return services;
}

Result<bool> instanceReclaimed(const RunRecord& run, const RecoveryServices& services, const CancelToken* cancel)
{
    Result<std::unique_ptr<Ledger>> ledger = Ledger::open(services.ledgerFile);
    if (!ledger) {
        return ledger.error();
    }
    Result<std::optional<LedgerEntry>> entry = (*ledger)->find(run.launchId);
    if (!entry) {
        return entry.error();
    }
    if (!*entry) {
        return Error{ErrorCode::NotFound,
                     Reason{"error.ledger.no_launch_to_run_on", {{"entry", std::to_string(run.launchId)}}},
                     "ledger"};
    }
    Result<std::unique_ptr<CloudProvider>> provider = services.connect((*entry)->intent.provider);
    if (!provider) {
        return provider.error();
    }
    Launcher launcher(**provider, **ledger, services.now);
    if (Result<Reconciliation> reconciled = launcher.reconcile({}, cancel); !reconciled) {
        return reconciled.error();
    }
    entry = (*ledger)->find(run.launchId);
    if (!entry || !*entry) {
        return false;
    }
    const InstanceState state = (*entry)->state;
    return state == InstanceState::Terminated || state == InstanceState::Stopped || state == InstanceState::Stopping
           || state == InstanceState::Failed;
}

namespace {

/// The connection to a relaunched instance: the run's own (key, known_hosts, port, jump hosts) at the new address,
/// as the same user on the same provider's image, else as the new provider's image's login user.
Result<RunConnection>
connectionTo(const RunRecord& run, const LedgerEntry& lost, const LedgerEntry& launched, const std::string& address)
{
    Result<RunConnection> read = readRunConnection(run.connection);
    if (!read) {
        return read.error();
    }
    RunConnection connection = std::move(read).value();
    connection.target.host = address;
    if (launched.intent.provider != lost.intent.provider) {
        const std::string login = sshHostOf(launched);
        const std::size_t at = login.find('@');
        if (at == std::string::npos) {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.recovery.no_login_user", {{"provider", launched.intent.provider}}},
                         launched.intent.provider};
        }
        connection.target.user = login.substr(0, at);
    }
    return connection;
}

} // namespace

Result<RunRecord> recoverRun(std::int64_t runId,
                             const RecoveryServices& services,
                             Prompter& prompter,
                             const CancelToken* cancel,
                             const std::function<void(const RecoveryProgress&)>& onProgress)
{
    const auto now = [&] { return services.now ? services.now() : unixNow(); };
    const auto report = [&](RecoveryProgress progress) {
        if (onProgress) {
            onProgress(progress);
        }
    };
    Result<std::unique_ptr<Ledger>> opened = Ledger::open(services.ledgerFile);
    if (!opened) {
        return opened.error();
    }
    Ledger& ledger = **opened;
    Result<std::optional<RunRecord>> found = ledger.findRun(runId);
    if (!found) {
        return found.error();
    }
    if (!*found) {
        return Error{ErrorCode::NotFound, Reason{"error.ledger.no_run", {{"run", std::to_string(runId)}}}, "ledger"};
    }
    RunRecord run = **found;
    Result<RunSpec> spec = runSpecOf(run);
    if (!spec) {
        return spec.error();
    }
    if (!spec->spot.recover) {
        return invalid("error.recovery.not_asked", runId);
    }
    if (run.state == RunState::Finished || run.state == RunState::Failed || run.state == RunState::Stopped) {
        return invalid("error.recovery.run_ended", runId);
    }
    if (run.launchId == 0) {
        return invalid("error.recovery.not_launched", runId);
    }
    Result<std::vector<RunAttempt>> listed = ledger.attempts(runId);
    if (!listed) {
        return listed.error();
    }
    std::vector<RunAttempt> attempts = std::move(listed).value();
    if (attempts.empty()) {
        RunAttempt first{.runId = runId,
                         .number = 1,
                         .launchId = run.launchId,
                         .host = run.host,
                         .remoteDir = run.remoteDir,
                         .startedAt = run.startedAt};
        Result<std::int64_t> id = ledger.recordAttempt(first);
        if (!id) {
            return id.error();
        }
        first.id = *id;
        attempts.push_back(first);
    }

    // The attempt on the reclaimed instance ends here (once: a recovery run again finds it ended).
    RunAttempt& current = attempts.back();
    std::optional<std::int64_t> pendingLaunch; // a relaunch an earlier recovery recorded
    if (current.end.empty() && current.launchId == run.launchId) {
        current.end = "interrupted";
        current.endedAt = now();
        if (current.noticeKind.empty()) {
            current.noticeKind = "reclaimed";
        }
        if (Status kept = ledger.updateAttempt(current); !kept) {
            return kept.error();
        }
    } else if (current.end.empty()) {
        pendingLaunch = current.launchId;
    }
    if (run.state != RunState::Recovering) {
        run.state = RunState::Recovering;
        if (Status kept = ledger.updateRun(run); !kept) {
            return kept.error();
        }
    }
    const int interruptions = static_cast<int>(
        std::count_if(attempts.begin(), attempts.end(), [](const RunAttempt& a) { return a.end == "interrupted"; }));
    report({.step = RecoveryStep::Interrupted, .attempt = static_cast<int>(attempts.size()) + (pendingLaunch ? 0 : 1)});

    Result<std::optional<LedgerEntry>> lostEntry = ledger.find(run.launchId);
    if (!lostEntry) {
        return lostEntry.error();
    }
    if (!*lostEntry) {
        return invalid("error.recovery.not_launched", runId);
    }
    const LedgerEntry lost = **lostEntry;

    // The reclaimed instance: terminated where it still exists (a spot instance stopped by its provider keeps
    // billing its disks, and must not come back beside the new one).
    if (!isFinal(lost.state)) {
        report({.step = RecoveryStep::TerminatingOld});
        Result<std::unique_ptr<CloudProvider>> provider = services.connect(lost.intent.provider);
        Status terminated =
            provider ? Launcher(**provider, ledger, services.now).terminate(lost.id, cancel) : Status(provider.error());
        if (!terminated) {
            logWarning(LogCategory::Cloud, [&] {
                return "recovery of run " + std::to_string(runId) + ": could not terminate launch "
                       + std::to_string(lost.id) + ": " + describe(terminated.error());
            });
        }
    }

    const auto giveUp = [&](Error why) -> Result<RunRecord> {
        // An attempt left open on a launch that never started closes with the run.
        if (Result<std::vector<RunAttempt>> all = ledger.attempts(runId); all && !all->empty()) {
            RunAttempt last = all->back();
            if (last.end.empty()) {
                last.end = "lost";
                last.endedAt = now();
                (void)ledger.updateAttempt(last);
            }
        }
        run.state = RunState::Interrupted;
        run.endedAt = now();
        (void)ledger.updateRun(run);
        return why;
    };

    // A relaunch: the pending one of an earlier recovery, else the first candidate with capacity.
    std::optional<LedgerEntry> launched;
    int attemptNumber = attempts.back().number + (pendingLaunch ? 0 : 1);
    if (pendingLaunch) {
        Result<std::optional<LedgerEntry>> entry = ledger.find(*pendingLaunch);
        if (!entry) {
            return entry.error();
        }
        if (*entry && !isFinal((*entry)->state) && !(*entry)->instanceId.empty()) {
            Result<std::unique_ptr<CloudProvider>> provider = services.connect((*entry)->intent.provider);
            if (!provider) {
                return provider.error();
            }
            Launcher launcher(**provider, ledger, services.now);
            Result<RemoteInstance> ready =
                launcher.waitUntilReady((*entry)->id, services.wait, cancel, [&](const LaunchProgress& p) {
                    report({.step = RecoveryStep::Launch, .attempt = attemptNumber, .launch = p});
                });
            if (!ready) {
                return ready.error();
            }
            if (Result<std::optional<LedgerEntry>> now_ = ledger.find((*entry)->id); now_) {
                launched = *now_;
            }
        } else if (*entry && (*entry)->instanceId.empty() && !isFinal((*entry)->state)) {
            // Recorded, maybe sent, never answered: the launcher resends it with its own token below.
            pendingLaunch.reset();
            attemptNumber = attempts.back().number;
        } else {
            // Its launch was refused (it never ran): the next launch of the order takes this attempt over.
            pendingLaunch.reset();
            attemptNumber = attempts.back().number;
        }
    }
    if (!launched) {
        if (attemptNumber > spec->spot.maxAttempts) {
            return giveUp(
                Error{ErrorCode::InsufficientCapacity,
                      Reason{"error.recovery.gave_up", {{"attempts", std::to_string(spec->spot.maxAttempts)}}},
                      "run " + std::to_string(runId)});
        }
        Result<std::vector<PlanBudget>> budgets = ledger.budgets();
        std::vector<std::string> refused;
        for (const RelaunchCandidate& candidate : relaunchOrder(lost, services.plan.get(), spec->spot, interruptions)) {
            if (cancel && cancel->cancelled()) {
                return Error{
                    ErrorCode::Cancelled, Reason{"error.recovery.cancelled", {}}, "run " + std::to_string(runId)};
            }
            report({.step = RecoveryStep::Launching, .attempt = attemptNumber, .candidate = candidate});
            const auto refuse = [&](Error error) {
                refused.push_back(candidate.provider + " " + candidate.region
                                  + (candidate.zone.empty() ? "" : " " + candidate.zone));
                report({.step = RecoveryStep::CandidateRefused,
                        .attempt = attemptNumber,
                        .candidate = candidate,
                        .error = std::move(error)});
            };
            LaunchPreparation preparation;
            LaunchSettings& settings = preparation.settings;
            settings.provider = candidate.provider;
            settings.instanceType = candidate.instanceType;
            settings.region = candidate.region;
            settings.zone = candidate.zone;
            settings.pricing = candidate.pricing;
            settings.planId = lost.intent.planId;
            settings.watchdog.deadmanHours = static_cast<int>(std::ceil(lost.intent.deadmanHours));
            if (budgets) {
                for (const PlanBudget& b : *budgets) {
                    if (b.planId == settings.planId && !settings.planId.empty()) {
                        settings.budget = b.amount;
                        settings.budgetCurrency = b.currency;
                        settings.terminateAtBudget = b.autoTerminate;
                    }
                }
            }
            preparation.publicKeyFile = spec->spot.publicKeyFile;
            preparation.sshFrom = spec->spot.sshFrom;
            Result<LaunchOrder> order = services.prepare(preparation);
            if (!order) {
                refuse(order.error());
                continue;
            }
            Result<std::unique_ptr<CloudProvider>> provider = services.connect(candidate.provider);
            if (!provider) {
                refuse(provider.error());
                continue;
            }
            Launcher launcher(**provider, ledger, services.now);
            Result<LaunchOutcome> outcome =
                launcher.launch(*order, services.wait, cancel, [&](const LaunchProgress& p) {
                    if (p.step == LaunchStep::Recorded) {
                        // The run's next attempt is this launch from the moment the ledger has it: a program
                        // killed from here on finds it, and waits for it instead of launching another.
                        RunAttempt next{
                            .runId = runId, .number = attemptNumber, .launchId = p.entryId, .startedAt = now()};
                        (void)ledger.recordAttempt(next);
                    }
                    report({.step = RecoveryStep::Launch, .attempt = attemptNumber, .launch = p});
                });
            if (!outcome) {
                if (outcome.error().code == ErrorCode::Cancelled || outcome.error().code == ErrorCode::Timeout) {
                    return outcome.error(); // a recovery run again picks its launch up
                }
                refuse(outcome.error());
                continue;
            }
            launched = outcome->entry;
            break;
        }
        if (!launched) {
            return giveUp(Error{ErrorCode::InsufficientCapacity,
                                Reason{"error.recovery.nowhere",
                                       {{"tried",
                                         [&] {
                                             std::string all;
                                             for (const std::string& r : refused) {
                                                 all += (all.empty() ? "" : ", ") + r;
                                             }
                                             return all;
                                         }()}}},
                                "run " + std::to_string(runId)});
        }
    }

    // The job again, on the new instance, from the bucket's newest checkpoint.
    Result<RunConnection> connection = connectionTo(run, lost, *launched, launched->address);
    if (!connection) {
        return connection.error();
    }
    RunRequest request;
    request.connection = *connection;
    request.spec = *spec;
    request.launchId = launched->id;
    request.planId = run.planId;
    request.planned = run.planned;
    request.runScript = services.runScript;
    request.watchScript = services.watchScript;
    request.resumeRun = runId;
    request.ledgerFile = services.ledgerFile;
    request.detach = "auto"; // the new machine may keep jobs differently
    report({.step = RecoveryStep::Starting, .attempt = attemptNumber});
    Result<RunRecord> started = startRun(
        request,
        prompter,
        cancel,
        [&](const RunProgress& p) { report({.step = RecoveryStep::Starting, .attempt = attemptNumber, .run = p}); },
        now());
    if (!started) {
        return started.error();
    }
    report({.step = RecoveryStep::Resumed, .attempt = attemptNumber});
    return started;
}

} // namespace gpuplan::core
