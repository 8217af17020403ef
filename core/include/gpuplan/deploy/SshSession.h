#pragma once

#include "gpuplan/core/Prompter.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/net/HttpClient.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

struct ssh_session_struct; // libssh's ssh_session

namespace gpuplan::core {

/// Where to log in: "USER@HOST[:PORT]" plus how.
struct SshTarget
{
    std::string user;
    std::string host;
    int port = 22;
    /// A private key file (ed25519, RSA, ECDSA; OpenSSH or PEM format). Empty: ssh-agent, then the default
    /// keys in ~/.ssh, as OpenSSH does.
    std::string identityFile;
    /// Hosts to hop through, first hop first (OpenSSH ProxyJump "a,b"); each is checked against known_hosts and
    /// authenticated like the target.
    std::vector<SshTarget> jumps;
    std::chrono::milliseconds connectTimeout{15000};

    /// "user@host:port" (the port only when not 22), for messages.
    std::string display() const;
};

/// "USER@HOST", "USER@HOST:PORT" or "USER@[IPv6]:PORT" -> a target; InvalidArgument naming the problem.
Result<SshTarget> parseSshTarget(std::string_view text);

struct SshOptions
{
    /// The OpenSSH known_hosts file checked and updated; empty: ~/.ssh/known_hosts. Checking is always on.
    std::string knownHostsFile;
    /// Asked whether to trust a host not in known_hosts, and for the passphrase of an encrypted identity file.
    /// nullptr: unknown hosts are refused and encrypted keys are not opened.
    Prompter* prompter = nullptr;
};

enum class SshStream
{
    Stdout,
    Stderr
};

/// Receives a remote command's output as it arrives, in chunks that need not end at line boundaries.
using SshOutput = std::function<void(SshStream stream, std::string_view chunk)>;

struct SshRunOptions
{
    std::chrono::milliseconds timeout{0}; // 0: no limit
    const CancelToken* cancel = nullptr;
    /// The most output (stdout and stderr together) taken from the remote command; a host that sends more is
    /// stopped there, so that a hostile or broken machine cannot fill this one's memory.
    std::size_t maxOutputBytes = 64u << 20;
};

/// A file copied over SFTP.
struct FileTransfer
{
    std::string localPath;
    std::string remotePath; // absolute, or relative to the remote user's home
    int mode = 0644;        // permission bits of an uploaded file
};

/// How far a transfer is: bytes done of all bytes, called from the transferring thread.
using TransferProgress = std::function<void(std::uintmax_t done, std::uintmax_t total)>;

/// One authenticated SSH connection (libssh), optionally through jump hosts. Not thread-safe: use a session
/// from one thread at a time; a CancelToken may be set from any thread.
class SshSession final
{
public:
    /// Connects, checks the host key against known_hosts and logs in. Errors: Network (refused, unreachable,
    /// lost), Timeout, Cancelled (also when the user did not trust a new host key), HostKeyChanged,
    /// Credentials (no usable key, refused key: the reason's "methods" names the methods the server offers),
    /// InvalidArgument.
    static Result<std::unique_ptr<SshSession>>
    connect(const SshTarget& target, const SshOptions& options, const CancelToken* cancel = nullptr);

    ~SshSession();
    SshSession(const SshSession&) = delete;
    SshSession& operator=(const SshSession&) = delete;

    /// Runs `command` through the remote user's shell (build it with shellQuote) and streams its output to
    /// `onOutput` (may be empty). Returns the exit status. Errors: Timeout (options.timeout passed; the channel
    /// is closed and the session stays usable), Cancelled, Network (connection lost, the command died without
    /// an exit status; or more output than options.maxOutputBytes: the command is stopped).
    Result<int> run(const std::string& command, const SshOutput& onOutput, const SshRunOptions& options = {});

    /// Copies a local file over SFTP to `remotePath` (created or replaced) with permission bits `mode`, then
    /// compares `sha256sum` on the remote with the local SHA-256. Errors: FileNotFound/FileUnreadable (local),
    /// Network (SFTP failure, checksum mismatch, no sha256sum), Cancelled.
    Status upload(const std::string& localPath,
                  const std::string& remotePath,
                  int mode = 0644,
                  const CancelToken* cancel = nullptr);

    /// Copies many files over one SFTP session, making the remote folders they need, with `onProgress` after each
    /// chunk, then checks them all with one `sha256sum -c` on the remote. Errors: as upload(); the checksum error
    /// names the first file that differs; InvalidArgument for a remote path that is empty, ends with '/' or holds a
    /// carriage return (sha256sum's list cannot name it).
    Status uploadFiles(const std::vector<FileTransfer>& files,
                       const TransferProgress& onProgress = {},
                       const CancelToken* cancel = nullptr);

    /// Copies `remotePath` over SFTP to `localPath`, resumably: the bytes go to `localPath` + ".part", and a
    /// ".part" left by an interrupted download is continued from its size. Then compares the remote `sha256sum`
    /// with the local SHA-256 of the whole file and, when they agree, renames it to `localPath`; returns the
    /// SHA-256 (hex). Errors: NotFound (no such remote file), FileUnreadable (local folder not writable), Network
    /// (SFTP failure, checksum mismatch: the .part is removed so the next try starts over), Cancelled (the .part
    /// stays for the next try).
    Result<std::string> download(const std::string& remotePath,
                                 const std::string& localPath,
                                 const TransferProgress& onProgress = {},
                                 const CancelToken* cancel = nullptr);

    const SshTarget& target() const { return m_target; }

private:
    friend class SshTunnel;
    struct Handles;
    SshSession(SshTarget target, SshOptions options);
    Status open(const CancelToken* cancel);
    Status openTunnel(const CancelToken* cancel, int& innerFd);
    Status verifyHostKey();
    Status authenticate();
    /// An error with `reason`, libssh's own last error text added as its "said" parameter when there is one.
    Error sessionError(ErrorCode code, Reason reason) const;
    void pump();
    /// The libssh session, for SshTunnel's thread.
    ssh_session_struct* nativeSession() const;

    SshTarget m_target;
    SshOptions m_options;
    std::unique_ptr<Handles> m_handles;
    std::unique_ptr<SshSession> m_jump; // the last hop when there are jumps
    std::thread m_pumpThread;           // moves bytes between the tunnel channel on m_jump and our socket
    std::atomic<bool> m_stopPump{false};
};

/// `arg` quoted for a POSIX shell so that it reaches the command as one word, unchanged: 'it'\''s'.
std::string shellQuote(std::string_view arg);

} // namespace gpuplan::core
