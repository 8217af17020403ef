// The Huawei Cloud ECS provider without a network: the parsers read the documented response examples
// (tests/data/cloud/huawei, README there names each page), broken answers give clear errors, the error mapping gives
// the stable code and advice, CreateServers carries the documented body for each way of paying, and a scripted
// transport answering per method and path drives whole launches through makeHuaweiEcsProvider.

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <QTest>

#include <nlohmann/json.hpp>

#include "gpuplan/cloud/providers/huawei/EcsApi.h"
#include "gpuplan/cloud/providers/huawei/HuaweiProvider.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

using namespace gpuplan::core;
using nlohmann::json;

namespace {

const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci10ZXN0LWtleS1ub3QtcmVhbC0wMDAwMDAw lab@example";
constexpr std::int64_t kNow = 1796324700; // 2026-12-03T19:05:00Z
const std::string kProject = "06f1c15e6f0010672f86c00300";
const std::string kRegion = "cn-north-1";

std::string fixture(const std::string& name)
{
    std::ifstream in(GPUPLAN_SOURCE_DIR "/tests/data/cloud/huawei/" + name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

json doc(const std::string& name)
{
    return json::parse(fixture(name));
}

// Two error answers the pages describe only in words, shaped after them: Nova's conflict when a key pair name is taken
// (NovaCreateKeypair, 409) and ShowServer's Ecs.0114 with its message from the ECS error code table (错误码).
std::string shaped(const std::string& name)
{
    static const std::map<std::string, json> answers{
        {"error_keypair_exists.json",
         {{"conflictingRequest", {{"message", "Key pair 'keypair-test' already exists."}, {"code", 409}}}}},
        {"error_server_not_found.json", {{"error", {{"code", "Ecs.0114"}, {"message", "The ECS does not exist."}}}}},
    };
    return answers.at(name).dump();
}

// The documented CreateSubnet answer with another status.
std::string createdSubnet(const std::string& status)
{
    json subnet = doc("create_subnet.json");
    subnet["subnet"]["status"] = status;
    return subnet.dump();
}

// ListServersDetails' answer: {count, servers} of these ShowServer answers' servers.
std::string serversPage(const std::vector<json>& shown, int count = -1)
{
    json page{{"count", count < 0 ? int(shown.size()) : count}, {"servers", json::array()}};
    for (const json& s : shown) {
        page["servers"].push_back(s["server"]);
    }
    return page.dump();
}

// Answers each request by "METHOD path" (the path without the query): a queue per key, the last answer repeats.
class ScriptedTransport final : public HttpTransport
{
public:
    void answer(const std::string& key, std::string body, int status = 200)
    {
        m_answers[key].push_back({status, std::move(body)});
    }

    /// Replaces every answer queued for `key`.
    void only(const std::string& key, std::string body, int status = 200)
    {
        m_answers[key].clear();
        answer(key, std::move(body), status);
    }

    using HttpTransport::send;
    Result<HttpResponse> send(const HttpRequest& request, const CancelToken*) override
    {
        requests.push_back(request);
        const std::string k = key(request);
        auto found = m_answers.find(k);
        if (found == m_answers.end() || found->second.empty()) {
            return HttpResponse{404, {}, json{{"error", {{"code", "Test.NoAnswer"}, {"message", k}}}}.dump()};
        }
        auto [status, body] = found->second.front();
        if (found->second.size() > 1) {
            found->second.pop_front();
        }
        return HttpResponse{status, {{"Content-Type", "application/json"}}, body};
    }

    static std::string key(const HttpRequest& request)
    {
        std::string path = request.url.substr(request.url.find('/', std::string("http://").size()));
        return request.method + " " + path.substr(0, path.find('?'));
    }

    int count(const std::string& k) const
    {
        return int(std::count_if(requests.begin(), requests.end(), [&](const HttpRequest& r) { return key(r) == k; }));
    }
    const HttpRequest* find(const std::string& k) const
    {
        for (const HttpRequest& r : requests) {
            if (key(r) == k) {
                return &r;
            }
        }
        return nullptr;
    }

    std::vector<HttpRequest> requests;

private:
    std::map<std::string, std::deque<std::pair<int, std::string>>> m_answers;
};

ProviderContext contextFor(ScriptedTransport& transport)
{
    ProviderContext context;
    context.http = &transport;
    context.key = AccessKey{"HPUAEXAMPLEKEYID0001", "secret-example-not-real", {}};
    context.endpoint = "http://127.0.0.1:9";
    context.clock = fixedClock(std::chrono::system_clock::time_point(std::chrono::seconds(kNow)));
    context.sleep = [](std::chrono::milliseconds) {};
    return context;
}

LaunchRequest baseRequest()
{
    LaunchRequest request;
    request.region = kRegion;
    request.zone = "az1.dc1";
    request.instanceType = "c3.15xlarge.2";
    request.imageId = "bc6bed6e-ba3a-4447-afcb-08a4f6ab4d41";
    request.sshPublicKey = kPublicKey;
    request.sshSourceCidr = "203.0.113.7/32";
    request.clientToken = "gp-0123456789abcdef";
    return request;
}

huawei::ServerPlacement placement()
{
    return huawei::ServerPlacement{
        kProject, "az1.dc1", "image-1", "gpuplanner-abc", "vpc-1", "subnet-1", "sg-1", "user-1"};
}

json serverOf(const LaunchRequest& request)
{
    Result<huawei::Call> call = huawei::createServersCall(request, placement(), kNow);
    if (!call) {
        return json{{"error", call.error().reason.key}};
    }
    return call->body;
}

std::string p(const std::string& path)
{
    return "/v1/" + kProject + path;
}

// A group of ours with an SSH rule for `cidr` (or without any rule).
std::string groupsAnswer(const std::string& name, const std::string& cidr)
{
    json answer = doc("list_security_groups.json");
    answer["security_groups"][0]["name"] = name;
    if (!cidr.empty()) {
        answer["security_groups"][0]["security_group_rules"].push_back(json{{"direction", "ingress"},
                                                                            {"ethertype", "IPv4"},
                                                                            {"protocol", "tcp"},
                                                                            {"port_range_min", 22},
                                                                            {"port_range_max", 22},
                                                                            {"remote_ip_prefix", cidr}});
    }
    return answer.dump();
}

void answerProject(ScriptedTransport& t)
{
    json projects = doc("keystone_list_projects.json");
    projects["projects"][0]["id"] = kProject;
    t.answer("GET /v3/projects", projects.dump());
}

// Everything already there: VPC "gpuplanner", its subnet in the zone, the group with its rule, the key pair.
void answerReuse(ScriptedTransport& t)
{
    answerProject(t);
    json vpcs = doc("list_vpcs.json");
    vpcs["vpcs"][0]["name"] = "gpuplanner";
    t.answer("GET " + p("/vpcs"), vpcs.dump());
    json subnets = doc("list_subnets.json");
    subnets["subnets"][0]["vpc_id"] = "13551d6b-755d-4757-b956-536f674975c0";
    subnets["subnets"][0]["availability_zone"] = "az1.dc1";
    t.answer("GET " + p("/subnets"), subnets.dump());
    t.answer("GET " + p("/security-groups"), groupsAnswer("gpuplanner-ssh-203-0-113-7-32", "203.0.113.7/32"));
    t.answer("GET /v2.1/" + kProject + "/os-keypairs/" + *huawei::keyPairName(kPublicKey),
             fixture("show_keypair.json"));
    t.answer("POST /v1.1/" + kProject + "/cloudservers", fixture("create_servers.json"));
}

} // namespace

#define JSON_COMPARE(actual, expected) \
    QVERIFY2((actual) == (expected), ((actual).dump() + " != " + json(expected).dump()).c_str())

class TestHuaweiEcs : public QObject
{
    Q_OBJECT

private slots:
    void requestsCarryMethodPathQueryAndHeaders()
    {
        const huawei::Call list = huawei::listServersCall(kProject, 2);
        HttpRequest r = huawei::buildRequest(list, kRegion, "", kProject);
        QCOMPARE(r.method, std::string("GET"));
        QCOMPARE(r.url,
                 "https://ecs.cn-north-1.myhuaweicloud.com/v1/" + kProject + "/cloudservers/detail?limit=100&offset=2");
        QCOMPARE(r.header("X-Project-Id").value_or(""), kProject);
        // Sent and signed on a GET too, as the SDK does (TestHuaweiEcsWire).
        QCOMPARE(r.header("Content-Type").value_or(""), std::string("application/json"));
        QVERIFY(r.body.empty());

        const huawei::Call projects = huawei::listProjectsCall("cn-north-4");
        r = huawei::buildRequest(projects, "cn-north-4", "http://127.0.0.1:8080/", "");
        QCOMPARE(r.url, std::string("http://127.0.0.1:8080/v3/projects?name=cn-north-4"));
        QVERIFY(!r.header("X-Project-Id"));

        QCOMPARE(huawei::buildRequest(huawei::listImagesCall("p2s.2xlarge.8"), "cn-north-4", "", "").url,
                 std::string("https://ims.cn-north-4.myhuaweicloud.com/v2/cloudimages?__imagetype=gold&__os_type=Linux"
                             "&status=active&limit=100&flavor_id=p2s.2xlarge.8"));
        QCOMPARE(huawei::buildRequest(huawei::listVpcsCall(kProject), "cn-north-4", "", kProject).url,
                 "https://vpc.cn-north-4.myhuaweicloud.com/v1/" + kProject + "/vpcs");
        QCOMPARE(huawei::buildRequest(huawei::listSubnetsCall(kProject, "vpc-1"), "cn-north-4", "", kProject).url,
                 "https://vpc.cn-north-4.myhuaweicloud.com/v1/" + kProject + "/subnets?vpc_id=vpc-1");
        QCOMPARE(
            huawei::buildRequest(huawei::listSecurityGroupsCall(kProject, "vpc-1"), "cn-north-4", "", kProject).url,
            "https://vpc.cn-north-4.myhuaweicloud.com/v1/" + kProject + "/security-groups?vpc_id=vpc-1");

        const huawei::Call key = huawei::createKeyPairCall(kProject, "gpuplanner-abc", kPublicKey + "\n");
        r = huawei::buildRequest(key, kRegion, "", kProject);
        QCOMPARE(r.method, std::string("POST"));
        QCOMPARE(r.header("Content-Type").value_or(""), std::string("application/json"));
        JSON_COMPARE(json::parse(r.body),
                     (json{{"keypair", {{"name", "gpuplanner-abc"}, {"public_key", kPublicKey}}}}));
        QVERIFY(!r.safeToRetry);

        JSON_COMPARE(huawei::createSshRuleCall(kProject, "sg-1", "203.0.113.7/32").body["security_group_rule"],
                     (json{{"security_group_id", "sg-1"},
                           {"direction", "ingress"},
                           {"ethertype", "IPv4"},
                           {"protocol", "tcp"},
                           {"port_range_min", 22},
                           {"port_range_max", 22},
                           {"remote_ip_prefix", "203.0.113.7/32"},
                           {"description", "SSH for GPU Planner"}}));
        JSON_COMPARE(huawei::createSubnetCall(kProject, "vpc-1", "az1.dc1", "192.168.1.0/24").body,
                     (json{{"subnet",
                            {{"name", "gpuplanner-az1.dc1"},
                             {"cidr", "192.168.1.0/24"},
                             {"gateway_ip", "192.168.1.1"},
                             {"vpc_id", "vpc-1"},
                             {"availability_zone", "az1.dc1"}}}}));
        JSON_COMPARE(huawei::deleteServersCall(kProject, "srv-1").body,
                     (json{{"servers", json::array({json{{"id", "srv-1"}}})},
                           {"delete_publicip", true},
                           {"delete_volume", true}}));
        QCOMPARE(huawei::deleteServersCall(kProject, "srv-1").path, p("/cloudservers/delete"));
        QCOMPARE(huawei::showJobCall(kProject, "job-1").path, p("/jobs/job-1"));
        QCOMPARE(huawei::showKeyPairCall(kProject, "k").path, "/v2.1/" + kProject + "/os-keypairs/k");
        QCOMPARE(huawei::listZonesCall(kProject).path, "/v2.1/" + kProject + "/os-availability-zone");
    }

    void createServersBody()
    {
        LaunchRequest request = baseRequest();
        request.userData = "#!/bin/sh\necho hi\n";
        request.terminateAt = kNow + 3600;
        request.tags = {{"project", "lab"}};
        Result<huawei::Call> call = huawei::createServersCall(request, placement(), kNow);
        QVERIFY(call);
        QCOMPARE(call->method, std::string("POST"));
        QCOMPARE(call->path, "/v1.1/" + kProject + "/cloudservers");
        QCOMPARE(huawei::buildRequest(*call, kRegion, "", kProject).header("X-Client-Token").value_or(""),
                 request.clientToken);
        QVERIFY(call->safeToRetry);
        const json& server = call->body["server"];
        JSON_COMPARE(call->body["dry_run"], json(false));
        JSON_COMPARE(server["name"], json("gpuplanner-gp012345"));
        JSON_COMPARE(server["flavorRef"], json("c3.15xlarge.2"));
        JSON_COMPARE(server["availability_zone"], json("az1.dc1"));
        JSON_COMPARE(server["vpcid"], json("vpc-1"));
        JSON_COMPARE(server["nics"], json::array({json{{"subnet_id", "subnet-1"}}}));
        JSON_COMPARE(server["security_groups"], json::array({json{{"id", "sg-1"}}}));
        JSON_COMPARE(server["key_name"], json("gpuplanner-abc"));
        JSON_COMPARE(server["user_data"], json(base64(request.userData)));
        JSON_COMPARE(server["auto_terminate_time"], json("2026-12-03T20:05:00Z"));
        JSON_COMPARE(server["count"], json(1));
        JSON_COMPARE(server["publicip"]["delete_on_termination"], json(true));
        JSON_COMPARE(server["publicip"]["eip"]["bandwidth"]["chargemode"], json("traffic"));
        JSON_COMPARE(server["server_tags"],
                     json::array({json{{"key", "gpuplanner-token"}, {"value", request.clientToken}},
                                  json{{"key", "project"}, {"value", "lab"}}}));
        JSON_COMPARE(server["extendparam"], (json{{"regionID", kRegion}, {"chargingMode", "postPaid"}}));
        QVERIFY(!server.contains("metadata"));

        request.dryRun = true;
        QCOMPARE(serverOf(request).contains("server"), true);
        JSON_COMPARE(huawei::createServersCall(request, placement(), kNow)->body["dry_run"], json(true));
    }

    void createServersPricing()
    {
        LaunchRequest spot = baseRequest();
        spot.pricing = LaunchPricing::Spot;
        JSON_COMPARE(serverOf(spot)["server"]["extendparam"],
                     (json{{"regionID", kRegion}, {"chargingMode", "postPaid"}, {"marketType", "spot"}}));
        spot.spotPriceLimit = 2.5;
        JSON_COMPARE(serverOf(spot)["server"]["extendparam"]["spotPrice"], json("2.5"));

        LaunchRequest prepaid = baseRequest();
        prepaid.pricing = LaunchPricing::Subscription;
        prepaid.subscriptionMonths = 3;
        prepaid.terminateAt = kNow + 3600; // not for prepaid
        const json server = serverOf(prepaid)["server"];
        JSON_COMPARE(server["extendparam"],
                     (json{{"regionID", kRegion},
                           {"chargingMode", "prePaid"},
                           {"periodType", "month"},
                           {"periodNum", 3},
                           {"isAutoRenew", "false"},
                           {"isAutoPay", "true"}}));
        QVERIFY(!server.contains("auto_terminate_time"));
        JSON_COMPARE(server["metadata"], (json{{"op_svc_userid", "user-1"}}));
        prepaid.autoRenew = true;
        prepaid.subscriptionMonths = 24;
        const json years = serverOf(prepaid)["server"]["extendparam"];
        JSON_COMPARE(years["periodType"], json("year"));
        JSON_COMPARE(years["periodNum"], json(2));
        JSON_COMPARE(years["isAutoRenew"], json("true"));
        prepaid.subscriptionMonths = 10;
        JSON_COMPARE(serverOf(prepaid)["error"], json("error.huawei.prepaid_period"));
        prepaid.subscriptionMonths = 0;
        JSON_COMPARE(serverOf(prepaid)["error"], json("error.huawei.prepaid_period"));
    }

    void createServersLimits()
    {
        LaunchRequest request = baseRequest();
        request.userData = std::string(huawei::kMaxUserDataBytes, 'x');
        QVERIFY(serverOf(request).contains("server"));
        request.userData += "x";
        JSON_COMPARE(serverOf(request)["error"], json("error.huawei.user_data_too_big"));
        request = baseRequest();
        request.clientToken.clear();
        JSON_COMPARE(serverOf(request)["error"], json("error.huawei.no_client_token"));
        request.clientToken = std::string(43, 'a'); // a server_tags value takes at most 43 characters
        QVERIFY(serverOf(request).contains("server"));
        request.clientToken = std::string(44, 'a');
        JSON_COMPARE(serverOf(request)["error"], json("error.huawei.client_token_too_long"));
        request = baseRequest();
        request.tags = {{"project", "a=b"}};
        JSON_COMPARE(serverOf(request)["error"], json("error.huawei.tag_invalid"));
        request.tags = {{"a/b", "x"}};
        JSON_COMPARE(serverOf(request)["error"], json("error.huawei.tag_invalid"));
        request.tags = {{std::string(37, 'k'), "x"}};
        JSON_COMPARE(serverOf(request)["error"], json("error.huawei.tag_invalid"));
        request.tags = {{"项目", "实验室/GPU"}}; // Chinese and '/' in a value are allowed
        QVERIFY(serverOf(request).contains("server"));
        request.tags.clear();
        for (int i = 0; i < 9; ++i) {
            request.tags.emplace_back("t" + std::to_string(i), "v");
        }
        QVERIFY(serverOf(request).contains("server")); // ours + 9 = 10
        request.tags.emplace_back("t9", "v");
        JSON_COMPARE(serverOf(request)["error"], json("error.huawei.too_many_tags"));
        request = baseRequest();
        request.terminateAt = kNow + 29 * 60; // less than half an hour ahead
        JSON_COMPARE(serverOf(request)["error"], json("error.huawei.terminate_too_soon"));
        request.terminateAt = kNow + 31 * 60 + 17; // the seconds are dropped
        JSON_COMPARE(serverOf(request)["server"]["auto_terminate_time"], json("2026-12-03T19:36:00Z"));
    }

    void namesAndSubnets()
    {
        Result<std::string> name = huawei::keyPairName(kPublicKey);
        QVERIFY(name);
        QVERIFY(name->starts_with("gpuplanner-"));
        QCOMPARE(name->size(), std::size_t(23));
        QVERIFY(!huawei::keyPairName("ssh-ed25519"));
        QCOMPARE(huawei::securityGroupName("203.0.113.7/32"), std::string("gpuplanner-ssh-203-0-113-7-32"));
        QCOMPARE(huawei::autoTerminateTime(kNow), std::string("2026-12-03T19:05:00Z"));

        QCOMPARE(huawei::firstFreeSubnet("192.168.0.0/16", {}).value_or(""), std::string("192.168.0.0/24"));
        QCOMPARE(huawei::firstFreeSubnet("192.168.0.0/16", {"192.168.0.0/24", "192.168.1.0/24"}).value_or(""),
                 std::string("192.168.2.0/24"));
        QCOMPARE(huawei::firstFreeSubnet("192.168.0.0/16", {"192.168.0.0/23"}).value_or(""),
                 std::string("192.168.2.0/24"));
        QCOMPARE(huawei::firstFreeSubnet("10.0.0.0/24", {"10.0.0.0/24"}), std::optional<std::string>());
        QCOMPARE(huawei::firstFreeSubnet("10.0.0.0/25", {}), std::optional<std::string>());
        QCOMPARE(huawei::firstFreeSubnet("not a cidr", {}), std::optional<std::string>());
        QCOMPARE(huawei::gatewayOf("192.168.3.0/24"), std::string("192.168.3.1"));
    }

    void parsesDocumentedAnswers()
    {
        Result<huawei::CreatedServers> created = huawei::parseCreateServers(fixture("create_servers.json"));
        QVERIFY(created);
        QCOMPARE(created->jobId, std::string("ff808082739334d80173943ec9b42130"));
        QCOMPARE(created->orderId, std::string("CS2007281506xxxxx"));
        QCOMPARE(created->serverIds.size(), std::size_t(2));
        QCOMPARE(created->serverIds.front(), std::string("fe0528f0-5b1c-4c8c-9adf-e5d5047b8c17"));

        Result<huawei::Job> job = huawei::parseJob(fixture("show_job.json"));
        QVERIFY(job);
        QCOMPARE(job->status, std::string("SUCCESS"));
        QCOMPARE(job->serverIds, std::vector<std::string>{"bae51750-0089-41a1-9b18-5c777978ff6d"});
        QVERIFY(job->failReason.empty()); // null

        Result<std::string> project = huawei::parseProjects(fixture("keystone_list_projects.json"), "cn-north-1");
        QVERIFY(project);
        QCOMPARE(*project, std::string("06f1c15e6f0010672f86c00300...")); // the first of the two named cn-north-1
        QCOMPARE(huawei::parseProjects(fixture("keystone_list_projects.json"), "cn-east-3").error().code,
                 ErrorCode::NotFound);
        QCOMPARE(*huawei::parseAccessKeyUser(fixture("show_access_key.json")),
                 std::string("07609fb9358010e21f7bc003751..."));

        Result<std::vector<huawei::Zone>> zones = huawei::parseZones(fixture("list_availability_zones.json"));
        QVERIFY(zones);
        QCOMPARE(zones->size(), std::size_t(2));
        QCOMPARE(zones->front().name, std::string("cn-east-2a"));
        QVERIFY(zones->front().available);
        Result<std::vector<huawei::Flavor>> flavors = huawei::parseFlavors(fixture("list_flavors.json"));
        QVERIFY(flavors);
        QCOMPARE(flavors->size(), std::size_t(1));
        QCOMPARE(flavors->front().id, std::string("c3.2xlarge.2"));
        QCOMPARE(flavors->front().vcpus, std::string("8"));
        QCOMPARE(flavors->front().ramMb, 16384);
        QVERIFY(flavors->front().status.empty()); // the example carries no cond:operation:* specs
        // No sale status at all: offered in every available zone.
        QCOMPARE(huawei::zonesOffering(*zones, *flavors, "c3.2xlarge.2", false),
                 (std::vector<std::string>{"cn-east-2a", "cn-east-2b"}));
        QVERIFY(huawei::zonesOffering(*zones, *flavors, "c3.2xlarge.2", true).empty()); // no spot specs

        Result<std::vector<huawei::Image>> images = huawei::parseImages(fixture("list_images.json"));
        QVERIFY(images);
        QCOMPARE(images->size(), std::size_t(2));
        QCOMPARE(images->front().status, std::string("active"));
        QCOMPARE(images->front().platform, std::string("CentOS"));
        QVERIFY(!huawei::newestGpuImage(*images)); // "CentOS 7.3 64bit vivado", "... with sdx": no GPU driver named
        json gpu = doc("list_images.json");
        gpu["images"][1]["name"] = "Ubuntu 22.04 server 64bit with Tesla Driver 535 and CUDA 12.2";
        gpu["images"][0]["name"] = "Ubuntu 20.04 server 64bit with GPU Driver";
        gpu["images"][0]["status"] = "queued";
        std::optional<huawei::Image> chosen = huawei::newestGpuImage(*huawei::parseImages(gpu.dump()));
        QVERIFY(chosen);
        QCOMPARE(chosen->id, std::string("0328c25e-c840-4496-81ac-c4e01b214b1f")); // the active one

        QCOMPARE(*huawei::parseKeyPair(fixture("show_keypair.json"), "NovaShowKeypair"),
                 std::string("keypair-3582d8b7-e588-4aad-b7f7-f4e76f0e4314"));
        QCOMPARE(*huawei::parseKeyPair(fixture("import_keypair.json"), "NovaCreateKeypair"), std::string("demo1"));

        Result<std::vector<huawei::Vpc>> vpcs = huawei::parseVpcs(fixture("list_vpcs.json"));
        QVERIFY(vpcs);
        QCOMPARE(vpcs->size(), std::size_t(3));
        QCOMPARE(vpcs->front().name, std::string("default"));
        QCOMPARE(vpcs->front().cidr, std::string("172.16.0.0/16"));
        Result<huawei::Vpc> vpc = huawei::parseVpc(fixture("create_vpc.json"), "CreateVpc");
        QVERIFY(vpc);
        QCOMPARE(vpc->status, std::string("CREATING"));
        QCOMPARE(huawei::parseVpc(fixture("show_vpc.json"), "ShowVpc")->status, std::string("OK"));
        Result<std::vector<huawei::Subnet>> subnets = huawei::parseSubnets(fixture("list_subnets.json"));
        QVERIFY(subnets);
        QCOMPARE(subnets->size(), std::size_t(2));
        QCOMPARE(subnets->front().zone, std::string("aa-bb-cc"));
        QCOMPARE(subnets->front().cidr, std::string("192.168.20.0/24"));
        QCOMPARE(subnets->front().vpcId, std::string("3ec3b33f-ac1c-4630-ad1c-7dba1ed79d85"));
        QCOMPARE(subnets->front().status, std::string("ACTIVE"));
        QCOMPARE(huawei::parseSubnet(fixture("create_subnet.json"), "CreateSubnet")->status, std::string("UNKNOWN"));

        Result<std::vector<huawei::SecurityGroup>> groups =
            huawei::parseSecurityGroups(fixture("list_security_groups.json"));
        QVERIFY(groups);
        QCOMPARE(groups->size(), std::size_t(2));
        QCOMPARE(groups->front().name, std::string("qq"));
        QCOMPARE(groups->front().vpcId, std::string("3ec3b33f-ac1c-4630-ad1c-7dba1ed79d85"));
        QCOMPARE(groups->front().rules.size(), std::size_t(2));
        QVERIFY(!huawei::allowsSshFrom(groups->front().rules, "203.0.113.7/32"));
        Result<huawei::SecurityGroup> group = huawei::parseSecurityGroup(fixture("create_security_group.json"));
        QVERIFY(group);
        QCOMPARE(group->id, std::string("16b6e77a-08fa-42c7-aa8b-106c048884e6"));
        QCOMPARE(group->rules.front().direction, std::string("egress"));
        QCOMPARE(*huawei::parseSecurityGroupRule(fixture("create_security_group_rule.json")),
                 std::string("2bc0accf-312e-429a-956e-e4407625eb62"));

        Result<huawei::Server> server = huawei::parseServer(fixture("show_server.json"), "cn-north-4");
        QVERIFY(server);
        QCOMPARE(server->instance.instanceId, std::string("4f4b3dfa-eb70-47cf-a60a-998a53bd598a"));
        QCOMPARE(server->instance.state, InstanceState::Running);
        QCOMPARE(server->instance.providerState, std::string("ACTIVE"));
        QVERIFY(server->instance.publicIp.empty()); // only a fixed address
        QCOMPARE(server->instance.instanceType, std::string("s3.small.1"));
        QCOMPARE(server->instance.zone, std::string("az1-dc1"));
        QCOMPARE(*server->instance.launchedAt, std::int64_t(1536822224)); // created 2018-09-13T07:03:44Z
        QCOMPARE(server->charging, huawei::ChargingMode::PrePaid);        // charging_mode "1"
        QCOMPARE(server->instance.pricingMode, std::string());            // prepaid: the period is not listed
        QVERIFY(server->instance.clientToken.empty());

        // The documented server with an EIP and our tag, pay-per-use.
        json shown = doc("show_server.json");
        shown["server"]["metadata"]["charging_mode"] = "0";
        shown["server"]["tags"] = json::array({"gpuplanner-token=gp-1", "project=lab"});
        shown["server"]["addresses"]["0431c5e5-bc94-4a44-8263-15da2a642435"].push_back(
            json{{"version", "4"}, {"addr", "100.93.0.171"}, {"OS-EXT-IPS:type", "floating"}});
        server = huawei::parseServer(shown.dump(), "cn-north-4");
        QVERIFY(server);
        QCOMPARE(server->instance.publicIp, std::string("100.93.0.171"));
        QCOMPARE(server->instance.pricingMode, std::string("on_demand"));
        QCOMPARE(server->instance.clientToken, std::string("gp-1"));

        Result<huawei::ServersPage> page = huawei::parseServers(fixture("list_servers_details.json"), "cn-north-4");
        QVERIFY(page);
        QCOMPARE(page->count, 4);
        QCOMPARE(page->servers.size(), std::size_t(4));
        QCOMPARE(page->servers.front().instance.state, InstanceState::Stopped); // SHUTOFF
        QCOMPARE(page->servers[1].charging, huawei::ChargingMode::PostPaid);
        for (const huawei::Server& listed : page->servers) {
            QVERIFY(listed.instance.clientToken.empty()); // tags "_sys_root_resource_id=...", none of ours
        }
        QCOMPARE(*huawei::parseDeleteServers(fixture("delete_servers.json")),
                 std::string("ff80808288d415d80189901d8eb81cbb"));
    }

    void states_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<int>("state");
        QTest::newRow("BUILD") << "BUILD" << int(InstanceState::Pending);
        QTest::newRow("ACTIVE") << "ACTIVE" << int(InstanceState::Running);
        QTest::newRow("SHUTOFF") << "SHUTOFF" << int(InstanceState::Stopped);
        QTest::newRow("DELETED") << "DELETED" << int(InstanceState::Terminated);
        QTest::newRow("ERROR") << "ERROR" << int(InstanceState::Failed);
        QTest::newRow("REBOOT") << "REBOOT" << int(InstanceState::Pending);
        QTest::newRow("HARD_REBOOT") << "HARD_REBOOT" << int(InstanceState::Pending);
    }
    void states()
    {
        QFETCH(QString, word);
        QFETCH(int, state);
        QCOMPARE(int(huawei::stateFromEcs(word.toStdString())), state);
    }

    void zonesFromFlavorSpecs()
    {
        const std::vector<huawei::Zone> zones{
            {"cn-north-4a", true}, {"cn-north-4b", true}, {"cn-north-4c", false}, {"cn-north-4g", true}};
        huawei::Flavor flavor;
        flavor.id = "p2s.2xlarge.8";
        flavor.status = "normal";
        flavor.azStatus = "cn-north-4a(sellout),cn-north-4b(normal),cn-north-4c(normal)";
        // 4a sold out, 4c not available, 4g not listed: the global status (normal).
        QCOMPARE(huawei::zonesOffering(zones, {flavor}, "p2s.2xlarge.8", false),
                 (std::vector<std::string>{"cn-north-4b", "cn-north-4g"}));
        flavor.status = "sellout";
        QCOMPARE(huawei::zonesOffering(zones, {flavor}, "p2s.2xlarge.8", false),
                 (std::vector<std::string>{"cn-north-4b"}));
        QVERIFY(huawei::zonesOffering(zones, {flavor}, "p2s.2xlarge.8", true).empty()); // no spot specs
        flavor.spotStatus = "normal";
        flavor.spotAz = "cn-north-4a(normal),cn-north-4b(abandon)";
        QCOMPARE(huawei::zonesOffering(zones, {flavor}, "p2s.2xlarge.8", true),
                 (std::vector<std::string>{"cn-north-4a", "cn-north-4g"}));
        QVERIFY(huawei::zonesOffering(zones, {flavor}, "other", false).empty());
    }

    void brokenAnswersNameCallAndField()
    {
        const auto check = [](const Error& error, const char* key, const char* action, const char* field) {
            QCOMPARE(error.code, ErrorCode::ProviderRefused);
            QCOMPARE(error.reason.key, std::string(key));
            QCOMPARE(error.reason.params.at("action"), std::string(action));
            QCOMPARE(error.reason.params.at("provider"), std::string("huawei"));
            QCOMPARE(error.where, "huawei " + std::string(action));
            if (field) {
                QCOMPARE(error.reason.params.at("field"), std::string(field));
            }
        };
        check(huawei::parseCreateServers("<html>").error(), "error.answer.not_json", "CreateServers", nullptr);
        check(huawei::parseCreateServers("[]").error(), "error.answer.not_object", "CreateServers", nullptr);
        check(huawei::parseCreateServers("{}").error(), "error.answer.missing", "CreateServers", "job_id");
        check(huawei::parseJob("{\"job_id\":\"x\"}").error(), "error.answer.missing", "ShowJob", "status");
        check(huawei::parseJob(R"({"status":"RUNNING","entities":{"sub_jobs":{}}})").error(),
              "error.answer.not_list",
              "ShowJob",
              "entities.sub_jobs");
        check(huawei::parseServer("{}", kRegion).error(), "error.answer.missing", "ShowServer", "server");
        check(huawei::parseServer(R"({"server":{"name":"x"}})", kRegion).error(),
              "error.answer.missing",
              "ShowServer",
              "server.id");
        check(huawei::parseServers(R"({"servers":3})", kRegion).error(),
              "error.answer.not_list",
              "ListServersDetails",
              "servers");
        check(huawei::parseFlavors(R"({"flavors":[{"name":"x"}]})").error(),
              "error.answer.missing",
              "ListFlavors",
              "flavors[].id");
        check(huawei::parseVpcs("{}").error(), "error.answer.missing", "ListVpcs", "vpcs");
        check(huawei::parseSubnet(R"({"subnet":{}})", "CreateSubnet").error(),
              "error.answer.missing",
              "CreateSubnet",
              "subnet.id");
        check(
            huawei::parseSecurityGroups("{}").error(), "error.answer.missing", "ListSecurityGroups", "security_groups");
        check(huawei::parseKeyPair("{}", "NovaShowKeypair").error(),
              "error.answer.missing",
              "NovaShowKeypair",
              "keypair");
        check(huawei::parseProjects("{}", kRegion).error(), "error.answer.missing", "KeystoneListProjects", "projects");
        check(huawei::parseZones(R"({"availabilityZoneInfo":"x"})").error(),
              "error.answer.not_list",
              "NovaListAvailabilityZones",
              "availabilityZoneInfo");
        check(huawei::parseDeleteServers("{}").error(), "error.answer.missing", "DeleteServers", "job_id");
    }

    void errorShapes()
    {
        std::optional<ApiError> e = huawei::apiError(fixture("error_request_illegal.json"));
        QVERIFY(e);
        QCOMPARE(e->code, std::string("Ecs.0005"));
        e = huawei::apiError(fixture("error_apigw_signature.json"));
        QCOMPARE(e->code, std::string("APIGW.0301"));
        QCOMPARE(e->requestId, std::string("******"));
        e = huawei::apiError(fixture("error_signature_expired.json"));
        QCOMPARE(e->code, std::string("APIGW.0303"));
        QCOMPARE(e->requestId, std::string("fd6530a01c09807640189e65e837b8ad"));
        e = huawei::apiError(shaped("error_keypair_exists.json"));
        QCOMPARE(e->code, std::string("conflictingRequest"));
        e = huawei::apiError(R"({"code":"VPC.0101","message":"vpc quota"})");
        QCOMPARE(e->code, std::string("VPC.0101"));
        QVERIFY(!huawei::apiError(fixture("create_servers.json")));
        QVERIFY(!huawei::apiError("not json"));
    }

    void errorMapping_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("expected");
        QTest::addColumn<QString>("key");
        const auto ecs = [](const char* code, const char* message) {
            return QString::fromStdString(json{{"error", {{"code", code}, {"message", message}}}}.dump());
        };
        QTest::newRow("quota") << 400 << ecs("Ecs.0001", "Insufficient ECS quota.") << int(ErrorCode::QuotaExceeded)
                               << "error.huawei.quota";
        QTest::newRow("eip quota") << 400 << ecs("Ecs.0013", "Insufficient EIP quota.") << int(ErrorCode::QuotaExceeded)
                                   << "error.huawei.eip_quota";
        QTest::newRow("restricted") << 403 << ecs("Ecs.0003", "You do not have permission to perform this operation.")
                                    << int(ErrorCode::PermissionDenied) << "error.huawei.account_restricted";
        QTest::newRow("sold out") << 400 << ecs("Ecs.0319", "Flavor p2s.2xlarge.8 is sold out")
                                  << int(ErrorCode::InsufficientCapacity) << "error.huawei.sold_out";
        QTest::newRow("abandoned") << 400 << ecs("Ecs.0005", "Flavor p2s.2xlarge.8 is abandoned")
                                   << int(ErrorCode::ProviderRefused) << "error.huawei.flavor_not_sold";
        QTest::newRow("real name") << 403 << ecs("Ecs.0000", "The account has not passed real-name authentication")
                                   << int(ErrorCode::ProviderRefused) << "error.huawei.real_name_required";
        QTest::newRow("policy") << 403
                                << ecs("Ecs.0015", "Policy doesn't allow ecs:cloudServers:create to be performed.")
                                << int(ErrorCode::PermissionDenied) << "error.huawei.permission_missing";
        QTest::newRow("apigw iam") << 403
                                   << QString::fromStdString(
                                          json{{"error_code", "APIGW.0302"}, {"error_msg", "not authorized"}}.dump())
                                   << int(ErrorCode::PermissionDenied) << "error.huawei.permission_missing";
        QTest::newRow("signature") << 401 << QString::fromStdString(fixture("error_apigw_signature.json"))
                                   << int(ErrorCode::Credentials) << "error.huawei.key_refused";
        QTest::newRow("clock") << 401 << QString::fromStdString(fixture("error_signature_expired.json"))
                               << int(ErrorCode::ClockSkew) << "error.huawei.clock_skew";
        QTest::newRow("app key") << 401
                                 << QString::fromStdString(json{{"error_code", "APIGW.0303"},
                                                                {"error_msg",
                                                                 "Incorrect app authentication information: app not "
                                                                 "found, appkey 01177c425f71487ea362ba84dc4abe5e1"}}
                                                               .dump())
                                 << int(ErrorCode::Credentials) << "error.huawei.key_refused";
        QTest::newRow("throttled") << 429
                                   << QString::fromStdString(
                                          json{{"error_code", "APIGW.0308"}, {"error_msg", "threshold"}}.dump())
                                   << int(ErrorCode::Throttled) << "error.huawei.throttled";
        QTest::newRow("not found") << 404 << QString::fromStdString(shaped("error_server_not_found.json"))
                                   << int(ErrorCode::NotFound) << "error.huawei.not_found";
        QTest::newRow("nova not found") << 404 << R"({"itemNotFound":{"message":"gone","code":404}})"
                                        << int(ErrorCode::NotFound) << "error.huawei.not_found";
        QTest::newRow("other") << 400 << QString::fromStdString(fixture("error_request_illegal.json"))
                               << int(ErrorCode::ProviderRefused) << "error.huawei.refused";
        // The ECS error code table's codes with their documented messages.
        QTest::newRow("Ecs.0018") << 400
                                  << ecs("Ecs.0018", "The selected flavor has been sold out. Try another flavor.")
                                  << int(ErrorCode::InsufficientCapacity) << "error.huawei.sold_out";
        QTest::newRow("Ecs.0319") << 400
                                  << ecs("Ecs.0319", "Insufficient resources for this flavor. Try another flavor.")
                                  << int(ErrorCode::InsufficientCapacity) << "error.huawei.sold_out";
        QTest::newRow("Ecs.0044") << 400 << ecs("Ecs.0044", "The disk of this type has been sold out.")
                                  << int(ErrorCode::InsufficientCapacity) << "error.huawei.sold_out";
        QTest::newRow("Ecs.0029") << 400 << ecs("Ecs.0029", "The flavor does not exist.")
                                  << int(ErrorCode::ProviderRefused) << "error.huawei.flavor_not_sold";
        QTest::newRow("Ecs.0066") << 403
                                  << ecs("Ecs.0066",
                                         "This operation cannot be performed because real-name authentication has "
                                         "not been completed.")
                                  << int(ErrorCode::ProviderRefused) << "error.huawei.real_name_required";
        QTest::newRow("Ecs.0067") << 403 << ecs("Ecs.0067", "Insufficient account balance.")
                                  << int(ErrorCode::ProviderRefused) << "error.huawei.balance_insufficient";
        QTest::newRow("Ecs.0030") << 400
                                  << ecs("Ecs.0030",
                                         "The ECS has been frozen and does not support specifications modification.")
                                  << int(ErrorCode::PermissionDenied) << "error.huawei.account_restricted";
        QTest::newRow("Pdp.0001") << 403
                                  << ecs("Pdp.0001", "Policy doesn't allow ecs:cloudServers:create to be performed.")
                                  << int(ErrorCode::PermissionDenied) << "error.huawei.permission_missing";
        QTest::newRow("Ecs.0110") << 400 << ecs("Ecs.0110", "Contact the main account to obtain permission.")
                                  << int(ErrorCode::PermissionDenied) << "error.huawei.permission_missing";
        QTest::newRow("Common.0024") << 400 << ecs("Common.0024", "exceeds flow over limit")
                                     << int(ErrorCode::Throttled) << "error.huawei.throttled";
        QTest::newRow("Ecs.0023") << 400 << ecs("Ecs.0023", "project_id in token mismatches with project_id in url.")
                                  << int(ErrorCode::ProviderRefused) << "error.huawei.project_mismatch";
        QTest::newRow("Ecs.0114 as 400") << 400 << ecs("Ecs.0114", "The ECS does not exist.")
                                         << int(ErrorCode::NotFound) << "error.huawei.not_found";
        QTest::newRow("details") << 400 << QString::fromStdString(fixture("error_with_details.json"))
                                 << int(ErrorCode::ProviderRefused) << "error.huawei.refused";
        QTest::newRow("bare 500") << 500 << "oops" << int(ErrorCode::HttpStatus) << "error.huawei.http_status";
        QTest::newRow("bare 429") << 429 << "" << int(ErrorCode::Throttled) << "error.huawei.throttled";
    }
    void errorMapping()
    {
        QFETCH(int, status);
        QFETCH(QString, body);
        QFETCH(int, expected);
        QFETCH(QString, key);
        huawei::ErrorContext c;
        c.action = "CreateServers";
        c.region = "cn-north-4";
        c.instanceType = "p2s.2xlarge.8";
        c.zone = "cn-north-4a";
        std::optional<Error> error = huawei::mapError(HttpResponse{status, {}, body.toStdString()}, c);
        QVERIFY(error);
        QCOMPARE(int(error->code), expected);
        QCOMPARE(QString::fromStdString(error->reason.key), key);
        QCOMPARE(error->httpStatus, status);
        if (key == "error.huawei.permission_missing" && status == 403 && body.contains("Policy")) {
            QCOMPARE(error->reason.params.at("iam_action"), std::string("ecs:cloudServers:create"));
            QCOMPARE(error->reason.params.at("policy"), std::string("ECS FullAccess"));
        }
        QVERIFY(!huawei::mapError(HttpResponse{202, {}, ""}, c));
    }

    void jobFailures()
    {
        huawei::ErrorContext c;
        c.action = "CreateServers";
        huawei::Job job{"FAIL", {}, "Flavor p2s.2xlarge.8 is sold out", "Ecs.0319"};
        Error error = huawei::jobFailure(job, c);
        QCOMPARE(error.code, ErrorCode::InsufficientCapacity);
        QCOMPARE(error.providerCode, std::string("Ecs.0319"));
        job = {"FAIL", {}, "something else", "Ecs.9999"};
        error = huawei::jobFailure(job, c);
        QCOMPARE(error.code, ErrorCode::ProviderRefused);
        QCOMPARE(error.reason.key, std::string("error.huawei.job_failed"));
        QCOMPARE(error.reason.params.at("said"), std::string("something else"));
    }

    void launchOnFreshProject()
    {
        ScriptedTransport t;
        answerProject(t);
        const std::string keyName = *huawei::keyPairName(kPublicKey);
        t.answer("GET /v2.1/" + kProject + "/os-keypairs/" + keyName,
                 R"({"itemNotFound":{"message":"keypair not found","code":404}})",
                 404);
        json createdKey = doc("import_keypair.json");
        createdKey["keypair"]["name"] = keyName;
        t.answer("POST /v2.1/" + kProject + "/os-keypairs", createdKey.dump());
        t.answer("GET " + p("/vpcs"), fixture("list_vpcs.json"));   // none named gpuplanner
        t.answer("POST " + p("/vpcs"), fixture("create_vpc.json")); // CREATING
        t.answer("GET " + p("/vpcs/99d9d709-8478-4b46-9f3f-2206b1023fd3"), fixture("show_vpc.json")); // OK
        t.answer("GET " + p("/security-groups"), R"({"security_groups":[]})");
        t.answer("POST " + p("/security-groups"), fixture("create_security_group.json"));
        t.answer("POST " + p("/security-group-rules"), fixture("create_security_group_rule.json"));
        t.answer("GET " + p("/subnets"), R"({"subnets":[]})");
        t.answer("POST " + p("/subnets"), createdSubnet("UNKNOWN"));
        t.answer("GET " + p("/subnets/4779ab1c-7c1a-44b1-a02e-93dfc361b32d"), createdSubnet("ACTIVE"));
        t.answer("POST /v1.1/" + kProject + "/cloudservers", R"({"job_id":"job-1"})");
        json running = doc("show_job.json");
        running["status"] = "RUNNING";
        running["entities"]["sub_jobs"] = json::array();
        t.answer("GET " + p("/jobs/job-1"), running.dump());
        t.answer("GET " + p("/jobs/job-1"), fixture("show_job.json"));

        std::unique_ptr<CloudProvider> provider = makeHuaweiEcsProvider(contextFor(t));
        QCOMPARE(provider->id(), std::string("huawei"));
        Result<LaunchResult> result = provider->launch(baseRequest(), nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(result->instanceId, std::string("bae51750-0089-41a1-9b18-5c777978ff6d"));
        QCOMPARE(result->zone, std::string("az1.dc1"));
        std::vector<std::string> steps;
        for (const Reason& step : result->steps) {
            steps.push_back(step.key);
        }
        QCOMPARE(steps,
                 (std::vector<std::string>{"step.image_given",
                                           "step.key_pair_imported",
                                           "step.huawei.vpc_created",
                                           "step.huawei.group_created",
                                           "step.huawei.subnet_created",
                                           "step.huawei.job_polled",
                                           "step.launched"}));
        QCOMPARE(t.count("GET " + p("/jobs/job-1")), 2);
        QCOMPARE(t.count("GET " + p("/vpcs/99d9d709-8478-4b46-9f3f-2206b1023fd3")), 1); // polled until OK
        JSON_COMPARE(json::parse(t.find("POST " + p("/vpcs"))->body)["vpc"]["name"], json("gpuplanner"));
        QCOMPARE(t.count("GET /v3/projects"), 1); // once per region
        // The new subnet is the first free /24 of the new VPC, in the zone.
        const json subnetBody = json::parse(t.find("POST " + p("/subnets"))->body);
        JSON_COMPARE(subnetBody["subnet"]["cidr"], json("192.168.0.0/24"));
        JSON_COMPARE(subnetBody["subnet"]["vpc_id"], json("99d9d709-8478-4b46-9f3f-2206b1023fd3"));
        const json rule = json::parse(t.find("POST " + p("/security-group-rules"))->body);
        JSON_COMPARE(rule["security_group_rule"]["remote_ip_prefix"], json("203.0.113.7/32"));
        const HttpRequest* create = t.find("POST /v1.1/" + kProject + "/cloudservers");
        QCOMPARE(create->header("X-Client-Token").value_or(""), std::string("gp-0123456789abcdef"));
        QCOMPARE(create->header("X-Project-Id").value_or(""), kProject);
        QVERIFY(
            create->header("Authorization").value_or("").starts_with("SDK-HMAC-SHA256 Access=HPUAEXAMPLEKEYID0001"));
        QVERIFY(create->header("X-Sdk-Date"));
        const json server = json::parse(create->body)["server"];
        JSON_COMPARE(server["key_name"], json(keyName));
        JSON_COMPARE(server["security_groups"][0]["id"], json("16b6e77a-08fa-42c7-aa8b-106c048884e6"));
        JSON_COMPARE(server["vpcid"], json("99d9d709-8478-4b46-9f3f-2206b1023fd3"));
        QCOMPARE(t.count("GET " + p("/subnets/4779ab1c-7c1a-44b1-a02e-93dfc361b32d")), 1); // polled until ACTIVE
        JSON_COMPARE(server["nics"][0]["subnet_id"], json("4779ab1c-7c1a-44b1-a02e-93dfc361b32d"));

        // A second launch in the region asks Keystone no more.
        QVERIFY(provider->launch(baseRequest(), nullptr));
        QCOMPARE(t.count("GET /v3/projects"), 1);
    }

    void launchReusingAll()
    {
        ScriptedTransport t;
        answerReuse(t);
        std::unique_ptr<CloudProvider> provider = makeHuaweiEcsProvider(contextFor(t));
        Result<LaunchResult> result = provider->launch(baseRequest(), nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(result->instanceId, std::string("fe0528f0-5b1c-4c8c-9adf-e5d5047b8c17"));
        std::vector<std::string> steps;
        for (const Reason& step : result->steps) {
            steps.push_back(step.key);
        }
        QCOMPARE(steps,
                 (std::vector<std::string>{"step.image_given",
                                           "step.key_pair_found",
                                           "step.huawei.vpc_found",
                                           "step.group_found",
                                           "step.huawei.subnet_found",
                                           "step.huawei.order_paid",
                                           "step.launched"}));
        QCOMPARE(t.count("POST /v2.1/" + kProject + "/os-keypairs"), 0);
        QCOMPARE(t.count("POST " + p("/vpcs")), 0);
        QCOMPARE(t.count("POST " + p("/subnets")), 0);
        QCOMPARE(t.count("POST " + p("/security-groups")), 0);
        QCOMPARE(t.count("POST " + p("/security-group-rules")), 0);
        QCOMPARE(t.count("GET " + p("/jobs/ff808082739334d80173943ec9b42130")), 0); // serverIds named it
    }

    void lostSshRuleIsAddedAgain()
    {
        ScriptedTransport t;
        answerReuse(t);
        t.only("GET " + p("/security-groups"), groupsAnswer("gpuplanner-ssh-203-0-113-7-32", ""));
        t.answer("POST " + p("/security-group-rules"), fixture("create_security_group_rule.json"));
        Result<LaunchResult> result = makeHuaweiEcsProvider(contextFor(t))->launch(baseRequest(), nullptr);
        QVERIFY(result);
        QCOMPARE(t.count("POST " + p("/security-group-rules")), 1);
        QVERIFY(std::any_of(result->steps.begin(), result->steps.end(), [](const Reason& r) {
            return r.key == "step.group_ssh_rule_added_again";
        }));
    }

    void dryRun()
    {
        ScriptedTransport t;
        answerReuse(t);
        t.only("POST /v1.1/" + kProject + "/cloudservers", "", 202);
        LaunchRequest request = baseRequest();
        request.dryRun = true;
        Result<LaunchResult> result = makeHuaweiEcsProvider(contextFor(t))->launch(request, nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QVERIFY(result->dryRunPassed);
        QVERIFY(result->instanceId.empty());
        JSON_COMPARE(json::parse(t.find("POST /v1.1/" + kProject + "/cloudservers")->body)["dry_run"], json(true));

        // A dry run on a fresh project creates nothing and cannot ask Huawei without the network's ids.
        ScriptedTransport fresh;
        answerProject(fresh);
        fresh.answer("GET /v2.1/" + kProject + "/os-keypairs/" + *huawei::keyPairName(kPublicKey),
                     R"({"itemNotFound":{"message":"keypair not found","code":404}})",
                     404);
        fresh.answer("GET " + p("/vpcs"), R"({"vpcs":[]})");
        result = makeHuaweiEcsProvider(contextFor(fresh))->launch(request, nullptr);
        QVERIFY(result);
        QVERIFY(!result->dryRunPassed);
        for (const HttpRequest& r : fresh.requests) {
            QCOMPARE(r.method, std::string("GET"));
        }
        QCOMPARE(result->steps.back().key, std::string("step.huawei.dry_run_not_sent"));
    }

    void soldOutJobIsCapacity()
    {
        ScriptedTransport t;
        answerReuse(t);
        t.only("POST /v1.1/" + kProject + "/cloudservers", R"({"job_id":"job-2"})");
        t.answer("GET " + p("/jobs/job-2"),
                 R"({"status":"FAIL","job_id":"job-2","fail_reason":"Flavor c3.15xlarge.2 is sold out",
                     "error_code":"Ecs.0319","entities":{}})");
        Result<LaunchResult> result = makeHuaweiEcsProvider(contextFor(t))->launch(baseRequest(), nullptr);
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::InsufficientCapacity);
    }

    void givenProjectIdSkipsKeystone()
    {
        ScriptedTransport t;
        answerReuse(t);
        ProviderContext given = contextFor(t);
        given.settings["project_id"] = " eu-west-0:0000, " + std::string(kRegion) + ":" + kProject + " ";
        Result<LaunchResult> result = makeHuaweiEcsProvider(std::move(given))->launch(baseRequest(), nullptr);
        QVERIFY(result);
        QCOMPARE(t.count("GET /v3/projects"), 0);

        // The setting's forms: region:id pairs, one bare id for any region, nothing.
        const std::map<std::string, std::string> pairs = huawei::parseProjectIdSetting("cn-north-4:aa, cn-east-3 : bb");
        QCOMPARE(pairs, (std::map<std::string, std::string>{{"cn-east-3", "bb"}, {"cn-north-4", "aa"}}));
        QCOMPARE(huawei::parseProjectIdSetting(" cc "), (std::map<std::string, std::string>{{"", "cc"}}));
        QVERIFY(huawei::parseProjectIdSetting(" , ").empty());

        // A project given for another region only: Keystone is asked for this one.
        ScriptedTransport other;
        answerReuse(other);
        ProviderContext elsewhere = contextFor(other);
        elsewhere.settings["project_id"] = "eu-west-0:0000";
        QVERIFY(makeHuaweiEcsProvider(std::move(elsewhere))->launch(baseRequest(), nullptr));
        QCOMPARE(other.count("GET /v3/projects"), 1);
    }

    void terminateAndDescribe()
    {
        const std::string id = "4f4b3dfa-eb70-47cf-a60a-998a53bd598a";
        json postPaid = doc("show_server.json");
        postPaid["server"]["metadata"]["charging_mode"] = "0";
        ScriptedTransport t;
        answerProject(t);
        t.answer("GET " + p("/cloudservers/" + id), postPaid.dump());
        t.answer("POST " + p("/cloudservers/delete"), fixture("delete_servers.json"));
        std::unique_ptr<CloudProvider> provider = makeHuaweiEcsProvider(contextFor(t));
        Result<RemoteInstance> instance = provider->describe(kRegion, id, nullptr);
        QVERIFY(instance);
        QCOMPARE(instance->state, InstanceState::Running);
        QVERIFY(provider->terminate(kRegion, id, nullptr));
        QCOMPARE(t.count("POST " + p("/cloudservers/delete")), 1);
        JSON_COMPARE(json::parse(t.find("POST " + p("/cloudservers/delete"))->body)["servers"],
                     json::array({json{{"id", id}}}));

        // Prepaid (the documented answer: charging_mode "1"): refused, no delete sent.
        ScriptedTransport prepaid;
        answerProject(prepaid);
        prepaid.answer("GET " + p("/cloudservers/" + id), fixture("show_server.json"));
        Status refused = makeHuaweiEcsProvider(contextFor(prepaid))->terminate(kRegion, id, nullptr);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::ProviderRefused);
        QCOMPARE(refused.error().reason.key, std::string("error.huawei.subscription_not_releasable"));
        QCOMPARE(refused.error().reason.params.at("instance_id"), id);
        QCOMPARE(prepaid.count("POST " + p("/cloudservers/delete")), 0);

        // Already gone: 404, or still listed as DELETED.
        ScriptedTransport gone;
        answerProject(gone);
        gone.answer("GET " + p("/cloudservers/" + id), shaped("error_server_not_found.json"), 404);
        std::unique_ptr<CloudProvider> goneProvider = makeHuaweiEcsProvider(contextFor(gone));
        QVERIFY(goneProvider->terminate(kRegion, id, nullptr));
        QCOMPARE(goneProvider->describe(kRegion, id, nullptr).error().code, ErrorCode::NotFound);
        QCOMPARE(gone.count("POST " + p("/cloudservers/delete")), 0);
        ScriptedTransport deleted;
        answerProject(deleted);
        postPaid["server"]["status"] = "DELETED";
        deleted.answer("GET " + p("/cloudservers/" + id), postPaid.dump());
        QVERIFY(makeHuaweiEcsProvider(contextFor(deleted))->terminate(kRegion, id, nullptr));
        QCOMPARE(deleted.count("POST " + p("/cloudservers/delete")), 0);
    }

    void listsOursOnly()
    {
        // Page 1: 100 servers, one ours; page 2: one more, ours. The tag is matched by key, whatever its value.
        std::vector<json> first;
        for (int i = 0; i < huawei::kPageLimit; ++i) {
            json shown = doc("show_server.json");
            shown["server"]["id"] = "other-" + std::to_string(i);
            if (i == 7) {
                shown["server"]["id"] = "ours-1";
                shown["server"]["tags"] = json::array({"gpuplanner-token=gp-1", "project=lab"});
            }
            first.push_back(shown);
        }
        json last = doc("show_server.json");
        last["server"]["id"] = "ours-2";
        last["server"]["tags"] = json::array({"gpuplanner-token=gp-2"});
        ScriptedTransport t;
        answerProject(t);
        t.answer("GET " + p("/cloudservers/detail"), serversPage(first, 101));
        t.answer("GET " + p("/cloudservers/detail"), serversPage({last}, 101));
        Result<std::vector<RemoteInstance>> listed = makeHuaweiEcsProvider(contextFor(t))->listOurs(kRegion, nullptr);
        QVERIFY(listed);
        QCOMPARE(listed->size(), std::size_t(2));
        QCOMPARE(listed->front().instanceId, std::string("ours-1"));
        QCOMPARE(listed->front().clientToken, std::string("gp-1"));
        QCOMPARE(listed->back().clientToken, std::string("gp-2"));
        QCOMPARE(t.count("GET " + p("/cloudservers/detail")), 2);
        QVERIFY(t.requests[1].url.ends_with("limit=100&offset=1"));
        QVERIFY(t.requests[2].url.ends_with("limit=100&offset=2"));
    }

    void keyPairImportedMeanwhile()
    {
        ScriptedTransport t;
        answerReuse(t);
        const std::string keyPath = "GET /v2.1/" + kProject + "/os-keypairs/" + *huawei::keyPairName(kPublicKey);
        t.only(keyPath, R"({"itemNotFound":{"message":"keypair not found","code":404}})", 404);
        t.answer(keyPath, fixture("show_keypair.json")); // found on the second look
        t.answer("POST /v2.1/" + kProject + "/os-keypairs", shaped("error_keypair_exists.json"), 409);
        Result<LaunchResult> result = makeHuaweiEcsProvider(contextFor(t))->launch(baseRequest(), nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(t.count(keyPath), 2);
        QCOMPARE(result->steps[1].key, std::string("step.key_pair_found"));
    }

    void spotLaunchChoosesASpotZone()
    {
        ScriptedTransport t;
        answerReuse(t);
        t.answer("GET /v2.1/" + kProject + "/os-availability-zone", fixture("list_availability_zones.json"));
        json flavors = doc("list_flavors.json");
        json& specs = flavors["flavors"][0]["os_extra_specs"];
        specs["cond:operation:status"] = "normal";
        specs["cond:spot:operation:status"] = "normal";
        specs["cond:spot:operation:az"] = "cn-east-2a(sellout),cn-east-2b(normal)";
        t.answer("GET " + p("/cloudservers/flavors"), flavors.dump());
        json subnets = doc("list_subnets.json");
        subnets["subnets"][0]["vpc_id"] = "13551d6b-755d-4757-b956-536f674975c0";
        subnets["subnets"][0]["availability_zone"] = ""; // serves every zone
        t.only("GET " + p("/subnets"), subnets.dump());
        LaunchRequest request = baseRequest();
        request.zone.clear();
        request.instanceType = "c3.2xlarge.2";
        request.pricing = LaunchPricing::Spot;
        std::unique_ptr<CloudProvider> provider = makeHuaweiEcsProvider(contextFor(t));
        Result<LaunchResult> result = provider->launch(request, nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(result->zone, std::string("cn-east-2b"));
        const json server = json::parse(t.find("POST /v1.1/" + kProject + "/cloudservers")->body)["server"];
        JSON_COMPARE(server["availability_zone"], json("cn-east-2b"));
        JSON_COMPARE(server["extendparam"]["marketType"], json("spot"));
        QVERIFY(std::none_of(result->steps.begin(), result->steps.end(), [](const Reason& r) {
            return r.key == "step.huawei.scheduled_terminate_unconfirmed"; // no terminateAt
        }));
        request.terminateAt = kNow + 3600;
        result = provider->launch(request, nullptr);
        QVERIFY(result);
        QVERIFY(std::any_of(result->steps.begin(), result->steps.end(), [](const Reason& r) {
            return r.key == "step.huawei.scheduled_terminate_unconfirmed" && r.params.at("region") == kRegion;
        }));
        // On demand the same flavor is sold in both zones (global status normal).
        Result<std::vector<std::string>> zones = provider->zonesOffering(kRegion, "c3.2xlarge.2", nullptr);
        QVERIFY(zones);
        QCOMPARE(*zones, (std::vector<std::string>{"cn-east-2a", "cn-east-2b"}));
    }

    void prepaidLaunchNamesTheKeysUser()
    {
        ScriptedTransport t;
        answerReuse(t);
        t.answer("GET /v3.0/OS-CREDENTIAL/credentials/HPUAEXAMPLEKEYID0001", fixture("show_access_key.json"));
        LaunchRequest request = baseRequest();
        request.pricing = LaunchPricing::Subscription;
        request.subscriptionMonths = 1;
        request.terminateAt = kNow + 3600; // not taken by a prepaid server: said in a step
        Result<LaunchResult> result = makeHuaweiEcsProvider(contextFor(t))->launch(request, nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        const json server = json::parse(t.find("POST /v1.1/" + kProject + "/cloudservers")->body)["server"];
        JSON_COMPARE(server["metadata"]["op_svc_userid"], json("07609fb9358010e21f7bc003751..."));
        JSON_COMPARE(server["extendparam"]["chargingMode"], json("prePaid"));
        QVERIFY(!server.contains("auto_terminate_time"));
        QVERIFY(std::any_of(result->steps.begin(), result->steps.end(), [](const Reason& r) {
            return r.key == "step.huawei.no_scheduled_terminate";
        }));
        QVERIFY(std::any_of(result->steps.begin(), result->steps.end(), [](const Reason& r) {
            return r.key == "step.huawei.order_paid" && r.params.at("order_id") == "CS2007281506xxxxx";
        }));
    }

    void quotesPrices()
    {
        ScriptedTransport t;
        answerProject(t);
        // ListOnDemandResourceRatings: product_rating_results[] as parseHuaweiRatings reads them (core/prices).
        t.answer("POST /v2/bills/ratings/on-demand-resources",
                 json{{"amount", 3.5},
                      {"official_website_amount", 3.5},
                      {"measure_id", 1},
                      {"currency", "CNY"},
                      {"product_rating_results",
                       json::array({json{{"id", "1"}, {"official_website_amount", 35}, {"measure_id", 2}}})}}
                     .dump());
        std::ifstream period(GPUPLAN_SOURCE_DIR "/tests/data/huawei/period-rating.json", std::ios::binary);
        std::ostringstream periodBody;
        periodBody << period.rdbuf();
        t.answer("POST /v2/bills/ratings/period-resources/subscribe-rate", periodBody.str()); // 32.2 yuan
        std::unique_ptr<CloudProvider> provider = makeHuaweiEcsProvider(contextFor(t));

        LaunchRequest request = baseRequest();
        Result<std::optional<PriceQuote>> hourly = provider->quotePrice(request, nullptr);
        QVERIFY2(hourly, hourly ? "" : describe(hourly.error()).c_str());
        QVERIFY(hourly->has_value());
        QCOMPARE((*hourly)->amount, 3.5); // 35 jiao
        QCOMPARE((*hourly)->unit, PriceUnit::Hour);
        QCOMPARE((*hourly)->currency, Currency::CNY);
        const json asked = json::parse(t.find("POST /v2/bills/ratings/on-demand-resources")->body);
        JSON_COMPARE(asked["project_id"], json(kProject));
        JSON_COMPARE(asked["product_infos"][0]["resource_spec"], json("c3.15xlarge.2.linux"));
        QVERIFY(!t.find("POST /v2/bills/ratings/on-demand-resources")->header("X-Project-Id"));

        request.pricing = LaunchPricing::Subscription;
        request.subscriptionMonths = 2;
        Result<std::optional<PriceQuote>> monthly = provider->quotePrice(request, nullptr);
        QVERIFY(monthly && monthly->has_value());
        QCOMPARE((*monthly)->amount, 32.2 / 2);
        QCOMPARE((*monthly)->unit, PriceUnit::Month);
        const json period2 = json::parse(t.find("POST /v2/bills/ratings/period-resources/subscribe-rate")->body);
        JSON_COMPARE(period2["product_infos"][0]["period_type"], json(2));
        JSON_COMPARE(period2["product_infos"][0]["period_num"], json(2));
        JSON_COMPARE(huawei::periodRatingCall(kProject, kRegion, "x", 24).body["product_infos"][0]["period_type"],
                     json(3));

        request.pricing = LaunchPricing::Spot;
        Result<std::optional<PriceQuote>> spot = provider->quotePrice(request, nullptr);
        QVERIFY(spot && !spot->has_value()); // BSS rates no spot
    }

    void descriptor()
    {
        const ProviderDescriptor& d = huaweiDescriptor();
        QVERIFY(d.canLaunch());
        QVERIFY(!d.supports(CloudFeature::TerminateOnShutdown));
        QVERIFY(d.supports(CloudFeature::Spot));
        QVERIFY(d.supports(CloudFeature::Subscription));
        QVERIFY(d.supports(CloudFeature::ScheduledTerminate));
        QVERIFY(d.supports(CloudFeature::DryRun));
    }
};

QTEST_GUILESS_MAIN(TestHuaweiEcs)
#include "TestHuaweiEcs.moc"
