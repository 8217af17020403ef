#pragma once

#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/core/Prompter.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace gpuplan::core {

class Catalog;
class HttpTransport;

/// What the user gave for a launch, before its order is made: the settings with the SSH key still a file and the
/// SSH source as typed.
struct LaunchPreparation
{
    LaunchSettings settings;             // sshPublicKey and sshSourceCidr are filled in by prepareLaunch
    std::filesystem::path publicKeyFile; // empty: ~/.ssh/id_ed25519.pub, then id_rsa.pub (readPublicKeyFile)
    std::string sshFrom;                 // an address or CIDR as typed; empty: this computer's public address
};

struct PreparedLaunch
{
    LaunchOrder order;
    /// A dry run whose computer's public address could not be looked up goes on with 192.0.2.1/32 (a documentation
    /// address, RFC 5737: a dry run opens nothing); this says why. Empty otherwise.
    std::optional<Error> addressProblem;
};

/// The user's input a preparation error is about, for a front end to name its own field or flag.
enum class LaunchInput
{
    PublicKey, // the key file (given, or the usual ones)
    SshSource, // the address to open SSH to
};

/// The launch's preparation as both front ends run it: reads the public key, takes the SSH source as typed (an
/// address alone is that host) or looks up this computer's public address through `http`, refuses a source open to
/// everyone, and makes the order (makeLaunchOrder) with what the provider's descriptor says it lacks. An error about
/// the user's input carries a frame that takeLaunchInputFrame() reads. Blocks on the network: a worker thread in the
/// GUI.
Result<PreparedLaunch> prepareLaunch(LaunchPreparation preparation,
                                     const Catalog& catalog,
                                     const std::string& watchdogScript,
                                     HttpTransport& http,
                                     std::int64_t now);

/// The input an error of prepareLaunch() is about, with its frame taken out of `error` so that the front end can
/// name the field or flag instead; nullopt, and `error` untouched, for any other error.
std::optional<LaunchInput> takeLaunchInputFrame(Error& error);

/// What the user is asked to confirm before a launch: the order (its price, prepaid term, watchdog rules, SSH
/// source, dry run or not), the provider's own price now where it has a price API (order.quote), or why it could
/// not be asked, and the most the instance can cost before its dead-man switch fires.
struct LaunchConfirmation
{
    std::string provider; // its id: "aws", "tencent"
    const LaunchOrder& order;
    std::optional<Error> quoteProblem;
    std::optional<double> mostBeforeDeadman;
};

/// The launch as both front ends run it, once its order is made (makeLaunchOrder) and its provider connected:
///   1. the provider's current price of this configuration (CloudProvider::quotePrice), kept beside the catalog's;
///   2. the user's confirmation through `prompter` (Prompter::confirmLaunch): a no sends nothing;
///   3. Launcher::launch, which records the intent in the ledger before the request goes out, and waits as `wait`
///      says, reporting each step to `onProgress`.
/// A cancel before anything is sent (`cancel` is checked before the price, after the answer and by the launcher)
/// and a declined confirmation both return ErrorCode::Cancelled; the prompter knows which answer it gave. Called
/// on a worker thread by the GUI, on the main thread by the CLI.
Result<LaunchOutcome> confirmAndLaunch(LaunchOrder order,
                                       CloudProvider& provider,
                                       Ledger& ledger,
                                       const LaunchWaitOptions& wait,
                                       Prompter& prompter,
                                       const CancelToken* cancel,
                                       const std::function<void(const LaunchProgress&)>& onProgress,
                                       std::int64_t now);

} // namespace gpuplan::core
