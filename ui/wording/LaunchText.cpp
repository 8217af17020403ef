// The launch's steps (core::LaunchProgress, core/cloud/Launcher.cpp) worded from their fields.
#include "wording/LaunchText.h"

#include "wording/ErrorText.h"
#include "wording/Format.h"
#include "wording/PlanText.h"
#include "wording/ProviderText.h"
#include "wording/ReasonParams.h"
#include "wording/providers/ProviderWording.h"

#include "gpuplan/cloud/ProviderRegistry.h"

#include <QCoreApplication>

#include <cmath>

namespace gpuplan::ui {

namespace {

struct LaunchText
{
    Q_DECLARE_TR_FUNCTIONS(gpuplan::ui::LaunchText)
};

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

QString money(double amount, core::Currency currency)
{
    return formatMoney(amount, QString::fromLatin1(core::currencyCode(currency)), 2);
}

/// "¥8.68 an hour", "¥5,400.00 a month".
QString rate(double amount, core::Currency currency, core::PriceUnit unit)
{
    return unit == core::PriceUnit::Month ? LaunchText::tr("%1 a month").arg(money(amount, currency))
                                          : LaunchText::tr("%1 an hour").arg(money(amount, currency));
}

} // namespace

QString launchProgressText(const core::LaunchProgress& p)
{
    switch (p.step) {
        case core::LaunchStep::Recorded:
            switch (p.attempt) {
                case core::LaunchAttempt::New:
                    return LaunchText::tr("Recorded the launch in the ledger (entry %1, token %2)")
                        .arg(p.entryId)
                        .arg(q(p.clientToken));
                case core::LaunchAttempt::Resumed:
                    return LaunchText::tr("Resuming the launch recorded at entry %1 with its token %2: it was "
                                          "interrupted before its answer was recorded")
                        .arg(p.entryId)
                        .arg(q(p.clientToken));
                case core::LaunchAttempt::FoundByReconcile:
                    return LaunchText::tr(
                               "The launch recorded at entry %1 did start %2 (found by reconciling after its "
                               "outcome was unknown): that is this launch, no second one")
                        .arg(p.entryId)
                        .arg(q(p.instanceId));
            }
            break;
        case core::LaunchStep::Sending:
            return LaunchText::tr("Asking %1 for %2 in %3").arg(q(p.provider), q(p.instanceType), q(p.zone));
        case core::LaunchStep::Replied:
            return p.refusal ? LaunchText::tr("Refused: %1").arg(errorText(*p.refusal))
                             : LaunchText::tr("Accepted: %1").arg(q(p.instanceId));
        case core::LaunchStep::ZoneRefused:
            return LaunchText::tr("No capacity in %1").arg(q(p.zone));
        case core::LaunchStep::Pending:
            return LaunchText::tr("%1 is starting in %2").arg(q(p.instanceId), q(p.zone));
        case core::LaunchStep::Running:
            return p.publicIp.empty() ? LaunchText::tr("%1 runs").arg(q(p.instanceId))
                                      : LaunchText::tr("%1 runs at %2").arg(q(p.instanceId), q(p.publicIp));
        case core::LaunchStep::SshReachable:
            return LaunchText::tr("SSH answers at %1:%2").arg(q(p.publicIp)).arg(p.sshPort);
    }
    return {};
}

namespace {

/// The steps of a launch on EC2 (core/cloud/providers/aws), worded as EC2 names things; null for any other key.
QString ec2StepText(const std::string& key, const ReasonParams& p)
{
    if (key == "step.ec2.image_given") {
        return LaunchText::tr("Image %1 (as given)").arg(p.text("image"));
    }
    if (key == "step.ec2.image_found") {
        return p.has("created") ? LaunchText::tr("Image %1 (%2, %3), the newest AWS Deep Learning Base GPU AMI")
                                      .arg(p.text("image"), p.text("name"), p.text("created"))
                                : LaunchText::tr("Image %1 (%2), the newest AWS Deep Learning Base GPU AMI")
                                      .arg(p.text("image"), p.text("name"));
    }
    if (key == "step.ec2.key_pair_found") {
        return LaunchText::tr("Key pair %1 already imported").arg(p.text("key_pair"));
    }
    if (key == "step.ec2.key_pair_would_import") {
        return LaunchText::tr("Would import key pair %1 (dry run: not imported)").arg(p.text("key_pair"));
    }
    if (key == "step.ec2.key_pair_imported") {
        return LaunchText::tr("Imported key pair %1").arg(p.text("key_pair"));
    }
    if (key == "step.ec2.group_found") {
        return LaunchText::tr("Security group %1 (%2) opens SSH to %3 only")
            .arg(p.text("group_id"), p.text("group_name"), p.text("cidr"));
    }
    if (key == "step.ec2.group_rule_would_add") {
        return LaunchText::tr("Security group %1 (%2) lacks its SSH rule for %3: would add it (dry run: not added)")
            .arg(p.text("group_id"), p.text("group_name"), p.text("cidr"));
    }
    if (key == "step.ec2.group_rule_added_again") {
        return LaunchText::tr("Security group %1 (%2) had lost its SSH rule: added it again, it opens SSH to %3 only")
            .arg(p.text("group_id"), p.text("group_name"), p.text("cidr"));
    }
    if (key == "step.ec2.group_would_create") {
        return LaunchText::tr("Would create security group %1 opening SSH to %2 only (dry run: not created; the "
                              "launch is checked without it)")
            .arg(p.text("group_name"), p.text("cidr"));
    }
    if (key == "step.ec2.group_created") {
        return LaunchText::tr("Security group %1 opens SSH to %2 only").arg(p.text("group_id"), p.text("cidr"));
    }
    if (key == "step.ec2.dry_run_passed") {
        return LaunchText::tr("Dry run: EC2 says the launch of %1 would succeed").arg(p.text("instance_type"));
    }
    if (key == "step.ec2.launched") {
        return LaunchText::tr("Launched %1 (%2, %3) in %4, %5")
            .arg(p.text("instance_id"), p.text("instance_type"), p.text("pricing"), p.text("zone"), p.text("state"));
    }
    return {};
}

/// The steps of a launch on Tencent Cloud's CVM (core/cloud/providers/tencent) alone; null for any other key.
QString cvmStepText(const std::string& key, const ReasonParams& p)
{
    if (key == "step.cvm.group_egress_rule_would_add") {
        return LaunchText::tr("security group %1 lacks its rule for all outbound: would add it")
            .arg(p.text("group_id"));
    }
    if (key == "step.cvm.group_egress_rule_added_again") {
        return LaunchText::tr("security group %1 had lost its rule for all outbound: added it again")
            .arg(p.text("group_id"));
    }
    if (key == "step.cvm.group_created") {
        return LaunchText::tr("created security group %1 (%2): SSH from %3, all outbound")
            .arg(p.text("group_name"), p.text("group_id"), p.text("cidr"));
    }
    if (key == "step.cvm.no_scheduled_terminate") {
        return LaunchText::tr("no scheduled terminate: CVM's ActionTimer is not used for monthly instances");
    }
    return {};
}

/// The steps any provider may take (Tencent Cloud's, a test provider's); null for any other key.
QString commonStepText(const std::string& key, const ReasonParams& p)
{
    if (key == "step.image_given") {
        return LaunchText::tr("using image %1").arg(p.text("image"));
    }
    if (key == "step.image_found") {
        // ECS names a public image by its id ("ubuntu_22_04_x64_20G_alibase_….vhd"): said once.
        return p.has("name") && p.text("name") != p.text("image")
                   ? LaunchText::tr("found GPU image %1 (%2)").arg(p.text("image"), p.text("name"))
                   : LaunchText::tr("found GPU image %1").arg(p.text("image"));
    }
    if (key == "step.key_pair_found") {
        return p.has("key_id") ? LaunchText::tr("found key pair %1 (%2)").arg(p.text("key_pair"), p.text("key_id"))
                               : LaunchText::tr("found key pair %1").arg(p.text("key_pair"));
    }
    if (key == "step.key_pair_would_import") {
        return LaunchText::tr("would import key pair %1").arg(p.text("key_pair"));
    }
    if (key == "step.key_pair_imported") {
        return p.has("key_id") ? LaunchText::tr("imported key pair %1 (%2)").arg(p.text("key_pair"), p.text("key_id"))
                               : LaunchText::tr("imported key pair %1").arg(p.text("key_pair"));
    }
    if (key == "step.group_found") {
        return LaunchText::tr("found security group %1 (%2)").arg(p.text("group_name"), p.text("group_id"));
    }
    if (key == "step.group_ssh_rule_would_add") {
        return LaunchText::tr("security group %1 lacks its rule for SSH from %2: would add it")
            .arg(p.text("group_id"), p.text("cidr"));
    }
    if (key == "step.group_ssh_rule_added_again") {
        return LaunchText::tr("security group %1 had lost its rule for SSH from %2: added it again")
            .arg(p.text("group_id"), p.text("cidr"));
    }
    if (key == "step.group_would_create") {
        return LaunchText::tr("would create security group %1 (SSH from %2)").arg(p.text("group_name"), p.text("cidr"));
    }
    if (key == "step.group_created") {
        return LaunchText::tr("created security group %1 (%2): SSH from %3")
            .arg(p.text("group_name"), p.text("group_id"), p.text("cidr"));
    }
    if (key == "step.zone_chosen") {
        return LaunchText::tr("chose zone %1").arg(p.text("zone"));
    }
    if (key == "step.dry_run_passed") {
        return LaunchText::tr("dry run passed");
    }
    if (key == "step.launched") {
        return LaunchText::tr("launched %1 in %2").arg(p.text("instance_id"), p.text("zone"));
    }
    return {};
}

} // namespace

QString launchStepText(const core::Reason& step)
{
    const ReasonParams p(step.params);
    for (auto* words : {ec2StepText,
                        cvmStepText,
                        providerwording::alibabaStepText,
                        providerwording::huaweiStepText,
                        providerwording::gcpStepText,
                        providerwording::azureStepText,
                        providerwording::lambdaStepText,
                        providerwording::paperspaceStepText,
                        providerwording::vertexStepText,
                        providerwording::azureMlStepText,
                        commonStepText}) {
        if (QString text = words(step.key, p); !text.isNull()) {
            return text;
        }
    }
    return errorReasonText(step); // a key this version does not word: the key and its parameters
}

namespace {

/// What a managed job runs, when it ends and what it can cost: the lines after its price.
QStringList jobConfirmationLines(const core::LaunchConfirmation& c)
{
    const core::LaunchOrder& order = c.order;
    const core::JobSpec& job = *order.request.job;
    QStringList lines;
    QStringList command;
    for (const std::string& arg : job.command) {
        command << q(arg);
    }
    // "sh -c LINE" is how a command line is handed over: show the line as the user typed it.
    const QString shown = job.command.size() == 3 && job.command[0] == "sh" && job.command[1] == "-c"
                              ? q(job.command[2])
                              : command.join(QLatin1Char(' '));
    lines << LaunchText::tr("It runs %1 in the container %2.").arg(shown, q(job.image));
    if (!job.environment.empty()) {
        QStringList names;
        for (const auto& [name, value] : job.environment) {
            names << q(name);
        }
        lines << LaunchText::tr("Environment variables: %1.").arg(names.join(QStringLiteral(", ")));
    }
    lines << LaunchText::tr("The service ends it after %n hour(s) (its timeout) if its command has not ended by "
                            "then; the most it can cost is %1. It stops billing when it ends.",
                            nullptr,
                            order.deadmanHours)
                 .arg(money(c.mostBeforeDeadman.value_or(0), order.price.currency));
    lines << LaunchText::tr("There is no machine to log in to: follow its log on the Instances page or with `gpuplan "
                            "logs`, and cancel it there.");
    return lines;
}

} // namespace

QStringList launchConfirmationLines(const core::LaunchConfirmation& c)
{
    const core::LaunchOrder& order = c.order;
    const core::LaunchRequest& r = order.request;
    const core::LaunchPrice& price = order.price;
    const QString provider = providerDisplayName(c.provider);
    QStringList lines;
    if (r.job) {
        lines << LaunchText::tr("Submit a managed job to %1: %2 in %3, %4, at %5.")
                     .arg(managedServiceName(c.provider),
                          q(r.instanceType),
                          q(r.region),
                          pricingModeText(q(order.pricingMode)),
                          rate(price.amount, price.currency, price.unit));
    } else {
        lines << (r.dryRun ? LaunchText::tr("Dry run: %1 on %2 in %3, %4, at %5.")
                           : LaunchText::tr("Launch %1 on %2 in %3, %4, at %5."))
                     .arg(q(r.instanceType),
                          provider,
                          q(r.zone.empty() ? r.region : r.zone),
                          pricingModeText(q(order.pricingMode)),
                          rate(price.amount, price.currency, price.unit));
    }
    if (order.quote) {
        const core::PriceQuote& quote = *order.quote;
        const QString now = rate(quote.amount, quote.currency, quote.unit);
        QString versus;
        if (quote.currency == price.currency && quote.unit == price.unit && price.amount > 0) {
            const double change = (quote.amount / price.amount - 1) * 100;
            versus = std::abs(change) < 0.05 ? LaunchText::tr("the same as the catalog's")
                     : change > 0            ? LaunchText::tr("%1 % above the catalog's").arg(change, 0, 'f', 1)
                                             : LaunchText::tr("%1 % below the catalog's").arg(-change, 0, 'f', 1);
        }
        lines << (versus.isEmpty()
                      ? LaunchText::tr("The provider's price now: %1 (%2).").arg(now, q(quote.source))
                      : LaunchText::tr("The provider's price now: %1 (%2), %3.").arg(now, q(quote.source), versus));
        lines << LaunchText::tr("The launch is costed at the catalog's price; both are kept in the ledger.");
    } else if (c.quoteProblem) {
        lines << LaunchText::tr("The provider's current price could not be asked (%1); the catalog's is used.")
                     .arg(errorText(*c.quoteProblem));
    }
    if (price.unit == core::PriceUnit::Month) {
        lines << LaunchText::tr(
                     "Prepaid: %n month(s), %1 in all, paid now; automatic renewal %2.", nullptr, price.prepaidMonths)
                     .arg(money(price.amount * price.prepaidMonths, price.currency),
                          r.autoRenew ? LaunchText::tr("on") : LaunchText::tr("off"));
        lines << subscriptionTerminateText(c.provider);
    }
    if (r.pricing == core::LaunchPricing::Spot) {
        lines << (r.spotPriceLimit > 0
                      ? LaunchText::tr("Spot: bids at most %1 an hour; the provider may reclaim it when its price goes "
                                       "above, or when it needs the capacity.")
                            .arg(money(r.spotPriceLimit, price.currency))
                      : LaunchText::tr("Spot: pays the market price, at most the on-demand price; the provider may "
                                       "reclaim it when it needs the capacity."));
    }
    if (r.job) {
        return lines + jobConfirmationLines(c);
    }
    // What each rule does to the machine and to its bill, in so many words: on EC2 a shutdown terminates, and the
    // disk goes with it; on CVM it stops the instance; on Azure and Lambda a machine shut down from inside still bills.
    const core::WatchdogRules& rules = order.watchdog;
    const QString most = money(c.mostBeforeDeadman.value_or(0), price.currency);
    if (order.deadmanHours > 0 && c.mostBeforeDeadman && (r.terminateAt > 0 || rules.shutdownTerminates)) {
        lines << LaunchText::tr("The dead-man switch TERMINATES it after %n hour(s), deleting its disks; the most it "
                                "can cost before then is %1.",
                                nullptr,
                                order.deadmanHours)
                     .arg(most);
    } else if (order.deadmanHours > 0 && c.mostBeforeDeadman
               && (rules.shutdownStopsBilling || price.unit == core::PriceUnit::Month)) {
        // No provider-side terminate (a subscription, paid ahead, or a provider without one): the watchdog's
        // shutdown stops it.
        lines << LaunchText::tr("The dead-man switch shuts it down after %n hour(s): it is stopped, not terminated, "
                                "and its disks are kept; the most it can cost is %1.",
                                nullptr,
                                order.deadmanHours)
                     .arg(most);
    } else if (order.deadmanHours > 0 && c.mostBeforeDeadman) {
        lines << LaunchText::tr("The dead-man switch shuts it down after %n hour(s); the most it can cost before "
                                "then is %2. But %1 bills a machine shut down from inside until it is deleted: GPU "
                                "Planner deletes it when it next looks (the app open, or `gpuplan instances`) from 30 "
                                "minutes past the dead-man.",
                                nullptr,
                                order.deadmanHours)
                     .arg(provider, most);
    } else {
        lines << LaunchText::tr("The dead-man switch is OFF: it bills until you terminate it.");
    }
    if (rules.idleMinutes > 0) {
        const QString idle = LaunchText::tr("After %1 min with every GPU below %2 %, no SSH session and no CPU or "
                                            "network load (counted from minute %3),")
                                 .arg(rules.idleMinutes)
                                 .arg(rules.idlePercent)
                                 .arg(rules.idleGraceMinutes);
        lines << (rules.shutdownTerminates
                      ? LaunchText::tr("%1 the instance is TERMINATED and its disks are deleted.").arg(idle)
                  : rules.shutdownStopsBilling
                      ? LaunchText::tr("%1 the instance is stopped (its disks are kept).").arg(idle)
                      : LaunchText::tr("%1 the instance is shut down, but %2 keeps billing it until it is terminated.")
                            .arg(idle, provider));
    } else {
        lines << LaunchText::tr("The idle shutdown is off.");
    }
    if (rules.shutdownTerminates && (order.deadmanHours > 0 || rules.idleMinutes > 0)) {
        lines << LaunchText::tr("Copy your results off the instance as you go: nothing on it survives a rule that "
                                "fires.");
    }
    const core::ProviderDescriptor* descriptor = core::ProviderRegistry::builtIn().find(c.provider);
    lines << (descriptor && !descriptor->supports(core::CloudFeature::SshSourceRestriction)
                  ? LaunchText::tr("SSH is open to every address: %1 has no firewall of its own for one instance "
                                   "(only your key lets you in).")
                        .arg(provider)
                  : LaunchText::tr("SSH is opened to %1 only.").arg(q(r.sshSourceCidr)));
    if (r.dryRun) {
        lines << LaunchText::tr("This is a dry run: the provider only checks the request and starts nothing.");
    }
    return lines;
}

QString launchEntryText(const core::LedgerEntry& entry)
{
    const auto q = [](const std::string& text) { return QString::fromStdString(text); };
    return LaunchText::tr("#%1 %2 %3 %4 (%5)")
        .arg(entry.id)
        .arg(q(entry.intent.provider),
             q(entry.intent.instanceType),
             entry.instanceId.empty() ? LaunchText::tr("no instance id yet") : q(entry.instanceId),
             q(core::instanceStateName(entry.state)));
}

} // namespace gpuplan::ui
