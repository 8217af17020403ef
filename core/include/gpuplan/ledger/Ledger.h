#pragma once

#include "gpuplan/catalog/Offer.h"
#include "gpuplan/cloud/Instance.h"
#include "gpuplan/core/Result.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct sqlite3;

namespace gpuplan::core {

/// The price an instance was launched at: cost accrues from this, never from a later catalog.
struct LaunchPrice
{
    double amount = 0;
    Currency currency = Currency::USD;
    PriceUnit unit = PriceUnit::Hour;
    std::optional<Billing> billing;
    int prepaidMonths = 0; // subscriptions: the period paid up front
};

/// The provider's own current price for the exact configuration, asked just before the launch was confirmed
/// (CloudProvider::quotePrice), kept beside the catalog's price the launch is costed at.
struct PriceQuote
{
    double amount = 0;
    Currency currency = Currency::USD;
    PriceUnit unit = PriceUnit::Hour;
    std::string source;  // the call and what was read: "EC2 DescribeSpotPriceHistory, us-east-1b"
    std::int64_t at = 0; // Unix seconds
};

/// What the user asked to launch, recorded before anything is sent.
struct LaunchIntent
{
    std::string provider;
    std::string region;
    std::string zone;
    std::string instanceType;
    std::string pricingMode; // on_demand, spot, subscription_monthly, ...
    LaunchPrice price;
    std::string planId;                     // empty: launched without a plan
    std::string clientToken;                // the provider's idempotency token: the same token never launches twice
    double deadmanHours = 0;                // 0: no dead-man timer
    std::optional<PriceQuote> quote;        // the provider's price when asked; none where it has no price API
    LaunchKind kind = LaunchKind::Instance; // a machine, or a managed job (its instance id is the job's id)
    std::optional<JobSpec> job;             // a job: what it runs, as submitted
};

struct LedgerEntry
{
    std::int64_t id = 0;
    LaunchIntent intent;
    std::string instanceId; // empty until the provider has named it
    InstanceState state = InstanceState::Intent;
    std::int64_t createdAt = 0; // Unix seconds
    std::optional<std::int64_t> runningSince;
    std::optional<std::int64_t> endedAt;
    /// The last error or note, as data ("ledger.never_sent", or an error's reason); ui/wording words it. Kept as
    /// JSON (detailJson); the sentence of a ledger written by an older version reads as "saved.text".
    Reason detail;
    bool adopted = false;                    // found at the provider by reconciliation, not recorded by a launch
    std::optional<std::int64_t> requestedAt; // when its request last went out (the grace period counts from it)
    std::string address;                     // its public address once running (SSH goes there); empty: not known
};

/// How long after its request an instance may be missing from the provider's answers: EC2 and CVM are eventually
/// consistent, and a new instance may be NotFound (or absent from a listing) for a while after RunInstances
/// (https://docs.aws.amazon.com/ec2/latest/devguide/eventual-consistency.html). Within it, absence proves nothing.
inline constexpr std::int64_t kVisibilityGraceSeconds = 15 * 60;
/// How long a closed entry's region is still listed by reconciliation, so that an instance closed on too little
/// evidence is found again (and reopened).
inline constexpr std::int64_t kRecentlyClosedSeconds = 7 * 24 * 3600;

/// Whether the provider may simply not show `entry`'s instance yet: requested within the grace period and never
/// seen running.
bool mayBeInvisible(const LedgerEntry& entry, std::int64_t now);

/// Exclusive right to send one launch attempt (its client token) while it is held. Held through an flock(2) on a
/// file beside the ledger, so it ends with the process that holds it, even when that process is killed.
class AttemptLock
{
public:
    AttemptLock() = default;
    explicit AttemptLock(int fd, std::filesystem::path file)
        : m_fd(fd)
        , m_file(std::move(file))
    { }
    ~AttemptLock();
    AttemptLock(AttemptLock&& other) noexcept;
    AttemptLock& operator=(AttemptLock&& other) noexcept;
    AttemptLock(const AttemptLock&) = delete;
    AttemptLock& operator=(const AttemptLock&) = delete;

    /// Releases it and removes its file: call once the attempt has an instance id or is final (nobody will take it
    /// over again).
    void releaseForGood();

private:
    int m_fd = -1;
    std::filesystem::path m_file;
};

/// What reconciling with one provider changed.
struct Reconciliation
{
    std::vector<std::int64_t> adopted; // running there, unknown here, now recorded
    std::vector<std::int64_t> closed;  // recorded as live here, gone there
    std::vector<std::int64_t> updated; // state or instance id changed
};

enum class BudgetLevel
{
    Ok,
    Warn,   // at or above 80 % of the budget
    Refuse, // a launch would reach 100 %
};

struct BudgetCheck
{
    BudgetLevel level = BudgetLevel::Ok;
    double spent = 0;     // so far, live and ended, in the budget's currency
    double committed = 0; // what the live ones cost until their dead-man fires
    double budget = 0;
};

/// A plan's budget as the guard keeps it. `autoTerminate`: once the plan has spent it, its instances are
/// terminated (overBudget says which).
struct PlanBudget
{
    std::string planId;
    double amount = 0;
    Currency currency = Currency::CNY;
    bool autoTerminate = false;
};

/// A probe run on a launched instance (gpuplan probe --instance, the Verify page), kept with its launch.
struct Verification
{
    std::int64_t id = 0;
    std::int64_t launchId = 0;
    std::int64_t at = 0; // Unix seconds
    std::string host;    // USER@HOST[:PORT]
    std::string verdict; // "pass", "warn", "fail"
    std::string summary; // verificationJson's document (the verdict lines), as JSON text
    std::string probe;   // the probe's own document, as JSON text
};

/// Where a run stands, as the ledger last saw it.
enum class RunState
{
    Starting, // being synced and started; a program that died here left it so (reattach says what the instance has)
    Running,
    Finished, // its command exited 0
    Failed,   // its command exited non-zero
    Stopped,  // stopped by the user (SIGINT, then SIGTERM, then SIGKILL)
    Lost,     // the instance no longer knows it (rebooted, gone)
    /// Its spot instance was reclaimed and it is being relaunched (core/run/SpotRecovery.h): a new instance in the
    /// plan's fallback order, the job started again from the bucket's newest checkpoint.
    Recovering,
    Interrupted, // its spot instance was reclaimed and it was not (or could not be) recovered
};

const char* runStateName(RunState state); // "starting", "running", ...
std::optional<RunState> parseRunState(std::string_view name);
bool isFinal(RunState state); // not Starting, Running or Recovering

/// What the plan expected of a run, kept with it when it starts (nullopt: the plan did not say).
struct PlannedRun
{
    std::optional<double> throughput; // samples (or tokens) per second over all GPUs
    std::optional<double> throughputLow;
    std::optional<double> throughputHigh;
    std::string throughputUnit;  // "samples" or "tokens"
    std::optional<double> hours; // the whole training
    std::optional<double> hoursLow;
    std::optional<double> hoursHigh;
    std::optional<double> cost; // the whole training, in `currency`
    std::string currency;
    std::optional<double> budget; // the plan's, in `currency`
    std::string planName;         // the plan's workload and option, for a report ("ResNet-50 on 8x A100")
    /// The option's spot mode, when it has one: Daly's checkpoint interval, and the simulated wall-clock hours and
    /// cost (in `currency`) at the 50th and 90th percentile, interruptions, lost work and restarts included.
    std::optional<double> checkpointIntervalHours;
    std::optional<double> spotHoursP50;
    std::optional<double> spotHoursP90;
    std::optional<double> spotCostP50;
    std::optional<double> spotCostP90;
};

/// What a run measured so far (updated as it is followed, final once it ended).
struct MeasuredRun
{
    std::optional<double> throughput; // the mean of the log's readings, in throughputUnit
    std::string throughputUnit;
    int throughputReadings = 0;
    std::optional<double> gpuUtilization; // mean over every sample and GPU, percent
    std::optional<double> progress;       // 0..1 when the log says how far it is (a progress bar's n/N)
    double hours = 0;                     // running time
    std::optional<double> cost;           // running time x the launch's price, in costCurrency
    std::string costCurrency;
};

/// A training run on an instance (gpuplan run, the Run page), kept so that it is found again after the program
/// ends: the instance holds the job, its log and samples in `remoteDir`; this says where and how to reach it.
struct RunRecord
{
    std::int64_t id = 0;
    std::int64_t launchId = 0; // the ledger's launch of the instance; 0: a machine not launched by GPU Planner
    std::string planId;
    std::string host;       // USER@HOST[:PORT]
    std::string connection; // how to log in again (key file, jump hosts, known_hosts file: paths, never a secret), JSON
    std::string remoteDir;  // the run's folder on the instance
    std::string method;     // what keeps the job running there: systemd, tmux, nohup
    std::string spec;       // its RunSpec, as JSON
    RunState state = RunState::Starting;
    std::int64_t startedAt = 0; // Unix seconds
    std::optional<std::int64_t> endedAt;
    std::optional<int> exitCode;
    std::string resultsDir; // where its results were downloaded; empty: not yet
    std::optional<std::int64_t> resultsAt;
    PlannedRun planned;
    MeasuredRun measured;
};

/// One stretch of a run on one instance. A run that is never interrupted has one; each spot interruption ends one and
/// its recovery begins the next, on the instance it launched (kept from the moment that launch was recorded, so that
/// a program killed during a recovery finds the instance it was starting).
struct RunAttempt
{
    std::int64_t id = 0;
    std::int64_t runId = 0;
    int number = 1;            // 1, 2, ... within the run
    std::int64_t launchId = 0; // the ledger's launch it ran on; 0: a machine not launched by GPU Planner
    std::string host;          // USER@HOST[:PORT]; empty until it is reachable
    std::string remoteDir;     // the run's folder there; empty until the job was started on it
    std::int64_t startedAt = 0;
    std::optional<std::int64_t> endedAt;
    /// How it ended: empty while it is the run's current attempt; "interrupted" (its instance was reclaimed),
    /// "finished", "failed", "stopped", "lost".
    std::string end;
    /// The spot notice, as the watcher on the instance saw it (nullopt: none seen, e.g. the instance was gone first).
    std::optional<std::int64_t> noticeAt;
    std::optional<std::int64_t> deadlineAt;
    std::string noticeKind; // "termination", "shutdown", "rebalance"...; "reclaimed": no notice, the provider said so
    /// The last checkpoint that reached the bucket during this attempt (nullopt: none did).
    std::optional<std::int64_t> checkpointAt;
};

/// Every launch this user made, in SQLite (the user data dir's ledger.sqlite). Each change, read and write
/// together, is one BEGIN IMMEDIATE transaction, written to disk before the call returns (WAL, synchronous FULL),
/// so a crash at any moment leaves the last state recorded and two processes never interleave a read-modify-write.
/// Not thread safe: one Ledger per thread; several processes may share the file (SQLite locks it; a busy file is
/// retried for 5 s). The file must be on a local disk: SQLite's locking is not reliable on NFS (docs/ledger.md).
class Ledger
{
public:
    /// Opens or creates the ledger. FileUnreadable naming the file when it cannot be opened, SchemaViolation
    /// when it is not a ledger or is from a newer GPU Planner.
    static Result<std::unique_ptr<Ledger>> open(const std::filesystem::path& file);
    ~Ledger();
    Ledger(const Ledger&) = delete;
    Ledger& operator=(const Ledger&) = delete;

    /// Checks every entry as it is now with `guard` and records the launch, in one transaction, before its request
    /// is sent; returns its entry id, or the guard's error (nothing recorded). A client token already recorded
    /// returns that entry's id instead (a retried launch is the same launch).
    using Guard = std::function<Status(const std::vector<LedgerEntry>&)>;
    Result<std::int64_t> recordIntent(const LaunchIntent& intent, std::int64_t now, const Guard& guard = {});
    /// The request is about to go out (or has): from now on the provider may have an instance for the token. `now`
    /// starts its grace period (nullopt: from its creation). InvalidArgument when the entry is no longer waiting
    /// for its request (another process closed it or named its instance): then nothing may be sent.
    Status markRequested(std::int64_t id, std::optional<std::int64_t> now = std::nullopt);
    /// Takes over an interrupted attempt to send it again: locks its token (AttemptLock) and, in one transaction,
    /// checks that it still waits for its answer (intent or requested, no instance id) and marks it requested now.
    /// InvalidArgument naming the entry when another process holds it or it was finished meanwhile.
    Result<AttemptLock> takeOver(std::int64_t id, std::int64_t now);
    /// The lock of a new attempt's token, taken before its intent is recorded.
    Result<AttemptLock> lockAttempt(const std::string& clientToken);
    /// The provider's answer or a later describe: its instance id and state.
    Status update(std::int64_t id, const std::string& instanceId, InstanceState state, std::int64_t now);
    /// The provider refused the launch; `why` is its reason (or the ledger's note).
    Status markFailed(std::int64_t id, const Reason& why, std::int64_t now);
    /// The instance's public address, as the provider reported it once running.
    Status setAddress(std::int64_t id, const std::string& address);
    /// Replaces the entry's note (what the user reads beside it; the Launcher also marks an unknown outcome there).
    Status setDetail(std::int64_t id, const Reason& detail);

    /// Gives an adopted entry (found at the provider by reconcile, its price at launch unknown) the price it is
    /// costed at from now on, with `note` as its detail. InvalidArgument when the entry was not adopted: a launch
    /// keeps the price it was launched at.
    Status setAdoptedPrice(std::int64_t id, const LaunchPrice& price, const Reason& note);

    /// Records (or replaces) the budget of a plan.
    Status setBudget(const PlanBudget& budget);
    Result<std::vector<PlanBudget>> budgets() const;

    /// Keeps a verification with its launch; NotFound when the ledger has no such launch. Returns its id.
    Result<std::int64_t> recordVerification(const Verification& verification);
    /// The verifications of one launch, or of all, oldest first.
    Result<std::vector<Verification>> verifications(std::optional<std::int64_t> launchId = std::nullopt) const;

    /// Keeps a new run (its id is assigned and returned). NotFound when `run.launchId` is not 0 and the ledger has no
    /// such launch.
    Result<std::int64_t> recordRun(const RunRecord& run);
    /// Replaces what is kept of run `run.id` (state, method, exit code, results, measurements). NotFound when there
    /// is no such run.
    Status updateRun(const RunRecord& run);
    /// The runs of one launch, or all, oldest first.
    Result<std::vector<RunRecord>> runs(std::optional<std::int64_t> launchId = std::nullopt) const;
    Result<std::optional<RunRecord>> findRun(std::int64_t id) const;

    /// Keeps a new attempt of run `attempt.runId` (its id is assigned and returned). NotFound when there is no such
    /// run. An attempt of the same run on the same launch already kept is returned instead (a recovery resumed after
    /// a crash records its attempt once); an open attempt of the same run and number moves to the new launch (the
    /// zone it was recorded for refused it, and the next one is tried).
    Result<std::int64_t> recordAttempt(const RunAttempt& attempt);
    /// Replaces what is kept of attempt `attempt.id`. NotFound when there is no such attempt.
    Status updateAttempt(const RunAttempt& attempt);
    /// The attempts of one run, or of all runs, by run and number.
    Result<std::vector<RunAttempt>> attempts(std::optional<std::int64_t> runId = std::nullopt) const;

    Result<std::vector<LedgerEntry>> entries() const;
    /// Not Terminated or Failed: what may still bill.
    Result<std::vector<LedgerEntry>> live() const;
    Result<std::optional<LedgerEntry>> find(std::int64_t id) const;

    /// Makes the ledger agree with what `provider` reports of our instances, in one transaction: an instance
    /// reported but not recorded is adopted (matched first by client token, then by instance id); a reported one
    /// takes the reported state (a closed entry reported live is reopened). A live one that is not reported is
    /// closed only once it may no longer be invisible (mayBeInvisible): Terminated when it had an instance id,
    /// Failed ("never seen") when it had none. Entries still at Intent (never sent) that the provider does not
    /// know are marked Failed ("never sent"); their request can no longer go out (markRequested refuses). An attempt
    /// whose lock a process holds (it is being sent right now) is left alone.
    /// Only the entries of `kind` take part: a cloud's instances and its managed jobs are listed by different
    /// services. A job that ends keeps how it ended as its detail ("ledger.job_ended" {outcome, provider_state}).
    Result<Reconciliation> reconcile(const std::string& provider,
                                     const std::vector<RemoteInstance>& remote,
                                     std::int64_t now,
                                     LaunchKind kind = LaunchKind::Instance);

private:
    explicit Ledger(sqlite3* db);
    Result<std::int64_t> insertIntent(const LaunchIntent& intent, std::int64_t now);
    Status updateLocked(std::int64_t id, const std::string& instanceId, InstanceState state, std::int64_t now);
    std::filesystem::path lockFile(const std::string& clientToken) const;
    /// Whether a process holds the attempt's lock now (sending it, or waiting for its answer).
    bool attemptInProgress(const std::string& clientToken) const;
    sqlite3* m_db = nullptr;
};

/// What an entry has cost until `now` (or its end), in its price's currency: billed hours of its running time
/// (billing granularity and minimum) × the hourly price; a subscription its prepaid months, or more whole months.
double costSoFar(const LedgerEntry& entry, std::int64_t now);
/// What a live entry will have cost when its dead-man fires (its cost so far when it has none or is final).
double costUntilDeadman(const LedgerEntry& entry, std::int64_t now);
/// Seconds until a running entry's dead-man fires (0 once it is due); nullopt when it has none, has not run yet or
/// has ended.
std::optional<std::int64_t> secondsUntilDeadman(const LedgerEntry& entry, std::int64_t now);

/// The budget guard of one plan: what its entries spent and will spend until their dead-man timers, plus
/// `additional` (the launch being considered), against `budget`, all converted with `rate`.
BudgetCheck checkBudget(const std::vector<LedgerEntry>& entries,
                        const std::string& planId,
                        double budget,
                        Currency currency,
                        const ExchangeRate& rate,
                        double additional,
                        std::int64_t now);

/// The live entries of every plan whose budget has autoTerminate and whose spending so far (converted with
/// `rate`) has reached it: what the guard terminates.
std::vector<LedgerEntry> overBudget(const std::vector<LedgerEntry>& entries,
                                    const std::vector<PlanBudget>& budgets,
                                    const ExchangeRate& rate,
                                    std::int64_t now);

/// How a managed job ended, from the service's own state word: "succeeded" (JOB_STATE_SUCCEEDED, Completed),
/// "cancelled" (JOB_STATE_CANCELLED, Canceled), "failed" (JOB_STATE_FAILED, Failed, expired); empty while it has not.
std::string jobOutcomeOf(const std::string& providerState);

/// A reason as the ledger keeps it (an entry's detail, a reason inside another one's parameter): compact JSON,
/// {"key": .., "params": {..}}; an empty reason is the empty text.
std::string detailJson(const Reason& reason);
/// The reason of detailJson's text. Text that is not such JSON (the sentence a ledger of an older version kept)
/// reads as Reason{"saved.text", {{"text", text}}}; the empty text as the empty reason.
Reason readDetailJson(const std::string& text);

/// The ledger's default place: ledger.sqlite in userDataDir(); empty when there is no data folder.
std::filesystem::path defaultLedgerFile();
/// Ledger::open on defaultLedgerFile(); FileUnreadable when there is no data folder (no HOME).
Result<std::unique_ptr<Ledger>> openDefaultLedger();

} // namespace gpuplan::core
