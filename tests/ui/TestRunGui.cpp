// The Run page against a real sshd on loopback (its sessions get the test's own HOME and the stand-ins of
// tests/integration/standins on PATH): a run started from the page in a child process that is then killed
// (SIGKILL), and the program started again following it to its end from its first line; the log, the GPU charts,
// the advice at 40 % with every core busy, the speed against the plan; the results brought home; "Run on this
// instance…" from the Instances page, whose Terminate then says the results are not home; the Reports page with
// the finished runs. Screenshots of the Run page during a run and of the Reports page, in English and Chinese,
// when GPUPLAN_TEST_SCREENSHOTS names a folder.

#include "../support/LoopbackSshd.h"
#include "../support/Widgets.h"
#include "MainWindow.h"
#include "Questions.h"
#include "pages/RunPage.h"
#include "wording/Language.h"

#include "gpuplan/ledger/Ledger.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
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
        QVERIFY(m_sshd.start(
            QStringLiteral("host_ed25519"),
            QStringLiteral("VERBOSE"),
            {QStringLiteral("SetEnv PATH=%1:/usr/local/bin:/usr/bin:/bin HOME=%2").arg(bin, remoteHome())}));
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
