// Wire conformance of the Vertex AI job service with the official Node SDKs: @google-cloud/aiplatform 6.11.0
// (v1.JobServiceClient, google-gax 5 REST fallback), @google-cloud/logging 11.4.0 (v2.LoggingServiceV2Client,
// google-gax 4 REST fallback, which runs on Node 18) and google-auth-library 10.9.1 (the service account's JWT client).
// This test drives our service (makeVertexJobs) through one sequence: the token; a launch whose job is found by its
// token label (customJobs.list with the label filter, nothing created); a Spot launch on N1 + 2 x T4 with tags,
// command, environment and a timeout, whose label finds nothing (customJobs.list, then customJobs.create); describe
// (customJobs.get); listOurs over two pages (customJobs.list with the label's presence, then its pageToken); terminate
// (customJobs.cancel); and two log pages (entries:list from the start, then after the first page's cursor). A recording
// transport answers each request with a canned answer (tests/data/cloud/vertex, README there, adapted to the sequence);
// tests/integration/sdk/vertex-wire.js sends the same operations with the same inputs and answers through the SDKs to a
// loopback capture server. Each pair of requests is compared:
//  - method and path (ours as sent to Google's endpoints: /v1/... of {region}-aiplatform.googleapis.com,
//  /v2/entries:list
//    of logging.googleapis.com; the SDK's to the capture server);
//  - every query parameter, decoded, by name and value;
//  - the JSON body, parsed: every member by its path, with its type (an int64 is a JSON string: "1" is not 1);
//  - the token request's form: grant_type, and the assertion's header and claims (decoded, member by member);
//  - Authorization (the Bearer token the canned answer gave) and, for a request with a body, Content-Type; and the set
//    of header names.
//
// What is not compared and why: headers the transports add that the APIs do not need (x-goog-api-client: the SDK's and
// Node's versions; x-goog-request-params: gax's routing header, a copy of the path's parent or name; user-agent,
// accept, accept-encoding, connection, content-length, host: the SDK is pointed at 127.0.0.1). The query parameter
// "$alt" (gax asks "json;enum-encoding=int": answers with enums as numbers; we take the default, enums as names, which
// our parser reads). Enums in the SDK's create body are numbers for the same reason (acceleratorType,
// scheduling.strategy): they are turned back into names with the SDK's protos before the comparison (enumNamesOf).
// Content-Type on a request without a body (the SDK's REST transport sends "application/json" on every request).
// Members the SDK's JSON writer adds as empty maps or lists where we send nothing (webAccessUris {}: the proto3 JSON
// mapping reads them as absent). The token request's Content-Type parameters (";charset=UTF-8") and the assertion's
// signature, as in TestGceWire. Authorization: JobServiceClient sets useJWTAccessWithScope, which makes the SDK send a
// self-signed JWT as its bearer token instead of exchanging it at the token endpoint; vertex-wire.js switches that off,
// so that both sides exchange the assertion for the access token (the flow GPU Planner uses, as for Compute Engine) and
// the token requests are compared too. Cloud Logging's entries:list goes through @google-cloud/logging's REST fallback
// (checked here on the Node this machine has; the script uses nothing newer than Node 18 has). Anything else on one
// side only, or with another value, fails, naming the operation and the header, parameter or body member. Without node
// or the SDK packages (tests/integration/sdk/setup.sh) the test fails.

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QDebug>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>
#include <QTest>

#include "gpuplan/cloud/ManagedJobService.h"
#include "gpuplan/cloud/providers/gcp/GcpProvider.h"
#include "gpuplan/cloud/providers/gcp/VertexApi.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

#include "../support/RecordingTransport.h"
#include "../support/WireCompare.h"

using namespace gpuplan::core;
using gpuplan::testing::compareHeaderNames;
using gpuplan::testing::compareHeaderValues;
using gpuplan::testing::compareJsonBodies;
using gpuplan::testing::compareJwtBearerForm;
using gpuplan::testing::compareParameters;
using gpuplan::testing::decodedQuery;
using gpuplan::testing::ourHeadersOf;
using gpuplan::testing::readFile;
using gpuplan::testing::RecordingTransport;
using gpuplan::testing::sdkHeadersOf;
using nlohmann::json;

namespace {

const std::string kTime = "2026-12-02T18:00:00Z";
const std::string kEmail = "gpuplanner@my-project.iam.gserviceaccount.com";
const std::string kProject = "my-project";
const std::string kRegion = "us-central1";
const std::string kToken = "ya29.c.wire-test-access-token";
const std::string kToken1 = "gpuplan-0123456789abcdef01234567"; // the job of job_queued.json: found by its label
const std::string kToken2 = "gpuplan-89abcdef0123456789abcdef"; // submitted
const std::string kJobId = "5748151291136212992";
const std::string kImage = "us-docker.pkg.dev/deeplearning-platform-release/gcr.io/pytorch-cu121.2-2.py310";

const std::set<std::string> kNotComparedHeaders = {"x-goog-api-client",
                                                   "x-goog-request-params",
                                                   "user-agent",
                                                   "accept",
                                                   "accept-encoding",
                                                   "connection",
                                                   "content-length",
                                                   "host"};

json fixture(const std::string& name)
{
    return json::parse(readFile(GPUPLAN_SOURCE_DIR "/tests/data/cloud/vertex/" + name), nullptr, false);
}

const gpuplan::testing::JsonCompareRules kBodyRules{false, true};

// The SDK's REST transport writes enums as their numbers ("$alt=json;enum-encoding=int"); the proto3 JSON mapping takes
// the name or the number alike. The numbers of the enums a create carries, from the SDK's protos (build/protos/google/
// cloud/aiplatform/v1/accelerator_type.proto AcceleratorType, custom_job.proto Scheduling.Strategy), turned back into
// names before the bodies are compared.
void enumNamesOf(json& sdkBody)
{
    static const std::map<int, std::string> accelerators = {{2, "NVIDIA_TESLA_P100"},
                                                            {3, "NVIDIA_TESLA_V100"},
                                                            {4, "NVIDIA_TESLA_P4"},
                                                            {5, "NVIDIA_TESLA_T4"},
                                                            {8, "NVIDIA_TESLA_A100"},
                                                            {9, "NVIDIA_A100_80GB"},
                                                            {11, "NVIDIA_L4"},
                                                            {13, "NVIDIA_H100_80GB"},
                                                            {15, "NVIDIA_H200_141GB"}};
    static const std::map<int, std::string> strategies = {{3, "STANDARD"}, {4, "SPOT"}, {6, "FLEX_START"}};
    const auto name = [](json& value, const std::map<int, std::string>& names) {
        if (value.is_number_integer() && names.count(value.get<int>())) {
            value = names.at(value.get<int>());
        }
    };
    json& spec = sdkBody["jobSpec"];
    if (spec.is_object() && spec["workerPoolSpecs"].is_array()) {
        for (json& pool : spec["workerPoolSpecs"]) {
            if (pool["machineSpec"].is_object() && pool["machineSpec"].contains("acceleratorType")) {
                name(pool["machineSpec"]["acceleratorType"], accelerators);
            }
        }
    }
    if (spec.is_object() && spec.contains("scheduling") && spec["scheduling"].contains("strategy")) {
        name(spec["scheduling"]["strategy"], strategies);
    }
}

} // namespace

class TestVertexWire : public QObject
{
    Q_OBJECT

private slots:
    void requestsMatchTheSdk()
    {
        const QString sdk = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/sdk");
        const QString node = QStandardPaths::findExecutable("node");
        if (node.isEmpty()) {
            QFAIL("node is not installed: the wire test needs it to run @google-cloud/aiplatform");
        }
        for (const char* package : {"@google-cloud/aiplatform", "@google-cloud/logging", "google-auth-library"}) {
            if (!QFileInfo::exists(sdk + "/node_modules/" + package + "/package.json")) {
                QFAIL(
                    qPrintable(QString::fromUtf8(package)
                               + " is not installed: run tests/integration/sdk/setup.sh (npm ci of the pinned SDKs)"));
            }
        }
        const std::string privateKey = readFile(GPUPLAN_SOURCE_DIR "/tests/data/test-service-account-key.pem");
        QVERIFY(!privateKey.empty());
        const std::int64_t now = unixSeconds(utcTime(kTime));

        LaunchRequest first;
        first.region = kRegion;
        first.instanceType = "vertex/g2-standard-8";
        first.clientToken = kToken1;
        first.job = JobSpec{kImage, {"python", "train.py"}, {}};
        LaunchRequest second = first;
        second.instanceType = "vertex/n1-standard-8+2xT4";
        second.pricing = LaunchPricing::Spot;
        second.clientToken = kToken2;
        second.tags = {{"project", "Vision Lab"}, {"owner", "alice@example.edu"}};
        second.terminateAt = now + 2 * 3600 + 17;
        second.job = JobSpec{kImage, {"python", "train.py", "--epochs", "3"}, {{"EPOCHS", "3"}, {"LR", "0.1"}}};

        // ---- The canned answers, adapted.
        const json token = {{"access_token", kToken}, {"expires_in", 3599}, {"token_type", "Bearer"}};
        json foundList = {{"customJobs", json::array({fixture("job_queued.json")})}};
        json created = fixture("job_queued.json");
        created["name"] = "projects/123456789012/locations/us-central1/customJobs/2345678901234567890";
        created["displayName"] = kToken2;
        created["labels"] = {{"gpuplanner-token", kToken2}};
        const json entries = fixture("entries.json");
        for (const json* d : {&foundList, &created}) {
            QVERIFY2(d->is_object(), "a fixture is not JSON");
        }
        RecordingTransport transport("application/json; charset=UTF-8");
        transport.queue("token", token);
        transport.queue("customJobs.list", foundList);
        transport.queue("customJobs.list", json::object());
        transport.queue("customJobs.create", created);
        transport.queue("customJobs.get", fixture("job_running.json"));
        transport.queue("customJobs.list", fixture("list_page1.json"));
        transport.queue("customJobs.list", fixture("list_page2.json"));
        transport.queue("customJobs.cancel", json::object());
        transport.queue("entries.list", entries);
        transport.queue("entries.list", json::object());

        // ---- Our side.
        ProviderContext context;
        context.http = &transport;
        context.key = AccessKey{kEmail, privateKey, {}};
        context.clock = fixedClock(utcTime(kTime));
        context.sleep = [](std::chrono::milliseconds) {};
        auto provider = makeVertexJobs(context);
        auto* jobs = dynamic_cast<ManagedJobService*>(provider.get());
        QVERIFY(jobs);
        for (const LaunchRequest* request : {&first, &second}) {
            auto launched = provider->launch(*request, nullptr);
            QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
        }
        auto described = provider->describe(kRegion, kJobId, nullptr);
        QVERIFY2(described.ok(), described.ok() ? "" : describe(described.error()).c_str());
        auto listed = provider->listOurs(kRegion, nullptr);
        QVERIFY2(listed.ok(), listed.ok() ? "" : describe(listed.error()).c_str());
        QVERIFY(provider->terminate(kRegion, kJobId, nullptr));
        auto page = jobs->logs(kRegion, kJobId, "", nullptr);
        QVERIFY2(page.ok(), page.ok() ? "" : describe(page.error()).c_str());
        auto more = jobs->logs(kRegion, kJobId, page->next, nullptr);
        QVERIFY2(more.ok(), more.ok() ? "" : describe(more.error()).c_str());
        QCOMPARE(transport.requests.size(), transport.script.size());
        const auto cursor = vertex::parseCursor(page->next);
        QVERIFY(cursor);

        // ---- The SDK's side, with the same inputs and answers.
        auto launchInputs = [&](const LaunchRequest& request, bool found) {
            return json{{"clientToken", request.clientToken},
                        {"instanceType", request.instanceType},
                        {"spot", request.pricing == LaunchPricing::Spot},
                        {"tags", request.tags},
                        {"timeoutSeconds", request.terminateAt > 0 ? request.terminateAt - now : 0},
                        {"found", found}};
        };
        json answers = json::array();
        for (const RecordingTransport::Answer& answer : transport.script) {
            answers.push_back({{"label", answer.label}, {"status", answer.status}, {"body", answer.body}});
        }
        const json inputs = {{"time", now},
                             {"clientEmail", kEmail},
                             {"privateKey", privateKey},
                             {"project", kProject},
                             {"region", kRegion},
                             {"image", kImage},
                             {"command", second.job->command},
                             {"env", second.job->environment},
                             {"launches", json::array({launchInputs(first, true), launchInputs(second, false)})},
                             {"jobId", kJobId},
                             {"logCursors", json::array({"", cursor->timestamp})},
                             {"answers", answers}};
        // The first launch's job is found: the SDK's side sends no create for it, so its command is not needed; the
        // second's command and environment are the ones sent.
        QProcess process;
        process.setWorkingDirectory(sdk);
        process.start(node, {QStringLiteral("vertex-wire.js")});
        QVERIFY2(process.waitForStarted(30000), qPrintable(process.errorString()));
        process.write(QByteArray::fromStdString(inputs.dump()));
        process.closeWriteChannel();
        QVERIFY2(process.waitForFinished(120000), "node vertex-wire.js did not finish within 2 minutes");
        const QString stderrText = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, qPrintable(stderrText));
        const std::string printed = process.readAllStandardOutput().toStdString();
        const json sdkRequests = json::parse(printed, nullptr, false);
        QVERIFY2(sdkRequests.is_array(),
                 qPrintable("vertex-wire.js printed no JSON array: " + QString::fromStdString(printed.substr(0, 2000))
                            + "\n" + stderrText));
        if (sdkRequests.size() != transport.requests.size()) {
            for (const json& r : sdkRequests) {
                qWarning().noquote() << QString::fromStdString(r.value("label", "") + " " + r.value("method", "") + " "
                                                               + r.value("url", "") + " " + r.value("sdkError", "")
                                                               + " " + r["headers"].dump() + " " + r.value("body", ""));
            }
            qWarning().noquote() << stderrText;
        }
        QCOMPARE(sdkRequests.size(), transport.requests.size());

        QStringList differences;
        for (std::size_t i = 0; i < transport.requests.size(); ++i) {
            const std::string& label = transport.script[i].label;
            const HttpRequest& mine = transport.requests[i];
            const json& theirs = sdkRequests[i];
            const QString op = QString::number(i) + " " + QString::fromStdString(label);
            auto differ = [&](const std::string& what) { differences << op + ": " + QString::fromStdString(what); };
            if (theirs.value("label", "") != label) {
                differ("the SDK's request " + std::to_string(i) + " is " + theirs.value("label", ""));
                continue;
            }
            // The SDK read each answer without complaint, except the 404s and the 409 it was given.
            const bool expectError = transport.script[i].status >= 400;
            const std::string sdkError = theirs.value("sdkError", "");
            if (expectError == sdkError.empty()) {
                differ("the SDK's call ended with \"" + sdkError + "\"");
            }
            // Lower-case names, the ones not compared removed.
            std::map<std::string, std::string> sdkHeaders =
                sdkHeadersOf(theirs["headers"], kNotComparedHeaders, differ);
            std::map<std::string, std::string> ourHeaders = ourHeadersOf(mine.headers, kNotComparedHeaders, differ);
            if (label == "token") {
                // The form's media type; the SDK adds ";charset=UTF-8" (see the top).
                for (auto* headers : {&ourHeaders, &sdkHeaders}) {
                    if (headers->count("content-type")) {
                        std::string& type = (*headers)["content-type"];
                        type = type.substr(0, type.find(';'));
                    }
                }
            }
            const std::string sdkMethod = theirs.value("method", "");
            const std::string sdkTarget = theirs.value("url", "");
            const std::size_t q = sdkTarget.find('?');
            const std::string sdkPath = sdkTarget.substr(0, q);
            const std::string sdkQuery = q == std::string::npos ? std::string() : sdkTarget.substr(q + 1);
            std::string sdkBody = theirs.value("body", "");
            if (mine.body.empty() && sdkHeaders.count("content-type") && !ourHeaders.count("content-type")) {
                sdkHeaders.erase("content-type"); // the SDK's Content-Type on a request without a body (see the top)
            }

            // Method and path.
            const Result<Url> url = parseUrl(mine.url);
            QVERIFY(url.ok());
            if (sdkMethod != mine.method || sdkPath != url->path) {
                differ("request line " + mine.method + " " + url->path + " vs the SDK's " + sdkMethod + " " + sdkPath);
            }
            // The body: the token request's form, else JSON.
            if (label == "token") {
                compareJwtBearerForm(mine.body, sdkBody, kBodyRules, differ);
            } else {
                compareJsonBodies(mine.body, sdkBody, kBodyRules, differ, [&](json& b) {
                    if (label == "customJobs.create") {
                        enumNamesOf(b);
                    }
                });
            }
            // Every parameter, decoded.
            std::vector<std::string> duplicates;
            const auto a = decodedQuery(url->query, duplicates);
            auto b = decodedQuery(sdkQuery, duplicates);
            b.erase("$alt"); // gax's answer format (see the top)
            for (const std::string& name : duplicates) {
                differ("parameter " + name + " is sent twice");
            }
            compareParameters(a, b, differ);
            // The same header names, and the same Authorization and Content-Type.
            compareHeaderNames(ourHeaders, sdkHeaders, differ);
            compareHeaderValues(ourHeaders, sdkHeaders, {"authorization", "content-type"}, differ);
            if (label != "token" && ourHeaders["authorization"] != "Bearer " + kToken) {
                differ("our Authorization is \"" + ourHeaders["authorization"] + "\"");
            }
            // The private key is never on the wire.
            QVERIFY(mine.body.find("PRIVATE KEY") == std::string::npos);
        }
        // Each difference in full (QTest cuts a long failure message), then the verdict.
        for (const QString& difference : differences) {
            qWarning().noquote() << difference;
        }
        QVERIFY2(
            differences.isEmpty(),
            qPrintable(QString::number(differences.size()) + " difference(s) from the SDK's requests, listed above"));
    }
};

QTEST_GUILESS_MAIN(TestVertexWire)
#include "TestVertexWire.moc"
