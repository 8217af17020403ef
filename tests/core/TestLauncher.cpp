// The launch flow against the ledger: the intent is in the ledger before the provider hears of the launch,
// zones are tried in order, an interrupted attempt is resent with its own token, the budget guard refuses, an
// unknown outcome is looked up by token, reconciliation looks at every region the ledger has. The provider here
// is a scripted test double (ScriptedProvider); the ledger is a real SQLite file.

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/LaunchWorkflow.h"
#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/cloud/LedgerActions.h"
#include "gpuplan/cloud/WatchdogScript.h"
#include "gpuplan/ledger/Ledger.h"

using namespace gpuplan::core;

namespace {

constexpr std::int64_t kT0 = 1'800'000'000;

/// A provider whose answers the test sets; it records what it was asked and what the ledger held at that moment.
class ScriptedProvider final : public CloudProvider
{
public:
    explicit ScriptedProvider(Ledger* ledger)
        : CloudProvider(ProviderContext{})
        , m_ledger(ledger)
    {
        m_context.sleep = [](std::chrono::milliseconds) {};
    }

    std::string id() const override { return "aws"; }
    std::map<CloudFeature, Reason> unsupportedFeatures() const override
    {
        std::map<CloudFeature, Reason> lacks{{CloudFeature::Subscription, Reason{"unsupported.aws.subscription", {}}}};
        if (!takesClientToken) {
            lacks.emplace(CloudFeature::ClientToken, Reason{"unsupported.test.client_token", {}});
        }
        return lacks;
    }

    Result<std::vector<std::string>> zonesOffering(const std::string&, const std::string&, const CancelToken*) override
    {
        if (whileListingZones) {
            std::function<void()> hook = std::exchange(whileListingZones, {});
            hook();
        }
        return zones;
    }

    Result<std::optional<PriceQuote>> quotePrice(const LaunchRequest&, const CancelToken*) override
    {
        ++quotesAsked;
        return quote;
    }

    Result<LaunchResult> launch(const LaunchRequest& request, const CancelToken*) override
    {
        launches.push_back(request);
        // What the ledger holds while the request is "on the wire".
        Result<std::vector<LedgerEntry>> now = m_ledger->entries();
        ledgerDuringLaunch.push_back(now ? now.value() : std::vector<LedgerEntry>{});
        if (refusedZones.count(request.zone)) {
            return Error{ErrorCode::InsufficientCapacity,
                         Reason{"error.test.scripted", {{"said", "no capacity"}}},
                         request.zone,
                         0,
                         "InsufficientInstanceCapacity"};
        }
        if (whileSending) {
            std::function<void()> hook = std::exchange(whileSending, {});
            hook();
        }
        if (dropNext > 0) {
            --dropNext;
            accept(request); // accepted there, but the answer never arrives
            return Error{ErrorCode::Network, Reason{"error.test.scripted", {{"said", "connection reset"}}}, "ec2"};
        }
        if (errorAfterAccept) {
            accept(request); // created there, then the server fails to answer properly
            return *std::exchange(errorAfterAccept, std::nullopt);
        }
        if (request.dryRun) {
            return LaunchResult{"", InstanceState::Pending, request.zone, true, {Reason{"step.dry_run_passed", {}}}};
        }
        return LaunchResult{accept(request),
                            InstanceState::Pending,
                            request.zone,
                            false,
                            {Reason{"step.key_pair_imported", {{"key_pair", "k"}}}}};
    }

    Result<RemoteInstance> describe(const std::string&, const std::string& instanceId, const CancelToken*) override
    {
        if (hidden.count(instanceId) || (notFoundDescribes[instanceId] > 0 && notFoundDescribes[instanceId]-- > 0)) {
            return Error{ErrorCode::NotFound,
                         Reason{"error.test.scripted", {{"said", "EC2 does not know it (InvalidInstanceID.NotFound)"}}},
                         instanceId};
        }
        for (RemoteInstance& r : remote) {
            if (r.instanceId == instanceId) {
                if (r.state == InstanceState::Pending && ++polls[instanceId] >= 2) {
                    r.state = InstanceState::Running;
                    r.publicIp = "127.0.0.1";
                }
                return r;
            }
        }
        return Error{ErrorCode::NotFound, Reason{"error.test.scripted", {{"said", "no such instance"}}}, instanceId};
    }

    Result<std::vector<RemoteInstance>> listOurs(const std::string& region, const CancelToken*) override
    {
        listedRegions.push_back(region);
        if (failListing) {
            return Error{ErrorCode::Network, Reason{"error.test.scripted", {{"said", "unreachable"}}}, region};
        }
        std::vector<RemoteInstance> out;
        for (const RemoteInstance& r : remote) {
            if (r.region == region && !hidden.count(r.instanceId)) {
                out.push_back(r);
            }
        }
        return out;
    }

    Status terminate(const std::string&, const std::string& instanceId, const CancelToken*) override
    {
        terminateCalls.push_back(instanceId);
        if (hidden.count(instanceId)) {
            return Ok{}; // InvalidInstanceID.NotFound, which the providers take as "already gone"
        }
        for (RemoteInstance& r : remote) {
            if (r.instanceId == instanceId) {
                r.state = InstanceState::Terminated;
            }
        }
        terminated.push_back(instanceId);
        return Ok{};
    }

    std::string accept(const LaunchRequest& request)
    {
        for (const RemoteInstance& r : remote) {
            if (r.clientToken == request.clientToken) {
                return r.instanceId; // idempotent, like EC2 and CVM
            }
        }
        RemoteInstance r;
        r.instanceId = "i-" + std::to_string(remote.size() + 1);
        r.clientToken = request.clientToken;
        r.region = request.region;
        r.zone = request.zone;
        r.instanceType = request.instanceType;
        r.launchedAt = kT0;
        remote.push_back(r);
        notFoundDescribes[r.instanceId] = invisibleDescribes;
        return r.instanceId;
    }

    std::vector<std::string> zones{"us-east-1a", "us-east-1b", "us-east-1c"};
    std::set<std::string> refusedZones;
    int dropNext = 0;
    bool failListing = false;
    std::vector<LaunchRequest> launches;
    Result<std::optional<PriceQuote>> quote = std::optional<PriceQuote>{}; // the provider's price API: none
    int quotesAsked = 0;
    std::vector<std::vector<LedgerEntry>> ledgerDuringLaunch;
    std::vector<RemoteInstance> remote;
    std::vector<std::string> listedRegions;
    std::vector<std::string> terminated;
    std::map<std::string, int> polls; // describes per instance; the second one finds it running
    // Faults a real cloud does not produce on demand (eventual consistency, server errors after creating):
    int invisibleDescribes = 0;                   // a new instance's first N describes answer NotFound
    std::map<std::string, int> notFoundDescribes; // what is left of that per instance
    std::set<std::string> hidden;                 // instances not visible yet: NotFound, unlisted, terminate a no-op
    std::optional<Error> errorAfterAccept;        // the next launch creates the instance, then answers this
    std::function<void()> whileSending;           // runs once while a launch request is "on the wire"
    std::function<void()> whileListingZones;      // runs once between the budget check and the request
    std::vector<std::string> terminateCalls;
    bool takesClientToken = true; // false: like Lambda and Paperspace, no idempotency token (found by name)

private:
    Ledger* m_ledger;
};

LaunchOrder order()
{
    LaunchOrder o;
    o.request.region = "us-east-1";
    o.request.instanceType = "p3.2xlarge";
    o.request.sshPublicKey = "ssh-ed25519 AAAA test";
    o.request.sshSourceCidr = "203.0.113.7/32";
    o.pricingMode = "on_demand";
    o.price.amount = 3.06;
    o.price.currency = Currency::USD;
    o.price.billing = Billing{Billing::Granularity::Second, 60};
    o.planId = "plan-1";
    o.deadmanHours = 10;
    o.rate.cnyPerUsd = 7.2;
    return o;
}

/// What an earlier process left of the launch order() makes: its intent, recorded with its token, never answered.
LaunchIntent interruptedIntent()
{
    LaunchIntent earlier;
    earlier.provider = "aws";
    earlier.region = "us-east-1";
    earlier.zone = "us-east-1b";
    earlier.instanceType = "p3.2xlarge";
    earlier.pricingMode = "on_demand";
    earlier.planId = "plan-1";
    earlier.clientToken = "gpuplan-interrupted";
    return earlier;
}

LaunchWaitOptions noWait()
{
    LaunchWaitOptions w;
    w.until = LaunchWait::Request;
    return w;
}

} // namespace

/// Answers a launch's confirmation as told, and keeps what it was shown.
class AnsweringPrompter final : public Prompter
{
public:
    explicit AnsweringPrompter(bool answer)
        : m_answer(answer)
    { }

    bool trustNewHostKey(const HostKey&) override { return false; }
    std::optional<std::string> passphrase(const std::string&) override { return std::nullopt; }
    bool confirmLaunch(const LaunchConfirmation& c) override
    {
        asked.push_back({c.provider, c.order.quote, c.quoteProblem, c.mostBeforeDeadman});
        return m_answer;
    }

    struct Asked
    {
        std::string provider;
        std::optional<PriceQuote> quote;
        std::optional<Error> quoteProblem;
        std::optional<double> mostBeforeDeadman;
    };
    std::vector<Asked> asked;

private:
    bool m_answer;
};

class TestLauncher : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_files = 0;

    /// Another handle on the ledger file of `ledger`, as a second process has it.
    static std::unique_ptr<Ledger> secondHandle(const QString& file)
    {
        Result<std::unique_ptr<Ledger>> l = Ledger::open(file.toStdString());
        if (!l) {
            qFatal("%s", describe(l.error()).c_str());
        }
        return std::move(l).value();
    }

    QString nextFile() { return m_dir.filePath(QStringLiteral("ledger-%1.sqlite").arg(++m_files)); }

    std::unique_ptr<Ledger> freshLedger()
    {
        Result<std::unique_ptr<Ledger>> l =
            Ledger::open(m_dir.filePath(QStringLiteral("ledger-%1.sqlite").arg(++m_files)).toStdString());
        if (!l) {
            qFatal("%s", describe(l.error()).c_str());
        }
        return std::move(l).value();
    }

private slots:
    void theIntentIsRecordedBeforeTheRequestGoesOut()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        std::int64_t clock = kT0;
        Launcher launcher(provider, *ledger, [&] { return clock++; });
        std::vector<LaunchStep> steps;
        Result<LaunchOutcome> out = launcher.launch(
            order(),
            LaunchWaitOptions{
                LaunchWait::Running, std::chrono::seconds(60), std::chrono::seconds(60), std::chrono::seconds(1), 22},
            nullptr,
            [&](const LaunchProgress& p) { steps.push_back(p.step); });
        QVERIFY2(out.ok(), out.ok() ? "" : describe(out.error()).c_str());

        QCOMPARE(provider.launches.size(), std::size_t(1));
        const std::vector<LedgerEntry>& during = provider.ledgerDuringLaunch.front();
        QCOMPARE(during.size(), std::size_t(1));
        QCOMPARE(during[0].state, InstanceState::Requested);
        QCOMPARE(during[0].intent.clientToken, provider.launches[0].clientToken);
        QVERIFY(QByteArray::fromStdString(during[0].intent.clientToken).startsWith("gpuplan-"));
        QCOMPARE(during[0].intent.zone, std::string("us-east-1a"));
        QCOMPARE(during[0].intent.price.amount, 3.06);
        QCOMPARE(during[0].intent.deadmanHours, 10.0);

        QCOMPARE(out->entry.state, InstanceState::Running);
        QCOMPARE(out->entry.instanceId, std::string("i-1"));
        QVERIFY(out->entry.runningSince.has_value());
        QCOMPARE(out->instance.publicIp, std::string("127.0.0.1"));
        const std::vector<LaunchStep> expected{
            LaunchStep::Recorded, LaunchStep::Sending, LaunchStep::Replied, LaunchStep::Pending, LaunchStep::Running};
        QCOMPARE(steps, expected);
    }

    // Issue 23: the launch both front ends run (core::confirmAndLaunch). The user sees the price, the provider's
    // price now (or why it could not be asked) and the worst case before anything is recorded or sent; a no, or a
    // cancel before the answer, sends nothing.
    void aLaunchIsConfirmedBeforeAnythingIsSent()
    {
        const LaunchWaitOptions wait{
            LaunchWait::Running, std::chrono::seconds(60), std::chrono::seconds(60), std::chrono::seconds(1), 22};
        {
            auto ledger = freshLedger();
            ScriptedProvider provider(ledger.get());
            provider.quote =
                std::optional<PriceQuote>(PriceQuote{3.2, Currency::USD, PriceUnit::Hour, "EC2 test", kT0});
            AnsweringPrompter no(false);
            Result<LaunchOutcome> out = confirmAndLaunch(order(), provider, *ledger, wait, no, nullptr, {}, kT0);
            QVERIFY(!out);
            QCOMPARE(out.error().code, ErrorCode::Cancelled);
            QCOMPARE(no.asked.size(), std::size_t(1));
            QCOMPARE(no.asked[0].provider, std::string("aws"));
            QVERIFY(no.asked[0].quote && no.asked[0].quote->amount == 3.2);
            QVERIFY(!no.asked[0].quoteProblem);
            QVERIFY(no.asked[0].mostBeforeDeadman && *no.asked[0].mostBeforeDeadman > 0); // 10 h at 3.06 USD
            QVERIFY(provider.launches.empty());
            QVERIFY(ledger->entries()->empty()); // not even an intent
        }
        {
            auto ledger = freshLedger();
            ScriptedProvider provider(ledger.get());
            provider.quote =
                Error{ErrorCode::Throttled, Reason{"error.test.scripted", {{"said", "slow down"}}}, "pricing"};
            AnsweringPrompter yes(true);
            Result<LaunchOutcome> out = confirmAndLaunch(order(), provider, *ledger, wait, yes, nullptr, {}, kT0);
            QVERIFY2(out.ok(), out.ok() ? "" : describe(out.error()).c_str());
            QCOMPARE(yes.asked.size(), std::size_t(1));
            QVERIFY(yes.asked[0].quoteProblem && yes.asked[0].quoteProblem->code == ErrorCode::Throttled);
            QCOMPARE(provider.launches.size(), std::size_t(1));
            QVERIFY(!out->entry.intent.quote); // the catalog's price alone
        }
        {
            auto ledger = freshLedger();
            ScriptedProvider provider(ledger.get());
            AnsweringPrompter yes(true);
            CancelToken cancelled;
            cancelled.cancel();
            Result<LaunchOutcome> out = confirmAndLaunch(order(), provider, *ledger, wait, yes, &cancelled, {}, kT0);
            QVERIFY(!out);
            QCOMPARE(out.error().code, ErrorCode::Cancelled);
            QVERIFY(yes.asked.empty());
            QCOMPARE(provider.quotesAsked, 0);
            QVERIFY(provider.launches.empty());
        }
    }

    void aZoneWithoutCapacityGivesWayToTheNext()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        provider.refusedZones = {"us-east-1a", "us-east-1b"};
        Launcher launcher(provider, *ledger, [] { return kT0; });
        Result<LaunchOutcome> out = launcher.launch(order(), noWait(), nullptr);
        QVERIFY2(out.ok(), out.ok() ? "" : describe(out.error()).c_str());
        QCOMPARE(out->zonesTried, (std::vector<std::string>{"us-east-1a", "us-east-1b", "us-east-1c"}));
        QCOMPARE(out->instance.zone, std::string("us-east-1c"));
        // Each attempt has its own token (the same token with another zone would be a parameter mismatch).
        QCOMPARE(provider.launches.size(), std::size_t(3));
        QVERIFY(provider.launches[0].clientToken != provider.launches[1].clientToken);
        Result<std::vector<LedgerEntry>> all = ledger->entries();
        QCOMPARE(all->size(), std::size_t(3));
        int failed = 0;
        for (const LedgerEntry& e : *all) {
            failed += e.state == InstanceState::Failed ? 1 : 0;
        }
        QCOMPARE(failed, 2);
        QCOMPARE(provider.remote.size(), std::size_t(1));
    }

    void noZoneWithCapacityNamesTheZonesAndDoesNotSwitchRegion()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        provider.refusedZones = {"us-east-1a", "us-east-1b", "us-east-1c"};
        Launcher launcher(provider, *ledger, [] { return kT0; });
        Result<LaunchOutcome> out = launcher.launch(order(), noWait(), nullptr);
        QVERIFY(!out.ok());
        QCOMPARE(out.error().code, ErrorCode::InsufficientCapacity);
        QVERIFY2(out.error().reason.key == "error.launch.no_capacity_anywhere", describe(out.error()).c_str());
        QCOMPARE(out.error().reason.params.at("zones"), std::string("us-east-1a, us-east-1b, us-east-1c"));
        QCOMPARE(out.error().reason.params.at("region"), std::string("us-east-1"));
        for (const LaunchRequest& r : provider.launches) {
            QCOMPARE(r.region, std::string("us-east-1"));
        }
        QCOMPARE(ledger->live()->size(), std::size_t(0));
    }

    void anInterruptedAttemptIsResentWithItsToken_data()
    {
        QTest::addColumn<bool>("wasSent");
        QTest::newRow("killed before the request went out") << false;
        QTest::newRow("killed after it went out") << true;
    }

    void anInterruptedAttemptIsResentWithItsToken()
    {
        QFETCH(bool, wasSent);
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        // What an earlier process left: the intent, maybe marked requested and accepted by the provider.
        const LaunchIntent earlier = interruptedIntent();
        Result<std::int64_t> id = ledger->recordIntent(earlier, kT0);
        QVERIFY(id.ok());
        if (wasSent) {
            QVERIFY(ledger->markRequested(*id).ok());
            LaunchRequest sent;
            sent.region = "us-east-1";
            sent.zone = "us-east-1b";
            sent.clientToken = earlier.clientToken;
            provider.accept(sent);
        }
        Launcher launcher(provider, *ledger, [] { return kT0 + 60; });
        Result<LaunchOutcome> out = launcher.launch(order(), noWait(), nullptr);
        QVERIFY2(out.ok(), out.ok() ? "" : describe(out.error()).c_str());
        QVERIFY(out->resumed);
        QCOMPARE(out->entry.id, *id);
        QCOMPARE(provider.launches.front().clientToken, std::string("gpuplan-interrupted"));
        QCOMPARE(provider.launches.front().zone, std::string("us-east-1b"));
        QCOMPARE(provider.remote.size(), std::size_t(1)); // one instance, not two
        QCOMPARE(ledger->entries()->size(), std::size_t(1));
        QCOMPARE(out->entry.instanceId, provider.remote.front().instanceId);
    }

    void theProviderTimerCountsFromTheRecordedAttempt()
    {
        // A provider-side terminate time is part of the request: a resumed attempt must send the one it sent
        // before, or the provider refuses the reused client token ("used with other parameters").
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        LaunchOrder timed = order();
        timed.request.terminateAt = 1; // asks for the provider's timer; the launcher sets the time
        const LaunchIntent earlier = interruptedIntent();
        QVERIFY(ledger->recordIntent(earlier, kT0).ok());
        Launcher later(provider, *ledger, [] { return kT0 + 75; });
        Result<LaunchOutcome> resumed = later.launch(timed, noWait(), nullptr);
        QVERIFY2(resumed.ok(), resumed.ok() ? "" : describe(resumed.error()).c_str());
        QVERIFY(resumed->resumed);
        QCOMPARE(provider.launches.back().terminateAt, kT0 + 10 * 3600);

        Launcher fresh(provider, *ledger, [] { return kT0 + 500; });
        Result<LaunchOutcome> next = fresh.launch(timed, noWait(), nullptr);
        QVERIFY2(next.ok(), next.ok() ? "" : describe(next.error()).c_str());
        QVERIFY(!next->resumed);
        QCOMPARE(provider.launches.back().terminateAt, kT0 + 500 + 10 * 3600);
    }

    void aLaunchWithOtherParametersIsNotAResumption()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        LaunchIntent earlier;
        earlier.provider = "aws";
        earlier.region = "us-east-1";
        earlier.instanceType = "g5.xlarge"; // another type
        earlier.pricingMode = "on_demand";
        earlier.planId = "plan-1";
        earlier.clientToken = "gpuplan-other";
        QVERIFY(ledger->recordIntent(earlier, kT0).ok());
        Launcher launcher(provider, *ledger, [] { return kT0; });
        Result<LaunchOutcome> out = launcher.launch(order(), noWait(), nullptr);
        QVERIFY(out.ok());
        QVERIFY(!out->resumed);
        QVERIFY(provider.launches.front().clientToken != "gpuplan-other");
    }

    void aLostAnswerIsFoundByItsToken()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        provider.dropNext = 1;
        Launcher launcher(provider, *ledger, [] { return kT0; });
        Result<LaunchOutcome> out = launcher.launch(order(), noWait(), nullptr);
        QVERIFY2(out.ok(), out.ok() ? "" : describe(out.error()).c_str());
        QCOMPARE(out->entry.instanceId, std::string("i-1"));
        QCOMPARE(provider.remote.size(), std::size_t(1));
    }

    void anUnknownOutcomeStaysRequestedAndSaysSo()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        provider.dropNext = 1;
        provider.failListing = true;
        Launcher launcher(provider, *ledger, [] { return kT0; });
        Result<LaunchOutcome> out = launcher.launch(order(), noWait(), nullptr);
        QVERIFY(!out.ok());
        QCOMPARE(out.error().code, ErrorCode::Network);
        // The transport's error stays whole, said as an unknown outcome (worded with the advice to reconcile).
        QVERIFY2(out.error().reason.key == "error.launch.outcome_unknown", describe(out.error()).c_str());
        QCOMPARE(out.error().reason.params.at("provider"), provider.id());
        QCOMPARE(readDetailJson(out.error().reason.params.at("error")).params.at("said"),
                 std::string("connection reset"));
        Result<std::vector<LedgerEntry>> all = ledger->entries();
        QCOMPARE(all->size(), std::size_t(1));
        QCOMPARE(all->front().state, InstanceState::Requested);
        QCOMPARE(all->front().detail.key, std::string("ledger.outcome_unknown"));

        // Later the provider answers again: reconciliation finds the instance by its token.
        provider.failListing = false;
        Result<Reconciliation> r = launcher.reconcile({}, nullptr);
        QVERIFY(r.ok());
        QCOMPARE(ledger->find(all->front().id)->value().instanceId, std::string("i-1"));
    }

    void theBudgetGuardWarnsAndRefuses()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        Launcher launcher(provider, *ledger, [] { return kT0; });
        LaunchOrder o = order();
        o.budgetCurrency = Currency::USD;
        // 10 h of dead-man at 3.06 USD: 30.60 USD until the dead-man fires.
        o.budget = 36;
        Result<LaunchOutcome> first = launcher.launch(o, noWait(), nullptr);
        QVERIFY(first.ok());
        QVERIFY(first->budget.has_value());
        QCOMPARE(first->budget->level, BudgetLevel::Warn); // 30.60 of 36 is 85 %
        Result<LaunchOutcome> second = launcher.launch(o, noWait(), nullptr);
        QVERIFY(!second.ok());
        QCOMPARE(second.error().code, ErrorCode::BudgetExceeded);
        QVERIFY2(second.error().reason.key == "error.launch.over_budget", describe(second.error()).c_str());
        QCOMPARE(std::stod(second.error().reason.params.at("budget")), 36.0);
        QCOMPARE(second.error().reason.params.at("currency"), std::string("USD"));
        QVERIFY(std::stod(second.error().reason.params.at("outlook")) >= 36.0);
        QCOMPARE(provider.launches.size(), std::size_t(1)); // the refused one never reached the provider
        QCOMPARE(ledger->entries()->size(), std::size_t(1));
        Result<std::vector<PlanBudget>> kept = ledger->budgets();
        QCOMPARE(kept->size(), std::size_t(1));
        QCOMPARE(kept->front().planId, std::string("plan-1"));
        QCOMPARE(kept->front().amount, 36.0);
        QVERIFY(!kept->front().autoTerminate);
    }

    void aDryRunLeavesTheLedgerAlone()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        Launcher launcher(provider, *ledger, [] { return kT0; });
        LaunchOrder o = order();
        o.request.dryRun = true;
        Result<LaunchOutcome> out = launcher.launch(o, noWait(), nullptr);
        QVERIFY(out.ok());
        QVERIFY(out->dryRunPassed);
        QCOMPARE(ledger->entries()->size(), std::size_t(0));
        QVERIFY(provider.remote.empty());
    }

    void reconcileLooksAtEveryRegionTheLedgerHas()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        Launcher launcher(provider, *ledger, [] { return kT0; });
        LaunchOrder west = order();
        west.request.region = "us-west-2";
        QVERIFY(launcher.launch(west, noWait(), nullptr).ok());
        QVERIFY(launcher.launch(order(), noWait(), nullptr).ok());
        provider.listedRegions.clear();
        QVERIFY(launcher.reconcile({"eu-west-1"}, nullptr).ok());
        std::sort(provider.listedRegions.begin(), provider.listedRegions.end());
        QCOMPARE(provider.listedRegions, (std::vector<std::string>{"eu-west-1", "us-east-1", "us-west-2"}));

        // Terminated outside the app: the entry is closed.
        provider.remote.front().state = InstanceState::Terminated;
        Result<Reconciliation> r = launcher.reconcile({}, nullptr);
        QVERIFY(r.ok());
        QCOMPARE(r->closed.size(), std::size_t(1));
        QCOMPARE(ledger->live()->size(), std::size_t(1));

        // One region that cannot be listed: nothing is closed on half the picture.
        provider.failListing = true;
        QVERIFY(!launcher.reconcile({}, nullptr).ok());
        QCOMPARE(ledger->live()->size(), std::size_t(1));
    }

    void terminateAsksTheProviderAndRecordsIt()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        Launcher launcher(provider, *ledger, [] { return kT0 + 100; });
        Result<LaunchOutcome> out = launcher.launch(order(), noWait(), nullptr);
        QVERIFY(out.ok());
        QVERIFY(launcher.terminate(out->entry.id, nullptr).ok());
        QCOMPARE(provider.terminated, std::vector<std::string>{"i-1"});
        QCOMPARE(ledger->find(out->entry.id)->value().state, InstanceState::Terminated);
        QVERIFY(!launcher.terminate(999, nullptr).ok());
    }

    void notFoundSoonAfterLaunchIsPending()
    {
        // EC2: "If you describe an instance immediately after launching it, you might get
        // InvalidInstanceID.NotFound"; CVM answers an empty set the same way.
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        provider.invisibleDescribes = 2;
        Launcher launcher(provider, *ledger, [] { return kT0; });
        LaunchWaitOptions wait{
            LaunchWait::Running, std::chrono::seconds(60), std::chrono::seconds(60), std::chrono::seconds(1), 22};
        Result<LaunchOutcome> out = launcher.launch(order(), wait, nullptr);
        QVERIFY2(out.ok(), out.ok() ? "" : describe(out.error()).c_str());
        QCOMPARE(out->entry.state, InstanceState::Running);
        QCOMPARE(provider.remote.size(), std::size_t(1));
    }

    void aNotFoundTerminateIsConfirmedByDescribe()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        std::int64_t clock = kT0;
        Launcher launcher(provider, *ledger, [&] { return clock; });
        Result<LaunchOutcome> out = launcher.launch(order(), noWait(), nullptr);
        QVERIFY(out.ok());
        // Moments after the launch the provider does not see it yet: TerminateInstances and DescribeInstances both
        // answer NotFound, and the instance goes on to run and bill.
        provider.hidden.insert("i-1");
        clock += 5;
        Status ended = launcher.terminate(out->entry.id, nullptr);
        QVERIFY(!ended.ok());
        LedgerEntry e = **ledger->find(out->entry.id);
        QVERIFY2(!isFinal(e.state), instanceStateName(e.state));
        QVERIFY(!e.endedAt.has_value());

        // Once it is visible, terminating it is confirmed by what describe shows.
        provider.hidden.clear();
        clock += 30;
        QVERIFY(launcher.terminate(out->entry.id, nullptr).ok());
        QCOMPARE(provider.remote.front().state, InstanceState::Terminated);
        QCOMPARE((*ledger->find(out->entry.id))->state, InstanceState::Terminated);
    }

    void aClosedEntryThatShowsUpIsReopened()
    {
        // A request whose answer was lost, and whose instance the listing does not show for a long while: closed
        // after the grace period. Its region is still listed, so when the instance shows up it is found again.
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        std::int64_t clock = kT0;
        Launcher launcher(provider, *ledger, [&] { return clock; });
        LaunchOrder west = order();
        west.request.region = "us-west-2";
        provider.dropNext = 1;
        provider.failListing = true;
        QVERIFY(!launcher.launch(west, noWait(), nullptr).ok());
        provider.failListing = false;
        provider.hidden.insert("i-1");
        clock += 2 * 3600;
        QVERIFY(launcher.reconcile({}, nullptr).ok());
        const std::int64_t id = ledger->entries()->front().id;
        QVERIFY(isFinal((*ledger->find(id))->state));

        provider.hidden.clear();
        provider.listedRegions.clear();
        clock += 60;
        Result<Reconciliation> r = launcher.reconcile({}, nullptr);
        QVERIFY(r.ok());
        QCOMPARE(provider.listedRegions, std::vector<std::string>{"us-west-2"});
        LedgerEntry e = **ledger->find(id);
        QCOMPARE(e.instanceId, std::string("i-1"));
        QVERIFY(!isFinal(e.state));
        QVERIFY(!e.endedAt.has_value());
        QCOMPARE(ledger->live()->size(), std::size_t(1));
    }

    // Issue 20, finding 10: an instance of ours that reconcile adopts is costed at the catalog's price for its
    // provider, region, type and pricing mode; without one its price stays unknown, and the notes say so.
    void anAdoptedInstanceIsCostedFromTheCatalog()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        Launcher launcher(provider, *ledger, [] { return kT0; });
        QVERIFY(launcher.launch(order(), noWait(), nullptr).ok()); // so that us-east-1 is listed
        const auto adopt = [&](const std::string& id, const std::string& mode) {
            RemoteInstance r;
            r.instanceId = id;
            r.clientToken = "gpuplan-" + id;
            r.state = InstanceState::Running;
            r.region = "us-east-1";
            r.instanceType = "p3.2xlarge";
            r.launchedAt = kT0;
            r.pricingMode = mode;
            provider.remote.push_back(r);
        };
        adopt("i-on-demand", "on_demand");
        adopt("i-spot", "spot"); // the catalog below has no spot price
        adopt("i-prepaid", "");  // the provider does not say how it is paid for
        Offer offer;
        offer.providerId = "aws";
        offer.instanceType = "p3.2xlarge";
        offer.billing = Billing{Billing::Granularity::Second, 60};
        Price price;
        price.region = "us-east-1";
        price.amount = 3.06;
        offer.prices.push_back(price);
        Catalog catalog;
        catalog.addOffer(offer);

        Result<std::vector<Reason>> notes = reconcileWithProvider(provider, *ledger, &catalog, kT0 + 3600);
        QVERIFY2(notes.ok(), notes.ok() ? "" : describe(notes.error()).c_str());
        std::string all;
        for (const Reason& n : *notes) {
            all += detailJson(n) + "\n";
        }
        // The note of an entry with `key`, or none.
        const auto noteOf = [&](const char* key, std::int64_t entry) -> std::optional<Reason> {
            for (const Reason& n : *notes) {
                if (n.key == key && n.params.count("entry") && n.params.at("entry") == std::to_string(entry)) {
                    return n;
                }
            }
            return std::nullopt;
        };
        std::map<std::string, LedgerEntry> byInstance;
        const Result<std::vector<LedgerEntry>> entries = ledger->entries();
        for (const LedgerEntry& e : *entries) {
            byInstance[e.instanceId] = e;
        }
        const LedgerEntry& priced = byInstance.at("i-on-demand");
        QVERIFY(priced.adopted);
        QCOMPARE(priced.intent.pricingMode, std::string("on_demand"));
        QCOMPARE(priced.intent.price.amount, 3.06);
        QCOMPARE(priced.intent.price.currency, Currency::USD);
        QCOMPARE(costSoFar(priced, kT0 + 3600), 3.06); // an hour at the catalog's price, not 0
        const std::optional<Reason> costed = noteOf("reconcile.adopted_priced", priced.id);
        QVERIFY2(costed.has_value(), all.c_str());
        QCOMPARE(costed->params.at("instance"), std::string("i-on-demand"));
        QCOMPARE(costed->params.at("pricing_mode"), std::string("on_demand"));
        QCOMPARE(costed->params.at("instance_type"), std::string("p3.2xlarge"));
        QCOMPARE(costed->params.at("region"), std::string("us-east-1"));
        QCOMPARE(std::stod(costed->params.at("amount")), 3.06);
        QCOMPARE(costed->params.at("currency"), std::string("USD"));
        QCOMPARE(costed->params.at("unit"), std::string("hour"));
        QCOMPARE(priced.detail.key, std::string("ledger.adopted_priced")); // the entry says where its price is from
        // Unknown stays unknown, and says why.
        std::map<std::string, std::string> why;
        for (const char* unknown : {"i-spot", "i-prepaid"}) {
            const LedgerEntry& e = byInstance.at(unknown);
            QCOMPARE(e.intent.price.amount, 0.0);
            const std::optional<Reason> none = noteOf("reconcile.adopted_no_price", e.id);
            QVERIFY2(none.has_value(), all.c_str());
            QCOMPARE(none->params.at("instance"), std::string(unknown));
            why[unknown] = readDetailJson(none->params.at("error")).key;
        }
        QCOMPARE(why.at("i-spot"), std::string("error.cloud.no_catalog_price")); // the catalog has no spot price
        QCOMPARE(why.at("i-prepaid"), std::string("error.reconcile.payment_unknown"));

        // Without a catalog nothing is priced, and that is said once, when the instance is adopted.
        adopt("i-later", "on_demand");
        notes = reconcileWithProvider(provider, *ledger, nullptr, kT0 + 7200);
        QVERIFY(notes.ok());
        QCOMPARE(notes->size(), std::size_t(2)); // adopted; no price (no catalog)
        QCOMPARE(notes->front().key, std::string("reconcile.adopted"));
        QCOMPARE(notes->back().key, std::string("reconcile.adopted_no_price"));
        QCOMPARE(readDetailJson(notes->back().params.at("error")).key, std::string("error.reconcile.no_catalog"));
        notes = reconcileWithProvider(provider, *ledger, nullptr, kT0 + 7300);
        QVERIFY(notes.ok() && notes->empty());
    }

    // Issue 20, finding 7: the backstop of a dead-man whose watchdog failed (a hanging shutdown, an image without
    // cloud-init): reconcile terminates an instance still running kDeadmanBackstopSeconds after its dead-man.
    void reconcileTerminatesAnInstancePastItsDeadman()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        Launcher launcher(provider, *ledger, [] { return kT0; });
        LaunchOrder watched = order();
        watched.deadmanHours = 2;
        LaunchOrder unwatched = order();
        unwatched.deadmanHours = 0; // the dead-man is off: left alone whatever happens
        const std::int64_t watchedId = launcher.launch(watched, noWait(), nullptr)->entry.id;
        const std::int64_t unwatchedId = launcher.launch(unwatched, noWait(), nullptr)->entry.id;
        for (RemoteInstance& r : provider.remote) {
            r.state = InstanceState::Running;
        }
        QVERIFY(reconcileWithProvider(provider, *ledger, nullptr, kT0).ok()); // both run from kT0
        QCOMPARE((*ledger->find(watchedId))->runningSince, std::optional<std::int64_t>(kT0));

        // Past the dead-man, within the margin: the watchdog and the provider may still be ending it.
        const std::int64_t deadman = kT0 + 2 * 3600;
        Result<std::vector<Reason>> notes =
            reconcileWithProvider(provider, *ledger, nullptr, deadman + kDeadmanBackstopSeconds - 60);
        QVERIFY(notes.ok());
        QVERIFY(notes->empty());
        QVERIFY(provider.terminateCalls.empty());

        notes = reconcileWithProvider(provider, *ledger, nullptr, deadman + 45 * 60);
        QVERIFY(notes.ok());
        QCOMPARE(notes->size(), std::size_t(1));
        QVERIFY2(notes->front()
                     == (Reason{"reconcile.deadman_terminated",
                                {{"entry", std::to_string(watchedId)},
                                 {"instance", "i-1"},
                                 {"seconds", std::to_string(45 * 60)},
                                 {"stopped", "false"}}}),
                 detailJson(notes->front()).c_str());
        QCOMPARE(provider.terminateCalls, std::vector<std::string>{"i-1"});
        // Closed on the provider's word (describe shows it terminated), as every terminate is.
        QCOMPARE((*ledger->find(watchedId))->state, InstanceState::Terminated);
        QCOMPARE((*ledger->find(unwatchedId))->state, InstanceState::Running);

        // Days later the one without a dead-man still runs: never terminated by the backstop.
        notes = reconcileWithProvider(provider, *ledger, nullptr, kT0 + 30 * 86400);
        QVERIFY(notes.ok() && notes->empty());
        QCOMPARE(provider.terminateCalls, std::vector<std::string>{"i-1"});
    }

    void anUnknownOutcomeKeepsItsToken_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("httpStatus");
        QTest::addColumn<QString>("providerCode");
        QTest::newRow("HTTP 500 without a document") << int(ErrorCode::HttpStatus) << 500 << "";
        QTest::newRow("EC2 InternalError") << int(ErrorCode::ProviderRefused) << 500 << "InternalError";
        QTest::newRow("EC2 ServiceUnavailable") << int(ErrorCode::ProviderRefused) << 503 << "ServiceUnavailable";
        QTest::newRow("CVM InternalError") << int(ErrorCode::ProviderRefused) << 200 << "InternalError";
        QTest::newRow("CVM InternalError.Unknown") << int(ErrorCode::ProviderRefused) << 200 << "InternalError.Unknown";
        QTest::newRow("connection lost after sending") << int(ErrorCode::Network) << 0 << "";
    }

    void anUnknownOutcomeKeepsItsToken()
    {
        QFETCH(int, code);
        QFETCH(int, httpStatus);
        QFETCH(QString, providerCode);
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        std::int64_t clock = kT0;
        Launcher launcher(provider, *ledger, [&] { return clock; });
        provider.errorAfterAccept = Error{ErrorCode(code),
                                          Reason{"error.test.scripted", {{"said", "the server failed"}}},
                                          "ec2 RunInstances",
                                          httpStatus,
                                          providerCode.toStdString()};
        provider.hidden.insert("i-1"); // and the new instance is not listed yet
        Result<LaunchOutcome> first = launcher.launch(order(), noWait(), nullptr);
        QVERIFY(!first.ok());
        QCOMPARE(ledger->entries()->size(), std::size_t(1));
        QCOMPARE(ledger->entries()->front().state, InstanceState::Requested);

        // A reconcile in the meantime does not close it, and the retry sends the same token: one instance.
        clock += 30;
        QVERIFY(launcher.reconcile({}, nullptr).ok());
        QCOMPARE(ledger->entries()->front().state, InstanceState::Requested);
        provider.hidden.clear();
        Result<LaunchOutcome> again = launcher.launch(order(), noWait(), nullptr);
        QVERIFY2(again.ok(), again.ok() ? "" : describe(again.error()).c_str());
        QVERIFY(again->resumed);
        QCOMPARE(provider.launches.size(), std::size_t(2));
        QCOMPARE(provider.launches[1].clientToken, provider.launches[0].clientToken);
        QCOMPARE(provider.remote.size(), std::size_t(1));
        QCOMPARE(ledger->entries()->size(), std::size_t(1));
    }

    // Found by the fake-behaviour matrix: the outcome is unknown, then a reconcile (another process) finds the new
    // instance by its token before the user retries. The retry takes that instance: nothing is sent, nothing is
    // doubled. A later launch of the same, after that, is a new one.
    void aRetryAfterAReconcileFoundTheInstanceTakesIt()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        std::int64_t clock = kT0;
        Launcher launcher(provider, *ledger, [&] { return clock; });
        provider.errorAfterAccept = Error{ErrorCode::ProviderRefused,
                                          Reason{"error.test.scripted", {{"said", "the server failed"}}},
                                          "ec2",
                                          500,
                                          "InternalError"};
        provider.hidden.insert("i-1");
        QVERIFY(!launcher.launch(order(), noWait(), nullptr).ok());
        provider.hidden.clear();
        clock += 60;
        QVERIFY(launcher.reconcile({}, nullptr).ok());
        QCOMPARE(ledger->entries()->front().instanceId, std::string("i-1")); // found by its token
        Result<LaunchOutcome> again = launcher.launch(order(), noWait(), nullptr);
        QVERIFY2(again.ok(), again.ok() ? "" : describe(again.error()).c_str());
        QVERIFY(again->resumed);
        QCOMPARE(again->instance.instanceId, std::string("i-1"));
        QCOMPARE(provider.launches.size(), std::size_t(1)); // nothing sent again
        QCOMPARE(provider.remote.size(), std::size_t(1));
        QCOMPARE(ledger->entries()->size(), std::size_t(1));
        Result<LaunchOutcome> another = launcher.launch(order(), noWait(), nullptr);
        QVERIFY(another.ok() && !another->resumed);
        QCOMPARE(provider.remote.size(), std::size_t(2));
    }

    // Found by the fake-behaviour matrix in CI: the retry read the attempt whose outcome was unknown, and another
    // process's reconcile found its instance before the retry took the attempt over. The retry ends with that one
    // instance, not with "another process closed this launch before its request went out".
    void aReconcileDuringTheRetryLeavesItOneInstance()
    {
        const QString file = nextFile();
        auto mine = secondHandle(file);
        auto theirs = secondHandle(file);
        ScriptedProvider provider(mine.get());
        std::int64_t clock = kT0;
        Launcher launcher(provider, *mine, [&] { return clock; });
        Launcher otherProcess(provider, *theirs, [&] { return clock; });
        provider.errorAfterAccept = Error{ErrorCode::ProviderRefused,
                                          Reason{"error.test.scripted", {{"said", "the server failed"}}},
                                          "ec2",
                                          500,
                                          "InternalError"};
        provider.hidden.insert("i-1");
        QVERIFY(!launcher.launch(order(), noWait(), nullptr).ok());
        provider.hidden.clear(); // visible now: the next reconcile finds it by its token
        clock += 60;
        provider.whileListingZones = [&] { QVERIFY(otherProcess.reconcile({}, nullptr).ok()); };
        Result<LaunchOutcome> again = launcher.launch(order(), noWait(), nullptr);
        QVERIFY2(again.ok(), again.ok() ? "" : describe(again.error()).c_str());
        QVERIFY(again->resumed);
        QCOMPARE(again->instance.instanceId, std::string("i-1"));
        QCOMPARE(provider.remote.size(), std::size_t(1));
        QCOMPARE(mine->entries()->size(), std::size_t(1));
        QCOMPARE(mine->entries()->front().instanceId, std::string("i-1"));
    }

    // Issue 25: a provider without client tokens (Lambda, Paperspace). An attempt whose answer was lost is never
    // resent while its instance may still be unlisted; once listed under its token (its name) it is this launch's,
    // and nothing is sent; once it can no longer be invisible, the attempt is resent.
    void withoutClientTokensAnUnknownAttemptIsResentOnlyWhenItCannotBeThere()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        provider.takesClientToken = false;
        std::int64_t clock = kT0;
        Launcher launcher(provider, *ledger, [&] { return clock; });
        provider.errorAfterAccept = Error{
            ErrorCode::HttpStatus, Reason{"error.test.scripted", {{"said", "the server failed"}}}, "launch", 500, ""};
        provider.hidden.insert("i-1"); // created, and not listed yet
        QVERIFY(!launcher.launch(order(), noWait(), nullptr).ok());
        QCOMPARE(provider.launches.size(), std::size_t(1));

        clock += 60;
        Result<LaunchOutcome> tooSoon = launcher.launch(order(), noWait(), nullptr);
        QVERIFY(!tooSoon.ok());
        QVERIFY2(tooSoon.error().reason.key == "error.launch.resend_waits", describe(tooSoon.error()).c_str());
        QCOMPARE(tooSoon.error().reason.params.at("seconds"), std::to_string(kVisibilityGraceSeconds - 60));
        QCOMPARE(provider.launches.size(), std::size_t(1)); // nothing resent
        QCOMPARE(ledger->entries()->front().state, InstanceState::Requested);

        provider.hidden.clear(); // listed now, under its token
        Result<LaunchOutcome> listed = launcher.launch(order(), noWait(), nullptr);
        QVERIFY2(listed.ok(), listed.ok() ? "" : describe(listed.error()).c_str());
        QVERIFY(listed->resumed);
        QCOMPARE(listed->instance.instanceId, std::string("i-1"));
        QCOMPARE(provider.launches.size(), std::size_t(1)); // found, not sent
        QCOMPARE(ledger->entries()->size(), std::size_t(1));
    }

    void withoutClientTokensAnAttemptLongUnlistedIsResent()
    {
        auto ledger = freshLedger();
        ScriptedProvider provider(ledger.get());
        provider.takesClientToken = false;
        std::int64_t clock = kT0;
        Launcher launcher(provider, *ledger, [&] { return clock; });
        provider.dropNext = 1;         // the answer is lost...
        provider.hidden.insert("i-1"); // ...and the instance never shows (the request did not start one after all)
        QVERIFY(!launcher.launch(order(), noWait(), nullptr).ok());
        provider.remote.clear();
        provider.hidden.clear();
        clock += kVisibilityGraceSeconds + 1;
        Result<LaunchOutcome> resent = launcher.launch(order(), noWait(), nullptr);
        QVERIFY2(resent.ok(), resent.ok() ? "" : describe(resent.error()).c_str());
        QVERIFY(resent->resumed);
        QCOMPARE(provider.launches.size(), std::size_t(2));
        QCOMPARE(provider.launches[1].clientToken, provider.launches[0].clientToken);
        QCOMPARE(provider.remote.size(), std::size_t(1));
    }

    void twoResumersNeverBothProceed()
    {
        // Two processes (here two ledger handles on one file) pick up the same interrupted attempt: the second
        // one finds it taken over and sends nothing.
        const QString file = nextFile();
        auto first = secondHandle(file);
        auto second = secondHandle(file);
        const LaunchIntent earlier = interruptedIntent();
        QVERIFY(first->recordIntent(earlier, kT0).ok());

        ScriptedProvider providerA(first.get());
        ScriptedProvider providerB(second.get());
        Launcher a(providerA, *first, [] { return kT0 + 60; });
        Launcher b(providerB, *second, [] { return kT0 + 61; });
        Result<LaunchOutcome> fromB =
            Error{ErrorCode::InvalidArgument, Reason{"error.test.scripted", {{"said", "not run"}}}, ""};
        providerA.whileSending = [&] { fromB = b.launch(order(), noWait(), nullptr); };
        Result<LaunchOutcome> fromA = a.launch(order(), noWait(), nullptr);
        QVERIFY2(fromA.ok(), fromA.ok() ? "" : describe(fromA.error()).c_str());
        QVERIFY(fromA->resumed);
        QVERIFY(!fromB.ok());
        QVERIFY2(fromB.error().reason.key == "error.ledger.attempt_busy", describe(fromB.error()).c_str());
        QVERIFY(providerB.launches.empty());
        QCOMPARE(first->entries()->size(), std::size_t(1));
    }

    void theBudgetCheckAndTheIntentAreOneTransaction()
    {
        // Two processes launch under one plan's budget that has room for one: between one's check and its intent
        // the other launches; the first must see it.
        const QString file = nextFile();
        auto first = secondHandle(file);
        auto second = secondHandle(file);
        ScriptedProvider providerA(first.get());
        ScriptedProvider providerB(second.get());
        Launcher a(providerA, *first, [] { return kT0; });
        Launcher b(providerB, *second, [] { return kT0; });
        LaunchOrder o = order();
        o.budgetCurrency = Currency::USD;
        o.budget = 36; // one launch until its dead-man is 30.60 USD
        Result<LaunchOutcome> fromB =
            Error{ErrorCode::InvalidArgument, Reason{"error.test.scripted", {{"said", "not run"}}}, ""};
        providerA.whileListingZones = [&] { fromB = b.launch(o, noWait(), nullptr); };
        Result<LaunchOutcome> fromA = a.launch(o, noWait(), nullptr);
        QVERIFY2(fromB.ok(), fromB.ok() ? "" : describe(fromB.error()).c_str());
        QVERIFY(!fromA.ok());
        QCOMPARE(fromA.error().code, ErrorCode::BudgetExceeded);
        QVERIFY(providerA.launches.empty());
        QCOMPARE(first->entries()->size(), std::size_t(1));
    }

    void theWatchdogScriptGetsTheRules()
    {
        std::ifstream file(GPUPLAN_SOURCE_DIR "/resources/scripts/gpuplan-watchdog.sh");
        std::stringstream text;
        text << file.rdbuf();
        QVERIFY(!text.str().empty());
        Result<std::string> filled = watchdogUserData(text.str(), WatchdogRules{7, 45, 10, 30});
        QVERIFY2(filled.ok(), filled.ok() ? "" : describe(filled.error()).c_str());
        QVERIFY(filled->find(": \"${GPUPLAN_DEADMAN_HOURS:=7}\"") != std::string::npos);
        QVERIFY(filled->find(": \"${GPUPLAN_IDLE_MINUTES:=45}\"") != std::string::npos);
        QVERIFY(filled->find(": \"${GPUPLAN_IDLE_PERCENT:=10}\"") != std::string::npos);
        QVERIFY(filled->find(": \"${GPUPLAN_CHECK_SECONDS:=30}\"") != std::string::npos);
        QCOMPARE(filled->size(), text.str().size()); // 12->7, 60->45, 5->10, 60->30: as many digits
        QVERIFY(!watchdogUserData("#!/bin/sh\necho hi\n", WatchdogRules{}).ok());
        QVERIFY(!watchdogUserData(text.str(), WatchdogRules{1, 1, 0, 60}).ok());
        QVERIFY(!watchdogUserData(text.str(), WatchdogRules{-1, 1, 5, 60}).ok());
        QCOMPARE(defaultDeadmanHours(0), 12);
        QCOMPARE(defaultDeadmanHours(8), 11); // 8 × 1.25 + 1
        QCOMPARE(defaultDeadmanHours(8.1), 12);
    }
};

QTEST_GUILESS_MAIN(TestLauncher)
#include "TestLauncher.moc"
