// The run stage against a real sshd on loopback: the working directory synced (SFTP and rsync, .gitignore honoured),
// the job started detached (nohup, tmux) and surviving a dropped connection, its log followed, the GPUs sampled
// (a stand-in nvidia-smi that reports 40 % while a stand-in trainer keeps every core busy: advice says the data
// loader), the results brought home and checksummed, a graceful stop, TensorBoard through an SSH forward, and the
// same through `gpuplan run`, killed mid-run and attached again. The remote side logs in with HOME and PATH of
// the test's own (sshd's SetEnv), so nothing is left in the real home.

#include "../support/LoopbackSshd.h"
#include "gpuplan/core/Prompter.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/run/RunWorkflow.h"
#include "wording/RunText.h"

#include <nlohmann/json.hpp>

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTcpSocket>
#include <QtTest>

#include <fstream>

using namespace gpuplan::core;

namespace {

class TrustingPrompter final : public Prompter
{
public:
    bool trustNewHostKey(const HostKey&) override { return true; }
    std::optional<std::string> passphrase(const std::string&) override { return std::nullopt; }
    bool confirmLaunch(const LaunchConfirmation&) override { return false; }
};

QByteArray readAll(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray sha256Of(const QString& file)
{
    return QCryptographicHash::hash(readAll(file), QCryptographicHash::Sha256).toHex();
}

bool writeFile(const QString& file, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(file).path());
    QFile f(file);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TestRun : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void syncRunMonitorAdviseAndBringResultsHome();
    void rsyncHonoursGitignoreAndTmuxKeepsItRunning();
    void stopSendsSigintFirst();
    void aDroppedConnectionLeavesTheJobRunning();
    void tensorboardThroughTheTunnel();
    void brokenHelperOutputIsAClearError();
    void cliRunsIsKilledAndAttachesAgain();
    void terminateAsksFirstWhenResultsAreNotHome();
    void theLaunchSaysWhereToLogIn();
    void jobScriptsForImagesAndBuckets();

private:
    QString path(const QString& name) const { return m_sshd.path(name); }
    QString remoteHome() const { return path(QStringLiteral("remote-home")); }
    /// A working directory with the stand-in trainer, code, and what its .gitignore leaves out.
    QString makeProject(const QString& name);
    RunRequest request(const QString& workdir, const std::string& command);
    /// Polls until the run ends (or `seconds` pass); every update goes to `onUpdate`.
    RunState
    followToEnd(RunFollower& follower, int seconds, const std::function<void(const RunUpdate&)>& onUpdate = {});
    std::int64_t recordLaunch(const QString& dataHome);
    QStringList sshArguments() const;

    gpuplan::testing::LoopbackSshd m_sshd;
    TrustingPrompter m_prompter;
    std::string m_script;
    std::filesystem::path m_ledger;
};

void TestRun::initTestCase()
{
    if (!gpuplan::testing::LoopbackSshd::available()) {
        QSKIP("needs openssh-server and openssh-client (packaging/system-packages.txt)");
    }
    QVERIFY(m_sshd.setUp());
    // The stand-ins the remote side finds first on its PATH.
    const QString bin = path(QStringLiteral("bin"));
    QVERIFY(QDir().mkpath(bin));
    for (const QString& tool : {QStringLiteral("nvidia-smi"), QStringLiteral("tensorboard")}) {
        QVERIFY(
            QFile::copy(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/standins/") + tool, bin + "/" + tool));
        QFile::setPermissions(bin + "/" + tool,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }
    std::ifstream script(GPUPLAN_SOURCE_DIR "/resources/scripts/gpuplan-run.sh", std::ios::binary);
    m_script.assign(std::istreambuf_iterator<char>(script), {});
    QVERIFY(!m_script.empty());
}

void TestRun::init()
{
    QDir(remoteHome()).removeRecursively();
    QVERIFY(QDir().mkpath(remoteHome()));
    QFile::remove(path(QStringLiteral("known_hosts")));
    QFile::remove(path(QStringLiteral("bin/util")));
    m_ledger = path(QStringLiteral("ledger.sqlite")).toStdString();
    std::filesystem::remove(m_ledger);
    m_sshd.newPort();
    QVERIFY(m_sshd.start(QStringLiteral("host_ed25519"),
                         QStringLiteral("VERBOSE"),
                         {QStringLiteral("SetEnv PATH=%1:/usr/local/bin:/usr/bin:/bin HOME=%2 TMUX_TMPDIR=%2")
                              .arg(path(QStringLiteral("bin")), remoteHome())}));
}

void TestRun::cleanup()
{
    // The jobs a test left running (a stopped sshd does not end them: they are detached on purpose).
    QProcess::execute(QStringLiteral("pkill"), {QStringLiteral("-f"), remoteHome()});
    m_sshd.stop();
}

QString TestRun::makeProject(const QString& name)
{
    const QString root = path(name);
    QDir(root).removeRecursively();
    writeFile(root + "/train.sh", readAll(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/standins/train.sh")));
    QFile::setPermissions(root + "/train.sh", QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    writeFile(root + "/src/model.py", "import torch\n");
    writeFile(root + "/notes with space.txt", "notes\n");
    writeFile(root + "/.gitignore", "data/\n*.log\n!keep.log\n");
    writeFile(root + "/data/imagenet-shard.bin", QByteArray(300000, 'x'));
    writeFile(root + "/debug.log", "noise\n");
    writeFile(root + "/keep.log", "kept\n");
    writeFile(root + "/.git/HEAD", "ref: refs/heads/main\n");
    writeFile(root + "/logs/index.html", "<html>gpuplan tensorboard stand-in</html>\n");
    return root;
}

RunRequest TestRun::request(const QString& workdir, const std::string& command)
{
    RunRequest r;
    r.connection.target.user = m_sshd.user().toStdString();
    r.connection.target.host = "127.0.0.1";
    r.connection.target.port = m_sshd.port();
    r.connection.target.identityFile = path(QStringLiteral("client_ed25519")).toStdString();
    r.connection.knownHostsFile = path(QStringLiteral("known_hosts")).toStdString();
    r.spec.workdir = workdir.toStdString();
    r.spec.command = command;
    r.spec.results = {"output"};
    r.spec.throughput.preset = "timm";
    r.runScript = m_script;
    r.sampleSeconds = 1;
    r.ledgerFile = m_ledger;
    r.planned.throughput = 800;
    r.planned.throughputLow = 600;
    r.planned.throughputHigh = 1000;
    r.planned.throughputUnit = "samples";
    return r;
}

RunState TestRun::followToEnd(RunFollower& follower, int seconds, const std::function<void(const RunUpdate&)>& onUpdate)
{
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < seconds * 1000) {
        Result<RunUpdate> update = follower.poll(nullptr, std::time(nullptr));
        if (!update) {
            qWarning() << "poll:" << QString::fromStdString(describe(update.error()));
            return RunState::Lost;
        }
        if (onUpdate) {
            onUpdate(*update);
        }
        if (isFinal(update->state)) {
            return update->state;
        }
        QThread::msleep(700);
    }
    return RunState::Running;
}

void TestRun::syncRunMonitorAdviseAndBringResultsHome()
{
    const QString project = makeProject(QStringLiteral("project"));
    RunRequest r = request(project, "./train.sh 16 output");
    r.sync = SyncMethod::Sftp;
    r.detach = "nohup";
    std::vector<RunProgress> steps;
    Result<RunRecord> started = startRun(
        r, m_prompter, nullptr, [&](const RunProgress& p) { steps.push_back(p); }, std::time(nullptr));
    QVERIFY2(started.ok(), started.ok() ? "" : describe(started.error()).c_str());
    QCOMPARE(started->method, std::string("nohup"));
    QCOMPARE(started->state, RunState::Running);

    // What went over: the listing was shown first (6 files: .gitignore, keep.log, logs/index.html, notes,
    // src/model.py, train.sh),
    // by SFTP, and nothing that .gitignore leaves out.
    const auto listing =
        std::find_if(steps.begin(), steps.end(), [](const RunProgress& p) { return p.note.key == "run.sync.listing"; });
    QVERIFY(listing != steps.end());
    QCOMPARE(listing->note.params.at("files"), std::string("6"));
    QVERIFY(
        std::any_of(steps.begin(), steps.end(), [](const RunProgress& p) { return p.note.key == "run.sync.sftp"; }));
    QVERIFY(std::any_of(steps.begin(), steps.end(), [](const RunProgress& p) {
        return p.step == RunStep::Sync && p.total > 0 && p.done == p.total;
    }));
    const QString remoteWork = remoteHome() + QStringLiteral("/gpuplan-work/project");
    QVERIFY(QFile::exists(remoteWork + "/src/model.py"));
    QVERIFY(QFile::exists(remoteWork + "/notes with space.txt"));
    QVERIFY(QFile::exists(remoteWork + "/keep.log"));
    QVERIFY(!QFile::exists(remoteWork + "/data/imagenet-shard.bin"));
    QVERIFY(!QFile::exists(remoteWork + "/debug.log"));
    QVERIFY(!QFile::exists(remoteWork + "/.git/HEAD"));
    QVERIFY(QFileInfo(remoteWork + "/train.sh").isExecutable());

    Result<std::unique_ptr<RunFollower>> follower = RunFollower::attach(*started, m_ledger, m_prompter, nullptr);
    QVERIFY2(follower.ok(), follower.ok() ? "" : describe(follower.error()).c_str());
    std::string log;
    std::vector<MonitorSample> samples;
    std::optional<RunAdvice> lowAdvice;
    AdviceSettings settings;
    settings.lowForSeconds = 3;
    const RunState end = followToEnd(**follower, 60, [&](const RunUpdate& u) {
        log += u.log;
        samples.insert(samples.end(), u.samples.begin(), u.samples.end());
        if (const RunAdvice advice = (*follower)->advice(settings); advice.low && !lowAdvice) {
            lowAdvice = advice;
        }
    });
    QCOMPARE(end, RunState::Finished);
    QVERIFY2(log.find("Train: 0 [   1/16") != std::string::npos, log.c_str());
    QVERIFY(log.find("Train: 0 [  16/16") != std::string::npos);
    QVERIFY(log.find("[gpuplan] run: ./train.sh 16 output") != std::string::npos);

    // The sampler's readings: the stand-in's GPU at 40 %, 60 of 80 GiB, its PCIe traffic, the CPU.
    QVERIFY2(samples.size() >= 4, std::to_string(samples.size()).c_str());
    const auto withGpu = std::find_if(samples.rbegin(), samples.rend(), [](const MonitorSample& s) {
        return !s.gpus.empty() && s.gpus.front().utilization && s.gpus.front().pcieRxMBs;
    });
    QVERIFY(withGpu != samples.rend());
    QCOMPARE(*withGpu->gpus.front().utilization, 40.0);
    QCOMPARE(*withGpu->gpus.front().memoryTotalMiB, 81920.0);
    QCOMPARE(*withGpu->gpus.front().pcieRxMBs, 812.0);
    QCOMPARE(*withGpu->gpus.front().throttle, std::uint64_t{4});
    QVERIFY(std::any_of(
        samples.begin(), samples.end(), [](const MonitorSample& s) { return s.cpuBusy && *s.cpuBusy >= 85; }));

    // 40 % with every core busy: the data loader, with the measurements behind it.
    QVERIFY(lowAdvice.has_value());
    QVERIFY(!lowAdvice->causes.empty());
    QCOMPARE(lowAdvice->causes.front().key, std::string("run.advice.data_loader"));
    QCOMPARE(lowAdvice->causes.front().params.at("gpu_util"), std::string("40"));
    QVERIFY(std::stod(lowAdvice->causes.front().params.at("cpu_busy")) >= 85);
    const QString worded = gpuplan::ui::runReasonText(lowAdvice->causes.front());
    QVERIFY2(worded.contains(QStringLiteral("40")), qPrintable(worded));

    // The speed the log printed, beside the plan's.
    const RunRecord& measured = (*follower)->record();
    QVERIFY(measured.measured.throughput.has_value());
    QCOMPARE(*measured.measured.throughput, 742.03);
    QCOMPARE(measured.measured.throughputUnit, std::string("samples"));
    QCOMPARE(*measured.measured.gpuUtilization, 40.0);

    // Results at risk until they are home; then home, checksummed, and recorded.
    {
        auto ledger = Ledger::open(m_ledger);
        QVERIFY(ledger.ok());
        auto runs = (*ledger)->runs();
        QCOMPARE(runs->size(), std::size_t(1));
        QCOMPARE(runs->front().state, RunState::Finished);
        QCOMPARE(*runs->front().exitCode, 0);
        QCOMPARE(runsWithResultsAtRisk(*runs, 0).size(), std::size_t(1));
    }
    const QString home = path(QStringLiteral("results"));
    QDir(home).removeRecursively();
    std::uintmax_t lastDone = 0;
    bool monotonic = true;
    Result<ResultsDownload> got = downloadResults(
        **follower,
        home.toStdString(),
        [&](std::uintmax_t done, std::uintmax_t) {
            monotonic = monotonic && done >= lastDone;
            lastDone = done;
        },
        nullptr,
        std::time(nullptr));
    QVERIFY2(got.ok(), got.ok() ? "" : describe(got.error()).c_str());
    QVERIFY(monotonic);
    const QString folder = QString::fromStdString(got->folder.string());
    QCOMPARE(folder, home + "/run-" + QString::number(started->id));
    for (const QString& file : {QStringLiteral("output/metrics.json"),
                                QStringLiteral("output/checkpoints/step-5.pt"),
                                QStringLiteral("output/checkpoints/step-15.pt"),
                                QStringLiteral(".gpuplan/output.log"),
                                QStringLiteral(".gpuplan/samples.csv")}) {
        QVERIFY2(QFile::exists(folder + "/" + file), qPrintable(file));
    }
    QCOMPARE(readAll(folder + "/output/checkpoints/step-15.pt"),
             readAll(remoteWork + "/output/checkpoints/step-15.pt"));
    // SHA256SUMS as sha256sum -c reads it, and every line right.
    QProcess check;
    check.setWorkingDirectory(folder);
    check.start(QStringLiteral("sha256sum"), {QStringLiteral("-c"), QStringLiteral("SHA256SUMS")});
    QVERIFY(check.waitForFinished(30000));
    QVERIFY2(check.exitCode() == 0, check.readAllStandardOutput().constData());
    QCOMPARE(QString::fromUtf8(readAll(folder + "/SHA256SUMS")).count('\n'), int(got->files.size()));
    for (const ResultFile& file : got->files) {
        QCOMPARE(QByteArray::fromStdString(file.sha256), sha256Of(folder + "/" + QString::fromStdString(file.path)));
    }
    auto ledger = Ledger::open(m_ledger);
    auto kept = (*ledger)->findRun(started->id);
    QVERIFY(kept.ok() && kept->has_value());
    QCOMPARE(QString::fromStdString((*kept)->resultsDir), folder);
    QVERIFY((*kept)->resultsAt.has_value());
    QCOMPARE(*(*kept)->measured.throughput, 742.03);
    QCOMPARE(*(*kept)->planned.throughput, 800.0);
    QVERIFY(runsWithResultsAtRisk(*(*ledger)->runs(), 0).empty());
}

void TestRun::rsyncHonoursGitignoreAndTmuxKeepsItRunning()
{
    if (QStandardPaths::findExecutable(QStringLiteral("rsync")).isEmpty()
        || QStandardPaths::findExecutable(QStringLiteral("tmux")).isEmpty()) {
        QFAIL("rsync and tmux are in packaging/system-packages.txt: install them (packaging/install-deps.sh)");
    }
    const QString project = makeProject(QStringLiteral("project-rsync"));
    RunRequest r = request(project, "./train.sh 4 output");
    r.sync = SyncMethod::Auto;
    r.detach = "tmux";
    std::vector<Reason> notes;
    Result<RunRecord> started = startRun(
        r,
        m_prompter,
        nullptr,
        [&](const RunProgress& p) {
            if (!p.note.empty()) {
                notes.push_back(p.note);
            }
        },
        std::time(nullptr));
    QVERIFY2(started.ok(), started.ok() ? "" : describe(started.error()).c_str());
    QVERIFY(std::any_of(notes.begin(), notes.end(), [](const Reason& n) { return n.key == "run.sync.rsync"; }));
    QVERIFY(std::none_of(notes.begin(), notes.end(), [](const Reason& n) { return n.key == "run.sync.sftp"; }));
    QCOMPARE(started->method, std::string("tmux"));
    const QString remoteWork = remoteHome() + QStringLiteral("/gpuplan-work/project-rsync");
    QVERIFY(QFile::exists(remoteWork + "/src/model.py"));
    QVERIFY(QFile::exists(remoteWork + "/notes with space.txt"));
    QVERIFY(!QFile::exists(remoteWork + "/data/imagenet-shard.bin"));
    QVERIFY(!QFile::exists(remoteWork + "/debug.log"));
    QVERIFY(QFileInfo(remoteWork + "/train.sh").isExecutable());
    Result<std::unique_ptr<RunFollower>> follower = RunFollower::attach(*started, m_ledger, m_prompter, nullptr);
    QVERIFY(follower.ok());
    QCOMPARE(followToEnd(**follower, 40), RunState::Finished);
    QVERIFY((*follower)->logTail().find("done") != std::string::npos);
}

void TestRun::stopSendsSigintFirst()
{
    const QString project = makeProject(QStringLiteral("project-stop"));
    Result<RunRecord> started =
        startRun(request(project, "./train.sh 1000 output"), m_prompter, nullptr, {}, std::time(nullptr));
    QVERIFY2(started.ok(), started.ok() ? "" : describe(started.error()).c_str());
    Result<std::unique_ptr<RunFollower>> follower = RunFollower::attach(*started, m_ledger, m_prompter, nullptr);
    QVERIFY(follower.ok());
    QElapsedTimer waited;
    waited.start();
    while ((*follower)->logTail().find("Train: 0 [   2/1000") == std::string::npos && waited.elapsed() < 30000) {
        QVERIFY((*follower)->poll(nullptr, std::time(nullptr)).ok());
        QThread::msleep(300);
    }
    QVERIFY(waited.elapsed() < 30000);
    QVERIFY((*follower)->stop(5, nullptr).ok());
    QCOMPARE(followToEnd(**follower, 20), RunState::Stopped);
    QCOMPARE(*(*follower)->record().exitCode, 130); // the trainer's own exit on SIGINT, not a SIGKILL's
    QVERIFY((*follower)->logTail().find("interrupted at step") != std::string::npos);
    QVERIFY(QFile::exists(remoteHome() + "/gpuplan-work/project-stop/output/checkpoints/interrupted.txt"));
    auto ledger = Ledger::open(m_ledger);
    QCOMPARE((*(*ledger)->findRun(started->id))->state, RunState::Stopped);
}

void TestRun::aDroppedConnectionLeavesTheJobRunning()
{
    const QString project = makeProject(QStringLiteral("project-drop"));
    Result<RunRecord> started =
        startRun(request(project, "./train.sh 12 output"), m_prompter, nullptr, {}, std::time(nullptr));
    QVERIFY(started.ok());
    {
        Result<std::unique_ptr<RunFollower>> follower = RunFollower::attach(*started, m_ledger, m_prompter, nullptr);
        QVERIFY(follower.ok());
        QVERIFY((*follower)->poll(nullptr, std::time(nullptr)).ok());
        // The connection drops: sshd and every session it serves are killed.
        m_sshd.stop();
        QVERIFY(!(*follower)->poll(nullptr, std::time(nullptr)).ok());
    }
    QThread::msleep(1500);
    QVERIFY(m_sshd.start(QStringLiteral("host_ed25519"),
                         QStringLiteral("VERBOSE"),
                         {QStringLiteral("SetEnv PATH=%1:/usr/local/bin:/usr/bin:/bin HOME=%2 TMUX_TMPDIR=%2")
                              .arg(path(QStringLiteral("bin")), remoteHome())}));
    // A new attach finds it, its whole log from the start, and follows it to its end.
    Result<std::unique_ptr<RunFollower>> again = RunFollower::attach(*started, m_ledger, m_prompter, nullptr);
    QVERIFY(again.ok());
    QCOMPARE(followToEnd(**again, 40), RunState::Finished);
    const std::string& log = (*again)->logTail();
    QVERIFY(log.find("Train: 0 [   1/12") != std::string::npos);
    QVERIFY(log.find("Train: 0 [  12/12") != std::string::npos);
}

void TestRun::tensorboardThroughTheTunnel()
{
    const QString project = makeProject(QStringLiteral("project-tb"));
    RunRequest r = request(project, "./train.sh 60 output");
    r.spec.tensorboardLogdir = "logs";
    Result<RunRecord> started = startRun(r, m_prompter, nullptr, {}, std::time(nullptr));
    QVERIFY(started.ok());
    const int remotePort = gpuplan::testing::freePort();
    Result<std::unique_ptr<SshTunnel>> tunnel = openTensorboard(*started, m_prompter, nullptr, remotePort);
    QVERIFY2(tunnel.ok(), tunnel.ok() ? "" : describe(tunnel.error()).c_str());
    QVERIFY((*tunnel)->localPort() > 0);
    QVERIFY((*tunnel)->localPort() != remotePort);
    for (int i = 0; i < 2; ++i) {
        QTcpSocket socket;
        socket.connectToHost(QStringLiteral("127.0.0.1"), static_cast<quint16>((*tunnel)->localPort()));
        QVERIFY(socket.waitForConnected(5000));
        socket.write("GET /index.html HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
        QByteArray answer;
        while (socket.waitForReadyRead(5000)) {
            answer += socket.readAll();
        }
        answer += socket.readAll();
        QVERIFY2(answer.startsWith("HTTP/1.0 200"), answer.left(200).constData());
        QVERIFY(answer.contains("gpuplan tensorboard stand-in"));
    }
    QCOMPARE((*tunnel)->connections(), 2);
    // Opening it again finds TensorBoard running and does not start a second one.
    const QString pidFile = QString::fromStdString(started->remoteDir) + "/tensorboard.pid";
    const QByteArray pid = readAll(pidFile);
    QVERIFY(!pid.isEmpty());
    Result<std::unique_ptr<SshTunnel>> second = openTensorboard(*started, m_prompter, nullptr, remotePort);
    QVERIFY(second.ok());
    QCOMPARE(readAll(pidFile), pid);
    QProcess servers;
    servers.start(QStringLiteral("pgrep"), {QStringLiteral("-f"), QStringLiteral("http.server %1").arg(remotePort)});
    QVERIFY(servers.waitForFinished(10000));
    QCOMPARE(servers.readAllStandardOutput().trimmed().split('\n').size(), 1);
    // A run without a TensorBoard folder says so.
    RunRecord without = *started;
    RunSpec spec = *readRunSpec(nlohmann::json::parse(without.spec), "spec");
    spec.tensorboardLogdir.clear();
    without.spec = runSpecJson(spec).dump();
    Result<std::unique_ptr<SshTunnel>> none = openTensorboard(without, m_prompter, nullptr, remotePort);
    QVERIFY(!none.ok());
    QCOMPARE(none.error().reason.key, std::string("error.run.no_tensorboard_logdir"));
}

void TestRun::brokenHelperOutputIsAClearError()
{
    const QString project = makeProject(QStringLiteral("project-broken"));
    Result<RunRecord> started =
        startRun(request(project, "./train.sh 2 output"), m_prompter, nullptr, {}, std::time(nullptr));
    QVERIFY(started.ok());
    // The helper on the instance answers something else (a broken copy, another program's output).
    QVERIFY(writeFile(QString::fromStdString(started->remoteDir) + "/gpuplan-run.sh",
                      "echo 'gpuplan-run/1'; echo 'state on fire'; echo end\n"));
    Result<std::unique_ptr<RunFollower>> follower = RunFollower::attach(*started, m_ledger, m_prompter, nullptr);
    QVERIFY(follower.ok());
    Result<RunUpdate> update = (*follower)->poll(nullptr, std::time(nullptr));
    QVERIFY(!update.ok());
    QCOMPARE(update.error().code, ErrorCode::RemoteCommandFailed);
    QCOMPARE(update.error().reason.key, std::string("error.run.bad_poll"));
    QCOMPARE(update.error().reason.params.at("what"), std::string("state"));
    QVERIFY(writeFile(QString::fromStdString(started->remoteDir) + "/gpuplan-run.sh", "echo 'not a run helper'\n"));
    update = (*follower)->poll(nullptr, std::time(nullptr));
    QVERIFY(!update.ok());
    QCOMPARE(update.error().reason.params.at("what"), std::string("header"));
}

std::int64_t TestRun::recordLaunch(const QString& dataHome)
{
    QDir().mkpath(dataHome + "/gpuplanner");
    auto ledger = Ledger::open((dataHome + "/gpuplanner/ledger.sqlite").toStdString());
    if (!ledger) {
        return 0;
    }
    LaunchIntent intent;
    intent.provider = "aws";
    intent.region = "us-east-1";
    intent.instanceType = "p4d.24xlarge";
    intent.pricingMode = "on_demand";
    intent.price = LaunchPrice{32.77, Currency::USD, PriceUnit::Hour, std::nullopt, 0};
    intent.clientToken = "tok-run-" + std::to_string(std::time(nullptr));
    const std::int64_t id = *(*ledger)->recordIntent(intent, std::time(nullptr));
    (void)(*ledger)->update(id, "i-0run", InstanceState::Running, std::time(nullptr));
    return id;
}

QStringList TestRun::sshArguments() const
{
    return {QStringLiteral("--host"),
            m_sshd.host(),
            QStringLiteral("--identity"),
            path(QStringLiteral("client_ed25519")),
            QStringLiteral("--known-hosts"),
            path(QStringLiteral("known_hosts")),
            QStringLiteral("--accept-new-host-key")};
}

void TestRun::cliRunsIsKilledAndAttachesAgain()
{
    const QString data = path(QStringLiteral("cli-data"));
    QDir(data).removeRecursively();
    const std::int64_t launch = recordLaunch(data);
    QVERIFY(launch > 0);
    const QString plan = path(QStringLiteral("cli.gpuplan"));
    QFile::remove(plan);
    QVERIFY(QFile::copy(QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/examples/resnet50-imagenet.gpuplan"), plan));
    QFile::setPermissions(plan, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    const QString project = makeProject(QStringLiteral("project-cli"));
    const QString results = path(QStringLiteral("cli-results"));
    QDir(results).removeRecursively();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), data);
    env.insert(QStringLiteral("GPUPLAN_SCRIPTS_DIR"), QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/scripts"));
    const QString gpuplan = QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan");
    const QStringList follow{QStringLiteral("--poll"),
                             QStringLiteral("1"),
                             QStringLiteral("--advice-after"),
                             QStringLiteral("5"),
                             QStringLiteral("--results-dir"),
                             results};

    // Started and followed; killed (SIGKILL: no chance to clean up) while the job runs.
    QProcess first;
    first.setProcessEnvironment(env);
    first.start(gpuplan,
                QStringList{QStringLiteral("run"),
                            plan,
                            QStringLiteral("--instance"),
                            QString::number(launch),
                            QStringLiteral("--workdir"),
                            project,
                            QStringLiteral("--command"),
                            QStringLiteral("./train.sh 30 output"),
                            QStringLiteral("--results"),
                            QStringLiteral("output"),
                            QStringLiteral("--throughput"),
                            QStringLiteral("timm"),
                            QStringLiteral("--interval"),
                            QStringLiteral("1")}
                    + sshArguments() + follow);
    QByteArray firstOut;
    QElapsedTimer waited;
    waited.start();
    while (!firstOut.contains("Train: 0 [   3/30") && waited.elapsed() < 60000) {
        first.waitForReadyRead(500);
        firstOut += first.readAllStandardOutput();
    }
    QVERIFY2(firstOut.contains("Train: 0 [   3/30"), (firstOut + first.readAllStandardError()).constData());
    QVERIFY(firstOut.contains("Run 1 started on"));
    first.kill();
    first.waitForFinished(5000);

    // The ledger still has it, running; attaching again follows it to its end from its first line.
    QProcess list;
    list.setProcessEnvironment(env);
    list.start(gpuplan, {QStringLiteral("runs"), QStringLiteral("--json")});
    QVERIFY(list.waitForFinished(30000));
    const nlohmann::json runs = nlohmann::json::parse(list.readAllStandardOutput().toStdString(), nullptr, false);
    QVERIFY(runs.is_array() && runs.size() == 1);
    QCOMPARE(runs[0]["state"].get<std::string>(), std::string("running"));
    QCOMPARE(runs[0]["launch"].get<std::int64_t>(), launch);

    QProcess second;
    second.setProcessEnvironment(env);
    second.start(gpuplan,
                 QStringList{QStringLiteral("run"), QStringLiteral("--attach"), QStringLiteral("1")} + follow
                     + QStringList{QStringLiteral("--known-hosts"), path(QStringLiteral("known_hosts"))});
    QVERIFY(second.waitForFinished(120000));
    const QString out = QString::fromUtf8(second.readAllStandardOutput());
    const QString err = QString::fromUtf8(second.readAllStandardError());
    QVERIFY2(second.exitCode() == 0, qPrintable(err));
    QVERIFY(out.contains(QStringLiteral("Train: 0 [   1/30")));
    QVERIFY(out.contains(QStringLiteral("Train: 0 [  30/30")));
    QVERIFY(out.contains(QStringLiteral("done")));
    QVERIFY2(err.contains(QStringLiteral("[monitor] GPU0 40%")), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("742.0 samples/s")), qPrintable(err));
    QVERIFY(err.contains(QStringLiteral("[advice] GPU utilisation 40%")));
    QVERIFY(err.contains(QStringLiteral("Run 1 finished")));
    QVERIFY(out.contains(QStringLiteral("Results of run 1 in ")));
    QVERIFY(QFile::exists(results + "/run-1/SHA256SUMS"));
    QVERIFY(QFile::exists(results + "/run-1/output/metrics.json"));

    // The plan keeps the run's settings for next time.
    const nlohmann::json saved = nlohmann::json::parse(readAll(plan).toStdString(), nullptr, false);
    QCOMPARE(saved["run"]["command"].get<std::string>(), std::string("./train.sh 30 output"));
    QCOMPARE(saved["run"]["throughput"]["preset"].get<std::string>(), std::string("timm"));

    list.start(gpuplan, {QStringLiteral("runs"), QStringLiteral("--json")});
    QVERIFY(list.waitForFinished(30000));
    const nlohmann::json after = nlohmann::json::parse(list.readAllStandardOutput().toStdString(), nullptr, false);
    QCOMPARE(after[0]["state"].get<std::string>(), std::string("finished"));
    QCOMPARE(after[0]["throughput"].get<double>(), 742.03);
    QVERIFY(!after[0]["results"].get<std::string>().empty());
    QVERIFY(after[0]["cost"].get<double>() > 0); // its minutes at the launch's 32.77 USD an hour

    // Bad input is refused before anything connects.
    QProcess bad;
    bad.setProcessEnvironment(env);
    bad.start(gpuplan,
              QStringList{QStringLiteral("run"),
                          QStringLiteral("--workdir"),
                          project,
                          QStringLiteral("--command"),
                          QStringLiteral("x"),
                          QStringLiteral("--results"),
                          QStringLiteral("../../etc")}
                  + sshArguments());
    QVERIFY(bad.waitForFinished(30000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(QString::fromUtf8(bad.readAllStandardError()).contains(QStringLiteral("results[0]")));
}

void TestRun::terminateAsksFirstWhenResultsAreNotHome()
{
    const QString data = path(QStringLiteral("term-data"));
    QDir(data).removeRecursively();
    const std::int64_t launch = recordLaunch(data);
    const QString project = makeProject(QStringLiteral("project-term"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), data);
    env.insert(QStringLiteral("GPUPLAN_SCRIPTS_DIR"), QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/scripts"));
    const QString gpuplan = QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan");
    QProcess start;
    start.setProcessEnvironment(env);
    start.start(gpuplan,
                QStringList{QStringLiteral("run"),
                            QStringLiteral("--instance"),
                            QString::number(launch),
                            QStringLiteral("--workdir"),
                            project,
                            QStringLiteral("--command"),
                            QStringLiteral("./train.sh 2 output"),
                            QStringLiteral("--results"),
                            QStringLiteral("output"),
                            QStringLiteral("--no-follow")}
                    + sshArguments());
    QVERIFY(start.waitForFinished(60000));
    QVERIFY2(start.exitCode() == 0, start.readAllStandardError().constData());
    // stdin is not a terminal here: nothing can be asked, so terminate refuses, naming the run.
    QProcess terminate;
    terminate.setProcessEnvironment(env);
    terminate.start(gpuplan, {QStringLiteral("terminate"), QString::number(launch)});
    QVERIFY(terminate.waitForFinished(30000));
    const QString err = QString::fromUtf8(terminate.readAllStandardError());
    QCOMPARE(terminate.exitCode(), 2);
    QVERIFY2(err.contains(QStringLiteral("run 1 are not downloaded yet")), qPrintable(err));
    QVERIFY(err.contains(QStringLiteral("--yes")));
    auto ledger = Ledger::open((data + "/gpuplanner/ledger.sqlite").toStdString());
    QCOMPARE((*(*ledger)->find(launch))->state, InstanceState::Running); // nothing was sent
}

// `gpuplan run --instance ID` without --host: the launch's address (kept once it ran) and its image's login user.
void TestRun::theLaunchSaysWhereToLogIn()
{
    LedgerEntry launch;
    launch.intent.provider = "aws";
    QCOMPARE(sshHostOf(launch), std::string()); // no address yet
    launch.address = "203.0.113.7";
    QCOMPARE(sshHostOf(launch), std::string("ubuntu@203.0.113.7"));
    launch.address = "2001:db8::7";
    QCOMPARE(sshHostOf(launch), std::string("ubuntu@[2001:db8::7]"));
    launch.intent.provider = "paperspace";
    QCOMPARE(sshHostOf(launch), std::string("paperspace@[2001:db8::7]"));
    launch.intent.provider = "huawei"; // its image's user is not known to GPU Planner: the user says
    QCOMPARE(sshHostOf(launch), std::string());

    // The CLI says what is missing, before anything connects.
    const QString data = path(QStringLiteral("where-data"));
    QDir(data).removeRecursively();
    const std::int64_t id = recordLaunch(data);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), data);
    QProcess run;
    run.setProcessEnvironment(env);
    run.start(QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan"),
              {QStringLiteral("run"),
               QStringLiteral("--instance"),
               QString::number(id),
               QStringLiteral("--workdir"),
               makeProject(QStringLiteral("project-where")),
               QStringLiteral("--command"),
               QStringLiteral("./train.sh 1")});
    QVERIFY(run.waitForFinished(30000));
    QCOMPARE(run.exitCode(), 2);
    const QString err = QString::fromUtf8(run.readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("does not know how to log in to launch")) && err.contains("--host"),
             qPrintable(err));
}

// What the job runs: in a container with the NVIDIA toolkit, a dataset pulled from each object store with its own
// CLI. Each script is valid bash (bash -n), and says each step in the log.
void TestRun::jobScriptsForImagesAndBuckets()
{
    RunSpec spec;
    spec.command = "python train.py --amp";
    spec.setup = {"pip install -r requirements.txt"};
    spec.image = "nvcr.io/nvidia/pytorch:24.05-py3";
    spec.dataset = "s3://lab-data/imagenet";
    const std::string script =
        jobScript(spec, "/home/ubuntu/gpuplan-work/resnet", "/home/ubuntu/gpuplan-data/imagenet");
    QVERIFY(script.find("aws s3 sync 's3://lab-data/imagenet' '/home/ubuntu/gpuplan-data/imagenet'")
            != std::string::npos);
    QVERIFY(script.find("docker run --rm --gpus all") != std::string::npos);
    QVERIFY(script.find("-v '/home/ubuntu/gpuplan-work/resnet:/workspace' -w /workspace") != std::string::npos);
    QVERIFY(script.find("-v '/home/ubuntu/gpuplan-data/imagenet:/data' -e GPUPLAN_DATA=/data") != std::string::npos);
    QVERIFY(script.find("'nvcr.io/nvidia/pytorch:24.05-py3' bash -c 'pip install -r requirements.txt\npython train.py "
                        "--amp\n'")
            != std::string::npos);
    QVERIFY(script.find("nvidia-ctk") != std::string::npos); // the toolkit, installed when missing
    const struct
    {
        const char* url;
        const char* pull;
    } stores[] = {
        {"gs://b/p", "gcloud storage rsync --recursive 'gs://b/p'"},
        {"oss://b/p", "ossutil sync 'oss://b/p'"},
        {"cos://b-125/p", "coscli sync -r 'cos://b-125/p'"},
        {"obs://b/p", "obsutil sync 'obs://b/p'"},
        {"az://acct/container/p", "azcopy sync 'https://acct.blob.core.windows.net/container/p'"},
    };
    for (const auto& store : stores) {
        RunSpec s;
        s.command = "python train.py";
        s.dataset = store.url;
        const std::string text = jobScript(s, "/w", "/d");
        QVERIFY2(text.find(store.pull) != std::string::npos, text.c_str());
        QVERIFY(text.find("exec bash -c 'python train.py'") != std::string::npos);
        QProcess check;
        check.start(QStringLiteral("bash"), {QStringLiteral("-n")});
        check.write(QByteArray::fromStdString(text));
        check.closeWriteChannel();
        QVERIFY(check.waitForFinished(10000));
        QVERIFY2(check.exitCode() == 0, check.readAllStandardError().constData());
    }
    // A URL of a store GPU Planner does not know is refused before anything runs.
    RunSpec unknown;
    unknown.command = "x";
    unknown.dataset = "ftp://host/data";
    const Status refused = checkRunSpec(unknown);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().reason.key, std::string("error.run.unknown_storage"));
}

QTEST_GUILESS_MAIN(TestRun)
#include "TestRun.moc"
