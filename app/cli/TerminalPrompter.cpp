#include "TerminalPrompter.h"

#include "wording/LaunchText.h"

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
    const core::LaunchRequest& r = confirmation.order.request;
    // The Launch page's confirmation, word for word: the first line says what, the others indented below it.
    std::ostringstream summary;
    const QStringList lines = ui::launchConfirmationLines(confirmation);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        summary << (i == 0 ? "" : "\n  ") << lines[i].toStdString();
    }
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
