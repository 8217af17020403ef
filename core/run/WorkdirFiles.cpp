#include "gpuplan/run/WorkdirFiles.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <system_error>

// gitignore(5) (https://git-scm.com/docs/gitignore) as git itself applies it (dir.c, wildmatch.c): the patterns
// of a folder's .gitignore apply to what is below it; a deeper .gitignore overrides a shallower one; within one
// file the last matching pattern wins; an excluded folder is not entered.
namespace gpuplan::core {

namespace {

namespace fs = std::filesystem;

enum class Wild
{
    Match,
    NoMatch,
    AbortAll,
    AbortToStarStar,
};

bool isGlobSpecial(char c)
{
    return c == '*' || c == '?' || c == '[' || c == '\\';
}

/// A POSIX class inside brackets ("[[:alpha:]]"), `name` without its colons.
bool inClass(std::string_view name, unsigned char c, bool& known)
{
    known = true;
    if (name == "alnum") {
        return std::isalnum(c);
    }
    if (name == "alpha") {
        return std::isalpha(c);
    }
    if (name == "blank") {
        return c == ' ' || c == '\t';
    }
    if (name == "cntrl") {
        return std::iscntrl(c);
    }
    if (name == "digit") {
        return std::isdigit(c);
    }
    if (name == "graph") {
        return std::isgraph(c);
    }
    if (name == "lower") {
        return std::islower(c);
    }
    if (name == "print") {
        return std::isprint(c);
    }
    if (name == "punct") {
        return std::ispunct(c);
    }
    if (name == "space") {
        return std::isspace(c);
    }
    if (name == "upper") {
        return std::isupper(c);
    }
    if (name == "xdigit") {
        return std::isxdigit(c);
    }
    known = false;
    return false;
}

/// git's wildmatch() with WM_PATHNAME (wildmatch.c, dowild): '*' and '?' stop at '/', "**" between slashes (or at
/// either end) crosses folders. Both strings are NUL-terminated.
Wild wildmatch(const char* p, const char* text)
{
    const char* const pattern = p;
    for (; *p != '\0'; ++text, ++p) {
        unsigned char pCh = static_cast<unsigned char>(*p);
        unsigned char tCh = static_cast<unsigned char>(*text);
        if (tCh == '\0' && pCh != '*') {
            return Wild::AbortAll;
        }
        switch (pCh) {
            case '\\':
                // A literal next character; a trailing backslash matches nothing.
                pCh = static_cast<unsigned char>(*++p);
                [[fallthrough]];
            default:
                if (tCh != pCh) {
                    return Wild::NoMatch;
                }
                continue;
            case '?':
                if (tCh == '/') {
                    return Wild::NoMatch;
                }
                continue;
            case '*': {
                bool matchSlash = false;
                if (*++p == '*') {
                    const char* prev = p - 2;
                    while (*++p == '*') { }
                    if ((prev < pattern || *prev == '/')
                        && (*p == '\0' || *p == '/' || (p[0] == '\\' && p[1] == '/'))) {
                        // "**/" may match no folder at all: "a/**/b" matches "a/b".
                        if (p[0] == '/' && wildmatch(p + 1, text) == Wild::Match) {
                            return Wild::Match;
                        }
                        matchSlash = true;
                    }
                }
                if (*p == '\0') {
                    // A trailing "**" matches everything; a trailing "*" only what has no more slashes.
                    if (!matchSlash && std::strchr(text, '/')) {
                        return Wild::NoMatch;
                    }
                    return Wild::Match;
                }
                if (!matchSlash && *p == '/') {
                    // One star before a slash matches up to the next folder.
                    const char* slash = std::strchr(text, '/');
                    if (!slash) {
                        return Wild::NoMatch;
                    }
                    text = slash;
                    break; // the slash is consumed by the loop
                }
                while (true) {
                    if (tCh == '\0') {
                        break;
                    }
                    // Skip ahead to the literal that follows the star.
                    if (!isGlobSpecial(*p)) {
                        const unsigned char want = static_cast<unsigned char>(*p);
                        while ((tCh = static_cast<unsigned char>(*text)) != '\0' && (matchSlash || tCh != '/')) {
                            if (tCh == want) {
                                break;
                            }
                            ++text;
                        }
                        if (tCh != want) {
                            return Wild::NoMatch;
                        }
                    }
                    const Wild matched = wildmatch(p, text);
                    if (matched != Wild::NoMatch) {
                        if (!matchSlash || matched != Wild::AbortToStarStar) {
                            return matched;
                        }
                    } else if (!matchSlash && tCh == '/') {
                        return Wild::AbortToStarStar;
                    }
                    tCh = static_cast<unsigned char>(*++text);
                }
                return Wild::AbortAll;
            }
            case '[': {
                pCh = static_cast<unsigned char>(*++p);
                if (pCh == '!') {
                    pCh = '^';
                }
                const bool negated = pCh == '^';
                if (negated) {
                    pCh = static_cast<unsigned char>(*++p);
                }
                unsigned char prevCh = 0;
                bool matched = false;
                do {
                    if (!pCh) {
                        return Wild::AbortAll;
                    }
                    if (pCh == '\\') {
                        pCh = static_cast<unsigned char>(*++p);
                        if (!pCh) {
                            return Wild::AbortAll;
                        }
                        if (tCh == pCh) {
                            matched = true;
                        }
                    } else if (pCh == '-' && prevCh && p[1] && p[1] != ']') {
                        pCh = static_cast<unsigned char>(*++p);
                        if (pCh == '\\') {
                            pCh = static_cast<unsigned char>(*++p);
                            if (!pCh) {
                                return Wild::AbortAll;
                            }
                        }
                        if (tCh <= pCh && tCh >= prevCh) {
                            matched = true;
                        }
                        pCh = 0; // so that prevCh becomes 0: "a-c-e" is not two ranges
                    } else if (pCh == '[' && p[1] == ':') {
                        const char* s = p + 2;
                        const char* end = s;
                        while (*end && *end != ']') {
                            ++end;
                        }
                        if (!*end) {
                            return Wild::AbortAll;
                        }
                        if (end - s == 0 || end[-1] != ':') {
                            // Not a class after all: a literal '['.
                            if (tCh == '[') {
                                matched = true;
                            }
                        } else {
                            bool known = false;
                            const std::string_view name(s, static_cast<std::size_t>(end - s - 1));
                            if (inClass(name, tCh, known)) {
                                matched = true;
                            }
                            if (!known) {
                                return Wild::AbortAll; // malformed [:class:]
                            }
                            p = end;
                            pCh = 0; // so that prevCh becomes 0
                        }
                    } else if (tCh == pCh) {
                        matched = true;
                    }
                    prevCh = pCh;
                    pCh = static_cast<unsigned char>(*++p);
                } while (pCh != ']');
                if (matched == negated || tCh == '/') {
                    return Wild::NoMatch;
                }
                continue;
            }
        }
    }
    return *text ? Wild::NoMatch : Wild::Match;
}

struct Pattern
{
    std::string glob;
    bool negated = false;
    bool dirOnly = false;
    bool anchored = false; // has a slash at its start or middle: matched against the path below its folder
};

/// One line of a .gitignore as gitignore(5) reads it; nullopt for blank lines and comments.
std::optional<Pattern> parseLine(std::string line)
{
    if (line.empty() || line[0] == '#') {
        return std::nullopt;
    }
    // Trailing spaces go unless quoted with a backslash (dir.c, trim_trailing_spaces).
    std::size_t keep = line.size();
    std::optional<std::size_t> lastSpace;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == ' ') {
            if (!lastSpace) {
                lastSpace = i;
            }
        } else if (line[i] == '\\') {
            ++i;
            lastSpace.reset();
        } else {
            lastSpace.reset();
        }
    }
    if (lastSpace) {
        keep = *lastSpace;
    }
    line.resize(keep);
    Pattern pattern;
    if (!line.empty() && line[0] == '!') {
        pattern.negated = true;
        line.erase(0, 1);
    }
    if (!line.empty() && line.back() == '/') {
        pattern.dirOnly = true;
        line.pop_back();
    }
    if (line.empty()) {
        return std::nullopt;
    }
    pattern.anchored = line.find('/') != std::string::npos;
    if (line[0] == '/') {
        line.erase(0, 1);
    }
    pattern.glob = std::move(line);
    return pattern;
}

/// The patterns of one folder's .gitignore; `base` is the folder, relative to root, "" or ending in '/'.
struct PatternList
{
    std::string base;
    std::vector<Pattern> patterns;
};

void addLines(PatternList& list, const std::string& text)
{
    std::size_t start = 0;
    // A UTF-8 byte order mark at the start is not part of the first pattern.
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) {
        start = 3;
    }
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        if (std::optional<Pattern> pattern = parseLine(text.substr(start, end - start))) {
            list.patterns.push_back(std::move(*pattern));
        }
        start = end + 1;
    }
}

/// Whether `path` (relative to root) is excluded; the deepest list decides first, the last pattern of a list first.
bool excluded(const std::vector<PatternList>& stack, const std::string& path, const std::string& name, bool isDir)
{
    for (auto list = stack.rbegin(); list != stack.rend(); ++list) {
        const std::string below = path.substr(list->base.size());
        for (auto it = list->patterns.rbegin(); it != list->patterns.rend(); ++it) {
            if (it->dirOnly && !isDir) {
                continue;
            }
            const std::string& subject = it->anchored ? below : name;
            if (wildmatch(it->glob.c_str(), subject.c_str()) == Wild::Match) {
                return !it->negated;
            }
        }
    }
    return false;
}

struct Walker
{
    WorkdirListing listing;
    std::optional<Error> error;

    bool readIgnoreFile(const fs::path& folder, const std::string& base, std::vector<PatternList>& stack)
    {
        const fs::path file = folder / ".gitignore";
        std::error_code ec;
        const fs::file_status status = fs::symlink_status(file, ec);
        if (ec || !fs::is_regular_file(status)) {
            return true; // none (git does not follow a .gitignore that is a link either)
        }
        std::ifstream in(file, std::ios::binary);
        std::string text;
        if (in) {
            text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
        if (!in.is_open() || in.bad()) {
            const int code = errno;
            error = Error{ErrorCode::FileUnreadable,
                          Reason{"error.run.gitignore_unreadable", {{"said", std::generic_category().message(code)}}},
                          file.string()};
            return false;
        }
        PatternList list{base, {}};
        addLines(list, text);
        stack.push_back(std::move(list));
        return true;
    }

    /// Lists `folder` (`base` relative to root) into `listing`; reads its .gitignore first unless `ownRead`.
    bool walk(const fs::path& folder, const std::string& base, std::vector<PatternList>& stack, bool ownRead = false)
    {
        const std::size_t depth = stack.size();
        if (!ownRead && !readIgnoreFile(folder, base, stack)) {
            return false;
        }
        std::error_code ec;
        fs::directory_iterator it(folder, ec);
        if (ec) {
            error = Error{ErrorCode::FileUnreadable,
                          Reason{"error.run.folder_unreadable", {{"said", ec.message()}}},
                          folder.string()};
            return false;
        }
        struct Entry
        {
            std::string name;
            fs::file_status status;
        };
        std::vector<Entry> entries;
        for (; it != fs::directory_iterator(); it.increment(ec)) {
            std::error_code statusError;
            const fs::file_status status = it->symlink_status(statusError);
            entries.push_back(Entry{it->path().filename().string(), status});
        }
        if (ec) {
            error = Error{ErrorCode::FileUnreadable,
                          Reason{"error.run.folder_unreadable", {{"said", ec.message()}}},
                          folder.string()};
            return false;
        }
        std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
        for (const Entry& entry : entries) {
            if (entry.name == ".git") {
                continue;
            }
            const std::string path = base + entry.name;
            const bool isDir = fs::is_directory(entry.status);
            if (excluded(stack, path, entry.name, isDir)) {
                continue;
            }
            if (fs::is_symlink(entry.status)) {
                listing.skippedLinks.push_back(path);
            } else if (isDir) {
                if (!walk(folder / entry.name, path + "/", stack)) {
                    return false;
                }
            } else if (fs::is_regular_file(entry.status)) {
                std::error_code sizeError;
                const std::uintmax_t size = fs::file_size(folder / entry.name, sizeError);
                const bool executable = (entry.status.permissions() & fs::perms::owner_exec) != fs::perms::none;
                listing.files.push_back(WorkdirFile{path, sizeError ? 0 : size, executable});
                listing.bytes += sizeError ? 0 : size;
            }
            // Sockets, pipes and devices are not files to send (git does not list them either).
        }
        stack.resize(depth);
        return true;
    }
};

} // namespace

Result<WorkdirListing> listWorkdir(const std::filesystem::path& root, const std::vector<std::string>& extraExcludes)
{
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
        return Error{ErrorCode::FileNotFound, Reason{"error.run.workdir_not_folder", {}}, root.string()};
    }
    Walker walker;
    std::vector<PatternList> stack;
    // The extra patterns come after root's own lines: root's .gitignore and they form one list.
    if (!walker.readIgnoreFile(root, "", stack)) {
        return *walker.error;
    }
    if (stack.empty()) {
        stack.push_back(PatternList{"", {}});
    }
    for (const std::string& line : extraExcludes) {
        if (std::optional<Pattern> pattern = parseLine(line)) {
            stack.back().patterns.push_back(std::move(*pattern));
        }
    }
    if (!walker.walk(root, "", stack, true)) {
        return *walker.error;
    }
    std::sort(walker.listing.files.begin(), walker.listing.files.end(), [](const WorkdirFile& a, const WorkdirFile& b) {
        return a.path < b.path;
    });
    std::sort(walker.listing.skippedLinks.begin(), walker.listing.skippedLinks.end());
    return walker.listing;
}

} // namespace gpuplan::core
