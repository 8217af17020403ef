// The log (gpuplan/core/Log.h, Redaction.h): GPUPLAN_LOG specs, levels per category, the cost of a disabled line,
// and that no registered secret, credential header, signature or private key reaches the sink.

#include <QTest>

#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "../support/LogCapture.h"
#include "gpuplan/core/Log.h"
#include "gpuplan/core/Redaction.h"
#include "gpuplan/secrets/Credential.h"
#include "gpuplan/secrets/CredentialRedaction.h"

using namespace gpuplan::core;
using gpuplan::testing::LogCapture;

namespace {

/// Where `needle` is in `haystack`, for a failed assertion: never the needle itself (it is a secret).
QByteArray foundAt(const std::string& haystack, const std::string& needle)
{
    return QByteArray("a secret of ") + QByteArray::number(qsizetype(needle.size()))
           + " characters is in the log at offset " + QByteArray::number(qsizetype(haystack.find(needle))) + " of "
           + QByteArray::number(qsizetype(haystack.size()));
}

/// What the sink receives for `text` logged at info in `app`, with every category at trace.
std::string logged(const std::string& text)
{
    LogCapture capture(LogLevel::Trace);
    logInfo(LogCategory::App, text);
    return capture.text();
}

std::string percentEncoded(const std::string& text)
{
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            out.push_back(char(c));
        } else {
            char buffer[4];
            std::snprintf(buffer, sizeof buffer, "%%%02X", c);
            out += buffer;
        }
    }
    return out;
}

} // namespace

Q_DECLARE_METATYPE(LogLevel)

class TestLog : public QObject
{
    Q_OBJECT

private slots:
    void specParsing_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<LogLevel>("net");
        QTest::addColumn<LogLevel>("cloud");
        QTest::addColumn<LogLevel>("ledger");
        QTest::addColumn<QString>("problem"); // a word the one problem line must name; empty: no problem

        QTest::newRow("empty: quiet default")
            << "" << LogLevel::Warning << LogLevel::Warning << LogLevel::Warning << "";
        QTest::newRow("a bare level") << "debug" << LogLevel::Debug << LogLevel::Debug << LogLevel::Debug << "";
        QTest::newRow("per category, the rest info")
            << "net=trace,cloud=debug,info" << LogLevel::Trace << LogLevel::Debug << LogLevel::Info << "";
        QTest::newRow("bare level first")
            << "info,net=trace" << LogLevel::Trace << LogLevel::Info << LogLevel::Info << "";
        QTest::newRow("case and spaces") << " NET = Trace , Off " << LogLevel::Trace << LogLevel::Off << LogLevel::Off
                                         << "";
        QTest::newRow("later part wins") << "net=trace,net=error" << LogLevel::Error << LogLevel::Warning
                                         << LogLevel::Warning << "";
        QTest::newRow("off") << "off" << LogLevel::Off << LogLevel::Off << LogLevel::Off << "";
        QTest::newRow("misspelt level") << "tarce" << LogLevel::Warning << LogLevel::Warning << LogLevel::Warning
                                        << "tarce";
        QTest::newRow("unknown category, the rest applies")
            << "net=trace,clod=debug" << LogLevel::Trace << LogLevel::Warning << LogLevel::Warning << "clod";
        QTest::newRow("unknown level of a category")
            << "net=loud,ledger=info" << LogLevel::Warning << LogLevel::Warning << LogLevel::Info << "loud";
        QTest::newRow("a category without a level")
            << "cloud" << LogLevel::Warning << LogLevel::Warning << LogLevel::Warning << "cloud=debug";
    }
    void specParsing()
    {
        QFETCH(QString, spec);
        QFETCH(LogLevel, net);
        QFETCH(LogLevel, cloud);
        QFETCH(LogLevel, ledger);
        QFETCH(QString, problem);
        const LogSpecParse parsed = parseLogSpec(spec.toStdString());
        QCOMPARE(parsed.settings.threshold(LogCategory::Net), net);
        QCOMPARE(parsed.settings.threshold(LogCategory::Cloud), cloud);
        QCOMPARE(parsed.settings.threshold(LogCategory::Ledger), ledger);
        if (problem.isEmpty()) {
            QVERIFY2(parsed.problems.empty(), parsed.problems.empty() ? "" : parsed.problems.front().c_str());
        } else {
            QCOMPARE(parsed.problems.size(), std::size_t(1));
            QVERIFY2(parsed.problems.front().find(problem.toStdString()) != std::string::npos,
                     parsed.problems.front().c_str());
            QVERIFY(parsed.problems.front().find('\n') == std::string::npos); // one line
        }
    }

    void verbosityAndEnvironment()
    {
        const LogSettings before = logSettings();
        QCOMPARE(verbosityLevel(0), LogLevel::Warning);
        QCOMPARE(verbosityLevel(1), LogLevel::Info);
        QCOMPARE(verbosityLevel(2), LogLevel::Debug);
        QCOMPARE(verbosityLevel(5), LogLevel::Trace);

        QVERIFY(configureLogging(2, nullptr).empty());
        QCOMPARE(logSettings().threshold(LogCategory::Secrets), LogLevel::Debug);
        QVERIFY(logEnabled(LogCategory::Secrets, LogLevel::Debug));
        QVERIFY(!logEnabled(LogCategory::Secrets, LogLevel::Trace));

        QVERIFY(configureLogging(0, "net=trace").empty());
        QCOMPARE(logSettings().threshold(LogCategory::Net), LogLevel::Trace);
        QCOMPARE(logSettings().threshold(LogCategory::Cloud), LogLevel::Warning);

        // Both given: the more verbose wins, per category.
        QVERIFY(configureLogging(3, "net=error").empty());
        QCOMPARE(logSettings().threshold(LogCategory::Net), LogLevel::Trace);
        QVERIFY(configureLogging(1, "net=trace").empty());
        QCOMPARE(logSettings().threshold(LogCategory::Net), LogLevel::Trace);
        QCOMPARE(logSettings().threshold(LogCategory::Cloud), LogLevel::Info);

        // A bad value is named in one line and otherwise ignored.
        const std::vector<std::string> problems = configureLogging(0, "tarce");
        QCOMPARE(problems.size(), std::size_t(1));
        QVERIFY2(problems.front().starts_with("GPUPLAN_LOG: ")
                     && problems.front().find("\"tarce\"") != std::string::npos
                     && problems.front().ends_with("; ignored"),
                 problems.front().c_str());
        QCOMPARE(logSettings().threshold(LogCategory::Net), LogLevel::Warning);
        setLogSettings(before);
    }

    void levelsFilterPerCategory()
    {
        LogCapture capture(parseLogSpec("net=info").settings);
        logInfo(LogCategory::Net, "net info");
        logDebug(LogCategory::Net, "net debug");
        logWarning(LogCategory::Cloud, "cloud warning");
        logInfo(LogCategory::Cloud, "cloud info");
        logError(LogCategory::Ledger, std::string("ledger error"));
        logTrace(LogCategory::Net, [] { return std::string("net trace"); });
        const std::vector<LogCapture::Line> lines = capture.lines();
        QCOMPARE(lines.size(), std::size_t(3));
        QCOMPARE(lines[0].text, std::string("net info"));
        QCOMPARE(lines[0].category, LogCategory::Net);
        QCOMPARE(lines[0].level, LogLevel::Info);
        QCOMPARE(lines[1].text, std::string("cloud warning"));
        QCOMPARE(lines[1].level, LogLevel::Warning);
        QCOMPARE(lines[2].text, std::string("ledger error"));
        QCOMPARE(lines[2].category, LogCategory::Ledger);

        // Off is off, errors included.
        setLogSettings(parseLogSpec("off").settings);
        logError(LogCategory::Net, "nothing");
        QCOMPARE(capture.lines().size(), std::size_t(3));
        QCOMPARE(logCategoryName(LogCategory::Secrets), std::string_view("secrets"));
        QCOMPARE(logLevelName(LogLevel::Trace), std::string_view("trace"));
    }

    void aDisabledLineCostsNoFormatting()
    {
        LogCapture capture(parseLogSpec("net=debug").settings);
        int made = 0;
        const auto text = [&made] {
            ++made;
            return std::string(1000, 'x');
        };
        logTrace(LogCategory::Net, text);
        logDebug(LogCategory::Cloud, text);
        logInfo(LogCategory::Probe, text);
        QCOMPARE(made, 0);
        QVERIFY(capture.lines().empty());
        logDebug(LogCategory::Net, text);
        QCOMPARE(made, 1);
        QCOMPARE(capture.lines().size(), std::size_t(1));
    }

    void registeredSecretsNeverReachTheSink_data()
    {
        QTest::addColumn<QString>("secret");
        QTest::addColumn<QString>("line"); // %1 is where the secret goes, in the form the row names
        QTest::addColumn<QString>("form"); // raw, url, json, line

        const QString awsLike = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYLOGTESTKEY";
        QTest::newRow("exact") << awsLike << "%1"
                               << "raw";
        QTest::newRow("inside other text") << awsLike << "the key is%1and that was it"
                                           << "raw";
        QTest::newRow("twice") << awsLike << "%1 then %1"
                               << "raw";
        QTest::newRow("inside a URL") << awsLike << "> GET https://example.com/x?key=%1&Action=Describe"
                                      << "url";
        QTest::newRow("inside JSON") << "pass\"word\\with/quotes and\ttab"
                                     << "{\"note\": \"%1\", \"n\": 1}"
                                     << "json";
        QTest::newRow("a passphrase with spaces") << "a passphrase for the log tests"
                                                  << "got \"%1\" from the env"
                                                  << "raw";
        QTest::newRow("one line of a multi-line secret")
            << "-----BEGIN OPENSSH PRIVATE "
               "KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE\nbm9uZQAAAAAAAAABAAAAMwAAAAtz\n"
               "-----END OPENSSH PRIVATE KEY-----\n"
            << "read: bm9uZQAAAAAAAAABAAAAMwAAAAtz (line 3)"
            << "line";
    }
    void registeredSecretsNeverReachTheSink()
    {
        QFETCH(QString, secret);
        QFETCH(QString, line);
        QFETCH(QString, form);
        const std::string raw = secret.toStdString();
        std::string shown = raw;
        if (form == "url") {
            shown = percentEncoded(raw);
        } else if (form == "json") {
            shown = QJsonValueToString(secret);
        }
        registerSecret(raw);
        std::string text = line.toStdString();
        for (std::size_t at = text.find("%1"); at != std::string::npos; at = text.find("%1", at + shown.size())) {
            text.replace(at, 2, shown);
        }
        const std::string log = logged(text);
        QVERIFY(!log.empty());
        QVERIFY2(log.find(raw) == std::string::npos, foundAt(log, raw));
        if (form != "line") {
            QVERIFY2(log.find(shown) == std::string::npos, foundAt(log, shown));
            QVERIFY2(log.find("[redacted]") != std::string::npos, "the secret's place is marked");
        } else {
            QVERIFY2(log.find("bm9uZQAAAAAAAAABAAAAMwAAAAtz") == std::string::npos,
                     foundAt(log, "bm9uZQAAAAAAAAABAAAAMwAAAAtz"));
            QVERIFY(log.find("(line 3)") != std::string::npos);
        }
        unregisterSecret(raw);
    }

    void unregisteringShowsTheTextAgain()
    {
        const std::size_t before = registeredSecretCount();
        const std::string value = "not-a-secret-any-more-123";
        registerSecret(value);
        registerSecret(value); // once is enough
        QCOMPARE(registeredSecretCount(), before + 1);
        QVERIFY(logged("x " + value).find(value) == std::string::npos);
        unregisterSecret(value);
        QCOMPARE(registeredSecretCount(), before);
        QVERIFY(logged("x " + value).find(value) != std::string::npos);
        registerSecret("");
        QCOMPARE(registeredSecretCount(), before);
    }

    void aCredentialShowsItsKeyIdMaskedAndNoSecret()
    {
        Credential credential("aws");
        credential.set("access_key_id", SecretString("AKIALOGTESTEXAMPLE1"));
        credential.set("secret_access_key", SecretString("LogTestSecretAccessKey/abc+def=123456"));
        registerCredentialSecrets(credential);
        const std::string log = logged("signing with AKIALOGTESTEXAMPLE1 and LogTestSecretAccessKey/abc+def=123456");
        QVERIFY2(log.find("AKIALOGTESTEXAMPLE1") == std::string::npos, foundAt(log, "AKIALOGTESTEXAMPLE1"));
        QVERIFY2(log.find("LogTestSecretAccessKey") == std::string::npos, foundAt(log, "LogTestSecretAccessKey"));
        QVERIFY2(log.find(maskKeyId("AKIALOGTESTEXAMPLE1")) != std::string::npos, log.c_str());
        QVERIFY2(log.find("[redacted]") != std::string::npos, log.c_str());
    }

    void credentialShapedTextIsRedacted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("hidden"); // must not be in the log
        QTest::addColumn<QString>("kept");   // must still be there

        QTest::newRow("Authorization header")
            << "> Authorization: AWS4-HMAC-SHA256 Credential=AKIDHDR/20260101/us-east-1/ec2/aws4_request, "
               "SignedHeaders=host;x-amz-date, Signature=0123456789abcdef0123456789abcdef"
            << "0123456789abcdef0123456789abcdef"
            << "> Authorization: [redacted]";
        QTest::newRow("a header line already redacted stays as it is") << "> Authorization: [redacted]"
                                                                       << ""
                                                                       << "> Authorization: [redacted]";
        QTest::newRow("signature and credential in free text")
            << "signed: Credential=AKIDFREE/20260101/ap-guangzhou/cvm/tc3_request, Signature=fedcba9876543210"
            << "fedcba9876543210"
            << "signed: ";
        QTest::newRow("credential in free text") << "Credential=AKIDFREE/20260101/x, Signature=ab"
                                                 << "AKIDFREE"
                                                 << "Credential=[redacted]";
        QTest::newRow("security token header") << "X-Amz-Security-Token: FQoGZXIvYXdzEXAMPLETOKEN"
                                               << "FQoGZXIvYXdzEXAMPLETOKEN"
                                               << "X-Amz-Security-Token: [redacted]";
        QTest::newRow("tencent token header") << "X-TC-Token: TCEXAMPLETOKEN"
                                              << "TCEXAMPLETOKEN"
                                              << "X-TC-Token:";
        QTest::newRow("bearer") << "sent Bearer ya29.a0AfH6SMBexample to it"
                                << "ya29.a0AfH6SMBexample"
                                << "to it";
        QTest::newRow("presigned URL") << "GET https://s3.example.com/o?X-Amz-Signature=abc123def&x=1"
                                       << "abc123def"
                                       << "x=1";
        QTest::newRow("JSON password") << "{\"password\": \"hunter2hunter2\", \"user\": \"me\"}"
                                       << "hunter2hunter2"
                                       << "\"user\": \"me\"";
        QTest::newRow("JSON private key") << "{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg\"}"
                                          << "MIIEvQIBADANBg"
                                          << "private_key";
        QTest::newRow("PEM private key")
            << "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAlogtest\nabcdefgh\n-----END RSA PRIVATE "
               "KEY-----\nafter"
            << "MIIEpAIBAAKCAQEAlogtest"
            << "after";
        QTest::newRow("PEM private key cut short") << "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"
                                                   << "b3BlbnNzaC1rZXktdjEAAAAA"
                                                   << "PRIVATE KEY";
        QTest::newRow("a certificate is not secret")
            << "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBg\n-----END CERTIFICATE-----"
            << ""
            << "MIIDdzCCAl+gAwIBAgIEAgAAuTANBg";
    }
    void credentialShapedTextIsRedacted()
    {
        QFETCH(QString, text);
        QFETCH(QString, hidden);
        QFETCH(QString, kept);
        const std::string log = logged(text.toStdString());
        if (!hidden.isEmpty()) {
            QVERIFY2(log.find(hidden.toStdString()) == std::string::npos, foundAt(log, hidden.toStdString()));
        }
        QVERIFY2(log.find(kept.toStdString()) != std::string::npos, log.c_str());
        QCOMPARE(redactedHeader("Authorization", "Bearer x"), std::string("[redacted]"));
        QCOMPARE(redactedHeader("X-Goog-Signature", "x"), std::string("[redacted]"));
        QCOMPARE(redactedHeader("Content-Type", "text/plain"), std::string("text/plain"));
    }

    void aLongLineIsCutAfterItsSecretsAreGone()
    {
        const std::string secret = "long-line-secret-0123456789";
        registerSecret(secret);
        // Across the cut: cutting first would leave the secret's start.
        const std::string text = std::string(8185, 'a') + secret + "{\"password\": \"" + std::string(50000, 'b');
        const std::string log = logged(text);
        unregisterSecret(secret);
        QVERIFY2(log.find(secret.substr(0, 7)) == std::string::npos, foundAt(log, secret.substr(0, 7)));
        QVERIFY(log.size() < 9000);
        QVERIFY2(log.find("bytes more)") != std::string::npos, log.substr(log.size() - 100).c_str());
    }

    void aSinkThatLogsIsNotReentered()
    {
        LogCapture outer(LogLevel::Info);
        int calls = 0;
        LogSink previous = setLogSink([&calls](LogLevel, LogCategory, std::string_view) {
            ++calls;
            logInfo(LogCategory::App, "from inside the sink"); // dropped, no deadlock
        });
        logInfo(LogCategory::App, "once");
        QCOMPARE(calls, 1);
        setLogSink(std::move(previous));
    }

private:
    static std::string QJsonValueToString(const QString& value)
    {
        // JSON-escaped as a serializer writes it: quote, backslash and tab escaped; the slash left alone.
        std::string out;
        for (char c : value.toStdString()) {
            switch (c) {
                case '"':
                    out += "\\\"";
                    break;
                case '\\':
                    out += "\\\\";
                    break;
                case '\t':
                    out += "\\t";
                    break;
                default:
                    out.push_back(c);
            }
        }
        return out;
    }
};

QTEST_GUILESS_MAIN(TestLog)
#include "TestLog.moc"
