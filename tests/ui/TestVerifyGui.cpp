// The Verify page driven as a user would, against a real OpenSSH server on loopback (tests/support/LoopbackSshd.h).
// This machine has no GPU: the probe runs there and says so, and the page must turn that into a clear verdict,
// keep it with the launch in the ledger and add it to the plan. A host key is trusted only when the user says so.
#include "MainWindow.h"
#include "PlanSession.h"
#include "Questions.h"
#include "pages/VerifyPage.h"
#include "widgets/StatusLabel.h"
#include "wording/Language.h"
#include "wording/VerdictText.h"

#include "../support/LoopbackSshd.h"
#include "../support/Widgets.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/probe/Checks.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using gpuplan::testing::child;
using gpuplan::testing::LoopbackSshd;
using gpuplan::ui::MainWindow;
using gpuplan::ui::VerifyPage;

namespace {

const std::filesystem::path kBundled = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog";

/// The stage rows of the progress list, as "text|done".
QStringList stages(QListWidget* list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i) {
        out << list->item(i)->text() + (list->item(i)->data(Qt::UserRole + 1).toBool() ? "|done" : "|not done");
    }
    return out;
}

} // namespace

class TestVerifyGui : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    LoopbackSshd m_sshd;
    std::int64_t m_launch = 0;

    QString path(const QString& name) const { return m_dir.path() + "/" + name; }
    void removeRemoteProbe() { QDir(QDir::home().filePath(".gpuplanner-probe")).removeRecursively(); }

private slots:
    void initTestCase()
    {
        QVERIFY2(LoopbackSshd::available(), "needs openssh-server and openssh-client");
        QVERIFY(m_sshd.setUp());
        QVERIFY(m_sshd.start());
        qputenv("XDG_DATA_HOME", path("data").toUtf8());
        qputenv("GPUPLAN_PROBE_DIR", GPUPLAN_BINARY_DIR "/bin");
        QVERIFY(QDir().mkpath(path("data/gpuplanner")));
        auto ledger = gpuplan::core::Ledger::open(path("data/gpuplanner/ledger.sqlite").toStdString());
        QVERIFY(ledger.ok());
        gpuplan::core::LaunchIntent intent;
        intent.provider = "aws";
        intent.region = "us-east-1";
        intent.instanceType = "g5.12xlarge"; // four A10G
        intent.pricingMode = "on_demand";
        intent.clientToken = "tok-verify-gui";
        m_launch = *(*ledger)->recordIntent(intent, 1'700'000'000);
        QVERIFY((*ledger)->update(m_launch, "i-0verifygui", gpuplan::core::InstanceState::Running, 1'700'000'100).ok());
    }

    void init() { QSettings().clear(); }
    void cleanup() { removeRemoteProbe(); }

    /// Every check of the catalogue has a name of its own on the Verify page; a key it does not know shows as itself.
    void everyCheckHasAName()
    {
        // In English a name may read as its key ("temperature"); in Chinese every worded check differs from its key,
        // so a check missing from the wording table (shown as its key) is caught there.
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("zh_CN")));
        QSet<QString> names;
        for (const gpuplan::core::CheckInfo& info : gpuplan::core::allChecks()) {
            const QString key = QString::fromStdString(std::string(info.key));
            const QString name = gpuplan::ui::checkName(key);
            QVERIFY2(!name.isEmpty() && name != key, qPrintable(key));
            QVERIFY2(!names.contains(name), qPrintable(name));
            names.insert(name);
        }
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("en")));
        QCOMPARE(gpuplan::ui::checkName(QStringLiteral("dram_triad")), QStringLiteral("memory bandwidth (triad)"));
        QCOMPARE(gpuplan::ui::checkName(QStringLiteral("gemm_fp4")), QStringLiteral("gemm_fp4"));
    }

    void verifiesALaunchKeepsTheVerdictAndAddsItToThePlan()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        // From the Instances page: the running g5.12xlarge selected, Verify GPU… opens the Verify page with it.
        window.showPage(MainWindow::Page::Instances);
        auto* instances = child<QTableView>(window, "instancesTable");
        QTRY_COMPARE(instances->model()->rowCount(), 1);
        auto* verifyInstance = child<QPushButton>(window, "verifyInstanceButton");
        QVERIFY(!verifyInstance->isEnabled());
        instances->selectRow(0);
        QVERIFY(verifyInstance->isEnabled());
        QTest::mouseClick(verifyInstance, Qt::LeftButton);
        auto* page = window.findChild<VerifyPage*>("verifyPage");
        QVERIFY(page && page->isVisible());
        page->setKnownHostsFile(path("known_hosts"));
        auto* launch = child<QComboBox>(window, "launchCombo");
        QTRY_COMPARE(launch->currentData().toLongLong(), qlonglong(m_launch));
        QCOMPARE(launch->count(), 2); // "not one of my launches" and the running g5.12xlarge
        QVERIFY(launch->currentText().contains("g5.12xlarge") && launch->currentText().contains("i-0verifygui"));
        child<QLineEdit>(window, "hostEdit")->setText(m_sshd.host());
        child<QLineEdit>(window, "keyFileEdit")->setText(m_sshd.path("client_ed25519"));
        QVERIFY(child<QCheckBox>(window, "quickCheckBox")->isChecked());

        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::TrustHostKey,
                                              true); // the fingerprint question, answered
        QSignalSpy finished(page, &VerifyPage::finished);
        QTest::mouseClick(child<QPushButton>(window, "verifyButton"), Qt::LeftButton);
        QVERIFY(child<QPushButton>(window, "cancelVerifyButton")->isEnabled());
        QVERIFY(finished.wait(180000));

        // connect -> detect -> upload -> run, each done; no build (the bundled probe runs here).
        const QStringList shown = stages(child<QListWidget>(window, "stagesList"));
        QCOMPARE(shown.size(), 4);
        for (const QString& stage : shown) {
            QVERIFY2(stage.endsWith("|done"), qPrintable(shown.join("; ")));
        }
        QVERIFY(shown[0].startsWith("Connect over SSH") && shown[3].startsWith("Run the probe"));
        // The verdict: it fails, and says why in words, line by line.
        auto* verdict = child<QLabel>(window, "verdictLabel");
        QVERIFY2(verdict->text().startsWith("FAIL") && verdict->text().contains("no GPU found")
                     && verdict->text().contains("promised 4 × A10G"),
                 qPrintable(verdict->text()));
        auto* table = child<QTableWidget>(window, "verdictTable");
        QVERIFY(table->rowCount() > 0);
        bool failExplained = false;
        for (int row = 0; row < table->rowCount(); ++row) {
            failExplained = failExplained
                            || (table->item(row, 2)->data(Qt::UserRole + 1).toString() == "fail"
                                && !table->item(row, 5)->text().isEmpty());
        }
        QVERIFY(failExplained);
        auto* status = child<gpuplan::ui::StatusLabel>(window, "verifyStatusLabel");
        QVERIFY2(status->isError() && status->text().contains("not what was paid for"), qPrintable(status->text()));
        // The build that ran is one this machine has: CUDA 13's where /usr/local/cuda exists, else Debian's 11.8.
        const QString deployed = child<QLabel>(window, "deploymentLabel")->text();
        const QDir bin(QStringLiteral(GPUPLAN_BINARY_DIR "/bin"));
        QVERIFY2((deployed.contains("cuda13") && bin.exists("gpuplan-probe"))
                     || (deployed.contains("cuda11.8") && bin.exists("gpuplan-probe-cuda11.8")),
                 qPrintable(deployed));
        if (const QString shots = qEnvironmentVariable("GPUPLAN_TEST_SCREENSHOTS"); !shots.isEmpty()) {
            QTest::qWait(200);                                 // the layout settles
            window.grab().save(shots + "/verify-verdict.png"); // for a person to look at
        }
        QFile known(path("known_hosts"));
        QVERIFY(known.open(QIODevice::ReadOnly) && known.readAll().contains("[127.0.0.1]:"));

        // Kept with the launch, judged against what it was launched as.
        auto ledger = gpuplan::core::Ledger::open(path("data/gpuplanner/ledger.sqlite").toStdString());
        auto kept = (*ledger)->verifications(m_launch);
        QVERIFY(kept.ok());
        QCOMPARE(kept->size(), std::size_t(1));
        QCOMPARE(kept->back().verdict, std::string("fail"));
        const nlohmann::json summary = nlohmann::json::parse(kept->back().summary, nullptr, false);
        QCOMPARE(summary["expected_gpu"].get<std::string>(), std::string("a10g"));
        QCOMPARE(summary["expected_count"].get<int>(), 4);

        // Into the open plan (the example on first start), for its report.
        QTRY_VERIFY(window.session()->hasPlan());
        auto* add = child<QPushButton>(window, "addToPlanButton");
        QTRY_VERIFY(add->isEnabled());
        QTest::mouseClick(add, Qt::LeftButton);
        const gpuplan::core::PlanDocument* plan = window.session()->plan();
        QVERIFY(plan && !plan->verifications.empty());
        QCOMPARE(plan->verifications.back().host, m_sshd.host().toStdString());
        QCOMPARE(plan->verifications.back().expectedGpu, std::string("a10g"));
        QVERIFY(window.session()->isModified());
        window.session()->setPlan(*plan, std::nullopt, false); // unmodified: closing asks nothing
    }

    void declinedHostKeyAndBadInputStopBeforeAnythingRuns()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        window.showPage(MainWindow::Page::Verify);
        auto* page = window.findChild<VerifyPage*>("verifyPage");
        page->setKnownHostsFile(path("known_hosts_declined"));
        auto* status = child<gpuplan::ui::StatusLabel>(window, "verifyStatusLabel");
        auto* host = child<QLineEdit>(window, "hostEdit");

        // A host that does not read is named; nothing connects.
        host->setText("root@");
        QTest::mouseClick(child<QPushButton>(window, "verifyButton"), Qt::LeftButton);
        QVERIFY2(status->isError() && status->text().contains("Host"), qPrintable(status->text()));
        QVERIFY(!page->isBusy());
        host->setText(m_sshd.host());
        child<QLineEdit>(window, "jumpEdit")->setText("gateway:notaport");
        QTest::mouseClick(child<QPushButton>(window, "verifyButton"), Qt::LeftButton);
        QVERIFY2(status->isError() && status->text().contains("Jump host"), qPrintable(status->text()));
        child<QLineEdit>(window, "jumpEdit")->clear();

        // The user does not trust the fingerprint: nothing is added to known_hosts, nothing runs.
        child<QLineEdit>(window, "keyFileEdit")->setText(m_sshd.path("client_ed25519"));
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::TrustHostKey, false);
        QSignalSpy finished(page, &VerifyPage::finished);
        QTest::mouseClick(child<QPushButton>(window, "verifyButton"), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QVERIFY2(status->isError() && status->text().contains("was not trusted"), qPrintable(status->text()));
        const QStringList shown = stages(child<QListWidget>(window, "stagesList"));
        QVERIFY2(shown[0].startsWith("Connect over SSH: failed"), qPrintable(shown.join("; ")));
        QVERIFY(!QFile::exists(path("known_hosts_declined")));
        QVERIFY(child<QTableWidget>(window, "verdictTable")->rowCount() == 0);
        QVERIFY(!QDir(QDir::home().filePath(".gpuplanner-probe")).exists());

        // An encrypted key: its passphrase is asked for (here answered), then the run goes through.
        QVERIFY(m_sshd.keygen("client_encrypted", "ed25519", "correct horse"));
        QVERIFY(m_sshd.authorize("client_encrypted"));
        child<QLineEdit>(window, "keyFileEdit")->setText(m_sshd.path("client_encrypted"));
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::TrustHostKey, true);
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::KeyPassphrase, QStringLiteral("correct horse"));
        QTest::mouseClick(child<QPushButton>(window, "verifyButton"), Qt::LeftButton);
        QVERIFY(finished.wait(180000));
        QVERIFY2(child<QTableWidget>(window, "verdictTable")->rowCount() > 0, qPrintable(status->text()));
    }

    /// A verdict line's figures are data (core::VerdictLine::measured, ::expected); in the C locale the CLI uses, the
    /// wording reads as the probe's table always did.
    void figuresReadAsTheTableDid()
    {
        using gpuplan::core::Reason;
        const QLocale before;
        QLocale::setDefault(QLocale::c());
        const auto text = [](const Reason& figure) { return gpuplan::ui::figureText(figure); };
        QCOMPARE(text(Reason{"figure.share",
                             {{"value", "252.08"}, {"unit", "TFLOPS"}, {"ratio", "0.808"}, {"peak", "312"}}}),
                 QString("252.1 TFLOPS (0.81 of 312)"));
        QCOMPARE(text(Reason{"figure.share_threshold",
                             {{"pass", "0.65"}, {"peak", "312"}, {"unit", "TFLOPS"}, {"fail", "0.5"}}}),
                 QString(">= 0.65 of 312 TFLOPS (fail < 0.50)"));
        QCOMPARE(text(Reason{"figure.driver_needed", {{"cuda", "12.4"}, {"driver", "525.60.13"}}}),
                 QString("CUDA >= 12.4 (driver >= 525.60.13)"));
        QCOMPARE(text(Reason{"figure.driver_needed", {{"cuda", "14.0"}}}),
                 QString("CUDA >= 14.0 (driver >= a driver for CUDA 14.0)"));
        QCOMPARE(text(Reason{"figure.driver", {{"cuda", "12.2"}}}), QString("unknown (CUDA 12.2)"));
        QCOMPARE(text(Reason{"figure.memory", {{"gib", "79.15"}, {"mib", "81051"}}}), QString("79.2 GiB (81051 MiB)"));
        QCOMPARE(text(Reason{"figure.correctness",
                             {{"repeat_identical", "true"}, {"nan_count", "0"}, {"max_relative_error", "0.0001234"}}}),
                 QString("repeat identical, NaN 0, max rel. error 0.0001234"));
        QCOMPARE(text(Reason{"figure.correctness", {{"repeat_identical", "false"}, {"nan_count", "3"}}}),
                 QString("repeat differs, NaN 3, max rel. error not finite"));
        QCOMPARE(text(Reason{"figure.correctness_expected", {{"tolerance", "0.01"}}}),
                 QString("repeat identical, NaN 0, max rel. error <= 0.01"));
        QCOMPARE(text(Reason{"figure.ecc",
                             {{"enabled", "true"}, {"volatile_uncorrected", "0"}, {"aggregate_uncorrected", "2"}}}),
                 QString("on, volatile uncorrectable 0, aggregate uncorrectable 2"));
        QCOMPARE(text(Reason{"figure.remapped_rows",
                             {{"correctable", "1"}, {"uncorrectable", "0"}, {"pending", "true"}, {"failure", "true"}}}),
                 QString("1 correctable, 0 uncorrectable, remap pending, remap failed"));
        QCOMPARE(text(Reason{"figure.no_remap_failure", {}}), QString("no failure, none pending"));
        QCOMPARE(text(Reason{"figure.throttle_reasons", {{"reasons", ""}}}), QString("none"));
        QCOMPARE(text(Reason{"figure.throttle_reasons", {{"reasons", "sw_power_cap,hw_slowdown"}}}),
                 QString("sw_power_cap, hw_slowdown"));
        QCOMPARE(text(Reason{"figure.throttle_shares", {{"share.hw_slowdown", "0.05"}, {"share.sw_power_cap", "0.3"}}}),
                 QString("hw_slowdown 5 %, sw_power_cap 30 %"));
        QCOMPARE(text(Reason{"figure.throttle_expected", {{"share", "0.1"}, {"samples", "120"}}}),
                 QString("hw_slowdown, hw_thermal, hw_power_brake < 10 % of 120 busy samples"));
        QCOMPARE(text(Reason{"figure.burn",
                             {{"gemms", "4000"}, {"seconds", "60.2"}, {"wrong", "0"}, {"nan", "0"}, {"xid", ""}}}),
                 QString("4000 GEMMs in 60 s, 0 wrong, 0 NaN, Xid n/a"));
        QCOMPARE(text(Reason{"figure.below_slowdown", {{"celsius", "87"}}}), QString("< 87 C (slowdown)"));
        QCOMPARE(text(Reason{"figure.power_expected", {{"share", "0.75"}, {"limit", "300"}}}),
                 QString(">= 0.75 x 300 W"));
        QCOMPARE(text(Reason{"figure.power", {{"watts", "290.5"}, {"ratio", "0.968"}, {"limit", "300"}}}),
                 QString("290.5 W (0.97 of 300 W)"));
        QCOMPARE(text(Reason{"figure.to_peer",
                             {{"value", "180"},
                              {"unit", "GB/s"},
                              {"peer", "1"},
                              {"link", "nvlink"},
                              {"ratio", "0.6"},
                              {"peak", "300"}}}),
                 QString("180 GB/s to GPU 1 (nvlink) (0.60 of 300)"));
        QCOMPARE(text(Reason{"figure.value", {{"value", "1555"}, {"unit", "GB/s"}}}), QString("1555 GB/s"));
        QCOMPARE(text(Reason{"figure.count", {{"count", "8"}}}), QString("8"));
        QCOMPARE(text(Reason{}), QString(""));
        QCOMPARE(text(Reason{"saved.text", {{"text", "as saved"}}}), QString("as saved"));
        QCOMPARE(text(Reason{"figure.new_kind", {{"a", "1"}}}), QString("figure.new_kind (a=1)"));
        // A probe build whose driver floor core does not know still reads as a sentence, not as its key.
        for (const char* key : {"probe.driver.too_old", "probe.driver.too_old_for_any_build"}) {
            const QString worded = gpuplan::ui::verdictReasonText(key,
                                                                  {{"driver", "535.1"},
                                                                   {"driver_cuda", "12.2"},
                                                                   {"build_cuda", "14.0"},
                                                                   {"cuda11_min_driver", "450.80.02"}});
            QVERIFY2(worded.contains(QStringLiteral("CUDA 14.0")) && !worded.contains(QStringLiteral("probe.")),
                     qPrintable(worded));
        }
        QLocale::setDefault(before);
    }

    // Last: it switches the whole program to Chinese. The verdict's reasons are worded in Chinese too, not left in
    // the English of core.
    void chineseVerdict()
    {
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("zh_CN")));
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        window.showPage(MainWindow::Page::Verify);
        auto* page = window.findChild<VerifyPage*>("verifyPage");
        page->setKnownHostsFile(path("known_hosts_zh"));
        child<QLineEdit>(window, "hostEdit")->setText(m_sshd.host());
        child<QLineEdit>(window, "keyFileEdit")->setText(m_sshd.path("client_ed25519"));
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::TrustHostKey, true);
        QSignalSpy finished(page, &VerifyPage::finished);
        QTest::mouseClick(child<QPushButton>(window, "verifyButton"), Qt::LeftButton);
        QVERIFY(finished.wait(180000));
        auto* verdict = child<QLabel>(window, "verdictLabel");
        QVERIFY2(verdict->text().startsWith(QStringLiteral("不通过")), qPrintable(verdict->text()));
        auto* table = child<QTableWidget>(window, "verdictTable");
        QVERIFY(table->rowCount() > 0);
        const QRegularExpression chinese(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
        for (int row = 0; row < table->rowCount(); ++row) {
            QVERIFY2(table->item(row, 5)->text().contains(chinese), qPrintable(table->item(row, 5)->text()));
        }
        QVERIFY2(child<QLabel>(window, "deploymentLabel")->text().contains(chinese),
                 qPrintable(child<QLabel>(window, "deploymentLabel")->text()));
        if (const QString shots = qEnvironmentVariable("GPUPLAN_TEST_SCREENSHOTS"); !shots.isEmpty()) {
            QTest::qWait(200);
            window.grab().save(shots + "/verify-verdict-zh_CN.png");
        }
    }
};

QTEST_MAIN(TestVerifyGui)
#include "TestVerifyGui.moc"
