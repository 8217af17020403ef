// The words of core's error.ec2.*, error.cvm.*, error.provider.* errors.
#include "wording/ProviderText.h"
#include "wording/errors/ErrorWording.h"

namespace gpuplan::ui::errorwording {

namespace {

/// The translation context of these errors.
struct ProviderErrors
{
    Q_DECLARE_TR_FUNCTIONS(ProviderErrors)
};

/// A parameter, or `fallback` when the error left it out.
QString textOr(const ReasonParams& p, const char* name, const QString& fallback)
{
    const QString value = p.text(name);
    return value.isEmpty() ? fallback : value;
}

/// The advice of EC2's mapped refusals (core's ec2::mapError), without EC2's message and request id.
QString ec2Advice(const core::Reason& reason, const ReasonParams& p)
{
    const QString type = textOr(p, "instance_type", ProviderErrors::tr("this instance type"));
    const QString region = textOr(p, "region", ProviderErrors::tr("this region"));
    if (reason.key == "error.ec2.no_capacity") {
        return ProviderErrors::tr("no %1 free in %2 now; GPU Planner tries the next zone")
            .arg(type, textOr(p, "zone", ProviderErrors::tr("the chosen zone")));
    }
    if (reason.key == "error.ec2.on_demand_quota") {
        return ProviderErrors::tr("the account's on-demand vCPU quota for %1 is used up in %2: request more in the "
                                  "Service Quotas console -> AWS services -> Amazon Elastic Compute Cloud (Amazon "
                                  "EC2) -> \"%3\" (the quota counts vCPUs; ask for at least the vCPUs of %1)")
            .arg(type, region, p.text("quota"));
    }
    if (reason.key == "error.ec2.spot_quota") {
        return ProviderErrors::tr("the account's spot vCPU quota for %1 is used up in %2: request more in the "
                                  "Service Quotas console -> AWS services -> Amazon Elastic Compute Cloud (Amazon "
                                  "EC2) -> \"%3\" (the quota counts vCPUs; ask for at least the vCPUs of %1)")
            .arg(type, region, p.text("quota"));
    }
    if (reason.key == "error.ec2.permission_missing") {
        return ProviderErrors::tr("the credentials lack the IAM permission ec2:%1; add it to the user's or role's "
                                  "policy. The encoded message can be decoded with `aws sts "
                                  "decode-authorization-message --encoded-message ...`")
            .arg(p.text("action"));
    }
    if (reason.key == "error.ec2.key_refused") {
        return ProviderErrors::tr("AWS refused the access key: check the access key ID and secret in the keychain "
                                  "(and that the key is active in IAM)");
    }
    if (reason.key == "error.ec2.opt_in_required") {
        return ProviderErrors::tr("the account is not enabled for this region or service: enable the region under "
                                  "Account -> AWS Regions (opt-in regions), or finish the account's sign-up");
    }
    if (reason.key == "error.ec2.clock_skew") {
        return ProviderErrors::tr("AWS refused the request's time: this computer's clock is off by more than 5 "
                                  "minutes; turn on network time (NTP)");
    }
    if (reason.key == "error.ec2.throttled") {
        return ProviderErrors::tr("EC2 throttled the account's API requests; GPU Planner backed off and retried, "
                                  "wait a minute and try again");
    }
    if (reason.key == "error.ec2.not_found") {
        return ProviderErrors::tr("EC2 does not know it (%1)").arg(p.text("code"));
    }
    if (reason.key == "error.ec2.client_token_reused") {
        return ProviderErrors::tr("this launch's client token was already used for a launch with other parameters; "
                                  "EC2 keeps the first one: see `gpuplan instances`, or start a new launch (a new "
                                  "token)");
    }
    if (reason.key == "error.ec2.refused") {
        return ProviderErrors::tr("EC2 refused %1 (%2)").arg(p.text("action"), p.text("code"));
    }
    return {};
}

/// What an answer of EC2 lacks or has wrong (core's ec2 parsers), and EC2's other errors.
QString ec2Text(const core::Reason& reason, const ReasonParams& p)
{
    const QString action = p.text("action");
    if (reason.key == "error.ec2.answer_not_xml") {
        return ProviderErrors::tr("EC2 %1 answered a body that is not XML (%2 at byte %3)")
            .arg(action, p.text("said"), p.text("byte"));
    }
    if (reason.key == "error.ec2.answer_wrong_root") {
        return ProviderErrors::tr("EC2 %1 answered <%2> where <%3> was expected")
            .arg(action, p.text("root"), p.text("expected"));
    }
    if (reason.key == "error.ec2.answer_missing") {
        return ProviderErrors::tr("EC2 %1 answered no <%2>").arg(action, p.text("element"));
    }
    if (reason.key == "error.ec2.answer_image_without_id") {
        return ProviderErrors::tr("EC2 %1 answered an image without <imageId>").arg(action);
    }
    if (reason.key == "error.ec2.answer_key_pair_without_name") {
        return ProviderErrors::tr("EC2 %1 answered a key pair without <keyName>").arg(action);
    }
    if (reason.key == "error.ec2.answer_group_without_id") {
        return ProviderErrors::tr("EC2 %1 answered a security group without <groupId>").arg(action);
    }
    if (reason.key == "error.ec2.answer_instance_without_id") {
        return ProviderErrors::tr("EC2 %1 answered an instance without <instanceId>").arg(action);
    }
    if (reason.key == "error.ec2.answer_offering_without_location") {
        return ProviderErrors::tr("EC2 %1 answered an offering without <location>").arg(action);
    }
    if (reason.key == "error.ec2.answer_without_instance") {
        return ProviderErrors::tr("EC2 %1 answered no instance in <instancesSet>").arg(action);
    }
    if (reason.key == "error.ec2.ssh_rule_not_added") {
        return ProviderErrors::tr("EC2 %1 answered <return> other than true: the SSH rule was not added").arg(action);
    }
    if (reason.key == "error.ec2.http_status_without_document") {
        return ProviderErrors::tr("EC2 %1 answered HTTP %2 without an EC2 error document")
            .arg(action, p.text("status"));
    }
    if (reason.key == "error.ec2.no_subscription") {
        return ProviderErrors::tr("EC2 does not support the subscription feature: it has no monthly rental of an "
                                  "instance; Reserved Instances and Savings Plans are bought separately, for a term, "
                                  "in the console");
    }
    if (reason.key == "error.ec2.client_token_invalid") {
        return ProviderErrors::tr("EC2 needs a client token of 1 to 64 printable ASCII characters so that a retried "
                                  "launch never starts a second instance");
    }
    if (reason.key == "error.ec2.user_data_too_big") {
        return ProviderErrors::tr("the cloud-init script is %1 bytes once base64-encoded; EC2 takes at most 16384 "
                                  "(16 KB): shorten it or have it download the rest")
            .arg(p.text("bytes"));
    }
    if (reason.key == "error.ec2.no_transport") {
        return ProviderErrors::tr("no HTTP transport given to the AWS provider");
    }
    if (reason.key == "error.ec2.no_region") {
        return ProviderErrors::tr("no AWS region");
    }
    if (reason.key == "error.ec2.no_image") {
        return ProviderErrors::tr("no available AWS image named \"%1\" in %2; give an image ID instead")
            .arg(p.text("pattern"), p.text("region"));
    }
    if (reason.key == "error.ec2.dry_run_launched") {
        return ProviderErrors::tr("EC2 answered a dry-run RunInstances as if it had launched; check the instances in "
                                  "the console");
    }
    if (reason.key == "error.ec2.instance_not_reported") {
        return ProviderErrors::tr("EC2 does not report this instance");
    }
    QString advice = ec2Advice(reason, p);
    if (advice.isNull()) {
        return {};
    }
    if (p.has("said")) {
        advice = ProviderErrors::tr("%1 (EC2 said: %2)").arg(advice, p.text("said"));
    }
    if (p.has("request_id")) {
        advice = ProviderErrors::tr("%1; request ID %2 (quote it to AWS Support)").arg(advice, p.text("request_id"));
    }
    return advice;
}

/// The advice of Tencent Cloud's mapped refusals (core's cvm::mapError), without Tencent's code, message and
/// RequestId.
QString cvmAdvice(const core::Reason& reason, const ReasonParams& p)
{
    const QString type = textOr(p, "instance_type", ProviderErrors::tr("this instance type"));
    const QString zone = textOr(p, "zone", ProviderErrors::tr("this zone"));
    const QString action = p.text("action");
    if (reason.key == "error.cvm.no_capacity") {
        return ProviderErrors::tr("Tencent Cloud has no %1 free in %2 right now: try the next zone, or later")
            .arg(type, zone);
    }
    if (reason.key == "error.cvm.account_quota") {
        return ProviderErrors::tr("the launch would exceed the account's quota for %1: see the quotas in the CVM "
                                  "console (https://console.cloud.tencent.com/cvm) and request more by a ticket "
                                  "(https://console.cloud.tencent.com/workorder/category)")
            .arg(type);
    }
    if (reason.key == "error.cvm.instance_quota") {
        return ProviderErrors::tr("the launch would exceed the instance quota of %1 for %2: see the quotas in the CVM "
                                  "console (https://console.cloud.tencent.com/cvm) and request more by a ticket "
                                  "(https://console.cloud.tencent.com/workorder/category)")
            .arg(zone, type);
    }
    if (reason.key == "error.cvm.spot_quota") {
        return ProviderErrors::tr("the launch would exceed the spot instance quota for %1: see the quotas in the CVM "
                                  "console (https://console.cloud.tencent.com/cvm) and request more by a ticket "
                                  "(https://console.cloud.tencent.com/workorder/category)")
            .arg(type);
    }
    if (reason.key == "error.cvm.prepaid_quota") {
        return ProviderErrors::tr("the launch would exceed the monthly (prepaid) instance quota for %1: see the quotas "
                                  "in the CVM console (https://console.cloud.tencent.com/cvm) and request more by a "
                                  "ticket (https://console.cloud.tencent.com/workorder/category)")
            .arg(type);
    }
    if (reason.key == "error.cvm.permission_missing") {
        return ProviderErrors::tr("the key works but may not call %1: grant that action to its CAM user or role (CAM "
                                  "console, https://console.cloud.tencent.com/cam)")
            .arg(p.text("cam_action"));
    }
    if (reason.key == "error.cvm.clock_skew") {
        return ProviderErrors::tr("Tencent Cloud refused the request's time: this computer's clock is more than 5 "
                                  "minutes off; set it right (NTP) and try again");
    }
    if (reason.key == "error.cvm.key_refused") {
        return ProviderErrors::tr("Tencent Cloud did not accept the SecretId / SecretKey: check that the key exists, "
                                  "is enabled and was pasted without spaces (API keys: "
                                  "https://console.cloud.tencent.com/cam/capi)");
    }
    if (reason.key == "error.cvm.throttled") {
        return ProviderErrors::tr("Tencent Cloud is limiting the request rate of %1: wait a little and try again")
            .arg(action);
    }
    if (reason.key == "error.cvm.not_found") {
        return ProviderErrors::tr("Tencent Cloud does not know the resource %1 names").arg(action);
    }
    if (reason.key == "error.cvm.refused") {
        return ProviderErrors::tr("Tencent Cloud refused %1").arg(action);
    }
    return {};
}

/// What an answer of Tencent Cloud lacks or has wrong (core's cvm parsers), and CVM's other errors.
QString cvmText(const core::Reason& reason, const ReasonParams& p)
{
    const QString action = p.text("action");
    if (reason.key == "error.cvm.answer_instance_without_id") {
        return ProviderErrors::tr("Tencent Cloud's answer to %1 lists an instance without InstanceId").arg(action);
    }
    if (reason.key == "error.cvm.answer_without_instance_id") {
        return ProviderErrors::tr("Tencent Cloud's answer to %1 has no instance id").arg(action);
    }
    if (reason.key == "error.cvm.answer_without_price") {
        return ProviderErrors::tr("%1 answered without a price for the instance").arg(action);
    }
    if (reason.key == "error.cvm.no_client_token") {
        return ProviderErrors::tr("a launch needs a client token (idempotency)");
    }
    if (reason.key == "error.cvm.client_token_too_long") {
        return ProviderErrors::tr("the client token is longer than CVM's 64 characters");
    }
    if (reason.key == "error.cvm.prepaid_needs_months") {
        return ProviderErrors::tr("a monthly (PREPAID) launch needs the number of months");
    }
    if (reason.key == "error.cvm.user_data_too_big") {
        return ProviderErrors::tr("the cloud-init script is %1 bytes once base64-encoded; CVM accepts at most 16384 "
                                  "(16 KB): shorten it")
            .arg(p.text("bytes"));
    }
    if (reason.key == "error.cvm.terminate_too_soon") {
        return ProviderErrors::tr(
            "the scheduled terminate time must be more than 5 minutes ahead (CVM's ActionTimer rule)");
    }
    if (reason.key == "error.cvm.http_status") {
        return ProviderErrors::tr("Tencent Cloud answered HTTP %1 to %2").arg(p.text("status"), action);
    }
    if (reason.key == "error.cvm.no_transport") {
        return ProviderErrors::tr("no HTTP transport configured");
    }
    if (reason.key == "error.cvm.stopped_before") {
        return ProviderErrors::tr("stopped before %1").arg(action);
    }
    if (reason.key == "error.cvm.no_gpu_image") {
        return ProviderErrors::tr("Tencent Cloud lists no public Ubuntu image with a GPU driver for %1 in %2: give an "
                                  "image id (a custom or marketplace image with the NVIDIA driver installed)")
            .arg(p.text("instance_type"), p.text("region"));
    }
    if (reason.key == "error.cvm.no_zone_sells") {
        return ProviderErrors::tr("no zone of %1 sells %2 now (%3): try another region or later")
            .arg(p.text("region"), p.text("instance_type"), action);
    }
    if (reason.key == "error.cvm.instance_not_listed") {
        return ProviderErrors::tr("Tencent Cloud does not list this instance (terminated, or never launched)");
    }
    const QString advice = cvmAdvice(reason, p);
    if (advice.isNull()) {
        return {};
    }
    // " (Tencent Cloud: code: message; RequestId id)"
    QString said = p.text("code");
    if (p.has("said")) {
        said = ProviderErrors::tr("%1: %2").arg(said, p.text("said"));
    }
    if (p.has("request_id")) {
        said = ProviderErrors::tr("%1; RequestId %2").arg(said, p.text("request_id"));
    }
    return ProviderErrors::tr("%1 (Tencent Cloud: %2)").arg(advice, said);
}

/// The errors any provider may give, its name a parameter: a provider added by one folder needs no wording of its
/// own for them.
QString genericText(const core::Reason& reason, const ReasonParams& p)
{
    const QString provider = p.text("provider");
    if (reason.key == "error.provider.call") {
        return p.text("action"); // worded in front of the call's error: "RunInstances: ..."
    }
    if (reason.key == "error.provider.no_instance_type") {
        return ProviderErrors::tr("no instance type");
    }
    if (reason.key == "error.provider.no_transport") {
        return ProviderErrors::tr("no HTTP transport");
    }
    if (reason.key == "error.provider.no_endpoint") {
        return ProviderErrors::tr("%1 has no public endpoint; give one").arg(provider);
    }
    if (reason.key.starts_with("error.answer.")) {
        // A managed job service answers under its own name ("vertex", "azureml": the clouds' training services).
        const std::string id = p.text("provider").toStdString();
        const QString source = id == "vertex"    ? managedServiceName("gcp")
                               : id == "azureml" ? managedServiceName("azure")
                                                 : providerDisplayName(id);
        const QString call = source + QStringLiteral(" ") + p.text("action");
        if (reason.key == "error.answer.not_json") {
            return ProviderErrors::tr("%1 answered with something that is not JSON").arg(call);
        }
        if (reason.key == "error.answer.not_object") {
            return ProviderErrors::tr("%1 answered without a JSON object").arg(call);
        }
        if (reason.key == "error.answer.missing") {
            return ProviderErrors::tr("%1 answered without \"%2\"").arg(call, p.text("field"));
        }
        if (reason.key == "error.answer.not_list") {
            return ProviderErrors::tr("%1 answered with \"%2\" that is not a list").arg(call, p.text("field"));
        }
        if (reason.key == "error.answer.invalid") {
            return ProviderErrors::tr("%1 answered with \"%2\" = \"%3\", which GPU Planner cannot read")
                .arg(call, p.text("field"), p.text("found"));
        }
    }
    if (reason.key == "error.provider.no_gpu_image") {
        return ProviderErrors::tr("%1 lists no image with the GPU driver").arg(provider);
    }
    if (reason.key == "error.provider.refused") {
        return ProviderErrors::tr("%1 refused %2 (%3)").arg(provider, p.text("action"), p.text("code"));
    }
    if (reason.key == "error.provider.no_capacity") {
        return ProviderErrors::tr("no %1 free in %2 now; GPU Planner tries the next zone")
            .arg(textOr(p, "instance_type", ProviderErrors::tr("this instance type")),
                 textOr(p, "zone", ProviderErrors::tr("the chosen zone")));
    }
    if (reason.key == "error.provider.key_refused") {
        return ProviderErrors::tr("%1 refused the API key").arg(provider);
    }
    return {};
}

} // namespace

QString providerErrorText(const core::Reason& reason)
{
    const ReasonParams p(reason.params);
    if (reason.key.starts_with("error.ec2.")) {
        return ec2Text(reason, p);
    }
    if (reason.key.starts_with("error.cvm.")) {
        return cvmText(reason, p);
    }
    if (reason.key.starts_with("error.provider.") || reason.key.starts_with("error.answer.")) {
        return genericText(reason, p);
    }
    return {};
}

} // namespace gpuplan::ui::errorwording
