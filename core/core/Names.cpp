#include "gpuplan/core/Names.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace gpuplan::core {

std::string normalizedName(std::string_view name)
{
    std::string out;
    for (char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        }
    }
    return out;
}

namespace {

std::size_t editDistance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::vector<std::string>
closestNames(std::string_view query, const std::vector<std::string>& candidates, std::size_t count)
{
    const std::string wanted = normalizedName(query);
    struct Scored
    {
        std::size_t score;
        std::string name;
    };
    std::vector<Scored> scored;
    for (const std::string& candidate : candidates) {
        const std::string normal = normalizedName(candidate);
        const bool contains =
            !wanted.empty() && (normal.find(wanted) != std::string::npos || wanted.find(normal) != std::string::npos);
        const std::size_t distance = editDistance(wanted, normal);
        // Close enough: within about a third of the longer name, or one contains the other.
        const std::size_t limit = std::max<std::size_t>(2, std::max(wanted.size(), normal.size()) / 3);
        if (contains || distance <= limit) {
            scored.push_back({contains ? 0 : distance + 1, candidate});
        }
    }
    std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) { return a.score < b.score; });
    std::vector<std::string> names;
    for (const Scored& s : scored) {
        if (names.size() == count) {
            break;
        }
        if (std::find(names.begin(), names.end(), s.name) == names.end()) {
            names.push_back(s.name);
        }
    }
    return names;
}

std::string joinedNames(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& name : names) {
        out += (out.empty() ? "" : ", ") + name;
    }
    return out;
}

} // namespace gpuplan::core
