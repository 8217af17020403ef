// The Azure Virtual Machines provider without a network: the parsers read the documented response examples
// (tests/data/cloud/azure, README there names each page), broken answers give clear errors, the error mapping gives
// the stable code and advice, each ARM call carries the documented method, path, api-version and body, and a scripted
// transport answering per method and path (the token exchange included) drives whole launches through
// makeAzureVmProvider.

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <QTest>

#include <nlohmann/json.hpp>

#include "gpuplan/cloud/providers/azure/ArmApi.h"
#include "gpuplan/cloud/providers/azure/AzureProvider.h"
#include "gpuplan/net/Crypto.h"

using namespace gpuplan::core;
using nlohmann::json;

// Two JSON values compared, both printed when they differ (QCOMPARE cannot print nlohmann::json).
#define JCOMPARE(actual, expected) \
    QVERIFY2(json(actual) == json(expected), (json(actual).dump() + " != " + json(expected).dump()).c_str())

namespace {

const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci10ZXN0LWtleS1ub3QtcmVhbC0wMDAwMDAw lab@example";
const std::string kSub = "00000000-0000-0000-0000-00000000beef";
const std::string kRegion = "eastus";
const std::string kToken = "gpuplan-0123456789abcdef01234567";
const std::string kCidr = "203.0.113.7/32";
const std::string kNsg = "gpuplanner-ssh-203-0-113-7-32";
const std::string kGroup = "/subscriptions/" + kSub + "/resourceGroups/gpuplanner-eastus";
const std::string kVmPath = kGroup + "/providers/Microsoft.Compute/virtualMachines/" + kToken;
const std::string kNsgPath = kGroup + "/providers/Microsoft.Network/networkSecurityGroups/" + kNsg;
const std::string kVnetPath = kGroup + "/providers/Microsoft.Network/virtualNetworks/gpuplanner-vnet";
const std::string kNicPath = kGroup + "/providers/Microsoft.Network/networkInterfaces/" + kToken + "-nic";
const std::string kIpPath = kGroup + "/providers/Microsoft.Network/publicIPAddresses/" + kToken + "-ip";
const std::string kBase = "http://127.0.0.1:9";

std::string fixture(const std::string& name)
{
    std::ifstream in(GPUPLAN_SOURCE_DIR "/tests/data/cloud/azure/" + name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

json doc(const std::string& name)
{
    return json::parse(fixture(name));
}

// A VM as ARM answers it (the shape of VirtualMachine_Create_WithNetworkInterfaceConfiguration, with our names), with
// an instance view when `power` is not empty.
json vmBody(const std::string& name,
            const std::string& provisioning,
            const std::string& power = {},
            const std::string& zone = "1",
            const std::string& token = kToken)
{
    json vm = doc("vm_create_nic_config.json");
    vm["name"] = name;
    vm["id"] = kGroup + "/providers/Microsoft.Compute/virtualMachines/" + name;
    vm["location"] = kRegion;
    if (!zone.empty()) {
        vm["zones"] = json::array({zone});
    }
    if (!token.empty()) {
        vm["tags"] = {{"gpuplanner-token", token}};
    }
    vm["properties"]["provisioningState"] = provisioning;
    vm["properties"]["hardwareProfile"]["vmSize"] = "Standard_NC4as_T4_v3";
    vm["properties"]["timeCreated"] = "2026-12-03T19:05:00.1234567+00:00";
    vm["properties"]["networkProfile"]["networkInterfaces"][0]["id"] =
        kGroup + "/providers/Microsoft.Network/networkInterfaces/" + name + "-nic";
    if (!power.empty()) {
        json view = doc("vm_instance_view.json");
        view["statuses"][1]["code"] = "PowerState/" + power;
        vm["properties"]["instanceView"] = view;
    }
    return vm;
}

struct Answer
{
    int status = 200;
    std::string body;
    std::vector<HttpHeader> headers;
};

// Answers each request by "METHOD path" (the path without the query): a queue per key, the last answer repeats.
class ScriptedTransport final : public HttpTransport
{
public:
    void answer(const std::string& key, std::string body, int status = 200, std::vector<HttpHeader> headers = {})
    {
        m_answers[key].push_back({status, std::move(body), std::move(headers)});
    }
    void only(const std::string& key, std::string body, int status = 200, std::vector<HttpHeader> headers = {})
    {
        m_answers[key].clear();
        answer(key, std::move(body), status, std::move(headers));
    }

    using HttpTransport::send;
    Result<HttpResponse> send(const HttpRequest& request, const CancelToken*) override
    {
        requests.push_back(request);
        const std::string k = key(request);
        auto found = m_answers.find(k);
        if (found == m_answers.end() || found->second.empty()) {
            return HttpResponse{404, {}, json{{"error", {{"code", "NotFound"}, {"message", k}}}}.dump()};
        }
        Answer a = found->second.front();
        if (found->second.size() > 1) {
            found->second.pop_front();
        }
        a.headers.push_back({"Content-Type", "application/json"});
        return HttpResponse{a.status, a.headers, a.body};
    }

    static std::string pathOf(const HttpRequest& request)
    {
        std::string path = request.url.substr(request.url.find('/', std::string("http://").size()));
        return path.substr(0, path.find('?'));
    }
    static std::string key(const HttpRequest& request) { return request.method + " " + pathOf(request); }

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
    std::map<std::string, std::deque<Answer>> m_answers;
};

std::vector<std::chrono::milliseconds> g_slept;

ProviderContext contextFor(ScriptedTransport& transport, bool withSubscription = true)
{
    ProviderContext context;
    context.http = &transport;
    context.key = AccessKey{"11111111-2222-3333-4444-555555555555", "client-secret-example-not-real", {}};
    context.endpoint = kBase;
    context.settings["tenant_id"] = "tenant-example";
    if (withSubscription) {
        context.settings["subscription_id"] = kSub;
    }
    context.sleep = [](std::chrono::milliseconds ms) { g_slept.push_back(ms); };
    return context;
}

void answerToken(ScriptedTransport& t)
{
    t.answer("POST /tenant-example/oauth2/v2.0/token",
             json{{"token_type", "Bearer"}, {"expires_in", 3599}, {"access_token", "token-example"}}.dump());
}

std::vector<HttpHeader> asyncHeaders(const std::string& name, const std::string& retry = "3")
{
    return {{"Azure-AsyncOperation", kBase + "/subscriptions/" + kSub + "/providers/operations/" + name},
            {"Retry-After", retry}};
}

const std::string kOperations = "GET /subscriptions/" + kSub + "/providers/operations/";

// The token, and the newest version of the Ubuntu HPC image.
void answerImage(ScriptedTransport& t)
{
    answerToken(t);
    t.answer("GET /subscriptions/" + kSub
                 + "/providers/Microsoft.Compute/locations/eastus/publishers/microsoft-dsvm/artifacttypes/vmimage/"
                   "offers/ubuntu-hpc/skus/2204/versions",
             R"([{"name": "22.04.2025030701", "location": "eastus", "id": "/x"}])");
}

// A subscription with nothing of ours: resource group created (201), NSG and VNet absent then created, the VM created.
void answerFresh(ScriptedTransport& t)
{
    answerImage(t);
    t.answer("PUT /subscriptions/" + kSub + "/resourcegroups/gpuplanner-eastus", fixture("resource_group.json"), 201);
    t.answer("GET " + kNsgPath, fixture("error_vm_not_found.json"), 404);
    json nsg = doc("nsg_create_with_rule.json");
    nsg["id"] = kNsgPath;
    t.answer("PUT " + kNsgPath, nsg.dump(), 201, asyncHeaders("nsg"));
    t.answer(kOperations + "nsg", fixture("async_in_progress.json"));
    t.answer(kOperations + "nsg", fixture("async_succeeded.json"));
    t.answer("GET " + kVnetPath, fixture("error_vm_not_found.json"), 404);
    t.answer("PUT " + kVnetPath, fixture("vnet.json"), 201, asyncHeaders("vnet"));
    t.answer(kOperations + "vnet", fixture("async_succeeded.json"));
    t.answer("GET " + kVmPath, fixture("error_vm_not_found.json"), 404);
    t.answer("PUT " + kVmPath, vmBody(kToken, "Creating").dump(), 201, asyncHeaders("vm", "10"));
    t.answer(kOperations + "vm", fixture("async_in_progress.json"));
    t.answer(kOperations + "vm", fixture("async_succeeded.json"));
}

// Everything there already: the group (200), the NSG with our rule, the VNet with its subnet.
void answerReuse(ScriptedTransport& t)
{
    answerImage(t);
    t.answer("PUT /subscriptions/" + kSub + "/resourcegroups/gpuplanner-eastus", fixture("resource_group.json"), 200);
    const azure::Call put = azure::putNsgCall(kSub, kRegion, kNsg, kCidr);
    json nsg = put.body;
    nsg["id"] = kNsgPath;
    nsg["name"] = kNsg;
    t.answer("GET " + kNsgPath, nsg.dump());
    t.answer("GET " + kVnetPath, fixture("vnet.json"));
    t.answer("GET " + kVmPath, fixture("error_vm_not_found.json"), 404);
    t.answer("PUT " + kVmPath, vmBody(kToken, "Creating").dump(), 201, asyncHeaders("vm"));
    t.answer(kOperations + "vm", fixture("async_succeeded.json"));
}

LaunchRequest request(LaunchPricing pricing = LaunchPricing::OnDemand)
{
    LaunchRequest r;
    r.region = kRegion;
    r.zone = "1";
    r.instanceType = "Standard_NC4as_T4_v3";
    r.pricing = pricing;
    r.imageId = "";
    r.sshPublicKey = kPublicKey;
    r.sshSourceCidr = kCidr;
    r.userData = "#cloud-config\nruncmd: [echo hi]\n";
    r.clientToken = kToken;
    return r;
}

bool hasStep(const LaunchResult& result, const std::string& key)
{
    return std::any_of(result.steps.begin(), result.steps.end(), [&](const Reason& r) { return r.key == key; });
}

std::string query(const HttpRequest& r)
{
    const std::size_t q = r.url.find('?');
    return q == std::string::npos ? std::string() : r.url.substr(q + 1);
}

} // namespace

class TestAzureVm : public QObject
{
    Q_OBJECT

private slots:
    void init() { g_slept.clear(); }

    void callsCarryMethodPathAndApiVersion()
    {
        const HttpRequest skus = azure::buildRequest(azure::listSkusCall(kSub, kRegion), kBase);
        QCOMPARE(skus.method, std::string("GET"));
        QCOMPARE(skus.url,
                 kBase + "/subscriptions/" + kSub
                     + "/providers/Microsoft.Compute/skus?api-version=2021-07-01&$filter=location%20eq%20%27eastus%27");
        const HttpRequest subs = azure::buildRequest(azure::listSubscriptionsCall(), "");
        QCOMPARE(subs.url, std::string("https://management.azure.com/subscriptions?api-version=2022-12-01"));
        const HttpRequest images =
            azure::buildRequest(azure::listImageVersionsCall(kSub, kRegion, azure::defaultImage()), kBase);
        QVERIFY(images.url.find("/publishers/microsoft-dsvm/artifacttypes/vmimage/offers/ubuntu-hpc/skus/2204/"
                                "versions?api-version=2024-11-01&$top=1&$orderby=name%20desc")
                != std::string::npos);
        const HttpRequest group = azure::buildRequest(azure::putResourceGroupCall(kSub, kRegion), kBase);
        QCOMPARE(group.method, std::string("PUT"));
        QCOMPARE(group.url,
                 kBase + "/subscriptions/" + kSub + "/resourcegroups/gpuplanner-eastus?api-version=2025-03-01");
        JCOMPARE(json::parse(group.body), (json{{"location", "eastus"}, {"tags", {{"gpuplanner", "true"}}}}));
        QCOMPARE(group.header("Content-Type").value_or(""), std::string("application/json"));
        QCOMPARE(azure::buildRequest(azure::getNsgCall(kSub, kRegion, kNsg), kBase).url,
                 kBase + kNsgPath + "?api-version=2024-05-01");
        QCOMPARE(azure::buildRequest(azure::putSshRuleCall(kSub, kRegion, kNsg, kCidr), kBase).url,
                 kBase + kNsgPath + "/securityRules/ssh?api-version=2024-05-01");
        QCOMPARE(azure::buildRequest(azure::getVmCall(kSub, kRegion, kToken, true), kBase).url,
                 kBase + kVmPath + "?api-version=2024-11-01&$expand=instanceView");
        QCOMPARE(azure::buildRequest(azure::listVmsCall(kSub, kRegion), kBase).url,
                 kBase + kGroup + "/providers/Microsoft.Compute/virtualMachines?api-version=2024-11-01");
        const HttpRequest del = azure::buildRequest(azure::deleteVmCall(kSub, kRegion, kToken), kBase);
        QCOMPARE(del.method, std::string("DELETE"));
        QVERIFY(del.body.empty());
        QCOMPARE(azure::buildRequest(azure::getByIdCall("NetworkInterfaces_Get", kNicPath, "2024-05-01"), kBase).url,
                 kBase + kNicPath + "?api-version=2024-05-01");
        // An operation URL is taken as ARM gave it; only ARM's host gets the token.
        QVERIFY(azure::isArmUrl(kBase + "/subscriptions/x/operations/1?api-version=1", kBase));
        QVERIFY(!azure::isArmUrl("https://evil.example/subscriptions/x", kBase));
        QVERIFY(!azure::isArmUrl("http://127.0.0.1:99/subscriptions/x", kBase));
        QVERIFY(azure::isArmUrl("https://management.azure.com/subscriptions/x", ""));
    }

    void nsgAndVnetBodies()
    {
        const json nsg = azure::putNsgCall(kSub, kRegion, kNsg, kCidr).body;
        JCOMPARE(nsg["location"], json("eastus"));
        JCOMPARE(nsg["tags"], (json{{"gpuplanner", "true"}}));
        const json& rule = nsg["properties"]["securityRules"][0];
        JCOMPARE(rule["name"], json("ssh"));
        const json& p = rule["properties"];
        JCOMPARE(p["protocol"], json("Tcp"));
        JCOMPARE(p["sourcePortRange"], json("*"));
        JCOMPARE(p["destinationPortRange"], json("22"));
        JCOMPARE(p["sourceAddressPrefix"], json(kCidr));
        JCOMPARE(p["destinationAddressPrefix"], json("*"));
        JCOMPARE(p["access"], json("Allow"));
        JCOMPARE(p["priority"], json(1000));
        JCOMPARE(p["direction"], json("Inbound"));
        JCOMPARE(azure::putSshRuleCall(kSub, kRegion, kNsg, kCidr).body["properties"], p);
        const json vnet = azure::putVnetCall(kSub, kRegion).body;
        JCOMPARE(vnet["properties"]["addressSpace"]["addressPrefixes"], (json::array({"10.42.0.0/16"})));
        JCOMPARE(vnet["properties"]["subnets"][0]["name"], json("default"));
        JCOMPARE(vnet["properties"]["subnets"][0]["properties"]["addressPrefix"], json("10.42.0.0/24"));
        QCOMPARE(azure::nsgName("203.0.113.7/32"), std::string("gpuplanner-ssh-203-0-113-7-32"));
        QCOMPARE(azure::subnetId("s", "westus2"),
                 std::string("/subscriptions/s/resourceGroups/gpuplanner-westus2/providers/Microsoft.Network/"
                             "virtualNetworks/gpuplanner-vnet/subnets/default"));
    }

    void vmBodyOnDemandAndSpot()
    {
        const azure::VmPlacement placement{kSub, azure::defaultImage(), "nsg-id", "subnet-id"};
        LaunchRequest r = request();
        r.tags = {{"gpuplanner-plan", "plan-7"}};
        Result<azure::Call> call = azure::putVmCall(r, placement);
        QVERIFY(call);
        QCOMPARE(call->method, std::string("PUT"));
        QCOMPARE(azure::buildRequest(*call, kBase).url, kBase + kVmPath + "?api-version=2024-11-01");
        const json& b = call->body;
        JCOMPARE(b["location"], json("eastus"));
        JCOMPARE(b["zones"], json::array({"1"}));
        JCOMPARE(b["tags"], (json{{"gpuplanner-plan", "plan-7"}, {"gpuplanner-token", kToken}}));
        const json& p = b["properties"];
        JCOMPARE(p["hardwareProfile"]["vmSize"], json("Standard_NC4as_T4_v3"));
        JCOMPARE(
            p["storageProfile"]["imageReference"],
            (json{{"publisher", "microsoft-dsvm"}, {"offer", "ubuntu-hpc"}, {"sku", "2204"}, {"version", "latest"}}));
        const json& disk = p["storageProfile"]["osDisk"];
        JCOMPARE(disk["createOption"], json("FromImage"));
        JCOMPARE(disk["deleteOption"], json("Delete"));
        JCOMPARE(disk["managedDisk"]["storageAccountType"], json("Premium_LRS"));
        JCOMPARE(disk["diskSizeGB"], json(200));
        const json& os = p["osProfile"];
        JCOMPARE(os["computerName"], json(kToken));
        JCOMPARE(os["adminUsername"], json("ubuntu"));
        JCOMPARE(os["linuxConfiguration"]["disablePasswordAuthentication"], json(true));
        JCOMPARE(os["linuxConfiguration"]["ssh"]["publicKeys"][0],
                 (json{{"path", "/home/ubuntu/.ssh/authorized_keys"}, {"keyData", kPublicKey}}));
        JCOMPARE(os["customData"], json(base64(r.userData)));
        const json& net = p["networkProfile"];
        JCOMPARE(net["networkApiVersion"], json("2020-11-01"));
        const json& nic = net["networkInterfaceConfigurations"][0];
        JCOMPARE(nic["name"], json(kToken + "-nic"));
        JCOMPARE(nic["properties"]["primary"], json(true));
        JCOMPARE(nic["properties"]["deleteOption"], json("Delete"));
        JCOMPARE(nic["properties"]["networkSecurityGroup"]["id"], json("nsg-id"));
        const json& ip = nic["properties"]["ipConfigurations"][0]["properties"];
        JCOMPARE(ip["subnet"]["id"], json("subnet-id"));
        JCOMPARE(ip["publicIPAddressConfiguration"]["name"], json(kToken + "-ip"));
        JCOMPARE(ip["publicIPAddressConfiguration"]["sku"]["name"], json("Standard"));
        JCOMPARE(ip["publicIPAddressConfiguration"]["properties"]["deleteOption"], json("Delete"));
        JCOMPARE(ip["publicIPAddressConfiguration"]["properties"]["publicIPAllocationMethod"], json("Static"));
        QVERIFY(!p.contains("priority"));
        QVERIFY(!p.contains("evictionPolicy"));
        QVERIFY(!p.contains("billingProfile"));

        // No zone: no "zones" at all.
        r.zone = "";
        QVERIFY(!azure::putVmCall(r, placement)->body.contains("zones"));

        LaunchRequest spot = request(LaunchPricing::Spot);
        json s = azure::putVmCall(spot, placement)->body["properties"];
        JCOMPARE(s["priority"], json("Spot"));
        JCOMPARE(s["evictionPolicy"], json("Delete"));
        JCOMPARE(s["billingProfile"]["maxPrice"], json(-1.0));
        spot.spotPriceLimit = 0.25;
        s = azure::putVmCall(spot, placement)->body["properties"];
        JCOMPARE(s["billingProfile"]["maxPrice"], json(0.25));

        // An ARM image id goes as imageReference.id.
        Result<azure::ImageReference> id = azure::parseImage("/subscriptions/s/resourceGroups/g/providers/"
                                                             "Microsoft.Compute/images/mine");
        QVERIFY(id);
        const azure::VmPlacement byId{kSub, *id, "n", "s"};
        JCOMPARE(azure::putVmCall(request(), byId)->body["properties"]["storageProfile"]["imageReference"],
                 (json{{"id", id->id}}));
        Result<azure::ImageReference> urn = azure::parseImage("Canonical:ubuntu-24_04-lts:server:latest");
        QVERIFY(urn);
        QCOMPARE(urn->offer, std::string("ubuntu-24_04-lts"));
        QCOMPARE(azure::parseImage("ubuntu").error().reason.key, std::string("error.azure.image_invalid"));
        QCOMPARE(azure::parseImage("a::c:d").error().reason.key, std::string("error.azure.image_invalid"));
    }

    void vmBodyLimits()
    {
        const azure::VmPlacement placement{kSub, azure::defaultImage(), "n", "s"};
        LaunchRequest r = request();
        r.userData = std::string(65535, 'x');
        Result<azure::Call> atLimit = azure::putVmCall(r, placement);
        QVERIFY(atLimit);
        JCOMPARE(atLimit->body["properties"]["osProfile"]["customData"].get<std::string>().size(), std::size_t(87380));
        r.userData += "x";
        Result<azure::Call> over = azure::putVmCall(r, placement);
        QVERIFY(!over);
        QCOMPARE(over.error().reason.key, std::string("error.azure.user_data_too_big"));
        QCOMPARE(over.error().reason.params.at("bytes"), std::string("65536"));

        r = request();
        r.userData.clear();
        QVERIFY(!azure::putVmCall(r, placement)->body["properties"]["osProfile"].contains("customData"));
        r.clientToken.clear();
        QCOMPARE(azure::putVmCall(r, placement).error().reason.key, std::string("error.azure.no_client_token"));
        r.clientToken = "gpuplan_bad name";
        QCOMPARE(azure::putVmCall(r, placement).error().reason.key, std::string("error.azure.vm_name_invalid"));
        r.clientToken = std::string(65, 'a');
        QCOMPARE(azure::putVmCall(r, placement).error().reason.key, std::string("error.azure.vm_name_invalid"));
        r = request();
        r.tags = {{"a/b", "c"}};
        QCOMPARE(azure::putVmCall(r, placement).error().reason.key, std::string("error.azure.tag_invalid"));
        r = request();
        r.sshPublicKey.clear();
        QCOMPARE(azure::putVmCall(r, placement).error().reason.key, std::string("error.azure.no_ssh_key"));
    }

    void parsesDocumentedAnswers()
    {
        Result<azure::SkuPage> skus = azure::parseSkus(fixture("skus_region.json"));
        QVERIFY(skus);
        QCOMPARE(skus->skus.size(), std::size_t(2));
        QVERIFY(skus->nextLink.empty());
        JCOMPARE(skus->skus[0].family, std::string("standardA0_A7Family"));
        QCOMPARE(azure::sizeOffer(skus->skus, "Standard_A0", "westus").zones, (std::vector<std::string>{"1", "2"}));
        QCOMPARE(azure::sizeOffer(skus->skus, "standard_a1", "WestUS").zones,
                 (std::vector<std::string>{"1", "2", "3"}));
        QVERIFY(!azure::sizeOffer(skus->skus, "Standard_A1", "eastus").listed);
        QVERIFY(azure::sizeOffer(skus->skus, "Standard_NC4as_T4_v3", "westus").zones.empty());

        // The documented restriction shapes (ResourceSkuRestrictions): a zone restricted, the whole location
        // restricted, and a size offered without zones.
        json restricted = doc("skus_region.json");
        restricted["value"][1]["restrictions"] =
            json::array({{{"type", "Zone"},
                          {"values", {"westus"}},
                          {"restrictionInfo", {{"locations", {"westus"}}, {"zones", {"3"}}}},
                          {"reasonCode", "NotAvailableForSubscription"}}});
        restricted["value"][0]["restrictions"] = json::array({{{"type", "Location"},
                                                               {"values", {"westus"}},
                                                               {"restrictionInfo", {{"locations", {"westus"}}}},
                                                               {"reasonCode", "QuotaId"}}});
        Result<azure::SkuPage> r = azure::parseSkus(restricted.dump());
        QVERIFY(r);
        QCOMPARE(azure::sizeOffer(r->skus, "Standard_A1", "westus").zones, (std::vector<std::string>{"1", "2"}));
        const azure::SizeOffer location = azure::sizeOffer(r->skus, "Standard_A0", "westus");
        QVERIFY(location.listed);
        QVERIFY(location.zones.empty());
        QCOMPARE(location.locationRestriction, std::string("QuotaId"));
        json zoneless = doc("skus_region.json");
        zoneless["value"][1]["locationInfo"][0].erase("zones");
        QCOMPARE(azure::sizeOffer(azure::parseSkus(zoneless.dump())->skus, "Standard_A1", "westus").zones,
                 (std::vector<std::string>{""}));

        Result<azure::Nsg> nsg = azure::parseNsg(fixture("nsg_create_with_rule.json"), "NetworkSecurityGroups_Get");
        QVERIFY(nsg);
        QCOMPARE(nsg->name, std::string("testnsg"));
        QCOMPARE(nsg->provisioningState, std::string("Succeeded"));
        QCOMPARE(nsg->rules.size(), std::size_t(1));
        JCOMPARE(nsg->rules[0].destinationPorts, (std::vector<std::string>{"80"}));
        JCOMPARE(nsg->rules[0].priority, 130);
        QVERIFY(!azure::allowsSshFrom(nsg->rules, "*")); // port 80 only
        std::vector<azure::SecurityRule> rules{{"ssh", "Tcp", "Allow", "Inbound", {kCidr}, {"22"}, 1000}};
        QVERIFY(azure::allowsSshFrom(rules, kCidr));
        QVERIFY(!azure::allowsSshFrom(rules, "198.51.100.1/32"));
        rules[0].destinationPorts = {"20-30"};
        QVERIFY(azure::allowsSshFrom(rules, kCidr));
        rules[0].access = "Deny";
        QVERIFY(!azure::allowsSshFrom(rules, kCidr));
        rules[0] = {"ssh", "Udp", "Allow", "Inbound", {kCidr}, {"22"}, 1000};
        QVERIFY(!azure::allowsSshFrom(rules, kCidr));

        Result<azure::Vm> created =
            azure::parseVm(fixture("vm_create_nic_config.json"), "VirtualMachines_CreateOrUpdate");
        QVERIFY(created);
        QCOMPARE(created->name, std::string("myVM"));
        QCOMPARE(created->provisioningState, std::string("Creating"));
        QCOMPARE(created->vmSize, std::string("Standard_D1_v2"));
        QVERIFY(created->nicId.ends_with("/networkInterfaces/toBeCreatedNetworkInterface"));
        QVERIFY(created->clientToken.empty());
        QCOMPARE(azure::toRemote(*created, "westus").state, InstanceState::Pending);

        json withView = doc("vm_create_nic_config.json");
        withView["properties"]["provisioningState"] = "Succeeded";
        withView["properties"]["instanceView"] = doc("vm_instance_view.json");
        Result<azure::Vm> running = azure::parseVm(withView.dump(), "VirtualMachines_Get");
        QVERIFY(running);
        QCOMPARE(running->powerState, std::string("running"));
        QCOMPARE(azure::toRemote(*running, "westus").state, InstanceState::Running);

        Result<std::string> ipId = azure::parseNicPublicIpId(fixture("nic_get.json"));
        QVERIFY(ipId);
        QCOMPARE(*ipId,
                 std::string("/subscriptions/subid/resourceGroups/rg1/providers/Microsoft.Network/"
                             "publicIPAddresses/test-ip"));
        Result<std::string> ip = azure::parsePublicIpAddress(fixture("public_ip_get.json"));
        QVERIFY(ip);
        QVERIFY(ip->empty()); // the example's dynamic address is not assigned yet
        json assigned = doc("public_ip_get.json");
        assigned["properties"]["ipAddress"] = "20.0.113.5";
        QCOMPARE(*azure::parsePublicIpAddress(assigned.dump()), std::string("20.0.113.5"));

        Result<std::vector<azure::Subscription>> subs = azure::parseSubscriptions(fixture("subscriptions.json"));
        QVERIFY(subs);
        QCOMPARE(subs->size(), std::size_t(1));
        QCOMPARE(*azure::chooseSubscription(*subs), std::string("291bba3f-e0a5-47bc-a099-3bdcb2a50a05"));
        Result<azure::Vnet> vnet = azure::parseVnet(fixture("vnet.json"), "VirtualNetworks_Get");
        QVERIFY(vnet);
        QCOMPARE(vnet->subnets.size(), std::size_t(1));
        JCOMPARE(vnet->subnets[0].first, std::string("default"));
        QCOMPARE(*azure::parseResourceGroup(fixture("resource_group.json")), std::string("Succeeded"));
        Result<azure::AsyncOperation> failed =
            azure::parseAsyncOperation(fixture("async_allocation_failed.json"), "VirtualMachines_CreateOrUpdate");
        QVERIFY(failed);
        QVERIFY(failed->done());
        QCOMPARE(failed->errorCode, std::string("AllocationFailed"));
        QVERIFY(!azure::parseAsyncOperation(fixture("async_in_progress.json"), "x")->done());
    }

    void states_data()
    {
        QTest::addColumn<QString>("provisioning");
        QTest::addColumn<QString>("power");
        QTest::addColumn<int>("state");
        QTest::newRow("creating") << "Creating"
                                  << "" << int(InstanceState::Pending);
        QTest::newRow("starting") << "Succeeded"
                                  << "starting" << int(InstanceState::Pending);
        QTest::newRow("running") << "Succeeded"
                                 << "running" << int(InstanceState::Running);
        QTest::newRow("stopping") << "Succeeded"
                                  << "stopping" << int(InstanceState::Stopping);
        QTest::newRow("deallocating") << "Updating"
                                      << "deallocating" << int(InstanceState::Stopping);
        QTest::newRow("stopped") << "Succeeded"
                                 << "stopped" << int(InstanceState::Stopped);
        QTest::newRow("deallocated") << "Succeeded"
                                     << "deallocated" << int(InstanceState::Stopped);
        QTest::newRow("deleting") << "Deleting"
                                  << "running" << int(InstanceState::Stopping);
        QTest::newRow("failed") << "Failed"
                                << "" << int(InstanceState::Failed);
        QTest::newRow("no view") << "Succeeded"
                                 << "" << int(InstanceState::Pending);
    }
    void states()
    {
        QFETCH(QString, provisioning);
        QFETCH(QString, power);
        QFETCH(int, state);
        QCOMPARE(int(azure::stateOf(provisioning.toStdString(), power.toStdString())), state);
    }

    void brokenAnswersNameCallAndField()
    {
        const auto check = [](const Error& e, const std::string& key, const std::string& field = {}) {
            QCOMPARE(e.code, ErrorCode::ProviderRefused);
            QCOMPARE(e.reason.key, key);
            QVERIFY(!e.reason.params.at("action").empty());
            QCOMPARE(e.reason.params.at("provider"), std::string("azure"));
            QCOMPARE(e.where, "azure " + e.reason.params.at("action"));
            if (!field.empty()) {
                QCOMPARE(e.reason.params.at("field"), field);
            }
        };
        check(azure::parseSkus("<html>").error(), "error.answer.not_json");
        check(azure::parseSkus("[]").error(), "error.answer.not_object");
        check(azure::parseSkus("{}").error(), "error.answer.missing", "value");
        check(azure::parseSkus(R"({"value": 3})").error(), "error.answer.not_list", "value");
        check(azure::parseSubscriptions(R"({"value": [{"displayName": "x"}]})").error(),
              "error.answer.missing",
              "value[].subscriptionId");
        check(azure::parseImageVersions("{}").error(), "error.answer.not_list", "(answer)");
        check(azure::parseImageVersions(R"([{"location": "eastus"}])").error(), "error.answer.missing", "[].name");
        check(azure::parseNsg(R"({"name": "x"})", "NetworkSecurityGroups_Get").error(), "error.answer.missing", "id");
        check(
            azure::parseNsg(R"({"id": "x", "properties": {"securityRules": 1}})", "NetworkSecurityGroups_Get").error(),
            "error.answer.not_list",
            "properties.securityRules");
        check(azure::parseVm(R"({"id": "x"})", "VirtualMachines_Get").error(), "error.answer.missing", "name");
        check(azure::parseVm(R"({"name": "x"})", "VirtualMachines_Get").error(), "error.answer.missing", "properties");
        check(azure::parseVms(R"({"value": [5]})").error(), "error.answer.invalid", "value[]");
        QCOMPARE(azure::parseVms(R"({"value": [5]})").error().reason.params.at("found"), std::string("number"));
        check(azure::parseAsyncOperation("{}", "VirtualMachines_CreateOrUpdate").error(),
              "error.answer.missing",
              "status");
        check(azure::parseNicPublicIpId(R"({"properties": {}})").error(),
              "error.answer.missing",
              "properties.ipConfigurations");
        check(azure::parsePublicIpAddress(R"({"name": "x"})").error(), "error.answer.missing", "properties");
        check(azure::parseVnet("null", "VirtualNetworks_Get").error(), "error.answer.not_object");
        check(azure::parseResourceGroup("{}").error(), "error.answer.missing", "id");
    }

    void errorMapping_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("spot");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("key");
        QTest::newRow("sku") << 409 << "error_sku_not_available.json" << false << int(ErrorCode::InsufficientCapacity)
                             << "error.azure.size_not_available";
        QTest::newRow("quota") << 409 << "error_quota.json" << false << int(ErrorCode::QuotaExceeded)
                               << "error.azure.quota";
        QTest::newRow("spot quota") << 409 << "error_quota.json" << true << int(ErrorCode::QuotaExceeded)
                                    << "error.azure.spot_quota";
        QTest::newRow("authorization") << 403 << "error_authorization_failed.json" << false
                                       << int(ErrorCode::PermissionDenied) << "error.azure.permission_missing";
        QTest::newRow("token") << 401 << "error_invalid_token.json" << false << int(ErrorCode::Credentials)
                               << "error.azure.token_refused";
        QTest::newRow("throttled") << 429 << "error_throttled.json" << false << int(ErrorCode::Throttled)
                                   << "error.azure.throttled";
        QTest::newRow("registration") << 409 << "error_missing_registration.json" << false
                                      << int(ErrorCode::ProviderRefused) << "error.azure.provider_not_registered";
        QTest::newRow("group") << 404 << "error_resource_group_not_found.json" << false << int(ErrorCode::NotFound)
                               << "error.azure.not_found";
        QTest::newRow("vm") << 404 << "error_vm_not_found.json" << false << int(ErrorCode::NotFound)
                            << "error.azure.not_found";
    }
    void errorMapping()
    {
        QFETCH(int, status);
        QFETCH(QString, file);
        QFETCH(bool, spot);
        QFETCH(int, code);
        QFETCH(QString, key);
        azure::ErrorContext c;
        c.action = "VirtualMachines_CreateOrUpdate";
        c.region = kRegion;
        c.instanceType = "Standard_NC4as_T4_v3";
        c.zone = "1";
        c.spot = spot;
        std::optional<Error> e =
            azure::mapError(HttpResponse{status, {{"Retry-After", "17"}}, fixture(file.toStdString())}, c);
        QVERIFY(e);
        QCOMPARE(int(e->code), code);
        QCOMPARE(QString::fromStdString(e->reason.key), key);
        QCOMPARE(e->httpStatus, status);
        QVERIFY(!e->providerCode.empty());
        QVERIFY(!e->reason.params.at("said").empty());
        QCOMPARE(e->reason.params.at("action"), c.action);
        if (key == "error.azure.quota" || key == "error.azure.spot_quota") {
            QCOMPARE(e->reason.params.at("family"), std::string("standardNCASv3_T4Family"));
            QCOMPARE(e->reason.params.at("limit"), std::string("0"));
            QCOMPARE(e->reason.params.at("usage"), std::string("0"));
            QCOMPARE(e->reason.params.at("required"), std::string("4"));
        }
        if (key == "error.azure.permission_missing") {
            QCOMPARE(e->reason.params.at("permission"), std::string("Microsoft.Compute/virtualMachines/write"));
        }
        if (key == "error.azure.throttled") {
            QCOMPARE(e->reason.params.at("retry_after"), std::string("17"));
        }
        if (key == "error.azure.provider_not_registered") {
            QCOMPARE(e->reason.params.at("namespace"), std::string("Microsoft.Compute"));
        }
    }

    void errorsWithoutBodyAndOperations()
    {
        azure::ErrorContext c;
        c.action = "VirtualMachines_Get";
        QVERIFY(!azure::mapError(HttpResponse{200, {}, "{}"}, c));
        QCOMPARE(azure::mapError(HttpResponse{429, {{"Retry-After", "5"}}, ""}, c)->reason.params.at("retry_after"),
                 std::string("5"));
        QCOMPARE(azure::mapError(HttpResponse{404, {}, ""}, c)->code, ErrorCode::NotFound);
        std::optional<Error> gateway = azure::mapError(HttpResponse{502, {}, "<html>bad gateway</html>"}, c);
        QCOMPARE(gateway->code, ErrorCode::HttpStatus);
        QCOMPARE(gateway->reason.params.at("status"), std::string("502"));

        c.action = "VirtualMachines_CreateOrUpdate";
        c.zone = "1";
        for (const char* capacity : {"AllocationFailed", "ZonalAllocationFailed", "OverconstrainedAllocationRequest"}) {
            const Error e = azure::operationFailure(azure::AsyncOperation{"Failed", capacity, "no room"}, c);
            QCOMPARE(e.code, ErrorCode::InsufficientCapacity);
            QCOMPARE(e.reason.key, std::string("error.azure.no_capacity"));
            QCOMPARE(e.providerCode, std::string(capacity));
            QCOMPARE(e.reason.params.at("zone"), std::string("1"));
        }
        const Error quota = azure::operationFailure(
            azure::AsyncOperation{"Failed", "OperationNotAllowed", doc("error_quota.json")["error"]["message"]}, c);
        QCOMPARE(quota.code, ErrorCode::QuotaExceeded);
        const Error other = azure::operationFailure(azure::AsyncOperation{"Failed", "OSProvisioningTimedOut", "x"}, c);
        QCOMPARE(other.code, ErrorCode::ProviderRefused);
        QCOMPARE(other.reason.key, std::string("error.azure.operation_failed"));
        const Error canceled = azure::operationFailure(azure::AsyncOperation{"Canceled", "", ""}, c);
        QCOMPARE(canceled.reason.key, std::string("error.azure.operation_failed"));
        QCOMPARE(canceled.reason.params.at("status"), std::string("Canceled"));

        // A generic outer code takes its first detail's.
        std::optional<ApiError> nested =
            azure::apiError(R"({"error": {"code": "BadRequest", "message": "m",)"
                            R"( "details": [{"code": "SkuNotAvailable", "message": "d"}]}})");
        QCOMPARE(nested->code, std::string("SkuNotAvailable"));
        QCOMPARE(nested->message, std::string("d"));
        QVERIFY(!azure::apiError("not json"));
        QCOMPARE(azure::quotaFromMessage("exceeding approved Total Regional Cores quota. Current Limit: 10").family,
                 std::string("Total Regional"));
    }

    void launchOnFreshSubscription()
    {
        ScriptedTransport t;
        answerFresh(t);
        auto provider = makeAzureVmProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY2(launched, launched ? "" : describe(launched.error()).c_str());
        QCOMPARE(launched->instanceId, kToken);
        QCOMPARE(launched->zone, std::string("1"));
        QCOMPARE(launched->state, InstanceState::Pending);
        for (const char* step : {"step.azure.image",
                                 "step.azure.ssh_key_in_vm",
                                 "step.azure.resource_group_created",
                                 "step.azure.nsg_created",
                                 "step.azure.vnet_created",
                                 "step.azure.vm_created",
                                 "step.launched"}) {
            QVERIFY2(hasStep(*launched, step), step);
        }
        // The token once, then Bearer on every ARM call.
        QCOMPARE(t.count("POST /tenant-example/oauth2/v2.0/token"), 1);
        const HttpRequest* tokenCall = t.find("POST /tenant-example/oauth2/v2.0/token");
        QVERIFY(tokenCall->body.find("scope=https%3A%2F%2Fmanagement.azure.com%2F.default") != std::string::npos);
        const HttpRequest* put = t.find("PUT " + kVmPath);
        QVERIFY(put);
        QCOMPARE(put->header("Authorization").value_or(""), std::string("Bearer token-example"));
        QCOMPARE(query(*put), std::string("api-version=2024-11-01"));
        const json body = json::parse(put->body);
        JCOMPARE(body["properties"]["networkProfile"]["networkInterfaceConfigurations"][0]["properties"]
                     ["networkSecurityGroup"]["id"],
                 json(kNsgPath));
        JCOMPARE(body["properties"]["networkProfile"]["networkInterfaceConfigurations"][0]["properties"]
                     ["ipConfigurations"][0]["properties"]["subnet"]["id"],
                 json(kVnetPath + "/subnets/default"));
        JCOMPARE(
            json::parse(
                t.find("PUT " + kNsgPath)->body)["properties"]["securityRules"][0]["properties"]["sourceAddressPrefix"],
            json(kCidr));
        // Each operation polled until done, waiting as Retry-After said.
        QCOMPARE(t.count(kOperations + "nsg"), 2);
        QCOMPARE(t.count(kOperations + "vnet"), 1);
        QCOMPARE(t.count(kOperations + "vm"), 2);
        QVERIFY(std::count(g_slept.begin(), g_slept.end(), std::chrono::milliseconds(10000)) >= 1);
        QVERIFY(std::count(g_slept.begin(), g_slept.end(), std::chrono::milliseconds(3000)) >= 2);
        QCOMPARE(t.count("DELETE " + kVmPath), 0);
    }

    void launchReusingAll()
    {
        ScriptedTransport t;
        answerReuse(t);
        auto provider = makeAzureVmProvider(contextFor(t));
        LaunchRequest r = request();
        r.imageId = "Canonical:ubuntu-24_04-lts:server:latest";
        Result<LaunchResult> launched = provider->launch(r, nullptr);
        QVERIFY2(launched, launched ? "" : describe(launched.error()).c_str());
        QVERIFY(hasStep(*launched, "step.image_given"));
        QVERIFY(hasStep(*launched, "step.azure.resource_group_found"));
        QVERIFY(hasStep(*launched, "step.azure.nsg_found"));
        QVERIFY(hasStep(*launched, "step.azure.vnet_found"));
        QCOMPARE(t.count("PUT " + kNsgPath), 0);
        QCOMPARE(t.count("PUT " + kVnetPath), 0);
        QCOMPARE(t.count("PUT " + kNsgPath + "/securityRules/ssh"), 0);
        JCOMPARE(json::parse(t.find("PUT " + kVmPath)->body)["properties"]["storageProfile"]["imageReference"]["offer"],
                 json("ubuntu-24_04-lts"));
    }

    void nsgWithoutItsRuleIsRepaired()
    {
        ScriptedTransport t;
        answerReuse(t);
        json nsg = doc("nsg_create_with_rule.json");
        nsg["id"] = kNsgPath;
        t.only("GET " + kNsgPath, nsg.dump());
        t.answer("PUT " + kNsgPath + "/securityRules/ssh", "{}", 201, asyncHeaders("rule"));
        t.answer(kOperations + "rule", fixture("async_succeeded.json"));
        auto provider = makeAzureVmProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY2(launched, launched ? "" : describe(launched.error()).c_str());
        QVERIFY(hasStep(*launched, "step.azure.nsg_rule_repaired"));
        const HttpRequest* rule = t.find("PUT " + kNsgPath + "/securityRules/ssh");
        QVERIFY(rule);
        JCOMPARE(json::parse(rule->body)["properties"]["sourceAddressPrefix"], json(kCidr));
        QCOMPARE(t.count(kOperations + "rule"), 1);
    }

    void allocationFailedIsCapacityAndTheVmIsDeleted()
    {
        ScriptedTransport t;
        answerReuse(t);
        t.only(kOperations + "vm", fixture("async_allocation_failed.json"));
        t.answer("DELETE " + kVmPath, "", 202);
        auto provider = makeAzureVmProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY(!launched);
        QCOMPARE(launched.error().code, ErrorCode::InsufficientCapacity);
        QCOMPARE(launched.error().providerCode, std::string("AllocationFailed"));
        QCOMPARE(launched.error().reason.params.at("zone"), std::string("1"));
        QCOMPARE(t.count("DELETE " + kVmPath), 1);
    }

    void quotaAtThePutIsQuotaAndNothingIsDeleted()
    {
        ScriptedTransport t;
        answerReuse(t);
        t.only("PUT " + kVmPath, fixture("error_quota.json"), 409);
        auto provider = makeAzureVmProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(LaunchPricing::Spot), nullptr);
        QVERIFY(!launched);
        QCOMPARE(launched.error().code, ErrorCode::QuotaExceeded);
        QCOMPARE(launched.error().reason.key, std::string("error.azure.spot_quota"));
        QCOMPARE(t.count("DELETE " + kVmPath), 0);
    }

    void resentPutFindsTheVmInsteadOfASecond()
    {
        ScriptedTransport t;
        answerReuse(t);
        t.only("GET " + kVmPath, vmBody(kToken, "Creating").dump());
        auto provider = makeAzureVmProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY(launched);
        QCOMPARE(launched->instanceId, kToken);
        QVERIFY(hasStep(*launched, "step.azure.vm_found"));
        QCOMPARE(t.count("PUT " + kVmPath), 0);
    }

    void dryRunAndSubscriptionAreRefused()
    {
        ScriptedTransport t;
        answerFresh(t);
        auto provider = makeAzureVmProvider(contextFor(t));
        LaunchRequest dry = request();
        dry.dryRun = true;
        Result<LaunchResult> refused = provider->launch(dry, nullptr);
        QVERIFY(!refused);
        QCOMPARE(refused.error().reason.params.at("why_key"), std::string("unsupported.azure.dry_run"));
        Result<LaunchResult> prepaid = provider->launch(request(LaunchPricing::Subscription), nullptr);
        QVERIFY(!prepaid);
        QCOMPARE(prepaid.error().reason.params.at("why_key"), std::string("unsupported.azure.subscription"));
        QVERIFY(t.requests.empty());
    }

    void zonesFromSkus()
    {
        ScriptedTransport t;
        answerToken(t);
        json skus = doc("skus_region.json");
        skus["value"][1]["name"] = "Standard_NC4as_T4_v3";
        skus["value"][1]["locations"] = {"eastus"};
        skus["value"][1]["locationInfo"][0]["location"] = "eastus";
        skus["value"][1]["restrictions"] =
            json::array({{{"type", "Zone"},
                          {"values", {"eastus"}},
                          {"restrictionInfo", {{"locations", {"eastus"}}, {"zones", {"2"}}}},
                          {"reasonCode", "NotAvailableForSubscription"}}});
        t.answer("GET /subscriptions/" + kSub + "/providers/Microsoft.Compute/skus", skus.dump());
        auto provider = makeAzureVmProvider(contextFor(t));
        Result<std::vector<std::string>> zones = provider->zonesOffering(kRegion, "Standard_NC4as_T4_v3", nullptr);
        QVERIFY(zones);
        QCOMPARE(*zones, (std::vector<std::string>{"1", "3"}));
        QCOMPARE(query(t.requests.back()), std::string("api-version=2021-07-01&$filter=location%20eq%20%27eastus%27"));

        skus["value"][1]["restrictions"][0]["type"] = "Location";
        t.only("GET /subscriptions/" + kSub + "/providers/Microsoft.Compute/skus", skus.dump());
        Result<std::vector<std::string>> restricted = provider->zonesOffering(kRegion, "Standard_NC4as_T4_v3", nullptr);
        QVERIFY(!restricted);
        QCOMPARE(restricted.error().reason.key, std::string("error.azure.size_restricted"));
        QCOMPARE(restricted.error().reason.params.at("reason_code"), std::string("NotAvailableForSubscription"));
        QVERIFY(provider->zonesOffering(kRegion, "Standard_ND96asr_v4", nullptr)->empty());
    }

    void describeEachPowerState()
    {
        for (const char* power : {"starting", "running", "stopping", "stopped", "deallocating", "deallocated"}) {
            ScriptedTransport t;
            answerToken(t);
            t.answer("GET " + kVmPath, vmBody(kToken, "Succeeded", power).dump());
            json nic = doc("nic_get.json");
            nic["properties"]["ipConfigurations"][0]["properties"]["publicIPAddress"]["id"] = kIpPath;
            t.answer("GET " + kNicPath, nic.dump());
            json ip = doc("public_ip_get.json");
            ip["properties"]["ipAddress"] = "20.0.113.5";
            t.answer("GET " + kIpPath, ip.dump());
            auto provider = makeAzureVmProvider(contextFor(t));
            Result<RemoteInstance> r = provider->describe(kRegion, kToken, nullptr);
            QVERIFY(r);
            QCOMPARE(r->state, azure::stateOf("Succeeded", power));
            QCOMPARE(r->clientToken, kToken);
            QCOMPARE(r->zone, std::string("1"));
            QCOMPARE(r->instanceType, std::string("Standard_NC4as_T4_v3"));
            QCOMPARE(r->launchedAt.value_or(0), std::int64_t(1796324700));
            QCOMPARE(r->providerState, std::string("Succeeded/") + power);
            QCOMPARE(query(*t.find("GET " + kVmPath)), std::string("api-version=2024-11-01&$expand=instanceView"));
            const bool running = r->state == InstanceState::Running || r->state == InstanceState::Pending;
            QCOMPARE(r->publicIp, running ? std::string("20.0.113.5") : std::string());
            QCOMPARE(t.count("GET " + kIpPath), running ? 1 : 0);
        }
        ScriptedTransport gone;
        answerToken(gone);
        gone.answer("GET " + kVmPath, fixture("error_vm_not_found.json"), 404);
        Result<RemoteInstance> missing = makeAzureVmProvider(contextFor(gone))->describe(kRegion, kToken, nullptr);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
    }

    void listsOursOverTwoPages()
    {
        ScriptedTransport t;
        answerToken(t);
        const std::string list = "GET " + kGroup + "/providers/Microsoft.Compute/virtualMachines";
        const std::string next = kBase + kGroup + "/providers/Microsoft.Compute/virtualMachines?api-version=2024-11-01"
                                 + "&%24skiptoken=page2";
        t.answer(list,
                 json{{"value", {vmBody("gpuplan-a", "Succeeded"), vmBody("someone-else", "Succeeded", "", "1", "")}},
                      {"nextLink", next}}
                     .dump());
        t.answer(list, json{{"value", {vmBody("gpuplan-b", "Succeeded")}}}.dump());
        t.answer("GET " + kGroup + "/providers/Microsoft.Compute/virtualMachines/gpuplan-a",
                 vmBody("gpuplan-a", "Succeeded", "running", "1", "gpuplan-a").dump());
        t.answer("GET " + kGroup + "/providers/Microsoft.Compute/virtualMachines/gpuplan-b",
                 vmBody("gpuplan-b", "Succeeded", "deallocated", "2", "gpuplan-b").dump());
        auto provider = makeAzureVmProvider(contextFor(t));
        Result<std::vector<RemoteInstance>> ours = provider->listOurs(kRegion, nullptr);
        QVERIFY(ours);
        QCOMPARE(ours->size(), std::size_t(2));
        QCOMPARE((*ours)[0].instanceId, std::string("gpuplan-a"));
        QCOMPARE((*ours)[0].state, InstanceState::Running);
        QCOMPARE((*ours)[1].instanceId, std::string("gpuplan-b"));
        QCOMPARE((*ours)[1].state, InstanceState::Stopped);
        QCOMPARE((*ours)[1].zone, std::string("2"));
        QCOMPARE(t.count(list), 2);
        QCOMPARE(t.count("GET " + kGroup + "/providers/Microsoft.Compute/virtualMachines/someone-else"), 0);

        ScriptedTransport none;
        answerToken(none);
        none.answer(list, fixture("error_resource_group_not_found.json"), 404);
        Result<std::vector<RemoteInstance>> empty = makeAzureVmProvider(contextFor(none))->listOurs(kRegion, nullptr);
        QVERIFY(empty);
        QVERIFY(empty->empty());
    }

    void terminateAndGoneIsFine()
    {
        ScriptedTransport t;
        answerToken(t);
        t.answer("DELETE " + kVmPath, "", 202, {{"Location", kBase + "/subscriptions/x/operations/d"}});
        t.answer("DELETE " + kVmPath, fixture("error_vm_not_found.json"), 404);
        auto provider = makeAzureVmProvider(contextFor(t));
        QVERIFY(provider->terminate(kRegion, kToken, nullptr));
        QVERIFY(provider->terminate(kRegion, kToken, nullptr));
        QCOMPARE(t.count("DELETE " + kVmPath), 2);
        QCOMPARE(query(*t.find("DELETE " + kVmPath)), std::string("api-version=2024-11-01"));

        ScriptedTransport denied;
        answerToken(denied);
        denied.answer("DELETE " + kVmPath, fixture("error_authorization_failed.json"), 403);
        Status refused = makeAzureVmProvider(contextFor(denied))->terminate(kRegion, kToken, nullptr);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::PermissionDenied);
    }

    void subscriptionFromTheList()
    {
        const std::string list = "GET /subscriptions";
        const std::string skus =
            "GET /subscriptions/291bba3f-e0a5-47bc-a099-3bdcb2a50a05/providers/Microsoft.Compute/skus";
        {
            ScriptedTransport t;
            answerToken(t);
            t.answer(list, fixture("subscriptions.json"));
            t.answer(skus, fixture("skus_region.json"));
            auto provider = makeAzureVmProvider(contextFor(t, false));
            QVERIFY(provider->zonesOffering("westus", "Standard_A1", nullptr));
            QVERIFY(provider->zonesOffering("westus", "Standard_A0", nullptr));
            QCOMPARE(t.count(list), 1); // asked once
            QCOMPARE(t.count(skus), 2);
            QCOMPARE(query(*t.find(list)), std::string("api-version=2022-12-01"));
        }
        {
            ScriptedTransport t;
            answerToken(t);
            json disabled = doc("subscriptions.json");
            disabled["value"][0]["state"] = "Disabled";
            t.answer(list, disabled.dump());
            Result<std::vector<std::string>> none =
                makeAzureVmProvider(contextFor(t, false))->zonesOffering("westus", "Standard_A1", nullptr);
            QVERIFY(!none);
            QCOMPARE(none.error().reason.key, std::string("error.azure.no_subscription"));
        }
        {
            ScriptedTransport t;
            answerToken(t);
            json several = doc("subscriptions.json");
            json second = several["value"][0];
            second["subscriptionId"] = "22222222-0000-0000-0000-000000000000";
            second["displayName"] = "Lab";
            several["value"].push_back(second);
            t.answer(list, several.dump());
            Result<std::vector<std::string>> many =
                makeAzureVmProvider(contextFor(t, false))->zonesOffering("westus", "Standard_A1", nullptr);
            QVERIFY(!many);
            QCOMPARE(many.error().reason.key, std::string("error.azure.several_subscriptions"));
            QVERIFY(many.error().reason.params.at("subscriptions").find("22222222-0000-0000-0000-000000000000 (Lab)")
                    != std::string::npos);
        }
    }

    void foreignOperationUrlIsNotFollowed()
    {
        ScriptedTransport t;
        answerReuse(t);
        t.only("PUT " + kVmPath,
               vmBody(kToken, "Creating").dump(),
               201,
               {{"Azure-AsyncOperation", "https://evil.example/subscriptions/x/operations/1"}});
        auto provider = makeAzureVmProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY(!launched);
        QCOMPARE(launched.error().reason.key, std::string("error.azure.foreign_url"));
        for (const HttpRequest& r : t.requests) {
            QVERIFY(r.url.starts_with(kBase));
        }
    }

    void descriptor()
    {
        const ProviderDescriptor& d = azureDescriptor();
        QCOMPARE(d.id, std::string("azure"));
        QVERIFY(d.canLaunch());
        QVERIFY(d.supports(CloudFeature::Spot));
        QVERIFY(d.supports(CloudFeature::SshSourceRestriction));
        QVERIFY(!d.supports(CloudFeature::Subscription));
        QVERIFY(!d.supports(CloudFeature::DryRun));
        QVERIFY(!d.supports(CloudFeature::ScheduledTerminate));
        QVERIFY(!d.supports(CloudFeature::TerminateOnShutdown));
        QCOMPARE(d.unsupported.at(CloudFeature::ScheduledTerminate).key,
                 std::string("unsupported.azure.scheduled_terminate"));
    }
};

QTEST_GUILESS_MAIN(TestAzureVm)
#include "TestAzureVm.moc"
