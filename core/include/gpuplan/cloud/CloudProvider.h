#pragma once

#include "gpuplan/cloud/Instance.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/HttpClient.h"
#include "gpuplan/net/signers/Signing.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::core {

/// How a launched instance is paid for.
enum class LaunchPricing
{
    OnDemand,
    Spot,
    Subscription, // prepaid for whole months (Tencent 包年包月)
};

/// "on_demand", "spot", "subscription".
const char* launchPricingName(LaunchPricing pricing);
std::optional<LaunchPricing> parseLaunchPricing(std::string_view name);

/// What a provider may lack. Each provider names the ones it lacks and why (unsupportedFeatures), and the UI
/// shows the reason on the greyed-out action.
enum class CloudFeature
{
    Spot,                // spot / preemptible instances
    Subscription,        // prepaid monthly or yearly instances
    DryRun,              // check a launch (permissions, quota, parameters) without starting anything
    TerminateOnShutdown, // a shutdown inside the instance terminates it, so it stops billing
    /// A shutdown inside the instance stops its compute bill (stopped, its disks kept). Azure (a VM shut down from
    /// inside stays allocated and billed until deallocated) and Lambda (billed until terminated) lack it.
    ShutdownStopsBilling,
    ScheduledTerminate,   // the provider itself terminates the instance at a set time (a dead-man on its side)
    KeyImport,            // the user's public key is imported as a key pair
    SshSourceRestriction, // a firewall rule that opens SSH to one address only
    /// The launch call takes a client token (idempotency key): the same token sent again returns the instance it
    /// started. Without one (Lambda, Paperspace) the provider finds an earlier attempt's instance by its name (the
    /// token) before it sends, and the Launcher resends an attempt only once that instance would be listed.
    ClientToken
};

/// "spot", "subscription", "dry_run", "terminate_on_shutdown", "shutdown_stops_billing", "scheduled_terminate",
/// "key_import", "ssh_source_restriction", "client_token".
const char* cloudFeatureName(CloudFeature feature);

/// The tag every instance we launch carries; its value is the launch's client token. Reconciliation finds our
/// instances by it.
inline constexpr std::string_view kOwnerTagKey = "gpuplanner-token";

/// One launch as the user chose it. The provider turns it into its API's parameters.
struct LaunchRequest
{
    std::string region;
    std::string zone; // empty: the provider chooses
    std::string instanceType;
    LaunchPricing pricing = LaunchPricing::OnDemand;
    int subscriptionMonths = 0; // Subscription: the prepaid period
    bool autoRenew = false;     // Subscription: renew at the end of the period (off unless the user asks)
    /// Spot: the most the user bids per hour, in the provider's currency; 0: no limit of one's own (the provider's
    /// market price, which it caps at the on-demand price).
    double spotPriceLimit = 0;
    std::string imageId;       // empty: the provider's current GPU deep-learning image for the region
    std::string sshPublicKey;  // one OpenSSH public key line, imported as a key pair when the provider lacks it
    std::string sshSourceCidr; // "203.0.113.7/32": SSH (TCP 22) is opened to this only
    std::string userData;      // the cloud-init script, plain text (the provider encodes it)
    std::string clientToken;   // the idempotency token: the same token never launches a second instance
    std::vector<std::pair<std::string, std::string>> tags; // besides kOwnerTagKey = clientToken
    std::int64_t terminateAt = 0; // Unix seconds: the provider terminates it then (ScheduledTerminate); 0: never
    bool dryRun = false;          // only check that the launch would succeed
    /// A managed job (the provider's kind() is LaunchKind::Job): what it runs. instanceType is the catalog's managed
    /// offer ("vertex/g2-standard-8"), terminateAt the job's timeout; image, key, SSH source and user data are unused.
    std::optional<JobSpec> job;
};

struct LaunchResult
{
    std::string instanceId; // empty after a dry run
    InstanceState state = InstanceState::Pending;
    std::string zone;
    bool dryRunPassed = false; // a dry run the provider said would have succeeded
    /// What was found or set up on the way ("step.<what>" with its ids as parameters); ui/wording/LaunchText words
    /// them for the CLI and the UI.
    std::vector<Reason> steps;
};

/// What a provider needs to reach its API.
struct ProviderContext
{
    HttpTransport* http = nullptr; // not owned; outlives the provider
    AccessKey key;                 // the provider wipes its copy when it is destroyed
    /// Empty: the provider's public endpoint for the region. Else a base URL that replaces it for every service
    /// (a VPC endpoint, or a local fake in tests): https, or http on a loopback address only (checkEndpoint).
    std::string endpoint;
    /// The credential's plain fields that are not the key, by name (Huawei's optional project_id).
    std::map<std::string, std::string> settings;
    Clock clock = systemClock();
    /// How waitUntilRunning waits between polls; empty: it sleeps.
    std::function<void(std::chrono::milliseconds)> sleep;
};

/// Waits `interval` as the context says (ProviderContext::sleep: a test's clock), else sleeps.
void pauseFor(const ProviderContext& context, std::chrono::milliseconds interval);

/// InvalidArgument naming the endpoint unless it is an https URL, or an http URL whose host is 127.0.0.1,
/// ::1 or localhost.
Status checkEndpoint(const std::string& endpoint);

struct ProviderDescriptor;

/// One cloud's instance API. Calls block; each takes a cancel token checked while it waits for the network.
/// Errors keep the provider's code (Error::providerCode) and map it to a stable ErrorCode with plain advice
/// in Error::reason: InsufficientCapacity (try another zone), QuotaExceeded (which quota to raise, where),
/// PermissionDenied (which permission is missing), Credentials, Throttled, NotFound, ClockSkew, else
/// ProviderRefused.
class CloudProvider
{
public:
    /// A provider described by `descriptor` (a static of its folder, which outlives it).
    CloudProvider(const ProviderDescriptor& descriptor, ProviderContext context);
    /// A provider without a descriptor (a test's stand-in): it overrides id() and unsupportedFeatures().
    explicit CloudProvider(ProviderContext context);
    virtual ~CloudProvider();
    CloudProvider(const CloudProvider&) = delete;
    CloudProvider& operator=(const CloudProvider&) = delete;

    /// "aws", "tencent": the catalog's provider id (the descriptor's).
    virtual std::string id() const;
    /// What its launch() starts: instances, or managed jobs (the descriptor's kind; Instance without one).
    virtual LaunchKind kind() const;
    /// The features this provider lacks, each with the reason shown to the user (the descriptor's: a key
    /// "unsupported.<provider>.<feature>", worded by ui/wording/ProviderText).
    virtual std::map<CloudFeature, Reason> unsupportedFeatures() const;

    /// Starts one instance (or, with dryRun, checks that it would start). Finds the image, imports the key and
    /// sets up the SSH firewall rule first where needed. The same clientToken returns the instance it already
    /// launched instead of a second one.
    virtual Result<LaunchResult> launch(const LaunchRequest& request, const CancelToken* cancel) = 0;
    /// The zones of `region` that offer `instanceType`, in the order to try them (the provider's own order).
    /// Empty when the region has none.
    virtual Result<std::vector<std::string>>
    zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel) = 0;
    /// NotFound when the provider does not know the instance.
    virtual Result<RemoteInstance>
    describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel) = 0;
    /// Every instance in `region` that carries kOwnerTagKey, in whatever state the provider still reports.
    virtual Result<std::vector<RemoteInstance>> listOurs(const std::string& region, const CancelToken* cancel) = 0;
    /// Asks the provider to terminate it. An instance already gone is not an error.
    virtual Status terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel) = 0;
    /// The provider's own current list price of exactly this configuration (its zone, or the cheapest where it
    /// chooses), per hour or per month as the pricing is billed, asked before a launch is confirmed. nullopt
    /// where the provider has no price API for it (the default; AWS prices on-demand only in its Price List).
    virtual Result<std::optional<PriceQuote>> quotePrice(const LaunchRequest& request, const CancelToken* cancel);

    bool supports(CloudFeature feature) const;

    /// Describes the instance every `interval` until it runs (returned), reaches a final state (ProviderRefused
    /// naming the state) or `timeout` passes (Timeout). NotFound before the instance was first seen counts as
    /// pending (eventual consistency after a launch); after that it is returned. `onPoll` sees every answer.
    Result<RemoteInstance> waitUntilRunning(const std::string& region,
                                            const std::string& instanceId,
                                            std::chrono::seconds timeout,
                                            std::chrono::seconds interval,
                                            const CancelToken* cancel,
                                            const std::function<void(const RemoteInstance&)>& onPoll = {});

protected:
    /// pauseFor(m_context, interval): between polls of the provider.
    void pause(std::chrono::milliseconds interval) const { pauseFor(m_context, interval); }

    const ProviderDescriptor* m_descriptor = nullptr;
    ProviderContext m_context;
};

} // namespace gpuplan::core
