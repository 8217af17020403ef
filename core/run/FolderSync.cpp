#include "run/FolderSync.h"

#include "gpuplan/core/Log.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace gpuplan::core {

namespace {

/// Whether `program` is an executable on this computer's PATH.
bool onPath(const std::string& program)
{
    const char* path = std::getenv("PATH");
    std::string_view rest = path ? path : "/usr/bin:/bin";
    while (!rest.empty()) {
        const std::size_t colon = rest.find(':');
        const std::string dir(rest.substr(0, colon));
        if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0) {
            return true;
        }
        rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
    return false;
}

/// Single-quoted for rsync's -e splitting (it honours '...' like a shell).
std::string rsyncQuote(const std::string& word)
{
    return shellQuote(word);
}

struct LocalRun
{
    int exitCode = -1;
    std::string errorTail; // the end of stderr
};

/// Runs `argv` here, calling `onStdout` with each chunk of its output; stops it when `cancel` is set.
Result<LocalRun> runLocal(const std::vector<std::string>& argv,
                          const std::function<void(std::string_view)>& onStdout,
                          const CancelToken* cancel)
{
    int out[2];
    int err[2];
    if (::pipe2(out, O_CLOEXEC) != 0) {
        return Error{ErrorCode::Internal, Reason{"error.run.cannot_start_local", {{"program", argv[0]}}}, argv[0]};
    }
    if (::pipe2(err, O_CLOEXEC) != 0) {
        ::close(out[0]);
        ::close(out[1]);
        return Error{ErrorCode::Internal, Reason{"error.run.cannot_start_local", {{"program", argv[0]}}}, argv[0]};
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    std::vector<char*> args;
    for (const std::string& arg : argv) {
        args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    ::close(err[1]);
    if (spawned != 0) {
        ::close(out[0]);
        ::close(err[0]);
        return Error{ErrorCode::FileNotFound, Reason{"error.run.cannot_start_local", {{"program", argv[0]}}}, argv[0]};
    }
    LocalRun result;
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    int open = 2;
    char buffer[16384];
    bool cancelled = false;
    while (open > 0) {
        if (cancel && cancel->cancelled() && !cancelled) {
            ::kill(pid, SIGTERM);
            cancelled = true;
        }
        if (::poll(fds, 2, 200) < 0 && errno != EINTR) {
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
            if (got <= 0) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            } else if (i == 0) {
                if (onStdout) {
                    onStdout(std::string_view(buffer, static_cast<std::size_t>(got)));
                }
            } else {
                result.errorTail.append(buffer, static_cast<std::size_t>(got));
                if (result.errorTail.size() > 4096) {
                    result.errorTail.erase(0, result.errorTail.size() - 4096);
                }
            }
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    if (cancelled) {
        return Error{ErrorCode::Cancelled, Reason{"error.run.cancelled", {}}, "rsync"};
    }
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

/// The bytes done in rsync's --info=progress2 line ("  1,234,567  45%  10.00MB/s  0:00:01 ...").
std::optional<std::uintmax_t> progressBytes(std::string_view line)
{
    std::size_t i = line.find_first_not_of(' ');
    if (i == std::string_view::npos || line[i] < '0' || line[i] > '9') {
        return std::nullopt;
    }
    std::uintmax_t value = 0;
    for (; i < line.size() && ((line[i] >= '0' && line[i] <= '9') || line[i] == ',' || line[i] == '.'); ++i) {
        if (line[i] >= '0' && line[i] <= '9') {
            value = value * 10 + static_cast<std::uintmax_t>(line[i] - '0');
        }
    }
    return value;
}

Status sftpSync(SshSession& session,
                const std::filesystem::path& local,
                const WorkdirListing& listing,
                const std::string& remote,
                const SyncProgress& onProgress,
                const CancelToken* cancel)
{
    std::vector<FileTransfer> files;
    files.reserve(listing.files.size());
    for (const WorkdirFile& file : listing.files) {
        files.push_back(
            FileTransfer{(local / file.path).string(), remote + "/" + file.path, file.executable ? 0755 : 0644});
    }
    if (files.empty()) {
        // wire: a shell command run on the remote machine
        Result<int> made = session.run("mkdir -p " + shellQuote(remote), {});
        if (!made) {
            return made.error();
        }
        return Ok{};
    }
    return session.uploadFiles(
        files,
        [&](std::uintmax_t done, std::uintmax_t total) {
            if (onProgress) {
                onProgress(done, total, {});
            }
        },
        cancel);
}

} // namespace

std::string rsyncShell(const RunConnection& connection)
{
    const SshTarget& target = connection.target;
    // wire: the ssh command line rsync runs
    std::string shell = "ssh -F /dev/null -p " + std::to_string(target.port)
                        + " -o BatchMode=yes -o StrictHostKeyChecking=yes -o ConnectTimeout=15";
    const std::string knownHosts =
        connection.knownHostsFile.empty()
            ? std::string(std::getenv("HOME") ? std::getenv("HOME") : "") + "/.ssh/known_hosts"
            : connection.knownHostsFile;
    shell += " -o UserKnownHostsFile=" + rsyncQuote(knownHosts);
    if (!target.identityFile.empty()) {
        shell += " -o IdentitiesOnly=yes -i " + rsyncQuote(target.identityFile);
    }
    return shell;
}

Status syncFolder(SshSession& session,
                  const RunConnection& connection,
                  const std::filesystem::path& local,
                  const WorkdirListing& listing,
                  const std::string& remote,
                  SyncMethod method,
                  const SyncProgress& onProgress,
                  const CancelToken* cancel)
{
    auto note = [&](Reason reason) {
        if (onProgress) {
            onProgress(0, listing.bytes, reason);
        }
    };
    if (method == SyncMethod::Sftp) {
        note(Reason{"run.sync.sftp", {{"why", "asked"}}});
        return sftpSync(session, local, listing, remote, onProgress, cancel);
    }
    // Whether rsync can run at both ends, and why not.
    std::string why;
    if (!connection.target.jumps.empty()) {
        why = "jump_host";
    } else if (!onPath("rsync") || !onPath("ssh")) {
        why = "no_local_rsync";
    } else {
        // wire: a shell command run on the remote machine
        Result<int> remoteRsync =
            session.run("command -v rsync >/dev/null", {}, SshRunOptions{std::chrono::seconds(30)});
        if (!remoteRsync) {
            return remoteRsync.error();
        }
        if (*remoteRsync != 0) {
            why = "no_remote_rsync";
        }
    }
    if (!why.empty()) {
        if (method == SyncMethod::Rsync) {
            return Error{
                ErrorCode::RemoteCommandFailed, Reason{"error.run.rsync_unavailable", {{"why", why}}}, "rsync"};
        }
        note(Reason{"run.sync.sftp", {{"why", why}}});
        return sftpSync(session, local, listing, remote, onProgress, cancel);
    }
    // wire: a shell command run on the remote machine
    Result<int> made = session.run("mkdir -p " + shellQuote(remote), {});
    if (!made) {
        return made.error();
    }
    // The exact list of files (NUL-separated), so that rsync sends what the listing shows and nothing git ignores.
    char listName[] = "/tmp/gpuplan-rsync-XXXXXX";
    const int listFd = ::mkstemp(listName);
    if (listFd < 0) {
        return Error{ErrorCode::FileUnreadable, Reason{"error.run.cannot_write_list", {}}, listName};
    }
    std::string list;
    for (const WorkdirFile& file : listing.files) {
        list += file.path;
        list.push_back('\0');
    }
    const bool written = ::write(listFd, list.data(), list.size()) == static_cast<ssize_t>(list.size());
    ::close(listFd);
    if (!written) {
        ::unlink(listName);
        return Error{ErrorCode::FileUnreadable, Reason{"error.run.cannot_write_list", {}}, listName};
    }
    const SshTarget& target = connection.target;
    const std::string host = target.host.find(':') != std::string::npos ? "[" + target.host + "]" : target.host;
    // wire: rsync's command line
    const std::vector<std::string> argv{"rsync",
                                        "-a",
                                        "--from0",
                                        "--files-from=" + std::string(listName),
                                        "--info=progress2",
                                        "--no-inc-recursive",
                                        "-e",
                                        rsyncShell(connection),
                                        local.string() + "/",
                                        target.user + "@" + host + ":" + remote + "/"};
    note(Reason{"run.sync.rsync", {}});
    std::string pending;
    Result<LocalRun> ran = runLocal(
        argv,
        [&](std::string_view chunk) {
            pending.append(chunk);
            std::size_t end;
            while ((end = pending.find_first_of("\r\n")) != std::string::npos) {
                if (const auto bytes = progressBytes(std::string_view(pending).substr(0, end)); bytes && onProgress) {
                    onProgress(std::min(*bytes, listing.bytes), listing.bytes, {});
                }
                pending.erase(0, end + 1);
            }
        },
        cancel);
    ::unlink(listName);
    if (!ran) {
        return ran.error();
    }
    if (ran->exitCode == 0) {
        if (onProgress) {
            onProgress(listing.bytes, listing.bytes, {});
        }
        return Ok{};
    }
    // 255: its ssh could not log in (a passphrase it cannot ask for, an agent it cannot reach): SFTP can.
    if (method == SyncMethod::Auto && ran->exitCode == 255) {
        logInfo(LogCategory::Ssh, [&] { return "rsync: ssh could not log in, sending over SFTP: " + ran->errorTail; });
        note(Reason{"run.sync.sftp", {{"why", "rsync_login"}}});
        return sftpSync(session, local, listing, remote, onProgress, cancel);
    }
    return Error{ErrorCode::RemoteCommandFailed,
                 Reason{"error.run.rsync_failed", {{"code", std::to_string(ran->exitCode)}, {"said", ran->errorTail}}},
                 "rsync"};
}

} // namespace gpuplan::core
