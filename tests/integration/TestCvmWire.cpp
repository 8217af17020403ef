// Wire conformance of the Tencent Cloud CVM provider with the official tencentcloud-sdk-nodejs-cvm (and, for the VPC
// security group actions, the CommonClient of tencentcloud-sdk-nodejs-common, the same SDK's product-neutral client).
// tests/integration/sdk/cvm-wire.js sends every operation the provider uses, with the same inputs (fixed time, the
// API 3.0 signature page's example SecretId/SecretKey, ap-guangzhou, explicit ClientToken), to a loopback capture
// server that answers with the documented responses (tests/data/cloud/tencent); this test drives our provider with the
// same inputs against a recording transport and compares each pair of requests canonically: method, path, the
// X-TC-Action, X-TC-Version, X-TC-Region, X-TC-Timestamp, Host and Content-Type headers, the JSON body as parsed JSON
// (every member, by its JSON path, type included), the set of header names, and the Authorization's credential scope
// and signed headers.
//
// What differs and why it is not compared byte for byte:
//  - Member order in the body: the SDK writes the request object's order (JSON.stringify), we write nlohmann's
//    (sorted); CVM reads JSON, and TC3 hashes the body as sent, so the order changes the payload hash and the
//    signature but nothing CVM sees. Hence the Authorization values differ, and the signer is checked on its own below.
//  - Headers only the SDK sends, none of them signed (Sign.sign3 signs content-type;host only): X-TC-RequestClient
//    (SDK_NODEJS_<version>), X-TC-TraceId (a random UUID per request), and what node-fetch adds (Accept, User-Agent,
//    Accept-Encoding, Connection, Content-Length; libcurl sends its own Accept and Content-Length for us). They are
//    named in kSdkOnlyHeaders and ignored; any other header on one side only fails. X-TC-Language is not sent (the
//    profile sets no language), nor X-TC-Token (no temporary credentials).
//  - The scheme: the SDK talks plain http to the capture server (its socket is redirected to loopback while the URL
//    keeps the production host, which the signature covers); the scheme is not part of TC3.
// Then our signer signs the SDK's own request (its body, Content-Type and Host) and must produce the SDK's
// Authorization and X-TC-Timestamp exactly: the same bytes give the same signature. Any difference fails naming the
// operation and the parameter. Without node or the SDK packages (tests/integration/sdk/setup.sh) the test fails.

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>
#include <QTest>

#include "gpuplan/cloud/providers/tencent/CvmApi.h"
#include "gpuplan/cloud/providers/tencent/TencentCvmProvider.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/signers/TencentTc3.h"

#include "../support/WireCompare.h"

using namespace gpuplan::core;
using gpuplan::testing::authorizationPart;
using gpuplan::testing::lower;
using nlohmann::json;

namespace {

// The example key of the API 3.0 signature page (https://cloud.tencent.com/document/api/213/30654).
const std::string kSecretId = "AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE";
const std::string kSecret = "Gu5t9xGARNpq86cd98joQYCN3EXAMPLE";
const std::string kTime = "2026-12-01T10:00:00Z";
const std::string kRegion = "ap-guangzhou";
const std::string kInstanceType = "GN7.2XLARGE32";
const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci13aXJlLXRlc3Qta2V5LTAwMDAwMDA wire@example";
const std::string kCidr = "203.0.113.7/32";
const std::string kUserData = "#cloud-config\nruncmd:\n  - [shutdown, -h, +120]\n";
const std::string kGivenImage = "img-pmqg1cw7";
const std::string kGivenZone = "ap-guangzhou-3";
// Ids in the documented answers.
const std::string kFoundImage = "img-9qabwvbn";   // describe_images.json
const std::string kImportedKey = "skey-4e5ty7i8"; // import_key_pair.json
const std::string kFoundKey = "skey-1q8j7b93";    // describe_key_pairs.json
const std::string kCreatedGroup = "sg-3g7ftkp3";  // create_security_group.json
const std::string kFoundGroup = "sg-05bb4upy";    // describe_security_groups.json
// The SSH rule the provider adds to a group (authorizeSshCall's PolicyDescription).
const std::string kSshRuleDescription = "SSH for GPU Planner";
const std::string kSoldZone = "ap-guangzhou-6"; // describe_zone_instance_config_infos.json
const std::string kInstanceId = "ins-9bxebleo"; // describe_instances.json
const std::string kLaunchedId = "ins-32kcaqoa"; // run_instances.json

// Sent by the SDK and node-fetch only, never signed (see the comment at the top).
const std::set<std::string> kSdkOnlyHeaders = {
    "x-tc-requestclient", "x-tc-traceid", "accept", "user-agent", "accept-encoding", "connection", "content-length"};
// Headers whose values must be the same on both sides (Authorization is compared by parts and by re-signing).
const std::vector<std::string> kComparedHeaders = {
    "host", "content-type", "x-tc-action", "x-tc-version", "x-tc-region", "x-tc-timestamp"};

std::string fixture(const std::string& name)
{
    std::ifstream in(GPUPLAN_SOURCE_DIR "/tests/data/cloud/tencent/" + name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

json fixtureJson(const std::string& name)
{
    return json::parse(fixture(name), nullptr, false);
}

// The documented error answer with another code and message (Tencent answers errors with HTTP 200).
std::string errorDoc(const std::string& code, const std::string& message)
{
    json doc = fixtureJson("error_signature_failure.json");
    doc["Response"]["Error"]["Code"] = code;
    doc["Response"]["Error"]["Message"] = message;
    return doc.dump();
}

// A documented answer with its list emptied: nothing of that name exists yet.
std::string emptied(const std::string& name, const std::string& list)
{
    json doc = fixtureJson(name);
    doc["Response"][list] = json::array();
    doc["Response"]["TotalCount"] = 0;
    return doc.dump();
}

// A documented answer whose first listed item carries `value` in `field`: ours exists.
std::string
renamed(const std::string& name, const std::string& list, const std::string& field, const std::string& value)
{
    json doc = fixtureJson(name);
    doc["Response"][list][0][field] = value;
    return doc.dump();
}

// A member of a JSON document as text, "" when absent.
std::string member(const json& doc, const std::string& pointer)
{
    const json::json_pointer path(pointer);
    if (!doc.is_object() || !doc.contains(path) || !doc.at(path).is_string()) {
        return {};
    }
    return doc.at(path).get<std::string>();
}

// Every difference between two JSON documents, each naming its JSON path (Placement.Zone, Filters[1].Values[0]).
void diffJson(const json& ours, const json& theirs, const std::string& path, std::vector<std::string>& out)
{
    const std::string where = path.empty() ? "(body)" : path;
    if (ours.is_object() && theirs.is_object()) {
        std::set<std::string> keys;
        for (const auto& item : ours.items()) {
            keys.insert(item.key());
        }
        for (const auto& item : theirs.items()) {
            keys.insert(item.key());
        }
        for (const std::string& key : keys) {
            const std::string sub = path.empty() ? key : path + "." + key;
            if (!ours.contains(key)) {
                out.push_back(sub + " is (absent) here and " + theirs[key].dump() + " in the SDK's request");
            } else if (!theirs.contains(key)) {
                out.push_back(sub + " is " + ours[key].dump() + " here and (absent) in the SDK's request");
            } else {
                diffJson(ours[key], theirs[key], sub, out);
            }
        }
        return;
    }
    if (ours.is_array() && theirs.is_array()) {
        for (std::size_t i = 0; i < std::max(ours.size(), theirs.size()); ++i) {
            const std::string sub = where + "[" + std::to_string(i) + "]";
            if (i >= ours.size()) {
                out.push_back(sub + " is (absent) here and " + theirs[i].dump() + " in the SDK's request");
            } else if (i >= theirs.size()) {
                out.push_back(sub + " is " + ours[i].dump() + " here and (absent) in the SDK's request");
            } else {
                diffJson(ours[i], theirs[i], sub, out);
            }
        }
        return;
    }
    // Both sides are parsed from their wire text, so the same JSON value has the same type ("10" vs 10 differ).
    if (ours.type() != theirs.type() || ours != theirs) {
        out.push_back(where + " is " + ours.dump() + " here and " + theirs.dump() + " in the SDK's request");
    }
}

// Answers each request with the next canned body for its X-TC-Action and keeps every request.
class RecordingTransport final : public HttpTransport
{
public:
    void queue(const std::string& action, std::string body) { m_answers[action].push_back(std::move(body)); }

    using HttpTransport::send;
    Result<HttpResponse> send(const HttpRequest& request, const CancelToken*) override
    {
        requests.push_back(request);
        auto& answers = m_answers[request.header("X-TC-Action").value_or("")];
        if (answers.empty()) {
            return Error{ErrorCode::Network, Reason{"error.test.no_canned_answer", {}}, request.url};
        }
        HttpResponse response{200, {{"Content-Type", "application/json"}}, answers.front()};
        answers.pop_front();
        return response;
    }

    std::vector<HttpRequest> requests;

private:
    std::map<std::string, std::deque<std::string>> m_answers;
};

} // namespace

class TestCvmWire : public QObject
{
    Q_OBJECT

private slots:
    void requestsMatchTheSdk()
    {
        const QString sdk = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/sdk");
        const QString node = QStandardPaths::findExecutable("node");
        if (node.isEmpty()) {
            QFAIL("node is not installed: the wire test needs it to run tencentcloud-sdk-nodejs-cvm");
        }
        for (const char* package : {"tencentcloud-sdk-nodejs-cvm", "tencentcloud-sdk-nodejs-common"}) {
            if (!QFileInfo::exists(sdk + "/node_modules/" + package + "/package.json")) {
                QFAIL(
                    qPrintable(QString::fromUtf8(package)
                               + " is not installed: run tests/integration/sdk/setup.sh (npm ci of the pinned SDKs)"));
            }
        }

        // ---- Our side: the provider with a recording transport.
        const std::int64_t now = unixSeconds(utcTime(kTime));
        // 1. On demand, nothing exists yet: the image is looked up, the key imported, the group created with its two
        //    rules, the zone chosen; user data, tags (one not ASCII) and a scheduled terminate.
        LaunchRequest onDemand;
        onDemand.region = kRegion;
        onDemand.instanceType = kInstanceType;
        onDemand.pricing = LaunchPricing::OnDemand;
        onDemand.sshPublicKey = kPublicKey;
        onDemand.sshSourceCidr = kCidr;
        onDemand.userData = kUserData;
        onDemand.clientToken = "gp-7f3c2a9e-0b1d-4c55-9e2f-1a2b3c4d5e6f";
        onDemand.tags = {{"project", "vision lab"}, {"owner", "alice@example.edu"}, {"lab", "视觉实验室"}};
        onDemand.terminateAt = now + 2 * 3600;
        // 2. Spot in a given zone with a given image; the key and the group are found, and the group's rules are the
        //    documented ones (templates, no CIDR): it lacks the SSH rule, which is added (it has an outbound rule).
        LaunchRequest spot = onDemand;
        spot.pricing = LaunchPricing::Spot;
        spot.zone = kGivenZone;
        spot.imageId = kGivenImage;
        spot.clientToken = "gp-1b2c3d4e-5f60-4a1b-8c2d-3e4f5a6b7c8d";
        spot.tags = {{"project", "vision lab"}};
        spot.terminateAt = now + 4 * 3600;
        // 3. Monthly (PREPAID), 3 months, renewed automatically, zone chosen; terminateAt is not used for it. The
        //    group now lists the SSH rule launch 2 added: nothing to add.
        LaunchRequest monthly = spot;
        monthly.pricing = LaunchPricing::Subscription;
        monthly.subscriptionMonths = 3;
        monthly.autoRenew = true;
        monthly.zone.clear();
        monthly.userData.clear();
        monthly.tags.clear();
        monthly.clientToken = "gp-9e8d7c6b-5a49-4382-b716-05f4e3d2c1b0";
        // 4. Dry run before the key and the group exist.
        LaunchRequest dry = spot;
        dry.pricing = LaunchPricing::OnDemand;
        dry.zone = kSoldZone;
        dry.userData.clear();
        dry.tags.clear();
        dry.terminateAt = 0;
        dry.dryRun = true;
        dry.clientToken = "gp-0a1b2c3d-4e5f-4061-8273-8495a6b7c8d9";

        const std::string keyName = *cvm::keyPairName(kPublicKey);
        const std::string groupName = cvm::securityGroupName(kCidr);
        // The documented image list names a CentOS image without a GPU driver; the same answer for an Ubuntu image
        // that carries one, so the provider picks it.
        json gpuImages = fixtureJson("describe_images.json");
        gpuImages["Response"]["ImageSet"][0]["ImageName"] = "Ubuntu Server 22.04 LTS 64位 GPU驱动";
        gpuImages["Response"]["ImageSet"][0]["ImageDescription"] = "Ubuntu 22.04 with the NVIDIA GPU driver and CUDA";
        gpuImages["Response"]["ImageSet"][0]["Platform"] = "Ubuntu";
        const std::string noKeys = emptied("describe_key_pairs.json", "KeyPairSet");
        const std::string ourKey = renamed("describe_key_pairs.json", "KeyPairSet", "KeyName", keyName);
        const std::string noGroups = emptied("describe_security_groups.json", "SecurityGroupSet");
        const std::string ourGroup =
            renamed("describe_security_groups.json", "SecurityGroupSet", "SecurityGroupName", groupName);
        // The documented rules (templates only, no CidrBlock), then the same with the SSH rule launch 2 added, as
        // DescribeSecurityGroupPolicies lists a SecurityGroupPolicy (Version counts the changes).
        const std::string documentedRules = fixture("describe_security_group_policies.json");
        json repairedRules = fixtureJson("describe_security_group_policies.json");
        json& ingressRules = repairedRules["Response"]["SecurityGroupPolicySet"]["Ingress"];
        ingressRules.push_back(json{{"PolicyIndex", ingressRules.size()},
                                    {"Protocol", "TCP"},
                                    {"Port", "22"},
                                    {"ServiceTemplate", {{"ServiceId", ""}, {"ServiceGroupId", ""}}},
                                    {"CidrBlock", kCidr},
                                    {"Ipv6CidrBlock", ""},
                                    {"SecurityGroupId", ""},
                                    {"AddressTemplate", {{"AddressGroupId", ""}, {"AddressId", ""}}},
                                    {"Action", "ACCEPT"},
                                    {"ModifyTime", "2026-12-01 18:00:00"},
                                    {"PolicyDescription", kSshRuleDescription}});
        repairedRules["Response"]["SecurityGroupPolicySet"]["Version"] = "61";

        RecordingTransport transport;
        transport.queue("DescribeImages", gpuImages.dump());
        for (const std::string& answer : {noKeys, ourKey, ourKey, noKeys}) {
            transport.queue("DescribeKeyPairs", answer);
        }
        transport.queue("ImportKeyPair", fixture("import_key_pair.json"));
        for (const std::string& answer : {noGroups, ourGroup, ourGroup, noGroups}) {
            transport.queue("DescribeSecurityGroups", answer);
        }
        transport.queue("CreateSecurityGroup", fixture("create_security_group.json"));
        for (const std::string& answer : {documentedRules, repairedRules.dump()}) {
            transport.queue("DescribeSecurityGroupPolicies", answer);
        }
        for (int i = 0; i < 3; ++i) {
            transport.queue("CreateSecurityGroupPolicies", fixture("create_security_group_policies.json"));
        }
        for (int i = 0; i < 3; ++i) {
            transport.queue("DescribeZoneInstanceConfigInfos", fixture("describe_zone_instance_config_infos.json"));
            transport.queue("RunInstances", fixture("run_instances.json"));
        }
        transport.queue("RunInstances",
                        errorDoc("DryRunOperation", "Request would have succeeded, but DryRun flag is set."));
        for (int i = 0; i < 2; ++i) {
            transport.queue("DescribeInstances", fixture("describe_instances.json"));
        }
        transport.queue("TerminateInstances", fixture("terminate_instances.json"));

        ProviderContext context;
        context.http = &transport;
        context.key = AccessKey{kSecretId, kSecret, {}};
        context.clock = fixedClock(utcTime(kTime));
        auto provider = makeTencentCvmProvider(context);
        for (const LaunchRequest* request : {&onDemand, &spot, &monthly}) {
            auto launched = provider->launch(*request, nullptr);
            QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
            QCOMPARE(launched->instanceId, kLaunchedId);
        }
        auto dryRun = provider->launch(dry, nullptr);
        QVERIFY2(dryRun.ok() && dryRun->dryRunPassed, dryRun.ok() ? "not passed" : describe(dryRun.error()).c_str());
        auto described = provider->describe(kRegion, kInstanceId, nullptr);
        QVERIFY2(described.ok(), described.ok() ? "" : describe(described.error()).c_str());
        auto listed = provider->listOurs(kRegion, nullptr);
        QVERIFY2(listed.ok(), listed.ok() ? "" : describe(listed.error()).c_str());
        auto terminated = provider->terminate(kRegion, kInstanceId, nullptr);
        QVERIFY2(terminated.ok(), terminated.ok() ? "" : describe(terminated.error()).c_str());
        auto zones = provider->zonesOffering(kRegion, kInstanceType, nullptr);
        QVERIFY2(zones.ok(), zones.ok() ? "" : describe(zones.error()).c_str());
        QCOMPARE(transport.requests.size(), std::size_t(26));
        // Requests 9, 10, 14, 15, 19 and 20 repeat DescribeKeyPairs and DescribeSecurityGroups with the same
        // parameters as 1 and 3 (the later launches find, or in the dry run miss, the same key and group), and 16
        // repeats DescribeSecurityGroupPolicies (11) for the same group.
        const std::vector<std::pair<std::string, std::size_t>> ours{
            {"DescribeImages", 0},
            {"DescribeKeyPairs", 1},
            {"ImportKeyPair", 2},
            {"DescribeSecurityGroups", 3},
            {"CreateSecurityGroup", 4},
            {"CreateSecurityGroupPolicies-ingress", 5},
            {"CreateSecurityGroupPolicies-egress", 6},
            {"DescribeZoneInstanceConfigInfos", 7},
            {"RunInstances-postpaid", 8},
            {"DescribeSecurityGroupPolicies", 11},
            {"CreateSecurityGroupPolicies-repair", 12},
            {"RunInstances-spot", 13},
            {"DescribeZoneInstanceConfigInfos-prepaid", 17},
            {"RunInstances-prepaid", 18},
            {"RunInstances-dry", 21},
            {"DescribeInstances", 22},
            {"DescribeInstances-list", 23},
            {"TerminateInstances", 24},
            {"DescribeZoneInstanceConfigInfos-zonesOffering", 25}};
        for (std::size_t repeat : {9, 14, 19}) {
            QCOMPARE(transport.requests[repeat].body, transport.requests[1].body);
        }
        for (std::size_t repeat : {10, 15, 20}) {
            QCOMPARE(transport.requests[repeat].body, transport.requests[3].body);
        }
        QCOMPARE(transport.requests[16].body, transport.requests[11].body);
        QCOMPARE(member(json::parse(transport.requests[5].body, nullptr, false),
                        "/SecurityGroupPolicySet/Ingress/0/PolicyDescription"),
                 kSshRuleDescription);

        // ---- The SDK's side, with the same inputs. Free text the provider chooses (the group's description, the
        // rules' descriptions) is taken from our requests; everything else is given.
        const json createGroup = json::parse(transport.requests[4].body, nullptr, false);
        const json ingress = json::parse(transport.requests[5].body, nullptr, false);
        const json egress = json::parse(transport.requests[6].body, nullptr, false);
        auto launchInputs = [](const LaunchRequest& request, const std::string& zone, const std::string& imageId) {
            return json{{"clientToken", request.clientToken},
                        {"zone", zone},
                        {"imageId", imageId},
                        {"instanceName", cvm::instanceName(request.clientToken)},
                        {"tags", request.tags},
                        {"userData", request.userData},
                        {"terminateAt", request.terminateAt},
                        {"months", request.subscriptionMonths},
                        {"autoRenew", request.autoRenew}};
        };
        const json inputs = {
            {"time", now},
            {"region", kRegion},
            {"secretId", kSecretId},
            {"secretKey", kSecret},
            {"instanceType", kInstanceType},
            {"keyName", keyName},
            {"publicKey", kPublicKey},
            {"groupName", groupName},
            {"groupDescription", member(createGroup, "/GroupDescription")},
            {"cidr", kCidr},
            {"ingressDescription", member(ingress, "/SecurityGroupPolicySet/Ingress/0/PolicyDescription")},
            {"egressDescription", member(egress, "/SecurityGroupPolicySet/Egress/0/PolicyDescription")},
            {"createdGroupId", kCreatedGroup},
            {"foundGroupId", kFoundGroup},
            {"importedKeyId", kImportedKey},
            {"foundKeyId", kFoundKey},
            {"instanceId", kInstanceId},
            {"ownerTagKey", std::string(kOwnerTagKey)},
            {"pageLimit", cvm::kPageLimit},
            {"bandwidthOutMbps", cvm::kMaxBandwidthOutMbps},
            {"launches",
             json::array({launchInputs(onDemand, kSoldZone, kFoundImage),
                          launchInputs(spot, kGivenZone, kGivenImage),
                          launchInputs(monthly, kSoldZone, kGivenImage),
                          launchInputs(dry, kSoldZone, kGivenImage)})}};
        QProcess process;
        process.setWorkingDirectory(sdk);
        process.start(node,
                      {QStringLiteral("cvm-wire.js"), QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/cloud/tencent")});
        QVERIFY2(process.waitForStarted(30000), qPrintable(process.errorString()));
        process.write(QByteArray::fromStdString(inputs.dump()));
        process.closeWriteChannel();
        QVERIFY2(process.waitForFinished(120000), "node cvm-wire.js did not finish within 2 minutes");
        const QString stderrText = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, qPrintable(stderrText));
        const json sdkRequests = json::parse(process.readAllStandardOutput().toStdString(), nullptr, false);
        QVERIFY2(sdkRequests.is_array(), "cvm-wire.js printed no JSON array");
        QCOMPARE(sdkRequests.size(), ours.size());

        QStringList differences;
        for (std::size_t i = 0; i < ours.size(); ++i) {
            const std::string& label = ours[i].first;
            const HttpRequest& mine = transport.requests[ours[i].second];
            const json& theirs = sdkRequests[i];
            const QString op = QString::fromStdString(label);
            auto differ = [&](const std::string& what) { differences << op + ": " + QString::fromStdString(what); };
            if (theirs.value("label", "") != label) {
                differ("the SDK's request " + std::to_string(i) + " is " + theirs.value("label", ""));
                continue;
            }
            // The SDK got the documented answer: no error, but the dry run's DryRunOperation.
            const std::string expectedError = label == "RunInstances-dry" ? "DryRunOperation" : "";
            if (theirs.value("sdkError", "") != expectedError) {
                differ("the SDK's call ended with \"" + theirs.value("sdkError", "") + "\", expected \"" + expectedError
                       + "\"");
            }
            std::map<std::string, std::string> sdkHeaders; // lower-case names, SDK-only ones removed
            for (const auto& pair : theirs["headers"]) {
                const std::string name = lower(pair[0].get<std::string>());
                if (!kSdkOnlyHeaders.count(name)) {
                    sdkHeaders[name] = pair[1].get<std::string>();
                }
            }
            std::map<std::string, std::string> ourHeaders;
            for (const HttpHeader& header : mine.headers) {
                ourHeaders[lower(header.name)] = header.value;
            }
            const std::string sdkMethod = theirs.value("method", "");
            const std::string sdkPath = theirs.value("url", "");
            const std::string sdkBody = theirs.value("body", "");

            // Method and path.
            const Result<Url> url = parseUrl(mine.url);
            QVERIFY(url.ok());
            if (sdkMethod != mine.method || sdkPath != url->path) {
                differ("request line " + mine.method + " " + url->path + " vs the SDK's " + sdkMethod + " " + sdkPath);
            }
            // The same header names, and the same values of the ones CVM routes and checks by.
            for (const auto& [name, value] : sdkHeaders) {
                if (!ourHeaders.count(name)) {
                    differ("header " + name + " (\"" + value + "\") is in the SDK's request only");
                }
            }
            for (const auto& [name, value] : ourHeaders) {
                if (!sdkHeaders.count(name)) {
                    differ("header " + name + " (\"" + value + "\") is in our request only");
                }
            }
            for (const std::string& name : kComparedHeaders) {
                const std::string a = ourHeaders.count(name) ? ourHeaders[name] : "(absent)";
                const std::string b = sdkHeaders.count(name) ? sdkHeaders[name] : "(absent)";
                if (a != b) {
                    differ("header " + name + " is \"" + a + "\" here and \"" + b + "\" in the SDK's request");
                }
            }
            // Every parameter, by its JSON path.
            const json a = json::parse(mine.body, nullptr, false);
            const json b = json::parse(sdkBody, nullptr, false);
            if (a.is_discarded() || b.is_discarded()) {
                differ("a body is not JSON: " + mine.body + " vs the SDK's " + sdkBody);
            } else {
                std::vector<std::string> parameters;
                diffJson(a, b, "", parameters);
                for (const std::string& parameter : parameters) {
                    differ("parameter " + parameter);
                }
            }
            // The Authorization's scope (key, date, service) and signed headers.
            const std::string ourAuthorization = ourHeaders["authorization"];
            const std::string sdkAuthorization = sdkHeaders["authorization"];
            for (const std::string part : {"Credential", "SignedHeaders"}) {
                if (authorizationPart(ourAuthorization, part) != authorizationPart(sdkAuthorization, part)) {
                    differ("Authorization " + part + " is " + authorizationPart(ourAuthorization, part) + " here and "
                           + authorizationPart(sdkAuthorization, part) + " in the SDK's request");
                }
            }
            // Our signer over the SDK's bytes gives the SDK's Authorization.
            HttpRequest again;
            again.method = sdkMethod;
            again.url = "https://" + sdkHeaders["host"] + sdkPath;
            again.body = sdkBody;
            again.headers.push_back({"Host", sdkHeaders["host"]});
            again.headers.push_back({"Content-Type", sdkHeaders["content-type"]});
            const std::string service = url->host.substr(0, url->host.find('.'));
            auto steps = signTencentTc3(again, AccessKey{kSecretId, kSecret, {}}, service, utcTime(kTime));
            QVERIFY2(steps.ok(), steps.ok() ? "" : describe(steps.error()).c_str());
            if (again.header("authorization").value_or("") != sdkAuthorization) {
                differ("our signature of the SDK's request is " + again.header("authorization").value_or("")
                       + ", the SDK's is " + sdkAuthorization);
            }
            if (again.header("x-tc-timestamp").value_or("") != sdkHeaders["x-tc-timestamp"]) {
                differ("X-TC-Timestamp " + again.header("x-tc-timestamp").value_or("") + " vs the SDK's "
                       + sdkHeaders["x-tc-timestamp"]);
            }
            // The secret key is never on the wire.
            QVERIFY(mine.body.find(kSecret) == std::string::npos);
            for (const HttpHeader& header : mine.headers) {
                QVERIFY(header.value.find(kSecret) == std::string::npos);
            }
        }
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join("\n")));
    }
};

QTEST_GUILESS_MAIN(TestCvmWire)
#include "TestCvmWire.moc"
