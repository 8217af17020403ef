// The Run page against a real sshd on loopback (its sessions get the test's own HOME and the stand-ins of
// tests/integration/standins on PATH): a run started from the page in a child process that is then killed
// (SIGKILL), and the program started again following it to its end from its first line; the log, the GPU charts,
// the advice at 40 % with every core busy, the speed against the plan; the results brought home; "Run on this
// instance…" from the Instances page, whose Terminate then says the results are not home; the Reports page with
// the finished runs. Screenshots of the Run page during a run and of the Reports page, in English and Chinese,
// when GPUPLAN_TEST_SCREENSHOTS names a folder. A recovered spot run read from a ledger the test writes (its two
// attempts on the timeline and in the table, its totals against the plan's P50/P90; screenshots
// run-recovered-en/zh_CN), and the form's spot section: a bad bucket, the plan's Daly interval, the starter script.

#include "../support/LoopbackSshd.h"
#include "../support/Widgets.h"
#include "MainWindow.h"
#include "Questions.h"
#include "pages/RunPage.h"
#include "widgets/RunTimeline.h"
#include "wording/Format.h"
#include "wording/Language.h"

#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/plan/PlanFile.h"
#include "gpuplan/run/SpotRecovery.h"
#include "gpuplan/run/StarterScript.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using gpuplan::testing::child;
using gpuplan::testing::LoopbackSshd;
using gpuplan::ui::MainWindow;
using gpuplan::ui::Question;
using gpuplan::ui::Questions;
using gpuplan::ui::RunPage;

namespace {

const std::filesystem::path kBundled = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog";

bool waitUntil(const std::function<bool()>& done, int ms)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > ms) {
            return false;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(20);
    }
    return true;
}

bool writeFile(const QString& file, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(file).path());
    QFile f(file);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// A working directory with the stand-in trainer.
QString makeProject(const QString& root)
{
    QDir(root).removeRecursively();
    QFile source(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/standins/train.sh"));
    source.open(QIODevice::ReadOnly);
    writeFile(root + "/train.sh", source.readAll());
    QFile::setPermissions(root + "/train.sh", QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    writeFile(root + "/src/model.py", "import torch\n");
    writeFile(root + "/.gitignore", "data/\n");
    writeFile(root + "/data/shard.bin", QByteArray(100000, 'x'));
    return root;
}

/// Fills the Run page's form for `command` on the loopback sshd.
void fillForm(QWidget& window, const QString& host, const QString& key, const QString& workdir, const QString& command)
{
    child<QLineEdit>(window, "runHostEdit")->setText(host);
    child<QLineEdit>(window, "runKeyFileEdit")->setText(key);
    child<QLineEdit>(window, "runWorkdirEdit")->setText(workdir);
    child<QLineEdit>(window, "runCommandEdit")->setText(command);
    child<QLineEdit>(window, "runResultsEdit")->setText(QStringLiteral("output"));
    auto* preset = child<QComboBox>(window, "runSpeedPresetComboBox");
    preset->setCurrentIndex(preset->findData(QStringLiteral("timm")));
}

/// The child: starts a run from the Run page, waits until it prints, and dies by SIGKILL (no chance to clean up).
int childStartsARunAndIsKilled(const QStringList& args)
{
    // args: host key knownHosts workdir launch marker
    MainWindow window(kBundled);
    window.show();
    if (!waitUntil([&] { return window.isCatalogLoaded(); }, 60000)) {
        return 3;
    }
    window.showPage(MainWindow::Page::Run);
    auto* page = window.findChild<RunPage*>(QStringLiteral("runPage"));
    page->setKnownHostsFile(args[2]);
    page->chooseLaunch(args[4].toLongLong());
    auto* launch = child<QComboBox>(window, "runLaunchComboBox");
    if (!waitUntil([&] { return launch->currentData().toLongLong() == args[4].toLongLong(); }, 30000)) {
        return 4;
    }
    fillForm(window, args[0], args[1], args[3], QStringLiteral("./train.sh 40 output"));
    Questions::setNextAnswer(Question::TrustHostKey, true);
    QTest::mouseClick(child<QPushButton>(window, "runStartButton"), Qt::LeftButton);
    auto* log = child<QPlainTextEdit>(window, "runLogView");
    if (!waitUntil([&] { return log->toPlainText().contains(QStringLiteral("Train: 0 [   3/40")); }, 60000)) {
        return 5;
    }
    writeFile(args[5], "killed while the run printed\n");
    ::kill(::getpid(), SIGKILL);
    return 6;
}

} // namespace

class TestRunGui : public QObject
{
    Q_OBJECT

public:
    QTemporaryDir m_dir;
    LoopbackSshd m_sshd;
    std::int64_t m_launch = 0;

    QString path(const QString& name) const { return m_dir.path() + "/" + name; }
    QString remoteHome() const { return path(QStringLiteral("remote-home")); }
    void shoot(QWidget& window, const QString& name)
    {
        if (const QString shots = qEnvironmentVariable("GPUPLAN_TEST_SCREENSHOTS"); !shots.isEmpty()) {
            QDir().mkpath(shots);
            window.grab().save(shots + "/" + name + ".png"); // for a person to look at
        }
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(LoopbackSshd::available(), "needs openssh-server and openssh-client");
        QVERIFY(m_sshd.setUp());
        const QString bin = path(QStringLiteral("bin"));
        QVERIFY(QDir().mkpath(bin));
        QVERIFY(QDir().mkpath(remoteHome()));
        QVERIFY(QFile::copy(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/standins/nvidia-smi"),
                            bin + "/nvidia-smi"));
        QFile::setPermissions(bin + "/nvidia-smi",
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY(m_sshd.start(QStringLiteral("host_ed25519"),
                             QStringLiteral("VERBOSE"),
                             {QStringLiteral("SetEnv PATH=%1:/usr/local/bin:/usr/bin:/bin HOME=%2 TMUX_TMPDIR=%2")
                                  .arg(bin, remoteHome())}));
        qputenv("XDG_DATA_HOME", path("data").toUtf8());
        QVERIFY(QDir().mkpath(path("data/gpuplanner")));
        auto ledger = gpuplan::core::Ledger::open(path("data/gpuplanner/ledger.sqlite").toStdString());
        QVERIFY(ledger.ok());
        gpuplan::core::LaunchIntent intent;
        intent.provider = "aws";
        intent.region = "us-east-1";
        intent.instanceType = "p4d.24xlarge";
        intent.pricingMode = "on_demand";
        intent.price = gpuplan::core::LaunchPrice{
            32.77, gpuplan::core::Currency::USD, gpuplan::core::PriceUnit::Hour, std::nullopt, 0};
        intent.deadmanHours = 2;
        intent.clientToken = "tok-run-gui";
        const std::int64_t now = std::time(nullptr);
        m_launch = *(*ledger)->recordIntent(intent, now - 600);
        QVERIFY((*ledger)->update(m_launch, "i-0rungui", gpuplan::core::InstanceState::Running, now - 540).ok());
    }

    void cleanupTestCase()
    {
        QProcess::execute(QStringLiteral("pkill"), {QStringLiteral("-f"), remoteHome()});
        m_sshd.stop();
    }

    void init() { QSettings().clear(); }

    void aKilledGuiFollowsItsRunAgainThenReportsIt()
    {
        const QString project = makeProject(path(QStringLiteral("project")));
        const QString knownHosts = path(QStringLiteral("known_hosts"));
        const QString key = m_sshd.path(QStringLiteral("client_ed25519"));
        const QString marker = path(QStringLiteral("killed"));

        // 1. The program starts a run from the Run page and is killed while it prints.
        QProcess first;
        first.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        first.start(QCoreApplication::applicationFilePath(),
                    {QStringLiteral("--child-start-run"),
                     m_sshd.host(),
                     key,
                     knownHosts,
                     project,
                     QString::number(m_launch),
                     marker});
        QVERIFY(first.waitForFinished(150000));
        QVERIFY2(QFile::exists(marker),
                 qPrintable(QStringLiteral("exit %1: %2").arg(first.exitCode()).arg(first.readAllStandardError())));
        QCOMPARE(first.exitStatus(), QProcess::CrashExit);
        {
            auto ledger = gpuplan::core::Ledger::open(path("data/gpuplanner/ledger.sqlite").toStdString());
            auto runs = (*ledger)->runs();
            QCOMPARE(runs->size(), std::size_t(1));
            QCOMPARE(runs->front().state, gpuplan::core::RunState::Running);
            QCOMPARE(runs->front().launchId, m_launch);
        }

        // 2. Started again, it follows the run at once: the whole log from its first line, the GPUs, the advice.
        MainWindow window(kBundled);
        auto* page = window.findChild<RunPage*>(QStringLiteral("runPage"));
        page->setKnownHostsFile(knownHosts);
        page->setAdviceAfter(5);
        page->setPollSeconds(1);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.isCatalogLoaded(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(page->followedRun().has_value(), 30000);
        QCOMPARE(page->followedRun()->id, std::int64_t(1));
        window.showPage(MainWindow::Page::Run);
        auto* log = child<QPlainTextEdit>(window, "runLogView");
        QTRY_VERIFY_WITH_TIMEOUT(log->toPlainText().contains(QStringLiteral("Train: 0 [   1/40")), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(log->toPlainText().contains(QStringLiteral("Train: 0 [  12/40")), 30000);
        auto* advice = child<QLabel>(window, "runAdviceLabel");
        QTRY_VERIFY_WITH_TIMEOUT(advice->text().contains(QStringLiteral("data")), 30000);
        QVERIFY2(advice->text().contains(QStringLiteral("40")), qPrintable(advice->text()));
        auto* utilization = child<QChartView>(window, "runUtilizationChart");
        QTRY_VERIFY(!utilization->chart()->series().isEmpty());
        auto* versus = child<QTableWidget>(window, "runVersusTable");
        QTRY_VERIFY(versus->item(0, 1)->text().contains(QStringLiteral("742")));
        QVERIFY(child<QLabel>(window, "runDeadmanLabel")->text().contains(QStringLiteral("dead-man")));
        shoot(window, QStringLiteral("run-page-en"));
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("zh_CN")));
        QTRY_COMPARE(child<QPushButton>(window, "runStopButton")->text(), QStringLiteral("停止"));
        QTRY_VERIFY(advice->text().contains(QStringLiteral("数据")));
        shoot(window, QStringLiteral("run-page-zh_CN"));
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("en")));

        QTRY_VERIFY_WITH_TIMEOUT(page->followedRun()->state == gpuplan::core::RunState::Finished, 60000);
        QVERIFY(log->toPlainText().contains(QStringLiteral("Train: 0 [  40/40")));
        QVERIFY(log->toPlainText().contains(QStringLiteral("done")));

        // 3. Its results come home, checksummed.
        const QString results = path(QStringLiteral("results"));
        Questions::setNextAnswer(Question::FileName, results);
        QTest::mouseClick(child<QPushButton>(window, "runDownloadButton"), Qt::LeftButton);
        auto* status = child<QLabel>(window, "runStatusLabel");
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("SHA256SUMS")), 30000);
        QVERIFY(QFile::exists(results + "/run-1/SHA256SUMS"));
        QVERIFY(QFile::exists(results + "/run-1/output/metrics.json"));

        // 4. "Run on this instance…" from the Instances page: a second run on the launch, to its end.
        window.showPage(MainWindow::Page::Instances);
        auto* instances = child<QTableView>(window, "instancesTable");
        QTRY_COMPARE(instances->model()->rowCount(), 1);
        instances->selectRow(0);
        auto* runHere = child<QPushButton>(window, "runOnInstanceButton");
        QVERIFY(runHere->isEnabled());
        QTest::mouseClick(runHere, Qt::LeftButton);
        QVERIFY(page->isVisible());
        QTRY_COMPARE(child<QComboBox>(window, "runLaunchComboBox")->currentData().toLongLong(), qlonglong(m_launch));
        fillForm(window, m_sshd.host(), key, project, QStringLiteral("./train.sh 6 output"));
        QTest::mouseClick(child<QPushButton>(window, "runStartButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(page->followedRun() && page->followedRun()->id == 2, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(page->followedRun()->state == gpuplan::core::RunState::Finished, 60000);

        // 5. Its results are not home: Terminate says so before the answer (answered no: nothing is sent).
        window.showPage(MainWindow::Page::Instances);
        QTRY_COMPARE(instances->model()->rowCount(), 1);
        instances->selectRow(0);
        Questions::setNextAnswer(Question::ConfirmTerminate, false);
        QTest::mouseClick(child<QPushButton>(window, "terminateButton"), Qt::LeftButton);
        QTRY_VERIFY(Questions::lastAsked(Question::ConfirmTerminate).contains(QStringLiteral("i-0rungui")));
        const QString asked = Questions::lastAsked(Question::ConfirmTerminate);
        QVERIFY2(asked.contains(QStringLiteral("results of run 2 are not downloaded yet")), qPrintable(asked));
        QVERIFY(!asked.contains(QStringLiteral("run 1,")));

        // 6. The Reports page: both runs, finished, plan against actual.
        window.showPage(MainWindow::Page::Reports);
        auto* reports = child<QTableView>(window, "reportsRunsTable");
        QTRY_VERIFY_WITH_TIMEOUT(reports->model()->rowCount() >= 2, 30000);
        shoot(window, QStringLiteral("reports-page-en"));
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("zh_CN")));
        QTest::qWait(200);
        shoot(window, QStringLiteral("reports-page-zh_CN"));
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("en")));
    }

    /// A spot run that was reclaimed in us-east-1a and finished after its relaunch in us-east-1b, as the ledger keeps
    /// it: the page shows both attempts, the one interruption, and the totals against the plan's spot percentiles.
    void aRecoveredSpotRunShowsItsAttemptsFromTheLedger()
    {
        namespace core = gpuplan::core;
        const QString ledgerFile = path(QStringLiteral("spot/ledger.sqlite"));
        QVERIFY(QDir().mkpath(path(QStringLiteral("spot"))));
        const std::int64_t t0 = std::time(nullptr);
        std::int64_t first = 0;
        std::int64_t second = 0;
        {
            auto ledger = core::Ledger::open(ledgerFile.toStdString());
            QVERIFY(ledger.ok());
            bool updated = true;
            auto launch = [&](const char* zone, const char* token, std::int64_t at, std::int64_t ended) {
                core::LaunchIntent intent;
                intent.provider = "aws";
                intent.region = "us-east-1";
                intent.zone = zone;
                intent.instanceType = "g5.xlarge";
                intent.pricingMode = "spot";
                intent.price = core::LaunchPrice{0.50, core::Currency::USD, core::PriceUnit::Hour, std::nullopt, 0};
                intent.clientToken = token;
                const std::int64_t id = *(*ledger)->recordIntent(intent, at);
                updated =
                    updated
                    && (*ledger)->update(id, std::string("i-") + token, core::InstanceState::Running, at + 60).ok()
                    && (*ledger)->update(id, std::string("i-") + token, core::InstanceState::Terminated, ended).ok();
                return id;
            };
            first = launch("us-east-1a", "spot-a", t0 - 7300, t0 - 3600);
            second = launch("us-east-1b", "spot-b", t0 - 3500, t0 - 100);
            QVERIFY(updated);
            core::RunSpec spec;
            spec.command = "python3 train.py";
            spec.spot.watch = true;
            spec.spot.recover = true;
            spec.spot.bucket = "s3://lab-checkpoints/resnet";
            spec.spot.bucketRegion = "us-east-1";
            core::RunRecord run;
            run.launchId = second;
            run.planId = "plan-spot";
            run.host = "ubuntu@203.0.113.8";
            run.remoteDir = "/home/ubuntu/gpuplan-runs/1";
            run.method = "systemd";
            run.spec = core::runSpecJson(spec).dump();
            run.state = core::RunState::Finished;
            run.startedAt = t0 - 7000;
            run.endedAt = t0 - 200;
            run.exitCode = 0;
            run.planned.currency = "USD";
            run.planned.spotHoursP50 = 1.8;
            run.planned.spotHoursP90 = 2.6;
            run.planned.spotCostP50 = 2.80;
            run.planned.spotCostP90 = 3.40;
            run.planned.checkpointIntervalHours = 0.5;
            const std::int64_t runId = *(*ledger)->recordRun(run);
            core::RunAttempt reclaimed;
            reclaimed.runId = runId;
            reclaimed.number = 1;
            reclaimed.launchId = first;
            reclaimed.host = "ubuntu@203.0.113.7";
            reclaimed.remoteDir = run.remoteDir;
            reclaimed.startedAt = t0 - 7000;
            reclaimed.endedAt = t0 - 3600;
            reclaimed.end = "interrupted";
            reclaimed.noticeAt = t0 - 3720;
            reclaimed.deadlineAt = t0 - 3600;
            reclaimed.noticeKind = "termination";
            reclaimed.checkpointAt = t0 - 3690;
            QVERIFY((*ledger)->recordAttempt(reclaimed).ok());
            core::RunAttempt resumed = reclaimed;
            resumed.number = 2;
            resumed.launchId = second;
            resumed.host = run.host;
            resumed.startedAt = t0 - 3300;
            resumed.endedAt = t0 - 200;
            resumed.end = "finished";
            resumed.noticeAt.reset();
            resumed.deadlineAt.reset();
            resumed.noticeKind.clear();
            resumed.checkpointAt = t0 - 1000;
            QVERIFY((*ledger)->recordAttempt(resumed).ok());
            auto kept = (*ledger)->attempts(runId);
            QCOMPARE(kept->size(), std::size_t(2));
        }

        RunPage page;
        page.setLedgerFile(ledgerFile.toStdString());
        page.resize(1280, 800);
        page.show();
        page.refresh();
        auto* runs = child<QComboBox>(page, "runRunsComboBox");
        QTRY_COMPARE(runs->count(), 1);
        page.followRun(1);
        QVERIFY(page.followedRun().has_value());
        QCOMPARE(page.followedRun()->state, core::RunState::Finished);
        auto* timeline = child<gpuplan::ui::RunTimeline>(page, "runTimeline");
        QTRY_COMPARE(timeline->bars().size(), std::size_t(2));
        QVERIFY(child<QGroupBox>(page, "runAttemptsGroup")->isVisible());
        QCOMPARE(timeline->bars()[0].how, std::string("interrupted"));
        QCOMPARE(timeline->bars()[1].how, std::string("finished"));
        QCOMPARE(timeline->notices().size(), std::size_t(1));
        QCOMPARE(timeline->notices()[0].at, t0 - 3720);
        QCOMPARE(timeline->notices()[0].deadline, std::optional<std::int64_t>(t0 - 3600));
        QCOMPARE(timeline->syncs().size(), std::size_t(2));
        QCOMPARE(timeline->gaps().size(), std::size_t(1));
        QCOMPARE(timeline->gaps()[0].to - timeline->gaps()[0].from, std::int64_t(300)); // the restart
        auto* table = child<QTableWidget>(page, "runAttemptsTable");
        QCOMPARE(table->rowCount(), 2);
        QVERIFY2(table->item(0, 1)->text().contains(QStringLiteral("us-east-1a")),
                 qPrintable(table->item(0, 1)->text()));
        QVERIFY2(table->item(1, 1)->text().contains(QStringLiteral("us-east-1b")),
                 qPrintable(table->item(1, 1)->text()));
        QVERIFY2(table->item(0, 4)->text().contains(QStringLiteral("reclaimed")),
                 qPrintable(table->item(0, 4)->text()));
        QCOMPARE(table->item(1, 4)->text(), QStringLiteral("finished"));
        auto* totals = child<QLabel>(page, "runTotalsLabel");
        const QString money50 = gpuplan::ui::formatMoney(2.80, QStringLiteral("USD"));
        const QString money90 = gpuplan::ui::formatMoney(3.40, QStringLiteral("USD"));
        // "2 attempts" once the English .qm has the plural; "2 attempt(s)" before the lead merges it.
        QVERIFY2(totals->text().contains(QStringLiteral("2 attempt")), qPrintable(totals->text()));
        QVERIFY2(totals->text().contains(QStringLiteral("1 interruption")), qPrintable(totals->text()));
        QVERIFY2(totals->text().contains(QStringLiteral("P50 ") + money50), qPrintable(totals->text()));
        QVERIFY2(totals->text().contains(QStringLiteral("P90 ") + money90), qPrintable(totals->text()));
        // The instance is gone: the page shows what the ledger has and logs in nowhere.
        QVERIFY(!child<QLabel>(page, "runStatusLabel")->property("error").toBool());
        QTest::qWait(100);
        shoot(page, QStringLiteral("run-recovered-en"));

        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("zh_CN")));
        QTRY_COMPARE(child<QPushButton>(page, "runStopButton")->text(), QStringLiteral("停止"));
        // The same figures in Chinese (the words are the .ts file's, merged from the helpers' TSV files).
        QCOMPARE(table->rowCount(), 2);
        QVERIFY(table->item(0, 1)->text().contains(QStringLiteral("us-east-1a")));
        QVERIFY(table->item(1, 1)->text().contains(QStringLiteral("us-east-1b")));
        QCOMPARE(timeline->bars().size(), std::size_t(2));
        QCOMPARE(timeline->notices().size(), std::size_t(1));
        QVERIFY2(totals->text().contains(QStringLiteral("2")), qPrintable(totals->text()));
        QVERIFY2(totals->text().contains(gpuplan::ui::formatMoney(2.80, QStringLiteral("USD"))),
                 qPrintable(totals->text()));
        QVERIFY2(totals->text().contains(gpuplan::ui::formatMoney(3.40, QStringLiteral("USD"))),
                 qPrintable(totals->text()));
        QTest::qWait(100);
        shoot(page, QStringLiteral("run-recovered-zh_CN"));
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("en")));
    }

    /// The form's spot section: a bucket of an unknown scheme is refused by the field's name, the periodic sync is the
    /// plan's Daly interval, and "Write a starter script…" writes train.py and fills the command.
    void theSpotSectionChecksTheBucketShowsDalyAndWritesTheStarter()
    {
        namespace core = gpuplan::core;
        auto loaded = core::loadPlan(kBundled.parent_path() / "examples" / "resnet50-imagenet.gpuplan");
        QVERIFY(loaded.ok());
        core::PlanDocument doc = *loaded;
        core::PlanDocument* plan = &doc;
        // The example plans' spot modes are not eligible (their deadline): the test makes one option's eligible, with
        // Daly's interval as the planner states it, and chooses it.
        bool made = false;
        for (std::size_t i = 0; i < plan->results.options.size() && !made; ++i) {
            for (core::PlanMode& mode : plan->results.options[i].modes) {
                if (core::isSpot(mode.mode) && !made) {
                    mode.eligible = true;
                    mode.spot = mode.spot.value_or(core::PlanSpot{});
                    mode.spot->checkpointIntervalHours = 0.75;
                    plan->choice = static_cast<int>(i);
                    made = true;
                }
            }
        }
        QVERIFY(made);
        RunPage page;
        page.setLedgerFile(path(QStringLiteral("spot-form/ledger.sqlite")).toStdString());
        page.setScriptsDir(kBundled.parent_path() / "scripts");
        page.setPlan(plan);
        page.show();

        auto* watch = child<QCheckBox>(page, "runSpotWatchCheckBox");
        auto* recover = child<QCheckBox>(page, "runSpotRecoverCheckBox");
        QVERIFY(watch->isEnabled());
        QTest::mouseClick(recover, Qt::LeftButton, {}, QPoint(8, recover->height() / 2));
        recover->setChecked(true);
        QVERIFY(watch->isChecked()); // recovery needs the watcher

        auto* bucket = child<QLineEdit>(page, "runCheckpointBucketEdit");
        auto* problem = child<QLabel>(page, "runCheckpointBucketProblemLabel");
        bucket->setText(QStringLiteral("ftp://lab/checkpoints"));
        QVERIFY(problem->isVisible());
        QVERIFY2(problem->text().startsWith(QStringLiteral("Checkpoint bucket")), qPrintable(problem->text()));
        child<QLineEdit>(page, "runCommandEdit")->setText(QStringLiteral("python3 train.py"));
        QTest::mouseClick(child<QPushButton>(page, "runStartButton"), Qt::LeftButton);
        auto* status = child<QLabel>(page, "runStatusLabel");
        // No run starts with it (the button is off without the planning data; the check says why either way).
        QVERIFY(!page.followedRun().has_value());
        bucket->setText(QStringLiteral("s3://lab-checkpoints/resnet"));
        QVERIFY(!problem->isVisible());

        // The periodic sync: Daly's interval of the plan's spot option.
        const int every = core::syncEverySecondsOf(core::SpotHandling{}, core::plannedRunOf(*plan));
        QVERIFY2(every > 0, "the example plan has a spot option with a checkpoint interval");
        auto* sync = child<QLabel>(page, "runCheckpointSyncLabel");
        QVERIFY2(sync->text().contains(gpuplan::ui::formatHours(every / 3600.0)), qPrintable(sync->text()));
        QVERIFY2(sync->text().contains(QStringLiteral("Daly")), qPrintable(sync->text()));

        // The starter script, into a fresh folder.
        QTemporaryDir work;
        Questions::setNextAnswer(Question::FileName, work.path());
        QTest::mouseClick(child<QPushButton>(page, "runWriteStarterButton"), Qt::LeftButton);
        QVERIFY2(QFile::exists(work.path() + "/train.py"), qPrintable(status->text()));
        QFile script(work.path() + "/train.py");
        QVERIFY(script.open(QIODevice::ReadOnly));
        const QByteArray text = script.readAll();
        QVERIFY(text.contains("gpuplan-train"));
        QVERIFY(!text.contains("{{"));
        const core::RunSpec expected = core::starterRunSpec(core::starterSettingsOf(*plan), work.path().toStdString());
        QCOMPARE(child<QLineEdit>(page, "runCommandEdit")->text(), QString::fromStdString(expected.command));
        QCOMPARE(child<QLineEdit>(page, "runWorkdirEdit")->text(), work.path());
        QCOMPARE(child<QLineEdit>(page, "runCheckpointDirEdit")->text(),
                 QString::fromStdString(expected.spot.checkpointDir));
        QCOMPARE(child<QComboBox>(page, "runSpeedPresetComboBox")->currentData().toString(), QStringLiteral("custom"));
        QCOMPARE(child<QLineEdit>(page, "runSpeedRegexEdit")->text(),
                 QString::fromStdString(expected.throughput.regex));
        QVERIFY(!status->property("error").toBool());
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("gpuplanner-test-run"));
    if (argc >= 8 && QByteArray(argv[1]) == "--child-start-run") {
        QStringList args;
        for (int i = 2; i < 8; ++i) {
            args << QString::fromLocal8Bit(argv[i]);
        }
        return childStartsARunAndIsKilled(args);
    }
    TestRunGui test;
    return QTest::qExec(&test, argc, argv);
}

#include "TestRunGui.moc"
