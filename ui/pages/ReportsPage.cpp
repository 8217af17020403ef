#include "pages/ReportsPage.h"

#include "AppSettings.h"
#include "PlanningData.h"
#include "Questions.h"
#include "charts/SpendCharts.h"
#include "models/InstanceTableModel.h"
#include "widgets/StatusLabel.h"
#include "wording/ErrorText.h"
#include "wording/Format.h"
#include "wording/ProviderText.h"
#include "wording/RunText.h"

#include "gpuplan/core/Paths.h"
#include "gpuplan/net/Clock.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPalette>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <functional>

namespace gpuplan::ui {

namespace {

const char* const kChartNames[] = {"spendByMonthChart", "spendByProviderChart", "spendByPlanChart"};

/// The item role that holds a measured figure's core::RangeFit (as int), for tests and colours.
constexpr int kFitRole = Qt::UserRole + 1;

core::Result<core::RunsReport> readLedgerReport(const std::filesystem::path& file, core::RunsReportInput input)
{
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::Ledger::open(file);
    if (!ledger) {
        return ledger.error();
    }
    core::Result<std::vector<core::LedgerEntry>> entries = (*ledger)->entries();
    if (!entries) {
        return entries.error();
    }
    core::Result<std::vector<core::RunRecord>> runs = (*ledger)->runs();
    if (!runs) {
        return runs.error();
    }
    core::Result<std::vector<core::PlanBudget>> budgets = (*ledger)->budgets();
    if (!budgets) {
        return budgets.error();
    }
    core::Result<std::vector<core::RunAttempt>> attempts = (*ledger)->attempts();
    if (!attempts) {
        return attempts.error();
    }
    input.attempts = std::move(attempts).value();
    input.entries = std::move(entries).value();
    input.runs = std::move(runs).value();
    input.budgets = std::move(budgets).value();
    return core::buildRunsReport(input);
}

QString timeText(std::int64_t unixSeconds)
{
    return QLocale().toString(QDateTime::fromSecsSinceEpoch(unixSeconds).toLocalTime(), QLocale::ShortFormat);
}

QString numberText(double value)
{
    return formatNumber(value, value >= 100 ? 0 : (value >= 10 ? 1 : 2));
}

QTableWidgetItem* item(const QString& text)
{
    auto* cell = new QTableWidgetItem(text);
    cell->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return cell;
}

QTableWidgetItem* numberItem(const QString& text)
{
    QTableWidgetItem* cell = item(text);
    cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return cell;
}

} // namespace

ReportsPage::ReportsPage(QWidget* parent)
    : QWidget(parent)
    , m_ledgerFile(core::defaultLedgerFile())
    , m_intro(new QLabel(this))
    , m_runsLabel(new QLabel(this))
    , m_runs(new QTableWidget(this))
    , m_launchesLabel(new QLabel(this))
    , m_launches(new QTableWidget(this))
    , m_charts(new QTabWidget(this))
    , m_summary(new QLabel(this))
    , m_exportButton(new QPushButton(this))
    , m_status(new StatusLabel(this))
    , m_reader(this)
    , m_writer(this)
{
    setObjectName(QStringLiteral("reportsPage"));
    m_intro->setWordWrap(true);
    m_runs->setObjectName(QStringLiteral("reportsRunsTable"));
    m_launches->setObjectName(QStringLiteral("reportsLaunchesTable"));
    m_charts->setObjectName(QStringLiteral("reportsChartTabs"));
    m_summary->setObjectName(QStringLiteral("reportsSummaryLabel"));
    m_summary->setWordWrap(true);
    m_exportButton->setObjectName(QStringLiteral("reportsExportCsvButton"));
    m_exportButton->setEnabled(false);
    m_status->setObjectName(QStringLiteral("reportsStatusLabel"));
    for (QTableWidget* table : {m_runs, m_launches}) {
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->verticalHeader()->hide();
        table->horizontalHeader()->setStretchLastSection(true);
        table->setAlternatingRowColors(true);
        table->setWordWrap(false);
    }
    for (const char* name : kChartNames) {
        auto* view = new QChartView(m_charts);
        view->setObjectName(QString::fromLatin1(name));
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(220);
        m_views << view;
        m_charts->addTab(view, QString());
    }

    auto* runsBox = new QWidget(this);
    auto* runsLayout = new QVBoxLayout(runsBox);
    runsLayout->setContentsMargins(0, 0, 0, 0);
    runsLayout->addWidget(m_runsLabel);
    runsLayout->addWidget(m_runs);
    auto* launchesBox = new QWidget(this);
    auto* launchesLayout = new QVBoxLayout(launchesBox);
    launchesLayout->setContentsMargins(0, 0, 0, 0);
    launchesLayout->addWidget(m_launchesLabel);
    launchesLayout->addWidget(m_launches);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(runsBox);
    splitter->addWidget(launchesBox);
    splitter->addWidget(m_charts);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 3);

    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_summary, 1);
    bottom->addWidget(m_exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addWidget(splitter, 1);
    layout->addLayout(bottom);
    layout->addWidget(m_status);

    connect(m_exportButton, &QPushButton::clicked, this, &ReportsPage::exportCsv);
    retranslate();
}

void ReportsPage::setData(std::shared_ptr<const PlanningData> planningData)
{
    m_data = std::move(planningData);
    if (m_report) {
        refresh(); // the catalog's exchange rate may convert what could not be before
    }
}

void ReportsPage::setLedgerFile(const std::filesystem::path& file)
{
    m_ledgerFile = file;
}

void ReportsPage::retranslate()
{
    m_intro->setText(tr("Every training run and every launch from the ledger, what the plan expected against what "
                        "happened, and what was spent by month, provider and plan."));
    m_runsLabel->setText(tr("Runs: plan against actual"));
    m_launchesLabel->setText(tr("Launches"));
    m_exportButton->setText(tr("Export CSV…"));
    m_exportButton->setToolTip(tr("Write every run and launch to a CSV file for a spreadsheet."));
    const QStringList chartTitles{tr("By month"), tr("By provider"), tr("By plan against budget")};
    for (int i = 0; i < chartTitles.size(); ++i) {
        m_charts->setTabText(i, chartTitles[i]);
    }
    m_runs->setColumnCount(12);
    m_runs->setHorizontalHeaderLabels({tr("Plan"),
                                       tr("Machine"),
                                       tr("Started"),
                                       tr("State"),
                                       tr("Time planned"),
                                       tr("Time taken"),
                                       tr("Speed planned"),
                                       tr("Speed measured"),
                                       tr("Cost planned"),
                                       tr("Cost"),
                                       tr("GPU use"),
                                       tr("Results")});
    m_launches->setColumnCount(9);
    m_launches->setHorizontalHeaderLabels({tr("Provider"),
                                           tr("Instance type"),
                                           tr("Region"),
                                           tr("Plan"),
                                           tr("State"),
                                           tr("Started"),
                                           tr("Ended"),
                                           tr("Running time"),
                                           tr("Cost so far")});
    if (m_report) {
        fillRuns();
        fillLaunches();
        redrawCharts();
    }
    updateSummary();
}

void ReportsPage::refresh()
{
    if (m_reader.isRunning()) {
        m_refreshAgain = true;
        return;
    }
    core::RunsReportInput input;
    if (m_data && m_data->catalog && m_data->catalog->catalog.exchangeRate()) {
        input.rate = *m_data->catalog->catalog.exchangeRate();
    }
    const AppSettings settings;
    if (const std::optional<double> own = settings.cnyPerUsd()) {
        input.rate.cnyPerUsd = *own;
        input.rate.userSet = true;
    }
    input.currency = core::parseCurrency(settings.displayCurrency().toStdString()).value_or(core::Currency::CNY);
    input.now = core::unixNow();
    m_reader.run(
        "read ledger for reports",
        [file = m_ledgerFile, input] { return readLedgerReport(file, input); },
        [this](const core::Result<core::RunsReport>& read) { showReport(read); });
}

void ReportsPage::showReport(const core::Result<core::RunsReport>& read)
{
    if (m_refreshAgain) {
        m_refreshAgain = false;
        refresh();
    }
    if (!read) {
        m_status->setStatus(tr("The ledger cannot be read. %1").arg(errorText(read.error())), true);
        return;
    }
    m_status->setStatus(QString());
    m_report = *read;
    m_exportButton->setEnabled(true);
    fillRuns();
    fillLaunches();
    redrawCharts();
    updateSummary();
    emit refreshed();
}

void ReportsPage::fillRuns()
{
    const core::RunsReport& report = *m_report;
    const QString currency = QString::fromLatin1(core::currencyCode(report.currency));
    const QString unknown = tr("–");
    auto range = [&](std::optional<double> central,
                     std::optional<double> low,
                     std::optional<double> high,
                     const std::function<QString(double)>& text,
                     const std::function<QString(double)>& bound) {
        if (low && high) {
            return tr("%1 (%2–%3)").arg(central ? text(*central) : unknown, bound(*low), bound(*high));
        }
        return central ? text(*central) : unknown;
    };
    auto speed = [](const std::string& unit) {
        return [unit](double value) {
            return unit == "tokens" ? tr("%1 tokens/s").arg(numberText(value))
                                    : tr("%1 samples/s").arg(numberText(value));
        };
    };
    // Worse than planned in red, better in green; the tooltip says which.
    auto judge = [](QTableWidgetItem* cell, core::RangeFit fit, bool higherIsBetter) {
        cell->setData(kFitRole, static_cast<int>(fit));
        if (fit == core::RangeFit::Unknown || fit == core::RangeFit::Within) {
            cell->setToolTip(fit == core::RangeFit::Within ? tr("Within the planned range") : QString());
            return;
        }
        const bool better = (fit == core::RangeFit::Above) == higherIsBetter;
        cell->setForeground(better ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xc0, 0x28, 0x28));
        QFont font = cell->font();
        font.setBold(true);
        cell->setFont(font);
        cell->setToolTip(fit == core::RangeFit::Above ? tr("Above the planned range") : tr("Below the planned range"));
    };

    m_runs->setRowCount(static_cast<int>(report.runs.size()));
    for (int i = 0; i < static_cast<int>(report.runs.size()); ++i) {
        const core::RunReportRow& r = report.runs[std::size_t(i)];
        QString machine = QString::fromStdString(r.host);
        if (!r.instanceType.empty()) {
            machine =
                tr("%1 (%2 %3)").arg(machine, providerDisplayName(r.provider), QString::fromStdString(r.instanceType));
        }
        m_runs->setItem(i, 0, item(planLabel(r.planId, r.planName)));
        m_runs->setItem(i, 1, item(machine));
        m_runs->setItem(i, 2, item(timeText(r.startedAt)));
        m_runs->setItem(i, 3, item(runStateText(r.state, r.exitCode)));
        m_runs->setItem(
            i, 4, numberItem(range(r.plannedHours, r.plannedHoursLow, r.plannedHoursHigh, formatHours, formatHours)));
        QTableWidgetItem* hours = numberItem(formatHours(r.hours));
        judge(hours, r.hoursFit, false);
        m_runs->setItem(i, 5, hours);
        const std::string unit = r.throughputUnit;
        m_runs->setItem(
            i,
            6,
            numberItem(
                range(r.plannedThroughput, r.plannedThroughputLow, r.plannedThroughputHigh, speed(unit), numberText)));
        QTableWidgetItem* throughput = numberItem(r.throughput ? speed(unit)(*r.throughput) : unknown);
        judge(throughput, r.throughputFit, true);
        m_runs->setItem(i, 7, throughput);
        m_runs->setItem(i, 8, numberItem(r.plannedCost ? formatMoney(*r.plannedCost, currency, 2) : unknown));
        QTableWidgetItem* cost = numberItem(r.cost ? formatMoney(*r.cost, currency, 2) : unknown);
        judge(cost, r.costFit, false);
        m_runs->setItem(i, 9, cost);
        m_runs->setItem(
            i, 10, numberItem(r.gpuUtilization ? tr("%1 %").arg(formatNumber(*r.gpuUtilization, 0)) : unknown));
        m_runs->setItem(i,
                        11,
                        item(r.resultsDir.empty() ? tr("not downloaded")
                                                  : QDir::toNativeSeparators(QString::fromStdString(r.resultsDir))));
    }
    m_runs->resizeColumnsToContents();
    // The plan and the machine are long names: narrow (the whole text is the tooltip), so that planned against
    // measured fits on screen.
    for (int column : {0, 1}) {
        m_runs->setColumnWidth(column, std::min(m_runs->columnWidth(column), 220));
        for (int row = 0; row < m_runs->rowCount(); ++row) {
            if (QTableWidgetItem* cell = m_runs->item(row, column)) {
                cell->setToolTip(cell->text());
            }
        }
    }
}

void ReportsPage::fillLaunches()
{
    const core::RunsReport& report = *m_report;
    const QString currency = QString::fromLatin1(core::currencyCode(report.currency));
    const QString unknown = tr("–");
    m_launches->setRowCount(static_cast<int>(report.launches.size()));
    for (int i = 0; i < static_cast<int>(report.launches.size()); ++i) {
        const core::LaunchReportRow& l = report.launches[std::size_t(i)];
        m_launches->setItem(i, 0, item(providerDisplayName(l.provider)));
        m_launches->setItem(i, 1, item(QString::fromStdString(l.instanceType)));
        m_launches->setItem(i, 2, item(QString::fromStdString(l.region)));
        m_launches->setItem(i, 3, item(planLabel(l.planId, l.planName)));
        m_launches->setItem(i, 4, item(instanceStateText(l.state)));
        m_launches->setItem(i, 5, item(l.startedAt ? timeText(*l.startedAt) : unknown));
        m_launches->setItem(i, 6, item(l.endedAt ? timeText(*l.endedAt) : unknown));
        m_launches->setItem(i, 7, numberItem(l.hours ? formatHours(*l.hours) : unknown));
        // The cost in the report's currency; in its own beside it when it was converted.
        QString cost = l.cost ? formatMoney(*l.cost, currency, 2) : unknown;
        if (l.ownCurrency != report.currency) {
            const QString own = formatMoney(l.costOwn, QString::fromLatin1(core::currencyCode(l.ownCurrency)), 2);
            cost = l.cost ? tr("%1 (%2)").arg(cost, own) : own;
        }
        m_launches->setItem(i, 8, numberItem(cost));
    }
    m_launches->resizeColumnsToContents();
}

void ReportsPage::redrawCharts()
{
    if (!m_report) {
        return;
    }
    ChartStyle style;
    style.dark = palette().color(QPalette::Window).lightness() < 128;
    QChart* const charts[] = {spendByMonthChart(*m_report, style),
                              spendByProviderChart(*m_report, style),
                              spendByPlanChart(*m_report, style)};
    for (int i = 0; i < m_views.size(); ++i) {
        QChart* old = m_views[i]->chart();
        m_views[i]->setChart(charts[i]); // the view owns the new chart
        delete old;
    }
}

void ReportsPage::updateSummary()
{
    if (!m_report) {
        m_summary->clear();
        return;
    }
    const core::RunsReport& report = *m_report;
    const QString currency = QString::fromLatin1(core::currencyCode(report.currency));
    QStringList parts;
    parts << tr("%n run(s), %1 launch(es); spent %2 in all.", nullptr, static_cast<int>(report.runs.size()))
                 .arg(report.launches.size())
                 .arg(formatMoney(report.total, currency, 2));
    for (const core::PlanSpendRow& p : report.byPlan) {
        if (p.share && *p.share >= 0.8) {
            parts << tr("%1 has spent %2 % of its budget.")
                         .arg(planLabel(p.planId, p.planName), formatNumber(*p.share * 100, 0));
        }
    }
    if (report.unconverted > 0) {
        parts << tr(
            "%n launch(es) in another currency left out: no exchange rate is known.", nullptr, report.unconverted);
    }
    m_summary->setText(parts.join(QLatin1Char(' ')));
}

void ReportsPage::exportCsv()
{
    if (!m_report || m_writer.isRunning()) {
        return;
    }
    QString file;
    if (const std::optional<QVariant> next = Questions::takeNextAnswer(Question::FileName)) {
        file = next->toString();
    } else {
        file = QFileDialog::getSaveFileName(this,
                                            tr("Export runs and launches"),
                                            QDir::home().filePath(QStringLiteral("gpuplan-runs.csv")),
                                            tr("CSV files (*.csv)"));
    }
    if (file.isEmpty()) {
        return;
    }
    m_status->setStatus(tr("Writing %1…").arg(QDir::toNativeSeparators(file)));
    m_writer.run(
        "write runs CSV",
        [path = std::filesystem::path(file.toStdString()), csv = core::runsReportCsv(*m_report)] {
            return core::writeFileAtomically(path, csv, core::FileAccess::KeepOrPrivate);
        },
        [this, file](const core::Status& written) {
            if (!written) {
                m_status->setStatus(tr("The CSV file was not written. %1").arg(errorText(written.error())), true);
                return;
            }
            m_status->setStatus(tr("Saved %1.").arg(QDir::toNativeSeparators(file)));
            emit exported(file);
        });
}

void ReportsPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    } else if (event->type() == QEvent::PaletteChange) {
        redrawCharts();
    }
    QWidget::changeEvent(event);
}

} // namespace gpuplan::ui
