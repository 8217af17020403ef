// Managed training jobs as a user runs them: `gpuplan launch` of a managed offer ("vertex/...", "azureml/...") with a
// container image and a command, `gpuplan logs --follow`, `gpuplan instances` and `gpuplan terminate` (a cancel),
// against the local fakes of Vertex AI's custom jobs and Azure ML's command jobs (tests/integration/fakes:
// fake_vertex.py and fake_azure_ml.py, built from the documented requests and answers; no real cloud is reachable from
// here, and none would drop a reply on demand). The crash tests kill the submission with SIGKILL before its request
// goes out and after its answer came back: after a relaunch there is exactly one job for it, recorded once.

#include <QJsonArray>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTest>

#include "../support/CliSession.h"
#include "gpuplan/ledger/Ledger.h"

using namespace gpuplan::core;
using namespace gpuplan::testing;

namespace {

/// The fake's jobs that carry `token` as their gpuplanner-token label (Vertex) or tag (Azure ML).
int jobsOfToken(const QJsonObject& state, const QString& token)
{
    int n = 0;
    for (const QJsonValue& v : state.value("jobs").toArray()) {
        const QJsonObject job = v.toObject();
        const QJsonObject marks =
            job.contains("labels") ? job.value("labels").toObject() : job.value("tags").toObject();
        n += marks.value("gpuplanner-token").toString() == token ? 1 : 0;
    }
    return n;
}

QJsonObject entryOf(const CliRun& instances, qint64 id)
{
    for (const QJsonValue& v : instances.json().value("instances").toArray()) {
        if (v.toObject().value("id").toInteger() == id) {
            return v.toObject();
        }
    }
    return {};
}

} // namespace

class TestManagedJobs : public QObject
{
    Q_OBJECT

private:
    CliSession m_cli;

    QStringList submitArgs(const QStringList& more = {}) const
    {
        QStringList args{"launch",
                         "--provider",
                         m_cli.providerCase.id,
                         "--instance",
                         m_cli.providerCase.instanceType,
                         "--region",
                         m_cli.providerCase.region,
                         "--image",
                         "us-docker.pkg.dev/gpuplan-test/train/pytorch:2.4",
                         "--command",
                         "python train.py --epochs 3 && echo trained",
                         "--env",
                         "EPOCHS=3",
                         "--hours",
                         "4",
                         "--yes",
                         "--wait",
                         "running",
                         "--json"};
        if (m_cli.providerCase.id == "gcp") {
            args << "--price"
                 << "1.25"; // the catalog has no Vertex AI price: the user's own
        }
        return args + more;
    }

    static void addServices()
    {
        QTest::addColumn<ProviderCase>("service");
        QTest::newRow("vertex") << vertexJobs();
        QTest::newRow("azureml") << azureMlJobs();
    }

private slots:
    void aJobIsSubmittedRunsShowsItsLogAndFinishes_data() { addServices(); }
    void aJobIsSubmittedRunsShowsItsLogAndFinishes()
    {
        QFETCH(ProviderCase, service);
        QVERIFY(m_cli.start(service, {"--running-after", "1", "--finish-after", "3"}));

        const CliRun submitted = m_cli.gpuplan(submitArgs());
        QVERIFY2(submitted.exit == 0, qPrintable(submitted.err + submitted.out));
        const QJsonObject entry = submitted.json();
        QCOMPARE(entry.value("kind").toString(), QStringLiteral("job"));
        QCOMPARE(entry.value("state").toString(), QStringLiteral("running"));
        QCOMPARE(entry.value("instance_type").toString(), service.instanceType);
        QVERIFY(!entry.value("instance_id").toString().isEmpty());
        QCOMPARE(entry.value("job").toObject().value("image").toString(),
                 QStringLiteral("us-docker.pkg.dev/gpuplan-test/train/pytorch:2.4"));
        const QString token = entry.value("client_token").toString();
        QCOMPARE(jobsOfToken(m_cli.fake->state(), token), 1);

        // The log, followed to the job's end; the ledger hears how it ended.
        const qint64 id = entry.value("id").toInteger();
        const CliRun log = m_cli.gpuplan({"logs", QString::number(id), "--follow", "--poll", "1"});
        QVERIFY2(log.exit == 0, qPrintable(log.err + log.out));
        QVERIFY2(log.out.contains("started: ") && log.out.contains("train.py"), qPrintable(log.out));
        QVERIFY2(log.out.contains("step 1"), qPrintable(log.out));
        QVERIFY2(log.out.trimmed().endsWith("done"), qPrintable(log.out));
        QCOMPARE(log.out.count("step 1\n"), 1); // no line twice

        const CliRun all = m_cli.gpuplan({"instances", "--all", "--json"});
        QVERIFY2(all.exit == 0, qPrintable(all.err));
        const QJsonObject ended = entryOf(all, id);
        QCOMPARE(ended.value("state").toString(), QStringLiteral("terminated"));
        QCOMPARE(ended.value("detail_key").toString(), QStringLiteral("ledger.job_ended"));
        QVERIFY2(ended.value("detail").toString().contains("finished"), qPrintable(ended.value("detail").toString()));
        QVERIFY2(ended.value("cost_so_far").toDouble() > 0, "a job that ran is costed");
        QVERIFY(!ended.value("running_since").isNull());
        QVERIFY(!ended.value("ended").isNull());

        const CliRun table = m_cli.gpuplan({"instances", "--all", "--no-reconcile"});
        QVERIFY2(table.out.contains("job succeeded"), qPrintable(table.out));
    }

    void aCancelledJobIsRecordedAsCancelled_data() { addServices(); }
    void aCancelledJobIsRecordedAsCancelled()
    {
        QFETCH(ProviderCase, service);
        QVERIFY(m_cli.start(service, {"--running-after", "1", "--finish-after", "0"}));
        const CliRun submitted = m_cli.gpuplan(submitArgs());
        QVERIFY2(submitted.exit == 0, qPrintable(submitted.err + submitted.out));
        const qint64 id = submitted.json().value("id").toInteger();

        const CliRun cancelled = m_cli.gpuplan({"terminate", QString::number(id)});
        QVERIFY2(cancelled.exit == 0, qPrintable(cancelled.err + cancelled.out));
        bool asked = false;
        for (const QJsonValue& v : m_cli.fake->state().value("jobs").toArray()) {
            asked = asked || v.toObject().value("cancel_requested").toBool();
        }
        QVERIFY2(asked, "the service was asked to cancel the job");

        QJsonObject ended;
        for (int i = 0; i < 5 && ended.value("state").toString() != "terminated"; ++i) {
            ended = entryOf(m_cli.gpuplan({"instances", "--all", "--json"}), id);
        }
        QCOMPARE(ended.value("state").toString(), QStringLiteral("terminated"));
        QVERIFY2(ended.value("detail").toString().contains("cancelled"), qPrintable(ended.value("detail").toString()));
    }

    void aKilledSubmissionLeavesExactlyOneJob_data()
    {
        QTest::addColumn<ProviderCase>("service");
        QTest::addColumn<QString>("step");
        for (const ProviderCase& c : {vertexJobs(), azureMlJobs()}) {
            // "recorded": the intent is written, nothing sent; "replied": the service answered, the ledger has not
            // heard it yet (the job exists).
            for (const char* step : {"recorded", "replied"}) {
                QTest::newRow(qPrintable(c.instanceType.section('/', 0, 0) + " killed at " + step)) << c << step;
            }
        }
    }
    void aKilledSubmissionLeavesExactlyOneJob()
    {
        QFETCH(ProviderCase, service);
        QFETCH(QString, step);
        QVERIFY(m_cli.start(service, {"--running-after", "1", "--finish-after", "0"}));
        QProcessEnvironment kill;
        kill.insert("GPUPLAN_TEST_KILL_AT", step);
        const CliRun killed = m_cli.gpuplan(submitArgs(), kill);
        QVERIFY2(killed.exit != 0, qPrintable(killed.out));

        // The user runs it again: the interrupted submission is resumed with its token, never a second one.
        const CliRun again = m_cli.gpuplan(submitArgs());
        QVERIFY2(again.exit == 0, qPrintable(again.err + again.out));
        const QString token = again.json().value("client_token").toString();
        QCOMPARE(jobsOfToken(m_cli.fake->state(), token), 1);
        QCOMPARE(m_cli.fake->state().value("jobs").toArray().size(), 1);

        std::unique_ptr<Ledger> ledger = m_cli.ledger();
        QVERIFY(ledger);
        Result<std::vector<LedgerEntry>> live = ledger->live();
        QVERIFY(live);
        QCOMPARE(live->size(), std::size_t(1));
        QCOMPARE(live->front().intent.kind, LaunchKind::Job);
        QCOMPARE(QString::fromStdString(live->front().intent.clientToken), token);
    }

    void aManagedOfferNeedsItsCommand_data() { addServices(); }
    void aManagedOfferNeedsItsCommand()
    {
        QFETCH(ProviderCase, service);
        QVERIFY(m_cli.start(service));
        QStringList args = submitArgs();
        const qsizetype at = args.indexOf("--command");
        args.remove(at, 2);
        const CliRun refused = m_cli.gpuplan(args);
        QCOMPARE(refused.exit, 2);
        QVERIFY2(refused.err.contains("--command"), qPrintable(refused.err));
        QCOMPARE(m_cli.fake->state().value("jobs").toArray().size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestManagedJobs)
#include "TestManagedJobs.moc"
