#include "gpuplan/net/Clock.h"

#include <cstdio>
#include <ctime>

namespace gpuplan::core {

namespace {

std::tm utc(std::chrono::system_clock::time_point at)
{
    const std::time_t t = std::chrono::system_clock::to_time_t(at);
    std::tm out{};
    gmtime_r(&t, &out);
    return out;
}

std::string formatted(std::chrono::system_clock::time_point at, const char* format)
{
    const std::tm t = utc(at);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, format, &t);
    return buffer;
}

} // namespace

Clock systemClock()
{
    return [] { return std::chrono::system_clock::now(); };
}

Clock fixedClock(std::chrono::system_clock::time_point at)
{
    return [at] { return at; };
}

std::chrono::system_clock::time_point utcTime(const std::string& iso8601)
{
    std::tm t{};
    if (std::sscanf(iso8601.c_str(),
                    "%4d-%2d-%2dT%2d:%2d:%2dZ",
                    &t.tm_year,
                    &t.tm_mon,
                    &t.tm_mday,
                    &t.tm_hour,
                    &t.tm_min,
                    &t.tm_sec)
        != 6) {
        return {};
    }
    t.tm_year -= 1900;
    t.tm_mon -= 1;
    return std::chrono::system_clock::from_time_t(timegm(&t));
}

std::string basicIsoTime(std::chrono::system_clock::time_point at)
{
    return formatted(at, "%Y%m%dT%H%M%SZ");
}

std::string extendedIsoTime(std::chrono::system_clock::time_point at)
{
    return formatted(at, "%Y-%m-%dT%H:%M:%SZ");
}

std::string basicIsoDate(std::chrono::system_clock::time_point at)
{
    return formatted(at, "%Y%m%d");
}

std::string extendedIsoDate(std::chrono::system_clock::time_point at)
{
    return formatted(at, "%Y-%m-%d");
}

long long unixSeconds(std::chrono::system_clock::time_point at)
{
    return std::chrono::duration_cast<std::chrono::seconds>(at.time_since_epoch()).count();
}

} // namespace gpuplan::core
