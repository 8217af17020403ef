// Vertex AI custom jobs as GPU Planner's managed job service: a launch submits one CustomJob (found first by its token
// label, as customJobs.create takes no request id), describe and listOurs read jobs, terminate cancels, logs pages
// the job's Cloud Logging entries.

#include "gpuplan/cloud/ManagedJobService.h"
#include "gpuplan/cloud/providers/gcp/GcpProvider.h"
#include "gpuplan/cloud/providers/gcp/VertexApi.h"

#include "GoogleSession.h"

#include <utility>

namespace gpuplan::core {

namespace {

/// At most this many pages of jobs in one listing.
constexpr int kMaxPages = 100;

class VertexJobs final : public ManagedJobService
{
public:
    explicit VertexJobs(ProviderContext context)
        : ManagedJobService(vertexDescriptor(), std::move(context))
        , m_session(m_context)
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
    /// Authorizes and sends the call; the body of a 2xx answer, else the mapped Error.
    Result<std::string> perform(const vertex::Call& call, const CancelToken* cancel);
    /// Every job of `region` that `filter` selects, over all pages.
    Result<std::vector<vertex::Job>>
    listAll(const std::string& region, const std::string& filter, const CancelToken* cancel);
    Status needProject() const
    {
        if (m_session.project().empty()) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.vertex.no_project", {}}, "project_id"};
        }
        return Ok{};
    }
    static Status checkJobId(const std::string& jobId)
    {
        if (jobId.empty() || jobId.find_first_not_of("0123456789") != std::string::npos) {
            return Error{
                ErrorCode::InvalidArgument, Reason{"error.vertex.job_id_invalid", {{"job_id", jobId}}}, "instance_id"};
        }
        return Ok{};
    }

    gcp::GoogleSession m_session;
};

Result<std::string> VertexJobs::perform(const vertex::Call& call, const CancelToken* cancel)
{
    if (!m_context.http) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.vertex.no_transport", {}}, "vertex"};
    }
    if (Status ok = needProject(); !ok) {
        return ok.error();
    }
    if (cancel && cancel->cancelled()) {
        return Error{ErrorCode::Cancelled, Reason{"error.vertex.stopped_before", {{"action", call.action}}}, "vertex"};
    }
    HttpRequest request = vertex::buildRequest(call, m_context.endpoint);
    if (Status authorized = m_session.authorize(request); !authorized) {
        return authorized.error();
    }
    Result<HttpResponse> response = m_context.http->send(request, cancel);
    if (!response) {
        return response.error().within(Reason{"error.provider.call", {{"action", call.action}}});
    }
    vertex::ErrorContext context;
    context.action = call.action;
    context.region = call.region;
    context.project = m_session.project();
    if (std::optional<Error> error = vertex::mapError(*response, context)) {
        return *error;
    }
    return std::move(response.value().body);
}

Result<std::vector<vertex::Job>>
VertexJobs::listAll(const std::string& region, const std::string& filter, const CancelToken* cancel)
{
    std::vector<vertex::Job> jobs;
    std::string pageToken;
    for (int page = 0; page < kMaxPages; ++page) {
        Result<std::string> body =
            perform(vertex::listJobsCall(m_session.project(), region, filter, pageToken), cancel);
        if (!body) {
            return body.error();
        }
        Result<vertex::JobsPage> listed = vertex::parseJobsPage(*body);
        if (!listed) {
            return listed.error();
        }
        for (vertex::Job& job : listed.value().jobs) {
            jobs.push_back(std::move(job));
        }
        pageToken = listed->nextPageToken;
        if (pageToken.empty()) {
            break;
        }
    }
    return jobs;
}

Result<LaunchResult> VertexJobs::launch(const LaunchRequest& request, const CancelToken* cancel)
{
    if (Status ok = needProject(); !ok) {
        return ok.error();
    }
    if (request.dryRun) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.vertex.no_dry_run", {}}, "dry_run"};
    }
    const std::int64_t now = unixSeconds(m_context.clock());
    // Every check before anything is sent.
    Result<vertex::Call> create = vertex::createJobCall(request, m_session.project(), now);
    if (!create) {
        return create.error();
    }
    LaunchResult result;
    // customJobs.create takes no request id: an earlier attempt's job is found by its token label first.
    Result<std::vector<vertex::Job>> found = listAll(request.region, vertex::tokenFilter(request.clientToken), cancel);
    if (!found) {
        return found.error();
    }
    for (const vertex::Job& job : *found) {
        if (job.instance.clientToken == request.clientToken) {
            result.instanceId = job.instance.instanceId;
            result.state = job.instance.state;
            result.steps.push_back(Reason{"step.vertex.job_found",
                                          {{"job", job.instance.instanceId}, {"state", job.instance.providerState}}});
            return result;
        }
    }
    Result<std::string> body = perform(*create, cancel);
    if (!body) {
        return body.error();
    }
    Result<vertex::Job> job = vertex::parseJob(*body, create->action);
    if (!job) {
        return job.error();
    }
    result.instanceId = job->instance.instanceId;
    result.state = job->instance.state;
    Result<vertex::MachineSpec> spec = vertex::machineSpec(request.instanceType); // checked by createJobCall
    const vertex::MachineSpec machine = spec ? spec.value() : vertex::MachineSpec{};
    result.steps.push_back(Reason{"step.vertex.job_submitted",
                                  {{"job", result.instanceId},
                                   {"region", request.region},
                                   {"machine_type", machine.machineType},
                                   {"accelerator", machine.acceleratorType},
                                   {"count", std::to_string(machine.acceleratorCount)}}});
    if (request.terminateAt > 0) {
        result.steps.push_back(Reason{
            "step.vertex.timeout",
            {{"seconds", std::to_string(request.terminateAt - now)}, {"time", gcp::rfc3339(request.terminateAt)}}});
    }
    return result;
}

Result<RemoteInstance>
VertexJobs::describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    if (Status ok = checkJobId(instanceId); !ok) {
        return ok.error();
    }
    Result<std::string> body = perform(vertex::getJobCall(m_session.project(), region, instanceId), cancel);
    if (!body) {
        return body.error();
    }
    Result<vertex::Job> job = vertex::parseJob(*body);
    if (!job) {
        return job.error();
    }
    return std::move(job.value().instance);
}

Result<std::vector<RemoteInstance>> VertexJobs::listOurs(const std::string& region, const CancelToken* cancel)
{
    Result<std::vector<vertex::Job>> jobs = listAll(region, vertex::oursFilter(), cancel);
    if (!jobs) {
        return jobs.error();
    }
    std::vector<RemoteInstance> ours;
    for (vertex::Job& job : jobs.value()) {
        if (!job.instance.clientToken.empty()) {
            ours.push_back(std::move(job.instance));
        }
    }
    return ours;
}

Status VertexJobs::terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    if (Status ok = checkJobId(instanceId); !ok) {
        return ok;
    }
    Result<std::string> body = perform(vertex::cancelJobCall(m_session.project(), region, instanceId), cancel);
    if (!body) {
        const Error& error = body.error();
        // Gone, or already ended ("FAILED_PRECONDITION": a job in a final state cannot be cancelled): nothing bills.
        if (error.code == ErrorCode::NotFound || error.providerCode == "FAILED_PRECONDITION") {
            return Ok{};
        }
        return error;
    }
    return Ok{};
}

Result<JobLogPage> VertexJobs::logs(const std::string& region,
                                    const std::string& jobId,
                                    const std::string& after,
                                    const CancelToken* cancel)
{
    (void)region; // Cloud Logging is global: the project's entries of the job
    if (Status ok = checkJobId(jobId); !ok) {
        return ok.error();
    }
    const std::optional<vertex::LogCursor> cursor = vertex::parseCursor(after);
    if (!cursor) {
        return Error{
            ErrorCode::InvalidArgument, Reason{"error.vertex.log_cursor_invalid", {{"cursor", after}}}, "after"};
    }
    Result<std::string> body = perform(vertex::logEntriesCall(m_session.project(), jobId, *cursor), cancel);
    if (!body) {
        return body.error();
    }
    return vertex::parseLogPage(*body, *cursor);
}

} // namespace

std::unique_ptr<CloudProvider> makeVertexJobs(ProviderContext context)
{
    return std::make_unique<VertexJobs>(std::move(context));
}

const ProviderDescriptor& vertexDescriptor()
{
    // A job has no machine to log in to (no key, no SSH rule), no prepaid form, no check-only create; its end stops
    // its bill (ShutdownStopsBilling), and scheduling.timeout ends it on Google's side (ScheduledTerminate).
    static const ProviderDescriptor descriptor{
        "gcp",
        "Vertex AI", // wire: the service's name, a proper noun (data)
        "Vertex AI（谷歌云）",
        {{"client_email", CredentialFieldKind::KeyId},
         {"private_key", CredentialFieldKind::Secret},
         {"private_key_id", CredentialFieldKind::Plain, false},
         {"project_id", CredentialFieldKind::Plain, false}},
        {{CloudFeature::Subscription, Reason{"unsupported.vertex.subscription", {}}},
         {CloudFeature::DryRun, Reason{"unsupported.vertex.dry_run", {}}},
         {CloudFeature::TerminateOnShutdown, Reason{"unsupported.vertex.terminate_on_shutdown", {}}},
         {CloudFeature::KeyImport, Reason{"unsupported.vertex.key_import", {}}},
         {CloudFeature::SshSourceRestriction, Reason{"unsupported.vertex.ssh_source_restriction", {}}},
         {CloudFeature::ClientToken, Reason{"unsupported.vertex.client_token", {}}}},
        makeVertexJobs,
        LaunchKind::Job,
    };
    return descriptor;
}

} // namespace gpuplan::core
