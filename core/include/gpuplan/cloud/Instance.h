#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::core {

/// Where a launch stands. Intent is written before the request goes out; Requested once it has been sent (the
/// reply may never have come back); the rest follow what the provider says.
enum class InstanceState
{
    Intent,
    Requested,
    Pending,
    Running,
    Stopping,
    Stopped, // shut down but not gone: it may still bill (storage, or Tencent's keep-charging mode)
    Terminated,
    Failed, // the provider refused the launch; nothing runs
};

/// "intent", "requested", "pending", ... (stable: the ledger and JSON output store them).
const char* instanceStateName(InstanceState state);
std::optional<InstanceState> parseInstanceState(std::string_view name);
/// Terminated and Failed: nothing bills any more.
bool isFinal(InstanceState state);

/// What a provider reports of an instance we launched (found by our tag or client token).
struct RemoteInstance
{
    std::string instanceId;
    std::string clientToken;
    InstanceState state = InstanceState::Pending;
    std::string region;
    std::string instanceType;
    std::optional<std::int64_t> launchedAt; // Unix seconds
    std::string zone;
    std::string publicIp;      // empty until the provider has assigned one
    std::string providerState; // the provider's own word ("pending", "LAUNCH_FAILED"), for messages
    /// How it is paid for, as the catalog names the mode ("on_demand", "spot"); empty when the provider does not
    /// say or the mode has no single catalog price (a prepaid instance of unknown period).
    std::string pricingMode;
};

} // namespace gpuplan::core
