// The words of core's error.alibaba.* and step.alibaba.* keys (core/cloud/providers/alibaba).
#include "wording/providers/ProviderWording.h"

#include <QCoreApplication>

namespace gpuplan::ui::providerwording {

namespace {

/// The translation context of these words.
struct AlibabaText
{
    Q_DECLARE_TR_FUNCTIONS(AlibabaText)
};

QString textOr(const ReasonParams& p, const char* name, const QString& fallback)
{
    const QString value = p.text(name);
    return value.isEmpty() ? fallback : value;
}

/// The advice of Alibaba Cloud's mapped refusals (core's alibaba::mapError), without its code, message and RequestId.
QString alibabaAdvice(const core::Reason& reason, const ReasonParams& p)
{
    const QString type = textOr(p, "instance_type", AlibabaText::tr("this instance type"));
    const QString zone = textOr(p, "zone", AlibabaText::tr("this zone"));
    const QString region = textOr(p, "region", AlibabaText::tr("this region"));
    const QString action = p.text("action");
    const std::string& key = reason.key;
    if (key == "error.alibaba.no_capacity") {
        return AlibabaText::tr("Alibaba Cloud has no %1 in stock in %2 right now: try the next zone, or later")
            .arg(type, zone);
    }
    if (key == "error.alibaba.type_not_offered") {
        return AlibabaText::tr("Alibaba Cloud does not sell %1 in %2 (or not to this account): choose another "
                               "region or type")
            .arg(type, region);
    }
    if (key == "error.alibaba.quota") {
        return AlibabaText::tr("the launch would exceed the account's quota for %1 in %2: see and raise it in the "
                               "Quota Center (https://quotas.console.aliyun.com) or in the ECS console under "
                               "\"Privileges & Quotas\"")
            .arg(type, region);
    }
    if (key == "error.alibaba.real_name") {
        return AlibabaText::tr("Alibaba Cloud sells ECS instances in China only to accounts with real-name "
                               "verification: complete it in the console (Account Center -> Real-name "
                               "Verification) and try again");
    }
    if (key == "error.alibaba.balance") {
        return AlibabaText::tr("the account's balance or payment method does not allow this purchase (overdue, not "
                               "enough balance, or no payment method): top up or add a payment method in the "
                               "console (Expenses -> Top up); pay-as-you-go instances may also need a positive "
                               "balance");
    }
    if (key == "error.alibaba.spot_price_too_low") {
        return AlibabaText::tr("the spot price limit is below the current market price of %1: raise the limit, or "
                               "launch without one (pay the market price)")
            .arg(type);
    }
    if (key == "error.alibaba.spot_refused") {
        return AlibabaText::tr("Alibaba Cloud refused the spot request for %1: check the spot settings, or launch "
                               "pay-as-you-go")
            .arg(type);
    }
    if (key == "error.alibaba.permission_missing") {
        return AlibabaText::tr("the AccessKey works but may not call %1: grant that action to its RAM user or role, "
                               "or attach the system policy %2 (RAM console, https://ram.console.aliyun.com)")
            .arg(p.text("ram_action"), p.text("policy"));
    }
    if (key == "error.alibaba.key_refused") {
        return AlibabaText::tr("Alibaba Cloud did not accept the AccessKey ID / Secret: check that the key exists, is "
                               "enabled and was pasted without spaces (RAM console -> AccessKeys)");
    }
    if (key == "error.alibaba.clock_skew") {
        return AlibabaText::tr("Alibaba Cloud refused the request's time: this computer's clock is off; set it "
                               "right (NTP) and try again");
    }
    if (key == "error.alibaba.throttled") {
        return AlibabaText::tr("Alibaba Cloud is limiting the request rate of %1: wait a little and try again")
            .arg(action);
    }
    if (key == "error.alibaba.not_found") {
        return AlibabaText::tr("Alibaba Cloud does not know the resource %1 names").arg(action);
    }
    if (key == "error.alibaba.server_error") {
        return AlibabaText::tr("Alibaba Cloud failed on its side while handling %1: it may or may not have been "
                               "done; check the console before trying again")
            .arg(action);
    }
    if (key == "error.alibaba.refused") {
        return AlibabaText::tr("Alibaba Cloud refused %1").arg(action);
    }
    return {};
}

/// What an answer of Alibaba Cloud lacks or has wrong (core's alibaba parsers), and the provider's own checks.
QString alibabaOwnText(const core::Reason& reason, const ReasonParams& p)
{
    const QString action = p.text("action");
    const std::string& key = reason.key;
    if (key == "error.alibaba.answer_instance_without_id") {
        return AlibabaText::tr("Alibaba Cloud's answer to %1 lists an instance without InstanceId").arg(action);
    }
    if (key == "error.alibaba.answer_without_instance_id") {
        return AlibabaText::tr("Alibaba Cloud's answer to %1 has no instance id").arg(action);
    }
    if (key == "error.alibaba.answer_without_price") {
        return AlibabaText::tr("%1 answered without a price for the instance").arg(action);
    }
    if (key == "error.alibaba.no_client_token") {
        return AlibabaText::tr("a launch needs a client token (idempotency)");
    }
    if (key == "error.alibaba.client_token_invalid") {
        return AlibabaText::tr("the client token must be at most 64 ASCII characters (ECS's ClientToken rule)");
    }
    if (key == "error.alibaba.prepaid_needs_months") {
        return AlibabaText::tr("a subscription launch needs the number of months");
    }
    if (key == "error.alibaba.user_data_too_big") {
        return AlibabaText::tr("the cloud-init script is %1 bytes; ECS accepts at most 32768 (32 KB) before "
                               "encoding: shorten it")
            .arg(p.text("bytes"));
    }
    if (key == "error.alibaba.release_too_soon") {
        return AlibabaText::tr("the scheduled terminate time must be at least 30 minutes ahead (ECS's "
                               "AutoReleaseTime rule)");
    }
    if (key == "error.alibaba.http_status") {
        return AlibabaText::tr("Alibaba Cloud answered HTTP %1 to %2").arg(p.text("status"), action);
    }
    if (key == "error.alibaba.no_transport") {
        return AlibabaText::tr("no HTTP transport configured");
    }
    if (key == "error.alibaba.stopped_before") {
        return AlibabaText::tr("stopped before %1").arg(action);
    }
    if (key == "error.alibaba.no_gpu_image") {
        return AlibabaText::tr("Alibaba Cloud lists no public image with the GPU driver for %1 in %2: give an image "
                               "id (--image; a custom or marketplace image with the NVIDIA driver installed)")
            .arg(p.text("instance_type"), p.text("region"));
    }
    if (key == "error.alibaba.no_zone_sells") {
        return AlibabaText::tr("no zone of %1 has %2 in stock now (%3): try another region or later")
            .arg(p.text("region"), p.text("instance_type"), action);
    }
    if (key == "error.alibaba.instance_not_listed") {
        return AlibabaText::tr("Alibaba Cloud does not list this instance (released, or never launched)");
    }
    if (key == "error.alibaba.no_free_vswitch_cidr") {
        return AlibabaText::tr("the VPC %1 (%2) has no free /24 left for a new vSwitch: free one, or create a "
                               "vSwitch in this zone yourself")
            .arg(p.text("vpc_id"), p.text("cidr"));
    }
    if (key == "error.alibaba.network_not_ready") {
        return AlibabaText::tr("%1 (%2) did not become available in time: try the launch again in a minute")
            .arg(p.text("resource_id"), action);
    }
    if (key == "error.alibaba.subscription_not_releasable") {
        return AlibabaText::tr("%1 is a subscription instance and cannot be released before its period ends: it "
                               "keeps running (and is paid for) until %2. To end it early, unsubscribe it in the "
                               "console (Expenses -> Unsubscribe; any refund follows Alibaba Cloud's rules), or "
                               "stop it")
            .arg(p.text("instance_id"), p.text("expires"));
    }
    return {};
}

} // namespace

QString alibabaErrorText(const core::Reason& reason)
{
    if (!reason.key.starts_with("error.alibaba.")) {
        return {};
    }
    const ReasonParams p(reason.params);
    if (QString own = alibabaOwnText(reason, p); !own.isNull()) {
        return own;
    }
    QString advice = alibabaAdvice(reason, p);
    if (advice.isNull()) {
        return {};
    }
    // " (Alibaba Cloud: code: message; RequestId id)"
    QString said = p.text("code");
    if (p.has("said")) {
        said = AlibabaText::tr("%1: %2").arg(said, p.text("said"));
    }
    if (p.has("request_id")) {
        said = AlibabaText::tr("%1; RequestId %2").arg(said, p.text("request_id"));
    }
    return said.isEmpty() ? advice : AlibabaText::tr("%1 (Alibaba Cloud: %2)").arg(advice, said);
}

QString alibabaStepText(const std::string& key, const ReasonParams& p)
{
    if (!key.starts_with("step.alibaba.")) {
        return {};
    }
    if (key == "step.alibaba.vpc_found") {
        return AlibabaText::tr("found VPC %1 (%2)").arg(p.text("vpc_name"), p.text("vpc_id"));
    }
    if (key == "step.alibaba.vpc_default") {
        return AlibabaText::tr("using the account's default VPC %1").arg(p.text("vpc_id"));
    }
    if (key == "step.alibaba.vpc_would_create") {
        return AlibabaText::tr("the account has no VPC here: would create VPC %1 (%2)")
            .arg(p.text("vpc_name"), p.text("cidr"));
    }
    if (key == "step.alibaba.vpc_created") {
        return AlibabaText::tr("the account had no VPC here: created VPC %1 (%2, %3)")
            .arg(p.text("vpc_name"), p.text("vpc_id"), p.text("cidr"));
    }
    if (key == "step.alibaba.vswitch_found") {
        return AlibabaText::tr("found vSwitch %1 in %2").arg(p.text("vswitch_id"), p.text("zone"));
    }
    if (key == "step.alibaba.vswitch_would_create") {
        return AlibabaText::tr("would create a vSwitch in %1").arg(p.text("zone"));
    }
    if (key == "step.alibaba.vswitch_created") {
        return AlibabaText::tr("created vSwitch %1 in %2 (%3)")
            .arg(p.text("vswitch_id"), p.text("zone"), p.text("cidr"));
    }
    if (key == "step.alibaba.no_auto_release") {
        return AlibabaText::tr("no scheduled release: ECS's AutoReleaseTime is for pay-as-you-go instances only, a "
                               "subscription instance runs until its period ends");
    }
    return {};
}

} // namespace gpuplan::ui::providerwording
