#include "gpuplan/cloud/LaunchSetup.h"

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/cloud/LaunchChoice.h"
#include "gpuplan/cloud/PublicAddress.h"
#include "gpuplan/core/Text.h"
#include "gpuplan/net/Crypto.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace gpuplan::core {

namespace {

// An RSA-16384 key line is about 2.8 KB; anything far larger is not a public key.
constexpr std::size_t kMaxPublicKeyBytes = 16 * 1024;

} // namespace

LaunchKind launchKindOf(const Catalog& catalog, const std::string& provider, const std::string& instanceType)
{
    if (const Offer* offer = catalog.findOffer(provider, instanceType)) {
        return offer->service == ServiceKind::Managed ? LaunchKind::Job : LaunchKind::Instance;
    }
    for (std::string_view service : {"vertex/", "azureml/"}) { // wire: the catalog's managed offer ids
        if (instanceType.starts_with(service)) {
            return LaunchKind::Job;
        }
    }
    return LaunchKind::Instance;
}

std::vector<std::string> shellCommand(const std::string& commandLine)
{
    if (commandLine.find_first_not_of(" \t\r\n") == std::string::npos) {
        return {};
    }
    return {"sh", "-c", commandLine}; // wire: the container's shell runs the line
}

namespace {

/// A job's spec as a service can take it: an image and a command, names of environment variables as a shell has them.
Status checkJob(const LaunchSettings& s, LaunchKind kind)
{
    if (kind == LaunchKind::Instance) {
        return s.job ? Status(Error{ErrorCode::InvalidArgument,
                                    Reason{"error.cloud.job_on_instance_offer", {{"instance_type", s.instanceType}}},
                                    "command"})
                     : Status(Ok{});
    }
    if (!s.job) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.cloud.job_needs_command", {{"instance_type", s.instanceType}}},
                     "command"};
    }
    if (s.job->command.empty()) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.cloud.job_needs_command", {{"instance_type", s.instanceType}}},
                     "command"};
    }
    if (s.job->image.empty()) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.cloud.job_needs_image", {{"instance_type", s.instanceType}}},
                     "image"};
    }
    for (const auto& [name, value] : s.job->environment) {
        const bool valid = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]))
                           && std::all_of(name.begin(), name.end(), [](char c) {
                                  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                              });
        if (!valid) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.job_env_name", {{"name", name}}}, "env"};
        }
    }
    if (s.watchdog.deadmanHours <= 0) {
        // A job without a timeout runs until its command ends, or for days (Vertex's default is 7 days).
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.job_needs_timeout", {}}, "deadman"};
    }
    return Ok{};
}

} // namespace

PricingMode pricingModeOf(LaunchPricing pricing, int subscriptionMonths)
{
    switch (pricing) {
        case LaunchPricing::Spot:
            return PricingMode::Spot;
        case LaunchPricing::Subscription:
            return subscriptionMonths > 0 && subscriptionMonths % 12 == 0 ? PricingMode::SubscriptionYearly
                                                                          : PricingMode::SubscriptionMonthly;
        case LaunchPricing::OnDemand:
            break;
    }
    return PricingMode::OnDemand;
}

Result<LaunchOrder> makeLaunchOrder(const LaunchSettings& s,
                                    const Catalog& catalog,
                                    std::string_view watchdogScript,
                                    const std::map<CloudFeature, Reason>& unsupported,
                                    std::int64_t now)
{
    if (s.provider.empty() || s.instanceType.empty() || s.region.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.launch_incomplete", {}}, "launch"};
    }
    if (Status rules = checkWatchdogRules(s.watchdog); !rules) {
        return rules.error(); // before anything else: the dead-man must be installable as given, or nothing goes
    }
    const LaunchKind kind = launchKindOf(catalog, s.provider, s.instanceType);
    if (Status job = checkJob(s, kind); !job) {
        return job.error();
    }
    const bool subscription = s.pricing == LaunchPricing::Subscription;
    if (subscription && s.subscriptionMonths < 1) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.months_missing", {}}, "months"};
    }
    if (s.spotPriceLimit < 0 || !std::isfinite(s.spotPriceLimit)
        || (s.spotPriceLimit > 0 && s.pricing != LaunchPricing::Spot)) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.spot_limit_without_spot", {}}, "spot_price_limit"};
    }
    if (s.pricing == LaunchPricing::Spot && unsupported.count(CloudFeature::Spot)) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.cloud.no_spot",
                            {{"provider", s.provider}, {"why_key", unsupported.at(CloudFeature::Spot).key}}},
                     "pricing"};
    }
    if (subscription && unsupported.count(CloudFeature::Subscription)) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.cloud.no_subscription",
                            {{"provider", s.provider}, {"why_key", unsupported.at(CloudFeature::Subscription).key}}},
                     "pricing"};
    }
    if (s.dryRun && unsupported.count(CloudFeature::DryRun)) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.cloud.no_dry_run",
                            {{"provider", s.provider}, {"why_key", unsupported.at(CloudFeature::DryRun).key}}},
                     "dry_run"};
    }
    if (s.terminateAtBudget && s.budget <= 0) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.budget_missing", {}}, "budget"};
    }
    if (kind == LaunchKind::Instance && s.sshPublicKey.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.no_ssh_key", {}}, "key"};
    }
    if (Status cidr = checkSshSourceCidr(s.sshSourceCidr); kind == LaunchKind::Instance && !cidr) {
        return cidr.error();
    }

    LaunchOrder order;
    const PricingMode mode = pricingModeOf(s.pricing, s.subscriptionMonths);
    Result<LaunchPrice> price = catalogLaunchPrice(
        catalog, s.provider, s.instanceType, s.region, mode, subscription ? s.subscriptionMonths : 0);
    if (s.price) {
        if (!(*s.price > 0)) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.price_not_positive", {}}, "price"};
        }
        const Provider* provider = catalog.findProvider(s.provider);
        LaunchPrice given;
        given.amount = *s.price;
        given.currency = provider ? provider->currency : Currency::USD;
        given.unit = subscription ? PriceUnit::Month : PriceUnit::Hour;
        given.prepaidMonths = subscription ? s.subscriptionMonths : 0;
        given.billing = price ? price->billing : std::nullopt;
        price = given;
    }
    if (!price) {
        return price.error();
    }
    order.price = *price;
    order.pricingMode = pricingModeName(mode);
    order.planId = s.planId;
    order.budget = s.budget;
    order.budgetCurrency = s.budgetCurrency;
    order.terminateAtBudget = s.terminateAtBudget;
    if (catalog.exchangeRate()) {
        order.rate = *catalog.exchangeRate();
    } else if (order.budget > 0 && order.budgetCurrency != price->currency) {
        // Counting the budget in the price's currency instead would change its meaning by the rate (about 7x).
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.cloud.no_exchange_rate",
                            {{"budget_currency", currencyCode(order.budgetCurrency)},
                             {"provider", s.provider},
                             {"price_currency", currencyCode(price->currency)},
                             {"file", "exchange_rate.json"}}},
                     "budget"};
    }
    order.deadmanHours = s.watchdog.deadmanHours;

    LaunchRequest& request = order.request;
    request.region = s.region;
    request.zone = s.zone;
    request.instanceType = s.instanceType;
    request.pricing = s.pricing;
    request.dryRun = s.dryRun;
    if (!s.planId.empty()) {
        request.tags.emplace_back("gpuplanner-plan", s.planId);
    }
    if (kind == LaunchKind::Job) {
        // The service runs the command and ends the job at its timeout: nothing to log in to, no watchdog inside.
        request.job = s.job;
        request.terminateAt = now + std::int64_t(s.watchdog.deadmanHours) * 3600;
        order.watchdog = WatchdogRules{};
        order.watchdog.deadmanHours = s.watchdog.deadmanHours;
        return order;
    }

    // What the watchdog's shutdown does on this provider, for its log: terminate (EC2's instance-initiated shutdown
    // behaviour, set at launch) or only stop.
    WatchdogRules rules = s.watchdog;
    rules.shutdownTerminates = !unsupported.count(CloudFeature::TerminateOnShutdown);
    rules.shutdownStopsBilling = rules.shutdownTerminates || !unsupported.count(CloudFeature::ShutdownStopsBilling);
    Result<std::string> userData = watchdogUserData(watchdogScript, rules);
    if (!userData) {
        return userData.error();
    }
    order.watchdog = rules;

    request.subscriptionMonths = subscription ? s.subscriptionMonths : 0;
    request.autoRenew = subscription && s.autoRenew;
    request.spotPriceLimit = s.pricing == LaunchPricing::Spot ? s.spotPriceLimit : 0;
    request.imageId = s.imageId;
    request.sshPublicKey = s.sshPublicKey;
    request.sshSourceCidr = s.sshSourceCidr;
    request.userData = gzipUserData(*userData);
    if (s.watchdog.deadmanHours > 0 && unsupported.count(CloudFeature::TerminateOnShutdown)
        && !unsupported.count(CloudFeature::ScheduledTerminate) && !subscription) {
        // The provider's own timer ends the instance (a shutdown inside it would not end the billing).
        request.terminateAt = now + std::int64_t(s.watchdog.deadmanHours) * 3600;
    }
    return order;
}

std::optional<double> mostBeforeDeadman(const LaunchOrder& order, std::int64_t now)
{
    if (order.deadmanHours <= 0) {
        if (order.price.unit == PriceUnit::Month && !order.request.autoRenew) {
            return order.price.amount * order.price.prepaidMonths; // paid up front, and it ends with its period
        }
        return std::nullopt;
    }
    LedgerEntry worst;
    worst.intent.price = order.price;
    worst.intent.deadmanHours = order.deadmanHours;
    worst.state = InstanceState::Pending;
    return costUntilDeadman(worst, now);
}

std::string spotPriceText(double amount)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.5f", amount);
    std::string out = text;
    while (out.ends_with('0')) {
        out.pop_back();
    }
    if (out.ends_with('.')) {
        out.pop_back();
    }
    return out;
}

Result<std::string> publicKeyId(const std::string& sshPublicKey)
{
    std::istringstream fields(sshPublicKey);
    std::string type;
    std::string blob;
    fields >> type >> blob;
    if (blob.rfind("AAAA", 0) != 0) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.not_public_key_line", {}}, "public_key"};
    }
    return sha256Hex(blob).substr(0, 12);
}

std::vector<std::filesystem::path> defaultPublicKeyFiles()
{
    const char* home = std::getenv("HOME");
    if (!home || !*home) {
        return {};
    }
    const std::filesystem::path ssh = std::filesystem::path(home) / ".ssh";
    return {ssh / "id_ed25519.pub", ssh / "id_rsa.pub"};
}

Result<std::string> readPublicKeyFile(const std::filesystem::path& given)
{
    std::vector<std::filesystem::path> candidates;
    if (!given.empty()) {
        candidates.push_back(given);
    } else {
        candidates = defaultPublicKeyFiles();
    }
    for (const std::filesystem::path& file : candidates) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file, ec)) {
            continue;
        }
        std::ifstream in(file, std::ios::binary);
        std::stringstream content;
        content << in.rdbuf();
        const bool ok = static_cast<bool>(in) || in.eof();
        std::string text = content.str();
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
            text.pop_back();
        }
        if (text.find("PRIVATE KEY") != std::string::npos) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.private_key", {}}, file.string()};
        }
        if (!ok || text.size() > kMaxPublicKeyBytes || (text.rfind("ssh-", 0) != 0 && text.rfind("ecdsa-", 0) != 0)
            || text.find('\n') != std::string::npos) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.not_one_key_line", {}}, file.string()};
        }
        // The key travels to the provider in JSON or a query string and into the instance's authorized_keys:
        // its comment must be text. Checked here, before anything is recorded or sent.
        if (const std::optional<std::size_t> bad = invalidUtf8At(text)) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[*bad]));
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.cloud.key_comment_not_utf8",
                                {{"byte", std::string(hex)}, {"column", std::to_string(*bad + 1)}}},
                         file.string()};
        }
        if (terminalSafe(text) != text) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.key_control_characters", {}}, file.string()};
        }
        return text;
    }
    if (!given.empty()) {
        return Error{ErrorCode::FileNotFound, Reason{"error.cloud.no_such_file", {}}, given.string()};
    }
    return Error{ErrorCode::FileNotFound, Reason{"error.cloud.no_default_key", {}}, "key"};
}

} // namespace gpuplan::core
