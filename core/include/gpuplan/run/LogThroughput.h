#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/run/RunSpec.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The speed a training log prints, read with a trainer's preset or the user's pattern, to set beside the plan's.
namespace gpuplan::core {

/// The presets, in the order a picker lists them: "lightning", "hf_trainer", "timm", "ultralytics".
const std::vector<std::string>& throughputPresets();

/// One reading of the log.
struct LogThroughput
{
    double perSecond = 0; // in `unit`
    std::string unit;     // "samples", "tokens" or "steps" (steps when the pattern reads it/s and perStep is 0)
};

/// Reads the training log's speed with `pattern`.
class ThroughputReader
{
public:
    /// InvalidArgument when the pattern cannot be used: "error.run.unknown_preset" {preset}, and for "custom"
    /// "error.run.bad_regex" {regex, said} (it does not compile), "error.run.regex_no_group" {regex} (no group to
    /// read), "error.run.unknown_unit" {unit}. An empty preset makes a reader that reads nothing.
    static Result<ThroughputReader> make(const ThroughputPattern& pattern);

    /// The newest speed in `line` (one line of the log, without its newline; a progress bar's carriage-return
    /// updates are separate lines), or nullopt when it says none. A preset reads only its trainer's training line
    /// (not a validation bar); a custom regex reads the line's last 4096 bytes and its last match.
    std::optional<LogThroughput> read(std::string_view line) const;

private:
    ThroughputReader() = default;
    struct Compiled;
    /// A preset's patterns, tried in order; empty for a name that is no preset.
    static std::vector<std::shared_ptr<const Compiled>> presetPatterns(const std::string& preset);
    std::vector<std::shared_ptr<const Compiled>> m_patterns;
    double m_perStep = 0;
};

} // namespace gpuplan::core
