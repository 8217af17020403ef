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

#include <nlohmann/json.hpp>

// The pieces of Paperspace's current API (https://api.paperspace.com/v1, the DigitalOcean-hosted "Paperspace API
// Reference", https://docs.digitalocean.com/reference/paperspace/api-reference/) that PaperspaceProvider uses:
// machines, machine availability, OS templates and startup scripts. Each call as method, path, query and JSON body; the
// parsers of the documented answers; the mapping of its error bodies ({"code", "message"}) to ErrorCode with advice.
// Pure functions: no network, thread-safe. Public so that TestPaperspace can check each piece on its own. source: the
// API's OpenAPI document, as copied in PierreBeucher/cloudypad b6c874fd2d19261192ea29131ddf148853f1351b
// src/providers/paperspace/client/openapi/openapi.json (tests/data/cloud/paperspace/README.md).
namespace gpuplan::core::paperspace {

/// The API takes and answers JSON.
inline constexpr std::string_view kContentType = "application/json";
/// List calls: "limit: integer, 1 – 120" (the most one page holds; pages continue with ?after=<nextPage>).
inline constexpr int kPageLimit = 120;
/// POST /machines, diskSize: one of the schema's sizes (50, 100, 250, ... GB). 100 GB holds the ML-in-a-Box image,
/// a container and a data set; SkyPilot's smallest (sky/provision/paperspace/constants.py DISK_SIZES) is 100 too.
inline constexpr int kDiskSizeGb = 100;
/// The login user of Paperspace's Linux templates (SkyPilot writes the key to /home/paperspace/.ssh).
inline constexpr std::string_view kLoginUser = "paperspace";
/// Our machines' names start with this: the name is the launch's client token ("gpuplan-" + 24 hex digits).
inline constexpr std::string_view kOwnedPrefix = "gpuplan-";
/// The startup script that installs the key is named this + the client token.
inline constexpr std::string_view kScriptPrefix = "gpuplanner-";
/// A 429 on the create call (nothing was created) is waited out this long, at most this many times (SkyPilot's
/// sky/provision/paperspace/utils.py: 10 s initial backoff, 6 attempts; Paperspace documents no rate limit).
inline constexpr int kThrottleWaitSeconds = 10;
inline constexpr int kThrottleAttempts = 6;

/// "https://api.paperspace.com/v1", or `endpoint` + "/v1" when `endpoint` is not empty (a fake, a proxy).
std::string baseUrl(const std::string& endpoint);

/// The API's region id for a region as the catalog or the user writes it: "ny2" stays "ny2"; a display name ending in
/// "(NY2)" ("East Coast (NY2)", "West Coast (CA1)", "Europe (AMS1)", as the catalog and the how-to pages name them)
/// gives the id in its parentheses, lower case. Anything else: lower case, blanks trimmed.
std::string regionId(const std::string& region);

/// One API call: the operation's name (as the OpenAPI operationId names it, for messages), the method, the path under
/// /v1, the query (names and values unencoded), the JSON body (null: none); whether sending it twice is harmless.
struct Call
{
    std::string action;
    std::string method = "GET";
    std::string path;
    std::vector<std::pair<std::string, std::string>> query;
    nlohmann::json body;
    bool safeToRetry = false;
};

/// The body exactly as sent (compact JSON); empty without one.
std::string body(const Call& call);
/// The request, without its Authorization (authorizeWithApiKey adds it): the URL with the query percent-encoded,
/// Content-Type for a JSON body, Accept: application/json.
HttpRequest buildRequest(const Call& call, const std::string& endpoint);

// ---- Calls.

/// machines-list: GET /machines?limit=120[&name=][&region=][&after=].
Call listMachinesCall(const std::string& name, const std::string& region, const std::string& after);
/// machines-get: GET /machines/{id}.
Call getMachineCall(const std::string& id);
/// machines-delete: DELETE /machines/{id}.
Call deleteMachineCall(const std::string& id);
/// machineAvailability-get: GET /machine-availability?machineType=&region=.
Call machineAvailabilityCall(const std::string& machineType, const std::string& region);
/// osTemplates-list: GET /os-templates?limit=120[&after=].
Call listOsTemplatesCall(const std::string& after);
/// startupScripts-list: GET /startup-scripts?limit=120&name=[&after=].
Call listStartupScriptsCall(const std::string& name, const std::string& after);
/// startupScripts-delete: DELETE /startup-scripts/{id}.
Call deleteStartupScriptCall(const std::string& id);

/// "gpuplanner-<token>": the startup script of the launch with that client token.
std::string scriptName(const std::string& clientToken);
/// The bash script that appends `sshPublicKey` to /home/paperspace/.ssh/authorized_keys (creating the directory with
/// the modes sshd wants) and then runs `userData` (the watchdog) as root, when given. InvalidArgument
/// (error.paperspace.ssh_key_invalid) unless the key is one OpenSSH public key line without quotes or control
/// characters (it is written into the script).
Result<std::string> startupScript(const std::string& sshPublicKey, const std::string& userData);
/// startupScripts-create: POST /startup-scripts {"name", "script", "isRunOnce": true} (the key is appended once, on
/// the first boot).
Call createStartupScriptCall(const std::string& name, const std::string& script);

/// What POST /machines needs besides the request: the template and the startup script.
struct MachinePlacement
{
    std::string templateId;
    std::string startupScriptId;
};
/// machines-create: POST /machines {"name": <client token>, "machineType", "templateId", "diskSize": 100, "region":
/// <region id>, "publicIpType": "dynamic", "startOnCreate": true, "startupScriptId", "emailPassword": false,
/// "autoShutdownEnabled": false}. Never safe to retry: the API takes no idempotency key. InvalidArgument for a client
/// token that does not start with "gpuplan-" (error.paperspace.client_token_invalid: listOurs would not see the
/// machine) or an empty region or type.
Result<Call> createMachineCall(const LaunchRequest& request, const MachinePlacement& placement);

// ---- Parsers. Each takes a successful answer's body; ProviderRefused (the kit's "error.answer.*", JsonAnswer.h,
// naming the action and the field) when it is not JSON, not an object, or lacks a field the action needs.

struct Machine
{
    RemoteInstance instance; // clientToken is the name when it starts with "gpuplan-", else empty
    std::string name;
    std::optional<double> usageRate; // the machine's hourly rate in USD, when given
};
/// A machine object (machines-get's answer, machines-create's "data").
Result<Machine> parseMachine(std::string_view body, const std::string& action);
/// One page of a list: its items, and the cursor of the next page (empty when there is none).
template <typename T>
struct Page
{
    std::vector<T> items;
    std::string nextPage;
};
/// machines-list.
Result<Page<Machine>> parseMachines(std::string_view body);

/// The event of machines-create / machines-delete, and the machine created ("data"; empty id for delete).
struct MachineEvent
{
    std::string eventId;
    std::string eventState; // new, in progress, done, error, cancelled
    std::string error;      // the event's error message, if any
    Machine machine;
};
Result<MachineEvent> parseMachineEvent(std::string_view body, const std::string& action);

/// machineAvailability-get: "available".
Result<bool> parseAvailability(std::string_view body);

struct OsTemplate
{
    std::string id;
    std::string name;
    std::string operatingSystemLabel;
    std::string agentType;
    std::string createdAt;                                  // "2024-01-01T00:00:00Z": compares in time order as text
    std::vector<std::pair<std::string, bool>> machineTypes; // machineTypeLabel, isAvailable
};
Result<Page<OsTemplate>> parseOsTemplates(std::string_view body);
/// The newest template whose name says it is ML-in-a-Box (Paperspace's Ubuntu image with the NVIDIA driver, CUDA and
/// the ML frameworks: "ML-in-a-Box", case and blanks or dashes aside) and that lists `machineType` as available;
/// nullopt when none does.
std::optional<OsTemplate> newestMlInABox(const std::vector<OsTemplate>& templates, const std::string& machineType);

struct StartupScript
{
    std::string id;
    std::string name;
    bool deleted = false; // dtDeleted set
};
/// startupScripts-create's answer.
Result<StartupScript> parseStartupScript(std::string_view body, const std::string& action);
Result<Page<StartupScript>> parseStartupScripts(std::string_view body);

/// provisioning / starting / serviceready / restarting / upgrading -> Pending, ready -> Running, stopping -> Stopping,
/// off -> Stopped; anything else Pending. A machine with dtDeleted is Terminated whatever its state.
InstanceState stateFromMachine(std::string_view state);

// ---- Errors.

/// {"code", "message"} of an error answer (the API's "default" error response); nullopt when the body has neither.
std::optional<ApiError> apiError(std::string_view body);
/// An answer as an Error, or nullopt when it is a 2xx success: Paperspace's code kept in providerCode, a stable
/// ErrorCode, and the advice as an "error.paperspace.*" reason with the action, code ("code") and message ("said").
/// 401 -> Credentials; 429 -> Throttled; 402, or a message about billing or a payment method -> ProviderRefused with
/// the billing advice; a message about capacity or no machines available -> InsufficientCapacity; a message about a
/// limit or quota -> QuotaExceeded; 403 -> PermissionDenied; 404 -> NotFound; else ProviderRefused (HttpStatus for an
/// answer without an error body).
std::optional<Error> mapError(const HttpResponse& response, const CallContext& context);

} // namespace gpuplan::core::paperspace
