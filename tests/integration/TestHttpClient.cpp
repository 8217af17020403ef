// HttpClient against tests/integration/fault_server.py, a fake server for the faults a real one will not
// produce on demand (429, 503, resets, stalls, truncation, throttling codes, a skewed clock), its TLS twin
// with a certificate made for the test, and a fake proxy. Nothing leaves loopback.
#include "../support/LogCapture.h"
#include "gpuplan/net/HttpClient.h"
#include "gpuplan/net/signers/AwsSigV4.h"
#include "gpuplan/net/signers/TencentTc3.h"

#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <fstream>
#include <memory>
#include <thread>

using namespace gpuplan::core;
using namespace std::chrono_literals;
using nlohmann::json;

class TestHttpClient : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QProcess m_server;
    int m_http = 0;
    int m_https = 0;
    int m_proxy = 0;
    std::vector<std::chrono::milliseconds> m_waits;

    std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(m_http) + path; }

    /// A client whose waits between attempts are recorded, not slept.
    std::unique_ptr<HttpClient> client(HttpOptions options = {})
    {
        auto c = std::make_unique<HttpClient>(std::move(options));
        c->setSleeper([this](std::chrono::milliseconds d) { m_waits.push_back(d); });
        return c;
    }

    int hits(const std::string& path, const std::string& id)
    {
        HttpRequest r;
        r.url = url("/hits?path=" + path + "&id=" + id);
        Result<HttpResponse> response = HttpClient().send(r);
        return response ? json::parse(response->body, nullptr, false).value("hits", -1) : -1;
    }

private slots:
    void initTestCase()
    {
        qunsetenv("http_proxy");
        qunsetenv("https_proxy");
        qunsetenv("HTTP_PROXY");
        qunsetenv("HTTPS_PROXY");
        qunsetenv("all_proxy");
        QVERIFY(m_dir.isValid());
        // A certificate for 127.0.0.1 that no system store trusts.
        const QString cert = m_dir.filePath(QStringLiteral("cert.pem"));
        const QString key = m_dir.filePath(QStringLiteral("key.pem"));
        QProcess openssl;
        openssl.setStandardOutputFile(QProcess::nullDevice());
        openssl.setStandardErrorFile(QProcess::nullDevice());
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"),
                       QStringLiteral("-x509"),
                       QStringLiteral("-newkey"),
                       QStringLiteral("rsa:2048"),
                       QStringLiteral("-nodes"),
                       QStringLiteral("-keyout"),
                       key,
                       QStringLiteral("-out"),
                       cert,
                       QStringLiteral("-days"),
                       QStringLiteral("1"),
                       QStringLiteral("-subj"),
                       QStringLiteral("/CN=GPU Planner test CA"),
                       QStringLiteral("-addext"),
                       QStringLiteral("subjectAltName=IP:127.0.0.1")});
        QVERIFY(openssl.waitForFinished(30000));
        QCOMPARE(openssl.exitCode(), 0);
        m_server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_server.start(QStringLiteral("python3"),
                       {QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/fault_server.py"),
                        QStringLiteral("--cert"),
                        cert,
                        QStringLiteral("--key"),
                        key});
        QVERIFY(m_server.waitForStarted());
        QVERIFY(m_server.waitForReadyRead(10000));
        const json ports = json::parse(m_server.readLine().toStdString(), nullptr, false);
        QVERIFY(ports.is_object());
        m_http = ports["http"];
        m_https = ports["https"];
        m_proxy = ports["proxy"];
    }

    void cleanupTestCase()
    {
        m_server.closeWriteChannel();
        if (!m_server.waitForFinished(3000)) {
            m_server.kill();
        }
    }

    void init() { m_waits.clear(); }

    void sendsExactlyTheSignedRequest()
    {
        HttpRequest r;
        r.method = "POST";
        r.url = url("/ok?a=1");
        r.headers = {{"Content-Type", "application/json"}, {"X-TC-Action", "DescribeInstances"}};
        r.body = "{\"Limit\":1}";
        Result<HttpResponse> response = client()->send(r);
        QVERIFY(response.ok());
        QCOMPARE(response->status, 200);
        const json echo = json::parse(response->body);
        QCOMPARE(echo["method"].get<std::string>(), std::string("POST"));
        QCOMPARE(echo["body"].get<std::string>(), r.body);
        QCOMPARE(echo["headers"]["X-TC-Action"].get<std::string>(), std::string("DescribeInstances"));
        QCOMPARE(echo["headers"]["Content-Type"].get<std::string>(), std::string("application/json"));
        QVERIFY(!echo["headers"].contains("Expect")); // nothing curl would add that the signature did not cover
    }

    void retryAfterIsFollowed()
    {
        HttpRequest r;
        r.url = url("/429?id=after&n=1&after=2");
        r.safeToRetry = true;
        Result<HttpResponse> response = client()->send(r);
        QVERIFY(response.ok());
        QCOMPARE(response->status, 200);
        QCOMPARE(m_waits.size(), std::size_t(1));
        QCOMPARE(m_waits[0], std::chrono::milliseconds(2000)); // the server's Retry-After, not our backoff
        QCOMPARE(hits("/429", "after"), 2);
    }

    void serviceUnavailableIsRetriedWithGrowingBackoff()
    {
        HttpOptions options;
        options.retry.baseDelay = 400ms;
        HttpRequest r;
        r.url = url("/503?id=backoff&n=3");
        r.safeToRetry = true;
        Result<HttpResponse> response = client(options)->send(r);
        QVERIFY(response.ok());
        QCOMPARE(response->status, 200);
        QCOMPARE(m_waits.size(), std::size_t(3));
        // Full jitter within a cap that doubles: [200, 400], [400, 800], [800, 1600] ms.
        for (std::size_t i = 0; i < m_waits.size(); ++i) {
            const auto cap = 400ms * (1 << i);
            QVERIFY2(m_waits[i] >= cap / 2 && m_waits[i] <= cap, qPrintable(QString::number(m_waits[i].count())));
        }
        // When the attempts run out, the last answer is returned as it is.
        HttpOptions two;
        two.retry.maxAttempts = 2;
        r.url = url("/503?id=exhausted&n=9");
        Result<HttpResponse> last = client(two)->send(r);
        QVERIFY(last.ok());
        QCOMPARE(last->status, 503);
        QCOMPARE(hits("/503", "exhausted"), 2);
    }

    void resetConnectionIsRetried()
    {
        HttpRequest r;
        r.url = url("/reset?id=reset&n=1");
        r.safeToRetry = true;
        Result<HttpResponse> response = client()->send(r);
        QVERIFY2(response.ok(), response ? "" : describe(response.error()).c_str());
        QCOMPARE(response->status, 200);
        QCOMPARE(hits("/reset", "reset"), 2);
    }

    void requestThatIsNotSafeIsNeverRetriedBlind()
    {
        HttpRequest r;
        r.method = "POST";
        r.body = "Action=RunInstances";
        r.url = url("/503?id=launch&n=1");
        r.safeToRetry = false; // a launch without an idempotency token
        Result<HttpResponse> response = client()->send(r);
        QVERIFY(response.ok());
        QCOMPARE(response->status, 503);
        QCOMPARE(hits("/503", "launch"), 1);
        QVERIFY(m_waits.empty());

        r.url = url("/reset?id=launch&n=1");
        Result<HttpResponse> reset = client()->send(r);
        QVERIFY(!reset.ok());
        QCOMPARE(reset.error().code, ErrorCode::Network);
        QVERIFY2(reset.error().reason.key == "error.net.unreachable", describe(reset.error()).c_str());
        QCOMPARE(reset.error().reason.params.count("not_retried"), std::size_t(1));
        QCOMPARE(reset.error().reason.params.count("attempts"), std::size_t(0));
        QCOMPARE(hits("/reset", "launch"), 1);
    }

    void stalledBodyTimesOut()
    {
        HttpOptions options;
        options.lowSpeedBytesPerSecond = 100;
        options.lowSpeedTime = 2s;
        HttpRequest r;
        r.url = url("/stall?id=stall&seconds=20");
        const auto start = std::chrono::steady_clock::now();
        Result<HttpResponse> response = client(options)->send(r);
        QVERIFY(!response.ok());
        QCOMPARE(response.error().code, ErrorCode::Timeout);
        QVERIFY(std::chrono::steady_clock::now() - start < 15s); // the low-speed limit, not the server, ended it
        QVERIFY2(response.error().reason.key == "error.net.timeout", describe(response.error()).c_str());
        QCOMPARE(response.error().reason.params.at("host"), "127.0.0.1:" + std::to_string(m_http));
        QCOMPARE(response.error().where, "127.0.0.1:" + std::to_string(m_http));
    }

    void truncatedBodyIsAnErrorOrRetried()
    {
        HttpRequest r;
        r.url = url("/truncated?id=cut&n=9");
        Result<HttpResponse> response = client()->send(r);
        QVERIFY(!response.ok());
        QCOMPARE(response.error().code, ErrorCode::Network);
        QVERIFY2(response.error().reason.key == "error.net.partial_answer", describe(response.error()).c_str());
        QVERIFY(!response.error().reason.params.at("said").empty()); // libcurl's own words travel along
        r.url = url("/truncated?id=cut-once&n=1");
        r.safeToRetry = true;
        Result<HttpResponse> again = client()->send(r);
        QVERIFY(again.ok());
        QCOMPARE(again->status, 200);
    }

    void throttlingCodeInAnOkAnswerIsRetried()
    {
        HttpRequest r;
        r.method = "POST";
        r.url = url("/tencent-throttle?id=tc&n=1");
        r.safeToRetry = true; // DescribeInstances: a read
        Result<HttpResponse> response = client()->send(r);
        QVERIFY(response.ok());
        QVERIFY2(response->body.find("\"done\"") != std::string::npos, response->body.c_str());
        QCOMPARE(m_waits.size(), std::size_t(1));
    }

    void untrustedCertificateIsRefusedWithAClearMessage()
    {
        HttpRequest r;
        r.url = "https://127.0.0.1:" + std::to_string(m_https) + "/ok";
        r.safeToRetry = true;
        Result<HttpResponse> response = client()->send(r);
        QVERIFY(!response.ok());
        QCOMPARE(response.error().code, ErrorCode::TlsVerification);
        QVERIFY2(response.error().reason.key == "error.net.tls_untrusted", describe(response.error()).c_str());
        QCOMPARE(response.error().reason.params.at("host"), "127.0.0.1:" + std::to_string(m_https));
        QVERIFY(m_waits.empty()); // a certificate does not get better by asking again
    }

    void extraCaIsTrustedBesideTheSystemOnes()
    {
        HttpOptions options;
        options.extraCaFile = m_dir.filePath(QStringLiteral("cert.pem")).toStdString();
        HttpRequest r;
        r.url = "https://127.0.0.1:" + std::to_string(m_https) + "/ok";
        Result<HttpResponse> response = client(options)->send(r);
        QVERIFY2(response.ok(), response ? "" : describe(response.error()).c_str());
        QCOMPARE(response->status, 200);
    }

    void proxyCarriesTheRequest()
    {
        HttpOptions options;
        options.proxy = "http://127.0.0.1:" + std::to_string(m_proxy);
        HttpRequest r;
        r.url = "http://cvm.tencentcloudapi.example/ok"; // never resolved: the proxy answers
        Result<HttpResponse> response = client(options)->send(r);
        QVERIFY2(response.ok(), response ? "" : describe(response.error()).c_str());
        QCOMPARE(response->header("X-Fake-Proxy").value_or(""), std::string("yes"));
        QCOMPARE(json::parse(response->body)["proxied"].get<std::string>(), r.url);
    }

    // Finding 10: a server that never stops sending is cut off at the cap, with a message that says so.
    void anEndlessAnswerIsCutOffAtTheCap()
    {
        HttpOptions options;
        options.maxResponseBytes = 4u << 20;
        HttpRequest r;
        r.url = url("/endless?mb=64");
        Result<HttpResponse> response = client(options)->send(r);
        QVERIFY(!response.ok());
        QVERIFY2(response.error().reason.key == "error.net.answer_too_large", describe(response.error()).c_str());
        QCOMPARE(response.error().reason.params.at("mib"), std::string("4"));
        QCOMPARE(response.error().code, ErrorCode::Network);
        r.url = url("/endless?mb=2"); // under the cap: read whole
        Result<HttpResponse> small = client(options)->send(r);
        QVERIFY(small.ok());
        QCOMPARE(small->body.size(), std::size_t(2) << 20);
    }

    void aDownloadGoesToItsFileWithProgress()
    {
        QTemporaryDir dir;
        const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "offer.json";
        std::vector<std::uint64_t> seen;
        std::uint64_t announced = 0;
        HttpOptions options;
        options.maxResponseBytes = 1u << 20; // the cap is for answers kept in memory, not for downloads
        HttpRequest r;
        r.url = url("/file?mb=8");
        r.saveBodyTo = file;
        r.onProgress = [&](std::uint64_t received, std::uint64_t expected) {
            seen.push_back(received);
            announced = expected;
            return true;
        };
        Result<HttpResponse> response = client(options)->send(r);
        QVERIFY2(response.ok(), response.ok() ? "" : describe(response.error()).c_str());
        QCOMPARE(response->status, 200);
        QVERIFY(response->body.empty());
        QCOMPARE(std::filesystem::file_size(file), std::uintmax_t(8) << 20);
        std::ifstream in(file, std::ios::binary);
        const std::string bytes{std::istreambuf_iterator<char>(in), {}};
        for (std::size_t i : {std::size_t(0), std::size_t(250), std::size_t(251), std::size_t(5'000'000)}) {
            QCOMPARE(int(static_cast<unsigned char>(bytes[i])), int(i % 251));
        }
        QVERIFY(!seen.empty() && std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), std::uint64_t(8) << 20);
        QCOMPARE(announced, std::uint64_t(8) << 20);

        // Refused through the progress callback: cancelled.
        r.onProgress = [](std::uint64_t received, std::uint64_t) { return received < (1u << 20); };
        Result<HttpResponse> cancelled = client(options)->send(r);
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);

        // An error answer stays in memory, where its words can be read.
        r.url = url("/no-such-thing");
        r.onProgress = {};
        Result<HttpResponse> missing = client(options)->send(r);
        QVERIFY(missing.ok());
        QCOMPARE(missing->status, 404);
        QCOMPARE(missing->body, std::string("no such fault"));

        // Cut short and retried: the file holds the whole second answer, not the first one's start.
        r.url = url("/truncated?id=download&n=1");
        r.safeToRetry = true;
        Result<HttpResponse> again = client(options)->send(r);
        QVERIFY(again.ok());
        std::ifstream second(file, std::ios::binary);
        const std::string text{std::istreambuf_iterator<char>(second), {}};
        QVERIFY2(text.starts_with("{\"method\": \"GET\""), text.c_str());
    }

    void cancelStopsARunningRequest()
    {
        CancelToken cancel;
        std::thread later([&cancel] {
            std::this_thread::sleep_for(300ms);
            cancel.cancel();
        });
        HttpRequest r;
        r.url = url("/stall?id=cancel&seconds=20");
        const auto start = std::chrono::steady_clock::now();
        Result<HttpResponse> response = client()->send(r, &cancel);
        later.join();
        QVERIFY(!response.ok());
        QCOMPARE(response.error().code, ErrorCode::Cancelled);
        QVERIFY(std::chrono::steady_clock::now() - start < 10s);
    }

    void serverDateShowsClockSkewInPlainWords()
    {
        auto c = client();
        HttpRequest r;
        r.url = url("/skew?offset=-420"); // the server is 7 minutes behind: our clock is fast
        QVERIFY(c->send(r).ok());
        QVERIFY(c->clockOffset().has_value());
        QVERIFY2(std::abs(c->clockOffset()->count() + 420) <= 2,
                 qPrintable(QString::number(c->clockOffset()->count())));
        // Worded "your clock is 7 minutes fast; Tencent Cloud allows 5: ..." (ui/wording/errors/NetErrors.cpp).
        const std::optional<Reason> skew = clockSkewReason(*c->clockOffset(), 5min, "Tencent Cloud");
        QVERIFY(skew.has_value());
        QCOMPARE(skew->key, std::string("error.net.clock_fast"));
        QCOMPARE(skew->params.at("minutes"), std::string("7"));
        QCOMPARE(skew->params.at("provider"), std::string("Tencent Cloud"));
        QCOMPARE(skew->params.at("allowed_minutes"), std::string("5"));
        QVERIFY(!clockSkewReason(120s, 5min, "Tencent Cloud").has_value());
        QVERIFY(
            *clockSkewReason(3600s, 15min, "AWS")
            == (Reason{"error.net.clock_slow", {{"minutes", "60"}, {"provider", "AWS"}, {"allowed_minutes", "15"}}}));
    }

    /// Where `needle` is in `haystack`, as text for a failed assertion: never the needle itself (it is a secret).
    static std::string foundAt(const std::string& haystack, const std::string& needle)
    {
        return "a secret of " + std::to_string(needle.size()) + " characters is in the log at offset "
               + std::to_string(haystack.find(needle)) + " of " + std::to_string(haystack.size());
    }

    void debugLogRedactsCredentials()
    {
        // The net category at trace: request and answer lines, headers and bodies.
        const std::string secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
        const std::string token = "ya29.a0AfH6SMBexampletoken";
        gpuplan::testing::LogCapture capture(LogSettings{LogLevel::Off, {}});
        setLogSettings(parseLogSpec("net=trace").settings);
        HttpRequest r;
        r.method = "POST";
        r.url = url("/ok?X-Amz-Signature=abcdef0123&Action=DescribeInstances");
        r.headers = {{"Authorization", "Bearer " + token},
                     {"X-Amz-Security-Token", token},
                     {"Content-Type", "application/x-www-form-urlencoded"}};
        r.body = "grant_type=client_credentials&client_secret=" + secret + "&scope=x";
        Result<HttpResponse> response = client()->send(r);
        QVERIFY(response.ok());
        const std::vector<gpuplan::testing::LogCapture::Line> lines = capture.lines();
        QVERIFY(lines.size() > 4);
        for (const gpuplan::testing::LogCapture::Line& line : lines) {
            QCOMPARE(line.category, LogCategory::Net);
        }
        const std::string all = capture.text();
        // The echo server sends the secret back in its body: the log must hide it there too.
        QVERIFY2(all.find(secret) == std::string::npos, foundAt(all, secret).c_str());
        QVERIFY2(all.find(token) == std::string::npos, foundAt(all, token).c_str());
        QVERIFY(all.find("abcdef0123") == std::string::npos);
        QVERIFY2(all.find("> POST ") != std::string::npos && all.find("< 200") != std::string::npos, all.c_str());
        QVERIFY(all.find("Action=DescribeInstances") != std::string::npos); // the rest is still useful
        QVERIFY(all.find("Content-Type: application/x-www-form-urlencoded") != std::string::npos);
        QCOMPARE(redactedHeader("X-TC-Token", "t"), std::string("[redacted]"));
        QCOMPARE(redactedHeader("Content-Type", "application/json"), std::string("application/json"));
        QCOMPARE(redactedText("{\"access_token\": \"abc\", \"expires_in\": 3599}"),
                 std::string("{\"access_token\": \"[redacted]\", \"expires_in\": 3599}"));

        // At debug only the request and status lines; quiet (the default) nothing at all.
        capture.clear();
        setLogSettings(parseLogSpec("net=debug").settings);
        QVERIFY(client()->send(r).ok());
        QCOMPARE(capture.lines().size(), std::size_t(2));
        capture.clear();
        setLogSettings(LogSettings{});
        QVERIFY(client()->send(r).ok());
        QVERIFY2(capture.lines().empty(), capture.text().c_str());
    }

    void signedRequestLeavesNoSecretInTheLog()
    {
        // A signed EC2 call and a signed Tencent call, with temporary credentials, through the net log at trace.
        const AccessKey aws{
            "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "FQoGZXIvYXdzEXAMPLESESSIONTOKEN"};
        const AccessKey tencent{
            "AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE", "Gu5t9xGARNpq86cd98joQYCN3EXAMPLE", "TENCENTEXAMPLESESSIONTOKEN"};
        gpuplan::testing::LogCapture capture(LogSettings{LogLevel::Off, {}});
        setLogSettings(parseLogSpec("net=trace").settings);
        auto c = client();

        HttpRequest ec2;
        ec2.method = "POST";
        ec2.url = url("/ok");
        ec2.headers = {{"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}};
        ec2.body = "Action=DescribeInstances&Version=2016-11-15";
        QVERIFY(signAwsV4(ec2, aws, {"us-east-1", "ec2"}, utcTime("2026-12-03T10:00:00Z")).ok());
        QVERIFY(c->send(ec2).ok());

        HttpRequest cvm;
        cvm.method = "POST";
        cvm.url = url("/ok");
        cvm.headers = {{"Content-Type", "application/json"}, {"X-TC-Action", "DescribeInstances"}};
        cvm.body = "{}";
        QVERIFY(signTencentTc3(cvm, tencent, "cvm", utcTime("2026-12-03T10:00:00Z")).ok());
        QVERIFY(c->send(cvm).ok());

        const std::string log = capture.text();
        QVERIFY(log.find("Authorization: [redacted]") != std::string::npos);
        QVERIFY(log.find("X-TC-Action: DescribeInstances") != std::string::npos);
        for (const std::string& secret : {aws.secret, aws.sessionToken, tencent.secret, tencent.sessionToken}) {
            QVERIFY2(log.find(secret) == std::string::npos, foundAt(log, secret).c_str());
        }
        // Nor the signatures, which would let a reader replay the request.
        for (const HttpRequest* signedRequest : {&ec2, &cvm}) {
            const std::string authorization = *signedRequest->header("Authorization");
            const std::string signature = authorization.substr(authorization.rfind('=') + 1);
            QVERIFY(signature.size() == 64);
            QVERIFY2(log.find(signature) == std::string::npos, foundAt(log, signature).c_str());
        }
    }

    void badUrlIsNamed()
    {
        HttpRequest r;
        r.url = "ftp://example.com/file";
        Result<HttpResponse> response = client()->send(r);
        QVERIFY(!response.ok());
        QCOMPARE(response.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(response.error().reason.key, std::string("error.net.url_scheme_not_http"));
        QCOMPARE(response.error().reason.params.at("url"), std::string("ftp://example.com/file"));
        QVERIFY(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT").has_value());
        QVERIFY(!parseHttpDate("yesterday").has_value());
    }
};

QTEST_GUILESS_MAIN(TestHttpClient)
#include "TestHttpClient.moc"
