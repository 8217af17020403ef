// The Reports page on a ledger written here (a real SQLite file in a temporary folder): three launches in USD and
// CNY, one running across a month boundary; two finished runs and a failed one with planned and measured figures;
// a plan budget. The page shows them, its charts have the series, the CSV export writes them; in English and Chinese.

#include "../support/Widgets.h"
#include "AppSettings.h"
#include "Questions.h"
#include "charts/SpendCharts.h"
#include "models/InstanceTableModel.h"
#include "pages/ReportsPage.h"
#include "wording/Format.h"
#include "wording/Language.h"
#include "wording/ProviderText.h"
#include "wording/RunText.h"

#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/report/RunsReport.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace gpuplan;
using gpuplan::testing::child;

namespace {

constexpr std::int64_t kJan31At20 = 1738353600; // 2025-01-31T20:00:00Z
constexpr std::int64_t kFeb10 = 1739145600;     // 2025-02-10T00:00:00Z
constexpr double kCnyPerUsd = 7.2;
const std::string kPlan = "plan-0123456789ab";

/// The item role in which the page keeps a measured figure's core::RangeFit.
constexpr int kFitRole = Qt::UserRole + 1;

std::int64_t addLaunch(core::Ledger& ledger,
                       const std::string& provider,
                       const std::string& type,
                       double price,
                       core::Currency currency,
                       std::int64_t start,
                       std::int64_t end,
                       const std::string& planId)
{
    core::LaunchIntent intent;
    intent.provider = provider;
    intent.region = provider == "aws" ? "us-east-1" : "cn-hangzhou";
    intent.instanceType = type;
    intent.pricingMode = "on_demand";
    intent.price.amount = price;
    intent.price.currency = currency;
    intent.price.billing = core::Billing{core::Billing::Granularity::Second, 0};
    intent.planId = planId;
    intent.clientToken = "token-" + type + std::to_string(start);
    const core::Result<std::int64_t> id = ledger.recordIntent(intent, start - 60);
    if (!id) {
        qFatal("recordIntent failed");
    }
    if (!ledger.update(*id, "i-" + std::to_string(*id), core::InstanceState::Running, start)) {
        qFatal("update failed");
    }
    if (!ledger.update(*id, "i-" + std::to_string(*id), core::InstanceState::Terminated, end)) {
        qFatal("update failed");
    }
    return *id;
}

core::RunRecord run(std::int64_t launchId, core::RunState state, std::int64_t start, double hours)
{
    core::RunRecord r;
    r.launchId = launchId;
    r.planId = kPlan;
    r.host = "ubuntu@203.0.113." + std::to_string(launchId);
    r.remoteDir = "/home/ubuntu/gpuplan-run";
    r.method = "systemd";
    r.state = state;
    r.startedAt = start;
    r.endedAt = start + static_cast<std::int64_t>(hours * 3600);
    r.exitCode = state == core::RunState::Finished ? 0 : 2;
    r.planned.throughput = 2000;
    r.planned.throughputLow = 1600;
    r.planned.throughputHigh = 2400;
    r.planned.throughputUnit = "samples";
    r.planned.hours = 5;
    r.planned.hoursLow = 4;
    r.planned.hoursHigh = 6;
    r.planned.cost = 300;
    r.planned.currency = "CNY";
    r.planned.budget = 500;
    r.planned.planName = "ResNet-50, 8x A100";
    r.measured.throughputUnit = "samples";
    r.measured.hours = hours;
    return r;
}

} // namespace

class TestReportsGui : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
        ui::AppSettings settings;
        settings.setDisplayCurrency(QStringLiteral("CNY"));
        settings.setCnyPerUsd(kCnyPerUsd);

        m_ledgerFile = m_dir.filePath(QStringLiteral("ledger.sqlite")).toStdString();
        auto ledger = core::Ledger::open(m_ledgerFile);
        QVERIFY(ledger);
        core::Ledger& l = **ledger;
        // 20:00 on 31 January to 06:00 on 1 February: 4 h in January, 6 h in February, at 3 USD/h.
        const std::int64_t aws =
            addLaunch(l, "aws", "p4d.24xlarge", 3, core::Currency::USD, kJan31At20, kJan31At20 + 10 * 3600, kPlan);
        // 5 h at 40 CNY/h and 2 h at 20 CNY/h in February.
        const std::int64_t ali =
            addLaunch(l, "alibaba", "ecs.gn7i-c8g1.2xlarge", 40, core::Currency::CNY, kFeb10, kFeb10 + 5 * 3600, kPlan);
        addLaunch(l,
                  "alibaba",
                  "ecs.gn6i-c4g1.xlarge",
                  20,
                  core::Currency::CNY,
                  kFeb10 + 86400,
                  kFeb10 + 86400 + 2 * 3600,
                  "");
        QVERIFY(l.setBudget({kPlan, 600, core::Currency::CNY, false}));

        core::RunRecord good = run(aws, core::RunState::Finished, kJan31At20 + 600, 5.5);
        good.measured.throughput = 2100;
        good.measured.gpuUtilization = 93;
        good.measured.cost = 16.5;
        good.measured.costCurrency = "USD";
        good.resultsDir = "/home/me/results/resnet";
        core::RunRecord slow = run(ali, core::RunState::Finished, kFeb10 + 300, 4.5);
        slow.measured.throughput = 1200; // below the planned 1600-2400
        slow.measured.gpuUtilization = 61;
        slow.measured.cost = 180;
        slow.measured.costCurrency = "CNY";
        core::RunRecord failed = run(ali, core::RunState::Failed, kFeb10 + 4 * 3600 + 1800, 0.25);
        // Its run measured nothing: the throughput, the GPU use and the cost stay unknown.
        for (const core::RunRecord& r : {good, slow, failed}) {
            QVERIFY(l.recordRun(r));
        }
    }

    void showsRunsLaunchesAndCharts_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }

    void showsRunsLaunchesAndCharts()
    {
        QFETCH(QString, language);
        QVERIFY(ui::installTranslations(*qApp, language));
        ui::ReportsPage page;
        page.resize(1400, 1000);
        page.setLedgerFile(m_ledgerFile);
        page.show();
        QSignalSpy refreshed(&page, &ui::ReportsPage::refreshed);
        page.refresh();
        QVERIFY(refreshed.wait(10000));

        auto* runs = child<QTableWidget>(page, "reportsRunsTable");
        QCOMPARE(runs->rowCount(), 3);
        // Oldest first: the AWS run, the slow one, the failed one.
        QCOMPARE(runs->item(0, 3)->text(), ui::runStateText(core::RunState::Finished, 0));
        QCOMPARE(runs->item(2, 3)->text(), ui::runStateText(core::RunState::Failed, 2));
        QVERIFY(runs->item(0, 0)->text().contains(QStringLiteral("ResNet-50")));
        QVERIFY(runs->item(0, 1)->text().contains(QStringLiteral("p4d.24xlarge")));
        QVERIFY(runs->item(1, 1)->text().contains(ui::providerDisplayName("alibaba")));
        // The slow run's speed is outside its range, coloured; the first one's is within.
        QCOMPARE(runs->item(1, 7)->data(kFitRole).toInt(), static_cast<int>(core::RangeFit::Below));
        QVERIFY(runs->item(1, 7)->foreground().color() != runs->item(0, 7)->foreground().color());
        QCOMPARE(runs->item(0, 7)->data(kFitRole).toInt(), static_cast<int>(core::RangeFit::Within));
        QVERIFY(runs->item(0, 7)->text().contains(ui::formatNumber(2100)));
        QVERIFY(runs->item(0, 6)->text().contains(ui::formatNumber(1600)));
        QVERIFY(runs->item(0, 6)->text().contains(ui::formatNumber(2400)));
        // 16.5 USD at 7.2: ¥118.80; the failed run's cost is unknown, not ¥0.
        QVERIFY2(runs->item(0, 9)->text().contains(QStringLiteral("118.80")), qPrintable(runs->item(0, 9)->text()));
        QVERIFY(!runs->item(2, 9)->text().contains(QLatin1Char('0')));
        QVERIFY(!runs->item(2, 7)->text().contains(QLatin1Char('0')));
        QVERIFY(runs->item(0, 11)->text().contains(QStringLiteral("resnet")));
        // A failed run did not do the whole training: its short time is not judged.
        QCOMPARE(runs->item(2, 5)->data(kFitRole).toInt(), static_cast<int>(core::RangeFit::Unknown));

        auto* launches = child<QTableWidget>(page, "reportsLaunchesTable");
        QCOMPARE(launches->rowCount(), 3);
        QCOMPARE(launches->item(0, 0)->text(), ui::providerDisplayName("aws"));
        QCOMPARE(launches->item(1, 0)->text(), ui::providerDisplayName("alibaba"));
        QCOMPARE(launches->item(0, 4)->text(), ui::instanceStateText(core::InstanceState::Terminated));
        // 10 h at 3 USD = 30 USD = ¥216, with the USD beside it.
        QVERIFY2(launches->item(0, 8)->text().contains(QStringLiteral("216")),
                 qPrintable(launches->item(0, 8)->text()));
        QVERIFY(launches->item(0, 8)->text().contains(QStringLiteral("30")));
        QVERIFY2(launches->item(1, 8)->text().contains(QStringLiteral("200")),
                 qPrintable(launches->item(1, 8)->text()));
        QCOMPARE(launches->item(2, 3)->text(), ui::planLabel("", ""));

        auto* tabs = child<QTabWidget>(page, "reportsChartTabs");
        QCOMPARE(tabs->count(), 3);
        auto* byMonth = child<QChartView>(page, "spendByMonthChart");
        QCOMPARE(byMonth->chart()->series().size(), 1);
        auto* stacked = qobject_cast<QStackedBarSeries*>(byMonth->chart()->series().front());
        QVERIFY(stacked);
        QCOMPARE(stacked->count(), 2); // a stack per provider
        auto* months = qobject_cast<QBarCategoryAxis*>(byMonth->chart()->axes(Qt::Horizontal).front());
        QCOMPARE(months->categories(), QStringList({QStringLiteral("2025-01"), QStringLiteral("2025-02")}));
        for (QBarSet* set : stacked->barSets()) {
            if (set->objectName() == QLatin1String("aws")) {
                QCOMPARE(set->at(0), 4 * 3 * kCnyPerUsd); // January's 4 hours
                QCOMPARE(set->at(1), 6 * 3 * kCnyPerUsd);
            } else {
                QCOMPARE(set->objectName(), QStringLiteral("alibaba"));
                QCOMPARE(set->at(0), 0.0);
                QCOMPARE(set->at(1), 240.0);
            }
        }
        auto* byPlan = child<QChartView>(page, "spendByPlanChart");
        auto* budget = byPlan->chart()->findChild<QScatterSeries*>(QStringLiteral("budgetSeries"));
        QVERIFY(budget);
        QCOMPARE(budget->count(), 1);
        QCOMPARE(budget->at(0).y(), 600.0);
        auto* byProvider = child<QChartView>(page, "spendByProviderChart");
        QCOMPARE(byProvider->chart()->series().size(), 1);

        // The plan spent 216 + 200 = ¥416 of ¥600: under 80 %, so no warning; the total is all three launches.
        QVERIFY(page.report());
        QCOMPARE(page.report()->total, 456.0);

        if (const QString shots = qEnvironmentVariable("GPUPLAN_TEST_SCREENSHOTS"); !shots.isEmpty()) {
            QVERIFY(page.grab().save(shots + QStringLiteral("/reports-") + language + QStringLiteral(".png")));
        }
    }

    void exportsCsv()
    {
        QVERIFY(ui::installTranslations(*qApp, QStringLiteral("en")));
        ui::ReportsPage page;
        page.setLedgerFile(m_ledgerFile);
        QSignalSpy refreshed(&page, &ui::ReportsPage::refreshed);
        page.refresh();
        QVERIFY(refreshed.wait(10000));
        const QString file = m_dir.filePath(QStringLiteral("out/runs.csv"));
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("out"))));
        ui::Questions::setNextAnswer(ui::Question::FileName, file);
        QSignalSpy exported(&page, &ui::ReportsPage::exported);
        auto* button = child<QPushButton>(page, "reportsExportCsvButton");
        QVERIFY(button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(exported.wait(10000));
        QCOMPARE(exported.front().front().toString(), file);

        QFile csv(file);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(csv.readAll());
        QStringList lines = text.split(QStringLiteral("\r\n"));
        QCOMPARE(lines.takeLast(), QString()); // ends with CRLF
        QCOMPARE(lines.size(), 7);             // the header, 3 runs, 3 launches
        QVERIFY(lines[0].startsWith(QStringLiteral("section,id,")));
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^run,"))).size(), 3);
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^launch,"))).size(), 3);
        QVERIFY(lines[1].contains(QStringLiteral("\"ResNet-50, 8x A100\""))); // the comma quoted
        QVERIFY(lines[1].contains(QStringLiteral(",2100,samples,93,")));
        QVERIFY(lines[1].contains(QStringLiteral(",118.8,CNY,")));
        QVERIFY(lines[3].contains(QStringLiteral(",failed,2,")));
        QVERIFY(lines[3].contains(QStringLiteral(",,samples,,300,,CNY,"))); // nothing measured: empty, never 0
        QVERIFY(lines[4].contains(QStringLiteral(",p4d.24xlarge,on_demand,")));
        QVERIFY(lines[4].contains(QStringLiteral(",216,CNY,")));
    }

private:
    QTemporaryDir m_dir;
    std::filesystem::path m_ledgerFile;
};

QTEST_MAIN(TestReportsGui)
#include "TestReportsGui.moc"
