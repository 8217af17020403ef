// `gpuplan launch`, `instances` and `terminate` as a user runs them, against local fakes of the EC2 and CVM APIs
// (tests/integration/fakes/fake_ec2.py and fake_cvm.py: built from the documented responses, they verify every
// signature, move instances from pending to running, and on request throttle, refuse capacity in a zone, or
// drop the connection after accepting a launch). No real cloud is reachable from here, and none would refuse
// capacity or drop a reply on demand; that is what the fakes are for.
//
// Crash safety: the launch is killed with SIGKILL at each step (before the request goes out, after it went out
// and before the reply, after the reply and before the ledger update). After a restart, reconciliation and a
// relaunch, there is exactly one instance for the launch, recorded once, and no second launch.

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <cmath>
#include <csignal>
#include <memory>

#include "../support/CliSession.h"
#include "../support/LoopbackProxy.h"
#include "fakes/FakeCloud.h"
#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/net/HttpClient.h"
#include "gpuplan/secrets/Credential.h"

using namespace gpuplan::core;
using namespace gpuplan::testing;

namespace {

using Run = CliRun;

} // namespace

class TestLaunchFlow : public QObject
{
    Q_OBJECT

private:
    CliSession m_cli; // the session of the test under way: its folders, fake and `gpuplan`

    QString path(const QString& name) const { return m_cli.path(name); }
    bool setUp(const ProviderCase& c) { return m_cli.start(c); }
    Run gpuplan(const QStringList& args, const QProcessEnvironment& extra = {}) const
    {
        return m_cli.gpuplan(args, extra);
    }
    std::unique_ptr<Ledger> ledger() const { return m_cli.ledger(); }

    /// `gpuplan args` started, not waited for (a test kills it on the way).
    QProcess* startGpuplan(const QStringList& args)
    {
        auto* process = new QProcess(this);
        process->setProcessEnvironment(m_cli.env);
        process->start(CliSession::binary(), args);
        process->closeWriteChannel();
        return process;
    }

    /// The launch every test makes, with `more` flags.
    QStringList launchArgs(const QStringList& more = {}) const
    {
        return QStringList{"launch",
                           "--provider",
                           m_cli.providerCase.id,
                           "--instance",
                           m_cli.providerCase.instanceType,
                           "--region",
                           m_cli.providerCase.region,
                           "--key",
                           path("id_ed25519.pub"),
                           "--ssh-from",
                           "203.0.113.7/32",
                           "--yes",
                           "--wait",
                           "running",
                           "--json"}
               + more;
    }

    /// Every provider that launches: for what each one does its own way (its price, its refusals, its groups, its
    /// prepaid rules) and the crash tests. GPUPLAN_FLOW_PROVIDERS names the ones to run (default: the first four):
    /// ctest runs the others as tests of their own (tests/CMakeLists.txt), so that two cores share the long pole.
    static QList<ProviderCase> chosenProviders()
    {
        const QStringList chosen =
            qEnvironmentVariable("GPUPLAN_FLOW_PROVIDERS", QStringLiteral("aws,tencent,alibaba,huawei")).split(',');
        QList<ProviderCase> out;
        for (const ProviderCase& c : {aws(), tencent(), alibaba(), huawei(), gcp(), azure(), lambda(), paperspace()}) {
            if (chosen.contains(c.id)) {
                out << c;
            }
        }
        return out;
    }
    void addProviders()
    {
        QTest::addColumn<ProviderCase>("provider");
        for (const ProviderCase& c : chosenProviders()) {
            QTest::newRow(qPrintable(c.id)) << c;
        }
    }
    /// EC2 and CVM only: for what the Launcher and the CLI do alike on every provider (zone fallback, throttling, a
    /// dropped reply, eventual consistency, the proxy, the plan's option, a bad key), which the conformance suite
    /// (tests/conformance) checks for every provider; here through `gpuplan` as a user runs it.
    void addSomeProviders()
    {
        QTest::addColumn<ProviderCase>("provider");
        QTest::newRow("aws") << aws();
        QTest::newRow("tencent") << tencent();
    }

private slots:
    void initTestCase() { initializeHttp(); }
    void cleanup() { m_cli = CliSession(); }

    void launchRunsAndTerminates_data() { addProviders(); }
    void launchRunsAndTerminates()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        const Run launched = gpuplan(launchArgs());
        QVERIFY2(launched.exit == 0, qPrintable(launched.err + launched.out));
        const QJsonObject out = launched.json();
        QCOMPARE(out.value("state").toString(), QString("running"));
        const QString instanceId = out.value("instance_id").toString();
        QVERIFY(!instanceId.isEmpty());
        QCOMPARE(out.value("public_ip").toString(), QString("127.0.0.1"));
        QVERIFY2(launched.err.contains("[recorded]") && launched.err.contains("[sending]")
                     && launched.err.contains("[running]"),
                 qPrintable(launched.err));
        QVERIFY2(launched.err.contains("the most it can cost"), qPrintable(launched.err));
        // Finding 6: what a rule that fires does, in so many words (the Launch page's confirmation, word for word):
        // EC2 terminates on shutdown; Tencent, Alibaba, Azure and Lambda bill a machine shut down from inside; Huawei,
        // GCE and Paperspace stop its compute bill. Azure, Lambda and Paperspace have no timer of their own.
        const ProviderDescriptor* descriptor = ProviderRegistry::builtIn().find(provider.id.toStdString());
        const QStringList keepsBilling{"tencent", "alibaba", "azure", "lambda"};
        const QString idleRule =
            provider.id == "aws" ? QStringLiteral("the instance is TERMINATED and its disks are deleted")
            : keepsBilling.contains(provider.id)
                ? QStringLiteral("the instance is shut down, but %1 keeps billing it until it is terminated")
                      .arg(QString::fromStdString(ProviderRegistry::builtIn().find(provider.id.toStdString())->name))
                : QStringLiteral("the instance is stopped (its disks are kept)");
        QVERIFY2(launched.err.contains(descriptor->supports(CloudFeature::ScheduledTerminate)
                                               || descriptor->supports(CloudFeature::TerminateOnShutdown)
                                           ? "The dead-man switch TERMINATES it after"
                                           : "The dead-man switch shuts it down after")
                     && launched.err.contains(idleRule),
                 qPrintable(launched.err));

        // What the provider got: our token as its idempotency token and our tag, the watchdog in the user-data,
        // SSH open to the one address.
        const QJsonArray instances = m_cli.fake->state().value("instances").toArray();
        QCOMPARE(instances.size(), 1);
        const QJsonObject instance = instances.first().toObject();
        QCOMPARE(instance.value("id").toString(), instanceId);
        QCOMPARE(instance.value("client_token").toString(), out.value("client_token").toString());
        if (descriptor->supports(CloudFeature::ClientToken)) { // our tag (GCE's labels are its tags)
            const QJsonObject tags = instance.value(instance.contains("labels") ? "labels" : "tags").toObject();
            QCOMPARE(tags.value("gpuplanner-token").toString(), out.value("client_token").toString());
        } else { // no token to send: the token is its name
            QCOMPARE(instance.value("name").toString(), out.value("client_token").toString());
        }
        QVERIFY(instance.value("user_data").toString().contains(": \"${GPUPLAN_DEADMAN_HOURS:=12}\""));
        if (descriptor->supports(CloudFeature::SshSourceRestriction)) {
            const QJsonObject state = m_cli.fake->state();
            QVERIFY(QJsonDocument(state.value(state.contains("firewalls") ? "firewalls" : "security_groups").toArray())
                        .toJson()
                        .contains("203.0.113.7/32"));
        } else {
            QVERIFY2(launched.err.contains("SSH is open to every address"), qPrintable(launched.err));
        }

        // The ledger and `instances` agree with the provider.
        const Run listed = gpuplan({"instances", "--json"});
        QVERIFY2(listed.exit == 0, qPrintable(listed.err));
        const QJsonArray rows = listed.json().value("instances").toArray();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().toObject().value("instance_id").toString(), instanceId);
        QCOMPARE(rows.first().toObject().value("state").toString(), QString("running"));
        QVERIFY(listed.json().value("reconciled").toBool());

        const Run table = gpuplan({"instances"});
        QVERIFY2(table.out.contains(instanceId) && table.out.contains("Dead-man in"), qPrintable(table.out));

        const Run ended = gpuplan({"terminate", QString::number(rows.first().toObject().value("id").toInt())});
        QVERIFY2(ended.exit == 0, qPrintable(ended.err));
        QCOMPARE(m_cli.fake->liveInstances().size(), 0);
        const Run after = gpuplan({"instances", "--json"});
        QCOMPARE(after.json().value("instances").toArray().size(), 0);
        const Run history = gpuplan({"instances", "--json", "--all"});
        QCOMPARE(history.json().value("instances").toArray().size(), 1);
    }

    void theProvidersPriceIsAskedBeforeTheLaunch_data() { addProviders(); }
    void theProvidersPriceIsAskedBeforeTheLaunch()
    {
        // Spot: EC2's spot price history (the cheapest zone, Linux/UNIX), Tencent's InquiryPriceRunInstances; shown
        // beside the catalog's price before the launch, kept in the ledger. The fakes' prices are made up.
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        if (!ProviderRegistry::builtIn().find(provider.id.toStdString())->supports(CloudFeature::Spot)) {
            // On demand only: Lambda quotes it from its instance types (the FAKE's made-up 75 cents), Paperspace
            // has no price call.
            const Run onDemand = gpuplan(launchArgs({"--price", "9.00"}));
            QVERIFY2(onDemand.exit == 0, qPrintable(onDemand.err + onDemand.out));
            QCOMPARE(onDemand.err.contains("The provider's price now: $0.75 an hour (Lambda instance-types"),
                     provider.id == "lambda");
            QCOMPARE(onDemand.err.contains("The provider's price now"), provider.id == "lambda");
            return;
        }
        const Run launched = gpuplan(launchArgs({"--spot", "--price", "1.00"}));
        QVERIFY2(launched.exit == 0, qPrintable(launched.err + launched.out));
        // The fakes' made-up spot prices: 0.40 USD (EC2), 2.60 CNY (CVM), 3.36 CNY (ECS's DescribePrice TradePrice).
        // GCE and Azure are not asked (the catalog's price stands: Compute Engine has no price call for a
        // configuration, and Azure's Retail Prices API is the catalog's source).
        if (provider.id == "gcp" || provider.id == "azure") {
            QVERIFY2(!launched.err.contains("The provider's price now"), qPrintable(launched.err));
            QVERIFY(!launched.json().contains("quote") || launched.json().value("quote").isNull());
            const Run onDemand = gpuplan(launchArgs({"--price", "9.00"}));
            QVERIFY2(onDemand.exit == 0, qPrintable(onDemand.err + onDemand.out));
            QVERIFY2(!onDemand.err.contains("The provider's price now"), qPrintable(onDemand.err));
            return;
        }
        // Huawei's price APIs (BSS) price pay-per-use and yearly/monthly, not spot: nothing is asked.
        if (provider.id == "huawei") {
            QVERIFY2(!launched.err.contains("The provider's price now"), qPrintable(launched.err));
            QVERIFY(!launched.json().contains("quote") || launched.json().value("quote").isNull());
            const Run onDemand = gpuplan(launchArgs({"--price", "9.00"}));
            QVERIFY2(onDemand.exit == 0, qPrintable(onDemand.err + onDemand.out));
            // The FAKE BSS's made-up 30.00 CNY an hour.
            QVERIFY2(onDemand.err.contains("The provider's price now: ¥30.00 an hour (Huawei Cloud"),
                     qPrintable(onDemand.err));
            return;
        }
        const QString expected =
            provider.id == "aws"
                ? QStringLiteral("The provider's price now: $0.40 an hour (EC2 DescribeSpotPriceHistory, "
                                 "Linux/UNIX, us-east-1b)")
            : provider.id == "tencent"
                ? QStringLiteral("The provider's price now: ¥2.60 an hour (Tencent Cloud InquiryPriceRunInstances, ")
                : QStringLiteral("The provider's price now: ¥3.36 an hour (Alibaba Cloud ECS DescribePrice, "
                                 "cn-beijing-g)");
        QVERIFY2(launched.err.contains(expected), qPrintable(launched.err));
        const QJsonObject quote = launched.json().value("quote").toObject();
        QCOMPARE(quote.value("amount").toDouble(),
                 provider.id == "aws"       ? 0.40
                 : provider.id == "tencent" ? 2.60
                                            : 3.36);
        QCOMPARE(quote.value("currency").toString(), provider.id == "aws" ? QString("USD") : QString("CNY"));
        // The ledger keeps it beside the price the launch is costed at.
        const Run listed = gpuplan({"instances", "--json"});
        const QJsonObject row = listed.json().value("instances").toArray().first().toObject();
        QCOMPARE(row.value("quote").toObject().value("amount").toDouble(), quote.value("amount").toDouble());
        QCOMPARE(row.value("price").toObject().value("amount").toDouble(), 1.00);

        // On-demand on EC2: its price is in the Price List, not asked; Tencent and Alibaba quote it.
        const Run onDemand = gpuplan(launchArgs({"--price", "9.00"}));
        QVERIFY2(onDemand.exit == 0, qPrintable(onDemand.err + onDemand.out));
        QCOMPARE(onDemand.err.contains("The provider's price now"), provider.id != "aws");
    }

    // Issue 24: a prepaid (monthly) launch says the period's full price, paid now, and that terminate does not refund
    // it; terminate then refuses, says until when it runs, and the ledger keeps the refusal beside the entry. A spot
    // launch carries the user's price limit to the provider and says it.
    void aPrepaidAndALimitedSpotLaunchSayWhatTheyCost_data()
    {
        QTest::addColumn<ProviderCase>("provider");
        QTest::newRow("alibaba") << alibaba();
        QTest::newRow("huawei") << huawei();
    }
    void aPrepaidAndALimitedSpotLaunchSayWhatTheyCost()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        const Run prepaid = gpuplan(launchArgs({"--monthly", "2", "--price", "5400"}));
        QVERIFY2(prepaid.exit == 0, qPrintable(prepaid.err + prepaid.out));
        QVERIFY2(
            prepaid.err.contains(QRegularExpression("Prepaid: 2 months?(\\(s\\))?, ¥10,?800(\\.00)? in all, paid now; "
                                                    "automatic renewal off\\.")),
            qPrintable(prepaid.err));
        QVERIFY2(prepaid.err.contains("Terminate does not refund it and cannot end it early"), qPrintable(prepaid.err));
        // No provider-side release time for a subscription: the dead-man's shutdown only stops it.
        QVERIFY2(prepaid.err.contains("it is stopped, not terminated, and its disks are kept"),
                 qPrintable(prepaid.err));
        QJsonObject instance = m_cli.fake->state().value("instances").toArray().first().toObject();
        QCOMPARE(instance.value("pricing").toString(), QString("subscription"));
        QCOMPARE(instance.value("subscription_months").toInt(), 2);
        QCOMPARE(instance.value("auto_renew").toBool(), false);
        QVERIFY(!instance.contains("terminate_at")); // no provider-side release time for a subscription

        // Terminate: refused before anything is released; the entry stays live and says why.
        const int entry = prepaid.json().value("id").toInt();
        QVERIFY(entry > 0);
        const Run ended = gpuplan({"terminate", QString::number(entry)});
        QCOMPARE(ended.exit, 1);
        QVERIFY2(ended.err.contains("unsubscribe it in the console") && ended.err.contains("paid"),
                 qPrintable(ended.err));
        QCOMPARE(m_cli.fake->liveInstances().size(), 1);
        const Run listed = gpuplan({"instances", "--json"});
        const QJsonObject row = listed.json().value("instances").toArray().first().toObject();
        QCOMPARE(row.value("detail_key").toString(), QString("ledger.terminate_refused"));
        QVERIFY2(row.value("detail").toString().contains("until "), qPrintable(row.value("detail").toString()));

        // Spot with a limit of one's own: sent as the provider's bid, and stated before the launch.
        const Run spot = gpuplan(launchArgs({"--spot", "--spot-max-price", "4.5", "--price", "3"}));
        QVERIFY2(spot.exit == 0, qPrintable(spot.err + spot.out));
        QVERIFY2(spot.err.contains("Spot: bids at most ¥4.50 an hour"), qPrintable(spot.err));
        const QJsonArray instances = m_cli.fake->state().value("instances").toArray();
        QCOMPARE(instances.size(), 2);
        instance = instances.last().toObject();
        QCOMPARE(instance.value("pricing").toString(), QString("spot"));
        if (provider.id == "huawei") {
            QCOMPARE(instance.value("spot_price").toString(), QString("4.5")); // extendparam.spotPrice, a string
        } else {
            QCOMPARE(instance.value("spot_price_limit").toDouble(), 4.5);
        }
    }

    void aZoneWithoutCapacityFallsBackToTheNext_data() { addSomeProviders(); }
    void aZoneWithoutCapacityFallsBackToTheNext()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        // CVM lists a sold-out zone as SOLD_OUT, so it is not even tried (checked at the end); the listing can lag
        // behind the stock, and then RunInstances refuses: that is the fallback tested here (EC2 has no such list).
        m_cli.fake->faults({{"no_capacity_zones", QJsonArray{provider.zones[0]}}, {"stale_zone_listing", true}});
        const Run launched = gpuplan(launchArgs());
        QVERIFY2(launched.exit == 0, qPrintable(launched.err + launched.out));
        QCOMPARE(launched.json().value("zones_tried").toArray(), (QJsonArray{provider.zones[0], provider.zones[1]}));
        QCOMPARE(launched.json().value("zone").toString(), provider.zones[1]);
        QVERIFY2(launched.err.contains("[zone_refused]"), qPrintable(launched.err));
        QCOMPARE(m_cli.fake->liveInstances().size(), 1);
        QCOMPARE(m_cli.fake->liveInstances().first().toObject().value("zone").toString(), provider.zones[1]);

        // No zone at all: a clear refusal that names the zones and does not go to another region.
        m_cli.fake->faults({{"no_capacity_zones", QJsonArray::fromStringList(provider.zones)}});
        const Run refused = gpuplan(launchArgs());
        QCOMPARE(refused.exit, 1);
        QVERIFY2(refused.err.contains(provider.zones.join(", ")) && refused.err.contains("another region"),
                 qPrintable(refused.err));
        QCOMPARE(m_cli.fake->liveInstances().size(), 1);

        if (provider.id == "tencent") {
            // With a listing that is up to date, the sold-out zone is skipped without a request.
            m_cli.fake->faults({{"no_capacity_zones", QJsonArray{provider.zones[0]}}, {"stale_zone_listing", false}});
            const Run skipped = gpuplan(launchArgs());
            QVERIFY2(skipped.exit == 0, qPrintable(skipped.err));
            QCOMPARE(skipped.json().value("zones_tried").toArray(), QJsonArray{provider.zones[1]});
        }
    }

    void throttlingIsRetried_data() { addSomeProviders(); }
    void throttlingIsRetried()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        m_cli.fake->faults({{"throttle", 3}});
        const Run launched = gpuplan(launchArgs());
        QVERIFY2(launched.exit == 0, qPrintable(launched.err + launched.out));
        QCOMPARE(m_cli.fake->liveInstances().size(), 1);
    }

    void aDroppedReplyDoesNotLaunchTwice_data() { addSomeProviders(); }
    void aDroppedReplyDoesNotLaunchTwice()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        m_cli.fake->faults({{"drop_after_accept", 1}});
        const Run launched = gpuplan(launchArgs());
        QVERIFY2(launched.exit == 0, qPrintable(launched.err + launched.out));
        QVERIFY(m_cli.fake->runInstancesCalls() >= 2); // the launch was sent again, with its token
        QCOMPARE(m_cli.fake->liveInstances().size(), 1);
        QCOMPARE(launched.json().value("instance_id").toString(),
                 m_cli.fake->liveInstances().first().toObject().value("id").toString());
    }

    void aNewInstanceInvisibleToDescribeIsWaitedFor_data() { addSomeProviders(); }
    void aNewInstanceInvisibleToDescribeIsWaitedFor()
    {
        // Eventual consistency: for a few seconds after RunInstances the instance is NotFound (EC2) or missing
        // (CVM). The launch waits, and a reconcile in another process meanwhile closes nothing.
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        m_cli.fake->faults({{"invisible_s", 4}});
        QProcess* launching = startGpuplan(launchArgs());
        QTRY_VERIFY_WITH_TIMEOUT(m_cli.fake->state().value("instances").toArray().size() == 1, 30000);
        const Run reconciled = gpuplan({"instances", "--json"});
        QVERIFY2(reconciled.exit == 0, qPrintable(reconciled.err));
        // (waitForFinished is false for a process that has already ended)
        QVERIFY(launching->state() == QProcess::NotRunning || launching->waitForFinished(60000));
        const QString err = QString::fromUtf8(launching->readAllStandardError());
        QVERIFY2(launching->exitStatus() == QProcess::NormalExit && launching->exitCode() == 0, qPrintable(err));
        QCOMPARE(m_cli.fake->liveInstances().size(), 1);
        std::unique_ptr<Ledger> l = ledger();
        Result<std::vector<LedgerEntry>> entries = l->entries();
        QCOMPARE(entries->size(), std::size_t(1));
        QCOMPARE(entries->front().state, InstanceState::Running);
        QVERIFY(!entries->front().endedAt.has_value());
        qInfo("%s: invisible for 4 s, concurrent reconcile: 0 leaked, 0 doubled", qPrintable(provider.id));
    }

    void anInternalErrorAfterCreateIsResumedWithItsToken_data() { addProviders(); }
    void anInternalErrorAfterCreateIsResumedWithItsToken()
    {
        // The server creates the instance and then answers InternalError (and the listing does not show it yet):
        // the outcome is unknown, so the entry stays requested and the retry resends the same token.
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        // EC2's and ECS's InternalError (Huawei's Ecs.0615) is a 5xx, which the client retries with the same token (4
        // attempts): all of them fail here, or the retry would already have the answer. CVM answers InternalError with
        // HTTP 200, which
        // is not retried.
        // Invisible for long enough that the launch's own look for its token (after EC2's four tries with backoff,
        // slower still under the sanitizers) does not see it yet.
        m_cli.fake->faults({{"internal_error_after_create", provider.id == "tencent" ? 1 : 4}, {"invisible_s", 12}});
        const QMap<QString, QString> internalErrors{{"huawei", "Ecs.0615"},
                                                    {"gcp", "backendError"},
                                                    {"azure", "InternalServerError"},
                                                    {"lambda", "global/internal-error"},
                                                    {"paperspace", "internal_error"}};
        const QString internalError = internalErrors.value(provider.id, QStringLiteral("InternalError"));
        const Run first = gpuplan(launchArgs());
        QCOMPARE(first.exit, 1);
        QVERIFY2(first.err.contains(internalError), qPrintable(first.err));
        {
            std::unique_ptr<Ledger> l = ledger();
            Result<std::vector<LedgerEntry>> entries = l->entries();
            QCOMPARE(entries->size(), std::size_t(1));
            QCOMPARE(entries->front().state, InstanceState::Requested);
        }
        const Run reconciled = gpuplan({"instances", "--json"});
        QVERIFY2(reconciled.exit == 0, qPrintable(reconciled.err));
        if (!ProviderRegistry::builtIn().find(provider.id.toStdString())->supports(CloudFeature::ClientToken)) {
            // No token to resend it with: while its instance may still be unlisted, nothing is sent again.
            const Run tooSoon = gpuplan(launchArgs());
            QCOMPARE(tooSoon.exit, 1);
            QVERIFY2(tooSoon.err.contains("takes no idempotency token"), qPrintable(tooSoon.err));
            QCOMPARE(m_cli.fake->runInstancesCalls(), 1);
            QTest::qWait(12500); // then it shows, under its name
        }
        const Run again = gpuplan(launchArgs());
        QVERIFY2(again.exit == 0, qPrintable(again.err + again.out));
        QVERIFY2(again.json().value("resumed").toBool(), qPrintable(again.err));
        const QJsonArray there = m_cli.fake->state().value("instances").toArray();
        QCOMPARE(there.size(), 1);
        QCOMPARE(m_cli.fake->liveInstances().size(), 1);
        std::unique_ptr<Ledger> l = ledger();
        Result<std::vector<LedgerEntry>> entries = l->entries();
        QCOMPARE(entries->size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(entries->front().instanceId), there.first().toObject().value("id").toString());
        QCOMPARE(entries->front().state, InstanceState::Running);
        qInfo("%s: InternalError after create, concurrent reconcile: 0 leaked, 0 doubled", qPrintable(provider.id));
    }

    void aKilledLaunchLeavesExactlyOneInstance_data()
    {
        QTest::addColumn<ProviderCase>("provider");
        QTest::addColumn<QString>("killAt");
        QTest::addColumn<bool>("relaunch"); // restart by launching the same again, or only by reconciling
        for (const ProviderCase& c : chosenProviders()) {
            for (const char* at : {"before-send", "after-send", "after-reply"}) {
                QTest::addRow("%s, killed %s, relaunched", qPrintable(c.id), at) << c << QString(at) << true;
                QTest::addRow("%s, killed %s, reconciled", qPrintable(c.id), at) << c << QString(at) << false;
            }
        }
    }
    void aKilledLaunchLeavesExactlyOneInstance()
    {
        QFETCH(ProviderCase, provider);
        QFETCH(QString, killAt);
        QFETCH(bool, relaunch);
        QVERIFY(setUp(provider));

        if (killAt == "after-send") {
            // The provider accepts the launch and holds its reply; the process dies while it waits.
            m_cli.fake->faults({{"hold_run_reply_s", 30}});
            QProcess* running = startGpuplan(launchArgs());
            QTRY_VERIFY_WITH_TIMEOUT(m_cli.fake->state().value("instances").toArray().size() == 1, 30000);
            ::kill(static_cast<pid_t>(running->processId()), SIGKILL);
            QVERIFY(running->waitForFinished(10000));
            QCOMPARE(running->exitStatus(), QProcess::CrashExit);
            m_cli.fake->faults({{"hold_run_reply_s", 0}});
        } else {
            // The process kills itself at the step (GPUPLAN_TEST_KILL_AT): "recorded" is after the intent is
            // written and before the request goes out, "replied" after the answer and before the ledger has it.
            QProcessEnvironment kill;
            kill.insert("GPUPLAN_TEST_KILL_AT", killAt == "before-send" ? "recorded" : "replied");
            const Run killed = gpuplan(launchArgs(), kill);
            QVERIFY2(killed.exit < -99, qPrintable("not killed: " + killed.err));
        }
        const int sentBefore = killAt == "before-send" ? 0 : 1;
        QCOMPARE(m_cli.fake->state().value("instances").toArray().size(), sentBefore);
        {
            std::unique_ptr<Ledger> l = ledger();
            QVERIFY(l);
            Result<std::vector<LedgerEntry>> entries = l->entries();
            QCOMPARE(entries->size(), std::size_t(1));
            QVERIFY(entries->front().instanceId.empty()); // the crash came before the ledger heard the answer
            QCOMPARE(entries->front().state,
                     killAt == "before-send" ? InstanceState::Intent : InstanceState::Requested);
        }

        if (relaunch) {
            const Run again = gpuplan(launchArgs());
            QVERIFY2(again.exit == 0, qPrintable(again.err + again.out));
            QVERIFY2(again.json().value("resumed").toBool(), qPrintable(again.err));
        }
        const Run reconciled = gpuplan({"instances", "--json"});
        QVERIFY2(reconciled.exit == 0, qPrintable(reconciled.err));
        QVERIFY(reconciled.json().value("reconciled").toBool());

        const QJsonArray there = m_cli.fake->state().value("instances").toArray();
        const int expected = relaunch ? 1 : sentBefore;
        QCOMPARE(there.size(), expected);
        std::unique_ptr<Ledger> l = ledger();
        Result<std::vector<LedgerEntry>> entries = l->entries();
        QCOMPARE(entries->size(), std::size_t(1)); // no second launch, no second record
        const LedgerEntry& e = entries->front();
        if (expected == 1) {
            QCOMPARE(QString::fromStdString(e.instanceId), there.first().toObject().value("id").toString());
            QCOMPARE(QString::fromStdString(e.intent.clientToken),
                     there.first().toObject().value("client_token").toString());
            QVERIFY(!isFinal(e.state));
        } else {
            QCOMPARE(e.state, InstanceState::Failed); // never sent: nothing runs, nothing bills
        }
    }

    void aDryRunStartsNothing_data() { addProviders(); }
    void aDryRunStartsNothing()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        // An address alone opens SSH to that one host.
        QStringList args = launchArgs({"--dry-run"});
        args[args.indexOf("--ssh-from") + 1] = "203.0.113.7";
        if (!ProviderRegistry::builtIn().find(provider.id.toStdString())->supports(CloudFeature::DryRun)) {
            // GCE and Azure cannot check a launch without starting it: refused, saying so, and nothing is sent.
            const Run refused = gpuplan(args);
            QVERIFY2(refused.exit != 0 && refused.err.contains("cannot check a launch without starting it"),
                     qPrintable(refused.err));
            QCOMPARE(m_cli.fake->runInstancesCalls(), 0);
            QCOMPARE(m_cli.fake->state().value("instances").toArray().size(), 0);
            std::unique_ptr<Ledger> l = ledger();
            QVERIFY(!l || l->entries()->empty());
            return;
        }
        if (provider.id == "huawei") {
            // CreateServers names a VPC and a subnet even to be checked: in a project without any, Huawei is not
            // asked, and the dry run says so; the project's own VPC then serves for the check.
            const Run unasked = gpuplan(args);
            QVERIFY2(unasked.exit == 0 && !unasked.json().value("passed").toBool(), qPrintable(unasked.err));
            QVERIFY2(unasked.err.contains("dry run was not asked"), qPrintable(unasked.err));
            QCOMPARE(m_cli.fake->runInstancesCalls(), 0);
            m_cli.fake->call("POST", "/_fake/vpcs", QJsonDocument(QJsonObject{{"region", provider.region}}).toJson());
        }
        const Run checked = gpuplan(args);
        QVERIFY2(checked.exit == 0, qPrintable(checked.err + checked.out));
        QVERIFY(checked.json().value("passed").toBool());
        QVERIFY2(checked.err.contains("SSH is opened to 203.0.113.7/32 only"), qPrintable(checked.err));
        QCOMPARE(m_cli.fake->state().value("instances").toArray().size(), 0);
        QVERIFY(m_cli.fake->runInstancesCalls() >= 1);
        std::unique_ptr<Ledger> l = ledger();
        QVERIFY(!l || l->entries()->empty());

        // Without --ssh-from, and no way to learn this computer's address: a dry run goes on, and says so.
        QStringList unknownAddress = launchArgs({"--dry-run"});
        unknownAddress.remove(unknownAddress.indexOf("--ssh-from"), 2);
        QProcessEnvironment offline;
        offline.insert("GPUPLAN_CHECKIP_URL", "http://127.0.0.1:9/"); // the discard port: nothing answers
        const Run blind = gpuplan(unknownAddress, offline);
        QVERIFY2(blind.exit == 0, qPrintable(blind.err + blind.out));
        QVERIFY2(blind.err.contains("192.0.2.1/32 (a documentation address"), qPrintable(blind.err));
        QCOMPARE(m_cli.fake->state().value("instances").toArray().size(), 0);
        // A real launch without the address is refused, naming the flag.
        const Run refused =
            gpuplan(launchArgs().mid(0, launchArgs().indexOf("--ssh-from")) + QStringList{"--yes"}, offline);
        QVERIFY2(refused.exit != 0 && refused.err.contains("--ssh-from"), qPrintable(refused.err));
        QCOMPARE(m_cli.fake->state().value("instances").toArray().size(), 0);
    }

    void refusalsSayWhatToDo_data()
    {
        QTest::addColumn<ProviderCase>("provider");
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("advice");
        struct Refusal
        {
            ProviderCase provider;
            const char* what;
            QString fault;
            QString advice;
        };
        const QList<Refusal> refusals{
            {aws(), "quota", "quota_exceeded", "quota"},
            {aws(), "permission", "unauthorized", "ec2:RunInstances"},
            {tencent(), "quota", "quota_exceeded", "quota"},
            {tencent(), "permission", "unauthorized", "cvm:RunInstances"},
            // What Chinese accounts meet (issue 24): quota, a missing RAM/IAM permission, no real-name verification,
            // no balance; each says what to do, and where.
            {alibaba(), "quota", "quota_exceeded", "Quota Center"},
            {alibaba(), "permission", "unauthorized", "ecs:RunInstances"},
            {alibaba(), "real name", "real_name_missing", "real-name verification"},
            {alibaba(), "balance", "not_enough_balance", "top up"},
            {huawei(), "quota", "quota_exceeded", "My Quotas"},
            {huawei(), "permission", "unauthorized", "ecs:cloudServers:create"},
            {huawei(), "real name", "real_name_missing", "real-name verification"},
            {huawei(), "balance", "not_enough_balance", "top it up"},
            // Issue 25: a new project's or subscription's GPU quota is 0; each says which quota, and where.
            {gcp(), "quota", "quota_exceeded", "IAM & Admin -> Quotas"},
            {gcp(), "permission", "unauthorized", "compute.instances.create"},
            {azure(), "quota", "quota_exceeded", "Usage + quotas"},
            {azure(), "permission", "unauthorized", "Microsoft.Compute/virtualMachines/write"},
            {lambda(), "quota", "quota_exceeded", "ask Lambda's support to raise it"},
            {paperspace(), "quota", "quota_exceeded", "ask Paperspace support to raise the limit"},
            {paperspace(), "permission", "unauthorized", "team administrator"},
        };
        QStringList chosen;
        for (const ProviderCase& c : chosenProviders()) {
            chosen << c.id;
        }
        for (const Refusal& r : refusals) {
            if (chosen.contains(r.provider.id)) {
                QTest::addRow("%s %s", qPrintable(r.provider.id), r.what) << r.provider << r.fault << r.advice;
            }
        }
    }
    void refusalsSayWhatToDo()
    {
        QFETCH(ProviderCase, provider);
        QFETCH(QString, fault);
        QFETCH(QString, advice);
        QVERIFY(setUp(provider));
        m_cli.fake->faults(fault == "unauthorized" ? QJsonObject{{"unauthorized", QJsonArray{provider.launchAction}}}
                                                   : QJsonObject{{fault, true}});
        const Run refused = gpuplan(launchArgs());
        QCOMPARE(refused.exit, 1);
        QVERIFY2(refused.err.contains(advice, Qt::CaseInsensitive), qPrintable(refused.err));
        for (const QString& secret : provider.secrets) {
            QVERIFY(!refused.err.contains(secret));
        }
        QCOMPARE(m_cli.fake->liveInstances().size(), 0);
        std::unique_ptr<Ledger> l = ledger();
        QCOMPARE(l->live()->size(), std::size_t(0)); // recorded, and closed as failed
    }

    void theBudgetGuardRefusesBeforeAnythingIsSent()
    {
        QVERIFY(setUp(aws()));
        // 12 h of dead-man at 3.06 USD is about 265 CNY: over a budget of 100 CNY.
        const Run refused = gpuplan(launchArgs({"--budget", "100"}));
        QCOMPARE(refused.exit, 2);
        QVERIFY2(refused.err.contains("budget"), qPrintable(refused.err));
        QCOMPARE(m_cli.fake->runInstancesCalls(), 0);
        const Run allowed = gpuplan(launchArgs({"--budget", "1000", "--hours", "2"}));
        QVERIFY2(allowed.exit == 0, qPrintable(allowed.err));
    }

    void aPlanOptionLaunchesWithItsDeadmanAndBudget_data() { addSomeProviders(); }
    void aPlanOptionLaunchesWithItsDeadmanAndBudget()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        const Run planned = gpuplan({"plan",
                                     "--preset",
                                     "resnet50-imagenet",
                                     "--budget",
                                     "100000",
                                     "--currency",
                                     "USD",
                                     "--top",
                                     "200",
                                     "--json",
                                     "-o",
                                     path("run.gpuplan")});
        QVERIFY2(planned.exit == 0, qPrintable(planned.err));
        QFile file(path("run.gpuplan"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject plan = QJsonDocument::fromJson(file.readAll()).object();
        int rank = 0;
        QJsonObject option;
        for (const QJsonValue& v : plan.value("results").toObject().value("options").toArray()) {
            if (v.toObject().value("provider").toString() == provider.id
                && v.toObject().value("mode").toString() == "on_demand") {
                option = v.toObject();
                rank = option.value("rank").toInt();
                break;
            }
        }
        QVERIFY2(rank > 0, "the plan has no on-demand option of this provider");

        const Run launched = gpuplan({"launch",
                                      "--plan",
                                      path("run.gpuplan"),
                                      "--option",
                                      QString::number(rank),
                                      "--key",
                                      path("id_ed25519.pub"),
                                      "--ssh-from",
                                      "203.0.113.7/32",
                                      "--yes",
                                      "--wait",
                                      "request",
                                      "--json"});
        QVERIFY2(launched.exit == 0, qPrintable(launched.err + launched.out));
        const QJsonObject out = launched.json();
        QCOMPARE(out.value("instance_type").toString(), option.value("instance_type").toString());
        QCOMPARE(out.value("region").toString(), option.value("region").toString());
        QVERIFY(out.value("plan_id").toString().startsWith("plan-"));
        // The dead-man's default: the plan's high estimate, a quarter more and an hour, in whole hours.
        const int deadman = int(std::ceil(option.value("hours").toObject().value("high").toDouble() * 1.25 + 1));
        QCOMPARE(out.value("deadman_hours").toDouble(), double(deadman));
        const QJsonObject instance = m_cli.fake->state().value("instances").toArray().first().toObject();
        QVERIFY(instance.value("user_data")
                    .toString()
                    .contains(QString(": \"${GPUPLAN_DEADMAN_HOURS:=%1}\"").arg(deadman)));
        QCOMPARE(instance.value("tags").toObject().value("gpuplanner-plan").toString(),
                 out.value("plan_id").toString());
        if (provider.id == "tencent") {
            // CVM's own timer terminates it: a shutdown inside a CVM would not end the billing.
            QVERIFY(instance.contains("terminate_at"));
        }
        std::unique_ptr<Ledger> l = ledger();
        Result<std::vector<PlanBudget>> budgets = l->budgets();
        QCOMPARE(budgets->size(), std::size_t(1));
        QCOMPARE(budgets->front().amount, 100000.0);
        QCOMPARE(budgets->front().currency, Currency::USD);
    }

    void aPlanThatSpentItsBudgetIsTerminated()
    {
        QVERIFY(setUp(aws()));
        // No dead-man, so the guard lets it start; a minute's billing (0.05 USD) is over 0.10 CNY at once.
        const Run launched = gpuplan(launchArgs({"--budget", "0.1", "--terminate-at-budget", "--hours", "0"}));
        QVERIFY2(launched.exit == 0, qPrintable(launched.err));
        QVERIFY2(launched.err.contains("The dead-man switch is OFF"), qPrintable(launched.err));
        QCOMPARE(m_cli.fake->liveInstances().size(), 1);
        // Finding 11 in reconcile: with a catalog that has no exchange rate the guard cannot compare USD spending
        // with a CNY budget. It says so, and ends nothing.
        const QString noRate = path("catalog-without-rate");
        QVERIFY(QProcess::execute("cp", {"-r", GPUPLAN_SOURCE_DIR "/resources/catalog", noRate}) == 0);
        QVERIFY(QFile::remove(noRate + "/exchange_rate.json"));
        const Run unchecked = gpuplan({"--catalog", noRate, "instances", "--json"});
        QVERIFY2(unchecked.err.contains("budgets were NOT checked") && unchecked.err.contains("exchange rate"),
                 qPrintable(unchecked.err));
        QCOMPARE(m_cli.fake->liveInstances().size(), 1);
        const Run checked = gpuplan({"instances", "--json"});
        QVERIFY2(checked.err.contains("has spent its budget") && checked.err.contains("terminated"),
                 qPrintable(checked.err));
        QCOMPARE(m_cli.fake->liveInstances().size(), 0);
        // The provider is shutting it down: the entry stays live (stopping) until the provider reports it gone.
        const QJsonArray left = checked.json().value("instances").toArray();
        QVERIFY(left.isEmpty() || left.first().toObject().value("state").toString() == "stopping");
    }

    // Finding 8: the proxy of Settings -> Network (the GUI's settings file, which gpuplan reads too) and --proxy
    // are the way every cloud request goes, through a real proxy (tinyproxy) on loopback.
    void aLaunchGoesThroughTheProxy_data() { addSomeProviders(); }
    void aLaunchGoesThroughTheProxy()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        LoopbackProxy proxy;
        QVERIFY2(proxy.start(), qPrintable(proxy.error()));
        for (const char* bypass : {"no_proxy", "NO_PROXY", "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy"}) {
            m_cli.env.remove(QString::fromLatin1(bypass));
        }
        // A proxy that is not there: the launch fails naming it, and nothing starts (so the setting is used).
        const QString closed = QStringLiteral("http://127.0.0.1:%1").arg(freePort());
        const Run refused = gpuplan(launchArgs({"--proxy", closed}));
        QVERIFY2(refused.exit != 0 && refused.err.contains("127.0.0.1"), qPrintable(refused.err));
        QCOMPARE(m_cli.fake->state().value("instances").toArray().size(), 0);
        // The GUI's Settings -> Network, saved in its settings file, with no flag: the launch goes through it.
        {
            QSettings gui(path("config") + "/gpuplanner/gpuplanner.conf", QSettings::IniFormat);
            gui.setValue("network/proxy", proxy.url());
        }
        const Run launched = gpuplan(launchArgs());
        QVERIFY2(launched.exit == 0, qPrintable(launched.err + launched.out));
        const int carried = proxy.requestsTo(m_cli.fake->url());
        QVERIFY2(carried >= 3, proxy.log().constData()); // images/key/group/run/describe...
        QCOMPARE(m_cli.fake->liveInstances().size(), 1);
        // --proxy wins over the setting; `instances` and `terminate` go through it as well.
        const Run listed = gpuplan({"instances", "--json", "--proxy", closed});
        QVERIFY2(listed.err.contains("not reconciled"), qPrintable(listed.err));
        const int before = proxy.requestsTo(m_cli.fake->url());
        const Run ended = gpuplan({"terminate", launched.json().value("instance_id").toString()});
        QVERIFY2(ended.exit == 0, qPrintable(ended.err));
        QVERIFY(proxy.requestsTo(m_cli.fake->url()) > before);
        QCOMPARE(m_cli.fake->liveInstances().size(), 0);
        // An extra CA file that is not there is refused before anything is sent, naming the flag.
        const Run noCa = gpuplan(launchArgs({"--ca-file", path("no-such-ca.pem")}));
        QCOMPARE(noCa.exit, 2);
        QVERIFY2(noCa.err.contains("--ca-file") && noCa.err.contains("no-such-ca.pem"), qPrintable(noCa.err));
    }

    // Issue 23, item 5: the log of a whole session (credential stored and listed, a launch until it runs, the
    // instances reconciled, the instance terminated) at trace, every category, has lines from the net, cloud,
    // ledger and secrets categories, and none of the secrets used: the secret key, the full access key id (the log
    // shows it masked, as `creds list` does), the credentials file's passphrase, the signatures gpuplan sent (read
    // by a capture proxy on the way to the fake) and the SSH private key. Without GPUPLAN_LOG or -v: no log line.
    void logOfAWholeSessionHoldsNoSecret_data() { addProviders(); }
    void logOfAWholeSessionHoldsNoSecret()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        for (const char* bypass : {"no_proxy", "NO_PROXY", "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy"}) {
            m_cli.env.remove(QString::fromLatin1(bypass));
        }
        QProcess capture;
        capture.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        capture.start("python3",
                      {QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/capture_proxy.py"),
                       "--port-file",
                       path("capture-port"),
                       "--record",
                       path("authorizations")});
        int port = 0;
        for (int i = 0; i < 100 && port == 0; ++i) {
            QFile f(path("capture-port"));
            port = f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toInt() : 0;
            QTest::qWait(50);
        }
        QVERIFY2(port > 0, "the capture proxy did not start");
        {
            QSettings gui(path("config") + "/gpuplanner/gpuplanner.conf", QSettings::IniFormat);
            gui.setValue("network/proxy", QStringLiteral("http://127.0.0.1:%1").arg(port));
        }
        const auto stopCapture = qScopeGuard([&capture] {
            capture.kill();
            capture.waitForFinished(5000);
        });

        // Quiet by default: a reconcile (credential, network, ledger) and the list print no log line.
        const QRegularExpression logLine(QStringLiteral("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\[([a-z]+)\\] "
                                                        "(error|warning|info|debug|trace): "),
                                         QRegularExpression::MultilineOption);
        for (const QStringList& args : {QStringList{"instances", "--json"}, QStringList{"creds", "list"}}) {
            const Run quiet = gpuplan(args);
            QVERIFY2(quiet.exit == 0, qPrintable(quiet.err));
            QVERIFY2(!logLine.match(quiet.err).hasMatch(), qPrintable(quiet.err));
        }

        QString log; // stdout and stderr of every command: the secrets may be in neither
        const auto run = [&](const QStringList& args, const QByteArray& input = {}) {
            QProcess process;
            QProcessEnvironment env = m_cli.env;
            env.insert("GPUPLAN_LOG", "trace");
            process.setProcessEnvironment(env);
            process.start(CliSession::binary(), args);
            process.write(input);
            process.closeWriteChannel();
            Run r;
            if (process.waitForFinished(120000)) {
                r.exit = process.exitCode();
            } else {
                process.kill();
                process.waitForFinished();
            }
            r.out = QString::fromUtf8(process.readAllStandardOutput());
            r.err = QString::fromUtf8(process.readAllStandardError());
            log += r.err + r.out;
            return r;
        };
        const QByteArray fields = QJsonDocument(provider.credential).toJson(QJsonDocument::Compact);
        QCOMPARE(run({"creds", "set", provider.id, "--stdin"}, fields).exit, 0);
        QCOMPARE(run({"creds", "list"}).exit, 0);
        const Run launched = run(launchArgs());
        QCOMPARE(launched.exit, 0);
        const Run listed = run({"instances", "--json"});
        QCOMPARE(listed.exit, 0);
        const QJsonArray rows = listed.json().value("instances").toArray();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(run({"terminate", QString::number(rows.first().toObject().value("id").toInt())}).exit, 0);
        QCOMPARE(m_cli.fake->liveInstances().size(), 0);

        // Log lines of the four categories a session goes through, at several levels.
        QSet<QString> categories;
        QSet<QString> levels;
        for (QRegularExpressionMatchIterator it = logLine.globalMatch(log); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            categories.insert(m.captured(1));
            levels.insert(m.captured(2));
        }
        for (const char* category : {"net", "cloud", "ledger", "secrets"}) {
            QVERIFY2(categories.contains(QLatin1String(category)), category);
        }
        QVERIFY(levels.contains("info") && levels.contains("debug") && levels.contains("trace"));
        QVERIFY(log.contains("Authorization: [redacted]"));
        if (!provider.keyId.isEmpty()) { // which key, masked (an API key has no key id)
            QVERIFY(log.contains(QString::fromStdString(maskKeyId(provider.keyId.toStdString()))));
        }

        // What must not be there, in any of the forms a log could show it.
        QStringList secrets{
            m_cli.env.value("GPUPLAN_CREDENTIALS_PASSPHRASE"),
            QString::fromUtf8(QUrl::toPercentEncoding(m_cli.env.value("GPUPLAN_CREDENTIALS_PASSPHRASE")))};
        for (const QString& secret : provider.secrets) {
            secrets << secret << QString::fromUtf8(QUrl::toPercentEncoding(secret));
        }
        if (!provider.keyId.isEmpty()) {
            secrets << provider.keyId;
        }
        QFile privateKey(path("id_ed25519"));
        QVERIFY(privateKey.open(QIODevice::ReadOnly));
        for (const QByteArray& line : privateKey.readAll().split('\n')) {
            if (!line.startsWith("-----") && line.trimmed().size() >= 16) {
                secrets << QString::fromLatin1(line.trimmed());
            }
        }
        QFile authorizations(path("authorizations"));
        QVERIFY2(authorizations.open(QIODevice::ReadOnly), "the capture proxy carried no signed request");
        int signatures = 0; // a request's signature, or the bearer token it carried (Google, Azure)
        for (const QByteArray& value : authorizations.readAll().split('\n')) {
            const int at = value.lastIndexOf("Signature=");
            if (at >= 0) {
                secrets << QString::fromLatin1(value.mid(at + 10)) << QString::fromLatin1(value);
                ++signatures;
            } else if (value.startsWith("Bearer ") && value.size() > 7 + 16) {
                secrets << QString::fromLatin1(value.mid(7)) << QString::fromLatin1(value);
                ++signatures;
            }
        }
        QVERIFY2(signatures >= 5, qPrintable(QString::number(signatures))); // launch, describe, list, terminate...
        for (int i = 0; i < secrets.size(); ++i) {
            const qsizetype at = log.indexOf(secrets[i]);
            QVERIFY2(at < 0,
                     qPrintable(QStringLiteral("secret #%1 (%2 characters) is in the log at offset %3 of %4")
                                    .arg(i)
                                    .arg(secrets[i].size())
                                    .arg(at)
                                    .arg(log.size())));
        }
    }

    // The fake-behaviour matrix (issue 20): each provider x each way a cloud behaves in practice, with a second
    // process reconciling the ledger over and over during the launch and during the termination. Whatever happens:
    // one instance (0 doubled), none left running (0 leaked), the entry closed only when the provider shows it
    // terminated, and its cost right and frozen once it ended.
    void theFakeBehaviourMatrix_data()
    {
        QTest::addColumn<ProviderCase>("provider");
        QTest::addColumn<QJsonObject>("faults");
        for (const ProviderCase& c : {aws(), tencent()}) {
            const QByteArray id = c.id.toUtf8();
            QTest::newRow(id + " x as documented") << c << QJsonObject{};
            QTest::newRow(id + " x invisible to describe for 4 s") << c << QJsonObject{{"invisible_s", 4}};
            // EC2's client retries a 5xx (4 attempts) with the same token; CVM answers InternalError once.
            QTest::newRow(id + " x InternalError after create")
                << c << QJsonObject{{"internal_error_after_create", c.id == "aws" ? 4 : 1}, {"invisible_s", 3}};
            QTest::newRow(id + " x reply lost after create, same token again")
                << c << QJsonObject{{"drop_after_accept", 1}};
            QTest::newRow(id + " x slow terminate (8 s)") << c << QJsonObject{{"terminate_slow_s", 8}};
            QTest::newRow(id + " x throttled") << c << QJsonObject{{"throttle", 3}};
        }
    }
    void theFakeBehaviourMatrix()
    {
        QFETCH(ProviderCase, provider);
        QFETCH(QJsonObject, faults);
        QVERIFY(setUp(provider));
        m_cli.fake->faults(faults);
        int reconciles = 0;
        // Runs `args` while another process reconciles as fast as it can; the first's result.
        const auto whileReconciling = [&](const QStringList& args) {
            QProcess* running = startGpuplan(args);
            while (running->state() != QProcess::NotRunning) {
                const Run r = gpuplan({"instances", "--json"});
                ++reconciles;
                if (r.exit != 0 && r.exit != 1) { // a provider that cannot be asked is exit 1; anything else is not
                    qWarning() << "reconcile:" << r.exit << r.err;
                    return Run{};
                }
                running->waitForFinished(200);
            }
            running->waitForFinished(120000);
            Run r;
            r.exit = running->exitStatus() == QProcess::CrashExit ? -1 : running->exitCode();
            r.out = QString::fromUtf8(running->readAllStandardOutput());
            r.err = QString::fromUtf8(running->readAllStandardError());
            return r;
        };
        // An outcome the provider left unknown is retried by the user, as the message says.
        Run launched = whileReconciling(launchArgs());
        for (int retry = 0; launched.exit == 1 && retry < 3; ++retry) {
            launched = whileReconciling(launchArgs());
        }
        QVERIFY2(launched.exit == 0, qPrintable(launched.err + launched.out));
        const QString instanceId = launched.json().value("instance_id").toString();
        const QJsonArray created = m_cli.fake->state().value("instances").toArray();
        QCOMPARE(created.size(), 1); // 0 doubled
        QCOMPARE(created.first().toObject().value("id").toString(), instanceId);
        {
            Result<std::vector<LedgerEntry>> entries = ledger()->entries();
            QCOMPARE(entries->size(), std::size_t(1));
            QCOMPARE(entries->front().state, InstanceState::Running);
            QCOMPARE(QString::fromStdString(entries->front().instanceId), instanceId);
            QVERIFY(!entries->front().endedAt.has_value());
        }
        const Run ended = whileReconciling({"terminate", instanceId});
        QVERIFY2(ended.exit == 0, qPrintable(ended.err));
        // Closed only on evidence: once the provider lists it terminated (a slow one takes a few seconds).
        QElapsedTimer waited;
        waited.start();
        LedgerEntry entry;
        while (true) {
            QVERIFY2(gpuplan({"instances", "--json"}).exit == 0, "reconcile failed");
            Result<std::vector<LedgerEntry>> entries = ledger()->entries();
            QCOMPARE(entries->size(), std::size_t(1));
            entry = entries->front();
            if (entry.state == InstanceState::Terminated || waited.elapsed() > 60000) {
                break;
            }
            QTest::qWait(500);
        }
        QCOMPARE(entry.state, InstanceState::Terminated);
        QCOMPARE(m_cli.fake->liveInstances().size(), 0); // 0 leaked
        QVERIFY(entry.endedAt.has_value() && entry.runningSince.has_value() && *entry.endedAt >= *entry.runningSince);
        // What it ran, billed by the second with at most EC2's one-minute minimum; nothing after it ended.
        const double cost = costSoFar(entry, *entry.endedAt);
        const double ran = double(*entry.endedAt - *entry.runningSince);
        const double perSecond = entry.intent.price.amount / 3600;
        QVERIFY2(cost >= ran * perSecond - 1e-9 && cost <= std::max(ran, 60.0) * perSecond + 1e-9,
                 qPrintable(QString("cost %1 for %2 s at %3/h").arg(cost).arg(ran).arg(entry.intent.price.amount)));
        QCOMPARE(costSoFar(entry, *entry.endedAt + 86400), cost); // frozen once ended
        qInfo("%s: %d concurrent reconciles; 1 instance created, 0 leaked, 0 doubled; entry terminated after %.0f s "
              "running, cost %.6f %s",
              QTest::currentDataTag(),
              reconciles,
              ran,
              cost,
              currencyCode(entry.intent.price.currency));
    }

    // Must-show of issue 20: a public key with a Latin-1 comment ends the launch with a clear message, exit 2,
    // and nothing is recorded (no "requested" entry) or sent.
    void aKeyWithALatin1CommentIsRefusedBeforeAnything_data() { addSomeProviders(); }
    void aKeyWithALatin1CommentIsRefusedBeforeAnything()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        QFile key(path("id_ed25519.pub"));
        QVERIFY(key.open(QIODevice::ReadOnly));
        const QByteArray line = key.readAll().trimmed().split(' ').mid(0, 2).join(' ') + " caf\xE9@lab\n";
        key.close();
        QFile latin1(path("latin1.pub"));
        QVERIFY(latin1.open(QIODevice::WriteOnly) && latin1.write(line) == line.size());
        latin1.close();
        QStringList args = launchArgs();
        args[args.indexOf("--key") + 1] = latin1.fileName();
        const Run refused = gpuplan(args);
        QCOMPARE(refused.exit, 2);
        QVERIFY2(refused.err.contains("latin1.pub") && refused.err.contains("not UTF-8")
                     && refused.err.contains("ssh-keygen -c"),
                 qPrintable(refused.err));
        QVERIFY(!refused.err.contains("terminate called") && !refused.err.contains("internal error"));
        std::unique_ptr<Ledger> l = ledger();
        QVERIFY(l);
        QCOMPARE(l->entries()->size(), std::size_t(0));
        QCOMPARE(m_cli.fake->state().value("calls").toArray().size(), 0);
    }

    // Issue 20, finding 10: the security group is found by name and reused; one that lost its SSH rule (deleted by
    // hand, or an earlier create whose authorize step never ran) gets it back, and the launch goes on.
    void aReusedGroupWithoutItsSshRuleIsRepaired_data()
    {
        QTest::addColumn<ProviderCase>("provider");
        for (const ProviderCase& c : chosenProviders()) { // Lambda and Paperspace have no firewall of their own
            if (ProviderRegistry::builtIn().find(c.id.toStdString())->supports(CloudFeature::SshSourceRestriction)) {
                QTest::newRow(qPrintable(c.id)) << c;
            }
        }
    }
    void aReusedGroupWithoutItsSshRuleIsRepaired()
    {
        QFETCH(ProviderCase, provider);
        QVERIFY(setUp(provider));
        QJsonObject wanted{{"region", provider.region}, {"name", "gpuplanner-ssh-203-0-113-7-32"}};
        if (provider.id == "alibaba") {
            // An ECS security group belongs to a VPC: the account's default one, which the launch uses too.
            const QJsonObject vpc = m_cli.fake->call(
                "POST", "/_fake/vpcs", QJsonDocument(QJsonObject{{"region", provider.region}}).toJson());
            QVERIFY(!vpc.value("vpc_id").toString().isEmpty());
            wanted.insert("vpc_id", vpc.value("vpc_id"));
        }
        if (provider.id == "huawei") {
            // A Huawei security group belongs to a VPC: GPU Planner's own, "gpuplanner", made by an earlier launch.
            const QJsonObject vpc = m_cli.fake->call(
                "POST",
                "/_fake/vpcs",
                QJsonDocument(QJsonObject{{"region", provider.region}, {"name", "gpuplanner"}}).toJson());
            QVERIFY(!vpc.value("id").toString().isEmpty());
            wanted.insert("vpc_id", vpc.value("id"));
        }
        if (provider.id == "gcp") {
            // A firewall rule of that name that opens nothing any more (its allowed and source ranges removed).
            QVERIFY(m_cli.fake->call("POST", "/_fake/firewalls", QJsonDocument(wanted).toJson()).value("ok").toBool());
            QVERIFY2(gpuplan(launchArgs()).exit == 0, "launch");
            const QJsonArray rules = m_cli.fake->state().value("firewalls").toArray();
            QCOMPARE(rules.size(), 1); // repaired, not a second one
            const QJsonObject rule = rules.first().toObject();
            QCOMPARE(rule.value("sourceRanges").toArray(), QJsonArray{"203.0.113.7/32"});
            QCOMPARE(rule.value("allowed").toArray().first().toObject().value("ports").toArray(), QJsonArray{"22"});
            QVERIFY2(gpuplan(launchArgs()).exit == 0, "second launch");
            QCOMPARE(m_cli.fake->state().value("firewalls").toArray().size(), 1);
            return;
        }
        const QJsonObject made = m_cli.fake->call("POST", "/_fake/security_groups", QJsonDocument(wanted).toJson());
        const QString groupId = made.value("id").toString();
        QVERIFY(!groupId.isEmpty());

        const Run launched = gpuplan(launchArgs());
        QVERIFY2(launched.exit == 0, qPrintable(launched.err + launched.out));
        QCOMPARE(m_cli.fake->liveInstances().size(), 1);
        if (provider.id == "azure") {
            // The network security group gets its SSH rule back (Azure adds its own default rules beside it).
            const QJsonArray groups = m_cli.fake->state().value("security_groups").toArray();
            QCOMPARE(groups.size(), 1);
            QCOMPARE(groups.first().toObject().value("id").toString(), groupId);
            const QJsonArray rules =
                groups.first().toObject().value("properties").toObject().value("securityRules").toArray();
            QCOMPARE(rules.size(), 1);
            const QJsonObject rule = rules.first().toObject().value("properties").toObject();
            QCOMPARE(rule.value("sourceAddressPrefix").toString(), QString("203.0.113.7/32"));
            QCOMPARE(rule.value("destinationPortRange").toString(), QString("22"));
            QVERIFY2(gpuplan(launchArgs()).exit == 0, "second launch");
            QCOMPARE(m_cli.fake->state()
                         .value("security_groups")
                         .toArray()
                         .first()
                         .toObject()
                         .value("properties")
                         .toObject()
                         .value("securityRules")
                         .toArray()
                         .size(),
                     1);
            return;
        }
        const QJsonArray groups = m_cli.fake->state().value("security_groups").toArray();
        QCOMPARE(groups.size(), 1); // reused, not a second one
        const QJsonObject group = groups.first().toObject();
        QCOMPARE(group.value(provider.id == "aws" || provider.id == "huawei" ? "id" : "SecurityGroupId").toString(),
                 groupId);
        if (provider.id == "aws") {
            QCOMPARE(group.value("ssh_from").toArray(), QJsonArray{"203.0.113.7/32"});
        } else if (provider.id == "alibaba") {
            // ECS groups allow all outbound traffic unless told otherwise: only the SSH rule is added.
            const QJsonArray rules = group.value("Permissions").toArray();
            QCOMPARE(rules.size(), 1);
            QCOMPARE(rules.first().toObject().value("SourceCidrIp").toString(), QString("203.0.113.7/32"));
            QCOMPARE(rules.first().toObject().value("PortRange").toString(), QString("22/22"));
        } else if (provider.id == "huawei") {
            // The test's group has no rule at all; only the SSH rule is added (outbound is the project's business).
            const QJsonArray rules = group.value("security_group_rules").toArray();
            QCOMPARE(rules.size(), 1);
            const QJsonObject rule = rules.first().toObject();
            QCOMPARE(rule.value("direction").toString(), QString("ingress"));
            QCOMPARE(rule.value("remote_ip_prefix").toString(), QString("203.0.113.7/32"));
            QCOMPARE(rule.value("port_range_min").toInt(), 22);
            QCOMPARE(rule.value("port_range_max").toInt(), 22);
        } else {
            const QJsonArray ingress = group.value("Ingress").toArray();
            QCOMPARE(ingress.size(), 1);
            QCOMPARE(ingress.first().toObject().value("CidrBlock").toString(), QString("203.0.113.7/32"));
            QCOMPARE(ingress.first().toObject().value("Port").toString(), QString("22"));
            QCOMPARE(group.value("Egress").toArray().size(), 1); // a group without rules drops outbound traffic too
        }

        // With the rule in place, the next launch adds nothing.
        const Run again = gpuplan(launchArgs());
        QVERIFY2(again.exit == 0, qPrintable(again.err + again.out));
        const QJsonObject after = m_cli.fake->state().value("security_groups").toArray().first().toObject();
        QCOMPARE(after
                     .value(provider.id == "aws"       ? "ssh_from"
                            : provider.id == "alibaba" ? "Permissions"
                            : provider.id == "huawei"  ? "security_group_rules"
                                                       : "Ingress")
                     .toArray()
                     .size(),
                 1);
    }

    void badFlagsAreNamed()
    {
        QVERIFY(setUp(aws()));
        QStringList openToAll = launchArgs();
        openToAll[openToAll.indexOf("--ssh-from") + 1] = "0.0.0.0/0";
        const Run open = gpuplan(openToAll);
        QCOMPARE(open.exit, 2);
        QVERIFY2(open.err.contains("0.0.0.0/0") && open.err.contains("whole internet"), qPrintable(open.err));
        const Run noPrice = gpuplan({"launch",
                                     "--provider",
                                     "aws",
                                     "--instance",
                                     "p3.2xlarge",
                                     "--region",
                                     "mars-north-1",
                                     "--key",
                                     path("id_ed25519.pub"),
                                     "--ssh-from",
                                     "203.0.113.7/32",
                                     "--yes"});
        QCOMPARE(noPrice.exit, 1);
        QVERIFY2(noPrice.err.contains("mars-north-1") && noPrice.err.contains("--price"), qPrintable(noPrice.err));
        QStringList noKeyArgs = launchArgs();
        noKeyArgs[noKeyArgs.indexOf("--key") + 1] = path("missing.pub");
        const Run noKey = gpuplan(noKeyArgs);
        QCOMPARE(noKey.exit, 2);
        QVERIFY2(noKey.err.contains("missing.pub"), qPrintable(noKey.err));
        const Run monthlyOnAws = gpuplan(launchArgs({"--monthly", "1", "--price", "2000"}));
        QCOMPARE(monthlyOnAws.exit, 2);
        QVERIFY2(monthlyOnAws.err.contains("subscription"), qPrintable(monthlyOnAws.err));
        const Run limitWithoutSpot = gpuplan(launchArgs({"--spot-max-price", "1.5"}));
        QCOMPARE(limitWithoutSpot.exit, 2);
        QVERIFY2(limitWithoutSpot.err.contains("--spot-max-price") && limitWithoutSpot.err.contains("--spot"),
                 qPrintable(limitWithoutSpot.err));
        const Run negativeLimit = gpuplan(launchArgs({"--spot", "--spot-max-price", "-1"}));
        QCOMPARE(negativeLimit.exit, 2);
        QVERIFY2(negativeLimit.err.contains("--spot-max-price"), qPrintable(negativeLimit.err));
        QCOMPARE(m_cli.fake->runInstancesCalls(), 0);
    }
};

QTEST_GUILESS_MAIN(TestLaunchFlow)
#include "TestLaunchFlow.moc"
