#include "gpuplan/cloud/providers/azure/AzureMlApi.h"

#include "gpuplan/cloud/JsonAnswer.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

#include <algorithm>
#include <cctype>

namespace gpuplan::core::azureml {

using json_answer::member;
using json_answer::text;
using nlohmann::json;

namespace {

const char* kProvider = "azureml"; // the JsonAnswer provider id of these calls

std::string lower(std::string value)
{
    std::transform(value.begin(), value.end(), value.begin(), [](unsigned char c) { return std::tolower(c); });
    return value;
}

azure::Call call(const char* action, const char* method, std::string path, bool safe)
{
    azure::Call c;
    c.action = action;
    c.method = method;
    c.path = std::move(path);
    c.query = {{"api-version", std::string(kApiVersion)}};
    c.safeToRetry = safe;
    return c;
}

Error invalid(const char* key, std::map<std::string, std::string> params, const char* where)
{
    return Error{ErrorCode::InvalidArgument, Reason{key, std::move(params)}, where};
}

} // namespace

std::string Workspace::path() const
{
    return "/subscriptions/" + subscription + "/resourceGroups/" + resourceGroup
           + "/providers/Microsoft.MachineLearningServices/workspaces/" + name;
}

Result<Workspace> parseWorkspaceSetting(const std::string& subscription, const std::string& setting)
{
    if (setting.empty()) {
        return invalid("error.azureml.no_workspace", {}, "ml_workspace");
    }
    const std::size_t slash = setting.find('/');
    const auto plain = [](const std::string& part) {
        return !part.empty() && std::all_of(part.begin(), part.end(), [](unsigned char c) {
            return std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '(' || c == ')';
        });
    };
    if (slash == std::string::npos || !plain(setting.substr(0, slash)) || !plain(setting.substr(slash + 1))) {
        return invalid("error.azureml.workspace_invalid", {{"workspace", setting}}, "ml_workspace");
    }
    return Workspace{subscription, setting.substr(0, slash), setting.substr(slash + 1)};
}

Result<std::string> vmSizeOf(const std::string& instanceType)
{
    if (!instanceType.starts_with(kTypePrefix) || instanceType.size() == kTypePrefix.size()) {
        return invalid("error.azureml.instance_type", {{"instance_type", instanceType}}, "instance_type");
    }
    const std::string size = instanceType.substr(kTypePrefix.size());
    if (!std::all_of(size.begin(), size.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; })) {
        return invalid("error.azureml.instance_type", {{"instance_type", instanceType}}, "instance_type");
    }
    return size;
}

std::string vmPriority(bool spot)
{
    return spot ? "LowPriority" : "Dedicated"; // wire: AmlCompute's vmPriority values
}

std::string clusterName(const std::string& vmSize, const std::string& priority)
{
    // wire: the cluster's name in the user's workspace
    return std::string(kClusterPrefix) + sha256Hex(vmSize + priority).substr(0, 8);
}

std::string environmentName(const std::string& image)
{
    // wire: the environment's name in the user's workspace
    return std::string(kEnvironmentPrefix) + sha256Hex(image).substr(0, 12);
}

std::string shellCommand(const std::vector<std::string>& argv)
{
    std::string out;
    for (const std::string& word : argv) {
        if (!out.empty()) {
            out += ' ';
        }
        const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
            return std::isalnum(c) || std::string_view("@%+=:,./-_").find(static_cast<char>(c)) != std::string::npos;
        });
        if (safe) {
            out += word;
            continue;
        }
        out += '\'';
        for (char c : word) {
            if (c == '\'') {
                out += "'\\''";
            } else {
                out += c;
            }
        }
        out += '\'';
    }
    return out;
}

std::string isoSeconds(std::int64_t seconds)
{
    return "PT" + std::to_string(seconds) + "S";
}

bool validJobName(const std::string& name)
{
    return !name.empty() && name.size() <= 255 && std::isalnum(static_cast<unsigned char>(name.front()))
           && std::all_of(
               name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '_'; });
}

azure::Call getWorkspaceCall(const Workspace& workspace)
{
    return call("Workspaces_Get", "GET", workspace.path(), true);
}

azure::Call getComputeCall(const Workspace& workspace, const std::string& cluster)
{
    return call("Compute_Get", "GET", workspace.path() + "/computes/" + cluster, true);
}

azure::Call putComputeCall(const Workspace& workspace,
                           const std::string& location,
                           const std::string& cluster,
                           const std::string& vmSize,
                           const std::string& priority)
{
    azure::Call c = call("Compute_CreateOrUpdate", "PUT", workspace.path() + "/computes/" + cluster, true);
    // wire: AmlCompute's schema (Compute/createOrUpdate/AmlCompute.json); 0 nodes when idle
    c.body = {{"location", location},
              {"properties",
               {{"computeType", "AmlCompute"},
                {"properties",
                 {{"vmSize", vmSize},
                  {"vmPriority", priority},
                  {"scaleSettings",
                   {{"minNodeCount", 0},
                    {"maxNodeCount", 1},
                    {"nodeIdleTimeBeforeScaleDown", std::string(kIdleBeforeScaleDown)}}}}}}}};
    return c;
}

azure::Call getEnvironmentCall(const Workspace& workspace, const std::string& name, const std::string& version)
{
    return call(
        "EnvironmentVersions_Get", "GET", workspace.path() + "/environments/" + name + "/versions/" + version, true);
}

azure::Call putEnvironmentCall(const Workspace& workspace,
                               const std::string& name,
                               const std::string& version,
                               const std::string& image)
{
    azure::Call c = call("EnvironmentVersions_CreateOrUpdate",
                         "PUT",
                         workspace.path() + "/environments/" + name + "/versions/" + version,
                         true);
    c.body = {{"properties", {{"image", image}}}}; // wire: EnvironmentVersion's image
    return c;
}

Result<azure::Call> putJobCall(const Workspace& workspace, const JobInput& input)
{
    if (!validJobName(input.name)) {
        return invalid("error.azureml.job_name", {{"name", input.name}}, "client_token");
    }
    if (input.command.empty()) {
        return invalid("error.azureml.no_command", {}, "job");
    }
    json tags = json::object();
    tags[std::string(kOwnerTagKey)] = input.name;
    for (const auto& [key, value] : input.tags) {
        if (key == kOwnerTagKey || key.empty()) {
            return invalid("error.azureml.tag_invalid", {{"tag", key}}, "tags");
        }
        tags[key] = value;
    }
    json environment = json::object();
    for (const auto& [key, value] : input.environment) {
        environment[key] = value;
    }
    json properties = {
        {"jobType", "Command"},                       // wire: the job's kind
        {"experimentName", std::string(kExperiment)}, // wire: the experiment the jobs are grouped in
        {"displayName", input.name},
        {"computeId", input.computeId},
        {"environmentId", input.environmentId},
        {"command", shellCommand(input.command)},
        {"environmentVariables", environment},
        {"resources", {{"instanceCount", 1}}},
        {"tags", tags},
    };
    if (input.timeoutSeconds > 0) {
        // wire: CommandJobLimits, the job's timeout as ISO-8601
        properties["limits"] = {{"jobLimitsType", "Command"}, {"timeout", isoSeconds(input.timeoutSeconds)}};
    }
    azure::Call c = call("Jobs_CreateOrUpdate", "PUT", workspace.path() + "/jobs/" + input.name, true);
    c.body = {{"properties", properties}};
    return c;
}

azure::Call getJobCall(const Workspace& workspace, const std::string& name)
{
    return call("Jobs_Get", "GET", workspace.path() + "/jobs/" + name, true);
}

azure::Call listJobsCall(const Workspace& workspace)
{
    azure::Call c = call("Jobs_List", "GET", workspace.path() + "/jobs", true);
    c.query.emplace_back("tag", std::string(kOwnerTagKey)); // wire: only jobs that carry our tag
    return c;
}

azure::Call cancelJobCall(const Workspace& workspace, const std::string& name)
{
    return call("Jobs_Cancel", "POST", workspace.path() + "/jobs/" + name + "/cancel", true);
}

std::string runDetailsUrl(const std::string& apiBase, const Workspace& workspace, const std::string& runId)
{
    std::string base = apiBase;
    while (!base.empty() && base.back() == '/') {
        base.pop_back();
    }
    return base + "/history/v1.0" + workspace.path() + "/runs/" + runId + "/details";
}

Result<WorkspaceInfo> parseWorkspace(std::string_view body)
{
    const JsonAnswer answer(kProvider, "Workspaces_Get");
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<std::string> location = answer.requiredText(*doc, "location");
    if (!location) {
        return location.error();
    }
    return WorkspaceInfo{*location, text(member(*doc, "properties"), "discoveryUrl")};
}

Result<std::string> parseDiscovery(std::string_view body)
{
    const JsonAnswer answer(kProvider, "discovery");
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    return answer.requiredText(*doc, "api");
}

Result<Compute> parseCompute(std::string_view body, const std::string& action)
{
    const JsonAnswer answer(kProvider, action);
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<std::string> id = answer.requiredText(*doc, "id");
    if (!id) {
        return id.error();
    }
    const json& properties = member(*doc, "properties");
    const json& inner = member(properties, "properties");
    return Compute{*id,
                   text(*doc, "name"),
                   text(properties, "computeType"),
                   text(properties, "provisioningState"),
                   text(inner, "vmSize"),
                   text(inner, "vmPriority")};
}

bool sameRegion(const std::string& a, const std::string& b)
{
    const auto squeeze = [](const std::string& value) {
        std::string out;
        for (unsigned char c : value) {
            if (c != ' ') {
                out += static_cast<char>(std::tolower(c));
            }
        }
        return out;
    };
    return squeeze(a) == squeeze(b);
}

namespace {

Result<Job> jobOf(const json& item, const JsonAnswer& answer)
{
    Result<std::string> name = answer.requiredText(item, "name");
    if (!name) {
        return name.error();
    }
    const json& properties = member(item, "properties");
    Job job;
    job.name = *name;
    job.id = text(item, "id");
    job.status = text(properties, "status");
    job.clientToken = text(member(properties, "tags"), std::string(kOwnerTagKey).c_str());
    job.computeId = text(properties, "computeId");
    job.displayName = text(properties, "displayName");
    if (const std::string created = text(member(item, "systemData"), "createdAt"); !created.empty()) {
        job.createdAt = parseIsoSeconds(created);
    }
    return job;
}

} // namespace

Result<Job> parseJob(std::string_view body, const std::string& action)
{
    const JsonAnswer answer(kProvider, action);
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    return jobOf(*doc, answer);
}

Result<JobPage> parseJobs(std::string_view body)
{
    const JsonAnswer answer(kProvider, "Jobs_List");
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    JobPage page;
    const json& value = member(*doc, "value");
    if (!value.is_null()) {
        Result<json> list = answer.list(*doc, "value");
        if (!list) {
            return list.error();
        }
        for (const json& item : *list) {
            Result<Job> job = jobOf(item, answer);
            if (!job) {
                return job.error();
            }
            page.jobs.push_back(*job);
        }
    }
    page.nextLink = text(*doc, "nextLink");
    return page;
}

Result<RunDetails> parseRunDetails(std::string_view body)
{
    const JsonAnswer answer(kProvider, "Runs_GetDetails");
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    RunDetails details;
    details.status = text(*doc, "status");
    const json& files = member(*doc, "logFiles");
    if (files.is_object()) {
        for (const auto& [name, url] : files.items()) {
            if (url.is_string()) {
                details.logFiles.emplace_back(name, url.get<std::string>());
            }
        }
    }
    std::sort(details.logFiles.begin(), details.logFiles.end());
    return details;
}

std::string userLogFile(const RunDetails& details)
{
    const auto has = [&](const std::string& name) {
        return std::any_of(
            details.logFiles.begin(), details.logFiles.end(), [&](const auto& f) { return f.first == name; });
    };
    if (has("user_logs/std_log.txt")) {
        return "user_logs/std_log.txt";
    }
    for (const auto& [name, url] : details.logFiles) {
        (void)url;
        if (name.starts_with("user_logs/std_log") && name.ends_with(".txt")) {
            return name;
        }
    }
    if (has("azureml-logs/70_driver_log.txt")) {
        return "azureml-logs/70_driver_log.txt";
    }
    return {};
}

InstanceState stateOf(const std::string& status)
{
    const std::string s = lower(status);
    if (s == "running" || s == "finalizing") {
        return InstanceState::Running;
    }
    if (s == "cancelrequested") {
        return InstanceState::Stopping;
    }
    if (s == "completed" || s == "canceled" || s == "cancelled") {
        return InstanceState::Terminated;
    }
    if (s == "failed" || s == "notresponding") {
        return InstanceState::Failed;
    }
    return InstanceState::Pending; // NotStarted, Starting, Provisioning, Preparing, Queued, Paused, Unknown
}

RemoteInstance toRemote(const Job& job, const std::string& region, const std::string& instanceType)
{
    RemoteInstance r;
    r.instanceId = job.name;
    r.clientToken = job.clientToken;
    r.state = stateOf(job.status);
    r.region = region;
    r.instanceType = instanceType;
    if (r.state != InstanceState::Pending) {
        r.launchedAt = job.createdAt; // ARM's job has no start time: its creation is the nearest it gives
    }
    r.providerState = job.status;
    return r;
}

std::vector<std::string> logLines(const std::string& text, std::size_t offset, bool all, std::size_t& consumed)
{
    std::vector<std::string> lines;
    consumed = std::min(offset, text.size());
    std::size_t at = consumed;
    while (at < text.size()) {
        const std::size_t end = text.find('\n', at);
        if (end == std::string::npos) {
            if (all) {
                lines.push_back(text.substr(at));
                consumed = text.size();
            }
            break;
        }
        std::string line = text.substr(at, end - at);
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        lines.push_back(std::move(line));
        at = end + 1;
        consumed = at;
    }
    return lines;
}

std::optional<Error> mapError(const HttpResponse& response, const azure::ErrorContext& context)
{
    std::optional<Error> error = azure::mapError(response, context);
    if (!error) {
        return error;
    }
    if (error->code == ErrorCode::QuotaExceeded) {
        error->reason.key = "error.azureml.quota";
        if (!context.instanceType.empty()) {
            error->reason.params["instance_type"] = context.instanceType;
        }
        error->reason.params["spot"] = context.spot ? "1" : "0";
    } else if (error->code == ErrorCode::PermissionDenied) {
        error->reason.key = "error.azureml.permission";
    }
    return error;
}

} // namespace gpuplan::core::azureml
