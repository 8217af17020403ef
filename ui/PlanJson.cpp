#include "PlanJson.h"

namespace gpuplan::ui {

using nlohmann::json;

QString jsonText(const json& node, const char* key)
{
    // Not node.value(): it throws when the member is there with another kind (null, a number).
    if (!node.is_object()) {
        return {};
    }
    auto it = node.find(key);
    return it != node.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

double jsonNumber(const json& node, const char* key, double fallback)
{
    if (!node.is_object()) {
        return fallback;
    }
    auto it = node.find(key);
    return it != node.end() && it->is_number() ? it->get<double>() : fallback;
}

const json& jsonMember(const json& node, const char* key)
{
    static const json missing;
    if (!node.is_object()) {
        return missing;
    }
    auto it = node.find(key);
    return it != node.end() ? *it : missing;
}

const json* eligibleMode(const json& option, std::string_view prefix)
{
    if (!option.is_object()) {
        return nullptr;
    }
    auto modes = option.find("modes");
    if (modes == option.end() || !modes->is_array()) {
        return nullptr;
    }
    for (const json& m : *modes) {
        if (!m.is_object()) {
            continue;
        }
        auto eligible = m.find("eligible");
        auto mode = m.find("mode");
        if (eligible != m.end() && *eligible == true && mode != m.end() && mode->is_string()
            && std::string_view(mode->get_ref<const std::string&>()).starts_with(prefix)) {
            return &m;
        }
    }
    return nullptr;
}

const json* rankedMode(const json& option)
{
    if (!option.is_object()) {
        return nullptr;
    }
    auto name = option.find("mode");
    auto modes = option.find("modes");
    if (name == option.end() || !name->is_string() || modes == option.end() || !modes->is_array()) {
        return nullptr;
    }
    for (const json& m : *modes) {
        if (m.is_object() && m.contains("mode") && m["mode"] == *name) {
            return &m;
        }
    }
    return nullptr;
}

} // namespace gpuplan::ui
