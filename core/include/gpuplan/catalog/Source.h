#pragma once

#include <string>

namespace gpuplan::core {

/// Where a figure comes from: the page that states it and the date it was read or is valid for.
struct Source
{
    std::string url;
    std::string date; // ISO 8601 calendar date, YYYY-MM-DD
    std::string note; // optional: which table, which footnote, what was derived

    bool operator==(const Source&) const = default;
};

} // namespace gpuplan::core
