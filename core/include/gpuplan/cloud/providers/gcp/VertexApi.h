#pragma once

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/Instance.h"
#include "gpuplan/cloud/ManagedJobService.h"
#include "gpuplan/cloud/ProviderError.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/net/Http.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

// The pieces of the Vertex AI API v1 (custom jobs) and of the Cloud Logging API v2 (entries:list) that the Vertex job
// service uses: each call as method, URL, query and JSON body; the parsers of the documented resources; the mapping
// of Google's error bodies to ErrorCode with advice. Pure functions: no network, thread-safe. Public so that
// TestVertex and the SDK wire test can check each piece on its own.
// source: https://cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.customJobs, the SDK's protos
// (tests/integration/sdk/node_modules/@google-cloud/aiplatform/build/protos/google/cloud/aiplatform/v1: job_service,
// custom_job, machine_resources, accelerator_type, job_state), and
// https://cloud.google.com/logging/docs/reference/v2/rest/v2/entries/list.
namespace gpuplan::core::vertex {

/// What every job's worker pool boots from: 100 GB of pd-ssd (Vertex's documented DiskSpec defaults, written out).
inline constexpr std::string_view kBootDiskType = "pd-ssd";
inline constexpr int kBootDiskGb = 100;
/// entries:list's pageSize: one page of a job's log (the API's largest is 1000).
inline constexpr int kLogPageSize = 1000;
/// The catalog's prefix of a Vertex offer: "vertex/g2-standard-8".
inline constexpr std::string_view kOfferPrefix = "vertex/";
/// Labels: at most 64 per job; keys and values at most 63 characters here (Vertex takes 64: GCE's rule is kept).
inline constexpr std::size_t kMaxLabels = 64;

/// Which API a call goes to.
enum class Service
{
    Jobs,    // https://{region}-aiplatform.googleapis.com/v1
    Logging, // https://logging.googleapis.com/v2
};

/// "https://{region}-aiplatform.googleapis.com/v1"; with `endpoint` (a fake): endpoint + "/aiplatform/v1".
std::string jobsBase(const std::string& endpoint, const std::string& region);
/// "https://logging.googleapis.com/v2"; with `endpoint`: endpoint + "/logging/v2".
std::string loggingBase(const std::string& endpoint);

/// One API call: the method's name as the REST reference names it ("customJobs.create"), the service and region, the
/// HTTP method, the path below the service's base, the query (names and values unencoded, in the order sent), the
/// JSON body (null: none), and whether sending it twice is harmless.
struct Call
{
    std::string action;
    Service service = Service::Jobs;
    std::string region;
    std::string method = "GET";
    std::string path;
    std::vector<std::pair<std::string, std::string>> query;
    nlohmann::json body;
    bool safeToRetry = false;
};

/// The request, not yet authorized: the base + path + the query encoded as google-gax encodes it
/// (gcp::encodeQueryValue), Content-Type application/json with a body.
HttpRequest buildRequest(const Call& call, const std::string& endpoint);

/// A Vertex worker pool's machine: MachineSpec {machineType, acceleratorType, acceleratorCount}.
struct MachineSpec
{
    std::string machineType;
    std::string acceleratorType; // the AcceleratorType enum's name: "NVIDIA_L4"
    int acceleratorCount = 0;
};
/// The machine of a catalog offer "vertex/<GCE type>": N1 with GPUs as gcp::parseInstanceType reads them
/// ("vertex/n1-standard-8+1xT4": NVIDIA_TESLA_T4 1; V100, P100, P4 alike), a2-highgpu-Ng (NVIDIA_TESLA_A100 N),
/// a2-ultragpu-Ng (NVIDIA_A100_80GB N), g2-standard-4/8/12/16/32 (NVIDIA_L4 1), -24 (2), -48 (4), -96 (8),
/// a3-highgpu-8g (NVIDIA_H100_80GB 8), a3-ultragpu-8g (NVIDIA_H200_141GB 8). InvalidArgument
/// "error.vertex.instance_type_unknown" {instance_type} for anything else.
Result<MachineSpec> machineSpec(const std::string& instanceType);
/// The catalog offer of a job's machine: "vertex/" + machineType, with "+<count>x<GPU>" for an N1 type with GPUs.
std::string offerOf(const MachineSpec& spec);

/// The numeric job id of a job's name "projects/p/locations/r/customJobs/123" ("123"); the text itself without '/'.
std::string jobIdOf(const std::string& name);
/// The region of a job's name ("us-central1"); empty when the name has no locations segment.
std::string regionOfName(const std::string& name);

/// AIP-160 filter on our label: `labels.gpuplanner-token:*` (every job we submitted).
std::string oursFilter();
/// `labels.gpuplanner-token="<token>"` (the job of one launch).
std::string tokenFilter(const std::string& clientToken);

// ---- Calls.

/// customJobs.create: POST /projects/{p}/locations/{r}/customJobs with the CustomJob: displayName the client token,
/// labels {gpuplanner-token: token} and the request's tags (gcp::labelText), one worker pool (replicaCount "1", the
/// machine, pd-ssd 100 GB, containerSpec {imageUri, command, env}), scheduling {timeout "<terminateAt - now>s",
/// strategy SPOT for spot}. Not safe to resend: create takes no request id. InvalidArgument for no job
/// (error.vertex.no_job), no image (error.vertex.no_image), no client token (error.vertex.no_client_token), a token
/// that is no label value (error.vertex.client_token_invalid), a spot price limit (error.vertex.spot_no_price_limit),
/// a terminateAt not after `now` (error.vertex.terminate_past), more labels than Vertex takes
/// (error.vertex.too_many_labels), and what machineSpec refuses.
Result<Call> createJobCall(const LaunchRequest& request, const std::string& project, std::int64_t now);
/// customJobs.get: GET /projects/{p}/locations/{r}/customJobs/{id}.
Call getJobCall(const std::string& project, const std::string& region, const std::string& jobId);
/// customJobs.list: GET /projects/{p}/locations/{r}/customJobs?filter=<filter>[&pageToken=].
Call listJobsCall(const std::string& project,
                  const std::string& region,
                  const std::string& filter,
                  const std::string& pageToken);
/// customJobs.cancel: POST /projects/{p}/locations/{r}/customJobs/{id}:cancel with the body {}.
Call cancelJobCall(const std::string& project, const std::string& region, const std::string& jobId);

/// The cursor of a job's log: the last entry read, "<timestamp>|<insertId>"; empty: from the start.
struct LogCursor
{
    std::string timestamp; // RFC 3339 as the entry gave it
    std::string insertId;
};
std::string cursorText(const LogCursor& cursor);
/// nullopt when `text` is not a cursorText() (an empty text is the empty cursor).
std::optional<LogCursor> parseCursor(const std::string& text);
/// The filter of a job's log after `cursor`: resource.type="ml_job" AND resource.labels.job_id="<id>"
/// [AND timestamp>="<cursor's timestamp>"] (>=: entries of the same time after the cursor's insertId are still to
/// come; parseLogPage drops the ones up to it).
std::string logFilter(const std::string& jobId, const LogCursor& cursor);
/// entries.list: POST logging/v2/entries:list {resourceNames ["projects/<p>"], filter logFilter, orderBy
/// "timestamp asc", pageSize kLogPageSize}. Safe to resend (a read).
Call logEntriesCall(const std::string& project, const std::string& jobId, const LogCursor& cursor);

// ---- Parsers. Each takes a successful answer's body; ProviderRefused ("error.answer.*" of JsonAnswer, provider
// "vertex", naming the action and the field) when it is not JSON, not an object, or lacks a field the action needs.

/// QUEUED / PENDING / PAUSED / UNSPECIFIED -> Pending, RUNNING / UPDATING -> Running, CANCELLING -> Stopping,
/// SUCCEEDED / PARTIALLY_SUCCEEDED / CANCELLED -> Terminated, FAILED / EXPIRED -> Failed (each "JOB_STATE_<word>");
/// anything else Pending.
InstanceState stateFromVertex(std::string_view state);

/// A CustomJob as GPU Planner sees it.
struct Job
{
    RemoteInstance instance; // instanceId the numeric id, clientToken its label, state, region, instanceType (the
                             // "vertex/..." offer), launchedAt its startTime, providerState, pricingMode
    std::string displayName;
    std::string errorMessage; // error.message of a failed or cancelled job
};
Result<Job> jobOf(const nlohmann::json& job, const std::string& action);
Result<Job> parseJob(std::string_view body, const std::string& action = "customJobs.get");

struct JobsPage
{
    std::vector<Job> jobs;
    std::string nextPageToken;
};
/// customJobs.list: {customJobs: [...], nextPageToken}; an empty project answers {}.
Result<JobsPage> parseJobsPage(std::string_view body);

/// entries.list: the lines of the entries after `after` (textPayload, or jsonPayload.message; a payload of several
/// lines gives several), oldest first; next is the last entry's cursor (`after` again when nothing is new).
Result<JobLogPage> parseLogPage(std::string_view body, const LogCursor& after);

// ---- Errors.

/// Google's error body as the v1 APIs write it: {"error": {"code", "message", "status", "details": [{"@type":
/// ".../google.rpc.ErrorInfo", "reason", "domain", "metadata"}]}}.
struct GoogleError
{
    int code = 0;
    std::string message;
    std::string status;     // "RESOURCE_EXHAUSTED", "PERMISSION_DENIED"
    std::string reason;     // ErrorInfo.reason ("SERVICE_DISABLED", "IAM_PERMISSION_DENIED"), else errors[0].reason
    std::string service;    // ErrorInfo.metadata.service
    std::string permission; // ErrorInfo.metadata.permission
};
/// nullopt when the body has no Google error.
std::optional<GoogleError> googleError(std::string_view body);
/// "custom_model_training_nvidia_l4_gpus" of "The following quota metrics exceed quota limits:
/// aiplatform.googleapis.com/custom_model_training_nvidia_l4_gpus"; empty when not said.
std::string quotaMetric(const std::string& message);
/// "aiplatform.customJobs.create" of "Permission 'aiplatform.customJobs.create' denied on resource ..."; empty when
/// not said.
std::string permissionOf(const std::string& message);
/// The IAM permission a call needs ("aiplatform.customJobs.create" for "customJobs.create", "logging.logEntries.list"
/// for "entries.list").
std::string permissionFor(const std::string& action);
/// The predefined role that holds `permission`: Vertex AI User ("roles/aiplatform.user") for aiplatform.*, Logs
/// Viewer ("roles/logging.viewer") for logging.*.
std::string roleFor(const std::string& permission);

/// What the failed call was about, for the advice.
struct ErrorContext : CallContext
{
    std::string project;
};
/// An answer as an Error, or nullopt when it is a 2xx success. Google's reason or status is kept in providerCode:
/// a quota metric custom_model_training_* (429 RESOURCE_EXHAUSTED) -> QuotaExceeded "error.vertex.quota" {metric,
/// region, project}; SERVICE_DISABLED -> PermissionDenied "error.vertex.api_disabled" {service, project}; 401 ->
/// Credentials "error.vertex.key_refused"; 403 -> PermissionDenied "error.vertex.permission" {permission, role,
/// project}; another 429 or RESOURCE_EXHAUSTED -> Throttled "error.vertex.throttled"; 404 -> NotFound
/// "error.vertex.not_found"; else ProviderRefused "error.vertex.refused". Each with "action", and Google's status
/// ("code") and message ("said"). Without a Google body: Throttled, NotFound, Credentials as above, else HttpStatus
/// "error.vertex.http_status" {status}.
std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context);

} // namespace gpuplan::core::vertex
