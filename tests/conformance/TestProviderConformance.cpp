// The provider conformance suite: what every cloud that launches VMs must do, run against each provider's fake.
// A provider joins GPU Planner with its folder (core/cloud/providers/<id>/) and one line in
// ProviderRegistry::builtIn(); it joins this suite with one line in providersUnderTest() naming its fake. The suite
// checks that every provider the registry can launch on is here.
//
// "Test Cloud" (tests/providers/testcloud) exists only in the tests: it proves that a provider written against the
// kit (ProviderDescriptor, VmProvider's launch skeleton, ApiError, CallContext) joins by one folder and one line.
//
// What is checked, through the real Launcher and a real SQLite ledger, for each provider: a launch that runs and is
// listed as ours; the same client token never launching twice; capacity falling back zone by zone; throttling
// retried; a dropped reply resent without a second instance; an instance invisible for a while after its launch
// (eventual consistency) waited for; terminate, twice; a dry run that starts nothing. The fakes are fakes because no
// real cloud is reachable from here, and none would refuse capacity, throttle or drop a reply on demand.

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "../integration/fakes/FakeCloud.h"
#include "../providers/testcloud/TestCloudProvider.h"
#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/cloud/providers/alibaba/AlibabaProvider.h"
#include "gpuplan/cloud/providers/aws/AwsEc2Provider.h"
#include "gpuplan/cloud/providers/azure/AzureProvider.h"
#include "gpuplan/cloud/providers/gcp/GcpProvider.h"
#include "gpuplan/cloud/providers/huawei/HuaweiProvider.h"
#include "gpuplan/cloud/providers/lambda/LambdaProvider.h"
#include "gpuplan/cloud/providers/paperspace/PaperspaceProvider.h"
#include "gpuplan/cloud/providers/tencent/TencentCvmProvider.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/net/HttpClient.h"
#include "gpuplan/secrets/Credential.h"

using namespace gpuplan::core;
using namespace gpuplan::testing;

namespace {

/// One provider as the suite runs it: what it is, and its fake.
struct ProviderUnderTest
{
    const ProviderDescriptor* descriptor = nullptr;
    ProviderCase fake; // script (relative to the source tree), region, instance type, the region's zones in order
    /// A provider whose dry run can be asked only in an existing network (Huawei: CreateServers names a VPC and a
    /// subnet, which a dry run does not create): the fake's control that gives the account a VPC of its own. Its dry
    /// run on a new account starts nothing and says it was not asked; in that VPC it passes.
    QString dryRunNeedsNetwork;
};

const QString kFakes = QStringLiteral("tests/integration/fakes/");

/// A launch test's provider case, its fake's script found from the source tree.
ProviderCase fromTheFakes(ProviderCase c)
{
    c.script = kFakes + c.script;
    return c;
}

/// Test Cloud's fake: an API key only.
ProviderCase testCloud()
{
    ProviderCase c{"testcloud",
                   "tests/providers/testcloud/fake_testcloud.py",
                   "tc-north",
                   "gpu.a100.1",
                   {"tc-north-a", "tc-north-b", "tc-north-c"}};
    c.credential = QJsonObject{{"api_key", kSecretKey}};
    return c;
}

QList<ProviderUnderTest> providersUnderTest()
{
    return {
        {&awsDescriptor(), fromTheFakes(aws())},
        {&tencentDescriptor(), fromTheFakes(tencent())},
        {&alibabaDescriptor(), fromTheFakes(alibaba())},
        {&huaweiDescriptor(), fromTheFakes(huawei()), "/_fake/vpcs"},
        {&gcpDescriptor(), fromTheFakes(gcp())},
        {&azureDescriptor(), fromTheFakes(azure())},
        {&lambdaDescriptor(), fromTheFakes(lambda())},
        {&paperspaceDescriptor(), fromTheFakes(paperspace())},
        {&testCloudDescriptor(), testCloud()},
    };
}

/// The registry the suite launches through: the built-in one and the providers that exist only in the tests.
const ProviderRegistry& registry()
{
    static const ProviderRegistry r = [] {
        ProviderRegistry out = ProviderRegistry::builtIn();
        out.add(testCloudDescriptor());
        return out;
    }();
    return r;
}

} // namespace

Q_DECLARE_METATYPE(ProviderUnderTest)

class TestProviderConformance : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FakeCloud> m_fake;
    std::unique_ptr<HttpClient> m_http;
    std::unique_ptr<CloudProvider> m_provider;
    std::unique_ptr<Ledger> m_ledger;
    ProviderUnderTest m_case;
    QString m_publicKey;

    bool setUp(const ProviderUnderTest& c)
    {
        m_case = c;
        m_dir = std::make_unique<QTemporaryDir>();
        m_fake = std::make_unique<FakeCloud>();
        if (!m_fake->start(QStringLiteral(GPUPLAN_SOURCE_DIR "/") + c.fake.script, m_dir->path(), c.fake.fakeArgs)) {
            qWarning() << "the fake" << c.fake.script << "did not start";
            return false;
        }
        HttpOptions options;
        options.retry.baseDelay = std::chrono::milliseconds(20);
        options.retry.maxDelay = std::chrono::milliseconds(100);
        m_http = std::make_unique<HttpClient>(options);
        // The credential's fields, handed over by their kind as cloudAccessFrom hands a stored one.
        ProviderContext context;
        context.http = m_http.get();
        context.endpoint = m_fake->url().toStdString();
        for (const CredentialFieldSpec& field : c.descriptor->credentialFields) {
            const std::string value = c.fake.credential.value(QString::fromUtf8(field.name.data(), field.name.size()))
                                          .toString()
                                          .toStdString();
            if (field.kind == CredentialFieldKind::KeyId) {
                context.key.id = value;
            } else if (field.kind == CredentialFieldKind::Secret) {
                context.key.secret = value;
            } else if (!value.empty()) {
                context.settings[std::string(field.name)] = value;
            }
        }
        Result<std::unique_ptr<CloudProvider>> made = registry().create(c.descriptor->id, std::move(context));
        if (!made) {
            qWarning() << "no provider:" << describe(made.error()).c_str();
            return false;
        }
        m_provider = std::move(made).value();
        Result<std::unique_ptr<Ledger>> ledger = Ledger::open((m_dir->path() + "/ledger.sqlite").toStdString());
        if (!ledger) {
            return false;
        }
        m_ledger = std::move(ledger).value();
        return true;
    }

    LaunchOrder order(const QString& zone = {}) const
    {
        LaunchOrder o;
        o.request.region = m_case.fake.region.toStdString();
        o.request.zone = zone.toStdString();
        o.request.instanceType = m_case.fake.instanceType.toStdString();
        o.request.sshPublicKey = m_publicKey.toStdString();
        o.request.sshSourceCidr = "203.0.113.7/32";
        o.request.userData = "#!/bin/sh\n: \"${GPUPLAN_DEADMAN_HOURS:=12}\"\n";
        o.pricingMode = "on_demand";
        o.price.amount = 3.0;
        o.price.billing = Billing{Billing::Granularity::Second, 60};
        o.rate.cnyPerUsd = 7.2;
        return o;
    }

    static LaunchWaitOptions untilRunning()
    {
        LaunchWaitOptions wait;
        wait.until = LaunchWait::Running;
        wait.pollInterval = std::chrono::seconds(1);
        wait.runningTimeout = std::chrono::seconds(60);
        return wait;
    }

    Result<LaunchOutcome> launch(const LaunchOrder& o)
    {
        Launcher launcher(*m_provider, *m_ledger);
        return launcher.launch(o, untilRunning(), nullptr);
    }

    static void addProviders()
    {
        QTest::addColumn<ProviderUnderTest>("provider");
        for (const ProviderUnderTest& p : providersUnderTest()) {
            QTest::newRow(p.descriptor->id.c_str()) << p;
        }
    }

private slots:
    void initTestCase()
    {
        initializeHttp();
        QTemporaryDir keys;
        QProcess keygen;
        keygen.start("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-C", "conformance", "-f", keys.path() + "/k"});
        QVERIFY(keygen.waitForFinished(20000) && keygen.exitCode() == 0);
        QFile pub(keys.path() + "/k.pub");
        QVERIFY(pub.open(QIODevice::ReadOnly));
        m_publicKey = QString::fromUtf8(pub.readAll()).trimmed();
    }

    void cleanup()
    {
        m_provider.reset();
        m_ledger.reset();
        m_http.reset();
        m_fake.reset();
        m_dir.reset();
    }

    void everyProviderThatLaunchesIsInTheSuite()
    {
        for (const std::string& id : ProviderRegistry::builtIn().ids()) {
            const QList<ProviderUnderTest> all = providersUnderTest();
            QVERIFY2(std::any_of(all.begin(), all.end(), [&](const auto& p) { return p.descriptor->id == id; }),
                     ("add " + id + " to providersUnderTest()").c_str());
        }
        // The descriptor is all a front end needs to show a provider and grey what it lacks.
        for (const ProviderUnderTest& p : providersUnderTest()) {
            QVERIFY(!p.descriptor->name.empty() && !p.descriptor->nameZh.empty());
            QVERIFY(p.descriptor->canLaunch());
            for (const auto& [feature, reason] : p.descriptor->unsupported) {
                // A key of its own ("unsupported.<provider>.<feature>"): the wording is ui/wording/ProviderText's.
                QCOMPARE(reason.key, "unsupported." + p.descriptor->id + "." + cloudFeatureName(feature));
                QVERIFY(reason.params.empty());
            }
        }
    }

    void aLaunchRunsAndIsListedAsOurs_data() { addProviders(); }
    void aLaunchRunsAndIsListedAsOurs()
    {
        QFETCH(ProviderUnderTest, provider);
        QVERIFY(setUp(provider));
        Result<LaunchOutcome> launched = launch(order());
        QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
        QCOMPARE(launched->instance.state, InstanceState::Running);
        QCOMPARE(launched->instance.publicIp, std::string("127.0.0.1"));
        QCOMPARE(launched->entry.state, InstanceState::Running);
        QVERIFY(!launched->steps.empty());

        // What the provider got: our token as its idempotency token and as our tag, the user data.
        const QJsonArray instances = m_fake->state().value("instances").toArray();
        QCOMPARE(instances.size(), 1);
        const QJsonObject instance = instances.first().toObject();
        const QString token = QString::fromStdString(launched->entry.intent.clientToken);
        QCOMPARE(instance.value("id").toString().toStdString(), launched->entry.instanceId);
        QCOMPARE(instance.value("client_token").toString(), token);
        if (provider.descriptor->supports(CloudFeature::ClientToken)) {
            // Our tag (GCE's labels are its tags).
            const QJsonObject tags = instance.value(instance.contains("labels") ? "labels" : "tags").toObject();
            QCOMPARE(tags.value(QString::fromLatin1(kOwnerTagKey)).toString(), token);
        } else {
            QCOMPARE(instance.value("name").toString(), token); // no token to send: the token is its name
        }
        QVERIFY(instance.value("user_data").toString().contains("GPUPLAN_DEADMAN_HOURS"));

        Result<std::vector<RemoteInstance>> ours = m_provider->listOurs(m_case.fake.region.toStdString(), nullptr);
        QVERIFY(ours.ok());
        QCOMPARE(ours->size(), std::size_t(1));
        QCOMPARE(ours->front().instanceId, launched->entry.instanceId);
        QCOMPARE(ours->front().clientToken, token.toStdString());
        // Another region has none of ours.
        Result<std::vector<RemoteInstance>> elsewhere = m_provider->listOurs("eu-west-9", nullptr);
        QVERIFY(elsewhere.ok() && elsewhere->empty());

        Result<RemoteInstance> described =
            m_provider->describe(m_case.fake.region.toStdString(), launched->entry.instanceId, nullptr);
        QVERIFY(described.ok());
        QCOMPARE(described->state, InstanceState::Running);
    }

    void theSameTokenNeverLaunchesTwice_data() { addProviders(); }
    void theSameTokenNeverLaunchesTwice()
    {
        QFETCH(ProviderUnderTest, provider);
        QVERIFY(setUp(provider));
        LaunchRequest request = order(provider.fake.zones[0]).request;
        request.clientToken = newClientToken();
        Result<LaunchResult> first = m_provider->launch(request, nullptr);
        QVERIFY2(first.ok(), first.ok() ? "" : describe(first.error()).c_str());
        Result<LaunchResult> again = m_provider->launch(request, nullptr);
        QVERIFY2(again.ok(), again.ok() ? "" : describe(again.error()).c_str());
        QCOMPARE(again->instanceId, first->instanceId);
        // Sent again with its token and answered with the same instance, or found before sending (a provider without
        // client tokens finds it by its name; Azure's PUT is preceded by a look at the VM of that name).
        QVERIFY2(m_fake->runInstancesCalls() == 2 || m_fake->runInstancesCalls() == 1,
                 qPrintable(QString::number(m_fake->runInstancesCalls())));
        QCOMPARE(m_fake->liveInstances().size(), 1);
    }

    void aZoneWithoutCapacityGivesWayToTheNext_data() { addProviders(); }
    void aZoneWithoutCapacityGivesWayToTheNext()
    {
        QFETCH(ProviderUnderTest, provider);
        QVERIFY(setUp(provider));
        // The zone listing lags behind the stock: the first zone is listed, tried, and refuses. (A cloud with one
        // "zone" per region, Lambda's and Paperspace's, has no next one: only the refusal below applies.)
        if (provider.fake.zones.size() > 1) {
            m_fake->faults({{"no_capacity_zones", QJsonArray{provider.fake.zones[0]}}, {"stale_zone_listing", true}});
            Result<LaunchOutcome> launched = launch(order());
            QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
            QCOMPARE(
                launched->zonesTried,
                (std::vector<std::string>{provider.fake.zones[0].toStdString(), provider.fake.zones[1].toStdString()}));
            QCOMPARE(launched->instance.zone, provider.fake.zones[1].toStdString());
            QCOMPARE(m_fake->liveInstances().size(), 1);
        }

        // No zone at all: InsufficientCapacity naming the zones, and nothing started.
        const int before = int(m_fake->liveInstances().size());
        m_fake->faults({{"no_capacity_zones", QJsonArray::fromStringList(provider.fake.zones)}});
        Result<LaunchOutcome> refused = launch(order());
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::InsufficientCapacity);
        for (const QString& zone : provider.fake.zones) {
            // The error names every zone it tried (in one of its parameters); with one zone per region, the region.
            const std::string said = describe(refused.error());
            QVERIFY2(said.find(zone.toStdString()) != std::string::npos
                         || (provider.fake.zones.size() == 1
                             && said.find(provider.fake.region.toStdString()) != std::string::npos),
                     said.c_str());
        }
        QCOMPARE(m_fake->liveInstances().size(), before);
    }

    void throttlingIsRetried_data() { addProviders(); }
    void throttlingIsRetried()
    {
        QFETCH(ProviderUnderTest, provider);
        QVERIFY(setUp(provider));
        m_fake->faults({{"throttle", 3}});
        Result<LaunchOutcome> launched = launch(order());
        QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
        QCOMPARE(m_fake->liveInstances().size(), 1);
    }

    void aDroppedReplyDoesNotLaunchTwice_data() { addProviders(); }
    void aDroppedReplyDoesNotLaunchTwice()
    {
        QFETCH(ProviderUnderTest, provider);
        QVERIFY(setUp(provider));
        m_fake->faults({{"drop_after_accept", 1}});
        Result<LaunchOutcome> launched = launch(order(provider.fake.zones[0]));
        QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
        if (provider.descriptor->supports(CloudFeature::ClientToken)) {
            QVERIFY(m_fake->runInstancesCalls() >= 2); // sent again, with its token
        } else {
            QCOMPARE(m_fake->runInstancesCalls(), 1); // no token to send it again with: found by its name instead
        }
        QCOMPARE(m_fake->liveInstances().size(), 1);
        QCOMPARE(m_fake->liveInstances().first().toObject().value("id").toString().toStdString(),
                 launched->entry.instanceId);
    }

    void anInstanceInvisibleForAWhileIsWaitedFor_data() { addProviders(); }
    void anInstanceInvisibleForAWhileIsWaitedFor()
    {
        QFETCH(ProviderUnderTest, provider);
        QVERIFY(setUp(provider));
        m_fake->faults({{"invisible_s", 3}});
        Result<LaunchOutcome> launched = launch(order(provider.fake.zones[0]));
        QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
        QCOMPARE(launched->instance.state, InstanceState::Running);
        QCOMPARE(m_fake->liveInstances().size(), 1);
    }

    void terminateEndsItAndTwiceIsNoError_data() { addProviders(); }
    void terminateEndsItAndTwiceIsNoError()
    {
        QFETCH(ProviderUnderTest, provider);
        QVERIFY(setUp(provider));
        Result<LaunchOutcome> launched = launch(order(provider.fake.zones[0]));
        QVERIFY2(launched.ok(), launched.ok() ? "" : describe(launched.error()).c_str());
        Launcher launcher(*m_provider, *m_ledger);
        Status ended = launcher.terminate(launched->entry.id, nullptr);
        QVERIFY2(ended.ok(), ended.ok() ? "" : describe(ended.error()).c_str());
        QCOMPARE(m_fake->liveInstances().size(), 0);
        Result<std::optional<LedgerEntry>> entry = m_ledger->find(launched->entry.id);
        QVERIFY(entry.ok() && entry->has_value());
        QVERIFY((*entry)->state == InstanceState::Stopping || (*entry)->state == InstanceState::Terminated);
        // Asked again (a retry, a second window): the instance is gone, which is what was wanted.
        Status again = m_provider->terminate(m_case.fake.region.toStdString(), launched->entry.instanceId, nullptr);
        QVERIFY2(again.ok(), again.ok() ? "" : describe(again.error()).c_str());
    }

    void aDryRunStartsNothing_data() { addProviders(); }
    void aDryRunStartsNothing()
    {
        QFETCH(ProviderUnderTest, provider);
        QVERIFY(setUp(provider));
        LaunchOrder o = order(provider.fake.zones[0]);
        o.request.dryRun = true;
        if (!provider.descriptor->supports(CloudFeature::DryRun)) {
            // Refused before anything is sent, naming why (the descriptor's reason).
            Result<LaunchOutcome> refused = launch(o);
            QVERIFY(!refused.ok());
            QVERIFY2(refused.error().reason.key == "error.cloud.feature_refused", describe(refused.error()).c_str());
            QCOMPARE(m_fake->runInstancesCalls(), 0);
            QCOMPARE(m_fake->state().value("instances").toArray().size(), 0);
            QVERIFY(m_ledger->entries()->empty());
            return;
        }
        if (!provider.dryRunNeedsNetwork.isEmpty()) {
            Result<LaunchOutcome> unasked = launch(o);
            QVERIFY2(unasked.ok(), unasked.ok() ? "" : describe(unasked.error()).c_str());
            QVERIFY(!unasked->dryRunPassed);
            QCOMPARE(m_fake->runInstancesCalls(), 0);
            m_fake->call("POST",
                         provider.dryRunNeedsNetwork,
                         QJsonDocument(QJsonObject{{"region", provider.fake.region}}).toJson());
        }
        Result<LaunchOutcome> checked = launch(o);
        QVERIFY2(checked.ok(), checked.ok() ? "" : describe(checked.error()).c_str());
        QVERIFY(checked->dryRunPassed);
        QCOMPARE(m_fake->state().value("instances").toArray().size(), 0);
        Result<std::vector<LedgerEntry>> entries = m_ledger->entries();
        QVERIFY(entries.ok() && entries->empty());
    }
};

QTEST_GUILESS_MAIN(TestProviderConformance)
#include "TestProviderConformance.moc"
