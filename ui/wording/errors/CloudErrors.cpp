// The words of core's error.cloud.* errors.
#include "wording/errors/ErrorWording.h"

#include "wording/Format.h"
#include "wording/ProviderText.h"

#include <QStringList>

namespace gpuplan::ui::errorwording {

namespace {

/// The translation context of these errors.
struct CloudErrors
{
    Q_DECLARE_TR_FUNCTIONS(CloudErrors)
};

/// Provider ids separated by ',' ("aws,tencent") as a list: "aws and tencent", "a, b and c".
QString idList(const QString& ids)
{
    return conjunctionText(ids.split(QLatin1Char(','), Qt::SkipEmptyParts));
}

/// Why a provider lacks a feature: its descriptor's reason, named by its key in "why_key" (unsupportedText), or words
/// given as they are in "said".
QString lackText(const ReasonParams& p)
{
    if (p.has("why_key")) {
        return unsupportedText(core::Reason{p.text("why_key").toStdString(), {}});
    }
    return p.text("said");
}

/// Why GPU Planner cannot launch an option (core::notLaunchableReason); null for any other key.
QString notLaunchable(const std::string& key, const ReasonParams& p)
{
    if (key == "error.cloud.provider_not_launchable") {
        return CloudErrors::tr("GPU Planner launches on %1 only, not yet on %2")
            .arg(idList(p.text("launchable")), p.text("provider"));
    }
    if (key == "error.cloud.mode_not_launchable") {
        return CloudErrors::tr("%1 cannot launch %2: %3").arg(p.text("provider"), p.text("mode"), lackText(p));
    }
    if (key == "error.cloud.reservation_not_launchable") {
        return CloudErrors::tr("a %1 price is a reservation bought from the provider for a term; GPU Planner launches "
                               "on demand, spot or monthly")
            .arg(p.text("mode"));
    }
    return {};
}

/// A plan's option: "option 1, lambda gpu_8x_a100 in us-east-1 (on_demand)".
QString option(const ReasonParams& p)
{
    return CloudErrors::tr("option %1, %2 %3 in %4 (%5)")
        .arg(p.text("rank"), p.text("provider"), p.text("instance_type"), p.text("region"), p.text("mode"));
}

/// A watchdog rule's lower bound: "0 (off)" when 0 turns the rule off, else the number.
QString lowest(const ReasonParams& p)
{
    return p.integer("min") == 0 ? CloudErrors::tr("%1 (off)").arg(p.text("min")) : p.text("min");
}

} // namespace

QString cloudErrorText(const core::Reason& reason)
{
    const ReasonParams p(reason.params);
    const std::string& key = reason.key;
    if (const QString why = notLaunchable(key, p); !why.isNull()) {
        return why;
    }
    // The cloud API's endpoint.
    if (key == "error.cloud.endpoint_not_url") {
        return CloudErrors::tr("not an http(s) URL");
    }
    if (key == "error.cloud.endpoint_not_https") {
        return CloudErrors::tr(
            "an API endpoint must be https (plain http is only allowed on this computer's loopback address)");
    }
    // Waiting for the instance.
    if (key == "error.cloud.wait_cancelled") {
        return CloudErrors::tr("stopped waiting for the instance to run");
    }
    if (key == "error.cloud.instance_not_shown") {
        return CloudErrors::tr("the provider accepted the launch but does not show the instance after %1 s; it may "
                               "still start and bill: see `gpuplan instances`")
            .arg(p.text("seconds"));
    }
    if (key == "error.cloud.instance_ended") {
        return p.has("provider_state")
                   ? CloudErrors::tr("the instance ended up %1 (%2) instead of running")
                         .arg(p.text("state"), p.text("provider_state"))
                   : CloudErrors::tr("the instance ended up %1 instead of running").arg(p.text("state"));
    }
    if (key == "error.cloud.still_not_running") {
        return CloudErrors::tr("still %1 after %2 s; it may still start: see `gpuplan instances`")
            .arg(p.text("state"), p.text("seconds"));
    }
    // The plan's options.
    if (key == "error.cloud.field_empty") {
        return CloudErrors::tr("is empty");
    }
    if (key == "error.cloud.feature_unsupported") {
        return lackText(p); // the provider's own reason, as its descriptor gives it
    }
    if (key == "error.cloud.no_options") {
        return CloudErrors::tr("the plan has no ranked options to launch");
    }
    if (key == "error.cloud.no_such_option") {
        return CloudErrors::tr("the plan ranks %1 options; there is no option %2")
            .arg(p.text("options"), p.text("rank"));
    }
    if (key == "error.cloud.option_not_launchable") {
        return CloudErrors::tr("%1, cannot be launched by GPU Planner yet (%2); choose another --option, or leave it "
                               "out to be offered the best one that can")
            .arg(option(p), notLaunchable(p.text("why").toStdString(), p));
    }
    if (key == "error.cloud.nothing_launchable") {
        return CloudErrors::tr(
                   "the plan's choice, %1, cannot be launched by GPU Planner yet (%2), and none of its %3 options can")
            .arg(option(p), notLaunchable(p.text("why").toStdString(), p), p.text("options"));
    }
    if (key == "error.cloud.no_catalog_price") {
        return CloudErrors::tr(
                   "the catalog has no %1 price for it in %2 (add one in your own catalog, or give it with --price)")
            .arg(p.text("mode"), p.text("region"));
    }
    if (key == "error.cloud.no_such_instance_type") {
        return CloudErrors::tr("the catalog has no such instance type");
    }
    // The launch's settings.
    if (key == "error.cloud.launch_incomplete") {
        return CloudErrors::tr("a launch needs a provider, an instance type and a region");
    }
    if (key == "error.cloud.months_missing") {
        return CloudErrors::tr("a subscription needs its period in months (1 or more)");
    }
    if (key == "error.cloud.spot_limit_without_spot") {
        return CloudErrors::tr("a spot price limit is for spot instances only, and cannot be negative");
    }
    if (key == "error.cloud.no_spot") {
        return CloudErrors::tr("%1 cannot launch spot instances: %2").arg(p.text("provider"), lackText(p));
    }
    if (key == "error.cloud.no_subscription") {
        return CloudErrors::tr("%1 has no monthly subscription: %2").arg(p.text("provider"), lackText(p));
    }
    if (key == "error.cloud.no_dry_run") {
        return CloudErrors::tr("%1 cannot check a launch without starting it: %2").arg(p.text("provider"), lackText(p));
    }
    if (key == "error.cloud.budget_missing") {
        return CloudErrors::tr("terminating at the budget needs a budget");
    }
    if (key == "error.cloud.no_ssh_key") {
        return CloudErrors::tr("no SSH public key to log in with");
    }
    if (key == "error.cloud.price_not_positive") {
        return CloudErrors::tr("a price is more than 0");
    }
    if (key == "error.cloud.no_exchange_rate") {
        return CloudErrors::tr("the budget is in %1 but %2 prices in %3, and the catalog has no USD-CNY exchange rate "
                               "to compare them: the rate comes from %4 in the catalog folder; restore that file")
            .arg(p.text("budget_currency"), p.text("provider"), p.text("price_currency"), p.text("file"));
    }
    // The SSH public key.
    if (key == "error.cloud.not_public_key_line") {
        return CloudErrors::tr(
            "not an OpenSSH public key line (\"ssh-ed25519 AAAA... comment\"); give the contents of your .pub file");
    }
    if (key == "error.cloud.private_key") {
        return CloudErrors::tr("this is a private key; give the public one (.pub)");
    }
    if (key == "error.cloud.not_one_key_line") {
        return CloudErrors::tr("not one OpenSSH public key line (ssh-ed25519 AAAA... or ssh-rsa AAAA...)");
    }
    if (key == "error.cloud.key_comment_not_utf8") {
        return CloudErrors::tr("the key's comment is not UTF-8 text (byte %1 at column %2); change it with `ssh-keygen "
                               "-c -f <private key>`")
            .arg(p.text("byte"), p.text("column"));
    }
    if (key == "error.cloud.key_control_characters") {
        return CloudErrors::tr("the key line has control characters in it");
    }
    if (key == "error.cloud.no_such_file") {
        return CloudErrors::tr("no such file");
    }
    if (key == "error.cloud.no_default_key") {
        return CloudErrors::tr("no ~/.ssh/id_ed25519.pub or ~/.ssh/id_rsa.pub; give your public key");
    }
    // The launch itself.
    if (key == "error.cloud.cancelled_before_sending") {
        return CloudErrors::tr("cancelled before anything was sent");
    }
    if (key == "error.cloud.not_confirmed") {
        return CloudErrors::tr("the launch was not confirmed: nothing was sent");
    }
    if (key == "error.cloud.launch_unavailable") {
        QString list;
        for (const QString& id : p.text("launchable").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            list = list.isEmpty() ? id : CloudErrors::tr("%1, %2").arg(list, id);
        }
        return CloudErrors::tr("launching is not available for this provider (it is for: %1)").arg(list);
    }
    if (key == "error.cloud.no_managed_jobs") {
        return CloudErrors::tr("%1 has no managed training jobs in GPU Planner (clouds that have them: %2)")
            .arg(providerDisplayName(p.text("provider").toStdString()), p.text("services"));
    }
    if (key == "error.cloud.job_on_instance_offer") {
        return CloudErrors::tr("%1 is a machine, not a managed job: a command and environment are for a managed "
                               "offer (\"azureml/...\", \"vertex/...\")")
            .arg(p.text("instance_type"));
    }
    if (key == "error.cloud.job_needs_command") {
        return CloudErrors::tr("%1 is a managed job: give the command it runs").arg(p.text("instance_type"));
    }
    if (key == "error.cloud.job_needs_image") {
        return CloudErrors::tr("%1 is a managed job: give the container image it runs in (for example a PyTorch "
                               "image of your registry)")
            .arg(p.text("instance_type"));
    }
    if (key == "error.cloud.job_env_name") {
        return CloudErrors::tr("\"%1\" is not an environment variable name (letters, digits and _, not starting "
                               "with a digit)")
            .arg(p.text("name"));
    }
    if (key == "error.cloud.job_needs_timeout") {
        return CloudErrors::tr("a managed job needs a timeout (the dead-man, in hours): without one the service "
                               "may run it for days");
    }
    if (key == "error.cloud.request_incomplete") {
        return CloudErrors::tr("a launch needs a region and an instance type");
    }
    if (key == "error.cloud.feature_refused") {
        return CloudErrors::tr("%1 does not support the %2 feature: %3")
            .arg(providerDisplayName(p.text("provider").toStdString()), p.text("feature"), lackText(p));
    }
    if (key == "error.cloud.launch_cancelled") {
        return CloudErrors::tr("stopped before the launch began");
    }
    // This computer's address, and the SSH source range.
    if (key == "error.cloud.address_http_status") {
        return CloudErrors::tr("answered HTTP %1 when asked for this computer's address").arg(p.text("status"));
    }
    if (key == "error.cloud.address_not_ip") {
        return CloudErrors::tr(
                   "did not answer one IP address (got %1 bytes); give the address to open SSH to with --ssh-from")
            .arg(p.text("bytes"));
    }
    if (key == "error.cloud.cidr_invalid") {
        return CloudErrors::tr("not an address with a prefix length, like 203.0.113.7/32");
    }
    if (key == "error.cloud.cidr_not_ipv4") {
        return CloudErrors::tr("SSH can be opened to an IPv4 address range only here (like 203.0.113.7/32)");
    }
    if (key == "error.cloud.cidr_whole_internet") {
        return CloudErrors::tr(
            "this would open SSH to the whole internet; give your own address (like 203.0.113.7/32)");
    }
    // The watchdog's rules and script.
    if (key == "error.cloud.deadman_out_of_range") {
        return CloudErrors::tr("the dead-man switch takes %1 to %2 hours, not %3")
            .arg(lowest(p), p.text("max"), p.text("value"));
    }
    if (key == "error.cloud.idle_minutes_out_of_range") {
        return CloudErrors::tr("the idle shutdown takes %1 to %2 minutes, not %3")
            .arg(lowest(p), p.text("max"), p.text("value"));
    }
    if (key == "error.cloud.idle_percent_out_of_range") {
        return CloudErrors::tr("the idle threshold takes %1 to %2 %, not %3")
            .arg(lowest(p), p.text("max"), p.text("value"));
    }
    if (key == "error.cloud.check_seconds_out_of_range") {
        return CloudErrors::tr("the check interval takes %1 to %2 s, not %3")
            .arg(lowest(p), p.text("max"), p.text("value"));
    }
    if (key == "error.cloud.idle_grace_out_of_range") {
        return CloudErrors::tr("the idle grace period takes %1 to %2 minutes, not %3")
            .arg(lowest(p), p.text("max"), p.text("value"));
    }
    if (key == "error.cloud.script_default_missing") {
        return CloudErrors::tr("the watchdog script has no default line for %1").arg(p.text("name"));
    }
    // Said by the front ends.
    if (key == "error.cloud.catalog_not_loaded") {
        return CloudErrors::tr("the catalog is not loaded");
    }
    if (key == "error.cloud.no_plan_open") {
        return CloudErrors::tr("no plan is open");
    }
    if (key == "error.cloud.public_address_unknown") {
        return CloudErrors::tr("cannot look up this computer's public address");
    }
    if (key == "error.cloud.input_public_key") {
        return CloudErrors::tr("the SSH public key");
    }
    if (key == "error.cloud.input_ssh_source") {
        return CloudErrors::tr("the address to open SSH to");
    }
    if (key == "error.cloud.no_stored_credential") {
        return CloudErrors::tr("%1; store one with `gpuplan creds set %2`").arg(p.text("said"), p.text("provider"));
    }
    if (key == "error.cloud.script_missing") {
        return CloudErrors::tr("the watchdog script is missing from this installation");
    }
    if (key == "error.cloud.ca_file_missing") {
        return CloudErrors::tr(
                   "the extra CA file %1 does not exist or is not a file (--ca-file, or Settings -> Network)")
            .arg(p.text("path"));
    }
    return {};
}

} // namespace gpuplan::ui::errorwording
