#include "Canonical.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "gpuplan/net/Crypto.h"

namespace gpuplan::core::canonical {

std::string canonicalQuery(std::string_view query)
{
    std::vector<std::pair<std::string, std::string>> params;
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view part = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        if (part.empty()) {
            continue;
        }
        const std::size_t eq = part.find('=');
        const std::string_view name = part.substr(0, eq);
        const std::string_view value = eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1);
        params.emplace_back(uriEncode(uriDecode(name)), uriEncode(uriDecode(value)));
    }
    std::sort(params.begin(), params.end());
    std::string out;
    for (const auto& [name, value] : params) {
        out += (out.empty() ? "" : "&") + name + '=' + value;
    }
    return out;
}

} // namespace gpuplan::core::canonical
