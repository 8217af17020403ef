// The encrypted credentials file (the store where no keychain runs) and the Credential type.
#include "gpuplan/secrets/Credential.h"
#include "gpuplan/secrets/EncryptedCredentialFile.h"
#include "gpuplan/secrets/SignerCredentials.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <sys/stat.h>

using namespace gpuplan::core;

Q_DECLARE_METATYPE(gpuplan::core::ErrorCode)

namespace {

// AWS's documented example key pair (https://docs.aws.amazon.com/IAM/latest/UserGuide/security-creds.html).
constexpr const char* kAccessKeyId = "AKIAIOSFODNN7EXAMPLE";
constexpr const char* kSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
constexpr const char* kPassphrase = "correct horse battery staple";

Credential awsCredential()
{
    Credential c("aws");
    c.set("access_key_id", kAccessKeyId);
    c.set("secret_access_key", kSecret);
    return c;
}

Credential gcpCredential()
{
    Credential c("gcp");
    c.set("client_email", "planner@gpu-lab.iam.gserviceaccount.com");
    c.set("private_key", "-----BEGIN PRIVATE KEY-----\nMIIEv\"quoted\"\\back\tslash\n-----END PRIVATE KEY-----\n");
    c.set("project_id", "gpu-lab-实验室");
    return c;
}

std::string readBytes(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::filesystem::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

QString text(const SecretString& s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

class TestCredentialFile : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::filesystem::path file(const char* name = "credentials.enc") const
    {
        return std::filesystem::path(m_dir.path().toStdString()) / name;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void maskedKeyIds_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("masked");
        QTest::newRow("aws access key id") << "AKIAIOSFODNN7EXAMPLE"
                                           << "AKIA****MPLE";
        QTest::newRow("twelve characters") << "ABCDEFGHIJKL"
                                           << "ABCD****IJKL";
        QTest::newRow("eight characters") << "ABCDEFGH"
                                          << "AB****GH";
        QTest::newRow("too short to show any") << "ABCDE"
                                               << "****";
        QTest::newRow("service account e-mail") << "planner@gpu-lab.iam.gserviceaccount.com"
                                                << "plan****@gpu-lab.iam.gserviceaccount.com";
        QTest::newRow("short e-mail") << "ab@x.org"
                                      << "a****@x.org";
        QTest::newRow("azure client id") << "00000000-1111-2222-3333-444444444444"
                                         << "0000****4444";
    }
    void maskedKeyIds()
    {
        QFETCH(QString, key);
        QFETCH(QString, masked);
        QCOMPARE(QString::fromStdString(maskKeyId(key.toStdString())), masked);
    }

    void descriptionsNeverShowASecret()
    {
        const Credential aws = awsCredential();
        QCOMPARE(QString::fromStdString(aws.describe()), QStringLiteral("aws AKIA****MPLE"));
        QCOMPARE(QString::fromStdString(aws.keyId()), QString::fromLatin1(kAccessKeyId));

        Credential lambda("lambda");
        lambda.set("api_key", "secret_gpuplan_0123456789abcdef");
        const QString masked = QString::fromStdString(lambda.maskedKeyId());
        QVERIFY2(masked.startsWith(QStringLiteral("sha256:")) && masked.size() == 15, qPrintable(masked));
        QVERIFY(!QString::fromStdString(lambda.describe()).contains(QStringLiteral("0123456789")));
        QVERIFY(lambda.keyId().empty());

        const Credential gcp = gcpCredential();
        QVERIFY(!QString::fromStdString(gcp.describe()).contains(QStringLiteral("PRIVATE KEY")));
    }

    void validateNamesTheMissingField()
    {
        QVERIFY(awsCredential().validate().ok());
        Credential huawei("huawei");
        huawei.set("access_key_id", "HPUAABCDEFGHIJ");
        // Huawei's project id is optional (IAM names each region's project): the secret key is not.
        const Status missing = huawei.validate();
        QVERIFY(!missing);
        QCOMPARE(QString::fromStdString(missing.error().where), QStringLiteral("secret_access_key"));
        QCOMPARE(missing.error().reason.key, std::string("error.secrets.missing_field"));
        QCOMPARE(missing.error().reason.params.at("field"), std::string("secret_access_key"));
        huawei.set("secret_access_key", "secret");
        QVERIFY(huawei.validate().ok());

        const Status unknown = Credential("digitalocean").validate();
        QCOMPARE(unknown.error().code, ErrorCode::UnknownProvider);
        QCOMPARE(unknown.error().reason.key, std::string("error.secrets.unknown_provider"));
        QCOMPARE(unknown.error().reason.params.at("provider"), std::string("digitalocean"));
        QVERIFY(QString::fromStdString(unknown.error().reason.params.at("known"))
                    .contains(QStringLiteral("aws, tencent, alibaba")));

        // An empty value is no value: it does not satisfy a required field.
        Credential emptied = awsCredential();
        emptied.set("secret_access_key", "");
        QVERIFY(!emptied.has("secret_access_key"));
        QVERIFY(!emptied.validate());
    }

    void jsonRoundTripKeepsEveryByte()
    {
        const Credential gcp = gcpCredential();
        SecretString json = credentialToJson(gcp);
        const Result<Credential> back = credentialFromJson(std::string_view(json.data(), json.size()));
        wipe(json);
        QVERIFY2(back.ok(), back.ok() ? "" : describe(back.error()).c_str());
        QCOMPARE(back->provider(), std::string("gcp"));
        QCOMPARE(back->fields().size(), gcp.fields().size());
        for (const auto& [name, value] : gcp.fields()) {
            QCOMPARE(text(back->value(name)), text(value));
        }
    }

    void fieldsFromScriptsAndKeyFiles()
    {
        const Result<Credential> fromStdin = credentialFromFieldsJson(
            "aws", "{\"access_key_id\":\"AKIAIOSFODNN7EXAMPLE\",\"secret_access_key\":\"s3cr3t\"}");
        QVERIFY(fromStdin.ok());
        QVERIFY(fromStdin->validate().ok());

        const Result<Credential> typo = credentialFromFieldsJson("aws", "{\"secret_key\":\"s3cr3t\"}");
        QVERIFY(!typo.ok());
        QCOMPARE(typo.error().reason.key, std::string("error.secrets.unknown_field"));
        QCOMPARE(typo.error().reason.params.at("field"), std::string("secret_key"));
        QVERIFY(QString::fromStdString(typo.error().reason.params.at("fields"))
                    .contains(QStringLiteral("secret_access_key")));
        QVERIFY(!QString::fromStdString(describe(typo.error())).contains(QStringLiteral("s3cr3t")));

        const Result<Credential> key = credentialFromServiceAccountKey(
            "{\"type\":\"service_account\",\"project_id\":\"gpu-lab\",\"private_key_id\":\"abc123\","
            "\"private_key\":\"-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----\\n\","
            "\"client_email\":\"planner@gpu-lab.iam.gserviceaccount.com\",\"client_id\":\"1234\"}");
        QVERIFY2(key.ok(), key.ok() ? "" : describe(key.error()).c_str());
        QVERIFY(key->validate().ok());
        QCOMPARE(text(key->value("project_id")), QStringLiteral("gpu-lab"));
        QVERIFY(text(key->value("private_key")).contains(QLatin1Char('\n')));

        const Result<Credential> notAKey = credentialFromServiceAccountKey("{\"type\":\"authorized_user\"}");
        QCOMPARE(notAKey.error().code, ErrorCode::SchemaViolation);
        QCOMPARE(QString::fromStdString(notAKey.error().where), QStringLiteral("$.type"));
    }

    void roundTrip()
    {
        const EncryptedCredentialFile store(file());
        QVERIFY(!store.exists());
        QCOMPARE(store.load(kPassphrase).error().code, ErrorCode::FileNotFound);

        QVERIFY(store.save({awsCredential(), gcpCredential()}, kPassphrase).ok());
        const Result<std::vector<Credential>> loaded = store.load(kPassphrase);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : describe(loaded.error()).c_str());
        QCOMPARE(loaded->size(), std::size_t(2));
        QCOMPARE((*loaded)[0].provider(), std::string("aws"));
        QCOMPARE(text((*loaded)[0].value("secret_access_key")), QString::fromLatin1(kSecret));
        QCOMPARE(text((*loaded)[1].value("private_key")), text(gcpCredential().value("private_key")));
        QCOMPARE(text((*loaded)[1].value("project_id")), QStringLiteral("gpu-lab-实验室"));

        // The header names the cost it was written with: scrypt N = 2^17, r = 8, p = 1 (OWASP's minimum; finding 10).
        const std::string bytes = readBytes(file());
        QCOMPARE(QByteArray::fromStdString(bytes.substr(0, 8)), QByteArray("GPUPCRED"));
        QCOMPARE(int(bytes[8]), 1);
        QCOMPARE(int(bytes[10]), 17);
        QCOMPARE(int(bytes[11]), 8);
        QCOMPARE(int(bytes[12]), 1);
    }

    void putReplacesAndRemoveRemoves()
    {
        const EncryptedCredentialFile store(file("put.enc"));
        QVERIFY(store.put(awsCredential(), kPassphrase).ok()); // creates the file
        Credential rotated = awsCredential();
        rotated.set("secret_access_key", "rotated-secret");
        QVERIFY(store.put(rotated, kPassphrase).ok());
        QVERIFY(store.put(gcpCredential(), kPassphrase).ok());
        Result<std::vector<Credential>> loaded = store.load(kPassphrase);
        QCOMPARE(loaded->size(), std::size_t(2));
        QCOMPARE(text((*loaded)[0].value("secret_access_key")), QStringLiteral("rotated-secret"));

        QCOMPARE(store.remove("aws", kPassphrase).value(), true);
        QCOMPARE(store.remove("aws", kPassphrase).value(), false);
        loaded = store.load(kPassphrase);
        QCOMPARE(loaded->size(), std::size_t(1));
        QCOMPARE((*loaded)[0].provider(), std::string("gcp"));

        // A put with the wrong passphrase changes nothing.
        const std::string before = readBytes(file("put.enc"));
        QCOMPARE(store.put(awsCredential(), "not it").error().code, ErrorCode::Credentials);
        QCOMPARE(readBytes(file("put.enc")), before);
    }

    void wrongPassphraseIsSaidPlainly()
    {
        const EncryptedCredentialFile store(file("wrong.enc"));
        QVERIFY(store.save({awsCredential()}, kPassphrase).ok());
        const Result<std::vector<Credential>> loaded = store.load("Correct horse battery staple");
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().code, ErrorCode::Credentials);
        QVERIFY2(loaded.error().reason.key == "error.secrets.wrong_passphrase", describe(loaded.error()).c_str());
        QCOMPARE(loaded.error().where, file("wrong.enc").string());
        QCOMPARE(store.load("").error().code, ErrorCode::Credentials);
        QCOMPARE(store.save({awsCredential()}, "").error().code, ErrorCode::InvalidArgument);
    }

    // Finding 10: a changed header cannot make opening the file ask scrypt for gigabytes or minutes: it is refused
    // before any key is derived, naming the file. A cost in bounds (the earlier 2^15) is derived, and then the
    // passphrase check fails, as for any changed byte.
    void aHeaderThatDemandsTooMuchIsRefusedAtOnce_data()
    {
        QTest::addColumn<int>("log2N");
        QTest::addColumn<int>("r");
        QTest::addColumn<int>("p");
        QTest::addColumn<bool>("opens");
        QTest::newRow("16 GiB: N = 2^22, r = 32") << 22 << 32 << 1 << false;
        QTest::newRow("1 GiB, 64 times the work: N = 2^20, r = 8, p = 8") << 20 << 8 << 8 << false;
        QTest::newRow("too weak: N = 2^10") << 10 << 8 << 1 << false;
        QTest::newRow("p = 0") << 17 << 8 << 0 << false;
        QTest::newRow("in bounds: the earlier N = 2^15") << 15 << 8 << 1 << true;
    }
    void aHeaderThatDemandsTooMuchIsRefusedAtOnce()
    {
        QFETCH(int, log2N);
        QFETCH(int, r);
        QFETCH(int, p);
        QFETCH(bool, opens);
        const EncryptedCredentialFile store(file("cost.enc"));
        QVERIFY(store.save({awsCredential()}, kPassphrase).ok());
        std::string bytes = readBytes(store.path());
        bytes[10] = char(log2N);
        bytes[11] = char(r);
        bytes[12] = char(p);
        writeBytes(store.path(), bytes);
        const Result<std::vector<Credential>> loaded = store.load(kPassphrase);
        QVERIFY(!loaded.ok()); // the cost is part of what the passphrase check covers: another cost never opens
        if (opens) {
            QVERIFY2(loaded.error().reason.key == "error.secrets.wrong_passphrase", describe(loaded.error()).c_str());
            return;
        }
        QVERIFY2(loaded.error().reason.key == "error.secrets.cost_out_of_bounds", describe(loaded.error()).c_str());
        QCOMPARE(loaded.error().where, store.path().string());
    }

    void tamperedByteIsCaught_data()
    {
        QTest::addColumn<int>("offset"); // negative: from the end
        QTest::addColumn<ErrorCode>("code");
        QTest::addColumn<QString>("says");
        const QString changed = QStringLiteral("error.secrets.not_authentic");
        const QString wrong = QStringLiteral("error.secrets.wrong_passphrase");
        QTest::newRow("magic") << 0 << ErrorCode::FileUnreadable
                               << QStringLiteral("error.secrets.not_a_credentials_file");
        QTest::newRow("format") << 8 << ErrorCode::SchemaViolation << QStringLiteral("error.secrets.other_format");
        QTest::newRow("scrypt r") << 11 << ErrorCode::Credentials << wrong;
        QTest::newRow("salt") << 14 << ErrorCode::Credentials << wrong;
        QTest::newRow("passphrase check") << 30 << ErrorCode::Credentials << wrong;
        QTest::newRow("nonce") << 50 << ErrorCode::Credentials << changed;
        QTest::newRow("first ciphertext byte") << 58 << ErrorCode::Credentials << changed;
        QTest::newRow("middle of the ciphertext") << 100 << ErrorCode::Credentials << changed;
        QTest::newRow("tag") << -1 << ErrorCode::Credentials << changed;
    }
    void tamperedByteIsCaught()
    {
        QFETCH(int, offset);
        QFETCH(ErrorCode, code);
        QFETCH(QString, says);
        const EncryptedCredentialFile store(file("tampered.enc"));
        QVERIFY(store.save({awsCredential(), gcpCredential()}, kPassphrase).ok());
        std::string bytes = readBytes(store.path());
        const std::size_t at = offset >= 0 ? std::size_t(offset) : bytes.size() - std::size_t(-offset);
        QVERIFY(at < bytes.size());
        bytes[at] = char(bytes[at] ^ 0x01);
        writeBytes(store.path(), bytes);

        const Result<std::vector<Credential>> loaded = store.load(kPassphrase);
        QVERIFY2(!loaded.ok(), "a changed file must never load");
        QCOMPARE(loaded.error().code, code);
        QVERIFY2(QString::fromStdString(loaded.error().reason.key) == says, describe(loaded.error()).c_str());
    }

    void truncatedFileIsCaught_data()
    {
        QTest::addColumn<int>("keep"); // bytes kept; negative: all but that many
        QTest::newRow("empty") << 0;
        QTest::newRow("part of the magic") << 5;
        QTest::newRow("part of the header") << 40;
        QTest::newRow("header and no tag") << 58;
        QTest::newRow("last byte of the tag gone") << -1;
        QTest::newRow("tag gone") << -16;
        QTest::newRow("half") << -100;
    }
    void truncatedFileIsCaught()
    {
        QFETCH(int, keep);
        const EncryptedCredentialFile store(file("truncated.enc"));
        QVERIFY(store.save({awsCredential(), gcpCredential()}, kPassphrase).ok());
        const std::string bytes = readBytes(store.path());
        writeBytes(store.path(), bytes.substr(0, keep >= 0 ? std::size_t(keep) : bytes.size() - std::size_t(-keep)));
        const Result<std::vector<Credential>> loaded = store.load(kPassphrase);
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error().code == ErrorCode::FileUnreadable || loaded.error().code == ErrorCode::Credentials,
                 describe(loaded.error()).c_str());
        const std::string& key = loaded.error().reason.key;
        QVERIFY2(key == "error.secrets.truncated" || key == "error.secrets.not_authentic",
                 describe(loaded.error()).c_str());
    }

    /// Found by tests/fuzz/fuzz_credentials: each header byte was bounded on its own, so a changed header could pass
    /// with log2 N = 22 and r = 3 (a 1.5 GiB table), or r = 32 (16 GiB), and load() ran scrypt at that cost before
    /// the passphrase check could fail. The fuzzer's input is
    /// tests/data/fuzz-regressions/credentials-scrypt-1536mib.enc.
    void changedScryptCostIsRefusedBeforeScrypt_data()
    {
        QTest::addColumn<int>("log2N"); // 0: the fuzzer's file as it is
        QTest::addColumn<int>("r");
        QTest::addColumn<int>("p");
        QTest::newRow("fuzzer's input: 2^22, r 3, p 2") << 0 << 0 << 0;
        QTest::newRow("2^22, r 32: 16 GiB table") << 22 << 32 << 1;
        QTest::newRow("2^20, r 16: 2 GiB table") << 20 << 16 << 1;
        QTest::newRow("1 GiB table, 16 passes") << 22 << 2 << 16;
        QTest::newRow("r 0") << 15 << 0 << 1;
    }
    void changedScryptCostIsRefusedBeforeScrypt()
    {
        QFETCH(int, log2N);
        QFETCH(int, r);
        QFETCH(int, p);
        const EncryptedCredentialFile store(file("cost.enc"));
        std::string bytes;
        if (log2N == 0) {
            bytes = readBytes(std::filesystem::path(GPUPLAN_SOURCE_DIR)
                              / "tests/data/fuzz-regressions/credentials-scrypt-1536mib.enc");
            QVERIFY(bytes.size() > 12);
        } else {
            QVERIFY(store.save({awsCredential()}, kPassphrase).ok());
            bytes = readBytes(store.path());
            bytes[10] = char(log2N);
            bytes[11] = char(r);
            bytes[12] = char(p);
        }
        writeBytes(store.path(), bytes);

        // Refused from the header alone, before scrypt: not the wrong-passphrase answer that follows a derivation.
        const Result<std::vector<Credential>> loaded = store.load(kPassphrase);
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().code, ErrorCode::Credentials);
        QVERIFY2(loaded.error().reason.key == "error.secrets.cost_out_of_bounds", describe(loaded.error()).c_str());
    }

    void fileIsTheOwnersAloneAndReplacedAtomically()
    {
        const mode_t old = ::umask(0); // even a permissive umask gives 0600
        const std::filesystem::path path = file("sub/dir/credentials.enc");
        const EncryptedCredentialFile store(path);
        QVERIFY(store.save({awsCredential()}, kPassphrase).ok());
        QVERIFY(store.put(gcpCredential(), kPassphrase).ok());
        ::umask(old);
        struct stat info
        { };
        QCOMPARE(::stat(path.c_str(), &info), 0);
        QCOMPARE(int(info.st_mode & 0777), 0600);
        QCOMPARE(::stat(path.parent_path().c_str(), &info), 0);
        QCOMPARE(int(info.st_mode & 0777), 0700);
        // No temporary file is left beside it.
        const QStringList left = QDir(QString::fromStdString(path.parent_path().string())).entryList(QDir::Files);
        QCOMPARE(left, (QStringList{"credentials.enc", "credentials.enc.lock"}));
    }

    void secretIsNotInTheFilesBytes()
    {
        const EncryptedCredentialFile store(file("scan.enc"));
        QVERIFY(store.save({awsCredential(), gcpCredential()}, kPassphrase).ok());
        const QByteArray bytes = QByteArray::fromStdString(readBytes(store.path()));
        QVERIFY(!bytes.isEmpty());
        for (const QByteArray& secret : {QByteArray(kSecret),
                                         QByteArray(kAccessKeyId),
                                         QByteArray("BEGIN PRIVATE KEY"),
                                         QByteArray(kSecret).toBase64(),
                                         QByteArray(kSecret).toHex(),
                                         QByteArray(kPassphrase),
                                         QByteArray("secret_access_key")}) {
            QVERIFY2(!bytes.contains(secret), secret.constData());
        }
    }

    void everyWriteHasAFreshSaltAndNonce()
    {
        const EncryptedCredentialFile store(file("fresh.enc"));
        QVERIFY(store.save({awsCredential()}, kPassphrase).ok());
        const std::string first = readBytes(store.path());
        QVERIFY(store.save({awsCredential()}, kPassphrase).ok());
        const std::string second = readBytes(store.path());
        QCOMPARE(first.size(), second.size());
        QVERIFY(first.substr(14, 16) != second.substr(14, 16)); // salt
        QVERIFY(first.substr(46, 12) != second.substr(46, 12)); // nonce
        QVERIFY(first.substr(58) != second.substr(58));         // ciphertext and tag
    }

    void storedCredentialsReachTheSigners()
    {
        Credential aws("aws");
        aws.set("access_key_id", SecretString("AKIDEXAMPLE"));
        aws.set("secret_access_key", SecretString("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"));
        Result<AccessKey> key = accessKeyFrom(aws);
        QVERIFY(key.ok());
        QCOMPARE(key->id, std::string("AKIDEXAMPLE"));
        QCOMPARE(key->secret, std::string("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"));
        // The wrong kind of credential, or one without its secret, is named without its values.
        QCOMPARE(googleAccountFrom(aws).error().code, ErrorCode::Credentials);
        Credential half("tencent");
        half.set("access_key_id", SecretString("AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE"));
        const Error missing = accessKeyFrom(half).error();
        QCOMPARE(missing.reason.key, std::string("error.secrets.credential_lacks_field"));
        QCOMPARE(missing.reason.params.at("field"), std::string("secret_access_key"));
        QVERIFY(describe(missing).find("AKIDz8") == std::string::npos);
        for (const auto& [name, value] : missing.reason.params) {
            QVERIFY2(value.find("AKIDz8") == std::string::npos, name.c_str()); // no secret in a parameter
        }

        Credential azure("azure");
        azure.set("tenant_id", SecretString("tenant"));
        azure.set("client_id", SecretString("client"));
        azure.set("client_secret", SecretString("s3cret"));
        Result<AzureClientSecret> secret = azureSecretFrom(azure);
        QVERIFY(secret.ok());
        QCOMPARE(secret->clientSecret, std::string("s3cret"));
        Credential lambda("lambda");
        lambda.set("api_key", SecretString("secret_lambda_key"));
        QCOMPARE(*apiKeyFrom(lambda), std::string("secret_lambda_key"));
        Credential gcp("gcp");
        gcp.set("client_email", SecretString("planner@project.iam.gserviceaccount.com"));
        gcp.set("private_key", SecretString("-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n"));
        QCOMPARE(googleAccountFrom(gcp)->clientEmail, std::string("planner@project.iam.gserviceaccount.com"));
    }
};

QTEST_GUILESS_MAIN(TestCredentialFile)
#include "TestCredentialFile.moc"
