#pragma once

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/Instance.h"
#include "gpuplan/cloud/ProviderError.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/net/Http.h"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

// The pieces of the Lambda Cloud API (v1) that LambdaProvider uses: instance types (prices and the regions with
// capacity now), SSH keys, instances, launch and terminate. Each call as method, path and JSON body; the parsers of
// the documented answers ({"data": ...}); the mapping of Lambda's error answers ({"error": {code, message,
// suggestion}}) to ErrorCode with advice. Pure functions: no network, thread-safe. Public so that TestLambda can check
// each piece on its own.
// source: the API reference https://docs-api.lambda.ai/api/cloud and its OpenAPI document
// (https://cloud.lambda.ai/api/v1/openapi.json, "Lambda Cloud API" 1.10.0), whose examples are in
// tests/data/cloud/lambda.
namespace gpuplan::core::lambda {

/// The API's production server ("servers": https://cloud.lambda.ai/; https://cloud.lambdalabs.com/ is "Secondary
/// production server (deprecated)").
inline constexpr std::string_view kDefaultBase = "https://cloud.lambda.ai";
/// launchInstance, name: "Must be 64 characters or fewer." The launch's client token is the instance's name.
inline constexpr std::size_t kMaxNameChars = 64;
/// launchInstance, user_data: "The user data string must be plain text and cannot exceed 1MB in size" (read as
/// 1,000,000 bytes, the smaller of the two readings).
inline constexpr std::size_t kMaxUserDataBytes = 1000000;
/// What our instance names (= client tokens) and key names start with.
inline constexpr std::string_view kOwnedPrefix = "gpuplan-";
inline constexpr std::string_view kKeyPrefix = "gpuplanner-";
/// "Requests to the /instance-operations/launch endpoint are limited to one request per 12 seconds, or five requests
/// per minute" (the API reference's introduction): a launch answered 429 is sent again after this long, at most
/// kLaunchRetries times (SkyPilot's lambda_utils waits 10 s, up to 6 times).
inline constexpr std::chrono::seconds kLaunchRetryWait{12};
inline constexpr int kLaunchRetries = 6;

/// One API call: the operation's name (the reference's operationId, for messages), the HTTP method, the path below
/// /api/v1, the JSON body (null: none), and whether sending it twice is harmless.
struct Call
{
    std::string action;
    std::string method = "GET";
    std::string path;
    nlohmann::json body;
    bool safeToRetry = false;
};

/// "https://cloud.lambda.ai/api/v1", or `endpoint` + "/api/v1" when `endpoint` is not empty (a fake, a proxy);
/// a trailing '/' of the endpoint is dropped.
std::string baseUrl(const std::string& endpoint);
/// The body exactly as sent (compact JSON, UTF-8); empty without one.
std::string body(const Call& call);
/// The request: the URL, Authorization: Bearer <apiKey> (the reference: "Lambda recommends passing an HTTP Bearer
/// header"), Accept and, with a body, Content-Type application/json.
HttpRequest buildRequest(const Call& call, const std::string& endpoint, const std::string& apiKey);

/// "gpuplanner-" + the first 12 hex digits of SHA-256 over the key's base64 blob (publicKeyId). InvalidArgument when
/// the line has no blob.
Result<std::string> keyName(const std::string& sshPublicKey);
/// Whether two OpenSSH public key lines hold the same key: the same type and base64 blob (the comment may differ).
bool samePublicKey(const std::string& a, const std::string& b);
/// Whether `name` is one of ours (starts with "gpuplan-", the client token's prefix).
bool isOurs(const std::string& name);
/// Whether an image given by the user is an image id (a UUID, or 32 hex digits) rather than a family name.
bool looksLikeImageId(const std::string& image);

// ---- Calls.

/// listInstanceTypes: GET /instance-types.
Call listInstanceTypesCall();
/// listSSHKeys: GET /ssh-keys.
Call listSshKeysCall();
/// addSSHKey: POST /ssh-keys {"name", "public_key"}.
Call addSshKeyCall(const std::string& name, const std::string& sshPublicKey);
/// listInstances: GET /instances.
Call listInstancesCall();
/// getInstance: GET /instances/{id}.
Call getInstanceCall(const std::string& instanceId);
/// launchInstance: POST /instance-operations/launch {"region_name", "instance_type_name", "ssh_key_names": [key],
/// "file_system_names": [], "quantity": 1, "name": <client token>}, with "user_data" when the request has a script
/// and "image" ({"id"} or {"family"}) when it names an image. Never safe to retry: the API takes no idempotency key.
/// InvalidArgument for a client token that is empty, longer than 64 characters or not ours ("gpuplan-..."), or user
/// data over 1 MB.
Result<Call> launchCall(const LaunchRequest& request, const std::string& sshKeyName);
/// terminateInstance: POST /instance-operations/terminate {"instance_ids": [id]}.
Call terminateCall(const std::string& instanceId);

// ---- Parsers. Each takes a successful answer's body; ProviderRefused (the kit's "error.answer.*", JsonAnswer.h,
// naming the action and the field) when it is not JSON, not an object, or lacks a field the action needs.

struct InstanceTypeOffer
{
    std::string name;
    std::string description;
    std::string gpuDescription;
    std::optional<long long> priceCentsPerHour;
    std::vector<std::string> regionsWithCapacity; // regions_with_capacity_available[].name, in Lambda's order
};
/// data: {<type name>: {instance_type, regions_with_capacity_available}}, sorted by name.
Result<std::vector<InstanceTypeOffer>> parseInstanceTypes(std::string_view body);
/// The offer of that type, or nullptr.
const InstanceTypeOffer* findOffer(const std::vector<InstanceTypeOffer>& offers, const std::string& type);

struct SshKey
{
    std::string id;
    std::string name;
    std::string publicKey;
};
/// listSSHKeys: data [{id, name, public_key}].
Result<std::vector<SshKey>> parseSshKeys(std::string_view body);
/// addSSHKey: data {id, name, public_key[, private_key]} (a private key, were one generated, is not kept).
Result<SshKey> parseAddedSshKey(std::string_view body);

struct Instance
{
    RemoteInstance remote; // clientToken is the name when the name is ours; zone is the region
    std::string name;
};
/// getInstance: data {id, name, ip, status, region {name}, instance_type {name}, ...}.
Result<Instance> parseInstance(std::string_view body);
/// listInstances: data [Instance].
Result<std::vector<Instance>> parseInstances(std::string_view body);
/// launchInstance: data.instance_ids (at least one).
Result<std::vector<std::string>> parseLaunch(std::string_view body);
/// terminateInstance: data.terminated_instances[].id.
Result<std::vector<std::string>> parseTerminate(std::string_view body);

/// InstanceStatus: booting -> Pending; active -> Running; unhealthy -> Running (it runs and bills; Lambda's health
/// check fails, which the SSH check after the launch sees for itself); terminating -> Stopping; terminated and
/// preempted -> Terminated; anything else -> Pending.
InstanceState stateFromStatus(std::string_view status);

// ---- Errors.

struct LambdaError
{
    std::string code;
    std::string message;
    std::string suggestion;
};
/// The error of an answer, {"error": {"code", "message", "suggestion"?}}; nullopt when the body has none.
std::optional<LambdaError> apiError(std::string_view body);

/// An answer as an Error, or nullopt when it is a 2xx success: Lambda's code kept in providerCode, a stable ErrorCode,
/// and the advice as an "error.lambda.*" reason with the code ("code"), message ("said") and suggestion
/// ("suggestion"). 429 -> Throttled; instance-operations/launch/insufficient-capacity -> InsufficientCapacity;
/// global/quota-exceeded -> QuotaExceeded; global/invalid-api-key or 401 -> Credentials; global/account-inactive,
/// global/invalid-address, global/forbidden or 403 -> PermissionDenied; global/object-does-not-exist, global/not-found
/// or 404 -> NotFound; 5xx (and provider/* codes) -> ProviderRefused keeping the status (the Launcher treats it as an
/// unknown outcome); else ProviderRefused. A non-2xx answer without Lambda's error is HttpStatus naming the action.
std::optional<Error> mapError(const HttpResponse& response, const CallContext& context);

} // namespace gpuplan::core::lambda
