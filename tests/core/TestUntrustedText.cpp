// Text from outside (a key file, a remote host) that is not UTF-8 must not make nlohmann::json::dump throw out of a
// launch or a verification: it is sent and kept with U+FFFD in place of the bad bytes.
#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/providers/tencent/CvmApi.h"
#include "gpuplan/core/Text.h"
#include "gpuplan/deploy/Verification.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include <string>

using nlohmann::json;
using namespace gpuplan::core;

namespace {

const std::string kReplacement = "\xEF\xBF\xBD"; // U+FFFD in UTF-8

} // namespace

class TestUntrustedText : public QObject
{
    Q_OBJECT

private slots:
    /// The finding: a Latin-1 comment ("café" as 0xE9) in the public key of a Tencent launch.
    void cvmKeyWithLatin1Comment()
    {
        const std::string key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl "
                                "caf\xE9@lab";
        const cvm::Call call = cvm::importKeyPairCall("gpuplan-test", key);
        std::string body;
        try {
            body = cvm::body(call);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(body.find("caf" + kReplacement + "@lab") != std::string::npos);
        QVERIFY(!json::parse(body, nullptr, false).is_discarded());
    }

    /// A GPU name from the remote driver that is not UTF-8, as the ledger keeps the verification.
    void verificationWithRemoteBytes()
    {
        JudgedRun judged;
        judged.verification.gpuName = "NVIDIA A100\xFF";
        judged.verification.host = "lab@gpu";
        Verification kept;
        try {
            kept = verificationRecord(judged, "{\"gpus\":[]}", 1, "lab@gpu", 0);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(kept.summary.find("A100" + kReplacement) != std::string::npos);
    }

    /// Finding 4 at its source: a public key whose comment is not UTF-8 is refused when it is read, naming the file
    /// and the byte, before a launch records or sends anything.
    void aKeyFileIsCheckedWhenRead_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("problem"); // the reason's key; empty: accepted
        QTest::addColumn<QString>("params");  // the reason's parameters that name the place, "name=value;..."
        const QByteArray key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl ";
        QTest::newRow("ascii comment") << key + "lab@gpu\n"
                                       << ""
                                       << "";
        QTest::newRow("UTF-8 comment") << key + "\xE5\xAE\x9E\xE9\xAA\x8C\xE5\xAE\xA4@gpu\n"
                                       << ""
                                       << "";
        QTest::newRow("Latin-1 comment") << key + "caf\xE9@lab\n"
                                         << "error.cloud.key_comment_not_utf8"
                                         << "byte=0xE9;column=85";
        QTest::newRow("escape in comment") << key + "a\x1b]0;x\x07\n"
                                           << "error.cloud.key_control_characters"
                                           << "";
        QTest::newRow("huge") << key + QByteArray(20000, 'a') << "error.cloud.not_one_key_line"
                              << "";
    }
    void aKeyFileIsCheckedWhenRead()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, problem);
        QFETCH(QString, params);
        QTemporaryDir dir;
        const std::string file = dir.filePath("id.pub").toStdString();
        std::ofstream(file, std::ios::binary) << line.toStdString();
        Result<std::string> read = readPublicKeyFile(file);
        if (problem.isEmpty()) {
            QVERIFY2(read.ok(), read ? "" : gpuplan::core::describe(read.error()).c_str());
            return;
        }
        QVERIFY(!read.ok());
        const Error& error = read.error();
        QVERIFY2(error.reason.key == problem.toStdString() && error.where.find("id.pub") != std::string::npos,
                 gpuplan::core::describe(error).c_str());
        for (const QString& param : params.split(u';', Qt::SkipEmptyParts)) {
            const QStringList nameValue = param.split(u'=');
            const auto it = error.reason.params.find(nameValue[0].toStdString());
            QVERIFY2(it != error.reason.params.end() && it->second == nameValue[1].toStdString(),
                     gpuplan::core::describe(error).c_str());
        }
    }

    void utf8IsCheckedByTheStandardsRules_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("bad"); // -1: well-formed
        QTest::newRow("ascii") << QByteArray("plain") << -1;
        QTest::newRow("chinese") << QByteArray("\xE4\xB8\xAD\xE6\x96\x87") << -1;
        QTest::newRow("emoji") << QByteArray("a\xF0\x9F\x98\x80") << -1;
        QTest::newRow("latin-1") << QByteArray("caf\xE9") << 3;
        QTest::newRow("overlong slash") << QByteArray("\xC0\xAF") << 0;
        QTest::newRow("surrogate") << QByteArray("x\xED\xA0\x80") << 1;
        QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << 0;
        QTest::newRow("cut short") << QByteArray("ab\xE4\xB8") << 2;
    }
    void utf8IsCheckedByTheStandardsRules()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, bad);
        const std::optional<std::size_t> at = invalidUtf8At(text.toStdString());
        QCOMPARE(at ? int(*at) : -1, bad);
    }

    /// Finding 10: what reaches a terminal cannot carry escape sequences (title, clear screen, cursor moves, C1 CSI).
    void terminalTextHasNoControlSequences()
    {
        QCOMPARE(terminalSafe("ok\x1b]0;owned\x07 \x1b[2J\rx\x7f\xC2\x9B"
                              "31m\tend\n"),
                 std::string("ok?]0;owned? ?[2J?x??31m\tend\n"));
        const std::string chinese = "\xE5\xAE\x9E\xE9\xAA\x8C \xC2\xA5"
                                    "100"; // 实验 ¥100
        QCOMPARE(terminalSafe(chinese), chinese);
    }
};

QTEST_GUILESS_MAIN(TestUntrustedText)
#include "TestUntrustedText.moc"
