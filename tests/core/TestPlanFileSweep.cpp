// The plan reader against damaged plans: every member of each example plan set to null and to each JSON kind it is
// not, read by core::planFromJson (checkPlan, then the typed reader) and, when accepted, turned into the report's
// content (core::buildReport). Each one is refused with the file and JSON path, or reported; nothing throws. Also:
// text bounds, and saving a plan replaces the file instead of rewriting it in place.
#include "../support/PlanDamage.h"
#include "gpuplan/core/Paths.h"
#include "gpuplan/plan/PlanFile.h"
#include "gpuplan/report/Report.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using nlohmann::json;
using namespace gpuplan::core;

namespace {

const std::string kExamples = GPUPLAN_SOURCE_DIR "/resources/examples/";

json readExample(const std::string& name)
{
    std::ifstream in(kExamples + name);
    return json::parse(in);
}

json damaged(json plan, const std::string& pointer, json value)
{
    plan[json::json_pointer(pointer)] = std::move(value);
    return plan;
}

} // namespace

class TestPlanFileSweep : public QObject
{
    Q_OBJECT

private slots:
    void examplesAreAccepted_data()
    {
        QTest::addColumn<QString>("example");
        QTest::newRow("llama2") << "llama2-7b-lora-budget.gpuplan";
        QTest::newRow("resnet50") << "resnet50-imagenet.gpuplan";
    }
    void examplesAreAccepted()
    {
        QFETCH(QString, example);
        Result<PlanDocument> plan = loadPlan(kExamples + example.toStdString());
        QVERIFY2(plan.ok(), plan.ok() ? "" : describe(plan.error()).c_str());
        QVERIFY(buildReport(*plan, "example").ok());
    }

    void typeSweep_data() { examplesAreAccepted_data(); }
    /// The must-show sweep: each member, each kind it is not; a refusal that names the place, or a report.
    void typeSweep()
    {
        QFETCH(QString, example);
        json plan = readExample(example.toStdString());
        const std::vector<gpuplan::testing::PlanMember> targets = gpuplan::testing::planMembers(plan);
        const std::string where = "damaged.gpuplan";
        int refused = 0;
        int reported = 0;
        for (const gpuplan::testing::PlanMember& target : targets) {
            json& node = plan[target.pointer];
            json original = std::move(node);
            for (const json& value : gpuplan::testing::wrongValues()) {
                if (value.type() == original.type()) {
                    continue;
                }
                node = value;
                const std::string what = target.path + " = " + value.dump();
                try {
                    // Refused by checkPlan, or by the reader for a value it cannot use: either names the place.
                    Result<PlanDocument> document = planFromJson(plan, where);
                    if (!document) {
                        ++refused;
                        const Error& error = document.error();
                        QVERIFY2(error.where.rfind(where + ": $", 0) == 0, (what + ": " + describe(error)).c_str());
                        QVERIFY2(!error.reason.key.empty(), (what + ": " + describe(error)).c_str());
                        continue;
                    }
                    Result<Report> report = buildReport(*document, where);
                    ++reported;
                    if (!report) {
                        QVERIFY2(report.error().where.find(where) != std::string::npos,
                                 (what + ": " + describe(report.error())).c_str());
                    }
                } catch (const std::exception& e) {
                    QFAIL((what + " threw: " + e.what()).c_str());
                }
            }
            node = std::move(original);
        }
        qInfo("%s: %zu members, %d damaged plans refused with their path, %d accepted and reported",
              qPrintable(example),
              targets.size(),
              refused,
              reported);
        QVERIFY(refused > 1000);
    }

    /// The members named in the finding: each refused, naming the file and the member.
    void namedMembersAreRefused_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("path");
        QTest::newRow("cumulative[1] null") << "/buy_vs_rent/own/cumulative/1"
                                            << "null"
                                            << "$.buy_vs_rent.own.cumulative[1]";
        QTest::newRow("currency null") << "/constraints/currency"
                                       << "null"
                                       << "$.constraints.currency";
        QTest::newRow("unit a number") << "/workload/unit"
                                       << "7"
                                       << "$.workload.unit";
        QTest::newRow("price a string") << "/results/options/3/modes/1/price"
                                        << "\"cheap\""
                                        << "$.results.options[3].modes[1].price";
        QTest::newRow("mode price amount null") << "/results/options/0/modes/0/price/amount"
                                                << "null"
                                                << "$.results.options[0].modes[0].price.amount";
    }
    void namedMembersAreRefused()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, path);
        QTemporaryDir dir;
        const std::string file = dir.filePath("damaged.gpuplan").toStdString();
        std::ofstream(file) << damaged(
            readExample("llama2-7b-lora-budget.gpuplan"), pointer.toStdString(), json::parse(value.toStdString()));
        Result<PlanDocument> plan = loadPlan(file);
        QVERIFY(!plan.ok());
        QCOMPARE(QString::fromStdString(plan.error().where), QString::fromStdString(file) + ": " + path);
        QCOMPARE(plan.error().code, ErrorCode::SchemaViolation);
    }

    /// Text is bounded where it is read: a 20,000-character instance type or a 5 MB workload name is refused.
    void longTextIsRefused_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<int>("length");
        QTest::newRow("instance type") << "/results/options/0/instance_type" << 20000;
        QTest::newRow("workload name") << "/workload/name" << (5 << 20);
        QTest::newRow("notes") << "/notes" << 20001;
    }
    void longTextIsRefused()
    {
        QFETCH(QString, pointer);
        QFETCH(int, length);
        const json plan =
            damaged(readExample("resnet50-imagenet.gpuplan"), pointer.toStdString(), std::string(length, 'A'));
        Status checked = checkPlan(plan, "long.gpuplan");
        QVERIFY(!checked.ok());
        QCOMPARE(checked.error().reason.key, std::string("error.plan.text_too_long"));
        QCOMPARE(checked.error().reason.params.at("length"), std::to_string(length));
    }

    /// Saving replaces the file (a temporary beside it, renamed over it): another link to the old file keeps the
    /// old plan whole, which writing in place would have truncated and rewritten.
    void saveReplacesTheFileAtomically()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("plan.gpuplan").toStdString();
        const std::string link = dir.filePath("old.gpuplan").toStdString();
        const json first = readExample("resnet50-imagenet.gpuplan");
        QVERIFY(savePlan(file, first).ok());
        QVERIFY(::link(file.c_str(), link.c_str()) == 0);
        json second = first;
        second["notes"] = "second";
        QVERIFY(savePlan(file, second).ok());
        Result<PlanDocument> saved = loadPlan(file);
        QVERIFY2(saved.ok(), saved.ok() ? "" : describe(saved.error()).c_str());
        QCOMPARE(saved->notes, std::string("second"));
        Result<PlanDocument> old = loadPlan(link);
        QVERIFY2(old.ok(), old.ok() ? "" : describe(old.error()).c_str());
        QCOMPARE(old->notes, first.value("notes", "?"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2); // no temporary left behind
    }

    /// A new plan is private (0600); a plan the user made readable stays readable.
    void savedPlanPermissions()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("plan.gpuplan").toStdString();
        const json plan = readExample("resnet50-imagenet.gpuplan");
        QVERIFY(savePlan(file, plan).ok());
        struct stat info
        { };
        QVERIFY(::stat(file.c_str(), &info) == 0);
        QCOMPARE(info.st_mode & 0777U, 0600U);
        QVERIFY(::chmod(file.c_str(), 0644) == 0);
        QVERIFY(savePlan(file, plan).ok());
        QVERIFY(::stat(file.c_str(), &info) == 0);
        QCOMPARE(info.st_mode & 0777U, 0644U);
    }

    /// A save that cannot happen leaves the plan as it was: the new file cannot grow past 64 bytes (RLIMIT_FSIZE,
    /// which binds root too, unlike a read-only folder), so the write fails half-way.
    void failedSaveKeepsThePlan()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("plan.gpuplan").toStdString();
        const json before = readExample("llama2-7b-lora-budget.gpuplan");
        QVERIFY(savePlan(file, readExample("resnet50-imagenet.gpuplan")).ok());
        struct rlimit saved
        { };
        QVERIFY(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
        void (*previous)(int) = std::signal(SIGXFSZ, SIG_IGN); // a failed write, not a killed test
        struct rlimit tiny = saved;
        tiny.rlim_cur = 64;
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &tiny) == 0);
        Status result = savePlan(file, before);
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &saved) == 0);
        std::signal(SIGXFSZ, previous);
        QVERIFY(!result.ok());
        QVERIFY2(result.error().where.find("plan.gpuplan") != std::string::npos, describe(result.error()).c_str());
        Result<json> kept = loadPlanJson(file);
        QVERIFY(kept.ok());
        QVERIFY(*kept == readExample("resnet50-imagenet.gpuplan"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temporary file left
    }

    /// The data folder (ledger, credentials, offers) is made 0700, and an existing one open to others is narrowed.
    void dataFolderIsPrivate()
    {
        QTemporaryDir dir;
        const std::string data = dir.filePath("share/gpuplanner").toStdString();
        QVERIFY(ensurePrivateDir(data).ok());
        struct stat info
        { };
        QVERIFY(::stat(data.c_str(), &info) == 0);
        QCOMPARE(info.st_mode & 0777U, 0700U);
        QVERIFY(::chmod(data.c_str(), 0755) == 0);
        QVERIFY(ensurePrivateDir(data).ok());
        QVERIFY(::stat(data.c_str(), &info) == 0);
        QCOMPARE(info.st_mode & 0777U, 0700U);
        std::ofstream(dir.filePath("file").toStdString()) << "x";
        QVERIFY(!ensurePrivateDir(dir.filePath("file").toStdString()).ok());
    }
};

QTEST_GUILESS_MAIN(TestPlanFileSweep)
#include "TestPlanFileSweep.moc"
