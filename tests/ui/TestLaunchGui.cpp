// The Launch and Instances pages driven as a user would, against the local fakes of EC2 and CVM
// (tests/integration/fakes: no real cloud is reachable from here). A launch goes through the form and its
// confirmation, is followed to running and SSH reachable, appears on the Instances page with its cost and dead-man,
// and is terminated and reconciled from there. "SSH reachable" is a TCP connection: the fakes give every instance
// 127.0.0.1, and a QTcpServer here stands in for its sshd.

#include "../support/Widgets.h"
#include "MainWindow.h"
#include "models/InstanceTableModel.h"
#include "pages/CredentialsPage.h"
#include "pages/InstancesPage.h"
#include "pages/LaunchPage.h"
#include "secrets/CredentialStore.h"

#include "../integration/fakes/FakeCloud.h"
#include "gpuplan/secrets/Credential.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>

#include <memory>

using namespace gpuplan::testing;
using gpuplan::ui::CredentialsPage;
using gpuplan::ui::CredentialStore;
using gpuplan::ui::InstancesPage;
using gpuplan::ui::InstanceTableModel;
using gpuplan::ui::LaunchPage;
using gpuplan::ui::MainWindow;

using gpuplan::testing::child;

namespace {

const std::filesystem::path kBundled = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog";
constexpr auto kPassphrase = "a passphrase for the GUI launch test";

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
        if (!m_fake->start(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/fakes/") + c.script, m_dir->path())) {
            return false;
        }
        qputenv(("GPUPLAN_ENDPOINT_" + c.id.toUpper()).toUtf8(), m_fake->url().toUtf8());
        return m_sshStandIn.isListening() || m_sshStandIn.listen(QHostAddress::LocalHost);
    }

    /// Stores the provider's key the way the Credentials page does (its passphrase question answered).
    static bool storeCredential(MainWindow& window, const ProviderCase& c)
    {
        auto* store = window.findChild<CredentialStore*>();
        gpuplan::core::Result<gpuplan::core::Credential> credential = gpuplan::core::credentialFromFieldsJson(
            c.id.toStdString(),
            QJsonDocument(QJsonObject{{"access_key_id", kAccessKeyId}, {"secret_access_key", kSecretKey}})
                .toJson(QJsonDocument::Compact)
                .toStdString());
        if (!store || !credential) {
            qWarning() << "no store, or" << (credential ? "" : credential.error().message().c_str());
            return false;
        }
        CredentialsPage::setNextPassphrase(QString::fromLatin1(kPassphrase));
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
        const bool awsLacksSubscription = provider.id == "aws";
        QCOMPARE(items->item(2)->isEnabled(), !awsLacksSubscription);
        if (awsLacksSubscription) {
            QVERIFY2(items->item(2)->toolTip().contains("Reserved Instances"), qPrintable(items->item(2)->toolTip()));
        }
        QTRY_VERIFY2(child<QLabel>(window, "launchPriceLabel")->text().contains("an hour (catalog)"),
                     qPrintable(child<QLabel>(window, "launchPriceLabel")->text()));

        LaunchPage::setNextConfirmation(true);
        QTest::mouseClick(child<QPushButton>(window, "launchButton"), Qt::LeftButton);
        // The confirmation stated the price and the most it can cost before the dead-man fires.
        QTRY_VERIFY2(LaunchPage::lastConfirmation().contains("an hour")
                         && LaunchPage::lastConfirmation().contains("after 3 hour")
                         && LaunchPage::lastConfirmation().contains("the most it can cost before then")
                         && LaunchPage::lastConfirmation().contains("203.0.113.7/32"),
                     qPrintable(LaunchPage::lastConfirmation()));

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
        InstancesPage::setNextConfirmation(true);
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

    void aRefusedLaunchSaysWhyAndStartsNothing()
    {
        QVERIFY(setUp(aws()));
        m_fake->faults({{"no_capacity_zones", QJsonArray{"us-east-1a", "us-east-1b", "us-east-1c"}}});
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        QVERIFY(storeCredential(window, aws()));
        QVERIFY(fillForm(window, aws(), 3));
        LaunchPage::setNextConfirmation(true);
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
        LaunchPage::setNextConfirmation(false);
        QTest::mouseClick(child<QPushButton>(window, "launchButton"), Qt::LeftButton);
        QTRY_COMPARE(status->text(), QStringLiteral("Not launched."));
        QCOMPARE(m_fake->runInstancesCalls(), calls);
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
        QVERIFY2(status->text().contains("0.0.0.0/0"), qPrintable(status->text()));
        child<QLineEdit>(window, "launchSshFromLineEdit")->setText("203.0.113.7/32");
        child<QLineEdit>(window, "launchKeyLineEdit")->setText(path("missing.pub"));
        QTest::mouseClick(child<QPushButton>(window, "launchButton"), Qt::LeftButton);
        QTRY_VERIFY2(status->text().contains("missing.pub"), qPrintable(status->text()));
        QCOMPARE(m_fake->runInstancesCalls(), 0);
    }
};

QTEST_MAIN(TestLaunchGui)
#include "TestLaunchGui.moc"
