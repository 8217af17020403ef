#pragma once
// The small pieces the wire-conformance tests (TestCvmWire, TestEcsWire, TestHuaweiEcsWire, TestGceWire,
// TestAzureVmWire, TestVertexWire, TestAzureMlWire) read requests with: our request and the official SDK's are taken
// apart the same way before they are compared, and the differences are named the same way in every test.

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <QByteArray>

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

/// Called with each difference found, worded for the failure list ("parameter x is ...").
using Differ = std::function<void(const std::string&)>;

/// The SDK's captured headers ([[name, value], ...]) as lower-case name -> value, the names in `ignored` left out; a
/// name that comes twice is a difference.
inline std::map<std::string, std::string>
sdkHeadersOf(const nlohmann::json& pairs, const std::set<std::string>& ignored, const Differ& differ)
{
    std::map<std::string, std::string> out;
    for (const auto& pair : pairs) {
        const std::string name = lower(pair[0].get<std::string>());
        if (!ignored.count(name)) {
            if (out.count(name)) {
                differ("header " + name + " is sent twice by the SDK");
            }
            out[name] = pair[1].get<std::string>();
        }
    }
    return out;
}

/// Our request's headers (anything with .name and .value) as lower-case name -> value, the names in `ignored` left
/// out; a name that comes twice is a difference.
template <class Headers>
std::map<std::string, std::string>
ourHeadersOf(const Headers& headers, const std::set<std::string>& ignored, const Differ& differ)
{
    std::map<std::string, std::string> out;
    for (const auto& header : headers) {
        if (out.count(lower(header.name))) {
            differ("header " + header.name + " is sent twice by us");
        }
        if (!ignored.count(lower(header.name))) {
            out[lower(header.name)] = header.value;
        }
    }
    return out;
}

/// Every decoded query parameter of ours against the SDK's, by name and value.
inline void compareParameters(const std::map<std::string, std::string>& ours,
                              const std::map<std::string, std::string>& sdks,
                              const Differ& differ)
{
    for (const auto& [name, value] : ours) {
        if (!sdks.count(name)) {
            differ("parameter " + name + " is \"" + value + "\" here and absent in the SDK's request");
        } else if (sdks.at(name) != value) {
            differ("parameter " + name + " is \"" + value + "\" here and \"" + sdks.at(name)
                   + "\" in the SDK's request");
        }
    }
    for (const auto& [name, value] : sdks) {
        if (!ours.count(name)) {
            differ("parameter " + name + " is absent here and \"" + value + "\" in the SDK's request");
        }
    }
}

/// The same header names on both sides.
inline void compareHeaderNames(const std::map<std::string, std::string>& ours,
                               const std::map<std::string, std::string>& sdks,
                               const Differ& differ)
{
    for (const auto& [name, value] : sdks) {
        if (!ours.count(name)) {
            differ("header " + name + " (\"" + value + "\") is in the SDK's request only");
        }
    }
    for (const auto& [name, value] : ours) {
        if (!sdks.count(name)) {
            differ("header " + name + " (\"" + value + "\") is in our request only");
        }
    }
}

/// The same value of each of `names` on both sides ("(absent)" where a side lacks it).
inline void compareHeaderValues(const std::map<std::string, std::string>& ours,
                                const std::map<std::string, std::string>& sdks,
                                const std::vector<std::string>& names,
                                const Differ& differ)
{
    for (const std::string& name : names) {
        const std::string x = ours.count(name) ? ours.at(name) : "(absent)";
        const std::string y = sdks.count(name) ? sdks.at(name) : "(absent)";
        if (x != y) {
            differ("header " + name + " is \"" + x + "\" here and \"" + y + "\" in the SDK's request");
        }
    }
}

/// Two JSON bodies (text): both empty, or both JSON with the same members (compareJson). `adjustSdk`, when given,
/// rewrites the SDK's parsed body first (what the SDK writes another way for the same meaning).
inline void compareJsonBodies(const std::string& ours,
                              const std::string& sdks,
                              const JsonCompareRules& rules,
                              const Differ& differ,
                              const std::function<void(nlohmann::json&)>& adjustSdk = {})
{
    if (ours.empty() != sdks.empty()) {
        differ("body \"" + ours + "\" vs the SDK's \"" + sdks + "\"");
    } else if (!ours.empty()) {
        const nlohmann::json a = nlohmann::json::parse(ours, nullptr, false);
        nlohmann::json b = nlohmann::json::parse(sdks, nullptr, false);
        if (adjustSdk && b.is_object()) {
            adjustSdk(b);
        }
        if (a.is_discarded() || b.is_discarded()) {
            differ("a body is not JSON: \"" + ours + "\" vs the SDK's \"" + sdks + "\"");
        } else {
            std::vector<std::string> bodyDifferences;
            compareJson(a, b, "", bodyDifferences, rules);
            for (const std::string& d : bodyDifferences) {
                differ("body member " + d);
            }
        }
    }
}

/// A JWT part (base64url JSON) parsed; discarded when it is not one.
inline nlohmann::json jwtPart(const std::string& part)
{
    const QByteArray raw = QByteArray::fromBase64(QByteArray::fromStdString(part),
                                                  QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    return nlohmann::json::parse(raw.toStdString(), nullptr, false);
}

/// A Google service account's token request form (grant_type and assertion): every field but the assertion by
/// value; the assertion's header and claims decoded and compared member by member (its signature is not compared:
/// the JSON texts may order members differently).
inline void compareJwtBearerForm(const std::string& ours,
                                 const std::string& sdks,
                                 const JsonCompareRules& rules,
                                 const Differ& differ)
{
    std::vector<std::string> duplicates;
    const auto a = decodedQuery(ours, duplicates);
    const auto b = decodedQuery(sdks, duplicates);
    for (const std::string& name : duplicates) {
        differ("form field " + name + " is sent twice");
    }
    std::set<std::string> names;
    for (const auto& [name, value] : a) {
        names.insert(name);
    }
    for (const auto& [name, value] : b) {
        names.insert(name);
    }
    for (const std::string& name : names) {
        const std::string x = a.count(name) ? a.at(name) : "(absent)";
        const std::string y = b.count(name) ? b.at(name) : "(absent)";
        if (name != "assertion" && x != y) {
            differ("form field " + name + " is \"" + x + "\" here and \"" + y + "\" in the SDK's request");
        }
    }
    const auto parts = [](const std::string& jwt) {
        std::vector<std::string> out;
        std::stringstream in(jwt);
        for (std::string part; std::getline(in, part, '.');) {
            out.push_back(part);
        }
        return out;
    };
    const std::vector<std::string> ourParts = parts(a.count("assertion") ? a.at("assertion") : "");
    const std::vector<std::string> sdkParts = parts(b.count("assertion") ? b.at("assertion") : "");
    if (ourParts.size() != 3 || sdkParts.size() != 3) {
        differ("an assertion is not a JWT");
    } else {
        std::vector<std::string> jwtDifferences;
        compareJson(jwtPart(ourParts[0]), jwtPart(sdkParts[0]), "assertion.header", jwtDifferences, rules);
        compareJson(jwtPart(ourParts[1]), jwtPart(sdkParts[1]), "assertion.claims", jwtDifferences, rules);
        for (const std::string& d : jwtDifferences) {
            differ(d);
        }
    }
}

} // namespace gpuplan::testing
