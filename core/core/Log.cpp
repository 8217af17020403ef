#include "gpuplan/core/Log.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

#include "gpuplan/core/Redaction.h"
#include "gpuplan/core/Text.h"
#include "gpuplan/secrets/Credential.h"

namespace gpuplan::core {

namespace detail {

namespace {
constexpr int kQuiet = int(LogLevel::Warning);
}
static_assert(kLogCategoryCount == 10, "one quiet threshold per category below");
// Constant-initialized: a static constructor elsewhere may log before this file's dynamic initialization.
std::array<std::atomic<int>, kLogCategoryCount> logThresholds{
    kQuiet, kQuiet, kQuiet, kQuiet, kQuiet, kQuiet, kQuiet, kQuiet, kQuiet, kQuiet};

void wipeLine(std::string& text) noexcept
{
    secureWipe(text.data(), text.size());
    text.clear();
}

} // namespace detail

namespace {

constexpr std::array<std::string_view, kLogCategoryCount> kCategoryNames{
    "app", "net", "cloud", "ledger", "ssh", "secrets", "prices", "plan", "catalog", "probe"};
constexpr std::array<std::string_view, 6> kLevelNames{"off", "error", "warning", "info", "debug", "trace"};

std::optional<LogLevel> levelNamed(std::string_view name)
{
    const std::string n = lowered(name);
    for (std::size_t i = 0; i < kLevelNames.size(); ++i) {
        if (n == kLevelNames[i]) {
            return LogLevel(i);
        }
    }
    if (n == "warn") {
        return LogLevel::Warning;
    }
    return std::nullopt;
}

std::optional<LogCategory> categoryNamed(std::string_view name)
{
    const std::string n = lowered(name);
    for (std::size_t i = 0; i < kCategoryNames.size(); ++i) {
        if (n == kCategoryNames[i]) {
            return LogCategory(i);
        }
    }
    return std::nullopt;
}

std::string joinedNames(const auto& names)
{
    std::string out;
    for (std::string_view n : names) {
        out += (out.empty() ? "" : ", ") + std::string(n);
    }
    return out;
}

void writeToStderr(LogLevel level, LogCategory category, std::string_view text)
{
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm local{};
    localtime_r(&seconds, &local);
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "%02d:%02d:%02d.%03d", local.tm_hour, local.tm_min, local.tm_sec, int(millis));
    const std::string line = std::string(stamp) + " [" + std::string(logCategoryName(category)) + "] "
                             + std::string(logLevelName(level)) + ": " + terminalSafe(text) + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

struct SinkState
{
    std::mutex mutex;
    LogSink sink;
    LogSettings settings;
};

SinkState& state()
{
    // Never destroyed: a static's destructor may still log (and the secret registry refuses it after exit).
    static SinkState* const instance = new SinkState;
    return *instance;
}

thread_local bool inSink = false;

} // namespace

std::string_view logLevelName(LogLevel level)
{
    const auto i = std::size_t(level);
    return i < kLevelNames.size() ? kLevelNames[i] : std::string_view("?");
}

std::string_view logCategoryName(LogCategory category)
{
    const auto i = std::size_t(category);
    return i < kCategoryNames.size() ? kCategoryNames[i] : std::string_view("?");
}

LogLevel LogSettings::threshold(LogCategory category) const
{
    return categories[std::size_t(category)].value_or(defaultLevel);
}

LogSpecParse parseLogSpec(std::string_view spec, LogSettings base)
{
    LogSpecParse parsed{std::move(base), {}};
    const std::string levels = "(levels: " + joinedNames(kLevelNames) + ")";
    std::size_t start = 0;
    while (start <= spec.size()) {
        std::size_t end = spec.find(',', start);
        if (end == std::string_view::npos) {
            end = spec.size();
        }
        const std::string part = trimmed(spec.substr(start, end - start));
        start = end + 1;
        if (part.empty()) {
            continue;
        }
        const std::size_t equals = part.find('=');
        if (equals == std::string_view::npos) {
            if (std::optional<LogLevel> level = levelNamed(part)) {
                // A bare level is that of every category not named, wherever it stands ("net=trace,info").
                parsed.settings.defaultLevel = *level;
            } else if (categoryNamed(part)) {
                parsed.problems.push_back("\"" + std::string(part) + "\" names a category but no level (write "
                                          + std::string(part) + "=debug)");
            } else {
                parsed.problems.push_back("unknown level \"" + std::string(part) + "\" " + levels);
            }
            continue;
        }
        const std::string name = trimmed(part.substr(0, equals));
        const std::string value = trimmed(part.substr(equals + 1));
        const std::optional<LogCategory> category = categoryNamed(name);
        const std::optional<LogLevel> level = levelNamed(value);
        if (!category) {
            parsed.problems.push_back("unknown category \"" + std::string(name) + "\" in \"" + std::string(part)
                                      + "\" (categories: " + joinedNames(kCategoryNames) + ")");
        } else if (!level) {
            parsed.problems.push_back("unknown level \"" + std::string(value) + "\" in \"" + std::string(part) + "\" "
                                      + levels);
        } else {
            parsed.settings.categories[std::size_t(*category)] = *level;
        }
    }
    return parsed;
}

LogLevel verbosityLevel(int count)
{
    return count <= 0   ? LogLevel::Warning
           : count == 1 ? LogLevel::Info
           : count == 2 ? LogLevel::Debug
                        : LogLevel::Trace;
}

void setLogSettings(const LogSettings& settings)
{
    SinkState& s = state();
    const std::lock_guard lock(s.mutex);
    s.settings = settings;
    for (std::size_t i = 0; i < kLogCategoryCount; ++i) {
        detail::logThresholds[i].store(int(settings.threshold(LogCategory(i))), std::memory_order_relaxed);
    }
}

LogSettings logSettings()
{
    SinkState& s = state();
    const std::lock_guard lock(s.mutex);
    return s.settings;
}

std::vector<std::string> configureLogging(int verbosity, const char* envSpec)
{
    LogSpecParse parsed = parseLogSpec(envSpec ? std::string_view(envSpec) : std::string_view());
    const LogLevel asked = verbosityLevel(verbosity);
    LogSettings& settings = parsed.settings;
    settings.defaultLevel = std::max(settings.defaultLevel, asked);
    for (std::optional<LogLevel>& level : settings.categories) {
        if (level) {
            level = std::max(*level, asked);
        }
    }
    setLogSettings(settings);
    std::vector<std::string> problems;
    for (const std::string& problem : parsed.problems) {
        problems.push_back("GPUPLAN_LOG: " + problem + "; ignored");
    }
    return problems;
}

LogSink setLogSink(LogSink sink)
{
    SinkState& s = state();
    const std::lock_guard lock(s.mutex);
    std::swap(s.sink, sink);
    return sink;
}

void logWrite(LogCategory category, LogLevel level, std::string_view text)
{
    if (!logEnabled(category, level) || inSink) {
        return;
    }
    // Redacted before the lock and before any sink: there is no path to a sink around it.
    std::optional<std::string> shown = redactedUnlessClosed(text);
    if (!shown) {
        return;
    }
    SinkState& s = state();
    const std::lock_guard lock(s.mutex);
    struct InSink
    {
        InSink() { inSink = true; }
        ~InSink() { inSink = false; }
    } marked;
    if (s.sink) {
        s.sink(level, category, *shown);
    } else {
        writeToStderr(level, category, *shown);
    }
}

} // namespace gpuplan::core
