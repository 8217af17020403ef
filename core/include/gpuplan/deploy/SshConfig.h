#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/deploy/SshSession.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// What an OpenSSH client configuration (ssh_config(5), ~/.ssh/config) says for one host, in the keywords GPU
/// Planner honours: HostName, User, Port, IdentityFile, ProxyJump. Host-key settings (StrictHostKeyChecking,
/// UserKnownHostsFile...) are not read: GPU Planner's own policy (known_hosts, asked on first use) always holds.
struct SshHostConfig
{
    std::string hostName;
    std::string user;
    std::optional<int> port;
    std::vector<std::string> identityFiles; // in order, "~" and %h %p %r %u %% expanded
    std::string proxyJump;                  // "a,b" or "none"
};

/// Reads `file` for `host` as ssh(1) does: the Host blocks whose patterns match (`*`, `?`, `!` negation, several
/// patterns), the first value of each keyword wins (IdentityFile accumulates), "Keyword value" and
/// "Keyword=value", quoted values, Include (relative paths under ~/.ssh, globs). Match blocks are skipped (their
/// conditions are not evaluated). A missing file is an empty configuration. FileUnreadable naming the file for one
/// that cannot be read; InvalidArgument naming the file and line for a bad Port.
Result<SshHostConfig> readSshConfig(const std::filesystem::path& file, std::string_view host);

/// How the user named the machine to log in to, as typed in the CLI's flags or the Verify page's fields.
struct SshLogin
{
    std::string destination;  // "[USER@]HOST[:PORT]", or an alias of the SSH configuration
    std::string identityFile; // empty: the configuration's IdentityFile, else ssh-agent and ~/.ssh keys
    std::string jumps;        // "[USER@]HOST[:PORT],...": empty: the configuration's ProxyJump
    /// The OpenSSH client configuration read; empty: ~/.ssh/config.
    std::filesystem::path configFile;
};

/// The target as ssh(1) would reach it: what was typed wins, then the configuration's values for the host (and for
/// each jump host), then the defaults (port 22, the local user name). InvalidArgument naming the destination or the
/// jump when it cannot be read, or when no user name can be found.
Result<SshTarget> resolveSshTarget(const SshLogin& login);

/// An error of resolveSshTarget() about the jump host (its "error.ssh.via_jump_host" frame), taken out of `error`,
/// so that a front end can name the field or flag it was typed in instead. False, and `error` untouched, when the
/// destination itself is wrong.
bool takeJumpHostFrame(Error& error);

} // namespace gpuplan::core
