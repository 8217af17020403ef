#pragma once

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/WatchdogScript.h"
#include "gpuplan/ledger/Ledger.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// A launch as the user confirmed it: what to ask the provider for and what the ledger records.
struct LaunchOrder
{
    /// region, instance type, pricing, image, key, SSH source, user data, tags, dry run. `zone` empty: the
    /// zones that offer the type are tried in order until one has capacity. `clientToken` is ignored: the
    /// launcher makes one per attempt (or reuses an interrupted attempt's). A non-zero `terminateAt` asks for
    /// the provider-side timer: the launcher sets it to `deadmanHours` after the attempt was recorded.
    LaunchRequest request;
    std::string pricingMode;         // the catalog's mode name for the ledger: on_demand, spot, subscription_monthly...
    LaunchPrice price;               // what it costs, from the catalog at launch time
    std::optional<PriceQuote> quote; // the provider's own price, asked before the launch was confirmed
    std::string planId;              // empty: launched without a plan
    int deadmanHours = 0;            // 0: no dead-man timer
    WatchdogRules watchdog;          // the rules in the user-data, as installed (and what their shutdown does here)
    /// The plan's budget guard: 0 means none. Refuses a launch whose cost until its dead-man would take the
    /// plan's spending to the budget; warns from 80 %.
    double budget = 0;
    Currency budgetCurrency = Currency::CNY;
    bool terminateAtBudget = false; // once the plan has spent its budget, its instances are terminated
    ExchangeRate rate;
};

/// Where a launch is; reported in this order (Recorded to Replied once per zone tried).
enum class LaunchStep
{
    Recorded,     // the intent is in the ledger, nothing sent yet
    Sending,      // marked requested; the request goes out now
    Replied,      // the provider answered (the ledger is updated right after)
    ZoneRefused,  // that zone had no capacity; the next one is tried
    Pending,      // the ledger has the instance id; the provider is starting it
    Running,      // the provider says it runs
    SshReachable, // its SSH port accepts connections
};

/// "recorded", "sending", "replied", "zone_refused", "pending", "running", "ssh_reachable".
const char* launchStepName(LaunchStep step);

/// How an attempt began (LaunchStep::Recorded).
enum class LaunchAttempt
{
    New,              // recorded in the ledger with a fresh token
    Resumed,          // an interrupted attempt, resent with its own token
    FoundByReconcile, // an attempt whose outcome was unknown did start an instance: that one is this launch's
};

/// A step of a launch, as data: the front ends word it (ui/wording/LaunchText.h), the log says it in English.
struct LaunchProgress
{
    LaunchStep step = LaunchStep::Recorded;
    std::int64_t entryId = 0; // the ledger entry of this attempt
    std::string zone;
    std::string instanceId;
    std::string provider; // its id
    std::string instanceType;
    LaunchAttempt attempt = LaunchAttempt::New; // Recorded
    std::string clientToken;                    // Recorded
    std::optional<Error> refusal;               // Replied: why the provider refused (nullopt: it accepted)
    std::string publicIp;                       // Running, SshReachable
    int sshPort = 0;                            // SshReachable
};

struct LaunchOutcome
{
    LedgerEntry entry; // as the ledger has it at the end
    RemoteInstance instance;
    bool resumed = false;                // an interrupted launch was picked up with its token, not a new one
    bool dryRunPassed = false;           // a dry run: nothing was recorded or started
    std::optional<BudgetCheck> budget;   // when the order had a budget
    std::vector<Reason> steps;           // what the provider set up on the way (LaunchResult::steps)
    std::vector<std::string> zonesTried; // in order; the last one is where it runs
};

/// How far launch() waits.
enum class LaunchWait
{
    Request, // return once the provider has accepted the request (Pending)
    Running, // until the provider says Running
    Ssh,     // until its SSH port accepts a TCP connection
};

struct LaunchWaitOptions
{
    LaunchWait until = LaunchWait::Running;
    std::chrono::seconds runningTimeout{600};
    std::chrono::seconds sshTimeout{300};
    std::chrono::seconds pollInterval{5};
    int sshPort = 22;
};

/// Launches through one provider and keeps the ledger right at every step, so that a crash at any moment can be
/// reconciled: the intent (with the attempt's idempotency token) is written before the request goes out, marked
/// requested just before it does, and updated as soon as the answer is in. A launch whose earlier attempt was
/// interrupted (its entry still at intent or requested, same provider, region, type, mode and plan) resends that
/// attempt with the same token, so the provider returns the instance it may already have started instead of a
/// second one. Not thread safe (the ledger is not).
class Launcher
{
public:
    using Now = std::function<std::int64_t()>;
    Launcher(CloudProvider& provider, Ledger& ledger, Now now = {});

    /// Errors: BudgetExceeded (the budget guard refused), InsufficientCapacity when no zone had
    /// capacity (naming the zones tried; ask before trying another region), the provider's other errors, Timeout
    /// while waiting. After a transport error the outcome of the request is unknown: the entry stays
    /// requested and the error says to reconcile.
    Result<LaunchOutcome> launch(const LaunchOrder& order,
                                 const LaunchWaitOptions& wait,
                                 const CancelToken* cancel,
                                 const std::function<void(const LaunchProgress&)>& onProgress = {});

    /// Waits as `wait` says (Running, then SSH) for entry `entryId`'s instance, which the provider has accepted (it has
    /// an instance id), keeping its state and address in the ledger: what launch() does once the request is
    /// answered, also for a launch an earlier process sent (a recovery killed while it waited). NotFound when the
    /// entry has no instance id; the provider's errors, Timeout.
    Result<RemoteInstance> waitUntilReady(std::int64_t entryId,
                                          const LaunchWaitOptions& wait,
                                          const CancelToken* cancel,
                                          const std::function<void(const LaunchProgress&)>& onProgress = {});

    /// Lists our instances in every region the ledger has for this provider (and `extraRegions`), and makes the
    /// ledger agree (Ledger::reconcile).
    Result<Reconciliation> reconcile(const std::vector<std::string>& extraRegions, const CancelToken* cancel);

    /// Asks the provider to terminate the entry's instance and records the answer (Stopping, or Terminated when
    /// the provider says so). An entry without an instance id is closed as Failed ("never started").
    Status terminate(std::int64_t entryId, const CancelToken* cancel);

private:
    std::int64_t now() const;
    Result<std::optional<LedgerEntry>> interruptedAttempt(const LaunchOrder& order) const;
    /// For a provider without client tokens (CloudFeature::ClientToken), an attempt whose request went out: the
    /// entry with the instance the provider lists under the attempt's token (its name), recorded now; none when it
    /// lists none and the instance can no longer be invisible (the attempt may be resent). While it may still be
    /// invisible, "error.launch.resend_waits" with the seconds left. Providers with tokens and unsent attempts: none.
    Result<std::optional<LedgerEntry>> instanceListedFor(const LedgerEntry& attempt, const CancelToken* cancel);

    CloudProvider& m_provider;
    Ledger& m_ledger;
    Now m_now;
};

/// A fresh idempotency token: "gpuplan-" and 24 random hex digits (EC2 and CVM take up to 64 ASCII characters).
std::string newClientToken();

/// Whether host:port accepts a TCP connection within `timeout`.
bool tcpReachable(const std::string& host, int port, std::chrono::milliseconds timeout);

} // namespace gpuplan::core
