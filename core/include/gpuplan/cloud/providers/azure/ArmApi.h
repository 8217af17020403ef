#pragma once

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/Instance.h"
#include "gpuplan/cloud/ProviderError.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/net/Http.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

// The pieces of Azure Resource Manager (ARM) that AzureProvider uses: subscriptions, resource SKUs, marketplace image
// versions, resource groups, network security groups, virtual networks, network interfaces, public IPs and virtual
// machines. Each call as method, path, query and JSON body; the parsers of the documented answers; the mapping of
// ARM's error bodies to ErrorCode with advice. Pure functions: no network, thread-safe. Public so that TestAzureVm
// and the wire test can check each piece on its own.
// source: the REST specs (https://github.com/Azure/azure-rest-api-specs, specification/compute and network) and the
// SDKs in tests/integration/sdk/node_modules/@azure (arm-compute 22.4.0, arm-network 33.5.0, arm-resources 6.1.0),
// whose operations/*.js give each path, method and api-version used here.
namespace gpuplan::core::azure {

/// The api-version each SDK sends: VirtualMachines and VirtualMachineImages (arm-compute parameters.js apiVersion),
/// ResourceSkus (apiVersion2), NetworkSecurityGroups / SecurityRules / VirtualNetworks / NetworkInterfaces /
/// PublicIPAddresses (arm-network), ResourceGroups (arm-resources). Subscriptions - List is not in these packages:
/// 2022-12-01 is the Subscriptions API's current stable version (@azure/arm-resources-subscriptions 2.x).
inline constexpr std::string_view kComputeApiVersion = "2024-11-01";
inline constexpr std::string_view kSkusApiVersion = "2021-07-01";
inline constexpr std::string_view kNetworkApiVersion = "2024-05-01";
inline constexpr std::string_view kResourcesApiVersion = "2025-03-01";
inline constexpr std::string_view kSubscriptionsApiVersion = "2022-12-01";
/// networkProfile.networkApiVersion: the version Compute uses to create the inline NIC and public IP (the spec
/// example VirtualMachine_Create_WithNetworkInterfaceConfiguration sends this one).
inline constexpr std::string_view kInlineNetworkApiVersion = "2020-11-01";
/// The token's scope (AzureTokenSource).
inline constexpr std::string_view kScope = "https://management.azure.com/.default";
inline constexpr std::string_view kArmHost = "https://management.azure.com";
inline constexpr std::string_view kLoginHost = "https://login.microsoftonline.com";
/// The Linux user that holds the key (osProfile.adminUsername); the Ubuntu HPC image's own user name.
inline constexpr std::string_view kAdminUser = "ubuntu";
/// The image without request.imageId: Ubuntu 22.04 HPC, with the NVIDIA driver, CUDA and InfiniBand drivers
/// (https://github.com/Azure/azhpc-images, ubuntu-22.04-hpc/install_nvidiagpudriver.sh).
inline constexpr std::string_view kImagePublisher = "microsoft-dsvm";
inline constexpr std::string_view kImageOffer = "ubuntu-hpc";
inline constexpr std::string_view kImageSku = "2204";
/// osProfile.customData: "The maximum length of the binary array is 65535 bytes" (OSProfile.customData, before
/// base64).
inline constexpr std::size_t kMaxCustomDataBytes = 65535;
/// Linux computerName and the VM's name: at most 64 characters (letters, digits, '-'; the client token is one).
inline constexpr std::size_t kMaxVmNameChars = 64;
/// The OS disk (the HPC image's own is 64 GB; models and containers need more).
inline constexpr int kOsDiskGb = 200;
/// The VNet and subnet GPU Planner creates in its resource group.
inline constexpr std::string_view kVnetName = "gpuplanner-vnet";
inline constexpr std::string_view kVnetCidr = "10.42.0.0/16";
inline constexpr std::string_view kSubnetName = "default";
inline constexpr std::string_view kSubnetCidr = "10.42.0.0/24";
/// The NSG's SSH rule.
inline constexpr std::string_view kSshRuleName = "ssh";
inline constexpr int kSshRulePriority = 1000;
/// The tag every resource GPU Planner creates carries ({"gpuplanner": "true"}), besides kOwnerTagKey on a VM.
inline constexpr std::string_view kGroupTagKey = "gpuplanner";

/// "https://management.azure.com", or `endpoint` (without a trailing '/') when not empty.
std::string armBase(const std::string& endpoint);
/// "https://login.microsoftonline.com", or `endpoint` when not empty (the fake serves the token too).
std::string loginBase(const std::string& endpoint);

/// "gpuplanner-eastus": the one resource group per region that holds everything GPU Planner creates there.
std::string resourceGroupName(const std::string& region);
/// "gpuplanner-ssh-203-0-113-7-32" for "203.0.113.7/32".
std::string nsgName(const std::string& cidr);
/// "/subscriptions/{s}/resourceGroups/gpuplanner-{region}".
std::string resourceGroupId(const std::string& subscription, const std::string& region);
/// The NSG's ARM id.
std::string nsgId(const std::string& subscription, const std::string& region, const std::string& name);
/// The subnet's ARM id: .../virtualNetworks/gpuplanner-vnet/subnets/default.
std::string subnetId(const std::string& subscription, const std::string& region);

/// An image as the VM's storageProfile.imageReference takes it: a marketplace URN's four parts, or an ARM id.
struct ImageReference
{
    std::string publisher;
    std::string offer;
    std::string sku;
    std::string version;
    std::string id; // an ARM image id ("/subscriptions/.../images/x" or a gallery image version)

    /// "publisher:offer:sku:version", or the id.
    std::string text() const;
};
/// "publisher:offer:sku:version" (a URN as `az vm create --image` takes it), or an ARM id starting with '/'.
/// InvalidArgument ("error.azure.image_invalid") for anything else.
Result<ImageReference> parseImage(const std::string& image);
/// microsoft-dsvm:ubuntu-hpc:2204:latest.
ImageReference defaultImage();

/// One ARM call: the operation's name (as the SDK names it, for messages), the HTTP method, the path from
/// "/subscriptions" (or an absolute URL ARM gave: an operation to poll, a next page), the query (names and values
/// unencoded; api-version included) and the JSON body (null: none); whether sending it twice is harmless.
struct Call
{
    std::string action;
    std::string method = "GET";
    std::string path;
    std::vector<std::pair<std::string, std::string>> query;
    nlohmann::json body;
    bool safeToRetry = false;
};

/// The body exactly as sent (compact JSON, UTF-8); empty without one.
std::string body(const Call& call);
/// The request, not yet authorized: armBase(endpoint) + path + the query with its values percent-encoded (an
/// absolute path is taken as it is), Content-Type application/json with a body, Accept application/json.
HttpRequest buildRequest(const Call& call, const std::string& endpoint);
/// Whether `url` (an Azure-AsyncOperation, Location or nextLink ARM gave) is on armBase(endpoint): only such URLs
/// get the bearer token.
bool isArmUrl(const std::string& url, const std::string& endpoint);

// ---- Calls.

/// Subscriptions - List: GET /subscriptions?api-version=2022-12-01.
Call listSubscriptionsCall();
/// ResourceSkus - List: GET /subscriptions/{s}/providers/Microsoft.Compute/skus?api-version=2021-07-01
/// &$filter=location eq '<region>'.
Call listSkusCall(const std::string& subscription, const std::string& region);
/// VirtualMachineImages - List: GET /subscriptions/{s}/providers/Microsoft.Compute/locations/{region}/publishers/
/// {p}/artifacttypes/vmimage/offers/{o}/skus/{sku}/versions?$top=1&$orderby=name desc: the newest version.
Call listImageVersionsCall(const std::string& subscription, const std::string& region, const ImageReference& image);
/// ResourceGroups - CreateOrUpdate: PUT /subscriptions/{s}/resourcegroups/gpuplanner-<region>
/// {"location", "tags": {"gpuplanner": "true"}} (an upsert: 201 created, 200 there already).
Call putResourceGroupCall(const std::string& subscription, const std::string& region);
/// NetworkSecurityGroups - Get (404 when absent).
Call getNsgCall(const std::string& subscription, const std::string& region, const std::string& name);
/// NetworkSecurityGroups - CreateOrUpdate: the NSG with its one rule "ssh": TCP 22 inbound from `cidr`,
/// priority 1000 (Azure's default rules allow all outbound).
Call putNsgCall(const std::string& subscription,
                const std::string& region,
                const std::string& name,
                const std::string& cidr);
/// SecurityRules - CreateOrUpdate: PUT .../networkSecurityGroups/{nsg}/securityRules/ssh (a repair).
Call putSshRuleCall(const std::string& subscription,
                    const std::string& region,
                    const std::string& name,
                    const std::string& cidr);
/// VirtualNetworks - Get of gpuplanner-vnet (404 when absent).
Call getVnetCall(const std::string& subscription, const std::string& region);
/// VirtualNetworks - CreateOrUpdate: gpuplanner-vnet 10.42.0.0/16 with subnet "default" 10.42.0.0/24.
Call putVnetCall(const std::string& subscription, const std::string& region);

/// What the VM's PUT needs besides the request.
struct VmPlacement
{
    std::string subscription;
    ImageReference image;
    std::string nsgId;
    std::string subnetId;
};
/// VirtualMachines - CreateOrUpdate: PUT .../resourceGroups/gpuplanner-<region>/providers/Microsoft.Compute/
/// virtualMachines/<clientToken>?api-version=2024-11-01, the VM named by the client token (a PUT to the same name
/// is an upsert: a resend does not start a second VM). zones only when request.zone is not empty; the key in
/// linuxConfiguration.ssh for "ubuntu"; customData the user data in base64; the NIC and its public IP (Standard,
/// static) inline, both with deleteOption Delete, as is the OS disk; spot: priority Spot, evictionPolicy Delete,
/// billingProfile.maxPrice the spot price limit or -1. InvalidArgument for a missing or invalid client token (a VM
/// name), user data over 65535 bytes, a missing SSH key, or a tag ARM refuses.
Result<Call> putVmCall(const LaunchRequest& request, const VmPlacement& placement);
/// VirtualMachines - Get, with $expand=instanceView when `instanceView` (its power state).
Call getVmCall(const std::string& subscription, const std::string& region, const std::string& name, bool instanceView);
/// VirtualMachines - List of the region's resource group (nextLink pages follow with nextPageCall).
Call listVmsCall(const std::string& subscription, const std::string& region);
/// VirtualMachines - Delete: 202 accepted (not waited for), 204 gone; the NIC, IP and OS disk go with it.
Call deleteVmCall(const std::string& subscription, const std::string& region, const std::string& name);
/// GET of a resource by the ARM id an answer gave (a VM's NIC, a NIC's public IP), with `apiVersion`.
Call getByIdCall(const std::string& action, const std::string& id, std::string_view apiVersion);
/// GET of an absolute URL ARM gave: an Azure-AsyncOperation to poll ("<action>" names the operation polled), or a
/// nextLink.
Call getUrlCall(const std::string& action, const std::string& url);

// ---- Parsers. Each takes a successful answer's body; ProviderRefused (the kit's "error.answer.*", JsonAnswer.h,
// naming the action and the field) when it is not JSON, not an object (a list for image versions), or lacks a field the
// action needs.

struct Subscription
{
    std::string id;
    std::string name;
    std::string state; // Enabled, Warned, PastDue, Disabled, Deleted
};
Result<std::vector<Subscription>> parseSubscriptions(std::string_view body);
/// The one Enabled subscription; error.azure.no_subscription (Credentials) when none,
/// error.azure.several_subscriptions (InvalidArgument, listing them) when more than one.
Result<std::string> chooseSubscription(const std::vector<Subscription>& subscriptions);

struct SkuRestriction
{
    std::string type; // Location, Zone
    std::vector<std::string> values;
    std::vector<std::string> locations;
    std::vector<std::string> zones;
    std::string reasonCode; // NotAvailableForSubscription, QuotaId
};
struct Sku
{
    std::string resourceType;
    std::string name;
    std::string family;
    std::vector<std::string> locations;
    std::vector<std::pair<std::string, std::vector<std::string>>> zonesByLocation; // locationInfo
    std::vector<SkuRestriction> restrictions;
};
struct SkuPage
{
    std::vector<Sku> skus;
    std::string nextLink;
};
Result<SkuPage> parseSkus(std::string_view body);
/// Where `size` can run in `region`: listed (a virtualMachines SKU of that name, compared without case, offered
/// there), its zones less the restricted ones, in ascending order ("" alone when it is offered without zones), and
/// the reasonCode of a restriction of the whole location.
struct SizeOffer
{
    bool listed = false;
    std::vector<std::string> zones;
    std::string locationRestriction;
};
SizeOffer sizeOffer(const std::vector<Sku>& skus, const std::string& size, const std::string& region);

/// The version names of VirtualMachineImages - List (a JSON list of {name, location, id}).
Result<std::vector<std::string>> parseImageVersions(std::string_view body);

struct SecurityRule
{
    std::string name;
    std::string protocol;                      // Tcp, Udp, Icmp, *
    std::string access;                        // Allow, Deny
    std::string direction;                     // Inbound, Outbound
    std::vector<std::string> sourcePrefixes;   // sourceAddressPrefix and sourceAddressPrefixes
    std::vector<std::string> destinationPorts; // destinationPortRange and destinationPortRanges
    int priority = 0;
};
struct Nsg
{
    std::string id;
    std::string name;
    std::string provisioningState;
    std::vector<SecurityRule> rules;
};
Result<Nsg> parseNsg(std::string_view body, const std::string& action);
/// Whether an Allow Inbound rule lets TCP 22 in from exactly `cidr` (protocol Tcp or *, a port "22", "*" or a
/// range holding 22). Deny rules are not weighed: GPU Planner's NSG holds only its own rule.
bool allowsSshFrom(const std::vector<SecurityRule>& rules, const std::string& cidr);

struct Vnet
{
    std::string id;
    std::string provisioningState;
    std::vector<std::pair<std::string, std::string>> subnets; // name -> id
};
Result<Vnet> parseVnet(std::string_view body, const std::string& action);
/// A resource group's properties.provisioningState (ResourceGroups - CreateOrUpdate).
Result<std::string> parseResourceGroup(std::string_view body);

/// The Azure-AsyncOperation status body: {"status": "InProgress"|"Succeeded"|"Failed"|"Canceled", "error"}.
struct AsyncOperation
{
    std::string status;
    std::string errorCode;
    std::string errorMessage;
    bool done() const { return status == "Succeeded" || status == "Failed" || status == "Canceled"; }
};
Result<AsyncOperation> parseAsyncOperation(std::string_view body, const std::string& action);

struct Vm
{
    std::string name;
    std::string id;
    std::string location;
    std::string zone;
    std::string clientToken; // tags["gpuplanner-token"]
    std::string vmSize;
    std::string priority; // Regular, Spot, Low
    std::string provisioningState;
    std::string powerState; // "running" of PowerState/running; empty without an instance view
    std::string nicId;      // the primary network interface
    std::optional<std::int64_t> timeCreated;
};
Result<Vm> parseVm(std::string_view body, const std::string& action);
struct VmPage
{
    std::vector<Vm> vms;
    std::string nextLink;
};
Result<VmPage> parseVms(std::string_view body);
/// The primary IP configuration's publicIPAddress.id of a NetworkInterfaces - Get answer; empty without one.
Result<std::string> parseNicPublicIpId(std::string_view body);
/// properties.ipAddress of PublicIPAddresses - Get; empty while none is assigned.
Result<std::string> parsePublicIpAddress(std::string_view body);

/// provisioningState Creating -> Pending, Deleting -> Stopping, Failed -> Failed; else the power state: running ->
/// Running, starting -> Pending, stopping / deallocating -> Stopping, stopped / deallocated -> Stopped; no power state
/// yet -> Pending.
InstanceState stateOf(const std::string& provisioningState, const std::string& powerState);
/// The VM as GPU Planner records it (no public IP: describe adds it).
RemoteInstance toRemote(const Vm& vm, const std::string& region);

/// Retry-After in seconds (ARM writes whole seconds), or nullopt.
std::optional<std::chrono::seconds> retryAfter(const HttpResponse& response);

// ---- Errors.

/// ARM's error {"error": {"code", "message", "details": [{"code", "message"}]}} (also without the "error" wrapper, as
/// an async operation's error is), with the first detail's code and message where the outer code is a generic one
/// (BadRequest, Conflict, DeploymentFailed, InvalidParameter without a message of its own). nullopt when there is
/// none.
std::optional<ApiError> apiError(std::string_view body);

/// What the failed call was about, for the advice.
struct ErrorContext : CallContext
{ };

/// The Azure RBAC action in ARM's AuthorizationFailed message ("... perform action
/// 'Microsoft.Compute/virtualMachines/write' over scope ..."); empty when it names none.
std::string actionFromMessage(const std::string& message);
/// The quota ARM's OperationNotAllowed names: family ("standardNCASv3_T4Family", or "Total Regional Cores", "Low
/// Priority Cores"), limit, usage and the required additional vCPUs; empty fields when the message lacks them.
struct QuotaText
{
    std::string family;
    std::string limit;
    std::string usage;
    std::string required;
};
QuotaText quotaFromMessage(const std::string& message);

/// An answer as an Error, or nullopt when it is a 2xx success: ARM's code kept in providerCode, a stable ErrorCode
/// and the advice as an "error.azure.*" reason with the code ("code") and message ("said"); 429 and Throttled carry
/// "retry_after" when ARM said it. A non-2xx answer without an ARM error is HttpStatus naming the action.
std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context);
/// A create whose async operation ended Failed or Canceled, as an Error: capacity codes -> InsufficientCapacity (the
/// Launcher tries the next zone), the quota -> QuotaExceeded, else ProviderRefused with ARM's code and message.
Error operationFailure(const AsyncOperation& operation, const ErrorContext& context);

} // namespace gpuplan::core::azure
