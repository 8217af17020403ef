// The words of core's error.paperspace.* and step.paperspace.* keys (core/cloud/providers/paperspace).
#include "wording/providers/ProviderWording.h"

#include <QCoreApplication>

namespace gpuplan::ui::providerwording {

namespace {

/// The translation context of these words.
struct PaperspaceText
{
    Q_DECLARE_TR_FUNCTIONS(PaperspaceText)
};

/// A parameter, or `fallback` when the error left it out.
QString textOr(const ReasonParams& p, const char* name, const QString& fallback)
{
    const QString value = p.text(name);
    return value.isEmpty() ? fallback : value;
}

/// The advice of Paperspace's mapped refusals (core's paperspace::mapError), without its code and message.
QString paperspaceAdvice(const core::Reason& reason, const ReasonParams& p)
{
    const QString action = p.text("action");
    const QString type = textOr(p, "instance_type", PaperspaceText::tr("this machine type"));
    const QString region = textOr(p, "region", PaperspaceText::tr("this region"));
    if (reason.key == "error.paperspace.throttled") {
        return PaperspaceText::tr("Paperspace is limiting the rate of API requests (%1): wait a minute and try again")
            .arg(action);
    }
    if (reason.key == "error.paperspace.key_refused") {
        return PaperspaceText::tr("Paperspace refused the API key (%1): check it, or create a new one in the console "
                                  "(Team settings -> API keys)")
            .arg(action);
    }
    if (reason.key == "error.paperspace.billing") {
        return PaperspaceText::tr("Paperspace refused %1 for the account's billing: add a payment method or settle "
                                  "the balance in the console (Billing), then try again")
            .arg(action);
    }
    if (reason.key == "error.paperspace.out_of_capacity") {
        return PaperspaceText::tr("Paperspace has no %1 free in %2 right now: try another region or later")
            .arg(type, region);
    }
    if (reason.key == "error.paperspace.quota") {
        return PaperspaceText::tr("the launch would exceed the team's machine limit for %1: delete a machine you no "
                                  "longer need, or ask Paperspace support to raise the limit")
            .arg(type);
    }
    if (reason.key == "error.paperspace.permission_denied") {
        return PaperspaceText::tr("the API key may not do %1: use a key of a team administrator (only they may "
                                  "create machines)")
            .arg(action);
    }
    if (reason.key == "error.paperspace.not_found") {
        return PaperspaceText::tr("Paperspace does not know what %1 asked for").arg(action);
    }
    if (reason.key == "error.paperspace.refused") {
        return PaperspaceText::tr("Paperspace refused %1").arg(action);
    }
    return {};
}

QString paperspaceOwnText(const core::Reason& reason, const ReasonParams& p)
{
    const QString action = p.text("action");
    if (reason.key == "error.paperspace.http_status") {
        return PaperspaceText::tr("Paperspace answered %1 with HTTP status %2").arg(action, p.text("status"));
    }
    if (reason.key == "error.paperspace.no_transport") {
        return PaperspaceText::tr("no HTTP transport configured");
    }
    if (reason.key == "error.paperspace.stopped_before") {
        return PaperspaceText::tr("stopped before %1").arg(action);
    }
    if (reason.key == "error.paperspace.ssh_key_invalid") {
        return PaperspaceText::tr("the SSH public key must be one OpenSSH public key line (ssh-ed25519 AAAA... "
                                  "comment) without quotes: Paperspace gets it through a startup script");
    }
    if (reason.key == "error.paperspace.client_token_invalid") {
        return PaperspaceText::tr("the launch token %1 does not start with gpuplan-: GPU Planner would not recognise "
                                  "the machine as its own")
            .arg(p.text("token"));
    }
    if (reason.key == "error.paperspace.no_template") {
        return PaperspaceText::tr("Paperspace lists no ML-in-a-Box template that runs %1: give a template id as the "
                                  "image (see OS templates in the Paperspace console)")
            .arg(p.text("instance_type"));
    }
    if (reason.key == "error.paperspace.not_available") {
        return PaperspaceText::tr("Paperspace has no %1 available in %2 right now; nothing was created: try another "
                                  "region or later")
            .arg(p.text("instance_type"), p.text("region"));
    }
    if (reason.key == "error.paperspace.create_event_failed") {
        return PaperspaceText::tr("Paperspace's create event for machine %1 ended as %2: %3")
            .arg(p.text("instance_id"), p.text("state"), p.text("said"));
    }
    const QString advice = paperspaceAdvice(reason, p);
    if (advice.isNull()) {
        return {};
    }
    // " (Paperspace: code: message)"
    QString said = p.text("code");
    if (p.has("said")) {
        said = said.isEmpty() ? p.text("said") : PaperspaceText::tr("%1: %2").arg(said, p.text("said"));
    }
    if (said.isEmpty()) {
        return advice;
    }
    return PaperspaceText::tr("%1 (Paperspace: %2)").arg(advice, said);
}

} // namespace

QString paperspaceErrorText(const core::Reason& reason)
{
    if (!reason.key.starts_with("error.paperspace.")) {
        return {};
    }
    return paperspaceOwnText(reason, ReasonParams(reason.params));
}

QString paperspaceStepText(const std::string& key, const ReasonParams& p)
{
    if (!key.starts_with("step.paperspace.")) {
        return {};
    }
    if (key == "step.paperspace.key_by_startup_script") {
        return PaperspaceText::tr("Paperspace has no key pairs: the key is added for user %1 by startup script %2 on "
                                  "the machine's first boot")
            .arg(p.text("user"), p.text("script"));
    }
    if (key == "step.paperspace.ssh_open_to_all") {
        return PaperspaceText::tr("Paperspace machines have no firewall in its API: SSH is open to every address, "
                                  "not only %1 (the key is the only lock)")
            .arg(p.text("cidr"));
    }
    if (key == "step.paperspace.found_by_name") {
        return PaperspaceText::tr("found machine %1 named %2 from an earlier attempt of this launch: nothing new "
                                  "was created")
            .arg(p.text("instance_id"), p.text("name"));
    }
    if (key == "step.paperspace.startup_script_found") {
        return PaperspaceText::tr("found the startup script %1 of an earlier attempt").arg(p.text("script_id"));
    }
    if (key == "step.paperspace.startup_script_created") {
        return PaperspaceText::tr("created startup script %1 (adds the SSH key, starts the watchdog)")
            .arg(p.text("script_id"));
    }
    if (key == "step.paperspace.throttled_wait") {
        return PaperspaceText::tr("Paperspace asked to slow down (429): nothing was created; waited %1 s and sent "
                                  "the launch again (attempt %2)")
            .arg(p.text("seconds"), p.text("attempt"));
    }
    return {};
}

} // namespace gpuplan::ui::providerwording
