#pragma once

#include "gpuplan/core/Prompter.h"

namespace gpuplan::cli {

/// How `gpuplan launch` answers its confirmation.
struct LaunchAnswers
{
    bool yes = false;             // --yes: the summary is printed and the launch goes ahead unasked
    bool summaryToStderr = false; // --json: stdout holds the JSON document only
};

/// The CLI's answers to core's questions, on the terminal as OpenSSH asks them: a host key is shown with its
/// fingerprint and trusted on "y" (or at once with --accept-new-host-key); a key's passphrase is read from the
/// terminal without echo; a launch is summarised (price, the provider's price now, the most it can cost, what the
/// watchdog does) and goes ahead on "y", with --yes, or for a dry run. Without a terminal nothing is asked and the
/// answer is no.
class TerminalPrompter final : public core::Prompter
{
public:
    explicit TerminalPrompter(bool acceptNewHostKey, LaunchAnswers launch = {})
        : m_acceptNewHostKey(acceptNewHostKey)
        , m_launch(launch)
    { }

    bool trustNewHostKey(const core::HostKey& key) override;
    std::optional<std::string> passphrase(const std::string& keyFile) override;
    bool confirmLaunch(const core::LaunchConfirmation& confirmation) override;

    /// A launch confirmation was needed and there was no terminal to ask on (the user should add --yes).
    bool launchNeededATerminal() const { return m_launchNeededATerminal; }

private:
    bool m_acceptNewHostKey = false;
    LaunchAnswers m_launch;
    bool m_launchNeededATerminal = false;
};

} // namespace gpuplan::cli
