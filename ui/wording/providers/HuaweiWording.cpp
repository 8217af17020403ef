// The words of core's error.huawei.* and step.huawei.* keys (core/cloud/providers/huawei).
#include "wording/providers/ProviderWording.h"

#include <QCoreApplication>

namespace gpuplan::ui::providerwording {

namespace {

/// The translation context of these words.
struct HuaweiText
{
    Q_DECLARE_TR_FUNCTIONS(HuaweiText)
};

/// A parameter, or `fallback` when the error left it out.
QString textOr(const ReasonParams& p, const char* name, const QString& fallback)
{
    const QString value = p.text(name);
    return value.isEmpty() ? fallback : value;
}

/// The advice of Huawei Cloud's mapped refusals (core's huawei::mapError), without Huawei's code, message and
/// request id.
QString huaweiAdvice(const core::Reason& reason, const ReasonParams& p)
{
    const QString type = textOr(p, "instance_type", HuaweiText::tr("this flavor"));
    const QString zone = textOr(p, "zone", HuaweiText::tr("this zone"));
    const QString region = textOr(p, "region", HuaweiText::tr("this region"));
    const QString action = p.text("action");
    if (reason.key == "error.huawei.sold_out") {
        return HuaweiText::tr("Huawei Cloud has no %1 left in %2 right now (sold out): GPU Planner tries the next "
                              "zone; else try later or another region")
            .arg(type, zone);
    }
    if (reason.key == "error.huawei.flavor_not_sold") {
        return HuaweiText::tr("Huawei Cloud does not sell %1 in %2 (taken off sale, or not offered there): choose "
                              "another flavor or region")
            .arg(type, region);
    }
    if (reason.key == "error.huawei.quota") {
        return HuaweiText::tr("the launch would exceed the account's ECS quota (servers, vCPUs or memory) in %1: see "
                              "the quotas in the console (Resources -> My Quotas) and ask for more there, by the "
                              "vCPUs and memory of %2")
            .arg(region, type);
    }
    if (reason.key == "error.huawei.eip_quota") {
        return HuaweiText::tr("the account's elastic IP (EIP) quota in %1 is used up: release an unused EIP, or ask "
                              "for more under Resources -> My Quotas")
            .arg(region);
    }
    if (reason.key == "error.huawei.account_restricted") {
        return HuaweiText::tr("Huawei Cloud refused %1 for the account itself (Ecs.0003). Either the account is in "
                              "arrears or frozen: check the balance in Billing Center and top it up; or the IAM user "
                              "lacks the permission %2: grant it in IAM (system policy ECS FullAccess)")
            .arg(action, textOr(p, "iam_action", action));
    }
    if (reason.key == "error.huawei.project_mismatch") {
        return HuaweiText::tr("the credential's project_id is not the project of %1 (a project id belongs to one "
                              "region): clear project_id so GPU Planner looks the project up, or enter %1's project id "
                              "(My Credentials -> Projects)")
            .arg(region);
    }
    if (reason.key == "error.huawei.balance_insufficient") {
        return HuaweiText::tr("the account balance cannot pay for %1 (or an order is still unpaid): top up in Billing "
                              "Center, pay or cancel pending orders, then try again")
            .arg(action);
    }
    if (reason.key == "error.huawei.real_name_required") {
        return HuaweiText::tr("the account has not finished real-name verification, which Huawei Cloud requires "
                              "before it sells servers: complete it in the console (Account Center -> Real-Name "
                              "Authentication), then try again");
    }
    if (reason.key == "error.huawei.permission_missing") {
        return HuaweiText::tr("the key works but its IAM user may not do %1: grant it in the IAM console "
                              "(https://console.huaweicloud.com/iam), e.g. with the system policy %2 for the "
                              "region's project")
            .arg(textOr(p, "iam_action", action), textOr(p, "policy", QStringLiteral("ECS FullAccess")));
    }
    if (reason.key == "error.huawei.clock_skew") {
        return HuaweiText::tr("Huawei Cloud refused the request's time (X-Sdk-Date): this computer's clock is more "
                              "than 15 minutes off; set it right (NTP) and try again");
    }
    if (reason.key == "error.huawei.key_refused") {
        return HuaweiText::tr("Huawei Cloud did not accept the access key: check that the AK/SK pair exists, is "
                              "enabled and was pasted without spaces (My Credentials -> Access Keys)");
    }
    if (reason.key == "error.huawei.throttled") {
        return HuaweiText::tr("Huawei Cloud is limiting the request rate of %1: wait a little and try again")
            .arg(action);
    }
    if (reason.key == "error.huawei.not_found") {
        return HuaweiText::tr("Huawei Cloud does not know the resource %1 names").arg(action);
    }
    if (reason.key == "error.huawei.refused") {
        return HuaweiText::tr("Huawei Cloud refused %1").arg(action);
    }
    if (reason.key == "error.huawei.job_failed") {
        return HuaweiText::tr("Huawei Cloud could not create the server (its job failed)");
    }
    return {};
}

/// What an answer of Huawei Cloud lacks or has wrong (core's huawei parsers), and the provider's other errors.
QString huaweiOwnText(const core::Reason& reason, const ReasonParams& p)
{
    const QString action = p.text("action");
    if (reason.key == "error.huawei.answer_without_price") {
        return HuaweiText::tr("%1 answered without a price for the server").arg(action);
    }
    if (reason.key == "error.huawei.http_status") {
        return HuaweiText::tr("Huawei Cloud answered HTTP %1 to %2").arg(p.text("status"), action);
    }
    if (reason.key == "error.huawei.no_client_token") {
        return HuaweiText::tr("a launch needs a client token (idempotency)");
    }
    if (reason.key == "error.huawei.client_token_too_long") {
        return HuaweiText::tr("the client token is longer than 43 characters, the most a Huawei Cloud tag value "
                              "takes (the server carries it as its gpuplanner-token tag)");
    }
    if (reason.key == "error.huawei.tag_invalid") {
        return HuaweiText::tr("Huawei Cloud does not take the tag %1: a key has at most 36 characters, a value at "
                              "most 43, and neither may contain = * < > \\ , | (nor / in a key)")
            .arg(p.text("tag"));
    }
    if (reason.key == "error.huawei.too_many_tags") {
        return HuaweiText::tr("a Huawei Cloud server takes at most 10 tags; this launch has %1").arg(p.text("count"));
    }
    if (reason.key == "error.huawei.user_data_too_big") {
        return HuaweiText::tr("the cloud-init script is %1 bytes; ECS accepts at most 32768 (32 KB) before base64: "
                              "shorten it")
            .arg(p.text("bytes"));
    }
    if (reason.key == "error.huawei.prepaid_period") {
        return HuaweiText::tr("Huawei Cloud sells yearly/monthly servers for 1 to 9 months or 1 to 3 whole years, "
                              "not %1 months")
            .arg(p.text("months"));
    }
    if (reason.key == "error.huawei.terminate_too_soon") {
        return HuaweiText::tr("the scheduled delete time (auto_terminate_time) must be at least half an hour ahead "
                              "(Huawei Cloud's rule)");
    }
    if (reason.key == "error.huawei.no_transport") {
        return HuaweiText::tr("no HTTP transport configured");
    }
    if (reason.key == "error.huawei.stopped_before") {
        return HuaweiText::tr("stopped before %1").arg(action);
    }
    if (reason.key == "error.huawei.no_project") {
        return HuaweiText::tr("the account has no IAM project named %1: that region is not open to the account, or "
                              "the key belongs to another account; check the region under My Credentials -> "
                              "Projects")
            .arg(p.text("region"));
    }
    if (reason.key == "error.huawei.no_gpu_image") {
        return HuaweiText::tr("Huawei Cloud lists no public Linux image with the GPU driver for %1 in %2: give an "
                              "image id (a private or KooGallery image with the NVIDIA driver installed)")
            .arg(p.text("instance_type"), p.text("region"));
    }
    if (reason.key == "error.huawei.no_zone_sells") {
        return HuaweiText::tr("no available zone of %1 sells %2 now: try another region or later")
            .arg(p.text("region"), p.text("instance_type"));
    }
    if (reason.key == "error.huawei.vpc_full") {
        return HuaweiText::tr("VPC %1 (%2) has no free /24 left for a new subnet: delete an unused subnet of it")
            .arg(p.text("vpc_id"), p.text("cidr"));
    }
    if (reason.key == "error.huawei.subnet_failed") {
        return HuaweiText::tr("Huawei Cloud could not create subnet %1 in %2 (its status is ERROR): delete it in the "
                              "VPC console and try again")
            .arg(p.text("subnet_id"), p.text("zone"));
    }
    if (reason.key == "error.huawei.job_timeout") {
        return HuaweiText::tr("Huawei Cloud's job %1 named no server within 5 minutes: look for it in the ECS "
                              "console; reconciling the instances finds it by its tag once it exists")
            .arg(p.text("job_id"));
    }
    if (reason.key == "error.huawei.subscription_not_releasable") {
        return HuaweiText::tr("%1 is a yearly/monthly (prepaid) server, which Huawei Cloud does not delete through "
                              "the API: it keeps running and is paid until you unsubscribe it in the console "
                              "(Billing Center -> Unsubscriptions and Returns/Exchanges); any refund follows Huawei "
                              "Cloud's rules")
            .arg(p.text("instance_id"));
    }
    const QString advice = huaweiAdvice(reason, p);
    if (advice.isNull()) {
        return {};
    }
    // " (Huawei Cloud: code: message; request id id)"
    QString said = p.text("code");
    if (p.has("said")) {
        said = said.isEmpty() ? p.text("said") : HuaweiText::tr("%1: %2").arg(said, p.text("said"));
    }
    if (p.has("request_id")) {
        said = HuaweiText::tr("%1; request id %2").arg(said, p.text("request_id"));
    }
    if (said.isEmpty()) {
        return advice;
    }
    return HuaweiText::tr("%1 (Huawei Cloud: %2)").arg(advice, said);
}

} // namespace

QString huaweiErrorText(const core::Reason& reason)
{
    if (!reason.key.starts_with("error.huawei.")) {
        return {};
    }
    return huaweiOwnText(reason, ReasonParams(reason.params));
}

QString huaweiStepText(const std::string& key, const ReasonParams& p)
{
    if (!key.starts_with("step.huawei.")) {
        return {};
    }
    if (key == "step.huawei.vpc_found") {
        return HuaweiText::tr("found VPC gpuplanner (%1, %2)").arg(p.text("vpc_id"), p.text("cidr"));
    }
    if (key == "step.huawei.vpc_would_create") {
        return HuaweiText::tr("the project has no VPC named %1: would create it (%2)")
            .arg(p.text("vpc_name"), p.text("cidr"));
    }
    if (key == "step.huawei.vpc_created") {
        return HuaweiText::tr("created VPC %1 (%2, %3) for GPU Planner's servers")
            .arg(p.text("vpc_name"), p.text("vpc_id"), p.text("cidr"));
    }
    if (key == "step.huawei.subnet_found") {
        return HuaweiText::tr("found subnet %1 (%2) for %3").arg(p.text("subnet_id"), p.text("cidr"), p.text("zone"));
    }
    if (key == "step.huawei.subnet_would_create") {
        return p.has("cidr") ? HuaweiText::tr("would create a subnet %1 in %2").arg(p.text("cidr"), p.text("zone"))
                             : HuaweiText::tr("would create a subnet in %1").arg(p.text("zone"));
    }
    if (key == "step.huawei.subnet_created") {
        return HuaweiText::tr("created subnet %1 (%2) in %3").arg(p.text("subnet_id"), p.text("cidr"), p.text("zone"));
    }
    if (key == "step.huawei.group_created") {
        return HuaweiText::tr("created security group %1 (%2): SSH from %3, all outbound")
            .arg(p.text("group_name"), p.text("group_id"), p.text("cidr"));
    }
    if (key == "step.huawei.dry_run_uses_vpc") {
        return HuaweiText::tr("the dry run is checked in the project's VPC %1 (%2); the launch itself uses its own "
                              "VPC, created then")
            .arg(p.text("vpc_name"), p.text("vpc_id"));
    }
    if (key == "step.huawei.dry_run_not_sent") {
        return HuaweiText::tr("Huawei Cloud's dry run was not asked: it needs the VPC and subnet, which a dry run "
                              "does not create; the steps above were checked");
    }
    if (key == "step.huawei.job_polled") {
        return HuaweiText::tr("job %1 named the server after %2 polls (%3)")
            .arg(p.text("job_id"), p.text("polls"), p.text("status"));
    }
    if (key == "step.huawei.order_paid") {
        return HuaweiText::tr("order %1 paid from the account balance").arg(p.text("order_id"));
    }
    if (key == "step.huawei.scheduled_terminate_unconfirmed") {
        return HuaweiText::tr("Huawei Cloud documents the scheduled delete time (auto_terminate_time) as effective "
                              "only in cn-north-4 and cn-south-1; in %1 check in the ECS console that the server shows "
                              "its scheduled deletion, or watch it yourself")
            .arg(p.text("region"));
    }
    if (key == "step.huawei.no_scheduled_terminate") {
        return HuaweiText::tr("a yearly/monthly server takes no scheduled delete time: it runs until its period "
                              "ends or it is unsubscribed");
    }
    return {};
}

} // namespace gpuplan::ui::providerwording
