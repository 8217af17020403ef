#include "core/JsonChecker.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace gpuplan::core {

using nlohmann::json;

const char* jsonKindName(const json& value)
{
    switch (value.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::object:
            return "object";
        case json::value_t::array:
            return "array";
        case json::value_t::string:
            return "string";
        case json::value_t::boolean:
            return "boolean";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float:
            return "number";
        default:
            return "unsupported";
    }
}

std::string describeJson(const json& value)
{
    if (value.is_structured()) {
        return jsonKindName(value);
    }
    std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 60) {
        text = text.substr(0, 57) + "...";
    }
    return text;
}

Reason& putFound(Reason& reason, const json& value)
{
    if (value.is_structured()) {
        reason.params["found_kind"] = jsonKindName(value);
    } else {
        reason.params["found"] = describeJson(value);
    }
    return reason;
}

namespace {

/// "must be <expected>, found <kind of value>".
Reason wrongType(std::string_view key, const char* expected, const json& value)
{
    Reason reason{"error.json.wrong_type", {{"expected", expected}, {"found_kind", jsonKindName(value)}}};
    if (!key.empty()) {
        reason.params["field"] = std::string(key);
    }
    return reason;
}

} // namespace

JsonChecker::JsonChecker(std::string file)
    : m_file(std::move(file))
{ }

void JsonChecker::problem(const std::string& path, Reason reason, ErrorCode code)
{
    m_problems.push_back(Error{code, std::move(reason), m_file + ": " + path});
}

void JsonChecker::onlyKnownKeys(const json& object,
                                const std::string& path,
                                std::initializer_list<std::string_view> known)
{
    if (!object.is_object()) {
        return;
    }
    for (const auto& [key, value] : object.items()) {
        if (std::find(known.begin(), known.end(), key) == known.end()) {
            std::string list;
            for (std::string_view name : known) {
                list += (list.empty() ? "" : ", ") + std::string(name);
            }
            problem(child(path, key), Reason{"error.json.unknown_field", {{"field", key}, {"known", list}}});
        }
    }
}

const json* JsonChecker::member(const json& parent, std::string_view key, const std::string& path, Need need)
{
    const std::string at = child(path, key);
    auto it = parent.find(key);
    if (it == parent.end() || it->is_null()) {
        if (need == Need::Required) {
            problem(at,
                    it == parent.end() ? Reason{"error.json.required_missing", {{"field", std::string(key)}}}
                                       : Reason{"error.json.required_null", {{"field", std::string(key)}}});
        }
        return nullptr;
    }
    return &*it;
}

bool JsonChecker::isObject(const json& value, const std::string& path)
{
    if (!value.is_object()) {
        problem(path, wrongType({}, "object", value));
        return false;
    }
    return true;
}

const json* JsonChecker::object(const json& parent, std::string_view key, const std::string& path, Need need)
{
    const json* value = member(parent, key, path, need);
    if (value && !value->is_object()) {
        problem(child(path, key), wrongType(key, "object", *value));
        return nullptr;
    }
    return value;
}

const json* JsonChecker::array(const json& parent, std::string_view key, const std::string& path, Need need)
{
    const json* value = member(parent, key, path, need);
    if (value && !value->is_array()) {
        problem(child(path, key), wrongType(key, "array", *value));
        return nullptr;
    }
    return value;
}

std::optional<std::string>
JsonChecker::string(const json& parent, std::string_view key, const std::string& path, Need need)
{
    const json* value = member(parent, key, path, need);
    if (!value) {
        return std::nullopt;
    }
    if (!value->is_string()) {
        problem(child(path, key), wrongType(key, "string", *value));
        return std::nullopt;
    }
    std::string text = value->get<std::string>();
    if (text.empty() && need == Need::Required) {
        problem(child(path, key), Reason{"error.json.empty_string", {{"field", std::string(key)}}});
        return std::nullopt;
    }
    return text;
}

std::optional<double>
JsonChecker::finiteNumber(const json& parent, std::string_view key, const std::string& path, Need need)
{
    const json* value = member(parent, key, path, need);
    if (!value) {
        return std::nullopt;
    }
    if (!value->is_number()) {
        problem(child(path, key), wrongType(key, "number", *value));
        return std::nullopt;
    }
    const double number = value->get<double>();
    if (!std::isfinite(number)) {
        problem(child(path, key),
                Reason{"error.json.not_finite", {{"field", std::string(key)}, {"found", describeJson(*value)}}});
        return std::nullopt;
    }
    return number;
}

std::optional<double>
JsonChecker::positiveNumber(const json& parent, std::string_view key, const std::string& path, Need need)
{
    std::optional<double> number = finiteNumber(parent, key, path, need);
    if (number && *number <= 0) {
        problem(
            child(path, key),
            Reason{"error.json.not_positive", {{"field", std::string(key)}, {"found", describeJson(json(*number))}}});
        return std::nullopt;
    }
    return number;
}

std::optional<double>
JsonChecker::nonNegativeNumber(const json& parent, std::string_view key, const std::string& path, Need need, double max)
{
    std::optional<double> number = finiteNumber(parent, key, path, need);
    if (number && (*number < 0 || *number > max)) {
        problem(child(path, key),
                Reason{"error.json.out_of_range",
                       {{"field", std::string(key)},
                        {"min", "0"},
                        {"max", describeJson(json(max))},
                        {"found", describeJson(json(*number))}}});
        return std::nullopt;
    }
    return number;
}

std::optional<bool> JsonChecker::boolean(const json& parent, std::string_view key, const std::string& path, Need need)
{
    const json* value = member(parent, key, path, need);
    if (!value) {
        return std::nullopt;
    }
    if (!value->is_boolean()) {
        problem(child(path, key), wrongType(key, "boolean", *value));
        return std::nullopt;
    }
    return value->get<bool>();
}

std::vector<std::string> JsonChecker::stringList(const json& parent, std::string_view key, const std::string& path)
{
    std::vector<std::string> result;
    const json* list = array(parent, key, path, Need::Optional);
    if (!list) {
        return result;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const json& item = (*list)[i];
        if (!item.is_string() || item.get<std::string>().empty()) {
            Reason reason{"error.json.not_text_item", {{"field", std::string(key)}}};
            problem(index(child(path, key), i), putFound(reason, item));
            continue;
        }
        result.push_back(item.get<std::string>());
    }
    return result;
}

std::optional<int> JsonChecker::count(const json& parent, std::string_view key, const std::string& path, Need need)
{
    const json* value = member(parent, key, path, need);
    if (!value) {
        return std::nullopt;
    }
    if (!value->is_number_integer() || value->get<long long>() < 1 || value->get<long long>() > 1'000'000) {
        Reason reason{"error.json.not_count", {{"field", std::string(key)}, {"min", "1"}, {"max", "1000000"}}};
        problem(child(path, key), putFound(reason, *value));
        return std::nullopt;
    }
    return static_cast<int>(value->get<long long>());
}

std::optional<std::string> JsonChecker::date(const json& parent, std::string_view key, const std::string& path)
{
    std::optional<std::string> text = string(parent, key, path, Need::Required);
    if (!text) {
        return std::nullopt;
    }
    auto digits = [&](std::size_t from, std::size_t n) {
        return std::all_of(text->begin() + static_cast<std::ptrdiff_t>(from),
                           text->begin() + static_cast<std::ptrdiff_t>(from + n),
                           [](char c) { return c >= '0' && c <= '9'; });
    };
    bool valid =
        text->size() == 10 && (*text)[4] == '-' && (*text)[7] == '-' && digits(0, 4) && digits(5, 2) && digits(8, 2);
    if (valid) {
        const int year = std::stoi(text->substr(0, 4));
        const int month = std::stoi(text->substr(5, 2));
        const int day = std::stoi(text->substr(8, 2));
        const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        const int daysInMonth[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        valid = year >= 1990 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth[month - 1];
    }
    if (!valid) {
        problem(child(path, key), Reason{"error.json.not_date", {{"field", std::string(key)}, {"found", *text}}});
        return std::nullopt;
    }
    return text;
}

namespace fs = std::filesystem;
using Need = JsonChecker::Need;

Result<std::string> readJsonFile(const fs::path& file)
{
    std::error_code ec;
    const fs::file_status status = fs::status(file, ec);
    if (!fs::exists(status)) {
        return Error{ErrorCode::FileNotFound, Reason{"error.json.file_not_found", {}}, file.string()};
    }
    if (!fs::is_regular_file(status)) {
        return Error{ErrorCode::FileUnreadable,
                     fs::is_directory(status) ? Reason{"error.json.is_folder", {}}
                                              : Reason{"error.json.not_regular_file", {}},
                     file.string()};
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        return Error{ErrorCode::FileUnreadable, Reason{"error.json.cannot_open", {}}, file.string()};
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        return Error{ErrorCode::FileUnreadable, Reason{"error.json.read_error", {}}, file.string()};
    }
    return text.str();
}

/// Catalog documents nest a few levels; anything deeper is not ours, and refusing it keeps every later
/// recursive walk (dump, destruction) shallow.
namespace {

constexpr int kMaxJsonDepth = 32;

struct TooDeep
{ };

} // namespace

/// Parses JSON text. A syntax error names the line and column; numbers out of range and absurd nesting
/// are errors too. No exception leaves.
Result<json> parseJson(const std::string& text, const std::string& file)
{
    const json::parser_callback_t limitDepth = [](int depth, json::parse_event_t, json&) {
        if (depth > kMaxJsonDepth) {
            throw TooDeep{};
        }
        return true;
    };
    try {
        return json::parse(text, limitDepth);
    } catch (const TooDeep&) {
        return Error{
            ErrorCode::JsonSyntax, Reason{"error.json.too_deep", {{"levels", std::to_string(kMaxJsonDepth)}}}, file};
    } catch (const json::parse_error& e) {
        // nlohmann reports the byte offset just past the fault; people count lines and columns.
        const std::size_t offset = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
        const auto before = text.begin() + static_cast<std::ptrdiff_t>(offset);
        const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), before, '\n'));
        const std::size_t lineStart = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
        const std::size_t column = offset - (lineStart == std::string::npos ? 0 : lineStart + 1) + 1;
        // what(): "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error while ..."
        const std::string what = e.what();
        const std::size_t reason = what.find(": ", what.find(']'));
        return Error{
            ErrorCode::JsonSyntax,
            Reason{"error.json.invalid", {{"said", reason == std::string::npos ? what : what.substr(reason + 2)}}},
            file + ":" + std::to_string(line) + ":" + std::to_string(column)};
    } catch (const json::exception& e) {
        // e.g. out_of_range.406 for 1e400
        const std::string what = e.what();
        const std::size_t reason = what.find("] ");
        return Error{
            ErrorCode::JsonSyntax,
            Reason{"error.json.invalid", {{"said", reason == std::string::npos ? what : what.substr(reason + 2)}}},
            file};
    }
}

std::optional<Source> readSource(JsonChecker& check, const json& parent, std::string_view key, const std::string& path)
{
    const json* node = check.object(parent, key, path, Need::Required);
    if (!node) {
        return std::nullopt;
    }
    const std::string at = JsonChecker::child(path, key);
    check.onlyKnownKeys(*node, at, {"url", "as_of", "retrieved", "date", "note"});
    const std::size_t before = check.problemCount();
    Source source;
    std::optional<std::string> url = check.string(*node, "url", at, Need::Required);
    if (url && url->rfind("https://", 0) != 0 && url->rfind("http://", 0) != 0) {
        check.problem(JsonChecker::child(at, "url"), Reason{"error.json.source_url", {{"found", *url}}});
        url.reset();
    }
    source.note = check.string(*node, "note", at, Need::Optional).value_or("");
    if (node->contains("date")) {
        // The first schema's one date: the day a figure was read or is valid for; it serves as both.
        if (node->contains("as_of") || node->contains("retrieved")) {
            check.problem(JsonChecker::child(at, "date"), Reason{"error.json.source_date_twice", {}});
        } else if (std::optional<std::string> date = check.date(*node, "date", at)) {
            source.asOf = *date;
            source.retrieved = *date;
        }
    } else {
        if (std::optional<std::string> retrieved = check.date(*node, "retrieved", at)) {
            source.retrieved = *retrieved;
        }
        const auto asOf = node->find("as_of");
        if (asOf == node->end()) {
            check.problem(JsonChecker::child(at, "as_of"), Reason{"error.json.source_as_of_missing", {}});
        } else if (asOf->is_null()) {
            if (source.note.empty()) {
                check.problem(JsonChecker::child(at, "as_of"), Reason{"error.json.source_as_of_null", {}});
            }
        } else if (std::optional<std::string> date = check.date(*node, "as_of", at)) {
            source.asOf = *date;
        }
        if (!source.asOf.empty() && !source.retrieved.empty() && source.asOf > source.retrieved) {
            check.problem(
                JsonChecker::child(at, "as_of"),
                Reason{"error.json.source_as_of_late", {{"as_of", source.asOf}, {"retrieved", source.retrieved}}});
        }
    }
    if (!url || check.problemCount() != before) {
        return std::nullopt;
    }
    source.url = *url;
    return source;
}

bool checkSchemaTag(JsonChecker& check, const json& root, const char* expected)
{
    std::optional<std::string> schema = check.string(root, "schema", "$", Need::Required);
    if (schema && *schema != expected) {
        check.problem("$.schema", Reason{"error.json.wrong_schema", {{"expected", expected}, {"found", *schema}}});
        return false;
    }
    return schema.has_value();
}

} // namespace gpuplan::core

namespace gpuplan::core {

Result<nlohmann::json> readJsonDocument(const std::filesystem::path& file)
{
    Result<std::string> text = readJsonFile(file);
    if (!text) {
        return text.error();
    }
    return parseJson(*text, file.string());
}

} // namespace gpuplan::core
