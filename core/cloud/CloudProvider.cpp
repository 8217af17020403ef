#include "gpuplan/cloud/CloudProvider.h"

#include "gpuplan/cloud/ProviderDescriptor.h"
#include "gpuplan/net/Crypto.h"

#include <algorithm>
#include <array>
#include <thread>

namespace gpuplan::core {

namespace {

constexpr std::array<std::pair<LaunchPricing, const char*>, 3> kPricingNames{{
    {LaunchPricing::OnDemand, "on_demand"},
    {LaunchPricing::Spot, "spot"},
    {LaunchPricing::Subscription, "subscription"},
}};

} // namespace

const char* launchPricingName(LaunchPricing pricing)
{
    for (const auto& [p, name] : kPricingNames) {
        if (p == pricing) {
            return name;
        }
    }
    return "unknown";
}

std::optional<LaunchPricing> parseLaunchPricing(std::string_view name)
{
    for (const auto& [p, n] : kPricingNames) {
        if (name == n) {
            return p;
        }
    }
    return std::nullopt;
}

const char* cloudFeatureName(CloudFeature feature)
{
    switch (feature) {
        case CloudFeature::Spot:
            return "spot";
        case CloudFeature::Subscription:
            return "subscription";
        case CloudFeature::DryRun:
            return "dry_run";
        case CloudFeature::TerminateOnShutdown:
            return "terminate_on_shutdown";
        case CloudFeature::ShutdownStopsBilling:
            return "shutdown_stops_billing";
        case CloudFeature::ScheduledTerminate:
            return "scheduled_terminate";
        case CloudFeature::KeyImport:
            return "key_import";
        case CloudFeature::SshSourceRestriction:
            return "ssh_source_restriction";
        case CloudFeature::ClientToken:
            return "client_token";
    }
    return "unknown";
}

Status checkEndpoint(const std::string& endpoint)
{
    Result<Url> url = parseUrl(endpoint);
    if (!url) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.endpoint_not_url", {}}, endpoint};
    }
    if (url->scheme == "https") {
        return Ok{};
    }
    const bool loopback =
        url->host == "127.0.0.1" || url->host == "localhost" || url->host == "[::1]" || url->host == "::1";
    if (url->scheme == "http" && loopback) {
        return Ok{};
    }
    return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.endpoint_not_https", {}}, endpoint};
}

CloudProvider::CloudProvider(const ProviderDescriptor& descriptor, ProviderContext context)
    : m_descriptor(&descriptor)
    , m_context(std::move(context))
{ }

CloudProvider::CloudProvider(ProviderContext context)
    : m_context(std::move(context))
{ }

std::string CloudProvider::id() const
{
    return m_descriptor ? m_descriptor->id : std::string();
}

void pauseFor(const ProviderContext& context, std::chrono::milliseconds interval)
{
    if (context.sleep) {
        context.sleep(interval);
    } else {
        std::this_thread::sleep_for(interval);
    }
}

LaunchKind CloudProvider::kind() const
{
    return m_descriptor ? m_descriptor->kind : LaunchKind::Instance;
}

std::map<CloudFeature, Reason> CloudProvider::unsupportedFeatures() const
{
    return m_descriptor ? m_descriptor->unsupported : std::map<CloudFeature, Reason>{};
}

std::vector<LaunchPricing> ProviderDescriptor::launchPricings() const
{
    std::vector<LaunchPricing> out{LaunchPricing::OnDemand};
    if (supports(CloudFeature::Spot)) {
        out.push_back(LaunchPricing::Spot);
    }
    if (supports(CloudFeature::Subscription)) {
        out.push_back(LaunchPricing::Subscription);
    }
    return out;
}

CloudProvider::~CloudProvider()
{
    wipe(m_context.key.secret);
    wipe(m_context.key.sessionToken);
}

Result<std::optional<PriceQuote>> CloudProvider::quotePrice(const LaunchRequest&, const CancelToken*)
{
    return std::optional<PriceQuote>();
}

bool CloudProvider::supports(CloudFeature feature) const
{
    return !unsupportedFeatures().contains(feature);
}

Result<RemoteInstance> CloudProvider::waitUntilRunning(const std::string& region,
                                                       const std::string& instanceId,
                                                       std::chrono::seconds timeout,
                                                       std::chrono::seconds interval,
                                                       const CancelToken* cancel,
                                                       const std::function<void(const RemoteInstance&)>& onPoll)
{
    const auto sleep =
        m_context.sleep ? m_context.sleep : [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
    std::chrono::milliseconds waited{0};
    bool seen = false;
    for (;;) {
        if (cancel && cancel->cancelled()) {
            return Error{ErrorCode::Cancelled, Reason{"error.cloud.wait_cancelled", {}}, instanceId};
        }
        Result<RemoteInstance> now = describe(region, instanceId, cancel);
        if (!now && now.error().code == ErrorCode::NotFound && !seen) {
            // Eventual consistency: a new instance may be NotFound (EC2) or missing (CVM) for a while after the
            // launch was accepted (https://docs.aws.amazon.com/ec2/latest/devguide/eventual-consistency.html). It
            // is pending until it shows up; giving up here would leave it billing while the user launches another.
            if (waited >= timeout) {
                return Error{ErrorCode::Timeout,
                             Reason{"error.cloud.instance_not_shown", {{"seconds", std::to_string(timeout.count())}}},
                             instanceId};
            }
            sleep(interval);
            waited += interval;
            continue;
        }
        if (!now) {
            return now.error();
        }
        seen = true;
        if (onPoll) {
            onPoll(*now);
        }
        if (now->state == InstanceState::Running) {
            return now;
        }
        if (isFinal(now->state) || now->state == InstanceState::Stopped) {
            Reason ended{"error.cloud.instance_ended", {{"state", instanceStateName(now->state)}}};
            if (!now->providerState.empty()) {
                ended.params["provider_state"] = now->providerState;
            }
            return Error{ErrorCode::ProviderRefused, std::move(ended), instanceId};
        }
        if (waited >= timeout) {
            return Error{
                ErrorCode::Timeout,
                Reason{"error.cloud.still_not_running",
                       {{"state", instanceStateName(now->state)}, {"seconds", std::to_string(timeout.count())}}},
                instanceId};
        }
        sleep(interval);
        waited += interval;
    }
}

} // namespace gpuplan::core
