#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::core {

/// Where signers and token caches read the time: injectable, so tests fix it (and the server's Date
/// header can correct it for clock skew).
using Clock = std::function<std::chrono::system_clock::time_point()>;

Clock systemClock();
Clock fixedClock(std::chrono::system_clock::time_point at);
/// 2015-08-30T12:36:00Z -> that time point; the epoch when the text is not such a UTC time.
std::chrono::system_clock::time_point utcTime(const std::string& iso8601);

/// Unix seconds of an ISO 8601 date-time as cloud APIs write it: "2018-05-08T16:46:19.000Z" (EC2),
/// "2020-03-10T02:43:51Z", "2020-09-22T08:00:00+08:00" (CVM); fractions of a second are dropped, no zone means
/// UTC. nullopt for anything else.
std::optional<std::int64_t> parseIsoSeconds(std::string_view text);

/// "20150830T123600Z" (AWS, Huawei), "2015-08-30T12:36:00Z" (Alibaba), "20150830" (scope dates), "2015-08-30".
std::string basicIsoTime(std::chrono::system_clock::time_point at);
std::string extendedIsoTime(std::chrono::system_clock::time_point at);
std::string basicIsoDate(std::chrono::system_clock::time_point at);
std::string extendedIsoDate(std::chrono::system_clock::time_point at);
/// Seconds since the epoch.
long long unixSeconds(std::chrono::system_clock::time_point at);
/// Unix seconds now, from the system clock.
std::int64_t unixNow();

} // namespace gpuplan::core
