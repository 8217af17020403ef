// The launch ledger on real SQLite files: intent before the request, state changes, cost from the price at launch,
// the budget guard, reconciliation with what a provider reports, and files that are not ledgers.
#include "gpuplan/ledger/Ledger.h"

#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <sqlite3.h>

using namespace gpuplan::core;

namespace {

constexpr std::int64_t kT0 = 1'796'000'000; // a fixed clock: 2026-11-30

LaunchIntent intent(const std::string& token, double pricePerHour = 3.06, const std::string& plan = "plan-a")
{
    LaunchIntent i;
    i.provider = "aws";
    i.region = "us-east-1";
    i.zone = "us-east-1a";
    i.instanceType = "p3.2xlarge";
    i.pricingMode = "on_demand";
    i.price = {pricePerHour, Currency::USD, PriceUnit::Hour, Billing{Billing::Granularity::Second, 60}, 0};
    i.planId = plan;
    i.clientToken = token;
    i.deadmanHours = 10;
    return i;
}

LedgerEntry running(double pricePerHour, std::int64_t since, std::optional<Billing> billing)
{
    LedgerEntry e;
    e.intent = intent("t", pricePerHour);
    e.intent.price.billing = billing;
    e.state = InstanceState::Running;
    e.runningSince = since;
    return e;
}

} // namespace

class TestLedger : public QObject
{
    Q_OBJECT

private slots:
    void init() { QVERIFY(m_dir.isValid()); }

    void intentIsRecordedBeforeAnythingAndSurvivesReopening()
    {
        const std::filesystem::path file = std::filesystem::path(m_dir.path().toStdString()) / "a" / "ledger.sqlite";
        std::int64_t id = 0;
        {
            auto opened = Ledger::open(file);
            QVERIFY2(opened.ok(), opened.ok() ? "" : describe(opened.error()).c_str());
            auto recorded = (*opened)->recordIntent(intent("tok-1"), kT0);
            QVERIFY(recorded.ok());
            id = *recorded;
            // The same token again is the same launch, not a second one.
            QCOMPARE(*(*opened)->recordIntent(intent("tok-1"), kT0 + 5), id);
            QVERIFY((*opened)->markRequested(id).ok());
        } // closed as a crash would leave it: every call above is already on disk
        auto reopened = Ledger::open(file);
        QVERIFY(reopened.ok());
        auto all = (*reopened)->entries();
        QVERIFY(all.ok());
        QCOMPARE(all->size(), std::size_t(1));
        const LedgerEntry& e = all->front();
        QCOMPARE(e.id, id);
        QCOMPARE(e.state, InstanceState::Requested);
        QCOMPARE(e.intent.clientToken, std::string("tok-1"));
        QCOMPARE(e.intent.price.amount, 3.06);
        QVERIFY(e.intent.price.billing.has_value());
        QCOMPARE(e.intent.price.billing->minimumSeconds, 60);
        QCOMPARE(e.intent.deadmanHours, 10.0);
        QCOMPARE(e.createdAt, kT0);
        QVERIFY(!e.runningSince.has_value());
        // A launch without a token is refused: without it a retry could launch twice.
        LaunchIntent untokened = intent("");
        QVERIFY(!(*reopened)->recordIntent(untokened, kT0).ok());
    }

    void statesMoveAndCostAccruesFromThePriceAtLaunch()
    {
        auto ledger = Ledger::open(path("states.sqlite"));
        QVERIFY(ledger.ok());
        const std::int64_t id = *(*ledger)->recordIntent(intent("tok-2", 2.0), kT0);
        QVERIFY((*ledger)->markRequested(id).ok());
        QVERIFY((*ledger)->update(id, "i-0123", InstanceState::Pending, kT0 + 10).ok());
        QVERIFY((*ledger)->update(id, "", InstanceState::Running, kT0 + 70).ok());
        auto e = *(*ledger)->find(id);
        QVERIFY(e.has_value());
        QCOMPARE(e->instanceId, std::string("i-0123")); // kept when a later update does not name it
        QCOMPARE(*e->runningSince, kT0 + 70);
        QCOMPARE((*ledger)->live()->size(), std::size_t(1));
        // 90 minutes at 2 USD/h, billed per second.
        QCOMPARE(costSoFar(*e, kT0 + 70 + 5400), 3.0);
        // Until the dead-man (10 h from running): 20 USD.
        QCOMPARE(costUntilDeadman(*e, kT0 + 70 + 5400), 20.0);
        QVERIFY((*ledger)->update(id, "", InstanceState::Terminated, kT0 + 70 + 7200).ok());
        e = *(*ledger)->find(id);
        QCOMPARE(*e->endedAt, kT0 + 70 + 7200);
        QCOMPARE(costSoFar(*e, kT0 + 99999), 4.0); // stops at the end
        QCOMPARE(costUntilDeadman(*e, kT0 + 99999), 4.0);
        QVERIFY((*ledger)->live()->empty());
        // A refused launch bills nothing and says why.
        const std::int64_t refused = *(*ledger)->recordIntent(intent("tok-3"), kT0);
        const Reason why{"error.ec2.no_capacity", {{"said", "InsufficientInstanceCapacity"}, {"zone", "us-east-1a"}}};
        QVERIFY((*ledger)->markFailed(refused, why, kT0 + 3).ok());
        e = *(*ledger)->find(refused);
        QCOMPARE(e->state, InstanceState::Failed);
        QVERIFY2(e->detail == why, detailJson(e->detail).c_str());
        QCOMPARE(costSoFar(*e, kT0 + 9999), 0.0);
    }

    void billingRulesRoundAndSubscriptionsChargeTheirPeriod()
    {
        // Per hour: 61 minutes bill two hours.
        QCOMPARE(costSoFar(running(3.0, 0, Billing{Billing::Granularity::Hour, 0}), 61 * 60), 6.0);
        // Per minute with a one-minute minimum: 20 s bill one minute.
        QCOMPARE(costSoFar(running(60.0, 0, Billing{Billing::Granularity::Minute, 60}), 20), 1.0);
        // Unknown billing counts whole hours.
        QCOMPARE(costSoFar(running(1.0, 0, std::nullopt), 1), 1.0);
        // A monthly subscription prepaid for 3 months costs 3 months even after a day, and 4 after 3.5.
        LedgerEntry monthly = running(5000, 0, std::nullopt);
        monthly.intent.price.unit = PriceUnit::Month;
        monthly.intent.price.prepaidMonths = 3;
        QCOMPARE(costSoFar(monthly, 24 * 3600), 15000.0);
        QCOMPARE(costSoFar(monthly, std::int64_t(3.5 * 730 * 3600)), 20000.0);
        // Not running yet: nothing.
        LedgerEntry pending = running(3.0, 0, std::nullopt);
        pending.runningSince.reset();
        QCOMPARE(costSoFar(pending, 99999), 0.0);
    }

    void budgetWarnsAtEightyAndRefusesAtAHundredPercent()
    {
        ExchangeRate rate;
        rate.cnyPerUsd = 7.0;
        std::vector<LedgerEntry> entries{running(10.0, kT0, Billing{Billing::Granularity::Second, 0})};
        entries[0].intent.deadmanHours = 0;
        LedgerEntry otherPlan = entries[0];
        otherPlan.intent.planId = "plan-b";
        entries.push_back(otherPlan);
        // 2 h at 10 USD = 140 CNY of a 1000 CNY budget: fine; plan-b's spend does not count.
        BudgetCheck check = checkBudget(entries, "plan-a", 1000, Currency::CNY, rate, 0, kT0 + 7200);
        QCOMPARE(check.level, BudgetLevel::Ok);
        QCOMPARE(check.spent, 140.0);
        // A launch that would bring it to 800 CNY: warn. To 1000: refuse.
        QCOMPARE(checkBudget(entries, "plan-a", 1000, Currency::CNY, rate, 660, kT0 + 7200).level, BudgetLevel::Warn);
        QCOMPARE(checkBudget(entries, "plan-a", 1000, Currency::CNY, rate, 859.99, kT0 + 7200).level,
                 BudgetLevel::Warn);
        QCOMPARE(checkBudget(entries, "plan-a", 1000, Currency::CNY, rate, 860, kT0 + 7200).level, BudgetLevel::Refuse);
        // A live instance counts until its dead-man fires: 10 h at 10 USD = 700 CNY committed already.
        entries[0].intent.deadmanHours = 10;
        check = checkBudget(entries, "plan-a", 1000, Currency::CNY, rate, 100, kT0 + 7200);
        QCOMPARE(check.committed, 700.0);
        QCOMPARE(check.level, BudgetLevel::Warn);
    }

    void reconcileAdoptsClosesAndNeverDoubles()
    {
        auto ledger = Ledger::open(path("reconcile.sqlite"));
        QVERIFY(ledger.ok());
        Ledger& l = **ledger;
        const std::int64_t neverSent = *l.recordIntent(intent("tok-never"), kT0);
        const std::int64_t sentNoReply = *l.recordIntent(intent("tok-sent"), kT0);
        QVERIFY(l.markRequested(sentNoReply).ok());
        const std::int64_t gone = *l.recordIntent(intent("tok-gone"), kT0);
        QVERIFY(l.update(gone, "i-gone", InstanceState::Running, kT0 + 60).ok());
        LaunchIntent tencent = intent("tok-tencent");
        tencent.provider = "tencent";
        const std::int64_t otherProvider = *l.recordIntent(tencent, kT0);
        QVERIFY(l.update(otherProvider, "ins-1", InstanceState::Running, kT0 + 60).ok());

        // AWS reports: the one whose reply was lost (by its token), and one of ours nobody recorded.
        std::vector<RemoteInstance> remote{
            {"i-sent", "tok-sent", InstanceState::Running, "us-east-1", "p3.2xlarge", kT0 + 30},
            {"i-stray", "", InstanceState::Running, "us-west-2", "g5.xlarge", kT0 + 40},
        };
        auto done = l.reconcile("aws", remote, kT0 + 600);
        QVERIFY(done.ok());
        QCOMPARE(done->updated, std::vector<std::int64_t>{sentNoReply});
        QCOMPARE(done->closed, (std::vector<std::int64_t>{neverSent, gone}));
        QCOMPARE(done->adopted.size(), std::size_t(1));

        QCOMPARE((*l.find(neverSent))->state, InstanceState::Failed);
        const LedgerEntry sent = **l.find(sentNoReply);
        QCOMPARE(sent.state, InstanceState::Running);
        QCOMPARE(sent.instanceId, std::string("i-sent"));
        QCOMPARE((*l.find(gone))->state, InstanceState::Terminated);
        QCOMPARE((*l.find(otherProvider))->state, InstanceState::Running); // another provider's: untouched
        const LedgerEntry stray = **l.find(done->adopted.front());
        QVERIFY(stray.adopted);
        QCOMPARE(stray.instanceId, std::string("i-stray"));
        QCOMPARE(stray.intent.region, std::string("us-west-2"));
        QCOMPARE(stray.state, InstanceState::Running);

        // Reconciling again changes nothing: exactly one entry per instance.
        auto again = l.reconcile("aws", remote, kT0 + 700);
        QVERIFY(again.ok());
        QVERIFY(again->adopted.empty() && again->closed.empty() && again->updated.empty());
        QCOMPARE(l.entries()->size(), std::size_t(5));
    }

    void anUnseenRequestIsClosedOnlyAfterItsGrace()
    {
        // EC2 and CVM may not list an instance for a while after RunInstances accepted it (eventual consistency):
        // a listing without it, moments after the request, proves nothing.
        auto ledger = Ledger::open(path("unseen.sqlite"));
        QVERIFY(ledger.ok());
        Ledger& l = **ledger;
        const std::int64_t id = *l.recordIntent(intent("tok-unseen"), kT0);
        QVERIFY(l.markRequested(id).ok());
        auto early = l.reconcile("aws", {}, kT0 + 60);
        QVERIFY(early.ok());
        QVERIFY(early->closed.empty());
        QCOMPARE((*l.find(id))->state, InstanceState::Requested);

        // Never seen long after the request: closed, saying that the outcome was never confirmed.
        auto late = l.reconcile("aws", {}, kT0 + 3600);
        QVERIFY(late.ok());
        QCOMPARE(late->closed, std::vector<std::int64_t>{id});
        LedgerEntry closed = **l.find(id);
        QVERIFY(isFinal(closed.state));
        QVERIFY(closed.endedAt.has_value());
        QCOMPARE(closed.detail.key, std::string("ledger.never_seen"));
        QCOMPARE(closed.detail.params.at("minutes"), std::to_string(kVisibilityGraceSeconds / 60));

        // It shows up after all: reopened, and it bills from when it runs.
        std::vector<RemoteInstance> remote{
            {"i-late", "tok-unseen", InstanceState::Running, "us-east-1", "p3.2xlarge", kT0 + 30}};
        auto found = l.reconcile("aws", remote, kT0 + 4000);
        QVERIFY(found.ok());
        QCOMPARE(found->updated, std::vector<std::int64_t>{id});
        LedgerEntry reopened = **l.find(id);
        QCOMPARE(reopened.state, InstanceState::Running);
        QCOMPARE(reopened.instanceId, std::string("i-late"));
        QVERIFY(!reopened.endedAt.has_value());
        QVERIFY(costSoFar(reopened, kT0 + 4000 + 3600) > 0);
        QCOMPARE(reopened.detail.key, std::string("ledger.reopened"));
        QCOMPARE(reopened.detail.params.at("provider"), std::string("aws"));
        QCOMPARE(reopened.detail.params.at("state"), std::string(instanceStateName(InstanceState::Running)));
        QVERIFY2(readDetailJson(reopened.detail.params.at("earlier")) == closed.detail, // what it had said before
                 reopened.detail.params.at("earlier").c_str());
        QCOMPARE(l.live()->size(), std::size_t(1));
    }

    void aRequestClosedByAnotherProcessIsNotSent()
    {
        // Another process's reconcile found the intent unsent ("never sent") and closed it: marking it requested
        // now must fail, or the launch would go out for an entry the ledger no longer watches.
        auto ledger = Ledger::open(path("closed-before-sent.sqlite"));
        QVERIFY(ledger.ok());
        Ledger& l = **ledger;
        const std::int64_t id = *l.recordIntent(intent("tok-late"), kT0);
        QVERIFY(l.reconcile("aws", {}, kT0 + 1).ok());
        QCOMPARE((*l.find(id))->state, InstanceState::Failed);
        QVERIFY(!l.markRequested(id).ok());
        QCOMPARE((*l.find(id))->state, InstanceState::Failed);
    }

    void leavingAFinalStateClearsItsEnd()
    {
        auto ledger = Ledger::open(path("reopen.sqlite"));
        QVERIFY(ledger.ok());
        Ledger& l = **ledger;
        const std::int64_t id = *l.recordIntent(intent("tok-reopen", 2.0), kT0);
        QVERIFY(l.update(id, "i-1", InstanceState::Running, kT0).ok());
        QVERIFY(l.update(id, "", InstanceState::Terminated, kT0 + 60).ok());
        QVERIFY(l.update(id, "", InstanceState::Running, kT0 + 120).ok()); // a stale answer had closed it
        LedgerEntry e = **l.find(id);
        QVERIFY(!e.endedAt.has_value());
        QCOMPARE(costSoFar(e, kT0 + 7200), 4.0); // 2 h at 2 USD, not the minute before the wrong close
        QCOMPARE(l.live()->size(), std::size_t(1));
    }

    // Finding 9: what runs where, under which account, is for its owner only: folder 0700, file 0600 (and SQLite's
    // -wal), whatever the umask; a ledger that an older version left readable is narrowed.
    void theLedgerIsPrivateWhateverTheUmask()
    {
        const std::filesystem::path dir = path("data") / "gpuplanner";
        const mode_t old = ::umask(022);
        {
            auto opened = Ledger::open(dir / "ledger.sqlite");
            QVERIFY(opened.ok());
            QVERIFY((*opened)->recordIntent(intent("tok-private"), kT0).ok());
            const auto mode = [](const std::filesystem::path& p) {
                struct stat st
                { };
                return ::stat(p.c_str(), &st) == 0 ? int(st.st_mode & 0777) : -1;
            };
            QCOMPARE(mode(dir), 0700);
            QCOMPARE(mode(dir / "ledger.sqlite"), 0600);
            QCOMPARE(mode(dir / "ledger.sqlite-wal"), 0600);
        }
        ::chmod(dir.c_str(), 0755);
        ::chmod((dir / "ledger.sqlite").c_str(), 0644);
        QVERIFY(Ledger::open(dir / "ledger.sqlite").ok());
        struct stat st
        { };
        QVERIFY(::stat((dir / "ledger.sqlite").c_str(), &st) == 0 && (st.st_mode & 0777) == 0600);
        QVERIFY(::stat(dir.c_str(), &st) == 0 && (st.st_mode & 0777) == 0700);
        ::umask(old);
    }

    void filesThatAreNotLedgersAreRefusedByName()
    {
        const std::filesystem::path text = path("notes.sqlite");
        std::ofstream(text) << "these are my notes, not a database\n";
        auto opened = Ledger::open(text);
        QVERIFY(!opened.ok());
        QCOMPARE(opened.error().code, ErrorCode::SchemaViolation);
        QCOMPARE(opened.error().reason.key, std::string("error.ledger.not_a_ledger"));
        QVERIFY(!opened.error().reason.params.at("said").empty()); // SQLite's own words
        QVERIFY(opened.error().where.find("notes.sqlite") != std::string::npos);

        const std::filesystem::path newer = path("newer.sqlite");
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(newer.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        auto future = Ledger::open(newer);
        QVERIFY(!future.ok());
        QCOMPARE(future.error().code, ErrorCode::SchemaViolation);
        QCOMPARE(future.error().reason.key, std::string("error.ledger.newer_version"));
        QCOMPARE(future.error().reason.params.at("version"), std::string("99"));
        QVERIFY(future.error().where.find("newer.sqlite") != std::string::npos);

        auto unwritable = Ledger::open("/proc/gpuplan-cannot-be-here/ledger.sqlite");
        QVERIFY(!unwritable.ok());
        QCOMPARE(unwritable.error().code, ErrorCode::FileUnreadable);
    }

    void budgetsAreKeptAndTheAutoTerminateGuardFindsWhatToEnd()
    {
        auto opened = Ledger::open(path("budgets.sqlite"));
        QVERIFY(opened.ok());
        Ledger& l = **opened;
        QVERIFY(l.setBudget(PlanBudget{"plan-a", 100, Currency::CNY, true}).ok());
        QVERIFY(l.setBudget(PlanBudget{"plan-b", 50, Currency::USD, false}).ok());
        QVERIFY(l.setBudget(PlanBudget{"plan-a", 200, Currency::CNY, true}).ok()); // replaces
        auto budgets = l.budgets();
        QCOMPARE(budgets->size(), std::size_t(2));
        QCOMPARE(budgets->front().amount, 200.0);

        ExchangeRate rate;
        rate.cnyPerUsd = 7.0;
        // plan-a: 3.06 USD/h is 21.42 CNY/h; 200 CNY is spent after 9.34 h.
        LedgerEntry a = running(3.06, kT0, Billing{Billing::Granularity::Second, 60});
        a.intent.planId = "plan-a";
        LedgerEntry b = running(3.06, kT0, Billing{Billing::Granularity::Second, 60});
        b.intent.planId = "plan-b"; // over its budget too, but without auto-terminate
        const std::vector<LedgerEntry> entries{a, b};
        QVERIFY(overBudget(entries, *budgets, rate, kT0 + 9 * 3600).empty());
        const std::vector<LedgerEntry> over = overBudget(entries, *budgets, rate, kT0 + 10 * 3600);
        QCOMPARE(over.size(), std::size_t(1));
        QCOMPARE(over.front().intent.planId, std::string("plan-a"));
    }

    void aVersionOneLedgerGainsBudgets()
    {
        const std::filesystem::path old = path("version1.sqlite");
        {
            auto opened = Ledger::open(old);
            QVERIFY((*opened)->recordIntent(intent("tok-v1"), kT0).ok());
        }
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(old.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "DROP TABLE budgets; PRAGMA user_version = 1", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        auto reopened = Ledger::open(old);
        QVERIFY2(reopened.ok(), reopened.ok() ? "" : describe(reopened.error()).c_str());
        QCOMPARE((*reopened)->entries()->size(), std::size_t(1));
        QVERIFY((*reopened)->setBudget(PlanBudget{"plan-a", 1, Currency::CNY, false}).ok());
    }

    void verificationsAreKeptWithTheirLaunch()
    {
        const std::filesystem::path file = path("verified.sqlite");
        std::int64_t launch = 0;
        {
            auto opened = Ledger::open(file);
            QVERIFY(opened.ok());
            launch = *(*opened)->recordIntent(intent("tok-verified"), kT0);
            const std::int64_t other = *(*opened)->recordIntent(intent("tok-other"), kT0);
            auto kept = (*opened)->recordVerification(
                {0, launch, kT0 + 300, "ubuntu@203.0.113.7", "warn", R"({"verdict":"warn"})", R"({"schema":"x"})"});
            QVERIFY2(kept.ok(), kept.ok() ? "" : describe(kept.error()).c_str());
            QVERIFY((*opened)->recordVerification({0, other, kT0 + 10, "root@h", "pass", "{}", "{}"}).ok());
            // A verification of a launch the ledger does not have is refused and says which.
            auto stray = (*opened)->recordVerification({0, 999, kT0, "root@h", "pass", "{}", "{}"});
            QVERIFY(!stray.ok());
            QCOMPARE(stray.error().code, ErrorCode::NotFound);
            QCOMPARE(stray.error().reason.key, std::string("error.ledger.no_launch_to_verify"));
            QCOMPARE(stray.error().reason.params.at("entry"), std::string("999"));
        }
        auto reopened = Ledger::open(file);
        auto mine = (*reopened)->verifications(launch);
        QVERIFY(mine.ok());
        QCOMPARE(mine->size(), std::size_t(1));
        QCOMPARE(mine->front().host, std::string("ubuntu@203.0.113.7"));
        QCOMPARE(mine->front().verdict, std::string("warn"));
        QCOMPARE(mine->front().at, kT0 + 300);
        QCOMPARE(mine->front().summary, std::string(R"({"verdict":"warn"})"));
        QCOMPARE(mine->front().probe, std::string(R"({"schema":"x"})"));
        auto all = (*reopened)->verifications();
        QCOMPARE(all->size(), std::size_t(2));
        QCOMPARE(all->front().host, std::string("root@h")); // oldest first
    }

    void aVersionTwoLedgerGainsVerifications()
    {
        const std::filesystem::path old = path("version2.sqlite");
        {
            auto opened = Ledger::open(old);
            QVERIFY((*opened)->recordIntent(intent("tok-v2"), kT0).ok());
        }
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(old.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "DROP TABLE verifications; PRAGMA user_version = 2", nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        auto reopened = Ledger::open(old);
        QVERIFY2(reopened.ok(), reopened.ok() ? "" : describe(reopened.error()).c_str());
        const std::int64_t id = (*reopened)->entries()->front().id;
        QVERIFY((*reopened)->recordVerification({0, id, kT0, "root@h", "fail", "{}", "{}"}).ok());
    }

    void aRunsAttemptsAreKeptOnceEachAndMoveWithTheirLaunch()
    {
        const std::filesystem::path file = path("attempts.sqlite");
        auto ledger = Ledger::open(file);
        QVERIFY(ledger.ok());
        const std::int64_t first = *(*ledger)->recordIntent(intent("tok-a1"), kT0);
        const std::int64_t refusedZone = *(*ledger)->recordIntent(intent("tok-a2"), kT0 + 100);
        const std::int64_t nextZone = *(*ledger)->recordIntent(intent("tok-a3"), kT0 + 110);
        RunRecord run;
        run.launchId = first;
        run.host = "ubuntu@203.0.113.7";
        run.remoteDir = "/r";
        run.startedAt = kT0;
        const std::int64_t runId = *(*ledger)->recordRun(run);
        RunAttempt a{.runId = runId, .number = 1, .launchId = first, .startedAt = kT0};
        const std::int64_t one = *(*ledger)->recordAttempt(a);
        QCOMPARE(*(*ledger)->recordAttempt(a), one); // recorded again after a crash: the same one
        a.id = one;
        a.end = "interrupted";
        a.noticeAt = kT0 + 50;
        a.deadlineAt = kT0 + 170;
        a.noticeKind = "termination";
        a.checkpointAt = kT0 + 60;
        QVERIFY((*ledger)->updateAttempt(a).ok());
        // The next attempt, recorded for a zone that refuses it, moves to the next zone's launch.
        const std::int64_t two = *(*ledger)->recordAttempt({.runId = runId, .number = 2, .launchId = refusedZone});
        QCOMPARE(*(*ledger)->recordAttempt({.runId = runId, .number = 2, .launchId = nextZone, .startedAt = kT0 + 110}),
                 two);
        auto attempts = (*ledger)->attempts(runId);
        QVERIFY(attempts.ok());
        QCOMPARE(attempts->size(), std::size_t{2});
        QCOMPARE(attempts->at(0).end, std::string("interrupted"));
        QCOMPARE(*attempts->at(0).checkpointAt, kT0 + 60);
        QCOMPARE(attempts->at(1).launchId, nextZone);
        QCOMPARE(attempts->at(1).startedAt, kT0 + 110);
        // A run the ledger does not have, an attempt it does not have.
        QCOMPARE((*ledger)->recordAttempt({.runId = 999, .number = 1}).error().reason.key,
                 std::string("error.ledger.no_run"));
        RunAttempt stray = attempts->at(1);
        stray.id = 4242;
        QCOMPARE((*ledger)->updateAttempt(stray).error().reason.key, std::string("error.ledger.no_attempt"));
        // A run's states: recovering is not final, interrupted is.
        QVERIFY(!isFinal(RunState::Recovering));
        QVERIFY(isFinal(RunState::Interrupted));
        QCOMPARE(parseRunState("recovering"), std::optional<RunState>(RunState::Recovering));

        // A ledger of version 7 gains the table when it is opened.
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(file.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "DROP TABLE run_attempts; PRAGMA user_version = 7", nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        auto reopened = Ledger::open(file);
        QVERIFY2(reopened.ok(), reopened.ok() ? "" : describe(reopened.error()).c_str());
        QVERIFY((*reopened)->attempts(runId)->empty());
        QVERIFY((*reopened)->recordAttempt({.runId = runId, .number = 1, .launchId = first}).ok());
    }

    void runsAreKeptWithTheirLaunch()
    {
        const std::filesystem::path file = path("runs.sqlite");
        auto ledger = Ledger::open(file);
        QVERIFY(ledger.ok());
        const std::int64_t launch = *(*ledger)->recordIntent(intent("tok-run"), kT0);
        RunRecord run;
        run.launchId = launch;
        run.host = "ubuntu@203.0.113.7";
        run.connection = R"({"user":"ubuntu","host":"203.0.113.7","port":22})";
        run.remoteDir = "/home/ubuntu/.gpuplanner/runs/x";
        run.spec = R"({"command":"python train.py"})";
        run.startedAt = kT0 + 60;
        run.planned.throughput = 1200;
        run.planned.throughputUnit = "samples";
        run.planned.hours = 5;
        const std::int64_t id = *(*ledger)->recordRun(run);
        QVERIFY(id > 0);
        // A launch the ledger does not have is refused; a machine not launched by GPU Planner (0) is not.
        RunRecord stray = run;
        stray.launchId = 999;
        auto refused = (*ledger)->recordRun(stray);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::NotFound);
        QCOMPARE(refused.error().reason.key, std::string("error.ledger.no_launch_to_run_on"));
        stray.launchId = 0;
        QVERIFY((*ledger)->recordRun(stray).ok());

        run.id = id;
        run.state = RunState::Finished;
        run.method = "tmux";
        run.endedAt = kT0 + 3660;
        run.exitCode = 0;
        run.measured.throughput = 1100.5;
        run.measured.throughputUnit = "samples";
        run.measured.hours = 1;
        run.measured.cost = 32.77;
        run.measured.costCurrency = "USD";
        QVERIFY((*ledger)->updateRun(run).ok());
        RunRecord missing = run;
        missing.id = 12345;
        QCOMPARE((*ledger)->updateRun(missing).error().reason.key, std::string("error.ledger.no_run"));

        auto reopened = Ledger::open(file); // another process's view
        auto kept = (*reopened)->findRun(id);
        QVERIFY(kept.ok() && kept->has_value());
        const RunRecord& r = **kept;
        QCOMPARE(r.state, RunState::Finished);
        QCOMPARE(r.method, std::string("tmux"));
        QCOMPARE(*r.exitCode, 0);
        QCOMPARE(*r.endedAt, kT0 + 3660);
        QVERIFY(!r.resultsAt.has_value());
        QCOMPARE(*r.measured.throughput, 1100.5);
        QCOMPARE(*r.measured.cost, 32.77);
        QCOMPARE(*r.planned.throughput, 1200.0);
        QCOMPARE(*r.planned.hours, 5.0);
        QVERIFY(!r.planned.cost.has_value());
        QCOMPARE(r.connection, run.connection);
        QCOMPARE((*reopened)->runs(launch)->size(), std::size_t(1));
        QCOMPARE((*reopened)->runs()->size(), std::size_t(2));
        QVERIFY(!(*(*reopened)->findRun(777)).has_value());
    }

    void aVersionSixLedgerGainsRuns()
    {
        const std::filesystem::path old = path("version6.sqlite");
        {
            auto opened = Ledger::open(old);
            QVERIFY((*opened)->recordIntent(intent("tok-v6"), kT0).ok());
        }
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(old.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db,
                              "DROP TABLE runs; ALTER TABLE launches DROP COLUMN address; PRAGMA user_version = 6",
                              nullptr,
                              nullptr,
                              nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        auto reopened = Ledger::open(old);
        QVERIFY2(reopened.ok(), reopened.ok() ? "" : describe(reopened.error()).c_str());
        QCOMPARE((*reopened)->entries()->size(), std::size_t(1));
        const std::int64_t launch = (*reopened)->entries()->front().id;
        QVERIFY((*reopened)->entries()->front().address.empty());
        QVERIFY((*reopened)->setAddress(launch, "203.0.113.7").ok());
        QCOMPARE((*(*reopened)->find(launch))->address, std::string("203.0.113.7"));
        RunRecord run;
        run.launchId = launch;
        run.host = "root@h";
        run.remoteDir = "/root/.gpuplanner/runs/y";
        QVERIFY((*reopened)->recordRun(run).ok());
    }

    void anAttemptBeingSentIsLeftAlone()
    {
        // Another process holds the attempt's lock (it is between recording and sending, or waiting for the
        // answer): a reconcile here does not close it, and nobody else can take it over.
        const std::filesystem::path file = path("in-progress.sqlite");
        auto sender = Ledger::open(file);
        auto other = Ledger::open(file);
        QVERIFY(sender.ok() && other.ok());
        auto lock = (*sender)->lockAttempt("tok-busy");
        QVERIFY(lock.ok());
        const std::int64_t id = *(*sender)->recordIntent(intent("tok-busy"), kT0);
        auto during = (*other)->reconcile("aws", {}, kT0 + 3600);
        QVERIFY(during.ok());
        QVERIFY(during->closed.empty());
        QCOMPARE((*(*other)->find(id))->state, InstanceState::Intent);
        auto taken = (*other)->takeOver(id, kT0 + 3600);
        QVERIFY(!taken.ok());
        QVERIFY2(taken.error().reason.key == "error.ledger.attempt_busy", describe(taken.error()).c_str());
        QCOMPARE(taken.error().reason.params.at("token"), std::string("tok-busy"));

        // The sender is gone (its process ended): the next reconcile decides.
        lock.value() = AttemptLock{};
        auto after = (*other)->reconcile("aws", {}, kT0 + 3601);
        QVERIFY(after.ok());
        QCOMPARE(after->closed, std::vector<std::int64_t>{id});
        QCOMPARE((*(*other)->find(id))->state, InstanceState::Failed);
    }

    void aLockHeldForAMomentIsWaitedFor()
    {
        // A reconcile's look at an attempt (attemptInProgress) holds its lock for a moment. A launch that wants the
        // lock then waits that moment out instead of saying "another process is sending it" (seen in CI).
        const std::filesystem::path file = path("a-moment.sqlite");
        auto looker = Ledger::open(file);
        auto sender = Ledger::open(file);
        QVERIFY(looker.ok() && sender.ok());
        auto held = (*looker)->lockAttempt("tok-moment");
        QVERIFY(held.ok());
        std::thread release([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(40));
            held.value() = AttemptLock{};
        });
        auto taken = (*sender)->lockAttempt("tok-moment");
        release.join();
        QVERIFY2(taken.ok(), taken.ok() ? "" : describe(taken.error()).c_str());
    }

    void aVersionThreeLedgerGainsRequestTimes()
    {
        const std::filesystem::path old = path("version3.sqlite");
        std::int64_t id = 0;
        {
            auto opened = Ledger::open(old);
            id = *(*opened)->recordIntent(intent("tok-v3"), kT0);
        }
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(old.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db,
                              "ALTER TABLE launches DROP COLUMN requested_at; PRAGMA user_version = 3",
                              nullptr,
                              nullptr,
                              nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        auto reopened = Ledger::open(old);
        QVERIFY2(reopened.ok(), reopened.ok() ? "" : describe(reopened.error()).c_str());
        QVERIFY(!(*(*reopened)->find(id))->requestedAt.has_value());
        QVERIFY((*reopened)->markRequested(id, kT0 + 10).ok());
        QCOMPARE((*(*reopened)->find(id))->requestedAt, std::optional<std::int64_t>(kT0 + 10));
        // A second open (another process) finds it at the current version and changes nothing.
        auto again = Ledger::open(old);
        QVERIFY2(again.ok(), again.ok() ? "" : describe(again.error()).c_str());
        QCOMPARE((*(*again)->find(id))->requestedAt, std::optional<std::int64_t>(kT0 + 10));
    }

    void theProvidersQuoteIsKeptBesideTheCatalogPrice()
    {
        const std::filesystem::path file = path("quotes.sqlite");
        LaunchIntent quoted = intent("tok-quote");
        quoted.quote = PriceQuote{2.5, Currency::USD, PriceUnit::Hour, "EC2 DescribeSpotPriceHistory, us-east-1b", kT0};
        std::int64_t withQuote = 0;
        std::int64_t without = 0;
        {
            auto opened = Ledger::open(file);
            withQuote = *(*opened)->recordIntent(quoted, kT0);
            without = *(*opened)->recordIntent(intent("tok-no-quote"), kT0);
        }
        auto reopened = Ledger::open(file);
        const LedgerEntry e = **(*reopened)->find(withQuote);
        QVERIFY(e.intent.quote.has_value());
        QCOMPARE(e.intent.quote->amount, 2.5);
        QCOMPARE(e.intent.quote->currency, Currency::USD);
        QCOMPARE(e.intent.quote->source, std::string("EC2 DescribeSpotPriceHistory, us-east-1b"));
        QCOMPARE(e.intent.quote->at, kT0);
        QCOMPARE(e.intent.price.amount, quoted.price.amount); // costs still accrue at the catalog price
        QVERIFY(!(*(*reopened)->find(without))->intent.quote.has_value());

        // A version 4 ledger gains the column, its entries without a quote.
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(file.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(
                     db, "ALTER TABLE launches DROP COLUMN quote; PRAGMA user_version = 4", nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        reopened = Ledger::open(file);
        QVERIFY2(reopened.ok(), reopened.ok() ? "" : describe(reopened.error()).c_str());
        QVERIFY(!(*(*reopened)->find(withQuote))->intent.quote.has_value());
    }

    void aJobIsAnEntryOfItsOwnKindAndReconciledOnlyWithJobs()
    {
        const std::filesystem::path file = path("jobs.sqlite");
        LaunchIntent job = intent("tok-job");
        job.provider = "azure";
        job.region = "eastus";
        job.zone.clear();
        job.instanceType = "azureml/Standard_NC4as_T4_v3";
        job.kind = LaunchKind::Job;
        job.job = JobSpec{"registry.example/train:1", {"sh", "-c", "python train.py"}, {{"EPOCHS", "3"}}};
        LaunchIntent machine = intent("tok-vm");
        machine.provider = "azure";
        machine.region = "eastus";
        machine.instanceType = "Standard_NC4as_T4_v3";
        std::int64_t jobId = 0;
        std::int64_t vmId = 0;
        {
            auto opened = Ledger::open(file);
            jobId = *(*opened)->recordIntent(job, kT0);
            vmId = *(*opened)->recordIntent(machine, kT0);
            QVERIFY((*opened)->update(jobId, "job-1", InstanceState::Running, kT0 + 60).ok());
            QVERIFY((*opened)->update(vmId, "vm-1", InstanceState::Running, kT0 + 60).ok());
        }
        auto ledger = Ledger::open(file);
        const LedgerEntry kept = **(*ledger)->find(jobId);
        QCOMPARE(kept.intent.kind, LaunchKind::Job);
        QVERIFY(kept.intent.job.has_value());
        QCOMPARE(kept.intent.job->image, std::string("registry.example/train:1"));
        QCOMPARE(kept.intent.job->command, (std::vector<std::string>{"sh", "-c", "python train.py"}));
        QCOMPARE(kept.intent.job->environment.size(), std::size_t(1));
        QCOMPARE((**(*ledger)->find(vmId)).intent.kind, LaunchKind::Instance);

        // The job service lists the job as succeeded and knows no machine: the machine is left alone, and the job
        // keeps how it ended.
        RemoteInstance ended;
        ended.instanceId = "job-1";
        ended.clientToken = "tok-job";
        ended.state = InstanceState::Terminated;
        ended.providerState = "Completed";
        Result<Reconciliation> r = (*ledger)->reconcile("azure", {ended}, kT0 + 7200, LaunchKind::Job);
        QVERIFY(r.ok());
        QCOMPARE(r->closed, std::vector<std::int64_t>{jobId});
        const LedgerEntry done = **(*ledger)->find(jobId);
        QCOMPARE(done.state, InstanceState::Terminated);
        QCOMPARE(done.detail.key, std::string("ledger.job_ended"));
        QCOMPARE(done.detail.params.at("outcome"), std::string("succeeded"));
        QCOMPARE((**(*ledger)->find(vmId)).state, InstanceState::Running);
        QVERIFY(costSoFar(done, kT0 + 9000) > 0);

        // The VM service lists nothing: the job (of the other kind) is not touched, the machine is closed.
        r = (*ledger)->reconcile("azure", {}, kT0 + 7200);
        QVERIFY(r.ok());
        QCOMPARE(r->closed, std::vector<std::int64_t>{vmId});
        QCOMPARE((**(*ledger)->find(jobId)).detail.key, std::string("ledger.job_ended"));

        QCOMPARE(jobOutcomeOf("JOB_STATE_CANCELLED"), std::string("cancelled"));
        QCOMPARE(jobOutcomeOf("Canceled"), std::string("cancelled"));
        QCOMPARE(jobOutcomeOf("CancelRequested"), std::string());
        QCOMPARE(jobOutcomeOf("JOB_STATE_FAILED"), std::string("failed"));
        QCOMPARE(jobOutcomeOf("JOB_STATE_RUNNING"), std::string());

        // A version 5 ledger gains the kind (every entry an instance) and the job spec.
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(file.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db,
                              "ALTER TABLE launches DROP COLUMN job; ALTER TABLE launches DROP COLUMN kind; "
                              "PRAGMA user_version = 5",
                              nullptr,
                              nullptr,
                              nullptr),
                 SQLITE_OK);
        sqlite3_close(db);
        auto migrated = Ledger::open(file);
        QVERIFY2(migrated.ok(), migrated.ok() ? "" : describe(migrated.error()).c_str());
        QCOMPARE((**(*migrated)->find(jobId)).intent.kind, LaunchKind::Instance);
        QVERIFY(!(**(*migrated)->find(jobId)).intent.job.has_value());
    }

    void notesAreKeptAsDataAndOlderSentencesStayReadable()
    {
        // An entry's detail is a reason, kept as JSON in the detail column; a ledger of an older version kept an
        // English sentence there, which reads as "saved.text" with the sentence as it was.
        const std::filesystem::path file = path("details.sqlite");
        std::int64_t keyed = 0;
        std::int64_t older = 0;
        std::int64_t plain = 0;
        const Reason note{"ledger.outcome_unknown",
                          {{"error", detailJson(Reason{"error.net.reset", {{"said", "Connection reset \"x\"\n"}}})},
                           {"where", "ec2 us-east-1"}}};
        {
            auto opened = Ledger::open(file);
            QVERIFY(opened.ok());
            keyed = *(*opened)->recordIntent(intent("tok-keyed"), kT0);
            older = *(*opened)->recordIntent(intent("tok-older"), kT0);
            plain = *(*opened)->recordIntent(intent("tok-plain"), kT0);
            QVERIFY((*opened)->setDetail(keyed, note).ok());
        }
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(file.c_str(), &db), SQLITE_OK);
        const std::string sql = "UPDATE launches SET detail = 'resumed after its outcome was unknown: this is its "
                                "instance' WHERE id = "
                                + std::to_string(older);
        QCOMPARE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);

        auto reopened = Ledger::open(file);
        QVERIFY(reopened.ok());
        const LedgerEntry k = **(*reopened)->find(keyed);
        QVERIFY2(k.detail == note, detailJson(k.detail).c_str());
        QCOMPARE(readDetailJson(k.detail.params.at("error")).params.at("said"),
                 std::string("Connection reset \"x\"\n"));
        const LedgerEntry o = **(*reopened)->find(older);
        QCOMPARE(o.detail.key, std::string("saved.text"));
        QCOMPARE(o.detail.params.at("text"),
                 std::string("resumed after its outcome was unknown: this is its instance"));
        QVERIFY((*(*reopened)->find(plain))->detail.empty()); // no note: no reason
        // Text that merely looks like JSON is a sentence too.
        QCOMPARE(readDetailJson(R"({"verdict":"warn"})").key, std::string("saved.text"));
        QCOMPARE(readDetailJson("[1]").key, std::string("saved.text"));
        QVERIFY(readDetailJson(detailJson(Reason{})).empty());
    }

private:
    std::filesystem::path path(const char* name) const
    {
        return std::filesystem::path(m_dir.path().toStdString()) / name;
    }

    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestLedger)
#include "TestLedger.moc"
