// Wire conformance of the Google Compute Engine provider with the official Node SDK: @google-cloud/compute 6.15.0
// (google-gax 5 REST fallback) and google-auth-library 10.9.1 (the service account's JWT client). This test drives our
// provider through one sequence (the token; three launches: the first on a fresh project that looks the image up over
// the DLVM families, creates the SSH firewall and waits for its global operation, chooses the zone from the aggregated
// machine and accelerator types, inserts an N1 + T4 Spot instance with tags, user data and a termination time and
// waits for its zone operation; the second in a given zone with a given image, repairing a firewall that lost its
// rule; the third meeting 409 alreadyExists and finding its instance; then describe, listOurs over two pages and
// terminate) against a recording transport that answers each request with a canned answer (tests/data/cloud/gcp,
// README there, adapted to the sequence); tests/integration/sdk/gce-wire.js sends the same operations, with the same
// inputs (fixed time, the test service account key, project, zones, instance types, images, client tokens, tags) and
// the same answers, through the SDK to a loopback capture server. Each pair of requests is compared:
//  - method and path;
//  - every query parameter, decoded, by name and value;
//  - the JSON body, parsed: every member by its path, with its type (an int64 is a JSON string: "200" is not 200);
//  - the token request's form: grant_type, and the assertion's header and claims (decoded, member by member);
//  - the values of Authorization (the Bearer token the canned token answer gave) and, for a request with a body,
//    Content-Type; and the set of header names.
//
// What is not compared and why (kNotComparedHeaders and the notes below): headers that the transports add and
// Compute Engine does not need: x-goog-api-client (the SDK's and Node's versions, client telemetry),
// x-goog-request-params (gax's routing header, a copy of the path's project/zone/name, used to route gRPC; REST routes
// by the path), user-agent, accept (the SDK's "*/*", our token request's "application/json": both answers are JSON),
// accept-encoding, connection and content-length (libcurl writes its own for us);
// Host (the SDK is pointed at the capture server's 127.0.0.1:<port>; ours names compute.googleapis.com and
// oauth2.googleapis.com). Content-Type on a request without a body: the SDK's REST transport sends
// "application/json" on every request, GET and DELETE included; Google reads no body there. The body of
// zoneOperations.wait and globalOperations.wait: the SDK sends the JSON text "" (its empty request message), we send
// none; the method takes no request body (REST reference: "The request body must be empty"). Members the SDK's JSON
// writer adds as empty maps ({}, e.g. initializeParams.labels and resourceManagerTags) where we send nothing: an empty
// map and an absent one are the same in the proto3 JSON mapping. The token request's Content-Type parameters: gaxios
// sends "application/x-www-form-urlencoded;charset=UTF-8", we send the media type alone; the form is ASCII (a URN and
// base64url), so the charset changes nothing; the media types are compared. The assertion's signature: RS256 over the
// same header and claims is deterministic, but the JSON texts may order members differently; TestTokenSigners checks
// the signature. Anything else on one side only, or with another value, fails, naming the operation and the header,
// parameter or body member. Without node or the SDK packages (tests/integration/sdk/setup.sh) the test fails.

#include <algorithm>
#include <fstream>
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

#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/providers/gcp/ComputeApi.h"
#include "gpuplan/cloud/providers/gcp/GcpProvider.h"
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
const std::string kProject = "my-project"; // the project of the canned answers
const std::string kRegion = "us-central1";
const std::string kZone = "us-central1-a";
const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci13aXJlLXRlc3Qta2V5LTAwMDAwMDA wire@example";
const std::string kCidr = "203.0.113.7/32";
const std::string kUserData = "#!/bin/bash\nshutdown -h +120\n";
const std::string kGivenImage =
    "projects/ubuntu-os-accelerator-images/global/images/family/ubuntu-accelerator-2204-amd64"
    "-with-nvidia-570";
const std::string kToken = "ya29.c.wire-test-access-token";
// Client tokens as the Launcher makes them ("gpuplan-" + 24 lowercase hex): instance names.
const std::string kToken1 = "gpuplan-0123456789abcdef01234567"; // the name in instance.json and the list
const std::string kToken2 = "gpuplan-89abcdef0123456789abcdef";
const std::string kToken3 = "gpuplan-fedcba9876543210fedcba98";

// Added by the transports, not needed by Compute Engine or the token endpoint (see the top); left out on both sides.
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
    return json::parse(readFile(GPUPLAN_SOURCE_DIR "/tests/data/cloud/gcp/" + name), nullptr, false);
}

// A member only the SDK sends as an empty map or list is not a difference (see the top).
const gpuplan::testing::JsonCompareRules kBodyRules{false, true};

} // namespace

class TestGceWire : public QObject
{
    Q_OBJECT

private slots:
    void requestsMatchTheSdk()
    {
        const QString sdk = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/sdk");
        const QString node = QStandardPaths::findExecutable("node");
        if (node.isEmpty()) {
            QFAIL("node is not installed: the wire test needs it to run @google-cloud/compute");
        }
        for (const char* package : {"@google-cloud/compute", "google-auth-library"}) {
            if (!QFileInfo::exists(sdk + "/node_modules/" + package + "/package.json")) {
                QFAIL(
                    qPrintable(QString::fromUtf8(package)
                               + " is not installed: run tests/integration/sdk/setup.sh (npm ci of the pinned SDKs)"));
            }
        }
        const std::string privateKey = readFile(GPUPLAN_SOURCE_DIR "/tests/data/test-service-account-key.pem");
        QVERIFY(!privateKey.empty());

        // ---- The launches.
        const std::int64_t now = unixSeconds(utcTime(kTime));
        // 1. N1 + T4 Spot on a fresh project: the image from the DLVM families (the first one gone), the firewall
        //    created, the zone chosen; tags (one to be made a label), user data, a termination time.
        LaunchRequest first;
        first.region = kRegion;
        first.instanceType = "n1-standard-8+1xT4";
        first.pricing = LaunchPricing::Spot;
        first.sshPublicKey = kPublicKey;
        first.sshSourceCidr = kCidr;
        first.userData = kUserData;
        first.clientToken = kToken1;
        first.tags = {{"project", "Vision Lab"}, {"owner", "alice@example.edu"}};
        first.terminateAt = now + 2 * 3600 + 17;
        // 2. On demand, a given zone and image; the firewall is found without its SSH rule.
        LaunchRequest second = first;
        second.instanceType = "g2-standard-8";
        second.pricing = LaunchPricing::OnDemand;
        second.zone = kZone;
        second.imageId = kGivenImage;
        second.userData.clear();
        second.tags.clear();
        second.terminateAt = 0;
        second.clientToken = kToken2;
        // 3. A2 Spot in a given zone: the firewall is found as it should be; the insert meets 409 alreadyExists (a
        //    resend after the request id was forgotten) and the instance is ours.
        LaunchRequest third = second;
        third.instanceType = "a2-highgpu-1g";
        third.pricing = LaunchPricing::Spot;
        third.clientToken = kToken3;

        const std::string firewall = gcp::firewallName(kCidr);

        // ---- The canned answers, adapted.
        const json token = {{"access_token", kToken}, {"expires_in", 3599}, {"token_type", "Bearer"}};
        json familyGone = fixture("error_not_found.json");
        json image = fixture("image.json");
        json machineTypes = fixture("aggregated_machine_types.json"); // rename what it lists to the N1 type asked
        for (auto& [scope, entry] : machineTypes["items"].items()) {
            if (entry.contains("machineTypes")) {
                for (json& type : entry["machineTypes"]) {
                    type["name"] = "n1-standard-8";
                    type.erase("accelerators");
                }
            }
        }
        const json acceleratorTypes = fixture("aggregated_accelerator_types.json");
        json firewallNoRule = fixture("firewall.json");
        firewallNoRule["allowed"] = json::array();
        firewallNoRule["sourceRanges"] = json::array();
        const json firewallOk = fixture("firewall.json");
        json patchRunning = fixture("operation_firewall_running.json");
        patchRunning["operationType"] = "patch";
        json patchDone = fixture("operation_firewall_done.json");
        patchDone["operationType"] = "patch";
        json insertRunning2 = fixture("operation_insert_running.json");
        insertRunning2["targetLink"] =
            "https://www.googleapis.com/compute/v1/projects/" + kProject + "/zones/" + kZone + "/instances/" + kToken2;
        json insertDone2 = fixture("operation_insert_done.json");
        insertDone2["targetLink"] = insertRunning2["targetLink"];
        json existing = fixture("instance.json");
        existing["name"] = kToken3;
        existing["labels"][std::string(kOwnerTagKey)] = kToken3;
        json deleteRunning = fixture("operation_insert_running.json");
        deleteRunning["operationType"] = "delete";
        for (const json* doc : std::initializer_list<const json*>{
                 &familyGone, &image, &machineTypes, &acceleratorTypes, &firewallOk, &patchRunning, &existing}) {
            QVERIFY2(doc->is_object(), "a fixture is not JSON");
        }

        RecordingTransport transport("application/json; charset=UTF-8");
        // Launch 1.
        transport.queue("token", token);
        transport.queue("images.getFromFamily-gone", familyGone, 404);
        transport.queue("images.getFromFamily", image);
        transport.queue("firewalls.get-absent", fixture("error_not_found.json"), 404);
        transport.queue("firewalls.insert", fixture("operation_firewall_running.json"));
        transport.queue("globalOperations.wait", fixture("operation_firewall_done.json"));
        transport.queue("machineTypes.aggregatedList", machineTypes);
        transport.queue("acceleratorTypes.aggregatedList", acceleratorTypes);
        transport.queue("instances.insert", fixture("operation_insert_running.json"));
        transport.queue("zoneOperations.wait", fixture("operation_insert_done.json"));
        // Launch 2.
        transport.queue("firewalls.get-no-rule", firewallNoRule);
        transport.queue("firewalls.patch", patchRunning);
        transport.queue("globalOperations.wait", patchDone);
        transport.queue("instances.insert", insertRunning2);
        transport.queue("zoneOperations.wait", insertDone2);
        // Launch 3.
        transport.queue("firewalls.get", firewallOk);
        transport.queue("instances.insert-exists", fixture("error_already_exists.json"), 409);
        transport.queue("instances.get", existing);
        // describe, listOurs, terminate.
        transport.queue("instances.get", fixture("instance.json"));
        transport.queue("instances.aggregatedList-1", fixture("aggregated_instances_page1.json"));
        transport.queue("instances.aggregatedList-2", fixture("aggregated_instances_page2.json"));
        transport.queue("instances.delete", deleteRunning);

        // ---- Our side.
        ProviderContext context;
        context.http = &transport;
        context.key = AccessKey{kEmail, privateKey, {}};
        context.clock = fixedClock(utcTime(kTime));
        context.sleep = [](std::chrono::milliseconds) {};
        auto provider = makeGceProvider(context);
        std::vector<std::string> zones;
        for (const LaunchRequest* request : {&first, &second, &third}) {
            auto launched = provider->launch(*request, nullptr);
            QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
            QCOMPARE(launched->instanceId, launched->zone + "/" + request->clientToken);
            zones.push_back(launched->zone);
        }
        const std::string describedRef = gcp::instanceRef(kZone, kToken1);
        auto described = provider->describe(kRegion, describedRef, nullptr);
        QVERIFY2(described.ok(), described.ok() ? "" : describe(described.error()).c_str());
        auto listed = provider->listOurs(kRegion, nullptr);
        QVERIFY2(listed.ok(), listed.ok() ? "" : describe(listed.error()).c_str());
        auto terminated = provider->terminate(kRegion, describedRef, nullptr);
        QVERIFY2(terminated.ok(), terminated.ok() ? "" : describe(terminated.error()).c_str());
        QCOMPARE(transport.requests.size(), transport.script.size());

        // ---- The SDK's side, with the same inputs and answers. The firewall's description (free text the provider
        // writes into the account) is taken from our request; everything else is given.
        const auto ourBody = [&](const std::string& label) {
            for (std::size_t i = 0; i < transport.script.size(); ++i) {
                if (transport.script[i].label == label) {
                    return json::parse(transport.requests[i].body, nullptr, false);
                }
            }
            return json();
        };
        const std::string familyList[] = {std::string(gcp::kImageFamilies[0]), std::string(gcp::kImageFamilies[1])};
        auto launchInputs = [&](const LaunchRequest& request,
                                const std::string& zone,
                                const std::string& bootImage,
                                const json& families,
                                const std::string& firewallStep,
                                bool exists) {
            return json{{"clientToken", request.clientToken},
                        {"instanceType", request.instanceType},
                        {"zone", zone},
                        {"chooseZone", request.zone.empty()},
                        {"image", bootImage},
                        {"families", families},
                        {"firewall", firewallStep},
                        {"spot", request.pricing == LaunchPricing::Spot},
                        {"tags", request.tags},
                        {"userData", request.userData},
                        {"terminateAt", request.terminateAt},
                        {"exists", exists}};
        };
        json answers = json::array();
        for (const RecordingTransport::Answer& answer : transport.script) {
            answers.push_back({{"label", answer.label}, {"status", answer.status}, {"body", answer.body}});
        }
        const json inputs = {
            {"time", now},
            {"clientEmail", kEmail},
            {"privateKey", privateKey},
            {"project", kProject},
            {"publicKey", kPublicKey},
            {"cidr", kCidr},
            {"firewall", firewall},
            {"firewallDescription", ourBody("firewalls.insert").value("description", "")},
            {"diskGb", gcp::kBootDiskGb},
            {"pageSize", gcp::kPageSize},
            {"launches",
             json::array({launchInputs(first, zones[0], image["selfLink"], json(familyList), "create", false),
                          launchInputs(second, kZone, kGivenImage, json::array(), "repair", false),
                          launchInputs(third, kZone, kGivenImage, json::array(), "found", true)})},
            {"describe", {{"zone", kZone}, {"name", kToken1}}},
            {"terminate", {{"zone", kZone}, {"name", kToken1}}},
            {"answers", answers}};
        QProcess process;
        process.setWorkingDirectory(sdk);
        process.start(node, {QStringLiteral("gce-wire.js")});
        QVERIFY2(process.waitForStarted(30000), qPrintable(process.errorString()));
        process.write(QByteArray::fromStdString(inputs.dump()));
        process.closeWriteChannel();
        QVERIFY2(process.waitForFinished(120000), "node gce-wire.js did not finish within 2 minutes");
        const QString stderrText = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, qPrintable(stderrText));
        const std::string printed = process.readAllStandardOutput().toStdString();
        const json sdkRequests = json::parse(printed, nullptr, false);
        QVERIFY2(sdkRequests.is_array(),
                 qPrintable("gce-wire.js printed no JSON array: " + QString::fromStdString(printed.substr(0, 2000))
                            + "\n" + stderrText));
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
            if (label.find("Operations.wait") != std::string::npos && sdkBody == "\"\"") {
                sdkBody.clear(); // the SDK's empty request message (see the top)
            }
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
                compareJsonBodies(mine.body, sdkBody, kBodyRules, differ);
            }
            // Every parameter, decoded.
            std::vector<std::string> duplicates;
            const auto a = decodedQuery(url->query, duplicates);
            const auto b = decodedQuery(sdkQuery, duplicates);
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

QTEST_GUILESS_MAIN(TestGceWire)
#include "TestGceWire.moc"
