#include "gpuplan/run/LogThroughput.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <regex>

// The presets read what each trainer prints (source: each project's code, as of 2024-2025):
//  - tqdm's bar, which Lightning, the Hugging Face Trainer on a console and Ultralytics (up to 8.3.1xx) print:
//    "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]", where
//    rate_fmt is "15.02it/s", or "1.23s/it" below one step a second (tqdm/std.py, format_meter).
//  - Lightning: TQDMProgressBar's training bar is described "Epoch {current_epoch}" (lightning/pytorch/callbacks/
//    progress/tqdm_progress.py); RichProgressBar prints "Epoch 0/9 ━━━ 450/1000 0:00:30 • 0:00:36 15.02it/s".
//    Validation and sanity-check bars ("Validation DataLoader 0: ...") are not the training speed and are not read.
//  - Hugging Face Trainer: in a notebook, NotebookProgressBar's label "[ 50/500 00:10 < 01:30, 4.97 it/s, Epoch
//    0.10/1]" (transformers/utils/notebook.py); at the end, the log dict "'train_samples_per_second': 123.4"
//    (transformers/trainer.py, speed_metrics).
//  - timm: train.py logs "Train: {epoch} [{update_idx:>4d}/{updates_per_epoch} ({pct:>3.0f}%)]  Loss: ...  Time:
//    {val:.3f}s, {samples/val:>7.2f}/s  ({avg:.3f}s, {samples/avg:>7.2f}/s)  LR: ..."; the first "/s" is the
//    samples per second of the last update (all ranks together).
//  - Ultralytics: the training bar's description is "{epoch}/{epochs} {gpu_mem}G {losses...} {instances} {imgsz}"
//    (ultralytics/engine/trainer.py), then tqdm's bar, or its own "8/8 5.2it/s 1.5s<0.0s" (ultralytics/utils/tqdm.py).
//    The validation bar ("Class Images Instances Box(P ...") is not read.
// Every regex here runs on a short window of the line found by a plain search first, so a long line costs one scan.
namespace gpuplan::core {

namespace {

enum class Rate
{
    Steps,   // group 1 the number, group 2 a k/M/G multiplier, group 3 "it/s" or "s/it"
    Samples, // group 1 the number, samples per second
};

/// The longest tail of a line a custom regex reads: the newest speed is at the end, and libstdc++'s std::regex
/// recurses per character, so an unbounded line could exhaust the stack.
constexpr std::size_t kCustomTail = 4096;

std::optional<double> number(std::string_view text)
{
    std::string digits;
    digits.reserve(text.size());
    for (char c : text) {
        if (c != ',' && c != ' ' && c != '_') {
            digits.push_back(c);
        }
    }
    double value = 0;
    const char* end = digits.data() + digits.size();
    const std::from_chars_result read = std::from_chars(digits.data(), end, value);
    if (read.ec != std::errc() || read.ptr != end || digits.empty() || !std::isfinite(value) || value < 0) {
        return std::nullopt;
    }
    return value;
}

/// The last match of `re` in `text` whose first group reads as a number, or none.
std::optional<std::cmatch> lastMatch(std::string_view text, const std::regex& re)
{
    std::optional<std::cmatch> last;
    try {
        for (auto it = std::cregex_iterator(text.data(), text.data() + text.size(), re); it != std::cregex_iterator();
             ++it) {
            if ((*it)[1].matched && number(std::string_view((*it)[1].first, (*it)[1].length()))) {
                last = *it;
            }
        }
    } catch (const std::regex_error&) {
        return std::nullopt; // too complex for this line: it says nothing
    }
    return last;
}

} // namespace

struct ThroughputReader::Compiled
{
    std::optional<std::regex> shape; // the line (its first kShapeChars) must show this first
    std::vector<std::string> anchors;
    bool lastAnchor = true; // the last occurrence (a rate at the end), else the first (timm's first "/s")
    std::size_t before = 0; // the window around the anchor the value regex reads
    std::size_t after = 0;
    std::regex value;
    Rate rate = Rate::Steps;
    std::string unit; // for a custom pattern: what group 1 counts
    bool custom = false;

    static constexpr std::size_t kShapeChars = 300;
};

namespace {

constexpr auto kFlags = std::regex::ECMAScript;

} // namespace

std::vector<std::shared_ptr<const ThroughputReader::Compiled>>
ThroughputReader::presetPatterns(const std::string& preset)
{
    // tqdm's right part: "450/1000 [00:30<00:36, 15.02it/s" (the remaining time is "?" at first).
    const auto tqdmRate = [](std::optional<std::regex> shape) {
        auto c = std::make_shared<Compiled>();
        c->shape = std::move(shape);
        c->anchors = {"it/s", "s/it"};
        c->before = 80;
        c->after = 4;
        c->value = std::regex(R"(\d+/\d+ \[[0-9:]+<[0-9:?]+, *(\d+(?:\.\d+)?)([kMG]?)(it/s|s/it))", kFlags);
        return c;
    };
    // A bare rate "5.23it/s" near the end, for bars whose shape was checked already.
    const auto bareRate = [](std::optional<std::regex> shape, const char* pattern) {
        auto c = std::make_shared<Compiled>();
        c->shape = std::move(shape);
        c->anchors = {"it/s", "s/it"};
        c->before = 80;
        c->after = 4;
        c->value = std::regex(pattern, kFlags);
        return c;
    };
    std::vector<std::shared_ptr<const Compiled>> out;
    if (preset == "lightning") {
        const std::regex epoch(R"(^\s*Epoch \d+)", kFlags);
        out.push_back(tqdmRate(epoch));
        // RichProgressBar: "Epoch 0/9 ━━━━ 450/1000 0:00:30 • 0:00:36 15.02it/s v_num: 0.000"
        out.push_back(bareRate(epoch, R"(\d+/\d+ [0-9:]+ • [-0-9:]+ (\d+(?:\.\d+)?)()(it/s))"));
    } else if (preset == "hf_trainer") {
        auto notebook = std::make_shared<Compiled>();
        notebook->anchors = {" it/s"};
        notebook->before = 80;
        notebook->after = 5;
        notebook->value = std::regex(R"(\[ *\d+/\d+ [0-9:]+ < [0-9:]+, (\d+(?:\.\d+)?)() (it/s))", kFlags);
        out.push_back(notebook);
        out.push_back(tqdmRate(std::nullopt));
        auto samples = std::make_shared<Compiled>();
        samples->anchors = {"train_samples_per_second"};
        samples->before = 0;
        samples->after = 60;
        samples->value = std::regex(R"(train_samples_per_second['"]? *[:=] *(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))", kFlags);
        samples->rate = Rate::Samples;
        out.push_back(samples);
    } else if (preset == "timm") {
        auto c = std::make_shared<Compiled>();
        c->shape = std::regex(R"(Train: \d+ \[ *\d+/\d+ \( *\d+%\)\])", kFlags);
        c->anchors = {"Time: "};
        c->lastAnchor = false;
        c->before = 0;
        c->after = 40;
        c->value = std::regex(R"(^Time: *\d+(?:\.\d+)?s, *(\d+(?:\.\d+)?)/s)", kFlags);
        c->rate = Rate::Samples;
        out.push_back(c);
    } else if (preset == "ultralytics") {
        // "      1/100      3.52G      1.234 ..." : the epoch, then the GPU memory in G.
        const std::regex epoch(R"(^\s*\d+/\d+\s+\d+(?:\.\d+)?G\s)", kFlags);
        out.push_back(bareRate(epoch, R"((?:^|[ ,])(\d+(?:\.\d+)?)([kMG]?)(it/s|s/it))"));
    }
    return out;
}

const std::vector<std::string>& throughputPresets()
{
    static const std::vector<std::string> presets{"lightning", "hf_trainer", "timm", "ultralytics"};
    return presets;
}

Result<ThroughputReader> ThroughputReader::make(const ThroughputPattern& pattern)
{
    ThroughputReader reader;
    reader.m_perStep = pattern.perStep > 0 && std::isfinite(pattern.perStep) ? pattern.perStep : 0;
    if (pattern.preset.empty()) {
        return reader; // the log is not read for speed: read() says none
    }
    if (pattern.preset == "custom") {
        if (pattern.unit != "samples" && pattern.unit != "tokens" && pattern.unit != "steps") {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.run.unknown_unit", {{"unit", pattern.unit}}},
                         "throughput.unit"};
        }
        auto c = std::make_shared<Compiled>();
        try {
            c->value = std::regex(pattern.regex, kFlags);
        } catch (const std::regex_error& e) {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.run.bad_regex", {{"regex", pattern.regex}, {"said", e.what()}}},
                         "throughput.regex"};
        }
        if (pattern.regex.empty() || c->value.mark_count() < 1) {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.run.regex_no_group", {{"regex", pattern.regex}}},
                         "throughput.regex"};
        }
        c->custom = true;
        c->unit = pattern.unit;
        reader.m_patterns.push_back(std::move(c));
        return reader;
    }
    std::vector<std::shared_ptr<const Compiled>> patterns = presetPatterns(pattern.preset);
    if (patterns.empty()) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.run.unknown_preset", {{"preset", pattern.preset}}},
                     "throughput.preset"};
    }
    reader.m_patterns = std::move(patterns);
    return reader;
}

std::optional<LogThroughput> ThroughputReader::read(std::string_view line) const
{
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) {
        line.remove_suffix(1);
    }
    for (const auto& c : m_patterns) {
        double perSecond = 0;
        std::string unit;
        if (c->custom) {
            const std::string_view tail = line.size() > kCustomTail ? line.substr(line.size() - kCustomTail) : line;
            const std::optional<std::cmatch> m = lastMatch(tail, c->value);
            if (!m || !(*m)[1].matched) {
                continue;
            }
            const std::optional<double> value = number(std::string_view((*m)[1].first, (*m)[1].length()));
            if (!value) {
                continue;
            }
            perSecond = *value;
            unit = c->unit;
        } else {
            if (c->shape) {
                const std::string_view head = line.substr(0, Compiled::kShapeChars);
                try {
                    if (!std::regex_search(head.data(), head.data() + head.size(), *c->shape)) {
                        continue;
                    }
                } catch (const std::regex_error&) {
                    continue;
                }
            }
            std::size_t at = std::string_view::npos;
            std::size_t anchorSize = 0;
            for (const std::string& anchor : c->anchors) {
                const std::size_t found = c->lastAnchor ? line.rfind(anchor) : line.find(anchor);
                if (found != std::string_view::npos
                    && (at == std::string_view::npos || (c->lastAnchor ? found > at : found < at))) {
                    at = found;
                    anchorSize = anchor.size();
                }
            }
            if (at == std::string_view::npos) {
                continue;
            }
            const std::size_t from = at > c->before ? at - c->before : 0;
            const std::size_t to = std::min(line.size(), at + std::max(anchorSize, c->after));
            const std::optional<std::cmatch> m = lastMatch(line.substr(from, to - from), c->value);
            if (!m) {
                continue;
            }
            const std::optional<double> value = number(std::string_view((*m)[1].first, (*m)[1].length()));
            if (!value) {
                continue;
            }
            if (c->rate == Rate::Samples) {
                perSecond = *value;
                unit = "samples";
            } else {
                const std::string scale = (*m)[2].str();
                const double multiplier = scale == "k" ? 1e3 : scale == "M" ? 1e6 : scale == "G" ? 1e9 : 1;
                if ((*m)[3].str() == "s/it") {
                    if (*value <= 0) {
                        continue;
                    }
                    perSecond = 1 / (*value * multiplier);
                } else {
                    perSecond = *value * multiplier;
                }
                unit = "steps";
            }
        }
        if (unit == "steps" && m_perStep > 0) {
            perSecond *= m_perStep;
            unit = "samples";
        }
        return LogThroughput{perSecond, unit};
    }
    return std::nullopt;
}

} // namespace gpuplan::core
