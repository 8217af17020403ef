#pragma once

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/Instance.h"
#include "gpuplan/cloud/ProviderError.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/net/Http.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

// The pieces of Huawei Cloud's REST APIs that HuaweiProvider uses: ECS (v1, v1.1 and the Nova v2.1 paths) for zones,
// flavors, key pairs, servers and jobs; VPC v1 for VPCs, subnets and security groups; IMS v2 for images; IAM
// (Keystone v3) for the region's project id. Each call as method, path, query, JSON body and headers; the parsers of
// the documented answers; the mapping of Huawei's error bodies to ErrorCode with advice. Pure functions: no network,
// thread-safe. Public so that TestHuaweiEcs can check each piece on its own.
// source: https://support.huaweicloud.com/api-ecs/ecs_02_0101.html (CreateServers) and the SDK models in
// tests/integration/sdk/node_modules/@huaweicloud/huaweicloud-sdk-ecs, -vpc.
namespace gpuplan::core::huawei {

/// What @huaweicloud/huaweicloud-sdk-core sends with a JSON body, and signs.
inline constexpr std::string_view kContentType = "application/json";
/// CreateServers, user_data: "注入的数据大小 ≤ 32K" of the text before base64.
inline constexpr std::size_t kMaxUserDataBytes = 32768;
/// server_tags (数据结构(创建云服务器)): at most 10 tags; a key at most 36 characters, a value at most 43, neither with
/// control characters or = * < > \ , | (nor / in a key). The client token is the value of the kOwnerTagKey tag, so it
/// is held to 43 too (the X-Client-Token header itself is documented only as "32位UUID格式").
inline constexpr std::size_t kMaxTags = 10;
inline constexpr std::size_t kMaxTagKeyChars = 36;
inline constexpr std::size_t kMaxTagValueChars = 43;
inline constexpr std::size_t kMaxClientTokenBytes = kMaxTagValueChars;
/// auto_terminate_time: at least half an hour ahead ("最短定时删除时间为当前时间半小时之后").
inline constexpr std::int64_t kMinTerminateAheadSeconds = 30 * 60;
/// ListServersDetails, limit (pages of this many; offset is the page number from 1).
inline constexpr int kPageLimit = 100;
/// publicip.eip.bandwidth: a public IP paid by traffic, capped at this many Mbit/s (enough for SSH, the probe and
/// pulling a container; the charge follows the traffic).
inline constexpr int kBandwidthMbit = 10;
/// The VPC GPU Planner creates when the project has none of its own, and its address range.
inline constexpr std::string_view kVpcName = "gpuplanner";
inline constexpr std::string_view kVpcCidr = "192.168.0.0/16";

enum class Service
{
    Ecs,
    Vpc,
    Ims,
    Iam,
    Bss, // global: bss.myhuaweicloud.com, for prices
};

/// "ecs", "vpc", "ims", "iam", "bss": the first label of the service's host.
const char* serviceName(Service service);
/// "https://ecs.cn-north-4.myhuaweicloud.com" ("https://bss.myhuaweicloud.com" for BSS, a global service); `endpoint`,
/// when not empty, replaces it for every service (a fake that serves all paths on one port, or a private endpoint),
/// without a trailing '/'.
std::string baseUrl(Service service, const std::string& region, const std::string& endpoint);

/// One API call: the service, the operation's name (as the SDK names it, for messages and the IAM action), the HTTP
/// method, the path with the project id filled in, the query (names and values unencoded), the JSON body (null: none)
/// and extra headers (X-Client-Token); whether sending it twice is harmless.
struct Call
{
    Service service = Service::Ecs;
    std::string action;
    std::string method = "GET";
    std::string path;
    std::vector<std::pair<std::string, std::string>> query;
    nlohmann::json body;
    std::vector<HttpHeader> headers;
    bool safeToRetry = false;
};

/// The body exactly as sent (compact JSON, UTF-8); empty without one.
std::string body(const Call& call);
/// The request, not yet signed: the URL with the query percent-encoded, Content-Type for a JSON body, X-Project-Id
/// (as the SDK's BasicCredentials adds it to every region-level call) when `projectId` is not empty, the call's
/// headers.
HttpRequest
buildRequest(const Call& call, const std::string& region, const std::string& endpoint, const std::string& projectId);

/// "gpuplanner-" + the first 12 hex digits of SHA-256 over the key's base64 blob. Key pair names take letters,
/// digits, '-' and '_', at most 64. InvalidArgument when the line has no blob.
Result<std::string> keyPairName(const std::string& sshPublicKey);
/// "gpuplanner-ssh-203-0-113-7-32" for "203.0.113.7/32".
std::string securityGroupName(const std::string& cidr);
/// "gpuplanner-" + the first 8 characters of the token that are letters or digits.
std::string instanceName(const std::string& clientToken);
/// "gpuplanner-cn-north-4a": the subnet GPU Planner creates in a zone.
std::string subnetName(const std::string& zone);
/// "2026-12-03T19:05:00Z": auto_terminate_time, "按照ISO8601标准表示，并使用UTC +0时间，格式为yyyy-MM-ddTHH:mm:ssZ",
/// rounded down to the minute (Huawei ignores the seconds).
std::string autoTerminateTime(std::int64_t unixSeconds);
/// The first /24 inside `vpcCidr` that overlaps none of `usedCidrs` ("192.168.0.0/24"), or nullopt when the VPC
/// range is not IPv4, narrower than /24, or full.
std::optional<std::string> firstFreeSubnet(const std::string& vpcCidr, const std::vector<std::string>& usedCidrs);
/// "192.168.3.1" for "192.168.3.0/24": the subnet's gateway, its first address.
std::string gatewayOf(const std::string& subnetCidr);

// ---- Calls.

/// KeystoneListProjects on IAM: GET /v3/projects?name=<region>.
Call listProjectsCall(const std::string& region);
/// ShowPermanentAccessKey on IAM: GET /v3.0/OS-CREDENTIAL/credentials/{access_key}: the key's user id, which a
/// prepaid server with a key pair needs (metadata.op_svc_userid).
Call showAccessKeyCall(const std::string& accessKeyId);
/// NovaListAvailabilityZones: GET /v2.1/{project_id}/os-availability-zone.
Call listZonesCall(const std::string& projectId);
/// ListFlavors: GET /v1/{project_id}/cloudservers/flavors, of one zone when `zone` is not empty.
Call listFlavorsCall(const std::string& projectId, const std::string& zone);
/// IMS ListImages: GET /v2/cloudimages of public (gold) Linux images that are active and can run `flavorId`.
Call listImagesCall(const std::string& flavorId);
/// NovaShowKeypair: GET /v2.1/{project_id}/os-keypairs/{name} (404 when absent).
Call showKeyPairCall(const std::string& projectId, const std::string& name);
/// NovaCreateKeypair: POST /v2.1/{project_id}/os-keypairs {"keypair": {"name", "public_key"}} (an import).
Call createKeyPairCall(const std::string& projectId, const std::string& name, const std::string& sshPublicKey);
/// ListVpcs: GET /v1/{project_id}/vpcs (one page: the default limit is 2000).
Call listVpcsCall(const std::string& projectId);
/// ShowVpc: GET /v1/{project_id}/vpcs/{vpc_id} (a new VPC's status).
Call showVpcCall(const std::string& projectId, const std::string& vpcId);
/// CreateVpc: POST /v1/{project_id}/vpcs {"vpc": {"name": "gpuplanner", "cidr": "192.168.0.0/16", "description"}}.
Call createVpcCall(const std::string& projectId);
/// ListSubnets: GET /v1/{project_id}/subnets?vpc_id=.
Call listSubnetsCall(const std::string& projectId, const std::string& vpcId);
/// ShowSubnet: GET /v1/{project_id}/subnets/{subnet_id}.
Call showSubnetCall(const std::string& projectId, const std::string& subnetId);
/// CreateSubnet: POST /v1/{project_id}/subnets {"subnet": {"name", "cidr", "gateway_ip", "vpc_id",
/// "availability_zone"}}.
Call createSubnetCall(const std::string& projectId,
                      const std::string& vpcId,
                      const std::string& zone,
                      const std::string& cidr);
/// ListSecurityGroups: GET /v1/{project_id}/security-groups?vpc_id= (the name is matched here, not by Huawei).
Call listSecurityGroupsCall(const std::string& projectId, const std::string& vpcId);
/// CreateSecurityGroup: POST /v1/{project_id}/security-groups {"security_group": {"name", "vpc_id"}}; a new group
/// allows all outbound traffic.
Call createSecurityGroupCall(const std::string& projectId, const std::string& name, const std::string& vpcId);
/// CreateSecurityGroupRule: POST /v1/{project_id}/security-group-rules, TCP 22 inbound from `cidr`.
Call createSshRuleCall(const std::string& projectId, const std::string& groupId, const std::string& cidr);

/// What CreateServers needs besides the request: where it runs and what it uses. `keyName` and `groupId` may be
/// empty (a dry run before they exist); `userId` is the key's IAM user (prepaid with a key pair).
struct ServerPlacement
{
    std::string projectId;
    std::string zone;
    std::string imageId;
    std::string keyName;
    std::string vpcId;
    std::string subnetId;
    std::string groupId;
    std::string userId;
};
/// CreateServers: POST /v1.1/{project_id}/cloudservers with X-Client-Token. `now` is the Unix time, to check
/// terminateAt. InvalidArgument for a missing or over-long client token, a tag Huawei refuses
/// (error.huawei.tag_invalid) or more than 10 of them, user data over 32 KB, a subscription without a period Huawei
/// sells (1-9 months, or 1-3 whole years), or a terminateAt less than 30 minutes ahead.
Result<Call> createServersCall(const LaunchRequest& request, const ServerPlacement& placement, std::int64_t now);
/// ShowJob: GET /v1/{project_id}/jobs/{job_id}.
Call showJobCall(const std::string& projectId, const std::string& jobId);
/// ShowServer: GET /v1/{project_id}/cloudservers/{server_id}.
Call showServerCall(const std::string& projectId, const std::string& serverId);
/// ListServersDetails: GET /v1/{project_id}/cloudservers/detail?limit=100&offset=<page, from 1>.
Call listServersCall(const std::string& projectId, int page);
/// DeleteServers: POST /v1/{project_id}/cloudservers/delete, with its EIP and disks.
Call deleteServersCall(const std::string& projectId, const std::string& serverId);
/// BSS ListOnDemandResourceRatings (POST /v2/bills/ratings/on-demand-resources): one hour of the flavor (Linux) in
/// the region, as core/prices asks it.
Call onDemandRatingCall(const std::string& projectId, const std::string& region, const std::string& flavor);
/// BSS ListRateOnPeriodDetail (POST /v2/bills/ratings/period-resources/subscribe-rate): `months` of the flavor, as
/// whole years when they are (period_type 3), else months (period_type 2).
Call periodRatingCall(const std::string& projectId, const std::string& region, const std::string& flavor, int months);
/// The list price (official_website_amount, in yuan) of the rating's product "1"; nullopt when the answer has none.
Result<std::optional<double>> parseOnDemandRating(std::string_view body);
/// official_website_rating_result's list price of the whole period, in yuan; nullopt when the answer has none.
Result<std::optional<double>> parsePeriodRating(std::string_view body);

// ---- Parsers. Each takes a successful answer's body; ProviderRefused (the kit's "error.answer.*", JsonAnswer.h,
// naming the action and the field) when it is not JSON, not an object, or lacks a field the action needs.

/// The credential's optional project_id setting: "cn-north-4:0a1b…,cn-east-3:2c3d…" gives each region its project;
/// a bare id (no "region:") is the project of whatever region is launched in, under the key "". Blanks around the
/// parts are ignored; an empty text gives an empty map.
std::map<std::string, std::string> parseProjectIdSetting(const std::string& text);
/// The id of the project named `region` (projects[].name == region; the first one when several).
Result<std::string> parseProjects(std::string_view body, const std::string& region);
/// credential.user_id.
Result<std::string> parseAccessKeyUser(std::string_view body);

struct Zone
{
    std::string name;
    bool available = false;
};
Result<std::vector<Zone>> parseZones(std::string_view body);

struct Flavor
{
    std::string id;
    std::string name;
    std::string vcpus;
    int ramMb = 0;
    std::string status;     // cond:operation:status: normal, abandon, sellout, obt, promotion...
    std::string azStatus;   // cond:operation:az: "cn-north-4a(normal),cn-north-4b(sellout)"
    std::string spotStatus; // cond:spot:operation:status
    std::string spotAz;     // cond:spot:operation:az
};
Result<std::vector<Flavor>> parseFlavors(std::string_view body);
/// The available zones where `flavorId` is sold ("normal"; for spot the cond:spot:* specs): its per-zone status when
/// the zone is listed there, else the flavor's global status, in the zone list's order.
std::vector<std::string> zonesOffering(const std::vector<Zone>& zones,
                                       const std::vector<Flavor>& flavors,
                                       const std::string& flavorId,
                                       bool spot);

struct Image
{
    std::string id;
    std::string name;
    std::string platform;
    std::string createdAt; // "2026-01-01T00:00:00Z": compares in time order as text
    std::string status;
};
Result<std::vector<Image>> parseImages(std::string_view body);
/// The newest active image whose name says it carries the GPU driver ("GPU", "Tesla", "NVIDIA", "CUDA", "驱动").
std::optional<Image> newestGpuImage(const std::vector<Image>& images);

/// keypair.name of NovaShowKeypair or NovaCreateKeypair.
Result<std::string> parseKeyPair(std::string_view body, const std::string& action);

struct Vpc
{
    std::string id;
    std::string name;
    std::string cidr;
    std::string status; // OK when usable, CREATING
};
Result<std::vector<Vpc>> parseVpcs(std::string_view body);
/// "vpc" of CreateVpc and ShowVpc.
Result<Vpc> parseVpc(std::string_view body, const std::string& action);

struct Subnet
{
    std::string id;
    std::string name;
    std::string cidr;
    std::string zone; // availability_zone; empty: it serves every zone
    std::string vpcId;
    std::string status; // ACTIVE when usable, UNKNOWN, ERROR
};
Result<std::vector<Subnet>> parseSubnets(std::string_view body);
/// "subnet" of CreateSubnet and ShowSubnet.
Result<Subnet> parseSubnet(std::string_view body, const std::string& action);

struct SecurityGroupRule
{
    std::string direction; // ingress, egress
    std::string ethertype; // IPv4, IPv6
    std::string protocol;  // tcp, udp, icmp; empty: any
    int portMin = 0;       // 0 with portMax 0: any port
    int portMax = 0;
    std::string remoteIpPrefix;
    std::string action; // allow, deny; empty on answers without rule actions (allow)
};
struct SecurityGroup
{
    std::string id;
    std::string name;
    std::string vpcId;
    std::vector<SecurityGroupRule> rules;
};
Result<std::vector<SecurityGroup>> parseSecurityGroups(std::string_view body);
/// "security_group" of CreateSecurityGroup.
Result<SecurityGroup> parseSecurityGroup(std::string_view body);
/// "security_group_rule.id" of CreateSecurityGroupRule.
Result<std::string> parseSecurityGroupRule(std::string_view body);
/// Whether an inbound IPv4 rule lets TCP 22 in from exactly `cidr` (any protocol, or tcp with a range holding 22).
bool allowsSshFrom(const std::vector<SecurityGroupRule>& rules, const std::string& cidr);

struct CreatedServers
{
    std::string jobId;
    std::vector<std::string> serverIds;
    std::string orderId; // prepaid
};
Result<CreatedServers> parseCreateServers(std::string_view body);

struct Job
{
    std::string status; // INIT, RUNNING, SUCCESS, FAIL
    std::vector<std::string> serverIds;
    std::string failReason;
    std::string errorCode;
};
Result<Job> parseJob(std::string_view body);

/// How a server is paid for: metadata.charging_mode "0" pay-per-use, "1" prepaid, "2" spot.
enum class ChargingMode
{
    Unknown,
    PostPaid,
    PrePaid,
    Spot,
};
struct Server
{
    RemoteInstance instance;
    ChargingMode charging = ChargingMode::Unknown;
};
/// "server" of ShowServer.
Result<Server> parseServer(std::string_view body, const std::string& region);
struct ServersPage
{
    std::vector<Server> servers;
    int count = 0;
};
/// ListServersDetails: every server of the page, ours or not (Server::instance.clientToken is set for ours).
Result<ServersPage> parseServers(std::string_view body, const std::string& region);
/// job_id of DeleteServers.
Result<std::string> parseDeleteServers(std::string_view body);

/// BUILD / REBUILD / RESIZE / VERIFY_RESIZE / REBOOT / HARD_REBOOT / MIGRATING -> Pending (Running again soon),
/// ACTIVE -> Running, SHUTOFF -> Stopped, DELETED / SOFT_DELETED -> Terminated, ERROR -> Failed; else Pending.
InstanceState stateFromEcs(std::string_view status);

// ---- Errors.

/// Huawei's error of an answer in any of its shapes: {"error": {"code", "message"}} (ECS, IAM),
/// {"error_code", "error_msg", "request_id"} (API gateway, IMS, BSS), {"code", "message"} (VPC v1) and Nova's
/// {"badRequest": {"message", "code"}} / {"itemNotFound": {...}} (the wrapper's name as the code when the inner code
/// is a number). nullopt when the body has none.
std::optional<ApiError> apiError(std::string_view body);

/// What the failed call was about, for the advice.
struct ErrorContext : CallContext
{
    Service service = Service::Ecs;
    bool prepaid = false;
};

/// The IAM action a call needs: "ecs:cloudServers:create", "vpc:vpcs:create", "ims:images:list".
std::string iamAction(const std::string& action);
/// An answer as an Error, or nullopt when it is a 2xx success: Huawei's code kept in providerCode, a stable ErrorCode,
/// and the advice as an "error.huawei.*" reason with the code ("code"), message ("said") and request id
/// ("request_id"). A non-2xx answer without a Huawei error is HttpStatus naming the action.
std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context);
/// A job that ended in FAIL as an Error: sold out -> InsufficientCapacity (the Launcher tries the next zone), quota,
/// balance, else ProviderRefused with the job's fail_reason.
Error jobFailure(const Job& job, const ErrorContext& context);

} // namespace gpuplan::core::huawei
