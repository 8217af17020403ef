// One SSH session over libssh: connect (through jump hosts), the host-key policy, authentication, commands with
// streamed output, SFTP upload and download. Longer than 600 lines on purpose: the RAII handles and the order they are
// freed in are shared by every step and are safest read together.

#include "gpuplan/deploy/SshSession.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <fcntl.h>
#include <libssh/libssh.h>
#include <libssh/sftp.h>
#include <openssl/evp.h>
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
    return Error{ErrorCode::Cancelled, Reason{"error.ssh.cancelled", {}}, where};
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
    add(SSH_AUTH_METHOD_INTERACTIVE, "keyboard-interactive"); // wire: the method names of RFC 4252 and 4256
    add(SSH_AUTH_METHOD_HOSTBASED, "hostbased");
    add(SSH_AUTH_METHOD_GSSAPI_MIC, "gssapi-with-mic"); // wire: RFC 4462
    return names;                                       // empty: none
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
/// names included, one a line; empty when it has none.
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
            keys += keys.empty() ? "" : "\n";
            keys += std::string(ssh_key_type_to_char(ssh_key_type(entry->publickey))) + " "
                    + fingerprintOf(entry->publickey);
        }
    }
    return keys;
}

struct AttributesFree
{
    void operator()(sftp_attributes attributes) const { sftp_attributes_free(attributes); }
};
using AttributesPtr = std::unique_ptr<std::remove_pointer_t<sftp_attributes>, AttributesFree>;

// Below the 34000-byte packets every SFTP server must accept (draft-ietf-secsh-filexfer-02, section 3).
constexpr size_t kSftpChunk = 32768;

/// An SFTP step that failed, why as a parameter: "sftp_status" for the statuses worded ("no_such_path",
/// "permission_denied", "failure"), else libssh's own text as "said".
Error sftpError(sftp_session sftp, ssh_session session, Reason what, const std::string& where)
{
    switch (sftp_get_error(sftp)) {
        case SSH_FX_NO_SUCH_FILE:
        case SSH_FX_NO_SUCH_PATH:
            what.params["sftp_status"] = "no_such_path";
            break;
        case SSH_FX_PERMISSION_DENIED:
            what.params["sftp_status"] = "permission_denied";
            break;
        case SSH_FX_FAILURE:
            what.params["sftp_status"] = "failure";
            break;
        default:
            what.params["said"] = ssh_get_error(session);
    }
    return Error{ErrorCode::Network, std::move(what), where};
}

/// SHA-256 over data given piece by piece (OpenSSL EVP).
class Sha256Stream
{
public:
    Sha256Stream()
        : m_context(EVP_MD_CTX_new())
    {
        if (m_context) {
            EVP_DigestInit_ex(m_context.get(), EVP_sha256(), nullptr);
        }
    }
    void update(const char* data, size_t size)
    {
        if (m_context) {
            EVP_DigestUpdate(m_context.get(), data, size);
        }
    }
    /// The digest in lower-case hex; empty when OpenSSL failed (which then never equals a real digest).
    std::string hex()
    {
        unsigned char digest[EVP_MAX_MD_SIZE];
        unsigned int length = 0;
        if (!m_context || EVP_DigestFinal_ex(m_context.get(), digest, &length) != 1) {
            return {};
        }
        return toHex(std::string_view(reinterpret_cast<const char*>(digest), length));
    }

private:
    struct Free
    {
        void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
    };
    std::unique_ptr<EVP_MD_CTX, Free> m_context;
};

/// The folder part of a remote path: "a/b" of "a/b/c", "/" of "/c", "" of "c".
std::string remoteParent(const std::string& path)
{
    size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) {
        return {};
    }
    while (slash > 0 && path[slash - 1] == '/') {
        --slash;
    }
    return slash == 0 ? std::string("/") : path.substr(0, slash);
}

/// How GNU sha256sum writes a file name in a line of its own: '\\' and newline escaped, and then the line starts
/// with a backslash (coreutils md5sum.c, filename_unescape and print_filename). `escaped` says whether it did.
std::string sha256sumName(const std::string& name, bool& escaped)
{
    escaped = name.find_first_of("\\\n") != std::string::npos;
    std::string text;
    for (char c : name) {
        if (c == '\\') {
            text += "\\\\";
        } else if (c == '\n') {
            text += "\\n";
        } else {
            text += c;
        }
    }
    // A name "-" would make sha256sum -c read its standard input.
    return text == "-" ? "./-" : text;
}

/// The SHA-256 that `sha256sum` on the remote prints for `remotePath`. Errors: those of run(), Network `failedKey`
/// (its params "exit_status", "said") when sha256sum failed (missing, unreadable file).
Result<std::string> remoteSha256(SshSession& session,
                                 const std::string& remotePath,
                                 const CancelToken* cancel,
                                 const std::string& where,
                                 const char* failedKey)
{
    std::string out;
    std::string err;
    auto collect = [&](SshStream stream, std::string_view chunk) {
        (stream == SshStream::Stdout ? out : err).append(chunk);
    };
    SshRunOptions runOptions;
    runOptions.cancel = cancel;
    runOptions.timeout = std::chrono::minutes(10); // reading a file of several GB
    auto status = session.run("sha256sum -- " + shellQuote(remotePath), collect, runOptions);
    if (!status) {
        return status.error();
    }
    if (*status != 0) {
        return Error{ErrorCode::Network,
                     Reason{failedKey, {{"exit_status", std::to_string(*status)}, {"said", err.substr(0, 300)}}},
                     where};
    }
    // GNU sha256sum starts the line with '\\' when the name has a backslash or newline in it.
    std::string_view line = out;
    if (!line.empty() && line.front() == '\\') {
        line.remove_prefix(1);
    }
    return std::string(line.substr(0, std::min<size_t>(64, line.size())));
}

/// The SHA-256 (hex) of a local file; empty when it cannot be read.
std::string localFileSha256(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return {};
    }
    Sha256Stream hash;
    std::vector<char> buffer(1 << 16);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        hash.update(buffer.data(), static_cast<size_t>(in.gcount()));
    }
    return in.bad() ? std::string() : hash.hex();
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
    // Each reason is worded with what is expected: USER@HOST or USER@HOST:PORT.
    auto invalid = [&](Reason why) { return Error{ErrorCode::InvalidArgument, std::move(why), std::string(text)}; };
    size_t at = text.rfind('@');
    if (at == std::string_view::npos || at == 0) {
        return invalid(Reason{"error.ssh.target_no_user", {}});
    }
    SshTarget target;
    target.user = std::string(text.substr(0, at));
    std::string_view rest = text.substr(at + 1);
    std::string_view portText;
    if (!rest.empty() && rest.front() == '[') {
        size_t close = rest.find(']');
        if (close == std::string_view::npos) {
            return invalid(Reason{"error.ssh.target_unclosed_bracket", {}});
        }
        target.host = std::string(rest.substr(1, close - 1));
        rest = rest.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':') {
                return invalid(Reason{"error.ssh.target_text_after_bracket", {}});
            }
            portText = rest.substr(1);
            if (portText.empty()) {
                return invalid(Reason{"error.ssh.target_empty_port", {}});
            }
        }
    } else {
        size_t colon = rest.find(':');
        target.host = std::string(rest.substr(0, colon));
        if (colon != std::string_view::npos) {
            portText = rest.substr(colon + 1);
            if (portText.empty()) {
                return invalid(Reason{"error.ssh.target_empty_port", {}});
            }
        }
    }
    if (target.host.empty()) {
        return invalid(Reason{"error.ssh.target_no_host", {}});
    }
    for (char c : target.host) {
        if (c == ' ' || c == '/' || c == '@' || static_cast<unsigned char>(c) < 0x20) {
            return invalid(Reason{"error.ssh.target_bad_host_character", {{"character", std::string(1, c)}}});
        }
    }
    if (!portText.empty()) {
        int port = 0;
        auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
        if (ec != std::errc() || end != portText.data() + portText.size() || port < 1 || port > 65535) {
            return invalid(Reason{"error.ssh.target_bad_port", {{"port", std::string(portText)}}});
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

ssh_session_struct* SshSession::nativeSession() const
{
    return m_handles->session.get();
}

Error SshSession::sessionError(ErrorCode code, Reason reason) const
{
    const char* libsshText = m_handles->session ? ssh_get_error(m_handles->session.get()) : "";
    if (libsshText != nullptr && *libsshText != '\0') {
        reason.params["said"] = libsshText;
    }
    return Error{code, std::move(reason), m_target.display()};
}

Result<std::unique_ptr<SshSession>>
SshSession::connect(const SshTarget& target, const SshOptions& options, const CancelToken* cancel)
{
    if (target.user.empty() || target.host.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.ssh.target_incomplete", {}}, target.display()};
    }
    if (target.port < 1 || target.port > 65535) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.ssh.port_out_of_range", {}}, target.display()};
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
        Error error = jump.error().within(Reason{"error.ssh.via_jump_host", {{"host", hop.display()}}});
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
                     Reason{"error.ssh.jump_forward_refused",
                            {{"jump", m_jump->m_target.display()},
                             {"host", m_target.host},
                             {"port", std::to_string(m_target.port)},
                             {"said", ssh_get_error(jumpSession)}}},
                     m_target.display()};
    }
    int fds[2] = {-1, -1};
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
        return Error{ErrorCode::Network,
                     Reason{"error.ssh.socketpair_failed", {{"said", std::strerror(errno)}}},
                     m_target.display()};
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
        return Error{ErrorCode::Network, Reason{"error.ssh.no_session", {}}, m_target.display()};
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
        return sessionError(ErrorCode::InvalidArgument, Reason{"error.ssh.option_refused", {}});
    }
    if (innerFd >= 0) {
        // libssh owns the fd from here and closes it with the session.
        socket_t fd = innerFd;
        ssh_options_set(session, SSH_OPTIONS_FD, &fd);
    }
    if (ssh_connect(session) != SSH_OK) {
        std::string text = ssh_get_error(session);
        bool timedOut = text.find("imeout") != std::string::npos
                        || text.find("timed out") != std::string::npos; // wire: libssh's own words
        logInfo(LogCategory::Ssh, [&] { return "could not connect to " + m_target.display() + ": " + text; });
        return sessionError(
            timedOut ? ErrorCode::Timeout : ErrorCode::Network,
            Reason{"error.ssh.connect_failed", {{"host", m_target.host}, {"port", std::to_string(m_target.port)}}});
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
        return sessionError(ErrorCode::Network, Reason{"error.ssh.no_host_key", {}});
    }
    KeyPtr key(rawKey);
    HostKey hostKey{knownHostsName(m_target), ssh_key_type_to_char(ssh_key_type(key.get())), fingerprintOf(key.get())};
    std::string host = m_target.host;
    std::string knownHosts = m_options.knownHostsFile.empty() ? defaultKnownHostsFile() : m_options.knownHostsFile;

    // For the log: "[127.0.0.1]:2222 (ssh-ed25519 SHA256:...)".
    const std::string seen = hostKey.host + " (" + hostKey.type + " " + hostKey.fingerprint + ")";
    switch (ssh_session_is_known_server(session)) {
        case SSH_KNOWN_HOSTS_OK:
            logInfo(LogCategory::Ssh, [&] { return "host key of " + seen + ": known in " + knownHosts; });
            return Ok{};
        case SSH_KNOWN_HOSTS_CHANGED:
        case SSH_KNOWN_HOSTS_OTHER: {
            // OTHER: known_hosts has keys of other types for this host but not this one. OpenSSH asks then; we
            // refuse, since a server that still has its old key would have offered it (libssh prefers the
            // known types).
            std::string old = knownKeysOf(hostKey.host, knownHosts);
            logInfo(LogCategory::Ssh, [&] {
                return "host key of " + seen + ": CHANGED (" + knownHosts + " has "
                       + (old.empty() ? std::string("another key") : old) + "): refused";
            });
            // "old_keys": what known_hosts has, one "type fingerprint" a line; empty when it names none.
            return Error{ErrorCode::HostKeyChanged,
                         Reason{"error.ssh.host_key_changed",
                                {{"host", hostKey.host},
                                 {"known_hosts", knownHosts},
                                 {"old_keys", old},
                                 {"type", hostKey.type},
                                 {"fingerprint", hostKey.fingerprint}}},
                         m_target.display()};
        }
        case SSH_KNOWN_HOSTS_UNKNOWN:
        case SSH_KNOWN_HOSTS_NOT_FOUND: {
            if (!m_options.prompter) {
                logInfo(LogCategory::Ssh,
                        [&] { return "host key of " + seen + ": new, and nobody was asked to trust it: refused"; });
                return Error{ErrorCode::Credentials,
                             Reason{"error.ssh.host_key_unknown",
                                    {{"host", hostKey.host},
                                     {"type", hostKey.type},
                                     {"fingerprint", hostKey.fingerprint},
                                     {"known_hosts", knownHosts}}},
                             m_target.display()};
            }
            if (!m_options.prompter->trustNewHostKey(hostKey)) {
                logInfo(LogCategory::Ssh, [&] { return "host key of " + seen + ": new, not trusted: refused"; });
                return Error{
                    ErrorCode::Cancelled,
                    Reason{"error.ssh.host_key_not_trusted",
                           {{"host", hostKey.host}, {"type", hostKey.type}, {"fingerprint", hostKey.fingerprint}}},
                    m_target.display()};
            }
            if (ssh_session_update_known_hosts(session) != SSH_OK) {
                return sessionError(ErrorCode::FileUnreadable,
                                    Reason{"error.ssh.known_hosts_not_updated", {{"known_hosts", knownHosts}}});
            }
            logInfo(LogCategory::Ssh,
                    [&] { return "host key of " + seen + ": new, trusted and added to " + knownHosts; });
            return Ok{};
        }
        case SSH_KNOWN_HOSTS_ERROR:
            break;
    }
    return sessionError(ErrorCode::FileUnreadable,
                        Reason{"error.ssh.known_hosts_not_checked", {{"known_hosts", knownHosts}}});
}

Status SshSession::authenticate()
{
    ssh_session session = m_handles->session.get();
    int none = ssh_userauth_none(session, nullptr);
    if (none == SSH_AUTH_SUCCESS) {
        return Ok{};
    }
    if (none == SSH_AUTH_ERROR) {
        return sessionError(ErrorCode::Network, Reason{"error.ssh.login_connection_failed", {}});
    }
    int methods = ssh_userauth_list(session, nullptr);
    // "methods": what the server offers, its own names ("publickey, password").
    const std::string offered = authMethodNames(methods);
    if ((methods & SSH_AUTH_METHOD_PUBLICKEY) == 0) {
        return Error{ErrorCode::Credentials,
                     Reason{"error.ssh.no_publickey_method", {{"user", m_target.user}, {"methods", offered}}},
                     m_target.display()};
    }

    int result = SSH_AUTH_DENIED;
    bool agent = false;
    if (!m_target.identityFile.empty()) {
        PassphraseRequest request{&m_options, &m_target.identityFile};
        ssh_key rawKey = nullptr;
        int imported =
            ssh_pki_import_privkey_file(m_target.identityFile.c_str(), nullptr, passphraseCallback, &request, &rawKey);
        KeyPtr key(rawKey);
        if (imported == SSH_EOF) {
            return Error{
                ErrorCode::Credentials, Reason{"error.ssh.identity_file_unreadable", {}}, m_target.identityFile};
        }
        if (imported != SSH_OK) {
            return Error{ErrorCode::Credentials,
                         request.asked ? Reason{"error.ssh.identity_file_passphrase", {}}
                                       : Reason{"error.ssh.identity_file_not_a_key", {}},
                         m_target.identityFile};
        }
        result = ssh_userauth_publickey(session, nullptr, key.get());
    } else {
        result = ssh_userauth_publickey_auto(session, nullptr, nullptr);
        agent = std::getenv("SSH_AUTH_SOCK") != nullptr;
    }
    // What was tried, as parameters: "identity_file" (the key file), else "agent" ("1": ssh-agent's keys and
    // those in ~/.ssh, "0": those in ~/.ssh, SSH_AUTH_SOCK being unset).
    auto withTried = [&](Reason reason) {
        if (!m_target.identityFile.empty()) {
            reason.params["identity_file"] = m_target.identityFile;
        } else {
            reason.params["agent"] = agent ? "1" : "0";
        }
        return reason;
    };
    logInfo(LogCategory::Ssh, [&] {
        const std::string tried = !m_target.identityFile.empty() ? "the key " + m_target.identityFile
                                  : agent                        ? "the keys of ssh-agent and ~/.ssh"
                                          : "the keys in ~/.ssh (no ssh-agent: SSH_AUTH_SOCK is not set)";
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
                         withTried(Reason{"error.ssh.second_factor_unsupported", {{"methods", offered}}}),
                         m_target.display()};
        case SSH_AUTH_DENIED:
            return Error{ErrorCode::Credentials,
                         withTried(Reason{"error.ssh.key_refused", {{"user", m_target.user}, {"methods", offered}}}),
                         m_target.display()};
        default:
            return sessionError(ErrorCode::Network, withTried(Reason{"error.ssh.login_failed", {}}));
    }
}

Result<int> SshSession::run(const std::string& command, const SshOutput& onOutput, const SshRunOptions& options)
{
    ssh_session session = m_handles->session.get();
    const std::string where = m_target.display();
    if (isCancelled(options.cancel)) {
        return cancelledError(where);
    }
    auto lost = [&](Reason when) {
        when.params["host"] = m_target.host;
        return sessionError(ErrorCode::Network, std::move(when));
    };
    if (session == nullptr || !ssh_is_connected(session)) {
        return lost(Reason{"error.ssh.lost_before_command", {}});
    }
    ChannelPtr channel(ssh_channel_new(session));
    if (!channel || ssh_channel_open_session(channel.get()) != SSH_OK) {
        return sessionError(ErrorCode::Network, Reason{"error.ssh.no_channel", {}});
    }
    if (ssh_channel_request_exec(channel.get(), command.c_str()) != SSH_OK) {
        return sessionError(ErrorCode::Network, Reason{"error.ssh.exec_refused", {}});
    }
    const auto deadline = std::chrono::steady_clock::now() + options.timeout;
    char buffer[16384];
    auto stop = [&](ErrorCode code, Reason reason) {
        // Ask the server to end the command (OpenSSH >= 7.9 honours "signal"); closing the channel hangs
        // up its pipes either way.
        ssh_channel_request_send_signal(channel.get(), code == ErrorCode::Timeout ? "TERM" : "INT");
        channel.reset();
        return Error{code, std::move(reason), where};
    };
    std::size_t received = 0;
    for (;;) {
        if (isCancelled(options.cancel)) {
            return stop(ErrorCode::Cancelled, Reason{"error.ssh.cancelled_during_command", {}});
        }
        if (received > options.maxOutputBytes) {
            return stop(
                ErrorCode::Network,
                Reason{"error.ssh.output_too_large", {{"limit_mib", std::to_string(options.maxOutputBytes >> 20)}}});
        }
        if (options.timeout.count() > 0 && std::chrono::steady_clock::now() >= deadline) {
            return stop(ErrorCode::Timeout,
                        Reason{"error.ssh.command_timeout", {{"timeout_ms", std::to_string(options.timeout.count())}}});
        }
        int got = ssh_channel_read_timeout(channel.get(), buffer, sizeof buffer, 0, kPollMs);
        if (got == SSH_ERROR) {
            return lost(Reason{"error.ssh.lost_during_command", {}});
        }
        received += got > 0 ? static_cast<std::size_t>(got) : 0;
        if (got > 0 && onOutput && received <= options.maxOutputBytes) {
            onOutput(SshStream::Stdout, std::string_view(buffer, static_cast<size_t>(got)));
        }
        int gotErr = ssh_channel_read_nonblocking(channel.get(), buffer, sizeof buffer, 1);
        if (gotErr == SSH_ERROR) {
            return lost(Reason{"error.ssh.lost_during_command", {}});
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
            return lost(Reason{"error.ssh.lost_during_command", {}});
        }
    }
    int status = ssh_channel_get_exit_status(channel.get());
    if (status < 0) {
        if (!ssh_is_connected(session)) {
            return lost(Reason{"error.ssh.lost_before_exit_status", {}});
        }
        return Error{ErrorCode::Network, Reason{"error.ssh.no_exit_status", {}}, where};
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
                     exists ? Reason{"error.ssh.local_file_unreadable", {}}
                            : Reason{"error.ssh.local_file_missing", {}},
                     localPath};
    }
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        return Error{ErrorCode::FileUnreadable, Reason{"error.ssh.local_file_read_failed", {}}, localPath};
    }
    if (isCancelled(cancel)) {
        return cancelledError(where);
    }
    ssh_session session = m_handles->session.get();
    SftpPtr sftp(sftp_new(session));
    if (!sftp || sftp_init(sftp.get()) != SSH_OK) {
        return sessionError(ErrorCode::Network, Reason{"error.ssh.no_sftp", {}});
    }
    auto sftpFailed = [&](Reason what) { return sftpError(sftp.get(), session, std::move(what), where); };
    SftpFilePtr file(
        sftp_open(sftp.get(), remotePath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, static_cast<mode_t>(mode)));
    if (!file) {
        return sftpFailed(Reason{"error.ssh.remote_create_failed", {}});
    }
    for (size_t offset = 0; offset < content.size(); offset += kSftpChunk) {
        if (isCancelled(cancel)) {
            return cancelledError(where);
        }
        size_t size = std::min(kSftpChunk, content.size() - offset);
        if (sftp_write(file.get(), content.data() + offset, size) != static_cast<ssize_t>(size)) {
            return sftpFailed(Reason{"error.ssh.remote_write_failed", {}});
        }
    }
    if (sftp_close(file.release()) != SSH_OK) {
        return sftpFailed(Reason{"error.ssh.remote_close_failed", {}});
    }
    // The mode given to open is reduced by the server's umask; set it as asked.
    if (sftp_chmod(sftp.get(), remotePath.c_str(), static_cast<mode_t>(mode)) != SSH_OK) {
        return sftpFailed(Reason{"error.ssh.remote_chmod_failed", {}});
    }
    sftp.reset();

    auto remote = remoteSha256(*this, remotePath, cancel, where, "error.ssh.checksum_failed");
    if (!remote) {
        return remote.error();
    }
    const std::string& remoteHash = *remote;
    std::string localHash = sha256Hex(content);
    if (remoteHash != localHash) {
        // "remote_sha256" is empty when sha256sum printed none.
        return Error{
            ErrorCode::Network,
            Reason{"error.ssh.checksum_mismatch", {{"local_sha256", localHash}, {"remote_sha256", remoteHash}}},
            where};
    }
    return Ok{};
}

Status SshSession::uploadFiles(const std::vector<FileTransfer>& files,
                               const TransferProgress& onProgress,
                               const CancelToken* cancel)
{
    namespace fs = std::filesystem;
    const std::string display = m_target.display();
    // Every name and local file is looked at before anything is sent.
    std::uintmax_t total = 0;
    for (const FileTransfer& transfer : files) {
        const std::string& remote = transfer.remotePath;
        // "problem": "empty", "folder" (the path ends with '/'), "control" (a carriage return or NUL, which
        // sha256sum's list of names cannot hold).
        const char* problem = remote.empty()                                                      ? "empty"
                              : remote.back() == '/'                                              ? "folder"
                              : remote.find_first_of(std::string("\r\0", 2)) != std::string::npos ? "control"
                                                                                                  : nullptr;
        if (problem != nullptr) {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.ssh.remote_path_unusable", {{"path", remote}, {"problem", problem}}},
                         display + ":" + remote};
        }
        std::error_code ec;
        fs::file_status status = fs::status(transfer.localPath, ec);
        if (!fs::exists(status)) {
            return Error{ErrorCode::FileNotFound, Reason{"error.ssh.local_file_missing", {}}, transfer.localPath};
        }
        std::uintmax_t size = fs::is_regular_file(status) ? fs::file_size(transfer.localPath, ec) : 0;
        if (!fs::is_regular_file(status) || ec) {
            return Error{ErrorCode::FileUnreadable, Reason{"error.ssh.local_file_unreadable", {}}, transfer.localPath};
        }
        total += size;
    }
    if (files.empty()) {
        return Ok{};
    }
    if (isCancelled(cancel)) {
        return cancelledError(display);
    }
    ssh_session session = m_handles->session.get();
    SftpPtr sftp(sftp_new(session));
    if (!sftp || sftp_init(sftp.get()) != SSH_OK) {
        return sessionError(ErrorCode::Network, Reason{"error.ssh.no_sftp", {}});
    }

    // mkdir -p over SFTP, remembering the folders known to exist so that a tree of small files costs one stat per
    // folder.
    std::set<std::string> knownFolders;
    auto makeFolders = [&](const std::string& folder) -> Status {
        std::vector<std::string> missing;
        std::string dir = folder;
        while (!dir.empty() && dir != "/" && knownFolders.count(dir) == 0) {
            AttributesPtr attributes(sftp_stat(sftp.get(), dir.c_str()));
            if (attributes) {
                if (attributes->type != SSH_FILEXFER_TYPE_DIRECTORY) {
                    return Error{ErrorCode::Network,
                                 Reason{"error.ssh.remote_not_a_folder", {{"path", dir}}},
                                 display + ":" + dir};
                }
                break;
            }
            int why = sftp_get_error(sftp.get());
            if (why != SSH_FX_NO_SUCH_FILE && why != SSH_FX_NO_SUCH_PATH) {
                return sftpError(
                    sftp.get(), session, Reason{"error.ssh.remote_mkdir_failed", {{"path", dir}}}, display + ":" + dir);
            }
            missing.push_back(dir);
            dir = remoteParent(dir);
        }
        for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
            if (sftp_mkdir(sftp.get(), it->c_str(), 0755) != SSH_OK) {
                Error failed = sftpError(
                    sftp.get(), session, Reason{"error.ssh.remote_mkdir_failed", {{"path", *it}}}, display + ":" + *it);
                AttributesPtr made(sftp_stat(sftp.get(), it->c_str())); // someone else may have made it meanwhile
                if (!made || made->type != SSH_FILEXFER_TYPE_DIRECTORY) {
                    return failed;
                }
            }
        }
        for (std::string known = folder; !known.empty() && known != "/" && knownFolders.insert(known).second;
             known = remoteParent(known)) { }
        return Ok{};
    };

    std::uintmax_t done = 0;
    if (onProgress) {
        onProgress(done, total);
    }
    std::string manifest; // "HASH  NAME" lines for sha256sum -c
    std::vector<char> buffer(kSftpChunk);
    for (const FileTransfer& transfer : files) {
        const std::string where = display + ":" + transfer.remotePath;
        auto sftpFailed = [&](Reason what) { return sftpError(sftp.get(), session, std::move(what), where); };
        Status folders = makeFolders(remoteParent(transfer.remotePath));
        if (!folders) {
            return folders;
        }
        std::ifstream in(transfer.localPath, std::ios::binary);
        if (!in) {
            return Error{ErrorCode::FileUnreadable, Reason{"error.ssh.local_file_unreadable", {}}, transfer.localPath};
        }
        const auto mode = static_cast<mode_t>(transfer.mode);
        SftpFilePtr file(sftp_open(sftp.get(), transfer.remotePath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, mode));
        if (!file) {
            return sftpFailed(Reason{"error.ssh.remote_create_failed", {}});
        }
        Sha256Stream hash;
        for (;;) {
            if (isCancelled(cancel)) {
                return cancelledError(where);
            }
            in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
            const auto got = static_cast<size_t>(in.gcount());
            if (in.bad()) {
                return Error{
                    ErrorCode::FileUnreadable, Reason{"error.ssh.local_file_read_failed", {}}, transfer.localPath};
            }
            if (got == 0) {
                break;
            }
            hash.update(buffer.data(), got);
            if (sftp_write(file.get(), buffer.data(), got) != static_cast<ssize_t>(got)) {
                return sftpFailed(Reason{"error.ssh.remote_write_failed", {}});
            }
            done += got;
            if (onProgress) {
                onProgress(done, std::max(done, total));
            }
        }
        if (sftp_close(file.release()) != SSH_OK) {
            return sftpFailed(Reason{"error.ssh.remote_close_failed", {}});
        }
        // The mode given to open is reduced by the server's umask; set it as asked.
        if (sftp_chmod(sftp.get(), transfer.remotePath.c_str(), mode) != SSH_OK) {
            return sftpFailed(Reason{"error.ssh.remote_chmod_failed", {}});
        }
        bool escaped = false;
        std::string name = sha256sumName(transfer.remotePath, escaped);
        manifest += (escaped ? "\\" : "") + hash.hex() + "  " + name + "\n";
    }

    // The list goes over SFTP too: a command line holds at most 128 KiB (MAX_ARG_STRLEN), far fewer names than a
    // project's files. Relative names resolve in the home folder both in SFTP and in the command.
    const std::string listPath = ".gpuplan-upload-" + toHex(randomBytes(8)) + ".sha256";
    {
        const std::string where = display + ":" + listPath;
        auto sftpFailed = [&](Reason what) { return sftpError(sftp.get(), session, std::move(what), where); };
        SftpFilePtr file(sftp_open(sftp.get(), listPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600));
        if (!file) {
            return sftpFailed(Reason{"error.ssh.remote_create_failed", {}});
        }
        for (size_t offset = 0; offset < manifest.size(); offset += kSftpChunk) {
            size_t size = std::min(kSftpChunk, manifest.size() - offset);
            if (sftp_write(file.get(), manifest.data() + offset, size) != static_cast<ssize_t>(size)) {
                return sftpFailed(Reason{"error.ssh.remote_write_failed", {}});
            }
        }
        if (sftp_close(file.release()) != SSH_OK) {
            return sftpFailed(Reason{"error.ssh.remote_close_failed", {}});
        }
    }
    sftp.reset();

    std::string out;
    std::string err;
    auto collect = [&](SshStream stream, std::string_view chunk) {
        (stream == SshStream::Stdout ? out : err).append(chunk);
    };
    SshRunOptions runOptions;
    runOptions.cancel = cancel;
    runOptions.timeout = std::chrono::minutes(10);
    // LC_ALL=C: sha256sum translates "FAILED", which is looked for below.
    const std::string list = shellQuote(listPath);
    auto status = run("LC_ALL=C sha256sum --quiet --strict -c -- " + list + "; s=$?; rm -f -- " + list + "; exit $s",
                      collect,
                      runOptions);
    if (!status) {
        return status.error();
    }
    if (*status == 0) {
        return Ok{};
    }
    // --quiet prints only the files that differ: "NAME: FAILED" or "NAME: FAILED open or read", NAME escaped as in
    // the list.
    std::set<std::string> failed;
    std::string_view rest = out;
    while (!rest.empty()) {
        size_t end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        size_t mark = line.rfind(": FAILED"); // wire: GNU sha256sum's output in the C locale
        if (mark != std::string_view::npos) {
            failed.insert(std::string(line.substr(0, mark)));
        }
    }
    for (const FileTransfer& transfer : files) {
        bool escaped = false;
        std::string name = sha256sumName(transfer.remotePath, escaped);
        if (failed.count((escaped ? "\\" : "") + name) != 0) {
            // "count": how many files differ in all.
            return Error{ErrorCode::Network,
                         Reason{"error.ssh.uploaded_file_differs",
                                {{"path", transfer.remotePath}, {"count", std::to_string(failed.size())}}},
                         display + ":" + transfer.remotePath};
        }
    }
    return Error{
        ErrorCode::Network,
        Reason{"error.ssh.checksum_failed", {{"exit_status", std::to_string(*status)}, {"said", err.substr(0, 300)}}},
        display};
}

Result<std::string> SshSession::download(const std::string& remotePath,
                                         const std::string& localPath,
                                         const TransferProgress& onProgress,
                                         const CancelToken* cancel)
{
    namespace fs = std::filesystem;
    const std::string where = m_target.display() + ":" + remotePath;
    const std::string partPath = localPath + ".part";
    std::error_code ec;
    const fs::path folder = fs::path(localPath).parent_path();
    if (!folder.empty()) {
        fs::create_directories(folder, ec);
        if (ec) {
            return Error{ErrorCode::FileUnreadable,
                         Reason{"error.ssh.local_folder_not_writable", {{"said", ec.message()}}},
                         folder.string()};
        }
    }
    if (isCancelled(cancel)) {
        return cancelledError(where);
    }
    ssh_session session = m_handles->session.get();
    SftpPtr sftp(sftp_new(session));
    if (!sftp || sftp_init(sftp.get()) != SSH_OK) {
        return sessionError(ErrorCode::Network, Reason{"error.ssh.no_sftp", {}});
    }
    auto sftpFailed = [&](Reason what) { return sftpError(sftp.get(), session, std::move(what), where); };
    auto missing = [&] {
        return Error{ErrorCode::NotFound, Reason{"error.ssh.remote_file_missing", {{"path", remotePath}}}, where};
    };
    auto isMissing = [&] {
        int why = sftp_get_error(sftp.get());
        return why == SSH_FX_NO_SUCH_FILE || why == SSH_FX_NO_SUCH_PATH;
    };
    AttributesPtr attributes(sftp_stat(sftp.get(), remotePath.c_str()));
    if (!attributes) {
        return isMissing() ? missing() : sftpFailed(Reason{"error.ssh.remote_open_failed", {}});
    }
    if (attributes->type == SSH_FILEXFER_TYPE_DIRECTORY) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.ssh.remote_not_a_file", {{"path", remotePath}}}, where};
    }
    const std::uintmax_t size = attributes->size;

    // A .part longer than the remote file is not a beginning of it: start over.
    std::uintmax_t have = fs::exists(partPath, ec) ? fs::file_size(partPath, ec) : 0;
    if (ec || have > size) {
        fs::remove(partPath, ec);
        have = 0;
    }
    SftpFilePtr file(sftp_open(sftp.get(), remotePath.c_str(), O_RDONLY, 0));
    if (!file) {
        return isMissing() ? missing() : sftpFailed(Reason{"error.ssh.remote_open_failed", {}});
    }
    if (have > 0 && sftp_seek64(file.get(), have) != 0) {
        return sftpFailed(Reason{"error.ssh.remote_read_failed", {}});
    }
    int fd = ::open(partPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        return Error{ErrorCode::FileUnreadable,
                     Reason{"error.ssh.local_file_unwritable", {{"said", std::strerror(errno)}}},
                     partPath};
    }
    struct FdClose
    {
        int fd;
        ~FdClose() { ::close(fd); }
    } closeLater{fd};

    std::uintmax_t done = have;
    if (onProgress) {
        onProgress(done, std::max(done, size));
    }
    // Each read waits for its answer: 64 KiB a round trip. Pipelining (sftp_async_read_begin) would be faster on
    // long links.
    std::vector<char> buffer(2 * kSftpChunk);
    for (;;) {
        if (isCancelled(cancel)) {
            return cancelledError(where); // the .part stays for the next try
        }
        ssize_t got = sftp_read(file.get(), buffer.data(), buffer.size());
        if (got < 0) {
            return sftpFailed(Reason{"error.ssh.remote_read_failed", {}});
        }
        if (got == 0) {
            break;
        }
        if (!writeAll(fd, buffer.data(), static_cast<size_t>(got))) {
            return Error{ErrorCode::FileUnreadable,
                         Reason{"error.ssh.local_write_failed", {{"said", std::strerror(errno)}}},
                         partPath};
        }
        done += static_cast<std::uintmax_t>(got);
        if (onProgress) {
            onProgress(done, std::max(done, size));
        }
    }
    file.reset();
    sftp.reset();

    auto remoteHash = remoteSha256(*this, remotePath, cancel, where, "error.ssh.download_checksum_failed");
    if (!remoteHash) {
        return remoteHash.error();
    }
    const std::string localHash = localFileSha256(partPath);
    if (localHash.empty()) {
        return Error{ErrorCode::FileUnreadable, Reason{"error.ssh.local_file_read_failed", {}}, partPath};
    }
    if (localHash != *remoteHash) {
        fs::remove(partPath, ec); // the next try starts over
        // "remote_sha256" is empty when sha256sum printed none.
        return Error{ErrorCode::Network,
                     Reason{"error.ssh.download_checksum_mismatch",
                            {{"path", remotePath}, {"local_sha256", localHash}, {"remote_sha256", *remoteHash}}},
                     where};
    }
    fs::rename(partPath, localPath, ec);
    if (ec) {
        return Error{
            ErrorCode::FileUnreadable, Reason{"error.ssh.local_rename_failed", {{"said", ec.message()}}}, localPath};
    }
    return localHash;
}

} // namespace gpuplan::core
