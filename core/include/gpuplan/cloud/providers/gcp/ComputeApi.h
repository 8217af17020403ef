#pragma once

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/Instance.h"
#include "gpuplan/cloud/ProviderError.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/net/Http.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

// The pieces of the Compute Engine REST API v1 that GcpProvider uses: aggregated machine and accelerator types (the
// zones offering a type), images from a family, firewalls, instances and their operations. Each call as method, path,
// query and JSON body; the parsers of the documented resources; the mapping of Google's error bodies and of an
// operation's errors to ErrorCode with advice. Pure functions: no network, thread-safe. Public so that TestGce and the
// SDK wire test can check each piece on its own.
// source: https://cloud.google.com/compute/docs/reference/rest/v1 and the SDK's protos
// (tests/integration/sdk/node_modules/@google-cloud/compute/build/protos/protos.json: each method's google.api.http
// path, each message's JSON names).
namespace gpuplan::core::gcp {

/// The OAuth2 scope every call is authorized for.
inline constexpr std::string_view kScope = "https://www.googleapis.com/auth/cloud-platform";
/// The login user the key is given to in the ssh-keys metadata (the guest agent creates it).
inline constexpr std::string_view kLoginUser = "ubuntu";
/// The project that publishes the Deep Learning VM images.
inline constexpr std::string_view kImageProject = "deeplearning-platform-release";
/// Deep Learning VM families with the NVIDIA driver, newest first; the first that answers and is not deprecated is
/// used. Family names follow the framework support windows
/// (https://cloud.google.com/deep-learning-vm/docs/framework-support-policy), so the list is tried in order.
inline constexpr std::array<std::string_view, 3> kImageFamilies = {
    "common-cu129-ubuntu-2204-nvidia-580",
    "common-cu128-ubuntu-2204-nvidia-570",
    "common-cu121-debian-11-py310",
};
/// The boot disk: 200 GB of balanced persistent disk (room for a container and a data set).
inline constexpr int kBootDiskGb = 200;
/// aggregatedList's maxResults (its documented largest value, 500).
inline constexpr int kPageSize = 500;
/// Instance metadata: "The total size of all keys and values must be less than 512 KB"; a value at most 256 KB
/// (https://cloud.google.com/compute/docs/metadata/setting-custom-metadata#limitations).
inline constexpr std::size_t kMaxMetadataBytes = 512 * 1024;
inline constexpr std::size_t kMaxMetadataValueBytes = 256 * 1024;
/// Labels: at most 64 per resource; keys and values at most 63 characters
/// (https://cloud.google.com/compute/docs/labeling-resources#requirements).
inline constexpr std::size_t kMaxLabels = 64;
inline constexpr std::size_t kMaxLabelChars = 63;

/// "https://compute.googleapis.com/compute/v1"; with `endpoint` (a fake, a private endpoint): endpoint + "/compute/v1".
std::string apiBase(const std::string& endpoint);
/// "https://oauth2.googleapis.com/token"; with `endpoint`: endpoint + "/token".
std::string tokenUri(const std::string& endpoint);
/// The project to launch in: `projectId` when not empty, else the part of the service account's email between '@'
/// and ".iam.gserviceaccount.com"; nullopt when neither gives one.
std::optional<std::string> projectOf(const std::string& projectId, const std::string& clientEmail);

/// One API call: the method's name as the REST reference names it ("instances.insert", for messages and the
/// permission), the HTTP method, the path below apiBase() with the project filled in, the query (names and values
/// unencoded, in the order sent), the JSON body (null: none); whether sending it twice is harmless.
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
/// A query value percent-encoded as google-gax's REST transport encodes it (transcoding.js encodeWithoutSlashes:
/// letters, digits, "-_.~/" as they are, the rest as encodeURIComponent writes it, which keeps "!*'()").
std::string encodeQueryValue(std::string_view value);
/// The request, not yet authorized: apiBase(endpoint) + path + the encoded query, Content-Type application/json with a
/// body.
HttpRequest buildRequest(const Call& call, const std::string& endpoint);

/// A catalog instance type: a machine type that carries its GPUs ("a2-highgpu-1g", "g2-standard-8"), or an N1
/// machine type with GPUs attached ("n1-standard-8+1xT4": accelerator "nvidia-tesla-t4", count 1).
struct InstanceType
{
    std::string machineType;
    std::string accelerator; // empty: the machine type carries its GPUs
    int acceleratorCount = 0;
};
/// InvalidArgument "error.gcp.tpu_not_a_vm" for "tpu-*", "error.gcp.instance_type_invalid" for a text of another
/// shape, "error.gcp.gpu_unknown" for a GPU other than T4, V100, P100, P4 after '+'.
Result<InstanceType> parseInstanceType(const std::string& instanceType);
/// "gpuplanner-ssh-203-0-113-7-32" for "203.0.113.7/32": every character that is not a lowercase letter or digit
/// becomes '-' (a firewall name is [a-z]([-a-z0-9]*[a-z0-9])?, at most 63). Also the network tag the instance carries.
std::string firewallName(const std::string& cidr);
/// An RFC 4122 version-4-shaped UUID made of SHA-256(`seed`): the same seed gives the same request id, so a resent
/// insert or delete is deduplicated by Compute Engine (requestId "must be a valid UUID with the exception that zero
/// UUID is not supported").
std::string requestId(std::string_view seed);
/// The instance id GPU Planner keeps for a GCE instance: "<zone>/<name>" (every call names the zone and the name).
std::string instanceRef(const std::string& zone, const std::string& name);
/// The zone and name of an instanceRef(); nullopt when `ref` is not "<zone>/<name>".
std::optional<std::pair<std::string, std::string>> splitInstanceRef(const std::string& ref);
/// "us-central1" for "us-central1-a".
std::string regionOfZone(const std::string& zone);
/// The last path segment of a resource URL ("us-central1-a" of ".../zones/us-central1-a").
std::string lastSegment(const std::string& url);
/// RFC 3339 in UTC, "2026-12-03T19:05:00Z".
std::string rfc3339(std::int64_t unixSeconds);
/// Unix seconds of an RFC 3339 time with an offset or Z ("2026-12-02T10:00:00.000-08:00"); nullopt when malformed.
std::optional<std::int64_t> parseRfc3339(std::string_view text);
/// A label key or value as Compute Engine takes it: lower case, characters other than [a-z0-9_-] as '_', at most 63.
std::string labelText(std::string_view text);

// ---- Calls.

/// machineTypes.aggregatedList: GET /projects/{p}/aggregated/machineTypes?filter=name = "<type>"
/// (https://cloud.google.com/compute/docs/reference/rest/v1/machineTypes/aggregatedList, filter per AIP-160).
Call machineTypesCall(const std::string& project, const std::string& machineType);
/// acceleratorTypes.aggregatedList: GET /projects/{p}/aggregated/acceleratorTypes?filter=name = "<accelerator>".
Call acceleratorTypesCall(const std::string& project, const std::string& accelerator);
/// images.getFromFamily: GET /projects/deeplearning-platform-release/global/images/family/{family}.
Call imageFromFamilyCall(const std::string& family);
/// firewalls.get: GET /projects/{p}/global/firewalls/{name} (404 when absent).
Call getFirewallCall(const std::string& project, const std::string& name);
/// The firewall rule GPU Planner owns: INGRESS, priority 1000, TCP 22 from `cidr` only, to instances tagged `name`,
/// on the network "default".
nlohmann::json firewallBody(const std::string& project, const std::string& name, const std::string& cidr);
/// firewalls.insert: POST /projects/{p}/global/firewalls with firewallBody().
Call insertFirewallCall(const std::string& project, const std::string& name, const std::string& cidr);
/// firewalls.patch: PATCH /projects/{p}/global/firewalls/{name} with firewallBody() (puts the SSH rule back).
Call patchFirewallCall(const std::string& project, const std::string& name, const std::string& cidr);
/// globalOperations.wait: POST /projects/{p}/global/operations/{operation}/wait (returns when DONE or after about
/// 2 minutes).
Call waitGlobalOperationCall(const std::string& project, const std::string& operation);
/// zoneOperations.wait: POST /projects/{p}/zones/{zone}/operations/{operation}/wait.
Call waitZoneOperationCall(const std::string& project, const std::string& zone, const std::string& operation);

/// What instances.insert needs besides the request.
struct InstancePlacement
{
    std::string project;
    std::string zone;
    std::string image; // the boot disk's sourceImage: a selfLink, "projects/<p>/global/images/<name>" or a family URL
    std::string firewall; // the network tag (firewallName); empty: none
};
/// instances.insert: POST /projects/{p}/zones/{zone}/instances?requestId=<requestId(clientToken)>. The instance is
/// named by the client token and labelled with it (kOwnerTagKey), boots the image on a 200 GB pd-balanced disk, has a
/// public address on the network "default", the login user's key, the user data as startup-script and
/// install-nvidia-driver=True in its metadata, and schedules onHostMaintenance TERMINATE (GPUs cannot live-migrate):
/// Spot with instanceTerminationAction DELETE, standard with automaticRestart; terminationTime (with DELETE) when
/// request.terminateAt is set. `now` is the Unix time. InvalidArgument for a missing client token or one that is not a
/// GCE name (error.gcp.client_token_invalid), a spot price limit, metadata over the limits, a terminateAt not ahead of
/// `now`, more labels than GCE takes, and what parseInstanceType refuses.
Result<Call> insertInstanceCall(const LaunchRequest& request, const InstancePlacement& placement, std::int64_t now);
/// instances.get: GET /projects/{p}/zones/{zone}/instances/{name}.
Call getInstanceCall(const std::string& project, const std::string& zone, const std::string& name);
/// instances.aggregatedList: GET /projects/{p}/aggregated/instances?filter=labels.gpuplanner-token:*&maxResults=500
/// [&pageToken=].
Call listInstancesCall(const std::string& project, const std::string& pageToken);
/// instances.delete: DELETE /projects/{p}/zones/{zone}/instances/{name}?requestId=<requestId("delete " + ref)>.
Call deleteInstanceCall(const std::string& project, const std::string& zone, const std::string& name);

// ---- Parsers. Each takes a successful answer's body; ProviderRefused (the kit's "error.answer.*", JsonAnswer.h,
// naming the action and the field) when it is not JSON, not an object, or lacks a field the action needs.

/// The zones of `region` ("us-central1-a", ...) whose scope in an aggregated list ({"items": {"zones/<zone>":
/// {"<listField>": [...]}}}) lists something, sorted. A scope with only a "warning" (nothing there) is skipped.
Result<std::vector<std::string>> parseZonesOffering(std::string_view body,
                                                    const std::string& action,
                                                    const std::string& listField,
                                                    const std::string& region);

struct Image
{
    std::string name;
    std::string selfLink;
    std::string family;
    std::string status;          // READY, PENDING, FAILED, ...
    std::string deprecatedState; // deprecated.state: DEPRECATED, OBSOLETE, DELETED, ACTIVE; empty when not deprecated
};
Result<Image> parseImage(std::string_view body);
/// READY (or no status) and not DEPRECATED, OBSOLETE or DELETED.
bool usable(const Image& image);

struct FirewallRule
{
    std::string protocol;           // IPProtocol: "tcp", "udp", "all", ...
    std::vector<std::string> ports; // "22", "20-25"; empty: every port
};
struct Firewall
{
    std::string name;
    std::string network;
    std::string direction;
    bool disabled = false;
    std::vector<FirewallRule> allowed;
    std::vector<std::string> sourceRanges;
    std::vector<std::string> targetTags;
};
Result<Firewall> parseFirewall(std::string_view body);
/// Whether the rule lets TCP 22 in from exactly `cidr` to instances tagged `tag`: enabled, INGRESS, an allowed entry
/// for tcp (or all) whose ports hold 22, `cidr` among the source ranges, `tag` among the target tags.
bool allowsSshFrom(const Firewall& firewall, const std::string& cidr, const std::string& tag);

struct OperationError
{
    std::string code; // "ZONE_RESOURCE_POOL_EXHAUSTED", "QUOTA_EXCEEDED"
    std::string message;
};
struct Operation
{
    std::string name;
    std::string zone; // the zone's name; empty for a global operation
    std::string operationType;
    std::string status; // PENDING, RUNNING, DONE
    std::string targetLink;
    std::string targetId;
    int httpErrorStatusCode = 0;
    std::vector<OperationError> errors;
};
/// An Operation resource (the answer of insert, patch, delete and wait).
Result<Operation> parseOperation(std::string_view body, const std::string& action);

/// PROVISIONING / STAGING / PENDING -> Pending, RUNNING -> Running, STOPPING / SUSPENDING / DEPROVISIONING / REPAIRING
/// -> Stopping, STOPPED / SUSPENDED / TERMINATED -> Stopped (TERMINATED is GCE's word for stopped: the instance and its
/// disk still exist); else Pending.
InstanceState stateFromGce(std::string_view status);
/// An Instance resource as GPU Planner sees it: instanceId instanceRef(zone, name), the client token from its
/// kOwnerTagKey label, the machine type, the first access config's natIP, creationTimestamp, pricingMode "spot" for
/// provisioningModel SPOT (else "on_demand").
Result<RemoteInstance> parseInstance(const nlohmann::json& instance, const std::string& action);
Result<RemoteInstance> parseInstance(std::string_view body);

struct InstancesPage
{
    std::vector<RemoteInstance> instances; // every instance of the page's zones in the region, ours or not
    std::string nextPageToken;
};
/// instances.aggregatedList: the instances of the zones of `region`.
Result<InstancesPage> parseInstancesPage(std::string_view body, const std::string& region);

// ---- Errors.

/// Google's error of an answer: {"error": {"code": 403, "message", "errors": [{"message", "domain", "reason"}],
/// "status"}}. ApiError::code is the first entry's reason ("forbidden", "rateLimitExceeded"), else the status
/// ("PERMISSION_DENIED"). nullopt when the body has none.
std::optional<ApiError> apiError(std::string_view body);
/// "NVIDIA_T4_GPUS" of "Quota 'NVIDIA_T4_GPUS' exceeded. Limit: 0.0 in region us-central1."; empty when not said.
std::string quotaMetric(const std::string& message);
/// "compute.instances.create" of "Required 'compute.instances.create' permission for 'projects/p'"; empty when not
/// said.
std::string permissionOf(const std::string& message);
/// The predefined role that grants `permission`: Compute Security Admin for firewalls, Compute Instance Admin (v1)
/// otherwise ("roles/compute.securityAdmin", "roles/compute.instanceAdmin.v1").
std::string roleFor(const std::string& permission);
/// The IAM permission a call needs ("compute.instances.create" for "instances.insert").
std::string permissionFor(const std::string& action);

/// What the failed call was about, for the advice.
struct ErrorContext : CallContext
{
    std::string project;
};
/// An answer as an Error, or nullopt when it is a 2xx success: the reason (or status) kept in providerCode, a stable
/// ErrorCode, and the advice as an "error.gcp.*" reason with Google's message ("said"). A non-2xx answer without a
/// Google error is HttpStatus (429: Throttled, 404: NotFound) naming the action.
std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context);
/// A DONE operation with errors as an Error: ZONE_RESOURCE_POOL_EXHAUSTED(_WITH_DETAILS) -> InsufficientCapacity (the
/// Launcher tries the next zone), QUOTA_EXCEEDED -> QuotaExceeded naming the metric, else as mapError maps the same
/// code and message, with the operation's HTTP status; ProviderRefused "error.gcp.operation_failed" otherwise.
Error operationFailure(const Operation& operation, const ErrorContext& context);

} // namespace gpuplan::core::gcp
