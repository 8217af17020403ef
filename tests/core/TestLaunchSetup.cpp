// makeLaunchOrder, where a launch choice becomes the request and its user-data: the watchdog's one set of bounds
// (the same in the script), a dead-man that is never turned off by an estimate, and a budget never moved to
// another currency when the catalog has no exchange rate. planLaunch, where a plan's option becomes the launch's
// choice: one GPU Planner cannot launch is passed over for the best-ranked one it can, saying why.
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/cloud/LaunchChoice.h"
#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/LaunchWorkflow.h"
#include "gpuplan/cloud/WatchdogScript.h"
#include "gpuplan/net/Http.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

using namespace gpuplan::core;

namespace {

/// Whether `reason` has each "name=part" of `expected`: the parameter `name`, holding `part`; the failure says which.
QString missingParam(const Reason& reason, const QStringList& expected)
{
    for (const QString& pair : expected) {
        const QString name = pair.section(QLatin1Char('='), 0, 0);
        const QString part = pair.section(QLatin1Char('='), 1);
        const auto it = reason.params.find(name.toStdString());
        if (it == reason.params.end() || !QString::fromStdString(it->second).contains(part)) {
            return QStringLiteral("%1 lacks %2 (%3)")
                .arg(QString::fromStdString(reason.key),
                     pair,
                     it == reason.params.end() ? QStringLiteral("no such parameter")
                                               : QString::fromStdString(it->second));
        }
    }
    return {};
}

std::string watchdogScript()
{
    std::ifstream in(GPUPLAN_SOURCE_DIR "/resources/scripts/gpuplan-watchdog.sh", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

LaunchSettings awsSettings()
{
    LaunchSettings s;
    s.provider = "aws";
    s.instanceType = "p3.2xlarge";
    s.region = "us-east-1";
    s.sshPublicKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGpuplan test";
    s.sshSourceCidr = "203.0.113.7/32";
    return s;
}

/// A plan of six ranked options: 1 Lambda (no launch support here), 2 AWS reserved, 3 AWS monthly (AWS has no
/// monthly rental), 4 GCP, 5 Tencent spot, 6 AWS on demand; a budget of 800 CNY.
PlanDocument sixOptions(std::optional<int> choice)
{
    const auto option = [](const char* provider, const char* type, const char* region, PricingMode mode, double high) {
        PlanOption o;
        o.provider = provider;
        o.instanceType = type;
        o.region = region;
        o.mode = mode;
        o.hours.value = high / 2;
        o.hours.high = high;
        return o;
    };
    PlanDocument plan;
    plan.created = "2026-12-04T10:00:00Z";
    plan.workload.id = "resnet50-imagenet";
    plan.constraints.budget = 800;
    plan.constraints.currency = Currency::CNY;
    plan.choice = choice;
    // The first is a lab's own offer (a provider GPU Planner has no launch API for), the fourth spot on Lambda,
    // which rents on demand only.
    plan.results.options = {option("campus", "a100x8", "campus-hpc", PricingMode::OnDemand, 10),
                            option("aws", "p4d.24xlarge", "us-east-1", PricingMode::Reserved1Year, 11),
                            option("aws", "p4d.24xlarge", "us-east-1", PricingMode::SubscriptionMonthly, 12),
                            option("lambda", "gpu_8x_a100", "us-east-1", PricingMode::Spot, 13),
                            option("tencent", "GN10Xp.20XLARGE320", "ap-guangzhou", PricingMode::Spot, 14),
                            option("aws", "p3.16xlarge", "us-east-1", PricingMode::OnDemand, 15)};
    for (std::size_t i = 0; i < plan.results.options.size(); ++i) {
        plan.results.options[i].rank = int(i) + 1;
    }
    return plan;
}

/// The address service (checkip) as prepareLaunch asks it: an answer, or no way through. Counts the questions.
class AddressService final : public HttpTransport
{
public:
    explicit AddressService(std::optional<std::string> answer)
        : m_answer(std::move(answer))
    { }
    using HttpTransport::send;
    Result<HttpResponse> send(const HttpRequest&, const CancelToken*) override
    {
        ++asked;
        if (!m_answer) {
            return Error{ErrorCode::Network, Reason{"error.net.unreachable", {{"said", "no route"}}}, "checkip"};
        }
        HttpResponse response;
        response.status = 200;
        response.body = *m_answer + "\n";
        return response;
    }
    int asked = 0;

private:
    std::optional<std::string> m_answer;
};

} // namespace

class TestLaunchSetup : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        Result<LoadedCatalog> loaded = loadCatalog(GPUPLAN_SOURCE_DIR "/resources/catalog");
        QVERIFY(loaded.ok());
        m_catalog = loaded->catalog;
        QVERIFY(m_catalog.exchangeRate().has_value());
        m_script = watchdogScript();
        QVERIFY(!m_script.empty());
    }

    // The script checks the same bounds as core, so that what the CLI and the GUI let through is installed as given.
    void theScriptHasCoresBounds_data()
    {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<int>("min");
        QTest::addColumn<int>("max");
        QTest::newRow("dead-man") << "GPUPLAN_DEADMAN_HOURS" << 0 << kMaxDeadmanHours;
        QTest::newRow("idle minutes") << "GPUPLAN_IDLE_MINUTES" << 0 << kMaxIdleMinutes;
        QTest::newRow("idle percent") << "GPUPLAN_IDLE_PERCENT" << kMinIdlePercent << kMaxIdlePercent;
        QTest::newRow("check seconds") << "GPUPLAN_CHECK_SECONDS" << kMinCheckSeconds << kMaxCheckSeconds;
        QTest::newRow("idle grace") << "GPUPLAN_IDLE_GRACE_MINUTES" << 0 << kMaxIdleGraceMinutes;
    }

    // Finding 6: the user-data tells the script what its shutdown does on this provider (EC2 terminates: the log
    // and the confirmation say so) and when idle time starts counting.
    void theUserDataSaysWhatAShutdownDoes()
    {
        WatchdogRules rules;
        rules.idleGraceMinutes = 45;
        Result<std::string> terminating = watchdogUserData(m_script, rules);
        QVERIFY(terminating.ok());
        QVERIFY(terminating->find("\n: \"${GPUPLAN_SHUTDOWN_MEANS:=terminate}\"") != std::string::npos);
        QVERIFY(terminating->find("\n: \"${GPUPLAN_IDLE_GRACE_MINUTES:=45}\"") != std::string::npos);
        rules.shutdownTerminates = false;
        Result<std::string> stopping = watchdogUserData(m_script, rules);
        QVERIFY(stopping.ok());
        QVERIFY(stopping->find("\n: \"${GPUPLAN_SHUTDOWN_MEANS:=stop}\"") != std::string::npos);
        rules.idleGraceMinutes = kMaxIdleGraceMinutes + 1;
        QCOMPARE(watchdogUserData(m_script, rules).error().where, std::string(kIdleGraceField));
    }
    void theScriptHasCoresBounds()
    {
        QFETCH(QString, variable);
        QFETCH(int, min);
        QFETCH(int, max);
        const QRegularExpression check(QStringLiteral("\\n\\s*check_\\w+ %1 (\\d+) (\\d+)").arg(variable));
        const QRegularExpressionMatch match = check.match(QString::fromStdString(m_script));
        QVERIFY2(match.hasMatch(), qPrintable(variable));
        QCOMPARE(match.captured(1).toInt(), min);
        QCOMPARE(match.captured(2).toInt(), max);
    }

    // A huge or infinite estimate gives the longest dead-man, never "off" (a double beyond int's range cast to int
    // is undefined behaviour, and the GUI's spin box turned the result into 0, "Off").
    void theDefaultDeadmanIsNeverOff_data()
    {
        QTest::addColumn<double>("hoursHigh");
        QTest::addColumn<int>("deadman");
        QTest::newRow("no estimate") << 0.0 << 12;
        QTest::newRow("NaN") << std::nan("") << 12;
        QTest::newRow("8 h") << 8.0 << 11;
        QTest::newRow("just under the bound") << 7007.0 << kMaxDeadmanHours;
        QTest::newRow("over the bound") << 8000.0 << kMaxDeadmanHours;
        QTest::newRow("beyond int") << 1e12 << kMaxDeadmanHours;
        QTest::newRow("1e300") << 1e300 << kMaxDeadmanHours;
        QTest::newRow("infinite") << std::numeric_limits<double>::infinity() << kMaxDeadmanHours;
    }
    void theDefaultDeadmanIsNeverOff()
    {
        QFETCH(double, hoursHigh);
        QFETCH(int, deadman);
        QCOMPARE(defaultDeadmanHours(hoursHigh), deadman);
    }

    // A rule the script would not install as given is refused where the user-data is made, naming the rule and
    // its bounds; the bounds themselves are accepted.
    void rulesOutOfBoundsAreRefusedWhereTheUserDataIsMade_data()
    {
        QTest::addColumn<int>("deadman");
        QTest::addColumn<int>("idleMinutes");
        QTest::addColumn<int>("idlePercent");
        QTest::addColumn<QString>("refused");    // the key; empty: accepted
        QTest::addColumn<QString>("field");      // Error::where: the rule refused
        QTest::addColumn<QStringList>("bounds"); // its parameters: "min=0", "max=8760", "value=9000"
        QTest::newRow("the bounds") << kMaxDeadmanHours << kMaxIdleMinutes << kMaxIdlePercent << ""
                                    << "" << QStringList{};
        QTest::newRow("both off") << 0 << 0 << kMinIdlePercent << ""
                                  << "" << QStringList{};
        QTest::newRow("dead-man a year and an hour")
            << kMaxDeadmanHours + 1 << 60 << 5 << "error.cloud.deadman_out_of_range" << kDeadmanField
            << QStringList{"min=0", "max=8760", "value=8761"};
        QTest::newRow("dead-man the script used to refuse")
            << 1000000 << 60 << 5 << "error.cloud.deadman_out_of_range" << kDeadmanField
            << QStringList{"min=0", "max=8760", "value=1000000"};
        QTest::newRow("dead-man int max")
            << std::numeric_limits<int>::max() << 60 << 5 << "error.cloud.deadman_out_of_range" << kDeadmanField
            << QStringList{"min=0", "max=8760", "value=" + QString::number(std::numeric_limits<int>::max())};
        QTest::newRow("dead-man negative")
            << -1 << 60 << 5 << "error.cloud.deadman_out_of_range" << kDeadmanField << QStringList{"value=-1"};
        QTest::newRow("idle over a week") << 12 << kMaxIdleMinutes + 1 << 5 << "error.cloud.idle_minutes_out_of_range"
                                          << kIdleMinutesField << QStringList{"min=0", "max=10080", "value=10081"};
        QTest::newRow("idle percent 0") << 12 << 60 << 0 << "error.cloud.idle_percent_out_of_range" << kIdlePercentField
                                        << QStringList{"min=1", "max=100", "value=0"};
    }
    void rulesOutOfBoundsAreRefusedWhereTheUserDataIsMade()
    {
        QFETCH(int, deadman);
        QFETCH(int, idleMinutes);
        QFETCH(int, idlePercent);
        QFETCH(QString, refused);
        QFETCH(QString, field);
        QFETCH(QStringList, bounds);
        LaunchSettings s = awsSettings();
        s.watchdog = WatchdogRules{deadman, idleMinutes, idlePercent, 60};
        Result<LaunchOrder> order = makeLaunchOrder(s, m_catalog, m_script, {}, 1'700'000'000);
        if (refused.isEmpty()) {
            QVERIFY2(order.ok(), order.ok() ? "" : describe(order.error()).c_str());
            QCOMPARE(order->deadmanHours, deadman);
            return;
        }
        QVERIFY2(!order.ok(), "a rule out of bounds went into the user-data");
        QCOMPARE(order.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(QString::fromStdString(order.error().reason.key), refused);
        QCOMPARE(QString::fromStdString(order.error().where), field);
        const QString missing = missingParam(order.error().reason, bounds);
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QVERIFY(!watchdogUserData(m_script, s.watchdog).ok());
    }

    // Without an exchange rate a CNY budget is not quietly counted as USD (about 7x more): the launch is refused,
    // naming the pair and the file the rate comes from. With the rate, or in the price's own currency, it goes.
    void aMissingExchangeRateRefusesTheBudgetComparison()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath("offers")));
        QVERIFY(QFile::copy(GPUPLAN_SOURCE_DIR "/resources/catalog/gpus.json", dir.filePath("gpus.json")));
        QVERIFY(QFile::copy(GPUPLAN_SOURCE_DIR "/resources/catalog/offers/aws.json", dir.filePath("offers/aws.json")));
        Result<LoadedCatalog> loaded = loadCatalog(dir.path().toStdString());
        QVERIFY(loaded.ok());
        QVERIFY(!loaded->catalog.exchangeRate());

        LaunchSettings s = awsSettings();
        s.budget = 1000;
        s.budgetCurrency = Currency::CNY;
        Result<LaunchOrder> order = makeLaunchOrder(s, loaded->catalog, m_script, {}, 1'700'000'000);
        QVERIFY2(!order.ok(),
                 order.ok() ? qPrintable(QStringLiteral("the budget became %1 %2")
                                             .arg(order->budget)
                                             .arg(QString::fromLatin1(currencyCode(order->budgetCurrency))))
                            : "");
        QCOMPARE(order.error().reason.key, std::string("error.cloud.no_exchange_rate"));
        const QString missing = missingParam(order.error().reason,
                                             {"budget_currency=CNY", "price_currency=USD", "file=exchange_rate.json"});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));

        s.budgetCurrency = Currency::USD; // the price's own currency: nothing to convert
        Result<LaunchOrder> sameCurrency = makeLaunchOrder(s, loaded->catalog, m_script, {}, 1'700'000'000);
        QVERIFY2(sameCurrency.ok(), sameCurrency.ok() ? "" : describe(sameCurrency.error()).c_str());
        QCOMPARE(sameCurrency->budgetCurrency, Currency::USD);

        s.budgetCurrency = Currency::CNY;
        Result<LaunchOrder> withRate = makeLaunchOrder(s, m_catalog, m_script, {}, 1'700'000'000);
        QVERIFY2(withRate.ok(), withRate.ok() ? "" : describe(withRate.error()).c_str());
        QCOMPARE(withRate->budgetCurrency, Currency::CNY);
        QCOMPARE(withRate->budget, 1000.0);
    }

    // Issue 20, finding 15: a plan's choice that GPU Planner cannot launch is not offered (nor is a launch left to
    // fail at the provider); the best-ranked option it can launch is, with the choice and the reason beside it.
    void aChoiceThatCannotBeLaunchedGivesTheBestThatCan_data()
    {
        QTest::addColumn<int>("choice"); // -1: none (the first option)
        QTest::addColumn<int>("choiceRank");
        QTest::addColumn<int>("block");         // -1: the choice can be launched
        QTest::addColumn<QString>("why");       // the key of notLaunchableReason
        QTest::addColumn<QStringList>("names"); // its parameters: "provider=campus"
        QTest::addColumn<int>("offeredRank");
        QTest::newRow("no choice, first a lab's own")
            << -1 << 1 << int(LaunchBlock::Provider) << "error.cloud.provider_not_launchable"
            << QStringList{"provider=campus", "launchable=aws,tencent,alibaba,huawei,gcp,azure,lambda,paperspace"} << 5;
        QTest::newRow("chosen a lab's own")
            << 0 << 1 << int(LaunchBlock::Provider) << "error.cloud.provider_not_launchable"
            << QStringList{"provider=campus"} << 5;
        QTest::newRow("a reservation") << 1 << 2 << int(LaunchBlock::Reservation)
                                       << "error.cloud.reservation_not_launchable" << QStringList{"mode=reserved_1y"}
                                       << 5;
        QTest::newRow("a mode the provider lacks")
            << 2 << 3 << int(LaunchBlock::Mode) << "error.cloud.mode_not_launchable"
            << QStringList{"provider=aws", "mode=subscription_monthly", "why_key=unsupported.aws.subscription"} << 5;
        QTest::newRow("spot on Lambda") << 3 << 4 << int(LaunchBlock::Mode) << "error.cloud.mode_not_launchable"
                                        << QStringList{"provider=lambda",
                                                       "mode=spot",
                                                       "why_key=unsupported.lambda.spot"}
                                        << 5;
        QTest::newRow("Tencent spot can be launched") << 4 << 5 << -1 << "" << QStringList{} << 5;
        QTest::newRow("AWS on demand can be launched") << 5 << 6 << -1 << "" << QStringList{} << 6;
    }
    void aChoiceThatCannotBeLaunchedGivesTheBestThatCan()
    {
        QFETCH(int, choice);
        QFETCH(int, choiceRank);
        QFETCH(int, block);
        QFETCH(QString, why);
        QFETCH(QStringList, names);
        QFETCH(int, offeredRank);
        const PlanDocument plan = sixOptions(choice < 0 ? std::nullopt : std::optional<int>(choice));
        Result<PlanLaunch> offered = planLaunch(plan);
        QVERIFY2(offered.ok(), offered.ok() ? "" : describe(offered.error()).c_str());
        const PlanOption& option = plan.results.options[std::size_t(offeredRank - 1)];
        QCOMPARE(offered->rank, offeredRank);
        QCOMPARE(offered->provider, option.provider);
        QCOMPARE(offered->instanceType, option.instanceType);
        QCOMPARE(offered->region, option.region);
        QCOMPARE(offered->hoursHigh, option.hours.high);
        QCOMPARE(offered->budget, 800.0);
        QCOMPARE(offered->planId, planIdOf(plan));
        QVERIFY(!launchBlock(offered->provider, offered->mode));
        if (block < 0) {
            QVERIFY(!offered->passedOver);
            return;
        }
        QVERIFY(offered->passedOver);
        const auto& [passed, reason] = *offered->passedOver;
        QCOMPARE(passed.rank, choiceRank);
        QCOMPARE(passed.provider, plan.results.options[std::size_t(choiceRank - 1)].provider);
        QCOMPARE(int(reason.block), block);
        if (reason.block == LaunchBlock::Mode) {
            // The provider's own reason, as its descriptor gives it.
            QCOMPARE(reason.detail.key, std::string("error.cloud.feature_unsupported"));
            QCOMPARE(reason.detail.params.at("feature"),
                     std::string(passed.mode == PricingMode::Spot ? "spot" : "subscription"));
        }
        const Reason text = notLaunchableReason(reason, passed.provider, passed.mode);
        QCOMPARE(QString::fromStdString(text.key), why);
        const QString missing = missingParam(text, names);
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // An option asked for by rank (--option N) is never swapped for another: one that cannot be launched is refused,
    // naming it and why.
    void anExplicitOptionThatCannotBeLaunchedIsRefused_data()
    {
        QTest::addColumn<int>("rank");
        QTest::addColumn<QStringList>("refused"); // the parameters of the refusal: "provider=campus"; empty: given
        QTest::newRow("1, a lab's own") << 1
                                        << QStringList{"rank=1",
                                                       "provider=campus",
                                                       "instance_type=a100x8",
                                                       "region=campus-hpc",
                                                       "mode=on_demand",
                                                       "why=error.cloud.provider_not_launchable"};
        QTest::newRow("2, reserved") << 2
                                     << QStringList{"rank=2",
                                                    "provider=aws",
                                                    "instance_type=p4d.24xlarge",
                                                    "region=us-east-1",
                                                    "mode=reserved_1y",
                                                    "why=error.cloud.reservation_not_launchable"};
        QTest::newRow("3, monthly on AWS") << 3
                                           << QStringList{"provider=aws",
                                                          "mode=subscription_monthly",
                                                          "why=error.cloud.mode_not_launchable",
                                                          "why_key=unsupported.aws.subscription"};
        QTest::newRow("4, spot on Lambda") << 4
                                           << QStringList{"rank=4",
                                                          "provider=lambda",
                                                          "instance_type=gpu_8x_a100",
                                                          "mode=spot",
                                                          "why=error.cloud.mode_not_launchable"};
        QTest::newRow("5, Tencent spot") << 5 << QStringList{};
        QTest::newRow("6, AWS on demand") << 6 << QStringList{};
    }
    void anExplicitOptionThatCannotBeLaunchedIsRefused()
    {
        QFETCH(int, rank);
        QFETCH(QStringList, refused);
        Result<PlanLaunch> asked = planLaunch(sixOptions(std::nullopt), rank);
        if (refused.isEmpty()) {
            QVERIFY2(asked.ok(), asked.ok() ? "" : describe(asked.error()).c_str());
            QCOMPARE(asked->rank, rank);
            QVERIFY(!asked->passedOver);
            return;
        }
        QVERIFY2(!asked.ok(),
                 asked.ok() ? ("option given: " + asked->provider + " " + asked->instanceType).c_str() : "");
        QCOMPARE(asked.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(asked.error().where, std::string("--option"));
        QCOMPARE(asked.error().reason.key, std::string("error.cloud.option_not_launchable"));
        const QString missing = missingParam(asked.error().reason, refused);
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // A plan none of whose options can be launched says so, naming its choice and why; its budget still reads.
    /// core::prepareLaunch, which both front ends run: the key is read, the SSH source is taken as typed (an address
    /// alone is that host) or looked up, a source open to everyone is refused, and each refusal names the input.
    void thePreparationReadsTheKeyAndTheSshSource()
    {
        QTemporaryDir home;
        const std::string keyFile = home.filePath("id.pub").toStdString();
        std::ofstream(keyFile) << "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGpuplan lab@gpu\n";
        LaunchSettings s = awsSettings();
        s.sshPublicKey.clear();
        s.sshSourceCidr.clear();

        AddressService silent(std::nullopt);
        Result<PreparedLaunch> typed =
            prepareLaunch({s, keyFile, " 198.51.100.1 "}, m_catalog, m_script, silent, 1'700'000'000);
        QVERIFY2(typed.ok(), typed ? "" : describe(typed.error()).c_str());
        QCOMPARE(typed->order.request.sshSourceCidr, std::string("198.51.100.1/32"));
        QCOMPARE(typed->order.request.sshPublicKey,
                 std::string("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGpuplan lab@gpu"));
        QCOMPARE(silent.asked, 0); // a typed address is not looked up

        AddressService checkip(std::string("203.0.113.9"));
        Result<PreparedLaunch> looked = prepareLaunch({s, keyFile, ""}, m_catalog, m_script, checkip, 1'700'000'000);
        QVERIFY2(looked.ok(), looked ? "" : describe(looked.error()).c_str());
        QCOMPARE(looked->order.request.sshSourceCidr, std::string("203.0.113.9/32"));
        QVERIFY(!looked->addressProblem);

        Result<PreparedLaunch> open =
            prepareLaunch({s, keyFile, "0.0.0.0/0"}, m_catalog, m_script, silent, 1'700'000'000);
        QVERIFY(!open.ok());
        Error refused = open.error();
        QCOMPARE(takeLaunchInputFrame(refused), std::optional<LaunchInput>(LaunchInput::SshSource));
        QCOMPARE(refused.reason.key, std::string("error.cloud.cidr_whole_internet"));
        QVERIFY(refused.context.empty());

        // No address to be had: a launch stops and says where to give one; a dry run (it opens nothing) goes on
        // with a documentation address and says why.
        Result<PreparedLaunch> unknown = prepareLaunch({s, keyFile, ""}, m_catalog, m_script, silent, 1'700'000'000);
        QVERIFY(!unknown.ok());
        Error lookup = unknown.error();
        QCOMPARE(takeLaunchInputFrame(lookup), std::optional<LaunchInput>(LaunchInput::SshSource));
        QCOMPARE(lookup.reason.key, std::string("error.net.unreachable"));
        QCOMPARE(lookup.context.size(), std::size_t(1));
        QCOMPARE(lookup.context[0].key, std::string("error.cloud.public_address_unknown"));
        s.dryRun = true;
        Result<PreparedLaunch> dry = prepareLaunch({s, keyFile, ""}, m_catalog, m_script, silent, 1'700'000'000);
        QVERIFY2(dry.ok(), dry ? "" : describe(dry.error()).c_str());
        QCOMPARE(dry->order.request.sshSourceCidr, std::string("192.0.2.1/32"));
        QVERIFY(dry->addressProblem && dry->addressProblem->reason.key == "error.net.unreachable");

        Result<PreparedLaunch> noKey = prepareLaunch(
            {s, home.filePath("none.pub").toStdString(), "198.51.100.1"}, m_catalog, m_script, silent, 1'700'000'000);
        QVERIFY(!noKey.ok());
        Error missing = noKey.error();
        QCOMPARE(takeLaunchInputFrame(missing), std::optional<LaunchInput>(LaunchInput::PublicKey));
        QCOMPARE(missing.code, ErrorCode::FileNotFound);
        QVERIFY(missing.where.ends_with("none.pub"));

        // An error that is not about the user's input keeps its frames.
        s.provider = "nosuch";
        Result<PreparedLaunch> unknownProvider =
            prepareLaunch({s, keyFile, "198.51.100.1"}, m_catalog, m_script, silent, 1'700'000'000);
        QVERIFY(!unknownProvider.ok());
        Error other = unknownProvider.error();
        QCOMPARE(takeLaunchInputFrame(other), std::optional<LaunchInput>());
    }

    void aSpotPriceLimitGoesWithSpotOnly()
    {
        LaunchSettings s = awsSettings();
        s.price = 1.0; // the catalog's spot price is not what is checked here
        s.pricing = LaunchPricing::Spot;
        s.spotPriceLimit = 1.25;
        Result<LaunchOrder> spot = makeLaunchOrder(s, m_catalog, m_script, {}, 1'700'000'000);
        QVERIFY2(spot.ok(), spot ? "" : describe(spot.error()).c_str());
        QCOMPARE(spot->request.spotPriceLimit, 1.25);

        for (const double limit : {1.25, -1.0}) {
            s.pricing = limit > 0 ? LaunchPricing::OnDemand : LaunchPricing::Spot;
            s.spotPriceLimit = limit;
            Result<LaunchOrder> refused = makeLaunchOrder(s, m_catalog, m_script, {}, 1'700'000'000);
            QVERIFY(!refused.ok());
            QCOMPARE(refused.error().code, ErrorCode::InvalidArgument);
            QCOMPARE(refused.error().reason.key, std::string("error.cloud.spot_limit_without_spot"));
            QCOMPARE(refused.error().where, std::string("spot_price_limit"));
        }
        QCOMPARE(spotPriceText(0.5), std::string("0.5"));
        QCOMPARE(spotPriceText(2.345), std::string("2.345"));
        QCOMPARE(spotPriceText(3), std::string("3"));
        QCOMPARE(spotPriceText(0.123456), std::string("0.12346"));
    }

    void aPlanWithNothingToLaunchSaysSo()
    {
        PlanDocument plan = sixOptions(std::nullopt);
        std::vector<PlanOption>& options = plan.results.options;
        options.erase(options.begin() + 4, options.end());
        Result<PlanLaunch> offered = planLaunch(plan);
        QVERIFY(!offered.ok());
        QCOMPARE(offered.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(offered.error().reason.key, std::string("error.cloud.nothing_launchable"));
        const QString missing = missingParam(offered.error().reason,
                                             {"rank=1",
                                              "provider=campus",
                                              "instance_type=a100x8",
                                              "why=error.cloud.provider_not_launchable",
                                              "options=4"});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QCOMPARE(planBudgetOf(plan).amount, 800.0);
        QCOMPARE(planBudgetOf(plan).currency, Currency::CNY);
    }

private:
    Catalog m_catalog;
    std::string m_script;
};

QTEST_GUILESS_MAIN(TestLaunchSetup)
#include "TestLaunchSetup.moc"
