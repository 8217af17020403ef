// `gpuplan run` and `gpuplan runs`: a training run on an instance, as the Run page does it (core/run/RunWorkflow.h).

#include "RunCommands.h"

#include "CredsCommands.h"
#include "LaunchCommandParts.h"
#include "TerminalOutput.h"
#include "TerminalPrompter.h"
#include "TextTable.h"

#include "gpuplan/catalog/CatalogChecks.h"
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/cloud/LaunchChoice.h"
#include "gpuplan/core/Paths.h"
#include "gpuplan/deploy/SshConfig.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/plan/PlanFile.h"
#include "gpuplan/report/RunsReport.h"
#include "gpuplan/run/RunWorkflow.h"
#include "gpuplan/run/SpotRecovery.h"
#include "gpuplan/run/StarterScript.h"
#include "wording/RecoveryText.h"
#include "wording/RunText.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <csignal>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <thread>

namespace gpuplan::cli {

using launching::badInput;
using launching::cloudAccess;
using launching::confirm;
using launching::fail;

namespace {

std::string runText(const core::Reason& reason)
{
    return ui::runReasonText(reason).toStdString();
}

std::string fixed(double value, int digits = 1)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(digits) << value;
    return out.str();
}

std::string bytesText(std::uintmax_t bytes)
{
    if (bytes >= (1u << 30)) {
        return fixed(static_cast<double>(bytes) / (1u << 30)) + " GiB";
    }
    if (bytes >= (1u << 20)) {
        return fixed(static_cast<double>(bytes) / (1u << 20)) + " MiB";
    }
    if (bytes >= 1024) {
        return fixed(static_cast<double>(bytes) / 1024) + " KiB";
    }
    return std::to_string(bytes) + " B";
}

/// "GPU0 43% 12.1/80.0 GiB 210 W 65°C | CPU 95% of 2 cores": the newest sample in a line.
std::string monitorLine(const core::MonitorSample& sample)
{
    std::string line;
    for (const core::GpuReading& gpu : sample.gpus) {
        line += "GPU" + std::to_string(gpu.index);
        line += gpu.utilization ? " " + fixed(*gpu.utilization, 0) + "%" : " ?%";
        if (gpu.memoryUsedMiB && gpu.memoryTotalMiB) {
            line += " " + fixed(*gpu.memoryUsedMiB / 1024) + "/" + fixed(*gpu.memoryTotalMiB / 1024) + " GiB";
        }
        if (gpu.powerW) {
            line += " " + fixed(*gpu.powerW, 0) + " W";
        }
        if (gpu.temperatureC) {
            line += " " + fixed(*gpu.temperatureC, 0) + " C";
        }
        line += " | ";
    }
    if (sample.cpuBusy) {
        line += "CPU " + fixed(*sample.cpuBusy, 0) + "%";
        if (sample.cpuCores) {
            line += " of " + std::to_string(*sample.cpuCores) + " cores";
        }
    }
    return line;
}

/// "3.2 samples/s (plan 4.1, 3.0-5.2)".
std::string speedText(const core::MeasuredRun& measured, const core::PlannedRun& planned)
{
    if (!measured.throughput) {
        return {};
    }
    std::string text = fixed(*measured.throughput) + " " + measured.throughputUnit + "/s";
    if (planned.throughput && measured.throughputUnit == planned.throughputUnit) {
        text += " (plan " + fixed(*planned.throughput) + ", " + fixed(planned.throughputLow.value_or(0)) + "-"
                + fixed(planned.throughputHigh.value_or(0)) + ")";
    }
    return text;
}

/// Where a run stands, in the wording both front ends use.
std::string stateText(core::RunState state, std::optional<int> exitCode)
{
    return ui::runStateText(state, exitCode).toStdString();
}

core::Result<core::RunRecord> findRun(std::int64_t id)
{
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::openDefaultLedger();
    if (!ledger) {
        return ledger.error();
    }
    core::Result<std::optional<core::RunRecord>> found = (*ledger)->findRun(id);
    if (!found) {
        return found.error();
    }
    if (!*found) {
        return core::Error{
            core::ErrorCode::NotFound, core::Reason{"error.ledger.no_run", {{"run", std::to_string(id)}}}, "--attach"};
    }
    return **found;
}

int downloadNow(core::RunFollower& follower, const std::string& into)
{
    std::cerr << "bringing the results home into " << into << "...\n";
    std::uintmax_t shown = 0;
    core::Result<core::ResultsDownload> got = core::downloadResults(
        follower,
        into,
        [&](std::uintmax_t done, std::uintmax_t total) {
            if (done - shown >= (8u << 20) || done == total) {
                std::cerr << "  " << bytesText(done) << " of " << bytesText(total) << "\n";
                shown = done;
            }
        },
        nullptr,
        core::unixNow());
    if (!got) {
        return fail(got.error());
    }
    for (const std::string& missing : got->missing) {
        std::cerr << "gpuplan: warning: the instance has no " << missing << "\n";
    }
    std::cout << "Results of run " << follower.record().id << " in " << got->folder.string() << " ("
              << got->files.size() << " files, checksums in SHA256SUMS):\n";
    for (const core::ResultFile& file : got->files) {
        std::cout << "  " << file.sha256.substr(0, 16) << "  " << bytesText(file.size) << "  " << file.path << "\n";
    }
    return kExitOk;
}

/// A finished run's speed, kept as the user's calibration case when the plan it ran for is at hand.
void keepAsCalibration(const core::RunRecord& run, const core::PlanDocument& plan)
{
    const std::optional<core::CalibrationCase> measured = core::calibrationCaseOf(run, plan, core::todayUtc());
    if (!measured) {
        return;
    }
    core::Result<std::filesystem::path> saved = core::saveUserCalibration(*measured, core::userCalibrationDir());
    if (!saved) {
        std::cerr << "gpuplan: warning: the measured speed was not kept: " << said(saved.error()) << "\n";
        return;
    }
    std::cerr << "Kept the measured " << fixed(*measured->measured) << " " << run.measured.throughputUnit
              << "/s as your calibration case (" << saved->string() << "): plans from now on use it.\n";
}

/// What follow() returns when the run's spot instance is being reclaimed and the run recovers: not an exit code.
constexpr int kRecoverNow = -1;

/// Whether the run's instance is gone, as its provider says: asked only for a spot run that recovers, whose
/// instance stopped answering.
using ReclaimCheck = std::function<bool(const core::RunRecord&)>;

/// Follows the run until it ends: new log to stdout, a monitor line and advice to stderr; a finished run's speed
/// is kept as a calibration case when `plan` (the plan it ran for) is given. A spot run that recovers returns
/// kRecoverNow once its notice is settled (its checkpoint in the bucket, or the deadline passed) and its job
/// ended, or once `reclaimed` says its instance is gone.
int follow(core::RunFollower& follower,
           const RunOptions& options,
           const core::PlanDocument* plan = nullptr,
           const ReclaimCheck& reclaimed = {})
{
    std::cerr << "Following run " << follower.record().id << " on " << follower.record().host
              << " (Ctrl-C leaves it running; `gpuplan run --attach " << follower.record().id
              << "` comes back to it).\n";
    core::AdviceSettings settings;
    settings.lowForSeconds = options.adviceAfter;
    std::string lastAdvice;
    int failures = 0;
    bool noticeSaid = false;
    const bool recovers = follower.spec().spot.recover && reclaimed;
    for (;;) {
        core::Result<core::RunUpdate> update = follower.poll(nullptr, core::unixNow());
        if (!update) {
            if (recovers && failures >= 1 && reclaimed(follower.record())) {
                std::cerr << "gpuplan: the provider says run " << follower.record().id << "'s spot instance is gone.\n";
                return kRecoverNow;
            }
            if (++failures >= 5) {
                return fail(update.error());
            }
            std::cerr << "gpuplan: " << said(update.error()) << " (trying again)\n";
            std::this_thread::sleep_for(std::chrono::seconds(options.pollSeconds));
            continue;
        }
        failures = 0;
        std::cout << update->log << std::flush;
        if (update->notice && !noticeSaid) {
            std::cerr << "[spot] " << ui::spotNoticeText(*update->notice).toStdString() << "\n";
            noticeSaid = true;
        }
        if (update->notice && update->state == core::RunState::Interrupted && recovers) {
            if (core::noticeSettled(*update->notice, update->checkpointSyncedAt, core::unixNow())) {
                std::cerr << "[spot] "
                          << (update->checkpointSyncedAt ? "the checkpoint is in the bucket"
                                                         : "no checkpoint reached the bucket before the deadline")
                          << ": recovering.\n";
                return kRecoverNow;
            }
            std::this_thread::sleep_for(std::chrono::seconds(options.pollSeconds));
            continue;
        }
        for (const core::Reason& problem : update->problems) {
            std::cerr << "gpuplan: " << runText(problem) << "\n";
        }
        if (!update->samples.empty()) {
            std::string line = "[monitor] " + monitorLine(update->samples.back());
            const std::string speed = speedText(follower.record().measured, follower.record().planned);
            std::cerr << line << (speed.empty() ? "" : " | " + speed) << "\n";
        }
        const core::RunAdvice advice = follower.advice(settings);
        std::string adviceText;
        if (advice.low) {
            adviceText = "[advice] GPU utilisation " + fixed(advice.meanUtilization, 0) + "% since "
                         + std::to_string(core::unixNow() - advice.since) + " s:";
            for (const core::Reason& cause : advice.causes) {
                adviceText += "\n  - " + runText(cause);
            }
        }
        if (!adviceText.empty() && adviceText.substr(0, 20) != lastAdvice.substr(0, 20)) {
            std::cerr << adviceText << "\n";
        }
        lastAdvice = adviceText;
        if (core::isFinal(update->state)) {
            const core::RunRecord& run = follower.record();
            std::cout << std::flush;
            std::cerr << "Run " << run.id << " " << stateText(update->state, update->exitCode) << " after "
                      << fixed(run.measured.hours * 60) << " min";
            if (const std::string speed = speedText(run.measured, run.planned); !speed.empty()) {
                std::cerr << ", " << speed;
            }
            std::cerr << ".\n";
            if (plan) {
                keepAsCalibration(run, *plan);
            }
            int exit = update->state == core::RunState::Finished ? kExitOk : kExitFailure;
            if (!follower.spec().results.empty()) {
                if (int downloaded = downloadNow(follower, options.resultsDir); downloaded != kExitOk) {
                    exit = downloaded;
                }
            }
            return exit;
        }
        std::this_thread::sleep_for(std::chrono::seconds(options.pollSeconds));
    }
}

core::Result<std::unique_ptr<core::RunFollower>> attachTo(std::int64_t id, bool acceptNewHostKey)
{
    core::Result<core::RunRecord> run = findRun(id);
    if (!run) {
        return run.error();
    }
    TerminalPrompter prompter(acceptNewHostKey);
    return core::RunFollower::attach(*run, core::defaultLedgerFile(), prompter, nullptr);
}

std::optional<core::SyncMethod> syncMethodOf(const std::string& name)
{
    if (name == "auto") {
        return core::SyncMethod::Auto;
    }
    if (name == "rsync") {
        return core::SyncMethod::Rsync;
    }
    if (name == "sftp") {
        return core::SyncMethod::Sftp;
    }
    return std::nullopt;
}

volatile std::sig_atomic_t g_tensorboardStop = 0;

/// A spot recovery's parts, made the first time a run needs them: the keychain, the catalog and the network only
/// then.
class CliRecovery
{
public:
    CliRecovery(int& argc,
                char** argv,
                const CatalogOptions& catalog,
                const RunOptions& options,
                std::filesystem::path scriptsDir,
                std::shared_ptr<const core::PlanDocument> plan)
        : m_argc(argc)
        , m_argv(argv)
        , m_catalog(catalog)
        , m_options(options)
        , m_scriptsDir(std::move(scriptsDir))
        , m_plan(std::move(plan))
    { }

    /// The services for a run whose SSH port is `sshPort`.
    core::Result<core::RecoveryServices> services(int sshPort)
    {
        if (!m_store) {
            makeApplication(m_argc, m_argv, m_app);
            core::Result<core::HttpOptions> network = launching::httpOptions(m_options.network);
            if (!network) {
                return network.error();
            }
            core::initializeHttp();
            m_http = std::make_shared<core::HttpClient>(*network);
            core::Result<core::LoadedCatalog> loaded =
                core::loadCatalog(m_catalog.catalogDir, m_catalog.userCatalogDir, m_catalog.pricesDir);
            if (!loaded) {
                return loaded.error();
            }
            m_loaded = std::make_shared<const core::Catalog>(loaded->catalog);
            m_store = openCredentialStore();
        }
        core::RecoveryEnvironment environment;
        environment.ledgerFile = core::defaultLedgerFile();
        environment.scriptsDir = m_scriptsDir;
        environment.catalog = m_loaded;
        environment.http = m_http;
        ui::CredentialStore* store = m_store.get();
        environment.access = [store](const std::string& provider) { return cloudAccess(provider, *store); };
        environment.plan = m_plan;
        environment.sshPort = sshPort;
        return core::makeRecoveryServices(environment);
    }

    /// Recovers run `runId` (its SSH port `sshPort`), each step said on stderr.
    core::Result<core::RunRecord> recover(std::int64_t runId, int sshPort)
    {
        core::Result<core::RecoveryServices> s = services(sshPort);
        if (!s) {
            return s.error();
        }
        TerminalPrompter prompter(m_options.acceptNewHostKey);
        return core::recoverRun(runId, *s, prompter, nullptr, [](const core::RecoveryProgress& p) {
            if (const QString text = ui::recoveryProgressText(p); !text.isEmpty()) {
                std::cerr << "[recovery] " << text.toStdString() << "\n";
            }
        });
    }

    /// Whether `run`'s instance is gone, as its provider says now (false when it cannot be asked).
    bool reclaimed(const core::RunRecord& run)
    {
        core::Result<core::RunConnection> connection = core::readRunConnection(run.connection);
        core::Result<core::RecoveryServices> s = services(connection ? connection->target.port : 22);
        if (!s) {
            std::cerr << "gpuplan: cannot ask the provider: " << said(s.error()) << "\n";
            return false;
        }
        core::Result<bool> gone = core::instanceReclaimed(run, *s, nullptr);
        if (!gone) {
            std::cerr << "gpuplan: cannot ask the provider: " << said(gone.error()) << "\n";
            return false;
        }
        return *gone;
    }

private:
    int& m_argc;
    char** m_argv;
    CatalogOptions m_catalog;
    RunOptions m_options;
    std::filesystem::path m_scriptsDir;
    std::shared_ptr<const core::PlanDocument> m_plan;
    std::optional<QCoreApplication> m_app;
    std::shared_ptr<core::HttpClient> m_http;
    std::shared_ptr<const core::Catalog> m_loaded;
    std::unique_ptr<ui::CredentialStore> m_store;
};

/// Follows a run, and while it is a spot run that recovers, recovers it each time its instance is reclaimed and
/// follows it again on the new one.
int followAndRecover(std::unique_ptr<core::RunFollower> follower,
                     const RunOptions& options,
                     const core::PlanDocument* plan,
                     CliRecovery& recovery)
{
    for (;;) {
        const int code =
            follow(*follower, options, plan, [&](const core::RunRecord& run) { return recovery.reclaimed(run); });
        if (code != kRecoverNow) {
            return code;
        }
        const std::int64_t id = follower->record().id;
        const int port = follower->session().target().port;
        follower.reset();
        core::Result<core::RunRecord> resumed = recovery.recover(id, port);
        if (!resumed) {
            return fail(resumed.error());
        }
        TerminalPrompter prompter(options.acceptNewHostKey);
        core::Result<std::unique_ptr<core::RunFollower>> again =
            core::RunFollower::attach(*resumed, core::defaultLedgerFile(), prompter, nullptr);
        if (!again) {
            return fail(again.error());
        }
        follower = std::move(again).value();
    }
}

/// `gpuplan run --init DIR [PLAN]`: the starter training script from the plan (or the defaults) in DIR/train.py.
int writeStarter(const RunOptions& options, const std::filesystem::path& scriptsDir)
{
    core::StarterSettings settings;
    if (!options.plan.empty()) {
        core::Result<core::PlanDocument> plan = core::loadPlan(options.plan);
        if (!plan) {
            return fail(plan.error());
        }
        settings = core::starterSettingsOf(*plan);
    }
    if (!options.signal.empty()) {
        settings.interruptSignal = options.signal;
    }
    std::ifstream in(scriptsDir / core::kStarterTemplateFile, std::ios::binary);
    const std::string templateText((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (templateText.empty()) {
        return fail(core::Error{core::ErrorCode::FileNotFound,
                                core::Reason{"error.run.no_helper", {}},
                                (scriptsDir / core::kStarterTemplateFile).string()});
    }
    core::Result<std::string> script = core::starterScript(settings, templateText);
    if (!script) {
        return fail(script.error());
    }
    std::error_code ec;
    std::filesystem::create_directories(options.init, ec);
    const std::filesystem::path target = std::filesystem::path(options.init) / core::kStarterScriptFile;
    if (std::filesystem::exists(target, ec)) {
        return badInput("--init: " + target.string() + " exists; move it away first (it is never overwritten)");
    }
    if (core::Status written = core::writeFileAtomically(target, *script, core::FileAccess::KeepOrPrivate); !written) {
        return fail(written.error());
    }
    const core::RunSpec spec = core::starterRunSpec(settings, std::filesystem::absolute(options.init).string());
    std::cout << "Wrote " << target.string() << ": a " << settings.family << " in " << settings.precision << ", batch "
              << settings.batchSize << " per GPU, a checkpoint every " << settings.checkpointEvery
              << " steps and on SIG" << settings.interruptSignal << " (exit " << core::kStarterInterruptedExit
              << ", resumed from the newest checkpoint).\n"
              << "Replace its model and data (the REPLACE THIS sections), then run it with:\n"
              << "  gpuplan run " << (options.plan.empty() ? std::string("PLAN") : options.plan)
              << " --instance ID --workdir " << options.init << " --command '" << spec.command
              << "' --throughput-regex '" << spec.throughput.regex << "' --throughput-unit " << spec.throughput.unit
              << " --spot --recover --checkpoint-bucket s3://BUCKET/PREFIX\n";
    return kExitOk;
}

} // namespace

int runRun(int& argc,
           char** argv,
           const CatalogOptions& catalog,
           const RunOptions& options,
           const std::filesystem::path& scriptsDir)
{
    if (!options.init.empty()) {
        return writeStarter(options, scriptsDir);
    }
    // Acting on a run started before.
    if (options.stop > 0) {
        core::Result<std::unique_ptr<core::RunFollower>> follower = attachTo(options.stop, options.acceptNewHostKey);
        if (!follower) {
            return fail(follower.error());
        }
        std::cerr << "stopping run " << options.stop << " (SIGINT, then SIGTERM after " << options.grace
                  << " s, then SIGKILL)...\n";
        if (core::Status stopped = (*follower)->stop(options.grace, nullptr); !stopped) {
            return fail(stopped.error());
        }
        core::Result<core::RunUpdate> update = (*follower)->poll(nullptr, core::unixNow());
        if (!update) {
            return fail(update.error());
        }
        std::cout << "Run " << options.stop << " " << stateText(update->state, update->exitCode) << ".\n";
        return kExitOk;
    }
    if (options.download > 0) {
        core::Result<std::unique_ptr<core::RunFollower>> follower =
            attachTo(options.download, options.acceptNewHostKey);
        if (!follower) {
            return fail(follower.error());
        }
        return downloadNow(**follower, options.resultsDir);
    }
    if (options.openTensorboard > 0) {
        core::Result<core::RunRecord> run = findRun(options.openTensorboard);
        if (!run) {
            return fail(run.error());
        }
        TerminalPrompter prompter(options.acceptNewHostKey);
        core::Result<std::unique_ptr<core::SshTunnel>> tunnel = core::openTensorboard(*run, prompter, nullptr);
        if (!tunnel) {
            return fail(tunnel.error());
        }
        std::cout << "TensorBoard of run " << run->id << ": http://127.0.0.1:" << (*tunnel)->localPort() << "/\n"
                  << std::flush;
        std::cerr << "(Ctrl-C closes the tunnel; TensorBoard keeps running on the instance.)\n";
        std::signal(SIGINT, [](int) { g_tensorboardStop = 1; });
        std::signal(SIGTERM, [](int) { g_tensorboardStop = 1; });
        while (!g_tensorboardStop) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        return kExitOk;
    }
    if (options.attach > 0) {
        core::Result<core::RunRecord> run = findRun(options.attach);
        if (!run) {
            return fail(run.error());
        }
        CliRecovery recovery(argc, argv, catalog, options, scriptsDir, nullptr);
        core::Result<core::RunSpec> spec = core::runSpecOf(*run);
        if (spec && spec->spot.recover
            && (run->state == core::RunState::Recovering || run->state == core::RunState::Interrupted)) {
            // A recovery that did not finish (the program was stopped, or it found no capacity then): again.
            core::Result<core::RunConnection> connection = core::readRunConnection(run->connection);
            if (core::Result<core::RunRecord> resumed =
                    recovery.recover(run->id, connection ? connection->target.port : 22);
                !resumed) {
                return fail(resumed.error());
            }
        }
        core::Result<std::unique_ptr<core::RunFollower>> follower = attachTo(options.attach, options.acceptNewHostKey);
        if (!follower) {
            return fail(follower.error());
        }
        return followAndRecover(std::move(follower).value(), options, nullptr, recovery);
    }

    // Starting one: the plan's spec, with the flags over it, on --host or the launch's address.
    if (options.host.empty() && options.instance == 0) {
        return badInput("run needs --instance ID (a launch of `gpuplan instances`) or --host USER@HOST[:PORT], or "
                        "--attach RUN");
    }
    std::string host = options.host;
    core::RunRequest request;
    std::optional<core::PlanDocument> plan;
    if (!options.plan.empty()) {
        core::Result<core::PlanDocument> loaded = core::loadPlan(options.plan);
        if (!loaded) {
            return fail(loaded.error());
        }
        plan = std::move(loaded).value();
        request.spec = plan->run.value_or(core::RunSpec{});
        request.planned = core::plannedRunOf(*plan);
        request.planId = core::planIdOf(*plan);
    }
    core::RunSpec& spec = request.spec;
    if (!options.workdir.empty()) {
        spec.workdir = std::filesystem::absolute(options.workdir).lexically_normal().string();
    }
    if (!options.command.empty()) {
        spec.command = options.command;
    }
    if (!options.setup.empty()) {
        spec.setup = options.setup;
    }
    if (!options.excludes.empty()) {
        spec.excludes = options.excludes;
    }
    if (!options.dataset.empty()) {
        spec.dataset = options.dataset;
    }
    if (!options.datasetRegion.empty()) {
        spec.datasetRegion = options.datasetRegion;
    }
    if (!options.image.empty()) {
        spec.image = options.image;
    }
    if (!options.results.empty()) {
        spec.results = options.results;
    }
    if (!options.throughput.empty()) {
        spec.throughput.preset = options.throughput;
    }
    if (!options.throughputRegex.empty()) {
        spec.throughput.preset = "custom";
        spec.throughput.regex = options.throughputRegex;
    }
    if (!options.throughputUnit.empty()) {
        spec.throughput.unit = options.throughputUnit;
    }
    if (options.perStep > 0) {
        spec.throughput.perStep = options.perStep;
    }
    if (!options.tensorboardLogdir.empty()) {
        spec.tensorboardLogdir = options.tensorboardLogdir;
    }
    core::SpotHandling& spot = spec.spot;
    spot.recover = spot.recover || options.recover;
    spot.watch = spot.watch || options.spot || spot.recover;
    for (auto [flag, field] : {std::pair{&options.checkpointBucket, &spot.bucket},
                               std::pair{&options.checkpointBucketRegion, &spot.bucketRegion},
                               std::pair{&options.checkpointDir, &spot.checkpointDir},
                               std::pair{&options.signal, &spot.signal},
                               std::pair{&options.publicKey, &spot.publicKeyFile},
                               std::pair{&options.sshFrom, &spot.sshFrom},
                               std::pair{&options.metadataUrl, &spot.metadataUrl}}) {
        if (!flag->empty()) {
            *field = *flag;
        }
    }
    if (!options.publicKey.empty()) {
        spot.publicKeyFile = std::filesystem::absolute(options.publicKey).lexically_normal().string();
    }
    spot.checkpointUrl.clear(); // a new run keeps its checkpoints in a folder of its own
    for (auto [flag, field] : {std::pair{options.syncEvery, &spot.syncEverySeconds},
                               std::pair{options.onDemandAfter, &spot.onDemandAfter},
                               std::pair{options.maxAttempts, &spot.maxAttempts}}) {
        if (flag >= 0) {
            *field = flag;
        }
    }
    if (spot.recover && options.instance == 0) {
        return badInput("--recover needs --instance ID: a launch of GPU Planner's is what it relaunches");
    }
    if (core::Status checked = core::checkRunSpec(spec); !checked) {
        return fail(checked.error());
    }
    const std::optional<core::SyncMethod> sync = syncMethodOf(options.sync);
    if (!sync) {
        return badInput("--sync must be auto, rsync or sftp, not " + options.sync);
    }
    if (options.detachWith != "auto" && options.detachWith != "systemd" && options.detachWith != "tmux"
        && options.detachWith != "nohup") {
        return badInput("--detach-with must be auto, systemd, tmux or nohup, not " + options.detachWith);
    }
    if (options.instance > 0) {
        core::Result<std::unique_ptr<core::Ledger>> ledger = core::openDefaultLedger();
        if (!ledger) {
            return fail(ledger.error());
        }
        core::Result<std::optional<core::LedgerEntry>> found = (*ledger)->find(options.instance);
        if (!found) {
            return fail(found.error());
        }
        if (!*found) {
            return badInput("--instance: the ledger has no launch " + std::to_string(options.instance)
                            + " (see `gpuplan instances`)");
        }
        if (core::isFinal((*found)->state)) {
            return badInput("--instance: launch " + std::to_string(options.instance) + " has ended");
        }
        if (host.empty()) {
            host = core::sshHostOf(**found);
            if (host.empty()) {
                return badInput("--instance: the ledger does not know how to log in to launch "
                                + std::to_string(options.instance)
                                + " (its address or its image's user): add --host "
                                  "USER@HOST");
            }
        }
    }
    core::Result<core::SshTarget> target = core::resolveSshTarget({host, options.identity, options.jump, {}});
    if (!target) {
        core::Error error = target.error();
        error.where = (core::takeJumpHostFrame(error) ? "--jump " : "--host ") + error.where;
        return fail(error);
    }
    std::ifstream script(scriptsDir / "gpuplan-run.sh", std::ios::binary);
    std::ostringstream scriptText;
    scriptText << script.rdbuf();
    request.runScript = scriptText.str();
    if (spot.watch) {
        std::ifstream watcher(scriptsDir / "gpuplan-watch.sh", std::ios::binary);
        request.watchScript.assign(std::istreambuf_iterator<char>(watcher), {});
    }
    request.connection.target = *target;
    request.connection.knownHostsFile = options.knownHosts;
    request.launchId = options.instance;
    request.sync = *sync;
    request.detach = options.detachWith;
    request.sampleSeconds = options.interval;
    request.ledgerFile = core::defaultLedgerFile();

    TerminalPrompter prompter(options.acceptNewHostKey);
    core::Result<core::RunRecord> started = core::startRun(
        request,
        prompter,
        nullptr,
        [&](const core::RunProgress& p) {
            if (!p.note.empty()) {
                std::cerr << runText(p.note) << "\n";
                return;
            }
            switch (p.step) {
                case core::RunStep::Connect:
                    std::cerr << "connecting to " << target->display() << "...\n";
                    break;
                case core::RunStep::Prepare:
                    std::cerr << "preparing the run's folder...\n";
                    break;
                case core::RunStep::Sync:
                case core::RunStep::Dataset:
                    if (p.total > 0 && (p.done == p.total || p.done == 0)) {
                        std::cerr << "  " << bytesText(p.done) << " of " << bytesText(p.total) << "\n";
                    }
                    break;
                case core::RunStep::Start:
                    std::cerr << "starting the job...\n";
                    break;
            }
        },
        core::unixNow());
    if (!started) {
        return fail(started.error());
    }
    std::cout << "Run " << started->id << " started on " << started->host << " under " << started->method << " in "
              << started->remoteDir << "\n"
              << std::flush;
    if (plan) {
        plan->run = spec;
        if (core::Status saved = core::savePlan(options.plan, *plan); !saved) {
            std::cerr << "gpuplan: warning: " << said(saved.error()) << "\n";
        }
    }
    if (options.noFollow) {
        return kExitOk;
    }
    if (spot.watch) {
        const int every = core::syncEverySecondsOf(spot, request.planned);
        core::Result<core::RunSpec> kept = core::runSpecOf(*started);
        std::cerr << "[spot] the watcher syncs " << spot.checkpointDir << " to "
                  << (kept ? kept->spot.checkpointUrl : spot.bucket);
        if (every > 0) {
            std::cerr << " every " << fixed(every / 60.0) << " min"
                      << (options.syncEvery < 0 ? " (the plan's checkpoint interval, Daly's optimum)" : "");
        } else {
            std::cerr << " on a notice and at the end";
        }
        std::cerr << (spot.recover ? "; a reclaimed instance is relaunched and the run resumed" : "") << ".\n";
    }
    core::Result<std::unique_ptr<core::RunFollower>> follower =
        core::RunFollower::attach(*started, request.ledgerFile, prompter, nullptr);
    if (!follower) {
        return fail(follower.error());
    }
    std::shared_ptr<const core::PlanDocument> shared;
    if (plan) {
        shared = std::make_shared<const core::PlanDocument>(*plan);
    }
    CliRecovery recovery(argc, argv, catalog, options, scriptsDir, shared);
    return followAndRecover(std::move(follower).value(), options, plan ? &*plan : nullptr, recovery);
}

int runRuns(bool json, const std::string& csvFile, const std::string& currency, const CatalogOptions& catalog)
{
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::openDefaultLedger();
    if (!ledger) {
        return fail(ledger.error());
    }
    core::Result<std::vector<core::RunRecord>> runs = (*ledger)->runs();
    if (!runs) {
        return fail(runs.error());
    }
    // Each run over its attempts: a recovered spot run ran on several instances.
    core::Result<std::vector<core::RunAttempt>> attempts = (*ledger)->attempts();
    core::Result<std::vector<core::LedgerEntry>> entries = (*ledger)->entries();
    if (!attempts) {
        return fail(attempts.error());
    }
    if (!entries) {
        return fail(entries.error());
    }
    if (!csvFile.empty()) {
        core::Result<std::vector<core::PlanBudget>> budgets = (*ledger)->budgets();
        if (!budgets) {
            return fail(budgets.error());
        }
        core::RunsReportInput input;
        input.entries = *entries;
        input.runs = *runs;
        input.attempts = *attempts;
        input.budgets = std::move(budgets).value();
        std::string code = currency;
        std::transform(code.begin(), code.end(), code.begin(), [](unsigned char c) { return char(std::toupper(c)); });
        input.currency = core::parseCurrency(code).value_or(core::Currency::CNY);
        input.now = core::unixNow();
        // The bundled catalog's dated rate; without it, amounts in the other currency stay empty (unknown).
        if (core::Result<core::LoadedCatalog> loaded = core::loadCatalog(catalog.catalogDir)) {
            if (loaded->catalog.exchangeRate()) {
                input.rate = *loaded->catalog.exchangeRate();
            }
        }
        const core::RunsReport report = core::buildRunsReport(input);
        if (core::Status written =
                core::writeFileAtomically(csvFile, core::runsReportCsv(report), core::FileAccess::KeepOrPrivate);
            !written) {
            return fail(written.error());
        }
        std::cout << "Wrote " << report.runs.size() << " run(s) and " << report.launches.size() << " launch(es) to "
                  << csvFile << " (money in " << core::currencyCode(report.currency) << ").\n";
        if (report.unconverted > 0) {
            std::cout << report.unconverted
                      << " launch(es) in another currency have no converted cost: no exchange rate was found.\n";
        }
        return kExitOk;
    }
    const std::int64_t now = core::unixNow();
    const auto totalsOf = [&](const core::RunRecord& run) {
        std::vector<core::RunAttempt> own;
        std::copy_if(attempts->begin(), attempts->end(), std::back_inserter(own), [&](const core::RunAttempt& a) {
            return a.runId == run.id;
        });
        return core::runTotals(run, own, *entries, now);
    };
    if (json) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const core::RunRecord& run : *runs) {
            const core::RunTotals totals = totalsOf(run);
            auto optional = [](const std::optional<double>& v) {
                return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
            };
            list.push_back({{"id", run.id},
                            {"launch", run.launchId},
                            {"plan_id", run.planId},
                            {"host", run.host},
                            {"state", core::runStateName(run.state)},
                            {"exit_code", run.exitCode ? nlohmann::ordered_json(*run.exitCode) : nullptr},
                            {"started_at", run.startedAt},
                            {"ended_at", run.endedAt ? nlohmann::ordered_json(*run.endedAt) : nullptr},
                            {"hours", run.measured.hours},
                            {"throughput", optional(run.measured.throughput)},
                            {"throughput_unit", run.measured.throughputUnit},
                            {"planned_throughput", optional(run.planned.throughput)},
                            {"planned_hours", optional(run.planned.hours)},
                            {"gpu_utilization", optional(run.measured.gpuUtilization)},
                            {"cost", optional(run.measured.cost)},
                            {"cost_currency", run.measured.costCurrency},
                            {"attempts", totals.attempts},
                            {"interruptions", totals.interruptions},
                            {"lost_hours", totals.lostHours},
                            {"total_cost", totals.cost ? nlohmann::ordered_json(*totals.cost) : nullptr},
                            {"total_cost_currency", totals.currency},
                            {"planned_spot_hours_p50", optional(run.planned.spotHoursP50)},
                            {"planned_spot_hours_p90", optional(run.planned.spotHoursP90)},
                            {"planned_spot_cost_p50", optional(run.planned.spotCostP50)},
                            {"planned_spot_cost_p90", optional(run.planned.spotCostP90)},
                            {"results", run.resultsDir}});
        }
        std::cout << list.dump(2) << "\n";
        return kExitOk;
    }
    if (runs->empty()) {
        std::cout << "No runs yet (`gpuplan run PLAN --host USER@HOST --workdir DIR --command CMD` starts one).\n";
        return kExitOk;
    }
    const auto right = TextTable::Align::Right;
    TextTable table({{"run"},
                     {"launch"},
                     {"host"},
                     {"state"},
                     {"hours", right},
                     {"speed"},
                     {"GPU util", right},
                     {"cost", right},
                     {"spot"},
                     {"results"}});
    int interruptions = 0;
    double lost = 0;
    std::map<std::string, double> spent; // by currency
    for (const core::RunRecord& run : *runs) {
        const core::RunTotals totals = totalsOf(run);
        interruptions += totals.interruptions;
        lost += totals.lostHours;
        // A recovered run costs every instance it ran on; any other, its own running time.
        std::optional<double> cost = totals.attempts > 1 ? totals.cost : run.measured.cost;
        const std::string costCurrency = totals.attempts > 1 ? totals.currency : run.measured.costCurrency;
        if (cost) {
            spent[costCurrency] += *cost;
        }
        const core::Result<core::RunSpec> kept = core::runSpecOf(run);
        const bool spot = totals.attempts > 1 || (kept && kept->spot.watch);
        table.addRow({std::to_string(run.id),
                      run.launchId ? std::to_string(run.launchId) : "-",
                      run.host,
                      stateText(run.state, run.exitCode),
                      fixed(totals.attempts > 1 ? totals.hours : run.measured.hours, 2),
                      speedText(run.measured, run.planned),
                      run.measured.gpuUtilization ? fixed(*run.measured.gpuUtilization, 0) + "%" : "-",
                      cost ? fixed(*cost, 2) + " " + costCurrency : "-",
                      spot ? ui::runTotalsText(totals, run.planned).toStdString() : "-",
                      run.resultsDir.empty() ? "not downloaded" : run.resultsDir});
    }
    table.print(std::cout);
    std::cout << "\n"
              << runs->size() << " run(s), " << interruptions << " spot interruption(s), " << fixed(lost, 2)
              << " h lost to them; spent";
    if (spent.empty()) {
        std::cout << " nothing known";
    }
    for (const auto& [code, amount] : spent) {
        std::cout << " " << fixed(amount, 2) << " " << code;
    }
    std::cout << ".\n";
    return kExitOk;
}

} // namespace gpuplan::cli
