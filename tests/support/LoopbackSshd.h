#pragma once
// A real OpenSSH server for tests: /usr/sbin/sshd on 127.0.0.1 with host keys, client keys and authorized_keys
// generated in a temporary directory, logging in as the current user. Used by TestSsh and the Verify page's test.

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>
#include <QTemporaryDir>
#include <QThread>
#include <QtDebug>

#include <map>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

namespace gpuplan::testing {

/// A port on 127.0.0.1 that nothing listens on right now.
inline int freePort()
{
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0
        || ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        ::close(fd);
        return 0;
    }
    int port = ntohs(address.sin_port);
    ::close(fd);
    return port;
}

/// Every process below `root` (from /proc/*/stat), deepest last.
inline QList<pid_t> descendants(pid_t root)
{
    std::multimap<pid_t, pid_t> children;
    const QStringList entries = QDir("/proc").entryList(QDir::Dirs);
    for (const QString& entry : entries) {
        bool isPid = false;
        pid_t pid = entry.toInt(&isPid);
        if (!isPid) {
            continue;
        }
        QFile stat("/proc/" + entry + "/stat");
        if (!stat.open(QIODevice::ReadOnly)) {
            continue;
        }
        QByteArray text = stat.readAll();
        // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'.
        QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1) {
            children.emplace(fields[1].toInt(), pid);
        }
    }
    QList<pid_t> result;
    QList<pid_t> pending{root};
    while (!pending.isEmpty()) {
        pid_t parent = pending.takeFirst();
        auto [begin, end] = children.equal_range(parent);
        for (auto it = begin; it != end; ++it) {
            result.append(it->second);
            pending.append(it->second);
        }
    }
    return result;
}

class LoopbackSshd
{
public:
    ~LoopbackSshd() { stop(); }

    /// Whether this machine has sshd and ssh-keygen (packaging/system-packages.txt installs them).
    static bool available()
    {
        return QFile::exists("/usr/sbin/sshd") && !QStandardPaths::findExecutable("ssh-keygen").isEmpty();
    }

    /// Makes the directory, learns the user, and generates the host key `host_ed25519` and the client key
    /// `client_ed25519`, which authorized_keys lets in.
    bool setUp()
    {
        const passwd* account = ::getpwuid(::geteuid());
        if (!m_dir.isValid() || !account) {
            return false;
        }
        m_user = QString::fromLocal8Bit(account->pw_name);
        QDir().mkpath("/run/sshd"); // sshd's privilege separation directory; only root needs it and can make it
        return keygen("host_ed25519", "ed25519") && keygen("client_ed25519", "ed25519") && authorize("client_ed25519");
    }

    /// Generates a key pair `name`, `name`.pub in the directory.
    bool keygen(const QString& name, const QString& type, const QString& passphrase = {})
    {
        QStringList arguments{"-q", "-t", type, "-N", passphrase, "-C", name, "-f", path(name)};
        if (type == "rsa") {
            arguments << "-b"
                      << "2048";
        }
        QProcess process;
        process.start("ssh-keygen", arguments);
        return process.waitForFinished(30000) && process.exitCode() == 0;
    }

    /// Lets the key pair `name` log in.
    bool authorize(const QString& name)
    {
        QFile pub(path(name + ".pub"));
        QFile authorized(path("authorized_keys"));
        if (!pub.open(QIODevice::ReadOnly) || !authorized.open(QIODevice::Append)) {
            return false;
        }
        return authorized.write(pub.readAll()) > 0;
    }

    /// Moves the next start() to another free port (a restart keeps the port, as a rebooted server does).
    void newPort() { m_port = freePort(); }

    /// Starts sshd with host key `hostKey` and waits until it listens: on the port it had, else a free one.
    /// `extraConfig`: more sshd_config lines (a ForceCommand, say).
    bool start(const QString& hostKey = "host_ed25519",
               const QString& logLevel = "VERBOSE",
               const QStringList& extraConfig = {})
    {
        if (m_port == 0) {
            newPort();
        }
        QFile file(path("sshd_config"));
        if (m_port == 0 || !file.open(QIODevice::WriteOnly)) {
            return false;
        }
        QStringList lines{
            "ListenAddress 127.0.0.1",
            "HostKey " + path(hostKey),
            "AuthorizedKeysFile " + path("authorized_keys"),
            "PidFile " + path("sshd.pid"),
            "StrictModes no",
            "UsePAM no",
            "PermitRootLogin yes", // the test runs as root in CI containers
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "AllowTcpForwarding yes",
            "Subsystem sftp internal-sftp",
            "LogLevel " + logLevel,
        };
        lines += extraConfig;
        file.write(lines.join('\n').toUtf8() + '\n');
        file.close();

        const QString log = path(QString("sshd-%1.log").arg(++m_starts));
        m_sshd.setStandardErrorFile(log);
        m_sshd.setStandardOutputFile(QProcess::nullDevice());
        m_sshd.start("/usr/sbin/sshd", {"-D", "-e", "-f", path("sshd_config"), "-p", QString::number(m_port)});
        if (!m_sshd.waitForStarted(5000)) {
            return false;
        }
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < 5000) {
            QFile logFile(log);
            if (logFile.open(QIODevice::ReadOnly) && logFile.readAll().contains("Server listening on")) {
                return true;
            }
            if (m_sshd.state() == QProcess::NotRunning) {
                break;
            }
            QThread::msleep(20);
        }
        QFile logFile(log);
        logFile.open(QIODevice::ReadOnly);
        qWarning() << "sshd did not start:" << logFile.readAll();
        return false;
    }

    /// Stops sshd and every session it serves.
    void stop()
    {
        if (m_sshd.state() == QProcess::NotRunning) {
            return;
        }
        for (pid_t pid : descendants(pid())) {
            ::kill(pid, SIGKILL);
        }
        m_sshd.terminate();
        if (!m_sshd.waitForFinished(5000)) {
            m_sshd.kill();
            m_sshd.waitForFinished(5000);
        }
    }

    QString path(const QString& name) const { return m_dir.path() + "/" + name; }
    /// The log of the sshd started last.
    QString logFile() const { return path(QString("sshd-%1.log").arg(m_starts)); }
    QString user() const { return m_user; }
    int port() const { return m_port; }
    pid_t pid() const { return static_cast<pid_t>(m_sshd.processId()); }
    /// "user@127.0.0.1:port"
    QString host() const { return m_user + "@127.0.0.1:" + QString::number(m_port); }

private:
    QTemporaryDir m_dir;
    QString m_user;
    int m_port = 0;
    int m_starts = 0;
    QProcess m_sshd;
};

} // namespace gpuplan::testing
