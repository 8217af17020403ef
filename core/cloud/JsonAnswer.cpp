#include "gpuplan/cloud/JsonAnswer.h"

#include <utility>

namespace gpuplan::core {

using nlohmann::json;

JsonAnswer::JsonAnswer(std::string provider, std::string action)
    : m_provider(std::move(provider))
    , m_action(std::move(action))
{ }

Error JsonAnswer::refused(const char* key, std::map<std::string, std::string> params) const
{
    params["provider"] = m_provider;
    params["action"] = m_action;
    return Error{ErrorCode::ProviderRefused, Reason{key, std::move(params)}, m_provider + " " + m_action};
}

Result<json> JsonAnswer::document(std::string_view body) const
{
    json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded()) {
        return refused("error.answer.not_json");
    }
    if (!doc.is_object()) {
        return refused("error.answer.not_object");
    }
    return doc;
}

Result<json> JsonAnswer::list(const json& object, const char* field) const
{
    const json& value = json_answer::member(object, field);
    if (value.is_null()) {
        return refused("error.answer.missing", {{"field", field}});
    }
    if (!value.is_array()) {
        return refused("error.answer.not_list", {{"field", field}});
    }
    return value;
}

Result<std::string> JsonAnswer::requiredText(const json& object, const char* field) const
{
    std::string value = json_answer::text(object, field);
    if (value.empty()) {
        return refused("error.answer.missing", {{"field", field}});
    }
    return value;
}

namespace json_answer {

std::string text(const json& object, const char* name)
{
    const json& value = member(object, name);
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (value.is_number_unsigned()) {
        return std::to_string(value.get<unsigned long long>()); // GCE's ids are uint64
    }
    if (value.is_number_integer()) {
        return std::to_string(value.get<long long>());
    }
    return {};
}

const json& member(const json& object, const char* name)
{
    static const json null;
    if (!object.is_object()) {
        return null;
    }
    auto it = object.find(name);
    return it == object.end() ? null : *it;
}

std::vector<std::string> texts(const json& list)
{
    std::vector<std::string> out;
    if (list.is_array()) {
        for (const json& item : list) {
            if (item.is_string()) {
                out.push_back(item.get<std::string>());
            }
        }
    }
    return out;
}

} // namespace json_answer

} // namespace gpuplan::core
