// The words of core's error.gcp.* and step.gcp.* keys (core/cloud/providers/gcp).
#include "wording/providers/ProviderWording.h"

#include <QCoreApplication>

namespace gpuplan::ui::providerwording {

namespace {

/// The translation context of these words.
struct GcpText
{
    Q_DECLARE_TR_FUNCTIONS(GcpText)
};

/// A parameter, or `fallback` when the error left it out.
QString textOr(const ReasonParams& p, const char* name, const QString& fallback)
{
    const QString value = p.text(name);
    return value.isEmpty() ? fallback : value;
}

/// The advice of Compute Engine's mapped refusals (core's gcp::mapError and gcp::operationFailure), without Google's
/// own code and message.
QString gcpAdvice(const core::Reason& reason, const ReasonParams& p)
{
    const QString action = p.text("action");
    const QString project = textOr(p, "project", GcpText::tr("the project"));
    if (reason.key == "error.gcp.capacity") {
        return GcpText::tr("Compute Engine has no %1 free in %2 right now (the zone's resources are exhausted): GPU "
                           "Planner tries the next zone; else try later or another region")
            .arg(textOr(p, "instance_type", GcpText::tr("this machine type")),
                 textOr(p, "zone", GcpText::tr("this zone")));
    }
    if (reason.key == "error.gcp.quota") {
        return GcpText::tr("the launch would exceed the project's quota %1 (in %2): in the console open IAM & Admin "
                           "-> Quotas, filter by the metric, select it and request an increase (a new project's GPU "
                           "quotas, GPUS_ALL_REGIONS among them, are often 0)")
            .arg(textOr(p, "metric", GcpText::tr("for GPUs")), textOr(p, "region", GcpText::tr("this region")));
    }
    if (reason.key == "error.gcp.throttled") {
        return GcpText::tr("Compute Engine is limiting the request rate of %1 (the per-minute quota refills each "
                           "minute): wait a minute and try again")
            .arg(action);
    }
    if (reason.key == "error.gcp.api_disabled") {
        return GcpText::tr("the Compute Engine API is not enabled in %1: enable it in the console (APIs & Services "
                           "-> Library -> Compute Engine API -> Enable, or the link in Google's message), wait a few "
                           "minutes, then try again")
            .arg(project);
    }
    if (reason.key == "error.gcp.no_default_network") {
        return GcpText::tr("%1 has no VPC network named \"default\", which GPU Planner launches in: create it in the "
                           "console (VPC network -> VPC networks -> Create VPC network, name \"default\", automatic "
                           "subnets)")
            .arg(project);
    }
    if (reason.key == "error.gcp.permission") {
        return GcpText::tr("the service account may not do %1 (it lacks the permission %2): grant it the role %3 on %4 "
                           "in the console (IAM & Admin -> IAM)")
            .arg(action,
                 textOr(p, "permission", action),
                 textOr(p, "role", QStringLiteral("roles/compute.instanceAdmin.v1")),
                 project);
    }
    if (reason.key == "error.gcp.key_refused") {
        return GcpText::tr("Google did not accept the service account's token: check that the key file is current "
                           "and its key not deleted (IAM & Admin -> Service accounts -> Keys)");
    }
    if (reason.key == "error.gcp.not_found") {
        return GcpText::tr("Compute Engine does not know the resource %1 names").arg(action);
    }
    if (reason.key == "error.gcp.refused") {
        return GcpText::tr("Compute Engine refused %1").arg(action);
    }
    if (reason.key == "error.gcp.operation_failed") {
        return GcpText::tr("Compute Engine's operation %1 for %2 failed").arg(p.text("operation"), action);
    }
    return {};
}

/// What an answer of Compute Engine lacks or has wrong (core's gcp parsers), and the provider's other errors.
QString gcpOwnText(const core::Reason& reason, const ReasonParams& p)
{
    const QString action = p.text("action");
    if (reason.key == "error.gcp.http_status") {
        return GcpText::tr("Compute Engine answered HTTP %1 to %2").arg(p.text("status"), action);
    }
    if (reason.key == "error.gcp.no_project") {
        return GcpText::tr("no Google Cloud project: enter project_id in the credential, or use a service account "
                           "key whose client_email ends in @<project>.iam.gserviceaccount.com");
    }
    if (reason.key == "error.gcp.tpu_not_a_vm") {
        return GcpText::tr("%1 is a Cloud TPU, not a Compute Engine VM: GPU Planner launches VMs only")
            .arg(p.text("instance_type"));
    }
    if (reason.key == "error.gcp.instance_type_invalid") {
        return GcpText::tr("%1 is not a Compute Engine machine type (\"a2-highgpu-1g\") or an N1 type with GPUs "
                           "(\"n1-standard-8+1xT4\")")
            .arg(p.text("instance_type"));
    }
    if (reason.key == "error.gcp.gpu_unknown") {
        return GcpText::tr("%1 in %2 is not a GPU that attaches to N1 machine types (T4, V100, P100 or P4)")
            .arg(p.text("gpu"), p.text("instance_type"));
    }
    if (reason.key == "error.gcp.spot_no_price_limit") {
        return GcpText::tr("Compute Engine Spot VMs take no price limit (there is no bid): launch without one");
    }
    if (reason.key == "error.gcp.no_client_token") {
        return GcpText::tr("a launch needs a client token (idempotency)");
    }
    if (reason.key == "error.gcp.client_token_invalid") {
        return GcpText::tr("the client token %1 cannot name a Compute Engine instance (lowercase letters, digits and "
                           "'-', starting with a letter, at most 63)")
            .arg(p.text("token"));
    }
    if (reason.key == "error.gcp.too_many_labels") {
        return GcpText::tr("a Compute Engine instance takes at most 64 labels; this launch has %1")
            .arg(p.text("count"));
    }
    if (reason.key == "error.gcp.metadata_too_big") {
        return p.has("key") ? GcpText::tr("the instance metadata %1 is %2 bytes; Compute Engine takes at most 256 KB "
                                          "per value")
                                  .arg(p.text("key"), p.text("bytes"))
                            : GcpText::tr("the instance metadata is %1 bytes in all; Compute Engine takes less than "
                                          "512 KB")
                                  .arg(p.text("bytes"));
    }
    if (reason.key == "error.gcp.terminate_too_soon") {
        return GcpText::tr("the scheduled delete time (terminationTime) must lie in the future");
    }
    if (reason.key == "error.gcp.key_not_one_line") {
        return GcpText::tr("the SSH public key must be one line");
    }
    if (reason.key == "error.gcp.no_transport") {
        return GcpText::tr("no HTTP transport configured");
    }
    if (reason.key == "error.gcp.stopped_before") {
        return GcpText::tr("stopped before %1").arg(action);
    }
    if (reason.key == "error.gcp.no_gpu_image") {
        return GcpText::tr("none of the Deep Learning VM image families %1 (project %2) is available: give an image "
                           "(--image: a selfLink, projects/<project>/global/images/<name>, or an image family URL) "
                           "with the NVIDIA driver")
            .arg(p.text("families"), p.text("project"));
    }
    if (reason.key == "error.gcp.no_zone_offers") {
        return GcpText::tr("no zone of %1 offers %2: try another region")
            .arg(p.text("region"), p.text("instance_type"));
    }
    if (reason.key == "error.gcp.operation_timeout") {
        return GcpText::tr("Compute Engine's operation %1 did not finish in time: look for it in the console "
                           "(Compute Engine -> Operations); reconciling the instances finds the instance by its label "
                           "once it exists")
            .arg(p.text("operation"));
    }
    if (reason.key == "error.gcp.name_taken") {
        return GcpText::tr("an instance named %1 already exists in %2 and is not this launch's (its gpuplanner-token "
                           "label differs)")
            .arg(p.text("instance"), p.text("zone"));
    }
    if (reason.key == "error.gcp.instance_id_invalid") {
        return GcpText::tr("%1 is not a Compute Engine instance id as GPU Planner keeps it (<zone>/<name>)")
            .arg(p.text("instance_id"));
    }
    const QString advice = gcpAdvice(reason, p);
    if (advice.isNull()) {
        return {};
    }
    // " (Google: code: message)"
    QString said = p.text("code");
    if (p.has("said")) {
        said = said.isEmpty() ? p.text("said") : GcpText::tr("%1: %2").arg(said, p.text("said"));
    }
    if (said.isEmpty()) {
        return advice;
    }
    return GcpText::tr("%1 (Google: %2)").arg(advice, said);
}

} // namespace

QString gcpErrorText(const core::Reason& reason)
{
    if (!reason.key.starts_with("error.gcp.")) {
        return {};
    }
    return gcpOwnText(reason, ReasonParams(reason.params));
}

QString gcpStepText(const std::string& key, const ReasonParams& p)
{
    if (!key.starts_with("step.gcp.")) {
        return {};
    }
    if (key == "step.gcp.image_from_family") {
        return GcpText::tr("found GPU image %1 (family %2)").arg(p.text("image"), p.text("family"));
    }
    if (key == "step.gcp.ssh_key_in_metadata") {
        return GcpText::tr("the SSH key goes into the instance's metadata (ssh-keys) for the user %1")
            .arg(p.text("user"));
    }
    if (key == "step.gcp.firewall_found") {
        return GcpText::tr("found firewall rule %1 (SSH from %2)").arg(p.text("firewall"), p.text("cidr"));
    }
    if (key == "step.gcp.firewall_created") {
        return GcpText::tr("created firewall rule %1 on the network default: SSH from %2 to instances tagged with "
                           "its name")
            .arg(p.text("firewall"), p.text("cidr"));
    }
    if (key == "step.gcp.firewall_repaired") {
        return GcpText::tr("firewall rule %1 had lost its rule for SSH from %2: put it back")
            .arg(p.text("firewall"), p.text("cidr"));
    }
    if (key == "step.gcp.operation_done") {
        return GcpText::tr("operation %1 finished (asked %2 times)").arg(p.text("operation"), p.text("polls"));
    }
    if (key == "step.gcp.termination_time") {
        return GcpText::tr("Compute Engine deletes the instance at %1 (terminationTime)").arg(p.text("time"));
    }
    if (key == "step.gcp.instance_existed") {
        return GcpText::tr("instance %1 in %2 already existed from this launch's earlier request: it is this launch's")
            .arg(p.text("instance"), p.text("zone"));
    }
    return {};
}

} // namespace gpuplan::ui::providerwording
