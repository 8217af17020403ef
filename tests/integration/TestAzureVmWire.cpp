// Wire conformance of the Azure VM provider with the official Node SDKs: @azure/arm-compute 22.4.0,
// @azure/arm-network 33.5.0 and @azure/arm-resources 6.1.0 (on @azure/core-client 1.10.2, core-rest-pipeline 1.24.0,
// core-lro 2.7.2). This test drives our provider (makeAzureVmProvider, a credential without subscription_id) through
// one sequence: the token; Subscriptions - List (the one enabled subscription); ResourceSkus - List (zonesOffering);
// a first launch (Spot with a maxPrice, zone "1", user data and a tag): the image's versions, the resource group's
// PUT, the NSG's GET (404), PUT and async poll, the VNet's GET (404), PUT and poll, the VM's GET (404: the resend
// check), its PUT and two polls; a second launch that reuses all of it (on demand, no zone) and finds the NSG without
// its SSH rule (the rule's PUT and poll); describe (the VM with its instance view, its NIC, the public IP); listOurs
// over two pages (nextLink), each VM of ours read with its instance view; terminate (DELETE, not waited for). Our
// requests go to a recording transport that answers each with a canned answer (tests/data/cloud/azure, README there,
// adapted here to the sequence: our names and ids, an Azure-AsyncOperation header on each create, built as
// https://learn.microsoft.com/azure/azure-resource-manager/management/async-operations shows it);
// tests/integration/sdk/azure-vm-wire.js sends the same operations, with the same inputs and the same answers, through
// the SDKs to a loopback capture server. The token request (@azure/identity is not installed) and Subscriptions - List
// (no subscriptions SDK installed) are hand-built there from their references (cited there). Each pair is compared:
//  - method and path, in the case each side sends it ("resourcegroups" in ResourceGroups - CreateOrUpdate);
//  - every query parameter, decoded, by name and value (api-version, $filter, $top, $orderby, $expand, $skiptoken);
//  - the JSON body, parsed: every member by its path, with its type (a string is not a number, "true" is not true);
//  - the token request's form, decoded, field by field (client_id, scope, client_secret, grant_type);
//  - the values of Authorization (scheme and the Bearer token the canned token answer gave) and Content-Type, and the
//    set of header names.
// The SDK-only requests are checked apart: after a create's operation Succeeded the SDK GETs the resource again (the
// PUT's own path; core-lro http/operation.js findResourceLocation), and beginDelete polls the delete's operation once
// before it returns; our provider needs neither (it builds the ids it uses and takes the VM's name from the PUT's
// answer; a delete is not waited for), so they are not paired with ours.
//
// What is not compared and why (kNotComparedHeaders and the notes below): headers that the transports add and ARM
// does not need: x-ms-client-request-id (a random id per request from core-rest-pipeline's setClientRequestIdPolicy,
// for Azure's support to find a request; optional), user-agent (the SDK's and Node's versions), accept (ours
// "application/json" on every request; the SDK sends it on ARM's operations; the hand-built token request none: both
// answers are JSON), accept-encoding, connection and content-length (libcurl writes its own for us); Host (the SDK is
// pointed at the capture server's 127.0.0.1:<port>; ours names management.azure.com and login.microsoftonline.com).
// Content-Type on a poll: the SDK polls with the create's operation spec less its body (arm-* lroImpl.js
// sendPollRequest), so core-client writes "Content-Type: application/json" on that GET; there is no body to type.
// Numbers are compared as JSON numbers by value: JavaScript cannot write 1.0 apart from 1, and ARM's JSON reader takes
// either for a double (billingProfile.maxPrice) or an integer (priority, diskSizeGB). Anything else on one side only,
// or with another value, fails, naming the operation and the header, parameter or body member. Without node or the
// SDK packages (tests/integration/sdk/setup.sh) the test fails.

#include <fstream>
#include <map>
#include <set>
#include <sstream>
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

#include "gpuplan/cloud/providers/azure/ArmApi.h"
#include "gpuplan/cloud/providers/azure/AzureProvider.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

#include "../support/RecordingTransport.h"
#include "../support/WireCompare.h"

using namespace gpuplan::core;
using gpuplan::testing::compareJson;
using gpuplan::testing::decodedQuery;
using gpuplan::testing::lower;
using gpuplan::testing::readFile;
using gpuplan::testing::RecordingTransport;
using nlohmann::json;

namespace {

const std::string kTime = "2026-12-02T18:00:00Z";
const std::string kTenant = "8f3c2a4e-1b6d-4e0f-9a7c-5d2e1f0b3c4a";
const std::string kClientId = "5b1e7c9d-2f4a-4c8e-b6d0-3a9f8e7d6c5b";
// A client secret as Entra ID makes them (40 characters, '~' '.' '_' '-' among them), with '+', '/' and '=' too, so
// that the form's encoding shows.
const std::string kClientSecret = "Xy8Q~wire.Test_secret-0123+456/789=abcdEF";
const std::string kToken = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.wire-test-access-token.c2ln";
const std::string kSubscription = "291bba3f-e0a5-47bc-a099-3bdcb2a50a05"; // the enabled one in subscriptions.json
const std::string kRegion = "eastus";
const std::string kSize = "Standard_NC4as_T4_v3";
const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci13aXJlLXRlc3Qta2V5LTAwMDAwMDA wire@example";
const std::string kCidr = "203.0.113.7/32";
const std::string kUserData = "#!/bin/bash\nshutdown -h +120\n";
const std::string kPublicIp = "198.51.100.20";
// Client tokens as the Launcher makes them ("gpuplan-" + 24 lowercase hex): the VMs' names.
const std::string kToken1 = "gpuplan-0123456789abcdef01234567";
const std::string kToken2 = "gpuplan-89abcdef0123456789abcdef";
const std::string kArm = "https://management.azure.com";

// Added by the transports, not needed by ARM or the token endpoint (see the top); left out on both sides.
const std::set<std::string> kNotComparedHeaders = {
    "x-ms-client-request-id", "user-agent", "accept", "accept-encoding", "connection", "content-length", "host"};

json fixture(const std::string& name)
{
    return json::parse(readFile(GPUPLAN_SOURCE_DIR "/tests/data/cloud/azure/" + name), nullptr, false);
}

// Numbers are compared by value (see the top).
const gpuplan::testing::JsonCompareRules kBodyRules{true, false};

// Every difference between two sets of decoded name=value pairs (a query, a form), `what` naming them.
void compareFields(const std::string& ours,
                   const std::string& theirs,
                   const std::string& what,
                   std::vector<std::string>& out)
{
    std::vector<std::string> duplicates;
    const auto a = decodedQuery(ours, duplicates);
    const auto b = decodedQuery(theirs, duplicates);
    for (const std::string& name : duplicates) {
        out.push_back(what + " " + name + " is sent twice");
    }
    for (const auto& [name, value] : a) {
        if (!b.count(name)) {
            out.push_back(what + " " + name + " is \"" + value + "\" here and absent in the SDK's request");
        } else if (b.at(name) != value) {
            out.push_back(what + " " + name + " is \"" + value + "\" here and \"" + b.at(name)
                          + "\" in the SDK's request");
        }
    }
    for (const auto& [name, value] : b) {
        if (!a.count(name)) {
            out.push_back(what + " " + name + " is absent here and \"" + value + "\" in the SDK's request");
        }
    }
}

// The path of an absolute URL or of a target ("/a/b?x=1" -> "/a/b"), and its query.
std::string pathOf(const std::string& target)
{
    const std::size_t scheme = target.find("://");
    const std::size_t start = scheme == std::string::npos ? 0 : target.find('/', scheme + 3);
    return target.substr(start, target.find('?') == std::string::npos ? std::string::npos : target.find('?') - start);
}

std::string queryOf(const std::string& target)
{
    const std::size_t q = target.find('?');
    return q == std::string::npos ? std::string() : target.substr(q + 1);
}

} // namespace

class TestAzureVmWire : public QObject
{
    Q_OBJECT

private slots:
    void requestsMatchTheSdk()
    {
        const QString sdk = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/sdk");
        const QString node = QStandardPaths::findExecutable("node");
        if (node.isEmpty()) {
            QFAIL("node is not installed: the wire test needs it to run @azure/arm-compute");
        }
        for (const char* package : {"@azure/arm-compute",
                                    "@azure/arm-network",
                                    "@azure/arm-resources",
                                    "@azure/core-client",
                                    "@azure/core-rest-pipeline"}) {
            if (!QFileInfo::exists(sdk + "/node_modules/" + package + "/package.json")) {
                QFAIL(
                    qPrintable(QString::fromUtf8(package)
                               + " is not installed: run tests/integration/sdk/setup.sh (npm ci of the pinned SDKs)"));
            }
        }

        // ---- The launches.
        // 1. Spot with a price limit in zone 1, user data and a tag, on a fresh subscription: everything created.
        LaunchRequest first;
        first.region = kRegion;
        first.zone = "1";
        first.instanceType = kSize;
        first.pricing = LaunchPricing::Spot;
        first.spotPriceLimit = 0.2345;
        first.sshPublicKey = kPublicKey;
        first.sshSourceCidr = kCidr;
        first.userData = kUserData;
        first.clientToken = kToken1;
        first.tags = {{"project", "Vision Lab"}};
        // 2. On demand without a zone, no user data, no tags: the group, VNet and NSG are found; the NSG lost its rule.
        LaunchRequest second = first;
        second.zone.clear();
        second.pricing = LaunchPricing::OnDemand;
        second.spotPriceLimit = 0;
        second.userData.clear();
        second.tags.clear();
        second.clientToken = kToken2;

        const std::string nsg = azure::nsgName(kCidr);
        const std::string group = azure::resourceGroupId(kSubscription, kRegion);
        const std::string nsgId = azure::nsgId(kSubscription, kRegion, nsg);
        const std::string vnetId = group + "/providers/Microsoft.Network/virtualNetworks/gpuplanner-vnet";
        const auto vmId = [&](const std::string& name) {
            return group + "/providers/Microsoft.Compute/virtualMachines/" + name;
        };
        const auto nicId = [&](const std::string& name) {
            return group + "/providers/Microsoft.Network/networkInterfaces/" + name + "-nic";
        };
        const auto ipId = [&](const std::string& name) {
            return group + "/providers/Microsoft.Network/publicIPAddresses/" + name + "-ip";
        };
        // An Azure-AsyncOperation header as ARM gives it (the async-operations page: "https://management.azure.com/
        // subscriptions/{subscription-id}/providers/{resource-provider}/locations/{region}/operations/{id}
        // ?api-version=...").
        const auto asyncHeader = [&](const std::string& provider, const std::string& id, std::string_view version) {
            return std::vector<HttpHeader>{{"Azure-AsyncOperation",
                                            kArm + "/subscriptions/" + kSubscription + "/providers/" + provider
                                                + "/locations/" + kRegion + "/operations/" + id
                                                + (id.find('?') == std::string::npos ? "?" : "&")
                                                + "api-version=" + std::string(version)}};
        };

        // ---- The canned answers, adapted.
        const json token = {
            {"token_type", "Bearer"}, {"expires_in", 3599}, {"ext_expires_in", 3599}, {"access_token", kToken}};
        json skus = fixture("skus_region.json"); // its second size becomes the T4 size asked, in eastus
        for (json& sku : skus["value"]) {
            sku["locations"] = json::array({kRegion});
            for (json& info : sku["locationInfo"]) {
                info["location"] = kRegion;
            }
        }
        skus["value"][1]["name"] = kSize;
        skus.erase("nextLink");
        // VirtualMachineImages - List answers a JSON list of VirtualMachineImageResource {name, location, id}
        // (https://learn.microsoft.com/rest/api/compute/virtual-machine-images/list); built from that schema.
        const json versions =
            json::array({{{"name", "22.04.2025061001"},
                          {"location", kRegion},
                          {"id",
                           "/Subscriptions/" + kSubscription + "/Providers/Microsoft.Compute/Locations/" + kRegion
                               + "/Publishers/microsoft-dsvm/ArtifactTypes/VMImage/Offers/"
                                 "ubuntu-hpc/Skus/2204/Versions/22.04.2025061001"}}});
        json groupCreated = fixture("resource_group.json");
        groupCreated["id"] = group;
        groupCreated["name"] = azure::resourceGroupName(kRegion);
        groupCreated["location"] = kRegion;
        groupCreated["tags"] = {{"gpuplanner", "true"}};
        json notFound = fixture("error_vm_not_found.json");
        const auto absent = [&](const std::string& type, const std::string& name) {
            json answer = notFound;
            answer["error"]["message"] = "The Resource '" + type + "/" + name + "' under resource group '"
                                         + azure::resourceGroupName(kRegion)
                                         + "' was not found. For more details please go to "
                                           "https://aka.ms/ARMResourceNotFoundFix";
            return answer;
        };
        // The NSG: the example's rule (TCP 80 from anywhere) stands for a rule that is not ours.
        json nsgFound = fixture("nsg_create_with_rule.json");
        nsgFound["name"] = nsg;
        nsgFound["id"] = nsgId;
        nsgFound["location"] = kRegion;
        for (const char* list : {"securityRules", "defaultSecurityRules"}) {
            for (json& rule : nsgFound["properties"][list]) {
                rule["id"] = nsgId + "/" + list + "/" + rule["name"].get<std::string>();
            }
        }
        json nsgCreating = nsgFound;
        nsgCreating["properties"]["provisioningState"] = "Updating";
        json ruleCreating = nsgFound["properties"]["securityRules"][0];
        ruleCreating["name"] = "ssh";
        ruleCreating["id"] = nsgId + "/securityRules/ssh";
        ruleCreating["properties"]["provisioningState"] = "Updating";
        json vnetFound = fixture("vnet.json");
        vnetFound["id"] = vnetId;
        vnetFound["properties"]["subnets"][0]["id"] = azure::subnetId(kSubscription, kRegion);
        json vnetCreating = vnetFound;
        vnetCreating["properties"]["provisioningState"] = "Updating";
        const json inProgress = fixture("async_in_progress.json");
        const json succeeded = fixture("async_succeeded.json");
        // A VM as ARM answers it: the example's, with our name, tags, size and NIC.
        const auto vm = [&](const std::string& name, const std::string& state) {
            json answer = fixture("vm_create_nic_config.json");
            answer["name"] = name;
            answer["id"] = vmId(name);
            answer["location"] = kRegion;
            answer["tags"] = {{std::string(kOwnerTagKey), name}};
            answer["properties"]["provisioningState"] = state;
            answer["properties"]["hardwareProfile"]["vmSize"] = kSize;
            answer["properties"]["osProfile"]["computerName"] = name;
            answer["properties"]["networkProfile"]["networkInterfaces"][0]["id"] = nicId(name);
            return answer;
        };
        json vmShown = vm(kToken1, "Succeeded");
        vmShown["zones"] = json::array({"1"});
        vmShown["properties"]["instanceView"] = fixture("vm_instance_view.json");
        json vmShown2 = vm(kToken2, "Succeeded");
        vmShown2["properties"]["instanceView"] = fixture("vm_instance_view.json");
        json nic = fixture("nic_get.json");
        nic["name"] = kToken1 + "-nic";
        nic["id"] = nicId(kToken1);
        nic["properties"]["ipConfigurations"][0]["properties"]["publicIPAddress"]["id"] = ipId(kToken1);
        json ip = fixture("public_ip_get.json");
        ip["name"] = kToken1 + "-ip";
        ip["id"] = ipId(kToken1);
        ip["properties"]["ipAddress"] = kPublicIp;
        // The group's VMs over two pages: ours, one that is not (no owner tag), then ours again. VirtualMachines - List
        // answers {value, nextLink} (https://learn.microsoft.com/rest/api/compute/virtual-machines/list); the nextLink
        // is the list's own URL with api-version and ARM's $skiptoken, as ARM writes its next pages.
        json foreign = vm("build-agent-7", "Succeeded");
        foreign["tags"] = json::object();
        const std::string listPath = "/subscriptions/" + kSubscription + "/resourceGroups/"
                                     + azure::resourceGroupName(kRegion)
                                     + "/providers/Microsoft.Compute/virtualMachines";
        const json page1 = {{"value", json::array({vm(kToken1, "Succeeded"), foreign})},
                            {"nextLink",
                             kArm + listPath + "?api-version=" + std::string(azure::kComputeApiVersion)
                                 + "&%24skiptoken=Z3B1cGxhbi04OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY%3D"}};
        const json page2 = {{"value", json::array({vm(kToken2, "Succeeded")})}};
        for (const json* doc : std::initializer_list<const json*>{
                 &skus, &groupCreated, &notFound, &nsgFound, &vnetFound, &inProgress, &succeeded, &nic, &ip}) {
            QVERIFY2(doc->is_object(), "a fixture is not JSON");
        }

        const std::string network = "Microsoft.Network";
        const std::string compute = "Microsoft.Compute";
        RecordingTransport transport("application/json; charset=utf-8");
        transport.queue("token", token);
        transport.queue("Subscriptions_List", fixture("subscriptions.json"));
        transport.queue("ResourceSkus_List", skus);
        // Launch 1.
        transport.queue("VirtualMachineImages_List", versions);
        transport.queue("ResourceGroups_CreateOrUpdate", groupCreated, 201);
        transport.queue(
            "NetworkSecurityGroups_Get-absent", absent("Microsoft.Network/networkSecurityGroups", nsg), 404);
        transport.queue("NetworkSecurityGroups_CreateOrUpdate",
                        nsgCreating,
                        201,
                        asyncHeader(network, "0f9c3a5e-7d41-4b2a-9e68-1c5b7a3d2e10", azure::kNetworkApiVersion));
        transport.queue("poll NetworkSecurityGroups_CreateOrUpdate", succeeded);
        transport.queue(
            "VirtualNetworks_Get-absent", absent("Microsoft.Network/virtualNetworks", "gpuplanner-vnet"), 404);
        transport.queue("VirtualNetworks_CreateOrUpdate",
                        vnetCreating,
                        201,
                        asyncHeader(network, "4a2e8c1d-93b7-4f05-8d6a-2b7e9c0f1a34", azure::kNetworkApiVersion));
        transport.queue("poll VirtualNetworks_CreateOrUpdate", succeeded);
        transport.queue("VirtualMachines_Get-absent", absent("Microsoft.Compute/virtualMachines", kToken1), 404);
        transport.queue("VirtualMachines_CreateOrUpdate",
                        vm(kToken1, "Creating"),
                        201,
                        asyncHeader(compute,
                                    "b7a098cc-b0b8-46e8-a205-62f301a62a8f?p=571046f6-b640-41c1-86f7-f9f044b5adf9",
                                    azure::kComputeApiVersion));
        transport.queue("poll VirtualMachines_CreateOrUpdate", inProgress);
        transport.queue("poll VirtualMachines_CreateOrUpdate", succeeded);
        // Launch 2.
        json groupFound = groupCreated;
        transport.queue("VirtualMachineImages_List", versions);
        transport.queue("ResourceGroups_CreateOrUpdate", groupFound);
        transport.queue("NetworkSecurityGroups_Get", nsgFound);
        transport.queue("SecurityRules_CreateOrUpdate",
                        ruleCreating,
                        201,
                        asyncHeader(network, "6d1f0b8a-2c4e-4a79-b3d5-8e0c7f9a1b62", azure::kNetworkApiVersion));
        transport.queue("poll SecurityRules_CreateOrUpdate", succeeded);
        transport.queue("VirtualNetworks_Get", vnetFound);
        transport.queue("VirtualMachines_Get-absent", absent("Microsoft.Compute/virtualMachines", kToken2), 404);
        transport.queue("VirtualMachines_CreateOrUpdate",
                        vm(kToken2, "Creating"),
                        201,
                        asyncHeader(compute,
                                    "c3e5f7a9-1b2d-4c6e-8f0a-2b4d6e8f0a1c?p=9d8c7b6a-5f4e-4d3c-2b1a-0f9e8d7c6b5a",
                                    azure::kComputeApiVersion));
        transport.queue("poll VirtualMachines_CreateOrUpdate", succeeded);
        // describe, listOurs, terminate.
        transport.queue("VirtualMachines_Get", vmShown);
        transport.queue("NetworkInterfaces_Get", nic);
        transport.queue("PublicIPAddresses_Get", ip);
        transport.queue("VirtualMachines_List-1", page1);
        transport.queue("VirtualMachines_Get", vmShown);
        transport.queue("VirtualMachines_List-2", page2);
        transport.queue("VirtualMachines_Get", vmShown2);
        std::vector<HttpHeader> deleting =
            asyncHeader(compute, "e1d2c3b4-a596-4788-9a0b-1c2d3e4f5a6b", azure::kComputeApiVersion);
        deleting.push_back({"Location", deleting[0].value + "&monitor=true"});
        transport.queue("VirtualMachines_Delete", json(), 202, deleting);

        // ---- Our side.
        ProviderContext context;
        context.http = &transport;
        context.key = AccessKey{kClientId, kClientSecret, {}};
        context.settings = {{"tenant_id", kTenant}};
        context.clock = fixedClock(utcTime(kTime));
        context.sleep = [](std::chrono::milliseconds) {};
        auto provider = makeAzureVmProvider(context);
        auto zones = provider->zonesOffering(kRegion, kSize, nullptr);
        QVERIFY2(zones.ok(), zones.ok() ? "" : describe(zones.error()).c_str());
        QCOMPARE(*zones, (std::vector<std::string>{"1", "2", "3"}));
        for (const LaunchRequest* request : {&first, &second}) {
            auto launched = provider->launch(*request, nullptr);
            QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
            QCOMPARE(launched->instanceId, request->clientToken);
        }
        auto described = provider->describe(kRegion, kToken1, nullptr);
        QVERIFY2(described.ok(), described.ok() ? "" : describe(described.error()).c_str());
        QCOMPARE(described->publicIp, kPublicIp);
        QCOMPARE(described->state, InstanceState::Running);
        auto listed = provider->listOurs(kRegion, nullptr);
        QVERIFY2(listed.ok(), listed.ok() ? "" : describe(listed.error()).c_str());
        QCOMPARE(listed->size(), std::size_t(2));
        auto terminated = provider->terminate(kRegion, kToken1, nullptr);
        QVERIFY2(terminated.ok(), terminated.ok() ? "" : describe(terminated.error()).c_str());
        QCOMPARE(transport.requests.size(), transport.script.size());

        // ---- The SDK's side, with the same inputs and answers. The rule's description (free text the provider
        // writes into the account) is taken from our request; everything else is given.
        const auto ourBody = [&](const std::string& label) {
            for (std::size_t i = 0; i < transport.script.size(); ++i) {
                if (transport.script[i].label == label) {
                    return json::parse(transport.requests[i].body, nullptr, false);
                }
            }
            return json();
        };
        const json nsgPut = ourBody("NetworkSecurityGroups_CreateOrUpdate");
        const std::string ruleDescription =
            nsgPut.is_object() ? nsgPut["properties"]["securityRules"][0]["properties"].value("description", "") : "";
        const auto launchInputs = [](const LaunchRequest& request, const char* nsgStep, const char* vnetStep) {
            return json{{"clientToken", request.clientToken},
                        {"size", request.instanceType},
                        {"zone", request.zone},
                        {"spot", request.pricing == LaunchPricing::Spot},
                        {"maxPrice", request.spotPriceLimit},
                        {"userData", request.userData},
                        {"tags", request.tags},
                        {"image", request.imageId},
                        {"nsgStep", nsgStep},
                        {"vnetStep", vnetStep}};
        };
        json answers = json::array();
        for (const RecordingTransport::Answer& answer : transport.script) {
            json headers = json::array();
            for (const HttpHeader& header : answer.headers) {
                headers.push_back({header.name, header.value});
            }
            answers.push_back(
                {{"label", answer.label}, {"status", answer.status}, {"headers", headers}, {"body", answer.body}});
        }
        const json inputs = {
            {"tenant", kTenant},
            {"clientId", kClientId},
            {"clientSecret", kClientSecret},
            {"region", kRegion},
            {"publicKey", kPublicKey},
            {"cidr", kCidr},
            {"nsg", nsg},
            {"ruleDescription", ruleDescription},
            {"launches",
             json::array({launchInputs(first, "create", "create"), launchInputs(second, "repair", "found")})},
            {"describe", kToken1},
            {"terminate", kToken1},
            {"answers", answers}};
        QProcess process;
        process.setWorkingDirectory(sdk);
        process.start(node, {QStringLiteral("azure-vm-wire.js")});
        QVERIFY2(process.waitForStarted(30000), qPrintable(process.errorString()));
        process.write(QByteArray::fromStdString(inputs.dump()));
        process.closeWriteChannel();
        QVERIFY2(process.waitForFinished(120000), "node azure-vm-wire.js did not finish within 2 minutes");
        const QString stderrText = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, qPrintable(stderrText));
        const std::string printed = process.readAllStandardOutput().toStdString();
        const json captured = json::parse(printed, nullptr, false);
        QVERIFY2(captured.is_array(),
                 qPrintable("azure-vm-wire.js printed no JSON array: " + QString::fromStdString(printed.substr(0, 2000))
                            + "\n" + stderrText));

        QStringList differences;
        // The SDK-only requests (see the top): a create's GET of its PUT's path, the delete's poll of its operation.
        json sdkRequests = json::array();
        std::map<std::string, std::string> lastPath; // the SDK's last request of each label -> its path
        std::size_t sdkOnly = 0;
        for (const json& request : captured) {
            const std::string label = request.value("label", "");
            const std::string path = pathOf(request.value("url", ""));
            if (!request.value("sdkOnly", false)) {
                sdkRequests.push_back(request);
                lastPath[label] = path;
                continue;
            }
            ++sdkOnly;
            const std::string expected = label.starts_with("final GET ")
                                             ? lastPath[label.substr(std::string_view("final GET ").size())]
                                             : pathOf(deleting[0].value);
            if (request.value("method", "") != "GET" || path != expected || !request.value("sdkError", "").empty()) {
                differences << QString::fromStdString("the SDK's own " + label + " is " + request.value("method", "")
                                                      + " " + path + " (" + request.value("sdkError", "")
                                                      + "), not GET " + expected);
            }
        }
        QCOMPARE(sdkOnly, std::size_t(6)); // five creates' GETs and the delete's first poll
        QCOMPARE(sdkRequests.size(), transport.requests.size());

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
            // The SDK read each answer without complaint, except the 404s it was given.
            const bool expectError = transport.script[i].status >= 400;
            const std::string sdkError = theirs.value("sdkError", "");
            if (expectError == sdkError.empty()) {
                differ("the SDK's call ended with \"" + sdkError + "\"");
            }
            std::map<std::string, std::string> sdkHeaders; // lower-case names, the ones not compared removed
            for (const auto& pair : theirs["headers"]) {
                const std::string name = lower(pair[0].get<std::string>());
                if (!kNotComparedHeaders.count(name)) {
                    if (sdkHeaders.count(name)) {
                        differ("header " + name + " is sent twice by the SDK");
                    }
                    sdkHeaders[name] = pair[1].get<std::string>();
                }
            }
            std::map<std::string, std::string> ourHeaders;
            for (const HttpHeader& header : mine.headers) {
                if (ourHeaders.count(lower(header.name))) {
                    differ("header " + header.name + " is sent twice by us");
                }
                if (!kNotComparedHeaders.count(lower(header.name))) {
                    ourHeaders[lower(header.name)] = header.value;
                }
            }
            const std::string sdkMethod = theirs.value("method", "");
            const std::string sdkTarget = theirs.value("url", "");
            const std::string sdkBody = theirs.value("body", "");
            if (mine.body.empty() && sdkBody.empty() && !ourHeaders.count("content-type")) {
                sdkHeaders.erase("content-type"); // the SDK's Content-Type on a poll without a body (see the top)
            }

            // Method and path, case as sent.
            const std::string ourPath = pathOf(mine.url);
            if (sdkMethod != mine.method || pathOf(sdkTarget) != ourPath) {
                differ("request line " + mine.method + " " + ourPath + " vs the SDK's " + sdkMethod + " "
                       + pathOf(sdkTarget));
            }
            std::vector<std::string> found;
            // The body: the token request's form, else JSON.
            if (label == "token") {
                compareFields(mine.body, sdkBody, "form field", found);
            } else if (mine.body.empty() != sdkBody.empty()) {
                found.push_back("body \"" + mine.body + "\" vs the SDK's \"" + sdkBody + "\"");
            } else if (!mine.body.empty()) {
                const json a = json::parse(mine.body, nullptr, false);
                const json b = json::parse(sdkBody, nullptr, false);
                if (a.is_discarded() || b.is_discarded()) {
                    found.push_back("a body is not JSON: \"" + mine.body + "\" vs the SDK's \"" + sdkBody + "\"");
                } else {
                    std::vector<std::string> bodyDifferences;
                    compareJson(a, b, "", bodyDifferences, kBodyRules);
                    for (const std::string& d : bodyDifferences) {
                        found.push_back("body member " + d);
                    }
                }
            }
            // Every parameter, decoded.
            compareFields(queryOf(mine.url), queryOf(sdkTarget), "parameter", found);
            for (const std::string& d : found) {
                differ(d);
            }
            // The same header names, and the same Authorization and Content-Type.
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
            for (const std::string name : {"authorization", "content-type"}) {
                const std::string x = ourHeaders.count(name) ? ourHeaders[name] : "(absent)";
                const std::string y = sdkHeaders.count(name) ? sdkHeaders[name] : "(absent)";
                if (x != y) {
                    differ("header " + name + " is \"" + x + "\" here and \"" + y + "\" in the SDK's request");
                }
            }
            if (label == "token") {
                if (ourHeaders.count("authorization")) {
                    differ("our token request carries an Authorization");
                }
            } else {
                if (ourHeaders["authorization"] != "Bearer " + kToken) {
                    differ("our Authorization is \"" + ourHeaders["authorization"] + "\"");
                }
                // The client secret goes to the token endpoint only.
                if (mine.url.find("oauth2") != std::string::npos
                    || mine.body.find(uriEncode(kClientSecret)) != std::string::npos
                    || mine.url.find(uriEncode(kClientSecret)) != std::string::npos) {
                    differ("the client secret is in an ARM request");
                }
            }
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

QTEST_GUILESS_MAIN(TestAzureVmWire)
#include "TestAzureVmWire.moc"
