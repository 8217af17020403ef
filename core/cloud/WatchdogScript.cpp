#include "gpuplan/cloud/WatchdogScript.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace gpuplan::core {

Status checkWatchdogRules(const WatchdogRules& rules)
{
    // Each rule: its field, the key that names it with its bounds, its value and bounds; the lower bound of the
    // rules that 0 turns off is 0.
    struct Bound
    {
        const char* field;
        const char* key;
        int value;
        int min;
        int max;
    };
    const std::array<Bound, 5> bounds{{
        {kDeadmanField, "error.cloud.deadman_out_of_range", rules.deadmanHours, 0, kMaxDeadmanHours},
        {kIdleMinutesField, "error.cloud.idle_minutes_out_of_range", rules.idleMinutes, 0, kMaxIdleMinutes},
        {kIdlePercentField,
         "error.cloud.idle_percent_out_of_range",
         rules.idlePercent,
         kMinIdlePercent,
         kMaxIdlePercent},
        {kCheckSecondsField,
         "error.cloud.check_seconds_out_of_range",
         rules.checkSeconds,
         kMinCheckSeconds,
         kMaxCheckSeconds},
        {kIdleGraceField, "error.cloud.idle_grace_out_of_range", rules.idleGraceMinutes, 0, kMaxIdleGraceMinutes},
    }};
    for (const Bound& b : bounds) {
        if (b.value >= b.min && b.value <= b.max) {
            continue;
        }
        return Error{
            ErrorCode::InvalidArgument,
            Reason{
                b.key,
                {{"min", std::to_string(b.min)}, {"max", std::to_string(b.max)}, {"value", std::to_string(b.value)}}},
            b.field};
    }
    return Ok{};
}

Result<std::string> watchdogUserData(std::string_view script, const WatchdogRules& rules)
{
    if (Status checked = checkWatchdogRules(rules); !checked) {
        return checked.error();
    }
    const std::array<std::pair<std::string, std::string>, 6> values{{
        {"GPUPLAN_DEADMAN_HOURS", std::to_string(rules.deadmanHours)},
        {"GPUPLAN_IDLE_MINUTES", std::to_string(rules.idleMinutes)},
        {"GPUPLAN_IDLE_PERCENT", std::to_string(rules.idlePercent)},
        {"GPUPLAN_CHECK_SECONDS", std::to_string(rules.checkSeconds)},
        {"GPUPLAN_IDLE_GRACE_MINUTES", std::to_string(rules.idleGraceMinutes)},
        {"GPUPLAN_SHUTDOWN_MEANS", rules.shutdownTerminates ? "terminate" : "stop"},
    }};
    std::string text(script);
    for (const auto& [name, value] : values) {
        // The defaults block has one line per rule: : "${NAME:=12}"
        const std::string prefix = ": \"${" + name + ":=";
        const std::size_t at = text.find("\n" + prefix);
        const std::size_t end = at == std::string::npos ? at : text.find("}\"", at + 1 + prefix.size());
        if (at == std::string::npos || end == std::string::npos || text.find('\n', at + 1) < end) {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.cloud.script_default_missing", {{"name", name}}},
                         "gpuplan-watchdog.sh"};
        }
        const std::size_t from = at + 1 + prefix.size();
        text.replace(from, end - from, value);
    }
    return text;
}

std::string gzipUserData(std::string_view text)
{
    z_stream stream{};
    // windowBits 15 + 16: a gzip wrapper (RFC 1952) instead of zlib's; its header has no name and mtime 0.
    if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
        return std::string(text);
    }
    std::string out(deflateBound(&stream, static_cast<uLong>(text.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int done = deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return done == Z_STREAM_END ? out : std::string(text);
}

std::string userDataText(std::string_view userData)
{
    if (userData.size() < 2 || static_cast<unsigned char>(userData[0]) != 0x1f
        || static_cast<unsigned char>(userData[1]) != 0x8b) {
        return std::string(userData);
    }
    z_stream stream{};
    if (inflateInit2(&stream, 15 + 16) != Z_OK) {
        return std::string(userData);
    }
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(userData.data()));
    stream.avail_in = static_cast<uInt>(userData.size());
    std::string out;
    char buffer[16384];
    int status = Z_OK;
    while (status == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef*>(buffer);
        stream.avail_out = sizeof buffer;
        status = inflate(&stream, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - stream.avail_out);
    }
    inflateEnd(&stream);
    return status == Z_STREAM_END ? out : std::string(userData);
}

int defaultDeadmanHours(double estimatedHoursHigh)
{
    if (!(estimatedHoursHigh > 0) || std::isnan(estimatedHoursHigh)) {
        return 12;
    }
    // Clamped as a double: a double beyond int's range converted to int is undefined behaviour.
    return static_cast<int>(std::min(std::ceil(estimatedHoursHigh * 1.25 + 1.0), double(kMaxDeadmanHours)));
}

} // namespace gpuplan::core
