// The Reports page's data (core/report/RunsReport): spending split by calendar month, converted, against budgets,
// runs judged against their plan, and the CSV export read back by an RFC 4180 reader.

#include "gpuplan/report/RunsReport.h"

#include <QtTest>

#include <algorithm>
#include <clocale>

#include <string>
#include <vector>

using namespace gpuplan::core;

namespace {

constexpr std::int64_t kJan31At22 = 1738360800; // 2025-01-31T22:00:00Z
constexpr std::int64_t kFeb10 = 1739145600;     // 2025-02-10T00:00:00Z

LedgerEntry launch(std::int64_t id,
                   const std::string& provider,
                   double pricePerHour,
                   Currency currency,
                   std::int64_t start,
                   std::optional<std::int64_t> end,
                   const std::string& planId = {})
{
    LedgerEntry e;
    e.id = id;
    e.intent.provider = provider;
    e.intent.region = "region-" + provider;
    e.intent.instanceType = "type-" + std::to_string(id);
    e.intent.pricingMode = "on_demand";
    e.intent.price.amount = pricePerHour;
    e.intent.price.currency = currency;
    e.intent.price.billing = Billing{Billing::Granularity::Second, 0};
    e.intent.planId = planId;
    e.createdAt = start - 60;
    e.runningSince = start;
    e.endedAt = end;
    e.state = end ? InstanceState::Terminated : InstanceState::Running;
    return e;
}

/// A minimal RFC 4180 reader (quoted fields with doubled quotes, CRLF or LF line ends, line breaks inside quotes).
std::vector<std::vector<std::string>> readCsv(const std::string& text)
{
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    bool any = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
            continue;
        }
        if (c == '"') {
            quoted = true;
            any = true;
        } else if (c == ',') {
            row.push_back(field);
            field.clear();
            any = true;
        } else if (c == '\r' || c == '\n') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
                ++i;
            }
            row.push_back(field);
            rows.push_back(row);
            row.clear();
            field.clear();
            any = false;
        } else {
            field += c;
            any = true;
        }
    }
    if (any) {
        row.push_back(field);
        rows.push_back(row);
    }
    return rows;
}

/// Column `name` of `row`, by the header.
std::string cell(const std::vector<std::vector<std::string>>& table, std::size_t row, const std::string& name)
{
    const auto& header = table.at(0);
    const auto column = std::find(header.begin(), header.end(), name);
    if (column == header.end()) {
        return "<no column " + name + ">";
    }
    return table.at(row).at(std::size_t(column - header.begin()));
}

ExchangeRate rateOf(double cnyPerUsd)
{
    ExchangeRate rate;
    rate.cnyPerUsd = cnyPerUsd;
    return rate;
}

} // namespace

class TestRunsReport : public QObject
{
    Q_OBJECT

private slots:
    void splitsALaunchAcrossAMonthBoundary()
    {
        RunsReportInput input;
        // 22:00 on 31 January to 04:00 on 1 February: 2 hours in January, 4 in February, 6 USD/h.
        input.entries.push_back(launch(1, "aws", 6, Currency::USD, kJan31At22, kJan31At22 + 6 * 3600));
        input.currency = Currency::USD;
        input.now = kFeb10;
        const RunsReport report = buildRunsReport(input);
        QCOMPARE(report.byMonth.size(), std::size_t(2));
        QCOMPARE(report.byMonth[0].month, std::string("2025-01"));
        QCOMPARE(report.byMonth[1].month, std::string("2025-02"));
        QCOMPARE(report.byMonth[0].total, 12.0);
        QCOMPARE(report.byMonth[1].total, 24.0);
        QCOMPARE(report.total, 36.0);
        QCOMPARE(report.launches.size(), std::size_t(1));
        QCOMPARE(*report.launches[0].hours, 6.0);
        QCOMPARE(*report.launches[0].cost, 36.0);
    }

    void aRunningLaunchCountsUntilNow()
    {
        RunsReportInput input;
        input.entries.push_back(launch(1, "aws", 1, Currency::USD, kJan31At22, std::nullopt));
        input.currency = Currency::USD;
        input.now = kJan31At22 + 3 * 3600; // 01:00 on 1 February
        const RunsReport report = buildRunsReport(input);
        QCOMPARE(report.byMonth.size(), std::size_t(2));
        QCOMPARE(report.byMonth[0].total, 2.0);
        QCOMPARE(report.byMonth[1].total, 1.0);
        QVERIFY(!report.launches[0].endedAt);
        QCOMPARE(report.total, 3.0);
    }

    void convertsCurrenciesAndGroupsByProvider()
    {
        RunsReportInput input;
        input.entries.push_back(launch(1, "aws", 2, Currency::USD, kFeb10, kFeb10 + 5 * 3600));  // 10 USD
        input.entries.push_back(launch(2, "alibaba", 14, Currency::CNY, kFeb10, kFeb10 + 3600)); // 14 CNY
        input.rate = rateOf(7);
        input.currency = Currency::CNY;
        input.now = kFeb10 + 10 * 3600;
        RunsReport report = buildRunsReport(input);
        QCOMPARE(report.total, 84.0);
        QCOMPARE(report.byProvider.size(), std::size_t(2));
        QCOMPARE(report.byProvider[0].provider, std::string("aws")); // most first
        QCOMPARE(report.byProvider[0].amount, 70.0);
        QCOMPARE(report.byProvider[1].amount, 14.0);
        QCOMPARE(report.launches[0].costOwn, 10.0);
        QCOMPARE(report.launches[0].ownCurrency, Currency::USD);

        input.currency = Currency::USD;
        report = buildRunsReport(input);
        QCOMPARE(report.total, 12.0);
        QCOMPARE(report.byMonth.size(), std::size_t(1));
        QCOMPARE(report.byMonth[0].byProvider.size(), std::size_t(2));
    }

    void withoutARateOtherCurrenciesStayUnknown()
    {
        RunsReportInput input;
        input.entries.push_back(launch(1, "aws", 2, Currency::USD, kFeb10, kFeb10 + 3600));
        input.entries.push_back(launch(2, "tencent", 7, Currency::CNY, kFeb10, kFeb10 + 3600));
        input.currency = Currency::USD; // and no rate
        input.now = kFeb10 + 7200;
        const RunsReport report = buildRunsReport(input);
        QVERIFY(report.launches[0].cost.has_value());
        QVERIFY(!report.launches[1].cost.has_value());
        QCOMPARE(report.launches[1].costOwn, 7.0);
        QCOMPARE(report.unconverted, 1);
        QCOMPARE(report.total, 2.0);

        const auto table = readCsv(runsReportCsv(report));
        QCOMPARE(cell(table, 2, "section"), std::string("launch"));
        QCOMPARE(cell(table, 2, "cost"), std::string()); // unknown, not 0
        QCOMPARE(cell(table, 1, "cost"), std::string("2"));
    }

    void budgetSharesInTheReportCurrency()
    {
        RunsReportInput input;
        input.entries.push_back(launch(1, "aws", 10, Currency::USD, kFeb10, kFeb10 + 3 * 3600, "plan-a")); // 30 USD
        input.entries.push_back(launch(2, "aws", 10, Currency::USD, kFeb10, kFeb10 + 3600, "plan-b"));     // 10 USD
        input.entries.push_back(launch(3, "aws", 10, Currency::USD, kFeb10, kFeb10 + 3600));               // none
        input.budgets.push_back({"plan-a", 420, Currency::CNY, false}); // 60 USD at 7
        input.budgets.push_back({"plan-c", 100, Currency::USD, false}); // nothing spent yet
        input.rate = rateOf(7);
        input.currency = Currency::USD;
        input.now = kFeb10 + 10 * 3600;
        const RunsReport report = buildRunsReport(input);
        QCOMPARE(report.byPlan.size(), std::size_t(4));
        auto find = [&](const std::string& id) {
            return *std::find_if(
                report.byPlan.begin(), report.byPlan.end(), [&](const auto& p) { return p.planId == id; });
        };
        QCOMPARE(report.byPlan[0].planId, std::string("plan-a"));
        QCOMPARE(*find("plan-a").budget, 60.0);
        QCOMPARE(*find("plan-a").share, 0.5);
        QVERIFY(!find("plan-b").budget);
        QVERIFY(!find("plan-b").share);
        QCOMPARE(find("plan-c").spent, 0.0);
        QCOMPARE(*find("plan-c").share, 0.0);
        QCOMPARE(find("").spent, 10.0); // launched without a plan
    }

    void runsAgainstTheirPlan()
    {
        RunsReportInput input;
        input.entries.push_back(launch(1, "aws", 10, Currency::USD, kFeb10, kFeb10 + 8 * 3600, "plan-a"));
        RunRecord fast;
        fast.id = 1;
        fast.launchId = 1;
        fast.planId = "plan-a";
        fast.host = "ubuntu@10.0.0.5";
        fast.state = RunState::Finished;
        fast.exitCode = 0;
        fast.startedAt = kFeb10 + 600;
        fast.endedAt = kFeb10 + 600 + 3 * 3600;
        fast.planned.throughput = 1000;
        fast.planned.throughputLow = 800;
        fast.planned.throughputHigh = 1200;
        fast.planned.throughputUnit = "samples";
        fast.planned.hours = 4;
        fast.planned.hoursLow = 3.5;
        fast.planned.hoursHigh = 5;
        fast.planned.cost = 280;
        fast.planned.currency = "CNY";
        fast.planned.budget = 700;
        fast.planned.planName = "ResNet-50 on 1x A100";
        fast.measured.throughput = 1300;
        fast.measured.throughputUnit = "samples";
        fast.measured.hours = 3;
        fast.measured.cost = 30;
        fast.measured.costCurrency = "USD";
        fast.measured.gpuUtilization = 91;
        RunRecord running = fast;
        running.id = 2;
        running.state = RunState::Running;
        running.startedAt = kFeb10 + 4 * 3600;
        running.endedAt.reset();
        running.exitCode.reset();
        running.measured.hours = 1;
        running.measured.throughput = 900;
        running.measured.cost = 60;
        input.runs = {running, fast};
        input.rate = rateOf(7);
        input.currency = Currency::CNY;
        input.now = kFeb10 + 5 * 3600;
        const RunsReport report = buildRunsReport(input);
        QCOMPARE(report.runs.size(), std::size_t(2));
        const RunReportRow& done = report.runs[0]; // oldest first
        QCOMPARE(done.runId, std::int64_t(1));
        QCOMPARE(done.provider, std::string("aws"));
        QCOMPARE(done.instanceType, std::string("type-1"));
        QCOMPARE(done.throughputFit, RangeFit::Above);
        QCOMPARE(done.hoursFit, RangeFit::Below);
        QCOMPARE(*done.cost, 210.0);
        QCOMPARE(*done.plannedCost, 280.0);
        QCOMPARE(done.costFit, RangeFit::Within);
        const RunReportRow& live = report.runs[1];
        QCOMPARE(live.hoursFit, RangeFit::Unknown); // it has not used its time yet
        QCOMPARE(live.throughputFit, RangeFit::Within);
        QCOMPARE(live.costFit, RangeFit::Above);
        // The plan's budget from its runs when the ledger keeps none; its name from its runs.
        QCOMPARE(report.byPlan.size(), std::size_t(1));
        QCOMPARE(report.byPlan[0].planName, std::string("ResNet-50 on 1x A100"));
        QCOMPARE(*report.byPlan[0].budget, 700.0);
        QCOMPARE(*report.byPlan[0].share, 560.0 / 700.0);

        const std::vector<PlanRun> planRuns = planRunsOf(input.runs, input.entries, "plan-a");
        QCOMPARE(planRuns.size(), std::size_t(2));
        QCOMPARE(planRuns[0].state, std::string("finished"));
        QCOMPARE(planRuns[0].started, std::string("2025-02-10T00:10:00Z"));
        QCOMPARE(planRuns[0].instanceType, std::string("type-1"));
        QCOMPARE(*planRuns[0].throughput, 1300.0);
        QVERIFY(planRunsOf(input.runs, input.entries, "plan-b").empty());
    }

    void aRecoveredRunCostsEveryInstanceItRanOn()
    {
        RunsReportInput input;
        // Reclaimed after an hour; the relaunch ran two more hours.
        input.entries.push_back(launch(1, "aws", 0.40, Currency::USD, kFeb10, kFeb10 + 3600, "plan-a"));
        input.entries.push_back(launch(2, "aws", 0.50, Currency::USD, kFeb10 + 3900, kFeb10 + 3900 + 7200, "plan-a"));
        RunRecord run;
        run.id = 9;
        run.launchId = 2; // its current (last) instance
        run.planId = "plan-a";
        run.state = RunState::Finished;
        run.startedAt = kFeb10;
        run.endedAt = kFeb10 + 3900 + 7200;
        run.measured.hours = 2;
        run.measured.cost = 1.0; // the last instance's running time only
        run.measured.costCurrency = "USD";
        input.runs = {run};
        input.attempts = {
            RunAttempt{.runId = 9,
                       .number = 1,
                       .launchId = 1,
                       .startedAt = kFeb10,
                       .endedAt = kFeb10 + 3600,
                       .end = "interrupted",
                       .noticeAt = kFeb10 + 3480,
                       .checkpointAt = kFeb10 + 3300},
            RunAttempt{.runId = 9,
                       .number = 2,
                       .launchId = 2,
                       .remoteDir = "/r",
                       .startedAt = kFeb10 + 3900,
                       .endedAt = kFeb10 + 3900 + 7200,
                       .end = "finished"},
            RunAttempt{.runId = 10, .number = 1, .launchId = 1}, // another run's: not this one's
        };
        input.currency = Currency::USD;
        input.now = kFeb10 + 5 * 3600;
        const RunsReport report = buildRunsReport(input);
        QCOMPARE(report.runs.size(), std::size_t(1));
        const RunReportRow& row = report.runs[0];
        QCOMPARE(row.attempts, 2);
        QCOMPARE(row.interruptions, 1);
        QVERIFY(row.cost.has_value());
        QVERIFY(std::abs(*row.cost - (0.40 + 1.00)) < 1e-9); // both instances, not the last one's 1.00
        QVERIFY(std::abs(row.hours - (3900 + 7200) / 3600.0) < 1e-9);
        // Lost: 180 s after the last checkpoint before the notice, and 420 s until the next instance ran.
        QVERIFY(std::abs(row.lostHours - 600 / 3600.0) < 1e-9);
        const auto table = readCsv(runsReportCsv(report));
        QCOMPARE(cell(table, 1, "attempts"), std::string("2"));
        QCOMPARE(cell(table, 1, "interruptions"), std::string("1"));
    }

    void csvQuotesAndRoundTrips()
    {
        RunsReportInput input;
        input.entries.push_back(launch(1, "aws", 1.25, Currency::USD, kFeb10, kFeb10 + 2 * 3600, "plan-a"));
        RunRecord run;
        run.id = 7;
        run.launchId = 1;
        run.planId = "plan-a";
        run.host = "ubuntu@10.0.0.5:2222";
        run.state = RunState::Failed;
        run.exitCode = 3;
        run.startedAt = kFeb10 + 60;
        run.endedAt = kFeb10 + 60 + 5400;
        run.planned.planName = "GPT-2 \"small\", 8x A100\nsecond line";
        run.planned.hours = 2.5;
        run.measured.hours = 1.5;
        run.resultsDir = "/home/me/results, \"final\"";
        // Nothing else planned or measured: those cells stay empty.
        input.runs = {run};
        input.currency = Currency::USD;
        input.now = kFeb10 + 3 * 3600;
        const std::string csv = runsReportCsv(buildRunsReport(input));
        QVERIFY(csv.find("\r\n") != std::string::npos);
        QVERIFY(csv.find("\"GPT-2 \"\"small\"\", 8x A100\nsecond line\"") != std::string::npos);

        const auto table = readCsv(csv);
        QCOMPARE(table.size(), std::size_t(3));
        for (const auto& row : table) {
            QCOMPARE(row.size(), table[0].size());
        }
        QCOMPARE(cell(table, 1, "section"), std::string("run"));
        QCOMPARE(cell(table, 1, "plan"), run.planned.planName);
        QCOMPARE(cell(table, 1, "results_dir"), run.resultsDir);
        QCOMPARE(cell(table, 1, "host"), run.host);
        QCOMPARE(cell(table, 1, "state"), std::string("failed"));
        QCOMPARE(cell(table, 1, "exit_code"), std::string("3"));
        QCOMPARE(cell(table, 1, "started"), std::string("2025-02-10T00:01:00Z"));
        QCOMPARE(cell(table, 1, "hours_planned"), std::string("2.5"));
        QCOMPARE(cell(table, 1, "hours"), std::string("1.5"));
        QCOMPARE(cell(table, 1, "throughput"), std::string());
        QCOMPARE(cell(table, 1, "throughput_planned"), std::string());
        QCOMPARE(cell(table, 1, "gpu_utilization_percent"), std::string());
        QCOMPARE(cell(table, 1, "cost"), std::string());
        QCOMPARE(cell(table, 1, "cost_planned"), std::string());
        QCOMPARE(cell(table, 2, "section"), std::string("launch"));
        QCOMPARE(cell(table, 2, "cost"), std::string("2.5"));
        QCOMPARE(cell(table, 2, "hours"), std::string("2"));
        QCOMPARE(cell(table, 2, "currency"), std::string("USD"));
        QCOMPARE(cell(table, 2, "host"), std::string());

        QCOMPARE(csvField("plain"), std::string("plain"));
        QCOMPARE(csvField("a,b"), std::string("\"a,b\""));
        QCOMPARE(csvField("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
        QCOMPARE(csvField("cr\r"), std::string("\"cr\r\""));
    }

    void numbersIgnoreTheCLocale()
    {
        // The GUI sets the C locale from the environment; a German one writes 2,5 with printf.
        const char* before = std::setlocale(LC_NUMERIC, nullptr);
        const std::string saved = before ? before : "C";
        if (!std::setlocale(LC_NUMERIC, "de_DE.UTF-8")) {
            QSKIP("no de_DE locale here");
        }
        RunsReportInput input;
        input.entries.push_back(launch(1, "aws", 1.25, Currency::USD, kFeb10, kFeb10 + 2 * 3600));
        input.currency = Currency::USD;
        input.now = kFeb10 + 3 * 3600;
        const auto table = readCsv(runsReportCsv(buildRunsReport(input)));
        std::setlocale(LC_NUMERIC, saved.c_str());
        QCOMPARE(cell(table, 1, "cost"), std::string("2.5"));
    }
};

QTEST_APPLESS_MAIN(TestRunsReport)
#include "TestRunsReport.moc"
