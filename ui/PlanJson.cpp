#include "PlanJson.h"

namespace gpuplan::ui {

using nlohmann::json;

QString jsonText(const json& node, const char* key)
{
    return node.is_object() ? QString::fromStdString(node.value(key, std::string())) : QString();
}

double jsonNumber(const json& node, const char* key, double fallback)
{
    if (!node.is_object() || !node.contains(key) || !node[key].is_number()) {
        return fallback;
    }
    return node[key].get<double>();
}

const json* eligibleMode(const json& option, std::string_view prefix)
{
    if (!option.is_object() || !option.contains("modes") || !option["modes"].is_array()) {
        return nullptr;
    }
    for (const json& m : option["modes"]) {
        if (m.value("eligible", false) && std::string_view(m.value("mode", std::string())).starts_with(prefix)) {
            return &m;
        }
    }
    return nullptr;
}

} // namespace gpuplan::ui
