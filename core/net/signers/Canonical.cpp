#include "Canonical.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "gpuplan/net/Crypto.h"

namespace gpuplan::core::canonical {

std::string lowered(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

std::string trimmed(std::string_view value)
{
    const auto space = [](unsigned char c) { return std::isspace(c) != 0; };
    while (!value.empty() && space(value.front())) {
        value.remove_prefix(1);
    }
    while (!value.empty() && space(value.back())) {
        value.remove_suffix(1);
    }
    return std::string(value);
}

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
