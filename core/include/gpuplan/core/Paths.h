#pragma once

#include "gpuplan/core/Result.h"

#include <filesystem>
#include <string>

namespace gpuplan::core {

/// GPU Planner's data folder (XDG Base Directory): $XDG_DATA_HOME/gpuplanner, else ~/.local/share/gpuplanner;
/// empty when neither XDG_DATA_HOME nor HOME is set. The user's offers, the ledger and the encrypted
/// credentials live under it.
std::filesystem::path userDataDir();

/// Makes `dir` (and missing parents) for files only its owner may read: a folder this creates is 0700, and an
/// existing folder that others can read or enter is narrowed to 0700. FileUnreadable when it cannot be made or is
/// not a folder. Thread-safe (no shared state).
Status ensurePrivateDir(const std::filesystem::path& dir);

/// Who may read a file that writeFileAtomically writes.
enum class FileAccess
{
    Private,       // 0600, also when it replaces a file that others could read (ledger, credentials)
    KeepOrPrivate, // the mode of the file it replaces; 0600 for a new file (plans, which the user may share)
};

/// Writes `bytes` to a new file beside `file` (same folder, so the rename cannot cross file systems), flushes it to
/// disk, renames it over `file` and flushes the folder: a reader sees the old file or the new one, never a part,
/// even after a crash or a full disk. FileUnreadable naming the file and the system's reason when any step fails;
/// the temporary file is removed then. Thread-safe for different files.
Status writeFileAtomically(const std::filesystem::path& file, const std::string& bytes, FileAccess access);

} // namespace gpuplan::core
