#include "gpuplan/core/Paths.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpuplan::core {

namespace fs = std::filesystem;

std::filesystem::path userDataDir()
{
    if (const char* dataHome = std::getenv("XDG_DATA_HOME"); dataHome && *dataHome) {
        return std::filesystem::path(dataHome) / "gpuplanner";
    }
    if (const char* home = std::getenv("HOME"); home && *home) {
        return std::filesystem::path(home) / ".local" / "share" / "gpuplanner";
    }
    return {};
}

namespace {

/// `key`: one of error.paths.*; "said" is the system's words for errno `error`.
Error fileError(const fs::path& file, const char* key, int error)
{
    return Error{ErrorCode::FileUnreadable, Reason{key, {{"said", std::strerror(error)}}}, file.string()};
}

} // namespace

Status ensurePrivateDir(const fs::path& dir)
{
    std::error_code ec;
    if (!fs::exists(dir, ec)) {
        // The parents stay as the system makes them (~/.local/share is the user's); the folder itself is ours.
        if (dir.has_parent_path()) {
            fs::create_directories(dir.parent_path(), ec);
        }
        if (::mkdir(dir.c_str(), S_IRWXU) != 0 && errno != EEXIST) {
            return fileError(dir, "error.paths.cannot_create_folder", errno);
        }
    }
    struct stat info
    { };
    if (::stat(dir.c_str(), &info) != 0) {
        return fileError(dir, "error.paths.cannot_read_folder", errno);
    }
    if (!S_ISDIR(info.st_mode)) {
        return Error{ErrorCode::FileUnreadable, Reason{"error.paths.not_a_folder", {}}, dir.string()};
    }
    if ((info.st_mode & (S_IRWXG | S_IRWXO)) != 0 && info.st_uid == ::geteuid() && ::chmod(dir.c_str(), S_IRWXU) != 0) {
        return fileError(dir, "error.paths.cannot_restrict_folder", errno);
    }
    return Ok{};
}

Status writeFileAtomically(const fs::path& file, const std::string& bytes, FileAccess access)
{
    const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
    mode_t mode = S_IRUSR | S_IWUSR;
    if (struct stat old{}; access == FileAccess::KeepOrPrivate && ::stat(file.c_str(), &old) == 0) {
        mode = old.st_mode & (S_IRWXU | S_IRWXG | S_IRWXO);
    }
    std::string temporary = file.string() + ".XXXXXX";
    const int fd = ::mkstemp(temporary.data()); // 0600 (POSIX.1-2008), O_EXCL: never someone else's file
    if (fd < 0) {
        return fileError(file, "error.paths.cannot_create_temporary", errno);
    }
    auto fail = [&](const char* key) {
        const int error = errno;
        ::close(fd);
        ::unlink(temporary.c_str());
        return fileError(file, key, error);
    };
    if (::fchmod(fd, mode) != 0) {
        return fail("error.paths.cannot_set_permissions");
    }
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return fail("error.paths.cannot_write");
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) {
        return fail("error.paths.cannot_flush");
    }
    if (::close(fd) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        return fileError(file, "error.paths.cannot_write", error);
    }
    if (::rename(temporary.c_str(), file.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        return fileError(file, "error.paths.cannot_replace", error);
    }
    // The rename is durable only once the folder is flushed too.
    if (const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    return Ok{};
}

} // namespace gpuplan::core
