// Vertex AI's custom-job calls and Cloud Logging's entries:list as the Vertex job service uses them: each request, the
// parsers of the documented resources, and the error mapping with its advice.

#include "gpuplan/cloud/providers/gcp/VertexApi.h"

#include "gpuplan/cloud/JsonAnswer.h"
#include "gpuplan/cloud/providers/gcp/ComputeApi.h"
#include "gpuplan/net/Crypto.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <map>

namespace gpuplan::core::vertex {

namespace {

using json_answer::member;
using json_answer::text;
using nlohmann::json;

constexpr const char* kProvider = "vertex";

std::string trimmed(const std::string& base)
{
    return base.ends_with("/") ? base.substr(0, base.size() - 1) : base;
}

Call call(const char* action, Service service, std::string region, const char* method, std::string path, bool safe)
{
    Call c;
    c.action = action;
    c.service = service;
    c.region = std::move(region);
    c.method = method;
    c.path = std::move(path);
    c.safeToRetry = safe;
    return c;
}

std::string locationPath(const std::string& project, const std::string& region)
{
    return "/projects/" + uriEncode(project) + "/locations/" + uriEncode(region);
}

// The N1 GPUs of the catalog's "+<count>x<GPU>" and their Vertex AcceleratorType names.
// source: accelerator_type.proto of @google-cloud/aiplatform 6.11.0 (v1): NVIDIA_TESLA_T4, NVIDIA_TESLA_V100,
// NVIDIA_TESLA_P100, NVIDIA_TESLA_P4
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kN1Gpus{{
    {"T4", "NVIDIA_TESLA_T4"},
    {"V100", "NVIDIA_TESLA_V100"},
    {"P100", "NVIDIA_TESLA_P100"},
    {"P4", "NVIDIA_TESLA_P4"},
}};

// The GCE accelerator type names gcp::parseInstanceType gives for N1, as Vertex names them.
std::string vertexAccelerator(const std::string& gceAccelerator)
{
    static const std::map<std::string, std::string> names{
        {"nvidia-tesla-t4", "NVIDIA_TESLA_T4"},
        {"nvidia-tesla-v100", "NVIDIA_TESLA_V100"},
        {"nvidia-tesla-p100", "NVIDIA_TESLA_P100"},
        {"nvidia-tesla-p4", "NVIDIA_TESLA_P4"},
    };
    const auto found = names.find(gceAccelerator);
    return found == names.end() ? std::string() : found->second;
}

// The GPUs that come with a machine type (https://cloud.google.com/compute/docs/gpus: A2 Standard, A2 Ultra, G2, A3),
// as Vertex's AcceleratorType names them (accelerator_type.proto).
std::optional<std::pair<std::string, int>> builtInGpus(const std::string& machineType)
{
    const auto count = [](std::string_view text) -> int {
        int n = 0;
        auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        return ec == std::errc() && ptr == text.data() + text.size() ? n : 0;
    };
    for (const auto& [prefix, accelerator] :
         {std::pair<std::string_view, std::string_view>{"a2-highgpu-", "NVIDIA_TESLA_A100"},
          std::pair<std::string_view, std::string_view>{"a2-ultragpu-", "NVIDIA_A100_80GB"}}) {
        if (machineType.starts_with(prefix) && machineType.ends_with("g")) {
            const int n =
                count(std::string_view(machineType).substr(prefix.size(), machineType.size() - prefix.size() - 1));
            if (n == 1 || n == 2 || n == 4 || n == 8) {
                return std::pair{std::string(accelerator), n};
            }
        }
    }
    static const std::map<std::string, std::pair<std::string, int>> fixed{
        {"g2-standard-4", {"NVIDIA_L4", 1}},
        {"g2-standard-8", {"NVIDIA_L4", 1}},
        {"g2-standard-12", {"NVIDIA_L4", 1}},
        {"g2-standard-16", {"NVIDIA_L4", 1}},
        {"g2-standard-32", {"NVIDIA_L4", 1}},
        {"g2-standard-24", {"NVIDIA_L4", 2}},
        {"g2-standard-48", {"NVIDIA_L4", 4}},
        {"g2-standard-96", {"NVIDIA_L4", 8}},
        {"a3-highgpu-8g", {"NVIDIA_H100_80GB", 8}},
        {"a3-ultragpu-8g", {"NVIDIA_H200_141GB", 8}},
    };
    const auto found = fixed.find(machineType);
    if (found == fixed.end()) {
        return std::nullopt;
    }
    return found->second;
}

bool isLabelValue(const std::string& value)
{
    return !value.empty() && value.size() <= gcp::kMaxLabelChars
           && std::all_of(value.begin(), value.end(), [](unsigned char c) {
                  return std::islower(c) || std::isdigit(c) || c == '-' || c == '_';
              });
}

Error invalid(const char* key, std::map<std::string, std::string> params, const char* where)
{
    return Error{ErrorCode::InvalidArgument, Reason{key, std::move(params)}, where};
}

} // namespace

std::string jobsBase(const std::string& endpoint, const std::string& region)
{
    if (endpoint.empty()) {
        // source: provider_launch_apis.md 9.1 and the REST reference's service endpoints: the regional endpoint
        return "https://" + region + "-aiplatform.googleapis.com/v1";
    }
    return trimmed(endpoint) + "/aiplatform/v1";
}

std::string loggingBase(const std::string& endpoint)
{
    if (endpoint.empty()) {
        return "https://logging.googleapis.com/v2"; // source: the Cloud Logging REST reference's service endpoint
    }
    return trimmed(endpoint) + "/logging/v2";
}

HttpRequest buildRequest(const Call& call, const std::string& endpoint)
{
    HttpRequest request;
    request.method = call.method;
    std::string url =
        (call.service == Service::Jobs ? jobsBase(endpoint, call.region) : loggingBase(endpoint)) + call.path;
    for (std::size_t i = 0; i < call.query.size(); ++i) {
        url += (i == 0 ? "?" : "&") + gcp::encodeQueryValue(call.query[i].first) + "="
               + gcp::encodeQueryValue(call.query[i].second);
    }
    request.url = std::move(url);
    if (!call.body.is_null()) {
        request.body = call.body.dump(-1, ' ', false, json::error_handler_t::replace);
        request.headers.push_back({"Content-Type", "application/json"});
    }
    request.safeToRetry = call.safeToRetry;
    return request;
}

Result<MachineSpec> machineSpec(const std::string& instanceType)
{
    const auto unknown = [&instanceType] {
        return invalid("error.vertex.instance_type_unknown", {{"instance_type", instanceType}}, "instance_type");
    };
    if (!instanceType.starts_with(kOfferPrefix)) {
        return unknown();
    }
    const std::string type = instanceType.substr(kOfferPrefix.size());
    MachineSpec spec;
    if (type.find('+') != std::string::npos) {
        // N1 with GPUs attached: "n1-standard-8+1xT4".
        Result<gcp::InstanceType> n1 = gcp::parseInstanceType(type);
        if (!n1 || !n1->machineType.starts_with("n1-")) {
            return unknown();
        }
        spec.machineType = n1->machineType;
        spec.acceleratorType = vertexAccelerator(n1->accelerator);
        spec.acceleratorCount = n1->acceleratorCount;
        if (spec.acceleratorType.empty()) {
            return unknown();
        }
        return spec;
    }
    const auto gpus = builtInGpus(type);
    if (!gpus) {
        return unknown();
    }
    spec.machineType = type;
    spec.acceleratorType = gpus->first;
    spec.acceleratorCount = gpus->second;
    return spec;
}

std::string offerOf(const MachineSpec& spec)
{
    std::string offer = std::string(kOfferPrefix) + spec.machineType;
    if (spec.machineType.starts_with("n1-") && spec.acceleratorCount > 0) {
        for (const auto& [shortName, name] : kN1Gpus) {
            if (spec.acceleratorType == name) {
                offer += "+" + std::to_string(spec.acceleratorCount) + "x" + std::string(shortName);
            }
        }
    }
    return offer;
}

std::string jobIdOf(const std::string& name)
{
    return gcp::lastSegment(name);
}

std::string regionOfName(const std::string& name)
{
    const std::string marker = "/locations/";
    const std::size_t at = name.find(marker);
    if (at == std::string::npos) {
        return {};
    }
    const std::size_t start = at + marker.size();
    const std::size_t end = name.find('/', start);
    return name.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string oursFilter()
{
    // wire: AIP-160 "has" on our label (ListCustomJobsRequest.filter: "labels.keyB:*" - key existence)
    return "labels." + std::string(kOwnerTagKey) + ":*";
}

std::string tokenFilter(const std::string& clientToken)
{
    // wire: ListCustomJobsRequest.filter "labels.keyA=valueA" - key:value equality, the value quoted
    return "labels." + std::string(kOwnerTagKey) + "=\"" + clientToken + "\"";
}

// ---- Calls.

Result<Call> createJobCall(const LaunchRequest& request, const std::string& project, std::int64_t now)
{
    Result<MachineSpec> machine = machineSpec(request.instanceType);
    if (!machine) {
        return machine.error();
    }
    if (!request.job) {
        return invalid("error.vertex.no_job", {}, "job");
    }
    if (request.job->image.empty()) {
        return invalid("error.vertex.no_image", {}, "job.image");
    }
    if (request.clientToken.empty()) {
        return invalid("error.vertex.no_client_token", {}, "client_token");
    }
    if (!isLabelValue(request.clientToken)) {
        return invalid("error.vertex.client_token_invalid", {{"token", request.clientToken}}, "client_token");
    }
    const bool spot = request.pricing == LaunchPricing::Spot;
    if (spot && request.spotPriceLimit > 0) {
        return invalid("error.vertex.spot_no_price_limit", {}, "spot_price_limit");
    }
    if (request.terminateAt > 0 && request.terminateAt <= now) {
        return invalid("error.vertex.terminate_past", {}, "terminate_at");
    }

    json labels = json::object();
    labels[std::string(kOwnerTagKey)] = request.clientToken;
    for (const auto& [key, value] : request.tags) {
        const std::string k = gcp::labelText(key);
        if (k.empty() || !std::islower(static_cast<unsigned char>(k.front())) || k == kOwnerTagKey) {
            continue; // a label key starts with a lowercase letter; the owner label is ours
        }
        labels[k] = gcp::labelText(value);
    }
    if (labels.size() > kMaxLabels) {
        return invalid("error.vertex.too_many_labels", {{"count", std::to_string(labels.size())}}, "tags");
    }

    json machineJson{{"machineType", machine->machineType}};
    if (!machine->acceleratorType.empty()) {
        machineJson["acceleratorType"] = machine->acceleratorType;
        machineJson["acceleratorCount"] = machine->acceleratorCount; // int32: a JSON number
    }
    json container{{"imageUri", request.job->image}};
    if (!request.job->command.empty()) {
        container["command"] = request.job->command;
    }
    if (!request.job->environment.empty()) {
        json env = json::array();
        for (const auto& [name, value] : request.job->environment) {
            env.push_back(json{{"name", name}, {"value", value}});
        }
        container["env"] = std::move(env);
    }
    json pool{
        // int64 is a string in the proto3 JSON mapping the SDK sends
        {"replicaCount", "1"},
        {"machineSpec", machineJson},
        {"diskSpec", {{"bootDiskType", std::string(kBootDiskType)}, {"bootDiskSizeGb", kBootDiskGb}}},
        {"containerSpec", container},
    };
    json jobSpec{{"workerPoolSpecs", json::array({pool})}};
    json scheduling = json::object();
    if (request.terminateAt > 0) {
        // google.protobuf.Duration in JSON: seconds with the suffix "s"; Vertex ends the job then (the dead-man on its
        // side).
        scheduling["timeout"] = std::to_string(request.terminateAt - now) + "s";
    }
    if (spot) {
        scheduling["strategy"] = "SPOT"; // wire: Scheduling.Strategy's name (custom_job.proto)
    }
    if (!scheduling.empty()) {
        jobSpec["scheduling"] = std::move(scheduling);
    }
    json job{
        {"displayName", request.clientToken},
        {"labels", labels},
        {"jobSpec", jobSpec},
    };

    // Not safe to resend: customJobs.create takes no request id, so a resend would submit a second job; a lost answer
    // is found by the token label instead (the Launcher lists first).
    Call c = call("customJobs.create",
                  Service::Jobs,
                  request.region,
                  "POST",
                  locationPath(project, request.region) + "/customJobs",
                  false);
    c.body = std::move(job);
    return c;
}

Call getJobCall(const std::string& project, const std::string& region, const std::string& jobId)
{
    return call("customJobs.get",
                Service::Jobs,
                region,
                "GET",
                locationPath(project, region) + "/customJobs/" + uriEncode(jobId),
                true);
}

Call listJobsCall(const std::string& project,
                  const std::string& region,
                  const std::string& filter,
                  const std::string& pageToken)
{
    Call c = call("customJobs.list", Service::Jobs, region, "GET", locationPath(project, region) + "/customJobs", true);
    c.query = {{"filter", filter}};
    if (!pageToken.empty()) {
        c.query.emplace_back("pageToken", pageToken);
    }
    return c;
}

Call cancelJobCall(const std::string& project, const std::string& region, const std::string& jobId)
{
    // Best effort and harmless to repeat: a job already cancelling or ended stays as it is.
    Call c = call("customJobs.cancel",
                  Service::Jobs,
                  region,
                  "POST",
                  locationPath(project, region) + "/customJobs/" + uriEncode(jobId) + ":cancel",
                  true);
    c.body = json::object(); // CancelCustomJobRequest's body "*": its only field is in the path
    return c;
}

std::string cursorText(const LogCursor& cursor)
{
    if (cursor.timestamp.empty()) {
        return {};
    }
    return cursor.timestamp + "|" + cursor.insertId;
}

std::optional<LogCursor> parseCursor(const std::string& text)
{
    if (text.empty()) {
        return LogCursor{};
    }
    const std::size_t bar = text.find('|');
    if (bar == std::string::npos || bar == 0 || !gcp::parseRfc3339(text.substr(0, bar))) {
        return std::nullopt;
    }
    return LogCursor{text.substr(0, bar), text.substr(bar + 1)};
}

std::string logFilter(const std::string& jobId, const LogCursor& cursor)
{
    // source: gcloud ai custom-jobs stream-logs and provider_launch_apis.md 9.1 (resource type ml_job, label job_id);
    // the filter language: https://cloud.google.com/logging/docs/view/logging-query-language
    // wire: Cloud Logging's resource type and label names
    std::string filter = "resource.type=\"ml_job\" AND resource.labels.job_id=\"" + jobId + "\"";
    if (!cursor.timestamp.empty()) {
        filter += " AND timestamp>=\"" + cursor.timestamp + "\""; // wire: the filter's comparison on the entry's time
    }
    return filter;
}

Call logEntriesCall(const std::string& project, const std::string& jobId, const LogCursor& cursor)
{
    Call c = call("entries.list", Service::Logging, std::string(), "POST", "/entries:list", true);
    c.body = json{
        {"resourceNames", json::array({"projects/" + project})},
        {"filter", logFilter(jobId, cursor)},
        {"orderBy", "timestamp asc"}, // wire: ListLogEntriesRequest.order_by's documented value
        {"pageSize", kLogPageSize},
    };
    return c;
}

// ---- Parsers.

InstanceState stateFromVertex(std::string_view state)
{
    // source: job_state.proto (JobState), the lifecycle of jobs-design.md
    if (state == "JOB_STATE_RUNNING" || state == "JOB_STATE_UPDATING") {
        return InstanceState::Running;
    }
    if (state == "JOB_STATE_CANCELLING") {
        return InstanceState::Stopping;
    }
    if (state == "JOB_STATE_SUCCEEDED" || state == "JOB_STATE_PARTIALLY_SUCCEEDED" || state == "JOB_STATE_CANCELLED") {
        return InstanceState::Terminated;
    }
    if (state == "JOB_STATE_FAILED" || state == "JOB_STATE_EXPIRED") {
        return InstanceState::Failed;
    }
    return InstanceState::Pending;
}

Result<Job> jobOf(const json& job, const std::string& action)
{
    const JsonAnswer answer(kProvider, action);
    Result<std::string> name = answer.requiredText(job, "name");
    if (!name) {
        return name.error();
    }
    Job out;
    out.displayName = text(job, "displayName");
    RemoteInstance& instance = out.instance;
    instance.instanceId = jobIdOf(*name);
    instance.region = regionOfName(*name);
    instance.providerState = text(job, "state");
    instance.state = stateFromVertex(instance.providerState);
    instance.clientToken = text(member(job, "labels"), std::string(kOwnerTagKey).c_str());
    const json& spec = member(job, "jobSpec");
    const json& pools = member(spec, "workerPoolSpecs");
    if (pools.is_array() && !pools.empty()) {
        const json& machine = member(pools.front(), "machineSpec");
        MachineSpec parsed;
        parsed.machineType = text(machine, "machineType");
        parsed.acceleratorType = text(machine, "acceleratorType");
        const std::string count = text(machine, "acceleratorCount");
        std::from_chars(count.data(), count.data() + count.size(), parsed.acceleratorCount);
        if (!parsed.machineType.empty()) {
            instance.instanceType = offerOf(parsed);
        }
    }
    if (const auto at = gcp::parseRfc3339(text(job, "startTime"))) {
        instance.launchedAt = *at;
    }
    instance.pricingMode = text(member(spec, "scheduling"), "strategy") == "SPOT" ? "spot" : "on_demand";
    out.errorMessage = text(member(job, "error"), "message");
    return out;
}

Result<Job> parseJob(std::string_view body, const std::string& action)
{
    Result<json> doc = JsonAnswer(kProvider, action).document(body);
    if (!doc) {
        return doc.error();
    }
    return jobOf(*doc, action);
}

Result<JobsPage> parseJobsPage(std::string_view body)
{
    const std::string action = "customJobs.list";
    const JsonAnswer answer(kProvider, action);
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    JobsPage page;
    page.nextPageToken = text(*doc, "nextPageToken");
    if (member(*doc, "customJobs").is_null()) {
        return page; // none: the JSON mapping leaves an empty list out
    }
    Result<json> jobs = answer.list(*doc, "customJobs");
    if (!jobs) {
        return jobs.error();
    }
    for (const json& job : *jobs) {
        Result<Job> parsed = jobOf(job, action);
        if (!parsed) {
            return parsed.error();
        }
        page.jobs.push_back(std::move(parsed).value());
    }
    return page;
}

Result<JobLogPage> parseLogPage(std::string_view body, const LogCursor& after)
{
    const std::string action = "entries.list";
    const JsonAnswer answer(kProvider, action);
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    JobLogPage page;
    LogCursor last = after;
    const json& entries = member(*doc, "entries");
    if (!entries.is_null()) {
        Result<json> list = answer.list(*doc, "entries");
        if (!list) {
            return list.error();
        }
        for (const json& entry : *list) {
            const std::string timestamp = text(entry, "timestamp");
            const std::string insertId = text(entry, "insertId");
            const std::optional<std::int64_t> at = gcp::parseRfc3339(timestamp);
            if (!at) {
                return answer.refused("error.answer.invalid", {{"field", "timestamp"}, {"found", timestamp}});
            }
            // The filter asked for entries at or after the cursor's time: the ones of that very time up to the
            // cursor's insertId (entries of one time come in insertId order) were read before.
            if (!after.timestamp.empty() && timestamp == after.timestamp && insertId <= after.insertId) {
                continue;
            }
            std::string payload = text(entry, "textPayload");
            if (payload.empty()) {
                payload = text(member(entry, "jsonPayload"), "message");
            }
            std::size_t start = 0;
            while (start <= payload.size()) {
                std::size_t end = payload.find('\n', start);
                if (end == std::string::npos) {
                    end = payload.size();
                }
                std::string line = payload.substr(start, end - start);
                if (!line.empty() && line.back() == '\r') {
                    line.pop_back();
                }
                // A payload's final line end ends its last line; it starts no empty one.
                if (!(end == payload.size() && line.empty() && start > 0)) {
                    page.lines.push_back(JobLogLine{*at, std::move(line)});
                }
                start = end + 1;
            }
            last = LogCursor{timestamp, insertId};
        }
    }
    page.next = cursorText(last);
    return page;
}

// ---- Errors.

std::optional<GoogleError> googleError(std::string_view body)
{
    json doc = json::parse(body, nullptr, false);
    const json& error = member(doc, "error");
    if (!error.is_object()) {
        return std::nullopt;
    }
    GoogleError out;
    if (member(error, "code").is_number_integer()) {
        out.code = member(error, "code").get<int>();
    }
    out.message = text(error, "message");
    out.status = text(error, "status");
    const json& details = member(error, "details");
    if (details.is_array()) {
        for (const json& detail : details) {
            // wire: google.rpc.ErrorInfo's type URL
            if (text(detail, "@type").ends_with("google.rpc.ErrorInfo") && out.reason.empty()) {
                out.reason = text(detail, "reason");
                out.service = text(member(detail, "metadata"), "service");
                out.permission = text(member(detail, "metadata"), "permission");
            }
        }
    }
    const json& errors = member(error, "errors");
    if (out.reason.empty() && errors.is_array() && !errors.empty()) {
        out.reason = text(errors.front(), "reason");
    }
    return out;
}

std::string quotaMetric(const std::string& message)
{
    // "The following quota metrics exceed quota limits: aiplatform.googleapis.com/custom_model_training_nvidia_l4_gpus"
    const std::string marker = "aiplatform.googleapis.com/"; // wire: the quota metrics' service prefix
    const std::size_t at = message.find(marker);
    if (at == std::string::npos) {
        return {};
    }
    std::size_t end = at + marker.size();
    while (end < message.size() && (std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '_')) {
        ++end;
    }
    return message.substr(at + marker.size(), end - at - marker.size());
}

std::string permissionOf(const std::string& message)
{
    // "Permission 'aiplatform.customJobs.create' denied on resource '//aiplatform.googleapis.com/...'"
    const std::string marker = "Permission '"; // wire: Google's IAM message, matched and never shown
    const std::size_t at = message.find(marker);
    if (at == std::string::npos) {
        return {};
    }
    const std::size_t start = at + marker.size();
    const std::size_t end = message.find('\'', start);
    return end == std::string::npos ? std::string() : message.substr(start, end - start);
}

std::string permissionFor(const std::string& action)
{
    // source: https://cloud.google.com/vertex-ai/docs/general/access-control (aiplatform.customJobs.*),
    // https://cloud.google.com/logging/docs/access-control (logging.logEntries.list)
    static const std::map<std::string, std::string> permissions{
        {"customJobs.create", "aiplatform.customJobs.create"},
        {"customJobs.get", "aiplatform.customJobs.get"},
        {"customJobs.list", "aiplatform.customJobs.list"},
        {"customJobs.cancel", "aiplatform.customJobs.cancel"},
        {"entries.list", "logging.logEntries.list"},
    };
    const auto found = permissions.find(action);
    return found == permissions.end() ? std::string() : found->second;
}

std::string roleFor(const std::string& permission)
{
    // Vertex AI User (roles/aiplatform.user) holds aiplatform.customJobs.*; Logs Viewer (roles/logging.viewer) holds
    // logging.logEntries.list.
    return permission.starts_with("logging.") ? "roles/logging.viewer" : "roles/aiplatform.user";
}

std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context)
{
    if (response.status >= 200 && response.status < 300) {
        return std::nullopt;
    }
    const std::string where = "vertex " + context.action + (context.region.empty() ? "" : " in " + context.region);
    std::optional<GoogleError> google = googleError(response.body);
    if (!google) {
        const auto simple = [&](ErrorCode code, const char* key) {
            return Error{code, Reason{key, {{"action", context.action}}}, where, response.status};
        };
        if (response.status == 429) {
            return simple(ErrorCode::Throttled, "error.vertex.throttled");
        }
        if (response.status == 404) {
            return simple(ErrorCode::NotFound, "error.vertex.not_found");
        }
        if (response.status == 401) {
            return simple(ErrorCode::Credentials, "error.vertex.key_refused");
        }
        return Error{ErrorCode::HttpStatus,
                     Reason{"error.vertex.http_status",
                            {{"status", std::to_string(response.status)}, {"action", context.action}}},
                     where,
                     response.status};
    }
    const GoogleError& g = *google;
    const std::string code = g.reason.empty() ? g.status : g.reason;
    Reason reason{{}, {{"action", context.action}}};
    const auto add = [&reason](const char* name, const std::string& value) {
        if (!value.empty()) {
            reason.params[name] = value;
        }
    };
    add("code", g.status.empty() ? code : g.status);
    add("said", g.message);
    const int status = response.status;
    // source: provider_launch_apis.md 9.1 (the quota message), https://cloud.google.com/apis/design/errors (ErrorInfo
    // reasons SERVICE_DISABLED, IAM_PERMISSION_DENIED), https://cloud.google.com/vertex-ai/docs/quotas (training quotas
    // per region, custom_model_training_*)
    const std::string metric = quotaMetric(g.message);
    const bool quota = metric.starts_with("custom_model_training_");
    // wire: Google's codes and words, matched here and never shown
    const bool apiOff = g.reason == "SERVICE_DISABLED" || g.reason == "accessNotConfigured"
                        || g.message.find("has not been used in project") != std::string::npos;
    const bool throttled = status == 429 || g.status == "RESOURCE_EXHAUSTED" || g.reason == "RATE_LIMIT_EXCEEDED"
                           || g.reason == "rateLimitExceeded";
    const bool unauthenticated = status == 401 || g.status == "UNAUTHENTICATED";
    const bool permission = status == 403 || g.status == "PERMISSION_DENIED";
    const bool notFound = status == 404 || g.status == "NOT_FOUND";

    ErrorCode mapped = ErrorCode::ProviderRefused;
    if (quota) {
        mapped = ErrorCode::QuotaExceeded;
        reason.key = "error.vertex.quota";
        add("metric", metric);
        add("region", context.region);
        add("project", context.project);
    } else if (apiOff) {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.vertex.api_disabled";
        std::string service = g.service;
        if (service.empty()) {
            service = context.action == "entries.list" ? "logging.googleapis.com" : "aiplatform.googleapis.com";
        }
        add("service", service);
        add("project", context.project);
    } else if (unauthenticated) {
        mapped = ErrorCode::Credentials;
        reason.key = "error.vertex.key_refused";
    } else if (permission) {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.vertex.permission";
        std::string needed = g.permission.empty() ? permissionOf(g.message) : g.permission;
        if (needed.empty()) {
            needed = permissionFor(context.action);
        }
        add("permission", needed);
        add("role", roleFor(needed));
        add("project", context.project);
    } else if (throttled) {
        mapped = ErrorCode::Throttled;
        reason.key = "error.vertex.throttled";
    } else if (notFound) {
        mapped = ErrorCode::NotFound;
        reason.key = "error.vertex.not_found";
    } else {
        reason.key = "error.vertex.refused";
    }
    return Error{mapped, std::move(reason), where, status, code};
}

} // namespace gpuplan::core::vertex
