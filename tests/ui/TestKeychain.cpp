// Credentials in a real Secret Service: CredentialStore, the Credentials page and `gpuplan creds`, against a
// private D-Bus session and gnome-keyring-daemon (tests/ui/with-keyring.sh, which this test runs itself under),
// the encrypted file where no keychain runs, and a scan for the secret everywhere it must not be.
#include "MainWindow.h"
#include "Questions.h"
#include "dialogs/CredentialDialog.h"
#include "pages/CredentialsPage.h"
#include "secrets/CredentialStore.h"
#include "wording/ErrorText.h"

#include "gpuplan/secrets/EncryptedCredentialFile.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include <unistd.h>

using gpuplan::ui::CredentialDialog;
using gpuplan::ui::CredentialLocation;
using gpuplan::ui::CredentialsPage;
using gpuplan::ui::CredentialStore;
using gpuplan::ui::MainWindow;
namespace core = gpuplan::core;

namespace {

const std::filesystem::path kBundled = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog";
const QString kGpuplan = QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan");

// Fake keys in each provider's published shape; no real account has them.
const QString kAwsKeyId = QStringLiteral("AKIAIOSFODNN7EXAMPLE");
const QString kAwsSecret = QStringLiteral("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
const QString kTencentKeyId = QStringLiteral("AKIDgpuplanTESTKEY00000000EXAMPLE");
const QString kTencentSecret = QStringLiteral("gpuplanTencentSecretKeyNeverShown42");

struct Lookup
{
    int exitCode = -1;
    QString out;
};

/// What the Secret Service itself holds for a provider, asked with libsecret's own tool.
Lookup secretToolLookup(const QString& provider)
{
    QProcess process;
    process.start(QStringLiteral("secret-tool"),
                  {QStringLiteral("lookup"),
                   QStringLiteral("user"),
                   provider,
                   QStringLiteral("server"),
                   QStringLiteral("gpuplanner")});
    if (!process.waitForFinished(20000)) {
        return {};
    }
    return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput())};
}

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run runCli(const QStringList& arguments,
           const QByteArray& input = {},
           const QMap<QString, QString>& extraEnvironment = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GPUPLAN_USER_CATALOG_DIR"), QDir::temp().filePath(QStringLiteral("no-user-catalog")));
    env.insert(QStringLiteral("GPUPLAN_PRICES_DIR"), QDir::temp().filePath(QStringLiteral("no-refreshed-prices")));
    env.remove(QStringLiteral("GPUPLAN_CREDENTIALS_BACKEND"));
    for (auto it = extraEnvironment.begin(); it != extraEnvironment.end(); ++it) {
        env.insert(it.key(), it.value());
    }
    process.setProcessEnvironment(env);
    process.start(kGpuplan, arguments);
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

core::Credential awsCredential()
{
    core::Credential credential("aws");
    credential.set("access_key_id", core::SecretString(kAwsKeyId.toStdString()));
    credential.set("secret_access_key", core::SecretString(kAwsSecret.toStdString()));
    return credential;
}

QString secretOf(const core::Credential& credential, const char* field)
{
    const core::SecretString& value = credential.value(field);
    return QString::fromUtf8(value.data(), qsizetype(value.size()));
}

/// Every file under `dir` that contains `needle`.
QStringList filesContaining(const QString& dir, const QByteArray& needle)
{
    QStringList found;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle)) {
            found << file.fileName();
        }
    }
    return found;
}

int rowOf(QTableWidget* table, const QString& provider)
{
    for (int row = 0; row < table->rowCount(); ++row) {
        if (table->item(row, CredentialsPage::ProviderColumn)->data(Qt::UserRole).toString() == provider) {
            return row;
        }
    }
    return -1;
}

QString cellText(QTableWidget* table, const QString& provider, int column)
{
    const int row = rowOf(table, provider);
    return row < 0 ? QString() : table->item(row, column)->text();
}

} // namespace

class TestKeychain : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY2(qEnvironmentVariableIsSet("GPUPLAN_PRIVATE_KEYRING"),
                 "run under tests/ui/with-keyring.sh: this test must never touch the user's own keyring");
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFile::exists(kGpuplan), "build the gpuplan target first (the CLI tests run it)");
        // The same settings file as the programs (QSettings of organization and application "gpuplanner").
        QCoreApplication::setOrganizationName(QStringLiteral("gpuplanner"));
        QCoreApplication::setApplicationName(QStringLiteral("gpuplanner"));
    }

    void init()
    {
        QSettings().clear();
        QSettings().sync();
    }

    void keychainRoundTrip()
    {
        CredentialStore store({CredentialStore::Backend::Keychain, {}, QStringLiteral("gpuplanner")});
        QSignalSpy changed(&store, &CredentialStore::changed);

        const core::Result<CredentialLocation> stored = store.storeNow(awsCredential());
        QVERIFY2(stored.ok(), stored.ok() ? "" : core::describe(stored.error()).c_str());
        QCOMPARE(*stored, CredentialLocation::Keychain);
        QVERIFY(changed.count() >= 1);

        // It is really in the Secret Service, as the credential's JSON under service "gpuplanner", key "aws".
        const Lookup lookup = secretToolLookup(QStringLiteral("aws"));
        QCOMPARE(lookup.exitCode, 0);
        const QJsonObject entry = QJsonDocument::fromJson(lookup.out.toUtf8()).object();
        QCOMPARE(entry[QStringLiteral("provider")].toString(), QStringLiteral("aws"));
        QCOMPARE(entry[QStringLiteral("fields")][QStringLiteral("secret_access_key")].toString(), kAwsSecret);

        // The settings know only the provider, the masked key id and where it is.
        const QList<gpuplan::ui::CredentialEntry> entries = store.entries();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries[0].provider, QStringLiteral("aws"));
        QCOMPARE(entries[0].maskedKeyId, QStringLiteral("AKIA****MPLE"));
        QCOMPARE(entries[0].location, CredentialLocation::Keychain);
        QSettings().sync();
        const QString settingsFile = QSettings().fileName();
        QFile settings(settingsFile);
        QVERIFY2(settings.open(QIODevice::ReadOnly), qPrintable(settingsFile));
        const QByteArray settingsBytes = settings.readAll();
        QVERIFY(settingsBytes.contains("AKIA****MPLE"));
        QVERIFY(!settingsBytes.contains(kAwsSecret.toUtf8()));
        QVERIFY(!settingsBytes.contains(kAwsKeyId.toUtf8()));

        // A fresh store (another run of the program) reads it back from the keychain.
        CredentialStore again({CredentialStore::Backend::Keychain, {}, QStringLiteral("gpuplanner")});
        const core::Result<core::Credential> loaded = again.loadNow(QStringLiteral("aws"));
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : core::describe(loaded.error()).c_str());
        QCOMPARE(secretOf(*loaded, "secret_access_key"), kAwsSecret);
        QCOMPARE(secretOf(*loaded, "access_key_id"), kAwsKeyId);

        QVERIFY(again.removeNow(QStringLiteral("aws")).ok());
        QCOMPARE(secretToolLookup(QStringLiteral("aws")).exitCode, 1);
        QVERIFY(again.entries().isEmpty());
        const core::Status twice = again.removeNow(QStringLiteral("aws"));
        QVERIFY(!twice.ok());
        QCOMPARE(twice.error().code, core::ErrorCode::Credentials);
        QCOMPARE(again.loadNow(QStringLiteral("aws")).error().code, core::ErrorCode::Credentials);
    }

    void automaticUsesTheKeychainWhereOneRuns()
    {
        const std::filesystem::path file = m_dir.filePath(QStringLiteral("unused.enc")).toStdString();
        CredentialStore store({CredentialStore::Backend::Automatic, file, QStringLiteral("gpuplanner")});
        QSignalSpy fellBack(&store, &CredentialStore::fellBackToFile);
        int asked = 0;
        store.setPassphraseSource([&asked](bool, const QString&) {
            ++asked;
            return core::SecretString("never needed");
        });
        QCOMPARE(store.storeNow(awsCredential()).value(), CredentialLocation::Keychain);
        QCOMPARE(fellBack.count(), 0);
        QCOMPARE(asked, 0);
        QVERIFY(!std::filesystem::exists(file));
        QVERIFY(store.keychainProblem().isEmpty());
        QVERIFY(store.removeNow(QStringLiteral("aws")).ok());
    }

    void invalidCredentialIsRefusedBeforeStoring()
    {
        CredentialStore store({CredentialStore::Backend::Keychain, {}, QStringLiteral("gpuplanner")});
        core::Credential incomplete("huawei");
        incomplete.set("access_key_id", "HPUAGPUPLANTEST0000");
        const core::Result<CredentialLocation> stored = store.storeNow(incomplete);
        QVERIFY(!stored.ok());
        QCOMPARE(stored.error().code, core::ErrorCode::InvalidArgument);
        QCOMPARE(secretToolLookup(QStringLiteral("huawei")).exitCode, 1);
        QVERIFY(store.entries().isEmpty());
    }

    void encryptedFileWhenForced()
    {
        const std::filesystem::path file = m_dir.filePath(QStringLiteral("forced/credentials.enc")).toStdString();
        CredentialStore store({CredentialStore::Backend::EncryptedFile, file, QStringLiteral("gpuplanner")});
        int asked = 0;
        bool creating = false;
        store.setPassphraseSource([&](bool isNew, const QString& path) {
            ++asked;
            creating = isNew;
            [&] { QCOMPARE(path.toStdString(), file.string()); }();
            return core::SecretString("lab passphrase");
        });
        QCOMPARE(store.storeNow(awsCredential()).value(), CredentialLocation::EncryptedFile);
        QCOMPARE(asked, 1);
        QVERIFY(creating);
        QCOMPARE(secretToolLookup(QStringLiteral("aws")).exitCode, 1); // not in the keychain
        QCOMPARE(store.entries().value(0).location, CredentialLocation::EncryptedFile);

        QFile bytes(QString::fromStdString(file.string()));
        QVERIFY(bytes.open(QIODevice::ReadOnly));
        const QByteArray content = bytes.readAll();
        QVERIFY(!content.contains(kAwsSecret.toUtf8()));
        QVERIFY(!content.contains(kAwsKeyId.toUtf8()));
        QCOMPARE(int(bytes.permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup)), 0);

        // The passphrase is remembered for the session once the file has taken it.
        const core::Result<core::Credential> loaded = store.loadNow(QStringLiteral("aws"));
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : core::describe(loaded.error()).c_str());
        QCOMPARE(secretOf(*loaded, "secret_access_key"), kAwsSecret);
        QCOMPARE(asked, 1);

        // Another session with the wrong passphrase is told so, and gets nothing.
        CredentialStore wrong({CredentialStore::Backend::EncryptedFile, file, QStringLiteral("gpuplanner")});
        wrong.setPassphraseSource([](bool, const QString&) { return core::SecretString("not the passphrase"); });
        const core::Result<core::Credential> refused = wrong.loadNow(QStringLiteral("aws"));
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, core::ErrorCode::Credentials);
        QCOMPARE(refused.error().reason.key, std::string("error.secrets.wrong_passphrase"));
        QVERIFY(gpuplan::ui::errorDetailText(refused.error()).contains(QStringLiteral("wrong passphrase")));

        // No passphrase given: cancelled, nothing changes.
        CredentialStore cancelled({CredentialStore::Backend::EncryptedFile, file, QStringLiteral("gpuplanner")});
        cancelled.setPassphraseSource([](bool, const QString&) { return core::SecretString(); });
        QCOMPARE(cancelled.removeNow(QStringLiteral("aws")).error().code, core::ErrorCode::Cancelled);

        QVERIFY(store.removeNow(QStringLiteral("aws")).ok());
        QVERIFY(store.entries().isEmpty());
        const core::EncryptedCredentialFile encrypted(file);
        QCOMPARE(encrypted.load("lab passphrase").value().size(), std::size_t(0));
    }

    void cliFallsBackToTheFileWhereNoKeychainRuns()
    {
        // A session bus that is not there: what a headless server without a Secret Service gives QtKeychain.
        const QString file = m_dir.filePath(QStringLiteral("cli-fallback.enc"));
        const QMap<QString, QString> env{
            {QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=") + m_dir.filePath("no-bus")},
            {QStringLiteral("GPUPLAN_CREDENTIALS_FILE"), file},
            {QStringLiteral("GPUPLAN_CREDENTIALS_PASSPHRASE"), QStringLiteral("headless passphrase")}};
        const QByteArray fields = "{\"api_key\":\"secret_gpuplan_lambda_0123456789abcdef\"}";
        const Run set = runCli({"creds", "set", "lambda", "--stdin"}, fields, env);
        QCOMPARE(set.exitCode, 0);
        QVERIFY2(set.err.contains(QStringLiteral("keychain is not available")), qPrintable(set.err));
        QVERIFY2(set.err.contains(file), qPrintable(set.err));
        QVERIFY2(set.out.contains(QStringLiteral("encrypted file")), qPrintable(set.out));

        const Run list = runCli({"creds", "list", "--json"}, {}, env);
        QCOMPARE(list.exitCode, 0);
        const QJsonArray entries = QJsonDocument::fromJson(list.out.toUtf8())[QStringLiteral("credentials")].toArray();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries[0][QStringLiteral("provider")].toString(), QStringLiteral("lambda"));
        QCOMPARE(entries[0][QStringLiteral("stored_in")].toString(), QStringLiteral("encrypted_file"));
        QVERIFY(entries[0][QStringLiteral("key_id")].toString().startsWith(QStringLiteral("sha256:")));

        QMap<QString, QString> wrongEnv = env;
        wrongEnv[QStringLiteral("GPUPLAN_CREDENTIALS_PASSPHRASE")] = QStringLiteral("guess");
        const Run wrong = runCli({"creds", "remove", "lambda"}, {}, wrongEnv);
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.err.contains(QStringLiteral("wrong passphrase")), qPrintable(wrong.err));

        QCOMPARE(runCli({"creds", "remove", "lambda"}, {}, env).exitCode, 0);
        const QStringList leaked =
            filesContaining(QDir::homePath() + QStringLiteral("/.."), "secret_gpuplan_lambda_0123456789abcdef");
        QVERIFY2(leaked.isEmpty(), qPrintable(leaked.join(", ")));
    }

    void cliBadInputExitsTwo()
    {
        const Run unknown = runCli({"creds", "set", "digitalocean", "--stdin"});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains(QStringLiteral("aws, tencent, alibaba, huawei, gcp, azure, lambda, paperspace")),
                 qPrintable(unknown.err));
        QCOMPARE(runCli({"creds", "remove", "awz"}).exitCode, 2);
        const Run typo = runCli({"creds", "set", "aws", "--stdin"}, "{\"access_key\":\"AKIAX\"}");
        QCOMPARE(typo.exitCode, 2);
        QVERIFY2(typo.err.contains(QStringLiteral("access_key")) && typo.err.contains(QStringLiteral("access_key_id")),
                 qPrintable(typo.err));
        const Run missing =
            runCli({"creds", "set", "azure", "--stdin"}, "{\"tenant_id\":\"t\",\"client_id\":\"c1234567\"}");
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains(QStringLiteral("client_secret")), qPrintable(missing.err));
        QCOMPARE(runCli({"creds", "set", "aws", "--key-file", GPUPLAN_SOURCE_DIR "/README.md"}).exitCode, 2);
    }

    void cliNeverShowsTheSecret()
    {
        const QByteArray secret = kAwsSecret.toUtf8();
        const QByteArray fields =
            "{\"access_key_id\":\"" + kAwsKeyId.toUtf8() + "\",\"secret_access_key\":\"" + secret + "\"}";
        QList<Run> runs;
        runs << runCli({"creds", "set", "aws", "--stdin"}, fields);
        QCOMPARE(runs.last().exitCode, 0);
        QCOMPARE(runs.last().out.trimmed(),
                 QStringLiteral("Stored the aws AKIA****MPLE credential in the system keychain."));
        runs << runCli({"creds", "list"});
        QCOMPARE(runs.last().exitCode, 0);
        QVERIFY2(runs.last().out.contains(QStringLiteral("aws       AKIA****MPLE  keychain")),
                 qPrintable(runs.last().out));
        runs << runCli({"creds", "list", "--json"});
        QCOMPARE(runs.last().exitCode, 0);
        const QJsonObject entry =
            QJsonDocument::fromJson(runs.last().out.toUtf8())[QStringLiteral("credentials")][0].toObject();
        QCOMPARE(entry[QStringLiteral("key_id")].toString(), QStringLiteral("AKIA****MPLE"));
        QCOMPARE(entry[QStringLiteral("stored_in")].toString(), QStringLiteral("keychain"));
        // A plan made while the credential is stored, and its file.
        const QString plan = m_dir.filePath(QStringLiteral("with-creds.gpuplan"));
        runs << runCli({"plan", "--preset", "resnet50-imagenet", "--top", "3", "--json", "-o", plan});
        QCOMPARE(runs.last().exitCode, 0);
        runs << runCli({"plan", "--preset", "resnet50-imagenet", "--top", "3"});
        // Setting it again from a bad JSON document must not echo the document back.
        runs << runCli({"creds", "set", "aws", "--stdin"},
                       "{\"access_key_id\": \"x\", \"secret_access_key\": \"" + secret + "\",}");
        QCOMPARE(runs.last().exitCode, 2);

        for (const Run& run : runs) {
            QVERIFY2(!run.out.toUtf8().contains(secret) && !run.err.toUtf8().contains(secret),
                     "the secret was printed");
            QVERIFY2(!run.out.contains(kAwsKeyId) && !run.err.contains(kAwsKeyId), "the whole key id was printed");
        }
        QFile planFile(plan);
        QVERIFY(planFile.open(QIODevice::ReadOnly));
        const QByteArray planBytes = planFile.readAll();
        QVERIFY(planBytes.size() > 1000);
        QVERIFY(!planBytes.contains(secret));

        // Nowhere in the private home (settings, data, the keyring's own encrypted file, the test's scratch folder)
        // is the secret written in the clear: only the keychain gives it back.
        const QString settingsFile =
            QDir(qEnvironmentVariable("XDG_CONFIG_HOME")).filePath("gpuplanner/gpuplanner.conf");
        QVERIFY2(QFile::exists(settingsFile), qPrintable(settingsFile));
        // The scan does see what is written in the clear: the masked key id in the settings.
        QCOMPARE(filesContaining(qEnvironmentVariable("XDG_CONFIG_HOME"), "AKIA****MPLE"), QStringList{settingsFile});
        for (const QString& dir : {qEnvironmentVariable("XDG_CONFIG_HOME"),
                                   qEnvironmentVariable("XDG_DATA_HOME"),
                                   qEnvironmentVariable("HOME"),
                                   m_dir.path()}) {
            const QStringList leaked = filesContaining(dir, secret);
            QVERIFY2(leaked.isEmpty(), qPrintable(leaked.join(", ")));
        }
        QVERIFY(secretToolLookup(QStringLiteral("aws")).out.contains(kAwsSecret));

        QCOMPARE(runCli({"creds", "remove", "aws"}).exitCode, 0);
        QCOMPARE(secretToolLookup(QStringLiteral("aws")).exitCode, 1);
    }

    void pageSetsAndRemovesThroughTheKeychain()
    {
        MainWindow window(kBundled);
        window.show();
        QTRY_VERIFY(window.isCatalogLoaded());
        auto* navigation = window.findChild<QListWidget*>(QStringLiteral("navigationList"));
        QVERIFY(navigation);
        int credentialsRow = -1;
        for (int i = 0; i < navigation->count(); ++i) {
            if (navigation->item(i)->text() == QStringLiteral("Credentials")) {
                credentialsRow = i;
            }
        }
        QVERIFY(credentialsRow >= 0);
        QVERIFY(navigation->item(credentialsRow)->flags() & Qt::ItemIsEnabled);
        navigation->setCurrentRow(credentialsRow);
        auto* page = window.findChild<CredentialsPage*>(QStringLiteral("credentialsPage"));
        QVERIFY(page);
        QTRY_VERIFY(page->isVisible());
        auto* table = page->findChild<QTableWidget*>(QStringLiteral("credentialsTable"));
        auto* setButton = page->findChild<QPushButton*>(QStringLiteral("setCredentialButton"));
        auto* removeButton = page->findChild<QPushButton*>(QStringLiteral("removeCredentialButton"));
        auto* status = page->findChild<QLabel*>(QStringLiteral("credentialsStatusLabel"));
        QVERIFY(table && setButton && removeButton && status);
        QCOMPARE(table->rowCount(), 8);
        QCOMPARE(cellText(table, "tencent", CredentialsPage::ProviderColumn), QStringLiteral("Tencent Cloud"));
        QCOMPARE(cellText(table, "tencent", CredentialsPage::LocationColumn), QStringLiteral("Not set"));

        table->selectRow(rowOf(table, QStringLiteral("tencent")));
        QVERIFY(!removeButton->isEnabled()); // nothing stored yet
        QTest::mouseClick(setButton, Qt::LeftButton);
        CredentialDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = page->findChild<CredentialDialog*>(QStringLiteral("credentialDialog"))) != nullptr);
        auto* keyId = dialog->findChild<QLineEdit*>(QStringLiteral("accessKeyIdEdit"));
        auto* secret = dialog->findChild<QLineEdit*>(QStringLiteral("secretAccessKeyEdit"));
        auto* ok = dialog->findChild<QPushButton*>(QStringLiteral("credentialDialogOkButton"));
        QVERIFY(keyId && secret && ok);
        QCOMPARE(secret->echoMode(), QLineEdit::Password);
        QCOMPARE(keyId->echoMode(), QLineEdit::Normal);
        QVERIFY(!secret->toolTip().isEmpty());

        // An incomplete form stays open and names the field.
        QTest::keyClicks(keyId, kTencentKeyId);
        QTest::mouseClick(ok, Qt::LeftButton);
        auto* error = dialog->findChild<QLabel*>(QStringLiteral("credentialErrorLabel"));
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().contains(QStringLiteral("SecretKey")), qPrintable(error->text()));
        QVERIFY(dialog->isVisible());

        QTest::keyClicks(secret, kTencentSecret);
        QTest::mouseClick(ok, Qt::LeftButton);
        QTRY_COMPARE(cellText(table, "tencent", CredentialsPage::LocationColumn), QStringLiteral("System keychain"));
        QCOMPARE(cellText(table, "tencent", CredentialsPage::KeyIdColumn), QStringLiteral("AKID****MPLE"));
        QTRY_VERIFY(status->text().contains(QStringLiteral("stored in the system keychain")));
        const Lookup lookup = secretToolLookup(QStringLiteral("tencent"));
        QCOMPARE(lookup.exitCode, 0);
        QVERIFY(lookup.out.contains(kTencentSecret));
        QVERIFY(lookup.out.contains(kTencentKeyId));
        for (QLabel* label : page->findChildren<QLabel*>()) {
            QVERIFY(!label->text().contains(kTencentSecret));
        }

        table->selectRow(rowOf(table, QStringLiteral("tencent")));
        QVERIFY(removeButton->isEnabled());
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::RemoveCredential, false);
        QTest::mouseClick(removeButton, Qt::LeftButton);
        QCOMPARE(secretToolLookup(QStringLiteral("tencent")).exitCode, 0); // "no" keeps it
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::RemoveCredential, true);
        QTest::mouseClick(removeButton, Qt::LeftButton);
        QTRY_COMPARE(cellText(table, "tencent", CredentialsPage::LocationColumn), QStringLiteral("Not set"));
        QCOMPARE(cellText(table, "tencent", CredentialsPage::KeyIdColumn), QStringLiteral("—"));
        QCOMPARE(secretToolLookup(QStringLiteral("tencent")).exitCode, 1);
        QTRY_VERIFY(status->text().contains(QStringLiteral("removed")));
    }

    void pageUsesTheEncryptedFileAndSaysSo()
    {
        const std::filesystem::path file = m_dir.filePath(QStringLiteral("page/credentials.enc")).toStdString();
        CredentialStore store({CredentialStore::Backend::EncryptedFile, file, QStringLiteral("gpuplanner")});
        CredentialsPage page(&store);
        page.show();
        auto* backend = page.findChild<QLabel*>(QStringLiteral("credentialsBackendLabel"));
        QVERIFY(backend->text().contains(QString::fromStdString(file.string())));
        auto* table = page.findChild<QTableWidget*>(QStringLiteral("credentialsTable"));
        table->selectRow(rowOf(table, QStringLiteral("paperspace")));
        QTest::mouseClick(page.findChild<QPushButton*>(QStringLiteral("setCredentialButton")), Qt::LeftButton);
        CredentialDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = page.findChild<CredentialDialog*>(QStringLiteral("credentialDialog"))) != nullptr);
        auto* apiKey = dialog->findChild<QLineEdit*>(QStringLiteral("apiKeyEdit"));
        QVERIFY(apiKey);
        QCOMPARE(apiKey->echoMode(), QLineEdit::Password);
        QTest::keyClicks(apiKey, QStringLiteral("ps_gpuplan_test_api_key_0123456789"));
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::CredentialPassphrase,
                                              QStringLiteral("page passphrase"));
        QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("credentialDialogOkButton")), Qt::LeftButton);
        QTRY_COMPARE(cellText(table, "paperspace", CredentialsPage::LocationColumn), QStringLiteral("Encrypted file"));
        QVERIFY(cellText(table, "paperspace", CredentialsPage::KeyIdColumn).startsWith(QStringLiteral("sha256:")));
        QCOMPARE(secretToolLookup(QStringLiteral("paperspace")).exitCode, 1);
        const core::Result<std::vector<core::Credential>> inFile =
            core::EncryptedCredentialFile(file).load("page passphrase");
        QVERIFY(inFile.ok());
        QCOMPARE(secretOf(inFile->at(0), "api_key"), QStringLiteral("ps_gpuplan_test_api_key_0123456789"));

        // Removing needs no passphrase again in the same session.
        table->selectRow(rowOf(table, QStringLiteral("paperspace")));
        gpuplan::ui::Questions::setNextAnswer(gpuplan::ui::Question::RemoveCredential, true);
        QTest::mouseClick(page.findChild<QPushButton*>(QStringLiteral("removeCredentialButton")), Qt::LeftButton);
        QTRY_COMPARE(cellText(table, "paperspace", CredentialsPage::LocationColumn), QStringLiteral("Not set"));
        QCOMPARE(core::EncryptedCredentialFile(file).load("page passphrase").value().size(), std::size_t(0));
    }
};

/// Runs the test under tests/ui/with-keyring.sh (a private D-Bus session and keyring) unless it already is.
int main(int argc, char** argv)
{
    if (!qEnvironmentVariableIsSet("GPUPLAN_PRIVATE_KEYRING")) {
        static const char script[] = GPUPLAN_SOURCE_DIR "/tests/ui/with-keyring.sh";
        std::vector<char*> arguments{const_cast<char*>(script), const_cast<char*>("/proc/self/exe")};
        char self[4096] = {};
        const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
        if (length > 0) {
            arguments[1] = self;
        }
        arguments.insert(arguments.end(), argv + 1, argv + argc);
        arguments.push_back(nullptr);
        ::execv(script, arguments.data());
        std::fprintf(stderr, "TestKeychain: cannot run %s: %s\n", script, std::strerror(errno));
        return 1;
    }
    QApplication app(argc, argv);
    TestKeychain test;
    return QTest::qExec(&test, argc, argv);
}

#include "TestKeychain.moc"
