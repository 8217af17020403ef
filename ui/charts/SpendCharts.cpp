#include "charts/SpendCharts.h"

#include "wording/Format.h"
#include "wording/ProviderText.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCoreApplication>
#include <QLegend>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>

namespace gpuplan::ui {

namespace {

QChart* newChart(const QString& title, const ChartStyle& style)
{
    auto* chart = new QChart;
    chart->setTheme(style.dark && !style.print ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setTitle(title);
    QFont font = QApplication::font();
    chart->setFont(font);
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.15);
    chart->setTitleFont(font);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setLocale(QLocale());
    chart->setLocalizeNumbers(true);
    if (style.print) {
        chart->setBackgroundRoundness(0);
        chart->setDropShadowEnabled(false);
        chart->setBackgroundBrush(Qt::white);
        chart->setTitleBrush(Qt::black);
    }
    return chart;
}

QString currencyOf(const core::RunsReport& report)
{
    return QString::fromLatin1(core::currencyCode(report.currency));
}

/// "Spent (¥)": the money axis' title.
QString moneyAxisTitle(const core::RunsReport& report)
{
    return QCoreApplication::translate("SpendCharts", "Spent (%1)").arg(currencySymbol(currencyOf(report)));
}

void addAxes(QChart* chart, const QStringList& categories, double maximum, const QString& valueTitle)
{
    auto* bottom = new QBarCategoryAxis;
    bottom->append(categories);
    auto* left = new QValueAxis;
    left->setTitleText(valueTitle);
    left->setRange(0, maximum > 0 ? maximum * 1.1 : 1);
    left->applyNiceNumbers();
    left->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(bottom, Qt::AlignBottom);
    chart->addAxis(left, Qt::AlignLeft);
    for (QAbstractSeries* series : chart->series()) {
        series->attachAxis(bottom);
        series->attachAxis(left);
    }
}

} // namespace

QString planLabel(const std::string& planId, const std::string& planName)
{
    if (!planName.empty()) {
        return QString::fromStdString(planName);
    }
    if (!planId.empty()) {
        return QString::fromStdString(planId);
    }
    return QCoreApplication::translate("SpendCharts", "No plan");
}

QChart* spendByMonthChart(const core::RunsReport& report, const ChartStyle& style)
{
    if (report.byMonth.empty()) {
        return newChart(QCoreApplication::translate("SpendCharts", "Spending by month: nothing spent yet"), style);
    }
    QChart* chart = newChart(QCoreApplication::translate("SpendCharts", "Spending by month"), style);
    QStringList months;
    for (const core::MonthSpend& m : report.byMonth) {
        months << QString::fromStdString(m.month);
    }
    auto* series = new QStackedBarSeries;
    double maximum = 0;
    for (const core::ProviderSpend& provider : report.byProvider) {
        auto* set = new QBarSet(providerDisplayName(provider.provider));
        set->setObjectName(QString::fromStdString(provider.provider));
        for (const core::MonthSpend& m : report.byMonth) {
            const auto found = std::find_if(
                m.byProvider.begin(), m.byProvider.end(), [&](const auto& p) { return p.first == provider.provider; });
            *set << (found == m.byProvider.end() ? 0.0 : found->second);
        }
        series->append(set);
    }
    for (const core::MonthSpend& m : report.byMonth) {
        maximum = std::max(maximum, m.total);
    }
    chart->addSeries(series);
    addAxes(chart, months, maximum, moneyAxisTitle(report));
    return chart;
}

QChart* spendByProviderChart(const core::RunsReport& report, const ChartStyle& style)
{
    if (report.byProvider.empty()) {
        return newChart(QCoreApplication::translate("SpendCharts", "Spending by provider: nothing spent yet"), style);
    }
    QChart* chart = newChart(QCoreApplication::translate("SpendCharts", "Spending by provider"), style);
    QStringList providers;
    auto* set = new QBarSet(QCoreApplication::translate("SpendCharts", "Spent"));
    double maximum = 0;
    for (const core::ProviderSpend& p : report.byProvider) {
        providers << providerDisplayName(p.provider);
        *set << p.amount;
        maximum = std::max(maximum, p.amount);
    }
    auto* series = new QBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    chart->addSeries(series);
    chart->legend()->hide();
    addAxes(chart, providers, maximum, moneyAxisTitle(report));
    return chart;
}

QChart* spendByPlanChart(const core::RunsReport& report, const ChartStyle& style)
{
    if (report.byPlan.empty()) {
        return newChart(QCoreApplication::translate("SpendCharts", "Spending by plan: nothing spent yet"), style);
    }
    QChart* chart = newChart(QCoreApplication::translate("SpendCharts", "Spending by plan against its budget"), style);
    QStringList plans;
    auto* spent = new QBarSet(QCoreApplication::translate("SpendCharts", "Spent"));
    auto* budgets = new QScatterSeries;
    budgets->setName(QCoreApplication::translate("SpendCharts", "Budget"));
    budgets->setObjectName(QStringLiteral("budgetSeries"));
    budgets->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    budgets->setMarkerSize(14);
    budgets->setColor(style.print ? QColor(Qt::black) : QColor(0xd0, 0x30, 0x30));
    double maximum = 0;
    for (std::size_t i = 0; i < report.byPlan.size(); ++i) {
        const core::PlanSpendRow& p = report.byPlan[i];
        plans << planLabel(p.planId, p.planName);
        *spent << p.spent;
        maximum = std::max(maximum, p.spent);
        if (p.budget) {
            budgets->append(double(i), *p.budget);
            maximum = std::max(maximum, *p.budget);
        }
    }
    auto* series = new QBarSeries;
    series->append(spent);
    chart->addSeries(series);
    chart->addSeries(budgets);
    addAxes(chart, plans, maximum, moneyAxisTitle(report));
    return chart;
}

} // namespace gpuplan::ui
