#include "wording/ProviderText.h"

#include "wording/Language.h"
#include "wording/providers/ProviderWording.h"

#include "gpuplan/cloud/ProviderRegistry.h"

#include <QCoreApplication>

namespace gpuplan::ui {

namespace {

/// The translation context of why a provider lacks a feature.
struct ProviderText
{
    Q_DECLARE_TR_FUNCTIONS(gpuplan::ui::ProviderText)
};

/// The credential fields' labels keep the credential dialog's context, where they were first worded.
struct CredentialLabels
{
    Q_DECLARE_TR_FUNCTIONS(gpuplan::ui::CredentialDialog)
};

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

QString providerDisplayName(std::string_view id)
{
    const core::ProviderDescriptor* provider = core::ProviderRegistry::builtIn().find(id);
    if (!provider) {
        return QString::fromUtf8(id.data(), qsizetype(id.size()));
    }
    const bool chinese = currentLanguage() == QLatin1String("zh_CN") && !provider->nameZh.empty();
    return QString::fromStdString(chinese ? provider->nameZh : provider->name);
}

QString managedServiceName(std::string_view id)
{
    const core::ProviderDescriptor* provider = core::ProviderRegistry::builtIn().find(id);
    if (!provider || !provider->managedJobs) {
        return providerDisplayName(id);
    }
    const core::ProviderDescriptor& service = *provider->managedJobs;
    const bool chinese = currentLanguage() == QLatin1String("zh_CN") && !service.nameZh.empty();
    return QString::fromStdString(chinese ? service.nameZh : service.name);
}

QString unsupportedText(const core::Reason& reason)
{
    const std::string& key = reason.key;
    for (auto* words : {providerwording::vertexUnsupportedText, providerwording::azureMlUnsupportedText}) {
        if (QString text = words(key); !text.isNull()) {
            return text;
        }
    }
    if (key == "unsupported.aws.subscription") {
        return ProviderText::tr("EC2 has no monthly rental of an instance; Reserved Instances and Savings Plans are "
                                "bought separately, for a term, in the console");
    }
    if (key == "unsupported.aws.scheduled_terminate") {
        return ProviderText::tr("EC2 has no provider-side timer; the dead-man runs inside the instance and "
                                "InstanceInitiatedShutdownBehavior=terminate makes its shutdown end the billing");
    }
    if (key == "unsupported.tencent.terminate_on_shutdown") {
        return ProviderText::tr("On Tencent Cloud a shutdown inside the instance only stops it, and a pay-as-you-go "
                                "instance keeps billing; GPU Planner sets Tencent's scheduled terminate (ActionTimer) "
                                "instead (not available for monthly instances).");
    }
    if (key == "unsupported.huawei.terminate_on_shutdown") {
        return ProviderText::tr("A shutdown inside a Huawei Cloud server leaves it shut off, not deleted: its disks "
                                "and elastic IP keep billing (and all of it for flavors with local disks); GPU "
                                "Planner sets Huawei Cloud's scheduled delete time (auto_terminate_time) instead (not "
                                "available for yearly/monthly servers).");
    }
    if (key == "unsupported.alibaba.terminate_on_shutdown") {
        return ProviderText::tr("On Alibaba Cloud a shutdown inside the instance only stops it, and a pay-as-you-go "
                                "instance keeps billing (unless stopped in economical mode); GPU Planner sets ECS's "
                                "automatic release time (AutoReleaseTime) instead (not available for subscription "
                                "instances).");
    }
    if (key == "unsupported.tencent.shutdown_stops_billing" || key == "unsupported.alibaba.shutdown_stops_billing") {
        return ProviderText::tr("A pay-as-you-go instance shut down from inside keeps billing until it is released: "
                                "the watchdog's shutdown does not end the bill, the provider's scheduled release "
                                "does.");
    }
    if (key == "unsupported.gcp.subscription") {
        return ProviderText::tr("Compute Engine has no monthly rental of a VM; committed use discounts are bought "
                                "for the whole project, for one or three years, in the console (Billing -> "
                                "Committed use discounts)");
    }
    if (key == "unsupported.gcp.dry_run") {
        return ProviderText::tr("Compute Engine's instances.insert has no validate-only mode: a launch cannot be "
                                "checked without starting the VM");
    }
    if (key == "unsupported.gcp.terminate_on_shutdown") {
        return ProviderText::tr("A shutdown inside a Compute Engine VM only stops it (TERMINATED): its boot disk "
                                "keeps billing; GPU Planner sets Compute Engine's scheduled delete time "
                                "(terminationTime, with the DELETE action) instead.");
    }
    if (key == "unsupported.azure.subscription") {
        return ProviderText::tr("Azure sells reservations apart from the VM: buy one in the portal; GPU Planner "
                                "launches pay-as-you-go or spot VMs");
    }
    if (key == "unsupported.azure.dry_run") {
        return ProviderText::tr("Azure Resource Manager has no check-only request for a VM");
    }
    if (key == "unsupported.azure.scheduled_terminate") {
        return ProviderText::tr("Azure VMs have no provider-side delete time: the watchdog inside the VM and GPU "
                                "Planner's reconcile end it");
    }
    if (key == "unsupported.azure.terminate_on_shutdown" || key == "unsupported.azure.shutdown_stops_billing") {
        return ProviderText::tr("A shutdown inside an Azure VM only stops it; it stays allocated and billed until it "
                                "is deallocated or deleted");
    }
    if (key == "unsupported.lambda.spot") {
        return ProviderText::tr("Lambda has no spot instances: its API launches on-demand instances only");
    }
    if (key == "unsupported.lambda.subscription") {
        return ProviderText::tr("Lambda sells reserved capacity only through its sales team, not through the API");
    }
    if (key == "unsupported.lambda.dry_run") {
        return ProviderText::tr("Lambda's launch has no dry run: a check would start (and bill) the instance");
    }
    if (key == "unsupported.lambda.terminate_on_shutdown") {
        return ProviderText::tr("Lambda documents no way for a shutdown inside an instance to terminate it: terminate "
                                "it through the API or the dashboard");
    }
    if (key == "unsupported.lambda.shutdown_stops_billing") {
        return ProviderText::tr("Lambda bills an instance until it is terminated, also after a shutdown from inside "
                                "(it has no stopped state)");
    }
    if (key == "unsupported.lambda.scheduled_terminate") {
        return ProviderText::tr("Lambda has no timer that terminates an instance at a set time");
    }
    if (key == "unsupported.lambda.ssh_source_restriction") {
        return ProviderText::tr("Lambda's firewall rules apply to the whole account (setting them replaces them for "
                                "every instance), so SSH is not limited to your address");
    }
    if (key == "unsupported.lambda.client_token") {
        return ProviderText::tr("Lambda's launch takes no idempotency key: GPU Planner names each instance with its "
                                "launch token and looks for that name before sending again");
    }
    if (key == "unsupported.paperspace.spot") {
        return ProviderText::tr("Paperspace has no spot (interruptible) machines: it rents them by the hour only");
    }
    if (key == "unsupported.paperspace.subscription") {
        return ProviderText::tr(
            "Paperspace's machines API launches no prepaid machines: every machine is billed by the hour");
    }
    if (key == "unsupported.paperspace.dry_run") {
        return ProviderText::tr("Paperspace has no check-only launch: only the machine type's availability and the "
                                "template can be checked beforehand");
    }
    if (key == "unsupported.paperspace.terminate_on_shutdown") {
        return ProviderText::tr("A shutdown inside a Paperspace machine only turns it off: the machine and its disk "
                                "stay, and the disk keeps billing until the machine is deleted");
    }
    if (key == "unsupported.paperspace.scheduled_terminate") {
        return ProviderText::tr("Paperspace cannot delete a machine at a set time: its auto-shutdown only turns the "
                                "machine off, and its disk keeps billing");
    }
    if (key == "unsupported.paperspace.key_import") {
        return ProviderText::tr("Paperspace keeps no SSH key pairs for machines: GPU Planner adds your key with a "
                                "startup script on the machine's first boot");
    }
    if (key == "unsupported.paperspace.ssh_source_restriction") {
        return ProviderText::tr("Paperspace machines have no firewall in its API: SSH is open to every address, and "
                                "only the key protects it");
    }
    if (key == "unsupported.paperspace.client_token") {
        return ProviderText::tr("Paperspace's launch call takes no idempotency token: GPU Planner names the machine "
                                "after the launch's token and looks for that name before sending again");
    }
    return QString::fromStdString(key);
}

QString subscriptionTerminateText(std::string_view provider)
{
    if (provider == "alibaba") {
        return ProviderText::tr("Terminate does not refund it and cannot end it early: Alibaba Cloud releases a "
                                "subscription instance only after its period. To end it sooner, unsubscribe it in "
                                "the console (Expenses -> Unsubscribe); any refund follows Alibaba Cloud's rules.");
    }
    if (provider == "huawei") {
        return ProviderText::tr("Terminate does not refund it and cannot end it early: Huawei Cloud deletes only "
                                "pay-per-use servers. To end it sooner, unsubscribe it in the console (Billing "
                                "Center -> Unsubscriptions); any refund follows Huawei Cloud's rules.");
    }
    if (provider == "tencent") {
        return ProviderText::tr("Terminate does not refund it: it returns the instance to Tencent Cloud, and any "
                                "refund follows Tencent Cloud's rules for returned monthly instances.");
    }
    return ProviderText::tr("Terminate does not refund the prepaid period.");
}

QString credentialFieldLabel(std::string_view provider, std::string_view field)
{
    if (field == "access_key_id") {
        if (provider == "tencent") {
            return CredentialLabels::tr("SecretId");
        }
        if (provider == "alibaba") {
            return CredentialLabels::tr("AccessKey ID");
        }
        if (provider == "huawei") {
            return CredentialLabels::tr("Access key ID (AK)");
        }
        return CredentialLabels::tr("Access key ID");
    }
    if (field == "secret_access_key") {
        if (provider == "tencent") {
            return CredentialLabels::tr("SecretKey");
        }
        if (provider == "alibaba") {
            return CredentialLabels::tr("AccessKey secret");
        }
        if (provider == "huawei") {
            return CredentialLabels::tr("Secret access key (SK)");
        }
        return CredentialLabels::tr("Secret access key");
    }
    if (field == "project_id") {
        if (provider == "huawei") {
            return CredentialLabels::tr("Project IDs (optional)");
        }
        return CredentialLabels::tr("Project ID");
    }
    if (field == "client_email") {
        return CredentialLabels::tr("Service account e-mail");
    }
    if (field == "private_key") {
        return CredentialLabels::tr("Private key");
    }
    if (field == "private_key_id") {
        return CredentialLabels::tr("Private key ID");
    }
    if (field == "tenant_id") {
        return CredentialLabels::tr("Tenant ID");
    }
    if (field == "client_id") {
        return CredentialLabels::tr("Client (application) ID");
    }
    if (field == "client_secret") {
        return CredentialLabels::tr("Client secret");
    }
    if (field == "subscription_id") {
        return CredentialLabels::tr("Subscription ID");
    }
    if (field == "ml_workspace") {
        return CredentialLabels::tr("Azure ML workspace (resource group/name, optional)");
    }
    if (field == "api_key") {
        return CredentialLabels::tr("API key");
    }
    return qs(field);
}

} // namespace gpuplan::ui
