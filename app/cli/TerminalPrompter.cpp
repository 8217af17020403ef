#include "TerminalPrompter.h"

#include "wording/ProviderText.h"

#include "LaunchCommandParts.h"
#include "TerminalOutput.h"

#include "gpuplan/cloud/LaunchWorkflow.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include <termios.h>
#include <unistd.h>

namespace gpuplan::cli {

bool TerminalPrompter::trustNewHostKey(const core::HostKey& key)
{
    if (m_acceptNewHostKey) {
        std::cerr << "Adding " << key.host << " (" << key.type << " " << key.fingerprint << ") to known_hosts.\n";
        return true;
    }
    std::cerr << "The authenticity of host " << key.host << " can't be established.\n"
              << key.type << " key fingerprint is " << key.fingerprint << ".\n";
    if (!isatty(STDIN_FILENO)) {
        std::cerr << "Not a terminal: refusing an unknown host. Check the fingerprint with the provider's console, "
                     "then run again with --accept-new-host-key.\n";
        return false;
    }
    std::cerr << "Trust it and add it to known_hosts? [y/N] ";
    std::string answer;
    std::getline(std::cin, answer);
    return answer == "y" || answer == "Y" || answer == "yes";
}

std::optional<std::string> TerminalPrompter::passphrase(const std::string& keyFile)
{
    if (!isatty(STDIN_FILENO)) {
        std::cerr << keyFile
                  << " is encrypted and this is not a terminal: load it into ssh-agent, or run where a "
                     "passphrase can be typed.\n";
        return std::nullopt;
    }
    std::cerr << "Enter passphrase for " << keyFile << ": ";
    termios saved{};
    const bool quiet = tcgetattr(STDIN_FILENO, &saved) == 0;
    if (quiet) {
        termios silent = saved;
        silent.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent);
    }
    std::string given;
    const bool read = static_cast<bool>(std::getline(std::cin, given));
    if (quiet) {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    }
    std::cerr << '\n';
    return read ? std::optional<std::string>(given) : std::nullopt;
}

bool TerminalPrompter::confirmLaunch(const core::LaunchConfirmation& confirmation)
{
    using launching::money;
    const core::LaunchOrder& order = confirmation.order;
    const core::LaunchRequest& r = order.request;
    const core::LaunchPrice& price = order.price;
    // The price, the provider's price now, and the most it can cost before the dead-man fires.
    std::ostringstream summary;
    summary << (r.dryRun ? "Dry run: " : "Launch ") << r.instanceType << " on " << confirmation.provider << " in "
            << (r.zone.empty() ? r.region : r.zone) << ", " << order.pricingMode << ", at "
            << money(price.amount, price.currency) << (price.unit == core::PriceUnit::Month ? " a month" : " an hour")
            << ".\n";
    if (order.quote) {
        const core::PriceQuote& q = *order.quote;
        summary << "  The provider's price now: " << money(q.amount, q.currency)
                << (q.unit == core::PriceUnit::Month ? " a month" : " an hour") << " (" << q.source << ")";
        if (q.currency == price.currency && q.unit == price.unit && price.amount > 0) {
            const double change = (q.amount / price.amount - 1) * 100;
            char text[64];
            std::snprintf(text, sizeof text, "%.1f %% %s", std::abs(change), change >= 0 ? "above" : "below");
            summary << ", " << (std::abs(change) < 0.05 ? std::string("the same as") : std::string(text))
                    << " the catalog's";
        }
        summary << "; the launch is costed at the catalog's price, and both are kept in the ledger.\n";
    } else if (confirmation.quoteProblem) {
        summary << "  The provider's current price could not be asked (" << said(*confirmation.quoteProblem)
                << "); the catalog's is used.\n";
    }
    if (price.unit == core::PriceUnit::Month) {
        summary << "  Prepaid: " << price.prepaidMonths << " month(s), "
                << money(price.amount * price.prepaidMonths, price.currency) << " in all, paid now; auto-renew "
                << (r.autoRenew ? "on" : "off") << ".\n  "
                << ui::subscriptionTerminateText(confirmation.provider).toStdString() << "\n";
    }
    if (r.pricing == core::LaunchPricing::Spot) {
        if (r.spotPriceLimit > 0) {
            summary << "  Spot: bids at most " << money(r.spotPriceLimit, price.currency)
                    << " an hour; the provider may reclaim it when its price goes above, or when it needs the "
                       "capacity.\n";
        } else {
            summary << "  Spot: pays the market price, at most the on-demand price; the provider may reclaim it when "
                       "it needs the capacity.\n";
        }
    }
    // What each rule does to the machine, in so many words: on EC2 a shutdown terminates, and the disk goes with it.
    const core::WatchdogRules& rules = order.watchdog;
    if (order.deadmanHours > 0 && (r.terminateAt > 0 || rules.shutdownTerminates)) {
        summary << "  Dead-man: TERMINATED after " << order.deadmanHours
                << " h, its disks deleted; the most it can cost before then: "
                << money(confirmation.mostBeforeDeadman.value_or(0), price.currency) << ".\n";
    } else if (order.deadmanHours > 0) {
        // No provider-side terminate (a subscription): the watchdog's shutdown only stops it.
        summary << "  Dead-man: shut down after " << order.deadmanHours
                << " h (stopped, its disks kept; it is not terminated); the most it can cost: "
                << money(confirmation.mostBeforeDeadman.value_or(0), price.currency) << ".\n";
    } else {
        summary << "  Dead-man: OFF. It bills until you terminate it.\n";
    }
    if (rules.idleMinutes > 0) {
        summary << "  Idle rule: after " << rules.idleMinutes << " min with every GPU below " << rules.idlePercent
                << " %, no SSH session and no CPU or network load (counted from minute " << rules.idleGraceMinutes
                << "), the instance is "
                << (rules.shutdownTerminates ? "TERMINATED and its disks deleted" : "stopped (its disks are kept)")
                << ".\n";
    } else {
        summary << "  Idle rule: off.\n";
    }
    if (rules.shutdownTerminates && (order.deadmanHours > 0 || rules.idleMinutes > 0)) {
        summary << "  Copy results off the instance as you go: nothing on it survives a rule that fires.\n";
    }
    summary << "  SSH open to " << r.sshSourceCidr << " only.";
    (m_launch.summaryToStderr ? std::cerr : std::cout) << summary.str() << '\n';
    if (m_launch.yes || r.dryRun) {
        return true;
    }
    if (!isatty(STDIN_FILENO)) {
        m_launchNeededATerminal = true;
        return false;
    }
    return launching::confirm("Launch it?");
}

} // namespace gpuplan::cli
