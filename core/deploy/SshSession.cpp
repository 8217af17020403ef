// One SSH session over libssh: connect (through jump hosts), the host-key policy, authentication, commands with
// streamed output, SFTP upload. Longer than 600 lines on purpose: the RAII handles and the order they are freed in
// are shared by every step and are safest read together.

#include "gpuplan/deploy/SshSession.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fcntl.h>
#include <libssh/libssh.h>
#include <libssh/sftp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gpuplan/core/Log.h"
#include "gpuplan/core/Redaction.h"
#include "gpuplan/net/Crypto.h"

namespace gpuplan::core {

namespace {

struct SessionFree
{
    void operator()(ssh_session session) const
    {
        if (ssh_is_connected(session)) {
            ssh_disconnect(session);
        }
        ssh_free(session);
    }
};
struct ChannelFree
{
    void operator()(ssh_channel channel) const
    {
        if (ssh_channel_is_open(channel)) {
            ssh_channel_close(channel);
        }
        ssh_channel_free(channel);
    }
};
struct SftpFree
{
    void operator()(sftp_session sftp) const { sftp_free(sftp); }
};
struct SftpFileClose
{
    void operator()(sftp_file file) const { sftp_close(file); }
};
struct KeyFree
{
    void operator()(ssh_key key) const { ssh_key_free(key); }
};
struct KnownHostsEntryFree
{
    void operator()(ssh_knownhosts_entry* entry) const { ssh_knownhosts_entry_free(entry); }
};

using SessionPtr = std::unique_ptr<std::remove_pointer_t<ssh_session>, SessionFree>;
using ChannelPtr = std::unique_ptr<std::remove_pointer_t<ssh_channel>, ChannelFree>;
using SftpPtr = std::unique_ptr<std::remove_pointer_t<sftp_session>, SftpFree>;
using SftpFilePtr = std::unique_ptr<std::remove_pointer_t<sftp_file>, SftpFileClose>;
using KeyPtr = std::unique_ptr<std::remove_pointer_t<ssh_key>, KeyFree>;
using KnownHostsEntryPtr = std::unique_ptr<ssh_knownhosts_entry, KnownHostsEntryFree>;

// How long one wait on a channel lasts before the cancel token and the deadline are looked at again.
constexpr int kPollMs = 50;

Error cancelledError(const std::string& where)
{
    return Error{ErrorCode::Cancelled, "cancelled", where};
}

bool isCancelled(const CancelToken* cancel)
{
    return cancel != nullptr && cancel->cancelled();
}

/// "SHA256:base64" of a public key, as ssh-keygen -lf shows it; empty when libssh cannot hash it.
std::string fingerprintOf(ssh_key key)
{
    unsigned char* hash = nullptr;
    size_t length = 0;
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &length) != SSH_OK) {
        return {};
    }
    char* text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, length);
    ssh_clean_pubkey_hash(&hash);
    if (text == nullptr) {
        return {};
    }
    std::string result = text;
    ssh_string_free_char(text);
    return result;
}

std::string knownHostsName(const SshTarget& target)
{
    return target.port == 22 ? target.host : "[" + target.host + "]:" + std::to_string(target.port);
}

std::string defaultKnownHostsFile()
{
    const char* home = std::getenv("HOME");
    return std::string(home != nullptr ? home : "") + "/.ssh/known_hosts";
}

std::string authMethodNames(int methods)
{
    std::string names;
    auto add = [&](int bit, const char* name) {
        if ((methods & bit) != 0) {
            names += names.empty() ? "" : ", ";
            names += name;
        }
    };
    add(SSH_AUTH_METHOD_PUBLICKEY, "publickey");
    add(SSH_AUTH_METHOD_PASSWORD, "password");
    add(SSH_AUTH_METHOD_INTERACTIVE, "keyboard-interactive");
    add(SSH_AUTH_METHOD_HOSTBASED, "hostbased");
    add(SSH_AUTH_METHOD_GSSAPI_MIC, "gssapi-with-mic");
    return names.empty() ? "none" : names;
}

/// libssh asks for a key's passphrase through this C callback; userdata is the PassphraseRequest.
struct PassphraseRequest
{
    const SshOptions* options;
    const std::string* keyFile;
    bool asked = false;
};

int passphraseCallback(const char*, char* buffer, size_t length, int, int, void* userdata)
{
    auto* request = static_cast<PassphraseRequest*>(userdata);
    request->asked = true;
    if (!request->options->prompter || length == 0) {
        return -1;
    }
    std::optional<std::string> given = request->options->prompter->passphrase(*request->keyFile);
    if (given) {
        registerSecret(*given); // the key's passphrase: never in the log
    }
    if (!given || given->size() + 1 > length) {
        if (given) {
            wipe(*given);
        }
        return -1;
    }
    std::memcpy(buffer, given->c_str(), given->size() + 1);
    wipe(*given);
    return 0;
}

bool writeAll(int fd, const char* data, size_t size)
{
    while (size > 0) {
        ssize_t written = ::write(fd, data, size);
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            return false;
        }
        data += written;
        size -= static_cast<size_t>(written);
    }
    return true;
}

/// "type fingerprint" of each key that the known_hosts file has for `host` ("host" or "[host]:port"), hashed
/// names included; empty when it has none.
std::string knownKeysOf(const std::string& host, const std::string& knownHostsFile)
{
    std::ifstream in(knownHostsFile);
    std::string line;
    std::string keys;
    while (std::getline(in, line)) {
        ssh_knownhosts_entry* rawEntry = nullptr;
        // SSH_OK only for a line that names the host; other lines give SSH_ERROR or SSH_AGAIN.
        if (ssh_known_hosts_parse_line(host.c_str(), line.c_str(), &rawEntry) != SSH_OK) {
            ssh_knownhosts_entry_free(rawEntry);
            continue;
        }
        KnownHostsEntryPtr entry(rawEntry);
        if (entry && entry->publickey != nullptr) {
            keys += keys.empty() ? "" : " and ";
            keys += std::string(ssh_key_type_to_char(ssh_key_type(entry->publickey))) + " "
                    + fingerprintOf(entry->publickey);
        }
    }
    return keys;
}

} // namespace

struct SshSession::Handles
{
    SessionPtr session;
    ChannelPtr tunnel; // on m_jump's session: the direct-tcpip channel this session runs over
    int pumpFd = -1;   // our end of the socket pair whose other end libssh uses as its connection
};

std::string SshTarget::display() const
{
    std::string text = user + "@" + (host.find(':') != std::string::npos ? "[" + host + "]" : host);
    return port == 22 ? text : text + ":" + std::to_string(port);
}

Result<SshTarget> parseSshTarget(std::string_view text)
{
    auto invalid = [&](const std::string& why) {
        return Error{ErrorCode::InvalidArgument,
                     why + "; expected USER@HOST or USER@HOST:PORT, e.g. ubuntu@203.0.113.7:22",
                     std::string(text)};
    };
    size_t at = text.rfind('@');
    if (at == std::string_view::npos || at == 0) {
        return invalid("no user name before '@'");
    }
    SshTarget target;
    target.user = std::string(text.substr(0, at));
    std::string_view rest = text.substr(at + 1);
    std::string_view portText;
    if (!rest.empty() && rest.front() == '[') {
        size_t close = rest.find(']');
        if (close == std::string_view::npos) {
            return invalid("'[' without ']'");
        }
        target.host = std::string(rest.substr(1, close - 1));
        rest = rest.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':') {
                return invalid("unexpected text after ']'");
            }
            portText = rest.substr(1);
            if (portText.empty()) {
                return invalid("empty port");
            }
        }
    } else {
        size_t colon = rest.find(':');
        target.host = std::string(rest.substr(0, colon));
        if (colon != std::string_view::npos) {
            portText = rest.substr(colon + 1);
            if (portText.empty()) {
                return invalid("empty port");
            }
        }
    }
    if (target.host.empty()) {
        return invalid("no host name after '@'");
    }
    for (char c : target.host) {
        if (c == ' ' || c == '/' || c == '@' || static_cast<unsigned char>(c) < 0x20) {
            return invalid("the host name contains '" + std::string(1, c) + "'");
        }
    }
    if (!portText.empty()) {
        int port = 0;
        auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
        if (ec != std::errc() || end != portText.data() + portText.size() || port < 1 || port > 65535) {
            return invalid("the port '" + std::string(portText) + "' is not a number from 1 to 65535");
        }
        target.port = port;
    }
    return target;
}

std::string shellQuote(std::string_view arg)
{
    // Inside single quotes a POSIX shell takes every byte literally except ' itself, which has to close the
    // quotes, appear escaped, and reopen them (POSIX.1-2017 XCU 2.2.2).
    std::string quoted = "'";
    for (char c : arg) {
        if (c == '\'') {
            quoted += "'\\''";
        } else {
            quoted += c;
        }
    }
    quoted += '\'';
    return quoted;
}

SshSession::SshSession(SshTarget target, SshOptions options)
    : m_target(std::move(target))
    , m_options(std::move(options))
    , m_handles(std::make_unique<Handles>())
{ }

SshSession::~SshSession()
{
    // Order matters: our session first (it talks through the tunnel), then the pump that serves the tunnel,
    // then the tunnel channel, and the jump session last.
    m_handles->session.reset();
    m_stopPump = true;
    if (m_pumpThread.joinable()) {
        m_pumpThread.join();
    }
    if (m_handles->pumpFd >= 0) {
        ::close(m_handles->pumpFd);
    }
    m_handles->tunnel.reset();
    m_jump.reset();
}

Error SshSession::sessionError(ErrorCode code, const std::string& what) const
{
    const char* libsshText = m_handles->session ? ssh_get_error(m_handles->session.get()) : "";
    std::string detail = what;
    if (libsshText != nullptr && *libsshText != '\0') {
        detail += " (" + std::string(libsshText) + ")";
    }
    return Error{code, detail, m_target.display()};
}

Result<std::unique_ptr<SshSession>>
SshSession::connect(const SshTarget& target, const SshOptions& options, const CancelToken* cancel)
{
    if (target.user.empty() || target.host.empty()) {
        return Error{ErrorCode::InvalidArgument, "an SSH target needs a user and a host", target.display()};
    }
    if (target.port < 1 || target.port > 65535) {
        return Error{ErrorCode::InvalidArgument, "the port is not from 1 to 65535", target.display()};
    }
    std::unique_ptr<SshSession> session(new SshSession(target, options));
    Status opened = session->open(cancel);
    if (!opened) {
        return opened.error();
    }
    return session;
}

Status SshSession::openTunnel(const CancelToken* cancel, int& innerFd)
{
    SshTarget hop = m_target.jumps.back();
    hop.jumps.assign(m_target.jumps.begin(), m_target.jumps.end() - 1);
    auto jump = connect(hop, m_options, cancel);
    if (!jump) {
        Error error = jump.error();
        error.detail = "jump host " + hop.display() + ": " + error.detail;
        error.where = m_target.display();
        return error;
    }
    m_jump = std::move(jump).value();
    ssh_session jumpSession = m_jump->m_handles->session.get();
    m_handles->tunnel.reset(ssh_channel_new(jumpSession));
    if (!m_handles->tunnel
        || ssh_channel_open_forward(m_handles->tunnel.get(), m_target.host.c_str(), m_target.port, "127.0.0.1", 22)
               != SSH_OK) {
        return Error{ErrorCode::Network,
                     "the jump host " + m_jump->m_target.display() + " could not open a connection to " + m_target.host
                         + " port " + std::to_string(m_target.port) + " (" + ssh_get_error(jumpSession)
                         + "); does it allow TCP forwarding?",
                     m_target.display()};
    }
    int fds[2] = {-1, -1};
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
        return Error{ErrorCode::Network, std::string("socketpair failed: ") + std::strerror(errno), "jump host"};
    }
    m_handles->pumpFd = fds[0];
    innerFd = fds[1];
    m_pumpThread = std::thread([this] { pump(); });
    return Ok{};
}

void SshSession::pump()
{
    // Runs on its own thread and is the only user of the jump session once the tunnel is open.
    ssh_channel channel = m_handles->tunnel.get();
    ssh_session jumpSession = m_jump->m_handles->session.get();
    int localFd = m_handles->pumpFd;
    int jumpFd = ssh_get_fd(jumpSession);
    char buffer[32768];
    bool localOpen = true;
    while (!m_stopPump) {
        int got = ssh_channel_read_nonblocking(channel, buffer, sizeof buffer, 0);
        if (got > 0) {
            if (!writeAll(localFd, buffer, static_cast<size_t>(got))) {
                break;
            }
            continue;
        }
        if (got == SSH_ERROR || ssh_channel_is_eof(channel) || !ssh_channel_is_open(channel)) {
            ::shutdown(localFd, SHUT_WR); // the inner session sees the connection end
            break;
        }
        pollfd fds[2] = {{localFd, static_cast<short>(localOpen ? POLLIN : 0), 0}, {jumpFd, POLLIN, 0}};
        if (::poll(fds, 2, kPollMs) < 0 && errno != EINTR) {
            break;
        }
        if (localOpen && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            ssize_t n = ::read(localFd, buffer, sizeof buffer);
            if (n > 0) {
                if (ssh_channel_write(channel, buffer, static_cast<uint32_t>(n)) == SSH_ERROR) {
                    break;
                }
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                localOpen = false;
                ssh_channel_send_eof(channel);
            }
        }
    }
}

Status SshSession::open(const CancelToken* cancel)
{
    if (isCancelled(cancel)) {
        return cancelledError(m_target.display());
    }
    int innerFd = -1;
    if (!m_target.jumps.empty()) {
        Status tunnel = openTunnel(cancel, innerFd);
        if (!tunnel) {
            return tunnel;
        }
    }
    m_handles->session.reset(ssh_new());
    ssh_session session = m_handles->session.get();
    if (session == nullptr) {
        if (innerFd >= 0) {
            ::close(innerFd);
        }
        return Error{ErrorCode::Network, "libssh could not create a session (out of memory?)", m_target.display()};
    }
    std::string knownHosts = m_options.knownHostsFile.empty() ? defaultKnownHostsFile() : m_options.knownHostsFile;
    logInfo(LogCategory::Ssh, [&] {
        return "connecting to " + m_target.display() + " (known hosts: " + knownHosts
               + (m_target.jumps.empty() ? "" : ", through " + std::to_string(m_target.jumps.size()) + " jump host(s)")
               + ")";
    });
    std::error_code ignored;
    std::filesystem::create_directories(std::filesystem::path(knownHosts).parent_path(), ignored);
    long timeoutSeconds = static_cast<long>(m_target.connectTimeout.count() / 1000);
    long timeoutMicros = static_cast<long>((m_target.connectTimeout.count() % 1000) * 1000);
    bool processConfig = false; // our target says everything; ~/.ssh/config must not redirect it silently
    int port = m_target.port;
    if (ssh_options_set(session, SSH_OPTIONS_HOST, m_target.host.c_str()) != SSH_OK
        || ssh_options_set(session, SSH_OPTIONS_PORT, &port) != SSH_OK
        || ssh_options_set(session, SSH_OPTIONS_USER, m_target.user.c_str()) != SSH_OK
        || ssh_options_set(session, SSH_OPTIONS_KNOWNHOSTS, knownHosts.c_str()) != SSH_OK
        || ssh_options_set(session, SSH_OPTIONS_TIMEOUT, &timeoutSeconds) != SSH_OK
        || ssh_options_set(session, SSH_OPTIONS_TIMEOUT_USEC, &timeoutMicros) != SSH_OK
        || ssh_options_set(session, SSH_OPTIONS_PROCESS_CONFIG, &processConfig) != SSH_OK) {
        if (innerFd >= 0) {
            ::close(innerFd);
        }
        return sessionError(ErrorCode::InvalidArgument, "libssh refused an option");
    }
    if (innerFd >= 0) {
        // libssh owns the fd from here and closes it with the session.
        socket_t fd = innerFd;
        ssh_options_set(session, SSH_OPTIONS_FD, &fd);
    }
    if (ssh_connect(session) != SSH_OK) {
        std::string text = ssh_get_error(session);
        bool timedOut = text.find("imeout") != std::string::npos || text.find("timed out") != std::string::npos;
        logInfo(LogCategory::Ssh, [&] { return "could not connect to " + m_target.display() + ": " + text; });
        return sessionError(timedOut ? ErrorCode::Timeout : ErrorCode::Network,
                            "could not connect to " + m_target.host + " port " + std::to_string(m_target.port));
    }
    if (isCancelled(cancel)) {
        return cancelledError(m_target.display());
    }
    Status verified = verifyHostKey();
    if (!verified) {
        return verified;
    }
    if (isCancelled(cancel)) {
        return cancelledError(m_target.display());
    }
    return authenticate();
}

Status SshSession::verifyHostKey()
{
    ssh_session session = m_handles->session.get();
    ssh_key rawKey = nullptr;
    if (ssh_get_server_publickey(session, &rawKey) != SSH_OK) {
        return sessionError(ErrorCode::Network, "the server sent no host key");
    }
    KeyPtr key(rawKey);
    HostKey hostKey{knownHostsName(m_target), ssh_key_type_to_char(ssh_key_type(key.get())), fingerprintOf(key.get())};
    std::string host = m_target.host;
    std::string knownHosts = m_options.knownHostsFile.empty() ? defaultKnownHostsFile() : m_options.knownHostsFile;

    const auto decided = [&](const std::string& decision) {
        logInfo(LogCategory::Ssh, [&] {
            return "host key of " + hostKey.host + " (" + hostKey.type + " " + hostKey.fingerprint + "): " + decision;
        });
    };
    switch (ssh_session_is_known_server(session)) {
        case SSH_KNOWN_HOSTS_OK:
            decided("known in " + knownHosts);
            return Ok{};
        case SSH_KNOWN_HOSTS_CHANGED:
        case SSH_KNOWN_HOSTS_OTHER: {
            // OTHER: known_hosts has keys of other types for this host but not this one. OpenSSH asks then; we
            // refuse, since a server that still has its old key would have offered it (libssh prefers the
            // known types).
            std::string old = knownKeysOf(hostKey.host, knownHosts);
            decided("CHANGED (" + knownHosts + " has " + (old.empty() ? std::string("another key") : old)
                    + "): refused");
            return Error{ErrorCode::HostKeyChanged,
                         "WARNING: the host key of " + hostKey.host + " has changed: " + knownHosts + " has "
                             + (old.empty() ? std::string("another key") : old) + ", the server now shows "
                             + hostKey.type + " " + hostKey.fingerprint
                             + ". This is a possible man-in-the-middle attack, or the server was reinstalled. "
                               "Connection refused. If you know why the key changed, remove the old key with "
                               "ssh-keygen -R '"
                             + hostKey.host + "' -f " + knownHosts + " and connect again.",
                         m_target.display()};
        }
        case SSH_KNOWN_HOSTS_UNKNOWN:
        case SSH_KNOWN_HOSTS_NOT_FOUND: {
            if (!m_options.prompter) {
                decided("new, and nobody was asked to trust it: refused");
                return Error{ErrorCode::Credentials,
                             "the host key of " + hostKey.host + " (" + hostKey.type + " " + hostKey.fingerprint
                                 + ") is not in " + knownHosts + " and nobody was asked to trust it",
                             m_target.display()};
            }
            if (!m_options.prompter->trustNewHostKey(hostKey)) {
                decided("new, not trusted: refused");
                return Error{ErrorCode::Cancelled,
                             "the host key of " + hostKey.host + " (" + hostKey.type + " " + hostKey.fingerprint
                                 + ") was not trusted",
                             m_target.display()};
            }
            if (ssh_session_update_known_hosts(session) != SSH_OK) {
                return sessionError(ErrorCode::FileUnreadable, "could not add the host key to " + knownHosts);
            }
            decided("new, trusted and added to " + knownHosts);
            return Ok{};
        }
        case SSH_KNOWN_HOSTS_ERROR:
            break;
    }
    return sessionError(ErrorCode::FileUnreadable, "could not check the host key against " + knownHosts);
}

Status SshSession::authenticate()
{
    ssh_session session = m_handles->session.get();
    int none = ssh_userauth_none(session, nullptr);
    if (none == SSH_AUTH_SUCCESS) {
        return Ok{};
    }
    if (none == SSH_AUTH_ERROR) {
        return sessionError(ErrorCode::Network, "the connection failed during login");
    }
    int methods = ssh_userauth_list(session, nullptr);
    std::string offered = "the server offers: " + authMethodNames(methods);
    if ((methods & SSH_AUTH_METHOD_PUBLICKEY) == 0) {
        return Error{ErrorCode::Credentials,
                     "the server does not accept public keys for " + m_target.user + "; " + offered,
                     m_target.display()};
    }

    int result = SSH_AUTH_DENIED;
    std::string tried;
    if (!m_target.identityFile.empty()) {
        PassphraseRequest request{&m_options, &m_target.identityFile};
        ssh_key rawKey = nullptr;
        int imported =
            ssh_pki_import_privkey_file(m_target.identityFile.c_str(), nullptr, passphraseCallback, &request, &rawKey);
        KeyPtr key(rawKey);
        if (imported == SSH_EOF) {
            return Error{
                ErrorCode::Credentials, "the identity file does not exist or cannot be read", m_target.identityFile};
        }
        if (imported != SSH_OK) {
            return Error{ErrorCode::Credentials,
                         request.asked ? "wrong or no passphrase for the identity file"
                                       : "the identity file is not a private key libssh can read",
                         m_target.identityFile};
        }
        result = ssh_userauth_publickey(session, nullptr, key.get());
        tried = "the key " + m_target.identityFile;
    } else {
        result = ssh_userauth_publickey_auto(session, nullptr, nullptr);
        tried = std::getenv("SSH_AUTH_SOCK") != nullptr ? "the keys of ssh-agent and ~/.ssh"
                                                        : "the keys in ~/.ssh (no ssh-agent: SSH_AUTH_SOCK is not set)";
    }
    logInfo(LogCategory::Ssh, [&] {
        return "login to " + m_target.display() + " with " + tried + ": "
               + (result == SSH_AUTH_SUCCESS  ? "accepted"
                  : result == SSH_AUTH_DENIED ? "refused"
                                              : "failed");
    });
    switch (result) {
        case SSH_AUTH_SUCCESS:
            return Ok{};
        case SSH_AUTH_PARTIAL:
            return Error{ErrorCode::Credentials,
                         "the server wants a second authentication step after " + tried + ", which is not supported; "
                             + offered,
                         m_target.display()};
        case SSH_AUTH_DENIED:
            return Error{ErrorCode::Credentials,
                         "the server refused " + tried + " for user " + m_target.user + "; " + offered
                             + ". Is the public key in ~" + m_target.user + "/.ssh/authorized_keys?",
                         m_target.display()};
        default:
            return sessionError(ErrorCode::Network, "the connection failed during login with " + tried);
    }
}

Result<int> SshSession::run(const std::string& command, const SshOutput& onOutput, const SshRunOptions& options)
{
    ssh_session session = m_handles->session.get();
    const std::string where = m_target.display();
    if (isCancelled(options.cancel)) {
        return cancelledError(where);
    }
    auto lost = [&](const std::string& when) {
        return sessionError(ErrorCode::Network, "the connection to " + m_target.host + " was lost " + when);
    };
    if (session == nullptr || !ssh_is_connected(session)) {
        return lost("before the command started");
    }
    ChannelPtr channel(ssh_channel_new(session));
    if (!channel || ssh_channel_open_session(channel.get()) != SSH_OK) {
        return sessionError(ErrorCode::Network, "could not open a channel");
    }
    if (ssh_channel_request_exec(channel.get(), command.c_str()) != SSH_OK) {
        return sessionError(ErrorCode::Network, "the server refused to run the command");
    }
    const auto deadline = std::chrono::steady_clock::now() + options.timeout;
    char buffer[16384];
    auto stop = [&](ErrorCode code, const std::string& detail) {
        // Ask the server to end the command (OpenSSH >= 7.9 honours "signal"); closing the channel hangs
        // up its pipes either way.
        ssh_channel_request_send_signal(channel.get(), code == ErrorCode::Timeout ? "TERM" : "INT");
        channel.reset();
        return Error{code, detail, where};
    };
    std::size_t received = 0;
    for (;;) {
        if (isCancelled(options.cancel)) {
            return stop(ErrorCode::Cancelled, "cancelled while running the command");
        }
        if (received > options.maxOutputBytes) {
            return stop(ErrorCode::Network,
                        "the command sent more than " + std::to_string(options.maxOutputBytes >> 20)
                            + " MiB of output; it was stopped and its output dropped");
        }
        if (options.timeout.count() > 0 && std::chrono::steady_clock::now() >= deadline) {
            return stop(ErrorCode::Timeout,
                        "the command did not finish within " + std::to_string(options.timeout.count()) + " ms");
        }
        int got = ssh_channel_read_timeout(channel.get(), buffer, sizeof buffer, 0, kPollMs);
        if (got == SSH_ERROR) {
            return lost("while running the command");
        }
        received += got > 0 ? static_cast<std::size_t>(got) : 0;
        if (got > 0 && onOutput && received <= options.maxOutputBytes) {
            onOutput(SshStream::Stdout, std::string_view(buffer, static_cast<size_t>(got)));
        }
        int gotErr = ssh_channel_read_nonblocking(channel.get(), buffer, sizeof buffer, 1);
        if (gotErr == SSH_ERROR) {
            return lost("while running the command");
        }
        received += gotErr > 0 ? static_cast<std::size_t>(gotErr) : 0;
        if (gotErr > 0 && onOutput && received <= options.maxOutputBytes) {
            onOutput(SshStream::Stderr, std::string_view(buffer, static_cast<size_t>(gotErr)));
        }
        if (got > 0 || gotErr > 0) {
            continue;
        }
        if (ssh_channel_is_eof(channel.get())) {
            break;
        }
        if (!ssh_is_connected(session)) {
            return lost("while running the command");
        }
    }
    int status = ssh_channel_get_exit_status(channel.get());
    if (status < 0) {
        if (!ssh_is_connected(session)) {
            return lost("before the command's exit status came");
        }
        return Error{ErrorCode::Network, "the command ended without an exit status (killed by a signal?)", where};
    }
    return status;
}

Status
SshSession::upload(const std::string& localPath, const std::string& remotePath, int mode, const CancelToken* cancel)
{
    const std::string where = m_target.display() + ":" + remotePath;
    std::ifstream in(localPath, std::ios::binary);
    if (!in) {
        std::error_code ec;
        bool exists = std::filesystem::exists(localPath, ec);
        return Error{exists ? ErrorCode::FileUnreadable : ErrorCode::FileNotFound,
                     exists ? "cannot read the file" : "no such file",
                     localPath};
    }
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        return Error{ErrorCode::FileUnreadable, "reading the file failed", localPath};
    }
    if (isCancelled(cancel)) {
        return cancelledError(where);
    }
    ssh_session session = m_handles->session.get();
    SftpPtr sftp(sftp_new(session));
    if (!sftp || sftp_init(sftp.get()) != SSH_OK) {
        return sessionError(ErrorCode::Network, "the server has no SFTP subsystem or refused it");
    }
    auto sftpError = [&](const std::string& what) {
        int code = sftp_get_error(sftp.get());
        std::string reason;
        switch (code) {
            case SSH_FX_NO_SUCH_FILE:
            case SSH_FX_NO_SUCH_PATH:
                reason = "no such directory";
                break;
            case SSH_FX_PERMISSION_DENIED:
                reason = "permission denied";
                break;
            case SSH_FX_FAILURE:
                reason = "failure (disk full? a directory?)";
                break;
            default:
                reason = ssh_get_error(session);
        }
        return Error{ErrorCode::Network, what + ": " + reason, where};
    };
    SftpFilePtr file(
        sftp_open(sftp.get(), remotePath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, static_cast<mode_t>(mode)));
    if (!file) {
        return sftpError("cannot create the remote file");
    }
    constexpr size_t kChunk = 32768; // below the 34000-byte packets every SFTP server must accept
    for (size_t offset = 0; offset < content.size(); offset += kChunk) {
        if (isCancelled(cancel)) {
            return cancelledError(where);
        }
        size_t size = std::min(kChunk, content.size() - offset);
        if (sftp_write(file.get(), content.data() + offset, size) != static_cast<ssize_t>(size)) {
            return sftpError("writing the remote file failed");
        }
    }
    if (sftp_close(file.release()) != SSH_OK) {
        return sftpError("closing the remote file failed");
    }
    // The mode given to open is reduced by the server's umask; set it as asked.
    if (sftp_chmod(sftp.get(), remotePath.c_str(), static_cast<mode_t>(mode)) != SSH_OK) {
        return sftpError("setting the file mode failed");
    }
    sftp.reset();

    std::string out;
    std::string err;
    auto collect = [&](SshStream stream, std::string_view chunk) {
        (stream == SshStream::Stdout ? out : err).append(chunk);
    };
    SshRunOptions runOptions;
    runOptions.cancel = cancel;
    runOptions.timeout = std::chrono::minutes(2);
    auto status = run("sha256sum -- " + shellQuote(remotePath), collect, runOptions);
    if (!status) {
        return status.error();
    }
    if (*status != 0) {
        return Error{ErrorCode::Network,
                     "could not check the uploaded file: sha256sum exited with " + std::to_string(*status) + ": "
                         + err.substr(0, 300),
                     where};
    }
    // GNU sha256sum starts the line with '\' when the name has a backslash or newline in it.
    std::string_view line = out;
    if (!line.empty() && line.front() == '\\') {
        line.remove_prefix(1);
    }
    std::string remoteHash(line.substr(0, std::min<size_t>(64, line.size())));
    std::string localHash = sha256Hex(content);
    if (remoteHash != localHash) {
        return Error{ErrorCode::Network,
                     "the uploaded file differs from the local one: SHA-256 " + localHash + " here, "
                         + (remoteHash.empty() ? std::string("none") : remoteHash) + " on the server",
                     where};
    }
    return Ok{};
}

} // namespace gpuplan::core
