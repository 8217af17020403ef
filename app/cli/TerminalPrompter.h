#pragma once

#include "gpuplan/core/Prompter.h"

namespace gpuplan::cli {

/// The CLI's answers to core's questions, on the terminal as OpenSSH asks them: a host key is shown with its
/// fingerprint and trusted on "y" (or at once with --accept-new-host-key); a key's passphrase is read from the
/// terminal without echo. Without a terminal nothing is asked and the answer is no.
class TerminalPrompter final : public core::Prompter
{
public:
    explicit TerminalPrompter(bool acceptNewHostKey)
        : m_acceptNewHostKey(acceptNewHostKey)
    { }

    bool trustNewHostKey(const core::HostKey& key) override;
    std::optional<std::string> passphrase(const std::string& keyFile) override;

private:
    bool m_acceptNewHostKey = false;
};

} // namespace gpuplan::cli
