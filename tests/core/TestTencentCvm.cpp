// The Tencent Cloud CVM provider without a network: the parsers read the documented output examples of every action
// it uses (tests/data/cloud/tencent, README there names each page), the error mapping gives the stable code and
// advice per Response.Error code, broken answers give clear errors, RunInstances carries the documented parameters
// for each way of paying, and a recording transport with the documented answers drives whole launches through
// makeTencentCvmProvider.

#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <QTest>

#include <nlohmann/json.hpp>

#include "gpuplan/cloud/PublicAddress.h"
#include "gpuplan/cloud/providers/tencent/CvmApi.h"
#include "gpuplan/cloud/providers/tencent/TencentCvmProvider.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

using namespace gpuplan::core;
using nlohmann::json;

namespace {

const std::string kSecret = "Gu5t9xGARNpq86cd98joQYCN3EXAMPLE";
const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci10ZXN0LWtleS1ub3QtcmVhbC0wMDAwMDAw lab@example";
constexpr std::int64_t kNow = 1796324700; // 2026-12-03T19:05:00Z

std::string fixture(const std::string& name)
{
    std::ifstream in(GPUPLAN_SOURCE_DIR "/tests/data/cloud/tencent/" + name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// The documented error answer with another code and message.
std::string errorDoc(const std::string& code, const std::string& message = "refused")
{
    json doc = json::parse(fixture("error_signature_failure.json"));
    doc["Response"]["Error"]["Code"] = code;
    doc["Response"]["Error"]["Message"] = message;
    return doc.dump();
}

// A documented answer with one list emptied.
std::string emptied(const std::string& name, const std::string& list)
{
    json doc = json::parse(fixture(name));
    doc["Response"][list] = json::array();
    if (doc["Response"].contains("TotalCount")) {
        doc["Response"]["TotalCount"] = 0;
    }
    return doc.dump();
}

// Answers each request with the canned body for its X-TC-Action (a queue per action; the last one repeats) and keeps
// every request.
class RecordingTransport final : public HttpTransport
{
public:
    void answer(const std::string& action, std::string body) { m_answers[action].push_back(std::move(body)); }

    using HttpTransport::send;
    Result<HttpResponse> send(const HttpRequest& request, const CancelToken*) override
    {
        requests.push_back(request);
        const std::string action = request.header("X-TC-Action").value_or("");
        auto found = m_answers.find(action);
        if (found == m_answers.end() || found->second.empty()) {
            return HttpResponse{200, {}, errorDoc("InvalidAction", "no canned answer for " + action)};
        }
        std::string body = found->second.front();
        if (found->second.size() > 1) {
            found->second.pop_front();
        }
        return HttpResponse{200, {{"Content-Type", "application/json"}}, body};
    }

    std::vector<std::string> actions() const
    {
        std::vector<std::string> out;
        for (const HttpRequest& r : requests) {
            out.push_back(r.header("X-TC-Action").value_or("?"));
        }
        return out;
    }

    const HttpRequest* find(const std::string& action) const
    {
        for (const HttpRequest& r : requests) {
            if (r.header("X-TC-Action") == action) {
                return &r;
            }
        }
        return nullptr;
    }

    std::vector<HttpRequest> requests;

private:
    std::map<std::string, std::deque<std::string>> m_answers;
};

ProviderContext contextFor(RecordingTransport& transport)
{
    ProviderContext context;
    context.http = &transport;
    context.key = AccessKey{"AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE", kSecret, {}};
    context.clock = fixedClock(std::chrono::system_clock::time_point(std::chrono::seconds(kNow)));
    return context;
}

LaunchRequest baseRequest()
{
    LaunchRequest request;
    request.region = "ap-guangzhou";
    request.instanceType = "GN7.2XLARGE32";
    request.imageId = "img-pmqg1cw7";
    request.sshPublicKey = kPublicKey;
    request.sshSourceCidr = "203.0.113.7/32";
    request.clientToken = "gp-0123456789abcdef";
    return request;
}

json paramsOf(const LaunchRequest& request)
{
    Result<cvm::Call> call = cvm::runInstancesCall(request, "ap-guangzhou-6", "img-pmqg1cw7", "skey-1", "sg-1", kNow);
    if (!call) {
        return json{{"error", call.error().reason.key}, {"params", call.error().reason.params}};
    }
    return call->params;
}

// A DescribeSecurityGroupPolicies answer: Response.SecurityGroupPolicySet {Version, Ingress, Egress} of
// SecurityGroupPolicy, with the fields of the API page (https://cloud.tencent.com/document/api/215/15804, and the
// SecurityGroupPolicy data structure); the page's own example is
// tests/data/cloud/tencent/describe_security_group_policies.json.
json policy(const std::string& protocol, const std::string& port, const std::string& cidr)
{
    return json{{"PolicyIndex", 0},
                {"Protocol", protocol},
                {"Port", port},
                {"ServiceTemplate", {{"ServiceId", ""}, {"ServiceGroupId", ""}}},
                {"CidrBlock", cidr},
                {"Ipv6CidrBlock", ""},
                {"SecurityGroupId", ""},
                {"AddressTemplate", {{"AddressId", ""}, {"AddressGroupId", ""}}},
                {"Action", "ACCEPT"},
                {"PolicyDescription", ""},
                {"ModifyTime", "2026-01-01 00:00:00"}};
}

std::string policiesAnswer(const json& ingress, const json& egress)
{
    return json{{"Response",
                 {{"SecurityGroupPolicySet", {{"Version", "1"}, {"Ingress", ingress}, {"Egress", egress}}},
                  {"RequestId", "74883e1b-5901-46de-ae1e-d6e2cf591c5b"}}}}
        .dump();
}

void answerLaunch(RecordingTransport& transport)
{
    transport.answer("DescribeKeyPairs", emptied("describe_key_pairs.json", "KeyPairSet"));
    transport.answer("ImportKeyPair", fixture("import_key_pair.json"));
    transport.answer("DescribeSecurityGroups", emptied("describe_security_groups.json", "SecurityGroupSet"));
    transport.answer("CreateSecurityGroup", fixture("create_security_group.json"));
    transport.answer("CreateSecurityGroupPolicies", fixture("create_security_group_policies.json"));
    transport.answer("DescribeZoneInstanceConfigInfos", fixture("describe_zone_instance_config_infos.json"));
    transport.answer("RunInstances", fixture("run_instances.json"));
}

} // namespace

// QCOMPARE cannot print nlohmann::json; this compares and shows both documents on failure.
#define JSON_COMPARE(actual, expected) \
    QVERIFY2((actual) == (expected), ((actual).dump() + " != " + json(expected).dump()).c_str())

class TestTencentCvm : public QObject
{
    Q_OBJECT

private slots:
    void parsesDocumentedAnswers()
    {
        Result<std::vector<std::string>> ids = cvm::parseRunInstances(fixture("run_instances.json"));
        QVERIFY(ids);
        QCOMPARE(ids->size(), std::size_t(1));
        QCOMPARE(ids->front(), std::string("ins-32kcaqoa"));

        Result<cvm::InstancesPage> page =
            cvm::parseDescribeInstances(fixture("describe_instances.json"), "ap-guangzhou");
        QVERIFY(page);
        QCOMPARE(page->totalCount, 1);
        QCOMPARE(page->instances.size(), std::size_t(1));
        const RemoteInstance& instance = page->instances.front();
        QCOMPARE(instance.instanceId, std::string("ins-9bxebleo"));
        QCOMPARE(instance.state, InstanceState::Running);
        QCOMPARE(instance.providerState, std::string("RUNNING"));
        QCOMPARE(instance.publicIp, std::string("123.207.11.190"));
        QCOMPARE(instance.zone, std::string("ap-guangzhou-3"));
        QCOMPARE(instance.instanceType, std::string("S1.SMALL1"));
        QCOMPARE(instance.region, std::string("ap-guangzhou"));
        QVERIFY(instance.launchedAt.has_value());
        QCOMPARE(instance.pricingMode, std::string()); // PREPAID: monthly or yearly is not listed
        std::string hourly = fixture("describe_instances.json");
        hourly.replace(hourly.find("\"PREPAID\""), 9, "\"POSTPAID_BY_HOUR\"");
        QCOMPARE(cvm::parseDescribeInstances(hourly, "ap-guangzhou")->instances.front().pricingMode,
                 std::string("on_demand"));
        QCOMPARE(*instance.launchedAt, std::int64_t(1583808231)); // 2020-03-10T02:43:51Z
        QVERIFY(instance.clientToken.empty());                    // its only tag is city=shenzhen

        Result<std::vector<cvm::Image>> images = cvm::parseDescribeImages(fixture("describe_images.json"));
        QVERIFY(images);
        QCOMPARE(images->size(), std::size_t(1));
        QCOMPARE(images->front().imageId, std::string("img-9qabwvbn"));
        QCOMPARE(images->front().state, std::string("NORMAL"));
        QVERIFY(!cvm::newestGpuImage(*images)); // CentOS 7.6 without a GPU driver

        Result<std::vector<cvm::KeyPair>> keys = cvm::parseDescribeKeyPairs(fixture("describe_key_pairs.json"));
        QVERIFY(keys);
        QCOMPARE(keys->front().keyId, std::string("skey-1q8j7b93"));
        QCOMPARE(keys->front().keyName, std::string("MyKeyPair"));
        Result<std::string> keyId = cvm::parseImportKeyPair(fixture("import_key_pair.json"));
        QVERIFY(keyId);
        QCOMPARE(*keyId, std::string("skey-4e5ty7i8"));

        Result<std::vector<cvm::SecurityGroup>> groups =
            cvm::parseDescribeSecurityGroups(fixture("describe_security_groups.json"));
        QVERIFY(groups);
        QCOMPARE(groups->front().groupId, std::string("sg-05bb4upy"));
        QCOMPARE(groups->front().groupName, std::string("TestGroup"));
        Result<std::string> groupId = cvm::parseCreateSecurityGroup(fixture("create_security_group.json"));
        QVERIFY(groupId);
        QCOMPARE(*groupId, std::string("sg-3g7ftkp3"));
        QVERIFY(cvm::parseEmptyAnswer(fixture("create_security_group_policies.json"), "CreateSecurityGroupPolicies"));
        QVERIFY(cvm::parseEmptyAnswer(fixture("terminate_instances.json"), "TerminateInstances"));

        Result<std::vector<std::string>> zones =
            cvm::parseZoneConfig(fixture("describe_zone_instance_config_infos.json"));
        QVERIFY(zones);
        QCOMPARE(*zones, std::vector<std::string>{"ap-guangzhou-6"});

        std::optional<ApiError> error = cvm::responseError(fixture("error_signature_failure.json"));
        QVERIFY(error);
        QCOMPARE(error->code, std::string("AuthFailure.SignatureFailure"));
        QCOMPARE(error->requestId, std::string("ed93f3cb-f35e-473f-b9f3-0d451b8b79c6"));
        QVERIFY(!cvm::responseError(fixture("run_instances.json")));
    }

    void soldOutZonesAreSkipped()
    {
        json doc = json::parse(fixture("describe_zone_instance_config_infos.json"));
        json sold = doc["Response"]["InstanceTypeQuotaSet"][0];
        sold["Zone"] = "ap-guangzhou-3";
        sold["Status"] = "SOLD_OUT";
        doc["Response"]["InstanceTypeQuotaSet"].insert(doc["Response"]["InstanceTypeQuotaSet"].begin(), sold);
        Result<std::vector<std::string>> zones = cvm::parseZoneConfig(doc.dump());
        QVERIFY(zones);
        QCOMPARE(*zones, std::vector<std::string>{"ap-guangzhou-6"});
    }

    void states_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<int>("state");
        QTest::newRow("PENDING") << "PENDING" << int(InstanceState::Pending);
        QTest::newRow("RUNNING") << "RUNNING" << int(InstanceState::Running);
        QTest::newRow("STOPPING") << "STOPPING" << int(InstanceState::Stopping);
        QTest::newRow("SHUTDOWN") << "SHUTDOWN" << int(InstanceState::Stopping);
        QTest::newRow("STOPPED") << "STOPPED" << int(InstanceState::Stopped);
        QTest::newRow("TERMINATING") << "TERMINATING" << int(InstanceState::Stopping);
        QTest::newRow("LAUNCH_FAILED") << "LAUNCH_FAILED" << int(InstanceState::Failed);
        QTest::newRow("STARTING") << "STARTING" << int(InstanceState::Pending);
    }
    void states()
    {
        QFETCH(QString, word);
        QFETCH(int, state);
        QCOMPARE(int(cvm::stateFromCvm(word.toStdString())), state);
    }

    void errorMapping_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("expected");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("value");
        QTest::newRow("sold out type") << "ResourceInsufficient.SpecifiedInstanceType"
                                       << int(ErrorCode::InsufficientCapacity) << "error.cvm.no_capacity"
                                       << "zone"
                                       << "ap-guangzhou-6";
        QTest::newRow("zone sold out") << "ResourcesSoldOut.SpecifiedInstanceType"
                                       << int(ErrorCode::InsufficientCapacity) << "error.cvm.no_capacity"
                                       << "instance_type"
                                       << "GN7.2XLARGE32";
        QTest::newRow("instance quota") << "LimitExceeded.InstanceQuota" << int(ErrorCode::QuotaExceeded)
                                        << "error.cvm.instance_quota"
                                        << "zone"
                                        << "ap-guangzhou-6";
        QTest::newRow("spot quota") << "LimitExceeded.SpotQuota" << int(ErrorCode::QuotaExceeded)
                                    << "error.cvm.spot_quota"
                                    << "instance_type"
                                    << "GN7.2XLARGE32";
        QTest::newRow("quota limit") << "InstancesQuotaLimitExceeded" << int(ErrorCode::QuotaExceeded)
                                     << "error.cvm.instance_quota"
                                     << "zone"
                                     << "ap-guangzhou-6";
        QTest::newRow("unauthorized") << "UnauthorizedOperation" << int(ErrorCode::PermissionDenied)
                                      << "error.cvm.permission_missing"
                                      << "cam_action"
                                      << "cvm:RunInstances";
        QTest::newRow("cam denied") << "AuthFailure.UnauthorizedOperation" << int(ErrorCode::PermissionDenied)
                                    << "error.cvm.permission_missing"
                                    << "cam_action"
                                    << "cvm:RunInstances";
        QTest::newRow("signature") << "AuthFailure.SignatureFailure" << int(ErrorCode::Credentials)
                                   << "error.cvm.key_refused"
                                   << ""
                                   << "";
        QTest::newRow("no such key") << "AuthFailure.SecretIdNotFound" << int(ErrorCode::Credentials)
                                     << "error.cvm.key_refused"
                                     << ""
                                     << "";
        QTest::newRow("invalid key") << "AuthFailure.InvalidSecretId" << int(ErrorCode::Credentials)
                                     << "error.cvm.key_refused"
                                     << ""
                                     << "";
        QTest::newRow("clock") << "AuthFailure.SignatureExpire" << int(ErrorCode::ClockSkew) << "error.cvm.clock_skew"
                               << ""
                               << "";
        QTest::newRow("throttled") << "RequestLimitExceeded" << int(ErrorCode::Throttled) << "error.cvm.throttled"
                                   << "action"
                                   << "RunInstances";
        QTest::newRow("throttled uin") << "RequestLimitExceeded.UinLimitExceeded" << int(ErrorCode::Throttled)
                                       << "error.cvm.throttled"
                                       << "action"
                                       << "RunInstances";
        QTest::newRow("no instance") << "InvalidInstanceId.NotFound" << int(ErrorCode::NotFound)
                                     << "error.cvm.not_found"
                                     << "action"
                                     << "RunInstances";
        QTest::newRow("no image") << "InvalidImageId.NotFound" << int(ErrorCode::NotFound) << "error.cvm.not_found"
                                  << "action"
                                  << "RunInstances";
        QTest::newRow("other") << "InvalidParameterValue" << int(ErrorCode::ProviderRefused) << "error.cvm.refused"
                               << "action"
                               << "RunInstances";
    }
    void errorMapping()
    {
        QFETCH(QString, code);
        QFETCH(int, expected);
        QFETCH(QString, key);
        QFETCH(QString, param);
        QFETCH(QString, value);
        cvm::ErrorContext context;
        context.action = "RunInstances";
        context.region = "ap-guangzhou";
        context.instanceType = "GN7.2XLARGE32";
        context.zone = "ap-guangzhou-6";
        const HttpResponse response{200, {}, errorDoc(code.toStdString(), "server words")};
        std::optional<Error> error = cvm::mapError(response, context);
        QVERIFY(error);
        QCOMPARE(int(error->code), expected);
        QCOMPARE(error->providerCode, code.toStdString());
        QCOMPARE(error->httpStatus, 200);
        QCOMPARE(error->reason.key, key.toStdString());
        if (!param.isEmpty()) {
            QVERIFY2(error->reason.params.count(param.toStdString()) == 1, describe(*error).c_str());
            QCOMPARE(error->reason.params.at(param.toStdString()), value.toStdString());
        }
        // Tencent's code, message and RequestId travel with the advice.
        QCOMPARE(error->reason.params.at("code"), code.toStdString());
        QCOMPARE(error->reason.params.at("said"), std::string("server words"));
        QCOMPARE(error->reason.params.at("request_id"), std::string("ed93f3cb-f35e-473f-b9f3-0d451b8b79c6"));
        QVERIFY(describe(*error).find(kSecret) == std::string::npos);
    }

    void malformedAnswers_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("field");
        QTest::newRow("not json") << "<html>502 Bad Gateway</html>"
                                  << "error.answer.not_json"
                                  << "";
        QTest::newRow("not an object") << "[1]"
                                       << "error.answer.not_object"
                                       << "";
        QTest::newRow("no Response") << "{\"RequestId\":\"x\"}"
                                     << "error.answer.missing"
                                     << "Response";
        QTest::newRow("Response not object") << "{\"Response\":5}"
                                             << "error.answer.invalid"
                                             << "Response";
        QTest::newRow("truncated") << "{\"Response\":{\"InstanceSet\":["
                                   << "error.answer.not_json"
                                   << "";
        QTest::newRow("no InstanceSet") << "{\"Response\":{\"RequestId\":\"x\"}}"
                                        << "error.answer.missing"
                                        << "InstanceSet";
        QTest::newRow("InstanceSet not list") << "{\"Response\":{\"InstanceSet\":{}}}"
                                              << "error.answer.not_list"
                                              << "InstanceSet";
    }
    void malformedAnswers()
    {
        QFETCH(QString, body);
        QFETCH(QString, key);
        QFETCH(QString, field);
        Result<cvm::InstancesPage> page = cvm::parseDescribeInstances(body.toStdString(), "ap-guangzhou");
        QVERIFY(!page);
        QCOMPARE(page.error().code, ErrorCode::ProviderRefused);
        QCOMPARE(page.error().reason.key, key.toStdString());
        QCOMPARE(page.error().reason.params.at("action"), std::string("DescribeInstances"));
        QCOMPARE(page.error().reason.params.at("provider"), std::string("tencent"));
        QCOMPARE(page.error().where, std::string("tencent DescribeInstances"));
        if (!field.isEmpty()) {
            QCOMPARE(page.error().reason.params.at("field"), field.toStdString());
        }

        cvm::ErrorContext context;
        context.action = "DescribeInstances";
        if (body.startsWith("<") || body.endsWith("[") || !body.contains("Response")) {
            std::optional<Error> error = cvm::mapError(HttpResponse{200, {}, body.toStdString()}, context);
            QVERIFY(error);
            QCOMPARE(error->code, ErrorCode::ProviderRefused);
            QCOMPARE(error->reason.params.at("action"), std::string("DescribeInstances"));
        }
        std::optional<Error> status = cvm::mapError(HttpResponse{502, {}, body.toStdString()}, context);
        QVERIFY(status);
        if (!body.contains("Error")) {
            QCOMPARE(status->code, ErrorCode::HttpStatus);
            QCOMPARE(status->httpStatus, 502);
        }
    }

    void onDemandBody()
    {
        LaunchRequest request = baseRequest();
        request.userData = "#cloud-config\nruncmd: [echo hi]\n";
        request.tags = {{"project", "bert"}, {std::string(kOwnerTagKey), "ignored"}};
        const json p = paramsOf(request);
        QCOMPARE(p["Placement"]["Zone"].get<std::string>(), std::string("ap-guangzhou-6"));
        QCOMPARE(p["ImageId"].get<std::string>(), std::string("img-pmqg1cw7"));
        QCOMPARE(p["InstanceType"].get<std::string>(), std::string("GN7.2XLARGE32"));
        QCOMPARE(p["InstanceCount"].get<int>(), 1);
        QCOMPARE(p["InstanceChargeType"].get<std::string>(), std::string("POSTPAID_BY_HOUR"));
        QVERIFY(!p.contains("InstanceChargePrepaid"));
        QVERIFY(!p.contains("InstanceMarketOptions"));
        JSON_COMPARE(p["LoginSettings"]["KeyIds"], json::array({"skey-1"}));
        JSON_COMPARE(p["SecurityGroupIds"], json::array({"sg-1"}));
        QCOMPARE(p["UserData"].get<std::string>(), base64(request.userData));
        QCOMPARE(p["ClientToken"].get<std::string>(), request.clientToken);
        QCOMPARE(p["InstanceName"].get<std::string>(), std::string("gpuplanner-gp012345"));
        const json tags = json::array({json{{"Key", "gpuplanner-token"}, {"Value", request.clientToken}},
                                       json{{"Key", "project"}, {"Value", "bert"}}});
        JSON_COMPARE(p["TagSpecification"], json::array({json{{"ResourceType", "instance"}, {"Tags", tags}}}));
        QCOMPARE(p["InternetAccessible"]["InternetChargeType"].get<std::string>(),
                 std::string("TRAFFIC_POSTPAID_BY_HOUR"));
        QCOMPARE(p["InternetAccessible"]["PublicIpAssigned"].get<bool>(), true);
        QVERIFY(p["InternetAccessible"]["InternetMaxBandwidthOut"].get<int>() > 0);
        QVERIFY(!p.contains("DryRun"));
        QVERIFY(!p.contains("ActionTimer"));
    }

    void spotBody()
    {
        LaunchRequest request = baseRequest();
        request.pricing = LaunchPricing::Spot;
        const json p = paramsOf(request);
        QCOMPARE(p["InstanceChargeType"].get<std::string>(), std::string("SPOTPAID"));
        // Documented default bid without InstanceMarketOptions (see runInstancesCall).
        QVERIFY(!p.contains("InstanceMarketOptions"));
        QVERIFY(!p.contains("InstanceChargePrepaid"));
        // The user's own limit: SpotOptions.MaxPrice, a string, with the market type.
        request.spotPriceLimit = 2.5;
        const json limited = paramsOf(request);
        QCOMPARE(limited["InstanceMarketOptions"]["MarketType"].get<std::string>(), std::string("spot"));
        QCOMPARE(limited["InstanceMarketOptions"]["SpotOptions"]["MaxPrice"].get<std::string>(), std::string("2.5"));
        QCOMPARE(limited["InstanceMarketOptions"]["SpotOptions"]["SpotInstanceType"].get<std::string>(),
                 std::string("one-time"));
    }

    void prepaidBody_data()
    {
        QTest::addColumn<int>("months");
        QTest::addColumn<bool>("autoRenew");
        QTest::addColumn<QString>("flag");
        QTest::newRow("1 month manual") << 1 << false << "NOTIFY_AND_MANUAL_RENEW";
        QTest::newRow("3 months auto") << 3 << true << "NOTIFY_AND_AUTO_RENEW";
    }
    void prepaidBody()
    {
        QFETCH(int, months);
        QFETCH(bool, autoRenew);
        QFETCH(QString, flag);
        LaunchRequest request = baseRequest();
        request.pricing = LaunchPricing::Subscription;
        request.subscriptionMonths = months;
        request.autoRenew = autoRenew;
        request.terminateAt = kNow + 3600; // not for monthly instances
        const json p = paramsOf(request);
        QCOMPARE(p["InstanceChargeType"].get<std::string>(), std::string("PREPAID"));
        QCOMPARE(p["InstanceChargePrepaid"]["Period"].get<int>(), months);
        QCOMPARE(p["InstanceChargePrepaid"]["RenewFlag"].get<std::string>(), flag.toStdString());
        QVERIFY(!p.contains("ActionTimer"));

        request.subscriptionMonths = 0;
        QCOMPARE(paramsOf(request).value("error", ""), std::string("error.cvm.prepaid_needs_months"));
    }

    void dryRunAndTimerBody()
    {
        LaunchRequest request = baseRequest();
        request.dryRun = true;
        request.terminateAt = kNow + 2 * 3600;
        const json p = paramsOf(request);
        QCOMPARE(p["DryRun"].get<bool>(), true);
        QCOMPARE(p["ActionTimer"]["TimerAction"].get<std::string>(), std::string("TerminateInstances"));
        QCOMPARE(p["ActionTimer"]["ActionTime"].get<std::string>(), std::string("2026-12-03T21:05:00Z"));

        request.terminateAt = kNow + 60; // CVM wants more than 5 minutes
        QCOMPARE(paramsOf(request).value("error", ""), std::string("error.cvm.terminate_too_soon"));
    }

    void userDataLimit()
    {
        LaunchRequest request = baseRequest();
        request.userData = std::string(12288, 'x'); // exactly 16384 bytes in base64
        QVERIFY(!paramsOf(request).contains("error"));
        request.userData += "xyz";
        const json p = paramsOf(request);
        QVERIFY(p.contains("error"));
        QCOMPARE(p["error"].get<std::string>(), std::string("error.cvm.user_data_too_big"));
        QCOMPARE(p["params"]["bytes"].get<std::string>(), std::string("16388"));
    }

    void namesAndChecks()
    {
        Result<std::string> name = cvm::keyPairName(kPublicKey);
        QVERIFY(name);
        QCOMPARE(name->size(), std::size_t(23)); // "gpuplanner_" + 12 hex, within 25
        QVERIFY(name->rfind("gpuplanner_", 0) == 0);
        QCOMPARE(name->find('-'), std::string::npos);
        QVERIFY(!cvm::keyPairName("not-a-key"));
        QCOMPARE(cvm::securityGroupName("203.0.113.7/32"), std::string("gpuplanner-ssh-203-0-113-7-32"));
        QVERIFY(checkSshSourceCidr("203.0.113.7/32", true));
        QVERIFY(!checkSshSourceCidr("", true));
        QVERIFY(!checkSshSourceCidr("0.0.0.0/0", true));
        QVERIFY(!checkSshSourceCidr("203.0.113.7", true));
        QCOMPARE(cvm::actionTime(1527593200), std::string("2018-05-29T11:26:40Z")); // the doc's example time
    }

    void requestShape()
    {
        const cvm::Call call = cvm::describeSecurityGroupsCall("gpuplanner-ssh-x");
        HttpRequest request = cvm::buildRequest(cvm::baseUrl(call.service, ""), call, "ap-guangzhou");
        QCOMPARE(request.method, std::string("POST"));
        QCOMPARE(request.url, std::string("https://vpc.tencentcloudapi.com/"));
        QCOMPARE(request.header("X-TC-Action").value_or(""), std::string("DescribeSecurityGroups"));
        QCOMPARE(request.header("X-TC-Version").value_or(""), std::string("2017-03-12"));
        QCOMPARE(request.header("X-TC-Region").value_or(""), std::string("ap-guangzhou"));
        QCOMPARE(request.header("Content-Type").value_or(""), std::string("application/json"));
        QCOMPARE(json::parse(request.body)["Filters"][0]["Name"].get<std::string>(),
                 std::string("security-group-name"));
        QCOMPARE(cvm::baseUrl(cvm::Service::Cvm, "http://127.0.0.1:8080"), std::string("http://127.0.0.1:8080/"));
    }

    void wholeLaunch()
    {
        RecordingTransport transport;
        answerLaunch(transport);
        auto provider = makeTencentCvmProvider(contextFor(transport));
        QVERIFY(provider);
        QCOMPARE(provider->id(), std::string("tencent"));
        QVERIFY(!provider->supports(CloudFeature::TerminateOnShutdown));
        QVERIFY(provider->supports(CloudFeature::ScheduledTerminate));

        LaunchRequest request = baseRequest();
        request.terminateAt = kNow + 4 * 3600;
        Result<LaunchResult> result = provider->launch(request, nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(result->instanceId, std::string("ins-32kcaqoa"));
        QCOMPARE(result->zone, std::string("ap-guangzhou-6"));
        QCOMPARE(result->state, InstanceState::Pending);
        QVERIFY(!result->dryRunPassed);
        const std::vector<std::string> expected{"DescribeKeyPairs",
                                                "ImportKeyPair",
                                                "DescribeSecurityGroups",
                                                "CreateSecurityGroup",
                                                "CreateSecurityGroupPolicies",
                                                "CreateSecurityGroupPolicies",
                                                "DescribeZoneInstanceConfigInfos",
                                                "RunInstances"};
        QCOMPARE(transport.actions(), expected);

        for (const HttpRequest& r : transport.requests) {
            const bool vpc = r.header("X-TC-Action").value_or("").find("SecurityGroup") != std::string::npos;
            QCOMPARE(r.url, std::string(vpc ? "https://vpc.tencentcloudapi.com/" : "https://cvm.tencentcloudapi.com/"));
            const std::string auth = r.header("Authorization").value_or("");
            QVERIFY2(auth.find(vpc ? "/vpc/tc3_request" : "/cvm/tc3_request") != std::string::npos, auth.c_str());
            QVERIFY(auth.find("SignedHeaders=content-type;host") != std::string::npos);
            QCOMPARE(r.header("X-TC-Timestamp").value_or(""), std::to_string(kNow));
            QCOMPARE(r.header("X-TC-Region").value_or(""), std::string("ap-guangzhou"));
            QVERIFY(r.body.find(kSecret) == std::string::npos);
        }
        const json run = json::parse(transport.find("RunInstances")->body);
        JSON_COMPARE(run["LoginSettings"]["KeyIds"], json::array({"skey-4e5ty7i8"}));
        JSON_COMPARE(run["SecurityGroupIds"], json::array({"sg-3g7ftkp3"}));
        QCOMPARE(run["ActionTimer"]["ActionTime"].get<std::string>(), std::string("2026-12-03T23:05:00Z"));
        QVERIFY(transport.find("RunInstances")->safeToRetry);
        const json import = json::parse(transport.find("ImportKeyPair")->body);
        QCOMPARE(import["ProjectId"].get<int>(), 0);
        QCOMPARE(import["KeyName"].get<std::string>(), *cvm::keyPairName(kPublicKey));
        QCOMPARE(import["PublicKey"].get<std::string>(), kPublicKey);
        const json ingress = json::parse(transport.requests[4].body);
        QCOMPARE(ingress["SecurityGroupPolicySet"]["Ingress"][0]["CidrBlock"].get<std::string>(),
                 std::string("203.0.113.7/32"));
        QCOMPARE(ingress["SecurityGroupPolicySet"]["Ingress"][0]["Port"].get<std::string>(), std::string("22"));
        const json egress = json::parse(transport.requests[5].body);
        QCOMPARE(egress["SecurityGroupPolicySet"]["Egress"][0]["Protocol"].get<std::string>(), std::string("ALL"));
    }

    void launchReusesKeyAndGroup()
    {
        RecordingTransport transport;
        const std::string name = *cvm::keyPairName(kPublicKey);
        std::string keys = fixture("describe_key_pairs.json");
        keys.replace(keys.find("\"MyKeyPair\""), 11, "\"" + name + "\"");
        std::string groups = fixture("describe_security_groups.json");
        groups.replace(groups.find("\"TestGroup\""), 11, "\"gpuplanner-ssh-203-0-113-7-32\"");
        transport.answer("DescribeKeyPairs", keys);
        transport.answer("DescribeSecurityGroups", groups);
        transport.answer("DescribeSecurityGroupPolicies",
                         policiesAnswer(json::array({policy("TCP", "22", "203.0.113.7/32")}),
                                        json::array({policy("ALL", "ALL", "0.0.0.0/0")})));
        transport.answer("RunInstances", fixture("run_instances.json"));
        auto provider = makeTencentCvmProvider(contextFor(transport));
        LaunchRequest request = baseRequest();
        request.zone = "ap-guangzhou-3";
        Result<LaunchResult> result = provider->launch(request, nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(transport.actions(),
                 (std::vector<std::string>{
                     "DescribeKeyPairs", "DescribeSecurityGroups", "DescribeSecurityGroupPolicies", "RunInstances"}));
        const json run = json::parse(transport.find("RunInstances")->body);
        JSON_COMPARE(run["LoginSettings"]["KeyIds"], json::array({"skey-1q8j7b93"}));
        JSON_COMPARE(run["SecurityGroupIds"], json::array({"sg-05bb4upy"}));
        QCOMPARE(run["Placement"]["Zone"].get<std::string>(), std::string("ap-guangzhou-3"));
    }

    // Issue 20, finding 10: a group found by name whose rules are gone (deleted by hand, or an earlier create whose
    // CreateSecurityGroupPolicies never ran) gets the SSH rule, and the outbound rule when it has none, again.
    void aReusedGroupWithoutItsRulesGetsThemBack()
    {
        RecordingTransport transport;
        std::string keys = fixture("describe_key_pairs.json");
        keys.replace(keys.find("\"MyKeyPair\""), 11, "\"" + *cvm::keyPairName(kPublicKey) + "\"");
        std::string groups = fixture("describe_security_groups.json");
        groups.replace(groups.find("\"TestGroup\""), 11, "\"gpuplanner-ssh-203-0-113-7-32\"");
        transport.answer("DescribeKeyPairs", keys);
        transport.answer("DescribeSecurityGroups", groups);
        // SSH is open, but to another address; HTTP to ours.
        transport.answer(
            "DescribeSecurityGroupPolicies",
            policiesAnswer(json::array({policy("TCP", "22", "198.51.100.1/32"), policy("tcp", "80", "203.0.113.7/32")}),
                           json()));
        transport.answer("CreateSecurityGroupPolicies", fixture("create_security_group_policies.json"));
        transport.answer("RunInstances", fixture("run_instances.json"));
        LaunchRequest request = baseRequest();
        request.zone = "ap-guangzhou-3";
        Result<LaunchResult> result = makeTencentCvmProvider(contextFor(transport))->launch(request, nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(transport.actions(),
                 (std::vector<std::string>{"DescribeKeyPairs",
                                           "DescribeSecurityGroups",
                                           "DescribeSecurityGroupPolicies",
                                           "CreateSecurityGroupPolicies",
                                           "CreateSecurityGroupPolicies",
                                           "RunInstances"}));
        const json described = json::parse(transport.find("DescribeSecurityGroupPolicies")->body);
        QCOMPARE(described["SecurityGroupId"].get<std::string>(), std::string("sg-05bb4upy"));
        const json ingress = json::parse(transport.requests[3].body);
        QCOMPARE(ingress["SecurityGroupId"].get<std::string>(), std::string("sg-05bb4upy"));
        QCOMPARE(ingress["SecurityGroupPolicySet"]["Ingress"][0]["CidrBlock"].get<std::string>(),
                 std::string("203.0.113.7/32"));
        QCOMPARE(ingress["SecurityGroupPolicySet"]["Ingress"][0]["Port"].get<std::string>(), std::string("22"));
        const json egress = json::parse(transport.requests[4].body);
        QVERIFY(egress["SecurityGroupPolicySet"].contains("Egress"));

        // The rule matcher: protocol and port forms the API documents, the exact source, ACCEPT only.
        using P = std::vector<cvm::SecurityGroupPolicy>;
        const std::string ours = "203.0.113.7/32";
        QVERIFY(cvm::allowsSshFrom(P{{"TCP", "22", ours, "ACCEPT"}}, ours));
        QVERIFY(cvm::allowsSshFrom(P{{"tcp", "20-30", ours, "accept"}}, ours));
        QVERIFY(cvm::allowsSshFrom(P{{"TCP", "80,22", ours, "ACCEPT"}}, ours));
        QVERIFY(cvm::allowsSshFrom(P{{"ALL", "ALL", ours, "ACCEPT"}}, ours));
        QVERIFY(!cvm::allowsSshFrom(P{{"TCP", "22", ours, "DROP"}}, ours));
        QVERIFY(!cvm::allowsSshFrom(P{{"UDP", "22", ours, "ACCEPT"}}, ours));
        QVERIFY(!cvm::allowsSshFrom(P{{"TCP", "2222", ours, "ACCEPT"}}, ours));
        QVERIFY(!cvm::allowsSshFrom(P{{"TCP", "22", "0.0.0.0/0", "ACCEPT"}}, ours));
    }

    void dryRunCreatesNothing()
    {
        RecordingTransport transport;
        answerLaunch(transport);
        transport.answer("RunInstances", errorDoc("DryRunOperation", "would succeed"));
        auto provider = makeTencentCvmProvider(contextFor(transport));
        LaunchRequest request = baseRequest();
        request.dryRun = true;
        Result<LaunchResult> result = provider->launch(request, nullptr);
        // The first canned RunInstances answer is the success; the provider treats both as a passed check.
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QVERIFY(result->dryRunPassed);
        QVERIFY(result->instanceId.empty());
        for (const std::string& action : transport.actions()) {
            QVERIFY2(action != "ImportKeyPair" && action != "CreateSecurityGroup"
                         && action != "CreateSecurityGroupPolicies",
                     action.c_str());
        }
        QCOMPARE(json::parse(transport.find("RunInstances")->body)["DryRun"].get<bool>(), true);

        // Drop the success answer: only DryRunOperation remains.
        RecordingTransport only;
        only.answer("DescribeKeyPairs", emptied("describe_key_pairs.json", "KeyPairSet"));
        only.answer("DescribeSecurityGroups", emptied("describe_security_groups.json", "SecurityGroupSet"));
        only.answer("DescribeZoneInstanceConfigInfos", fixture("describe_zone_instance_config_infos.json"));
        only.answer("RunInstances", errorDoc("DryRunOperation", "would succeed"));
        auto third = makeTencentCvmProvider(contextFor(only));
        Result<LaunchResult> passed = third->launch(request, nullptr);
        QVERIFY2(passed, passed ? "" : describe(passed.error()).c_str());
        QVERIFY(passed->dryRunPassed);
    }

    void launchRefusals()
    {
        RecordingTransport transport;
        auto provider = makeTencentCvmProvider(contextFor(transport));
        LaunchRequest request = baseRequest();
        request.sshSourceCidr = "0.0.0.0/0";
        QCOMPARE(provider->launch(request, nullptr).error().code, ErrorCode::InvalidArgument);
        request = baseRequest();
        request.userData = std::string(20000, 'x');
        QCOMPARE(provider->launch(request, nullptr).error().code, ErrorCode::InvalidArgument);
        QVERIFY(transport.requests.empty()); // nothing sent for a request that cannot work

        // No image given and no public GPU image listed: a clear message asking for one.
        transport.answer("DescribeImages", fixture("describe_images.json"));
        request = baseRequest();
        request.imageId.clear();
        Result<LaunchResult> noImage = provider->launch(request, nullptr);
        QVERIFY(!noImage);
        QCOMPARE(noImage.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(noImage.error().reason.key, std::string("error.cvm.no_gpu_image"));
        QCOMPARE(noImage.error().reason.params.at("instance_type"), request.instanceType);

        // Capacity refused in the zone: InsufficientCapacity with the provider's code.
        RecordingTransport fresh;
        fresh.answer("DescribeKeyPairs", emptied("describe_key_pairs.json", "KeyPairSet"));
        fresh.answer("ImportKeyPair", fixture("import_key_pair.json"));
        fresh.answer("DescribeSecurityGroups", emptied("describe_security_groups.json", "SecurityGroupSet"));
        fresh.answer("CreateSecurityGroup", fixture("create_security_group.json"));
        fresh.answer("CreateSecurityGroupPolicies", fixture("create_security_group_policies.json"));
        fresh.answer("RunInstances", errorDoc("ResourceInsufficient.SpecifiedInstanceType", "sold out"));
        auto capacity = makeTencentCvmProvider(contextFor(fresh));
        request = baseRequest();
        request.zone = "ap-guangzhou-6";
        Result<LaunchResult> refused = capacity->launch(request, nullptr);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::InsufficientCapacity);
        QCOMPARE(refused.error().providerCode, std::string("ResourceInsufficient.SpecifiedInstanceType"));
        QCOMPARE(refused.error().reason.key, std::string("error.cvm.no_capacity"));
        QCOMPARE(refused.error().reason.params.at("zone"), std::string("ap-guangzhou-6"));
        QVERIFY(describe(refused.error()).find(kSecret) == std::string::npos);
    }

    void describeListTerminate()
    {
        RecordingTransport transport;
        transport.answer("DescribeInstances", fixture("describe_instances.json"));
        auto provider = makeTencentCvmProvider(contextFor(transport));
        Result<RemoteInstance> found = provider->describe("ap-guangzhou", "ins-9bxebleo", nullptr);
        QVERIFY(found);
        QCOMPARE(found->state, InstanceState::Running);
        JSON_COMPARE(json::parse(transport.requests.back().body)["InstanceIds"], json::array({"ins-9bxebleo"}));

        Result<std::vector<RemoteInstance>> ours = provider->listOurs("ap-guangzhou", nullptr);
        QVERIFY(ours);
        QCOMPARE(ours->size(), std::size_t(1));
        const json list = json::parse(transport.requests.back().body);
        QCOMPARE(list["Filters"][0]["Name"].get<std::string>(), std::string("tag-key"));
        JSON_COMPARE(list["Filters"][0]["Values"], json::array({"gpuplanner-token"}));
        QCOMPARE(list["Limit"].get<int>(), 100);
        QCOMPARE(list["Offset"].get<int>(), 0);

        RecordingTransport empty;
        empty.answer("DescribeInstances", emptied("describe_instances.json", "InstanceSet"));
        empty.answer("TerminateInstances", errorDoc("InvalidInstanceId.NotFound", "no such instance"));
        auto gone = makeTencentCvmProvider(contextFor(empty));
        Result<RemoteInstance> missing = gone->describe("ap-guangzhou", "ins-9bxebleo", nullptr);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        QVERIFY(gone->terminate("ap-guangzhou", "ins-9bxebleo", nullptr));

        RecordingTransport term;
        term.answer("TerminateInstances", fixture("terminate_instances.json"));
        auto terminating = makeTencentCvmProvider(contextFor(term));
        QVERIFY(terminating->terminate("ap-guangzhou", "ins-3jaw1j8m", nullptr));
        JSON_COMPARE(json::parse(term.requests.back().body)["InstanceIds"], json::array({"ins-3jaw1j8m"}));

        RecordingTransport denied;
        denied.answer("TerminateInstances", errorDoc("UnauthorizedOperation", "no"));
        auto refusing = makeTencentCvmProvider(contextFor(denied));
        Status status = refusing->terminate("ap-guangzhou", "ins-3jaw1j8m", nullptr);
        QVERIFY(!status);
        QCOMPARE(status.error().code, ErrorCode::PermissionDenied);
        QCOMPARE(status.error().reason.key, std::string("error.cvm.permission_missing"));
        QCOMPARE(status.error().reason.params.at("cam_action"), std::string("cvm:TerminateInstances"));
    }

    void zonesOffering()
    {
        RecordingTransport transport;
        transport.answer("DescribeZoneInstanceConfigInfos", fixture("describe_zone_instance_config_infos.json"));
        auto provider = makeTencentCvmProvider(contextFor(transport));
        Result<std::vector<std::string>> zones = provider->zonesOffering("ap-guangzhou", "S2.SMALL1", nullptr);
        QVERIFY(zones);
        QCOMPARE(*zones, std::vector<std::string>{"ap-guangzhou-6"});
        const json p = json::parse(transport.requests.back().body);
        JSON_COMPARE(p["Filters"][0], (json{{"Name", "instance-type"}, {"Values", {"S2.SMALL1"}}}));
        JSON_COMPARE(p["Filters"][1], (json{{"Name", "instance-charge-type"}, {"Values", {"POSTPAID_BY_HOUR"}}}));
    }
};

QTEST_GUILESS_MAIN(TestTencentCvm)
#include "TestTencentCvm.moc"
