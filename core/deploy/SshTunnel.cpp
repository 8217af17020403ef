// A local port forward (ssh -L) over libssh: one thread polls the listening socket, the SSH connection and every
// forwarded pair. libssh gives a channel no file descriptor of its own, so the thread polls the session's socket
// with a short timeout and reads each channel without blocking.

#include "gpuplan/deploy/SshTunnel.h"

#include <cerrno>
#include <cstring>
#include <mutex>
#include <vector>

#include <arpa/inet.h>
#include <libssh/libssh.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gpuplan/core/Log.h"

namespace gpuplan::core {

namespace {

// How long one poll waits before the stop flag and the channels are looked at again.
constexpr int kPollMs = 20;
// Channel bytes held for a local client that reads slowly; past this the channel is not read and the SSH window
// holds the remote side back.
constexpr size_t kMaxPending = 256 * 1024;

/// One accepted connection and the channel it is forwarded over.
struct Pair
{
    int fd = -1;
    ssh_channel channel = nullptr;
    std::string pending;    // from the channel, not yet written to the local socket
    bool localEof = false;  // the local client will send no more; EOF was sent on the channel
    bool remoteEof = false; // the remote side will send no more: close once `pending` is written
    bool broken = false;    // close now

    void close()
    {
        if (channel != nullptr) {
            if (ssh_channel_is_open(channel)) {
                ssh_channel_close(channel);
            }
            ssh_channel_free(channel);
            channel = nullptr;
        }
        if (fd >= 0) {
            ::close(fd);
            fd = -1;
        }
    }
};

/// Writes what it can of `pending` to the non-blocking socket; false when the socket is gone.
bool flush(Pair& pair)
{
    while (!pair.pending.empty()) {
        ssize_t sent = ::send(pair.fd, pair.pending.data(), pair.pending.size(), MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) {
            continue;
        }
        if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return true;
        }
        if (sent <= 0) {
            return false;
        }
        pair.pending.erase(0, static_cast<size_t>(sent));
    }
    return true;
}

} // namespace

struct SshTunnel::State
{
    std::vector<Pair> pairs; // only the tunnel's thread touches them
    mutable std::mutex mutex;
    std::optional<Error> lastRefusal; // guarded by mutex
};

Result<std::unique_ptr<SshTunnel>>
SshTunnel::open(std::unique_ptr<SshSession> session, std::string remoteHost, int remotePort, int localPort)
{
    const std::string where = "127.0.0.1:" + std::to_string(localPort);
    auto listenError = [&](int error) {
        return Error{ErrorCode::Network,
                     Reason{"error.ssh.tunnel_listen_failed",
                            {{"port", std::to_string(localPort)}, {"said", std::strerror(error)}}},
                     where};
    };
    if (!session || localPort < 0 || localPort > 65535) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.ssh.tunnel_listen_failed", {{"port", std::to_string(localPort)}}},
                     where};
    }
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return listenError(errno);
    }
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK); // never other machines: the forward carries no login
    address.sin_port = htons(static_cast<uint16_t>(localPort));
    socklen_t length = sizeof address;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 16) != 0
        || ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        int error = errno;
        ::close(fd);
        return listenError(error);
    }

    std::unique_ptr<SshTunnel> tunnel(new SshTunnel());
    tunnel->m_session = std::move(session);
    tunnel->m_state = std::make_unique<State>();
    tunnel->m_remoteHost = std::move(remoteHost);
    tunnel->m_remotePort = remotePort;
    tunnel->m_localPort = ntohs(address.sin_port);
    tunnel->m_listenFd = fd;
    logInfo(LogCategory::Ssh, [&] {
        return "forwarding 127.0.0.1:" + std::to_string(tunnel->m_localPort) + " to " + tunnel->m_remoteHost + ":"
               + std::to_string(remotePort) + " via " + tunnel->m_session->target().display();
    });
    SshTunnel* self = tunnel.get();
    tunnel->m_thread = std::thread([self] { self->serve(); });
    return tunnel;
}

SshTunnel::~SshTunnel()
{
    m_stop = true;
    if (m_thread.joinable()) {
        m_thread.join();
    }
    // Channels before the session they belong to.
    if (m_state) {
        for (Pair& pair : m_state->pairs) {
            pair.close();
        }
    }
    if (m_listenFd >= 0) {
        ::close(m_listenFd);
    }
    m_session.reset();
}

std::optional<Error> SshTunnel::lastRefusal() const
{
    std::lock_guard<std::mutex> lock(m_state->mutex);
    return m_state->lastRefusal;
}

void SshTunnel::serve()
{
    ssh_session session = m_session->nativeSession();
    std::vector<Pair>& pairs = m_state->pairs;
    std::vector<pollfd> fds;
    std::vector<char> buffer(32768);

    // A new local connection gets its channel, or is closed with the refusal kept.
    auto forward = [&](int fd) {
        sockaddr_in peer{};
        socklen_t length = sizeof peer;
        ::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &length);
        ssh_channel channel = ssh_channel_new(session);
        // The originator is the local client, as OpenSSH's ssh -L says (RFC 4254 section 7.2).
        if (channel != nullptr
            && ssh_channel_open_forward(channel, m_remoteHost.c_str(), m_remotePort, "127.0.0.1", ntohs(peer.sin_port))
                   == SSH_OK) {
            pairs.push_back(Pair{fd, channel, {}, false, false, false});
            return;
        }
        const bool connected = ssh_is_connected(session) != 0;
        Reason reason{connected ? "error.ssh.tunnel_refused" : "error.ssh.tunnel_connection_lost",
                      {{"host", m_remoteHost}, {"port", std::to_string(m_remotePort)}}};
        const char* said = ssh_get_error(session);
        if (said != nullptr && *said != '\0') {
            reason.params["said"] = said;
        }
        logInfo(LogCategory::Ssh, [&] {
            return "forward to " + m_remoteHost + ":" + std::to_string(m_remotePort)
                   + " failed: " + std::string(said != nullptr ? said : "");
        });
        {
            std::lock_guard<std::mutex> lock(m_state->mutex);
            m_state->lastRefusal = Error{ErrorCode::Network, std::move(reason), m_session->target().display()};
        }
        if (channel != nullptr) {
            ssh_channel_free(channel);
        }
        ::close(fd);
    };

    while (!m_stop) {
        // What to wait for: new connections, the SSH socket while a channel can take data, and each local socket
        // for reading while the remote window is open and for writing while bytes wait for it.
        fds.clear();
        fds.push_back({m_listenFd, POLLIN, 0});
        bool channelCanTake = false;
        for (Pair& pair : pairs) {
            short events = 0;
            if (!pair.localEof && ssh_channel_window_size(pair.channel) > 0) {
                events |= POLLIN;
            }
            if (!pair.pending.empty()) {
                events |= POLLOUT;
            }
            channelCanTake = channelCanTake || (!pair.remoteEof && pair.pending.size() < kMaxPending);
            fds.push_back({pair.fd, events, 0});
        }
        if (channelCanTake) {
            fds.push_back({ssh_get_fd(session), POLLIN, 0});
        }
        if (::poll(fds.data(), fds.size(), kPollMs) < 0 && errno != EINTR) {
            break;
        }

        if ((fds[0].revents & POLLIN) != 0) {
            for (;;) {
                int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
                if (fd < 0) {
                    break;
                }
                ++m_connections;
                forward(fd);
            }
        }

        const size_t polled = fds.size() - 1 - (channelCanTake ? 1 : 0); // pairs present at the poll
        for (size_t i = 0; i < pairs.size(); ++i) {
            Pair& pair = pairs[i];
            const short revents = i < polled ? fds[i + 1].revents : 0;
            // Remote -> local.
            while (!pair.remoteEof && pair.pending.size() < kMaxPending) {
                int got =
                    ssh_channel_read_nonblocking(pair.channel, buffer.data(), static_cast<uint32_t>(buffer.size()), 0);
                if (got > 0) {
                    pair.pending.append(buffer.data(), static_cast<size_t>(got));
                    continue;
                }
                if (got == SSH_EOF || (got == 0 && ssh_channel_is_eof(pair.channel))
                    || !ssh_channel_is_open(pair.channel)) {
                    pair.remoteEof = true;
                } else if (got < 0) {
                    pair.broken = true;
                }
                break;
            }
            // POLLHUP after the client's EOF: it is gone both ways, nobody reads an answer.
            if (!flush(pair) || (revents & POLLERR) != 0 || (pair.localEof && (revents & POLLHUP) != 0)) {
                pair.broken = true;
            }
            // Local -> remote, no more than the remote window takes, so that the write never waits.
            uint32_t window = pair.localEof || pair.broken ? 0 : ssh_channel_window_size(pair.channel);
            if (window > 0 && (revents & (POLLIN | POLLHUP)) != 0) {
                ssize_t got = ::recv(pair.fd, buffer.data(), std::min<size_t>(buffer.size(), window), 0);
                if (got > 0) {
                    if (ssh_channel_write(pair.channel, buffer.data(), static_cast<uint32_t>(got)) == SSH_ERROR) {
                        pair.broken = true;
                    }
                } else if (got == 0) {
                    pair.localEof = true;
                    ssh_channel_send_eof(pair.channel); // a half-close: the answer may still come
                } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                    pair.broken = true;
                }
            }
        }
        // A pair ends when either side is broken, or when the remote side ended and all it sent was written.
        for (size_t i = pairs.size(); i-- > 0;) {
            Pair& pair = pairs[i];
            if (pair.broken || (pair.remoteEof && pair.pending.empty())) {
                pair.close();
                pairs.erase(pairs.begin() + static_cast<std::ptrdiff_t>(i));
            }
        }
    }
}

} // namespace gpuplan::core
