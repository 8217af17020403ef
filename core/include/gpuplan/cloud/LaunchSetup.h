#pragma once

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/cloud/WatchdogScript.h"
#include "gpuplan/core/Result.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// What the user chose for one launch, on the Launch page or with `gpuplan launch`, before it becomes a
/// LaunchOrder. The one place both turn a choice into an order, so that the GUI and the CLI launch alike.
struct LaunchSettings
{
    std::string provider;
    std::string instanceType;
    std::string region;
    std::string zone; // empty: every zone that offers the type, in order
    LaunchPricing pricing = LaunchPricing::OnDemand;
    int subscriptionMonths = 0; // Subscription only
    bool autoRenew = false;
    double spotPriceLimit =
        0; // Spot only: the most to pay per hour, in the provider's currency; 0: no limit of one's own
    /// Per hour (per month for a subscription) in the provider's currency; replaces the catalog's price.
    std::optional<double> price;
    std::string imageId;       // empty: the provider's GPU image
    std::string sshPublicKey;  // one OpenSSH public key line (readPublicKeyFile)
    std::string sshSourceCidr; // where SSH is opened to
    WatchdogRules watchdog;    // deadmanHours 0 turns the dead-man off
    std::string planId;
    double budget = 0; // 0: no budget guard
    Currency budgetCurrency = Currency::CNY;
    bool terminateAtBudget = false;
    bool dryRun = false;
    /// A managed job (an offer whose service is managed, "azureml/...", "vertex/..."): what it runs. The launch goes
    /// to the cloud's managed job service; the dead-man is the job's timeout; no key, SSH source or watchdog is used.
    std::optional<JobSpec> job;
};

/// What a launch of `instanceType` starts: a job when the catalog's offer is a managed service (or, without a catalog
/// offer, when its id names a service: "vertex/...", "azureml/..."); an instance otherwise.
LaunchKind launchKindOf(const Catalog& catalog, const std::string& provider, const std::string& instanceType);

/// A command line as a job runs it: the container's shell runs `commandLine` ({"sh", "-c", commandLine}), so that
/// pipes, `&&` and variables work as they do in a terminal. Empty for an empty line.
std::vector<std::string> shellCommand(const std::string& commandLine);

/// The catalog's pricing mode of a launch: spot, on_demand, subscription_monthly, or subscription_yearly for
/// whole years.
PricingMode pricingModeOf(LaunchPricing pricing, int subscriptionMonths);

/// The order to hand to Launcher::launch: the price it is recorded at (the catalog's, or the one given), the
/// watchdog script filled in as the user-data, the request's tags, and a provider-side terminate time where the
/// provider cannot end the billing with a shutdown. `unsupported` is the provider's unsupportedFeatures().
/// Errors: InvalidArgument naming the setting (spot with a subscription, a spot price limit without spot or below 0, a
/// feature the provider lacks with its reason, a watchdog rule outside its bounds (checkWatchdogRules, checked first),
/// an SSH source open to everyone, no key, terminate-at-budget without a budget, a budget in another currency than the
/// price when the catalog has no exchange rate to compare them); NotFound from catalogLaunchPrice when the catalog has
/// no price and none was given.
Result<LaunchOrder> makeLaunchOrder(const LaunchSettings& settings,
                                    const Catalog& catalog,
                                    std::string_view watchdogScript,
                                    const std::map<CloudFeature, Reason>& unsupported,
                                    std::int64_t now);

/// The most the order can cost before its dead-man fires (a subscription: its prepaid months); nullopt when it
/// has no dead-man and so bills until someone terminates it.
std::optional<double> mostBeforeDeadman(const LaunchOrder& order, std::int64_t now);

/// A stable id of an OpenSSH public key line: the first 12 hex digits of SHA-256 over its base64 blob (the second
/// field), so the same key always maps to the same provider key pair. InvalidArgument when the line has no blob.
Result<std::string> publicKeyId(const std::string& sshPublicKey);

/// A spot price limit as the providers' APIs take it: fixed-point, at most 5 decimals, trailing zeros dropped
/// ("0.5", "2.345", "3").
std::string spotPriceText(double amount);

/// ~/.ssh/id_ed25519.pub, then ~/.ssh/id_rsa.pub: where the user's public key usually is.
std::vector<std::filesystem::path> defaultPublicKeyFiles();

/// The one OpenSSH public key line in `file` (trailing newline removed). `file` empty: the first of
/// defaultPublicKeyFiles() that exists. FileNotFound naming the file (or saying none of the usual ones exists);
/// InvalidArgument naming the file when it is a private key or not one public key line.
Result<std::string> readPublicKeyFile(const std::filesystem::path& file);

} // namespace gpuplan::core
