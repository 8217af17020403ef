#pragma once

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/Instance.h"
#include "gpuplan/cloud/ProviderError.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/net/Http.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// The pieces of Alibaba Cloud's RPC-style OpenAPI (ECS 2014-05-26 and VPC 2016-04-28) that AlibabaEcsProvider uses:
// the parameters each action sends, the parsers of the JSON answers and the mapping of error codes to ErrorCode with
// advice. The wire is what @alicloud/openapi-core 1.0.8 doRequest sends for these products: POST "/", every
// parameter in the query string (flattened as OpenApiUtil.query: "Tag.1.Key"), an empty body, the x-acs-action
// and x-acs-version headers, signed with ACS3-HMAC-SHA256. Pure functions: no network, thread-safe. Public so that
// TestAlibabaEcs (and the wire-conformance test) can check each piece on its own.
namespace gpuplan::core::alibaba {

inline constexpr std::string_view kEcsVersion = "2014-05-26";
inline constexpr std::string_view kVpcVersion = "2016-04-28";
/// RunInstances, UserData: "the size of the data before Base64 encoding cannot exceed 32 KB" (RunInstancesRequest,
/// @alicloud/ecs20140526 7.11.6).
inline constexpr std::size_t kMaxUserDataBytes = 32 * 1024;
/// ClientToken: "只支持ASCII字符，且不能超过64个字符".
inline constexpr std::size_t kMaxClientTokenBytes = 64;
/// AutoReleaseTime: "The earliest release time is 30 minutes from the current time."
inline constexpr std::int64_t kMinAutoReleaseAheadSeconds = 30 * 60;
/// DescribeInstances MaxResults: at most 100.
inline constexpr int kPageSize = 100;
/// RunInstances InternetMaxBandwidthOut: a public IP paid by traffic, capped at this many Mbps.
inline constexpr int kMaxBandwidthOutMbps = 10;
/// The VPC GPU Planner creates when the account has neither one of this name nor a default VPC.
inline constexpr std::string_view kVpcName = "gpuplanner";
inline constexpr std::string_view kVpcCidr = "172.16.0.0/12";

enum class Product
{
    Ecs,
    Vpc,
};

/// "ecs", "vpc": the first label of the product's host and its RAM action prefix.
const char* productName(Product product);
/// "2014-05-26", "2016-04-28": x-acs-version.
std::string_view productVersion(Product product);

/// One API call: the product, the action (x-acs-action), its parameters in the order they are sent (already
/// flattened: "Tag.1.Key") and whether sending it twice is harmless (reads; writes with a ClientToken; deletes).
struct Call
{
    Product product = Product::Ecs;
    std::string action;
    std::vector<std::pair<std::string, std::string>> params;
    bool safeToRetry = false;

    /// The value of a parameter, or nullopt when the call does not send it.
    std::optional<std::string> param(std::string_view name) const;
};

/// "ecs.<region>.aliyuncs.com", "vpc.<region>.aliyuncs.com", except where the SDK's _endpointMap names another
/// host for a region (ecs cn-hangzhou -> "ecs-cn-hangzhou.aliyuncs.com", vpc cn-hangzhou -> "vpc.aliyuncs.com").
std::string host(Product product, const std::string& region);
/// "https://<host>/"; `endpoint`, when not empty, replaces it for both products (a fake or a private endpoint).
std::string baseUrl(Product product, const std::string& region, const std::string& endpoint);
/// The parameters as a query string, each name and value percent-encoded (RFC 3986), in the call's order.
std::string queryString(const Call& call);
/// POST `baseUrl` + "?" + the query, with x-acs-action, x-acs-version and accept: application/json; an empty body;
/// not signed (signAlibabaAcs3 adds host, x-acs-date, the nonce, x-acs-content-sha256 and Authorization).
HttpRequest buildRequest(const std::string& baseUrl, const Call& call);

/// "gpuplanner-" + the first 12 hex digits of SHA-256 over the key's base64 blob. ECS key pair names take 2-128
/// letters, digits, '-', '_', ':', '.', starting with a letter. InvalidArgument when the line has no blob.
Result<std::string> keyPairName(const std::string& sshPublicKey);
/// "gpuplanner-ssh-203-0-113-7-32" for "203.0.113.7/32".
std::string securityGroupName(const std::string& cidr);
/// "gpuplanner-cn-hangzhou-i".
std::string vSwitchName(const std::string& zone);
/// "gpuplanner-" + the first 8 characters of the token that are letters or digits.
std::string instanceName(const std::string& clientToken);
/// A ClientToken for a create call made on the way of the launch `clientToken` ("vpc", "group", "vswitch:<zone>"):
/// "gp-" + 32 hex digits of SHA-256 over both, so a resent launch resends the same token and the create is
/// idempotent, while different creates never share one.
std::string derivedClientToken(const std::string& clientToken, const std::string& what);
/// "2026-12-03T23:05:00Z": AutoReleaseTime, "yyyy-MM-ddTHH:mm:ssZ", UTC; the seconds set to 00 (ECS releases at the
/// start of the minute anyway).
std::string autoReleaseTime(std::int64_t unixSeconds);
/// The first /24 inside `vpcCidr` that overlaps none of `taken` (IPv4 CIDR blocks); nullopt when none is free or
/// a block cannot be read. A VPC smaller than /24 gives itself when nothing is taken.
std::optional<std::string> freeVSwitchCidr(const std::string& vpcCidr, const std::vector<std::string>& taken);

Call describeImagesCall(const std::string& region, const std::string& instanceType);
Call describeKeyPairsCall(const std::string& region, const std::string& keyName);
Call importKeyPairCall(const std::string& region, const std::string& keyName, const std::string& sshPublicKey);
/// DescribeVpcs of the VPC named kVpcName.
Call describeOurVpcCall(const std::string& region);
/// DescribeVpcs IsDefault=true: the account's default VPC in the region.
Call describeDefaultVpcCall(const std::string& region);
Call createVpcCall(const std::string& region, const std::string& clientToken);
Call describeSecurityGroupsCall(const std::string& region, const std::string& vpcId, const std::string& groupName);
Call createSecurityGroupCall(const std::string& region,
                             const std::string& vpcId,
                             const std::string& groupName,
                             const std::string& cidr,
                             const std::string& clientToken);
/// The group's inbound rules.
Call describeSecurityGroupAttributeCall(const std::string& region, const std::string& groupId);
/// One inbound rule: TCP 22/22 from `cidr`, accept (Permissions.1.*; the flat fields are deprecated in the SDK).
Call authorizeSshCall(const std::string& region, const std::string& groupId, const std::string& cidr);
/// DescribeAvailableResource of the type for one way of paying: its stock in every zone of the region.
Call availableResourceCall(const std::string& region, const std::string& instanceType, LaunchPricing pricing);
/// DescribeVSwitches of the VPC; in one zone when `zone` is not empty.
Call describeVSwitchesCall(const std::string& region, const std::string& vpcId, const std::string& zone);
Call createVSwitchCall(const std::string& region,
                       const std::string& vpcId,
                       const std::string& zone,
                       const std::string& cidr,
                       const std::string& clientToken);
/// RunInstances for one instance. `keyPair`, `groupId` and `vSwitchId` may be empty (a dry run before they exist).
/// `now` is the Unix time, to check terminateAt. InvalidArgument for a missing or over-long (or non-ASCII)
/// ClientToken, user data over 32 KB before encoding, a subscription without months, or a terminateAt less than
/// 30 minutes ahead.
Result<Call> runInstancesCall(const LaunchRequest& request,
                              const std::string& zone,
                              const std::string& imageId,
                              const std::string& keyPair,
                              const std::string& groupId,
                              const std::string& vSwitchId,
                              std::int64_t now);
Call describeInstanceCall(const std::string& region, const std::string& instanceId);
/// DescribeInstances of every instance tagged kOwnerTagKey, one page of kPageSize after `nextToken`.
Call listOursCall(const std::string& region, const std::string& nextToken);
Call deleteInstanceCall(const std::string& region, const std::string& instanceId);
/// DescribePrice for one instance as RunInstances would start it: per hour (pay-as-you-go or spot) or `months`.
Call describePriceCall(const std::string& region,
                       const std::string& instanceType,
                       const std::string& zone,
                       const std::string& imageId,
                       LaunchPricing pricing,
                       int months);

// ---- Parsers. Each takes the body of a successful answer; ProviderRefused naming the action (and the field) when
// the body is not a JSON object or lacks what the action needs.

struct Image
{
    std::string imageId;
    std::string name;
    std::string description;
    std::string creationTime; // ISO 8601; compares in time order as text
    std::string status;       // Available when usable
};
Result<std::vector<Image>> parseDescribeImages(std::string_view body);
/// The newest Available image whose name or description says it carries a GPU driver ("GPU", "NVIDIA", "CUDA",
/// "驱动"), or nullopt.
std::optional<Image> newestGpuImage(const std::vector<Image>& images);

/// KeyPairs.KeyPair[].KeyPairName.
Result<std::vector<std::string>> parseDescribeKeyPairs(std::string_view body);
/// The imported key's KeyPairName.
Result<std::string> parseImportKeyPair(std::string_view body);

struct Vpc
{
    std::string vpcId;
    std::string name;
    std::string cidrBlock;
    bool isDefault = false;
    std::string status;
};
Result<std::vector<Vpc>> parseDescribeVpcs(std::string_view body);
/// The new VPC's VpcId.
Result<std::string> parseCreateVpc(std::string_view body);

struct SecurityGroup
{
    std::string groupId;
    std::string name;
    std::string vpcId;
};
Result<std::vector<SecurityGroup>> parseDescribeSecurityGroups(std::string_view body);
Result<std::string> parseCreateSecurityGroup(std::string_view body);

/// One rule of DescribeSecurityGroupAttribute's Permissions.Permission[].
struct Permission
{
    std::string ipProtocol; // TCP, UDP, ICMP, GRE, ALL
    std::string portRange;  // "22/22", "1/65535", "-1/-1"
    std::string sourceCidrIp;
    std::string policy;    // Accept, Drop
    std::string direction; // ingress, egress
};
Result<std::vector<Permission>> parseSecurityGroupPermissions(std::string_view body);
/// Whether an inbound rule accepts TCP port 22 from exactly `cidr` (a range or ALL counts).
bool allowsSshFrom(const std::vector<Permission>& rules, const std::string& cidr);

/// The zones (in the answer's order) whose AvailableZone.Status is Available and whose InstanceType resource
/// `instanceType` is Available with StatusCategory WithStock or ClosedWithStock.
Result<std::vector<std::string>> parseAvailableZones(std::string_view body, const std::string& instanceType);

struct VSwitch
{
    std::string vSwitchId;
    std::string name;
    std::string zone;
    std::string cidrBlock;
    std::string status; // Available, Pending
};
Result<std::vector<VSwitch>> parseDescribeVSwitches(std::string_view body);
Result<std::string> parseCreateVSwitch(std::string_view body);

/// InstanceIdSets.InstanceIdSet (empty when the answer has none).
Result<std::vector<std::string>> parseRunInstances(std::string_view body);

/// An instance as DescribeInstances reports it: what RemoteInstance holds, and what terminate() needs.
struct EcsInstance
{
    RemoteInstance remote;
    std::string chargeType;                // PostPaid, PrePaid
    std::string expiredTime;               // as ECS writes it ("2017-12-10T04:04Z")
    std::optional<std::int64_t> expiresAt; // ExpiredTime in Unix seconds, when it reads as a time
    bool recycling = false;                // OperationLocks has LockReason "Recycling": a spot instance reclaimed
};
struct InstancesPage
{
    std::vector<EcsInstance> instances;
    std::string nextToken; // empty on the last page
};
/// clientToken from the kOwnerTagKey tag; launchedAt from CreationTime ("2017-12-10T04:04Z", minutes).
Result<InstancesPage> parseDescribeInstances(std::string_view body, const std::string& region);
/// Pending, Starting -> Pending; Running -> Running; Stopping -> Stopping; Stopped -> Stopped; else Pending.
InstanceState stateFromEcs(std::string_view status);
/// "2017-12-10T04:04Z" or "2017-12-10T04:04:05Z" -> Unix seconds.
std::optional<std::int64_t> parseEcsTime(std::string_view text);

/// Ok when the answer is a JSON object with a RequestId (AuthorizeSecurityGroup, DeleteInstances).
Status parseEmptyAnswer(std::string_view body, const std::string& action);

// ---- Errors.

/// An error answer's {Code, Message, RequestId}; nullopt when the body is not a JSON object with a Code.
std::optional<ApiError> responseError(std::string_view body);

/// What the failed call was about, for the advice: the call, and the product that answered it.
struct ErrorContext : CallContext
{
    Product product = Product::Ecs;
};

/// The RAM action a call needs: "ecs:RunInstances", "vpc:CreateVpc".
std::string ramAction(const ErrorContext& context);
/// An answer as an Error, or nullopt when it is a success (2xx with a JSON object): the code kept in providerCode,
/// a stable ErrorCode, and the advice as an "error.alibaba.*" reason with the code ("code"), message ("said") and
/// RequestId ("request_id"). A non-2xx answer without an error document is HttpStatus.
std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context);

} // namespace gpuplan::core::alibaba
