// The words of core's error.azure.* and step.azure.* keys (core/cloud/providers/azure).
#include "wording/providers/ProviderWording.h"

#include <QCoreApplication>

namespace gpuplan::ui::providerwording {

namespace {

/// The translation context of these words.
struct AzureText
{
    Q_DECLARE_TR_FUNCTIONS(AzureText)
};

/// A parameter, or `fallback` when the error left it out.
QString textOr(const ReasonParams& p, const char* name, const QString& fallback)
{
    const QString value = p.text(name);
    return value.isEmpty() ? fallback : value;
}

/// The advice of Azure's mapped refusals (core's azure::mapError and operationFailure), without ARM's code and
/// message.
QString azureAdvice(const core::Reason& reason, const ReasonParams& p)
{
    const QString type = textOr(p, "instance_type", AzureText::tr("this VM size"));
    const QString zone = textOr(p, "zone", AzureText::tr("this zone"));
    const QString region = textOr(p, "region", AzureText::tr("this region"));
    const QString action = p.text("action");
    if (reason.key == "error.azure.no_capacity") {
        return AzureText::tr("Azure has no capacity for %1 in zone %2 right now: GPU Planner tries the next zone; "
                             "else try later or another region")
            .arg(type, zone);
    }
    if (reason.key == "error.azure.size_not_available") {
        return AzureText::tr("%1 is not available in %2 (zone %3) for this subscription now: GPU Planner tries the "
                             "next zone; else choose another size or region")
            .arg(type, region, zone);
    }
    if (reason.key == "error.azure.quota") {
        return AzureText::tr("the launch would exceed the subscription's vCPU quota %1 in %2 (limit %3, in use %4, "
                             "needed %5 more): in the portal open Subscriptions -> Usage + quotas and request more "
                             "vCPUs of that family in the region")
            .arg(textOr(p, "family", type), region, p.text("limit"), p.text("usage"), p.text("required"));
    }
    if (reason.key == "error.azure.spot_quota") {
        return AzureText::tr("the launch would exceed the subscription's spot vCPU quota in %1 (limit %2, in use %3, "
                             "needed %4 more): in the portal open Subscriptions -> Usage + quotas and request more "
                             "\"Total Regional Low-priority vCPUs\" in the region")
            .arg(region, p.text("limit"), p.text("usage"), p.text("required"));
    }
    if (reason.key == "error.azure.provider_not_registered") {
        return AzureText::tr("the subscription is not registered for %1: register it once in the portal "
                             "(Subscriptions -> Resource providers -> %1 -> Register, or az provider register "
                             "--namespace %1), wait until it shows Registered, then try again")
            .arg(textOr(p, "namespace", QStringLiteral("Microsoft.Compute")));
    }
    if (reason.key == "error.azure.permission_missing") {
        return AzureText::tr("the app may not do %1: give its service principal the roles Virtual Machine "
                             "Contributor and Network Contributor (or Contributor) on the subscription, in the "
                             "portal under Subscriptions -> Access control (IAM)")
            .arg(textOr(p, "permission", action));
    }
    if (reason.key == "error.azure.token_refused") {
        return AzureText::tr("Azure refused the access token: check the app's tenant_id, client_id and "
                             "client_secret, and that the secret has not expired");
    }
    if (reason.key == "error.azure.throttled") {
        return p.has("retry_after") ? AzureText::tr("Azure is limiting the request rate of %1: wait %2 seconds and "
                                                    "try again")
                                          .arg(action, p.text("retry_after"))
                                    : AzureText::tr("Azure is limiting the request rate of %1: wait a little and "
                                                    "try again")
                                          .arg(action);
    }
    if (reason.key == "error.azure.spot_price") {
        return AzureText::tr("the spot price of %1 is above the most you bid, or the bid is not valid: raise the spot "
                             "price limit or leave it unset (pay up to the on-demand price)")
            .arg(type);
    }
    if (reason.key == "error.azure.spot_not_supported") {
        return AzureText::tr("Azure does not sell %1 as a spot VM: choose on-demand or another size").arg(type);
    }
    if (reason.key == "error.azure.subscription_refused") {
        return AzureText::tr("the subscription cannot create resources (disabled, read-only or not found): check "
                             "its state in the portal under Subscriptions");
    }
    if (reason.key == "error.azure.not_found") {
        return AzureText::tr("Azure does not know the resource %1 names").arg(action);
    }
    if (reason.key == "error.azure.refused") {
        return AzureText::tr("Azure refused %1").arg(action);
    }
    if (reason.key == "error.azure.operation_failed") {
        return AzureText::tr("Azure's operation %1 ended %2").arg(action, p.text("status"));
    }
    return {};
}

/// What an answer of Azure lacks or has wrong (core's azure parsers), and the provider's other errors.
QString azureOwnText(const core::Reason& reason, const ReasonParams& p)
{
    const QString action = p.text("action");
    if (reason.key == "error.azure.http_status") {
        return AzureText::tr("Azure answered HTTP %1 to %2").arg(p.text("status"), action);
    }
    if (reason.key == "error.azure.no_transport") {
        return AzureText::tr("no HTTP transport configured");
    }
    if (reason.key == "error.azure.stopped_before") {
        return AzureText::tr("stopped before %1").arg(action);
    }
    if (reason.key == "error.azure.foreign_url") {
        return AzureText::tr("Azure's answer to %1 points to %2, which is not Azure Resource Manager: not followed")
            .arg(action, p.text("url"));
    }
    if (reason.key == "error.azure.operation_timeout") {
        return AzureText::tr("Azure's operation %1 was not done after %2 polls: look at it in the portal; "
                             "reconciling the instances finds the VM by its tag once it exists")
            .arg(action, p.text("polls"));
    }
    if (reason.key == "error.azure.image_invalid") {
        return AzureText::tr("%1 is not an Azure image: give a URN publisher:offer:sku:version or an image's resource "
                             "id (/subscriptions/...)")
            .arg(p.text("image"));
    }
    if (reason.key == "error.azure.no_gpu_image") {
        return AzureText::tr("Azure offers no version of the image %1 in %2: give an image with the NVIDIA driver "
                             "(--image publisher:offer:sku:version)")
            .arg(p.text("image"), p.text("region"));
    }
    if (reason.key == "error.azure.no_client_token") {
        return AzureText::tr("a launch needs a client token (it names the VM)");
    }
    if (reason.key == "error.azure.vm_name_invalid") {
        return AzureText::tr("%1 is not a valid Azure VM name (1-64 letters, digits and hyphens)").arg(p.text("name"));
    }
    if (reason.key == "error.azure.no_ssh_key") {
        return AzureText::tr("an Azure Linux VM needs an SSH public key");
    }
    if (reason.key == "error.azure.user_data_too_big") {
        return AzureText::tr("the cloud-init script is %1 bytes; Azure takes at most 65535 bytes of custom data: "
                             "shorten it")
            .arg(p.text("bytes"));
    }
    if (reason.key == "error.azure.tag_invalid") {
        return AzureText::tr("Azure does not take the tag %1: a name has at most 512 characters without < > % & \\ "
                             "? /, a value at most 256")
            .arg(p.text("tag"));
    }
    if (reason.key == "error.azure.no_subscription") {
        return AzureText::tr("the app sees no enabled Azure subscription: give it a role on a subscription (or enter "
                             "subscription_id in the credential)");
    }
    if (reason.key == "error.azure.several_subscriptions") {
        return AzureText::tr("the app sees several enabled subscriptions (%1): enter the one to use as "
                             "subscription_id in the credential")
            .arg(p.text("subscriptions"));
    }
    if (reason.key == "error.azure.size_restricted") {
        return AzureText::tr("Azure does not offer %1 in %2 to this subscription (%3): request access to the size "
                             "in the region through a support request (quota type: compute-VM), or choose another "
                             "size or region")
            .arg(p.text("instance_type"), p.text("region"), p.text("reason_code"));
    }
    const QString advice = azureAdvice(reason, p);
    if (advice.isNull()) {
        return {};
    }
    // " (Azure: code: message)"
    QString said = p.text("code");
    if (p.has("said")) {
        said = said.isEmpty() ? p.text("said") : AzureText::tr("%1: %2").arg(said, p.text("said"));
    }
    if (said.isEmpty()) {
        return advice;
    }
    return AzureText::tr("%1 (Azure: %2)").arg(advice, said);
}

} // namespace

QString azureErrorText(const core::Reason& reason)
{
    if (!reason.key.starts_with("error.azure.")) {
        return {};
    }
    return azureOwnText(reason, ReasonParams(reason.params));
}

QString azureStepText(const std::string& key, const ReasonParams& p)
{
    if (!key.starts_with("step.azure.")) {
        return {};
    }
    if (key == "step.azure.image") {
        return AzureText::tr("image %1 (newest version %2)").arg(p.text("image"), p.text("version"));
    }
    if (key == "step.azure.ssh_key_in_vm") {
        return AzureText::tr("the SSH key goes into the VM for user %1 (Azure imports no key pair)")
            .arg(p.text("user"));
    }
    if (key == "step.azure.resource_group_created") {
        return AzureText::tr("created resource group %1 in %2 for GPU Planner's resources")
            .arg(p.text("resource_group"), p.text("region"));
    }
    if (key == "step.azure.resource_group_found") {
        return AzureText::tr("found resource group %1").arg(p.text("resource_group"));
    }
    if (key == "step.azure.nsg_found") {
        return AzureText::tr("found network security group %1: SSH from %2").arg(p.text("nsg"), p.text("cidr"));
    }
    if (key == "step.azure.nsg_created") {
        return AzureText::tr("created network security group %1: SSH from %2 only").arg(p.text("nsg"), p.text("cidr"));
    }
    if (key == "step.azure.nsg_rule_repaired") {
        return AzureText::tr("network security group %1 had lost its SSH rule: added it again for %2")
            .arg(p.text("nsg"), p.text("cidr"));
    }
    if (key == "step.azure.vnet_found") {
        return AzureText::tr("found virtual network %1").arg(p.text("vnet"));
    }
    if (key == "step.azure.vnet_created") {
        return AzureText::tr("created virtual network %1 (%2)").arg(p.text("vnet"), p.text("cidr"));
    }
    if (key == "step.azure.no_zone") {
        return AzureText::tr("the VM size has no availability zones in %1: Azure places the VM in the region")
            .arg(p.text("region"));
    }
    if (key == "step.azure.vm_found") {
        return AzureText::tr("VM %1 exists already (a resent launch): not created again").arg(p.text("instance_id"));
    }
    if (key == "step.azure.vm_created") {
        return AzureText::tr("created VM %1 (with its network interface, public IP and OS disk, all deleted with it)")
            .arg(p.text("instance_id"));
    }
    if (key == "step.azure.no_scheduled_terminate") {
        return AzureText::tr("Azure has no scheduled delete time for a VM: the watchdog inside it and GPU Planner's "
                             "reconcile end it");
    }
    return {};
}

} // namespace gpuplan::ui::providerwording
