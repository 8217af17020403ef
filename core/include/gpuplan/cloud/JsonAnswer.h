#pragma once

#include "gpuplan/core/Reason.h"
#include "gpuplan/core/Result.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

// Reading a provider's JSON answer, the same way for every JSON API of the kit: one set of keys for an answer that
// is not what the API documents ("error.answer.not_json", "error.answer.not_object", "error.answer.missing"
// {field}, "error.answer.not_list" {field}, "error.answer.invalid" {field, found}), each with the provider's
// display id and the call ("provider", "action"), worded once in ui/wording/errors/ProviderErrors.cpp.
namespace gpuplan::core {

/// The answer of one call: which provider ("gcp", "azure") and which call ("instances.insert") it belongs to.
class JsonAnswer
{
public:
    JsonAnswer(std::string provider, std::string action);

    /// ProviderRefused with Reason{`key`, params + {provider, action}}, where "<provider> <action>".
    Error refused(const char* key, std::map<std::string, std::string> params = {}) const;
    /// The body as a JSON object; "error.answer.not_json" or "error.answer.not_object" otherwise.
    Result<nlohmann::json> document(std::string_view body) const;
    /// The list at `field` of `object`, required: "error.answer.missing" when absent or null, "error.answer.not_list"
    /// when it is something else.
    Result<nlohmann::json> list(const nlohmann::json& object, const char* field) const;
    /// The non-empty text (or integer, as text) at `field`, required: "error.answer.missing" otherwise.
    Result<std::string> requiredText(const nlohmann::json& object, const char* field) const;

    const std::string& provider() const { return m_provider; }
    const std::string& action() const { return m_action; }

private:
    std::string m_provider;
    std::string m_action;
};

namespace json_answer {

/// The text at `name` of `object` (an integer as its decimal text); empty when absent or of another type.
std::string text(const nlohmann::json& object, const char* name);
/// The member `name` of `object`; a null value when `object` is no object or lacks it.
const nlohmann::json& member(const nlohmann::json& object, const char* name);
/// The strings of a list, skipping anything else; empty when `list` is no list.
std::vector<std::string> texts(const nlohmann::json& list);

} // namespace json_answer

} // namespace gpuplan::core
