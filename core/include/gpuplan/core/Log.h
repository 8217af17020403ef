#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

// The log: developer diagnostics, one category per module, quiet by default, secrets redacted by construction.
//
// Turning it on: GPUPLAN_LOG (a spec, see parseLogSpec(): "debug", "net=trace,cloud=debug", "info,net=off") and
// the programs' -v / --verbose (repeatable: -v info, -vv debug, -vvv trace). Both apply; the more verbose wins.
//
// By default only warnings and errors are shown: a warning or error log line is reserved for what went wrong
// and is told nowhere else (a failure the user sees as a result is reported by the front end, in its own words,
// and not logged again at those levels), so a plain run prints no log lines and a troubled one is not silent.
//
// Log text is English for developers and bug reports; it is not user interface and does not go through tr().
// What the user reads is worded by the front ends (DESIGN.md: wording has one home).
//
// Secrets: every line passes redacted() (Redaction.h) before a sink sees it. The credential store, the
// encrypted file and the signers' credentials register every secret they hold (registerSecret), so a secret
// cannot be printed even by a careless log call; the header, URL, JSON and private-key rules catch the derived
// values (signatures, tokens) that were never registered. There is no way to hand a sink unredacted text.
namespace gpuplan::core {

enum class LogLevel
{
    Off,     // as a threshold: nothing
    Error,   // something failed and the user is not told otherwise
    Warning, // something is wrong but the work went on
    Info,    // the main steps of a use case (a launch's steps, a ledger transition, a credential loaded)
    Debug,   // what was decided and why; each HTTP request and answer's status
    Trace,   // everything: HTTP headers and bodies
};

enum class LogCategory
{
    App,     // the programs themselves (CLI, GUI)
    Net,     // HTTP: requests, answers, retries
    Cloud,   // launches, reconciliation, termination
    Ledger,  // the ledger's transitions
    Ssh,     // SSH connections and host keys
    Secrets, // the credential store and file (never a value)
    Prices,  // price refresh
    Plan,    // planning
    Catalog, // the catalog
    Probe,   // deploying and judging the probe
};
inline constexpr std::size_t kLogCategoryCount = 10;

/// "error", "warning"...; "off" for Off.
std::string_view logLevelName(LogLevel level);
/// "net", "cloud"...: the names GPUPLAN_LOG uses and the log prints.
std::string_view logCategoryName(LogCategory category);

/// The threshold of each category: a line is shown when its level is at most its category's threshold.
struct LogSettings
{
    LogLevel defaultLevel = LogLevel::Warning;
    std::array<std::optional<LogLevel>, kLogCategoryCount> categories{}; // nullopt: defaultLevel

    LogLevel threshold(LogCategory category) const;
};

struct LogSpecParse
{
    LogSettings settings;
    /// One line per part that was not understood and was skipped, naming it, e.g.
    /// `unknown level "tarce" in "net=tarce" (levels: off, error, warning, info, debug, trace)`.
    std::vector<std::string> problems;
};

/// Reads a spec: comma-separated parts, each a level (that of every category not named) or category=level
/// ("net=trace"), applied over `base`; "net=trace,cloud=debug,info" is net at trace, cloud at debug and the rest
/// at info. A later part for the same category wins. Names are compared without case; spaces around parts are
/// ignored. A part that is not understood is skipped and named in `problems`; the rest applies. Never throws.
LogSpecParse parseLogSpec(std::string_view spec, LogSettings base = {});

/// The threshold that -v given `count` times asks for: 0 Warning, 1 Info, 2 Debug, 3 or more Trace.
LogLevel verbosityLevel(int count);

/// Makes `settings` the process's log thresholds. Thread-safe.
void setLogSettings(const LogSettings& settings);
LogSettings logSettings();

/// For the programs' main(): GPUPLAN_LOG's `envSpec` (nullptr or empty: none) and -v given `verbosity` times,
/// the more verbose of the two for each category. Returns one line per problem in the spec, each starting with
/// "GPUPLAN_LOG: " and ending with "; ignored", for the program to print as it prints warnings.
std::vector<std::string> configureLogging(int verbosity, const char* envSpec);

/// Receives each line that passed its category's threshold, after redaction. Called with the log's lock held,
/// so lines from several threads do not interleave; a sink must not log (such lines are dropped).
using LogSink = std::function<void(LogLevel level, LogCategory category, std::string_view redactedText)>;
/// Makes `sink` the process's sink and returns the previous one; an empty sink restores the default, which
/// writes "HH:MM:SS.mmm [category] level: text" lines to stderr (made terminalSafe()). Thread-safe.
LogSink setLogSink(LogSink sink);

namespace detail {
extern std::array<std::atomic<int>, kLogCategoryCount> logThresholds;
/// Overwrites and empties a line that was made for the log (it may have held a secret before redaction).
void wipeLine(std::string& text) noexcept;
} // namespace detail

/// Whether a line of `level` in `category` would be shown: one relaxed atomic load, for hot paths.
inline bool logEnabled(LogCategory category, LogLevel level)
{
    return level != LogLevel::Off
           && int(level) <= detail::logThresholds[std::size_t(category)].load(std::memory_order_relaxed);
}

/// Redacts `text` and hands it to the sink, if the category's threshold lets it through. Thread-safe.
void logWrite(LogCategory category, LogLevel level, std::string_view text);

/// Logs `text`: a string, or a callable that returns one, called only when the line will be shown, so that a
/// disabled line costs one atomic load and no formatting: logDebug(LogCategory::Net, [&] { return "> " + url; }).
template <typename Text>
void logAt(LogCategory category, LogLevel level, Text&& text)
{
    if (!logEnabled(category, level)) {
        return;
    }
    if constexpr (std::is_invocable_v<Text>) {
        std::string made = std::forward<Text>(text)();
        logWrite(category, level, made);
        detail::wipeLine(made);
    } else {
        logWrite(category, level, std::string_view(text));
    }
}

template <typename Text>
void logError(LogCategory category, Text&& text)
{
    logAt(category, LogLevel::Error, std::forward<Text>(text));
}
template <typename Text>
void logWarning(LogCategory category, Text&& text)
{
    logAt(category, LogLevel::Warning, std::forward<Text>(text));
}
template <typename Text>
void logInfo(LogCategory category, Text&& text)
{
    logAt(category, LogLevel::Info, std::forward<Text>(text));
}
template <typename Text>
void logDebug(LogCategory category, Text&& text)
{
    logAt(category, LogLevel::Debug, std::forward<Text>(text));
}
template <typename Text>
void logTrace(LogCategory category, Text&& text)
{
    logAt(category, LogLevel::Trace, std::forward<Text>(text));
}

} // namespace gpuplan::core
