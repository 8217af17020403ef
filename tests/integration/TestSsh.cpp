// SshSession against a real OpenSSH server: the test starts /usr/sbin/sshd on 127.0.0.1 with host keys,
// client keys and authorized_keys it generates in a temporary directory, and runs as the current user.

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <map>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/LoopbackSshd.h"
#include "gpuplan/deploy/ProbeDeployment.h"
#include "gpuplan/deploy/SshConfig.h"
#include "gpuplan/deploy/SshSession.h"
#include "gpuplan/deploy/SshTunnel.h"
#include "gpuplan/ledger/Ledger.h"

#include <nlohmann/json.hpp>

using namespace gpuplan::core;
using gpuplan::testing::descendants;
using gpuplan::testing::freePort;
using namespace std::chrono_literals;

namespace {

QByteArray runTool(const QString& program, const QStringList& arguments)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(20000) || process.exitCode() != 0) {
        qWarning() << program << arguments << process.readAllStandardError();
        return {};
    }
    return process.readAllStandardOutput();
}

bool writeFile(const QString& name, const QByteArray& content)
{
    QFile file(name);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

QByteArray readFile(const QString& name)
{
    QFile file(name);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QByteArray randomBytes(qsizetype size, quint32 seed)
{
    QByteArray bytes(size, Qt::Uninitialized);
    QRandomGenerator generator(seed);
    for (char& c : bytes) {
        c = static_cast<char>(generator.bounded(256));
    }
    return bytes;
}

/// What a TransferProgress reported, in order.
struct ProgressLog
{
    std::vector<std::pair<std::uintmax_t, std::uintmax_t>> calls;
    TransferProgress callback()
    {
        return [this](std::uintmax_t done, std::uintmax_t total) { calls.emplace_back(done, total); };
    }
    /// Whether `done` never went back and never passed `total`.
    bool monotonic() const
    {
        for (size_t i = 0; i < calls.size(); ++i) {
            if (calls[i].first > calls[i].second || (i > 0 && calls[i].first < calls[i - 1].first)) {
                return false;
            }
        }
        return true;
    }
};

/// A TCP connection to 127.0.0.1:`port`, or -1; reads give up after 10 s.
int connectLocal(int port)
{
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    timeval timeout{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool sendAll(int fd, const QByteArray& data)
{
    return ::send(fd, data.constData(), static_cast<size_t>(data.size()), MSG_NOSIGNAL) == data.size();
}

/// Everything the other side sends until it closes the connection; `closed` false when it did not within 10 s.
QByteArray readToEnd(int fd, bool* closed = nullptr)
{
    QByteArray data;
    char buffer[4096];
    for (;;) {
        ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
        if (got > 0) {
            data.append(buffer, got);
            continue;
        }
        if (closed) {
            *closed = got == 0 || errno == ECONNRESET;
        }
        return data;
    }
}

bool waitForListening(int port)
{
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 10000) {
        int fd = connectLocal(port);
        if (fd >= 0) {
            ::close(fd);
            return true;
        }
        QThread::msleep(50);
    }
    return false;
}

} // namespace

/// Answers core's questions as the test sets them, and records what was asked.
class TestPrompter final : public Prompter
{
public:
    bool trustNewHostKey(const HostKey& key) override
    {
        offered.append(key);
        return trust;
    }
    std::optional<std::string> passphrase(const std::string& keyFile) override
    {
        passphraseAsked << QString::fromStdString(keyFile);
        return passphraseAnswer;
    }

    QList<HostKey> offered; // what trust on first use was shown
    bool trust = true;
    QStringList passphraseAsked;
    std::optional<std::string> passphraseAnswer;
};

class TestSsh : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void parseTarget_data();
    void parseTarget();
    void connectAndRunStreamsOutput();
    void trustOnFirstUseAddsKeyAsSshKeygenShowsIt();
    void declinedHostKeyIsNotAdded();
    void changedHostKeyIsRefused();
    void refusedKeyGivesCredentials();
    void rsaAndEncryptedKeys();
    void uploadToPathWithSpacesAndQuotes();
    void uploadIntoMissingDirectoryFails();
    void shellQuoteRoundTrips_data();
    void shellQuoteRoundTrips();
    void commandTimeout();
    void endlessOutputIsCutOff();
    void droppedConnectionIsNetworkError();
    void cancellation();
    void jumpHost();
    void sshConfigIsReadAsSshReadsIt();
    void anAliasOfTheSshConfigLogsIn();
    void probeRunsThereAndTheVerdictSaysWhy();
    void probeKeepsTheVerdictWithItsLaunch();
    void probeIsBuiltThereWithoutABundledOne();
    void aFailedRemoteBuildQuotesTheCompiler();
    void unreadableMachineFactsAreAnErrorNotNoGpu();
    void uploadFilesCopiesATreeWithModes();
    void uploadFilesNamesTheFileThatDiffers();
    void downloadChecksAndResumes();
    void downloadOfWrongPartMissingFileAndCancel();
    void tensorBoardTunnelReachesARemoteHttpServer();
    void tunnelToAClosedPortKeepsTheRefusal();

private:
    QString path(const QString& name) const { return m_sshd.path(name); }
    bool startSshd(const QString& hostKey, const QString& logLevel = "VERBOSE");
    SshTarget target(const QString& key = "client_ed25519") const;
    SshOptions options();
    /// `gpuplan probe`'s arguments for the loopback sshd: host, key, known_hosts, trust on first use, quick.
    QStringList cliSshArguments() const
    {
        return {QStringLiteral("--host"),
                m_sshd.host(),
                QStringLiteral("--identity"),
                path(QStringLiteral("client_ed25519")),
                QStringLiteral("--known-hosts"),
                path(QStringLiteral("known_hosts")),
                QStringLiteral("--accept-new-host-key"),
                QStringLiteral("--quick")};
    }
    std::unique_ptr<SshSession> connectOk(const SshTarget& target);

    gpuplan::testing::LoopbackSshd m_sshd;
    QString m_user;
    int m_port = 0;
    TestPrompter m_prompter;
    QList<HostKey>& m_offered = m_prompter.offered; // what trust on first use was shown
    bool& m_trust = m_prompter.trust;
};

void TestSsh::initTestCase()
{
    if (!gpuplan::testing::LoopbackSshd::available()) {
        QSKIP("needs openssh-server and openssh-client (packaging/system-packages.txt)");
    }
    QVERIFY(m_sshd.setUp()); // host_ed25519, client_ed25519
    m_user = m_sshd.user();
    QVERIFY(m_sshd.keygen("host_rsa", "rsa"));
    QVERIFY(m_sshd.keygen("other_host_ed25519", "ed25519"));
    QVERIFY(m_sshd.keygen("client_rsa", "rsa"));
    QVERIFY(m_sshd.keygen("client_encrypted", "ed25519", "correct horse"));
    QVERIFY(m_sshd.keygen("stranger_ed25519", "ed25519"));
    QVERIFY(m_sshd.authorize("client_rsa"));
    QVERIFY(m_sshd.authorize("client_encrypted"));
}

void TestSsh::init()
{
    QFile::remove(path("known_hosts"));
    m_offered.clear();
    m_trust = true;
    m_prompter.passphraseAsked.clear();
    m_prompter.passphraseAnswer.reset();
    m_sshd.newPort();
    QVERIFY(startSshd("host_ed25519"));
}

void TestSsh::cleanup()
{
    m_sshd.stop();
}

bool TestSsh::startSshd(const QString& hostKey, const QString& logLevel)
{
    m_sshd.stop();
    const bool started = m_sshd.start(hostKey, logLevel);
    m_port = m_sshd.port();
    return started;
}

SshTarget TestSsh::target(const QString& key) const
{
    SshTarget target;
    target.user = m_user.toStdString();
    target.host = "127.0.0.1";
    target.port = m_port;
    target.identityFile = path(key).toStdString();
    target.connectTimeout = 5s;
    return target;
}

SshOptions TestSsh::options()
{
    SshOptions options;
    options.knownHostsFile = path("known_hosts").toStdString();
    options.prompter = &m_prompter;
    return options;
}

std::unique_ptr<SshSession> TestSsh::connectOk(const SshTarget& target)
{
    auto session = SshSession::connect(target, options());
    if (!session) {
        qWarning() << "connect failed:" << QString::fromStdString(describe(session.error()));
        return {};
    }
    return std::move(session).value();
}

void TestSsh::parseTarget_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");

    QTest::newRow("user@host") << "ubuntu@203.0.113.7" << true << "ubuntu"
                               << "203.0.113.7" << 22;
    QTest::newRow("with port") << "root@gpu-1.example.com:2222" << true << "root"
                               << "gpu-1.example.com" << 2222;
    QTest::newRow("IPv6 with port") << "me@[2001:db8::1]:2200" << true << "me"
                                    << "2001:db8::1" << 2200;
    QTest::newRow("IPv6 without port") << "me@[::1]" << true << "me"
                                       << "::1" << 22;
    QTest::newRow("no user") << "host" << false << ""
                             << "" << 0;
    QTest::newRow("empty user") << "@host" << false << ""
                                << "" << 0;
    QTest::newRow("no host") << "u@" << false << ""
                             << "" << 0;
    QTest::newRow("empty port") << "u@h:" << false << ""
                                << "" << 0;
    QTest::newRow("port 0") << "u@h:0" << false << ""
                            << "" << 0;
    QTest::newRow("port too big") << "u@h:70000" << false << ""
                                  << "" << 0;
    QTest::newRow("port not a number") << "u@h:22x" << false << ""
                                       << "" << 0;
    QTest::newRow("space in host") << "u@h h" << false << ""
                                   << "" << 0;
}

void TestSsh::parseTarget()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    auto parsed = parseSshTarget(text.toStdString());
    QCOMPARE(parsed.ok(), valid);
    if (!valid) {
        QCOMPARE(parsed.error().code, ErrorCode::InvalidArgument);
        // Every error.ssh.target_* is worded with what is expected: USER@HOST or USER@HOST:PORT.
        QVERIFY2(parsed.error().reason.key.starts_with("error.ssh.target_"), describe(parsed.error()).c_str());
        QCOMPARE(parsed.error().where, text.toStdString());
        return;
    }
    QFETCH(QString, user);
    QFETCH(QString, host);
    QFETCH(int, port);
    QCOMPARE(QString::fromStdString(parsed->user), user);
    QCOMPARE(QString::fromStdString(parsed->host), host);
    QCOMPARE(parsed->port, port);
}

void TestSsh::connectAndRunStreamsOutput()
{
    auto session = connectOk(target());
    QVERIFY(session);
    std::string out;
    std::string err;
    int chunks = 0;
    auto status = session->run("echo hello; echo oops >&2; printf '%s' \"$SSH_CONNECTION\" | wc -w; exit 3",
                               [&](SshStream stream, std::string_view chunk) {
                                   ++chunks;
                                   (stream == SshStream::Stdout ? out : err).append(chunk);
                               });
    QVERIFY2(status.ok(), status.ok() ? "" : describe(status.error()).c_str());
    QCOMPARE(*status, 3);
    QCOMPARE(QString::fromStdString(out), QString("hello\n4\n"));
    QCOMPARE(QString::fromStdString(err), QString("oops\n"));
    QVERIFY(chunks >= 2);

    // The session carries on: a second command on a new channel.
    out.clear();
    auto again = session->run("echo again", [&](SshStream, std::string_view chunk) { out.append(chunk); });
    QVERIFY(again.ok());
    QCOMPARE(*again, 0);
    QCOMPARE(QString::fromStdString(out), QString("again\n"));
}

void TestSsh::trustOnFirstUseAddsKeyAsSshKeygenShowsIt()
{
    QVERIFY(connectOk(target()));
    QCOMPARE(m_offered.size(), 1);
    // `ssh-keygen -lf` prints "256 SHA256:... comment (ED25519)".
    QList<QByteArray> shown = runTool("ssh-keygen", {"-lf", path("host_ed25519.pub")}).split(' ');
    QVERIFY(shown.size() > 2);
    QCOMPARE(QString::fromStdString(m_offered[0].fingerprint), QString::fromLatin1(shown[1]));
    QCOMPARE(QString::fromStdString(m_offered[0].type), QString("ssh-ed25519"));
    QString name = QString("[127.0.0.1]:%1").arg(m_port);
    QCOMPARE(QString::fromStdString(m_offered[0].host), name);

    // OpenSSH itself finds the key in our known_hosts under the host's name.
    QByteArray found = runTool("ssh-keygen", {"-F", name, "-f", path("known_hosts")});
    QVERIFY2(found.contains("ssh-ed25519"), found.constData());
    QFile pub(path("host_ed25519.pub"));
    QVERIFY(pub.open(QIODevice::ReadOnly));
    QVERIFY(found.contains(pub.readAll().split(' ')[1]));

    // Known now: not asked again.
    QVERIFY(connectOk(target()));
    QCOMPARE(m_offered.size(), 1);
}

void TestSsh::declinedHostKeyIsNotAdded()
{
    m_trust = false;
    auto session = SshSession::connect(target(), options());
    QVERIFY(!session.ok());
    QCOMPARE(session.error().code, ErrorCode::Cancelled);
    QCOMPARE(m_offered.size(), 1);
    QVERIFY(!QFile(path("known_hosts")).exists() || QFile(path("known_hosts")).size() == 0);

    // Without a callback an unknown host is refused, never silently accepted.
    SshOptions noCallback;
    noCallback.knownHostsFile = path("known_hosts").toStdString();
    auto refused = SshSession::connect(target(), noCallback);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, ErrorCode::Credentials);
    QCOMPARE(refused.error().reason.key, std::string("error.ssh.host_key_unknown"));
    QCOMPARE(refused.error().reason.params.at("known_hosts"), path("known_hosts").toStdString());
    QVERIFY(!refused.error().reason.params.at("fingerprint").empty());
}

void TestSsh::changedHostKeyIsRefused()
{
    QVERIFY(connectOk(target()));
    QCOMPARE(m_offered.size(), 1);
    std::string oldFingerprint = m_offered[0].fingerprint;

    m_sshd.stop();
    QVERIFY(startSshd("other_host_ed25519"));
    auto session = SshSession::connect(target(), options());
    QVERIFY(!session.ok());
    QCOMPARE(session.error().code, ErrorCode::HostKeyChanged);
    QCOMPARE(m_offered.size(), 1); // never offered for trust
    const Reason& reason = session.error().reason;
    qInfo().noquote() << QString::fromStdString(describe(session.error()));
    QString newFingerprint =
        QString::fromLatin1(runTool("ssh-keygen", {"-lf", path("other_host_ed25519.pub")}).split(' ').value(1));
    QVERIFY(!newFingerprint.isEmpty());
    // Worded as the warning with the ssh-keygen -R command that removes the old key (ui/wording).
    QCOMPARE(reason.key, std::string("error.ssh.host_key_changed"));
    QCOMPARE(reason.params.at("host"), QString("[127.0.0.1]:%1").arg(m_port).toStdString());
    QCOMPARE(reason.params.at("known_hosts"), path("known_hosts").toStdString());
    QVERIFY(reason.params.at("old_keys").find(oldFingerprint) != std::string::npos);
    QCOMPARE(reason.params.at("fingerprint"), newFingerprint.toStdString());
    // known_hosts still holds the old key only.
    QByteArray known = runTool("ssh-keygen", {"-lf", path("known_hosts")});
    QVERIFY(known.contains(QByteArray::fromStdString(oldFingerprint)));
    QVERIFY(!known.contains(newFingerprint.toLatin1()));
}

void TestSsh::refusedKeyGivesCredentials()
{
    auto session = SshSession::connect(target("stranger_ed25519"), options());
    QVERIFY(!session.ok());
    QCOMPARE(session.error().code, ErrorCode::Credentials);
    qInfo().noquote() << QString::fromStdString(describe(session.error()));
    QCOMPARE(session.error().reason.key, std::string("error.ssh.key_refused"));
    QCOMPARE(session.error().reason.params.at("identity_file"), path("stranger_ed25519").toStdString());
    QVERIFY(session.error().reason.params.at("methods").starts_with("publickey"));

    auto missing = SshSession::connect(target("no_such_key"), options());
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().code, ErrorCode::Credentials);
    QCOMPARE(QString::fromStdString(missing.error().where), path("no_such_key"));
}

void TestSsh::rsaAndEncryptedKeys()
{
    QVERIFY(connectOk(target("client_rsa")));

    SshOptions withPassphrase = options();
    m_prompter.passphraseAsked.clear();
    m_prompter.passphraseAnswer = "correct horse";
    auto session = SshSession::connect(target("client_encrypted"), withPassphrase);
    QVERIFY2(session.ok(), session.ok() ? "" : describe(session.error()).c_str());
    QCOMPARE(m_prompter.passphraseAsked, QStringList{path("client_encrypted")});

    m_prompter.passphraseAnswer = "wrong";
    auto wrong = SshSession::connect(target("client_encrypted"), withPassphrase);
    QVERIFY(!wrong.ok());
    QCOMPARE(wrong.error().code, ErrorCode::Credentials);
    QCOMPARE(wrong.error().reason.key, std::string("error.ssh.identity_file_passphrase"));
}

void TestSsh::uploadToPathWithSpacesAndQuotes()
{
    auto session = connectOk(target());
    QVERIFY(session);
    QByteArray content(300 * 1024 + 17, Qt::Uninitialized);
    QRandomGenerator generator(42);
    for (char& c : content) {
        c = static_cast<char>(generator.bounded(256));
    }
    QFile local(path("payload.bin"));
    QVERIFY(local.open(QIODevice::WriteOnly));
    local.write(content);
    local.close();

    QVERIFY(QDir().mkpath(path("remote dir")));
    QString remote = path("remote dir/it's a \"probe\" $HOME `x`.bin");
    Status uploaded = session->upload(local.fileName().toStdString(), remote.toStdString(), 0750);
    QVERIFY2(uploaded.ok(), uploaded.ok() ? "" : describe(uploaded.error()).c_str());
    QFile arrived(remote);
    QVERIFY(arrived.open(QIODevice::ReadOnly));
    QVERIFY(arrived.readAll() == content);
    struct stat info
    { };
    QCOMPARE(::stat(remote.toLocal8Bit().constData(), &info), 0);
    QCOMPARE(int(info.st_mode & 0777), 0750);

    // Replacing an existing file works too.
    local.open(QIODevice::WriteOnly);
    local.write("short");
    local.close();
    QVERIFY(session->upload(local.fileName().toStdString(), remote.toStdString(), 0644).ok());
    QCOMPARE(QFile(remote).size(), 5);

    Status missing = session->upload(path("no such file").toStdString(), remote.toStdString());
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().code, ErrorCode::FileNotFound);
}

void TestSsh::uploadIntoMissingDirectoryFails()
{
    auto session = connectOk(target());
    QVERIFY(session);
    QFile local(path("small.txt"));
    QVERIFY(local.open(QIODevice::WriteOnly));
    local.write("hi\n");
    local.close();
    Status uploaded = session->upload(local.fileName().toStdString(), path("nowhere/at all/x").toStdString());
    QVERIFY(!uploaded.ok());
    QCOMPARE(uploaded.error().code, ErrorCode::Network);
    QCOMPARE(uploaded.error().reason.key, std::string("error.ssh.remote_create_failed"));
    QCOMPARE(uploaded.error().reason.params.at("sftp_status"), std::string("no_such_path")); // "no such directory"
    QVERIFY(uploaded.error().where.find("nowhere/at all/x") != std::string::npos);
}

void TestSsh::shellQuoteRoundTrips_data()
{
    QTest::addColumn<QByteArray>("arg");
    QTest::newRow("empty") << QByteArray("");
    QTest::newRow("space") << QByteArray("a b  c");
    QTest::newRow("single quote") << QByteArray("it's");
    QTest::newRow("only single quotes") << QByteArray("'''");
    QTest::newRow("double quotes") << QByteArray("say \"hi\"");
    QTest::newRow("expansions") << QByteArray("$HOME ${PATH} $(id) `id` $((1+1))");
    QTest::newRow("backslashes") << QByteArray("a\\b\\n\\'c");
    QTest::newRow("glob") << QByteArray("* ? [a-z]");
    QTest::newRow("leading dash") << QByteArray("-n");
    QTest::newRow("newline and tab") << QByteArray("line1\nline2\tend");
    QTest::newRow("command separators") << QByteArray("a; b && c | d > /tmp/x < y & e");
    QTest::newRow("comment and tilde") << QByteArray("~ #not a comment");
    QTest::newRow("utf-8") << QByteArray("\xe6\x97\xa5\xe6\x9c\xac \xc3\xbc");
}

void TestSsh::shellQuoteRoundTrips()
{
    QCOMPARE(QString::fromStdString(shellQuote("it's")), QString("'it'\\''s'"));
    QElapsedTimer t;
    t.start();
    auto session = connectOk(target()); // init() starts a fresh sshd for each row
    QVERIFY(session);
    QFETCH(QByteArray, arg);
    std::string out;
    auto status =
        session->run("printf '%s\\n' " + shellQuote(arg.toStdString()), [&](SshStream stream, std::string_view chunk) {
            if (stream == SshStream::Stdout) {
                out.append(chunk);
            }
        });
    QVERIFY(status.ok());
    QCOMPARE(*status, 0);
    QCOMPARE(QByteArray::fromStdString(out), arg + '\n');
}

void TestSsh::commandTimeout()
{
    auto session = connectOk(target());
    QVERIFY(session);
    QElapsedTimer timer;
    timer.start();
    SshRunOptions runOptions;
    runOptions.timeout = 500ms;
    auto status = session->run("sleep 30", {}, runOptions);
    QVERIFY(!status.ok());
    QCOMPARE(status.error().code, ErrorCode::Timeout);
    QCOMPARE(status.error().reason.key, std::string("error.ssh.command_timeout"));
    QCOMPARE(status.error().reason.params.at("timeout_ms"), std::string("500"));
    QVERIFY(timer.elapsed() < 5000);
    auto after = session->run("true", {});
    QVERIFY(after.ok());
    QCOMPARE(*after, 0);
}

// Finding 10: a remote host that never stops writing is stopped at the cap, with what it sent before kept within it.
void TestSsh::endlessOutputIsCutOff()
{
    auto session = connectOk(target());
    QVERIFY(session);
    SshRunOptions runOptions;
    runOptions.maxOutputBytes = 2u << 20;
    runOptions.timeout = 60s;
    std::size_t delivered = 0;
    auto status = session->run(
        "yes 'a line from a host that never stops'",
        [&](SshStream, std::string_view chunk) { delivered += chunk.size(); },
        runOptions);
    QVERIFY(!status.ok());
    QCOMPARE(status.error().code, ErrorCode::Network);
    QVERIFY2(status.error().reason.key == "error.ssh.output_too_large", describe(status.error()).c_str());
    QCOMPARE(status.error().reason.params.at("limit_mib"), std::string("2"));
    QVERIFY(delivered <= runOptions.maxOutputBytes);
    auto after = session->run("true", {});
    QVERIFY(after.ok()); // the session stays usable
}

void TestSsh::droppedConnectionIsNetworkError()
{
    auto session = connectOk(target());
    QVERIFY(session);
    QElapsedTimer timer;
    timer.start();
    auto status = session->run("echo started; sleep 30", [&](SshStream, std::string_view chunk) {
        if (chunk.find("started") != std::string_view::npos) {
            // The server side of this connection dies; the listening sshd stays.
            for (pid_t pid : descendants(m_sshd.pid())) {
                ::kill(pid, SIGKILL);
            }
        }
    });
    QVERIFY(!status.ok());
    qInfo().noquote() << QString::fromStdString(describe(status.error()));
    QCOMPARE(status.error().code, ErrorCode::Network);
    // Lost while it ran, or before its exit status came: either way the connection is named as lost.
    QVERIFY2(status.error().reason.key.starts_with("error.ssh.lost_"), describe(status.error()).c_str());
    QCOMPARE(status.error().reason.params.at("host"), target().host);
    QVERIFY(status.error().where.find("127.0.0.1") != std::string::npos);
    QVERIFY(timer.elapsed() < 10000);
    auto next = session->run("true", {});
    QVERIFY(!next.ok());
    QCOMPARE(next.error().code, ErrorCode::Network);
}

void TestSsh::cancellation()
{
    CancelToken before;
    before.cancel();
    auto refused = SshSession::connect(target(), options(), &before);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, ErrorCode::Cancelled);

    auto session = connectOk(target());
    QVERIFY(session);
    CancelToken token;
    std::thread canceller([&token] {
        std::this_thread::sleep_for(300ms);
        token.cancel();
    });
    QElapsedTimer timer;
    timer.start();
    SshRunOptions runOptions;
    runOptions.cancel = &token;
    auto status = session->run("sleep 30", {}, runOptions);
    canceller.join();
    QVERIFY(!status.ok());
    QCOMPARE(status.error().code, ErrorCode::Cancelled);
    QVERIFY(timer.elapsed() < 5000);
    auto after = session->run("true", {});
    QVERIFY(after.ok());
}

void TestSsh::jumpHost()
{
    // The same sshd serves as jump host and target: the target connection is a direct-tcpip channel opened on
    // the jump connection, which the server's log shows at DEBUG1.
    m_sshd.stop();
    QVERIFY(startSshd("host_ed25519", "DEBUG1"));
    SshTarget viaJump = target();
    viaJump.jumps.push_back(target());
    auto session = connectOk(viaJump);
    QVERIFY(session);
    QCOMPARE(m_offered.size(), 1); // one host key, checked for the jump and then already known for the target
    std::string out;
    auto status = session->run("echo via-jump", [&](SshStream stream, std::string_view chunk) {
        if (stream == SshStream::Stdout) {
            out.append(chunk);
        }
    });
    QVERIFY(status.ok());
    QCOMPARE(QString::fromStdString(out), QString("via-jump\n"));

    // A larger upload through the tunnel.
    QByteArray content(2 * 1024 * 1024, 'x');
    for (int i = 0; i < content.size(); i += 4096) {
        content[i] = static_cast<char>(i / 4096);
    }
    QFile local(path("big.bin"));
    QVERIFY(local.open(QIODevice::WriteOnly));
    local.write(content);
    local.close();
    Status uploaded = session->upload(local.fileName().toStdString(), path("big copy.bin").toStdString());
    QVERIFY2(uploaded.ok(), uploaded.ok() ? "" : describe(uploaded.error()).c_str());
    session.reset();

    QFile log(m_sshd.logFile());
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY(log.readAll().contains("direct-tcpip"));

    // A jump host that is not there: the error names it.
    SshTarget badJump = target();
    SshTarget nowhere = target();
    nowhere.port = freePort();
    badJump.jumps.push_back(nowhere);
    auto failed = SshSession::connect(badJump, options());
    QVERIFY(!failed.ok());
    QCOMPARE(failed.error().code, ErrorCode::Network);
    QCOMPARE(failed.error().reason.key, std::string("error.ssh.connect_failed"));
    QCOMPARE(failed.error().context.size(), std::size_t(1));
    QCOMPARE(failed.error().context.front().key, std::string("error.ssh.via_jump_host"));
    QCOMPARE(failed.error().context.front().params.at("host"), nowhere.display());
    QCOMPARE(failed.error().where, badJump.display());
}

void TestSsh::sshConfigIsReadAsSshReadsIt()
{
    QFile included(path("config.d-extra"));
    QVERIFY(included.open(QIODevice::WriteOnly));
    included.write("Host *.lab\n  User from-include\n");
    included.close();
    QFile config(path("ssh_config"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(QStringLiteral("# a comment\n"
                                "Host gpubox gpubox-alt\n"
                                "    HostName 192.0.2.10\n"
                                "    Port=2222\n"
                                "    IdentityFile ~/.ssh/id_missing\n"
                                "    IdentityFile \"%1\"\n"
                                "Host gpubox\n"
                                "    Port 3333\n" // the first value wins
                                "    User ubuntu\n"
                                "Host *.lab !secret.lab\n"
                                "    ProxyJump bastion\n"
                                "    Include %2\n" // read for the hosts of its block only
                                "Match host gpubox\n"
                                "    User matched\n" // Match is not evaluated: never taken
                                "Host bastion\n"
                                "    HostName 192.0.2.1\n"
                                "    User jumper\n"
                                "    Port 2200\n")
                     .arg(path("client_%r"), path("config.d-extra"))
                     .toUtf8());
    config.close();
    const std::string file = path("ssh_config").toStdString();

    Result<SshHostConfig> box = readSshConfig(file, "gpubox");
    QVERIFY(box.ok());
    QCOMPARE(box->hostName, std::string("192.0.2.10"));
    QCOMPARE(box->port.value_or(0), 2222);
    QCOMPARE(box->user, std::string("ubuntu"));
    QCOMPARE(box->identityFiles.size(), std::size_t(2));
    QVERIFY(box->proxyJump.empty());

    Result<SshHostConfig> lab = readSshConfig(file, "gpu1.lab");
    QVERIFY(lab.ok());
    QCOMPARE(lab->proxyJump, std::string("bastion"));
    QCOMPARE(lab->user, std::string("from-include"));
    Result<SshHostConfig> secret = readSshConfig(file, "secret.lab");
    QVERIFY(secret.ok() && secret->proxyJump.empty()); // negated

    // What is typed wins; the rest comes from the configuration; a jump host is resolved the same way.
    QFile key(path("client_ubuntu"));
    QVERIFY(key.open(QIODevice::WriteOnly));
    key.close();
    Result<SshTarget> resolved = resolveSshTarget({"gpubox", "", "", path("ssh_config").toStdString()});
    QVERIFY2(resolved.ok(), resolved.ok() ? "" : describe(resolved.error()).c_str());
    QCOMPARE(resolved->host, std::string("192.0.2.10"));
    QCOMPARE(resolved->user, std::string("ubuntu"));
    QCOMPARE(resolved->port, 2222);
    // ~/.ssh/id_missing does not exist: the next IdentityFile that does, with %r expanded to the remote user.
    QCOMPARE(QString::fromStdString(resolved->identityFile), path("client_ubuntu"));
    Result<SshTarget> typed = resolveSshTarget({"root@gpubox:22", "/k", "", path("ssh_config").toStdString()});
    QVERIFY(typed.ok());
    QCOMPARE(typed->user, std::string("root"));
    QCOMPARE(typed->port, 22);
    QCOMPARE(typed->identityFile, std::string("/k"));
    Result<SshTarget> jumped = resolveSshTarget({"gpu1.lab", "", "", path("ssh_config").toStdString()});
    QVERIFY(jumped.ok());
    QCOMPARE(jumped->jumps.size(), std::size_t(1));
    QCOMPARE(jumped->jumps.front().host, std::string("192.0.2.1"));
    QCOMPARE(jumped->jumps.front().user, std::string("jumper"));
    QCOMPARE(jumped->jumps.front().port, 2200);
    Result<SshTarget> direct = resolveSshTarget({"gpu1.lab", "", "none", path("ssh_config").toStdString()});
    QVERIFY(direct.ok() && direct->jumps.empty());

    // A bad value names the file and line.
    QFile bad(path("bad_config"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("Host *\n  Port twenty-two\n");
    bad.close();
    Result<SshHostConfig> refused = readSshConfig(path("bad_config").toStdString(), "x");
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().where.find("bad_config:2") != std::string::npos, describe(refused.error()).c_str());
    // No configuration at all is no error.
    QVERIFY(readSshConfig(path("absent_config").toStdString(), "x").ok());
}

void TestSsh::anAliasOfTheSshConfigLogsIn()
{
    // `probe --host myalias` failed: the alias now reaches the loopback sshd with the configuration's host name,
    // port, user and key, through a jump host named by its own alias, with our own host-key policy.
    m_sshd.stop();
    QVERIFY(startSshd("host_ed25519", "DEBUG1"));
    QFile config(path("alias_config"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(QStringLiteral("Host gpubox\n  HostName 127.0.0.1\n  Port %1\n  User %2\n  IdentityFile %3\n"
                                "  ProxyJump hop\n"
                                "Host hop\n  HostName 127.0.0.1\n  Port %1\n  User %2\n  IdentityFile %3\n")
                     .arg(m_port)
                     .arg(m_user, path("client_ed25519"))
                     .toUtf8());
    config.close();
    Result<SshTarget> resolved = resolveSshTarget({"gpubox", "", "", path("alias_config").toStdString()});
    QVERIFY2(resolved.ok(), resolved.ok() ? "" : describe(resolved.error()).c_str());
    QCOMPARE(resolved->jumps.size(), std::size_t(1));
    auto session = connectOk(*resolved);
    QVERIFY(session);
    QCOMPARE(m_offered.size(), 1); // the host key was asked about, as always
    std::string out;
    QVERIFY(session
                ->run("echo via-alias",
                      [&](SshStream stream, std::string_view chunk) {
                          if (stream == SshStream::Stdout) {
                              out.append(chunk);
                          }
                      })
                .ok());
    QCOMPARE(QString::fromStdString(out), QString("via-alias\n"));
    session.reset();
    QFile log(m_sshd.logFile());
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY(log.readAll().contains("direct-tcpip"));

    // Declining the host key still refuses the alias.
    QFile::remove(path("known_hosts"));
    m_trust = false;
    QVERIFY(!SshSession::connect(*resolved, options()).ok());
}

// `gpuplan probe` end to end against the loopback sshd: it detects the machine (no GPU here), uploads the
// bundled probe with its checksum checked, runs it, and turns the probe's structured answer into a verdict
// with a clear reason.
void TestSsh::probeRunsThereAndTheVerdictSaysWhy()
{
    const QString gpuplan = QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan");
    // Whichever bundled build this machine made: CUDA 13's where /usr/local/cuda exists, else Debian's 11.8.
    const QString build = QFile::exists(QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan-probe"))            ? "cuda13"
                          : QFile::exists(QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan-probe-cuda11.8")) ? "cuda11.8"
                                                                                                            : "";
    QVERIFY2(!build.isEmpty(), "no bundled probe in build/bin: ./test.sh builds at least the CUDA 11.8 one");
    QProcess cli;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GPUPLAN_PROBE_DIR"), QStringLiteral(GPUPLAN_BINARY_DIR "/bin"));
    cli.setProcessEnvironment(env);
    const QString host = m_user + QStringLiteral("@127.0.0.1:") + QString::number(m_port);
    // The verdict goes into a copy of an example plan, whose PDF report then shows it.
    const QString plan = path(QStringLiteral("verified.gpuplan"));
    QFile::remove(plan);
    QVERIFY(QFile::copy(QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/examples/resnet50-imagenet.gpuplan"), plan));
    QFile::setPermissions(plan, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    cli.start(
        gpuplan,
        QStringList{QStringLiteral("probe"), QStringLiteral("--plan"), plan} + cliSshArguments()
            + QStringList{QStringLiteral("--json"), QStringLiteral("--expect-gpu"), QStringLiteral("a100-sxm4-80gb")});
    QVERIFY(cli.waitForFinished(120000));
    const QByteArray out = cli.readAllStandardOutput();
    const QByteArray err = cli.readAllStandardError();
    QCOMPARE(cli.exitCode(), 1); // no GPU: the verdict fails
    const nlohmann::json result = nlohmann::json::parse(out.toStdString(), nullptr, false);
    QVERIFY2(result.is_object(), (out + err).constData());
    QCOMPARE(result["verdict"]["level"].get<std::string>(), std::string("fail"));
    QVERIFY(result["probe"]["schema"] == "gpuplan-probe/1");
    const std::string code = result["probe"]["error"]["code"];
    QVERIFY2(code == "no_driver" || code == "no_device" || code == "driver_too_old", code.c_str());
    bool explained = false;
    for (const nlohmann::json& line : result["verdict"]["lines"]) {
        explained = explained || (line["level"] == "fail" && !line["reason"]["key"].get<std::string>().empty());
    }
    QVERIFY(explained);
    // The probe really went there, under the remote user's home, with its checksum checked.
    const QString uploaded = QDir::home().filePath(QStringLiteral(".gpuplanner-probe"));
    const bool there = QFile::exists(uploaded + QStringLiteral("/gpuplan-probe-") + build);
    QDir(uploaded).removeRecursively(); // the remote is this machine: leave its home as it was
    QVERIFY(there);

    // The plan now carries the verdict, and its report has a verification section that says it failed.
    QFile saved(plan);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const nlohmann::json withVerdict = nlohmann::json::parse(saved.readAll().toStdString(), nullptr, false);
    QVERIFY(withVerdict.is_object() && withVerdict.contains("verifications"));
    const nlohmann::json& entry = withVerdict["verifications"].back();
    QCOMPARE(entry["host"].get<std::string>(), host.toStdString());
    QCOMPARE(entry["verdict"].get<std::string>(), std::string("fail"));
    QCOMPARE(entry["expected_gpu"].get<std::string>(), std::string("a100-sxm4-80gb"));
    QCOMPARE(entry["lines"].size(), result["verdict"]["lines"].size());
    const QString pdf = path(QStringLiteral("verified.pdf"));
    QProcess report;
    report.start(
        gpuplan,
        {QStringLiteral("report"), plan, QStringLiteral("-o"), pdf, QStringLiteral("--lang"), QStringLiteral("en")});
    QVERIFY(report.waitForFinished(60000));
    QVERIFY2(report.exitCode() == 0, report.readAllStandardError().constData());
    QProcess text;
    text.start(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
    QVERIFY(text.waitForFinished(30000));
    // NFKC: the PDF's "fi" ligature reads as two letters.
    const QString words =
        QString::fromUtf8(text.readAllStandardOutput()).normalized(QString::NormalizationForm_KC).simplified();
    QVERIFY2(words.contains(QStringLiteral("GPU verification")), qPrintable(words.left(400)));
    QVERIFY(words.contains(host + QStringLiteral(": FAIL")));
    // A plan that does not read is refused before anything connects.
    QProcess bad;
    bad.start(gpuplan,
              {QStringLiteral("probe"),
               QStringLiteral("--host"),
               host,
               QStringLiteral("--plan"),
               path(QStringLiteral("no-such.gpuplan"))});
    QVERIFY(bad.waitForFinished(30000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(QString::fromUtf8(bad.readAllStandardError()).contains(QStringLiteral("no-such.gpuplan")));
}

// `gpuplan probe --instance ID`: the verdict is kept with that launch in the ledger, judged against the offer it
// launched (a g5.12xlarge promises four A10G).
void TestSsh::probeKeepsTheVerdictWithItsLaunch()
{
    const QString data = path(QStringLiteral("data"));
    QDir(data).removeRecursively();
    QVERIFY(QDir().mkpath(data + QStringLiteral("/gpuplanner")));
    std::int64_t launch = 0;
    {
        auto ledger = Ledger::open((data + QStringLiteral("/gpuplanner/ledger.sqlite")).toStdString());
        QVERIFY(ledger.ok());
        LaunchIntent intent;
        intent.provider = "aws";
        intent.region = "us-east-1";
        intent.instanceType = "g5.12xlarge";
        intent.pricingMode = "on_demand";
        intent.clientToken = "tok-probe";
        launch = *(*ledger)->recordIntent(intent, 1'700'000'000);
    }
    auto gpuplan = [&](const QStringList& arguments) {
        auto cli = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GPUPLAN_PROBE_DIR"), QStringLiteral(GPUPLAN_BINARY_DIR "/bin"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), data);
        cli->setProcessEnvironment(env);
        cli->start(QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan"), arguments);
        cli->waitForFinished(180000);
        return cli;
    };
    const QString host = m_sshd.host();
    const QStringList ssh = cliSshArguments();
    // A launch the ledger does not have is refused before anything connects.
    auto stray =
        gpuplan(QStringList{QStringLiteral("probe"), QStringLiteral("--instance"), QStringLiteral("999")} + ssh);
    QCOMPARE(stray->exitCode(), 2);
    QVERIFY(QString::fromUtf8(stray->readAllStandardError()).contains(QStringLiteral("no launch 999")));
    QVERIFY(!QFile::exists(path(QStringLiteral("known_hosts"))));

    auto run =
        gpuplan(QStringList{QStringLiteral("probe"), QStringLiteral("--instance"), QString::number(launch)} + ssh);
    QDir(QDir::home().filePath(QStringLiteral(".gpuplanner-probe"))).removeRecursively();
    const QByteArray err = run->readAllStandardError();
    QCOMPARE(run->exitCode(), 1); // no GPU here: the verdict fails
    QVERIFY2(err.contains("Kept the verdict with launch"), err.constData());
    auto ledger = Ledger::open((data + QStringLiteral("/gpuplanner/ledger.sqlite")).toStdString());
    auto kept = (*ledger)->verifications(launch);
    QVERIFY(kept.ok());
    QCOMPARE(kept->size(), std::size_t(1));
    QCOMPARE(kept->front().host, host.toStdString());
    QCOMPARE(kept->front().verdict, std::string("fail"));
    const nlohmann::json summary = nlohmann::json::parse(kept->front().summary, nullptr, false);
    QCOMPARE(summary["expected_gpu"].get<std::string>(), std::string("a10g"));
    QCOMPARE(summary["expected_count"].get<int>(), 4);
    QVERIFY(nlohmann::json::parse(kept->front().probe, nullptr, false)["schema"] == "gpuplan-probe/1");
}

// Without a bundled probe (a GPU Planner built where there is no CUDA compiler, or a machine whose glibc is older
// than the probe's), the probe's source goes over and the remote nvcc builds it: this machine has CUDA 13 in
// /usr/local/cuda/bin, off the remote PATH, as many cloud images do. No GPU here, so the built probe says so itself.
void TestSsh::probeIsBuiltThereWithoutABundledOne()
{
    const QString archive = QStringLiteral(GPUPLAN_BINARY_DIR "/share/gpuplanner/probe-source.tar.gz");
    QVERIFY2(QFile::exists(archive), "the top-level build packs the probe's source");
    if (!QFile::exists(QStringLiteral("/usr/local/cuda/bin/nvcc"))) {
        QSKIP("needs CUDA in /usr/local/cuda (the machine this project is built on has it)");
    }
    // The bundled probe needs glibc 2.17 at most (cuda_probe/glibc-floor), whatever machine built it, and
    // requiredGlibc reads that floor from the binary as the deployment does.
    const std::string bundled = GPUPLAN_BINARY_DIR "/bin/gpuplan-probe";
    if (QFile::exists(QString::fromStdString(bundled))) {
        QCOMPARE(QString::fromStdString(requiredGlibc(bundled)), QStringLiteral("2.17"));
    }
    auto session = connectOk(target());
    QVERIFY(session);
    ProbeBundle bundle;
    bundle.sourceArchive = archive.toStdString();
    QList<VerifyStep> steps;
    Result<ProbeRun> run =
        runProbeOver(*session, bundle, ProbeMode{true, 0}, [&steps](VerifyStep s) { steps.append(s); });
    const QString remote = QDir::home().filePath(QStringLiteral(".gpuplanner-probe"));
    const bool built = QFile::exists(remote + QStringLiteral("/gpuplan-probe-built"));
    const bool unpacked = QFile::exists(remote + QStringLiteral("/source/nlohmann/json.hpp"));
    QDir(remote).removeRecursively(); // the remote is this machine: leave its home as it was
    QVERIFY2(run.ok(), run.ok() ? "" : describe(run.error()).c_str());
    QVERIFY2(run->facts.nvccPath.rfind('/', 0) == 0, run->facts.nvccPath.c_str()); // the one the remote found
    QVERIFY(!run->facts.glibcVersion.empty());
    QCOMPARE(run->choice.why.key, std::string("deploy.no_gpu")); // what the user is told
    QVERIFY2(run->buildUsed.rfind("nvcc 1", 0) == 0, run->buildUsed.c_str());
    QCOMPARE(steps, (QList<VerifyStep>{VerifyStep::Detect, VerifyStep::Upload, VerifyStep::Build, VerifyStep::Run}));
    QVERIFY(built && unpacked);
    QVERIFY(run->result.has_value());
    QVERIFY(!run->result->ok);
    QVERIFY(run->result->error.has_value());
    const std::string code = run->result->error->code;
    QVERIFY2(code == "no_driver" || code == "no_device" || code == "driver_too_old", code.c_str());
}

// A build that fails there says so with the compiler's own words, not a parse error of empty output.
void TestSsh::aFailedRemoteBuildQuotesTheCompiler()
{
    if (!QFile::exists(QStringLiteral("/usr/local/cuda/bin/nvcc"))) {
        QSKIP("needs CUDA in /usr/local/cuda (the machine this project is built on has it)");
    }
    // A source archive whose main.cu does not compile.
    QDir stage(path(QStringLiteral("broken-source")));
    stage.mkpath(QStringLiteral("."));
    QFile broken(stage.filePath(QStringLiteral("main.cu")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("int main() { return undeclared_symbol_xyz; }\n");
    broken.close();
    QFile host(stage.filePath(QStringLiteral("host.cpp"))); // the build compiles *.cu and *.cpp
    QVERIFY(host.open(QIODevice::WriteOnly));
    host.write("int helper() { return 0; }\n");
    host.close();
    const QString archive = path(QStringLiteral("broken-source.tar.gz"));
    QProcess tar;
    tar.start(QStringLiteral("tar"),
              {QStringLiteral("czf"),
               archive,
               QStringLiteral("-C"),
               stage.path(),
               QStringLiteral("main.cu"),
               QStringLiteral("host.cpp")});
    QVERIFY(tar.waitForFinished(20000) && tar.exitCode() == 0);
    auto session = connectOk(target());
    QVERIFY(session);
    ProbeBundle bundle;
    bundle.sourceArchive = archive.toStdString();
    Result<ProbeRun> run = runProbeOver(*session, bundle, ProbeMode{true, 0});
    QDir(QDir::home().filePath(QStringLiteral(".gpuplanner-probe"))).removeRecursively();
    QVERIFY(!run.ok());
    QCOMPARE(run.error().code, ErrorCode::RemoteCommandFailed);
    const Reason& reason = run.error().reason;
    QVERIFY2(reason.key == "error.deploy.build_failed"
                 && reason.params.at("said").find("undeclared_symbol_xyz") != std::string::npos,
             describe(run.error()).c_str());
    QVERIFY(reason.params.at("exit_status") != "0");
}

// A server that answers every command with its own text (a ForceCommand, as on some campus gateways) does not run
// the detection: that is an error naming what came back, not a machine "without a GPU".
void TestSsh::unreadableMachineFactsAreAnErrorNotNoGpu()
{
    m_sshd.stop();
    QVERIFY(m_sshd.start("host_ed25519", "VERBOSE", {"ForceCommand echo Welcome to the campus cluster"}));
    auto session = connectOk(target());
    QVERIFY(session);
    Result<RemoteFacts> facts = detectRemote(*session);
    QVERIFY(!facts.ok());
    QCOMPARE(facts.error().code, ErrorCode::RemoteCommandFailed);
    QCOMPARE(facts.error().reason.key, std::string("error.deploy.facts_unreadable"));
    QVERIFY2(facts.error().reason.params.at("said").find("Welcome to the campus cluster") != std::string::npos,
             describe(facts.error()).c_str());
}

void TestSsh::uploadFilesCopiesATreeWithModes()
{
    auto session = connectOk(target());
    QVERIFY(session);
    QTemporaryDir localDir;
    QVERIFY(localDir.isValid());
    const QString remoteRoot = path("upload tree"); // not there yet: made on the way
    const passwd* account = ::getpwuid(::geteuid());
    QVERIFY(account);
    const QString home = QString::fromLocal8Bit(account->pw_dir);
    const QString relativeRoot = QStringLiteral(".gpuplan-test-upload-%1").arg(QRandomGenerator::global()->generate());

    std::vector<FileTransfer> files;
    QStringList onDisk; // where each file lands on this machine, the remote
    std::uintmax_t total = 0;
    auto add = [&](const QString& remote, const QString& landsAt, const QByteArray& content, int mode) {
        const QString local = localDir.filePath(QStringLiteral("f%1").arg(files.size()));
        QVERIFY(writeFile(local, content));
        files.push_back({local.toStdString(), remote.toStdString(), mode});
        onDisk << landsAt;
        total += static_cast<std::uintmax_t>(content.size());
    };
    for (int i = 0; i < 44; ++i) {
        const QString name = QStringLiteral("level %1/sub%2/file%3.txt").arg(i % 3).arg(i % 5).arg(i);
        add(remoteRoot + "/" + name, remoteRoot + "/" + name, randomBytes(i * 997, i), 0644);
    }
    add(remoteRoot + "/it's a \"quoted\" name.txt", remoteRoot + "/it's a \"quoted\" name.txt", "quoted\n", 0644);
    add(remoteRoot + "/bin/run.sh", remoteRoot + "/bin/run.sh", "#!/bin/sh\necho ran\n", 0755);
    add(remoteRoot + "/empty", remoteRoot + "/empty", {}, 0644);
    add(remoteRoot + "/odd/back\\slash", remoteRoot + "/odd/back\\slash", "backslash\n", 0600);
    add(remoteRoot + "/odd/new\nline", remoteRoot + "/odd/new\nline", "newline\n", 0644);
    add(remoteRoot + "/big.bin", remoteRoot + "/big.bin", randomBytes(300 * 1024 + 5, 99), 0644);
    // Relative to the remote home, as SFTP and the checksum command both take it.
    add(relativeRoot + "/nested/rel.txt", home + "/" + relativeRoot + "/nested/rel.txt", "relative\n", 0644);
    QCOMPARE(files.size(), std::size_t(51));

    ProgressLog progress;
    Status uploaded = session->uploadFiles(files, progress.callback());
    const QByteArray relativeContent = readFile(home + "/" + relativeRoot + "/nested/rel.txt");
    QDir(home + "/" + relativeRoot).removeRecursively(); // the remote is this machine: leave its home as it was
    QVERIFY2(uploaded.ok(), uploaded.ok() ? "" : describe(uploaded.error()).c_str());
    QCOMPARE(relativeContent, QByteArray("relative\n"));
    for (size_t i = 0; i + 1 < files.size(); ++i) {
        QCOMPARE(readFile(onDisk[int(i)]), readFile(QString::fromStdString(files[i].localPath)));
        QVERIFY(QFile::exists(onDisk[int(i)]));
        struct stat info
        { };
        QCOMPARE(::stat(onDisk[int(i)].toLocal8Bit().constData(), &info), 0);
        QCOMPARE(int(info.st_mode & 0777), files[i].mode);
    }
    QVERIFY(!progress.calls.empty());
    QVERIFY(progress.monotonic());
    QCOMPARE(progress.calls.back().first, total);
    QCOMPARE(progress.calls.back().second, total);
    QVERIFY(progress.calls.size() > files.size() / 2); // after each chunk, not once at the end
    // The checksum list was removed from the home folder.
    QCOMPARE(QDir(home).entryList({QStringLiteral(".gpuplan-upload-*")}, QDir::Hidden | QDir::Files).size(), 0);

    // Uploading again replaces the files.
    QVERIFY(writeFile(QString::fromStdString(files[0].localPath), "changed"));
    std::vector<FileTransfer> again(files.begin(), files.end() - 1);
    Status replaced = session->uploadFiles(again);
    QVERIFY2(replaced.ok(), replaced.ok() ? "" : describe(replaced.error()).c_str());
    QCOMPARE(readFile(onDisk[0]), QByteArray("changed"));

    // A missing local file is found before anything is sent.
    again.push_back({path("no such local file").toStdString(), (remoteRoot + "/never").toStdString(), 0644});
    Status missing = session->uploadFiles(again);
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().code, ErrorCode::FileNotFound);
    QCOMPARE(missing.error().where, again.back().localPath);
}

void TestSsh::uploadFilesNamesTheFileThatDiffers()
{
    // The server's sha256sum first changes one uploaded file, as a failing disk or another writer would, then the
    // real sha256sum checks the list.
    const QString tampered = path("tamper/b file.txt");
    QVERIFY(QDir().mkpath(path("fakebin")));
    QVERIFY(writeFile(
        path("fakebin/sha256sum"),
        QStringLiteral("#!/bin/sh\nprintf changed >> '%1'\nexec /usr/bin/sha256sum \"$@\"\n").arg(tampered).toUtf8()));
    QVERIFY(QFile::setPermissions(path("fakebin/sha256sum"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    m_sshd.stop();
    QVERIFY(m_sshd.start("host_ed25519", "VERBOSE", {"SetEnv PATH=" + path("fakebin") + ":/usr/bin:/bin"}));
    m_port = m_sshd.port();
    auto session = connectOk(target());
    QVERIFY(session);

    std::vector<FileTransfer> files;
    for (const QString& name : {QStringLiteral("a.txt"), QStringLiteral("b file.txt"), QStringLiteral("c.txt")}) {
        const QString local = path("local " + name);
        QVERIFY(writeFile(local, name.toUtf8()));
        files.push_back({local.toStdString(), path("tamper/" + name).toStdString(), 0644});
    }
    Status uploaded = session->uploadFiles(files);
    QVERIFY(!uploaded.ok());
    QCOMPARE(uploaded.error().code, ErrorCode::Network);
    QCOMPARE(uploaded.error().reason.key, std::string("error.ssh.uploaded_file_differs"));
    QCOMPARE(QString::fromStdString(uploaded.error().reason.params.at("path")), tampered);
    QCOMPARE(uploaded.error().reason.params.at("count"), std::string("1"));
    QVERIFY(uploaded.error().where.find("b file.txt") != std::string::npos);
}

void TestSsh::downloadChecksAndResumes()
{
    auto session = connectOk(target());
    QVERIFY(session);
    const QByteArray content = randomBytes(3 * 1024 * 1024 + 12345, 5);
    QVERIFY(QDir().mkpath(path("remote files")));
    const QString remote = path("remote files/model checkpoint's.bin");
    QVERIFY(writeFile(remote, content));
    const QString local = path("downloads/run 1/checkpoint.bin"); // its folder is made
    const QString part = local + ".part";
    const auto size = static_cast<std::uintmax_t>(content.size());
    const std::string expected = QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex().toStdString();

    ProgressLog progress;
    auto digest = session->download(remote.toStdString(), local.toStdString(), progress.callback());
    QVERIFY2(digest.ok(), digest.ok() ? "" : describe(digest.error()).c_str());
    QCOMPARE(*digest, expected);
    QVERIFY(readFile(local) == content);
    QVERIFY(!QFile::exists(part));
    QVERIFY(progress.monotonic());
    QCOMPARE(progress.calls.front().first, std::uintmax_t(0));
    QCOMPARE(progress.calls.back(), std::make_pair(size, size));
    QVERIFY(progress.calls.size() > 10);

    // Resuming: a .part holding the first half is continued from there.
    QVERIFY(QFile::remove(local));
    const qsizetype half = content.size() / 2;
    QVERIFY(writeFile(part, content.left(half)));
    ProgressLog resumed;
    auto again = session->download(remote.toStdString(), local.toStdString(), resumed.callback());
    QVERIFY2(again.ok(), again.ok() ? "" : describe(again.error()).c_str());
    QCOMPARE(*again, expected);
    QVERIFY(readFile(local) == content);
    QVERIFY(!QFile::exists(part));
    QVERIFY(resumed.monotonic());
    QCOMPARE(resumed.calls.front().first, static_cast<std::uintmax_t>(half)); // only the rest was transferred
    QCOMPARE(resumed.calls.back(), std::make_pair(size, size));
    QVERIFY(resumed.calls.size() < progress.calls.size());
}

void TestSsh::downloadOfWrongPartMissingFileAndCancel()
{
    auto session = connectOk(target());
    QVERIFY(session);
    const QByteArray content = randomBytes(2 * 1024 * 1024 + 3, 6);
    QVERIFY(QDir().mkpath(path("remote files")));
    const QString remote = path("remote files/data.bin");
    QVERIFY(writeFile(remote, content));
    QVERIFY(QDir().mkpath(path("downloads")));
    const QString local = path("downloads/data.bin");
    const QString part = local + ".part";

    // A .part whose bytes are not the file's beginning: the checksum tells, and the .part goes.
    QVERIFY(writeFile(part, QByteArray(content.size() / 2, '\0')));
    auto wrong = session->download(remote.toStdString(), local.toStdString());
    QVERIFY(!wrong.ok());
    QCOMPARE(wrong.error().code, ErrorCode::Network);
    QCOMPARE(wrong.error().reason.key, std::string("error.ssh.download_checksum_mismatch"));
    QCOMPARE(wrong.error().reason.params.at("remote_sha256"),
             QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex().toStdString());
    QVERIFY(!QFile::exists(part));
    QVERIFY(!QFile::exists(local));

    // No such remote file.
    const QString nothing = path("remote files/not here.bin");
    auto missing = session->download(nothing.toStdString(), local.toStdString());
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().code, ErrorCode::NotFound);
    QCOMPARE(missing.error().reason.key, std::string("error.ssh.remote_file_missing"));
    QCOMPARE(QString::fromStdString(missing.error().reason.params.at("path")), nothing);
    QVERIFY(!QFile::exists(part));

    // Cancelled after the first bytes: the .part stays, and the next try continues it.
    CancelToken token;
    auto cancelling = [&token](std::uintmax_t done, std::uintmax_t) {
        if (done > 0) {
            token.cancel();
        }
    };
    auto cancelled = session->download(remote.toStdString(), local.toStdString(), cancelling, &token);
    QVERIFY(!cancelled.ok());
    QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);
    const qint64 kept = QFileInfo(part).size();
    QVERIFY(kept > 0);
    QVERIFY(kept < content.size());
    ProgressLog resumed;
    auto finished = session->download(remote.toStdString(), local.toStdString(), resumed.callback());
    QVERIFY2(finished.ok(), finished.ok() ? "" : describe(finished.error()).c_str());
    QCOMPARE(resumed.calls.front().first, static_cast<std::uintmax_t>(kept));
    QVERIFY(readFile(local) == content);
}

// The TensorBoard tunnel of the run stage: an HTTP server that listens on the remote's 127.0.0.1 only, reached from
// a local port through the SSH connection (python's http.server stands in for TensorBoard; the remote is this
// machine).
void TestSsh::tensorBoardTunnelReachesARemoteHttpServer()
{
    m_sshd.stop();
    QVERIFY(startSshd("host_ed25519", "DEBUG1")); // the log names each direct-tcpip channel
    QTemporaryDir site;
    QVERIFY(site.isValid());
    const QByteArray page = "<html>runs " + QByteArray::number(QRandomGenerator::global()->generate()) + "</html>\n";
    QVERIFY(writeFile(site.filePath("index.html"), page));
    const int httpPort = freePort();
    QProcess server;
    server.setWorkingDirectory(site.path());
    server.setStandardOutputFile(QProcess::nullDevice());
    server.setStandardErrorFile(QProcess::nullDevice()); // its log of each request
    server.start(QStringLiteral("python3"),
                 {"-m", "http.server", QString::number(httpPort), "--bind", "127.0.0.1", "--directory", site.path()});
    QVERIFY(server.waitForStarted(5000));
    auto stopServer = qScopeGuard([&server] {
        server.kill();
        server.waitForFinished(5000);
    });
    QVERIFY(waitForListening(httpPort));

    auto session = connectOk(target());
    QVERIFY(session);
    auto opened = SshTunnel::open(std::move(session), "127.0.0.1", httpPort);
    QVERIFY2(opened.ok(), opened.ok() ? "" : describe(opened.error()).c_str());
    std::unique_ptr<SshTunnel> tunnel = std::move(opened).value();
    const int localPort = tunnel->localPort();
    QVERIFY(localPort > 0);
    QVERIFY(localPort != httpPort);

    // Two connections at once: the first sends half its request and waits while the second is served whole.
    int first = connectLocal(localPort);
    int second = connectLocal(localPort);
    QVERIFY(first >= 0 && second >= 0);
    QVERIFY(sendAll(first, "GET / HTTP/1.0\r\n"));
    QVERIFY(sendAll(second, "GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"));
    bool secondClosed = false;
    const QByteArray secondAnswer = readToEnd(second, &secondClosed);
    QVERIFY(sendAll(first, "Host: 127.0.0.1\r\n\r\n"));
    bool firstClosed = false;
    const QByteArray firstAnswer = readToEnd(first, &firstClosed);
    ::close(first);
    ::close(second);
    for (const QByteArray& answer : {firstAnswer, secondAnswer}) {
        QVERIFY2(answer.startsWith("HTTP/1.0 200"), answer.left(200).constData());
        QCOMPARE(answer.mid(answer.indexOf("\r\n\r\n") + 4), page);
    }
    QVERIFY(firstClosed && secondClosed); // the server's end of each answer closed the local connection
    QCOMPARE(tunnel->connections(), 2);
    QVERIFY(!tunnel->lastRefusal());
    tunnel.reset();

    QFile log(m_sshd.logFile());
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray logged = log.readAll();
    QCOMPARE(logged.count(QByteArray("target 127.0.0.1 port ") + QByteArray::number(httpPort)), 2);
}

void TestSsh::tunnelToAClosedPortKeepsTheRefusal()
{
    auto session = connectOk(target());
    QVERIFY(session);
    const int closedPort = freePort();
    auto opened = SshTunnel::open(std::move(session), "127.0.0.1", closedPort);
    QVERIFY2(opened.ok(), opened.ok() ? "" : describe(opened.error()).c_str());
    std::unique_ptr<SshTunnel> tunnel = std::move(opened).value();
    QVERIFY(!tunnel->lastRefusal());

    int fd = connectLocal(tunnel->localPort());
    QVERIFY(fd >= 0);
    bool closed = false;
    const QByteArray answer = readToEnd(fd, &closed);
    ::close(fd);
    QVERIFY(closed); // closed at once, not left hanging
    QVERIFY(answer.isEmpty());
    std::optional<Error> refusal = tunnel->lastRefusal();
    QVERIFY(refusal);
    QCOMPARE(refusal->code, ErrorCode::Network);
    QCOMPARE(refusal->reason.key, std::string("error.ssh.tunnel_refused"));
    QCOMPARE(refusal->reason.params.at("port"), std::to_string(closedPort));
    QCOMPARE(tunnel->connections(), 1);

    // The local port is taken while the tunnel lives.
    auto other = connectOk(target());
    QVERIFY(other);
    auto taken = SshTunnel::open(std::move(other), "127.0.0.1", closedPort, tunnel->localPort());
    QVERIFY(!taken.ok());
    QCOMPARE(taken.error().code, ErrorCode::Network);
    QCOMPARE(taken.error().reason.key, std::string("error.ssh.tunnel_listen_failed"));
    QCOMPARE(taken.error().reason.params.at("port"), std::to_string(tunnel->localPort()));
}

QTEST_GUILESS_MAIN(TestSsh)
#include "TestSsh.moc"
