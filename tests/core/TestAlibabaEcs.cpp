// The Alibaba Cloud ECS provider without a network: the parsers read the documented response examples of every
// action it uses (tests/data/cloud/alibaba, README there names each page), the error mapping gives the stable code
// and advice per error code, broken answers give clear errors, RunInstances carries the documented parameters for
// each way of paying, and a recording transport with the documented answers drives whole launches through
// makeAlibabaEcsProvider.

#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <QTest>

#include <nlohmann/json.hpp>

#include "gpuplan/cloud/providers/alibaba/AlibabaProvider.h"
#include "gpuplan/cloud/providers/alibaba/EcsApi.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

using namespace gpuplan::core;
using nlohmann::json;

namespace {

const std::string kSecret = "testSecretKeyNotRealEXAMPLE0000";
const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci10ZXN0LWtleS1ub3QtcmVhbC0wMDAwMDAw lab@example";
constexpr std::int64_t kNow = 1796324700; // 2026-12-03T19:05:00Z
const std::string kType = "ecs.g5.large"; // the type of the documented DescribeAvailableResource example
const std::string kRegion = "cn-hangzhou";

std::string fixture(const std::string& name)
{
    std::ifstream in(GPUPLAN_SOURCE_DIR "/tests/data/cloud/alibaba/" + name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

json doc(const std::string& name)
{
    return json::parse(fixture(name));
}

// The documented error answer with another code and message.
std::string errorDoc(const std::string& code, const std::string& message = "refused")
{
    json d = doc("error_example.json");
    d["Code"] = code;
    d["Message"] = message;
    return d.dump();
}

// A documented answer with its wrapped list emptied.
std::string emptied(const std::string& name, const std::string& outer, const std::string& inner)
{
    json d = doc(name);
    d[outer][inner] = json::array();
    if (d.contains("TotalCount")) {
        d["TotalCount"] = 0;
    }
    return d.dump();
}

std::map<std::string, std::string> queryOf(const HttpRequest& request)
{
    std::map<std::string, std::string> out;
    const std::size_t q = request.url.find('?');
    std::string query = q == std::string::npos ? std::string() : request.url.substr(q + 1);
    std::size_t start = 0;
    while (start < query.size()) {
        const std::size_t amp = std::min(query.find('&', start), query.size());
        const std::string part = query.substr(start, amp - start);
        const std::size_t eq = part.find('=');
        out[uriDecode(part.substr(0, eq))] = eq == std::string::npos ? "" : uriDecode(part.substr(eq + 1));
        start = amp + 1;
    }
    return out;
}

std::map<std::string, std::string> paramsOf(const alibaba::Call& call)
{
    return std::map<std::string, std::string>(call.params.begin(), call.params.end());
}

struct Canned
{
    int status = 200;
    std::string body;
};

// Answers each request with the canned body for its x-acs-action (a queue per action; the last one repeats) and
// keeps every request.
class RecordingTransport final : public HttpTransport
{
public:
    void answer(const std::string& action, std::string body, int status = 200)
    {
        m_answers[action].push_back(Canned{status, std::move(body)});
    }

    using HttpTransport::send;
    Result<HttpResponse> send(const HttpRequest& request, const CancelToken*) override
    {
        requests.push_back(request);
        const std::string action = request.header("x-acs-action").value_or("");
        auto found = m_answers.find(action);
        if (found == m_answers.end() || found->second.empty()) {
            return HttpResponse{404, {}, errorDoc("InvalidAction.NotFound", "no canned answer for " + action)};
        }
        Canned canned = found->second.front();
        if (found->second.size() > 1) {
            found->second.pop_front();
        }
        return HttpResponse{canned.status, {{"Content-Type", "application/json;charset=utf-8"}}, canned.body};
    }

    std::vector<std::string> actions() const
    {
        std::vector<std::string> out;
        for (const HttpRequest& r : requests) {
            out.push_back(r.header("x-acs-action").value_or("?"));
        }
        return out;
    }

    std::map<std::string, std::string> query(const std::string& action, int nth = 0) const
    {
        for (const HttpRequest& r : requests) {
            if (r.header("x-acs-action") == action && nth-- == 0) {
                return queryOf(r);
            }
        }
        return {};
    }

    std::vector<HttpRequest> requests;

private:
    std::map<std::string, std::deque<Canned>> m_answers;
};

ProviderContext contextFor(RecordingTransport& transport)
{
    ProviderContext context;
    context.http = &transport;
    context.key = AccessKey{"LTAI5tEXAMPLEkeyId000000", kSecret, {}};
    context.clock = fixedClock(std::chrono::system_clock::time_point(std::chrono::seconds(kNow)));
    context.sleep = [](std::chrono::milliseconds) {};
    return context;
}

LaunchRequest baseRequest()
{
    LaunchRequest request;
    request.region = kRegion;
    request.instanceType = kType;
    request.imageId = "m-bp1g7004ksh0oeuc****";
    request.sshPublicKey = kPublicKey;
    request.sshSourceCidr = "203.0.113.7/32";
    request.clientToken = "gp-0123456789abcdef";
    return request;
}

std::map<std::string, std::string> runParams(const LaunchRequest& request)
{
    Result<alibaba::Call> call =
        alibaba::runInstancesCall(request, "cn-hangzhou-i", "m-1", "gpuplanner-key", "sg-1", "vsw-1", kNow);
    if (!call) {
        return {{"error", call.error().reason.key}};
    }
    return paramsOf(*call);
}

// Our VPC as DescribeVpcs reports it: the documented example renamed, with `vpcId`.
std::string ourVpc(const std::string& vpcId, const std::string& cidr = "192.168.0.0/16")
{
    json d = doc("describe_vpcs.json");
    d["Vpcs"]["Vpc"][0]["VpcName"] = "gpuplanner";
    d["Vpcs"]["Vpc"][0]["VpcId"] = vpcId;
    d["Vpcs"]["Vpc"][0]["CidrBlock"] = cidr;
    return d.dump();
}

std::string vSwitchAnswer(const std::string& id, const std::string& zone, const std::string& status)
{
    json d = doc("describe_vswitches.json");
    d["VSwitches"]["VSwitch"][0]["VSwitchId"] = id;
    d["VSwitches"]["VSwitch"][0]["ZoneId"] = zone;
    d["VSwitches"]["VSwitch"][0]["Status"] = status;
    return d.dump();
}

std::vector<std::string> stepKeys(const LaunchResult& result)
{
    std::vector<std::string> keys;
    for (const Reason& step : result.steps) {
        keys.push_back(step.key);
    }
    return keys;
}

bool hasStep(const LaunchResult& result, const std::string& key)
{
    const std::vector<std::string> keys = stepKeys(result);
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

} // namespace

class TestAlibabaEcs : public QObject
{
    Q_OBJECT

private slots:
    void parsesDocumentedAnswers()
    {
        Result<std::vector<std::string>> ids = alibaba::parseRunInstances(fixture("run_instances.json"));
        QVERIFY(ids);
        QCOMPARE(ids->size(), std::size_t(3));
        QCOMPARE(ids->front(), std::string("i-bp67acfmxazb4pd2****"));

        Result<alibaba::InstancesPage> page =
            alibaba::parseDescribeInstances(fixture("describe_instances.json"), kRegion);
        QVERIFY(page);
        QCOMPARE(page->instances.size(), std::size_t(1));
        QCOMPARE(page->nextToken, std::string("caeba0bbb2be03f84eb48b699f0a4883"));
        const alibaba::EcsInstance& i = page->instances.front();
        QCOMPARE(i.remote.instanceId, std::string("i-bp67acfmxazb4p****"));
        QCOMPARE(i.remote.state, InstanceState::Running);
        QCOMPARE(i.remote.providerState, std::string("Running"));
        QCOMPARE(i.remote.zone, std::string("cn-hangzhou-g"));
        QCOMPARE(i.remote.region, kRegion);
        QCOMPARE(i.remote.instanceType, std::string("ecs.g5.large"));
        QCOMPARE(i.remote.publicIp, std::string("121.40.**.**"));
        QCOMPARE(i.remote.pricingMode, std::string("on_demand"));            // PostPaid, SpotStrategy NoSpot
        QCOMPARE(i.remote.launchedAt.value_or(0), std::int64_t(1512878640)); // 2017-12-10T04:04Z
        QVERIFY(i.remote.clientToken.empty());                               // its only tag is TestKey
        QCOMPARE(i.chargeType, std::string("PostPaid"));
        QCOMPARE(i.expiredTime, std::string("2017-12-10T04:04Z"));
        QVERIFY(!i.recycling);

        Result<std::vector<alibaba::Image>> images = alibaba::parseDescribeImages(fixture("describe_images.json"));
        QVERIFY(images);
        QCOMPARE(images->size(), std::size_t(1));
        QCOMPARE(images->front().imageId, std::string("m-bp1g7004ksh0oeuc****"));
        QCOMPARE(images->front().name, std::string("testImageName"));
        QCOMPARE(images->front().status, std::string("Available"));
        QVERIFY(!alibaba::newestGpuImage(*images)); // "Archive log for Oracle": no driver

        Result<std::vector<std::string>> keys = alibaba::parseDescribeKeyPairs(fixture("describe_key_pairs.json"));
        QVERIFY(keys);
        QCOMPARE(*keys, std::vector<std::string>{"testKeyPairName"});
        QCOMPARE(*alibaba::parseImportKeyPair(fixture("import_key_pair.json")), std::string("testKeyPairName"));

        Result<std::vector<alibaba::SecurityGroup>> groups =
            alibaba::parseDescribeSecurityGroups(fixture("describe_security_groups.json"));
        QVERIFY(groups);
        QCOMPARE(groups->size(), std::size_t(1));
        QCOMPARE(groups->front().groupId, std::string("sg-bp67acfmxazb4p****"));
        QCOMPARE(groups->front().name, std::string("SGTestName"));
        QCOMPARE(groups->front().vpcId, std::string("vpc-bp67acfmxazb4p****"));
        QCOMPARE(*alibaba::parseCreateSecurityGroup(fixture("create_security_group.json")),
                 std::string("sg-securitygroupid"));

        Result<std::vector<alibaba::Permission>> rules =
            alibaba::parseSecurityGroupPermissions(fixture("describe_security_group_attribute.json"));
        QVERIFY(rules);
        QCOMPARE(rules->size(), std::size_t(1));
        QCOMPARE(rules->front().portRange, std::string("22/22"));
        QCOMPARE(rules->front().sourceCidrIp, std::string("0.0.0.0/0"));
        QVERIFY(alibaba::allowsSshFrom(*rules, "0.0.0.0/0"));
        QVERIFY(!alibaba::allowsSshFrom(*rules, "203.0.113.7/32"));

        QVERIFY(alibaba::parseEmptyAnswer(fixture("authorize_security_group.json"), "AuthorizeSecurityGroup"));
        QVERIFY(alibaba::parseEmptyAnswer(fixture("delete_instances.json"), "DeleteInstances"));

        Result<std::vector<alibaba::Vpc>> vpcs = alibaba::parseDescribeVpcs(fixture("describe_vpcs.json"));
        QVERIFY(vpcs);
        QCOMPARE(vpcs->size(), std::size_t(1));
        QCOMPARE(vpcs->front().vpcId, std::string("vpc-bp1qpo0kug3a20qqe****"));
        QCOMPARE(vpcs->front().cidrBlock, std::string("192.168.0.0/16"));
        QVERIFY(!vpcs->front().isDefault);
        QCOMPARE(*alibaba::parseCreateVpc(fixture("create_vpc.json")), std::string("vpc-bp15zckdt37pq72zv****"));

        Result<std::vector<alibaba::VSwitch>> switches =
            alibaba::parseDescribeVSwitches(fixture("describe_vswitches.json"));
        QVERIFY(switches);
        QCOMPARE(switches->size(), std::size_t(1));
        QCOMPARE(switches->front().zone, std::string("cn-hangzhou-d"));
        QCOMPARE(switches->front().cidrBlock, std::string("172.16.0.0/24"));
        QCOMPARE(*alibaba::parseCreateVSwitch(fixture("create_vswitch.json")), std::string("vsw-25naue4****"));

        std::optional<ApiError> error = alibaba::responseError(fixture("error_example.json"));
        QVERIFY(error);
        QCOMPARE(error->code, std::string("MissingParameter.CommandId"));
        QCOMPARE(error->requestId, std::string("540CFF28-407A-40B5-B6A5-74Bxxxxxxxxx"));
    }

    void ownerTagSpotAndRecycling()
    {
        json d = doc("describe_instances.json");
        json& instance = d["Instances"]["Instance"][0];
        instance["Tags"]["Tag"].push_back({{"TagKey", "gpuplanner-token"}, {"TagValue", "gp-abc"}});
        instance["SpotStrategy"] = "SpotAsPriceGo";
        instance["PublicIpAddress"]["IpAddress"] = json::array();
        instance["OperationLocks"]["LockReason"] = json::array({{{"LockMsg", ""}, {"LockReason", "recycling"}}});
        Result<alibaba::InstancesPage> page = alibaba::parseDescribeInstances(d.dump(), kRegion);
        QVERIFY(page);
        const alibaba::EcsInstance& i = page->instances.front();
        QCOMPARE(i.remote.clientToken, std::string("gp-abc"));
        QCOMPARE(i.remote.pricingMode, std::string("spot"));
        QCOMPARE(i.remote.publicIp, std::string("42.112.**.**")); // EipAddress when no public IP
        QVERIFY(i.recycling);
        QCOMPARE(i.remote.state, InstanceState::Stopping);
    }

    void states_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<int>("state");
        QTest::newRow("Pending") << "Pending" << int(InstanceState::Pending);
        QTest::newRow("Starting") << "Starting" << int(InstanceState::Pending);
        QTest::newRow("Running") << "Running" << int(InstanceState::Running);
        QTest::newRow("Stopping") << "Stopping" << int(InstanceState::Stopping);
        QTest::newRow("Stopped") << "Stopped" << int(InstanceState::Stopped);
        QTest::newRow("unknown") << "Whatever" << int(InstanceState::Pending);
    }
    void states()
    {
        QFETCH(QString, status);
        QFETCH(int, state);
        QCOMPARE(int(alibaba::stateFromEcs(status.toStdString())), state);
    }

    void zonesFromTheDocumentedExample()
    {
        const std::string body = fixture("describe_available_resource.json");
        QCOMPARE(*alibaba::parseAvailableZones(body, kType), std::vector<std::string>{"cn-hangzhou-i"});
        QVERIFY(alibaba::parseAvailableZones(body, "ecs.gn7i-c8g1.2xlarge")->empty()); // another type

        json d = json::parse(body);
        json& item = d["AvailableZones"]["AvailableZone"][0]["AvailableResources"]["AvailableResource"][0]
                      ["SupportedResources"]["SupportedResource"][0];
        item["StatusCategory"] = "ClosedWithStock";
        QCOMPARE(alibaba::parseAvailableZones(d.dump(), kType)->size(), std::size_t(1));
        item["StatusCategory"] = "WithoutStock";
        QVERIFY(alibaba::parseAvailableZones(d.dump(), kType)->empty());
        item["StatusCategory"] = "WithStock";
        d["AvailableZones"]["AvailableZone"][0]["Status"] = "SoldOut";
        QVERIFY(alibaba::parseAvailableZones(d.dump(), kType)->empty());
        // No AvailableZones at all: no zone has it.
        QVERIFY(alibaba::parseAvailableZones(R"({"RequestId":"x"})", kType)->empty());
    }

    void vSwitchCidr()
    {
        using alibaba::freeVSwitchCidr;
        QCOMPARE(freeVSwitchCidr("172.16.0.0/12", {}).value_or(""), std::string("172.16.0.0/24"));
        QCOMPARE(freeVSwitchCidr("172.16.0.0/12", {"172.16.0.0/24", "172.16.1.0/24"}).value_or(""),
                 std::string("172.16.2.0/24"));
        // A wider block covers several /24s.
        QCOMPARE(freeVSwitchCidr("192.168.0.0/16", {"192.168.0.0/20"}).value_or(""), std::string("192.168.16.0/24"));
        // A narrower one blocks only the /24 it is in.
        QCOMPARE(freeVSwitchCidr("10.0.0.0/8", {"10.0.0.128/25"}).value_or(""), std::string("10.0.1.0/24"));
        QCOMPARE(freeVSwitchCidr("192.168.5.0/24", {}).value_or(""), std::string("192.168.5.0/24"));
        QCOMPARE(freeVSwitchCidr("192.168.5.0/26", {}).value_or(""), std::string("192.168.5.0/26"));
        QVERIFY(!freeVSwitchCidr("192.168.5.0/24", {"192.168.5.0/25"}));
        QVERIFY(!freeVSwitchCidr("not a cidr", {}));
        QVERIFY(!freeVSwitchCidr("10.0.0.0/8", {"bad"}));
    }

    void malformedAnswers_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("field");
        QTest::newRow("not json") << "<html>"
                                  << "error.answer.not_json"
                                  << "";
        QTest::newRow("not an object") << "[1]"
                                       << "error.answer.not_object"
                                       << "";
        QTest::newRow("no list") << R"({"RequestId":"r"})"
                                 << "error.answer.missing"
                                 << "Instances";
        QTest::newRow("list not a list") << R"({"Instances":{"Instance":{}}})"
                                         << "error.answer.not_list"
                                         << "Instances.Instance";
        QTest::newRow("no id") << R"({"Instances":{"Instance":[{"Status":"Running"}]}})"
                               << "error.alibaba.answer_instance_without_id"
                               << "";
    }
    void malformedAnswers()
    {
        QFETCH(QString, body);
        QFETCH(QString, key);
        QFETCH(QString, field);
        Result<alibaba::InstancesPage> page = alibaba::parseDescribeInstances(body.toStdString(), kRegion);
        QVERIFY(!page);
        QCOMPARE(page.error().code, ErrorCode::ProviderRefused);
        QCOMPARE(QString::fromStdString(page.error().reason.key), key);
        QCOMPARE(page.error().reason.params.at("action"), std::string("DescribeInstances"));
        QCOMPARE(page.error().reason.params.at("provider"), std::string("alibaba"));
        QCOMPARE(page.error().where, std::string("alibaba DescribeInstances"));
        if (!field.isEmpty()) {
            QCOMPARE(QString::fromStdString(page.error().reason.params.at("field")), field);
        }
        // The create answers name the field they lack.
        Result<std::string> vpc = alibaba::parseCreateVpc(R"({"RequestId":"r"})");
        QVERIFY(!vpc);
        QCOMPARE(vpc.error().reason.key, std::string("error.answer.missing"));
        QCOMPARE(vpc.error().reason.params.at("field"), std::string("VpcId"));
        QCOMPARE(vpc.error().reason.params.at("action"), std::string("CreateVpc"));
        QVERIFY(!alibaba::parseEmptyAnswer("{}", "DeleteInstances"));
        QVERIFY(!alibaba::parseAvailableZones("nope", kType));
    }

    void errorMapping_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("expected");
        QTest::addColumn<QString>("key");
        QTest::newRow("no stock") << 400 << "OperationDenied.NoStock" << int(ErrorCode::InsufficientCapacity)
                                  << "error.alibaba.no_capacity";
        QTest::newRow("zone not on sale")
            << 400 << "Zone.NotOnSale" << int(ErrorCode::InsufficientCapacity) << "error.alibaba.no_capacity";
        QTest::newRow("type not in zone") << 403 << "InvalidInstanceType.ZoneNotSupported"
                                          << int(ErrorCode::InsufficientCapacity) << "error.alibaba.no_capacity";
        QTest::newRow("type offline") << 403 << "InstanceType.Offline" << int(ErrorCode::InsufficientCapacity)
                                      << "error.alibaba.no_capacity";
        QTest::newRow("resource type") << 400 << "InvalidResourceType.NotSupported"
                                       << int(ErrorCode::InsufficientCapacity) << "error.alibaba.no_capacity";
        QTest::newRow("type not sold") << 400 << "InvalidInstanceType.ValueNotSupported"
                                       << int(ErrorCode::ProviderRefused) << "error.alibaba.type_not_offered";
        QTest::newRow("elastic quota") << 403 << "QuotaExceed.ElasticQuota" << int(ErrorCode::QuotaExceeded)
                                       << "error.alibaba.quota";
        QTest::newRow("afterpay quota") << 400 << "QuotaExceed.AfterpayInstance" << int(ErrorCode::QuotaExceeded)
                                        << "error.alibaba.quota";
        QTest::newRow("real name") << 403 << "RealNameAuthenticationError" << int(ErrorCode::ProviderRefused)
                                   << "error.alibaba.real_name";
        QTest::newRow("balance") << 403 << "InvalidAccountStatus.NotEnoughBalance" << int(ErrorCode::ProviderRefused)
                                 << "error.alibaba.balance";
        QTest::newRow("arrears") << 400 << "Account.Arrearage" << int(ErrorCode::ProviderRefused)
                                 << "error.alibaba.balance";
        QTest::newRow("no pay method") << 403 << "PaymentMethodNotFound" << int(ErrorCode::ProviderRefused)
                                       << "error.alibaba.balance";
        QTest::newRow("spot too low") << 400 << "InvalidSpotPriceLimit.LowerThanPublicPrice"
                                      << int(ErrorCode::ProviderRefused) << "error.alibaba.spot_price_too_low";
        QTest::newRow("spot refused") << 400 << "InvalidSpotAliUid" << int(ErrorCode::ProviderRefused)
                                      << "error.alibaba.spot_refused";
        QTest::newRow("ram") << 403 << "Forbidden.RAM" << int(ErrorCode::PermissionDenied)
                             << "error.alibaba.permission_missing";
        QTest::newRow("forbbiden") << 403 << "Forbbiden" << int(ErrorCode::PermissionDenied)
                                   << "error.alibaba.permission_missing";
        QTest::newRow("pass role") << 403 << "InvalidUser.PassRoleForbidden" << int(ErrorCode::PermissionDenied)
                                   << "error.alibaba.permission_missing";
        QTest::newRow("no key") << 404 << "InvalidAccessKeyId.NotFound" << int(ErrorCode::Credentials)
                                << "error.alibaba.key_refused";
        QTest::newRow("signature") << 400 << "SignatureDoesNotMatch" << int(ErrorCode::Credentials)
                                   << "error.alibaba.key_refused";
        QTest::newRow("incomplete") << 400 << "IncompleteSignature" << int(ErrorCode::Credentials)
                                    << "error.alibaba.key_refused";
        QTest::newRow("clock") << 400 << "InvalidTimeStamp.Expired" << int(ErrorCode::ClockSkew)
                               << "error.alibaba.clock_skew";
        QTest::newRow("throttling") << 400 << "Throttling" << int(ErrorCode::Throttled) << "error.alibaba.throttled";
        QTest::newRow("throttling user") << 400 << "Throttling.User" << int(ErrorCode::Throttled)
                                         << "error.alibaba.throttled";
        QTest::newRow("not found") << 404 << "InvalidSecurityGroupId.NotFound" << int(ErrorCode::NotFound)
                                   << "error.alibaba.not_found";
        QTest::newRow("internal") << 500 << "InternalError" << int(ErrorCode::ProviderRefused)
                                  << "error.alibaba.server_error";
        QTest::newRow("unknown") << 500 << "UnknownError" << int(ErrorCode::ProviderRefused)
                                 << "error.alibaba.server_error";
        QTest::newRow("unavailable") << 503 << "ServiceUnavailable" << int(ErrorCode::ProviderRefused)
                                     << "error.alibaba.server_error";
        QTest::newRow("risk control") << 403 << "Forbidden.RiskControl" << int(ErrorCode::ProviderRefused)
                                      << "error.alibaba.refused";
        QTest::newRow("other") << 400 << "InvalidParameter" << int(ErrorCode::ProviderRefused)
                               << "error.alibaba.refused";
    }
    void errorMapping()
    {
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(int, expected);
        QFETCH(QString, key);
        alibaba::ErrorContext context;
        context.action = "RunInstances";
        context.region = kRegion;
        context.instanceType = kType;
        context.zone = "cn-hangzhou-i";
        HttpResponse response{status, {}, errorDoc(code.toStdString(), "the message")};
        std::optional<Error> error = alibaba::mapError(response, context);
        QVERIFY(error);
        QCOMPARE(int(error->code), expected);
        QCOMPARE(QString::fromStdString(error->reason.key), key);
        QCOMPARE(error->providerCode, code.toStdString());
        QCOMPARE(error->httpStatus, status);
        const auto& p = error->reason.params;
        QCOMPARE(p.at("code"), code.toStdString());
        QCOMPARE(p.at("said"), std::string("the message"));
        QCOMPARE(p.at("request_id"), std::string("540CFF28-407A-40B5-B6A5-74Bxxxxxxxxx"));
        if (key == "error.alibaba.no_capacity") {
            QCOMPARE(p.at("zone"), std::string("cn-hangzhou-i"));
            QCOMPARE(p.at("instance_type"), kType);
        }
        if (key == "error.alibaba.quota" || key == "error.alibaba.type_not_offered") {
            QCOMPARE(p.at("region"), kRegion);
        }
        if (key == "error.alibaba.permission_missing") {
            QCOMPARE(p.at("ram_action"), std::string("ecs:RunInstances"));
            QCOMPARE(p.at("policy"), std::string("AliyunECSFullAccess"));
        }
    }

    void errorMappingEdges()
    {
        alibaba::ErrorContext context;
        context.action = "CreateVpc";
        context.product = alibaba::Product::Vpc;
        // The VPC product names its own RAM action and policy.
        std::optional<Error> denied = alibaba::mapError(HttpResponse{403, {}, errorDoc("Forbidden.RAM")}, context);
        QCOMPARE(denied->reason.params.at("ram_action"), std::string("vpc:CreateVpc"));
        QCOMPARE(denied->reason.params.at("policy"), std::string("AliyunVPCFullAccess"));
        // A success, an HTML error page, a 2xx that is no JSON.
        QVERIFY(!alibaba::mapError(HttpResponse{200, {}, fixture("create_vpc.json")}, context));
        std::optional<Error> page = alibaba::mapError(HttpResponse{502, {}, "<html>bad gateway</html>"}, context);
        QCOMPARE(page->code, ErrorCode::HttpStatus);
        QCOMPARE(page->reason.key, std::string("error.alibaba.http_status"));
        std::optional<Error> garbage = alibaba::mapError(HttpResponse{200, {}, "garbage"}, context);
        QCOMPARE(garbage->reason.key, std::string("error.answer.not_json"));
        QCOMPARE(garbage->reason.params.at("provider"), std::string("alibaba"));
        QCOMPARE(garbage->httpStatus, 200);
    }

    void onDemandParams()
    {
        LaunchRequest request = baseRequest();
        request.userData = "#cloud-config\nruncmd: [echo hi]\n";
        request.tags = {{"project", "llm"}, {std::string(kOwnerTagKey), "ignored"}};
        request.terminateAt = kNow + 4 * 3600 + 17; // seconds dropped
        const auto p = runParams(request);
        QCOMPARE(p.at("RegionId"), kRegion);
        QCOMPARE(p.at("ZoneId"), std::string("cn-hangzhou-i"));
        QCOMPARE(p.at("InstanceType"), kType);
        QCOMPARE(p.at("ImageId"), std::string("m-1"));
        QCOMPARE(p.at("SecurityGroupId"), std::string("sg-1"));
        QCOMPARE(p.at("VSwitchId"), std::string("vsw-1"));
        QCOMPARE(p.at("KeyPairName"), std::string("gpuplanner-key"));
        QCOMPARE(p.at("InstanceName"), std::string("gpuplanner-gp012345"));
        QCOMPARE(p.at("UserData"), base64(request.userData));
        QCOMPARE(p.at("ClientToken"), request.clientToken);
        QCOMPARE(p.at("Amount"), std::string("1"));
        QCOMPARE(p.at("InternetChargeType"), std::string("PayByTraffic"));
        QCOMPARE(p.at("InternetMaxBandwidthOut"), std::string("10"));
        QCOMPARE(p.at("Tag.1.Key"), std::string("gpuplanner-token"));
        QCOMPARE(p.at("Tag.1.Value"), request.clientToken);
        QCOMPARE(p.at("Tag.2.Key"), std::string("project"));
        QCOMPARE(p.at("Tag.2.Value"), std::string("llm"));
        QVERIFY(!p.contains("Tag.3.Key")); // the owner tag is not sent twice
        QCOMPARE(p.at("InstanceChargeType"), std::string("PostPaid"));
        QCOMPARE(p.at("AutoReleaseTime"), std::string("2026-12-03T23:05:00Z"));
        for (const char* absent : {"SpotStrategy", "SpotPriceLimit", "Period", "PeriodUnit", "AutoRenew", "DryRun"}) {
            QVERIFY2(!p.contains(absent), absent);
        }
    }

    void spotParams()
    {
        LaunchRequest request = baseRequest();
        request.pricing = LaunchPricing::Spot;
        auto p = runParams(request);
        QCOMPARE(p.at("InstanceChargeType"), std::string("PostPaid"));
        QCOMPARE(p.at("SpotStrategy"), std::string("SpotAsPriceGo"));
        QVERIFY(!p.contains("SpotPriceLimit"));
        QVERIFY(!p.contains("SpotDuration")); // the documented default, 1 hour kept
        request.spotPriceLimit = 1.23456;
        p = runParams(request);
        QCOMPARE(p.at("SpotStrategy"), std::string("SpotWithPriceLimit"));
        QCOMPARE(p.at("SpotPriceLimit"), std::string("1.235"));
        request.spotPriceLimit = 0.97; // written as the SDK writes the number, without trailing zeros
        QCOMPARE(runParams(request).at("SpotPriceLimit"), std::string("0.97"));
    }

    void prepaidParams()
    {
        LaunchRequest request = baseRequest();
        request.pricing = LaunchPricing::Subscription;
        request.subscriptionMonths = 3;
        request.terminateAt = kNow + 3600;
        auto p = runParams(request);
        QCOMPARE(p.at("InstanceChargeType"), std::string("PrePaid"));
        QCOMPARE(p.at("Period"), std::string("3"));
        QCOMPARE(p.at("PeriodUnit"), std::string("Month"));
        QCOMPARE(p.at("AutoRenew"), std::string("false"));
        QVERIFY(!p.contains("AutoReleaseTime")); // pay-as-you-go only
        request.autoRenew = true;
        QCOMPARE(runParams(request).at("AutoRenew"), std::string("true"));
        request.subscriptionMonths = 0;
        QCOMPARE(runParams(request).at("error"), std::string("error.alibaba.prepaid_needs_months"));
    }

    void limits()
    {
        LaunchRequest request = baseRequest();
        request.terminateAt = kNow + 29 * 60;
        QCOMPARE(runParams(request).at("error"), std::string("error.alibaba.release_too_soon"));
        request.terminateAt = kNow + 30 * 60;
        QCOMPARE(runParams(request).at("AutoReleaseTime"), std::string("2026-12-03T19:35:00Z"));

        request = baseRequest();
        request.clientToken = "";
        QCOMPARE(runParams(request).at("error"), std::string("error.alibaba.no_client_token"));
        request.clientToken = std::string(64, 'a');
        QVERIFY(!runParams(request).contains("error"));
        request.clientToken = std::string(65, 'a');
        QCOMPARE(runParams(request).at("error"), std::string("error.alibaba.client_token_invalid"));
        request.clientToken = "gp-令牌";
        QCOMPARE(runParams(request).at("error"), std::string("error.alibaba.client_token_invalid"));

        request = baseRequest();
        request.userData = std::string(32 * 1024, 'x'); // the limit is before base64
        QVERIFY(!runParams(request).contains("error"));
        request.userData += "x";
        QCOMPARE(runParams(request).at("error"), std::string("error.alibaba.user_data_too_big"));

        request = baseRequest();
        request.dryRun = true;
        QCOMPARE(runParams(request).at("DryRun"), std::string("true"));
        // Placeholders left out.
        Result<alibaba::Call> bare = alibaba::runInstancesCall(request, "z", "m", "", "", "", kNow);
        QVERIFY(bare);
        QVERIFY(!bare->param("KeyPairName") && !bare->param("SecurityGroupId") && !bare->param("VSwitchId"));
    }

    void namesAndOtherCalls()
    {
        const std::string name = *alibaba::keyPairName(kPublicKey);
        QVERIFY(name.starts_with("gpuplanner-"));
        QCOMPARE(name.size(), std::size_t(23));
        QVERIFY(!alibaba::keyPairName("ssh-ed25519"));
        QCOMPARE(alibaba::securityGroupName("203.0.113.7/32"), std::string("gpuplanner-ssh-203-0-113-7-32"));
        QCOMPARE(alibaba::vSwitchName("cn-hangzhou-i"), std::string("gpuplanner-cn-hangzhou-i"));
        const std::string vpcToken = alibaba::derivedClientToken("gp-1", "vpc");
        QCOMPARE(vpcToken, alibaba::derivedClientToken("gp-1", "vpc"));
        QVERIFY(vpcToken != alibaba::derivedClientToken("gp-2", "vpc"));
        QVERIFY(vpcToken != alibaba::derivedClientToken("gp-1", "vswitch:cn-hangzhou-i"));
        QVERIFY(vpcToken.size() <= 64);

        auto p = paramsOf(alibaba::describeInstanceCall(kRegion, "i-1"));
        QCOMPARE(p.at("InstanceIds"), std::string(R"(["i-1"])"));
        p = paramsOf(alibaba::listOursCall(kRegion, "tok"));
        QCOMPARE(p.at("Tag.1.Key"), std::string("gpuplanner-token"));
        QCOMPARE(p.at("MaxResults"), std::string("100"));
        QCOMPARE(p.at("NextToken"), std::string("tok"));
        QVERIFY(!paramsOf(alibaba::listOursCall(kRegion, "")).contains("NextToken"));
        p = paramsOf(alibaba::deleteInstanceCall(kRegion, "i-1"));
        QCOMPARE(p.at("InstanceId.1"), std::string("i-1"));
        QCOMPARE(p.at("Force"), std::string("true"));
        p = paramsOf(alibaba::authorizeSshCall(kRegion, "sg-1", "203.0.113.7/32"));
        QCOMPARE(p.at("Permissions.1.IpProtocol"), std::string("TCP"));
        QCOMPARE(p.at("Permissions.1.PortRange"), std::string("22/22"));
        QCOMPARE(p.at("Permissions.1.SourceCidrIp"), std::string("203.0.113.7/32"));
        QCOMPARE(p.at("Permissions.1.Policy"), std::string("accept"));
        p = paramsOf(alibaba::availableResourceCall(kRegion, kType, LaunchPricing::Spot));
        QCOMPARE(p.at("DestinationResource"), std::string("InstanceType"));
        QCOMPARE(p.at("InstanceChargeType"), std::string("PostPaid"));
        QCOMPARE(p.at("SpotStrategy"), std::string("SpotAsPriceGo"));
        QCOMPARE(p.at("ResourceType"), std::string("instance"));
        QCOMPARE(paramsOf(alibaba::availableResourceCall(kRegion, kType, LaunchPricing::Subscription))
                     .at("InstanceChargeType"),
                 std::string("PrePaid"));
        p = paramsOf(alibaba::describeImagesCall(kRegion, kType));
        QCOMPARE(p.at("ImageOwnerAlias"), std::string("system"));
        QCOMPARE(p.at("OSType"), std::string("linux"));
        QCOMPARE(p.at("Architecture"), std::string("x86_64"));
        QCOMPARE(p.at("InstanceType"), kType);
        p = paramsOf(
            alibaba::describePriceCall(kRegion, kType, "cn-hangzhou-i", "m-1", LaunchPricing::Subscription, 1));
        QCOMPARE(p.at("PriceUnit"), std::string("Month"));
        QCOMPARE(p.at("Period"), std::string("1"));

        p = paramsOf(alibaba::createSecurityGroupCall(kRegion, "vpc-1", "gpuplanner-ssh-x", "203.0.113.7/32", "gp-t"));
        QCOMPARE(p.at("VpcId"), std::string("vpc-1"));
        QCOMPARE(p.at("SecurityGroupName"), std::string("gpuplanner-ssh-x"));
        QCOMPARE(p.at("SecurityGroupType"), std::string("normal"));
        QCOMPARE(p.at("ClientToken"), std::string("gp-t"));
        QCOMPARE(p.at("Description"), std::string("GPU Planner: SSH from 203.0.113.7/32"));
        QCOMPARE(paramsOf(alibaba::describeSecurityGroupAttributeCall(kRegion, "sg-1")).at("Direction"),
                 std::string("ingress"));
        p = paramsOf(alibaba::createVSwitchCall(kRegion, "vpc-1", "cn-hangzhou-i", "172.16.0.0/24", "gp-v"));
        QCOMPARE(p.at("VSwitchName"), std::string("gpuplanner-cn-hangzhou-i"));
        QCOMPARE(p.at("CidrBlock"), std::string("172.16.0.0/24"));
        QCOMPARE(p.at("ClientToken"), std::string("gp-v"));
        QCOMPARE(paramsOf(alibaba::describeVSwitchesCall(kRegion, "vpc-1", "cn-hangzhou-i")).at("ZoneId"),
                 std::string("cn-hangzhou-i"));
        QVERIFY(!paramsOf(alibaba::describeVSwitchesCall(kRegion, "vpc-1", "")).contains("ZoneId"));
        QCOMPARE(paramsOf(alibaba::describeOurVpcCall(kRegion)).at("VpcName"), std::string("gpuplanner"));
        QCOMPARE(paramsOf(alibaba::describeKeyPairsCall(kRegion, "k")).at("KeyPairName"), std::string("k"));
        p = paramsOf(alibaba::importKeyPairCall(kRegion, "k", kPublicKey + "\n"));
        QCOMPARE(p.at("PublicKeyBody"), kPublicKey); // trimmed
        p = paramsOf(alibaba::describePriceCall(kRegion, kType, "", "", LaunchPricing::Spot, 0));
        QCOMPARE(p.at("PriceUnit"), std::string("Hour"));
        QCOMPARE(p.at("SpotStrategy"), std::string("SpotAsPriceGo"));
        QVERIFY(!p.contains("ZoneId") && !p.contains("ImageId"));

        // GPU image choice: newest Available one that names the driver.
        std::vector<alibaba::Image> images{
            {"m-old", "ubuntu_22_04_gpu_driver", "", "2024-01-01T00:00:00Z", "Available"},
            {"m-new", "ubuntu_22_04", "预装 NVIDIA 驱动", "2025-01-01T00:00:00Z", "Available"},
            {"m-plain", "ubuntu_24_04", "", "2026-01-01T00:00:00Z", "Available"},
            {"m-gone", "CUDA image", "", "2026-06-01T00:00:00Z", "Deprecated"}};
        QCOMPARE(alibaba::newestGpuImage(images)->imageId, std::string("m-new"));
    }

    void requestShape()
    {
        QCOMPARE(alibaba::host(alibaba::Product::Ecs, "cn-hangzhou"), std::string("ecs-cn-hangzhou.aliyuncs.com"));
        QCOMPARE(alibaba::host(alibaba::Product::Vpc, "cn-hangzhou"), std::string("vpc.aliyuncs.com"));
        QCOMPARE(alibaba::host(alibaba::Product::Ecs, "cn-beijing"), std::string("ecs.cn-beijing.aliyuncs.com"));
        QCOMPARE(alibaba::host(alibaba::Product::Vpc, "cn-shanghai"), std::string("vpc.cn-shanghai.aliyuncs.com"));
        QCOMPARE(alibaba::baseUrl(alibaba::Product::Vpc, "cn-beijing", "http://127.0.0.1:8080"),
                 std::string("http://127.0.0.1:8080/"));

        alibaba::Call call = alibaba::describeInstanceCall("cn-beijing", "i-1");
        HttpRequest request = alibaba::buildRequest("https://ecs.cn-beijing.aliyuncs.com/", call);
        QCOMPARE(request.method, std::string("POST"));
        QCOMPARE(request.url,
                 std::string("https://ecs.cn-beijing.aliyuncs.com/?RegionId=cn-beijing&InstanceIds=%5B%22i-1%22%5D"));
        QVERIFY(request.body.empty());
        QCOMPARE(request.header("x-acs-action").value_or(""), std::string("DescribeInstances"));
        QCOMPARE(request.header("x-acs-version").value_or(""), std::string("2014-05-26"));
        QVERIFY(!request.header("content-type"));
        QVERIFY(request.safeToRetry);
        QVERIFY(!alibaba::importKeyPairCall(kRegion, "k", kPublicKey).safeToRetry);
    }

    void launchOnAFreshAccount()
    {
        RecordingTransport t;
        t.answer("DescribeKeyPairs", emptied("describe_key_pairs.json", "KeyPairs", "KeyPair"));
        t.answer("ImportKeyPair", fixture("import_key_pair.json"));
        const std::string noVpc = emptied("describe_vpcs.json", "Vpcs", "Vpc");
        t.answer("DescribeVpcs", noVpc);
        t.answer("DescribeVpcs", noVpc);
        t.answer("DescribeVpcs", ourVpc("vpc-bp15zckdt37pq72zv****", "172.16.0.0/12"));
        t.answer("CreateVpc", fixture("create_vpc.json"));
        t.answer("DescribeSecurityGroups", emptied("describe_security_groups.json", "SecurityGroups", "SecurityGroup"));
        t.answer("CreateSecurityGroup", fixture("create_security_group.json"));
        t.answer("AuthorizeSecurityGroup", fixture("authorize_security_group.json"));
        t.answer("DescribeAvailableResource", fixture("describe_available_resource.json"));
        const std::string noSwitch = emptied("describe_vswitches.json", "VSwitches", "VSwitch");
        t.answer("DescribeVSwitches", noSwitch);
        t.answer("DescribeVSwitches", noSwitch);
        t.answer("DescribeVSwitches", vSwitchAnswer("vsw-25naue4****", "cn-hangzhou-i", "Pending"));
        t.answer("DescribeVSwitches", vSwitchAnswer("vsw-25naue4****", "cn-hangzhou-i", "Available"));
        t.answer("CreateVSwitch", fixture("create_vswitch.json"));
        t.answer("RunInstances", fixture("run_instances.json"));
        auto provider = makeAlibabaEcsProvider(contextFor(t));
        QCOMPARE(provider->id(), std::string("alibaba"));
        QVERIFY(!provider->supports(CloudFeature::TerminateOnShutdown));
        QVERIFY(provider->supports(CloudFeature::ScheduledTerminate));
        QVERIFY(alibabaDescriptor().canLaunch());

        LaunchRequest request = baseRequest();
        request.terminateAt = kNow + 4 * 3600;
        Result<LaunchResult> result = provider->launch(request, nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(result->instanceId, std::string("i-bp67acfmxazb4pd2****"));
        QCOMPARE(result->zone, std::string("cn-hangzhou-i"));
        QCOMPARE(result->state, InstanceState::Pending);
        const std::vector<std::string> expected{"DescribeKeyPairs",
                                                "ImportKeyPair",
                                                "DescribeVpcs",
                                                "DescribeVpcs",
                                                "CreateVpc",
                                                "DescribeVpcs",
                                                "DescribeSecurityGroups",
                                                "CreateSecurityGroup",
                                                "AuthorizeSecurityGroup",
                                                "DescribeAvailableResource",
                                                "DescribeVSwitches",
                                                "DescribeVSwitches",
                                                "CreateVSwitch",
                                                "DescribeVSwitches",
                                                "DescribeVSwitches",
                                                "RunInstances"};
        QCOMPARE(t.actions(), expected);
        const std::vector<std::string> steps{"step.image_given",
                                             "step.key_pair_imported",
                                             "step.alibaba.vpc_created",
                                             "step.group_created",
                                             "step.zone_chosen",
                                             "step.alibaba.vswitch_created",
                                             "step.launched"};
        QCOMPARE(stepKeys(*result), steps);
        QCOMPARE(result->steps[2].params.at("vpc_id"), std::string("vpc-bp15zckdt37pq72zv****"));
        QCOMPARE(result->steps[5].params.at("cidr"), std::string("172.16.0.0/24"));

        for (const HttpRequest& r : t.requests) {
            const bool isVpc = r.header("x-acs-version") == "2016-04-28";
            QVERIFY2(r.url.starts_with(isVpc ? "https://vpc.aliyuncs.com/?" : "https://ecs-cn-hangzhou.aliyuncs.com/?"),
                     r.url.c_str());
            QCOMPARE(r.method, std::string("POST"));
            QVERIFY(r.body.empty());
            const std::string auth = r.header("Authorization").value_or("");
            QVERIFY2(auth.starts_with("ACS3-HMAC-SHA256 Credential=LTAI5tEXAMPLEkeyId000000,SignedHeaders="),
                     auth.c_str());
            QVERIFY(auth.find("x-acs-action") != std::string::npos);
            QCOMPARE(r.header("x-acs-date").value_or(""), std::string("2026-12-03T19:05:00Z"));
            QCOMPARE(r.header("x-acs-content-sha256").value_or(""), sha256Hex(""));
            QVERIFY(r.url.find(kSecret) == std::string::npos);
        }
        QCOMPARE(t.query("CreateVpc").at("CidrBlock"), std::string("172.16.0.0/12"));
        QCOMPARE(t.query("CreateVpc").at("VpcName"), std::string("gpuplanner"));
        QCOMPARE(t.query("CreateVpc").at("ClientToken"), alibaba::derivedClientToken(request.clientToken, "vpc"));
        QCOMPARE(t.query("DescribeVpcs", 1).at("IsDefault"), std::string("true"));
        QCOMPARE(t.query("CreateSecurityGroup").at("VpcId"), std::string("vpc-bp15zckdt37pq72zv****"));
        QCOMPARE(t.query("AuthorizeSecurityGroup").at("SecurityGroupId"), std::string("sg-securitygroupid"));
        QCOMPARE(t.query("CreateVSwitch").at("ZoneId"), std::string("cn-hangzhou-i"));
        QCOMPARE(t.query("CreateVSwitch").at("CidrBlock"), std::string("172.16.0.0/24"));
        QCOMPARE(t.query("ImportKeyPair").at("PublicKeyBody"), kPublicKey);
        const auto run = t.query("RunInstances");
        QCOMPARE(run.at("KeyPairName"), *alibaba::keyPairName(kPublicKey));
        QCOMPARE(run.at("SecurityGroupId"), std::string("sg-securitygroupid"));
        QCOMPARE(run.at("VSwitchId"), std::string("vsw-25naue4****"));
        QCOMPARE(run.at("ZoneId"), std::string("cn-hangzhou-i"));
        QCOMPARE(run.at("AutoReleaseTime"), std::string("2026-12-03T23:05:00Z"));
    }

    void launchReusingEverything()
    {
        RecordingTransport t;
        const std::string keyName = *alibaba::keyPairName(kPublicKey);
        json keys = doc("describe_key_pairs.json");
        keys["KeyPairs"]["KeyPair"][0]["KeyPairName"] = keyName;
        t.answer("DescribeKeyPairs", keys.dump());
        t.answer("DescribeVpcs", ourVpc("vpc-ours"));
        json groups = doc("describe_security_groups.json");
        groups["SecurityGroups"]["SecurityGroup"][0]["SecurityGroupName"] = "gpuplanner-ssh-203-0-113-7-32";
        groups["SecurityGroups"]["SecurityGroup"][0]["VpcId"] = "vpc-ours";
        t.answer("DescribeSecurityGroups", groups.dump());
        json rules = doc("describe_security_group_attribute.json");
        rules["Permissions"]["Permission"][0]["SourceCidrIp"] = "203.0.113.7/32";
        t.answer("DescribeSecurityGroupAttribute", rules.dump());
        t.answer("DescribeVSwitches", vSwitchAnswer("vsw-ours", "cn-hangzhou-i", "Available"));
        t.answer("RunInstances", fixture("run_instances.json"));
        LaunchRequest request = baseRequest();
        request.zone = "cn-hangzhou-i";
        Result<LaunchResult> result = makeAlibabaEcsProvider(contextFor(t))->launch(request, nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(t.actions(),
                 (std::vector<std::string>{"DescribeKeyPairs",
                                           "DescribeVpcs",
                                           "DescribeSecurityGroups",
                                           "DescribeSecurityGroupAttribute",
                                           "DescribeVSwitches",
                                           "RunInstances"}));
        QCOMPARE(stepKeys(*result),
                 (std::vector<std::string>{"step.image_given",
                                           "step.key_pair_found",
                                           "step.alibaba.vpc_found",
                                           "step.group_found",
                                           "step.alibaba.vswitch_found",
                                           "step.launched"}));
        const auto run = t.query("RunInstances");
        QCOMPARE(run.at("SecurityGroupId"), std::string("sg-bp67acfmxazb4p****"));
        QCOMPARE(run.at("VSwitchId"), std::string("vsw-ours"));
        QCOMPARE(t.query("DescribeSecurityGroups").at("VpcId"), std::string("vpc-ours"));
    }

    void aGroupWithoutItsRuleGetsItBack()
    {
        RecordingTransport t;
        json keys = doc("describe_key_pairs.json");
        keys["KeyPairs"]["KeyPair"][0]["KeyPairName"] = *alibaba::keyPairName(kPublicKey);
        t.answer("DescribeKeyPairs", keys.dump());
        t.answer("DescribeVpcs", emptied("describe_vpcs.json", "Vpcs", "Vpc"));
        json standard = doc("describe_vpcs.json");
        standard["Vpcs"]["Vpc"][0]["IsDefault"] = true;
        t.answer("DescribeVpcs", standard.dump());
        json groups = doc("describe_security_groups.json");
        groups["SecurityGroups"]["SecurityGroup"][0]["SecurityGroupName"] = "gpuplanner-ssh-203-0-113-7-32";
        groups["SecurityGroups"]["SecurityGroup"][0]["VpcId"] = "vpc-bp1qpo0kug3a20qqe****";
        t.answer("DescribeSecurityGroups", groups.dump());
        t.answer("DescribeSecurityGroupAttribute", fixture("describe_security_group_attribute.json")); // 0.0.0.0/0
        t.answer("AuthorizeSecurityGroup", fixture("authorize_security_group.json"));
        t.answer("DescribeVSwitches", fixture("describe_vswitches.json"));
        t.answer("RunInstances", fixture("run_instances.json"));
        LaunchRequest request = baseRequest();
        request.zone = "cn-hangzhou-d"; // the documented vSwitch's zone (describe_vswitches.json)
        Result<LaunchResult> result = makeAlibabaEcsProvider(contextFor(t))->launch(request, nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QVERIFY(hasStep(*result, "step.alibaba.vpc_default"));
        QVERIFY(hasStep(*result, "step.group_ssh_rule_added_again"));
        QCOMPARE(t.query("AuthorizeSecurityGroup").at("Permissions.1.SourceCidrIp"), std::string("203.0.113.7/32"));
        QCOMPARE(t.query("RunInstances").at("VSwitchId"), std::string("vsw-25bcdxs7pv1****"));
    }

    void dryRunCreatesNothing()
    {
        RecordingTransport t;
        t.answer("DescribeKeyPairs", emptied("describe_key_pairs.json", "KeyPairs", "KeyPair"));
        t.answer("DescribeVpcs", emptied("describe_vpcs.json", "Vpcs", "Vpc"));
        t.answer("DescribeAvailableResource", fixture("describe_available_resource.json"));
        t.answer("RunInstances",
                 errorDoc("DryRunOperation", "Request validation has been passed with DryRun flag set."),
                 400);
        LaunchRequest request = baseRequest();
        request.dryRun = true;
        Result<LaunchResult> result = makeAlibabaEcsProvider(contextFor(t))->launch(request, nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QVERIFY(result->dryRunPassed);
        QVERIFY(result->instanceId.empty());
        QCOMPARE(t.actions(),
                 (std::vector<std::string>{
                     "DescribeKeyPairs", "DescribeVpcs", "DescribeVpcs", "DescribeAvailableResource", "RunInstances"}));
        QCOMPARE(stepKeys(*result),
                 (std::vector<std::string>{"step.image_given",
                                           "step.key_pair_would_import",
                                           "step.alibaba.vpc_would_create",
                                           "step.group_would_create",
                                           "step.zone_chosen",
                                           "step.alibaba.vswitch_would_create",
                                           "step.dry_run_passed"}));
        const auto run = t.query("RunInstances");
        QCOMPARE(run.at("DryRun"), std::string("true"));
        QVERIFY(!run.contains("KeyPairName") && !run.contains("SecurityGroupId") && !run.contains("VSwitchId"));

        // A dry run that fails says why, as any refusal.
        RecordingTransport refused;
        refused.answer("DescribeKeyPairs", emptied("describe_key_pairs.json", "KeyPairs", "KeyPair"));
        refused.answer("DescribeVpcs", emptied("describe_vpcs.json", "Vpcs", "Vpc"));
        refused.answer("RunInstances", errorDoc("QuotaExceed.ElasticQuota"), 403);
        request.zone = "cn-hangzhou-i";
        Result<LaunchResult> quota = makeAlibabaEcsProvider(contextFor(refused))->launch(request, nullptr);
        QVERIFY(!quota);
        QCOMPARE(quota.error().code, ErrorCode::QuotaExceeded);
    }

    void launchRefusals()
    {
        // No GPU image: the honest error.
        RecordingTransport t;
        t.answer("DescribeImages", fixture("describe_images.json"));
        LaunchRequest request = baseRequest();
        request.imageId.clear();
        Result<LaunchResult> result = makeAlibabaEcsProvider(contextFor(t))->launch(request, nullptr);
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(result.error().reason.key, std::string("error.alibaba.no_gpu_image"));
        const auto images = t.query("DescribeImages");
        QCOMPARE(images.at("InstanceType"), kType);
        QCOMPARE(images.at("Status"), std::string("Available"));

        // Checked before anything is sent.
        RecordingTransport none;
        request = baseRequest();
        request.terminateAt = kNow + 60;
        result = makeAlibabaEcsProvider(contextFor(none))->launch(request, nullptr);
        QVERIFY(!result);
        QCOMPARE(result.error().reason.key, std::string("error.alibaba.release_too_soon"));
        request = baseRequest();
        request.sshPublicKey = "not a key";
        QVERIFY(!makeAlibabaEcsProvider(contextFor(none))->launch(request, nullptr));
        QVERIFY(none.requests.empty());

        // An import that races another launch finds the key.
        RecordingTransport race;
        race.answer("DescribeKeyPairs", emptied("describe_key_pairs.json", "KeyPairs", "KeyPair"));
        json keys = doc("describe_key_pairs.json");
        keys["KeyPairs"]["KeyPair"][0]["KeyPairName"] = *alibaba::keyPairName(kPublicKey);
        race.answer("DescribeKeyPairs", keys.dump());
        race.answer("ImportKeyPair", errorDoc("KeyPair.AlreadyExist"), 400);
        race.answer("DescribeVpcs", errorDoc("Forbidden.RAM"), 403);
        result = makeAlibabaEcsProvider(contextFor(race))->launch(baseRequest(), nullptr);
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::PermissionDenied); // got past the key
        QCOMPARE(result.error().reason.params.at("ram_action"), std::string("vpc:DescribeVpcs"));
    }

    void describeListTerminate()
    {
        RecordingTransport t;
        t.answer("DescribeInstances", fixture("describe_instances.json"));
        t.answer("DeleteInstances", fixture("delete_instances.json"));
        auto provider = makeAlibabaEcsProvider(contextFor(t));
        Result<RemoteInstance> instance = provider->describe(kRegion, "i-bp67acfmxazb4p****", nullptr);
        QVERIFY(instance);
        QCOMPARE(instance->state, InstanceState::Running);
        QCOMPARE(t.query("DescribeInstances").at("InstanceIds"), std::string(R"(["i-bp67acfmxazb4p****"])"));
        QCOMPARE(provider->describe(kRegion, "i-other", nullptr).error().code, ErrorCode::NotFound);

        t.requests.clear();
        QVERIFY(provider->terminate(kRegion, "i-bp67acfmxazb4p****", nullptr));
        QCOMPARE(t.actions(), (std::vector<std::string>{"DescribeInstances", "DeleteInstances"}));
        QCOMPARE(t.query("DeleteInstances").at("InstanceId.1"), std::string("i-bp67acfmxazb4p****"));
        QCOMPARE(t.query("DeleteInstances").at("Force"), std::string("true"));
        // Already gone: nothing to delete.
        t.requests.clear();
        QVERIFY(provider->terminate(kRegion, "i-gone", nullptr));
        QCOMPARE(t.actions(), std::vector<std::string>{"DescribeInstances"});
    }

    void listOursPages()
    {
        RecordingTransport t;
        json first = doc("describe_instances.json");
        first["Instances"]["Instance"][0]["Tags"]["Tag"].push_back(
            {{"TagKey", "gpuplanner-token"}, {"TagValue", "gp-1"}});
        t.answer("DescribeInstances", first.dump());
        json second = first;
        second["Instances"]["Instance"][0]["InstanceId"] = "i-second";
        second["NextToken"] = "";
        t.answer("DescribeInstances", second.dump());
        Result<std::vector<RemoteInstance>> ours = makeAlibabaEcsProvider(contextFor(t))->listOurs(kRegion, nullptr);
        QVERIFY(ours);
        QCOMPARE(ours->size(), std::size_t(2));
        QCOMPARE(ours->at(0).clientToken, std::string("gp-1"));
        QCOMPARE(ours->at(1).instanceId, std::string("i-second"));
        QCOMPARE(t.query("DescribeInstances", 1).at("NextToken"), std::string("caeba0bbb2be03f84eb48b699f0a4883"));
        QCOMPARE(t.query("DescribeInstances", 0).at("Tag.1.Key"), std::string("gpuplanner-token"));
    }

    void anUnexpiredSubscriptionIsNotDeleted()
    {
        RecordingTransport t;
        json prepaid = doc("describe_instances.json");
        prepaid["Instances"]["Instance"][0]["InstanceChargeType"] = "PrePaid";
        prepaid["Instances"]["Instance"][0]["ExpiredTime"] = "2027-01-03T16:00Z";
        t.answer("DescribeInstances", prepaid.dump());
        t.answer("DeleteInstances", fixture("delete_instances.json"));
        Status status = makeAlibabaEcsProvider(contextFor(t))->terminate(kRegion, "i-bp67acfmxazb4p****", nullptr);
        QVERIFY(!status);
        QCOMPARE(status.error().code, ErrorCode::ProviderRefused);
        QCOMPARE(status.error().reason.key, std::string("error.alibaba.subscription_not_releasable"));
        QCOMPARE(status.error().reason.params.at("expires"), std::string("2027-01-03T16:00Z"));
        QCOMPARE(status.error().reason.params.at("instance_id"), std::string("i-bp67acfmxazb4p****"));
        QCOMPARE(t.actions(), std::vector<std::string>{"DescribeInstances"}); // no DeleteInstances

        // Expired: released like any other.
        RecordingTransport expired;
        prepaid["Instances"]["Instance"][0]["ExpiredTime"] = "2026-12-01T16:00Z";
        expired.answer("DescribeInstances", prepaid.dump());
        expired.answer("DeleteInstances", fixture("delete_instances.json"));
        QVERIFY(makeAlibabaEcsProvider(contextFor(expired))->terminate(kRegion, "i-bp67acfmxazb4p****", nullptr));
        QCOMPARE(expired.actions(), (std::vector<std::string>{"DescribeInstances", "DeleteInstances"}));
    }

    void zonesAndPrice()
    {
        RecordingTransport t;
        t.answer("DescribeAvailableResource", fixture("describe_available_resource.json"));
        t.answer("DescribePrice", fixture("describe_price.json"));
        auto provider = makeAlibabaEcsProvider(contextFor(t));
        Result<std::vector<std::string>> zones = provider->zonesOffering(kRegion, kType, nullptr);
        QVERIFY(zones);
        QCOMPARE(*zones, std::vector<std::string>{"cn-hangzhou-i"});
        QCOMPARE(t.query("DescribeAvailableResource").at("InstanceChargeType"), std::string("PostPaid"));

        LaunchRequest request = baseRequest();
        Result<std::optional<PriceQuote>> quote = provider->quotePrice(request, nullptr);
        QVERIFY2(quote, quote ? "" : describe(quote.error()).c_str());
        QVERIFY(quote->has_value());
        QCOMPARE((*quote)->currency, Currency::CNY);
        QCOMPARE((*quote)->unit, PriceUnit::Hour);
        QCOMPARE((*quote)->amount, 4368.0); // the documented example's OriginalPrice
        QVERIFY((*quote)->source.find("DescribePrice") != std::string::npos);
        QCOMPARE(t.query("DescribePrice").at("ZoneId"), std::string("cn-hangzhou-i"));
        request.pricing = LaunchPricing::Spot;
        quote = provider->quotePrice(request, nullptr);
        QVERIFY(quote);
        QCOMPARE((*quote)->amount, 3712.8); // TradePrice
    }
};

QTEST_GUILESS_MAIN(TestAlibabaEcs)
#include "TestAlibabaEcs.moc"
