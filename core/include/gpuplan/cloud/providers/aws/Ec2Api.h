#pragma once

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/Instance.h"
#include "gpuplan/cloud/ProviderError.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/net/Http.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// The pieces of the EC2 Query API (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/Query-Requests.html,
// Version 2016-11-15) that AwsEc2Provider uses: the parameters each operation sends, the parsers of the XML
// answers, and the mapping of EC2 error codes to ErrorCode with advice. Pure functions: no network, thread-safe.
// Public so that TestAwsEc2 and TestEc2Wire can check each piece on its own.
namespace gpuplan::core::ec2 {

inline constexpr std::string_view kApiVersion = "2016-11-15";
/// What @aws-sdk/client-ec2 sends (and signs), so that our requests are the SDK's byte for byte apart from the
/// order of the parameters.
inline constexpr std::string_view kContentType = "application/x-www-form-urlencoded";
/// The AWS Deep Learning Base GPU AMI for Ubuntu 22.04 with the open-source NVIDIA kernel driver, as AWS names it
/// in "Find the ID of a DLAMI" (https://docs.aws.amazon.com/dlami/latest/devguide/find-dlami-id.html): the eight
/// '?' are the release date YYYYMMDD. EC2 name filters take '?' for one character and '*' for any.
// wire: the name filter EC2 matches, the image's name as AWS gives it
inline constexpr std::string_view kDlamiNamePattern =
    "Deep Learning Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04) ????????";
/// EC2 refuses user data over 16 KB once base64-encoded (RunInstances, UserData).
inline constexpr std::size_t kMaxUserDataBytes = 16384;

/// Query parameters in the order we add them (the wire order does not matter to EC2 or to the signature).
using Params = std::vector<std::pair<std::string, std::string>>;

/// One EC2 API call: the action (the Query API's Action), its parameters (without Action and Version) and whether
/// sending it twice is harmless (reads; RunInstances with a ClientToken; TerminateInstances).
struct Call
{
    std::string action;
    Params params;
    bool safeToRetry = false;
};

/// https://ec2.{region}.amazonaws.com/ (https://ec2.{region}.amazonaws.com.cn/ for cn-* regions).
std::string endpointFor(const std::string& region);
/// "Action=..&Version=2016-11-15&..." with names and values RFC 3986 encoded.
std::string formBody(const Call& call);
/// POST `baseUrl` with the form body and Content-Type; not yet signed.
HttpRequest buildRequest(const std::string& baseUrl, const Call& call);

/// "gpuplanner-" + the first 12 hex digits of SHA-256 over the key's base64 blob (the second field of the OpenSSH
/// line), so the same key always maps to the same key pair. InvalidArgument when the line has no blob.
Result<std::string> keyPairName(const std::string& sshPublicKey);
/// "gpuplanner-ssh-203-0-113-7-32" for "203.0.113.7/32".
std::string securityGroupName(const std::string& cidr);

Call describeImagesCall(const std::string& namePattern);
Call describeKeyPairsCall(const std::string& keyName);
Call importKeyPairCall(const std::string& keyName, const std::string& sshPublicKey, bool dryRun);
Call describeSecurityGroupsCall(const std::string& groupName);
Call createSecurityGroupCall(const std::string& groupName, const std::string& cidr, bool dryRun);
Call authorizeSshCall(const std::string& groupId, const std::string& cidr, bool dryRun);
/// RunInstances for one instance. `groupId` may be empty (a dry run whose group does not exist yet).
/// InvalidArgument for a missing or over-long ClientToken, user data over 16 KB encoded, or Subscription pricing
/// (ProviderRefused).
Result<Call> runInstancesCall(const LaunchRequest& request,
                              const std::string& imageId,
                              const std::string& keyName,
                              const std::string& groupId);
Call describeInstanceCall(const std::string& instanceId);
/// DescribeInstances of every instance tagged kOwnerTagKey; `nextToken` from the previous page or empty.
Call listOursCall(const std::string& nextToken);
Call terminateCall(const std::string& instanceId);
Call instanceTypeOfferingsCall(const std::string& instanceType, const std::string& nextToken);
/// DescribeSpotPriceHistory of Linux/UNIX for these types, StartTime = EndTime = `at` (ISO 8601): the price in force
/// then, per zone and type; only `zone` when one is given; `nextToken` from the previous page or empty.
Call spotPriceHistoryCall(const std::vector<std::string>& instanceTypes,
                          const std::string& zone,
                          const std::string& at,
                          const std::string& nextToken);

// ---- Parsers. Each takes the body of a 2xx answer; ProviderRefused naming the operation when the body is not XML,
// has another root element, or lacks a field the operation needs.

struct Image
{
    std::string imageId;
    std::string name;
    std::string creationDate; // ISO 8601; compares in time order as text
    std::string state;
    std::string architecture;
};
Result<std::vector<Image>> parseDescribeImages(std::string_view body);
/// The newest (creationDate) available image, or nullopt.
std::optional<Image> newestImage(const std::vector<Image>& images);

struct KeyPair
{
    std::string keyName;
    std::string keyPairId;
    std::string fingerprint;
};
Result<std::vector<KeyPair>> parseDescribeKeyPairs(std::string_view body);
Result<KeyPair> parseImportKeyPair(std::string_view body);

/// One inbound rule of a security group (<ipPermissions><item>): its protocol ("tcp", "-1" for every protocol), its
/// port range and the IPv4 ranges it lets in.
struct IngressRule
{
    std::string protocol;
    int fromPort = -1;
    int toPort = -1;
    std::vector<std::string> cidrs;
};

struct SecurityGroup
{
    std::string groupId;
    std::string groupName;
    std::string vpcId;
    std::vector<IngressRule> ingress;
};
Result<std::vector<SecurityGroup>> parseDescribeSecurityGroups(std::string_view body);
/// Whether one of the group's inbound rules lets TCP port 22 in from exactly `cidr` (the rule authorizeSshCall adds,
/// or a wider one of ports or protocols for the same source).
bool allowsSshFrom(const SecurityGroup& group, const std::string& cidr);
/// The new group's id.
Result<std::string> parseCreateSecurityGroup(std::string_view body);
/// Ok when <return> is true.
Status parseAuthorizeSecurityGroupIngress(std::string_view body);

/// The instances of RunInstances' reservation.
Result<std::vector<RemoteInstance>> parseRunInstances(std::string_view body, const std::string& region);
struct InstancesPage
{
    std::vector<RemoteInstance> instances;
    std::string nextToken;
};
/// clientToken comes from <clientToken>, else from the kOwnerTagKey tag.
Result<InstancesPage> parseDescribeInstances(std::string_view body, const std::string& region);
struct StateChange
{
    std::string instanceId;
    std::string currentState;
};
Result<std::vector<StateChange>> parseTerminateInstances(std::string_view body);
struct OfferingsPage
{
    std::vector<std::string> zones;
    std::string nextToken;
};
Result<OfferingsPage> parseInstanceTypeOfferings(std::string_view body);

/// pending -> Pending, running -> Running, shutting-down and stopping -> Stopping, stopped -> Stopped,
/// terminated -> Terminated; anything else Pending.
InstanceState stateFromEc2(std::string_view name);

// ---- Errors.

/// The first error of an EC2 error document
/// (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html#api-error-response).
std::optional<ApiError> parseError(std::string_view body);

/// What the failed call was about, for the advice.
using ErrorContext = CallContext;

/// The Service Quotas quota that limits `instanceType` (by its family letter) for on-demand or spot, e.g.
/// "Running On-Demand G and VT instances".
std::string quotaNameFor(const std::string& instanceType, bool spot);
/// An error response (any status) as an Error: the EC2 code kept in providerCode, a stable ErrorCode and the advice
/// as an "error.ec2.*" reason whose parameters carry EC2's message ("said") and the RequestID ("request_id"). A body
/// that is not an EC2 error document gives HttpStatus (non-2xx).
Error mapError(const HttpResponse& response, const ErrorContext& context);

} // namespace gpuplan::core::ec2
