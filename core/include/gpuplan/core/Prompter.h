#pragma once

#include <optional>
#include <string>

namespace gpuplan::core {

struct LaunchConfirmation; // core/cloud/LaunchWorkflow.h

/// A server's host key as shown to the user who decides whether to trust it.
struct HostKey
{
    std::string host;        // as written to known_hosts: "host" or "[host]:port"
    std::string type;        // "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256"
    std::string fingerprint; // "SHA256:" + base64 without padding, as `ssh-keygen -lf` prints it
};

/// The questions a workflow in core asks the user on its way (as SkyPilot's and Ansible's prompts do). Each front
/// end answers them its own way: the CLI on the terminal (app/cli/TerminalPrompter), the GUI in dialogs on its UI
/// thread (the Verify page's prompter, ui/Questions.h for tests). Called on the workflow's thread; an answer may
/// take as long as the user does. Where a workflow has no prompter, it asks nothing and takes the safe answer.
class Prompter
{
public:
    virtual ~Prompter() = default;

    /// A host not yet in known_hosts (trust on first use): true adds `key` to the file and connects.
    virtual bool trustNewHostKey(const HostKey& key) = 0;
    /// The passphrase of an encrypted identity file; nullopt: the user gives up.
    virtual std::optional<std::string> passphrase(const std::string& keyFile) = 0;
    /// Launch this (what it costs, what its watchdog does)? A no sends nothing. A prompter that does not launch
    /// answers no.
    virtual bool confirmLaunch(const LaunchConfirmation& confirmation);
};

} // namespace gpuplan::core
