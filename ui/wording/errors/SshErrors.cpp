// The words of core's error.ssh.*, error.deploy.* errors.
#include "wording/errors/ErrorWording.h"

#include <QStringList>

namespace gpuplan::ui::errorwording {

namespace {

/// The translation context of these errors.
struct SshErrors
{
    Q_DECLARE_TR_FUNCTIONS(SshErrors)
};

/// `text`, then libssh's (or the system's) own words in parentheses when the reason has them.
QString withSaid(const QString& text, const ReasonParams& p)
{
    const QString said = p.text("said");
    return said.isEmpty() ? text : SshErrors::tr("%1 (%2)").arg(text, said);
}

/// A USER@HOST[:PORT] that cannot be read: why, then what is expected.
QString badTarget(const QString& why, const ReasonParams& p)
{
    QString text = SshErrors::tr("%1; expected USER@HOST or USER@HOST:PORT, e.g. ubuntu@203.0.113.7:22").arg(why);
    if (p.text("or_alias") == QLatin1String("1")) {
        text = SshErrors::tr("%1 (or an alias of the SSH configuration)").arg(text);
    }
    return text;
}

/// The keys a login tried: "identity_file", else "agent" (1: ssh-agent's and ~/.ssh's, 0: ~/.ssh's only).
QString tried(const ReasonParams& p)
{
    if (p.has("identity_file")) {
        return SshErrors::tr("the key %1").arg(p.text("identity_file"));
    }
    return p.text("agent") == QLatin1String("1")
               ? SshErrors::tr("the keys of ssh-agent and ~/.ssh")
               : SshErrors::tr("the keys in ~/.ssh (no ssh-agent: SSH_AUTH_SOCK is not set)");
}

/// "the server offers: publickey, password".
QString offered(const ReasonParams& p)
{
    return SshErrors::tr("the server offers: %1").arg(p.has("methods") ? p.text("methods") : SshErrors::tr("none"));
}

/// Why an SFTP step failed: the status worded, else libssh's text.
QString sftpWhy(const ReasonParams& p)
{
    const QString status = p.text("sftp_status");
    if (status == QLatin1String("no_such_path")) {
        return SshErrors::tr("no such directory");
    }
    if (status == QLatin1String("permission_denied")) {
        return SshErrors::tr("permission denied");
    }
    if (status == QLatin1String("failure")) {
        return SshErrors::tr("failure (disk full? a directory?)");
    }
    return p.text("said");
}

/// A remote command's last output on the lines after the sentence, when it printed any.
QString withOutput(const QString& text, const ReasonParams& p)
{
    const QString said = p.text("said");
    return said.isEmpty() ? text : text + QStringLiteral(":\n") + said;
}

/// The keys known_hosts has for the host, one a line in "old_keys": "ed25519 SHA256:x and rsa SHA256:y".
QString oldKeys(const ReasonParams& p)
{
    const QStringList keys = p.text("old_keys").split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (keys.isEmpty()) {
        return SshErrors::tr("another key");
    }
    QString text = keys.front();
    for (qsizetype i = 1; i < keys.size(); ++i) {
        text = SshErrors::tr("%1 and %2").arg(text, keys[i]);
    }
    return text;
}

QString deployErrorText(const std::string& key, const ReasonParams& p)
{
    const QString status = p.text("exit_status");
    if (key == "error.deploy.facts_unreadable") {
        const QString said = p.text("said");
        const QString printed = said.isEmpty() ? SshErrors::tr("nothing") : QStringLiteral("\"%1\"").arg(said);
        return SshErrors::tr("the machine's facts (OS, driver, GPUs) could not be read: the detection command "
                             "printed %1 and exited with status %2")
            .arg(printed, status);
    }
    if (key == "error.deploy.mkdir_failed") {
        return withOutput(SshErrors::tr("making %1 failed with exit status %2").arg(p.text("dir"), status), p);
    }
    if (key == "error.deploy.install_failed") {
        return withOutput(SshErrors::tr("putting the probe in place failed with exit status %1").arg(status), p);
    }
    if (key == "error.deploy.unpack_failed") {
        return withOutput(SshErrors::tr("unpacking the probe's source failed with exit status %1").arg(status), p);
    }
    if (key == "error.deploy.build_failed") {
        return withOutput(
            SshErrors::tr("building the probe with %1 failed with exit status %2").arg(p.text("nvcc"), status), p);
    }
    if (key == "error.deploy.probe_silent") {
        return withOutput(SshErrors::tr("the probe printed nothing and exited with status %1").arg(status), p);
    }
    return {};
}

} // namespace

QString sshErrorText(const core::Reason& reason)
{
    const ReasonParams p(reason.params);
    const std::string& key = reason.key;
    if (key.starts_with("error.deploy.")) {
        return deployErrorText(key, p);
    }
    // Framing an inner error: "jump host bastion: could not connect ...".
    if (key == "error.ssh.via_jump_host") {
        return SshErrors::tr("jump host %1").arg(p.text("host"));
    }
    if (key == "error.ssh.cancelled") {
        return SshErrors::tr("cancelled");
    }

    // A typed USER@HOST[:PORT].
    if (key == "error.ssh.target_no_user") {
        return badTarget(SshErrors::tr("no user name before '@'"), p);
    }
    if (key == "error.ssh.target_unclosed_bracket") {
        return badTarget(SshErrors::tr("'[' without ']'"), p);
    }
    if (key == "error.ssh.target_text_after_bracket") {
        return badTarget(SshErrors::tr("unexpected text after ']'"), p);
    }
    if (key == "error.ssh.target_empty_port") {
        return badTarget(SshErrors::tr("empty port"), p);
    }
    if (key == "error.ssh.target_no_host") {
        return badTarget(SshErrors::tr("no host name after '@'"), p);
    }
    if (key == "error.ssh.target_bad_host_character") {
        return badTarget(SshErrors::tr("the host name contains '%1'").arg(p.text("character")), p);
    }
    if (key == "error.ssh.target_bad_port") {
        return badTarget(SshErrors::tr("the port '%1' is not a number from 1 to 65535").arg(p.text("port")), p);
    }
    if (key == "error.ssh.target_incomplete") {
        return SshErrors::tr("an SSH target needs a user and a host");
    }
    if (key == "error.ssh.port_out_of_range") {
        return SshErrors::tr("the port is not from 1 to 65535");
    }
    if (key == "error.ssh.no_user_name") {
        return SshErrors::tr("no user name: write USER@HOST, or set User for this host in the SSH configuration");
    }

    // The OpenSSH client configuration.
    if (key == "error.ssh.config_unreadable") {
        return SshErrors::tr("cannot read the SSH configuration");
    }
    if (key == "error.ssh.config_bad_port") {
        return SshErrors::tr("Port '%1' in the SSH configuration is not a number from 1 to 65535").arg(p.text("port"));
    }
    if (key == "error.ssh.config_include_too_deep") {
        return SshErrors::tr("the SSH configuration's Include goes more than %1 deep").arg(p.text("limit"));
    }

    // Connecting.
    if (key == "error.ssh.jump_forward_refused") {
        return SshErrors::tr("the jump host %1 could not open a connection to %2 port %3 (%4); does it allow TCP "
                             "forwarding?")
            .arg(p.text("jump"), p.text("host"), p.text("port"), p.text("said"));
    }
    if (key == "error.ssh.socketpair_failed") {
        return SshErrors::tr("socketpair failed: %1").arg(p.text("said"));
    }
    if (key == "error.ssh.no_session") {
        return SshErrors::tr("libssh could not create a session (out of memory?)");
    }
    if (key == "error.ssh.option_refused") {
        return withSaid(SshErrors::tr("libssh refused an option"), p);
    }
    if (key == "error.ssh.connect_failed") {
        return withSaid(SshErrors::tr("could not connect to %1 port %2").arg(p.text("host"), p.text("port")), p);
    }

    // The host key.
    if (key == "error.ssh.no_host_key") {
        return withSaid(SshErrors::tr("the server sent no host key"), p);
    }
    if (key == "error.ssh.host_key_changed") {
        return SshErrors::tr("WARNING: the host key of %1 has changed: %2 has %3, the server now shows %4 %5. This is "
                             "a possible man-in-the-middle attack, or the server was reinstalled. Connection "
                             "refused. If you know why the key changed, remove the old key with ssh-keygen -R '%1' "
                             "-f %2 and connect again.")
            .arg(p.text("host"), p.text("known_hosts"), oldKeys(p), p.text("type"), p.text("fingerprint"));
    }
    if (key == "error.ssh.host_key_unknown") {
        return SshErrors::tr("the host key of %1 (%2 %3) is not in %4 and nobody was asked to trust it")
            .arg(p.text("host"), p.text("type"), p.text("fingerprint"), p.text("known_hosts"));
    }
    if (key == "error.ssh.host_key_not_trusted") {
        return SshErrors::tr("the host key of %1 (%2 %3) was not trusted")
            .arg(p.text("host"), p.text("type"), p.text("fingerprint"));
    }
    if (key == "error.ssh.known_hosts_not_updated") {
        return withSaid(SshErrors::tr("could not add the host key to %1").arg(p.text("known_hosts")), p);
    }
    if (key == "error.ssh.known_hosts_not_checked") {
        return withSaid(SshErrors::tr("could not check the host key against %1").arg(p.text("known_hosts")), p);
    }

    // Logging in.
    if (key == "error.ssh.login_connection_failed") {
        return withSaid(SshErrors::tr("the connection failed during login"), p);
    }
    if (key == "error.ssh.no_publickey_method") {
        return SshErrors::tr("the server does not accept public keys for %1; %2").arg(p.text("user"), offered(p));
    }
    if (key == "error.ssh.identity_file_unreadable") {
        return SshErrors::tr("the identity file does not exist or cannot be read");
    }
    if (key == "error.ssh.identity_file_passphrase") {
        return SshErrors::tr("wrong or no passphrase for the identity file");
    }
    if (key == "error.ssh.identity_file_not_a_key") {
        return SshErrors::tr("the identity file is not a private key libssh can read");
    }
    if (key == "error.ssh.second_factor_unsupported") {
        return SshErrors::tr("the server wants a second authentication step after %1, which is not supported; %2")
            .arg(tried(p), offered(p));
    }
    if (key == "error.ssh.key_refused") {
        return SshErrors::tr("the server refused %1 for user %2; %3. Is the public key in ~%2/.ssh/authorized_keys?")
            .arg(tried(p), p.text("user"), offered(p));
    }
    if (key == "error.ssh.login_failed") {
        return withSaid(SshErrors::tr("the connection failed during login with %1").arg(tried(p)), p);
    }

    // Running a command.
    if (key == "error.ssh.lost_before_command") {
        return withSaid(SshErrors::tr("the connection to %1 was lost before the command started").arg(p.text("host")),
                        p);
    }
    if (key == "error.ssh.lost_during_command") {
        return withSaid(SshErrors::tr("the connection to %1 was lost while running the command").arg(p.text("host")),
                        p);
    }
    if (key == "error.ssh.lost_before_exit_status") {
        return withSaid(
            SshErrors::tr("the connection to %1 was lost before the command's exit status came").arg(p.text("host")),
            p);
    }
    if (key == "error.ssh.no_channel") {
        return withSaid(SshErrors::tr("could not open a channel"), p);
    }
    if (key == "error.ssh.exec_refused") {
        return withSaid(SshErrors::tr("the server refused to run the command"), p);
    }
    if (key == "error.ssh.cancelled_during_command") {
        return SshErrors::tr("cancelled while running the command");
    }
    if (key == "error.ssh.output_too_large") {
        return SshErrors::tr("the command sent more than %1 MiB of output; it was stopped and its output dropped")
            .arg(p.text("limit_mib"));
    }
    if (key == "error.ssh.command_timeout") {
        return SshErrors::tr("the command did not finish within %1 ms").arg(p.text("timeout_ms"));
    }
    if (key == "error.ssh.no_exit_status") {
        return SshErrors::tr("the command ended without an exit status (killed by a signal?)");
    }

    // Uploading a file.
    if (key == "error.ssh.local_file_unreadable") {
        return SshErrors::tr("cannot read the file");
    }
    if (key == "error.ssh.local_file_missing") {
        return SshErrors::tr("no such file");
    }
    if (key == "error.ssh.local_file_read_failed") {
        return SshErrors::tr("reading the file failed");
    }
    if (key == "error.ssh.no_sftp") {
        return withSaid(SshErrors::tr("the server has no SFTP subsystem or refused it"), p);
    }
    if (key == "error.ssh.remote_create_failed") {
        return SshErrors::tr("cannot create the remote file: %1").arg(sftpWhy(p));
    }
    if (key == "error.ssh.remote_write_failed") {
        return SshErrors::tr("writing the remote file failed: %1").arg(sftpWhy(p));
    }
    if (key == "error.ssh.remote_close_failed") {
        return SshErrors::tr("closing the remote file failed: %1").arg(sftpWhy(p));
    }
    if (key == "error.ssh.remote_chmod_failed") {
        return SshErrors::tr("setting the file mode failed: %1").arg(sftpWhy(p));
    }
    if (key == "error.ssh.checksum_failed") {
        return SshErrors::tr("could not check the uploaded file: sha256sum exited with %1: %2")
            .arg(p.text("exit_status"), p.text("said"));
    }
    if (key == "error.ssh.checksum_mismatch") {
        const QString remote = p.text("remote_sha256");
        return SshErrors::tr("the uploaded file differs from the local one: SHA-256 %1 here, %2 on the server")
            .arg(p.text("local_sha256"), remote.isEmpty() ? SshErrors::tr("none") : remote);
    }
    // Uploading many files.
    if (key == "error.ssh.remote_path_unusable") {
        const QString problem = p.text("problem");
        if (problem == QLatin1String("empty")) {
            return SshErrors::tr("a file to upload has no remote path");
        }
        if (problem == QLatin1String("folder")) {
            return SshErrors::tr("the remote path %1 names a folder, not a file").arg(p.text("path"));
        }
        return SshErrors::tr("the remote path %1 holds a carriage return or NUL character, which sha256sum cannot "
                             "check; rename the file")
            .arg(p.text("path"));
    }
    if (key == "error.ssh.remote_not_a_folder") {
        return SshErrors::tr("%1 exists on the server but is not a folder").arg(p.text("path"));
    }
    if (key == "error.ssh.remote_mkdir_failed") {
        return SshErrors::tr("cannot make the remote folder %1: %2").arg(p.text("path"), sftpWhy(p));
    }
    if (key == "error.ssh.uploaded_file_differs") {
        const int count = p.text("count").toInt();
        if (count > 1) {
            return SshErrors::tr("%1 differs on the server from the local file after the upload (and %2 more files "
                                 "do); upload again")
                .arg(p.text("path"))
                .arg(count - 1);
        }
        return SshErrors::tr("%1 differs on the server from the local file after the upload; upload again")
            .arg(p.text("path"));
    }

    // Downloading a file.
    if (key == "error.ssh.local_folder_not_writable") {
        return withSaid(SshErrors::tr("cannot make the folder to download into"), p);
    }
    if (key == "error.ssh.remote_file_missing") {
        return SshErrors::tr("there is no file %1 on the server").arg(p.text("path"));
    }
    if (key == "error.ssh.remote_not_a_file") {
        return SshErrors::tr("%1 on the server is a folder, not a file").arg(p.text("path"));
    }
    if (key == "error.ssh.remote_open_failed") {
        return SshErrors::tr("cannot open the remote file: %1").arg(sftpWhy(p));
    }
    if (key == "error.ssh.remote_read_failed") {
        return SshErrors::tr("reading the remote file failed: %1").arg(sftpWhy(p));
    }
    if (key == "error.ssh.local_file_unwritable") {
        return withSaid(SshErrors::tr("cannot write the file"), p);
    }
    if (key == "error.ssh.local_write_failed") {
        return withSaid(SshErrors::tr("writing the file failed (disk full?)"), p);
    }
    if (key == "error.ssh.download_checksum_failed") {
        return SshErrors::tr("could not check the downloaded file: sha256sum on the server exited with %1: %2")
            .arg(p.text("exit_status"), p.text("said"));
    }
    if (key == "error.ssh.download_checksum_mismatch") {
        const QString remote = p.text("remote_sha256");
        return SshErrors::tr("the downloaded copy of %1 differs from the file on the server (SHA-256 %2 here, %3 "
                             "there); the partial download was deleted, download again")
            .arg(p.text("path"), p.text("local_sha256"), remote.isEmpty() ? SshErrors::tr("none") : remote);
    }
    if (key == "error.ssh.local_rename_failed") {
        return withSaid(SshErrors::tr("cannot put the downloaded file in place"), p);
    }

    // Forwarding a local port (TensorBoard).
    if (key == "error.ssh.tunnel_listen_failed") {
        return withSaid(SshErrors::tr("cannot listen on local port %1").arg(p.text("port")), p);
    }
    if (key == "error.ssh.tunnel_refused") {
        return withSaid(SshErrors::tr("the server could not connect to %1 port %2: is the program there running "
                                      "and listening on that port?")
                            .arg(p.text("host"), p.text("port")),
                        p);
    }
    if (key == "error.ssh.tunnel_connection_lost") {
        return withSaid(
            SshErrors::tr("the SSH connection that carries the forward to %1 port %2 was lost; open it again")
                .arg(p.text("host"), p.text("port")),
            p);
    }
    return {};
}

} // namespace gpuplan::ui::errorwording
