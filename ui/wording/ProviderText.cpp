#include "wording/ProviderText.h"

#include "wording/Language.h"

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

QString unsupportedText(const core::Reason& reason)
{
    const std::string& key = reason.key;
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
    if (field == "api_key") {
        return CredentialLabels::tr("API key");
    }
    return qs(field);
}

} // namespace gpuplan::ui
