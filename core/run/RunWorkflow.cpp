#include "gpuplan/run/RunWorkflow.h"

#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/core/Log.h"
#include "gpuplan/plan/PlanDocument.h"
#include "gpuplan/run/SpotRecovery.h"
#include "run/FolderSync.h"
#include "run/ObjectStore.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace gpuplan::core {

namespace {

using nlohmann::json;

constexpr const char* kRunsFolder = ".gpuplanner/runs"; // under the remote user's home
constexpr const char* kWorkFolder = "gpuplan-work";     // synced working directories, one per local folder name
constexpr const char* kDataFolder = "gpuplan-data";     // synced or pulled datasets
constexpr std::size_t kPollBytes = 1 << 20;             // the most log (and samples) one poll takes
constexpr std::int64_t kSaveEverySeconds = 30;          // how often the measurements reach the ledger

/// The login shell may be fish or csh: every command runs in bash, the shell gpuplan-run.sh is written for.
std::string inBash(const std::string& command)
{
    // wire: a shell command run on the remote machine
    return "exec bash -c " + shellQuote(command);
}

/// "20261206-071512-a1b2": when the run started and a random suffix, so two runs never share a folder.
std::string runName(std::int64_t now)
{
    const std::time_t t = static_cast<std::time_t>(now);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    std::random_device device;
    char suffix[8];
    std::snprintf(suffix, sizeof suffix, "%04x", static_cast<unsigned>(device() & 0xffffu));
    return std::string(stamp) + "-" + suffix;
}

/// A folder name made of `path`'s last part, safe on any shell ("my project" -> "my_project").
std::string folderNameOf(const std::string& path)
{
    std::string name = std::filesystem::path(path).lexically_normal().filename().string();
    if (name.empty() || name == "." || name == "..") {
        name = std::filesystem::path(path).lexically_normal().parent_path().filename().string();
    }
    for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
            c = '_';
        }
    }
    return name.empty() ? "workdir" : name;
}

Error remoteFailed(const char* key, const std::string& said, const std::string& where)
{
    return Error{ErrorCode::RemoteCommandFailed, Reason{key, {{"said", said.substr(0, 2000)}}}, where};
}

/// Runs `command` and returns its output; a non-zero exit is RemoteCommandFailed with `key` and the output.
Result<std::string> runRemote(SshSession& session,
                              const std::string& command,
                              const char* key,
                              const CancelToken* cancel,
                              std::chrono::seconds timeout = std::chrono::seconds(120))
{
    std::string out;
    std::string err;
    SshRunOptions options;
    options.timeout = timeout;
    options.cancel = cancel;
    options.maxOutputBytes = 8u << 20;
    Result<int> code = session.run(
        inBash(command),
        [&](SshStream stream, std::string_view chunk) { (stream == SshStream::Stdout ? out : err).append(chunk); },
        options);
    if (!code) {
        return code.error();
    }
    if (*code != 0) {
        Error error = remoteFailed(key, err.empty() ? out : err, session.target().display());
        error.reason.params["code"] = std::to_string(*code);
        return error;
    }
    return out;
}

/// Writes `text` to a private temporary file here and uploads it to `remote`.
Status
uploadText(SshSession& session, const std::string& text, const std::string& remote, int mode, const CancelToken* cancel)
{
    char name[] = "/tmp/gpuplan-run-XXXXXX";
    const int fd = ::mkstemp(name);
    if (fd < 0) {
        return Error{ErrorCode::FileUnreadable, Reason{"error.run.cannot_write_list", {}}, name};
    }
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    Status sent = written ? session.upload(name, remote, mode, cancel)
                          : Status(Error{ErrorCode::FileUnreadable, Reason{"error.run.cannot_write_list", {}}, name});
    ::unlink(name);
    return sent;
}

Status recordInLedger(const std::filesystem::path& ledgerFile, const RunRecord& run)
{
    Result<std::unique_ptr<Ledger>> ledger = Ledger::open(ledgerFile);
    if (!ledger) {
        return ledger.error();
    }
    return (*ledger)->updateRun(run);
}

/// The remote script's command for the run in `dir`.
std::string helper(const std::string& dir, const std::string& arguments)
{
    // wire: a shell command run on the remote machine
    return "bash " + shellQuote(dir + "/gpuplan-run.sh") + " " + arguments;
}

/// The lines of a chunk of log, progress bars' carriage-return updates as lines of their own.
template <typename Each>
void forEachLine(std::string& partial, std::string_view chunk, Each&& each)
{
    partial.append(chunk);
    std::size_t start = 0;
    std::size_t end;
    while ((end = partial.find_first_of("\r\n", start)) != std::string::npos) {
        each(std::string_view(partial).substr(start, end - start));
        start = end + 1;
    }
    partial.erase(0, start);
    if (partial.size() > 64 * 1024) { // a line without end: read what there is, then start over
        each(std::string_view(partial));
        partial.clear();
    }
}

} // namespace

std::string runConnectionJson(const RunConnection& connection)
{
    auto targetJson = [](const SshTarget& t) {
        return json{{"user", t.user}, {"host", t.host}, {"port", t.port}, {"identity_file", t.identityFile}};
    };
    json jumps = json::array();
    for (const SshTarget& jump : connection.target.jumps) {
        jumps.push_back(targetJson(jump));
    }
    json out = targetJson(connection.target);
    out["jumps"] = jumps;
    out["known_hosts"] = connection.knownHostsFile;
    return out.dump();
}

Result<RunConnection> readRunConnection(const std::string& text)
{
    const json in = json::parse(text, nullptr, false);
    auto readTarget = [](const json& node) -> std::optional<SshTarget> {
        if (!node.is_object() || !node.contains("user") || !node.contains("host") || !node["user"].is_string()
            || !node["host"].is_string()) {
            return std::nullopt;
        }
        SshTarget t;
        t.user = node["user"].get<std::string>();
        t.host = node["host"].get<std::string>();
        t.port = node.value("port", 22);
        t.identityFile = node.value("identity_file", std::string());
        return t;
    };
    std::optional<SshTarget> target = readTarget(in);
    if (!target) {
        return Error{ErrorCode::SchemaViolation,
                     Reason{"error.run.bad_connection", {}},
                     "ledger: runs.connection"}; // wire: where, as errors name a place
    }
    RunConnection connection;
    connection.target = *target;
    if (in.contains("jumps") && in["jumps"].is_array()) {
        for (const json& node : in["jumps"]) {
            if (std::optional<SshTarget> jump = readTarget(node)) {
                connection.target.jumps.push_back(*jump);
            }
        }
    }
    connection.knownHostsFile = in.value("known_hosts", std::string());
    return connection;
}

PlannedRun plannedRunOf(const PlanDocument& plan, std::optional<int> option)
{
    PlannedRun planned;
    const int index = option.value_or(plan.choice.value_or(0));
    planned.currency = currencyCode(plan.currency());
    planned.budget = plan.constraints.budget;
    if (index < 0 || static_cast<std::size_t>(index) >= plan.results.options.size()) {
        planned.planName = plan.workload.name;
        return planned;
    }
    const PlanOption& chosen = plan.results.options[static_cast<std::size_t>(index)];
    const PlanTraining& training = chosen.training;
    if (training.throughput.value > 0) {
        planned.throughput = training.throughput.value;
        planned.throughputLow = training.throughput.low;
        planned.throughputHigh = training.throughput.high;
    }
    // "samples/s", "tokens/s": the unit the log's speed is compared in.
    planned.throughputUnit = training.throughputUnit.substr(0, training.throughputUnit.find('/'));
    planned.hours = chosen.hours.value;
    planned.hoursLow = chosen.hours.low;
    planned.hoursHigh = chosen.hours.high;
    planned.cost = chosen.cost.value;
    planned.planName = plan.workload.name + " · " + chosen.label();
    if (const PlanMode* spot = chosen.firstEligible(&isSpot); spot && spot->spot) {
        planned.checkpointIntervalHours = spot->spot->checkpointIntervalHours;
        if (spot->spot->simulated) {
            planned.spotHoursP50 = spot->spot->simulated->p50Hours;
            planned.spotHoursP90 = spot->spot->simulated->p90Hours;
        }
        if (spot->spot->simulatedCost) {
            planned.spotCostP50 = spot->spot->simulatedCost->p50;
            planned.spotCostP90 = spot->spot->simulatedCost->p90;
        }
    }
    return planned;
}

std::string jobScript(const RunSpec& spec, const std::string& remoteWorkdir, const std::string& remoteData)
{
    // wire: the job's shell script, run on the instance
    std::string script = "#!/usr/bin/env bash\n"
                         "# Written by GPU Planner: the run's setup and training command (gpuplan-run.sh runs it).\n"
                         "set -e\n";
    script += "export GPUPLAN_RUN_DIR=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n";
    if (!remoteData.empty()) {
        script += "export GPUPLAN_DATA=" + shellQuote(remoteData) + "\n";
    }
    script += "cd " + shellQuote(remoteWorkdir) + "\n";
    const SpotHandling& spot = spec.spot;
    const bool watched = spot.watch || spot.recover;
    const std::string checkpoints = remoteWorkdir + "/" + spot.checkpointDir;
    if (watched) {
        // What the training program is told (the starter script reads these), then the bucket's newest checkpoints:
        // a resumed attempt starts from them.
        script += "export GPUPLAN_CHECKPOINT_DIR=" + shellQuote(checkpoints) + "\n";
        script += "export GPUPLAN_CHECKPOINT_READY=\"$GPUPLAN_RUN_DIR/checkpoint-ready\"\n";
        script += "export GPUPLAN_PREEMPT_FILE=\"$GPUPLAN_RUN_DIR/preempt\"\n";
        script += "export GPUPLAN_INTERRUPT_SIGNAL=" + shellQuote(spot.signal) + "\n";
        if (spot.signal == "USR1" || spot.signal == "USR2") {
            // The watcher signals the job's process group: what does not handle the signal ignores it (a shell, a
            // data loader's worker) instead of dying of it; a program that installs a handler gets it.
            script += "trap '' " + spot.signal + "\n";
        }
        script += "mkdir -p \"$GPUPLAN_CHECKPOINT_DIR\"\n";
        if (!spot.checkpointUrl.empty()) {
            // wire: the job's log lines, on the instance
            script += "echo " + shellQuote("[gpuplan] checkpoints: the newest from " + spot.checkpointUrl) + "\n";
            // wire: the job's log lines, on the instance
            script += "if ! (\n" + objectStoreSync(spot.checkpointUrl, checkpoints) + "); then\n  echo "
                      + shellQuote("[gpuplan] no checkpoint could be pulled from " + spot.checkpointUrl
                                   + ": the training starts from what it has")
                      + "\nfi\n";
        }
    }
    if (!datasetScheme(spec.dataset).empty()) {
        script += "echo '[gpuplan] dataset: " + spec.dataset + "'\n";
        script += "mkdir -p \"$GPUPLAN_DATA\"\n" + objectStoreSync(spec.dataset, remoteData);
    }
    std::string inner;
    for (const std::string& step : spec.setup) {
        inner += step + "\n";
    }
    inner += spec.command + "\n";
    if (spec.image.empty()) {
        for (const std::string& step : spec.setup) {
            script += "echo " + shellQuote("[gpuplan] setup: " + step) + "\n" + step + "\n";
        }
        script += "echo " + shellQuote("[gpuplan] run: " + spec.command) + "\n";
        script += "exec bash -c " + shellQuote(spec.command) + "\n"; // wire: the job's last line
        return script;
    }
    // In a container: Docker with the NVIDIA container toolkit, installed from NVIDIA's repository when missing.
    // source: https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html
    script +=
        "if ! command -v nvidia-ctk >/dev/null; then\n"
        "  echo '[gpuplan] installing the NVIDIA container toolkit'\n"
        "  curl -fsSL https://nvidia.github.io/libnvidia-container/gpgkey"
        " | sudo gpg --dearmor -o /usr/share/keyrings/nvidia-container-toolkit-keyring.gpg\n"
        "  curl -fsSL https://nvidia.github.io/libnvidia-container/stable/deb/nvidia-container-toolkit.list"
        " | sed 's#deb https://#deb [signed-by=/usr/share/keyrings/nvidia-container-toolkit-keyring.gpg] https://#g'"
        " | sudo tee /etc/apt/sources.list.d/nvidia-container-toolkit.list >/dev/null\n"
        "  sudo apt-get update -q && sudo apt-get install -y -q nvidia-container-toolkit\n"
        "  sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker\n"
        "fi\n";
    script += "echo " + shellQuote("[gpuplan] image: " + spec.image) + "\n";
    // wire: the job's shell commands, run on the instance
    std::string run = "docker run --rm --gpus all --ipc=host --name \"gpuplan-$(basename \"$GPUPLAN_RUN_DIR\")\" -v "
                      + shellQuote(remoteWorkdir + ":/workspace") + " -w /workspace";
    if (!remoteData.empty()) {
        run += " -v " + shellQuote(remoteData + ":/data") + " -e GPUPLAN_DATA=/data";
    }
    if (watched) {
        run += " -v \"$GPUPLAN_RUN_DIR:$GPUPLAN_RUN_DIR\" -e GPUPLAN_CHECKPOINT_DIR="
               + shellQuote("/workspace/" + spot.checkpointDir)
               + " -e GPUPLAN_CHECKPOINT_READY -e GPUPLAN_PREEMPT_FILE -e GPUPLAN_INTERRUPT_SIGNAL";
    }
    run += " " + shellQuote(spec.image) + " bash -c " + shellQuote(inner);
    script += "exec " + run + "\n";
    return script;
}

Result<RunRecord> startRun(const RunRequest& request,
                           Prompter& prompter,
                           const CancelToken* cancel,
                           const std::function<void(const RunProgress&)>& onProgress,
                           std::int64_t now)
{
    if (Status checked = checkRunSpec(request.spec); !checked) {
        return checked.error();
    }
    if (request.runScript.empty()) {
        return Error{ErrorCode::FileNotFound, Reason{"error.run.no_helper", {}}, "gpuplan-run.sh"};
    }
    auto progress = [&](RunStep step, std::uintmax_t done = 0, std::uintmax_t total = 0, Reason note = {}) {
        if (onProgress) {
            onProgress(RunProgress{step, done, total, std::move(note)});
        }
    };
    // What goes over, listed before anything connects: a folder that cannot be read fails here.
    std::optional<WorkdirListing> workFiles;
    if (!request.spec.workdir.empty()) {
        Result<WorkdirListing> listed = listWorkdir(request.spec.workdir, request.spec.excludes);
        if (!listed) {
            return listed.error();
        }
        workFiles = std::move(listed).value();
    }
    std::optional<WorkdirListing> dataFiles;
    if (!request.spec.dataset.empty() && datasetScheme(request.spec.dataset).empty()) {
        Result<WorkdirListing> listed = listWorkdir(request.spec.dataset);
        if (!listed) {
            return listed.error();
        }
        dataFiles = std::move(listed).value();
    }

    // A bucket in another region than the instance: billed per GB between regions, and slower. Said before it starts,
    // for the dataset and for a spot run's checkpoints.
    std::vector<Reason> otherRegions;
    if (request.launchId != 0) {
        if (Result<std::unique_ptr<Ledger>> ledger = Ledger::open(request.ledgerFile)) {
            if (Result<std::optional<LedgerEntry>> launch = (*ledger)->find(request.launchId); launch && *launch) {
                const std::string& region = (*launch)->intent.region;
                const SpotHandling& spot = request.spec.spot;
                if (!datasetScheme(request.spec.dataset).empty() && !request.spec.datasetRegion.empty()
                    && !region.empty() && region != request.spec.datasetRegion) {
                    otherRegions.push_back(
                        Reason{"run.dataset.other_region",
                               {{"bucket_region", request.spec.datasetRegion}, {"instance_region", region}}});
                }
                if ((spot.watch || spot.recover) && !spot.bucketRegion.empty() && !region.empty()
                    && region != spot.bucketRegion) {
                    otherRegions.push_back(Reason{"run.checkpoints.other_region",
                                                  {{"bucket_region", spot.bucketRegion}, {"instance_region", region}}});
                }
            }
        }
    }

    // The run is in the ledger before the instance is touched: a new one, or the run an attempt resumes.
    const std::string name = runName(now);
    RunSpec spec = request.spec;
    const bool watched = spec.spot.watch || spec.spot.recover;
    if (watched && request.watchScript.empty()) {
        return Error{ErrorCode::FileNotFound, Reason{"error.run.no_helper", {}}, "gpuplan-watch.sh"};
    }
    if (watched && spec.spot.checkpointUrl.empty()) {
        std::string bucket = spec.spot.bucket;
        while (!bucket.empty() && bucket.back() == '/') {
            bucket.pop_back();
        }
        spec.spot.checkpointUrl = bucket + "/gpuplan-run-" + name + "/"; // wire: the bucket's folder of this run
    }
    std::string provider = "none";
    RunRecord run;
    RunAttempt attempt;
    {
        Result<std::unique_ptr<Ledger>> ledger = Ledger::open(request.ledgerFile);
        if (!ledger) {
            return ledger.error();
        }
        if (request.launchId != 0) {
            if (Result<std::optional<LedgerEntry>> launch = (*ledger)->find(request.launchId); launch && *launch) {
                provider = (*launch)->intent.provider;
            }
        }
        if (request.resumeRun != 0) {
            Result<std::optional<RunRecord>> found = (*ledger)->findRun(request.resumeRun);
            if (!found) {
                return found.error();
            }
            if (!*found) {
                return Error{ErrorCode::NotFound,
                             Reason{"error.ledger.no_run", {{"run", std::to_string(request.resumeRun)}}},
                             "ledger"};
            }
            run = **found;
            run.state = RunState::Starting;
            run.endedAt.reset();
            run.exitCode.reset();
        } else {
            run.planId = request.planId;
            run.startedAt = now;
            run.planned = request.planned;
        }
        run.launchId = request.launchId;
        run.host = request.connection.target.display();
        run.connection = runConnectionJson(request.connection);
        run.spec = runSpecJson(spec).dump();
        run.remoteDir = std::string(kRunsFolder) + "/" + name; // made absolute below, once the home is known
        if (request.resumeRun != 0) {
            if (Status kept = (*ledger)->updateRun(run); !kept) {
                return kept.error();
            }
        } else {
            Result<std::int64_t> id = (*ledger)->recordRun(run);
            if (!id) {
                return id.error();
            }
            run.id = *id;
        }
        // Its attempt on this instance: the one a recovery recorded when it launched it, else a new one.
        attempt.runId = run.id;
        attempt.launchId = request.launchId;
        attempt.host = run.host;
        attempt.startedAt = now;
        Result<std::vector<RunAttempt>> attempts = (*ledger)->attempts(run.id);
        if (!attempts) {
            return attempts.error();
        }
        for (const RunAttempt& a : *attempts) {
            attempt.number = std::max(attempt.number, a.number + 1);
            if (a.end.empty() && a.launchId == request.launchId) {
                attempt = a;
                attempt.host = run.host;
                attempt.startedAt = now;
                break;
            }
        }
        if (attempt.id == 0) {
            Result<std::int64_t> id = (*ledger)->recordAttempt(attempt);
            if (!id) {
                return id.error();
            }
            attempt.id = *id;
        }
    }

    for (const Reason& note : otherRegions) {
        progress(RunStep::Dataset, 0, 0, note);
    }
    progress(RunStep::Connect);
    SshOptions options;
    options.knownHostsFile = request.connection.knownHostsFile;
    options.prompter = &prompter;
    Result<std::unique_ptr<SshSession>> connected = SshSession::connect(request.connection.target, options, cancel);
    if (!connected) {
        return connected.error();
    }
    SshSession& session = **connected;

    progress(RunStep::Prepare);
    Result<std::string> home = runRemote(session, "printf %s \"$HOME\"", "error.run.no_home", cancel);
    if (!home) {
        return home.error();
    }
    const std::string dir = *home + "/" + kRunsFolder + "/" + name;
    const std::string workdir =
        *home + "/" + kWorkFolder + "/" + (spec.workdir.empty() ? "run-" + name : folderNameOf(spec.workdir));
    std::string data;
    if (!spec.dataset.empty()) {
        data = *home + "/" + kDataFolder + "/"
               + folderNameOf(dataFiles ? spec.dataset : spec.dataset.substr(spec.dataset.find("://") + 3));
    }
    run.remoteDir = dir;
    if (Status kept = recordInLedger(request.ledgerFile, run); !kept) {
        return kept.error();
    }
    attempt.remoteDir = dir;
    if (Result<std::unique_ptr<Ledger>> ledger = Ledger::open(request.ledgerFile); ledger) {
        if (Status kept = (*ledger)->updateAttempt(attempt); !kept) {
            return kept.error();
        }
    } else {
        return ledger.error();
    }
    // wire: a shell command run on the remote machine
    Result<std::string> made = runRemote(session,
                                         "mkdir -p " + shellQuote(dir) + " " + shellQuote(workdir) + " && printf %s "
                                             + shellQuote(workdir) + " >" + shellQuote(dir + "/workdir"),
                                         "error.run.cannot_prepare",
                                         cancel);
    if (!made) {
        return made.error();
    }
    if (Status sent = uploadText(session, request.runScript, dir + "/gpuplan-run.sh", 0755, cancel); !sent) {
        return sent.error();
    }

    // The working directory, then a local dataset: the listing said first, then the bytes as they go.
    const auto send = [&](RunStep step,
                          const std::string& local,
                          const WorkdirListing& listing,
                          const std::string& remote) -> Status {
        progress(step,
                 0,
                 listing.bytes,
                 Reason{"run.sync.listing",
                        {{"files", std::to_string(listing.files.size())}, {"bytes", std::to_string(listing.bytes)}}});
        return syncFolder(
            session,
            request.connection,
            local,
            listing,
            remote,
            request.sync,
            [&](std::uintmax_t done, std::uintmax_t total, const Reason& note) { progress(step, done, total, note); },
            cancel);
    };
    if (workFiles) {
        if (Status synced = send(RunStep::Sync, spec.workdir, *workFiles, workdir); !synced) {
            return synced.error();
        }
    }
    if (dataFiles) {
        if (Status synced = send(RunStep::Dataset, spec.dataset, *dataFiles, data); !synced) {
            return synced.error();
        }
    }

    progress(RunStep::Start);
    if (watched) {
        // The interruption watcher beside the job (gpuplan-run.sh starts it when watch.conf is there).
        const std::string checkpoints = workdir + "/" + spec.spot.checkpointDir;
        const std::string push = dir + "/checkpoint-push.sh";
        for (const auto& [text, file, mode] :
             {std::tuple{request.watchScript, dir + "/gpuplan-watch.sh", 0755},
              std::tuple{checkpointPushScript(checkpoints, spec.spot.checkpointUrl), push, 0755},
              std::tuple{
                  watchConfig(spec.spot, provider, checkpoints, push, syncEverySecondsOf(spec.spot, run.planned)),
                  dir + "/watch.conf",
                  0644}}) {
            if (Status sent = uploadText(session, text, file, mode, cancel); !sent) {
                return sent.error();
            }
        }
    }
    if (Status sent = uploadText(session, jobScript(spec, workdir, data), dir + "/job.sh", 0755, cancel); !sent) {
        return sent.error();
    }
    Result<std::string> started = runRemote(session,
                                            helper(dir,
                                                   "start " + shellQuote(dir) + " " + shellQuote(request.detach) + " "
                                                       + std::to_string(std::max(1, request.sampleSeconds))),
                                            "error.run.cannot_start",
                                            cancel);
    if (!started) {
        return started.error();
    }
    const std::size_t at = started->find("method=");
    run.method = at == std::string::npos ? std::string() : started->substr(at + 7, started->find('\n', at) - at - 7);
    run.state = RunState::Running;
    if (Status kept = recordInLedger(request.ledgerFile, run); !kept) {
        return kept.error();
    }
    progress(RunStep::Start, 0, 0, Reason{"run.started", {{"method", run.method}, {"dir", dir}}});
    return run;
}

Result<std::unique_ptr<RunFollower>> RunFollower::attach(const RunRecord& run,
                                                         const std::filesystem::path& ledgerFile,
                                                         Prompter& prompter,
                                                         const CancelToken* cancel)
{
    Result<RunConnection> connection = readRunConnection(run.connection);
    if (!connection) {
        return connection.error();
    }
    Result<RunSpec> spec = runSpecOf(run);
    if (!spec) {
        return spec.error();
    }
    std::unique_ptr<RunFollower> follower(new RunFollower());
    follower->m_record = run;
    // The log and samples are read again from their start: so are the measurements made of them.
    follower->m_record.measured.throughput.reset();
    follower->m_record.measured.throughputReadings = 0;
    follower->m_record.measured.gpuUtilization.reset();
    follower->m_spec = std::move(spec).value();
    follower->m_ledgerFile = ledgerFile;
    if (!follower->m_spec.throughput.preset.empty()) {
        Result<ThroughputReader> reader = ThroughputReader::make(follower->m_spec.throughput);
        if (!reader) {
            return reader.error();
        }
        follower->m_reader = std::move(reader).value();
    }
    if (run.launchId != 0) {
        if (Result<std::unique_ptr<Ledger>> ledger = Ledger::open(ledgerFile)) {
            if (Result<std::optional<LedgerEntry>> entry = (*ledger)->find(run.launchId); entry && *entry) {
                follower->m_launch = **entry;
            }
            // A run recovered on this instance: it costs what its earlier instances cost, and this one's price from
            // when its attempt began.
            Result<std::vector<RunAttempt>> attempts = (*ledger)->attempts(run.id);
            Result<std::vector<LedgerEntry>> entries = (*ledger)->entries();
            if (attempts && entries && attempts->size() > 1 && follower->m_launch) {
                std::set<std::int64_t> earlier;
                for (const RunAttempt& a : *attempts) {
                    if (a.launchId == run.launchId && a.end.empty()) {
                        follower->m_attemptStart = a.startedAt;
                    } else if (a.launchId != 0 && a.launchId != run.launchId) {
                        earlier.insert(a.launchId);
                    }
                }
                double cost = 0;
                for (const LedgerEntry& e : *entries) {
                    if (earlier.count(e.id) == 0) {
                        continue;
                    }
                    if (e.intent.price.currency != follower->m_launch->intent.price.currency) {
                        follower->m_earlierCost.reset(); // in another currency: no single figure
                        break;
                    }
                    cost += costSoFar(e, e.endedAt.value_or(run.startedAt));
                    follower->m_earlierCost = cost;
                }
            }
        }
    }
    SshOptions options;
    options.knownHostsFile = connection->knownHostsFile;
    options.prompter = &prompter;
    Result<std::unique_ptr<SshSession>> session = SshSession::connect(connection->target, options, cancel);
    if (!session) {
        return session.error();
    }
    follower->m_session = std::move(session).value();
    return follower;
}

Result<RunUpdate> RunFollower::poll(const CancelToken* cancel, std::int64_t now)
{
    const std::string& dir = m_record.remoteDir;
    Result<std::string> answer =
        runRemote(*m_session,
                  helper(dir,
                         "poll " + shellQuote(dir) + " " + std::to_string(m_logOffset) + " "
                             + std::to_string(m_samplesOffset) + " " + std::to_string(kPollBytes)),
                  "error.run.poll_failed",
                  cancel,
                  std::chrono::seconds(60));
    if (!answer) {
        return answer.error();
    }
    const std::string& text = *answer;
    auto bad = [&](const char* what) {
        return Error{ErrorCode::RemoteCommandFailed,
                     Reason{"error.run.bad_poll", {{"what", what}, {"said", text.substr(0, 300)}}},
                     m_session->target().display()};
    };
    std::size_t pos = 0;
    auto line = [&]() -> std::optional<std::string> {
        const std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) {
            return std::nullopt;
        }
        std::string got = text.substr(pos, end - pos);
        pos = end + 1;
        return got;
    };
    if (line() != std::optional<std::string>("gpuplan-run/1")) {
        return bad("header");
    }
    std::map<std::string, std::string> fields;
    std::string log;
    std::string samples;
    for (std::optional<std::string> next = line(); next; next = line()) {
        if (*next == "end") {
            break;
        }
        const std::size_t space = next->find(' ');
        const std::string key = next->substr(0, space);
        const std::string value = space == std::string::npos ? std::string() : next->substr(space + 1);
        if (key == "log" || key == "samples") {
            std::istringstream numbers(value);
            std::uintmax_t offset = 0;
            std::size_t length = 0;
            if (!(numbers >> offset >> length) || pos + length + 1 > text.size()) {
                return bad(key == "log" ? "log" : "samples");
            }
            (key == "log" ? log : samples) = text.substr(pos, length);
            (key == "log" ? m_logOffset : m_samplesOffset) = offset + length;
            pos += length + 1;
        } else {
            fields[key] = value;
        }
    }
    RunUpdate update;
    const std::string state = fields["state"];
    const std::string exit = fields["exit"];
    if (state == "exited") {
        try {
            update.exitCode = std::stoi(exit);
        } catch (const std::exception&) {
            return bad("exit");
        }
        update.state = fields["stop_requested"] == "yes" ? RunState::Stopped
                       : *update.exitCode == 0           ? RunState::Finished
                                                         : RunState::Failed;
    } else if (state == "running") {
        update.state = RunState::Running;
    } else if (state == "starting") {
        update.state = RunState::Starting;
    } else if (state == "lost") {
        update.state = RunState::Lost;
    } else {
        return bad("state");
    }
    if (!fields["method"].empty() && fields["method"] != "-") {
        m_record.method = fields["method"];
    }
    // A spot run's watcher: its notice and its checkpoint syncs (gpuplan-run.sh reads notice and syncs.csv).
    const auto number = [&](const std::string& key) -> std::optional<std::int64_t> {
        const auto it = fields.find(key);
        if (it == fields.end() || it->second.empty() || it->second == "-") {
            return std::nullopt;
        }
        try {
            return std::stoll(it->second);
        } catch (const std::exception&) {
            return std::nullopt;
        }
    };
    if (const std::optional<std::int64_t> seen = number("notice.seen")) {
        SpotNotice notice;
        notice.provider = fields["notice.provider"];
        notice.kind = fields["notice.kind"];
        notice.action = fields["notice.action"] == "-" ? std::string() : fields["notice.action"];
        notice.seen = *seen;
        notice.deadline = number("notice.deadline").value_or(*seen);
        update.notice = notice;
    }
    update.checkpointSyncedAt = number("checkpoint_synced");
    update.checkpointSyncs = static_cast<int>(number("checkpoint_syncs").value_or(0));
    update.checkpointSyncsFailed = static_cast<int>(number("checkpoint_syncs_failed").value_or(0));
    if (update.notice && update.state == RunState::Failed) {
        // It ended because its instance is being reclaimed, not because the training failed.
        update.state = RunState::Interrupted;
    }
    if ((update.notice && !m_noticeKept) || (update.checkpointSyncedAt && update.checkpointSyncedAt != m_syncedKept)) {
        if (Status kept = recordNotice(
                m_ledgerFile, m_record.id, update.notice.value_or(SpotNotice{}), update.checkpointSyncedAt);
            kept) {
            m_noticeKept = m_noticeKept || update.notice.has_value();
            m_syncedKept = update.checkpointSyncedAt;
        }
    }

    update.log = log;
    m_logTail += log;
    if (m_logTail.size() > kLogTailBytes) {
        m_logTail.erase(0, m_logTail.size() - kLogTailBytes);
    }
    forEachLine(m_partialLog, log, [&](std::string_view logLine) {
        if (m_reader) {
            if (std::optional<LogThroughput> reading = m_reader->read(logLine)) {
                update.throughputs.push_back(*reading);
            }
        }
    });
    // Samples: complete lines only; a line cut by the poll's limit waits for the rest.
    m_partialSamples += samples;
    const std::size_t lastNewline = m_partialSamples.rfind('\n');
    if (lastNewline != std::string::npos) {
        const std::string complete = m_partialSamples.substr(0, lastNewline + 1);
        m_partialSamples.erase(0, lastNewline + 1);
        update.samples = parseMonitorLines(complete, &update.problems, m_samplesLine);
        m_samplesLine += static_cast<int>(std::count(complete.begin(), complete.end(), '\n'));
    }
    for (const MonitorSample& sample : update.samples) {
        // Two polls may each hold part of one second: merge them.
        if (!m_samples.empty() && m_samples.back().at == sample.at) {
            MonitorSample& last = m_samples.back();
            last.gpus.insert(last.gpus.end(), sample.gpus.begin(), sample.gpus.end());
            if (sample.cpuBusy) {
                last.cpuBusy = sample.cpuBusy;
                last.cpuCores = sample.cpuCores;
            }
        } else {
            m_samples.push_back(sample);
        }
    }
    while (!m_samples.empty() && m_samples.back().at - m_samples.front().at > kSampleWindowSeconds) {
        m_samples.pop_front();
    }
    update.stateChanged = update.state != m_record.state;
    measure(update, now);
    return update;
}

void RunFollower::measure(const RunUpdate& update, std::int64_t now)
{
    MeasuredRun& m = m_record.measured;
    for (const LogThroughput& reading : update.throughputs) {
        m_throughputSum += reading.perSecond;
        ++m.throughputReadings;
        m.throughputUnit = reading.unit;
    }
    if (m.throughputReadings > 0) {
        m.throughput = m_throughputSum / m.throughputReadings;
    }
    for (const MonitorSample& sample : update.samples) {
        for (const GpuReading& gpu : sample.gpus) {
            if (gpu.utilization) {
                m_utilizationSum += *gpu.utilization;
                ++m_utilizationCount;
            }
        }
    }
    if (m_utilizationCount > 0) {
        m.gpuUtilization = m_utilizationSum / static_cast<double>(m_utilizationCount);
    }
    const bool ended = isFinal(update.state);
    if (update.stateChanged || !m_record.endedAt) {
        m_record.state = update.state;
    }
    if (ended && !m_record.endedAt) {
        m_record.endedAt = now;
        m_record.exitCode = update.exitCode;
    }
    const std::int64_t until = m_record.endedAt.value_or(now);
    m.hours = static_cast<double>(std::max<std::int64_t>(0, until - m_record.startedAt)) / 3600.0;
    if (m_launch && m_launch->intent.price.unit == PriceUnit::Hour) {
        if (m_attemptStart) { // recovered: the earlier instances, then this one since its attempt began
            const double here = static_cast<double>(std::max<std::int64_t>(0, until - *m_attemptStart)) / 3600.0;
            m.cost = m_earlierCost ? std::optional<double>(*m_earlierCost + here * m_launch->intent.price.amount)
                                   : std::nullopt;
        } else {
            m.cost = m.hours * m_launch->intent.price.amount;
        }
        m.costCurrency = currencyCode(m_launch->intent.price.currency);
    }
    if (update.stateChanged || ended || now - m_lastSaved >= kSaveEverySeconds) {
        if (Status kept = recordInLedger(m_ledgerFile, m_record); !kept) {
            logWarning(LogCategory::Ledger, [&] {
                return "could not keep run " + std::to_string(m_record.id) + ": " + describe(kept.error());
            });
        }
        m_lastSaved = now;
    }
}

Status RunFollower::stop(int graceSeconds, const CancelToken* cancel)
{
    const std::string& dir = m_record.remoteDir;
    const int grace = std::max(1, graceSeconds);
    Result<std::string> stopped = runRemote(*m_session,
                                            helper(dir, "stop " + shellQuote(dir) + " " + std::to_string(grace)),
                                            "error.run.cannot_stop",
                                            cancel,
                                            std::chrono::seconds(3 * grace + 30));
    if (!stopped) {
        return stopped.error();
    }
    return Ok{};
}

RunAdvice RunFollower::advice(const AdviceSettings& settings) const
{
    return adviseOnUtilization(std::vector<MonitorSample>(m_samples.begin(), m_samples.end()), settings);
}

Result<ResultsDownload> downloadResults(RunFollower& follower,
                                        const std::filesystem::path& into,
                                        const TransferProgress& onProgress,
                                        const CancelToken* cancel,
                                        std::int64_t now)
{
    const RunRecord& run = follower.record();
    const std::string& dir = run.remoteDir;
    ResultsDownload download;
    download.folder = into / ("run-" + std::to_string(run.id));
    std::string paths;
    for (const std::string& path : follower.spec().results) {
        paths += " " + shellQuote(path);
    }
    struct Wanted
    {
        std::string remote;
        std::string local;
        std::uintmax_t size;
    };
    std::vector<Wanted> wanted;
    if (!paths.empty()) {
        Result<std::string> listed = runRemote(follower.session(),
                                               helper(dir, "files " + shellQuote(dir) + paths),
                                               "error.run.cannot_list_results",
                                               cancel);
        if (!listed) {
            return listed.error();
        }
        Result<std::string> workdir = runRemote(
            follower.session(), "cat " + shellQuote(dir + "/workdir"), "error.run.cannot_list_results", cancel);
        if (!workdir) {
            return workdir.error();
        }
        std::istringstream lines(*listed);
        std::string line;
        while (std::getline(lines, line)) {
            const std::size_t tab = line.find('\t');
            if (tab == std::string::npos) {
                continue;
            }
            const std::string first = line.substr(0, tab);
            std::string path = line.substr(tab + 1);
            if (first == "missing") {
                download.missing.push_back(path);
                continue;
            }
            std::uintmax_t size = 0;
            try {
                size = std::stoull(first);
            } catch (const std::exception&) {
                continue;
            }
            std::string local = path;
            while (!local.empty() && local.front() == '/') {
                local.erase(0, 1);
            }
            if (local.rfind("./", 0) == 0) {
                local.erase(0, 2);
            }
            // find prints what it was given: relative paths are the working directory's.
            const std::string remote = path.front() == '/' ? path : *workdir + "/" + path;
            wanted.push_back(Wanted{remote, local, size});
        }
    }
    // The run's own record comes too: its whole log and every sample.
    wanted.push_back(Wanted{dir + "/output.log", ".gpuplan/output.log", 0});
    wanted.push_back(Wanted{dir + "/samples.csv", ".gpuplan/samples.csv", 0});
    std::uintmax_t total = 0;
    for (const Wanted& w : wanted) {
        total += w.size;
    }
    std::uintmax_t before = 0;
    std::string sums;
    for (const Wanted& w : wanted) {
        const std::filesystem::path local = download.folder / w.local;
        Result<std::string> sha = follower.session().download(
            w.remote,
            local.string(),
            [&](std::uintmax_t done, std::uintmax_t) {
                if (onProgress) {
                    onProgress(before + done, std::max(total, before + done));
                }
            },
            cancel);
        if (!sha) {
            if (sha.error().code == ErrorCode::NotFound && w.local.rfind(".gpuplan/", 0) == 0) {
                continue; // a run that printed nothing or sampled nothing has no such file
            }
            return sha.error();
        }
        std::error_code ec;
        const std::uintmax_t size = std::filesystem::file_size(local, ec);
        before += ec ? w.size : size;
        download.files.push_back(ResultFile{w.local, ec ? w.size : size, *sha});
        sums += *sha + "  " + w.local + "\n";
    }
    {
        std::ofstream out(download.folder / "SHA256SUMS", std::ios::binary | std::ios::trunc);
        out << sums;
        if (!out) {
            return Error{ErrorCode::FileUnreadable,
                         Reason{"error.run.cannot_write_sums", {}},
                         (download.folder / "SHA256SUMS").string()};
        }
    }
    RunRecord updated = run;
    updated.resultsDir = download.folder.string();
    updated.resultsAt = now;
    Result<std::unique_ptr<Ledger>> ledger = Ledger::open(follower.ledgerFile());
    if (!ledger) {
        return ledger.error();
    }
    if (Status kept = (*ledger)->updateRun(updated); !kept) {
        return kept.error();
    }
    follower.setResults(updated.resultsDir, now);
    return download;
}

Result<std::unique_ptr<SshTunnel>>
openTensorboard(const RunRecord& run, Prompter& prompter, const CancelToken* cancel, int remotePort)
{
    Result<RunSpec> spec = runSpecOf(run);
    if (!spec) {
        return spec.error();
    }
    if (spec->tensorboardLogdir.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.run.no_tensorboard_logdir", {}}, "--tensorboard"};
    }
    Result<RunConnection> connection = readRunConnection(run.connection);
    if (!connection) {
        return connection.error();
    }
    SshOptions options;
    options.knownHostsFile = connection->knownHostsFile;
    options.prompter = &prompter;
    Result<std::unique_ptr<SshSession>> session = SshSession::connect(connection->target, options, cancel);
    if (!session) {
        return session.error();
    }
    const std::string& dir = run.remoteDir;
    Result<std::string> started =
        runRemote(**session,
                  helper(dir,
                         "tensorboard " + shellQuote(dir) + " " + shellQuote(spec->tensorboardLogdir) + " "
                             + std::to_string(remotePort)),
                  "error.run.no_tensorboard",
                  cancel);
    if (!started) {
        return started.error();
    }
    // Wait (up to 60 s) until it listens: TensorBoard takes a few seconds to load its plugins.
    // wire: a shell command run on the remote machine
    const std::string listening = "for i in $(seq 1 120); do (exec 3<>/dev/tcp/127.0.0.1/" + std::to_string(remotePort)
                                  + ") 2>/dev/null && exit 0; sleep 0.5; done; exit 1";
    if (Result<std::string> up = runRemote(**session, listening, "error.run.tensorboard_not_listening", cancel); !up) {
        return up.error();
    }
    return SshTunnel::open(std::move(session).value(), "127.0.0.1", remotePort);
}

Result<RunSpec> runSpecOf(const RunRecord& run)
{
    // wire: where, as errors name a place
    return readRunSpec(json::parse(run.spec, nullptr, false), "ledger: runs.spec");
}

std::string sshHostOf(const LedgerEntry& launch)
{
    const ProviderDescriptor* provider = ProviderRegistry::builtIn().find(launch.intent.provider);
    if (!provider || provider->loginUser.empty() || launch.address.empty()) {
        return {};
    }
    const bool v6 = launch.address.find(':') != std::string::npos;
    return provider->loginUser + "@" + (v6 ? "[" + launch.address + "]" : launch.address);
}

std::optional<CalibrationCase>
calibrationCaseOf(const RunRecord& run, const PlanDocument& plan, const std::string& today)
{
    const MeasuredRun& m = run.measured;
    if (run.state != RunState::Finished || !m.throughput || *m.throughput <= 0 || !plan.workload.definition) {
        return std::nullopt;
    }
    const Workload& workload = *plan.workload.definition;
    if (m.throughputUnit != (workload.countsTokens() ? "tokens" : "samples")) {
        return std::nullopt;
    }
    const std::size_t index = static_cast<std::size_t>(std::max(0, plan.choice.value_or(0)));
    if (index >= plan.results.options.size()) {
        return std::nullopt;
    }
    const PlanOption& option = plan.results.options[index];
    CalibrationCase c;
    c.id = "user-run-" + std::to_string(run.id) + "-" + workload.id + "-" + option.training.gpu;
    c.workloadId = workload.id;
    c.model = workload.name;
    c.modelClass = workload.modelClass;
    c.gpuId = option.training.gpu;
    c.count = std::max(1, option.training.count);
    c.gpusPerNode = std::max(1, option.gpus / std::max(1, option.nodes));
    c.precision = parsePrecision(option.training.precision).value_or(Precision::Amp);
    c.stack = workload.stack;
    c.measured = m.throughput;
    c.tokens = workload.countsTokens();
    c.group = "user";
    c.user = true;
    // wire: the case's source: the run that measured it, as `gpuplan runs` lists it
    // (a URL is required: .invalid is reserved, RFC 2606, so it never resolves)
    c.source = Source{"https://gpuplanner.invalid/run/" + std::to_string(run.id), today, today, run.host};
    return c;
}

std::vector<RunRecord> runsWithResultsAtRisk(const std::vector<RunRecord>& runs, std::int64_t launchId)
{
    std::vector<RunRecord> out;
    for (const RunRecord& run : runs) {
        if (run.launchId != launchId || run.resultsAt) {
            continue;
        }
        Result<RunSpec> spec = runSpecOf(run);
        if (spec && !spec->results.empty()) {
            out.push_back(run);
        }
    }
    return out;
}

} // namespace gpuplan::core
