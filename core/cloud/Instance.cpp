#include "gpuplan/cloud/Instance.h"

#include <array>
#include <utility>

namespace gpuplan::core {

namespace {

constexpr std::array<std::pair<InstanceState, const char*>, 8> kStateNames{{
    {InstanceState::Intent, "intent"},
    {InstanceState::Requested, "requested"},
    {InstanceState::Pending, "pending"},
    {InstanceState::Running, "running"},
    {InstanceState::Stopping, "stopping"},
    {InstanceState::Stopped, "stopped"},
    {InstanceState::Terminated, "terminated"},
    {InstanceState::Failed, "failed"},
}};

} // namespace

const char* instanceStateName(InstanceState state)
{
    for (const auto& [s, name] : kStateNames) {
        if (s == state) {
            return name;
        }
    }
    return "unknown";
}

std::optional<InstanceState> parseInstanceState(std::string_view name)
{
    for (const auto& [s, n] : kStateNames) {
        if (name == n) {
            return s;
        }
    }
    return std::nullopt;
}

bool isFinal(InstanceState state)
{
    return state == InstanceState::Terminated || state == InstanceState::Failed;
}

const char* launchKindName(LaunchKind kind)
{
    return kind == LaunchKind::Job ? "job" : "instance";
}

std::optional<LaunchKind> parseLaunchKind(std::string_view name)
{
    if (name == "instance") {
        return LaunchKind::Instance;
    }
    if (name == "job") {
        return LaunchKind::Job;
    }
    return std::nullopt;
}

} // namespace gpuplan::core
