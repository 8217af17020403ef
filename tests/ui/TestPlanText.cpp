// Reasons from core worded by the UI: every key the example plans carry has a wording, in Chinese too, with
// money and hours formatted by locale.
#include "wording/ErrorText.h"
#include "wording/Format.h"
#include "wording/Language.h"
#include "wording/LaunchText.h"
#include "wording/PlanText.h"
#include "wording/ProviderText.h"
#include "wording/VerdictText.h"

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/deploy/DeployStrategy.h"
#include "gpuplan/plan/PlanFile.h"
#include "gpuplan/probe/Verdict.h"

#include <QApplication>
#include <QDirIterator>
#include <QFile>
#include <QLocale>
#include <QRegularExpression>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <set>

using gpuplan::core::Reason;
using nlohmann::json;

namespace {

const std::filesystem::path kExamples = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "examples";

json readPlanJson(const std::string& name)
{
    std::ifstream in(kExamples / name);
    return json::parse(in);
}

/// Every reason of a plan: the options' reasons, their modes' why-nots and the exclusions.
std::vector<Reason> reasonsOf(const gpuplan::core::PlanDocument& plan)
{
    std::vector<Reason> all;
    for (const gpuplan::core::PlanOption& o : plan.results.options) {
        for (const Reason& r : o.reasons) {
            all.push_back(r);
        }
        all.push_back(o.training.efficiencyBasis);
        for (const std::vector<Reason>* notes : {&o.notes, &o.training.notes}) {
            all.insert(all.end(), notes->begin(), notes->end());
        }
        if (!o.training.fitReason.empty()) {
            all.push_back(o.training.fitReason);
        }
        for (const gpuplan::core::PlanMode& m : o.modes) {
            if (!m.eligible) { // a mode the plan cannot use says why
                all.push_back(m.whyNot);
            }
        }
    }
    for (const gpuplan::core::PlanExclusion& x : plan.results.excluded) {
        all.push_back(x.reason);
    }
    return all;
}

} // namespace

class TestPlanText : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("en")));
    }

    void englishFormatsMoneyAndHours()
    {
        const Reason cost{
            "reason.cost",
            {{"cost", "1234.6"}, {"low", "1000"}, {"high", "1600.25"}, {"currency", "CNY"}, {"mode", "spot"}}};
        QCOMPARE(gpuplan::ui::reasonText(cost), QStringLiteral("costs about ¥1,235 (¥1,000 to ¥1,600) paying spot"));
        const Reason budget{"excluded.budget", {{"cost", "420.5"}, {"budget", "300"}, {"currency", "USD"}}};
        QCOMPARE(gpuplan::ui::reasonText(budget), QStringLiteral("costs about $420.50, over the budget of $300.00"));
    }

    // Issue 23: "模型参数量 124 百万" read as a translation, not as Chinese; Chinese counts in 万 and 亿.
    void parameterCountsAreSaidAsEachLanguageCounts()
    {
        QCOMPARE(gpuplan::ui::formatParameterCount(124e6), QStringLiteral("124 million"));
        QCOMPARE(gpuplan::ui::formatParameterCount(25.6e6), QStringLiteral("25.6 million"));
        QCOMPARE(gpuplan::ui::formatParameterCount(7e9), QStringLiteral("7 billion"));
        QCOMPARE(gpuplan::ui::formatParameterCount(6.74e9), QStringLiteral("6.74 billion"));
        QCOMPARE(gpuplan::ui::formatParameterCount(0), QStringLiteral("unknown"));
        // The PDF said "written off over 1 years".
        QCOMPARE(gpuplan::ui::formatYears(1), QStringLiteral("1 year"));
        QCOMPARE(gpuplan::ui::formatYears(3), QStringLiteral("3 years"));
        QCOMPARE(gpuplan::ui::formatYears(0.5), QStringLiteral("6 months"));
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("zh_CN")));
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
        QCOMPARE(gpuplan::ui::formatParameterCount(124e6), QStringLiteral("1.24 亿"));
        QCOMPARE(gpuplan::ui::formatYears(3), QStringLiteral("3 年"));
        QCOMPARE(gpuplan::ui::formatParameterCount(7e9), QStringLiteral("70 亿"));
        QCOMPARE(gpuplan::ui::formatParameterCount(25.6e6), QStringLiteral("2,560 万"));
        QCOMPARE(gpuplan::ui::formatParameterCount(1.5e12), QStringLiteral("15,000 亿"));
    }

    // Issue 20, finding 14: a price paid under a term is never shown without the whole term's amount.
    void aCommitmentIsWordedWithItsFullAmount()
    {
        const Reason cost{"reason.cost",
                          {{"cost", "1234.6"},
                           {"low", "1000"},
                           {"high", "1600.25"},
                           {"currency", "CNY"},
                           {"mode", "reserved_1y"},
                           {"commitment", "285600.4"},
                           {"commitment_months", "12"}}};
        QCOMPARE(gpuplan::ui::reasonText(cost),
                 QStringLiteral("costs about ¥1,235 (¥1,000 to ¥1,600) paying reserved 1 year, which commits the lab "
                                "to ¥285,600 over 12 months"));
        const Reason rank{"reason.rank",
                          {{"objective", "cheapest"},
                           {"count", "7"},
                           {"next_provider", "AWS"},
                           {"next_instance", "g6e.xlarge"},
                           {"next_cost", "32.6"},
                           {"next_hours", "3.95"},
                           {"next_commitment", "72071.09"},
                           {"next_commitment_months", "12"},
                           {"currency", "CNY"}}};
        const QString worded = gpuplan::ui::reasonText(rank);
        QVERIFY2(worded.contains(QStringLiteral("g6e.xlarge at ¥32.60 (committing ¥72,071 over 12 months)")),
                 qPrintable(worded));
    }

    void nestedCauseIsWorded()
    {
        const Reason memory{"excluded.memory",
                            {{"gpus", "1"},
                             {"gpu", "T4"},
                             {"cause", "fit.advice"},
                             {"cause.needed_gb", "40.26"},
                             {"cause.capacity_gb", "16"},
                             {"cause.sharding", "ddp"},
                             {"cause.checkpointing", "1"},
                             {"cause.micro_batch", "1"},
                             {"cause.gpus", "1"},
                             {"cause.fsdp_gpus", "4"},
                             {"cause.gpu", "T4"},
                             {"cause.larger_gb", "48"}}};
        QCOMPARE(gpuplan::ui::reasonText(memory),
                 QStringLiteral("does not fit in memory on 1 × T4: needs 40.3 GB per GPU even with data parallel (DDP) "
                                "+ activation checkpointing, micro-batch 1, 16 GB available; would fit: 4 × T4 with "
                                "FSDP, or a card of 48 GB or more"));
    }

    void unknownKeySaysItsKeyAndFigures()
    {
        // A key this version does not word (a plan from a newer GPU Planner): its key and figures, never nothing.
        const Reason future{"reason.from_a_newer_version", {}};
        QCOMPARE(gpuplan::ui::reasonText(future), QStringLiteral("reason.from_a_newer_version"));
        const Reason unknown{"reason.from_another_version", {{"cost", "12.5"}, {"mode", "spot"}}};
        QCOMPARE(gpuplan::ui::reasonText(unknown),
                 QStringLiteral("reason.from_another_version (cost=12.5, mode=spot)"));
        // A sentence an older plan file saved is shown as saved.
        const Reason saved{"saved.text", {{"text", "as an older plan wrote it"}}};
        QCOMPARE(gpuplan::ui::reasonText(saved), QStringLiteral("as an older plan wrote it"));
        // No reason reads as nothing.
        QCOMPARE(gpuplan::ui::reasonText(Reason{}), QString());
        // A reason that is not an object (a plain string, a number), or whose parameters are not an object, comes from
        // a damaged or foreign file: it never reaches the wording, the plan is refused where it is read.
        json plan = readPlanJson("resnet50-imagenet.gpuplan");
        QVERIFY(gpuplan::core::planFromJson(plan, "test").ok());
        json& reason = plan["results"]["options"][0]["reasons"][0];
        const json original = reason;
        QVERIFY(original.is_object() && original.contains("params"));
        for (const json& damaged : {json("as an older plan wrote it"), json(42)}) {
            reason = damaged;
            QVERIFY2(!gpuplan::core::planFromJson(plan, "test").ok(), damaged.dump().c_str());
        }
        reason = original;
        reason["params"] = "not an object";
        QVERIFY(!gpuplan::core::planFromJson(plan, "test").ok());
    }

    // A plan saved before reasons were keys (English beside each key, notes and memory advice as sentences) still
    // opens: the keys are worded, the sentences shown as they were saved.
    void aPlanOfWaveOneStillReads()
    {
        const std::filesystem::path file = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "tests" / "data" / "plans"
                                           / "wave1-llama2-7b-lora-budget.gpuplan";
        gpuplan::core::Result<gpuplan::core::PlanDocument> plan = gpuplan::core::loadPlan(file);
        QVERIFY2(plan, plan ? "" : gpuplan::core::describe(plan.error()).c_str());
        QVERIFY(!plan->results.options.empty());
        int saved = 0;
        for (const Reason& r : reasonsOf(*plan)) {
            const QString worded = gpuplan::ui::reasonText(r);
            QVERIFY2(!worded.isEmpty() && !worded.startsWith(QString::fromStdString(r.key)),
                     qPrintable(QString::fromStdString(r.key) + ": " + worded));
            saved += r.key == "saved.text" ? 1 : 0;
        }
        QVERIFY2(saved > 0, "its notes were sentences, kept as saved");
        // Saved again, it is a plan of today: keys, and no English beside them.
        const json again = gpuplan::core::planToJson(*plan);
        QVERIFY(!again["results"]["options"][0]["reasons"][0].contains("text"));
        QVERIFY(gpuplan::core::planFromJson(again, "again").ok());
    }

    // What a provider did on the way (core::LaunchResult::steps), why it lacks a feature (its descriptor's reasons)
    // and its credential's fields are keys; the English is the one core used to write, which `gpuplan launch`,
    // `gpuplan creds set` and the Launch page's tooltips show.
    void providerReasonsKeepTheirEnglish()
    {
        using gpuplan::ui::launchStepText;
        QCOMPARE(
            launchStepText(Reason{"step.ec2.image_found",
                                  {{"image", "ami-0new"},
                                   {"name", "Deep Learning Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04) 20261120"},
                                   {"created", "2026-11-20"}}}),
            QStringLiteral("Image ami-0new (Deep Learning Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04) 20261120, "
                           "2026-11-20), the newest AWS Deep Learning Base GPU AMI"));
        QCOMPARE(launchStepText(Reason{"step.ec2.key_pair_imported", {{"key_pair", "my-key-pair"}}}),
                 QStringLiteral("Imported key pair my-key-pair"));
        QCOMPARE(
            launchStepText(Reason{"step.ec2.group_created", {{"group_id", "sg-0a42d66a"}, {"cidr", "203.0.113.7/32"}}}),
            QStringLiteral("Security group sg-0a42d66a opens SSH to 203.0.113.7/32 only"));
        QCOMPARE(
            launchStepText(Reason{"step.ec2.group_rule_added_again",
                                  {{"group_id", "sg-1"}, {"group_name", "gpuplanner-ssh"}, {"cidr", "1.2.3.4/32"}}}),
            QStringLiteral("Security group sg-1 (gpuplanner-ssh) had lost its SSH rule: added it again, it opens "
                           "SSH to 1.2.3.4/32 only"));
        QCOMPARE(launchStepText(Reason{"step.ec2.launched",
                                       {{"instance_id", "i-0abc"},
                                        {"instance_type", "p5.48xlarge"},
                                        {"pricing", "spot"},
                                        {"zone", "us-east-1b"},
                                        {"state", "pending"}}}),
                 QStringLiteral("Launched i-0abc (p5.48xlarge, spot) in us-east-1b, pending"));
        QCOMPARE(
            launchStepText(Reason{"step.cvm.group_created",
                                  {{"group_name", "gpuplanner-ssh"}, {"group_id", "sg-9"}, {"cidr", "1.2.3.4/32"}}}),
            QStringLiteral("created security group gpuplanner-ssh (sg-9): SSH from 1.2.3.4/32, all outbound"));
        QCOMPARE(launchStepText(Reason{"step.key_pair_found", {{"key_pair", "gpuplanner-1"}, {"key_id", "skey-1"}}}),
                 QStringLiteral("found key pair gpuplanner-1 (skey-1)"));
        QCOMPARE(launchStepText(Reason{"step.dry_run_passed", {}}), QStringLiteral("dry run passed"));
        QCOMPARE(launchStepText(Reason{"step.launched", {{"instance_id", "ins-1"}, {"zone", "ap-guangzhou-3"}}}),
                 QStringLiteral("launched ins-1 in ap-guangzhou-3"));
        QVERIFY(launchStepText(Reason{"step.unknown", {{"a", "1"}}}).contains(QStringLiteral("step.unknown")));

        QCOMPARE(gpuplan::ui::unsupportedText(Reason{"unsupported.aws.subscription", {}}),
                 QStringLiteral("EC2 has no monthly rental of an instance; Reserved Instances and Savings Plans are "
                                "bought separately, for a term, in the console"));
        QVERIFY(gpuplan::ui::unsupportedText(Reason{"unsupported.tencent.terminate_on_shutdown", {}})
                    .startsWith(QStringLiteral("On Tencent Cloud a shutdown inside the instance only stops it")));

        QCOMPARE(gpuplan::ui::credentialFieldLabel("aws", "access_key_id"), QStringLiteral("Access key ID"));
        QCOMPARE(gpuplan::ui::credentialFieldLabel("tencent", "secret_access_key"), QStringLiteral("SecretKey"));
        QCOMPARE(gpuplan::ui::credentialFieldLabel("huawei", "project_id"), QStringLiteral("Project IDs (optional)"));
        QCOMPARE(gpuplan::ui::credentialFieldLabel("gcp", "project_id"), QStringLiteral("Project ID"));
        QVERIFY(gpuplan::ui::unsupportedText(Reason{"unsupported.alibaba.terminate_on_shutdown", {}})
                    .contains(QStringLiteral("AutoReleaseTime")));
        QVERIFY(gpuplan::ui::unsupportedText(Reason{"unsupported.huawei.terminate_on_shutdown", {}})
                    .contains(QStringLiteral("auto_terminate_time")));
    }

    // A launch's steps are data (core::LaunchProgress); the Launch page and `gpuplan launch` word them, in Chinese
    // too (the status line showed core's English before).
    void launchStepsAreWordedInBothLanguages()
    {
        using gpuplan::core::LaunchAttempt;
        using gpuplan::core::LaunchProgress;
        using gpuplan::core::LaunchStep;
        std::vector<LaunchProgress> steps;
        for (LaunchAttempt attempt : {LaunchAttempt::New, LaunchAttempt::Resumed, LaunchAttempt::FoundByReconcile}) {
            steps.push_back({.step = LaunchStep::Recorded,
                             .entryId = 7,
                             .zone = "us-east-1a",
                             .instanceId = "i-0abc",
                             .attempt = attempt,
                             .clientToken = "gpuplan-0123"});
        }
        steps.push_back(
            {.step = LaunchStep::Sending, .zone = "us-east-1a", .provider = "aws", .instanceType = "p5.48xlarge"});
        steps.push_back({.step = LaunchStep::Replied, .instanceId = "i-0abc"});
        steps.push_back(
            {.step = LaunchStep::Replied,
             .refusal = gpuplan::core::Error{
                 gpuplan::core::ErrorCode::QuotaExceeded,
                 gpuplan::core::Reason{
                     "error.ec2.on_demand_quota",
                     {{"type", "p5.48xlarge"}, {"region", "us-east-1"}, {"quota", "Running On-Demand P instances"}}},
                 "ec2"}});
        steps.push_back({.step = LaunchStep::ZoneRefused, .zone = "us-east-1a"});
        steps.push_back({.step = LaunchStep::Pending, .zone = "us-east-1b", .instanceId = "i-0abc"});
        steps.push_back({.step = LaunchStep::Running, .instanceId = "i-0abc", .publicIp = "203.0.113.7"});
        steps.push_back({.step = LaunchStep::SshReachable, .publicIp = "203.0.113.7", .sshPort = 22});
        QCOMPARE(gpuplan::ui::launchProgressText(steps[0]),
                 QStringLiteral("Recorded the launch in the ledger (entry 7, token gpuplan-0123)"));
        QCOMPARE(gpuplan::ui::launchProgressText(steps[3]), QStringLiteral("Asking aws for p5.48xlarge in us-east-1a"));
        QCOMPARE(gpuplan::ui::launchProgressText(steps[9]), QStringLiteral("SSH answers at 203.0.113.7:22"));
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("zh_CN")));
        const QRegularExpression han(QStringLiteral("\\p{Han}"));
        for (const LaunchProgress& step : steps) {
            const QString worded = gpuplan::ui::launchProgressText(step);
            QVERIFY2(worded.contains(han) && !worded.contains(QRegularExpression(QStringLiteral("%\\d"))),
                     qPrintable(worded));
        }
        QVERIFY(gpuplan::ui::launchProgressText(steps[2]).contains(QStringLiteral("i-0abc")));
    }

    void everyReasonOfTheExamplesIsWordedInChinese_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("resnet50") << QStringLiteral("resnet50-imagenet.gpuplan");
        QTest::newRow("llama2") << QStringLiteral("llama2-7b-lora-budget.gpuplan");
    }

    void everyReasonOfTheExamplesIsWordedInChinese()
    {
        QFETCH(QString, file);
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("zh_CN")));
        const QRegularExpression han(QStringLiteral("\\p{Han}"));
        const QRegularExpression placeholder(QStringLiteral("%\\d"));
        std::set<std::string> keys;
        gpuplan::core::Result<gpuplan::core::PlanDocument> plan =
            gpuplan::core::loadPlan(kExamples / file.toStdString());
        QVERIFY2(plan, plan ? "" : gpuplan::core::describe(plan.error()).c_str());
        for (const Reason& r : reasonsOf(*plan)) {
            const QString worded = gpuplan::ui::reasonText(r);
            const std::string key = r.key;
            keys.insert(key);
            QVERIFY2(!worded.startsWith(QString::fromStdString(key)) && worded.contains(han),
                     qPrintable(QString::fromStdString(key) + ": " + worded));
            QVERIFY2(!worded.contains(placeholder), qPrintable(worded));
        }
        QVERIFY(keys.count("reason.cost") && keys.count("reason.rank") && keys.size() >= 6);
    }

    // Every key of an error, a note, a launch step, an unsupported feature or a verdict figure that core's sources
    // hold, worded in Chinese (without its parameters): a key added to core without its words, or with words but
    // no translation, fails here by name.
    void everyKeyCoreSaysIsWordedInChinese()
    {
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("zh_CN")));
        const QRegularExpression literal(
            QStringLiteral("\"((?:error|refresh|reconcile|ledger|step|unsupported|figure)\\.[a-z0-9_.]+)\""));
        // Words made of their parameters, units and symbols alone ("%1 GiB (%2 MiB)", "Gen%1 x%2", the inner
        // error of a refusal): with no parameters given, nothing is left to be Chinese.
        const std::set<QString> onlyParameters{
            QStringLiteral("error.front_end.text"),
            QStringLiteral("error.provider.call"),
            QStringLiteral("error.cloud.feature_unsupported"),
            QStringLiteral("ledger.refused"),
            QStringLiteral("refresh.quote_failed"),
            QStringLiteral("refresh.region_rating_failed"),
            QStringLiteral("figure.value"),
            QStringLiteral("figure.text"),
            QStringLiteral("figure.at_least"),
            QStringLiteral("figure.below"),
            QStringLiteral("figure.burn_speed"),
            QStringLiteral("figure.count"),
            QStringLiteral("figure.gpus_of"),
            QStringLiteral("figure.memory"),
            QStringLiteral("figure.name_as"),
            QStringLiteral("figure.nvml_library"),
            QStringLiteral("figure.pcie"),
            QStringLiteral("figure.power_expected"),
            QStringLiteral("figure.probe_ok"),
        };
        const QRegularExpression han(QStringLiteral("\\p{Han}"));
        std::set<QString> keys;
        QDirIterator files(
            QStringLiteral(GPUPLAN_SOURCE_DIR "/core"), {"*.cpp", "*.h"}, QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(file.readAll());
            for (auto match = literal.globalMatch(text); match.hasNext();) {
                keys.insert(match.next().captured(1));
            }
        }
        QVERIFY2(keys.size() > 500, qPrintable(QString::number(keys.size())));
        QStringList unworded;
        for (const QString& key : keys) {
            if (onlyParameters.count(key) || key.endsWith(QLatin1Char('.'))) {
                continue;
            }
            const Reason reason{key.toStdString(), {}};
            const QString worded = key.startsWith(QLatin1String("figure.")) ? gpuplan::ui::figureText(reason)
                                   : key.startsWith(QLatin1String("step.")) ? gpuplan::ui::launchStepText(reason)
                                   : key.startsWith(QLatin1String("unsupported."))
                                       ? gpuplan::ui::unsupportedText(reason)
                                       : gpuplan::ui::errorReasonText(reason);
            if (worded.contains(key) || !worded.contains(han)) {
                unworded << key + QStringLiteral(": ") + worded;
            }
        }
        QVERIFY2(unworded.isEmpty(), qPrintable(unworded.join(QLatin1Char('\n'))));
    }

    // The verdict's and the deployment's reasons (ui/VerdictText) on the recorded probe documents and on every way
    // the probe can be deployed, or not: Chinese throughout, none left in core's English.
    void everyVerdictAndDeploymentReasonIsWordedInChinese()
    {
        using namespace gpuplan::core;
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
        QVERIFY(gpuplan::ui::installTranslations(*qApp, QStringLiteral("zh_CN")));
        Result<LoadedCatalog> catalog =
            loadCatalog(std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog");
        QVERIFY(catalog.ok());
        std::vector<Reason> reasons;
        const std::filesystem::path recordings = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "tests" / "data" / "probe";
        for (const char* file : {"a100-sxm4-80gb-healthy.json",
                                 "a100-sxm4-80gb-throttled.json",
                                 "a100-sxm4-80gb-ecc-errors.json",
                                 "a100-sxm4-80gb-gemm-mismatch.json",
                                 "wrong-model-a100-40gb-for-h100.json",
                                 "driver-too-old.json",
                                 "no-gpu.json",
                                 "h100-sxm5-2gpu-burn.json",
                                 "h100-sxm5-2gpu-timeout.json"}) {
            std::ifstream in(recordings / file);
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            Result<ProbeResult> result = parseProbeResult(text, file);
            QVERIFY2(result.ok(), file);
            const bool h100 = std::string(file).rfind("h100", 0) == 0;
            const ExpectedHardware promised =
                h100 ? ExpectedHardware{"h100-sxm5-80gb", 2} : ExpectedHardware{"a100-sxm4-80gb", 1};
            for (const VerdictLine& line : judgeProbe(*result, catalog->catalog, promised).lines) {
                reasons.push_back(line.reason);
            }
            if (!h100 || result->gpus.size() != 2 || !result->gpus[1].burn) {
                continue;
            }
            // The additions' other outcomes: throttling by share, burn-in faults, P2P and NCCL, new error codes.
            ProbeResult r = *result;
            r.probe.mode = "quick";
            r.gpus[0].throttle->shares["hw_slowdown"] = 0.01;
            r.gpus[1].throttle->shares["hw_thermal"] = 0.5;
            r.gpus[1].burn->wrongResults = 2;
            r.gpus[1].burn->tflopsLast = 0.85 * *r.gpus[1].burn->tflopsFirst;
            r.gpus[1].burn->throttle->samples = 0;
            r.gpus[0].measurements[12].value = 250; // p2p, low
            r.gpus[1].measurements[12].value = 100; // p2p, slow
            r.multiGpu[0].value = 180;              // low
            for (const VerdictLine& line : judgeProbe(r, catalog->catalog, {"h100-sxm5-80gb", 2}).lines) {
                reasons.push_back(line.reason);
            }
            r = *result;
            r.gpus[0].throttle->shares["sw_thermal"] = 0.3;
            r.gpus[0].measurements[12].link = "pcie";
            r.gpus[1].measurements[12].link = "staged";
            r.gpus[1].burn->xidErrors = 1;
            r.gpus[1].burn->xids = {79};
            r.gpus[1].burn->tflopsLast = 0.5 * *r.gpus[1].burn->tflopsFirst;
            r.multiGpu[0].value = 20; // slow
            r.gpus[0].parentName = "NVIDIA H100 80GB HBM3";
            r.gpus[0].migEnabled = true;
            r.gpus[1].measurements.erase(r.gpus[1].measurements.begin() + 8); // gemm_fp16: own kernel alone
            for (const VerdictLine& line : judgeProbe(r, catalog->catalog, {"h100-sxm5-80gb", 2}).lines) {
                reasons.push_back(line.reason);
            }
            r.multiGpu[0].value.reset();
            r.multiGpu[0].skipped = "no libnccl.so.2 found";
            for (const std::string code : {"system_not_ready", "devices_unavailable", "interrupted", "crashed"}) {
                r.error = ProbeError{code, "cudaError", 1, "gemm_fp16"};
                for (const VerdictLine& line : judgeProbe(r, catalog->catalog, {"h100-sxm5-80gb", 2}).lines) {
                    reasons.push_back(line.reason);
                }
            }
            r.gpus[1].error = ProbeError{"gpu_fault", "cudaErrorLaunchFailure", std::nullopt, "gemm_own_fp16"};
            for (const VerdictLine& line : judgeProbe(r, catalog->catalog, {"h100-sxm5-80gb", 2}).lines) {
                reasons.push_back(line.reason);
            }
            for (const std::string code : {"ecc_uncorrectable",
                                           "gpu_fault",
                                           "out_of_memory",
                                           "no_kernel_image",
                                           "system_not_ready",
                                           "devices_unavailable",
                                           "nvlink_error",
                                           "interrupted",
                                           "crashed"}) {
                r.error.reset();
                r.gpus[1].error = ProbeError{code, "cudaError", std::nullopt, "gemm_fp16"};
                for (const VerdictLine& line : judgeProbe(r, catalog->catalog, {"h100-sxm5-80gb", 2}).lines) {
                    reasons.push_back(line.reason);
                }
            }
        }
        RemoteFacts facts;
        facts.machine = "x86_64";
        facts.glibcVersion = "2.31";
        facts.cudaVersionOfDriver = "12.2";
        readNvidiaSmi("535.183.01, NVIDIA A100-SXM4-80GB, 8.0, 81920\n", facts);
        std::vector<BundledProbe> builds = bundledProbeBuilds();
        for (BundledProbe& build : builds) {
            build.minimumGlibc = "2.34";
        }
        RemoteFacts withNvcc = facts;
        withNvcc.nvccVersion = "12.2";
        RemoteFacts withDocker = facts;
        withDocker.dockerWithNvidiaRuntime = true;
        RemoteFacts arm = withNvcc;
        arm.machine = "aarch64";
        RemoteFacts armBare = facts;
        armBare.machine = "aarch64";
        RemoteFacts current = facts;
        current.glibcVersion = "2.35";
        RemoteFacts oldDriver;
        oldDriver.machine = "x86_64";
        readNvidiaSmi("418.87.01, Tesla T4, [N/A], 15109\n", oldDriver);
        RemoteFacts none;
        none.machine = "x86_64";
        RemoteFacts noDriver = none;
        noDriver.nvidiaPciDevice = true;
        for (const RemoteFacts& f : {withNvcc, withDocker, facts, arm, armBare, current, oldDriver, none, noDriver}) {
            reasons.push_back(chooseDeployment(f, builds).why);
        }
        reasons.push_back(chooseDeployment(withNvcc, {}).why); // no bundled probe at all
        std::set<std::string> keys;
        const QRegularExpression han(QStringLiteral("\\p{Han}"));
        for (const Reason& reason : reasons) {
            const QString worded = gpuplan::ui::reasonText(reason);
            keys.insert(reason.key);
            QVERIFY2(!worded.startsWith(QString::fromStdString(reason.key)) && worded.contains(han),
                     qPrintable(QString::fromStdString(reason.key) + ": " + worded));
            QVERIFY2(!worded.contains(QRegularExpression(QStringLiteral("%\\d"))), qPrintable(worded));
        }
        for (const char* key : {"deploy.build_remote",
                                "deploy.container",
                                "deploy.cannot_run",
                                "deploy.architecture",
                                "deploy.prebuilt",
                                "deploy.driver_too_old",
                                "deploy.no_gpu",
                                "deploy.no_driver"}) {
            QVERIFY2(keys.count(key), key);
        }
        for (const char* key : {"probe.power.quick",
                                "probe.throttle.hardware_brief",
                                "probe.throttle.hardware_sustained",
                                "probe.throttle.thermal_sustained",
                                "probe.throttle.ok_shares",
                                "probe.throttle.no_samples",
                                "probe.burn.wrong_results",
                                "probe.burn.xid",
                                "probe.burn.ok",
                                "probe.burn.steady",
                                "probe.burn.sags",
                                "probe.burn.slowdown",
                                "probe.p2p.ok",
                                "probe.p2p.low",
                                "probe.p2p.slow",
                                "probe.p2p.no_nvlink",
                                "probe.nccl.ok",
                                "probe.nccl.low",
                                "probe.nccl.slow",
                                "probe.nccl.skipped",
                                "probe.measurement.informational",
                                "probe.measurement.informational_alone",
                                "probe.memory.mig_slice",
                                "probe.error.timeout",
                                "probe.error.system_not_ready",
                                "probe.error.devices_unavailable",
                                "probe.error.interrupted",
                                "probe.error.crashed",
                                "probe.gpu_error.timeout",
                                "probe.gpu_error.ecc_uncorrectable",
                                "probe.gpu_error.gpu_fault",
                                "probe.gpu_error.out_of_memory",
                                "probe.gpu_error.no_kernel_image",
                                "probe.gpu_error.system_not_ready",
                                "probe.gpu_error.devices_unavailable",
                                "probe.gpu_error.nvlink_error",
                                "probe.gpu_error.interrupted",
                                "probe.gpu_error.crashed",
                                "probe.gpu_error.own_kernel"}) {
            QVERIFY2(keys.count(key), key);
        }
        QVERIFY(keys.size() >= 60);
    }
};

QTEST_MAIN(TestPlanText)
#include "TestPlanText.moc"
