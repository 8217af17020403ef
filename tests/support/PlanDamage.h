#pragma once
// Damaged plans for the type sweeps (tests/core/TestPlanFileSweep.cpp reads them with core, tests/ui/TestPlanGui.cpp
// opens them in the window): every member of an example plan, once per shape, set to null and to each JSON kind it
// is not.

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace gpuplan::testing {

/// One place to damage: its JSON pointer and the path as messages write it.
struct PlanMember
{
    nlohmann::json::json_pointer pointer;
    std::string path;
};

/// Every member once per shape: list elements past the second stand for all the others (the first option is the
/// recommended one and the second the runner-up, so both are kept apart).
inline void collectMembers(const nlohmann::json& node,
                           const nlohmann::json::json_pointer& pointer,
                           const std::string& path,
                           const std::string& pattern,
                           std::set<std::string>& seen,
                           std::vector<PlanMember>& out)
{
    if (!pointer.empty() && seen.insert(pattern).second) {
        out.push_back({pointer, path});
    }
    if (node.is_object()) {
        for (const auto& [key, value] : node.items()) {
            collectMembers(value, pointer / key, path + "." + key, pattern + "." + key, seen, out);
        }
    } else if (node.is_array()) {
        for (std::size_t i = 0; i < node.size(); ++i) {
            const std::string index = "[" + std::to_string(i) + "]";
            collectMembers(node[i], pointer / i, path + index, pattern + (i < 2 ? index : "[*]"), seen, out);
        }
    }
}

inline std::vector<PlanMember> planMembers(const nlohmann::json& plan)
{
    std::vector<PlanMember> members;
    std::set<std::string> seen;
    collectMembers(plan, nlohmann::json::json_pointer(), "$", "$", seen, members);
    return members;
}

/// null and one value of each JSON kind.
inline const std::vector<nlohmann::json>& wrongValues()
{
    static const std::vector<nlohmann::json> values{nlohmann::json(nullptr),
                                                    nlohmann::json(false),
                                                    nlohmann::json(0),
                                                    nlohmann::json(2.5),
                                                    nlohmann::json("x"),
                                                    nlohmann::json::array(),
                                                    nlohmann::json::object()};
    return values;
}

} // namespace gpuplan::testing
