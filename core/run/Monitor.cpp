#include "gpuplan/run/Monitor.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace gpuplan::core {

namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
        text.remove_suffix(1);
    }
    return text;
}

std::vector<std::string_view> splitFields(std::string_view line)
{
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        fields.push_back(
            trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
        if (comma == std::string_view::npos) {
            return fields;
        }
        start = comma + 1;
    }
}

/// What nvidia-smi prints for a field this GPU does not report.
// source: nvidia-smi --query-gpu prints "[N/A]" or "[Not Supported]" (older drivers "N/A"), and nothing where the
// query failed.
bool isUnreported(std::string_view field)
{
    return field.empty() || field == "[N/A]" || field == "N/A" || field == "[Not Supported]" || field == "Not Supported"
           || field == "[Unknown Error]" || field == "-";
}

/// A field that is a number or unreported; with ",nounits" nvidia-smi prints the bare number, without it a unit
/// after a space ("45 %", "1234 MiB", "250.00 W"): the unit is allowed and dropped. False when it is neither.
bool readNumber(std::string_view field, std::optional<double>& out)
{
    if (isUnreported(field)) {
        out.reset();
        return true;
    }
    double value = 0;
    const char* end = field.data() + field.size();
    const std::from_chars_result read = std::from_chars(field.data(), end, value);
    if (read.ec != std::errc() || !std::isfinite(value)) {
        return false;
    }
    const std::string_view unit = trim(std::string_view(read.ptr, static_cast<std::size_t>(end - read.ptr)));
    if (!unit.empty() && unit != "%" && unit != "MiB" && unit != "W" && unit != "C" && unit != "MHz"
        && unit != "MB/s") {
        return false;
    }
    out = value;
    return true;
}

bool readInteger(std::string_view field, std::int64_t& out)
{
    const char* end = field.data() + field.size();
    const std::from_chars_result read = std::from_chars(field.data(), end, out);
    return read.ec == std::errc() && read.ptr == end && !field.empty();
}

/// clocks_event_reasons.active: "0x0000000000000004" (nvidia-smi prints it in hex), or unreported.
bool readMask(std::string_view field, std::optional<std::uint64_t>& out)
{
    if (isUnreported(field)) {
        out.reset();
        return true;
    }
    int base = 10;
    if (field.size() > 2 && field[0] == '0' && (field[1] == 'x' || field[1] == 'X')) {
        field.remove_prefix(2);
        base = 16;
    }
    std::uint64_t value = 0;
    const char* end = field.data() + field.size();
    const std::from_chars_result read = std::from_chars(field.data(), end, value, base);
    if (read.ec != std::errc() || read.ptr != end || field.empty()) {
        return false;
    }
    out = value;
    return true;
}

GpuReading& readingOf(MonitorSample& sample, int index)
{
    for (GpuReading& gpu : sample.gpus) {
        if (gpu.index == index) {
            return gpu;
        }
    }
    GpuReading reading;
    reading.index = index;
    sample.gpus.push_back(reading);
    return sample.gpus.back();
}

/// Reads one line into `samples`; false when it does not read.
bool readLine(std::string_view line, std::map<std::int64_t, MonitorSample>& samples)
{
    const std::vector<std::string_view> f = splitFields(line);
    std::int64_t at = 0;
    if (f.size() < 2 || !readInteger(f[1], at)) {
        return false;
    }
    if (f[0] == "gpu" && f.size() == 10) {
        std::int64_t index = 0;
        GpuReading r;
        if (!readInteger(f[2], index) || index < 0 || index > 1024 || !readNumber(f[3], r.utilization)
            || !readNumber(f[4], r.memoryUsedMiB) || !readNumber(f[5], r.memoryTotalMiB) || !readNumber(f[6], r.powerW)
            || !readNumber(f[7], r.temperatureC) || !readNumber(f[8], r.smClockMHz) || !readMask(f[9], r.throttle)) {
            return false;
        }
        MonitorSample& sample = samples[at];
        sample.at = at;
        GpuReading& gpu = readingOf(sample, static_cast<int>(index));
        // pcie may have come first in this second: keep it.
        r.index = gpu.index;
        r.pcieRxMBs = gpu.pcieRxMBs;
        r.pcieTxMBs = gpu.pcieTxMBs;
        gpu = r;
        return true;
    }
    if (f[0] == "cpu" && f.size() == 4) {
        std::optional<double> busy;
        std::int64_t cores = 0;
        const bool coresUnreported = isUnreported(f[3]);
        if (!readNumber(f[2], busy) || (!coresUnreported && (!readInteger(f[3], cores) || cores <= 0))) {
            return false;
        }
        MonitorSample& sample = samples[at];
        sample.at = at;
        sample.cpuBusy = busy;
        if (!coresUnreported) {
            sample.cpuCores = static_cast<int>(cores);
        }
        return true;
    }
    if (f[0] == "pcie" && f.size() == 5) {
        std::int64_t index = 0;
        std::optional<double> rx;
        std::optional<double> tx;
        if (!readInteger(f[2], index) || index < 0 || index > 1024 || !readNumber(f[3], rx) || !readNumber(f[4], tx)) {
            return false;
        }
        MonitorSample& sample = samples[at];
        sample.at = at;
        GpuReading& gpu = readingOf(sample, static_cast<int>(index));
        gpu.pcieRxMBs = rx;
        gpu.pcieTxMBs = tx;
        return true;
    }
    return false;
}

/// A broken line's text for the message: at most 200 bytes, not cut inside a UTF-8 character.
std::string shortText(std::string_view line)
{
    constexpr std::size_t kMax = 200;
    if (line.size() <= kMax) {
        return std::string(line);
    }
    std::size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    return std::string(line.substr(0, cut));
}

/// A figure as a reason parameter, rounded to what a reader sees (one decimal).
std::string figure(double value)
{
    return reasonNumber(std::round(value * 10) / 10);
}

bool hasUtilization(const MonitorSample& sample)
{
    return std::any_of(
        sample.gpus.begin(), sample.gpus.end(), [](const GpuReading& g) { return g.utilization.has_value(); });
}

} // namespace

std::vector<MonitorSample> parseMonitorLines(std::string_view text, std::vector<Reason>* problems, int firstLine)
{
    std::map<std::int64_t, MonitorSample> samples;
    int lineNumber = firstLine;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        const std::string_view line = trim(text.substr(start, end - start));
        // Blank lines and the sampler's # comments carry nothing.
        if (!line.empty() && line.front() != '#' && !readLine(line, samples) && problems) {
            problems->push_back(
                Reason{"run.monitor.bad_line", {{"line", std::to_string(lineNumber)}, {"text", shortText(line)}}});
        }
        ++lineNumber;
        start = end + 1;
    }
    std::vector<MonitorSample> out;
    out.reserve(samples.size());
    for (auto& [at, sample] : samples) {
        std::sort(sample.gpus.begin(), sample.gpus.end(), [](const GpuReading& a, const GpuReading& b) {
            return a.index < b.index;
        });
        out.push_back(std::move(sample));
    }
    return out;
}

std::vector<std::string> throttleReasonKeys(std::uint64_t mask)
{
    // source: nvml.h, NVML_CLOCKS_EVENT_REASON_* (https://docs.nvidia.com/deploy/nvml-api/
    // group__nvmlClocksEventReasons.html): 0x1 GpuIdle, 0x2 ApplicationsClocksSetting, 0x4 SwPowerCap,
    // 0x8 HwSlowdown, 0x10 SyncBoost, 0x20 SwThermalSlowdown, 0x40 HwThermalSlowdown, 0x80 HwPowerBrakeSlowdown,
    // 0x100 DisplayClockSetting.
    std::vector<std::string> keys;
    if (mask & 0x1) {
        keys.emplace_back("run.throttle.idle");
    }
    if (mask & 0x2) {
        keys.emplace_back("run.throttle.app_clocks");
    }
    if (mask & 0x4) {
        keys.emplace_back("run.throttle.power_cap");
    }
    if (mask & 0x8) {
        keys.emplace_back("run.throttle.hw_slowdown");
    }
    if (mask & 0x10) {
        keys.emplace_back("run.throttle.sync_boost");
    }
    if (mask & (0x20 | 0x40)) {
        keys.emplace_back("run.throttle.thermal");
    }
    if (mask & 0x80) {
        keys.emplace_back("run.throttle.power_brake");
    }
    if (mask & 0x100) {
        keys.emplace_back("run.throttle.display_clocks");
    }
    // Newer drivers add bits (0x200 board limit, 0x400 reliability): said, not dropped.
    if (mask & ~std::uint64_t{0x1FF}) {
        keys.emplace_back("run.throttle.other");
    }
    return keys;
}

RunAdvice adviseOnUtilization(const std::vector<MonitorSample>& samples, const AdviceSettings& settings)
{
    RunAdvice advice;
    // Samples without GPU readings (no nvidia-smi on the machine) say nothing about the GPUs.
    auto newest = std::find_if(samples.rbegin(), samples.rend(), hasUtilization);
    auto oldest = std::find_if(samples.begin(), samples.end(), hasUtilization);
    if (newest == samples.rend() || settings.lowForSeconds <= 0) {
        return advice;
    }
    const std::int64_t windowStart = newest->at - settings.lowForSeconds;
    if (oldest->at > windowStart) {
        return advice; // the samples do not cover the stretch yet
    }

    double utilSum = 0;
    int utilCount = 0;
    double cpuSum = 0;
    int cpuCount = 0;
    double shareSum = 0;
    int shareCount = 0;
    double pcieSum = 0;
    int pcieCount = 0;
    std::int64_t since = 0;
    bool first = true;
    for (const MonitorSample& sample : samples) {
        if (sample.at < windowStart || sample.at > newest->at) {
            continue;
        }
        if (first && hasUtilization(sample)) {
            since = sample.at;
            first = false;
        }
        if (sample.cpuBusy) {
            cpuSum += *sample.cpuBusy;
            ++cpuCount;
        }
        for (const GpuReading& gpu : sample.gpus) {
            if (gpu.utilization) {
                utilSum += *gpu.utilization;
                ++utilCount;
            }
            if (gpu.memoryUsedMiB && gpu.memoryTotalMiB && *gpu.memoryTotalMiB > 0) {
                shareSum += *gpu.memoryUsedMiB / *gpu.memoryTotalMiB;
                ++shareCount;
            }
            if (gpu.pcieRxMBs || gpu.pcieTxMBs) {
                pcieSum += gpu.pcieRxMBs.value_or(0) + gpu.pcieTxMBs.value_or(0);
                ++pcieCount;
            }
        }
    }
    advice.meanUtilization = utilSum / utilCount;
    if (advice.meanUtilization >= settings.threshold) {
        return advice;
    }
    advice.low = true;
    advice.since = since;
    const std::string util = figure(advice.meanUtilization);
    if (cpuCount > 0 && cpuSum / cpuCount >= settings.cpuBusyAbove) {
        advice.causes.push_back(
            Reason{"run.advice.data_loader", {{"gpu_util", util}, {"cpu_busy", figure(cpuSum / cpuCount)}}});
    }
    if (shareCount > 0 && shareSum / shareCount < settings.memoryShareBelow) {
        advice.causes.push_back(Reason{"run.advice.small_batch",
                                       {{"gpu_util", util}, {"memory_share", figure(100 * shareSum / shareCount)}}});
    }
    if (pcieCount > 0 && pcieSum / pcieCount >= settings.pcieBusyAboveMBs) {
        advice.causes.push_back(Reason{"run.advice.host_copies", {{"pcie_mbs", figure(pcieSum / pcieCount)}}});
    }
    if (settings.precision == Precision::Fp32) {
        advice.causes.push_back(Reason{"run.advice.no_amp", {{"precision", precisionName(settings.precision)}}});
    }
    if (advice.causes.empty()) {
        advice.causes.push_back(Reason{"run.advice.unexplained", {{"gpu_util", util}}});
    }
    return advice;
}

} // namespace gpuplan::core
