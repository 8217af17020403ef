#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// A name reduced for matching: lower case, letters and digits only ("A100-SXM4 80GB" -> "a100sxm480gb").
std::string normalizedName(std::string_view name);

/// Up to `count` candidates closest to `query` (edit distance of the normalized names, a candidate that
/// contains the query first), for "did you mean ...?" messages. Empty when nothing is reasonably close.
std::vector<std::string>
closestNames(std::string_view query, const std::vector<std::string>& candidates, std::size_t count = 3);

/// "a, b, c": a list as one reason parameter (the wording says "a, b or c" in the reader's language).
std::string joinedNames(const std::vector<std::string>& names);

} // namespace gpuplan::core
