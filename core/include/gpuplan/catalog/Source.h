#pragma once

#include <string>

namespace gpuplan::core {

/// Where a figure comes from: the page that states it, the date it is valid for and the day it was read.
struct Source
{
    std::string url;
    std::string asOf;      // YYYY-MM-DD the source states (or its commit date); empty: the source states none
    std::string retrieved; // YYYY-MM-DD the source was read
    std::string note;      // optional: which table, which footnote, what was derived

    /// The as-of date, or "undated" when the source states none: what a user is shown next to the figure.
    std::string asOfOrUndated() const { return asOf.empty() ? "undated" : asOf; }

    bool operator==(const Source&) const = default;
};

} // namespace gpuplan::core
