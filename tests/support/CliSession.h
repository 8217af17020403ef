#pragma once

// `gpuplan` as a user runs it, against one provider's local fake (tests/integration/fakes): a home, data and config
// folder of its own, an SSH key pair, the credential stored through `gpuplan creds set --stdin` (the encrypted file
// backend), and the provider's endpoint pointed at the fake (GPUPLAN_ENDPOINT_<ID>). The launch flow tests run the CLI
// through one of these.

#include "../integration/fakes/FakeCloud.h"
#include "gpuplan/ledger/Ledger.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace gpuplan::testing {

/// One finished `gpuplan` run.
struct CliRun
{
    int exit = -1; // below -100 when it crashed or was killed
    QString out;
    QString err;

    QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
};

class CliSession
{
public:
    static QString binary() { return QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan"); }

    /// A fresh session for `c`: its folders, a key pair, the fake started with `c.fakeArgs` and `extraFakeArgs`, the
    /// credential stored. False (with a warning) when any of it failed.
    bool start(const ProviderCase& c, const QStringList& extraFakeArgs = {})
    {
        providerCase = c;
        dir = std::make_unique<QTemporaryDir>();
        env = QProcessEnvironment::systemEnvironment();
        env.insert("HOME", path("home"));
        env.insert("XDG_DATA_HOME", path("data"));
        env.insert("XDG_CONFIG_HOME", path("config"));
        env.insert("GPUPLAN_CREDENTIALS_BACKEND", "file");
        env.insert("GPUPLAN_CREDENTIALS_FILE", path("credentials.enc"));
        env.insert("GPUPLAN_CREDENTIALS_PASSPHRASE", "a passphrase for the launch tests");
        env.insert("GPUPLAN_POLL_SECONDS", "1");
        env.remove("GPUPLAN_TEST_KILL_AT");
        env.remove("GPUPLAN_LOG"); // quiet, as a user's run is by default: the tests read stderr
        QDir().mkpath(path("home"));
        QProcess keygen;
        keygen.start("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-C", "launch-test", "-f", path("id_ed25519")});
        if (!keygen.waitForFinished(20000) || keygen.exitCode() != 0) {
            qWarning() << "ssh-keygen failed";
            return false;
        }
        fake = std::make_unique<FakeCloud>();
        if (!fake->start(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/fakes/") + c.script,
                         dir->path(),
                         c.fakeArgs + extraFakeArgs)) {
            qWarning() << "the fake" << c.script << "did not start";
            return false;
        }
        env.insert("GPUPLAN_ENDPOINT_" + c.id.toUpper(), fake->url());
        QProcess creds;
        creds.setProcessEnvironment(env);
        creds.start(binary(), {"creds", "set", c.id, "--stdin"});
        creds.write(QJsonDocument(c.credential).toJson(QJsonDocument::Compact));
        creds.closeWriteChannel();
        if (!creds.waitForFinished(30000) || creds.exitCode() != 0) {
            qWarning() << "gpuplan creds set failed:" << creds.readAllStandardError();
            return false;
        }
        return true;
    }

    QString path(const QString& name) const { return dir->path() + "/" + name; }

    /// Runs `gpuplan args` to its end (two minutes at most), with `extra` added to the session's environment.
    CliRun gpuplan(const QStringList& args, const QProcessEnvironment& extra = {}) const
    {
        QProcess process;
        QProcessEnvironment all = env;
        for (const QString& k : extra.keys()) {
            all.insert(k, extra.value(k));
        }
        process.setProcessEnvironment(all);
        process.start(binary(), args);
        process.closeWriteChannel();
        CliRun r;
        if (!process.waitForFinished(120000)) {
            process.kill();
            process.waitForFinished();
            r.err = "timed out";
            return r;
        }
        r.exit = process.exitStatus() == QProcess::CrashExit ? -process.error() - 100 : process.exitCode();
        r.out = QString::fromUtf8(process.readAllStandardOutput());
        r.err = QString::fromUtf8(process.readAllStandardError());
        return r;
    }

    /// The session's ledger, opened beside the program's; null when it cannot be opened.
    std::unique_ptr<core::Ledger> ledger() const
    {
        core::Result<std::unique_ptr<core::Ledger>> l =
            core::Ledger::open((path("data") + "/gpuplanner/ledger.sqlite").toStdString());
        return l ? std::move(l).value() : nullptr;
    }

    ProviderCase providerCase;
    std::unique_ptr<QTemporaryDir> dir;
    QProcessEnvironment env;
    std::unique_ptr<FakeCloud> fake;
};

} // namespace gpuplan::testing
