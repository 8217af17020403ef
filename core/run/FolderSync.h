#pragma once
// A local folder's listed files to a folder on the instance: rsync over ssh when both ends have it, else SFTP.
// Private to core/run.

#include "gpuplan/deploy/SshSession.h"
#include "gpuplan/run/RunWorkflow.h"
#include "gpuplan/run/WorkdirFiles.h"

#include <filesystem>
#include <functional>
#include <string>

namespace gpuplan::core {

/// How far a sync is (bytes of the listing) and what it decided ("run.sync.rsync", "run.sync.sftp" {why}).
using SyncProgress = std::function<void(std::uintmax_t done, std::uintmax_t total, const Reason& note)>;

/// Sends `listing`'s files of `local` to `remote` (an absolute path on the instance; created). Auto tries rsync
/// (local and remote rsync, no jump host) and falls back to SFTP when it cannot run or its ssh cannot log in; the
/// note says which and why. Errors: the transfer's (Network, Cancelled), RemoteCommandFailed ("error.run.rsync_failed"
/// {code, said}) when rsync was asked for and failed.
Status syncFolder(SshSession& session,
                  const RunConnection& connection,
                  const std::filesystem::path& local,
                  const WorkdirListing& listing,
                  const std::string& remote,
                  SyncMethod method,
                  const SyncProgress& onProgress,
                  const CancelToken* cancel);

/// The ssh command line rsync logs in with (-e): the target's port and key, BatchMode, the same known_hosts file
/// with strict checking, and no user configuration (the target was already resolved from it).
std::string rsyncShell(const RunConnection& connection);

} // namespace gpuplan::core
