#include "gpuplan/core/Paths.h"

#include <cstdlib>

namespace gpuplan::core {

std::filesystem::path userDataDir()
{
    if (const char* dataHome = std::getenv("XDG_DATA_HOME"); dataHome && *dataHome) {
        return std::filesystem::path(dataHome) / "gpuplanner";
    }
    if (const char* home = std::getenv("HOME"); home && *home) {
        return std::filesystem::path(home) / ".local" / "share" / "gpuplanner";
    }
    return {};
}

} // namespace gpuplan::core
