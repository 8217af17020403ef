// The Google Compute Engine provider without a network: every call's method, path, query and body; the parsers on the
// resources of tests/data/cloud/gcp (README there says where each comes from) and on broken answers; the error
// mapping for each class of refusal; and whole launches through makeGceProvider against a scripted transport that
// answers per method and path, the OAuth2 token exchange included.

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <QTest>

#include <nlohmann/json.hpp>

#include "gpuplan/cloud/providers/gcp/ComputeApi.h"
#include "gpuplan/cloud/providers/gcp/GcpProvider.h"
#include "gpuplan/net/Clock.h"

using namespace gpuplan::core;
using nlohmann::json;

// QCOMPARE does not take nlohmann::json: the two values, each shown as JSON when they differ.
#define JSON_COMPARE(actual, expected) \
    QVERIFY2(json(actual) == json(expected), (json(actual).dump() + " != " + json(expected).dump()).c_str())

namespace {

const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci10ZXN0LWtleS1ub3QtcmVhbC0wMDAwMDAw lab@example";
constexpr std::int64_t kNow = 1796324700; // 2026-12-03T19:05:00Z
const std::string kProject = "my-project";
const std::string kRegion = "us-central1";
const std::string kToken = "gpuplan-0123456789abcdef01234567";
const std::string kCidr = "203.0.113.7/32";
const std::string kFirewall = "gpuplanner-ssh-203-0-113-7-32";
const std::string kBase = "/compute/v1/projects/my-project";

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string fixture(const std::string& name)
{
    return readFile(GPUPLAN_SOURCE_DIR "/tests/data/cloud/gcp/" + name);
}

json doc(const std::string& name)
{
    return json::parse(fixture(name));
}

// Answers each request by "METHOD path" (the path without the query): a queue per key, the last answer repeats.
class ScriptedTransport final : public HttpTransport
{
public:
    void answer(const std::string& key, std::string body, int status = 200)
    {
        m_answers[key].push_back({status, std::move(body)});
    }
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
            return HttpResponse{
                404,
                {},
                json{{"error", {{"code", 404}, {"message", "no answer for " + k}, {"status", "NOT_FOUND"}}}}.dump()};
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
    static std::string query(const HttpRequest& request)
    {
        const std::size_t q = request.url.find('?');
        return q == std::string::npos ? std::string() : request.url.substr(q + 1);
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
    std::vector<std::string> keys() const
    {
        std::vector<std::string> out;
        for (const HttpRequest& r : requests) {
            out.push_back(key(r));
        }
        return out;
    }

    std::vector<HttpRequest> requests;

private:
    std::map<std::string, std::deque<std::pair<int, std::string>>> m_answers;
};

ProviderContext contextFor(ScriptedTransport& transport, std::map<std::string, std::string> settings = {})
{
    ProviderContext context;
    context.http = &transport;
    context.key = AccessKey{"gpuplanner@my-project.iam.gserviceaccount.com",
                            readFile(GPUPLAN_SOURCE_DIR "/tests/integration/sdk/keys/test-rsa-2048.pem"),
                            {}};
    context.endpoint = "http://127.0.0.1:9";
    context.settings = std::move(settings);
    context.clock = [] { return std::chrono::system_clock::from_time_t(kNow); };
    context.sleep = [](std::chrono::milliseconds) {};
    return context;
}

LaunchRequest request(LaunchPricing pricing = LaunchPricing::OnDemand)
{
    LaunchRequest r;
    r.region = kRegion;
    r.zone = "us-central1-a";
    r.instanceType = "g2-standard-8";
    r.pricing = pricing;
    r.sshPublicKey = kPublicKey;
    r.sshSourceCidr = kCidr;
    r.userData = "#!/bin/bash\necho watchdog\n";
    r.clientToken = kToken;
    return r;
}

const json* metadataItem(const json& body, const std::string& key)
{
    for (const json& item : body["metadata"]["items"]) {
        if (item["key"] == key) {
            return &item;
        }
    }
    return nullptr;
}

std::string tokenAnswer()
{
    return json{{"access_token", "ya29.test-token"}, {"expires_in", 3599}, {"token_type", "Bearer"}}.dump();
}

// A project where everything a launch needs answers: the token, the image family, the firewall (found), the insert
// and its operation.
void answerLaunch(ScriptedTransport& t)
{
    t.answer("POST /token", tokenAnswer());
    t.answer("GET /compute/v1/projects/deeplearning-platform-release/global/images/family/"
             "common-cu129-ubuntu-2204-nvidia-580",
             fixture("image.json"));
    t.answer("GET " + kBase + "/global/firewalls/" + kFirewall, fixture("firewall.json"));
    t.answer("POST " + kBase + "/zones/us-central1-a/instances", fixture("operation_insert_running.json"));
    t.answer("POST " + kBase
                 + "/zones/us-central1-a/operations/"
                   "operation-1733148000000-5f1a2b3c4d5e6-7a8b9c0d-1e2f3a4b/wait",
             fixture("operation_insert_done.json"));
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
    const auto keys = stepKeys(result);
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

HttpResponse answerOf(int status, const std::string& body)
{
    return HttpResponse{status, {}, body};
}

} // namespace

class TestGce : public QObject
{
    Q_OBJECT

private slots:
    void projectAndEndpoints()
    {
        QCOMPARE(gcp::projectOf("given", "sa@other.iam.gserviceaccount.com").value_or(""), std::string("given"));
        QCOMPARE(gcp::projectOf("", "sa@my-project.iam.gserviceaccount.com").value_or(""), std::string("my-project"));
        QVERIFY(!gcp::projectOf("", "someone@gmail.com"));
        QVERIFY(!gcp::projectOf("", "@.iam.gserviceaccount.com"));
        QCOMPARE(gcp::apiBase(""), std::string("https://compute.googleapis.com/compute/v1"));
        QCOMPARE(gcp::apiBase("http://127.0.0.1:8080/"), std::string("http://127.0.0.1:8080/compute/v1"));
        QCOMPARE(gcp::tokenUri(""), std::string("https://oauth2.googleapis.com/token"));
        QCOMPARE(gcp::tokenUri("http://127.0.0.1:8080"), std::string("http://127.0.0.1:8080/token"));
    }

    void instanceTypes()
    {
        Result<gcp::InstanceType> a2 = gcp::parseInstanceType("a2-highgpu-1g");
        QVERIFY(a2);
        QCOMPARE(a2->machineType, std::string("a2-highgpu-1g"));
        QVERIFY(a2->accelerator.empty());
        Result<gcp::InstanceType> n1 = gcp::parseInstanceType("n1-standard-8+2xV100");
        QVERIFY(n1);
        QCOMPARE(n1->machineType, std::string("n1-standard-8"));
        QCOMPARE(n1->accelerator, std::string("nvidia-tesla-v100"));
        QCOMPARE(n1->acceleratorCount, 2);
        QCOMPARE(gcp::parseInstanceType("tpu-v5e-8").error().reason.key, std::string("error.gcp.tpu_not_a_vm"));
        QCOMPARE(gcp::parseInstanceType("n1-standard-8+1xH100").error().reason.key,
                 std::string("error.gcp.gpu_unknown"));
        QCOMPARE(gcp::parseInstanceType("n1-standard-8+T4").error().reason.key,
                 std::string("error.gcp.instance_type_invalid"));
        QCOMPARE(gcp::parseInstanceType("N1_Standard").error().reason.key,
                 std::string("error.gcp.instance_type_invalid"));
    }

    void namesIdsAndTimes()
    {
        QCOMPARE(gcp::firewallName(kCidr), kFirewall);
        QCOMPARE(gcp::firewallName("2001:DB8::1/128"), std::string("gpuplanner-ssh-2001-db8--1-128"));
        const std::string id = gcp::requestId(kToken);
        QCOMPARE(id, gcp::requestId(kToken)); // stable: a resend carries the same id
        QVERIFY(id != gcp::requestId("gpuplan-ffffffffffffffffffffffff"));
        QCOMPARE(id.size(), std::size_t(36));
        QCOMPARE(id[8], '-');
        QCOMPARE(id[14], '4');                                          // version 4
        QVERIFY(std::string("89ab").find(id[19]) != std::string::npos); // RFC 4122 variant
        QVERIFY(id.find_first_not_of("0123456789abcdef-") == std::string::npos);
        QCOMPARE(gcp::instanceRef("us-central1-a", "vm"), std::string("us-central1-a/vm"));
        QCOMPARE(gcp::splitInstanceRef("us-central1-a/vm")->second, std::string("vm"));
        QVERIFY(!gcp::splitInstanceRef("vm"));
        QVERIFY(!gcp::splitInstanceRef("a/b/c"));
        QCOMPARE(gcp::regionOfZone("europe-west4-b"), std::string("europe-west4"));
        QCOMPARE(gcp::rfc3339(kNow), std::string("2026-12-03T19:05:00Z"));
        QCOMPARE(gcp::parseRfc3339("2026-12-03T19:05:00Z").value_or(0), kNow);
        QCOMPARE(gcp::parseRfc3339("2026-12-03T11:05:00.123-08:00").value_or(0), kNow);
        QCOMPARE(gcp::parseRfc3339("2026-12-04T03:35:00+08:30").value_or(0), kNow);
        QVERIFY(!gcp::parseRfc3339("2026-12-03 19:05:00"));
        QVERIFY(!gcp::parseRfc3339("2026-13-03T19:05:00Z"));
        QCOMPARE(gcp::labelText("Plan 42/A"), std::string("plan_42_a"));
        QCOMPARE(gcp::encodeQueryValue("name = \"a2-highgpu-1g\""), std::string("name%20%3D%20%22a2-highgpu-1g%22"));
        QCOMPARE(gcp::encodeQueryValue("labels.gpuplanner-token:*"), std::string("labels.gpuplanner-token%3A*"));
    }

    void callsCarryMethodPathAndQuery()
    {
        const std::string e = "http://127.0.0.1:9";
        HttpRequest r = gcp::buildRequest(gcp::machineTypesCall(kProject, "a2-highgpu-1g"), e);
        QCOMPARE(r.method, std::string("GET"));
        QCOMPARE(r.url,
                 std::string("http://127.0.0.1:9/compute/v1/projects/my-project/aggregated/machineTypes"
                             "?filter=name%20%3D%20%22a2-highgpu-1g%22"));
        QVERIFY(r.body.empty());
        QVERIFY(!r.header("Content-Type"));
        r = gcp::buildRequest(gcp::acceleratorTypesCall(kProject, "nvidia-tesla-t4"), "");
        QCOMPARE(r.url,
                 std::string("https://compute.googleapis.com/compute/v1/projects/my-project/aggregated/"
                             "acceleratorTypes?filter=name%20%3D%20%22nvidia-tesla-t4%22"));
        r = gcp::buildRequest(gcp::imageFromFamilyCall("common-cu128-ubuntu-2204-nvidia-570"), e);
        QCOMPARE(r.url,
                 e
                     + "/compute/v1/projects/deeplearning-platform-release/global/images/family/"
                       "common-cu128-ubuntu-2204-nvidia-570");
        r = gcp::buildRequest(gcp::getFirewallCall(kProject, kFirewall), e);
        QCOMPARE(r.url, e + kBase + "/global/firewalls/" + kFirewall);
        r = gcp::buildRequest(gcp::waitGlobalOperationCall(kProject, "op-1"), e);
        QCOMPARE(r.method, std::string("POST"));
        QCOMPARE(r.url, e + kBase + "/global/operations/op-1/wait");
        r = gcp::buildRequest(gcp::waitZoneOperationCall(kProject, "us-central1-a", "op-2"), e);
        QCOMPARE(r.url, e + kBase + "/zones/us-central1-a/operations/op-2/wait");
        r = gcp::buildRequest(gcp::getInstanceCall(kProject, "us-central1-a", kToken), e);
        QCOMPARE(r.method, std::string("GET"));
        QCOMPARE(r.url, e + kBase + "/zones/us-central1-a/instances/" + kToken);
        r = gcp::buildRequest(gcp::listInstancesCall(kProject, ""), e);
        QCOMPARE(r.url, e + kBase + "/aggregated/instances?filter=labels.gpuplanner-token%3A*&maxResults=500");
        r = gcp::buildRequest(gcp::listInstancesCall(kProject, "tok+/="), e);
        QCOMPARE(ScriptedTransport::query(r),
                 std::string("filter=labels.gpuplanner-token%3A*&maxResults=500&pageToken=tok%2B/%3D"));
        r = gcp::buildRequest(gcp::deleteInstanceCall(kProject, "us-central1-a", kToken), e);
        QCOMPARE(r.method, std::string("DELETE"));
        QCOMPARE(r.url,
                 e + kBase + "/zones/us-central1-a/instances/" + kToken
                     + "?requestId=" + gcp::requestId("delete us-central1-a/" + kToken));
        QVERIFY(gcp::requestId("delete us-central1-a/" + kToken) != gcp::requestId(kToken));
    }

    void firewallBodies()
    {
        HttpRequest r = gcp::buildRequest(gcp::insertFirewallCall(kProject, kFirewall, kCidr), "");
        QCOMPARE(r.method, std::string("POST"));
        QCOMPARE(r.url, std::string("https://compute.googleapis.com/compute/v1/projects/my-project/global/firewalls"));
        JSON_COMPARE(r.header("Content-Type").value_or(""), std::string("application/json"));
        const json body = json::parse(r.body);
        JSON_COMPARE(body["name"], json(kFirewall));
        JSON_COMPARE(body["network"], json("projects/my-project/global/networks/default"));
        JSON_COMPARE(body["direction"], json("INGRESS"));
        JSON_COMPARE(body["priority"], json(1000));
        JSON_COMPARE(body["allowed"], json::parse(R"([{"IPProtocol":"tcp","ports":["22"]}])"));
        JSON_COMPARE(body["sourceRanges"], json::array({kCidr}));
        JSON_COMPARE(body["targetTags"], json::array({kFirewall}));
        r = gcp::buildRequest(gcp::patchFirewallCall(kProject, kFirewall, kCidr), "");
        QCOMPARE(r.method, std::string("PATCH"));
        QVERIFY(r.url.ends_with("/global/firewalls/" + kFirewall));
        JSON_COMPARE(json::parse(r.body), body);
    }

    void insertBodyStandard()
    {
        LaunchRequest req = request();
        req.tags = {{"gpuplanner-plan", "Plan-42"}};
        const gcp::InstancePlacement where{kProject, "us-central1-a", "projects/p/global/images/img", kFirewall};
        Result<gcp::Call> call = gcp::insertInstanceCall(req, where, kNow);
        QVERIFY(call);
        const HttpRequest r = gcp::buildRequest(*call, "");
        QCOMPARE(r.method, std::string("POST"));
        QCOMPARE(r.url,
                 "https://compute.googleapis.com/compute/v1/projects/my-project/zones/us-central1-a/instances"
                 "?requestId="
                     + gcp::requestId(kToken));
        const json body = json::parse(r.body);
        JSON_COMPARE(body["name"], json(kToken));
        JSON_COMPARE(body["machineType"], json("zones/us-central1-a/machineTypes/g2-standard-8"));
        JSON_COMPARE(body["labels"],
                     json::parse(R"({"gpuplanner-token":")" + kToken + R"(","gpuplanner-plan":"plan-42"})"));
        const json& disk = body["disks"][0];
        JSON_COMPARE(disk["boot"], json(true));
        JSON_COMPARE(disk["autoDelete"], json(true));
        JSON_COMPARE(disk["initializeParams"]["sourceImage"], json("projects/p/global/images/img"));
        JSON_COMPARE(disk["initializeParams"]["diskSizeGb"], json("200"));
        JSON_COMPARE(disk["initializeParams"]["diskType"], json("zones/us-central1-a/diskTypes/pd-balanced"));
        JSON_COMPARE(body["networkInterfaces"][0]["network"], json("global/networks/default"));
        JSON_COMPARE(body["networkInterfaces"][0]["accessConfigs"][0]["type"], json("ONE_TO_ONE_NAT"));
        QVERIFY(!body.contains("guestAccelerators"));
        JSON_COMPARE(body["tags"]["items"], json::array({kFirewall}));
        JSON_COMPARE((*metadataItem(body, "ssh-keys"))["value"], json("ubuntu:" + kPublicKey));
        JSON_COMPARE((*metadataItem(body, "startup-script"))["value"], json(req.userData));
        JSON_COMPARE((*metadataItem(body, "install-nvidia-driver"))["value"], json("True"));
        JSON_COMPARE(body["scheduling"], json::parse(R"({"onHostMaintenance":"TERMINATE","provisioningModel":"STANDARD",
                                 "automaticRestart":true})"));
    }

    void insertBodySpotN1AndTerminationTime()
    {
        LaunchRequest req = request(LaunchPricing::Spot);
        req.instanceType = "n1-standard-8+1xT4";
        req.terminateAt = kNow + 3600;
        Result<gcp::Call> call =
            gcp::insertInstanceCall(req, gcp::InstancePlacement{kProject, "us-central1-b", "img", kFirewall}, kNow);
        QVERIFY(call);
        const json& body = call->body;
        JSON_COMPARE(body["machineType"], json("zones/us-central1-b/machineTypes/n1-standard-8"));
        JSON_COMPARE(body["guestAccelerators"],
                     json::parse(R"([{"acceleratorType":"zones/us-central1-b/acceleratorTypes/nvidia-tesla-t4",
                                  "acceleratorCount":1}])"));
        JSON_COMPARE(
            body["scheduling"],
            json::parse(R"({"onHostMaintenance":"TERMINATE","provisioningModel":"SPOT","automaticRestart":false,
                                 "instanceTerminationAction":"DELETE","terminationTime":"2026-12-03T20:05:00Z"})"));
        // A standard instance with a terminate time is deleted then too.
        LaunchRequest standard = request();
        standard.terminateAt = kNow + 7200;
        Result<gcp::Call> withTime =
            gcp::insertInstanceCall(standard, gcp::InstancePlacement{kProject, "us-central1-a", "img", ""}, kNow);
        QVERIFY(withTime);
        JSON_COMPARE(withTime->body["scheduling"]["terminationTime"], json("2026-12-03T21:05:00Z"));
        JSON_COMPARE(withTime->body["scheduling"]["instanceTerminationAction"], json("DELETE"));
        JSON_COMPARE(withTime->body["scheduling"]["automaticRestart"], json(true));
        QVERIFY(!withTime->body.contains("tags"));
    }

    void insertRefusals_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("key");
        QTest::newRow("no token") << "no_token"
                                  << "error.gcp.no_client_token";
        QTest::newRow("token not a GCE name") << "bad_token"
                                              << "error.gcp.client_token_invalid";
        QTest::newRow("spot with a price limit") << "spot_limit"
                                                 << "error.gcp.spot_no_price_limit";
        QTest::newRow("user data over 256 KB") << "big_user_data"
                                               << "error.gcp.metadata_too_big";
        QTest::newRow("terminate time passed") << "past"
                                               << "error.gcp.terminate_too_soon";
        QTest::newRow("TPU") << "tpu"
                             << "error.gcp.tpu_not_a_vm";
    }
    void insertRefusals()
    {
        QFETCH(QString, what);
        QFETCH(QString, key);
        LaunchRequest req = request();
        if (what == "no_token") {
            req.clientToken.clear();
        } else if (what == "bad_token") {
            req.clientToken = "Gpuplan_ABC";
        } else if (what == "spot_limit") {
            req.pricing = LaunchPricing::Spot;
            req.spotPriceLimit = 0.5;
        } else if (what == "big_user_data") {
            req.userData = std::string(gcp::kMaxMetadataValueBytes + 1, 'x');
        } else if (what == "past") {
            req.terminateAt = kNow - 1;
        } else if (what == "tpu") {
            req.instanceType = "tpu-v5e-8";
        }
        Result<gcp::Call> call =
            gcp::insertInstanceCall(req, gcp::InstancePlacement{kProject, "us-central1-a", "img", ""}, kNow);
        QVERIFY(!call);
        QCOMPARE(call.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(QString::fromStdString(call.error().reason.key), key);
    }

    void parsesDocumentedAnswers()
    {
        Result<std::vector<std::string>> zones =
            gcp::parseZonesOffering(fixture("aggregated_machine_types.json"), "x", "machineTypes", kRegion);
        QVERIFY(zones);
        QCOMPARE(*zones, (std::vector<std::string>{"us-central1-a", "us-central1-c"}));
        zones = gcp::parseZonesOffering(fixture("aggregated_accelerator_types.json"), "x", "acceleratorTypes", kRegion);
        QVERIFY(zones);
        QCOMPARE(*zones, (std::vector<std::string>{"us-central1-a", "us-central1-b"}));
        QVERIFY(gcp::parseZonesOffering("{}", "x", "machineTypes", kRegion)->empty());

        Result<gcp::Image> image = gcp::parseImage(fixture("image.json"));
        QVERIFY(image);
        QCOMPARE(image->family, std::string("common-cu129-ubuntu-2204-nvidia-580"));
        QVERIFY(image->selfLink.ends_with("/global/images/common-cu129-ubuntu-2204-nvidia-580-v20261120"));
        QVERIFY(gcp::usable(*image));
        json deprecated = doc("image.json");
        deprecated["deprecated"] = {{"state", "DEPRECATED"}};
        QVERIFY(!gcp::usable(*gcp::parseImage(deprecated.dump())));

        Result<gcp::Firewall> firewall = gcp::parseFirewall(fixture("firewall.json"));
        QVERIFY(firewall);
        QVERIFY(gcp::allowsSshFrom(*firewall, kCidr, kFirewall));
        QVERIFY(!gcp::allowsSshFrom(*firewall, "198.51.100.1/32", kFirewall));
        gcp::Firewall range = *firewall;
        range.allowed = {{"tcp", {"20-25"}}};
        QVERIFY(gcp::allowsSshFrom(range, kCidr, kFirewall));
        range.allowed = {{"udp", {"22"}}};
        QVERIFY(!gcp::allowsSshFrom(range, kCidr, kFirewall));
        range.allowed = {{"all", {}}};
        QVERIFY(gcp::allowsSshFrom(range, kCidr, kFirewall));
        range.disabled = true;
        QVERIFY(!gcp::allowsSshFrom(range, kCidr, kFirewall));

        Result<gcp::Operation> op = gcp::parseOperation(fixture("operation_insert_running.json"), "instances.insert");
        QVERIFY(op);
        QCOMPARE(op->status, std::string("RUNNING"));
        QCOMPARE(op->zone, std::string("us-central1-a"));
        QCOMPARE(op->operationType, std::string("insert"));
        QCOMPARE(op->targetId, std::string("4567890123456789012"));
        QVERIFY(op->errors.empty());
        op = gcp::parseOperation(fixture("operation_capacity.json"), "zoneOperations.wait");
        QVERIFY(op);
        QCOMPARE(op->errors.size(), std::size_t(1));
        QCOMPARE(op->errors[0].code, std::string("ZONE_RESOURCE_POOL_EXHAUSTED"));
        QCOMPARE(op->httpErrorStatusCode, 503);
        op = gcp::parseOperation(fixture("operation_firewall_running.json"), "firewalls.insert");
        QVERIFY(op);
        QVERIFY(op->zone.empty()); // global

        Result<RemoteInstance> instance = gcp::parseInstance(fixture("instance.json"));
        QVERIFY(instance);
        QCOMPARE(instance->instanceId, "us-central1-a/" + kToken);
        QCOMPARE(instance->clientToken, kToken);
        QCOMPARE(instance->state, InstanceState::Running);
        QCOMPARE(instance->providerState, std::string("RUNNING"));
        QCOMPARE(instance->region, kRegion);
        QCOMPARE(instance->zone, std::string("us-central1-a"));
        QCOMPARE(instance->instanceType, std::string("g2-standard-8"));
        QCOMPARE(instance->publicIp, std::string("34.123.45.67"));
        QCOMPARE(instance->pricingMode, std::string("spot"));
        QCOMPARE(instance->launchedAt.value_or(0), std::int64_t(1796234400)); // 2026-12-02T10:00:00-08:00

        Result<gcp::InstancesPage> page = gcp::parseInstancesPage(fixture("aggregated_instances_page1.json"), kRegion);
        QVERIFY(page);
        QCOMPARE(page->instances.size(), std::size_t(2)); // europe-west4's is another region's
        QCOMPARE(page->instances[1].clientToken, std::string());
        QVERIFY(!page->nextPageToken.empty());
        page = gcp::parseInstancesPage(fixture("aggregated_instances_page2.json"), kRegion);
        QVERIFY(page);
        QCOMPARE(page->instances.size(), std::size_t(1));
        QCOMPARE(page->instances[0].instanceType, std::string("n1-standard-8+1xT4"));
        QCOMPARE(page->instances[0].state, InstanceState::Stopped);
        QCOMPARE(page->instances[0].pricingMode, std::string("on_demand"));
        QVERIFY(page->instances[0].publicIp.empty());
        QVERIFY(page->nextPageToken.empty());
    }

    void states_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<int>("state");
        QTest::newRow("PROVISIONING") << "PROVISIONING" << int(InstanceState::Pending);
        QTest::newRow("STAGING") << "STAGING" << int(InstanceState::Pending);
        QTest::newRow("RUNNING") << "RUNNING" << int(InstanceState::Running);
        QTest::newRow("STOPPING") << "STOPPING" << int(InstanceState::Stopping);
        QTest::newRow("SUSPENDING") << "SUSPENDING" << int(InstanceState::Stopping);
        QTest::newRow("STOPPED") << "STOPPED" << int(InstanceState::Stopped);
        QTest::newRow("SUSPENDED") << "SUSPENDED" << int(InstanceState::Stopped);
        QTest::newRow("TERMINATED") << "TERMINATED" << int(InstanceState::Stopped);
        QTest::newRow("REPAIRING") << "REPAIRING" << int(InstanceState::Stopping);
    }
    void states()
    {
        QFETCH(QString, status);
        QFETCH(int, state);
        QCOMPARE(int(gcp::stateFromGce(status.toStdString())), state);
        // describe() through the provider says the same.
        ScriptedTransport t;
        t.answer("POST /token", tokenAnswer());
        json shown = doc("instance.json");
        shown["status"] = status.toStdString();
        t.answer("GET " + kBase + "/zones/us-central1-a/instances/" + kToken, shown.dump());
        auto provider = makeGceProvider(contextFor(t));
        Result<RemoteInstance> described = provider->describe(kRegion, "us-central1-a/" + kToken, nullptr);
        QVERIFY(described);
        QCOMPARE(int(described->state), state);
        QCOMPARE(described->providerState, status.toStdString());
    }

    void brokenAnswersNameCallAndField()
    {
        Result<gcp::Operation> op = gcp::parseOperation("<html>", "instances.insert");
        QVERIFY(!op);
        QCOMPARE(op.error().code, ErrorCode::ProviderRefused);
        JSON_COMPARE(op.error().reason.key, std::string("error.answer.not_json"));
        QCOMPARE(op.error().reason.params.at("action"), std::string("instances.insert"));
        QCOMPARE(op.error().reason.params.at("provider"), std::string("gcp"));
        QCOMPARE(op.error().where, std::string("gcp instances.insert"));
        op = gcp::parseOperation("[1]", "instances.insert");
        QCOMPARE(op.error().reason.key, std::string("error.answer.not_object"));
        op = gcp::parseOperation(R"({"name":"op"})", "instances.insert");
        QCOMPARE(op.error().reason.key, std::string("error.answer.missing"));
        QCOMPARE(op.error().reason.params.at("field"), std::string("status"));
        op = gcp::parseOperation(R"({"name":"op","status":"DONE","error":{"errors":"x"}})", "instances.insert");
        QCOMPARE(op.error().reason.key, std::string("error.answer.not_list"));
        QCOMPARE(op.error().reason.params.at("field"), std::string("errors"));
        Result<RemoteInstance> instance = gcp::parseInstance(R"({"name":"vm","status":"RUNNING"})");
        QCOMPARE(instance.error().reason.params.at("field"), std::string("zone"));
        instance = gcp::parseInstance(R"({"zone":"z","status":"RUNNING"})");
        QCOMPARE(instance.error().reason.params.at("field"), std::string("name"));
        Result<gcp::Image> image = gcp::parseImage(R"({"name":"img"})");
        QCOMPARE(image.error().reason.params.at("field"), std::string("selfLink"));
        QCOMPARE(gcp::parseFirewall(R"({"name":"fw","allowed":{}})").error().reason.key,
                 std::string("error.answer.not_list"));
        const Error items = gcp::parseInstancesPage(R"({"items":[]})", kRegion).error();
        QCOMPARE(items.reason.key, std::string("error.answer.invalid"));
        QCOMPARE(items.reason.params.at("field"), std::string("items"));
        QCOMPARE(items.reason.params.at("found"), std::string("array"));
        QCOMPARE(items.reason.params.at("action"), std::string("instances.aggregatedList"));
        const Error notInstance =
            gcp::parseInstancesPage(R"({"items":{"zones/us-central1-a":{"instances":[5]}}})", kRegion).error();
        QCOMPARE(notInstance.reason.key, std::string("error.answer.invalid"));
        QCOMPARE(notInstance.reason.params.at("field"), std::string("instance"));
        QCOMPARE(notInstance.reason.params.at("found"), std::string("number"));
        QCOMPARE(gcp::parseInstancesPage(
                     R"({"items":{"zones/us-central1-a":{"instances":[{"zone":"z","status":"RUNNING"}]}}})", kRegion)
                     .error()
                     .reason.params.at("field"),
                 std::string("name"));
        QCOMPARE(
            gcp::parseZonesOffering("null", "machineTypes.aggregatedList", "machineTypes", kRegion).error().reason.key,
            std::string("error.answer.not_object"));
    }

    void errorMapping_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("value");
        QTest::newRow("permission") << 403 << "error_permission.json" << int(ErrorCode::PermissionDenied)
                                    << "error.gcp.permission"
                                    << "permission"
                                    << "compute.instances.create";
        QTest::newRow("permission's role")
            << 403 << "error_permission.json" << int(ErrorCode::PermissionDenied) << "error.gcp.permission"
            << "role"
            << "roles/compute.instanceAdmin.v1";
        QTest::newRow("API off") << 403 << "error_api_disabled.json" << int(ErrorCode::PermissionDenied)
                                 << "error.gcp.api_disabled"
                                 << "project"
                                 << "my-project";
        QTest::newRow("throttled") << 403 << "error_rate_limit.json" << int(ErrorCode::Throttled)
                                   << "error.gcp.throttled"
                                   << "action"
                                   << "instances.insert";
        QTest::newRow("quota") << 403 << "error_quota.json" << int(ErrorCode::QuotaExceeded) << "error.gcp.quota"
                               << "metric"
                               << "GPUS_ALL_REGIONS";
        QTest::newRow("401") << 401 << "error_unauthenticated.json" << int(ErrorCode::Credentials)
                             << "error.gcp.key_refused"
                             << "code"
                             << "authError";
        QTest::newRow("404") << 404 << "error_not_found.json" << int(ErrorCode::NotFound) << "error.gcp.not_found"
                             << "code"
                             << "notFound";
        QTest::newRow("no default network")
            << 404 << "error_no_network.json" << int(ErrorCode::ProviderRefused) << "error.gcp.no_default_network"
            << "project"
            << "my-project";
        QTest::newRow("409") << 409 << "error_already_exists.json" << int(ErrorCode::ProviderRefused)
                             << "error.gcp.refused"
                             << "code"
                             << "alreadyExists";
    }
    void errorMapping()
    {
        QFETCH(int, status);
        QFETCH(QString, file);
        QFETCH(int, code);
        QFETCH(QString, key);
        QFETCH(QString, param);
        QFETCH(QString, value);
        gcp::ErrorContext c;
        c.action = "instances.insert";
        c.region = kRegion;
        c.zone = "us-central1-a";
        c.project = kProject;
        std::optional<Error> error = gcp::mapError(answerOf(status, fixture(file.toStdString())), c);
        QVERIFY(error);
        QCOMPARE(int(error->code), code);
        QCOMPARE(QString::fromStdString(error->reason.key), key);
        QCOMPARE(QString::fromStdString(error->reason.params[param.toStdString()]), value);
        QCOMPARE(error->httpStatus, status);
        QVERIFY(error->reason.params.contains("said"));
    }

    void errorsWithoutGoogleBody()
    {
        gcp::ErrorContext c;
        c.action = "instances.get";
        QVERIFY(!gcp::mapError(answerOf(200, "{}"), c));
        QCOMPARE(gcp::mapError(answerOf(429, "busy"), c)->code, ErrorCode::Throttled);
        QCOMPARE(gcp::mapError(answerOf(404, ""), c)->code, ErrorCode::NotFound);
        std::optional<Error> gateway = gcp::mapError(answerOf(502, "<html>bad gateway</html>"), c);
        QCOMPARE(gateway->code, ErrorCode::HttpStatus);
        QCOMPARE(gateway->reason.key, std::string("error.gcp.http_status"));
        QCOMPARE(gateway->reason.params.at("status"), std::string("502"));
        QCOMPARE(gcp::permissionOf("Required 'compute.firewalls.create' permission for 'projects/p'"),
                 std::string("compute.firewalls.create"));
        QCOMPARE(gcp::roleFor("compute.firewalls.create"), std::string("roles/compute.securityAdmin"));
        QCOMPARE(gcp::quotaMetric("Quota 'NVIDIA_T4_GPUS' exceeded.  Limit: 0.0 in region us-central1."),
                 std::string("NVIDIA_T4_GPUS"));
    }

    void operationFailures()
    {
        gcp::ErrorContext c;
        c.action = "instances.insert";
        c.region = kRegion;
        c.zone = "us-central1-a";
        c.instanceType = "g2-standard-8";
        Error capacity = gcp::operationFailure(*gcp::parseOperation(fixture("operation_capacity.json"), "w"), c);
        QCOMPARE(capacity.code, ErrorCode::InsufficientCapacity);
        QCOMPARE(capacity.reason.key, std::string("error.gcp.capacity"));
        QCOMPARE(capacity.reason.params.at("zone"), std::string("us-central1-a"));
        QCOMPARE(capacity.providerCode, std::string("ZONE_RESOURCE_POOL_EXHAUSTED"));
        Error quota = gcp::operationFailure(*gcp::parseOperation(fixture("operation_quota.json"), "w"), c);
        QCOMPARE(quota.code, ErrorCode::QuotaExceeded);
        QCOMPARE(quota.reason.params.at("metric"), std::string("NVIDIA_T4_GPUS"));
        QCOMPARE(quota.reason.params.at("region"), kRegion);
        gcp::Operation other;
        other.name = "op-9";
        other.status = "DONE";
        other.errors = {{"UNSUPPORTED_OPERATION", "Something else"}};
        Error failed = gcp::operationFailure(other, c);
        QCOMPARE(failed.code, ErrorCode::ProviderRefused);
        QCOMPARE(failed.reason.key, std::string("error.gcp.operation_failed"));
        QCOMPARE(failed.reason.params.at("operation"), std::string("op-9"));
    }

    void launchOnAFreshProject()
    {
        ScriptedTransport t;
        answerLaunch(t);
        t.only("GET " + kBase + "/global/firewalls/" + kFirewall, fixture("error_not_found.json"), 404);
        t.answer("POST " + kBase + "/global/firewalls", fixture("operation_firewall_running.json"));
        const std::string waitFirewall =
            "POST " + kBase + "/global/operations/operation-1733148000100-5f1a2b3c4d5e7-aaaa-bbbb/wait";
        t.answer(waitFirewall, fixture("operation_firewall_running.json"));
        t.answer(waitFirewall, fixture("operation_firewall_done.json"));
        // No family answers but the second one.
        t.only("GET /compute/v1/projects/deeplearning-platform-release/global/images/family/"
               "common-cu129-ubuntu-2204-nvidia-580",
               fixture("error_not_found.json"),
               404);
        json second = doc("image.json");
        second["family"] = "common-cu128-ubuntu-2204-nvidia-570";
        second["name"] = "common-cu128-ubuntu-2204-nvidia-570-v20261101";
        second["selfLink"] = "https://www.googleapis.com/compute/v1/projects/deeplearning-platform-release/global/"
                             "images/common-cu128-ubuntu-2204-nvidia-570-v20261101";
        t.answer("GET /compute/v1/projects/deeplearning-platform-release/global/images/family/"
                 "common-cu128-ubuntu-2204-nvidia-570",
                 second.dump());
        LaunchRequest req = request();
        req.zone.clear();
        t.answer("GET " + kBase + "/aggregated/machineTypes", fixture("aggregated_machine_types.json"));

        auto provider = makeGceProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(req, nullptr);
        QVERIFY2(launched, launched ? "" : describe(launched.error()).c_str());
        QCOMPARE(launched->instanceId, "us-central1-a/" + kToken);
        QCOMPARE(launched->zone, std::string("us-central1-a"));
        QCOMPARE(launched->state, InstanceState::Pending);
        QCOMPARE(stepKeys(*launched),
                 (std::vector<std::string>{"step.gcp.image_from_family",
                                           "step.gcp.ssh_key_in_metadata",
                                           "step.gcp.firewall_created",
                                           "step.zone_chosen",
                                           "step.gcp.operation_done",
                                           "step.launched"}));
        QCOMPARE(launched->steps[0].params.at("family"), std::string("common-cu128-ubuntu-2204-nvidia-570"));
        QCOMPARE(launched->steps[1].params.at("user"), std::string("ubuntu"));
        QCOMPARE(t.count(waitFirewall), 2);
        // The token was fetched once, and every Compute Engine call carried it.
        QCOMPARE(t.count("POST /token"), 1);
        for (const HttpRequest& r : t.requests) {
            if (ScriptedTransport::key(r) != "POST /token") {
                QCOMPARE(r.header("Authorization").value_or(""), std::string("Bearer ya29.test-token"));
            }
        }
        const HttpRequest* insert = t.find("POST " + kBase + "/zones/us-central1-a/instances");
        QVERIFY(insert);
        const json body = json::parse(insert->body);
        JSON_COMPARE(body["disks"][0]["initializeParams"]["sourceImage"], second["selfLink"]);
        JSON_COMPARE(body["tags"]["items"], json::array({kFirewall}));
        QCOMPARE(ScriptedTransport::query(*insert), "requestId=" + gcp::requestId(kToken));
        const HttpRequest* created = t.find("POST " + kBase + "/global/firewalls");
        JSON_COMPARE(json::parse(created->body)["sourceRanges"], json::array({kCidr}));
    }

    void launchReusingTheFirewall()
    {
        ScriptedTransport t;
        answerLaunch(t);
        auto provider = makeGceProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY2(launched, launched ? "" : describe(launched.error()).c_str());
        QVERIFY(hasStep(*launched, "step.gcp.firewall_found"));
        QCOMPARE(t.count("POST " + kBase + "/global/firewalls"), 0);
        QCOMPARE(t.count("PATCH " + kBase + "/global/firewalls/" + kFirewall), 0);
        QCOMPARE(t.count("GET " + kBase + "/aggregated/machineTypes"), 0); // the zone was given
    }

    void firewallWithoutItsRuleIsRepaired()
    {
        ScriptedTransport t;
        answerLaunch(t);
        json lost = doc("firewall.json");
        lost["sourceRanges"] = json::array({"198.51.100.0/24"});
        t.only("GET " + kBase + "/global/firewalls/" + kFirewall, lost.dump());
        t.answer("PATCH " + kBase + "/global/firewalls/" + kFirewall, fixture("operation_firewall_running.json"));
        t.answer("POST " + kBase + "/global/operations/operation-1733148000100-5f1a2b3c4d5e7-aaaa-bbbb/wait",
                 fixture("operation_firewall_done.json"));
        auto provider = makeGceProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY2(launched, launched ? "" : describe(launched.error()).c_str());
        QVERIFY(hasStep(*launched, "step.gcp.firewall_repaired"));
        const HttpRequest* patch = t.find("PATCH " + kBase + "/global/firewalls/" + kFirewall);
        QVERIFY(patch);
        JSON_COMPARE(json::parse(patch->body)["sourceRanges"], json::array({kCidr}));
        JSON_COMPARE(json::parse(patch->body)["allowed"][0]["ports"], json::array({"22"}));
    }

    void stockoutIsInsufficientCapacity()
    {
        ScriptedTransport t;
        answerLaunch(t);
        t.only("POST " + kBase
                   + "/zones/us-central1-a/operations/"
                     "operation-1733148000000-5f1a2b3c4d5e6-7a8b9c0d-1e2f3a4b/wait",
               fixture("operation_capacity.json"));
        auto provider = makeGceProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY(!launched);
        QCOMPARE(launched.error().code, ErrorCode::InsufficientCapacity);
        QCOMPARE(launched.error().reason.key, std::string("error.gcp.capacity"));
        QCOMPARE(launched.error().reason.params.at("instance_type"), std::string("g2-standard-8"));
    }

    void quotaInTheOperationNamesTheMetric()
    {
        ScriptedTransport t;
        answerLaunch(t);
        t.only("POST " + kBase
                   + "/zones/us-central1-a/operations/"
                     "operation-1733148000000-5f1a2b3c4d5e6-7a8b9c0d-1e2f3a4b/wait",
               fixture("operation_quota.json"));
        auto provider = makeGceProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY(!launched);
        QCOMPARE(launched.error().code, ErrorCode::QuotaExceeded);
        QCOMPARE(launched.error().reason.params.at("metric"), std::string("NVIDIA_T4_GPUS"));
    }

    void insertWhoseNameExists()
    {
        ScriptedTransport t;
        answerLaunch(t);
        t.only("POST " + kBase + "/zones/us-central1-a/instances", fixture("error_already_exists.json"), 409);
        t.answer("GET " + kBase + "/zones/us-central1-a/instances/" + kToken, fixture("instance.json"));
        auto provider = makeGceProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY2(launched, launched ? "" : describe(launched.error()).c_str());
        QCOMPARE(launched->instanceId, "us-central1-a/" + kToken);
        QCOMPARE(launched->state, InstanceState::Running);
        QVERIFY(hasStep(*launched, "step.gcp.instance_existed"));

        // Someone else's instance of that name is not ours.
        ScriptedTransport other;
        answerLaunch(other);
        other.only("POST " + kBase + "/zones/us-central1-a/instances", fixture("error_already_exists.json"), 409);
        json theirs = doc("instance.json");
        theirs["labels"] = {{"team", "vision"}};
        other.answer("GET " + kBase + "/zones/us-central1-a/instances/" + kToken, theirs.dump());
        Result<LaunchResult> refused = makeGceProvider(contextFor(other))->launch(request(), nullptr);
        QVERIFY(!refused);
        QCOMPARE(refused.error().reason.key, std::string("error.gcp.name_taken"));
    }

    void requestChecks()
    {
        ScriptedTransport t;
        auto provider = makeGceProvider(contextFor(t));
        LaunchRequest spot = request(LaunchPricing::Spot);
        spot.spotPriceLimit = 1.0;
        QCOMPARE(provider->launch(spot, nullptr).error().reason.key, std::string("error.gcp.spot_no_price_limit"));
        LaunchRequest tpu = request();
        tpu.instanceType = "tpu-v5e-8";
        QCOMPARE(provider->launch(tpu, nullptr).error().reason.key, std::string("error.gcp.tpu_not_a_vm"));
        LaunchRequest dry = request();
        dry.dryRun = true;
        QCOMPARE(provider->launch(dry, nullptr).error().reason.params.at("why_key"),
                 std::string("unsupported.gcp.dry_run"));
        LaunchRequest monthly = request(LaunchPricing::Subscription);
        monthly.subscriptionMonths = 1;
        QCOMPARE(provider->launch(monthly, nullptr).error().reason.key, std::string("error.cloud.feature_refused"));
        QVERIFY(t.requests.empty()); // nothing was sent for any of them

        ProviderContext noProject = contextFor(t);
        noProject.key.id = "someone@example.com";
        Result<LaunchResult> launched = makeGceProvider(std::move(noProject))->launch(request(), nullptr);
        QCOMPARE(launched.error().reason.key, std::string("error.gcp.no_project"));
    }

    void projectFromSettingsOrEmail()
    {
        ScriptedTransport t;
        t.answer("POST /token", tokenAnswer());
        t.answer("GET /compute/v1/projects/lab-42/aggregated/machineTypes", fixture("aggregated_machine_types.json"));
        Result<std::vector<std::string>> zones = makeGceProvider(contextFor(t, {{"project_id", "lab-42"}}))
                                                     ->zonesOffering(kRegion, "g2-standard-8", nullptr);
        QVERIFY(zones);
        QCOMPARE(*zones, (std::vector<std::string>{"us-central1-a", "us-central1-c"}));

        ScriptedTransport e;
        e.answer("POST /token", tokenAnswer());
        e.answer("GET " + kBase + "/aggregated/machineTypes", fixture("aggregated_machine_types.json"));
        e.answer("GET " + kBase + "/aggregated/acceleratorTypes", fixture("aggregated_accelerator_types.json"));
        zones = makeGceProvider(contextFor(e))->zonesOffering(kRegion, "n1-standard-8+1xT4", nullptr);
        QVERIFY(zones);
        QCOMPARE(*zones, (std::vector<std::string>{"us-central1-a"})); // both the type and the GPU
        QCOMPARE(ScriptedTransport::query(*e.find("GET " + kBase + "/aggregated/acceleratorTypes")),
                 std::string("filter=name%20%3D%20%22nvidia-tesla-t4%22"));
    }

    void listsOursOverTwoPages()
    {
        ScriptedTransport t;
        t.answer("POST /token", tokenAnswer());
        t.answer("GET " + kBase + "/aggregated/instances", fixture("aggregated_instances_page1.json"));
        t.answer("GET " + kBase + "/aggregated/instances", fixture("aggregated_instances_page2.json"));
        Result<std::vector<RemoteInstance>> ours = makeGceProvider(contextFor(t))->listOurs(kRegion, nullptr);
        QVERIFY(ours);
        QCOMPARE(ours->size(), std::size_t(2)); // not the lab's own notebook, not europe-west4's
        QCOMPARE((*ours)[0].instanceId, "us-central1-a/" + kToken);
        QCOMPARE((*ours)[1].instanceId, std::string("us-central1-c/gpuplan-fedcba9876543210fedcba98"));
        QCOMPARE(t.count("GET " + kBase + "/aggregated/instances"), 2);
        QCOMPARE(ScriptedTransport::query(t.requests.back()),
                 std::string("filter=labels.gpuplanner-token%3A*&maxResults=500&pageToken="
                             "CkMKQWdwdXBsYW4tMDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3"));
    }

    void terminateAndGone()
    {
        ScriptedTransport t;
        t.answer("POST /token", tokenAnswer());
        json deleting = doc("operation_insert_running.json");
        deleting["operationType"] = "delete";
        t.answer("DELETE " + kBase + "/zones/us-central1-a/instances/" + kToken, deleting.dump());
        auto provider = makeGceProvider(contextFor(t));
        QVERIFY(provider->terminate(kRegion, "us-central1-a/" + kToken, nullptr));
        const HttpRequest* sent = t.find("DELETE " + kBase + "/zones/us-central1-a/instances/" + kToken);
        QVERIFY(sent);
        QCOMPARE(ScriptedTransport::query(*sent), "requestId=" + gcp::requestId("delete us-central1-a/" + kToken));

        t.only("DELETE " + kBase + "/zones/us-central1-a/instances/" + kToken, fixture("error_not_found.json"), 404);
        QVERIFY(provider->terminate(kRegion, "us-central1-a/" + kToken, nullptr)); // already gone
        t.only("GET " + kBase + "/zones/us-central1-a/instances/" + kToken, fixture("error_not_found.json"), 404);
        QCOMPARE(provider->describe(kRegion, "us-central1-a/" + kToken, nullptr).error().code, ErrorCode::NotFound);

        t.only("DELETE " + kBase + "/zones/us-central1-a/instances/" + kToken, fixture("error_permission.json"), 403);
        Status denied = provider->terminate(kRegion, "us-central1-a/" + kToken, nullptr);
        QVERIFY(!denied);
        QCOMPARE(denied.error().code, ErrorCode::PermissionDenied);
        QCOMPARE(provider->terminate(kRegion, kToken, nullptr).error().reason.key,
                 std::string("error.gcp.instance_id_invalid"));
    }

    void tokenRefusedIsCredentials()
    {
        ScriptedTransport t;
        t.answer("POST /token",
                 json{{"error", "invalid_grant"}, {"error_description", "Invalid JWT Signature."}}.dump(),
                 400);
        Result<RemoteInstance> described =
            makeGceProvider(contextFor(t))->describe(kRegion, "us-central1-a/" + kToken, nullptr);
        QVERIFY(!described);
        QCOMPARE(described.error().code, ErrorCode::Credentials);
        QCOMPARE(t.count("GET " + kBase + "/zones/us-central1-a/instances/" + kToken), 0);
    }

    void descriptor()
    {
        const ProviderDescriptor& d = gcpDescriptor();
        QCOMPARE(d.id, std::string("gcp"));
        QVERIFY(d.canLaunch());
        QVERIFY(d.supports(CloudFeature::Spot));
        QVERIFY(d.supports(CloudFeature::ScheduledTerminate));
        QCOMPARE(d.unsupported.at(CloudFeature::Subscription).key, std::string("unsupported.gcp.subscription"));
        QCOMPARE(d.unsupported.at(CloudFeature::DryRun).key, std::string("unsupported.gcp.dry_run"));
        QCOMPARE(d.unsupported.at(CloudFeature::TerminateOnShutdown).key,
                 std::string("unsupported.gcp.terminate_on_shutdown"));
        ScriptedTransport t;
        QCOMPARE(d.make(contextFor(t))->id(), std::string("gcp"));
        Result<std::optional<PriceQuote>> quote = d.make(contextFor(t))->quotePrice(request(), nullptr);
        QVERIFY(quote);
        QVERIFY(!quote->has_value());
    }
};

QTEST_GUILESS_MAIN(TestGce)
#include "TestGce.moc"
