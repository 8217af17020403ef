#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

/// What a launch starts: a machine the user logs in to, or a managed training job (Vertex AI, Azure ML) that the
/// service runs in a container and ends by itself. A job goes through the same ledger states as an instance: Pending
/// while it is queued or provisioned, Running, Stopping while it is being cancelled, Terminated once it succeeded or
/// was cancelled, Failed when it failed (RemoteInstance::providerState keeps the service's own word).
enum class LaunchKind
{
    Instance,
    Job,
};

/// "instance", "job" (stable: the ledger and JSON output store them).
const char* launchKindName(LaunchKind kind);
std::optional<LaunchKind> parseLaunchKind(std::string_view name);

/// What a managed job runs: a container image and its command.
struct JobSpec
{
    std::string image; // "us-docker.pkg.dev/deeplearning-platform-release/gcr.io/pytorch-cu121.2-2.py310"
    std::vector<std::string> command; // the program and its arguments: {"python", "train.py", "--epochs", "3"}
    std::vector<std::pair<std::string, std::string>> environment;
};

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
