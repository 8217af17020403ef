#pragma once

#include "gpuplan/core/Prompter.h"
#include "gpuplan/deploy/SshSession.h"
#include "gpuplan/deploy/SshTunnel.h"
#include "gpuplan/estimate/Calibration.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/run/LogThroughput.h"
#include "gpuplan/run/Monitor.h"
#include "gpuplan/run/RunSpec.h"

#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// A training run as both front ends run it (`gpuplan run`, the Run page): sync the working directory to the
// instance, start the job there detached (it survives a dropped connection), follow its log and the GPUs, advise
// when they idle, bring the results home, and keep all of it in the ledger so that it is found again.
// Every call blocks (SSH, SQLite): the GUI runs them on a worker thread.
namespace gpuplan::core {

struct PlanDocument;

/// How to log in to a run's instance again; kept with the run (paths only, never a secret).
struct RunConnection
{
    SshTarget target;           // with its key file and jump hosts
    std::string knownHostsFile; // empty: ~/.ssh/known_hosts
};

std::string runConnectionJson(const RunConnection& connection);
/// SchemaViolation naming what is missing when `text` is not a connection this version wrote.
Result<RunConnection> readRunConnection(const std::string& text);

/// What the plan expects of the option it will run on (`option`: an index into its results; nullopt: its choice,
/// else its recommendation): throughput, hours and cost ranges, its budget, and a name for reports.
PlannedRun plannedRunOf(const PlanDocument& plan, std::optional<int> option = std::nullopt);

enum class SyncMethod
{
    Auto,  // rsync over ssh when both ends have it (and the login needs no jump host or passphrase), else SFTP
    Rsync, // rsync only
    Sftp,  // SFTP only
};

struct RunRequest
{
    RunConnection connection;
    RunSpec spec;
    std::int64_t launchId = 0; // the ledger's launch of this instance; 0: none
    std::string planId;
    PlannedRun planned;
    std::string runScript;   // the text of resources/scripts/gpuplan-run.sh
    std::string watchScript; // the text of resources/scripts/gpuplan-watch.sh (needed with spot handling)
    /// The run this start resumes (a spot recovery's next attempt): its record is updated, not a new one made.
    std::int64_t resumeRun = 0;
    SyncMethod sync = SyncMethod::Auto;
    std::string detach = "auto"; // what keeps the job running: auto, systemd, tmux, nohup
    int sampleSeconds = 2;       // the GPU sampler's interval
    std::filesystem::path ledgerFile;
};

enum class RunStep
{
    Connect,
    Prepare, // the run's folder and helper on the instance
    Sync,    // the working directory (done/total: bytes)
    Dataset, // a local dataset folder (done/total: bytes)
    Start,
};

struct RunProgress
{
    RunStep step = RunStep::Connect;
    std::uintmax_t done = 0;
    std::uintmax_t total = 0;
    /// What the step found: "run.sync.listing" {files, bytes}, "run.sync.rsync", "run.sync.sftp" {why},
    /// "run.started" {method, dir}; empty: none.
    Reason note;
};

/// Records the run (Starting) in the ledger, then connects, makes the run's folder on the instance, syncs the
/// working directory (and a local dataset), writes its job and starts it detached, and records it Running with
/// what keeps it running. A program that dies on the way leaves the run recorded as Starting, and attach() finds
/// what the instance has. `onProgress` and `prompter` are called on the caller's thread.
Result<RunRecord> startRun(const RunRequest& request,
                           Prompter& prompter,
                           const CancelToken* cancel,
                           const std::function<void(const RunProgress&)>& onProgress,
                           std::int64_t now);

/// The job's text (job.sh) for `spec`: cd to the synced folder, the dataset pulled from object storage when it is a
/// URL (its provider's CLI installed when missing), the setup commands, then the training command, in the image
/// when the spec has one (docker with the NVIDIA container toolkit). Exported: GPUPLAN_RUN_DIR, GPUPLAN_DATA.
std::string jobScript(const RunSpec& spec, const std::string& remoteWorkdir, const std::string& remoteData);

/// The spot notice the watcher saw, as a poll reports it.
struct SpotNotice
{
    std::string provider;
    std::string kind;   // "termination", "shutdown"
    std::string action; // the provider's word: "terminate", "stop", "preempt"...; empty when it gave none
    std::int64_t seen = 0;
    std::int64_t deadline = 0;
};

/// What one poll of a run found.
struct RunUpdate
{
    RunState state = RunState::Running;
    std::optional<int> exitCode;
    std::string log;                        // new output since the last poll
    std::vector<MonitorSample> samples;     // new samples, oldest first
    std::vector<LogThroughput> throughputs; // new readings of the log's speed
    std::vector<Reason> problems;           // samples that did not read
    bool stateChanged = false;
    /// A spot run's watcher: the interruption notice it saw (nullopt: none), and when a checkpoint last reached the
    /// bucket (nullopt: none yet) out of how many syncs.
    std::optional<SpotNotice> notice;
    std::optional<std::int64_t> checkpointSyncedAt;
    int checkpointSyncs = 0;
    int checkpointSyncsFailed = 0;
};

/// Follows one run over a session of its own: each poll() asks the instance what its log and samples gained
/// (from the start of the run when it attaches, so a program started again sees the run's whole history), keeps
/// the last 30 minutes of samples and the end of the log (bounded), and keeps the measurements in the ledger.
class RunFollower
{
public:
    /// Connects to the run's instance (asking `prompter` about a host key seen for the first time).
    static Result<std::unique_ptr<RunFollower>> attach(const RunRecord& run,
                                                       const std::filesystem::path& ledgerFile,
                                                       Prompter& prompter,
                                                       const CancelToken* cancel);

    /// One round trip: what is new. Errors: the session's (Network when the connection dropped: attach again).
    Result<RunUpdate> poll(const CancelToken* cancel, std::int64_t now);

    /// Stops the job: SIGINT to its process group, SIGTERM after `graceSeconds`, SIGKILL after twice that.
    Status stop(int graceSeconds, const CancelToken* cancel);

    const RunRecord& record() const { return m_record; }
    const RunSpec& spec() const { return m_spec; }
    const std::deque<MonitorSample>& samples() const { return m_samples; }
    /// The end of the log (at most kLogTailBytes; the whole log stays on the instance and comes with the results).
    const std::string& logTail() const { return m_logTail; }
    /// The advice on the samples kept, with the plan's precision.
    RunAdvice advice(const AdviceSettings& settings) const;
    SshSession& session() { return *m_session; }
    const std::filesystem::path& ledgerFile() const { return m_ledgerFile; }
    /// The results were brought home into `folder` at `at` (downloadResults says so).
    void setResults(const std::string& folder, std::int64_t at)
    {
        m_record.resultsDir = folder;
        m_record.resultsAt = at;
    }

    static constexpr std::size_t kLogTailBytes = 256 * 1024;
    static constexpr std::int64_t kSampleWindowSeconds = 30 * 60;

private:
    RunFollower() = default;
    void measure(const RunUpdate& update, std::int64_t now);

    std::unique_ptr<SshSession> m_session;
    RunRecord m_record;
    RunSpec m_spec;
    std::optional<ThroughputReader> m_reader;
    std::filesystem::path m_ledgerFile;
    std::optional<LedgerEntry> m_launch;
    std::uintmax_t m_logOffset = 0;
    std::uintmax_t m_samplesOffset = 0;
    std::string m_partialLog;     // a log line not yet ended
    std::string m_partialSamples; // a samples line not yet ended
    int m_samplesLine = 1;
    std::string m_logTail;
    std::deque<MonitorSample> m_samples;
    double m_throughputSum = 0;
    double m_utilizationSum = 0;
    std::int64_t m_utilizationCount = 0;
    std::int64_t m_lastSaved = 0;
    bool m_noticeKept = false;                  // the watcher's notice is in the ledger
    std::optional<std::int64_t> m_attemptStart; // a recovered run: when its attempt on this instance began
    std::optional<double> m_earlierCost;        // and what its earlier instances cost, in this one's currency
    std::optional<std::int64_t> m_syncedKept;   // the checkpoint sync the ledger has
};

/// One file brought home.
struct ResultFile
{
    std::string path; // relative to the run's results folder
    std::uintmax_t size = 0;
    std::string sha256;
};

struct ResultsDownload
{
    std::filesystem::path folder; // the run's results folder: `into`/run-<id>
    std::vector<ResultFile> files;
    std::vector<std::string> missing; // result paths the instance does not have
};

/// Brings the run's result paths home into `into`/run-<id>/ (with its full log and samples), resumably and
/// checksummed, writes SHA256SUMS there, and records the folder in the ledger. Progress: bytes of all files.
Result<ResultsDownload> downloadResults(RunFollower& follower,
                                        const std::filesystem::path& into,
                                        const TransferProgress& onProgress,
                                        const CancelToken* cancel,
                                        std::int64_t now);

/// TensorBoard of a run: started on the instance (127.0.0.1:`remotePort` there) when it is not running, and a local
/// port forwarded to it over a session of its own. The tunnel closes when the returned object is destroyed.
/// Errors: InvalidArgument when the run's spec has no TensorBoard folder; RemoteCommandFailed
/// ("error.run.no_tensorboard") when the instance has no TensorBoard and it cannot be installed.
Result<std::unique_ptr<SshTunnel>>
openTensorboard(const RunRecord& run, Prompter& prompter, const CancelToken* cancel, int remotePort = 6006);

/// A finished run's measured speed as the user's own calibration case (saved with saveUserCalibration, later plans
/// use it): the plan's workload on the GPU and count of the option it ran on, in its precision. nullopt when the run
/// did not finish, its log gave no speed, or the speed is not in the unit the workload counts (samples or tokens).
/// `today`: YYYY-MM-DD.
std::optional<CalibrationCase>
calibrationCaseOf(const RunRecord& run, const PlanDocument& plan, const std::string& today);

/// The spec a run was started with (RunRecord::spec): SchemaViolation when it does not read.
Result<RunSpec> runSpecOf(const RunRecord& run);

/// "ubuntu@203.0.113.7": where a launch is logged in to, from its address (kept once it ran) and its provider's
/// login user; empty when either is not known (an adopted instance, Alibaba's and Huawei's images).
std::string sshHostOf(const LedgerEntry& launch);

/// The runs on `launchId` whose results were asked for and are not downloaded yet: terminating it now loses them.
std::vector<RunRecord> runsWithResultsAtRisk(const std::vector<RunRecord>& runs, std::int64_t launchId);

} // namespace gpuplan::core
