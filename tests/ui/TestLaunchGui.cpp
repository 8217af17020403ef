// The Launch and Instances pages driven as a user would, against the local fakes of EC2 and CVM
// (tests/integration/fakes: no real cloud is reachable from here). A launch goes through the form and its
// confirmation, is followed to running and SSH reachable, appears on the Instances page with its cost and dead-man,
// and is terminated and reconciled from there. "SSH reachable" is a TCP connection: the fakes give every instance
// 127.0.0.1, and a QTcpServer here stands in for its sshd.

#include "../support/Widgets.h"
#include "MainWindow.h"
#include "PlanSession.h"
#include "Questions.h"
#include "models/InstanceTableModel.h"
#include "pages/CredentialsPage.h"
#include "pages/InstancesPage.h"
#include "pages/LaunchPage.h"
#include "secrets/CredentialStore.h"
#include "wording/ProviderText.h"

#include "../integration/fakes/FakeCloud.h"
#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/cloud/WatchdogScript.h"
#include "gpuplan/plan/PlanFile.h"
#include "gpuplan/secrets/Credential.h"

#include <algorithm>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QWheelEvent>

#include <fstream>
#include <memory>

using namespace gpuplan::testing;
using gpuplan::core::PlanDocument;
using gpuplan::core::PlanOption;
using gpuplan::ui::CredentialsPage;
using gpuplan::ui::CredentialStore;
using gpuplan::ui::InstancesPage;
using gpuplan::ui::InstanceTableModel;
using gpuplan::ui::LaunchPage;
using gpuplan::ui::MainWindow;
using gpuplan::ui::PlanSession;

using gpuplan::testing::child;

namespace {

const std::filesystem::path kBundled = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog";
constexpr auto kPassphrase = "a passphrase for the GUI launch test";

/// The bundled example plan: 70 ranked options, the first nine on Lambda, option 10 AWS
/// p4d.24xlarge, option 11 Tencent GN10Xp.20XLARGE320; no choice and no budget.
/// (An empty plan, with a warning, when it does not read: it has no options, and the tests that look for one fail.)
PlanDocument examplePlan()
{
    gpuplan::core::Result<PlanDocument> plan = gpuplan::core::loadPlan(
        std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "examples" / "resnet50-imagenet.gpuplan");
    if (!plan) {
        qWarning("%s", gpuplan::core::describe(plan.error()).c_str());
        return {};
    }
    return std::move(plan).value();
}

/// `plan` with its Lambda offers turned into a lab's own (provider "campus", offers of one's own that GPU Planner
/// has no launch API for): its first nine options then cannot be launched, and option 10 (AWS) is the best that can.
void makeLambdaALabsOwn(PlanDocument& plan)
{
    for (PlanOption& option : plan.results.options) {
        if (option.provider == "lambda") {
            option.provider = "campus";
            option.providerName = "Campus cluster";
            option.providerNameZh = "校内集群";
        }
    }
}

/// The index of the plan's option of `instanceType`, -1 if none.
int optionIndex(const PlanDocument& plan, const std::string& instanceType)
{
    const std::vector<PlanOption>& options = plan.results.options;
    for (std::size_t i = 0; i < options.size(); ++i) {
        if (options[i].instanceType == instanceType) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int deadmanFor(const PlanDocument& plan, int index)
{
    return gpuplan::core::defaultDeadmanHours(plan.results.options.at(std::size_t(index)).hours.high);
}

/// A wheel turned one notch down over `widget`, sent to it as Qt delivers one under the pointer.
void turnWheelOver(QWidget* widget)
{
    const QPointF at(widget->width() / 2.0, widget->height() / 2.0);
    QWheelEvent wheel(at,
                      widget->mapToGlobal(at),
                      QPoint(),
                      QPoint(0, -QWheelEvent::DefaultDeltasPerStep),
                      Qt::NoButton,
                      Qt::NoModifier,
                      Qt::NoScrollPhase,
                      false);
    QApplication::sendEvent(widget, &wheel);
}

} // namespace

class TestLaunchGui : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FakeCloud> m_fake;
    QTcpServer m_sshStandIn;

    QString path(const QString& name) const { return m_dir->path() + "/" + name; }

    bool setUp(const ProviderCase& c)
    {
        m_dir = std::make_unique<QTemporaryDir>();
        qputenv("HOME", path("home").toUtf8());
        qputenv("XDG_DATA_HOME", path("data").toUtf8());
        qputenv("GPUPLAN_CREDENTIALS_BACKEND", "file");
        qputenv("GPUPLAN_CREDENTIALS_FILE", path("credentials.enc").toUtf8());
        qputenv("GPUPLAN_POLL_SECONDS", "1");
        QDir().mkpath(path("home"));
        QProcess keygen;
        keygen.start("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-C", "gui-test", "-f", path("id_ed25519")});
        if (!keygen.waitForFinished(20000) || keygen.exitCode() != 0) {
            qWarning() << "ssh-keygen failed";
            return false;
        }
        m_fake = std::make_unique<FakeCloud>();
        if (!m_fake->start(
                QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/fakes/") + c.script, m_dir->path(), c.fakeArgs)) {
            return false;
        }
        qputenv(("GPUPLAN_ENDPOINT_" + c.id.toUpper()).toUtf8(), m_fake->url().toUtf8());
        return m_sshStandIn.isListening() || m_sshStandIn.listen(QHostAddress::LocalHost);
    }

    /// Stores the provider's key the way the Credentials page does (its passphrase question answered).
    static bool storeCredential(MainWindow& window, const ProviderCase& c)
    {
        auto* store = window.findChild<CredentialStore*>();
        // Google's as the dialog reads a service-account key file, the others' fields as typed.
        const std::string fields = QJsonDocument(c.credential).toJson(QJsonDocument::Compact).toStdString();
        gpuplan::core::Result<gpuplan::core::Credential> credential =
            c.id == "gcp" ? gpuplan::core::credentialFromServiceAccountKey(fields)
                          : gpuplan::core::credentialFromFieldsJson(c.id.toStdString(), fields);
        if (!store || !credential) {
            qWarning() << "no store, or" << (credential ? "" : gpuplan::core::describe(credential.error()).c_str());
            return false;
        }
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::CredentialPassphrase,
                                              QString::fromLatin1(kPassphrase));
        return store->storeNow(std::move(credential).value()).ok();
    }

    /// Fills the Launch page's form for the provider's case.
    bool fillForm(MainWindow& window, const ProviderCase& c, int deadmanHours)
    {
        window.showPage(MainWindow::Page::Launch);
        auto* provider = child<QComboBox>(window, "launchProviderComboBox");
        auto* type = child<QComboBox>(window, "launchInstanceComboBox");
        auto* region = child<QComboBox>(window, "launchRegionComboBox");
        auto* key = child<QLineEdit>(window, "launchKeyLineEdit");
        auto* from = child<QLineEdit>(window, "launchSshFromLineEdit");
        auto* port = child<QSpinBox>(window, "launchSshPortSpinBox");
        auto* deadman = child<QSpinBox>(window, "launchDeadmanSpinBox");
        if (!provider || !type || !region || !key || !from || !port || !deadman) {
            return false;
        }
        provider->setCurrentIndex(provider->findData(c.id));
        type->setCurrentText(c.instanceType);
        region->setCurrentText(c.region);
        key->setText(path("id_ed25519.pub"));
        from->setText(QStringLiteral("203.0.113.7/32"));
        port->setValue(m_sshStandIn.serverPort());
        deadman->setValue(deadmanHours);
        return true;
    }

    static QString cell(QTableView* table, int row, int column)
    {
        return table->model()->index(row, column).data().toString();
    }

private slots:
    void initTestCase() { gpuplan::core::initializeHttp(); }
    void init() { QSettings().clear(); }
    void cleanup()
    {
        m_fake.reset();
        m_dir.reset();
    }

    void launchRunsAndTerminatesThroughTheWindow_data()
    {
        QTest::addColumn<ProviderCase>("provider");
        QTest::newRow("aws") << aws();
        QTest::newRow("tencent") << tencent();
        QTest::newRow("alibaba") << alibaba();
        QTest::newRow("huawei") << huawei();
        QTest::newRow("gcp") << gcp();
        QTest::newRow("azure") << azure();
        QTest::newRow("lambda") << lambda();
        QTest::newRow("paperspace") << paperspace();
    }
    void launchRunsAndTerminatesThroughTheWindow()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        QVERIFY(storeCredential(window, provider));
        QVERIFY(fillForm(window, provider, 3));

        // A mode the provider lacks is greyed with its reason; the price is the catalog's.
        auto* pricing = child<QComboBox>(window, "launchPricingComboBox");
        auto* items = qobject_cast<QStandardItemModel*>(pricing->model());
        const gpuplan::core::ProviderDescriptor* descriptor =
            gpuplan::core::ProviderRegistry::builtIn().find(provider.id.toStdString());
        const bool lacksSubscription = !descriptor->supports(gpuplan::core::CloudFeature::Subscription);
        QCOMPARE(items->item(2)->isEnabled(), !lacksSubscription);
        QCOMPARE(items->item(1)->isEnabled(), descriptor->supports(gpuplan::core::CloudFeature::Spot));
        if (provider.id == "aws") {
            QVERIFY2(items->item(2)->toolTip().contains("Reserved Instances"), qPrintable(items->item(2)->toolTip()));
        }
        // Where the provider has no firewall of its own, the SSH address is greyed and says why.
        auto* sshFrom = child<QLineEdit>(window, "launchSshFromLineEdit");
        const bool restricts = descriptor->supports(gpuplan::core::CloudFeature::SshSourceRestriction);
        QCOMPARE(sshFrom->isEnabled(), restricts);
        QVERIFY2(sshFrom->toolTip().contains(restricts ? "opened to this address or range only" : "firewall"),
                 qPrintable(sshFrom->toolTip()));
        QCOMPARE(child<QCheckBox>(window, "launchDryRunCheckBox")->isEnabled(),
                 descriptor->supports(gpuplan::core::CloudFeature::DryRun));
        QTRY_VERIFY2(child<QLabel>(window, "launchPriceLabel")->text().contains("an hour (catalog)"),
                     qPrintable(child<QLabel>(window, "launchPriceLabel")->text()));

        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::ConfirmLaunch, true);
        QTest::mouseClick(child<QPushButton>(window, "launchButton"), Qt::LeftButton);
        // The confirmation stated the price and the most it can cost before the dead-man fires.
        QTRY_VERIFY2(
            gpuplan::ui::Questions::lastAsked(gpuplan::ui::Question::ConfirmLaunch).contains("an hour")
                && gpuplan::ui::Questions::lastAsked(gpuplan::ui::Question::ConfirmLaunch).contains("after 3 hour")
                && gpuplan::ui::Questions::lastAsked(gpuplan::ui::Question::ConfirmLaunch)
                       .contains("the most it can cost")
                && gpuplan::ui::Questions::lastAsked(gpuplan::ui::Question::ConfirmLaunch)
                       .contains(descriptor->supports(gpuplan::core::CloudFeature::SshSourceRestriction)
                                     ? "203.0.113.7/32"
                                     : "SSH is open to every address"),
            qPrintable(gpuplan::ui::Questions::lastAsked(gpuplan::ui::Question::ConfirmLaunch)));
        // Finding 6: it says what a rule that fires does to the machine and its bill: on EC2 a shutdown terminates
        // it and its disks go; on CVM, ECS and Azure a machine shut down from inside keeps billing; Huawei's and
        // GCE's stop their compute bill. The idle rule names what counts as work.
        const auto said = [] { return gpuplan::ui::Questions::lastAsked(gpuplan::ui::Question::ConfirmLaunch); };
        const QStringList keepsBilling{"tencent", "alibaba", "azure", "lambda"};
        const QString idleRule =
            provider.id == "aws" ? QStringLiteral("the instance is TERMINATED and its disks are deleted")
            : keepsBilling.contains(provider.id)
                ? QStringLiteral("the instance is shut down, but %1 keeps billing it until it is terminated")
                      .arg(gpuplan::ui::providerDisplayName(provider.id.toStdString()))
                : QStringLiteral("the instance is stopped (its disks are kept)");
        QTRY_VERIFY2(
            said().contains(provider.instanceType)
                && said().contains(descriptor->supports(gpuplan::core::CloudFeature::ScheduledTerminate)
                                           || descriptor->supports(gpuplan::core::CloudFeature::TerminateOnShutdown)
                                       ? "TERMINATES it after 3 hour"
                                       : "shuts it down after 3 hour")
                && said().contains("no SSH session and no CPU or network load") && said().contains(idleRule),
            qPrintable(said()));
        // Tencent quotes the exact configuration (the FAKE CVM's made-up ¥8.68 an hour, the catalog's price for
        // GN7.2XLARGE32); EC2 has no price API for on-demand, so nothing is asked there.
        QVERIFY2(gpuplan::ui::Questions::lastAsked(gpuplan::ui::Question::ConfirmLaunch)
                         .contains("The provider's price now: ¥8.68 an hour (Tencent Cloud InquiryPriceRunInstances, ")
                     == (provider.id == "tencent"),
                 qPrintable(gpuplan::ui::Questions::lastAsked(gpuplan::ui::Question::ConfirmLaunch)));
        // Alibaba quotes it too (the FAKE ECS's made-up ¥11.20 an hour from DescribePrice).
        QVERIFY2(said().contains("The provider's price now: ¥11.20 an hour (Alibaba Cloud ECS DescribePrice, ")
                     == (provider.id == "alibaba"),
                 qPrintable(said()));
        if (provider.id == "tencent") {
            QVERIFY2(gpuplan::ui::Questions::lastAsked(gpuplan::ui::Question::ConfirmLaunch)
                         .contains("the same as the catalog's"),
                     qPrintable(gpuplan::ui::Questions::lastAsked(gpuplan::ui::Question::ConfirmLaunch)));
        }

        auto* status = child<QLabel>(window, "launchStatusLabel");
        QTRY_VERIFY2_WITH_TIMEOUT(status->text().contains("is running"), qPrintable(status->text()), 60000);
        auto* progress = child<QListWidget>(window, "launchProgressList");
        for (int i = 0; i < progress->count(); ++i) {
            QVERIFY2(progress->item(i)->data(Qt::UserRole).toBool(), qPrintable(progress->item(i)->text()));
        }
        const QJsonArray instances = m_fake->state().value("instances").toArray();
        QCOMPARE(instances.size(), 1);
        const QJsonObject instance = instances.first().toObject();
        const QString instanceId = instance.value("id").toString();
        QVERIFY(status->text().contains(instanceId));
        QVERIFY(instance.value("user_data").toString().contains(": \"${GPUPLAN_DEADMAN_HOURS:=3}\""));

        // The Instances page shows it running, with its cost and the time to its dead-man.
        window.showPage(MainWindow::Page::Instances);
        auto* table = child<QTableView>(window, "instancesTable");
        QTRY_COMPARE(table->model()->rowCount(), 1);
        QCOMPARE(cell(table, 0, InstanceTableModel::InstanceIdColumn), instanceId);
        QCOMPARE(cell(table, 0, InstanceTableModel::StateColumn), QStringLiteral("running"));
        QVERIFY2(cell(table, 0, InstanceTableModel::DeadmanColumn).startsWith("2 h")
                     || cell(table, 0, InstanceTableModel::DeadmanColumn).startsWith("3 h"),
                 qPrintable(cell(table, 0, InstanceTableModel::DeadmanColumn)));
        QVERIFY(!cell(table, 0, InstanceTableModel::CostColumn).isEmpty());

        // Terminate it; reconciling then closes the entry once the provider reports it gone.
        table->selectRow(0);
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::ConfirmTerminate, true);
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(window, "terminateButton")->isEnabled(), 30000);
        QTest::mouseClick(child<QPushButton>(window, "terminateButton"), Qt::LeftButton);
        auto* instancesStatus = child<QLabel>(window, "instancesStatusLabel");
        QTRY_VERIFY2_WITH_TIMEOUT(instancesStatus->text().contains("Asked the provider to terminate"),
                                  qPrintable(instancesStatus->text()),
                                  30000);
        QCOMPARE(m_fake->liveInstances().size(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(window, "reconcileButton")->isEnabled(), 10000);
        QTest::mouseClick(child<QPushButton>(window, "reconcileButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 0, 30000);
        QVERIFY2(!instancesStatus->property("error").toBool(), qPrintable(instancesStatus->text()));
        child<QCheckBox>(window, "showEndedCheckBox")->setChecked(true);
        QTRY_COMPARE(table->model()->rowCount(), 1);
        QCOMPARE(cell(table, 0, InstanceTableModel::StateColumn), QStringLiteral("terminated"));
    }

    void aManagedJobRunsThroughTheWindowShowsItsLogAndIsCancelled_data()
    {
        QTest::addColumn<ProviderCase>("service");
        QTest::newRow("vertex") << vertexJobs();
        QTest::newRow("azureml") << azureMlJobs();
    }
    void aManagedJobRunsThroughTheWindowShowsItsLogAndIsCancelled()
    {
        QFETCH(ProviderCase, service);
        service.fakeArgs << "--running-after"
                         << "1"
                         << "--finish-after"
                         << "0"; // it runs until cancelled
        QVERIFY(setUp(service));
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        QVERIFY(storeCredential(window, service));
        window.showPage(MainWindow::Page::Launch);
        auto* provider = child<QComboBox>(window, "launchProviderComboBox");
        auto* kind = child<QComboBox>(window, "launchServiceComboBox");
        auto* type = child<QComboBox>(window, "launchInstanceComboBox");
        auto* items = qobject_cast<QStandardItemModel*>(kind->model());

        // The service modes the offer has: Lambda has no managed service (greyed, saying where there is one); on
        // Azure the catalog sells the same machine as a job, and choosing the job takes its managed offer.
        provider->setCurrentIndex(provider->findData(QStringLiteral("lambda")));
        QVERIFY(!items->item(1)->isEnabled());
        QVERIFY2(items->item(1)->toolTip().contains("Vertex AI"), qPrintable(items->item(1)->toolTip()));
        provider->setCurrentIndex(provider->findData(QStringLiteral("azure")));
        kind->setCurrentIndex(0);
        type->setCurrentText(QStringLiteral("Standard_NC4as_T4_v3"));
        kind->setCurrentIndex(1);
        QCOMPARE(type->currentText(), QStringLiteral("azureml/Standard_NC4as_T4_v3"));
        QVERIFY2(items->item(1)->text().contains("Azure Machine Learning"), qPrintable(items->item(1)->text()));
        kind->setCurrentIndex(0);
        QCOMPARE(type->currentText(), QStringLiteral("Standard_NC4as_T4_v3"));

        // The job's form: no SSH, no idle rule; its image, command and environment instead.
        provider->setCurrentIndex(provider->findData(service.id));
        QVERIFY(items->item(1)->isEnabled());
        kind->setCurrentIndex(1);
        QVERIFY(!child<QWidget>(window, "launchOfferGroup")->isHidden());
        QTRY_VERIFY(child<QWidget>(window, "launchJobGroup")->isVisible());
        QVERIFY(!child<QLineEdit>(window, "launchKeyLineEdit")->isVisible());
        QVERIFY(!child<QCheckBox>(window, "launchDryRunCheckBox")->isEnabled());
        type->setCurrentText(service.instanceType);
        child<QComboBox>(window, "launchRegionComboBox")->setCurrentText(service.region);
        child<QLineEdit>(window, "launchJobImageLineEdit")->setText("us-docker.pkg.dev/lab/train/pytorch:2.4");
        child<QLineEdit>(window, "launchJobCommandLineEdit")->setText("python train.py --epochs 3");
        child<QPlainTextEdit>(window, "launchJobEnvironmentEdit")->setPlainText("EPOCHS=3\nSEED=7");
        child<QSpinBox>(window, "launchDeadmanSpinBox")->setValue(3);
        if (service.id == "gcp") {
            // No Vertex AI price could be sourced: the page says so, and the user gives one.
            QTRY_VERIFY2(child<QLabel>(window, "launchPriceLabel")->text().contains("Unknown"),
                         qPrintable(child<QLabel>(window, "launchPriceLabel")->text()));
            child<QDoubleSpinBox>(window, "launchPriceSpinBox")->setValue(1.25);
        } else {
            QTRY_VERIFY2(child<QLabel>(window, "launchPriceLabel")->text().contains("an hour (catalog)"),
                         qPrintable(child<QLabel>(window, "launchPriceLabel")->text()));
        }
        QCOMPARE(child<QPushButton>(window, "launchButton")->text(), QStringLiteral("Submit job…"));

        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::ConfirmLaunch, true);
        QTest::mouseClick(child<QPushButton>(window, "launchButton"), Qt::LeftButton);
        const auto said = [] { return gpuplan::ui::Questions::lastAsked(gpuplan::ui::Question::ConfirmLaunch); };
        const QString serviceName = gpuplan::ui::managedServiceName(service.id.toStdString());
        QTRY_VERIFY2(said().contains("Submit a managed job to " + serviceName) && said().contains("python train.py")
                         && said().contains("us-docker.pkg.dev/lab/train/pytorch:2.4")
                         && said().contains("The service ends it after 3 hour") && said().contains("EPOCHS")
                         && !said().contains("SSH"),
                     qPrintable(said()));
        auto* status = child<QLabel>(window, "launchStatusLabel");
        QTRY_VERIFY2_WITH_TIMEOUT(status->text().contains("is running"), qPrintable(status->text()), 60000);
        QVERIFY2(status->text().startsWith("Job "), qPrintable(status->text()));
        const QJsonArray jobs = m_fake->state().value("jobs").toArray();
        QCOMPARE(jobs.size(), 1);

        // The Instances page: the job runs, and its log is shown under the table while it does.
        window.showPage(MainWindow::Page::Instances);
        auto* table = child<QTableView>(window, "instancesTable");
        QTRY_COMPARE(table->model()->rowCount(), 1);
        QCOMPARE(cell(table, 0, InstanceTableModel::StateColumn), QStringLiteral("job running"));
        QCOMPARE(cell(table, 0, InstanceTableModel::TypeColumn), service.instanceType);
        table->selectRow(0);
        QVERIFY(!child<QPushButton>(window, "verifyInstanceButton")->isEnabled()); // no machine to log in to
        auto* log = child<QPlainTextEdit>(window, "jobLogView");
        QTRY_VERIFY(log->isVisible());
        QTRY_VERIFY2_WITH_TIMEOUT(log->toPlainText().contains("started: ") && log->toPlainText().contains("train.py"),
                                  qPrintable(log->toPlainText()),
                                  30000);
        QVERIFY2(child<QLabel>(window, "jobLogLabel")->text().contains(serviceName),
                 qPrintable(child<QLabel>(window, "jobLogLabel")->text()));
        if (const QString shots = qEnvironmentVariable("GPUPLAN_TEST_SCREENSHOTS"); !shots.isEmpty()) {
            QTest::qWait(200);                                                       // the layout settles
            window.grab().save(shots + "/instances-job-log-" + service.id + ".png"); // for a person to look at
        }

        // Cancel it: the service is asked, and the ledger keeps that it was cancelled.
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::ConfirmTerminate, true);
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(window, "terminateButton")->isEnabled(), 30000);
        QTest::mouseClick(child<QPushButton>(window, "terminateButton"), Qt::LeftButton);
        auto* instancesStatus = child<QLabel>(window, "instancesStatusLabel");
        QTRY_VERIFY2_WITH_TIMEOUT(
            m_fake->state().value("jobs").toArray().first().toObject().value("cancel_requested").toBool(),
            qPrintable(instancesStatus->text()),
            30000);
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(window, "reconcileButton")->isEnabled(), 10000);
        child<QCheckBox>(window, "showEndedCheckBox")->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT((QTest::mouseClick(child<QPushButton>(window, "reconcileButton"), Qt::LeftButton),
                                  cell(table, 0, InstanceTableModel::StateColumn) == QStringLiteral("job cancelled")),
                                 30000);
    }

    void aRefusedLaunchSaysWhyAndStartsNothing()
    {
        QVERIFY(setUp(aws()));
        m_fake->faults({{"no_capacity_zones", QJsonArray{"us-east-1a", "us-east-1b", "us-east-1c"}}});
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        QVERIFY(storeCredential(window, aws()));
        QVERIFY(fillForm(window, aws(), 3));
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::ConfirmLaunch, true);
        QTest::mouseClick(child<QPushButton>(window, "launchButton"), Qt::LeftButton);
        auto* status = child<QLabel>(window, "launchStatusLabel");
        QTRY_VERIFY_WITH_TIMEOUT(status->property("error").toBool(), 60000);
        QVERIFY2(status->text().contains("no capacity") && status->text().contains("us-east-1c"),
                 qPrintable(status->text()));
        QCOMPARE(m_fake->liveInstances().size(), 0);
        QVERIFY(child<QPushButton>(window, "launchButton")->isEnabled());

        // A declined confirmation sends nothing.
        m_fake->faults({});
        const int calls = m_fake->runInstancesCalls();
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::ConfirmLaunch, false);
        QTest::mouseClick(child<QPushButton>(window, "launchButton"), Qt::LeftButton);
        QTRY_COMPARE(status->text(), QStringLiteral("Not launched."));
        QCOMPARE(m_fake->runInstancesCalls(), calls);
    }

    // Cancel before the confirmation (while the key is read, the credential loaded, the price asked): the launch
    // stops there, nothing is asked and nothing is sent; Launch works again afterwards.
    void cancelBeforeTheConfirmationSendsNothing()
    {
        QVERIFY(setUp(tencent()));
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        QVERIFY(storeCredential(window, tencent()));
        QVERIFY(fillForm(window, tencent(), 3));
        auto* launch = child<QPushButton>(window, "launchButton");
        auto* cancel = child<QPushButton>(window, "launchCancelButton");
        auto* status = child<QLabel>(window, "launchStatusLabel");
        const int calls = m_fake->runInstancesCalls();
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::ConfirmLaunch, true);
        QTest::mouseClick(launch, Qt::LeftButton);
        QVERIFY(cancel->isEnabled());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QCOMPARE(status->text(), QStringLiteral("Cancelling… Nothing has been launched."));
        QTRY_COMPARE_WITH_TIMEOUT(
            status->text(), QStringLiteral("Not launched: cancelled before anything was sent."), 30000);
        QVERIFY(launch->isEnabled());
        QVERIFY(!cancel->isEnabled());
        QCOMPARE(m_fake->runInstancesCalls(), calls);
        QCOMPARE(m_fake->liveInstances().size(), 0);

        // The queued yes was never taken: the next launch asks, and runs.
        QTest::mouseClick(launch, Qt::LeftButton);
        QTRY_VERIFY2_WITH_TIMEOUT(status->text().contains("is running"), qPrintable(status->text()), 60000);
        QCOMPARE(m_fake->liveInstances().size(), 1);
    }

    // Issue 20, finding 15: scrolling the page with the wheel turned the dead-man switch to "Off" (spin and combo
    // boxes take the wheel without focus). A field that sets money or time takes it only once it has focus.
    void aWheelOverAnUnfocusedMoneyFieldChangesNothing_data()
    {
        QTest::addColumn<QString>("field");
        for (const char* name : {"launchDeadmanSpinBox",
                                 "launchIdleMinutesSpinBox",
                                 "launchIdlePercentSpinBox",
                                 "launchBudgetSpinBox",
                                 "launchPriceSpinBox",
                                 "launchProviderComboBox",
                                 "launchPricingComboBox"}) {
            QTest::newRow(name) << QString::fromLatin1(name);
        }
    }
    void aWheelOverAnUnfocusedMoneyFieldChangesNothing()
    {
        QFETCH(QString, field);
        LaunchPage page(nullptr);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        child<QDoubleSpinBox>(page, "launchBudgetSpinBox")->setValue(100);
        child<QDoubleSpinBox>(page, "launchPriceSpinBox")->setValue(2);
        auto* widget = page.findChild<QWidget*>(field);
        QVERIFY(widget);
        const auto value = [widget] {
            if (auto* box = qobject_cast<QComboBox*>(widget)) {
                return QVariant(box->currentIndex());
            }
            return widget->property("value");
        };
        // The user has been typing elsewhere (the page gives its first field the focus when it is shown).
        child<QLineEdit>(page, "launchKeyLineEdit")->setFocus();
        const QVariant before = value();
        QVERIFY(!widget->hasFocus());
        turnWheelOver(widget);
        QCOMPARE(value(), before);
        QCOMPARE(widget->focusPolicy(), Qt::StrongFocus);

        // Once the user has clicked or tabbed into it, the wheel steps it as usual.
        page.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        widget->setFocus();
        QTRY_VERIFY(widget->hasFocus());
        turnWheelOver(widget);
        QVERIFY(value() != before);
    }

    // Issue 20, finding 15: after a new plan whose choice could not be launched, the page still offered the
    // previous plan's choice and budget. Every plan the session shows refills the form; nothing of the last stays.
    void thePageFollowsThePlanSession()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        auto* session = window.findChild<PlanSession*>();
        QVERIFY(session);
        auto* provider = child<QComboBox>(window, "launchProviderComboBox");
        auto* type = child<QComboBox>(window, "launchInstanceComboBox");
        auto* region = child<QComboBox>(window, "launchRegionComboBox");
        auto* budget = child<QDoubleSpinBox>(window, "launchBudgetSpinBox");
        auto* price = child<QDoubleSpinBox>(window, "launchPriceSpinBox");
        auto* deadman = child<QSpinBox>(window, "launchDeadmanSpinBox");
        auto* label = child<QLabel>(window, "launchPlanLabel");

        // A plan choosing AWS p4d.24xlarge, without a budget; the user types a negotiated price for it.
        PlanDocument first = examplePlan();
        const int p4d = optionIndex(first, "p4d.24xlarge");
        QVERIFY(p4d >= 0);
        first.choice = p4d;
        session->setPlan(first, std::nullopt, false);
        QCOMPARE(provider->currentData().toString(), QStringLiteral("aws"));
        QCOMPARE(type->currentText(), QStringLiteral("p4d.24xlarge"));
        QCOMPARE(region->currentText(), QStringLiteral("us-east-2"));
        QCOMPARE(budget->value(), 0.0);
        QCOMPARE(deadman->value(), deadmanFor(first, p4d));
        price->setValue(30);

        // Re-planned: only a lab's own offers, which GPU Planner cannot launch, and a budget of 500 CNY.
        PlanDocument second = examplePlan();
        second.created = "2026-12-05T08:00:00Z";
        second.constraints.budget = 500;
        makeLambdaALabsOwn(second);
        std::erase_if(second.results.options, [](const PlanOption& option) { return option.provider != "campus"; });
        QVERIFY(!second.results.options.empty());
        session->setPlan(second, std::nullopt, true);
        QCOMPARE(budget->value(), 500.0);
        QVERIFY2(budget->text().contains("500"), qPrintable(budget->text()));
        QCOMPARE(type->currentText(), QString());
        QCOMPARE(region->currentText(), QString());
        QCOMPARE(price->value(), 0.0);
        QCOMPARE(deadman->value(), 12);
        QVERIFY2(label->text().contains("Nothing in this plan can be launched"), qPrintable(label->text()));

        // Then a plan choosing Tencent with a budget of 800: its offer, budget and estimate.
        PlanDocument third = examplePlan();
        third.created = "2026-12-05T09:00:00Z";
        third.constraints.budget = 800;
        const int tencent = optionIndex(third, "GN10Xp.20XLARGE320");
        QVERIFY(tencent >= 0);
        third.choice = tencent;
        session->setPlan(third, std::nullopt, true);
        QCOMPARE(provider->currentData().toString(), QStringLiteral("tencent"));
        QCOMPARE(type->currentText(), QStringLiteral("GN10Xp.20XLARGE320"));
        QCOMPARE(region->currentText(), QStringLiteral("ap-guangzhou"));
        QCOMPARE(budget->value(), 800.0);
        QCOMPARE(deadman->value(), deadmanFor(third, tencent));
        QVERIFY2(label->text().startsWith("From the plan: GN10Xp.20XLARGE320"), qPrintable(label->text()));

        // The same plan and offer again (as when a verification is added to it) keeps what the user typed since.
        price->setValue(25);
        gpuplan::core::PlanVerification verification;
        verification.when = "2026-12-05T10:00:00Z";
        verification.host = "ubuntu@203.0.113.9";
        verification.verdict = gpuplan::core::VerdictLevel::Pass;
        verification.expectedGpu = third.results.options[std::size_t(tencent)].gpu;
        verification.expectedCount = third.results.options[std::size_t(tencent)].gpus;
        third.verifications.push_back(verification);
        session->setPlan(third, std::nullopt, true);
        QCOMPARE(price->value(), 25.0);
    }

    // When GPU Planner cannot launch the plan's choice (a provider it does not launch on, or a mode the provider
    // lacks), the page offers the best-ranked option it can launch, and says so.
    void aChoiceThatCannotBeLaunchedOffersTheBestThatCan_data()
    {
        QTest::addColumn<QString>("choiceType"); // empty: no choice (the first option, a lab's own)
        QTest::addColumn<QString>("choiceMode"); // empty: the option's own
        QTest::addColumn<QString>("offeredType");
        QTest::addColumn<QStringList>("said");
        QTest::newRow("provider without launch support") << ""
                                                         << ""
                                                         << "p4d.24xlarge"
                                                         << QStringList{"The plan's choice, option 1: gpu_4x_h100_sxm5",
                                                                        "cannot be launched by GPU Planner yet",
                                                                        "launches on",
                                                                        "offering option 10: p4d.24xlarge"};
        QTest::newRow("mode the provider lacks") << "p4d.24xlarge"
                                                 << "subscription_monthly"
                                                 << "GN10Xp.20XLARGE320"
                                                 << QStringList{"The plan's choice, option 10: p4d.24xlarge",
                                                                "cannot be launched by GPU Planner yet",
                                                                "Reserved Instances",
                                                                "offering option 11: GN10Xp.20XLARGE320"};
        QTest::newRow("a reservation") << "p4d.24xlarge"
                                       << "reserved_1y"
                                       << "GN10Xp.20XLARGE320"
                                       << QStringList{"The plan's choice, option 10: p4d.24xlarge",
                                                      "reservation",
                                                      "offering option 11: GN10Xp.20XLARGE320"};
    }
    void aChoiceThatCannotBeLaunchedOffersTheBestThatCan()
    {
        QFETCH(QString, choiceType);
        QFETCH(QString, choiceMode);
        QFETCH(QString, offeredType);
        QFETCH(QStringList, said);
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        auto* session = window.findChild<PlanSession*>();
        QVERIFY(session);
        PlanDocument plan = examplePlan();
        makeLambdaALabsOwn(plan);
        plan.constraints.budget = 300;
        if (!choiceType.isEmpty()) {
            const int chosen = optionIndex(plan, choiceType.toStdString());
            QVERIFY(chosen >= 0);
            const std::optional<gpuplan::core::PricingMode> mode =
                gpuplan::core::parsePricingMode(choiceMode.toStdString());
            QVERIFY(mode);
            plan.choice = chosen;
            plan.results.options[std::size_t(chosen)].mode = *mode;
        }
        session->setPlan(plan, std::nullopt, false);

        const int offered = optionIndex(plan, offeredType.toStdString());
        QCOMPARE(child<QComboBox>(window, "launchInstanceComboBox")->currentText(), offeredType);
        QVERIFY(offered >= 0);
        QCOMPARE(child<QComboBox>(window, "launchProviderComboBox")->currentData().toString(),
                 QString::fromStdString(plan.results.options[std::size_t(offered)].provider));
        QCOMPARE(child<QComboBox>(window, "launchRegionComboBox")->currentText(),
                 QString::fromStdString(plan.results.options[std::size_t(offered)].region));
        QCOMPARE(child<QComboBox>(window, "launchPricingComboBox")->currentIndex(), 0); // on demand, as offered
        QCOMPARE(child<QSpinBox>(window, "launchDeadmanSpinBox")->value(), deadmanFor(plan, offered));
        QCOMPARE(child<QDoubleSpinBox>(window, "launchBudgetSpinBox")->value(), 300.0);
        const QString label = child<QLabel>(window, "launchPlanLabel")->text();
        for (const QString& words : said) {
            QVERIFY2(label.contains(words), qPrintable(label));
        }
    }

    void badInputIsNamedBeforeAnythingIsSent()
    {
        QVERIFY(setUp(aws()));
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        QVERIFY(fillForm(window, aws(), 3));
        child<QLineEdit>(window, "launchSshFromLineEdit")->setText("0.0.0.0/0");
        QTest::mouseClick(child<QPushButton>(window, "launchButton"), Qt::LeftButton);
        auto* status = child<QLabel>(window, "launchStatusLabel");
        QTRY_VERIFY(status->property("error").toBool());
        // Each refusal names the field to fix (core::takeLaunchInputFrame) and puts the cursor there.
        QVERIFY2(status->text().contains("0.0.0.0/0") && status->text().contains("\"Open SSH to\""),
                 qPrintable(status->text()));
        QTRY_VERIFY(child<QLineEdit>(window, "launchSshFromLineEdit")->hasFocus());
        child<QLineEdit>(window, "launchSshFromLineEdit")->setText("203.0.113.7/32");
        child<QLineEdit>(window, "launchKeyLineEdit")->setText(path("missing.pub"));
        QTest::mouseClick(child<QPushButton>(window, "launchButton"), Qt::LeftButton);
        QTRY_VERIFY2(status->text().contains("missing.pub") && status->text().contains("\"SSH public key\""),
                     qPrintable(status->text()));
        QTRY_VERIFY(child<QLineEdit>(window, "launchKeyLineEdit")->hasFocus());
        // Issue 20's must-show, in the window: a key whose comment is not UTF-8 is named, and nothing is sent.
        {
            std::ofstream latin1(path("latin1.pub").toStdString(), std::ios::binary);
            latin1 << "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl caf\xE9@lab\n";
        }
        child<QLineEdit>(window, "launchKeyLineEdit")->setText(path("latin1.pub"));
        QTest::mouseClick(child<QPushButton>(window, "launchButton"), Qt::LeftButton);
        QTRY_VERIFY2(status->text().contains("latin1.pub") && status->text().contains("not UTF-8"),
                     qPrintable(status->text()));
        // The watchdog's bounds are the fields' (core::kMaxDeadmanHours and kin): a dead-man or idle time the
        // script could not honour cannot be entered.
        auto* deadman = child<QSpinBox>(window, "launchDeadmanSpinBox");
        auto* idle = child<QSpinBox>(window, "launchIdleMinutesSpinBox");
        QCOMPARE(deadman->maximum(), gpuplan::core::kMaxDeadmanHours);
        QCOMPARE(idle->maximum(), gpuplan::core::kMaxIdleMinutes);
        deadman->setFocus();
        deadman->selectAll();
        QTest::keyClicks(deadman, "99999");
        QVERIFY2(deadman->value() <= gpuplan::core::kMaxDeadmanHours, qPrintable(deadman->text()));
        QCOMPARE(m_fake->runInstancesCalls(), 0);
    }
};

QTEST_MAIN(TestLaunchGui)
#include "TestLaunchGui.moc"
