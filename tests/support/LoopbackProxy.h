#pragma once
// A real HTTP proxy for tests: Debian's tinyproxy on 127.0.0.1, allowing only loopback clients, logging every
// request it carries. Used to show that the proxy of Settings -> Network (and gpuplan's --proxy) is the way the
// cloud APIs are reached (issue 20, finding 8).

#include "LoopbackSshd.h" // freePort

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QThread>

namespace gpuplan::testing {

class LoopbackProxy
{
public:
    /// Starts tinyproxy; false (with `error()`) when it is missing or does not listen.
    bool start()
    {
        const QString binary = QStandardPaths::findExecutable(QStringLiteral("tinyproxy"));
        if (binary.isEmpty()) {
            m_error = QStringLiteral("tinyproxy is missing (packaging/system-packages.txt: tinyproxy-bin)");
            return false;
        }
        m_port = freePort();
        QFile config(m_dir.filePath(QStringLiteral("tinyproxy.conf")));
        if (!m_dir.isValid() || m_port == 0 || !config.open(QIODevice::WriteOnly)) {
            m_error = QStringLiteral("no temporary folder or free port for tinyproxy");
            return false;
        }
        config.write(QStringLiteral("Port %1\nListen 127.0.0.1\nAllow 127.0.0.1\nTimeout 60\nMaxClients 20\n"
                                    "LogLevel Info\nLogFile \"%2\"\nDisableViaHeader Yes\n")
                         .arg(m_port)
                         .arg(logFile())
                         .toUtf8());
        config.close();
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(binary, {QStringLiteral("-d"), QStringLiteral("-c"), config.fileName()});
        m_process.waitForStarted(10000);
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < 10000) {
            if (m_process.state() != QProcess::Running) {
                break;
            }
            if (log().contains("listening on")) {
                return true;
            }
            QThread::msleep(50);
        }
        m_error = QStringLiteral("tinyproxy did not start listening: ") + QString::fromUtf8(log());
        return false;
    }
    ~LoopbackProxy()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(3000)) {
            m_process.kill();
            m_process.waitForFinished(3000);
        }
    }

    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }
    QString error() const { return m_error; }
    QString logFile() const { return m_dir.filePath(QStringLiteral("tinyproxy.log")); }
    QByteArray log() const
    {
        QFile f(logFile());
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    /// How many requests the proxy carried to `url` (tinyproxy logs "Request (file descriptor N): POST URL").
    int requestsTo(const QString& url) const
    {
        int n = 0;
        for (const QByteArray& line : log().split('\n')) {
            n += line.contains("Request (file descriptor") && line.contains(url.toUtf8()) ? 1 : 0;
        }
        return n;
    }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    int m_port = 0;
    QString m_error;
};

} // namespace gpuplan::testing
