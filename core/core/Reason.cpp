#include "gpuplan/core/Reason.h"

#include <charconv>
#include <cstdio>

namespace gpuplan::core {

std::string reasonNumber(double value)
{
    // std::to_chars writes what printf's "%.10g" writes, several times faster (a plan words 100 000s of these).
    char buffer[48];
    const std::to_chars_result end =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 10);
    return std::string(buffer, end.ptr);
}

} // namespace gpuplan::core
