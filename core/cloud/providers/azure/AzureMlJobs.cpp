// Azure Machine Learning command jobs as GPU Planner's managed job service: a job per launch, named by its client
// token, on an AmlCompute cluster per (VM size, priority) that scales to zero nodes when idle, in an environment made
// of the request's image.

#include "gpuplan/cloud/ManagedJobService.h"
#include "gpuplan/cloud/providers/azure/ArmApi.h"
#include "gpuplan/cloud/providers/azure/AzureMlApi.h"
#include "gpuplan/cloud/providers/azure/AzureProvider.h"

#include "ArmSession.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

namespace gpuplan::core {

namespace {

/// The most pages of jobs a listing reads.
constexpr int kMaxPages = 100;

/// The host of an http(s) URL ("" when it has none).
std::string hostOf(const std::string& url)
{
    const std::size_t scheme = url.find("://");
    if (scheme == std::string::npos) {
        return {};
    }
    const std::size_t start = scheme + 3;
    const std::size_t end = url.find_first_of("/?#", start);
    return url.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

class AzureMlJobs final : public ManagedJobService
{
public:
    explicit AzureMlJobs(ProviderContext context)
        : ManagedJobService(azureMlDescriptor(), std::move(context))
        , m_arm(m_context, "azureml", azureml::mapError)
    { }

    Result<LaunchResult> launch(const LaunchRequest& request, const CancelToken* cancel) override;
    Result<RemoteInstance>
    describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel) override;
    Result<std::vector<RemoteInstance>> listOurs(const std::string& region, const CancelToken* cancel) override;
    Status terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel) override;
    Result<JobLogPage> logs(const std::string& region,
                            const std::string& jobId,
                            const std::string& after,
                            const CancelToken* cancel) override;

private:
    struct Session
    {
        azureml::Workspace workspace;
        azureml::WorkspaceInfo info;
    };
    /// Authorizes (ARM's token) and sends an ARM call; the 2xx answer, else the mapped Error (azureml::mapError).
    Result<HttpResponse> perform(const azure::Call& call, const azure::ErrorContext& context, const CancelToken* cancel)
    {
        return m_arm.perform(call, context, cancel);
    }
    /// GET of a URL an answer gave (https, or http on loopback only), with the bearer token or without it.
    Result<HttpResponse>
    getUrl(const std::string& action, const std::string& url, bool bearer, const CancelToken* cancel);
    /// The workspace of the credential, read once per session.
    Result<Session> session(const CancelToken* cancel);
    /// The workspace, and InvalidArgument naming both regions unless it is in `region`.
    Result<Session> sessionIn(const std::string& region, const CancelToken* cancel);
    Result<std::string> subscription(const CancelToken* cancel) { return m_arm.subscription(cancel); }
    /// The cluster's ARM id: found, else created (and its operation waited for).
    Result<std::string> ensureCluster(const Session& s,
                                      const LaunchRequest& request,
                                      const std::string& vmSize,
                                      LaunchResult& result,
                                      const CancelToken* cancel);
    Result<std::string>
    ensureEnvironment(const Session& s, const std::string& image, LaunchResult& result, const CancelToken* cancel);
    /// A job's instance type ("azureml/<size>") and pricing mode ("spot", "on_demand"), from its cluster (cached by
    /// compute id); empty when unknown.
    std::pair<std::string, std::string>
    clusterOf(const Session& s, const std::string& computeId, const CancelToken* cancel);
    RemoteInstance remote(const Session& s, const azureml::Job& job, const std::string& region, const CancelToken* c)
    {
        const auto [type, pricing] = clusterOf(s, job.computeId, c);
        RemoteInstance r = azureml::toRemote(job, region, type);
        r.pricingMode = pricing;
        return r;
    }
    static azure::ErrorContext context(const azure::Call& call, const std::string& region)
    {
        azure::ErrorContext c;
        c.action = call.action;
        c.region = region;
        return c;
    }

    azure::ArmSession m_arm;
    std::mutex m_mutex;
    std::optional<Session> m_session;
    std::string m_subscription;
    std::string m_apiBase; // the run history's host, from the discovery document
    std::map<std::string, std::pair<std::string, std::string>> m_clusters; // compute id -> type, pricing
};

Result<HttpResponse>
AzureMlJobs::getUrl(const std::string& action, const std::string& url, bool bearer, const CancelToken* cancel)
{
    if (Status ok = checkEndpoint(url); !ok || hostOf(url).empty()) {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.azureml.url_refused", {{"action", action}, {"url", url}}},
                     "azureml " + action};
    }
    if (cancel && cancel->cancelled()) {
        return Error{ErrorCode::Cancelled, Reason{"error.azure.stopped_before", {{"action", action}}}, "azureml"};
    }
    HttpRequest request;
    request.method = "GET";
    request.url = url;
    if (bearer) {
        request.headers.push_back({"Accept", "application/json"});
        if (Status authorized = m_arm.authorize(request); !authorized) {
            return authorized.error();
        }
    }
    Result<HttpResponse> response = m_context.http->send(request, cancel);
    if (!response) {
        return response.error().within(Reason{"error.provider.call", {{"action", action}}});
    }
    azure::ErrorContext c;
    c.action = action;
    if (std::optional<Error> error = azureml::mapError(*response, c)) {
        return *error;
    }
    return response;
}

Result<AzureMlJobs::Session> AzureMlJobs::session(const CancelToken* cancel)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_session) {
            return *m_session;
        }
    }
    const std::string given = m_arm.setting("ml_workspace");
    if (given.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.azureml.no_workspace", {}}, "ml_workspace"};
    }
    Result<std::string> sub = subscription(cancel);
    if (!sub) {
        return sub.error();
    }
    Result<azureml::Workspace> workspace = azureml::parseWorkspaceSetting(*sub, given);
    if (!workspace) {
        return workspace.error();
    }
    const azure::Call call = azureml::getWorkspaceCall(*workspace);
    Result<HttpResponse> answer = perform(call, context(call, {}), cancel);
    if (!answer) {
        if (answer.error().code == ErrorCode::NotFound) {
            Error error = answer.error();
            error.reason = Reason{"error.azureml.workspace_not_found",
                                  {{"workspace", given}, {"said", error.reason.params["said"]}}};
            return error;
        }
        return answer.error();
    }
    Result<azureml::WorkspaceInfo> info = azureml::parseWorkspace(answer->body);
    if (!info) {
        return info.error();
    }
    Session s{*workspace, *info};
    std::lock_guard lock(m_mutex);
    m_session = s;
    return s;
}

Result<AzureMlJobs::Session> AzureMlJobs::sessionIn(const std::string& region, const CancelToken* cancel)
{
    Result<Session> s = session(cancel);
    if (!s) {
        return s.error();
    }
    if (!azureml::sameRegion(s->info.location, region)) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.azureml.wrong_region",
                            {{"workspace", s->workspace.resourceGroup + "/" + s->workspace.name},
                             {"workspace_region", s->info.location},
                             {"region", region}}},
                     "ml_workspace"};
    }
    return s;
}

Result<std::string> AzureMlJobs::ensureCluster(const Session& s,
                                               const LaunchRequest& request,
                                               const std::string& vmSize,
                                               LaunchResult& result,
                                               const CancelToken* cancel)
{
    const bool spot = request.pricing == LaunchPricing::Spot;
    const std::string priority = azureml::vmPriority(spot);
    const std::string name = azureml::clusterName(vmSize, priority);
    const azure::Call get = azureml::getComputeCall(s.workspace, name);
    Result<HttpResponse> found = perform(get, context(get, request.region), cancel);
    if (!found && found.error().code != ErrorCode::NotFound) {
        return found.error();
    }
    if (found) {
        Result<azureml::Compute> compute = azureml::parseCompute(found->body, get.action);
        if (!compute) {
            return compute.error();
        }
        result.steps.push_back(
            Reason{"step.azureml.cluster_found", {{"cluster", name}, {"size", vmSize}, {"priority", priority}}});
        std::lock_guard lock(m_mutex);
        m_clusters[compute->id] = {request.instanceType, spot ? "spot" : "on_demand"};
        return compute->id;
    }
    const azure::Call put = azureml::putComputeCall(s.workspace, s.info.location, name, vmSize, priority);
    azure::ErrorContext c = context(put, request.region);
    c.instanceType = request.instanceType;
    c.spot = spot;
    Result<HttpResponse> answer = perform(put, c, cancel);
    if (!answer) {
        return answer.error();
    }
    Result<azureml::Compute> created = azureml::parseCompute(answer->body, put.action);
    if (!created) {
        return created.error();
    }
    int polls = 0;
    Result<azure::AsyncOperation> operation = m_arm.waitFor(*answer, c, polls, cancel);
    if (!operation) {
        return operation.error();
    }
    if (operation->status != "Succeeded") {
        Error error = azure::operationFailure(*operation, c);
        if (error.code == ErrorCode::QuotaExceeded) {
            error.reason.key = "error.azureml.quota";
        }
        return error;
    }
    result.steps.push_back(
        Reason{"step.azureml.cluster_created",
               {{"cluster", name}, {"size", vmSize}, {"priority", priority}, {"polls", std::to_string(polls)}}});
    std::lock_guard lock(m_mutex);
    m_clusters[created->id] = {request.instanceType, spot ? "spot" : "on_demand"};
    return created->id;
}

Result<std::string> AzureMlJobs::ensureEnvironment(const Session& s,
                                                   const std::string& image,
                                                   LaunchResult& result,
                                                   const CancelToken* cancel)
{
    const std::string name = azureml::environmentName(image);
    const std::string version(azureml::kEnvironmentVersion);
    const azure::Call get = azureml::getEnvironmentCall(s.workspace, name, version);
    Result<HttpResponse> found = perform(get, context(get, s.info.location), cancel);
    if (!found && found.error().code != ErrorCode::NotFound) {
        return found.error();
    }
    const std::string id = s.workspace.path() + "/environments/" + name + "/versions/" + version;
    if (found) {
        result.steps.push_back(Reason{"step.azureml.environment_found", {{"environment", name}, {"image", image}}});
        return id;
    }
    const azure::Call put = azureml::putEnvironmentCall(s.workspace, name, version, image);
    Result<HttpResponse> answer = perform(put, context(put, s.info.location), cancel);
    if (!answer) {
        return answer.error();
    }
    result.steps.push_back(Reason{"step.azureml.environment_created", {{"environment", name}, {"image", image}}});
    return id;
}

Result<LaunchResult> AzureMlJobs::launch(const LaunchRequest& request, const CancelToken* cancel)
{
    if (!request.job || request.job->command.empty() || request.job->image.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.azureml.no_job", {}}, "job"};
    }
    Result<std::string> vmSize = azureml::vmSizeOf(request.instanceType);
    if (!vmSize) {
        return vmSize.error();
    }
    if (!azureml::validJobName(request.clientToken)) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.azureml.job_name", {{"name", request.clientToken}}},
                     "client_token"};
    }
    std::int64_t timeout = 0;
    if (request.terminateAt > 0) {
        const std::int64_t now =
            std::chrono::duration_cast<std::chrono::seconds>(m_context.clock().time_since_epoch()).count();
        timeout = request.terminateAt - now;
        if (timeout <= 0) {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.azureml.timeout_past", {{"terminate_at", std::to_string(request.terminateAt)}}},
                         "terminate_at"};
        }
    }
    Result<Session> s = sessionIn(request.region, cancel);
    if (!s) {
        return s.error();
    }
    LaunchResult result;
    result.zone = "";

    // The same token is the same job: an earlier attempt's job is returned, nothing is sent again.
    const azure::Call getJob = azureml::getJobCall(s->workspace, request.clientToken);
    Result<HttpResponse> existing = perform(getJob, context(getJob, request.region), cancel);
    if (!existing && existing.error().code != ErrorCode::NotFound) {
        return existing.error();
    }
    if (existing) {
        Result<azureml::Job> job = azureml::parseJob(existing->body, getJob.action);
        if (!job) {
            return job.error();
        }
        result.instanceId = job->name;
        result.state = azureml::stateOf(job->status);
        result.steps.push_back(Reason{"step.azureml.job_found", {{"job", job->name}, {"status", job->status}}});
        return result;
    }

    Result<std::string> computeId = ensureCluster(*s, request, *vmSize, result, cancel);
    if (!computeId) {
        return computeId.error();
    }
    Result<std::string> environmentId = ensureEnvironment(*s, request.job->image, result, cancel);
    if (!environmentId) {
        return environmentId.error();
    }
    azureml::JobInput input;
    input.name = request.clientToken;
    input.computeId = *computeId;
    input.environmentId = *environmentId;
    input.command = request.job->command;
    input.environment = request.job->environment;
    input.timeoutSeconds = timeout;
    input.tags = request.tags;
    Result<azure::Call> put = azureml::putJobCall(s->workspace, input);
    if (!put) {
        return put.error();
    }
    azure::ErrorContext c = context(*put, request.region);
    c.instanceType = request.instanceType;
    c.spot = request.pricing == LaunchPricing::Spot;
    Result<HttpResponse> answer = perform(*put, c, cancel);
    if (!answer) {
        return answer.error(); // the job may exist: the Launcher resends the same token, which finds it
    }
    Result<azureml::Job> created = azureml::parseJob(answer->body, put->action);
    if (!created) {
        return created.error();
    }
    result.instanceId = created->name;
    result.state = azureml::stateOf(created->status);
    result.steps.push_back(
        Reason{"step.azureml.job_submitted",
               {{"job", created->name}, {"cluster", azureml::clusterName(*vmSize, azureml::vmPriority(c.spot))}}});
    if (timeout > 0) {
        result.steps.push_back(Reason{"step.azureml.timeout", {{"seconds", std::to_string(timeout)}}});
    }
    result.steps.push_back(Reason{"step.launched", {{"instance_id", result.instanceId}, {"zone", ""}}});
    return result;
}

std::pair<std::string, std::string>
AzureMlJobs::clusterOf(const Session& s, const std::string& computeId, const CancelToken* cancel)
{
    if (computeId.empty()) {
        return {};
    }
    {
        std::lock_guard lock(m_mutex);
        if (auto it = m_clusters.find(computeId); it != m_clusters.end()) {
            return it->second;
        }
    }
    const std::string prefix = s.workspace.path() + "/computes/";
    if (!computeId.starts_with(prefix)) {
        return {};
    }
    const azure::Call get = azureml::getComputeCall(s.workspace, computeId.substr(prefix.size()));
    Result<HttpResponse> found = perform(get, context(get, s.info.location), cancel);
    if (!found) {
        return {};
    }
    Result<azureml::Compute> compute = azureml::parseCompute(found->body, get.action);
    if (!compute || compute->vmSize.empty()) {
        return {};
    }
    std::pair<std::string, std::string> out{std::string(azureml::kTypePrefix) + compute->vmSize,
                                            compute->vmPriority == "LowPriority" ? "spot" : "on_demand"};
    std::lock_guard lock(m_mutex);
    m_clusters[computeId] = out;
    return out;
}

Result<RemoteInstance>
AzureMlJobs::describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    Result<Session> s = sessionIn(region, cancel);
    if (!s) {
        return s.error();
    }
    const azure::Call get = azureml::getJobCall(s->workspace, instanceId);
    Result<HttpResponse> answer = perform(get, context(get, region), cancel);
    if (!answer) {
        return answer.error();
    }
    Result<azureml::Job> job = azureml::parseJob(answer->body, get.action);
    if (!job) {
        return job.error();
    }
    return remote(*s, *job, region, cancel);
}

Result<std::vector<RemoteInstance>> AzureMlJobs::listOurs(const std::string& region, const CancelToken* cancel)
{
    Result<Session> s = session(cancel);
    if (!s) {
        return s.error();
    }
    std::vector<RemoteInstance> ours;
    if (!azureml::sameRegion(s->info.location, region)) {
        return ours; // the workspace's jobs all run in its region
    }
    azure::Call call = azureml::listJobsCall(s->workspace);
    for (int page = 0; page < kMaxPages; ++page) {
        Result<HttpResponse> answer = perform(call, context(call, region), cancel);
        if (!answer) {
            return answer.error();
        }
        Result<azureml::JobPage> listed = azureml::parseJobs(answer->body);
        if (!listed) {
            return listed.error();
        }
        for (const azureml::Job& job : listed->jobs) {
            if (!job.clientToken.empty()) {
                ours.push_back(remote(*s, job, region, cancel));
            }
        }
        if (listed->nextLink.empty()) {
            break;
        }
        call = azure::getUrlCall("Jobs_List", listed->nextLink);
    }
    return ours;
}

Status AzureMlJobs::terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    Result<Session> s = sessionIn(region, cancel);
    if (!s) {
        return s.error();
    }
    const azure::Call cancelCall = azureml::cancelJobCall(s->workspace, instanceId);
    Result<HttpResponse> answer = perform(cancelCall, context(cancelCall, region), cancel);
    if (answer || answer.error().code == ErrorCode::NotFound) {
        return Ok{}; // 200 or 202 (cancelling: not waited for); a job that is gone is no error
    }
    // A job that has already ended refuses the cancel: that is no error either.
    const azure::Call get = azureml::getJobCall(s->workspace, instanceId);
    Result<HttpResponse> shown = perform(get, context(get, region), cancel);
    if (shown) {
        Result<azureml::Job> job = azureml::parseJob(shown->body, get.action);
        if (job && isFinal(azureml::stateOf(job->status))) {
            return Ok{};
        }
    }
    return answer.error();
}

Result<JobLogPage> AzureMlJobs::logs(const std::string& region,
                                     const std::string& jobId,
                                     const std::string& after,
                                     const CancelToken* cancel)
{
    std::size_t offset = 0;
    if (!after.empty()) {
        if (!std::all_of(after.begin(), after.end(), [](unsigned char c) { return std::isdigit(c); })
            || after.size() > 15) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.azureml.cursor", {{"cursor", after}}}, "cursor"};
        }
        offset = static_cast<std::size_t>(std::stoull(after));
    }
    Result<Session> s = sessionIn(region, cancel);
    if (!s) {
        return s.error();
    }
    std::string apiBase;
    {
        std::lock_guard lock(m_mutex);
        apiBase = m_apiBase;
    }
    if (apiBase.empty()) {
        if (s->info.discoveryUrl.empty()) {
            return Error{ErrorCode::ProviderRefused,
                         Reason{"error.azureml.no_discovery", {{"workspace", s->workspace.name}}},
                         "azureml Workspaces_Get"};
        }
        // The discovery document is public: it is read without the token, as azure-ai-ml reads it.
        Result<HttpResponse> discovery = getUrl("discovery", s->info.discoveryUrl, false, cancel);
        if (!discovery) {
            return discovery.error();
        }
        Result<std::string> api = azureml::parseDiscovery(discovery->body);
        if (!api) {
            return api.error();
        }
        apiBase = *api;
        std::lock_guard lock(m_mutex);
        m_apiBase = apiBase;
    }
    Result<HttpResponse> detailsAnswer =
        getUrl("Runs_GetDetails", azureml::runDetailsUrl(apiBase, s->workspace, jobId), true, cancel);
    if (!detailsAnswer) {
        return detailsAnswer.error();
    }
    Result<azureml::RunDetails> details = azureml::parseRunDetails(detailsAnswer->body);
    if (!details) {
        return details.error();
    }
    JobLogPage page;
    page.next = std::to_string(offset);
    const std::string file = azureml::userLogFile(*details);
    if (file.empty()) {
        return page; // nothing written yet
    }
    const auto url = std::find_if(
        details->logFiles.begin(), details->logFiles.end(), [&](const auto& f) { return f.first == file; });
    // The SAS URL carries its own authorization: the bearer token never goes to blob storage.
    Result<HttpResponse> content = getUrl("log_file", url->second, false, cancel);
    if (!content) {
        return content.error();
    }
    const bool ended = isFinal(azureml::stateOf(details->status));
    std::size_t consumed = offset;
    for (std::string& line : azureml::logLines(content->body, offset, ended, consumed)) {
        page.lines.push_back(JobLogLine{0, std::move(line)});
    }
    page.next = std::to_string(consumed);
    return page;
}

} // namespace

std::unique_ptr<CloudProvider> makeAzureMlJobs(ProviderContext context)
{
    return std::make_unique<AzureMlJobs>(std::move(context));
}

const ProviderDescriptor& azureMlDescriptor()
{
    static const ProviderDescriptor descriptor{
        "azure",
        "Azure Machine Learning", // wire: the service's name, a proper noun (data)
        "Azure 机器学习",
        azureCredentialFields(),
        // A command job has no machine to log in to (no key, no SSH rule), no validate-only PUT, and is paid as it
        // runs; its timeout (limits.timeout) ends it on Azure's side, and a job that ends stops billing.
        {{CloudFeature::Subscription, Reason{"unsupported.azureml.subscription", {}}},
         {CloudFeature::DryRun, Reason{"unsupported.azureml.dry_run", {}}},
         {CloudFeature::TerminateOnShutdown, Reason{"unsupported.azureml.terminate_on_shutdown", {}}},
         {CloudFeature::KeyImport, Reason{"unsupported.azureml.key_import", {}}},
         {CloudFeature::SshSourceRestriction, Reason{"unsupported.azureml.ssh_source_restriction", {}}}},
        makeAzureMlJobs,
        LaunchKind::Job,
    };
    return descriptor;
}

} // namespace gpuplan::core
