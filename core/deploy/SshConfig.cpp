#include "gpuplan/deploy/SshConfig.h"

#include "gpuplan/core/Text.h"

#include <fnmatch.h>
#include <glob.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace gpuplan::core {

namespace {

std::filesystem::path homeDir()
{
    if (const char* home = std::getenv("HOME"); home && *home) {
        return home;
    }
    if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_dir) {
        return pw->pw_dir;
    }
    return {};
}

std::string localUser()
{
    if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_name) {
        return pw->pw_name;
    }
    if (const char* user = std::getenv("USER"); user && *user) {
        return user;
    }
    return {};
}

/// The words of a line: split at spaces (and a first '='), "double quoted" words kept whole.
std::vector<std::string> words(const std::string& line)
{
    std::vector<std::string> out;
    std::string word;
    bool quoted = false;
    bool inWord = false;
    for (char c : line) {
        if (c == '"') {
            quoted = !quoted;
            inWord = true;
            continue;
        }
        const bool separator = !quoted && (std::isspace(static_cast<unsigned char>(c)) || (c == '=' && out.empty()));
        if (separator) {
            if (inWord) {
                out.push_back(word);
                word.clear();
                inWord = false;
            }
            continue;
        }
        word += c;
        inWord = true;
    }
    if (inWord) {
        out.push_back(word);
    }
    return out;
}

/// Whether `host` matches a Host line's patterns: one positive match and no negated one.
bool hostMatches(const std::vector<std::string>& patterns, const std::string& host)
{
    bool matched = false;
    for (const std::string& pattern : patterns) {
        const bool negated = !pattern.empty() && pattern.front() == '!';
        const std::string p = lowered(negated ? pattern.substr(1) : pattern);
        if (fnmatch(p.c_str(), lowered(host).c_str(), 0) == 0) {
            if (negated) {
                return false;
            }
            matched = true;
        }
    }
    return matched;
}

struct Reader
{
    std::string host;
    SshHostConfig config;
    int depth = 0;

    Status read(const std::filesystem::path& file)
    {
        std::error_code ec;
        if (!std::filesystem::exists(file, ec)) {
            return Ok{};
        }
        std::ifstream in(file);
        if (!in) {
            return Error{ErrorCode::FileUnreadable, Reason{"error.ssh.config_unreadable", {}}, file.string()};
        }
        bool applies = true; // lines before the first Host or Match apply to every host
        std::string line;
        for (int number = 1; std::getline(in, line); ++number) {
            const std::vector<std::string> w = words(line);
            if (w.empty() || w.front().front() == '#') {
                continue;
            }
            const std::string keyword = lowered(w.front());
            const std::vector<std::string> args(w.begin() + 1, w.end());
            if (keyword == "host") {
                applies = hostMatches(args, host);
                continue;
            }
            if (keyword == "match") {
                applies = false; // conditions not evaluated: nothing under them is taken
                continue;
            }
            if (!applies || args.empty()) {
                continue;
            }
            const std::string where = file.string() + ":" + std::to_string(number);
            if (keyword == "include") {
                if (Status ok = include(args); !ok) {
                    return ok;
                }
            } else if (keyword == "hostname" && config.hostName.empty()) {
                config.hostName = args.front();
            } else if (keyword == "user" && config.user.empty()) {
                config.user = args.front();
            } else if (keyword == "port" && !config.port) {
                int port = 0;
                const std::string& text = args.front();
                auto [end, err] = std::from_chars(text.data(), text.data() + text.size(), port);
                if (err != std::errc() || end != text.data() + text.size() || port < 1 || port > 65535) {
                    return Error{
                        ErrorCode::InvalidArgument, Reason{"error.ssh.config_bad_port", {{"port", text}}}, where};
                }
                config.port = port;
            } else if (keyword == "identityfile") {
                config.identityFiles.push_back(args.front());
            } else if (keyword == "proxyjump" && config.proxyJump.empty()) {
                config.proxyJump = args.front();
            }
        }
        return Ok{};
    }

    Status include(const std::vector<std::string>& patterns)
    {
        constexpr int kMaxDepth = 16;
        if (++depth > kMaxDepth) {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.ssh.config_include_too_deep", {{"limit", std::to_string(kMaxDepth)}}},
                         host};
        }
        for (std::string pattern : patterns) {
            if (pattern.starts_with("~/")) {
                pattern = (homeDir() / pattern.substr(2)).string();
            } else if (!pattern.starts_with("/")) {
                pattern = (homeDir() / ".ssh" / pattern).string();
            }
            glob_t found{};
            if (glob(pattern.c_str(), 0, nullptr, &found) == 0) {
                for (std::size_t i = 0; i < found.gl_pathc; ++i) {
                    if (Status ok = read(found.gl_pathv[i]); !ok) {
                        globfree(&found);
                        return ok;
                    }
                }
            }
            globfree(&found);
        }
        --depth;
        return Ok{};
    }
};

/// "~/x" and the tokens %h (host name), %p (port), %r (remote user), %u (local user), %% in an IdentityFile.
std::string expandPath(const std::string& path, const SshTarget& target)
{
    std::string out;
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] == '%' && i + 1 < path.size()) {
            const char token = path[++i];
            out += token == 'h'   ? target.host
                   : token == 'p' ? std::to_string(target.port)
                   : token == 'r' ? target.user
                   : token == 'u' ? localUser()
                   : token == '%' ? std::string("%")
                                  : std::string("%") + token;
        } else {
            out += path[i];
        }
    }
    if (out.starts_with("~/")) {
        out = (homeDir() / out.substr(2)).string();
    }
    return out;
}

/// One hop or the destination: what was typed, completed from the configuration.
Result<SshTarget> resolveOne(const std::string& typed,
                             const std::string& identityFile,
                             const std::filesystem::path& configFile,
                             SshHostConfig* configOut)
{
    const bool hasUser = typed.find('@') != std::string::npos;
    Result<SshTarget> parsed =
        parseSshTarget(hasUser ? typed : "user-from-config@" + typed); // wire: a stand-in user, replaced below
    if (!parsed) {
        Error error = parsed.error();
        error.where = typed;
        if (!hasUser) {
            error.reason.params["or_alias"] = "1"; // worded: "... (or an alias of the SSH configuration)"
        }
        return error;
    }
    SshTarget target = std::move(parsed).value();
    const bool portTyped = typed.find(':') != std::string::npos && typed.back() != ']';
    if (!hasUser) {
        target.user.clear();
    }
    Result<SshHostConfig> config = readSshConfig(configFile, target.host);
    if (!config) {
        return config.error();
    }
    if (!config->hostName.empty()) {
        target.host = config->hostName;
    }
    if (target.user.empty()) {
        target.user = !config->user.empty() ? config->user : localUser();
    }
    if (target.user.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.ssh.no_user_name", {}}, typed};
    }
    if (!portTyped && config->port) {
        target.port = *config->port;
    }
    target.identityFile = identityFile;
    if (target.identityFile.empty() && !config->identityFiles.empty()) {
        // GPU Planner tries one key file; ssh tries them in turn. The first that exists is the one ssh would
        // most likely use.
        for (const std::string& file : config->identityFiles) {
            const std::string path = expandPath(file, target);
            std::error_code ec;
            if (std::filesystem::exists(path, ec)) {
                target.identityFile = path;
                break;
            }
        }
    }
    if (configOut) {
        *configOut = std::move(config).value();
    }
    return target;
}

} // namespace

Result<SshHostConfig> readSshConfig(const std::filesystem::path& file, std::string_view host)
{
    Reader reader;
    reader.host = std::string(host);
    if (Status ok = reader.read(file); !ok) {
        return ok.error();
    }
    return reader.config;
}

bool takeJumpHostFrame(Error& error)
{
    const auto frame = std::find_if(
        error.context.begin(), error.context.end(), [](const Reason& r) { return r.key == "error.ssh.via_jump_host"; });
    if (frame == error.context.end()) {
        return false;
    }
    error.context.erase(frame);
    return true;
}

Result<SshTarget> resolveSshTarget(const SshLogin& login)
{
    const std::filesystem::path configFile =
        login.configFile.empty() ? homeDir() / ".ssh" / "config" : login.configFile;
    SshHostConfig config;
    Result<SshTarget> target = resolveOne(trimmed(login.destination), login.identityFile, configFile, &config);
    if (!target) {
        return target.error();
    }
    const std::string jumps = !trimmed(login.jumps).empty() ? login.jumps : config.proxyJump;
    if (lowered(trimmed(jumps)) == "none") {
        return target;
    }
    std::stringstream hops(jumps);
    std::string hop;
    while (std::getline(hops, hop, ',')) {
        hop = trimmed(hop);
        if (hop.empty()) {
            continue;
        }
        // OpenSSH also accepts ssh://USER@HOST:PORT in ProxyJump.
        if (hop.starts_with("ssh://")) {
            hop = hop.substr(6);
        }
        Result<SshTarget> jump = resolveOne(hop, login.identityFile, configFile, nullptr);
        if (!jump) {
            // `where` stays the hop as typed; the frame says it is a jump host ("jump host HOP: ...").
            return jump.error().within(Reason{"error.ssh.via_jump_host", {{"host", hop}}});
        }
        target.value().jumps.push_back(std::move(jump).value());
    }
    return target;
}

} // namespace gpuplan::core
