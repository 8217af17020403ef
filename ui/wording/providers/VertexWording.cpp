// The words of core's error.vertex.*, step.vertex.* and unsupported.vertex.* keys (the managed jobs of
// core/cloud/providers/gcp).
#include "wording/providers/ProviderWording.h"

#include "wording/Format.h"

#include <QCoreApplication>

namespace gpuplan::ui::providerwording {

namespace {

/// The translation context of these words.
struct VertexText
{
    Q_DECLARE_TR_FUNCTIONS(VertexText)
};

/// A parameter, or `fallback` when the error left it out.
QString textOr(const ReasonParams& p, const char* name, const QString& fallback)
{
    const QString value = p.text(name);
    return value.isEmpty() ? fallback : value;
}

/// The advice of Vertex AI's mapped refusals (core's vertex::mapError), without Google's own code and message.
QString vertexAdvice(const core::Reason& reason, const ReasonParams& p)
{
    const QString action = p.text("action");
    const QString project = textOr(p, "project", VertexText::tr("the project"));
    if (reason.key == "error.vertex.quota") {
        return VertexText::tr("the job would exceed the project's Vertex AI training quota %1 in %2: in the console "
                              "open IAM & Admin -> Quotas, filter by the service aiplatform.googleapis.com and the "
                              "metric, select it and request an increase (a new project's GPU training quotas are 0)")
            .arg(textOr(p, "metric", VertexText::tr("for training GPUs")),
                 textOr(p, "region", VertexText::tr("this region")));
    }
    if (reason.key == "error.vertex.throttled") {
        return VertexText::tr("Google is limiting the request rate of %1: wait a minute and try again").arg(action);
    }
    if (reason.key == "error.vertex.api_disabled") {
        return VertexText::tr("the API %1 is not enabled in %2: enable it in the console (APIs & Services -> Library, "
                              "or the link in Google's message), wait a few minutes, then try again")
            .arg(textOr(p, "service", QStringLiteral("aiplatform.googleapis.com")), project);
    }
    if (reason.key == "error.vertex.permission") {
        return VertexText::tr("the service account may not do %1 (it lacks the permission %2): grant it the role %3 "
                              "on %4 in the console (IAM & Admin -> IAM; Vertex AI User is roles/aiplatform.user)")
            .arg(action,
                 textOr(p, "permission", action),
                 textOr(p, "role", QStringLiteral("roles/aiplatform.user")),
                 project);
    }
    if (reason.key == "error.vertex.key_refused") {
        return VertexText::tr("Google did not accept the service account's token: check that the key file is current "
                              "and its key not deleted (IAM & Admin -> Service accounts -> Keys)");
    }
    if (reason.key == "error.vertex.not_found") {
        return VertexText::tr("Vertex AI does not know what %1 asked for (the job is gone, or never existed)")
            .arg(action);
    }
    if (reason.key == "error.vertex.refused") {
        return VertexText::tr("Vertex AI refused %1").arg(action);
    }
    return {};
}

/// The job service's own errors: what a request lacks or has wrong.
QString vertexOwnText(const core::Reason& reason, const ReasonParams& p)
{
    if (reason.key == "error.vertex.http_status") {
        return VertexText::tr("Vertex AI answered HTTP %1 to %2").arg(p.text("status"), p.text("action"));
    }
    if (reason.key == "error.vertex.instance_type_unknown") {
        return VertexText::tr("%1 is not a Vertex AI training machine GPU Planner knows (\"vertex/g2-standard-8\", "
                              "\"vertex/a2-highgpu-1g\", \"vertex/n1-standard-8+1xT4\")")
            .arg(p.text("instance_type"));
    }
    if (reason.key == "error.vertex.no_job") {
        return VertexText::tr("a Vertex AI launch needs a job: a container image and its command");
    }
    if (reason.key == "error.vertex.no_image") {
        return VertexText::tr("a Vertex AI job needs a container image (imageUri)");
    }
    if (reason.key == "error.vertex.no_client_token") {
        return VertexText::tr("a launch needs a client token (it labels the job)");
    }
    if (reason.key == "error.vertex.client_token_invalid") {
        return VertexText::tr("the client token %1 cannot be a label value (lowercase letters, digits, '-' and '_', "
                              "at most 63)")
            .arg(p.text("token"));
    }
    if (reason.key == "error.vertex.spot_no_price_limit") {
        return VertexText::tr("Vertex AI Spot jobs take no price limit (there is no bid): launch without one");
    }
    if (reason.key == "error.vertex.terminate_past") {
        return VertexText::tr("the job's end time (its timeout) must lie in the future");
    }
    if (reason.key == "error.vertex.too_many_labels") {
        return VertexText::tr("a Vertex AI job takes at most 64 labels; this launch has %1").arg(p.text("count"));
    }
    if (reason.key == "error.vertex.no_project") {
        return VertexText::tr("no Google Cloud project: enter project_id in the credential, or use a service account "
                              "key whose client_email ends in @<project>.iam.gserviceaccount.com");
    }
    if (reason.key == "error.vertex.no_transport") {
        return VertexText::tr("no HTTP transport configured");
    }
    if (reason.key == "error.vertex.stopped_before") {
        return VertexText::tr("stopped before %1").arg(p.text("action"));
    }
    if (reason.key == "error.vertex.job_id_invalid") {
        return VertexText::tr("%1 is not a Vertex AI job id (a number)").arg(p.text("job_id"));
    }
    if (reason.key == "error.vertex.log_cursor_invalid") {
        return VertexText::tr("%1 is not a position in a Vertex AI job's log").arg(p.text("cursor"));
    }
    if (reason.key == "error.vertex.no_dry_run") {
        return VertexText::tr("Vertex AI cannot check a job without submitting it: launch without a dry run");
    }
    const QString advice = vertexAdvice(reason, p);
    if (advice.isNull()) {
        return {};
    }
    // " (Google: code: message)"
    QString said = p.text("code");
    if (p.has("said")) {
        said = said.isEmpty() ? p.text("said") : VertexText::tr("%1: %2").arg(said, p.text("said"));
    }
    if (said.isEmpty()) {
        return advice;
    }
    return VertexText::tr("%1 (Google: %2)").arg(advice, said);
}

} // namespace

QString vertexErrorText(const core::Reason& reason)
{
    if (!reason.key.starts_with("error.vertex.")) {
        return {};
    }
    return vertexOwnText(reason, ReasonParams(reason.params));
}

QString vertexStepText(const std::string& key, const ReasonParams& p)
{
    if (!key.starts_with("step.vertex.")) {
        return {};
    }
    if (key == "step.vertex.job_found") {
        return VertexText::tr("found Vertex AI job %1 (%2) from this launch's earlier request: nothing new submitted")
            .arg(p.text("job"), p.text("state"));
    }
    if (key == "step.vertex.job_submitted") {
        return VertexText::tr("submitted Vertex AI job %1 in %2 on %3 with %4 x %5")
            .arg(p.text("job"), p.text("region"), p.text("machine_type"), p.text("count"), p.text("accelerator"));
    }
    if (key == "step.vertex.timeout") {
        return VertexText::tr("Vertex AI ends the job after %1 s, at %2 (its timeout)")
            .arg(p.text("seconds"), p.text("time"));
    }
    return {};
}

QString vertexUnsupportedText(const std::string& key)
{
    if (key == "unsupported.vertex.subscription") {
        return VertexText::tr("Vertex AI bills a job for the time it runs; there is no monthly rental");
    }
    if (key == "unsupported.vertex.dry_run") {
        return VertexText::tr("Vertex AI's customJobs.create has no validate-only mode: a job cannot be checked "
                              "without submitting it");
    }
    if (key == "unsupported.vertex.terminate_on_shutdown") {
        return VertexText::tr("A Vertex AI job has no machine of yours to shut down: it ends when its command exits, "
                              "or at its timeout");
    }
    if (key == "unsupported.vertex.key_import") {
        return VertexText::tr("A Vertex AI job has no machine to log in to: no SSH key is needed");
    }
    if (key == "unsupported.vertex.ssh_source_restriction") {
        return VertexText::tr("A Vertex AI job has no machine to log in to: there is no SSH port to open");
    }
    if (key == "unsupported.vertex.client_token") {
        return VertexText::tr("Vertex AI's customJobs.create takes no request id: GPU Planner finds an earlier "
                              "attempt's job by its gpuplanner-token label before it submits");
    }
    return {};
}

} // namespace gpuplan::ui::providerwording
