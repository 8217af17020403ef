#pragma once

#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/core/Prompter.h"

#include <functional>
#include <optional>

namespace gpuplan::core {

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
