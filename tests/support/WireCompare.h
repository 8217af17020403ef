#pragma once
// The small pieces the wire-conformance tests (TestCvmWire, TestEcsWire, TestHuaweiEcsWire, TestGceWire,
// TestAzureVmWire) read requests with: our request and the official SDK's are taken apart the same way before they
// are compared.

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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

/// A file's bytes; empty when it cannot be read (the comparison then names what is missing).
inline std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

/// How compareJson reads two bodies where the SDKs differ in what does not matter on the wire.
struct JsonCompareRules
{
    /// Any number equals another of the same value (JavaScript cannot write 1.0 apart from 1); else an integer and
    /// a float are of different kinds.
    bool numbersByValue = false;
    /// A member only the SDK sends, as an empty map or list, is not a difference (protobuf's JSON form).
    bool sdkOnlyEmptyContainers = false;
};

/// Every difference between our JSON body and the SDK's, by path ("server.extendparam.periodNum"), types included.
inline void compareJson(const nlohmann::json& ours,
                        const nlohmann::json& theirs,
                        const std::string& path,
                        std::vector<std::string>& out,
                        const JsonCompareRules& rules = {})
{
    const auto kind = [&](const nlohmann::json& value) {
        if (value.is_number()) {
            return std::string(rules.numbersByValue ? "number" : value.is_number_integer() ? "integer" : "float");
        }
        return std::string(value.type_name());
    };
    const std::string here = path.empty() ? "(body)" : path;
    if (kind(ours) != kind(theirs)) {
        out.push_back(here + " is " + ours.dump() + " (" + kind(ours) + ") here and " + theirs.dump() + " ("
                      + kind(theirs) + ") in the SDK's request");
        return;
    }
    if (ours.is_object()) {
        for (const auto& [name, value] : ours.items()) {
            const std::string at = path.empty() ? name : path + "." + name;
            if (!theirs.contains(name)) {
                out.push_back(at + " is " + value.dump() + " here and absent in the SDK's request");
            } else {
                compareJson(value, theirs[name], at, out, rules);
            }
        }
        for (const auto& [name, value] : theirs.items()) {
            const bool emptyContainer = (value.is_object() || value.is_array()) && value.empty();
            if (!ours.contains(name) && !(rules.sdkOnlyEmptyContainers && emptyContainer)) {
                const std::string at = path.empty() ? name : path + "." + name;
                out.push_back(at + " is absent here and " + value.dump() + " in the SDK's request");
            }
        }
    } else if (ours.is_array()) {
        if (ours.size() != theirs.size()) {
            out.push_back(here + " has " + std::to_string(ours.size()) + " items here and "
                          + std::to_string(theirs.size()) + " in the SDK's request");
            return;
        }
        for (std::size_t i = 0; i < ours.size(); ++i) {
            compareJson(ours[i], theirs[i], path + "[" + std::to_string(i) + "]", out, rules);
        }
    } else if (ours.is_number() && rules.numbersByValue ? ours.get<double>() != theirs.get<double>() : ours != theirs) {
        out.push_back(here + " is " + ours.dump() + " here and " + theirs.dump() + " in the SDK's request");
    }
}

} // namespace gpuplan::testing
