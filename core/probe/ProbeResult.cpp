// Reads the probe's output (gpuplan-probe/1 JSON, cuda_probe.md) into ProbeResult: finds the document inside what the
// SSH session printed, then checks and reads every field of it as untrusted input, naming each problem by its JSON
// path. About 600 lines on purpose: the document's schema is read in one place, section by section (build, driver,
// each GPU's measurements, throttling, burn, libraries), so that a field the probe writes is found read here by one
// search (fuzz_probe and TestProbeVerdict feed it broken output).
#include "gpuplan/probe/ProbeResult.h"

#include "core/JsonChecker.h"
#include "gpuplan/probe/Checks.h"

#include <algorithm>
#include <limits>

namespace gpuplan::core {

using nlohmann::json;
using Need = JsonChecker::Need;

const ProbeMeasurement* ProbeGpu::measurement(std::string_view wanted) const
{
    auto it = std::find_if(
        measurements.begin(), measurements.end(), [&](const ProbeMeasurement& m) { return m.name == wanted; });
    return it == measurements.end() ? nullptr : &*it;
}

const ProbeMeasurement* ProbeGpu::measurement(Check wanted) const
{
    auto it = std::find_if(
        measurements.begin(), measurements.end(), [&](const ProbeMeasurement& m) { return m.test == wanted; });
    return it == measurements.end() ? nullptr : &*it;
}

namespace {

/// A probe's stdout is a few kilobytes; anything far larger is not a probe document.
constexpr std::size_t kMaxOutputBytes = 4 * 1024 * 1024;

/// JsonChecker's typed readers plus the whole numbers and nullable values the probe's schema uses.
class ProbeReader
{
public:
    explicit ProbeReader(JsonChecker& check)
        : m_check(check)
    { }

    /// A whole number >= `min`; absent or null is allowed only when `need` is Optional.
    std::optional<long long>
    integer(const json& parent, std::string_view key, const std::string& path, Need need, long long min = 0)
    {
        const json* value = member(parent, key, path, need);
        if (!value) {
            return std::nullopt;
        }
        if (!value->is_number_integer()) {
            m_check.problem(JsonChecker::child(path, key), notWholeNumber(key, *value));
            return std::nullopt;
        }
        const long long number =
            value->is_number_unsigned() ? static_cast<long long>(std::min<std::uint64_t>(
                value->get<std::uint64_t>(), static_cast<std::uint64_t>(std::numeric_limits<long long>::max())))
                                        : value->get<long long>();
        if (number < min) {
            m_check.problem(
                JsonChecker::child(path, key),
                Reason{"error.probe.too_small",
                       {{"field", std::string(key)}, {"min", std::to_string(min)}, {"found", std::to_string(number)}}});
            return std::nullopt;
        }
        return number;
    }

    std::optional<int>
    smallInteger(const json& parent, std::string_view key, const std::string& path, Need need, long long min = 0)
    {
        std::optional<long long> number = integer(parent, key, path, need, min);
        if (number && *number > std::numeric_limits<int>::max()) {
            m_check.problem(
                JsonChecker::child(path, key),
                Reason{"error.probe.too_large", {{"field", std::string(key)}, {"found", std::to_string(*number)}}});
            return std::nullopt;
        }
        return number ? std::optional<int>(static_cast<int>(*number)) : std::nullopt;
    }

    /// A finite number >= 0.
    std::optional<double> number(const json& parent, std::string_view key, const std::string& path, Need need)
    {
        return m_check.nonNegativeNumber(parent, key, path, need);
    }

    /// A count or a flag: the schema names the field without fixing its type; true/false read as 1/0.
    std::optional<long long> countOrFlag(const json& parent, std::string_view key, const std::string& path)
    {
        auto it = parent.find(key);
        if (it != parent.end() && it->is_boolean()) {
            return it->get<bool>() ? 1 : 0;
        }
        return integer(parent, key, path, Need::Required);
    }

    /// A flag or a count: true/false, or a whole number read as "non-zero".
    std::optional<bool> flagOrCount(const json& parent, std::string_view key, const std::string& path)
    {
        auto it = parent.find(key);
        if (it != parent.end() && it->is_number_integer()) {
            return countOrFlag(parent, key, path).value_or(0) != 0;
        }
        return m_check.boolean(parent, key, path, Need::Required);
    }

    /// Records a problem for each of `keys` that is absent (null is fine: the schema's "number or null").
    void present(const json& parent, std::initializer_list<const char*> keys, const std::string& path)
    {
        for (const char* key : keys) {
            if (!parent.contains(key)) {
                m_check.problem(JsonChecker::child(path, key), Reason{"error.json.required_missing", {{"field", key}}});
            }
        }
    }

    /// A string that must be there but may be empty (a uuid NVML could not give).
    std::string text(const json& parent, std::string_view key, const std::string& path)
    {
        const json* value = member(parent, key, path, Need::Required);
        if (value && !value->is_string()) {
            m_check.problem(
                JsonChecker::child(path, key),
                Reason{"error.json.wrong_type",
                       {{"field", std::string(key)}, {"expected", "string"}, {"found_kind", jsonKindName(*value)}}});
            return {};
        }
        return value ? value->get<std::string>() : std::string();
    }

    std::optional<ProbeError> error(const json& parent, const std::string& path)
    {
        const json* node = m_check.object(parent, "error", path, Need::Optional);
        if (!node) {
            return std::nullopt;
        }
        const std::string at = JsonChecker::child(path, "error");
        std::optional<std::string> code = m_check.string(*node, "code", at, Need::Required);
        std::optional<std::string> message = m_check.string(*node, "message", at, Need::Optional);
        if (!code) {
            return std::nullopt;
        }
        return ProbeError{*code,
                          message.value_or(""),
                          smallInteger(*node, "gpu", at, Need::Optional),
                          m_check.string(*node, "stage", at, Need::Optional).value_or("")};
    }

    JsonChecker& check() { return m_check; }

    /// "error.probe.not_whole_number": a number as it was written ("found"); any other value also by its kind
    /// ("found_kind"), a container by its kind alone.
    static Reason notWholeNumber(std::string_view key, const json& value)
    {
        Reason reason{"error.probe.not_whole_number", {{"field", std::string(key)}}};
        if (!value.is_structured()) {
            reason.params["found"] = describeJson(value);
        }
        if (!value.is_number()) {
            reason.params["found_kind"] = jsonKindName(value);
        }
        return reason;
    }

private:
    const json* member(const json& parent, std::string_view key, const std::string& path, Need need)
    {
        auto it = parent.find(key);
        if (it == parent.end() || it->is_null()) {
            if (need == Need::Required) {
                m_check.problem(JsonChecker::child(path, key),
                                it == parent.end()
                                    ? Reason{"error.json.required_missing", {{"field", std::string(key)}}}
                                    : Reason{"error.json.required_null", {{"field", std::string(key)}}});
            }
            return nullptr;
        }
        return &*it;
    }

    JsonChecker& m_check;
};

void readBuild(ProbeReader& in, const json& root, ProbeBuild& build)
{
    JsonChecker& check = in.check();
    const json* node = check.object(root, "probe", "$", Need::Required);
    if (!node) {
        return;
    }
    const std::string at = "$.probe";
    build.version = check.string(*node, "version", at, Need::Required).value_or("");
    build.mode = check.string(*node, "mode", at, Need::Required).value_or("");
    if (!build.mode.empty() && build.mode != "quick" && build.mode != "full") {
        check.problem(at + ".mode", Reason{"error.probe.bad_mode", {{"found", build.mode}}});
    }
    build.cudaRuntime = in.smallInteger(*node, "cuda_runtime", at, Need::Required, 1).value_or(0);
    build.architectures = check.stringList(*node, "architectures", at);
}

void readDriver(ProbeReader& in, const json& root, ProbeDriver& driver)
{
    JsonChecker& check = in.check();
    const json* node = check.object(root, "driver", "$", Need::Required);
    if (!node) {
        return;
    }
    driver.version = check.string(*node, "version", "$.driver", Need::Optional);
    driver.cudaVersion = in.smallInteger(*node, "cuda_version", "$.driver", Need::Required).value_or(0);
}

ProbeMeasurement readMeasurement(ProbeReader& in, const json& node, const std::string& at)
{
    JsonChecker& check = in.check();
    ProbeMeasurement m;
    m.name = check.string(node, "name", at, Need::Required).value_or("");
    m.test = measurementByKey(m.name); // a test this build does not know stays by its name, never judged
    m.unit = check.string(node, "unit", at, Need::Required).value_or("");
    if (!m.unit.empty() && m.unit != "TFLOPS" && m.unit != "GB/s") {
        check.problem(at + ".unit", Reason{"error.probe.bad_unit", {{"found", m.unit}}});
    }
    m.method = check.string(node, "method", at, Need::Required).value_or("");
    static const char* const kMethods[] = {
        "cublaslt", "wmma", "mma_sync", "wgmma", "fma", "copy", "triad", "pinned", "peer", "nccl"};
    if (!m.method.empty() && std::none_of(std::begin(kMethods), std::end(kMethods), [&](const char* known) {
            return m.method == known;
        })) {
        std::string known;
        for (const char* name : kMethods) {
            known += (known.empty() ? "" : ", ") + std::string(name);
        }
        check.problem(at + ".method", Reason{"error.probe.unknown_method", {{"found", m.method}, {"known", known}}});
    }
    m.skipped = check.string(node, "skipped", at, Need::Optional);
    // A skipped test has a reason instead of figures; a measured one must carry all of them.
    const Need figures = m.skipped ? Need::Optional : Need::Required;
    // The probe writes a figure that is not finite as null: present, but unknown.
    m.value = in.number(node, "value", at, Need::Optional);
    m.min = in.number(node, "min", at, Need::Optional);
    m.max = in.number(node, "max", at, Need::Optional);
    if (!m.skipped) {
        in.present(node, {"value", "min", "max"}, at);
    }
    m.repetitions = in.smallInteger(node, "repetitions", at, figures).value_or(0);
    m.shape = check.string(node, "shape", at, figures).value_or("");
    m.informational = check.boolean(node, "informational", at, Need::Optional).value_or(false);
    m.peer = in.smallInteger(node, "peer", at, Need::Optional);
    m.link = check.string(node, "link", at, Need::Optional).value_or("");
    return m;
}

std::vector<ProbeMeasurement> readMeasurements(ProbeReader& in, const json& parent, const std::string& at, Need need)
{
    JsonChecker& check = in.check();
    std::vector<ProbeMeasurement> out;
    if (const json* list = check.array(parent, "measurements", at, need)) {
        const std::string p = at + ".measurements";
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string mAt = JsonChecker::index(p, i);
            if (check.isObject((*list)[i], mAt)) {
                out.push_back(readMeasurement(in, (*list)[i], mAt));
            }
        }
    }
    return out;
}

std::optional<ProbeThrottle> readThrottle(ProbeReader& in, const json& parent, const std::string& at)
{
    JsonChecker& check = in.check();
    // The GPU's member and the burn-in's are both named as the throttle check.
    const std::string_view key = checkKey(Check::Throttle);
    const json* node = check.object(parent, key, at, Need::Optional);
    if (!node) {
        return std::nullopt;
    }
    const std::string p = JsonChecker::child(at, key);
    ProbeThrottle t;
    t.samples = in.smallInteger(*node, "samples", p, Need::Required).value_or(0);
    if (const json* shares = check.object(*node, "shares", p, Need::Required)) {
        for (auto it = shares->begin(); it != shares->end(); ++it) {
            std::optional<double> share = in.number(*shares, it.key(), p + ".shares", Need::Required);
            if (share && *share > 1.0) {
                check.problem(JsonChecker::child(p + ".shares", it.key()),
                              Reason{"error.probe.not_fraction", {{"found", reasonNumber(*share)}}});
            } else if (share) {
                t.shares[it.key()] = *share;
            }
        }
    }
    return t;
}

std::optional<ProbeBurn> readBurn(ProbeReader& in, const json& parent, const std::string& at)
{
    JsonChecker& check = in.check();
    const json* node = check.object(parent, "burn", at, Need::Optional);
    if (!node) {
        return std::nullopt;
    }
    const std::string p = at + ".burn";
    ProbeBurn b;
    b.seconds = in.number(*node, "seconds", p, Need::Required).value_or(0);
    b.gemms = in.integer(*node, "gemms", p, Need::Required).value_or(0);
    b.wrongResults = in.integer(*node, "wrong_results", p, Need::Required).value_or(0);
    b.nanCount = in.integer(*node, "nan_count", p, Need::Required).value_or(0);
    b.xidErrors = in.integer(*node, "xid_errors", p, Need::Optional);
    if (const json* xids = check.array(*node, "xids", p, Need::Optional)) {
        for (std::size_t i = 0; i < xids->size(); ++i) {
            if ((*xids)[i].is_number_integer()) {
                b.xids.push_back((*xids)[i].get<long long>());
            } else {
                check.problem(JsonChecker::index(p + ".xids", i), ProbeReader::notWholeNumber("", (*xids)[i]));
            }
        }
    }
    b.tflopsFirst = in.number(*node, "tflops_first", p, Need::Optional);
    b.tflopsLast = in.number(*node, "tflops_last", p, Need::Optional);
    b.tflopsMin = in.number(*node, "tflops_min", p, Need::Optional);
    b.throttle = readThrottle(in, *node, p);
    if (const json* points = check.array(*node, "trajectory", p, Need::Optional)) {
        for (std::size_t i = 0; i < points->size(); ++i) {
            const std::string pAt = JsonChecker::index(p + ".trajectory", i);
            if (!check.isObject((*points)[i], pAt)) {
                continue;
            }
            const json& point = (*points)[i];
            ProbeBurnPoint bp;
            bp.tS = in.number(point, "t_s", pAt, Need::Required).value_or(0);
            bp.smMhz = in.smallInteger(point, "sm_mhz", pAt, Need::Optional);
            bp.powerW = in.number(point, "power_w", pAt, Need::Optional);
            bp.temperatureC = in.smallInteger(point, "temp_c", pAt, Need::Optional, -100);
            bp.tflops = in.number(point, "tflops", pAt, Need::Optional);
            b.trajectory.push_back(bp);
        }
    }
    return b;
}

std::optional<ProbeLibrary>
readLibrary(ProbeReader& in, const json& parent, std::string_view key, const std::string& at)
{
    JsonChecker& check = in.check();
    const json* node = check.object(parent, key, at, Need::Optional);
    if (!node) {
        return std::nullopt;
    }
    const std::string p = JsonChecker::child(at, key);
    return ProbeLibrary{check.string(*node, "path", p, Need::Required).value_or(""),
                        in.integer(*node, "version", p, Need::Optional).value_or(0)};
}

void readLibraries(ProbeReader& in, const json& root, ProbeLibraries& libraries)
{
    JsonChecker& check = in.check();
    const json* node = check.object(root, "libraries", "$", Need::Optional);
    if (!node) {
        return;
    }
    const std::string at = "$.libraries";
    libraries.cublasLt = readLibrary(in, *node, "cublaslt", at);
    libraries.cublasLtProblem = check.string(*node, "cublaslt_problem", at, Need::Optional).value_or("");
    libraries.nccl = readLibrary(in, *node, "nccl", at);
    libraries.ncclProblem = check.string(*node, "nccl_problem", at, Need::Optional).value_or("");
}

ProbeGpu readGpu(ProbeReader& in, const json& node, const std::string& at)
{
    JsonChecker& check = in.check();
    ProbeGpu gpu;
    gpu.error = in.error(node, at);
    gpu.index = in.smallInteger(node, "index", at, Need::Required).value_or(0);
    gpu.name = check.string(node, "name", at, Need::Required).value_or("");
    gpu.uuid = in.text(node, "uuid", at);
    gpu.computeCapability = in.text(node, "compute_capability", at);
    gpu.memoryTotalMib = in.integer(node, "memory_total_mib", at, Need::Required).value_or(0);

    // A GPU that could not be measured still says why; its figures may be missing. The members a health check
    // reads are named by the check's key (gpuplan/probe/Checks.h).
    const Need measured = gpu.error ? Need::Optional : Need::Required;
    if (const json* clocks = check.object(node, "clocks_mhz", at, measured)) {
        const std::string p = at + ".clocks_mhz";
        gpu.clocks.smMaxMhz = in.smallInteger(*clocks, "sm_max", p, Need::Optional);
        gpu.clocks.memoryMaxMhz = in.smallInteger(*clocks, "memory_max", p, Need::Optional);
        gpu.clocks.smUnderLoadMhz = in.smallInteger(*clocks, "sm_under_load", p, Need::Optional);
    }
    if (const json* power = check.object(node, checkKey(Check::Power), at, measured)) {
        const std::string p = JsonChecker::child(at, checkKey(Check::Power));
        gpu.power.limitW = in.number(*power, "limit_w", p, Need::Optional);
        gpu.power.defaultLimitW = in.number(*power, "default_limit_w", p, Need::Optional);
        gpu.power.underLoadW = in.number(*power, "under_load_w", p, Need::Optional);
        gpu.power.method = check.string(*power, "method", p, Need::Optional).value_or("");
    }
    if (const json* temperature = check.object(node, checkKey(Check::Temperature), at, measured)) {
        const std::string p = JsonChecker::child(at, checkKey(Check::Temperature));
        gpu.temperature.currentC = in.smallInteger(*temperature, "current_c", p, Need::Optional, -100);
        gpu.temperature.slowdownC = in.smallInteger(*temperature, "slowdown_c", p, Need::Optional, -100);
        gpu.temperature.shutdownC = in.smallInteger(*temperature, "shutdown_c", p, Need::Optional, -100);
        gpu.temperature.maxUnderLoadC = in.smallInteger(*temperature, "max_under_load_c", p, Need::Optional, -100);
    }
    if (const json* ecc = check.object(node, checkKey(Check::Ecc), at, Need::Optional)) {
        const std::string p = JsonChecker::child(at, checkKey(Check::Ecc));
        ProbeEcc e;
        std::optional<bool> enabled = check.boolean(*ecc, "enabled", p, Need::Required);
        e.enabled = enabled.value_or(false);
        e.volatileCorrected = in.integer(*ecc, "volatile_corrected", p, Need::Required).value_or(0);
        e.volatileUncorrected = in.integer(*ecc, "volatile_uncorrected", p, Need::Required).value_or(0);
        e.aggregateCorrected = in.integer(*ecc, "aggregate_corrected", p, Need::Required).value_or(0);
        e.aggregateUncorrected = in.integer(*ecc, "aggregate_uncorrected", p, Need::Required).value_or(0);
        gpu.ecc = e;
    }
    if (const json* pages = check.object(node, checkKey(Check::RetiredPages), at, Need::Optional)) {
        const std::string p = JsonChecker::child(at, checkKey(Check::RetiredPages));
        gpu.retiredPages = ProbeRetiredPages{in.integer(*pages, "count", p, Need::Required).value_or(0),
                                             in.countOrFlag(*pages, "pending", p).value_or(0)};
    }
    if (const json* rows = check.object(node, checkKey(Check::RemappedRows), at, Need::Optional)) {
        const std::string p = JsonChecker::child(at, checkKey(Check::RemappedRows));
        ProbeRemappedRows r;
        r.correctable = in.integer(*rows, "correctable", p, Need::Required).value_or(0);
        r.uncorrectable = in.integer(*rows, "uncorrectable", p, Need::Required).value_or(0);
        r.pending = in.flagOrCount(*rows, "pending", p).value_or(false);
        r.failure = in.flagOrCount(*rows, "failure", p).value_or(false);
        gpu.remappedRows = r;
    }
    if (const json* pcie = check.object(node, checkKey(Check::Pcie), at, Need::Optional)) {
        const std::string p = JsonChecker::child(at, checkKey(Check::Pcie));
        ProbePcie link;
        link.genMax = in.smallInteger(*pcie, "gen_max", p, Need::Optional, 1);
        link.widthMax = in.smallInteger(*pcie, "width_max", p, Need::Optional, 1);
        link.genUnderLoad = in.smallInteger(*pcie, "gen_under_load", p, Need::Optional, 1);
        link.widthUnderLoad = in.smallInteger(*pcie, "width_under_load", p, Need::Optional, 1);
        gpu.pcie = link;
    }
    gpu.migEnabled = check.boolean(node, "mig_enabled", at, Need::Optional);
    if (check.array(node, "throttle_reasons", at, measured)) {
        gpu.throttleReasons = check.stringList(node, "throttle_reasons", at);
    }
    gpu.throttle = readThrottle(in, node, at);
    gpu.parentName = check.string(node, "parent_name", at, Need::Optional);
    gpu.hostNumaNode = in.smallInteger(node, "host_numa_node", at, Need::Optional);
    gpu.measurements = readMeasurements(in, node, at, measured);
    gpu.burn = readBurn(in, node, at);
    if (const json* correctness = check.object(node, checkKey(Check::Correctness), at, measured)) {
        const std::string p = JsonChecker::child(at, checkKey(Check::Correctness));
        ProbeCorrectness c;
        c.repeatIdentical = check.boolean(*correctness, "repeat_identical", p, Need::Required).value_or(false);
        c.nanCount = in.integer(*correctness, "nan_count", p, Need::Required).value_or(0);
        in.present(*correctness, {"max_relative_error", "tolerance"}, p);
        c.maxRelativeError = in.number(*correctness, "max_relative_error", p, Need::Optional);
        c.tolerance = in.number(*correctness, "tolerance", p, Need::Optional);
        c.ok = check.boolean(*correctness, "ok", p, Need::Required).value_or(false);
        gpu.correctness = c;
    }
    return gpu;
}

std::vector<std::size_t> objectLineStarts(std::string_view text)
{
    std::vector<std::size_t> starts;
    std::size_t lineStart = 0;
    while (lineStart < text.size()) {
        const std::size_t first = text.find_first_not_of(" \t\r", lineStart);
        if (first != std::string_view::npos && text[first] == '{') {
            starts.push_back(first);
        }
        const std::size_t newline = text.find('\n', lineStart);
        if (newline == std::string_view::npos) {
            break;
        }
        lineStart = newline + 1;
    }
    return starts;
}

/// `text` with everything outside [begin, end) blanked to spaces (newlines kept), so that a parse error
/// names the line and column of the probe's real output.
std::string blankOutside(std::string_view text, std::size_t begin, std::size_t end)
{
    std::string copy(text);
    for (std::size_t i = 0; i < copy.size(); ++i) {
        if ((i < begin || i >= end) && copy[i] != '\n') {
            copy[i] = ' ';
        }
    }
    return copy;
}

/// Whether JSON `text` ends inside its document: nlohmann's parse error 101 (an unexpected token, or a string
/// left open) at the end of the input, as when the probe was killed or the connection dropped mid-document.
bool endsInsideDocument(const std::string& text)
{
    try {
        const json parsed = json::parse(text);
        (void)parsed; // parsed after all: too deep for parseJson, not cut short
    } catch (const json::parse_error& e) {
        // The lexer counts the end of input as one character read past the text.
        return e.id == 101 && e.byte > text.size();
    } catch (const json::exception&) {
        return false;
    }
    return false;
}

/// The document: from the first line beginning with '{' (after blanks) that parses, to the end or to the last
/// '}'; a later candidate must carry "schema". Else the error of the first candidate.
Result<json> locateDocument(std::string_view output, const std::string& where)
{
    const std::vector<std::size_t> starts = objectLineStarts(output);
    if (starts.empty()) {
        std::string firstLine(output.substr(0, std::min<std::size_t>(output.find('\n'), 80)));
        return Error{ErrorCode::JsonSyntax,
                     output.find_first_not_of(" \t\r\n") == std::string_view::npos
                         ? Reason{"error.probe.no_output", {}}
                         : Reason{"error.probe.no_document", {{"begins", firstLine}}},
                     where};
    }
    const std::size_t lastBrace = output.rfind('}');
    std::optional<Error> firstError;
    bool truncated = false;
    for (std::size_t start : starts) {
        // Whole rest first; then without trailing text after the last '}' (a shell's "logout").
        std::vector<std::size_t> ends = {output.size()};
        if (lastBrace != std::string_view::npos && lastBrace > start) {
            ends.push_back(lastBrace + 1);
        }
        for (std::size_t end : ends) {
            const std::string candidate = blankOutside(output, start, end);
            Result<json> parsed = parseJson(candidate, where);
            if (parsed) {
                // A later '{' line of a truncated document is one of its nested objects, not the document.
                if (start == starts.front() || parsed->contains("schema")) {
                    return parsed;
                }
                continue;
            }
            if (!firstError) {
                firstError = parsed.error();
                truncated = endsInsideDocument(candidate);
            }
        }
    }
    Error error = *firstError;
    if (truncated) {
        // The parser's own words stay as it said them; the reason says what they mean here.
        const auto said = error.reason.params.find("said");
        error.reason =
            Reason{"error.probe.truncated", {{"said", said == error.reason.params.end() ? "" : said->second}}};
    }
    return error;
}

} // namespace

Result<ProbeResult> parseProbeResult(std::string_view output, const std::string& where)
{
    if (output.size() > kMaxOutputBytes) {
        return Error{ErrorCode::JsonSyntax,
                     Reason{"error.probe.output_too_large", {{"bytes", std::to_string(output.size())}}},
                     where};
    }
    Result<json> document = locateDocument(output, where);
    if (!document) {
        return document.error();
    }
    const json& root = *document;

    JsonChecker check(where);
    ProbeReader in(check);
    ProbeResult result;
    // Another schema's fields mean something else: stop at the tag, and say which probe this GPU Planner reads.
    const auto tag = root.find("schema");
    Reason otherSchema;
    if (tag == root.end()) {
        otherSchema = Reason{"error.probe.schema_missing", {}};
    } else if (tag->is_null()) {
        otherSchema = Reason{"error.probe.schema_null", {}};
    } else if (!tag->is_string()) {
        otherSchema = Reason{"error.probe.schema_not_text", {{"found_kind", jsonKindName(*tag)}}};
    } else if (tag->get<std::string>() != kProbeSchema) {
        otherSchema =
            Reason{"error.probe.other_schema", {{"expected", kProbeSchema}, {"found", tag->get<std::string>()}}};
    }
    if (!otherSchema.empty()) {
        return Error{ErrorCode::SchemaViolation, std::move(otherSchema), check.where("$.schema")};
    }
    readBuild(in, root, result.probe);
    readDriver(in, root, result.driver);
    result.ok = check.boolean(root, "ok", "$", Need::Required).value_or(false);
    result.error = in.error(root, "$");
    in.present(root, {"elapsed_s"}, "$");
    result.elapsedS = in.number(root, "elapsed_s", "$", Need::Optional);
    if (const json* gpus = check.array(root, "gpus", "$", Need::Required)) {
        for (std::size_t i = 0; i < gpus->size(); ++i) {
            const std::string at = JsonChecker::index("$.gpus", i);
            if (check.isObject((*gpus)[i], at)) {
                result.gpus.push_back(readGpu(in, (*gpus)[i], at));
            }
        }
    }
    readLibraries(in, root, result.libraries);
    if (const json* multi = check.object(root, "multi_gpu", "$", Need::Optional)) {
        result.multiGpu = readMeasurements(in, *multi, "$.multi_gpu", Need::Required);
    }
    if (const json* burn = check.object(root, "burn", "$", Need::Optional)) {
        result.burnSeconds = in.smallInteger(*burn, "seconds", "$.burn", Need::Required, 1);
    }
    if (check.problemCount() > 0) {
        std::vector<Error> problems = check.takeProblems();
        Error error = problems.front();
        if (problems.size() > 1) {
            error.reason.params["more_problems"] = std::to_string(problems.size() - 1);
        }
        return error;
    }
    return result;
}

} // namespace gpuplan::core
