#include "gpuplan/core/Reason.h"

#include <cstdio>

namespace gpuplan::core {

std::string reasonNumber(double value)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.10g", value);
    return buffer;
}

} // namespace gpuplan::core
