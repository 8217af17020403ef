// The launch, ledger first: the intent recorded before the request goes out, an interrupted attempt resumed with its
// token, capacity tried zone by zone, and the instance followed to running and SSH; then reconcile and terminate.
// Longer than 600 lines on purpose: launch() is one ordered sequence of ledger writes and provider calls whose crash
// safety is checked by reading it whole (TestLauncher, the conformance suite), and reconcile and terminate keep the
// same ledger rules beside it.

#include "gpuplan/cloud/Launcher.h"

#include "gpuplan/core/Log.h"
#include "gpuplan/net/Crypto.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <set>
#include <string_view>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace gpuplan::core {

namespace {

/// The key of the detail an entry keeps while its attempt's outcome is unknown (an error after the request went
/// out). A reconcile that then finds its instance keeps it, so that the user's retry of the same launch takes that
/// instance instead of starting a second one.
constexpr std::string_view kOutcomeUnknown = "ledger.outcome_unknown";

/// The provider-side terminate time of an attempt recorded at `recordedAt`: the dead-man's hours after it. Anchored
/// to the ledger's record, not to the moment of sending, so that a resumed attempt resends exactly the request it
/// sent before (a provider refuses a client token reused with other parameters).
std::int64_t providerTerminateAt(const LaunchRequest& asked, const LaunchOrder& order, std::int64_t recordedAt)
{
    if (asked.terminateAt == 0 || order.deadmanHours <= 0) {
        return asked.terminateAt;
    }
    return recordedAt + static_cast<std::int64_t>(order.deadmanHours) * 3600;
}

constexpr std::array<std::pair<LaunchStep, const char*>, 7> kStepNames{{
    {LaunchStep::Recorded, "recorded"},
    {LaunchStep::Sending, "sending"},
    {LaunchStep::Replied, "replied"},
    {LaunchStep::ZoneRefused, "zone_refused"},
    {LaunchStep::Pending, "pending"},
    {LaunchStep::Running, "running"},
    {LaunchStep::SshReachable, "ssh_reachable"},
}};

/// The outcome of a request that failed this way is unknown: it may have reached the provider, and the provider
/// may have started the instance before failing. A transport failure after sending, any 5xx, and the providers'
/// "internal error" codes: EC2 InternalError / InternalFailure / ServiceUnavailable / Unavailable
/// (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html, "Server error codes"), CVM
/// InternalError and InternalError.* (https://cloud.tencent.com/document/api/213/15694), ECS's UnknownError (Alibaba's
/// common error codes). Capacity and throttling
/// refusals (also 5xx on EC2) are checked before: they start nothing.
bool outcomeUnknown(const Error& error)
{
    if (error.code == ErrorCode::Network || error.code == ErrorCode::Timeout || error.code == ErrorCode::Cancelled
        || error.code == ErrorCode::HttpStatus) {
        return true;
    }
    if (error.code == ErrorCode::InsufficientCapacity || error.code == ErrorCode::Throttled) {
        return false;
    }
    const std::string& code = error.providerCode;
    return error.httpStatus >= 500 || code == "InternalError" || code.starts_with("InternalError.")
           || code == "InternalFailure" || code == "ServiceUnavailable" || code == "Unavailable"
           || code == "InternalServerError" || code == "UnknownError";
}

/// What a refused attempt's entry keeps: the provider's error, its reason and where.
Reason refusedNote(const Error& error)
{
    return Reason{"ledger.refused", {{"error", detailJson(error.reason)}, {"where", error.where}}};
}

/// The zones, comma-separated (a list of ids, as a reason parameter).
std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& item : items) {
        out += (out.empty() ? "" : ", ") + item;
    }
    return out;
}

std::string currencyParam(Currency currency)
{
    return currencyCode(currency);
}

} // namespace

const char* launchStepName(LaunchStep step)
{
    for (const auto& [s, name] : kStepNames) {
        if (s == step) {
            return name;
        }
    }
    return "unknown";
}

std::string newClientToken()
{
    return "gpuplan-" + toHex(randomBytes(12));
}

bool tcpReachable(const std::string& host, int port, std::chrono::milliseconds timeout)
{
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_family = AF_UNSPEC;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) {
        return false;
    }
    bool reachable = false;
    for (addrinfo* a = found; a && !reachable; a = a->ai_next) {
        const int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            continue;
        }
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
            reachable = true;
        } else if (errno == EINPROGRESS) {
            pollfd p{fd, POLLOUT, 0};
            if (poll(&p, 1, static_cast<int>(timeout.count())) == 1) {
                int error = 0;
                socklen_t length = sizeof error;
                reachable = getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0;
            }
        }
        close(fd);
    }
    freeaddrinfo(found);
    return reachable;
}

Launcher::Launcher(CloudProvider& provider, Ledger& ledger, Now now)
    : m_provider(provider)
    , m_ledger(ledger)
    , m_now(std::move(now))
{ }

std::int64_t Launcher::now() const
{
    return m_now ? m_now() : static_cast<std::int64_t>(std::time(nullptr));
}

Result<std::optional<LedgerEntry>> Launcher::interruptedAttempt(const LaunchOrder& order) const
{
    Result<std::vector<LedgerEntry>> entries = m_ledger.entries();
    if (!entries) {
        return entries.error();
    }
    std::optional<LedgerEntry> latest;
    for (const LedgerEntry& e : *entries) {
        const LaunchIntent& i = e.intent;
        const bool unfinished =
            (e.state == InstanceState::Intent || e.state == InstanceState::Requested) && e.instanceId.empty();
        // Its launch ended with an unknown outcome, and a reconcile has since found the instance it started.
        const bool foundSinceUnknown = !isFinal(e.state) && !e.instanceId.empty() && e.detail.key == kOutcomeUnknown;
        if ((unfinished || foundSinceUnknown) && i.provider == m_provider.id() && i.kind == m_provider.kind()
            && i.region == order.request.region && i.instanceType == order.request.instanceType
            && i.pricingMode == order.pricingMode && i.planId == order.planId && (!latest || e.id > latest->id)) {
            latest = e;
        }
    }
    return latest;
}

Result<std::optional<LedgerEntry>> Launcher::instanceListedFor(const LedgerEntry& attempt, const CancelToken* cancel)
{
    if (m_provider.supports(CloudFeature::ClientToken) || attempt.state != InstanceState::Requested) {
        return std::optional<LedgerEntry>{}; // a resend is answered with the instance it started, or nothing went out
    }
    // The provider takes no client token: a resend would start a second instance. Its instance carries the token
    // as its name; listed, it is this launch's.
    Result<std::vector<RemoteInstance>> ours = m_provider.listOurs(attempt.intent.region, cancel);
    if (!ours) {
        return ours.error();
    }
    for (const RemoteInstance& r : *ours) {
        if (r.clientToken == attempt.intent.clientToken && !isFinal(r.state)) {
            if (Status updated = m_ledger.update(attempt.id, r.instanceId, r.state, now()); !updated) {
                return updated.error();
            }
            return m_ledger.find(attempt.id);
        }
    }
    // Not listed. While it may still be invisible, nothing is resent: the earlier request may have started it.
    if (mayBeInvisible(attempt, now())) {
        const std::int64_t from = attempt.requestedAt.value_or(attempt.createdAt);
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.launch.resend_waits",
                            {{"provider", m_provider.id()},
                             {"entry", std::to_string(attempt.id)},
                             {"seconds", std::to_string(from + kVisibilityGraceSeconds - now())}}},
                     m_provider.id() + " " + attempt.intent.region};
    }
    return std::optional<LedgerEntry>{};
}

Result<LaunchOutcome> Launcher::launch(const LaunchOrder& order,
                                       const LaunchWaitOptions& wait,
                                       const CancelToken* cancel,
                                       const std::function<void(const LaunchProgress&)>& onProgress)
{
    const LaunchRequest& asked = order.request;
    // Each step to the caller as data, and to the log (in English, from the same data).
    const auto report = [&](LaunchProgress step) {
        logInfo(LogCategory::Cloud, [&] {
            return m_provider.id() + " launch, entry " + std::to_string(step.entryId) + ": ["
                   + launchStepName(step.step) + "] zone " + step.zone
                   + (step.instanceId.empty() ? "" : ", instance " + step.instanceId)
                   + (step.clientToken.empty() ? "" : ", token " + step.clientToken)
                   + (step.publicIp.empty() ? "" : ", address " + step.publicIp)
                   + (step.sshPort > 0 ? ", port " + std::to_string(step.sshPort) : "")
                   + (step.refusal ? ", refused: " + describe(*step.refusal) : "");
        });
        step.provider = m_provider.id();
        step.instanceType = asked.instanceType;
        if (onProgress) {
            onProgress(step);
        }
    };
    LaunchOutcome outcome;

    logInfo(LogCategory::Cloud, [&] {
        return m_provider.id() + " launch of " + asked.instanceType + " in " + asked.region
               + (asked.dryRun ? " (dry run)" : "");
    });
    if (asked.dryRun) {
        // A dry run starts nothing, so the ledger does not hear of it.
        LaunchRequest request = asked;
        request.clientToken = newClientToken();
        Result<LaunchResult> checked = m_provider.launch(request, cancel);
        if (!checked) {
            return checked.error();
        }
        outcome.dryRunPassed = checked->dryRunPassed;
        outcome.steps = checked->steps;
        outcome.entry.intent.provider = m_provider.id();
        outcome.entry.intent.region = asked.region;
        outcome.entry.intent.zone = checked->zone;
        outcome.entry.intent.instanceType = asked.instanceType;
        return outcome;
    }

    LaunchIntent intent;
    intent.provider = m_provider.id();
    intent.region = asked.region;
    intent.instanceType = asked.instanceType;
    intent.pricingMode = order.pricingMode;
    intent.price = order.price;
    intent.quote = order.quote;
    intent.planId = order.planId;
    intent.deadmanHours = order.deadmanHours;
    intent.kind = m_provider.kind();
    intent.job = asked.job;

    // The budget guard. A new attempt runs it inside the transaction that records its intent, so that another
    // process's launch cannot slip in between the check and the record.
    const Ledger::Guard budgetGuard = [&](const std::vector<LedgerEntry>& entries) -> Status {
        if (order.budget <= 0) {
            return Ok{};
        }
        LedgerEntry candidate;
        candidate.intent = intent;
        candidate.state = InstanceState::Pending;
        const double additional =
            order.rate.convert(costUntilDeadman(candidate, now()), order.price.currency, order.budgetCurrency);
        BudgetCheck check =
            checkBudget(entries, order.planId, order.budget, order.budgetCurrency, order.rate, additional, now());
        outcome.budget = check;
        if (check.level == BudgetLevel::Refuse) {
            return Error{ErrorCode::BudgetExceeded,
                         Reason{"error.launch.over_budget",
                                {{"outlook", reasonNumber(std::max(check.spent, check.committed) + additional)},
                                 {"budget", reasonNumber(order.budget)},
                                 {"spent", reasonNumber(check.spent)},
                                 {"committed", reasonNumber(check.committed)},
                                 {"additional", reasonNumber(additional)},
                                 {"currency", currencyParam(order.budgetCurrency)}}},
                         order.planId.empty() ? "budget" : "plan " + order.planId};
        }
        return Ok{};
    };
    bool budgetKept = false;
    const auto keepBudget = [&]() -> Status {
        if (order.budget <= 0 || budgetKept) {
            return Ok{};
        }
        budgetKept = true;
        return m_ledger.setBudget(
            PlanBudget{order.planId, order.budget, order.budgetCurrency, order.terminateAtBudget});
    };

    Result<std::optional<LedgerEntry>> interrupted = interruptedAttempt(order);
    if (!interrupted) {
        return interrupted.error();
    }
    AttemptLock attempt; // held while this process sends the attempt and until its answer is recorded
    if (interrupted->has_value() && (*interrupted)->instanceId.empty()) {
        // Taken over atomically: a second process resuming the same attempt is refused here.
        const std::int64_t id = (*interrupted)->id;
        Result<std::optional<LedgerEntry>> listed = instanceListedFor(**interrupted, cancel);
        if (!listed) {
            return listed.error();
        }
        if (listed->has_value()) {
            interrupted = std::move(listed); // found by its name: nothing is sent
        } else if (Result<AttemptLock> taken = m_ledger.takeOver(id, now()); taken) {
            attempt = std::move(taken).value();
        } else {
            // A reconcile may have found its instance between the read above and the lock: then that instance is
            // this launch's, as if it had been found before.
            Result<std::optional<LedgerEntry>> again = m_ledger.find(id);
            if (!again || !again->has_value() || (*again)->instanceId.empty() || isFinal((*again)->state)) {
                return taken.error();
            }
            interrupted = std::move(again);
        }
    }
    if (interrupted->has_value()) {
        // A resumed attempt is already in the ledger: nothing new is recorded, so the check stands alone.
        Result<std::vector<LedgerEntry>> entries = m_ledger.entries();
        if (!entries) {
            return entries.error();
        }
        if (Status allowed = budgetGuard(*entries); !allowed) {
            return allowed.error();
        }
        if (Status kept = keepBudget(); !kept) {
            return kept.error();
        }
    }

    std::vector<std::string> zones;
    if (interrupted->has_value()) {
        zones.push_back((*interrupted)->intent.zone);
    }
    if (!asked.zone.empty()) {
        zones.push_back(asked.zone);
    } else {
        Result<std::vector<std::string>> offering = m_provider.zonesOffering(asked.region, asked.instanceType, cancel);
        if (!offering) {
            return offering.error();
        }
        if (offering->empty() && zones.empty()) {
            return Error{ErrorCode::InsufficientCapacity,
                         Reason{"error.launch.no_zone_offers",
                                {{"region", asked.region}, {"instance_type", asked.instanceType}}},
                         m_provider.id() + " " + asked.region};
        }
        zones.insert(zones.end(), offering->begin(), offering->end());
    }
    // The interrupted attempt's zone comes first, and no zone is tried twice.
    std::vector<std::string> unique;
    for (const std::string& z : zones) {
        if (std::find(unique.begin(), unique.end(), z) == unique.end()) {
            unique.push_back(z);
        }
    }
    zones = std::move(unique);

    std::int64_t entryId = 0;
    Result<LaunchResult> launched = Error{ErrorCode::InsufficientCapacity, Reason{}, ""};
    std::vector<std::string> refusals;
    if (interrupted->has_value() && !(*interrupted)->instanceId.empty()) {
        // The attempt whose outcome was unknown did start an instance (a reconcile found it by its token): that is
        // this launch's instance. Nothing is sent, so nothing is doubled.
        const LedgerEntry& found = **interrupted;
        entryId = found.id;
        outcome.resumed = true;
        outcome.zonesTried.push_back(found.intent.zone);
        launched = LaunchResult{found.instanceId, found.state, found.intent.zone, false, {}};
        report({.step = LaunchStep::Recorded,
                .entryId = entryId,
                .zone = found.intent.zone,
                .instanceId = found.instanceId,
                .attempt = LaunchAttempt::FoundByReconcile});
        zones.clear();
    }
    for (std::size_t i = 0; i < zones.size(); ++i) {
        const std::string& zone = zones[i];
        LaunchRequest request = asked;
        request.zone = zone;
        if (i == 0 && interrupted->has_value()) {
            const LedgerEntry& before = **interrupted;
            entryId = before.id; // taken over above
            request.clientToken = before.intent.clientToken;
            request.terminateAt = providerTerminateAt(asked, order, before.createdAt);
            outcome.resumed = true;
            report({.step = LaunchStep::Recorded,
                    .entryId = entryId,
                    .zone = zone,
                    .attempt = LaunchAttempt::Resumed,
                    .clientToken = request.clientToken});
        } else {
            intent.zone = zone;
            intent.clientToken = newClientToken();
            request.clientToken = intent.clientToken;
            // Locked before it is recorded, so that no other process can take it for an interrupted one.
            Result<AttemptLock> locked = m_ledger.lockAttempt(intent.clientToken);
            if (!locked) {
                return locked.error();
            }
            attempt = std::move(locked).value();
            const std::int64_t recordedAt = now();
            Result<std::int64_t> recorded = m_ledger.recordIntent(intent, recordedAt, budgetGuard);
            if (!recorded) {
                return recorded.error();
            }
            entryId = *recorded;
            if (Status kept = keepBudget(); !kept) {
                return kept.error();
            }
            request.terminateAt = providerTerminateAt(asked, order, recordedAt);
            report({.step = LaunchStep::Recorded,
                    .entryId = entryId,
                    .zone = zone,
                    .attempt = LaunchAttempt::New,
                    .clientToken = request.clientToken});
            // From here the provider may have an instance for the token. Refused when another process's reconcile
            // closed the intent meanwhile ("never sent"): then nothing goes out.
            if (Status marked = m_ledger.markRequested(entryId, now()); !marked) {
                return marked.error();
            }
        }
        outcome.zonesTried.push_back(zone);
        report({.step = LaunchStep::Sending, .entryId = entryId, .zone = zone});
        launched = m_provider.launch(request, cancel);
        report({.step = LaunchStep::Replied,
                .entryId = entryId,
                .zone = zone,
                .instanceId = launched ? launched->instanceId : "",
                .refusal = launched ? std::nullopt : std::optional<Error>(launched.error())});
        if (launched) {
            break;
        }
        const Error& error = launched.error();
        if (error.code == ErrorCode::InsufficientCapacity) {
            (void)m_ledger.markFailed(entryId, refusedNote(error), now());
            attempt.releaseForGood();
            refusals.push_back(zone);
            report({.step = LaunchStep::ZoneRefused, .entryId = entryId, .zone = zone});
            continue;
        }
        if (outcomeUnknown(error)) {
            // It may have been accepted: look for the token before giving up.
            if (Result<std::vector<RemoteInstance>> ours = m_provider.listOurs(asked.region, nullptr); ours) {
                for (const RemoteInstance& r : *ours) {
                    if (r.clientToken == request.clientToken) {
                        (void)m_ledger.update(entryId, r.instanceId, r.state, now());
                        launched = LaunchResult{r.instanceId, r.state, zone, false, {}};
                        break;
                    }
                }
            }
            if (launched) {
                break;
            }
            // Never a new token for it: the ledger keeps it requested, and the next launch of the same resends it
            // (or, once a reconcile has found its instance, takes that one).
            (void)m_ledger.setDetail(
                entryId,
                Reason{std::string(kOutcomeUnknown), {{"error", detailJson(error.reason)}, {"where", error.where}}});
            // The provider's error stays whole (its code, where, status, frames); its reason is said first.
            Error unknown = error;
            unknown.reason = Reason{"error.launch.outcome_unknown",
                                    {{"error", detailJson(error.reason)}, {"provider", m_provider.id()}}};
            return unknown;
        }
        (void)m_ledger.markFailed(entryId, refusedNote(error), now());
        attempt.releaseForGood();
        return error;
    }
    if (!launched) {
        return Error{
            ErrorCode::InsufficientCapacity,
            Reason{"error.launch.no_capacity_anywhere",
                   {{"instance_type", asked.instanceType}, {"region", asked.region}, {"zones", joined(refusals)}}},
            m_provider.id() + " " + asked.region};
    }

    if (Status updated = m_ledger.update(entryId, launched->instanceId, launched->state, now()); !updated) {
        return updated.error();
    }
    if (outcome.resumed) {
        // No longer unknown: a later launch of the same is a new one.
        (void)m_ledger.setDetail(entryId, Reason{"ledger.resumed", {}});
    }
    attempt.releaseForGood();
    outcome.steps = launched->steps;
    outcome.instance.instanceId = launched->instanceId;
    outcome.instance.state = launched->state;
    outcome.instance.zone = launched->zone.empty() ? outcome.zonesTried.back() : launched->zone;
    outcome.instance.region = asked.region;
    outcome.instance.instanceType = asked.instanceType;
    report({.step = LaunchStep::Pending,
            .entryId = entryId,
            .zone = outcome.instance.zone,
            .instanceId = launched->instanceId});

    const auto finish = [&]() -> Result<LaunchOutcome> {
        Result<std::optional<LedgerEntry>> entry = m_ledger.find(entryId);
        if (!entry) {
            return entry.error();
        }
        if (entry->has_value()) {
            outcome.entry = **entry;
        }
        return outcome;
    };
    if (wait.until == LaunchWait::Request) {
        return finish();
    }

    Result<RemoteInstance> ready = waitUntilReady(entryId, wait, cancel, report);
    if (!ready) {
        return ready.error();
    }
    outcome.instance = *ready;
    return finish();
}

Result<RemoteInstance> Launcher::waitUntilReady(std::int64_t entryId,
                                                const LaunchWaitOptions& wait,
                                                const CancelToken* cancel,
                                                const std::function<void(const LaunchProgress&)>& onProgress)
{
    Result<std::optional<LedgerEntry>> found = m_ledger.find(entryId);
    if (!found) {
        return found.error();
    }
    if (!*found || (*found)->instanceId.empty()) {
        return Error{ErrorCode::NotFound, Reason{"error.launch.nothing_to_wait_for", {}}, "ledger"};
    }
    const LedgerEntry entry = **found;
    const auto report = [&](const LaunchProgress& progress) {
        if (onProgress) {
            LaunchProgress p = progress;
            p.provider = m_provider.id();
            p.instanceType = entry.intent.instanceType;
            onProgress(p);
        }
    };
    InstanceState last = entry.state;
    Result<RemoteInstance> running = m_provider.waitUntilRunning(
        entry.intent.region,
        entry.instanceId,
        wait.runningTimeout,
        wait.pollInterval,
        cancel,
        [&](const RemoteInstance& seen) {
            if (seen.state != last) {
                logDebug(LogCategory::Cloud, [&] { return seen.instanceId + " is " + instanceStateName(seen.state); });
                last = seen.state;
                (void)m_ledger.update(entryId, "", seen.state, now());
            }
        });
    if (!running) {
        return running.error();
    }
    if (!running->publicIp.empty()) {
        (void)m_ledger.setAddress(entryId, running->publicIp); // where `gpuplan run --instance` logs in
    }
    report({.step = LaunchStep::Running,
            .entryId = entryId,
            .zone = running->zone,
            .instanceId = running->instanceId,
            .publicIp = running->publicIp});

    if (wait.until == LaunchWait::Ssh) {
        if (running->publicIp.empty()) {
            return Error{ErrorCode::ProviderRefused, Reason{"error.launch.no_public_address", {}}, running->instanceId};
        }
        const auto sleep = [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
        const auto deadline = std::chrono::steady_clock::now() + wait.sshTimeout;
        while (!tcpReachable(running->publicIp, wait.sshPort, std::chrono::seconds(5))) {
            if (cancel && cancel->cancelled()) {
                return Error{ErrorCode::Cancelled, Reason{"error.launch.ssh_wait_cancelled", {}}, running->publicIp};
            }
            if (std::chrono::steady_clock::now() >= deadline) {
                return Error{ErrorCode::Timeout,
                             Reason{"error.launch.ssh_timeout",
                                    {{"port", std::to_string(wait.sshPort)},
                                     {"seconds", std::to_string(wait.sshTimeout.count())}}},
                             running->publicIp};
            }
            sleep(std::chrono::seconds(1));
        }
        report({.step = LaunchStep::SshReachable,
                .entryId = entryId,
                .zone = running->zone,
                .instanceId = running->instanceId,
                .publicIp = running->publicIp,
                .sshPort = wait.sshPort});
    }
    return *running;
}

Result<Reconciliation> Launcher::reconcile(const std::vector<std::string>& extraRegions, const CancelToken* cancel)
{
    Result<std::vector<LedgerEntry>> entries = m_ledger.entries();
    if (!entries) {
        return entries.error();
    }
    // Every region with an open entry, and with one closed lately: an entry closed on too little evidence is
    // found again there (and reopened).
    std::set<std::string> regions(extraRegions.begin(), extraRegions.end());
    const std::int64_t at = now();
    for (const LedgerEntry& e : *entries) {
        const bool recent = !isFinal(e.state) || at - e.endedAt.value_or(e.createdAt) < kRecentlyClosedSeconds;
        if (e.intent.provider == m_provider.id() && e.intent.kind == m_provider.kind() && recent) {
            regions.insert(e.intent.region);
        }
    }
    std::vector<RemoteInstance> remote;
    for (const std::string& region : regions) {
        logDebug(LogCategory::Cloud, [&] { return "reconciling with " + m_provider.id() + " in " + region; });
        Result<std::vector<RemoteInstance>> ours = m_provider.listOurs(region, cancel);
        if (!ours) {
            logInfo(LogCategory::Cloud, [&] {
                return "reconciling with " + m_provider.id() + " in " + region + " failed: " + describe(ours.error());
            });
            // Reconciling with part of the picture would close entries that only were not looked at.
            return ours.error();
        }
        for (RemoteInstance r : *ours) {
            if (r.region.empty()) {
                r.region = region;
            }
            remote.push_back(std::move(r));
        }
    }
    return m_ledger.reconcile(m_provider.id(), remote, at, m_provider.kind());
}

Status Launcher::terminate(std::int64_t entryId, const CancelToken* cancel)
{
    Result<std::optional<LedgerEntry>> found = m_ledger.find(entryId);
    if (!found) {
        return found.error();
    }
    if (!found->has_value()) {
        return Error{ErrorCode::NotFound, Reason{"error.launch.no_entry", {}}, "entry " + std::to_string(entryId)};
    }
    const LedgerEntry& e = **found;
    if (e.intent.provider != m_provider.id() || e.intent.kind != m_provider.kind()) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.launch.other_provider", {{"provider", e.intent.provider}}},
                     "entry " + std::to_string(entryId)};
    }
    if (isFinal(e.state)) {
        return Ok{};
    }
    if (e.instanceId.empty()) {
        if (e.state == InstanceState::Intent) {
            return m_ledger.markFailed(entryId, Reason{"ledger.closed_unsent", {}}, now());
        }
        return Error{ErrorCode::NotFound, Reason{"error.launch.not_named_yet", {}}, "entry " + std::to_string(entryId)};
    }
    // The providers take NotFound from TerminateInstances as "already gone"; moments after a launch it only means
    // "not visible yet" and nothing was terminated. What describe shows afterwards is the confirmation.
    logInfo(LogCategory::Cloud, [&] {
        return "terminating " + e.instanceId + " (entry " + std::to_string(entryId) + ") at " + m_provider.id() + " "
               + e.intent.region;
    });
    if (Status asked = m_provider.terminate(e.intent.region, e.instanceId, cancel); !asked) {
        logInfo(LogCategory::Cloud,
                [&] { return "terminating " + e.instanceId + " failed: " + describe(asked.error()); });
        if (asked.error().code == ErrorCode::ProviderRefused) {
            // The provider said no (a subscription that runs until its period ends): the entry stays live, and says
            // why beside it, so that the Instances page and `gpuplan instances` show what happens to it.
            const Reason note{"ledger.terminate_refused",
                              {{"error", detailJson(asked.error().reason)}, {"where", asked.error().where}}};
            if (Status kept = m_ledger.setDetail(entryId, note); !kept) {
                logInfo(LogCategory::Cloud,
                        [&] { return "the ledger did not keep the refusal: " + describe(kept.error()); });
            }
        }
        return asked;
    }
    const std::string entry = "entry " + std::to_string(entryId) + " (" + e.instanceId + ")";
    InstanceState state = InstanceState::Stopping;
    std::string providerState;
    if (Result<RemoteInstance> after = m_provider.describe(e.intent.region, e.instanceId, cancel); after) {
        providerState = after->providerState;
        if (after->state == InstanceState::Pending || after->state == InstanceState::Running) {
            return Error{ErrorCode::ProviderRefused,
                         Reason{"error.launch.still_live",
                                {{"provider", m_provider.id()}, {"state", instanceStateName(after->state)}}},
                         entry};
        }
        state = isFinal(after->state) ? after->state : InstanceState::Stopping;
    } else if (after.error().code == ErrorCode::NotFound) {
        if (mayBeInvisible(e, now())) {
            return Error{
                ErrorCode::NotFound, Reason{"error.launch.not_visible_yet", {{"provider", m_provider.id()}}}, entry};
        }
        state = InstanceState::Terminated; // seen before, gone now (CVM no longer lists terminated instances)
    }
    if (Status updated = m_ledger.update(entryId, "", state, now());
        !updated || !isFinal(state) || e.intent.kind != LaunchKind::Job) {
        return updated;
    }
    // A job cancelled at once: how it ended, as reconciliation would say it.
    return m_ledger.setDetail(
        entryId,
        Reason{"ledger.job_ended", {{"outcome", jobOutcomeOf(providerState)}, {"provider_state", providerState}}});
}

} // namespace gpuplan::core
