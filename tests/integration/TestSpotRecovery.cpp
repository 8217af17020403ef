// A spot run recovered end to end, with real parts where they run here: the fake EC2 (fake_ec2.py, the only fake:
// no cloud reclaims an instance on demand), a real sshd on loopback whose sessions get the test's HOME and PATH, the
// watcher (resources/scripts/gpuplan-watch.sh) polling a stand-in of EC2's instance metadata service
// (spot_watcher/metadata_standin.py), a Python trainer that checkpoints on its signal (standins/spot_train.py), and
// a stand-in `aws s3 sync` over a folder that plays the bucket (standins/aws).
//   run -> notice -> checkpoint -> instance reclaimed by the fake -> relaunch in the next zone -> resume -> finish;
// and a recovery killed with SIGKILL at two moments, then run again, leaves exactly one live instance.

#include "../support/LoopbackSshd.h"
#include "fakes/FakeCloud.h"
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/cloud/LaunchWorkflow.h"
#include "gpuplan/cloud/LedgerActions.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/plan/PlanDocument.h"
#include "gpuplan/run/RunWorkflow.h"
#include "gpuplan/run/SpotRecovery.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QtTest>

#include <csignal>
#include <fstream>
#include <tuple>

using namespace gpuplan::core;
using gpuplan::testing::FakeCloud;

namespace {

class TrustingPrompter final : public Prompter
{
public:
    bool trustNewHostKey(const HostKey&) override { return true; }
    std::optional<std::string> passphrase(const std::string&) override { return std::nullopt; }
    bool confirmLaunch(const LaunchConfirmation&) override { return true; }
};

std::string readText(const QString& file)
{
    std::ifstream in(file.toStdString(), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

bool copyExecutable(const QString& from, const QString& to)
{
    QFile::remove(to);
    return QFile::copy(from, to)
           && QFile::setPermissions(to, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

/// Everything a test process (this one, or its killed child) needs to reach the same fake, sshd and ledger.
struct World
{
    QString dir;         // the sshd's folder: keys, ledger, remote home, buckets
    QString fakeUrl;     // the fake EC2
    QString metadataUrl; // the stand-in metadata service
    int sshPort = 0;
    QString user;
};

constexpr auto kRegion = "us-east-1";
constexpr auto kType = "g5.xlarge";
constexpr auto kBucket = "s3://lab-checkpoints/runs";

class World_
{
public:
    explicit World_(World w)
        : m_world(std::move(w))
    {
        HttpOptions options;
        options.retry.baseDelay = std::chrono::milliseconds(20);
        options.retry.maxDelay = std::chrono::milliseconds(100);
        m_http = std::make_unique<HttpClient>(options);
        Result<LoadedCatalog> catalog = loadCatalog(GPUPLAN_SOURCE_DIR "/resources/catalog");
        if (catalog) {
            m_catalog = std::make_unique<Catalog>(catalog->catalog);
        }
        m_watchdog = readText(QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/scripts/gpuplan-watchdog.sh"));
    }

    std::filesystem::path ledgerFile() const { return (m_world.dir + "/ledger.sqlite").toStdString(); }

    RecoveryServices services()
    {
        RecoveryServices s;
        s.ledgerFile = ledgerFile();
        s.connect = [this](const std::string& provider) -> Result<std::unique_ptr<CloudProvider>> {
            CloudAccess access;
            access.provider = provider;
            access.key.id = gpuplan::testing::kAccessKeyId;
            access.key.secret = gpuplan::testing::kSecretKey;
            access.endpoint = m_world.fakeUrl.toStdString();
            return connectProvider(access, *m_http);
        };
        s.prepare = [this](LaunchPreparation preparation) -> Result<LaunchOrder> {
            // The fake's made-up spot price stands where the catalog may have none for this type and region.
            preparation.settings.price = 1.0;
            Result<PreparedLaunch> prepared =
                prepareLaunch(preparation, *m_catalog, m_watchdog, *m_http, std::time(nullptr));
            if (!prepared) {
                return prepared.error();
            }
            return prepared->order;
        };
        s.runScript = readText(QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/scripts/gpuplan-run.sh"));
        s.watchScript = readText(QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/scripts/gpuplan-watch.sh"));
        s.wait.until = LaunchWait::Ssh;
        s.wait.sshPort = m_world.sshPort;
        s.wait.pollInterval = std::chrono::seconds(1);
        s.wait.runningTimeout = std::chrono::seconds(60);
        s.wait.sshTimeout = std::chrono::seconds(30);
        return s;
    }

    /// The first instance: a spot launch in zone a, as `gpuplan launch --spot` makes it.
    Result<LaunchOutcome> launchFirst()
    {
        RecoveryServices s = services();
        LaunchPreparation p;
        p.settings.provider = "aws";
        p.settings.instanceType = kType;
        p.settings.region = kRegion;
        p.settings.zone = std::string(kRegion) + "a";
        p.settings.pricing = LaunchPricing::Spot;
        p.settings.watchdog.deadmanHours = 2;
        p.publicKeyFile = (m_world.dir + "/client_ed25519.pub").toStdString();
        p.sshFrom = "203.0.113.7";
        Result<LaunchOrder> order = s.prepare(p);
        if (!order) {
            return order.error();
        }
        Result<std::unique_ptr<CloudProvider>> provider = s.connect("aws");
        if (!provider) {
            return provider.error();
        }
        Result<std::unique_ptr<Ledger>> ledger = Ledger::open(ledgerFile());
        if (!ledger) {
            return ledger.error();
        }
        return Launcher(**provider, **ledger).launch(*order, s.wait, nullptr);
    }

    RunRequest runRequest(const QString& workdir, std::int64_t launchId, int steps)
    {
        RecoveryServices s = services();
        RunRequest r;
        r.connection.target.user = m_world.user.toStdString();
        r.connection.target.host = "127.0.0.1";
        r.connection.target.port = m_world.sshPort;
        r.connection.target.identityFile = (m_world.dir + "/client_ed25519").toStdString();
        r.connection.knownHostsFile = (m_world.dir + "/known_hosts").toStdString();
        r.spec.workdir = workdir.toStdString();
        r.spec.command = "python3 spot_train.py " + std::to_string(steps);
        r.spec.throughput.preset = "timm";
        r.spec.spot.watch = true;
        r.spec.spot.recover = true;
        r.spec.spot.bucket = kBucket;
        r.spec.spot.syncEverySeconds = 2;
        r.spec.spot.metadataUrl = m_world.metadataUrl.toStdString();
        r.spec.spot.publicKeyFile = (m_world.dir + "/client_ed25519.pub").toStdString();
        r.spec.spot.sshFrom = "203.0.113.7";
        r.launchId = launchId;
        r.runScript = s.runScript;
        r.watchScript = s.watchScript;
        r.sampleSeconds = 1;
        r.ledgerFile = ledgerFile();
        r.planned.hours = 1;
        r.planned.spotHoursP50 = 1.2;
        r.planned.spotHoursP90 = 1.6;
        return r;
    }

private:
    World m_world;
    std::unique_ptr<HttpClient> m_http;
    std::unique_ptr<Catalog> m_catalog;
    std::string m_watchdog;
};

/// The child: recovers run RUN of the world in DIR and is killed by its parent at some moment of it.
int childRecovers(const QStringList& args)
{
    World world{args[0], args[1], args[2], args[3].toInt(), args[4]};
    World_ w(world);
    TrustingPrompter prompter;
    Result<RunRecord> recovered = recoverRun(args[5].toLongLong(), w.services(), prompter, nullptr, {});
    return recovered ? 0 : 1;
}

} // namespace

class TestSpotRecovery : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void aReclaimedRunResumesInTheNextZoneAndFinishes();
    void aRecoveryKilledMidwayLeavesOneLiveInstance_data();
    void aRecoveryKilledMidwayLeavesOneLiveInstance();
    void theRelaunchOrderFollowsThePlan();
    void cliStarterSpotFlagsAndRunTotals();

private:
    QString path(const QString& name) const { return m_sshd.path(name); }
    QString remoteHome() const { return path(QStringLiteral("remote-home")); }
    QString buckets() const { return path(QStringLiteral("buckets")); }
    QString makeProject();
    World world() const
    {
        return World{path(QString()).chopped(1), m_fake->url(), m_metadataUrl, m_sshd.port(), m_sshd.user()};
    }
    /// A run that has seen its notice, checkpointed and ended: the state a recovery starts from. Returns its id.
    std::int64_t interruptedRun(World_& w, int steps, int noticeAfterStep);
    /// Polls `follower` until `until` holds for an update (or `seconds` pass).
    bool followUntil(RunFollower& follower, int seconds, const std::function<bool(const RunUpdate&)>& until);
    QJsonArray liveInstances() { return m_fake->liveInstances(); }
    void clearNotice()
    {
        HttpClient http;
        HttpRequest clear;
        clear.method = "POST";
        clear.url = (m_metadataUrl + "/_standin/clear").toStdString();
        QVERIFY(http.send(clear));
    }

    gpuplan::testing::LoopbackSshd m_sshd;
    TrustingPrompter m_prompter;
    std::unique_ptr<FakeCloud> m_fake;
    QProcess m_metadata;
    QString m_metadataUrl;
};

void TestSpotRecovery::initTestCase()
{
    QVERIFY2(gpuplan::testing::LoopbackSshd::available(), "needs openssh-server and openssh-client");
    QVERIFY(m_sshd.setUp());
    const QString bin = path(QStringLiteral("bin"));
    QVERIFY(QDir().mkpath(bin));
    for (const QString& tool : {QStringLiteral("nvidia-smi"), QStringLiteral("aws")}) {
        QVERIFY(
            copyExecutable(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/standins/") + tool, bin + "/" + tool));
    }
}

void TestSpotRecovery::init()
{
    QProcess::execute(QStringLiteral("pkill"), {QStringLiteral("-f"), remoteHome()});
    QDir(remoteHome()).removeRecursively();
    QDir(buckets()).removeRecursively();
    QVERIFY(QDir().mkpath(remoteHome()));
    QVERIFY(QDir().mkpath(buckets()));
    QFile::remove(path(QStringLiteral("known_hosts")));
    QFile::remove(path(QStringLiteral("ledger.sqlite")));
    m_sshd.newPort();
    QVERIFY(m_sshd.start(
        QStringLiteral("host_ed25519"),
        QStringLiteral("VERBOSE"),
        {QStringLiteral("SetEnv PATH=%1:/usr/local/bin:/usr/bin:/bin HOME=%2 TMUX_TMPDIR=%2 GPUPLAN_STANDIN_BUCKETS=%3")
             .arg(path(QStringLiteral("bin")), remoteHome(), buckets())}));
    QFile::remove(path(QStringLiteral("port-fake_ec2"))); // the last test's fake wrote its port there
    m_fake = std::make_unique<FakeCloud>();
    QVERIFY(m_fake->start(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/fakes/fake_ec2.py"), path(QString())));
    const QString portFile = path(QStringLiteral("metadata-port"));
    QFile::remove(portFile);
    m_metadata.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_metadata.start(QStringLiteral("python3"),
                     {QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/spot_watcher/metadata_standin.py"),
                      QStringLiteral("aws"),
                      QStringLiteral("--port-file"),
                      portFile});
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(portFile), 20000);
    QFile f(portFile);
    QVERIFY(f.open(QIODevice::ReadOnly));
    m_metadataUrl = QStringLiteral("http://127.0.0.1:") + QString::fromUtf8(f.readAll().trimmed());
}

void TestSpotRecovery::cleanup()
{
    QProcess::execute(QStringLiteral("pkill"), {QStringLiteral("-f"), remoteHome()});
    m_metadata.kill();
    m_metadata.waitForFinished(5000);
    m_fake.reset();
    m_sshd.stop();
}

QString TestSpotRecovery::makeProject()
{
    const QString root = path(QStringLiteral("project"));
    QDir(root).removeRecursively();
    QDir().mkpath(root);
    copyExecutable(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/standins/spot_train.py"),
                   root + "/spot_train.py");
    return root;
}

bool TestSpotRecovery::followUntil(RunFollower& follower,
                                   int seconds,
                                   const std::function<bool(const RunUpdate&)>& until)
{
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < seconds * 1000) {
        Result<RunUpdate> update = follower.poll(nullptr, std::time(nullptr));
        if (!update) {
            qWarning() << "poll:" << QString::fromStdString(describe(update.error()));
            return false;
        }
        if (until(*update)) {
            return true;
        }
        QThread::msleep(500);
    }
    return false;
}

std::int64_t TestSpotRecovery::interruptedRun(World_& w, int steps, int noticeAfterStep)
{
    Result<LaunchOutcome> first = w.launchFirst();
    if (!first) {
        qWarning() << "first launch:" << describe(first.error()).c_str();
        return 0;
    }
    Result<RunRecord> run =
        startRun(w.runRequest(makeProject(), first->entry.id, steps), m_prompter, nullptr, {}, std::time(nullptr));
    if (!run) {
        qWarning() << "start:" << describe(run.error()).c_str();
        return 0;
    }
    Result<std::unique_ptr<RunFollower>> follower = RunFollower::attach(*run, w.ledgerFile(), m_prompter, nullptr);
    if (!follower) {
        return 0;
    }
    const QString marker = QStringLiteral("[%1/").arg(noticeAfterStep, 4);
    if (!followUntil(**follower, 60, [&](const RunUpdate&) {
            return QString::fromStdString((*follower)->logTail()).contains(marker);
        })) {
        qWarning() << "the run never reached step" << noticeAfterStep << (*follower)->logTail().c_str();
        return 0;
    }
    // EC2 gives its two-minute notice; the watcher must see it, signal the trainer and push its checkpoint.
    HttpClient http;
    HttpRequest notice;
    notice.method = "POST";
    notice.url = (m_metadataUrl + "/_standin/notice").toStdString();
    notice.body = R"({"in_seconds": 0, "deadline_in": 120})";
    notice.headers.push_back({"Content-Type", "application/json"});
    if (Result<HttpResponse> raised = http.send(notice); !raised || raised->status != 200) {
        qWarning() << "the stand-in did not take the notice";
        return 0;
    }
    RunUpdate last;
    if (!followUntil(**follower, 60, [&](const RunUpdate& u) {
            last = u;
            return u.notice && isFinal(u.state) && noticeSettled(*u.notice, u.checkpointSyncedAt, std::time(nullptr));
        })) {
        qWarning() << "no settled notice:" << (*follower)->logTail().c_str();
        return 0;
    }
    return run->id;
}

void TestSpotRecovery::aReclaimedRunResumesInTheNextZoneAndFinishes()
{
    World_ w(world());
    const std::int64_t runId = interruptedRun(w, 30, 8);
    QVERIFY(runId > 0);
    Result<std::unique_ptr<Ledger>> ledger = Ledger::open(w.ledgerFile());
    QVERIFY(ledger);
    Result<std::optional<RunRecord>> before = (*ledger)->findRun(runId);
    QVERIFY(before && *before);
    QCOMPARE((*before)->state, RunState::Interrupted);
    // The attempt kept the notice and the checkpoint pushed after it; the bucket has that checkpoint.
    Result<std::vector<RunAttempt>> attempts = (*ledger)->attempts(runId);
    QVERIFY(attempts && attempts->size() == 1);
    const RunAttempt firstAttempt = attempts->front();
    QVERIFY(firstAttempt.noticeAt.has_value());
    QCOMPARE(firstAttempt.noticeKind, std::string("termination"));
    QVERIFY(firstAttempt.checkpointAt.has_value());
    QVERIFY(*firstAttempt.checkpointAt >= *firstAttempt.noticeAt);
    QVERIFY(*firstAttempt.checkpointAt <= *firstAttempt.deadlineAt);
    QDir bucket(buckets() + "/lab-checkpoints/runs");
    const QStringList runFolders = bucket.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(runFolders.size(), 1);
    QStringList saved = QDir(bucket.filePath(runFolders.front())).entryList({QStringLiteral("step-*")}, QDir::Files);
    QVERIFY2(!saved.isEmpty(), qPrintable(runFolders.front()));
    int checkpointStep = 0;
    for (const QString& name : saved) {
        checkpointStep = std::max(checkpointStep, name.mid(5).toInt());
    }
    QVERIFY(checkpointStep >= 8);
    QVERIFY(checkpointStep < 30);

    // EC2 takes the instance back; zone a has no spot capacity left; the new machine's disk is empty.
    const QJsonArray live = liveInstances();
    QCOMPARE(live.size(), 1);
    const QString lostId = live.first().toObject().value("id").toString();
    m_fake->call("POST", "/_fake/reclaim", QJsonDocument(QJsonObject{{"instance", lostId}}).toJson());
    m_fake->faults(QJsonObject{{"no_capacity_zones", QJsonArray{QStringLiteral("us-east-1a")}}});
    QProcess::execute(QStringLiteral("pkill"), {QStringLiteral("-f"), remoteHome()});
    QDir(remoteHome()).removeRecursively();
    QDir().mkpath(remoteHome());
    clearNotice(); // the next instance's metadata service has none

    World_ again(world());
    RecoveryServices services = again.services();
    Result<bool> reclaimed = instanceReclaimed(**before, services, nullptr);
    QVERIFY2(reclaimed, reclaimed ? "" : describe(reclaimed.error()).c_str());
    QVERIFY(*reclaimed);

    std::vector<RecoveryProgress> steps;
    Result<RunRecord> recovered =
        recoverRun(runId, services, m_prompter, nullptr, [&](const RecoveryProgress& p) { steps.push_back(p); });
    QVERIFY2(recovered, recovered ? "" : describe(recovered.error()).c_str());
    QCOMPARE(recovered->state, RunState::Running);
    // Zone a was tried first and refused; the relaunch went to the next zone.
    bool refusedSameZone = false;
    for (const RecoveryProgress& p : steps) {
        if (p.step == RecoveryStep::CandidateRefused && p.candidate && p.candidate->zone == "us-east-1a") {
            refusedSameZone = true;
        }
    }
    QVERIFY(refusedSameZone);
    Result<std::optional<LedgerEntry>> relaunched = (*ledger)->find(recovered->launchId);
    QVERIFY(relaunched && *relaunched);
    QVERIFY(recovered->launchId != before.value()->launchId);
    const QJsonArray nowLive = liveInstances();
    QCOMPARE(nowLive.size(), 1);
    QCOMPARE(nowLive.first().toObject().value("zone").toString(), QStringLiteral("us-east-1b"));
    QVERIFY(nowLive.first().toObject().value("id").toString() != lostId);

    // It resumes from the checkpoint, and finishes.
    Result<std::unique_ptr<RunFollower>> follower =
        RunFollower::attach(*recovered, w.ledgerFile(), m_prompter, nullptr);
    QVERIFY(follower);
    RunState end = RunState::Running;
    QVERIFY(followUntil(**follower, 90, [&](const RunUpdate& u) {
        end = u.state;
        return isFinal(u.state);
    }));
    QCOMPARE(end, RunState::Finished);
    const QString log = QString::fromStdString((*follower)->logTail());
    QVERIFY2(log.contains(QStringLiteral("resumed from step %1").arg(checkpointStep)), qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("[%1/30").arg(checkpointStep + 1, 4)), qPrintable(log));
    QVERIFY2(!log.contains(QStringLiteral("[%1/30").arg(checkpointStep, 4)), qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("done at step 30")), qPrintable(log));

    // The ledger: one run, two attempts, one interruption, what it cost and lost.
    Result<std::optional<RunRecord>> after = (*ledger)->findRun(runId);
    QVERIFY(after && *after);
    QCOMPARE((*after)->state, RunState::Finished);
    attempts = (*ledger)->attempts(runId);
    QVERIFY(attempts && attempts->size() == 2);
    QCOMPARE(attempts->at(0).end, std::string("interrupted"));
    QCOMPARE(attempts->at(1).launchId, recovered->launchId);
    QCOMPARE(attempts->at(1).number, 2);
    Result<std::vector<LedgerEntry>> entries = (*ledger)->entries();
    QVERIFY(entries);
    const RunTotals totals = runTotals(**after, *attempts, *entries, std::time(nullptr));
    QCOMPARE(totals.attempts, 2);
    QCOMPARE(totals.interruptions, 1);
    QVERIFY(totals.lostHours > 0);
    QVERIFY(totals.cost.has_value());
    QCOMPARE(totals.currency, std::string("USD"));
    // What the run itself keeps (the report's and the PDF's figure) counts the reclaimed instance too.
    Result<std::optional<LedgerEntry>> reclaimedEntry = (*ledger)->find(before.value()->launchId);
    QVERIFY(reclaimedEntry && *reclaimedEntry);
    const double earlier = costSoFar(**reclaimedEntry, (*reclaimedEntry)->endedAt.value_or(std::time(nullptr)));
    QVERIFY((*after)->measured.cost.has_value());
    QVERIFY2(*(*after)->measured.cost > earlier, qPrintable(QString::number(*(*after)->measured.cost)));
    QVERIFY(*(*after)->measured.cost <= *totals.cost + 1e-9);
    // The reclaimed instance is closed in the ledger.
    Result<std::optional<LedgerEntry>> lostEntry = (*ledger)->find(before.value()->launchId);
    QVERIFY(lostEntry && *lostEntry);
    QVERIFY(isFinal((*lostEntry)->state));
}

void TestSpotRecovery::aRecoveryKilledMidwayLeavesOneLiveInstance_data()
{
    QTest::addColumn<QString>("moment");
    QTest::newRow("while RunInstances is answered") << QStringLiteral("request");
    QTest::newRow("while the new instance starts") << QStringLiteral("starting");
}

void TestSpotRecovery::aRecoveryKilledMidwayLeavesOneLiveInstance()
{
    QFETCH(QString, moment);
    World_ w(world());
    const std::int64_t runId = interruptedRun(w, 200, 3);
    QVERIFY(runId > 0);
    const QString lostId = liveInstances().first().toObject().value("id").toString();
    m_fake->call("POST", "/_fake/reclaim", QJsonDocument(QJsonObject{{"instance", lostId}}).toJson());
    QProcess::execute(QStringLiteral("pkill"), {QStringLiteral("-f"), remoteHome()});
    clearNotice();
    if (moment == QStringLiteral("request")) {
        m_fake->faults(QJsonObject{{"hold_run_reply_s", 15}});
    } else {
        m_fake->faults(QJsonObject{{"running_after", 1000}}); // it stays pending until the test says
    }

    const World wd = world();
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedChannels);
    child.start(QCoreApplication::applicationFilePath(),
                {QStringLiteral("--child-recover"),
                 wd.dir,
                 wd.fakeUrl,
                 wd.metadataUrl,
                 QString::number(wd.sshPort),
                 wd.user,
                 QString::number(runId)});
    QVERIFY(child.waitForStarted());
    // Killed once the relaunch is in flight: the fake has the new instance (its reply held back, or it pending).
    QTRY_VERIFY_WITH_TIMEOUT(liveInstances().size() == 1, 30000);
    QTest::qWait(1000);
    ::kill(static_cast<pid_t>(child.processId()), SIGKILL);
    QVERIFY(child.waitForFinished(5000));
    QCOMPARE(liveInstances().size(), 1);
    const QString relaunchId = liveInstances().first().toObject().value("id").toString();

    // Run again: it finds the launch its predecessor recorded and finishes it, instead of a second one.
    m_fake->faults(QJsonObject{{"hold_run_reply_s", 0}, {"running_after", 1}});
    Result<RunRecord> recovered = recoverRun(runId, w.services(), m_prompter, nullptr, {});
    QVERIFY2(recovered, recovered ? "" : describe(recovered.error()).c_str());
    QCOMPARE(recovered->state, RunState::Running);
    const QJsonArray live = liveInstances();
    QCOMPARE(live.size(), 1);
    QCOMPARE(live.first().toObject().value("id").toString(), relaunchId);
    Result<std::unique_ptr<Ledger>> ledger = Ledger::open(w.ledgerFile());
    QVERIFY(ledger);
    Result<std::vector<LedgerEntry>> open = (*ledger)->live();
    QVERIFY(open);
    QCOMPARE(open->size(), std::size_t{1});
    QCOMPARE(open->front().instanceId, relaunchId.toStdString());
    Result<std::vector<RunAttempt>> attempts = (*ledger)->attempts(runId);
    QVERIFY(attempts);
    QCOMPARE(attempts->size(), std::size_t{2});
    QCOMPARE(attempts->back().launchId, open->front().id);
}

void TestSpotRecovery::theRelaunchOrderFollowsThePlan()
{
    LedgerEntry lost;
    lost.intent.provider = "aws";
    lost.intent.region = "us-east-1";
    lost.intent.zone = "us-east-1a";
    lost.intent.instanceType = "g5.xlarge";
    PlanDocument plan;
    auto option = [](const char* provider, const char* region, const char* type, bool spot) {
        PlanOption o;
        o.provider = provider;
        o.region = region;
        o.instanceType = type;
        PlanMode onDemand;
        onDemand.mode = PricingMode::OnDemand;
        o.modes.push_back(onDemand);
        if (spot) {
            PlanMode s;
            s.mode = PricingMode::Spot;
            o.modes.push_back(s);
        }
        return o;
    };
    plan.results.options = {option("aws", "us-east-1", "g5.xlarge", true),
                            option("aws", "us-west-2", "g5.xlarge", true),
                            option("tencent", "ap-shanghai", "GN7.2XLARGE32", false),
                            option("gcp", "us-central1", "g2-standard-4", true)};
    SpotHandling spot;
    spot.onDemandAfter = 2;
    const std::vector<RelaunchCandidate> order = relaunchOrder(lost, &plan, spot, 1);
    QCOMPARE(order.size(), std::size_t{4});
    QCOMPARE(order[0].zone, std::string("us-east-1a"));
    QCOMPARE(order[0].why.key, std::string("recovery.same_zone"));
    QCOMPARE(order[1].zone, std::string());
    QCOMPARE(order[1].region, std::string("us-east-1"));
    QCOMPARE(order[2].region, std::string("us-west-2"));
    QCOMPARE(order[2].why.key, std::string("recovery.other_region"));
    QCOMPARE(order[3].provider, std::string("gcp")); // Tencent's option has no spot mode
    QCOMPARE(order[3].pricing, LaunchPricing::Spot);
    // From the second interruption on, on demand, where the plan has it.
    const std::vector<RelaunchCandidate> later = relaunchOrder(lost, &plan, spot, 2);
    QCOMPARE(later.size(), std::size_t{5});
    for (const RelaunchCandidate& c : later) {
        QCOMPARE(c.pricing, LaunchPricing::OnDemand);
        QCOMPARE(c.why.params.at("on_demand"), std::string("yes"));
    }
}

void TestSpotRecovery::cliStarterSpotFlagsAndRunTotals()
{
    const QString data = path(QStringLiteral("cli-data"));
    QDir(data).removeRecursively();
    QVERIFY(QDir().mkpath(data + "/gpuplanner"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), data);
    env.insert(QStringLiteral("GPUPLAN_SCRIPTS_DIR"), QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/scripts"));
    const auto gpuplan = [&](const QStringList& args) {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan"), args);
        p.waitForFinished(60000);
        return std::tuple{
            p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    };

    // The starter script from the plan, written once; never over an existing one.
    const QString folder = path(QStringLiteral("starter"));
    QDir(folder).removeRecursively();
    const QString plan = QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/examples/resnet50-imagenet.gpuplan");
    auto [code, out, err] = gpuplan({QStringLiteral("run"), plan, QStringLiteral("--init"), folder});
    QVERIFY2(code == 0, qPrintable(out + err));
    QVERIFY(QFile::exists(folder + "/train.py"));
    QVERIFY2(out.contains(QStringLiteral("--throughput-regex")) && out.contains(QStringLiteral("--recover")),
             qPrintable(out));
    QVERIFY(QString::fromStdString(readText(folder + "/train.py")).contains(QStringLiteral("GradScaler")));
    std::tie(code, out, err) = gpuplan({QStringLiteral("run"), plan, QStringLiteral("--init"), folder});
    QCOMPARE(code, 2);
    QVERIFY2(err.contains(QStringLiteral("exists")), qPrintable(err));

    // Spot handling needs a bucket; a recovery needs a launch to relaunch.
    const QStringList base{QStringLiteral("run"),
                           QStringLiteral("--host"),
                           m_sshd.host(),
                           QStringLiteral("--command"),
                           QStringLiteral("python3 train.py")};
    std::tie(code, out, err) = gpuplan(base + QStringList{QStringLiteral("--spot")});
    QCOMPARE(code, 2);
    QVERIFY2(err.contains(QStringLiteral("--checkpoint-bucket")), qPrintable(err));
    std::tie(code, out, err) =
        gpuplan(base
                + QStringList{
                    QStringLiteral("--spot"), QStringLiteral("--checkpoint-bucket"), QStringLiteral("ftp://lab/ckpt")});
    QCOMPARE(code, 2);
    QVERIFY2(err.contains(QStringLiteral("ftp")), qPrintable(err));
    std::tie(code, out, err) = gpuplan(base
                                       + QStringList{QStringLiteral("--recover"),
                                                     QStringLiteral("--checkpoint-bucket"),
                                                     QStringLiteral("s3://lab/ckpt")});
    QCOMPARE(code, 2);
    QVERIFY2(err.contains(QStringLiteral("--instance")), qPrintable(err));

    // A recovered run in the ledger: `gpuplan runs` adds its attempts up.
    {
        Result<std::unique_ptr<Ledger>> ledger = Ledger::open((data + "/gpuplanner/ledger.sqlite").toStdString());
        QVERIFY(ledger);
        const std::int64_t start = std::time(nullptr) - 3600;
        std::vector<std::int64_t> launches;
        for (const char* zone : {"us-east-1a", "us-east-1b"}) {
            LaunchIntent intent;
            intent.provider = "aws";
            intent.region = kRegion;
            intent.zone = zone;
            intent.instanceType = kType;
            intent.pricingMode = "spot";
            intent.price = LaunchPrice{0.40, Currency::USD, PriceUnit::Hour, std::nullopt, 0};
            intent.clientToken = std::string("tok-") + zone;
            Result<std::int64_t> id = (*ledger)->recordIntent(intent, start);
            QVERIFY(id);
            QVERIFY((*ledger)->update(*id, std::string("i-") + zone, InstanceState::Running, start));
            launches.push_back(*id);
        }
        RunRecord run;
        run.launchId = launches[1];
        run.host = "ubuntu@127.0.0.1";
        run.remoteDir = "/home/ubuntu/.gpuplanner/runs/x";
        run.state = RunState::Finished;
        run.startedAt = start;
        run.endedAt = start + 3000;
        run.exitCode = 0;
        run.planned.spotCostP50 = 2.5;
        run.planned.spotCostP90 = 3.5;
        run.planned.currency = "CNY";
        Result<std::int64_t> runId = (*ledger)->recordRun(run);
        QVERIFY(runId);
        RunAttempt first{.runId = *runId,
                         .number = 1,
                         .launchId = launches[0],
                         .host = run.host,
                         .remoteDir = "/a",
                         .startedAt = start,
                         .endedAt = start + 1200,
                         .end = "interrupted",
                         .noticeAt = start + 1200,
                         .deadlineAt = start + 1320,
                         .noticeKind = "termination",
                         .checkpointAt = start + 900};
        RunAttempt second{.runId = *runId,
                          .number = 2,
                          .launchId = launches[1],
                          .host = run.host,
                          .remoteDir = "/b",
                          .startedAt = start + 1500,
                          .endedAt = start + 3000,
                          .end = "finished"};
        QVERIFY((*ledger)->recordAttempt(first));
        QVERIFY((*ledger)->recordAttempt(second));
    }
    std::tie(code, out, err) = gpuplan({QStringLiteral("runs")});
    QVERIFY2(code == 0, qPrintable(out + err));
    QVERIFY2(out.contains(QStringLiteral("2 attempts, 1 interruption")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("1 spot interruption(s)")), qPrintable(out));
    std::tie(code, out, err) = gpuplan({QStringLiteral("runs"), QStringLiteral("--json")});
    QVERIFY2(code == 0, qPrintable(out + err));
    const nlohmann::json list = nlohmann::json::parse(out.toStdString(), nullptr, false);
    QVERIFY(list.is_array() && list.size() == 1);
    QCOMPARE(list[0]["attempts"].get<int>(), 2);
    QCOMPARE(list[0]["interruptions"].get<int>(), 1);
    // Lost: 300 s after the last checkpoint, and 300 s until the next instance ran.
    QCOMPARE(list[0]["lost_hours"].get<double>(), 600.0 / 3600.0);
    QVERIFY(list[0]["total_cost"].is_number());
    QCOMPARE(list[0]["planned_spot_cost_p90"].get<double>(), 3.5);
}

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc >= 8 && QByteArray(argv[1]) == "--child-recover") {
        QStringList args;
        for (int i = 2; i < 8; ++i) {
            args << QString::fromLocal8Bit(argv[i]);
        }
        return childRecovers(args);
    }
    TestSpotRecovery test;
    return QTest::qExec(&test, argc, argv);
}

#include "TestSpotRecovery.moc"
