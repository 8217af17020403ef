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
#include <vector>

#include <nlohmann/json.hpp>

// The pieces of Tencent Cloud API 3.0 (https://cloud.tencent.com/document/api/213/15692, 请求结构) that
// TencentCvmProvider uses: the parameters each action sends, the parsers of the JSON answers and the mapping of
// Response.Error codes to ErrorCode with advice. CVM (version 2017-03-12) for images, key pairs, zones and instances;
// VPC (version 2017-03-12) for security groups. Pure functions: no network, thread-safe. Public so that
// TestTencentCvm and TestCvmWire can check each piece on its own.
namespace gpuplan::core::cvm {

inline constexpr std::string_view kCvmVersion = "2017-03-12";
inline constexpr std::string_view kVpcVersion = "2017-03-12";
/// What tencentcloud-sdk-nodejs-common sends for a POST with a JSON body (http_connection.js: the profile's
/// Content-Type, else "application/json"), and signs.
inline constexpr std::string_view kContentType = "application/json";
/// RunInstances, UserData: "需要以 base64 方式编码，支持的最大数据大小为 16KB" (the encoded size).
inline constexpr std::size_t kMaxUserDataBytes = 16384;
/// ClientToken: "最大值不超过64个ASCII字符".
inline constexpr std::size_t kMaxClientTokenBytes = 64;
/// DescribeInstances, Limit: at most 100.
inline constexpr int kPageLimit = 100;
/// RunInstances, InternetAccessible: public IP, paid by traffic, capped at this many Mbps (enough for SSH, the probe
/// and pulling a container; the charge follows the traffic, not the cap).
inline constexpr int kMaxBandwidthOutMbps = 10;

enum class Service
{
    Cvm,
    Vpc,
};

/// "cvm", "vpc": the first label of the product's host and the service in the TC3 credential scope.
const char* serviceName(Service service);

/// One API call: the product, the action (X-TC-Action), its parameters (the JSON body) and whether sending it twice
/// is harmless (reads; RunInstances with a ClientToken; TerminateInstances).
struct Call
{
    Service service = Service::Cvm;
    std::string action;
    nlohmann::json params = nlohmann::json::object();
    bool safeToRetry = false;
};

/// "https://cvm.tencentcloudapi.com/", "https://vpc.tencentcloudapi.com/"; `endpoint`, when not empty, replaces the
/// base for both (a fake or a private endpoint; the service name used in signing stays the product's).
std::string baseUrl(Service service, const std::string& endpoint);
/// The body exactly as sent (compact JSON, UTF-8).
std::string body(const Call& call);
/// POST `url` with the X-TC-Action, X-TC-Version, X-TC-Region and Content-Type headers and the body; not signed.
HttpRequest buildRequest(const std::string& url, const Call& call, const std::string& region);

/// "gpuplanner_" + the first 12 hex digits of SHA-256 over the key's base64 blob (the second field of the OpenSSH
/// line). Tencent key pair names take letters, digits and underscores, at most 25 characters (ImportKeyPair,
/// KeyName), so no '-'. InvalidArgument when the line has no blob.
Result<std::string> keyPairName(const std::string& sshPublicKey);
/// "gpuplanner-ssh-203-0-113-7-32" for "203.0.113.7/32".
std::string securityGroupName(const std::string& cidr);
/// "2026-12-03T19:05:00Z": ActionTimer.ActionTime, "按照ISO8601标准表示，并且使用UTC时间。格式为 YYYY-MM-DDThh:mm:ssZ".
std::string actionTime(std::int64_t unixSeconds);
/// "gpuplanner-" + the first 8 characters of the token that are letters or digits.
std::string instanceName(const std::string& clientToken);

Call describeImagesCall(const std::string& instanceType);
Call describeKeyPairsCall(const std::string& keyName);
Call importKeyPairCall(const std::string& keyName, const std::string& sshPublicKey);
Call describeSecurityGroupsCall(const std::string& groupName);
Call createSecurityGroupCall(const std::string& groupName, const std::string& cidr);
/// The group's rules, both directions (vpc DescribeSecurityGroupPolicies,
/// https://cloud.tencent.com/document/api/215/15804).
Call describeSecurityGroupPoliciesCall(const std::string& groupId);
/// One direction per call ("You can only create policies in one direction in each request").
Call authorizeSshCall(const std::string& groupId, const std::string& cidr);
/// A group without rules drops all traffic, so the group also needs an outbound rule for apt, pip and the probe.
Call allowEgressCall(const std::string& groupId);
/// RunInstances for one instance. `keyId` and `groupId` may be empty (a dry run before they exist). `now` is the
/// Unix time, to check terminateAt. InvalidArgument for a missing or over-long ClientToken, user data over 16 KB
/// encoded, a subscription without months, or a terminateAt less than 5 minutes ahead (CVM refuses those).
Result<Call> runInstancesCall(const LaunchRequest& request,
                              const std::string& zone,
                              const std::string& imageId,
                              const std::string& keyId,
                              const std::string& groupId,
                              std::int64_t now);
Call describeInstanceCall(const std::string& instanceId);
/// DescribeInstances of every instance tagged kOwnerTagKey, one page of kPageLimit from `offset`.
Call listOursCall(int offset);
Call terminateCall(const std::string& instanceId);
/// DescribeZoneInstanceConfigInfos of these types for one way of paying: every zone of the region, with its prices.
Call zoneConfigCall(const std::vector<std::string>& instanceTypes, LaunchPricing pricing);
/// InquiryPriceRunInstances (https://cloud.tencent.com/document/api/213/15726) for one instance as RunInstances would
/// start it: pay-as-you-go, spot (at the default bid, as launched) or `months` prepaid.
Call inquiryPriceCall(const std::string& instanceType,
                      const std::string& zone,
                      const std::string& imageId,
                      LaunchPricing pricing,
                      int months);

// ---- Parsers. Each takes the body of an answer without Response.Error (see responseError); ProviderRefused naming
// the action when the body is not JSON, has no Response object, or lacks a field the action needs.

struct Image
{
    std::string imageId;
    std::string name;
    std::string description;
    std::string createdTime; // ISO 8601; compares in time order as text
    std::string state;       // NORMAL when usable
    std::string platform;
};
Result<std::vector<Image>> parseDescribeImages(std::string_view body);
/// The newest NORMAL image whose name or description says it carries a GPU driver ("GPU", "NVIDIA", "CUDA", "驱动"),
/// or nullopt.
std::optional<Image> newestGpuImage(const std::vector<Image>& images);

struct KeyPair
{
    std::string keyId;
    std::string keyName;
};
Result<std::vector<KeyPair>> parseDescribeKeyPairs(std::string_view body);
/// The new key's KeyId.
Result<std::string> parseImportKeyPair(std::string_view body);

struct SecurityGroup
{
    std::string groupId;
    std::string groupName;
};
Result<std::vector<SecurityGroup>> parseDescribeSecurityGroups(std::string_view body);
/// The new group's SecurityGroupId.
Result<std::string> parseCreateSecurityGroup(std::string_view body);

/// One rule of a security group (SecurityGroupPolicy): Protocol ("TCP", "ALL"...), Port ("22", "ALL", "20-30",
/// "22,80"), CidrBlock (IPv4; empty when the rule names another source) and Action ("ACCEPT", "DROP").
struct SecurityGroupPolicy
{
    std::string protocol;
    std::string port;
    std::string cidrBlock;
    std::string action;
};
struct SecurityGroupPolicies
{
    std::vector<SecurityGroupPolicy> ingress;
    std::vector<SecurityGroupPolicy> egress;
};
/// Response.SecurityGroupPolicySet's Ingress and Egress (an absent or null list reads as empty).
Result<SecurityGroupPolicies> parseDescribeSecurityGroupPolicies(std::string_view body);
/// Whether one of the inbound rules accepts TCP port 22 from exactly `cidr` (the rule authorizeSshCall adds, or a
/// wider one of ports or protocols for the same source).
bool allowsSshFrom(const std::vector<SecurityGroupPolicy>& ingress, const std::string& cidr);
/// Ok when the answer is a Response with a RequestId (CreateSecurityGroupPolicies, TerminateInstances).
Status parseEmptyAnswer(std::string_view body, const std::string& action);

/// InstanceIdSet (empty for a dry run that passed).
Result<std::vector<std::string>> parseRunInstances(std::string_view body);
struct InstancesPage
{
    std::vector<RemoteInstance> instances;
    int totalCount = 0;
};
/// clientToken from the kOwnerTagKey tag; launchedAt from CreatedTime.
Result<InstancesPage> parseDescribeInstances(std::string_view body, const std::string& region);
/// The zones whose Status is SELL, in the answer's order, without repeats.
Result<std::vector<std::string>> parseZoneConfig(std::string_view body);

/// PENDING -> Pending, RUNNING -> Running, STARTING / REBOOTING -> Pending, STOPPING / SHUTDOWN / TERMINATING ->
/// Stopping, STOPPED -> Stopped, LAUNCH_FAILED -> Failed; anything else Pending.
InstanceState stateFromCvm(std::string_view name);

// ---- Errors.

/// Response.Error of an answer: {Code, Message, RequestId}; nullopt when the answer has none (or is not JSON).
std::optional<ApiError> responseError(std::string_view body);

/// What the failed call was about, for the advice: the call, and the service (cvm or vpc) that answered it.
struct ErrorContext : CallContext
{
    Service service = Service::Cvm;
};

/// The CAM action a call needs: "cvm:RunInstances", "vpc:CreateSecurityGroup".
std::string camAction(const ErrorContext& context);
/// An answer as an Error, or nullopt when it is a success: Response.Error's code kept in providerCode, a stable
/// ErrorCode, and the advice as an "error.cvm.*" reason with Tencent's code ("code"), message ("said") and RequestId
/// ("request_id") as parameters; a non-2xx status without a Tencent error is HttpStatus; a body
/// that is not JSON or has no Response is ProviderRefused naming the action. Never includes the secret key.
std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context);

} // namespace gpuplan::core::cvm
