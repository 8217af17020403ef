#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/deploy/SshSession.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>

namespace gpuplan::core {

/// A local port forward (ssh -L): a port on 127.0.0.1 of this computer whose every connection goes through the SSH
/// connection (a direct-tcpip channel) to a host and port as the remote machine sees them. TensorBoard on the
/// instance (127.0.0.1:6006 there) is opened in the local browser through it.
class SshTunnel final
{
public:
    /// Listens on 127.0.0.1:`localPort` (0: a free port) and forwards to `remoteHost`:`remotePort`. Takes the
    /// session: from now on only the tunnel's thread uses it (open a separate session for other work). Errors:
    /// Network (the local port cannot be listened on; the reason names it).
    static Result<std::unique_ptr<SshTunnel>>
    open(std::unique_ptr<SshSession> session, std::string remoteHost, int remotePort, int localPort = 0);

    /// Stops listening, closes every forwarded connection and the session.
    ~SshTunnel();
    SshTunnel(const SshTunnel&) = delete;
    SshTunnel& operator=(const SshTunnel&) = delete;

    int localPort() const { return m_localPort; }
    /// Connections accepted so far.
    int connections() const { return m_connections.load(); }
    /// The last forwarded connection the remote side refused (nothing listens there), as an error; empty: none.
    std::optional<Error> lastRefusal() const;

private:
    SshTunnel() = default;
    void serve();

    struct State;
    std::unique_ptr<SshSession> m_session;
    std::unique_ptr<State> m_state;
    std::string m_remoteHost;
    int m_remotePort = 0;
    int m_localPort = 0;
    int m_listenFd = -1;
    std::atomic<int> m_connections{0};
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace gpuplan::core
