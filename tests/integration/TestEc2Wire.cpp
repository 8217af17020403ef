// Wire conformance of the AWS EC2 provider with the official @aws-sdk/client-ec2. tests/integration/sdk/ec2-wire.js
// sends every operation the provider uses, with the same inputs (fixed time, AKIDEXAMPLE key, us-east-1, explicit
// ClientToken), to a loopback capture server that answers with the documented responses; this test drives our
// provider with the same inputs against a recording transport and compares each pair of requests canonically:
// method, path, Action, Version, every parameter as a sorted map, Content-Type and the set of signed headers.
//
// What differs and why it is not compared byte for byte:
//  - Parameter order: the SDK writes its model's member order, we write ours; EC2 reads a form, and SigV4 hashes
//    the body as sent, so the order changes the payload hash but nothing EC2 sees.
//  - Headers only the SDK adds (amz-sdk-invocation-id: a random UUID; amz-sdk-request: its retry counter;
//    x-amz-user-agent and user-agent: SDK and Node versions; content-length: our HttpClient lets libcurl send it
//    unsigned): ec2-wire.js deletes them before the SDK signs (cloud_apis.md section 1), so the signed sets match.
// Then our signer signs the SDK's own request (its body and headers) and must produce the SDK's Authorization
// exactly: the same bytes give the same signature. Any difference fails naming the operation and the parameter.
// Without node or the SDK packages (tests/integration/sdk/setup.sh) the test fails.

#include <deque>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include "gpuplan/cloud/providers/aws/AwsEc2Provider.h"
#include "gpuplan/cloud/providers/aws/Ec2Api.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"
#include "gpuplan/net/signers/AwsSigV4.h"

using namespace gpuplan::core;

namespace {

const std::string kKeyId = "AKIDEXAMPLE";
const std::string kSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
const std::string kTime = "2026-12-01T10:00:00Z";
const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci13aXJlLXRlc3Qta2V5LTAwMDAwMDA wire@example";
const std::string kGivenImage = "ami-0abcdef1234567890";

std::string fixture(const std::string& name)
{
    std::ifstream in(GPUPLAN_SOURCE_DIR "/tests/data/cloud/aws/" + name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string errorDoc(const std::string& code, const std::string& message)
{
    std::string doc = fixture("error-invalid-instance-id.xml");
    doc.replace(doc.find("InvalidInstanceID.NotFound"), std::string("InvalidInstanceID.NotFound").size(), code);
    const std::string oldMessage = "The instance ID 'i-1a2b3c4d' does not exist";
    doc.replace(doc.find(oldMessage), oldMessage.size(), message);
    return doc;
}

std::map<std::string, std::string> formParams(const std::string& body)
{
    std::map<std::string, std::string> out;
    std::size_t start = 0;
    while (start < body.size()) {
        std::size_t end = body.find('&', start);
        if (end == std::string::npos) {
            end = body.size();
        }
        const std::string pair = body.substr(start, end - start);
        const std::size_t eq = pair.find('=');
        out[uriDecode(pair.substr(0, eq))] = eq == std::string::npos ? "" : uriDecode(pair.substr(eq + 1));
        start = end + 1;
    }
    return out;
}

std::set<std::string> signedHeaders(const std::string& authorization)
{
    std::set<std::string> out;
    const std::size_t at = authorization.find("SignedHeaders=");
    if (at == std::string::npos) {
        return out;
    }
    const std::size_t end = authorization.find(',', at);
    std::stringstream list(authorization.substr(at + 14, end - at - 14));
    std::string name;
    while (std::getline(list, name, ';')) {
        out.insert(name);
    }
    return out;
}

class RecordingTransport final : public HttpTransport
{
public:
    void queue(const std::string& action, int status, std::string body)
    {
        m_answers[action].push_back(HttpResponse{status, {}, std::move(body)});
    }
    using HttpTransport::send;
    Result<HttpResponse> send(const HttpRequest& request, const CancelToken*) override
    {
        requests.push_back(request);
        auto& answers = m_answers[formParams(request.body)["Action"]];
        if (answers.empty()) {
            return Error{ErrorCode::Network, Reason{"error.test.no_canned_answer", {}}, request.url};
        }
        HttpResponse response = answers.front();
        answers.pop_front();
        return response;
    }
    std::vector<HttpRequest> requests;

private:
    std::map<std::string, std::deque<HttpResponse>> m_answers;
};

struct Captured
{
    std::string method;
    std::string path;
    std::map<std::string, std::string> headers; // lower-case names
    std::string body;
};

} // namespace

class TestEc2Wire : public QObject
{
    Q_OBJECT

private slots:
    void requestsMatchTheSdk()
    {
        const QString sdk = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/sdk");
        const QString node = QStandardPaths::findExecutable("node");
        if (node.isEmpty()) {
            QFAIL("node is not installed: the wire test needs it to run @aws-sdk/client-ec2");
        }
        if (!QFileInfo::exists(sdk + "/node_modules/@aws-sdk/client-ec2/package.json")) {
            QFAIL("@aws-sdk/client-ec2 is not installed: run tests/integration/sdk/setup.sh");
        }

        // ---- Our side: the provider with a recording transport.
        LaunchRequest spot;
        spot.region = "us-east-1";
        spot.zone = "us-east-1b";
        spot.instanceType = "g5.xlarge";
        spot.pricing = LaunchPricing::Spot;
        spot.sshPublicKey = kPublicKey;
        spot.sshSourceCidr = "203.0.113.7/32";
        spot.userData = "#cloud-config\nruncmd:\n  - [shutdown, -h, +120]\n";
        spot.clientToken = "gp-7f3c2a9e-0b1d-4c55-9e2f-1a2b3c4d5e6f";
        spot.tags = {{"project", "vision lab"}, {"owner", "alice@example.edu"}};
        LaunchRequest dry = spot;
        dry.pricing = LaunchPricing::OnDemand;
        dry.zone.clear();
        dry.userData.clear();
        dry.imageId = kGivenImage;
        dry.dryRun = true;

        const std::string keyName = *ec2::keyPairName(kPublicKey);
        RecordingTransport transport;
        transport.queue("DescribeImages", 200, fixture("describe-images.xml"));
        transport.queue("DescribeKeyPairs", 400, errorDoc("InvalidKeyPair.NotFound", "The key pair does not exist"));
        transport.queue("ImportKeyPair", 200, fixture("import-key-pair.xml"));
        std::string noGroups = fixture("describe-security-groups.xml");
        noGroups = noGroups.substr(0, noGroups.find("<securityGroupInfo>")) + "<securityGroupInfo/>"
                   + noGroups.substr(noGroups.find("</securityGroupInfo>") + 20);
        transport.queue("DescribeSecurityGroups", 200, noGroups);
        transport.queue("CreateSecurityGroup", 200, fixture("create-security-group.xml"));
        transport.queue("AuthorizeSecurityGroupIngress", 200, fixture("authorize-security-group-ingress.xml"));
        transport.queue("RunInstances", 200, fixture("run-instances.xml"));
        std::string keys = fixture("describe-key-pairs.xml");
        keys.replace(keys.find("my-key-pair"), 11, keyName);
        transport.queue("DescribeKeyPairs", 200, keys);
        // The dry run finds the documented group, whose only inbound rule lets in its own members (no ipRanges): it
        // lacks the SSH rule, so the dry run also checks adding it (AuthorizeSecurityGroupIngress with DryRun).
        transport.queue("DescribeSecurityGroups", 200, fixture("describe-security-groups.xml"));
        const std::string dryRunPassed =
            errorDoc("DryRunOperation", "Request would have succeeded, but DryRun flag is set.");
        transport.queue("AuthorizeSecurityGroupIngress", 412, dryRunPassed);
        transport.queue("RunInstances", 412, dryRunPassed);
        transport.queue("DescribeInstances", 200, fixture("describe-instances.xml"));
        transport.queue("DescribeInstances", 200, fixture("describe-instances.xml"));
        transport.queue("TerminateInstances", 200, fixture("terminate-instances.xml"));
        transport.queue("DescribeInstanceTypeOfferings", 200, fixture("describe-instance-type-offerings.xml"));

        ProviderContext context;
        context.http = &transport;
        context.key = AccessKey{kKeyId, kSecret, {}};
        context.clock = fixedClock(utcTime(kTime));
        auto provider = makeAwsEc2Provider(context);
        auto launched = provider->launch(spot, nullptr);
        QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
        auto dryRun = provider->launch(dry, nullptr);
        QVERIFY2(dryRun.ok() && dryRun->dryRunPassed, dryRun.ok() ? "" : describe(dryRun.error()).c_str());
        QVERIFY(provider->describe("us-east-1", "i-1234567890abcdef0", nullptr).ok());
        QVERIFY(provider->listOurs("us-east-1", nullptr).ok());
        QVERIFY(provider->terminate("us-east-1", "i-1234567890abcdef0", nullptr).ok());
        QVERIFY(provider->zonesOffering("us-east-1", "g5.xlarge", nullptr).ok());
        QCOMPARE(transport.requests.size(), std::size_t(15));
        // Requests 7 and 8 (the dry run's DescribeKeyPairs and DescribeSecurityGroups) repeat 1 and 3.
        QCOMPARE(transport.requests[7].body, transport.requests[1].body);
        QCOMPARE(transport.requests[8].body, transport.requests[3].body);
        const std::vector<std::pair<std::string, std::size_t>> ours{{"DescribeImages", 0},
                                                                    {"DescribeKeyPairs", 1},
                                                                    {"ImportKeyPair", 2},
                                                                    {"DescribeSecurityGroups", 3},
                                                                    {"CreateSecurityGroup", 4},
                                                                    {"AuthorizeSecurityGroupIngress", 5},
                                                                    {"RunInstances", 6},
                                                                    {"AuthorizeSecurityGroupIngress-dry", 9},
                                                                    {"RunInstances-dry", 10},
                                                                    {"DescribeInstances", 11},
                                                                    {"DescribeInstances-list", 12},
                                                                    {"TerminateInstances", 13},
                                                                    {"DescribeInstanceTypeOfferings", 14}};

        // ---- The SDK's side, with the same inputs.
        const auto runParams = formParams(transport.requests[6].body);
        const auto createParams = formParams(transport.requests[4].body);
        const nlohmann::json inputs = {{"time", unixSeconds(utcTime(kTime))},
                                       {"region", "us-east-1"},
                                       {"keyId", kKeyId},
                                       {"secret", kSecret},
                                       {"imagePattern", std::string(ec2::kDlamiNamePattern)},
                                       {"keyName", keyName},
                                       {"publicKey", kPublicKey},
                                       {"groupName", ec2::securityGroupName(spot.sshSourceCidr)},
                                       {"groupDescription", createParams.at("GroupDescription")},
                                       {"cidr", spot.sshSourceCidr},
                                       {"createdGroupId", "sg-0a42d66a"},    // create-security-group.xml
                                       {"foundGroupId", "sg-1a2b3c4d"},      // describe-security-groups.xml
                                       {"imageId", "ami-1234567890EXAMPLE"}, // describe-images.xml
                                       {"givenImageId", kGivenImage},
                                       {"instanceType", spot.instanceType},
                                       {"zone", spot.zone},
                                       {"userData", spot.userData},
                                       {"clientToken", spot.clientToken},
                                       {"nameTag", runParams.at("TagSpecification.1.Tag.2.Value")},
                                       {"tags", spot.tags},
                                       {"instanceId", "i-1234567890abcdef0"}};
        QProcess process;
        process.setWorkingDirectory(sdk);
        process.start(node,
                      {QStringLiteral("ec2-wire.js"), QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/cloud/aws")});
        QVERIFY2(process.waitForStarted(30000), qPrintable(process.errorString()));
        process.write(QByteArray::fromStdString(inputs.dump()));
        process.closeWriteChannel();
        QVERIFY2(process.waitForFinished(120000), "node ec2-wire.js did not finish within 2 minutes");
        const QString stderrText = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, qPrintable(stderrText));
        const nlohmann::json sdkRequests =
            nlohmann::json::parse(process.readAllStandardOutput().toStdString(), nullptr, false);
        QVERIFY2(sdkRequests.is_array(), "ec2-wire.js printed no JSON array");
        QCOMPARE(sdkRequests.size(), ours.size());

        QStringList differences;
        for (std::size_t i = 0; i < ours.size(); ++i) {
            const std::string& label = ours[i].first;
            const HttpRequest& mine = transport.requests[ours[i].second];
            const nlohmann::json& theirs = sdkRequests[i];
            const QString op = QString::fromStdString(label);
            if (theirs.value("label", "") != label) {
                differences << op + ": the SDK's request " + QString::number(i) + " is "
                                   + QString::fromStdString(theirs.value("label", ""));
                continue;
            }
            Captured sdkRequest{theirs.value("method", ""), theirs.value("url", ""), {}, theirs.value("body", "")};
            for (const auto& pair : theirs["headers"]) {
                sdkRequest.headers[QString::fromStdString(pair[0].get<std::string>()).toLower().toStdString()] =
                    pair[1].get<std::string>();
            }
            // Method and path.
            const Result<Url> url = parseUrl(mine.url);
            if (sdkRequest.method != mine.method || sdkRequest.path != url->path) {
                differences << op + ": request line " + QString::fromStdString(mine.method + " " + url->path)
                                   + " vs the SDK's "
                                   + QString::fromStdString(sdkRequest.method + " " + sdkRequest.path);
            }
            // Action, Version and every parameter.
            const auto a = formParams(mine.body);
            const auto b = formParams(sdkRequest.body);
            std::set<std::string> names;
            for (const auto& [k, v] : a) {
                names.insert(k);
            }
            for (const auto& [k, v] : b) {
                names.insert(k);
            }
            for (const std::string& name : names) {
                const auto x = a.find(name);
                const auto y = b.find(name);
                if (x == a.end() || y == b.end() || x->second != y->second) {
                    differences << op + ": parameter " + QString::fromStdString(name) + " is \""
                                       + QString::fromStdString(x == a.end() ? "(absent)" : x->second)
                                       + "\" here and \""
                                       + QString::fromStdString(y == b.end() ? "(absent)" : y->second)
                                       + "\" in the SDK's request";
                }
            }
            // Content-Type and the signed header set.
            if (mine.header("content-type").value_or("") != sdkRequest.headers["content-type"]) {
                differences << op + ": Content-Type " + QString::fromStdString(mine.header("content-type").value_or(""))
                                   + " vs the SDK's " + QString::fromStdString(sdkRequest.headers["content-type"]);
            }
            const std::string sdkAuthorization = sdkRequest.headers["authorization"];
            const auto ourSigned = signedHeaders(mine.header("authorization").value_or(""));
            const auto sdkSigned = signedHeaders(sdkAuthorization);
            if (ourSigned != sdkSigned) {
                std::string list;
                for (const auto& h : ourSigned)
                    list += h + ";";
                list += " vs the SDK's ";
                for (const auto& h : sdkSigned)
                    list += h + ";";
                differences << op + ": signed headers " + QString::fromStdString(list);
            }
            // Our signer over the SDK's bytes gives the SDK's Authorization.
            HttpRequest again;
            again.method = sdkRequest.method;
            again.url = "https://" + sdkRequest.headers["host"] + sdkRequest.path;
            again.body = sdkRequest.body;
            again.headers.push_back({"Content-Type", sdkRequest.headers["content-type"]});
            auto steps = signAwsV4(
                again, AccessKey{kKeyId, kSecret, {}}, AwsSigV4Scope{"us-east-1", "ec2", true}, utcTime(kTime));
            QVERIFY(steps.ok());
            if (again.header("authorization").value_or("") != sdkAuthorization) {
                differences << op + ": our signature of the SDK's request is "
                                   + QString::fromStdString(again.header("authorization").value_or(""))
                                   + ", the SDK's is " + QString::fromStdString(sdkAuthorization);
            }
            if (again.header("x-amz-date").value_or("") != sdkRequest.headers["x-amz-date"]) {
                differences << op + ": X-Amz-Date " + QString::fromStdString(again.header("x-amz-date").value_or(""))
                                   + " vs the SDK's " + QString::fromStdString(sdkRequest.headers["x-amz-date"]);
            }
            // The token is never in our output.
            QVERIFY(mine.body.find(kSecret) == std::string::npos);
        }
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join("\n")));
    }
};

QTEST_GUILESS_MAIN(TestEc2Wire)
#include "TestEc2Wire.moc"
