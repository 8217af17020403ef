#pragma once

#include "gpuplan/cloud/LaunchWorkflow.h"
#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/cloud/LedgerActions.h"
#include "gpuplan/core/Prompter.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/run/RunSpec.h"
#include "gpuplan/run/RunWorkflow.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// A spot run that survives its instance being reclaimed. On the instance, resources/scripts/gpuplan-watch.sh polls
// the provider's interruption notice beside the job, signals the training program, and syncs its checkpoint folder to
// the run's bucket (also every so often); gpuplan-run.sh's poll reports what it saw. Here: what the watcher is given,
// how a run's attempts add up, and the recovery: when the instance is gone, a relaunch in the plan's fallback order
// and the job started again on it from the bucket's newest checkpoint, each attempt kept in the ledger under the run.
namespace gpuplan::core {

struct PlanDocument;
class CloudProvider;

/// The watcher's settings (watch.conf, KEY=VALUE lines): the provider whose notice it polls ("none": only shutdown),
/// the signal, the checkpoint folder and the script that pushes it, and the periodic sync's interval.
std::string watchConfig(const SpotHandling& spot,
                        const std::string& provider,
                        const std::string& checkpointDir,
                        const std::string& pushScript,
                        int syncEverySeconds);

/// The script that copies the checkpoint folder to the run's folder in the bucket with the provider's CLI
/// (checkpoint-push.sh, run by the watcher).
std::string checkpointPushScript(const std::string& checkpointDir, const std::string& checkpointUrl);

/// Seconds between periodic checkpoint syncs: the spec's own, else the plan's checkpoint interval (Daly's optimum),
/// else 0 (none: only on a notice and at the end).
int syncEverySecondsOf(const SpotHandling& spot, const PlannedRun& planned);

/// What a run's attempts add up to.
struct RunTotals
{
    int attempts = 1;
    int interruptions = 0;
    double hours = 0;     // wall clock, first start to end (or now)
    double lostHours = 0; // work done after the last synced checkpoint before each interruption, plus each restart
    std::optional<double> cost;         // every launch it ran on, at its price; nullopt: a price is not known
    std::string currency;               // of `cost`
    bool costInMixedCurrencies = false; // the launches bill in different currencies: no total is given
};

/// The totals of `run` over `attempts` (its own, by number), with the launches `entries` holds, at `now`.
RunTotals runTotals(const RunRecord& run,
                    const std::vector<RunAttempt>& attempts,
                    const std::vector<LedgerEntry>& entries,
                    std::int64_t now);

/// One place a recovery may relaunch.
struct RelaunchCandidate
{
    std::string provider;
    std::string region;
    std::string zone; // empty: every zone that offers the type, in order
    std::string instanceType;
    LaunchPricing pricing = LaunchPricing::Spot;
    /// Why it is in the order: "recovery.same_zone", "recovery.other_zones", "recovery.other_region",
    /// "recovery.other_provider", each with "on_demand" = "yes" when the interruptions reached the user's limit.
    Reason why;
};

/// Where a recovery relaunches, in order: the lost instance's zone, the other zones of its region, the plan's other
/// regions with the same type, then the plan's options on other providers; on spot, or on demand once
/// `interruptions` reached spot.onDemandAfter (when set). `plan` may be null (the same region only).
std::vector<RelaunchCandidate>
relaunchOrder(const LedgerEntry& lost, const PlanDocument* plan, const SpotHandling& spot, int interruptions);

/// Whether a run that saw `notice` may be recovered now: its checkpoint reached the bucket after the notice, or the
/// notice's deadline has passed (the instance is going either way).
bool noticeSettled(const SpotNotice& notice, std::optional<std::int64_t> checkpointSyncedAt, std::int64_t now);

/// Keeps what a poll saw of a spot notice with the run's current attempt (once).
Status recordNotice(const std::filesystem::path& ledgerFile,
                    std::int64_t runId,
                    const SpotNotice& notice,
                    std::optional<std::int64_t> checkpointSyncedAt);

/// What the recovery needs from its front end.
struct RecoveryServices
{
    std::filesystem::path ledgerFile;
    /// The provider's instances, signing with the user's stored key (Credentials when there is none).
    std::function<Result<std::unique_ptr<CloudProvider>>(const std::string& provider)> connect;
    /// A relaunch's order from its settings (prepareLaunch: the public key, this computer's address, the catalog's
    /// price). The recovery fills provider, type, region, zone, pricing, dead-man, plan and budget.
    std::function<Result<LaunchOrder>(const LaunchPreparation& preparation)> prepare;
    std::string runScript;
    std::string watchScript;
    std::shared_ptr<const PlanDocument> plan; // the fallback order's other regions and providers; null: same region
    LaunchWaitOptions wait;                   // sshPort: the run's own
    std::function<std::int64_t()> now;
};

/// What both front ends have for a recovery: where the ledger and the instance scripts are, the catalog (relaunch
/// prices), an HTTP transport (this computer's address, the provider's API), the user's stored access per provider,
/// and the run's plan when it is at hand.
struct RecoveryEnvironment
{
    std::filesystem::path ledgerFile;
    std::filesystem::path scriptsDir; // gpuplan-run.sh, gpuplan-watch.sh, gpuplan-watchdog.sh
    std::shared_ptr<const Catalog> catalog;
    std::shared_ptr<HttpTransport> http;
    std::function<Result<CloudAccess>(const std::string& provider)> access;
    std::shared_ptr<const PlanDocument> plan;
    int sshPort = 22; // the run's own
};

/// The services of a recovery made of `environment`: connect with the stored access, prepare relaunches with the
/// catalog and the watchdog script, wait until SSH answers. FileNotFound naming a script that is missing.
Result<RecoveryServices> makeRecoveryServices(const RecoveryEnvironment& environment);

enum class RecoveryStep
{
    Interrupted,      // the attempt is closed as interrupted; the run is recovering
    TerminatingOld,   // the reclaimed instance is terminated (a stopped spot instance still bills its disks)
    Launching,        // a candidate is tried (candidate)
    CandidateRefused, // it had no capacity, or could not be asked (candidate, error)
    Launch,           // a step of the relaunch (launch)
    Starting,         // the job is started again on the new instance (run)
    Resumed,          // it runs again
};

struct RecoveryProgress
{
    RecoveryStep step = RecoveryStep::Interrupted;
    int attempt = 0; // the attempt being made (2, 3, ...)
    std::optional<RelaunchCandidate> candidate;
    std::optional<Error> error;
    std::optional<LaunchProgress> launch;
    std::optional<RunProgress> run;
};

/// Recovers run `runId` whose instance was reclaimed (or is going): closes its current attempt as interrupted and
/// marks the run Recovering, terminates the old instance where it still exists, relaunches in relaunchOrder() until a
/// candidate has capacity (each launch recorded as the run's next attempt as soon as the ledger has it), and starts
/// the job there again (startRun, resuming the run) from the bucket's newest checkpoint. Safe to run again after a
/// crash at any moment: an attempt whose launch was recorded is waited for (or its request resent with its token),
/// never launched twice. Errors: InvalidArgument when the run is not a spot run with recovery, or has ended;
/// InsufficientCapacity ("error.recovery.nowhere") when no candidate had capacity, and "error.recovery.gave_up"
/// when it reached spot.maxAttempts: then the run is Interrupted.
Result<RunRecord> recoverRun(std::int64_t runId,
                             const RecoveryServices& services,
                             Prompter& prompter,
                             const CancelToken* cancel,
                             const std::function<void(const RecoveryProgress&)>& onProgress);

/// Whether the instance of `run` has been reclaimed, as its provider says now (the ledger is reconciled with it
/// first): Terminated, Stopped or Stopping, or gone. Errors: the provider's.
Result<bool> instanceReclaimed(const RunRecord& run, const RecoveryServices& services, const CancelToken* cancel);

} // namespace gpuplan::core
