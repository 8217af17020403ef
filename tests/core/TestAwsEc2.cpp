// The AWS EC2 provider without a network: the parsers read the documented response examples of every operation it
// uses (tests/data/cloud/aws, README there names each page), the error mapping gives the stable code and advice
// per EC2 error code, broken answers give clear errors, each operation builds the documented parameters, and a
// recording transport with the documented answers drives whole launches through makeAwsEc2Provider.

#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "gpuplan/cloud/PublicAddress.h"
#include "gpuplan/cloud/providers/aws/AwsEc2Provider.h"
#include "gpuplan/cloud/providers/aws/Ec2Api.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"
#include "gpuplan/net/HttpClient.h"

using namespace gpuplan::core;

namespace {

const std::string kSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci10ZXN0LWtleS1ub3QtcmVhbC0wMDAwMDAw lab@example";

std::string fixture(const std::string& name)
{
    std::ifstream in(GPUPLAN_SOURCE_DIR "/tests/data/cloud/aws/" + name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// The documented error document with another code and message.
std::string errorDoc(const std::string& code, const std::string& message)
{
    std::string doc = fixture("error-invalid-instance-id.xml");
    doc.replace(doc.find("InvalidInstanceID.NotFound"), std::string("InvalidInstanceID.NotFound").size(), code);
    const std::string oldMessage = "The instance ID 'i-1a2b3c4d' does not exist";
    doc.replace(doc.find(oldMessage), oldMessage.size(), message);
    return doc;
}

// The documented DescribeSecurityGroups answer with an inbound rule for SSH from 203.0.113.7/32 added (the rule
// authorizeSshCall creates, as DescribeSecurityGroups lists an IpPermission).
std::string withSshRule(std::string doc)
{
    const std::string rule = "<item><ipProtocol>tcp</ipProtocol><fromPort>22</fromPort><toPort>22</toPort><groups/>"
                             "<ipRanges><item><cidrIp>203.0.113.7/32</cidrIp></item></ipRanges><ipv6Ranges/>"
                             "<prefixListIds/></item>";
    doc.insert(doc.find("<ipPermissions>") + std::string("<ipPermissions>").size(), rule);
    return doc;
}

// A documented answer with its list emptied ("<securityGroupInfo>...</securityGroupInfo>" -> "<securityGroupInfo/>").
std::string emptied(const std::string& doc, const std::string& element)
{
    const std::size_t open = doc.find("<" + element + ">");
    const std::string close = "</" + element + ">";
    const std::size_t end = doc.find(close);
    return doc.substr(0, open) + "<" + element + "/>" + doc.substr(end + close.size());
}

std::map<std::string, std::string> formParams(const std::string& body)
{
    std::map<std::string, std::string> out;
    std::size_t start = 0;
    while (start <= body.size()) {
        std::size_t end = body.find('&', start);
        if (end == std::string::npos) {
            end = body.size();
        }
        const std::string pair = body.substr(start, end - start);
        const std::size_t eq = pair.find('=');
        if (eq != std::string::npos) {
            out[uriDecode(pair.substr(0, eq))] = uriDecode(pair.substr(eq + 1));
        }
        start = end + 1;
    }
    return out;
}

std::map<std::string, std::string> paramMap(const ec2::Call& call)
{
    return formParams(ec2::formBody(call));
}

// Answers each action with the next canned response queued for it and records every request.
class RecordingTransport final : public HttpTransport
{
public:
    void queue(const std::string& action, int status, std::string body)
    {
        m_answers[action].push_back(
            HttpResponse{status, {{"Content-Type", "text/xml;charset=UTF-8"}}, std::move(body)});
    }

    using HttpTransport::send;
    Result<HttpResponse> send(const HttpRequest& request, const CancelToken*) override
    {
        requests.push_back(request);
        const std::string action = formParams(request.body)["Action"];
        actions.push_back(action);
        auto& answers = m_answers[action];
        if (answers.empty()) {
            return Error{ErrorCode::Network, Reason{"error.test.no_canned_answer", {{"action", action}}}, request.url};
        }
        HttpResponse response = answers.front();
        answers.pop_front();
        return response;
    }

    std::vector<HttpRequest> requests;
    std::vector<std::string> actions;

private:
    std::map<std::string, std::deque<HttpResponse>> m_answers;
};

LaunchRequest baseRequest()
{
    LaunchRequest request;
    request.region = "us-east-1";
    request.instanceType = "g5.xlarge";
    request.sshPublicKey = kPublicKey;
    request.sshSourceCidr = "203.0.113.7/32";
    request.userData = "#cloud-config\nruncmd:\n  - [shutdown, -h, +120]\n";
    request.clientToken = "tok-0123456789abcdef";
    return request;
}

ProviderContext contextFor(HttpTransport& transport)
{
    ProviderContext context;
    context.http = &transport;
    context.key = AccessKey{"AKIDEXAMPLE", kSecret, {}};
    context.clock = fixedClock(utcTime("2026-12-01T10:00:00Z"));
    return context;
}

void checkNoSecret(const Error& error)
{
    // describe() holds the reason's key, every parameter and where: the secret is in none of them.
    QVERIFY2(describe(error).find(kSecret) == std::string::npos, describe(error).c_str());
    QVERIFY(error.providerCode.find(kSecret) == std::string::npos);
}

} // namespace

class TestAwsEc2 : public QObject
{
    Q_OBJECT

private slots:
    void providerIdentity()
    {
        RecordingTransport transport;
        auto provider = makeAwsEc2Provider(contextFor(transport));
        QVERIFY(provider);
        QCOMPARE(provider->id(), std::string("aws"));
        QVERIFY(!provider->supports(CloudFeature::Subscription));
        QVERIFY(!provider->supports(CloudFeature::ScheduledTerminate));
        QVERIFY(provider->supports(CloudFeature::Spot));
        QVERIFY(provider->supports(CloudFeature::DryRun));
        QVERIFY(provider->supports(CloudFeature::TerminateOnShutdown));
        QVERIFY(provider->supports(CloudFeature::KeyImport));
        QVERIFY(provider->supports(CloudFeature::SshSourceRestriction));
        QCOMPARE(provider->unsupportedFeatures()[CloudFeature::Subscription].key,
                 std::string("unsupported.aws.subscription"));
    }

    void endpoints()
    {
        QCOMPARE(ec2::endpointFor("us-east-1"), std::string("https://ec2.us-east-1.amazonaws.com/"));
        QCOMPARE(ec2::endpointFor("cn-north-1"), std::string("https://ec2.cn-north-1.amazonaws.com.cn/"));
        const HttpRequest request = ec2::buildRequest("http://127.0.0.1:8080", ec2::terminateCall("i-1"));
        QCOMPARE(request.url, std::string("http://127.0.0.1:8080/"));
        QCOMPARE(request.method, std::string("POST"));
        QCOMPARE(request.header("content-type").value_or(""), std::string(ec2::kContentType));
        QCOMPARE(request.body, std::string("Action=TerminateInstances&Version=2016-11-15&InstanceId.1=i-1"));
    }

    void endpointOverrideKeepsSigningRegion()
    {
        RecordingTransport transport;
        transport.queue("TerminateInstances", 200, fixture("terminate-instances.xml"));
        ProviderContext context = contextFor(transport);
        context.endpoint = "http://127.0.0.1:9";
        auto provider = makeAwsEc2Provider(context);
        QVERIFY(provider->terminate("eu-west-1", "i-1234567890abcdef0", nullptr).ok());
        QCOMPARE(transport.requests.size(), std::size_t(1));
        QCOMPARE(transport.requests[0].url, std::string("http://127.0.0.1:9/"));
        const std::string auth = transport.requests[0].header("authorization").value_or("");
        QVERIFY2(auth.find("/20261201/eu-west-1/ec2/aws4_request") != std::string::npos, auth.c_str());
        QVERIFY(auth.find(kSecret) == std::string::npos);

        context.endpoint = "http://example.com";
        auto refused = makeAwsEc2Provider(context);
        Status status = refused->terminate("eu-west-1", "i-1", nullptr);
        QVERIFY(!status.ok());
        QCOMPARE(status.error().code, ErrorCode::InvalidArgument);
    }

    // ---- Parsers on the documented examples.

    void parseRunInstances()
    {
        auto parsed = ec2::parseRunInstances(fixture("run-instances.xml"), "eu-west-1");
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : describe(parsed.error()).c_str());
        QCOMPARE(parsed->size(), std::size_t(1));
        const RemoteInstance& instance = parsed->front();
        QCOMPARE(instance.instanceId, std::string("i-1234567890abcdef0"));
        QCOMPARE(instance.state, InstanceState::Pending);
        QCOMPARE(instance.providerState, std::string("pending"));
        QCOMPARE(instance.zone, std::string("eu-west-1c"));
        QCOMPARE(instance.instanceType, std::string("t2.micro"));
        QVERIFY(instance.publicIp.empty());
    }

    void parseDescribeInstances()
    {
        auto parsed = ec2::parseDescribeInstances(fixture("describe-instances.xml"), "eu-west-1");
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->instances.size(), std::size_t(1));
        const RemoteInstance& instance = parsed->instances.front();
        QCOMPARE(instance.instanceId, std::string("i-1234567890abcdef0"));
        QCOMPARE(instance.state, InstanceState::Running);
        QCOMPARE(instance.providerState, std::string("running"));
        QCOMPARE(instance.clientToken, std::string("xMcwG14507example"));
        QCOMPARE(instance.publicIp, std::string("54.194.252.215"));
        QCOMPARE(instance.zone, std::string("eu-west-1c"));
        QCOMPARE(instance.region, std::string("eu-west-1"));
        QCOMPARE(instance.instanceType, std::string("t2.micro"));
        QCOMPARE(instance.launchedAt.value_or(0), std::int64_t(1525797979)); // 2018-05-08T16:46:19Z
        QCOMPARE(instance.pricingMode, std::string("on_demand"));            // no <instanceLifecycle>
        QVERIFY(parsed->nextToken.empty());

        std::string spot = fixture("describe-instances.xml");
        spot.replace(spot.find("</instanceId>"), 13, "</instanceId><instanceLifecycle>spot</instanceLifecycle>");
        QCOMPARE(ec2::parseDescribeInstances(spot, "eu-west-1")->instances.front().pricingMode, std::string("spot"));
    }

    void clientTokenFromTagWhenAbsent()
    {
        std::string doc = fixture("describe-instances.xml");
        doc.replace(doc.find("<clientToken>xMcwG14507example</clientToken>"),
                    std::string("<clientToken>xMcwG14507example</clientToken>").size(),
                    "");
        doc.replace(doc.find("<key>Name</key>"), std::string("<key>Name</key>").size(), "<key>gpuplanner-token</key>");
        auto parsed = ec2::parseDescribeInstances(doc, "eu-west-1");
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->instances.front().clientToken, std::string("Server_1"));
    }

    void parseStates_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("state");
        QTest::newRow("pending") << "pending" << int(InstanceState::Pending);
        QTest::newRow("running") << "running" << int(InstanceState::Running);
        QTest::newRow("shutting-down") << "shutting-down" << int(InstanceState::Stopping);
        QTest::newRow("stopping") << "stopping" << int(InstanceState::Stopping);
        QTest::newRow("stopped") << "stopped" << int(InstanceState::Stopped);
        QTest::newRow("terminated") << "terminated" << int(InstanceState::Terminated);
    }
    void parseStates()
    {
        QFETCH(QString, name);
        QFETCH(int, state);
        QCOMPARE(int(ec2::stateFromEc2(name.toStdString())), state);
    }

    void parseTerminateInstances()
    {
        auto parsed = ec2::parseTerminateInstances(fixture("terminate-instances.xml"));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->front().instanceId, std::string("i-1234567890abcdef0"));
        QCOMPARE(parsed->front().currentState, std::string("shutting-down"));
    }

    void parseDescribeImages()
    {
        auto parsed = ec2::parseDescribeImages(fixture("describe-images.xml"));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->size(), std::size_t(1));
        QCOMPARE(parsed->front().imageId, std::string("ami-1234567890EXAMPLE"));
        QCOMPARE(parsed->front().name, std::string("My server"));
        QCOMPARE(parsed->front().state, std::string("available"));
        QCOMPARE(parsed->front().creationDate, std::string("2017-10-04T00:00:00.000Z"));

        std::vector<ec2::Image> images{{"ami-old", "old", "2026-10-01T00:00:00.000Z", "available", "x86_64"},
                                       {"ami-new", "new", "2026-11-20T00:00:00.000Z", "available", "x86_64"},
                                       {"ami-broken", "newest", "2026-12-01T00:00:00.000Z", "failed", "x86_64"}};
        QCOMPARE(ec2::newestImage(images)->imageId, std::string("ami-new"));
        QVERIFY(!ec2::newestImage({}).has_value());
    }

    void parseKeyPairs()
    {
        auto keys = ec2::parseDescribeKeyPairs(fixture("describe-key-pairs.xml"));
        QVERIFY(keys.ok());
        QCOMPARE(keys->front().keyName, std::string("my-key-pair"));
        QCOMPARE(keys->front().fingerprint, std::string("1f:51:ae:28:bf:89:e9:d8:1f:25:5d:37:2d:7d:b8:ca:9f:f5:f1:6f"));
        auto imported = ec2::parseImportKeyPair(fixture("import-key-pair.xml"));
        QVERIFY(imported.ok());
        QCOMPARE(imported->keyName, std::string("my-key-pair"));
        QCOMPARE(imported->keyPairId, std::string("key-abced1234eEXAMPLE"));
    }

    void parseSecurityGroups()
    {
        auto groups = ec2::parseDescribeSecurityGroups(fixture("describe-security-groups.xml"));
        QVERIFY(groups.ok());
        QCOMPARE(groups->size(), std::size_t(1));
        QCOMPARE(groups->front().groupId, std::string("sg-1a2b3c4d"));
        QCOMPARE(groups->front().groupName, std::string("WebServers"));
        QCOMPARE(groups->front().vpcId, std::string("vpc-614cc409"));
        // The documented group lets in every protocol from its own members only: no SSH from an address.
        QCOMPARE(groups->front().ingress.size(), std::size_t(1));
        QCOMPARE(groups->front().ingress.front().protocol, std::string("-1"));
        QVERIFY(groups->front().ingress.front().cidrs.empty());
        QVERIFY(!ec2::allowsSshFrom(groups->front(), "203.0.113.7/32"));
        ec2::SecurityGroup ours = groups->front();
        ours.ingress = {{"tcp", 22, 22, {"198.51.100.1/32", "203.0.113.7/32"}}};
        QVERIFY(ec2::allowsSshFrom(ours, "203.0.113.7/32"));
        QVERIFY(!ec2::allowsSshFrom(ours, "203.0.113.8/32"));
        ours.ingress = {{"tcp", 80, 443, {"203.0.113.7/32"}}, {"udp", 22, 22, {"203.0.113.7/32"}}};
        QVERIFY(!ec2::allowsSshFrom(ours, "203.0.113.7/32"));
        ours.ingress = {{"tcp", 0, 65535, {"203.0.113.7/32"}}};
        QVERIFY(ec2::allowsSshFrom(ours, "203.0.113.7/32"));
        auto none =
            ec2::parseDescribeSecurityGroups(emptied(fixture("describe-security-groups.xml"), "securityGroupInfo"));
        QVERIFY(none.ok());
        QVERIFY(none->empty());
        auto created = ec2::parseCreateSecurityGroup(fixture("create-security-group.xml"));
        QVERIFY(created.ok());
        QCOMPARE(*created, std::string("sg-0a42d66a"));
        QVERIFY(ec2::parseAuthorizeSecurityGroupIngress(fixture("authorize-security-group-ingress.xml")).ok());
    }

    void parseOfferings()
    {
        auto page = ec2::parseInstanceTypeOfferings(fixture("describe-instance-type-offerings.xml"));
        QVERIFY(page.ok());
        QCOMPARE(page->zones, (std::vector<std::string>{"us-east-1b", "us-east-1a"}));
    }

    void parseErrorDocument()
    {
        auto error = ec2::parseError(fixture("error-invalid-instance-id.xml"));
        QVERIFY(error.has_value());
        QCOMPARE(error->code, std::string("InvalidInstanceID.NotFound"));
        QCOMPARE(error->message, std::string("The instance ID 'i-1a2b3c4d' does not exist"));
        QCOMPARE(error->requestId, std::string("ea966190-f9aa-478e-9ede-example"));
        QVERIFY(!ec2::parseError("<html>busy</html>").has_value());
        QVERIFY(!ec2::parseError("").has_value());
    }

    // ---- Broken answers.

    void malformedAnswers_data()
    {
        QTest::addColumn<QString>("operation");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("value");
        QTest::newRow("not xml") << "DescribeInstances"
                                 << "<html><body>Bad gateway"
                                 << "error.ec2.answer_not_xml"
                                 << "byte"
                                 << "";
        QTest::newRow("empty") << "RunInstances"
                               << ""
                               << "error.ec2.answer_not_xml"
                               << "byte"
                               << "";
        QTest::newRow("wrong root") << "RunInstances" << QString::fromStdString(fixture("terminate-instances.xml"))
                                    << "error.ec2.answer_wrong_root"
                                    << "root"
                                    << "TerminateInstancesResponse";
        QTest::newRow("no instance") << "RunInstances"
                                     << QString::fromStdString(emptied(fixture("run-instances.xml"), "instancesSet"))
                                     << "error.ec2.answer_without_instance"
                                     << ""
                                     << "";
        QTest::newRow("no reservationSet")
            << "DescribeInstances"
            << "<DescribeInstancesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"/>"
            << "error.ec2.answer_missing"
            << "element"
            << "reservationSet";
        QTest::newRow("no groupId")
            << "CreateSecurityGroup"
            << "<CreateSecurityGroupResponse><return>true</return></CreateSecurityGroupResponse>"
            << "error.ec2.answer_missing"
            << "element"
            << "groupId";
        QTest::newRow("authorize false") << "AuthorizeSecurityGroupIngress"
                                         << "<AuthorizeSecurityGroupIngressResponse><return>false</return>"
                                            "</AuthorizeSecurityGroupIngressResponse>"
                                         << "error.ec2.ssh_rule_not_added"
                                         << ""
                                         << "";
        QTest::newRow("image without id")
            << "DescribeImages"
            << "<DescribeImagesResponse><imagesSet><item><name>x</name></item></imagesSet></DescribeImagesResponse>"
            << "error.ec2.answer_image_without_id"
            << ""
            << "";
    }
    void malformedAnswers()
    {
        QFETCH(QString, operation);
        QFETCH(QString, body);
        QFETCH(QString, key);
        QFETCH(QString, param);
        QFETCH(QString, value);
        const std::string text = body.toStdString();
        std::optional<Error> error;
        const std::string op = operation.toStdString();
        if (op == "DescribeInstances") {
            auto r = ec2::parseDescribeInstances(text, "us-east-1");
            if (!r)
                error = r.error();
        } else if (op == "RunInstances") {
            auto r = ec2::parseRunInstances(text, "us-east-1");
            if (!r)
                error = r.error();
        } else if (op == "CreateSecurityGroup") {
            auto r = ec2::parseCreateSecurityGroup(text);
            if (!r)
                error = r.error();
        } else if (op == "AuthorizeSecurityGroupIngress") {
            auto r = ec2::parseAuthorizeSecurityGroupIngress(text);
            if (!r)
                error = r.error();
        } else if (op == "DescribeImages") {
            auto r = ec2::parseDescribeImages(text);
            if (!r)
                error = r.error();
        }
        QVERIFY(error.has_value());
        QCOMPARE(error->code, ErrorCode::ProviderRefused);
        QCOMPARE(error->reason.key, key.toStdString());
        QCOMPARE(error->reason.params.at("action"), op);
        QCOMPARE(error->where, "ec2 " + op);
        if (!param.isEmpty()) {
            // A parameter that must be there (and, when given, its value).
            QVERIFY2(error->reason.params.count(param.toStdString()) == 1, describe(*error).c_str());
            if (!value.isEmpty()) {
                QCOMPARE(error->reason.params.at(param.toStdString()), value.toStdString());
            }
        }
    }

    // ---- Error mapping.

    void errorMapping_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("action");
        QTest::addColumn<bool>("spot");
        QTest::addColumn<int>("expected");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("value");
        QTest::newRow("capacity") << "InsufficientInstanceCapacity" << 500 << "RunInstances" << false
                                  << int(ErrorCode::InsufficientCapacity) << "error.ec2.no_capacity"
                                  << "zone"
                                  << "us-east-1a";
        QTest::newRow("capacity2") << "InsufficientCapacity" << 500 << "RunInstances" << false
                                   << int(ErrorCode::InsufficientCapacity) << "error.ec2.no_capacity"
                                   << "instance_type"
                                   << "g5.xlarge";
        QTest::newRow("unsupported zone") << "Unsupported" << 400 << "RunInstances" << false
                                          << int(ErrorCode::InsufficientCapacity) << "error.ec2.no_capacity"
                                          << "zone"
                                          << "us-east-1a";
        QTest::newRow("vcpu on-demand") << "VcpuLimitExceeded" << 400 << "RunInstances" << false
                                        << int(ErrorCode::QuotaExceeded) << "error.ec2.on_demand_quota"
                                        << "quota"
                                        << "Running On-Demand G and VT instances";
        QTest::newRow("vcpu spot") << "VcpuLimitExceeded" << 400 << "RunInstances" << true
                                   << int(ErrorCode::QuotaExceeded) << "error.ec2.spot_quota"
                                   << "quota"
                                   << "All G and VT Spot Instance Requests";
        QTest::newRow("instance limit") << "InstanceLimitExceeded" << 400 << "RunInstances" << false
                                        << int(ErrorCode::QuotaExceeded) << "error.ec2.on_demand_quota"
                                        << "region"
                                        << "us-east-1";
        QTest::newRow("max spot") << "MaxSpotInstanceCountExceeded" << 400 << "RunInstances" << false
                                  << int(ErrorCode::QuotaExceeded) << "error.ec2.spot_quota"
                                  << "quota"
                                  << "All G and VT Spot Instance Requests";
        QTest::newRow("unauthorized") << "UnauthorizedOperation" << 403 << "RunInstances" << false
                                      << int(ErrorCode::PermissionDenied) << "error.ec2.permission_missing"
                                      << "action"
                                      << "RunInstances";
        QTest::newRow("unauthorized decode") << "UnauthorizedOperation" << 403 << "ImportKeyPair" << false
                                             << int(ErrorCode::PermissionDenied) << "error.ec2.permission_missing"
                                             << "action"
                                             << "ImportKeyPair";
        QTest::newRow("auth failure") << "AuthFailure" << 401 << "DescribeInstances" << false
                                      << int(ErrorCode::Credentials) << "error.ec2.key_refused"
                                      << ""
                                      << "";
        QTest::newRow("client token id") << "InvalidClientTokenId" << 401 << "DescribeInstances" << false
                                         << int(ErrorCode::Credentials) << "error.ec2.key_refused"
                                         << ""
                                         << "";
        QTest::newRow("signature") << "SignatureDoesNotMatch" << 403 << "DescribeInstances" << false
                                   << int(ErrorCode::Credentials) << "error.ec2.key_refused"
                                   << ""
                                   << "";
        QTest::newRow("opt in") << "OptInRequired" << 401 << "DescribeInstances" << false << int(ErrorCode::Credentials)
                                << "error.ec2.opt_in_required"
                                << ""
                                << "";
        QTest::newRow("expired") << "RequestExpired" << 400 << "DescribeInstances" << false << int(ErrorCode::ClockSkew)
                                 << "error.ec2.clock_skew"
                                 << ""
                                 << "";
        QTest::newRow("skewed") << "RequestTimeTooSkewed" << 403 << "DescribeInstances" << false
                                << int(ErrorCode::ClockSkew) << "error.ec2.clock_skew"
                                << ""
                                << "";
        QTest::newRow("throttled") << "RequestLimitExceeded" << 503 << "DescribeInstances" << false
                                   << int(ErrorCode::Throttled) << "error.ec2.throttled"
                                   << ""
                                   << "";
        QTest::newRow("instance not found") << "InvalidInstanceID.NotFound" << 400 << "DescribeInstances" << false
                                            << int(ErrorCode::NotFound) << "error.ec2.not_found"
                                            << "code"
                                            << "InvalidInstanceID.NotFound";
        QTest::newRow("ami not found") << "InvalidAMIID.NotFound" << 400 << "RunInstances" << false
                                       << int(ErrorCode::NotFound) << "error.ec2.not_found"
                                       << "code"
                                       << "InvalidAMIID.NotFound";
        QTest::newRow("idempotency") << "IdempotentParameterMismatch" << 400 << "RunInstances" << false
                                     << int(ErrorCode::ProviderRefused) << "error.ec2.client_token_reused"
                                     << ""
                                     << "";
        QTest::newRow("other") << "InvalidParameterValue" << 400 << "RunInstances" << false
                               << int(ErrorCode::ProviderRefused) << "error.ec2.refused"
                               << "code"
                               << "InvalidParameterValue";
    }
    void errorMapping()
    {
        QFETCH(QString, code);
        QFETCH(int, status);
        QFETCH(QString, action);
        QFETCH(bool, spot);
        QFETCH(int, expected);
        QFETCH(QString, key);
        QFETCH(QString, param);
        QFETCH(QString, value);
        HttpResponse response{status, {}, errorDoc(code.toStdString(), "Message from EC2.")};
        const Error error = ec2::mapError(
            response, ec2::ErrorContext{action.toStdString(), "us-east-1", "g5.xlarge", "us-east-1a", spot});
        QCOMPARE(int(error.code), expected);
        QCOMPARE(error.providerCode, code.toStdString());
        QCOMPARE(error.httpStatus, status);
        QCOMPARE(error.reason.key, key.toStdString());
        if (!param.isEmpty()) {
            QVERIFY2(error.reason.params.count(param.toStdString()) == 1, describe(error).c_str());
            QCOMPARE(error.reason.params.at(param.toStdString()), value.toStdString());
        }
        if (error.code == ErrorCode::InsufficientCapacity || error.code == ErrorCode::QuotaExceeded) {
            // The advice names the type and where: "no g5.xlarge free in us-east-1a now", "... used up in us-east-1".
            QCOMPARE(error.reason.params.at("instance_type"), std::string("g5.xlarge"));
            QCOMPARE(error.reason.params.at(error.code == ErrorCode::QuotaExceeded ? "region" : "zone"),
                     std::string(error.code == ErrorCode::QuotaExceeded ? "us-east-1" : "us-east-1a"));
        }
        QCOMPARE(error.reason.params.at("request_id"), std::string("ea966190-f9aa-478e-9ede-example"));
        QCOMPARE(error.reason.params.at("said"), std::string("Message from EC2."));
        checkNoSecret(error);
    }

    void errorWithoutDocument()
    {
        const Error error = ec2::mapError(HttpResponse{502, {}, "<html>Bad Gateway</html>"},
                                          ec2::ErrorContext{"DescribeInstances", "us-east-1", {}, {}, false});
        QCOMPARE(error.code, ErrorCode::HttpStatus);
        QCOMPARE(error.httpStatus, 502);
        QCOMPARE(error.reason.key, std::string("error.ec2.http_status_without_document"));
        QCOMPARE(error.reason.params.at("action"), std::string("DescribeInstances"));
        QCOMPARE(error.reason.params.at("status"), std::string("502"));
    }

    void quotaNames_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<bool>("spot");
        QTest::addColumn<QString>("quota");
        QTest::newRow("p4d") << "p4d.24xlarge" << false << "Running On-Demand P instances";
        QTest::newRow("p5 spot") << "p5.48xlarge" << true << "All P Spot Instance Requests";
        QTest::newRow("g6") << "g6.xlarge" << false << "Running On-Demand G and VT instances";
        QTest::newRow("vt1 spot") << "vt1.3xlarge" << true << "All G and VT Spot Instance Requests";
        QTest::newRow("m5") << "m5.large" << false
                            << "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances";
    }
    void quotaNames()
    {
        QFETCH(QString, type);
        QFETCH(bool, spot);
        QFETCH(QString, quota);
        QCOMPARE(ec2::quotaNameFor(type.toStdString(), spot), quota.toStdString());
    }

    // ---- Requests.

    void names()
    {
        auto name = ec2::keyPairName(kPublicKey);
        QVERIFY(name.ok());
        QCOMPARE(name->size(), std::string("gpuplanner-").size() + 12);
        QCOMPARE(
            *name,
            "gpuplanner-"
                + sha256Hex("AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci10ZXN0LWtleS1ub3QtcmVhbC0wMDAwMDAw").substr(0, 12));
        QCOMPARE(*ec2::keyPairName(kPublicKey + "\n"), *name); // same key, same pair
        QVERIFY(!ec2::keyPairName("not a key").ok());
        QCOMPARE(ec2::securityGroupName("203.0.113.7/32"), std::string("gpuplanner-ssh-203-0-113-7-32"));
        QVERIFY(checkSshSourceCidr("203.0.113.7/32", true).ok());
        QCOMPARE(checkSshSourceCidr("", true).error().code, ErrorCode::InvalidArgument);
        QCOMPARE(checkSshSourceCidr("0.0.0.0/0", true).error().code, ErrorCode::InvalidArgument);
        QVERIFY(!checkSshSourceCidr("example.com", true).ok());
        // An address alone is that one host (issue 23: "--ssh-from 198.51.100.1" was refused without "/32").
        QCOMPARE(sshSourceCidrOf(" 198.51.100.1 "), std::string("198.51.100.1/32"));
        QCOMPARE(sshSourceCidrOf("2001:db8::1"), std::string("2001:db8::1/128"));
        QCOMPARE(sshSourceCidrOf("198.51.100.0/24"), std::string("198.51.100.0/24"));
        QCOMPARE(sshSourceCidrOf("example.com"), std::string("example.com")); // left for the check to name
        QCOMPARE(sshSourceCidrOf("0.0.0.0"), std::string("0.0.0.0/32"));
        QVERIFY(checkSshSourceCidr(sshSourceCidrOf("198.51.100.1"), true).ok());
    }

    void readRequests()
    {
        QCOMPARE(paramMap(ec2::describeImagesCall(std::string(ec2::kDlamiNamePattern))),
                 (std::map<std::string, std::string>{
                     {"Action", "DescribeImages"},
                     {"Version", "2016-11-15"},
                     {"Owner.1", "amazon"},
                     {"Filter.1.Name", "name"},
                     {"Filter.1.Value.1", "Deep Learning Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04) ????????"},
                     {"Filter.2.Name", "state"},
                     {"Filter.2.Value.1", "available"},
                     {"Filter.3.Name", "architecture"},
                     {"Filter.3.Value.1", "x86_64"}}));
        QCOMPARE(paramMap(ec2::describeKeyPairsCall("gpuplanner-abc"))["KeyName.1"], std::string("gpuplanner-abc"));
        auto import = paramMap(ec2::importKeyPairCall("k", kPublicKey, false));
        QCOMPARE(import["PublicKeyMaterial"], base64(kPublicKey));
        QVERIFY(!import.contains("DryRun"));
        QCOMPARE(paramMap(ec2::importKeyPairCall("k", kPublicKey, true))["DryRun"], std::string("true"));
        auto groups = paramMap(ec2::describeSecurityGroupsCall("gpuplanner-ssh-x"));
        QCOMPARE(groups["Filter.1.Name"], std::string("group-name"));
        QCOMPARE(groups["Filter.1.Value.1"], std::string("gpuplanner-ssh-x"));
        auto create = paramMap(ec2::createSecurityGroupCall("g", "203.0.113.7/32", false));
        QVERIFY(create["GroupDescription"].find("GPU Planner: SSH from one address") == 0);
        auto authorize = paramMap(ec2::authorizeSshCall("sg-1", "203.0.113.7/32", false));
        QCOMPARE(authorize["GroupId"], std::string("sg-1"));
        QCOMPARE(authorize["IpPermissions.1.IpProtocol"], std::string("tcp"));
        QCOMPARE(authorize["IpPermissions.1.FromPort"], std::string("22"));
        QCOMPARE(authorize["IpPermissions.1.ToPort"], std::string("22"));
        QCOMPARE(authorize["IpPermissions.1.IpRanges.1.CidrIp"], std::string("203.0.113.7/32"));
        auto list = paramMap(ec2::listOursCall("page2"));
        QCOMPARE(list["Filter.1.Name"], std::string("tag-key"));
        QCOMPARE(list["Filter.1.Value.1"], std::string("gpuplanner-token"));
        QCOMPARE(list["MaxResults"], std::string("1000"));
        QCOMPARE(list["NextToken"], std::string("page2"));
        auto offerings = paramMap(ec2::instanceTypeOfferingsCall("g5.xlarge", {}));
        QCOMPARE(offerings["LocationType"], std::string("availability-zone"));
        QCOMPARE(offerings["Filter.1.Name"], std::string("instance-type"));
        QCOMPARE(offerings["Filter.1.Value.1"], std::string("g5.xlarge"));
        QVERIFY(ec2::describeInstanceCall("i-1").safeToRetry);
        QVERIFY(ec2::terminateCall("i-1").safeToRetry);
        QVERIFY(!ec2::importKeyPairCall("k", kPublicKey, false).safeToRetry);
    }

    void runInstancesOnDemand()
    {
        LaunchRequest request = baseRequest();
        request.tags = {{"project", "vision"}};
        auto call = ec2::runInstancesCall(request, "ami-1", "gpuplanner-k", "sg-1");
        QVERIFY(call.ok());
        QVERIFY(call->safeToRetry);
        const std::map<std::string, std::string> expected{{"Action", "RunInstances"},
                                                          {"Version", "2016-11-15"},
                                                          {"ImageId", "ami-1"},
                                                          {"InstanceType", "g5.xlarge"},
                                                          {"MinCount", "1"},
                                                          {"MaxCount", "1"},
                                                          {"KeyName", "gpuplanner-k"},
                                                          {"SecurityGroupId.1", "sg-1"},
                                                          {"UserData", base64(request.userData)},
                                                          {"ClientToken", "tok-0123456789abcdef"},
                                                          {"InstanceInitiatedShutdownBehavior", "terminate"},
                                                          {"TagSpecification.1.ResourceType", "instance"},
                                                          {"TagSpecification.1.Tag.1.Key", "gpuplanner-token"},
                                                          {"TagSpecification.1.Tag.1.Value", "tok-0123456789abcdef"},
                                                          {"TagSpecification.1.Tag.2.Key", "Name"},
                                                          {"TagSpecification.1.Tag.2.Value", "gpuplanner-tok-0123"},
                                                          {"TagSpecification.1.Tag.3.Key", "project"},
                                                          {"TagSpecification.1.Tag.3.Value", "vision"}};
        QCOMPARE(paramMap(*call), expected);
    }

    void runInstancesVariants()
    {
        LaunchRequest request = baseRequest();
        request.pricing = LaunchPricing::Spot;
        request.zone = "us-east-1b";
        request.dryRun = true;
        request.userData.clear();
        auto params = paramMap(*ec2::runInstancesCall(request, "ami-1", "k", ""));
        QCOMPARE(params["InstanceMarketOptions.MarketType"], std::string("spot"));
        QCOMPARE(params["InstanceMarketOptions.SpotOptions.SpotInstanceType"], std::string("one-time"));
        QCOMPARE(params["InstanceMarketOptions.SpotOptions.InstanceInterruptionBehavior"], std::string("terminate"));
        QCOMPARE(params["Placement.AvailabilityZone"], std::string("us-east-1b"));
        QCOMPARE(params["DryRun"], std::string("true"));
        QVERIFY(!params.contains("UserData"));
        QVERIFY(!params.contains("SecurityGroupId.1"));
        // Without a limit of the user's own, no MaxPrice: EC2 caps the price at the On-Demand price.
        QVERIFY(!params.contains("InstanceMarketOptions.SpotOptions.MaxPrice"));
        request.spotPriceLimit = 0.95;
        params = paramMap(*ec2::runInstancesCall(request, "ami-1", "k", ""));
        QCOMPARE(params["InstanceMarketOptions.SpotOptions.MaxPrice"], std::string("0.95"));

        LaunchRequest big = baseRequest();
        big.userData = std::string(12289, 'x'); // 16388 bytes once encoded
        auto tooBig = ec2::runInstancesCall(big, "ami-1", "k", "sg");
        QVERIFY(!tooBig.ok());
        QCOMPARE(tooBig.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(tooBig.error().reason.key, std::string("error.ec2.user_data_too_big"));
        QCOMPARE(tooBig.error().reason.params.at("bytes"), std::string("16388"));
        big.userData = std::string(12288, 'x'); // exactly 16384
        QVERIFY(ec2::runInstancesCall(big, "ami-1", "k", "sg").ok());

        LaunchRequest noToken = baseRequest();
        noToken.clientToken.clear();
        QCOMPARE(ec2::runInstancesCall(noToken, "a", "k", "s").error().code, ErrorCode::InvalidArgument);
        noToken.clientToken = std::string(65, 't');
        QCOMPARE(ec2::runInstancesCall(noToken, "a", "k", "s").error().code, ErrorCode::InvalidArgument);

        LaunchRequest monthly = baseRequest();
        monthly.pricing = LaunchPricing::Subscription;
        auto refused = ec2::runInstancesCall(monthly, "a", "k", "s");
        QCOMPARE(refused.error().code, ErrorCode::ProviderRefused);
        QCOMPARE(refused.error().reason.key, std::string("error.ec2.no_subscription"));
    }

    // ---- Whole operations through the provider.

    void wholeLaunch()
    {
        RecordingTransport transport;
        std::string older = fixture("describe-images.xml");
        // Two DLAMI releases (the documented image item, renamed and dated): the newer one must be chosen.
        std::string images = older;
        const std::size_t itemStart = images.find("<item>");
        const std::size_t itemEnd = images.find("</imagesSet>");
        std::string item = images.substr(itemStart, itemEnd - itemStart);
        auto dated = [&](const std::string& id, const std::string& date) {
            std::string copy = item;
            copy.replace(copy.find("ami-1234567890EXAMPLE"), 21, id);
            copy.replace(copy.find("2017-10-04T00:00:00.000Z"), 24, date + "T00:00:00.000Z");
            copy.replace(copy.find("<name>My server</name>"),
                         22,
                         "<name>Deep Learning Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04) " + date.substr(0, 4)
                             + date.substr(5, 2) + date.substr(8, 2) + "</name>");
            return copy;
        };
        images = images.substr(0, itemStart) + dated("ami-0old", "2026-10-02") + dated("ami-0new", "2026-11-20")
                 + images.substr(itemEnd);
        transport.queue("DescribeImages", 200, images);
        transport.queue("DescribeKeyPairs", 400, errorDoc("InvalidKeyPair.NotFound", "The key pair does not exist"));
        transport.queue("ImportKeyPair", 200, fixture("import-key-pair.xml"));
        transport.queue(
            "DescribeSecurityGroups", 200, emptied(fixture("describe-security-groups.xml"), "securityGroupInfo"));
        transport.queue("CreateSecurityGroup", 200, fixture("create-security-group.xml"));
        transport.queue("AuthorizeSecurityGroupIngress", 200, fixture("authorize-security-group-ingress.xml"));
        transport.queue("RunInstances", 200, fixture("run-instances.xml"));
        auto provider = makeAwsEc2Provider(contextFor(transport));
        auto result = provider->launch(baseRequest(), nullptr);
        QVERIFY2(result.ok(), result.ok() ? "" : describe(result.error()).c_str());
        QCOMPARE(transport.actions,
                 (std::vector<std::string>{"DescribeImages",
                                           "DescribeKeyPairs",
                                           "ImportKeyPair",
                                           "DescribeSecurityGroups",
                                           "CreateSecurityGroup",
                                           "AuthorizeSecurityGroupIngress",
                                           "RunInstances"}));
        QCOMPARE(result->instanceId, std::string("i-1234567890abcdef0"));
        QCOMPARE(result->state, InstanceState::Pending);
        QCOMPARE(result->zone, std::string("eu-west-1c"));
        QVERIFY(!result->dryRunPassed);
        QCOMPARE(result->steps.size(), std::size_t(4));
        // The steps are keys with their ids (ui/wording/LaunchText words them; TestPlanText checks the words).
        QCOMPARE(result->steps[0].key, std::string("step.ec2.image_found"));
        QCOMPARE(result->steps[0].params,
                 (std::map<std::string, std::string>{
                     {"image", "ami-0new"},
                     {"name", "Deep Learning Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04) 20261120"},
                     {"created", "2026-11-20"}}));
        QCOMPARE(result->steps[1].key, std::string("step.ec2.key_pair_imported"));
        QCOMPARE(result->steps[1].params.at("key_pair"), std::string("my-key-pair"));
        QCOMPARE(result->steps[2].key, std::string("step.ec2.group_created"));
        QCOMPARE(result->steps[2].params,
                 (std::map<std::string, std::string>{{"group_id", "sg-0a42d66a"}, {"cidr", "203.0.113.7/32"}}));
        QCOMPARE(result->steps[3].key, std::string("step.ec2.launched"));
        QCOMPARE(result->steps[3].params.at("instance_id"), std::string("i-1234567890abcdef0"));

        const auto run = formParams(transport.requests.back().body);
        QCOMPARE(run.at("ImageId"), std::string("ami-0new"));
        QCOMPARE(run.at("SecurityGroupId.1"), std::string("sg-0a42d66a"));
        QCOMPARE(run.at("KeyName"), *ec2::keyPairName(kPublicKey));
        QCOMPARE(formParams(transport.requests[2].body).at("KeyName"), *ec2::keyPairName(kPublicKey));
        QCOMPARE(formParams(transport.requests[5].body).at("GroupId"), std::string("sg-0a42d66a"));
        for (const HttpRequest& request : transport.requests) {
            QCOMPARE(request.url, std::string("https://ec2.us-east-1.amazonaws.com/"));
            QVERIFY(request.header("authorization").value_or("").find("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") == 0);
            QCOMPARE(request.header("x-amz-date").value_or(""), std::string("20261201T100000Z"));
            QVERIFY(request.body.find(kSecret) == std::string::npos);
        }
        QVERIFY(transport.requests.back().safeToRetry);
        QVERIFY(!transport.requests[2].safeToRetry);
    }

    void launchReusesKeyAndGroup()
    {
        RecordingTransport transport;
        std::string keys = fixture("describe-key-pairs.xml");
        const std::string name = *ec2::keyPairName(kPublicKey);
        keys.replace(keys.find("my-key-pair"), 11, name);
        transport.queue("DescribeKeyPairs", 200, keys);
        transport.queue("DescribeSecurityGroups", 200, withSshRule(fixture("describe-security-groups.xml")));
        transport.queue("RunInstances", 200, fixture("run-instances.xml"));
        LaunchRequest request = baseRequest();
        request.imageId = "ami-given";
        auto result = makeAwsEc2Provider(contextFor(transport))->launch(request, nullptr);
        QVERIFY(result.ok());
        QCOMPARE(transport.actions,
                 (std::vector<std::string>{"DescribeKeyPairs", "DescribeSecurityGroups", "RunInstances"}));
        QCOMPARE(formParams(transport.requests.back().body).at("SecurityGroupId.1"), std::string("sg-1a2b3c4d"));
        QCOMPARE(formParams(transport.requests.back().body).at("ImageId"), std::string("ami-given"));
    }

    // Issue 20, finding 10: a group found by name that no longer lets SSH in from the launch's source (the
    // documented group has no such rule) gets the rule again before RunInstances; a dry run only checks it.
    void aReusedGroupWithoutItsSshRuleGetsItBack()
    {
        RecordingTransport transport;
        std::string keys = fixture("describe-key-pairs.xml");
        keys.replace(keys.find("my-key-pair"), 11, *ec2::keyPairName(kPublicKey));
        transport.queue("DescribeKeyPairs", 200, keys);
        transport.queue("DescribeSecurityGroups", 200, fixture("describe-security-groups.xml"));
        transport.queue("AuthorizeSecurityGroupIngress", 200, fixture("authorize-security-group-ingress.xml"));
        transport.queue("RunInstances", 200, fixture("run-instances.xml"));
        LaunchRequest request = baseRequest();
        request.imageId = "ami-given";
        auto result = makeAwsEc2Provider(contextFor(transport))->launch(request, nullptr);
        QVERIFY2(result.ok(), result.ok() ? "" : describe(result.error()).c_str());
        QCOMPARE(transport.actions,
                 (std::vector<std::string>{
                     "DescribeKeyPairs", "DescribeSecurityGroups", "AuthorizeSecurityGroupIngress", "RunInstances"}));
        const auto authorize = formParams(transport.requests[2].body);
        QCOMPARE(authorize.at("GroupId"), std::string("sg-1a2b3c4d"));
        QCOMPARE(authorize.at("IpPermissions.1.IpRanges.1.CidrIp"), std::string("203.0.113.7/32"));
        QCOMPARE(authorize.at("IpPermissions.1.FromPort"), std::string("22"));
        QVERIFY(authorize.find("DryRun") == authorize.end());
        QCOMPARE(result->steps[2].key, std::string("step.ec2.group_rule_added_again"));
        QCOMPARE(result->steps[2].params.at("group_id"), std::string("sg-1a2b3c4d"));

        // Added meanwhile by another launch: InvalidPermission.Duplicate is fine.
        RecordingTransport raced;
        raced.queue("DescribeKeyPairs", 200, keys);
        raced.queue("DescribeSecurityGroups", 200, fixture("describe-security-groups.xml"));
        raced.queue("AuthorizeSecurityGroupIngress", 400, errorDoc("InvalidPermission.Duplicate", "already exists"));
        raced.queue("RunInstances", 200, fixture("run-instances.xml"));
        QVERIFY(makeAwsEc2Provider(contextFor(raced))->launch(request, nullptr).ok());

        RecordingTransport dry;
        const std::string wouldSucceed = errorDoc("DryRunOperation", "Request would have succeeded.");
        dry.queue("DescribeKeyPairs", 200, keys);
        dry.queue("DescribeSecurityGroups", 200, fixture("describe-security-groups.xml"));
        dry.queue("AuthorizeSecurityGroupIngress", 412, wouldSucceed);
        dry.queue("RunInstances", 412, wouldSucceed);
        request.dryRun = true;
        auto checked = makeAwsEc2Provider(contextFor(dry))->launch(request, nullptr);
        QVERIFY2(checked.ok(), checked.ok() ? "" : describe(checked.error()).c_str());
        QVERIFY(checked->dryRunPassed);
        QCOMPARE(formParams(dry.requests[2].body).at("DryRun"), std::string("true"));
    }

    void dryRunLaunch()
    {
        RecordingTransport transport;
        const std::string dry = errorDoc("DryRunOperation", "Request would have succeeded, but DryRun flag is set.");
        transport.queue("DescribeImages", 200, fixture("describe-images.xml"));
        transport.queue("DescribeKeyPairs", 400, errorDoc("InvalidKeyPair.NotFound", "The key pair does not exist"));
        transport.queue("ImportKeyPair", 412, dry);
        transport.queue(
            "DescribeSecurityGroups", 200, emptied(fixture("describe-security-groups.xml"), "securityGroupInfo"));
        transport.queue("CreateSecurityGroup", 412, dry);
        transport.queue("RunInstances", 412, dry);
        LaunchRequest request = baseRequest();
        request.dryRun = true;
        auto result = makeAwsEc2Provider(contextFor(transport))->launch(request, nullptr);
        QVERIFY2(result.ok(), result.ok() ? "" : describe(result.error()).c_str());
        QVERIFY(result->dryRunPassed);
        QVERIFY(result->instanceId.empty());
        QCOMPARE(transport.actions,
                 (std::vector<std::string>{"DescribeImages",
                                           "DescribeKeyPairs",
                                           "ImportKeyPair",
                                           "DescribeSecurityGroups",
                                           "CreateSecurityGroup",
                                           "RunInstances"}));
        // Every write was a dry run.
        for (std::size_t i : {std::size_t(2), std::size_t(4), std::size_t(5)}) {
            QCOMPARE(formParams(transport.requests[i].body).at("DryRun"), std::string("true"));
        }
    }

    void launchRefusals()
    {
        RecordingTransport transport;
        auto provider = makeAwsEc2Provider(contextFor(transport));
        LaunchRequest open = baseRequest();
        open.sshSourceCidr = "0.0.0.0/0";
        QCOMPARE(provider->launch(open, nullptr).error().code, ErrorCode::InvalidArgument);
        LaunchRequest monthly = baseRequest();
        monthly.pricing = LaunchPricing::Subscription;
        auto refused = provider->launch(monthly, nullptr);
        QCOMPARE(refused.error().code, ErrorCode::ProviderRefused);
        QCOMPARE(refused.error().reason.key, std::string("error.cloud.feature_refused"));
        QCOMPARE(refused.error().reason.params.at("why_key"), std::string("unsupported.aws.subscription"));
        QVERIFY(transport.requests.empty());

        transport.queue("DescribeImages", 200, fixture("describe-images.xml"));
        transport.queue("DescribeKeyPairs", 200, fixture("describe-key-pairs.xml"));
        transport.queue("ImportKeyPair", 200, fixture("import-key-pair.xml"));
        transport.queue("DescribeSecurityGroups", 200, withSshRule(fixture("describe-security-groups.xml")));
        transport.queue(
            "RunInstances",
            500,
            errorDoc("InsufficientInstanceCapacity", "We currently do not have sufficient g5.xlarge capacity."));
        LaunchRequest zoned = baseRequest();
        zoned.zone = "us-east-1a";
        auto capacity = provider->launch(zoned, nullptr);
        QCOMPARE(capacity.error().code, ErrorCode::InsufficientCapacity);
        QCOMPARE(capacity.error().providerCode, std::string("InsufficientInstanceCapacity"));
        QCOMPARE(capacity.error().reason.key, std::string("error.ec2.no_capacity"));
        QCOMPARE(capacity.error().reason.params.at("instance_type"), std::string("g5.xlarge"));
        QCOMPARE(capacity.error().reason.params.at("zone"), std::string("us-east-1a"));
        checkNoSecret(capacity.error());
    }

    void describeAndTerminate()
    {
        RecordingTransport transport;
        transport.queue("DescribeInstances", 200, fixture("describe-instances.xml"));
        transport.queue("DescribeInstances", 400, fixture("error-invalid-instance-id.xml"));
        transport.queue("TerminateInstances", 200, fixture("terminate-instances.xml"));
        transport.queue("TerminateInstances", 400, fixture("error-invalid-instance-id.xml"));
        transport.queue(
            "TerminateInstances",
            403,
            errorDoc("UnauthorizedOperation",
                     "You are not authorized to perform this operation. Encoded authorization failure message: abc"));
        auto provider = makeAwsEc2Provider(contextFor(transport));
        auto instance = provider->describe("eu-west-1", "i-1234567890abcdef0", nullptr);
        QVERIFY(instance.ok());
        QCOMPARE(instance->state, InstanceState::Running);
        QCOMPARE(formParams(transport.requests[0].body).at("InstanceId.1"), std::string("i-1234567890abcdef0"));
        auto missing = provider->describe("eu-west-1", "i-1a2b3c4d", nullptr);
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        QVERIFY(provider->terminate("eu-west-1", "i-1234567890abcdef0", nullptr).ok());
        QVERIFY(provider->terminate("eu-west-1", "i-1a2b3c4d", nullptr).ok()); // already gone
        Status denied = provider->terminate("eu-west-1", "i-1", nullptr);
        QCOMPARE(denied.error().code, ErrorCode::PermissionDenied);
        QCOMPARE(denied.error().reason.key, std::string("error.ec2.permission_missing"));
        QCOMPARE(denied.error().reason.params.at("action"), std::string("TerminateInstances"));
        checkNoSecret(denied.error());
    }

    void listOursFollowsNextToken()
    {
        RecordingTransport transport;
        std::string first = fixture("describe-instances.xml");
        first.replace(first.find("</reservationSet>"), 17, "</reservationSet>\n    <nextToken>page-2</nextToken>");
        std::string second = fixture("describe-instances.xml");
        second.replace(second.find("i-1234567890abcdef0"), 19, "i-0fedcba9876543210");
        transport.queue("DescribeInstances", 200, first);
        transport.queue("DescribeInstances", 200, second);
        auto instances = makeAwsEc2Provider(contextFor(transport))->listOurs("eu-west-1", nullptr);
        QVERIFY(instances.ok());
        QCOMPARE(instances->size(), std::size_t(2));
        QCOMPARE((*instances)[1].instanceId, std::string("i-0fedcba9876543210"));
        QVERIFY(!formParams(transport.requests[0].body).contains("NextToken"));
        QCOMPARE(formParams(transport.requests[1].body).at("NextToken"), std::string("page-2"));
    }

    void zonesAreSorted()
    {
        RecordingTransport transport;
        transport.queue("DescribeInstanceTypeOfferings", 200, fixture("describe-instance-type-offerings.xml"));
        auto zones = makeAwsEc2Provider(contextFor(transport))->zonesOffering("us-east-1", "g5.xlarge", nullptr);
        QVERIFY(zones.ok());
        QCOMPARE(*zones, (std::vector<std::string>{"us-east-1a", "us-east-1b"}));
    }

    // tests/integration/fakes/fake_ec2.py through the real HttpClient: launch -> describe until running ->
    // terminate, then a second launch with the same token returns the same instance.
    void flowAgainstFake()
    {
        QTemporaryDir dir;
        const QString portFile = dir.filePath("port");
        QProcess fake;
        fake.start("python3",
                   {QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/fakes/fake_ec2.py"),
                    "--port-file",
                    portFile,
                    "--access-key-id",
                    "AKIDEXAMPLE",
                    "--secret-key",
                    QString::fromStdString(kSecret)});
        QVERIFY(fake.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(portFile), 10000);
        QFile file(portFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const std::string port = file.readAll().trimmed().toStdString();

        initializeHttp();
        HttpOptions options;
        options.retry.baseDelay = std::chrono::milliseconds(1);
        HttpClient client(options);
        ProviderContext context = contextFor(client);
        context.clock = systemClock();
        context.endpoint = "http://127.0.0.1:" + port;
        context.sleep = [](std::chrono::milliseconds) {};
        auto provider = makeAwsEc2Provider(context);

        auto zones = provider->zonesOffering("us-east-1", "g5.xlarge", nullptr);
        QVERIFY2(zones.ok(), zones.ok() ? "" : describe(zones.error()).c_str());
        QCOMPARE(*zones, (std::vector<std::string>{"us-east-1a", "us-east-1b", "us-east-1c"}));

        LaunchRequest request = baseRequest();
        request.zone = "us-east-1b";
        auto launched = provider->launch(request, nullptr);
        QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
        QCOMPARE(launched->steps[0].key, std::string("step.ec2.image_found"));
        QCOMPARE(launched->steps[0].params.at("image"), std::string("ami-0fake0dlami20261120"));
        QCOMPARE(launched->zone, std::string("us-east-1b"));
        auto running = provider->waitUntilRunning(
            "us-east-1", launched->instanceId, std::chrono::seconds(30), std::chrono::seconds(1), nullptr);
        QVERIFY2(running.ok(), running.ok() ? "" : describe(running.error()).c_str());
        QCOMPARE(running->publicIp, std::string("127.0.0.1"));
        QCOMPARE(running->clientToken, request.clientToken);

        auto again = provider->launch(request, nullptr); // same token: the same instance, no second one
        QVERIFY(again.ok());
        QCOMPARE(again->instanceId, launched->instanceId);
        QCOMPARE(again->steps[1].key, std::string("step.ec2.key_pair_found"));

        auto ours = provider->listOurs("us-east-1", nullptr);
        QVERIFY(ours.ok());
        QCOMPARE(ours->size(), std::size_t(1));
        QVERIFY(provider->terminate("us-east-1", launched->instanceId, nullptr).ok());
        auto gone = provider->describe("us-east-1", launched->instanceId, nullptr);
        QVERIFY(gone.ok());
        QCOMPARE(gone->state, InstanceState::Stopping);
        QCOMPARE(provider->describe("us-east-1", launched->instanceId, nullptr)->state, InstanceState::Terminated);
        QCOMPARE(provider->describe("us-east-1", "i-0000", nullptr).error().code, ErrorCode::NotFound);

        // A wrong secret is refused by the fake's signature check and mapped to Credentials.
        ProviderContext wrong = context;
        wrong.key.secret = "not-the-secret";
        auto refused = makeAwsEc2Provider(wrong)->listOurs("us-east-1", nullptr);
        QCOMPARE(refused.error().code, ErrorCode::Credentials);
        QVERIFY(describe(refused.error()).find("not-the-secret") == std::string::npos);

        fake.kill();
        fake.waitForFinished();
    }

    void transportErrorsPassThrough()
    {
        RecordingTransport transport; // no canned answer: the double returns a Network error
        auto zones = makeAwsEc2Provider(contextFor(transport))->zonesOffering("us-east-1", "g5.xlarge", nullptr);
        QCOMPARE(zones.error().code, ErrorCode::Network);
    }
};

QTEST_GUILESS_MAIN(TestAwsEc2)
#include "TestAwsEc2.moc"
