#include "gpuplan/cloud/LaunchWorkflow.h"

#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/cloud/PublicAddress.h"

#include <algorithm>

namespace gpuplan::core {

namespace {

Error cancelledBeforeSending()
{
    return Error{ErrorCode::Cancelled, Reason{"error.cloud.cancelled_before_sending", {}}, "launch"};
}

} // namespace

Result<PreparedLaunch> prepareLaunch(LaunchPreparation preparation,
                                     const Catalog& catalog,
                                     const std::string& watchdogScript,
                                     HttpTransport& http,
                                     std::int64_t now)
{
    LaunchSettings& settings = preparation.settings;
    if (launchKindOf(catalog, settings.provider, settings.instanceType) == LaunchKind::Job) {
        // A managed job: the service runs it; there is no machine to log in to, so no key and no SSH source.
        const ProviderDescriptor* cloud = ProviderRegistry::builtIn().find(settings.provider);
        if (!cloud || !cloud->managedJobs || !cloud->managedJobs->canLaunch()) {
            return ProviderRegistry::builtIn().create(settings.provider, {}, LaunchKind::Job).error();
        }
        Result<LaunchOrder> order =
            makeLaunchOrder(settings, catalog, watchdogScript, cloud->managedJobs->unsupported, now);
        if (!order) {
            return order.error();
        }
        PreparedLaunch prepared;
        prepared.order = std::move(order).value();
        return prepared;
    }
    Result<std::string> key = readPublicKeyFile(preparation.publicKeyFile);
    if (!key) {
        return key.error().within(Reason{"error.cloud.input_public_key", {}});
    }
    settings.sshPublicKey = *key;

    PreparedLaunch prepared;
    settings.sshSourceCidr = sshSourceCidrOf(preparation.sshFrom);
    if (settings.sshSourceCidr.empty()) {
        Result<std::string> mine = publicAddressCidr(http);
        if (mine) {
            settings.sshSourceCidr = *mine;
        } else if (settings.dryRun) {
            settings.sshSourceCidr = "192.0.2.1/32"; // TEST-NET-1 (RFC 5737): documentation, routes nowhere
            prepared.addressProblem = mine.error();
        } else {
            return mine.error()
                .within(Reason{"error.cloud.public_address_unknown", {}})
                .within(Reason{"error.cloud.input_ssh_source", {}});
        }
    }
    if (Status cidr = checkSshSourceCidr(settings.sshSourceCidr); !cidr) {
        return cidr.error().within(Reason{"error.cloud.input_ssh_source", {}});
    }

    const ProviderDescriptor* provider = ProviderRegistry::builtIn().find(settings.provider);
    if (!provider || !provider->canLaunch()) {
        return ProviderRegistry::builtIn().create(settings.provider, {}).error(); // names the known ones
    }
    Result<LaunchOrder> order = makeLaunchOrder(settings, catalog, watchdogScript, provider->unsupported, now);
    if (!order) {
        return order.error();
    }
    prepared.order = std::move(order).value();
    return prepared;
}

std::optional<LaunchInput> takeLaunchInputFrame(Error& error)
{
    for (auto frame = error.context.begin(); frame != error.context.end(); ++frame) {
        const std::optional<LaunchInput> input = frame->key == "error.cloud.input_public_key" ? LaunchInput::PublicKey
                                                 : frame->key == "error.cloud.input_ssh_source"
                                                     ? LaunchInput::SshSource
                                                     : std::optional<LaunchInput>();
        if (input) {
            error.context.erase(frame);
            return input;
        }
    }
    return std::nullopt;
}

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
