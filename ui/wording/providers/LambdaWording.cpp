// The words of core's error.lambda.* and step.lambda.* keys (core/cloud/providers/lambda).
#include "wording/providers/ProviderWording.h"

#include "wording/Format.h"

#include <QCoreApplication>

namespace gpuplan::ui::providerwording {

namespace {

/// The translation context of these words.
struct LambdaText
{
    Q_DECLARE_TR_FUNCTIONS(LambdaText)
};

/// A parameter, or `fallback` when the error left it out.
QString textOr(const ReasonParams& p, const char* name, const QString& fallback)
{
    const QString value = p.text(name);
    return value.isEmpty() ? fallback : value;
}

/// Where the type has capacity now, as advice ("it has capacity now in us-east-1 or us-west-1"), or a null string
/// when the error did not say.
QString capacityAdvice(const ReasonParams& p)
{
    if (!p.has("regions_with_capacity")) {
        return p.has("capacity_nowhere")
                   ? LambdaText::tr("no region has capacity for it right now: try again later or choose another type")
                   : QString();
    }
    return LambdaText::tr("it has capacity now in %1: launch there instead")
        .arg(alternativesText(p.text("regions_with_capacity")));
}

/// The advice of Lambda's mapped refusals (core's lambda::mapError), without Lambda's code, message and suggestion.
QString lambdaAdvice(const core::Reason& reason, const ReasonParams& p)
{
    const QString type = textOr(p, "instance_type", LambdaText::tr("this instance type"));
    const QString region = textOr(p, "region", LambdaText::tr("this region"));
    const QString action = p.text("action");
    if (reason.key == "error.lambda.insufficient_capacity") {
        const QString advice = capacityAdvice(p);
        const QString head = LambdaText::tr("Lambda has no capacity for %1 in %2 right now").arg(type, region);
        return advice.isNull() ? LambdaText::tr("%1: try another region or later").arg(head)
                               : LambdaText::tr("%1; %2").arg(head, advice);
    }
    if (reason.key == "error.lambda.quota") {
        return LambdaText::tr("the launch would exceed the account's quota (new accounts may run only a few "
                              "instances): ask Lambda's support to raise it, or terminate an instance you no longer "
                              "need");
    }
    if (reason.key == "error.lambda.key_refused") {
        return LambdaText::tr("Lambda did not accept the API key: it is invalid, expired or deleted; create a new one "
                              "in the Lambda Cloud dashboard (API keys) and enter it again");
    }
    if (reason.key == "error.lambda.account_inactive") {
        return LambdaText::tr("Lambda says the account is inactive: verify its email address and add a valid "
                              "payment method in the Lambda Cloud dashboard, then try again");
    }
    if (reason.key == "error.lambda.billing_address") {
        return LambdaText::tr("Lambda says the account's billing address is invalid: correct it in the Lambda Cloud "
                              "dashboard (Billing), then try again");
    }
    if (reason.key == "error.lambda.forbidden") {
        return LambdaText::tr("Lambda refused %1 for this API key: the key or its team may not do it; check the "
                              "key's team and role in the Lambda Cloud dashboard")
            .arg(action);
    }
    if (reason.key == "error.lambda.throttled") {
        return LambdaText::tr("Lambda is limiting the request rate of %1 (about one request a second, one launch "
                              "every 12 seconds): wait a little and try again")
            .arg(action);
    }
    if (reason.key == "error.lambda.not_found") {
        return LambdaText::tr("Lambda does not know what %1 names (the instance or key may be gone)").arg(action);
    }
    if (reason.key == "error.lambda.server_error") {
        return LambdaText::tr("Lambda answered %1 with a server error (HTTP %2): it may or may not have done it")
            .arg(action, p.text("status"));
    }
    if (reason.key == "error.lambda.invalid_parameters") {
        return LambdaText::tr("Lambda refused the parameters of %1").arg(action);
    }
    if (reason.key == "error.lambda.refused") {
        return LambdaText::tr("Lambda refused %1").arg(action);
    }
    return {};
}

/// What an answer of Lambda lacks or has wrong (core's lambda parsers), and the provider's other errors.
QString lambdaOwnText(const core::Reason& reason, const ReasonParams& p)
{
    const QString action = p.text("action");
    if (reason.key == "error.lambda.http_status") {
        return LambdaText::tr("Lambda answered HTTP %1 to %2").arg(p.text("status"), action);
    }
    if (reason.key == "error.lambda.client_token_invalid") {
        return LambdaText::tr("the launch's client token \"%1\" cannot name a Lambda instance: it must start with "
                              "gpuplan- and have at most 64 characters (the instance's name is its token)")
            .arg(p.text("token"));
    }
    if (reason.key == "error.lambda.user_data_too_big") {
        return LambdaText::tr("the cloud-init script is %1 bytes; Lambda accepts at most 1 MB: shorten it")
            .arg(p.text("bytes"));
    }
    if (reason.key == "error.lambda.no_transport") {
        return LambdaText::tr("no HTTP transport configured");
    }
    if (reason.key == "error.lambda.stopped_before") {
        return LambdaText::tr("stopped before %1").arg(action);
    }
    if (reason.key == "error.lambda.type_not_offered") {
        return LambdaText::tr("Lambda does not offer the instance type %1 now (it is not in its list of instance "
                              "types): choose another type")
            .arg(p.text("instance_type"));
    }
    if (reason.key == "error.lambda.no_capacity_in_region") {
        const QString head = LambdaText::tr("Lambda has no capacity for %1 in %2 right now")
                                 .arg(p.text("instance_type"), p.text("region"));
        const QString advice = capacityAdvice(p);
        return advice.isNull() ? head : LambdaText::tr("%1; %2").arg(head, advice);
    }
    const QString advice = lambdaAdvice(reason, p);
    if (advice.isNull()) {
        return {};
    }
    // " (Lambda: code: message; suggestion)"
    QString said = p.text("code");
    if (p.has("said")) {
        said = said.isEmpty() ? p.text("said") : LambdaText::tr("%1: %2").arg(said, p.text("said"));
    }
    if (p.has("suggestion")) {
        said = said.isEmpty() ? p.text("suggestion") : LambdaText::tr("%1; %2").arg(said, p.text("suggestion"));
    }
    if (said.isEmpty()) {
        return advice;
    }
    return LambdaText::tr("%1 (Lambda: %2)").arg(advice, said);
}

} // namespace

QString lambdaErrorText(const core::Reason& reason)
{
    if (!reason.key.starts_with("error.lambda.")) {
        return {};
    }
    return lambdaOwnText(reason, ReasonParams(reason.params));
}

QString lambdaStepText(const std::string& key, const ReasonParams& p)
{
    if (!key.starts_with("step.lambda.")) {
        return {};
    }
    if (key == "step.lambda.image_default") {
        return LambdaText::tr("image: Lambda's default, the latest Lambda Stack (Ubuntu with the NVIDIA driver, CUDA "
                              "and PyTorch)");
    }
    if (key == "step.lambda.image_given") {
        return p.text("as") == QLatin1String("family")
                   ? LambdaText::tr("image: the newest of the image family %1").arg(p.text("image"))
                   : LambdaText::tr("image: %1, as given").arg(p.text("image"));
    }
    if (key == "step.lambda.ssh_not_restricted") {
        return LambdaText::tr(
                   "SSH is not limited to %1: Lambda's firewall rules are the account's, for all its "
                   "instances, and GPU Planner does not change them; whoever those rules let in reaches SSH, "
                   "and your key is the only way in")
            .arg(textOr(p, "cidr", LambdaText::tr("your address")));
    }
    if (key == "step.lambda.found_by_name") {
        return LambdaText::tr("found instance %1, named %2 (%3): an earlier attempt of this launch started it, so "
                              "nothing new was launched")
            .arg(p.text("instance_id"), p.text("name"), p.text("status"));
    }
    if (key == "step.lambda.launch_throttled") {
        return LambdaText::tr("Lambda asked to slow down (one launch every 12 seconds): waited %1 s and sent the "
                              "launch again (retry %2); nothing had been started")
            .arg(p.text("seconds"), p.text("attempt"));
    }
    return {};
}

} // namespace gpuplan::ui::providerwording
