#pragma once

#include "gpuplan/core/Result.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

// Which files of a working directory go to the instance: all of them but what git would ignore.
namespace gpuplan::core {

struct WorkdirFile
{
    std::string path; // relative to the working directory, '/'-separated
    std::uintmax_t size = 0;
    bool executable = false; // the owner may execute it: kept so on the instance
};

struct WorkdirListing
{
    std::vector<WorkdirFile> files;        // sorted by path
    std::uintmax_t bytes = 0;              // their sizes together: shown before the upload
    std::vector<std::string> skippedLinks; // symbolic links, not followed (a link may leave the folder)
};

/// The regular files under `root` that a sync sends: never .git/, and nothing matched by a .gitignore in `root`
/// or any folder below it (gitignore(5): blank lines and # comments, ! negation, a trailing / for folders only,
/// a leading or middle / anchoring to the .gitignore's folder, *, ?, [...], and ** across folders; a later
/// pattern wins; an ignored folder is not entered, so a file in it cannot be re-included), nor by `extraExcludes`
/// (the same syntax, as if in root's .gitignore after its own lines). Symbolic links that no pattern excludes go to
/// skippedLinks, never followed. FileNotFound ("error.run.workdir_not_folder") when `root` is not a folder;
/// FileUnreadable naming a folder that cannot be listed ("error.run.folder_unreadable" {said}) or a .gitignore that
/// cannot be read ("error.run.gitignore_unreadable" {said}). Reads the disk; safe from any thread.
Result<WorkdirListing> listWorkdir(const std::filesystem::path& root,
                                   const std::vector<std::string>& extraExcludes = {});

} // namespace gpuplan::core
