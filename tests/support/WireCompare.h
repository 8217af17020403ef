#pragma once
// The small pieces the wire-conformance tests (TestCvmWire, TestEcsWire, TestHuaweiEcsWire) read requests with:
// our request and the official SDK's are taken apart the same way before they are compared.

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "gpuplan/net/Crypto.h"

namespace gpuplan::testing {

inline std::string lower(const std::string& text)
{
    std::string out = text;
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

/// One part of an Authorization value: "Credential=AKID.../2026-12-01/cvm/tc3_request, SignedHeaders=..." with
/// `name` "Credential" gives "AKID.../2026-12-01/cvm/tc3_request"; "(none)" when it has no such part.
inline std::string authorizationPart(const std::string& authorization, const std::string& name)
{
    const std::size_t at = authorization.find(name + "=");
    if (at == std::string::npos) {
        return "(none)";
    }
    const std::size_t start = at + name.size() + 1;
    const std::size_t end = authorization.find(',', start);
    return authorization.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

/// A query string as decoded name -> value; a name that comes twice is reported in `duplicates`.
inline std::map<std::string, std::string> decodedQuery(const std::string& query, std::vector<std::string>& duplicates)
{
    std::map<std::string, std::string> out;
    std::size_t start = 0;
    while (start < query.size()) {
        const std::size_t amp = std::min(query.find('&', start), query.size());
        const std::string part = query.substr(start, amp - start);
        const std::size_t eq = part.find('=');
        const std::string name = core::uriDecode(part.substr(0, eq));
        const std::string value = eq == std::string::npos ? std::string() : core::uriDecode(part.substr(eq + 1));
        if (!out.emplace(name, value).second) {
            duplicates.push_back(name);
        }
        start = amp + 1;
    }
    return out;
}

} // namespace gpuplan::testing
