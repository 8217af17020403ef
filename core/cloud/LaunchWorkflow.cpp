#include "gpuplan/cloud/LaunchWorkflow.h"

#include "gpuplan/cloud/LaunchSetup.h"

namespace gpuplan::core {

namespace {

Error cancelledBeforeSending()
{
    return Error{ErrorCode::Cancelled, Reason{"error.cloud.cancelled_before_sending", {}}, "launch"};
}

} // namespace

bool Prompter::confirmLaunch(const LaunchConfirmation&)
{
    return false;
}

Result<LaunchOutcome> confirmAndLaunch(LaunchOrder order,
                                       CloudProvider& provider,
                                       Ledger& ledger,
                                       const LaunchWaitOptions& wait,
                                       Prompter& prompter,
                                       const CancelToken* cancel,
                                       const std::function<void(const LaunchProgress&)>& onProgress,
                                       std::int64_t now)
{
    if (cancel && cancel->cancelled()) {
        return cancelledBeforeSending();
    }
    // The provider's own price now, where it has a price API: shown beside the catalog's and kept in the ledger.
    std::optional<Error> quoteProblem;
    Result<std::optional<PriceQuote>> quoted = provider.quotePrice(order.request, cancel);
    if (!quoted) {
        if (quoted.error().code == ErrorCode::Cancelled) {
            return cancelledBeforeSending();
        }
        quoteProblem = quoted.error();
    } else if (*quoted) {
        order.quote = **quoted;
    }
    const LaunchConfirmation confirmation{provider.id(), order, quoteProblem, mostBeforeDeadman(order, now)};
    if (!prompter.confirmLaunch(confirmation)) {
        return Error{ErrorCode::Cancelled, Reason{"error.cloud.not_confirmed", {}}, "launch"};
    }
    if (cancel && cancel->cancelled()) {
        return cancelledBeforeSending();
    }
    Launcher launcher(provider, ledger);
    return launcher.launch(order, wait, cancel, onProgress);
}

} // namespace gpuplan::core
