#pragma once

#include "gpuplan/catalog/Source.h"
#include "gpuplan/core/Result.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// Reads typed fields out of a parsed JSON document and records every problem with the file and the
/// JSON path ("$.offers[2].prices[0].amount") where it was found. Private to core (the loaders of catalog, workload and
/// estimate data).
class JsonChecker
{
public:
    enum class Need
    {
        Required,
        Optional, // absent or null: unknown
    };

    explicit JsonChecker(std::string file);

    static std::string child(const std::string& path, std::string_view key) { return path + "." + std::string(key); }
    static std::string index(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

    /// Records a problem for each member of `object` not in `known` (catches misspelt optional fields).
    void
    onlyKnownKeys(const nlohmann::json& object, const std::string& path, std::initializer_list<std::string_view> known);

    /// True when `value` is an object; else records a problem at `path`.
    bool isObject(const nlohmann::json& value, const std::string& path);
    const nlohmann::json*
    object(const nlohmann::json& parent, std::string_view key, const std::string& path, Need need);
    const nlohmann::json* array(const nlohmann::json& parent, std::string_view key, const std::string& path, Need need);
    std::optional<std::string>
    string(const nlohmann::json& parent, std::string_view key, const std::string& path, Need need);
    /// A number that must be > 0.
    std::optional<double>
    positiveNumber(const nlohmann::json& parent, std::string_view key, const std::string& path, Need need);
    /// A number that must be >= 0 (and <= `max`).
    std::optional<double> nonNegativeNumber(const nlohmann::json& parent,
                                            std::string_view key,
                                            const std::string& path,
                                            Need need,
                                            double max = std::numeric_limits<double>::max());
    /// A whole number that must be >= 1.
    std::optional<int> count(const nlohmann::json& parent, std::string_view key, const std::string& path, Need need);
    std::optional<bool> boolean(const nlohmann::json& parent, std::string_view key, const std::string& path, Need need);
    /// An array of non-empty strings; absent or null gives an empty list.
    std::vector<std::string> stringList(const nlohmann::json& parent, std::string_view key, const std::string& path);

    /// A string naming one of an enum's values, read with `parse`; `known` lists the accepted names for the message.
    template <typename Enum>
    std::optional<Enum> choice(const nlohmann::json& parent,
                               std::string_view key,
                               const std::string& path,
                               Need need,
                               std::optional<Enum> (*parse)(std::string_view),
                               std::string_view known)
    {
        std::optional<std::string> text = string(parent, key, path, need);
        if (!text) {
            return std::nullopt;
        }
        std::optional<Enum> value = parse(*text);
        if (!value) {
            problem(child(path, key),
                    Reason{"error.json.unknown_value",
                           {{"field", std::string(key)}, {"found", *text}, {"known", std::string(known)}}});
        }
        return value;
    }

    /// A string that must be an ISO date, YYYY-MM-DD.
    std::optional<std::string> date(const nlohmann::json& parent, std::string_view key, const std::string& path);

    /// "file: path", as problems and findings name a place.
    std::string where(const std::string& path) const { return m_file + ": " + path; }

    /// Records `reason` at `path` (the error's where is "file: path").
    void problem(const std::string& path, Reason reason, ErrorCode code = ErrorCode::SchemaViolation);

    std::size_t problemCount() const { return m_problems.size(); }
    std::vector<Error> takeProblems() { return std::move(m_problems); }

private:
    /// A number that is not NaN or infinite (both can come from a parser that accepts them).
    std::optional<double>
    finiteNumber(const nlohmann::json& parent, std::string_view key, const std::string& path, Need need);
    /// The member, or nullptr when absent or null (recording a problem if it was required).
    const nlohmann::json*
    member(const nlohmann::json& parent, std::string_view key, const std::string& path, Need need);

    std::string m_file;
    std::vector<Error> m_problems;
};

/// The kind of a JSON value as a reason parameter names it: "null", "object", "array", "string", "boolean",
/// "number" or "unsupported" (ui/wording says "an object", "a string", ...).
const char* jsonKindName(const nlohmann::json& value);
/// A value as a reason quotes it: scalars as JSON (cut at 60 characters), containers by their kind (jsonKindName).
std::string describeJson(const nlohmann::json& value);
/// Puts `value` into `reason` as what was found: a scalar's JSON text (describeJson) as parameter "found", a
/// container's kind (jsonKindName) as "found_kind"; the wording quotes the one or names the other.
Reason& putFound(Reason& reason, const nlohmann::json& value);

/// The text of a data file. Errors: FileNotFound, FileUnreadable (a folder, permissions, read error).
Result<std::string> readJsonFile(const std::filesystem::path& file);
/// The parsed document of a data file: readJsonFile, then parseJson.
Result<nlohmann::json> readJsonDocument(const std::filesystem::path& file);
/// Parses JSON text; a syntax error names line and column of `file`. No exception leaves.
Result<nlohmann::json> parseJson(const std::string& text, const std::string& file);
/// A {url, as_of, retrieved, note} member (or the first schema's {url, date, note}, whose date serves as both);
/// nullopt (with problems recorded) when it is missing or malformed.
std::optional<Source>
readSource(JsonChecker& check, const nlohmann::json& parent, std::string_view key, const std::string& path);
/// Checks "$.schema" against `expected`; false (with a problem) when it differs or is missing.
bool checkSchemaTag(JsonChecker& check, const nlohmann::json& root, const char* expected);

} // namespace gpuplan::core
