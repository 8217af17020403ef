#include "gpuplan/net/Clock.h"

#include <cctype>
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

std::optional<std::int64_t> parseIsoSeconds(std::string_view text)
{
    const std::string value(text);
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    int consumed = 0;
    if (std::sscanf(value.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute, &second, &consumed)
        != 6) {
        return std::nullopt;
    }
    std::size_t at = static_cast<std::size_t>(consumed);
    if (at < value.size() && value[at] == '.') { // fractions of a second
        ++at;
        while (at < value.size() && std::isdigit(static_cast<unsigned char>(value[at]))) {
            ++at;
        }
    }
    const std::string zone = value.substr(at);
    long offset = 0;
    if (!zone.empty() && zone != "Z") {
        int zh = 0, zm = 0;
        char sign = 0;
        int zoneLength = 0;
        if (std::sscanf(zone.c_str(), "%c%2d:%2d%n", &sign, &zh, &zm, &zoneLength) != 3 || (sign != '+' && sign != '-')
            || static_cast<std::size_t>(zoneLength) != zone.size()) {
            return std::nullopt;
        }
        offset = (sign == '+' ? 1 : -1) * (zh * 3600L + zm * 60L);
    }
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    return static_cast<std::int64_t>(timegm(&tm)) - offset;
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

std::int64_t unixNow()
{
    return unixSeconds(std::chrono::system_clock::now());
}

} // namespace gpuplan::core
