// makeLaunchOrder, where a launch choice becomes the request and its user-data: the watchdog's one set of bounds
// (the same in the script), a dead-man that is never turned off by an estimate, and a budget never moved to
// another currency when the catalog has no exchange rate.
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/WatchdogScript.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

using namespace gpuplan::core;

namespace {

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
        QTest::addColumn<QString>("refused"); // empty: accepted
        QTest::newRow("the bounds") << kMaxDeadmanHours << kMaxIdleMinutes << kMaxIdlePercent << "";
        QTest::newRow("both off") << 0 << 0 << kMinIdlePercent << "";
        QTest::newRow("dead-man a year and an hour") << kMaxDeadmanHours + 1 << 60 << 5 << "0 (off) to 8760 hours";
        QTest::newRow("dead-man the script used to refuse") << 1000000 << 60 << 5 << "0 (off) to 8760 hours";
        QTest::newRow("dead-man int max") << std::numeric_limits<int>::max() << 60 << 5 << "0 (off) to 8760 hours";
        QTest::newRow("dead-man negative") << -1 << 60 << 5 << "not -1";
        QTest::newRow("idle over a week") << 12 << kMaxIdleMinutes + 1 << 5 << "0 (off) to 10080 minutes";
        QTest::newRow("idle percent 0") << 12 << 60 << 0 << "1 to 100 %";
    }
    void rulesOutOfBoundsAreRefusedWhereTheUserDataIsMade()
    {
        QFETCH(int, deadman);
        QFETCH(int, idleMinutes);
        QFETCH(int, idlePercent);
        QFETCH(QString, refused);
        LaunchSettings s = awsSettings();
        s.watchdog = WatchdogRules{deadman, idleMinutes, idlePercent, 60};
        Result<LaunchOrder> order = makeLaunchOrder(s, m_catalog, m_script, {}, 1'700'000'000);
        if (refused.isEmpty()) {
            QVERIFY2(order.ok(), order.ok() ? "" : order.error().message().c_str());
            QCOMPARE(order->deadmanHours, deadman);
            return;
        }
        QVERIFY2(!order.ok(), "a rule out of bounds went into the user-data");
        QCOMPARE(order.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(QString::fromStdString(order.error().detail).contains(refused), order.error().detail.c_str());
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
        const QString detail = QString::fromStdString(order.error().message());
        QVERIFY2(detail.contains("CNY") && detail.contains("USD") && detail.contains("exchange_rate.json"),
                 qPrintable(detail));

        s.budgetCurrency = Currency::USD; // the price's own currency: nothing to convert
        Result<LaunchOrder> sameCurrency = makeLaunchOrder(s, loaded->catalog, m_script, {}, 1'700'000'000);
        QVERIFY2(sameCurrency.ok(), sameCurrency.ok() ? "" : sameCurrency.error().message().c_str());
        QCOMPARE(sameCurrency->budgetCurrency, Currency::USD);

        s.budgetCurrency = Currency::CNY;
        Result<LaunchOrder> withRate = makeLaunchOrder(s, m_catalog, m_script, {}, 1'700'000'000);
        QVERIFY2(withRate.ok(), withRate.ok() ? "" : withRate.error().message().c_str());
        QCOMPARE(withRate->budgetCurrency, Currency::CNY);
        QCOMPARE(withRate->budget, 1000.0);
    }

private:
    Catalog m_catalog;
    std::string m_script;
};

QTEST_GUILESS_MAIN(TestLaunchSetup)
#include "TestLaunchSetup.moc"
