#include "PlanCharts.h"

#include "wording/Format.h"
#include "wording/PlanText.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QCoreApplication>
#include <QCursor>
#include <QHorizontalBarSeries>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace gpuplan::ui {

namespace {

constexpr int kTopOptions = 10;

QString currencyOf(const core::PlanDocument& plan)
{
    return QString::fromLatin1(core::currencyCode(plan.currency()));
}

/// An option on a category axis: its instance type (the provider is in the tooltip and the table).
QString label(const core::PlanOption& option)
{
    return QString::fromStdString(option.instanceType);
}

QChart* newChart(const QString& title, const ChartStyle& style)
{
    auto* chart = new QChart;
    chart->setTheme(style.dark && !style.print ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setTitle(title);
    QFont font = QApplication::font(); // the UI font: Noto Sans CJK where Chinese is shown
    chart->setFont(font);
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.15);
    chart->setTitleFont(font);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setLocale(QLocale()); // axis labels grouped the user's way: 4,000,000
    chart->setLocalizeNumbers(true);
    if (style.print) {
        chart->setBackgroundRoundness(0);
        chart->setDropShadowEnabled(false);
    }
    return chart;
}

QValueAxis* valueAxis(const QString& title, double maximum)
{
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setRange(0, maximum > 0 ? maximum * 1.08 : 1);
    axis->applyNiceNumbers();
    axis->setLabelFormat(QStringLiteral("%.0f"));
    return axis;
}

QBarCategoryAxis* categoryAxis(const QStringList& categories, bool slanted = true)
{
    auto* axis = new QBarCategoryAxis;
    axis->append(categories);
    if (slanted) {
        axis->setLabelsAngle(-90); // long instance names side by side would be cut
    }
    return axis;
}

/// For print: black text, grey grid, and bars told apart by shade and hatching, not only by colour.
void styleForPrint(QChart* chart)
{
    chart->setBackgroundBrush(Qt::white);
    chart->setTitleBrush(Qt::black);
    chart->legend()->setLabelColor(Qt::black);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsColor(Qt::black);
        axis->setTitleBrush(Qt::black);
        axis->setLinePenColor(Qt::black);
        axis->setGridLineColor(QColor(0xc8, 0xc8, 0xc8));
    }
    const std::pair<QColor, Qt::BrushStyle> fills[] = {{QColor(0x40, 0x40, 0x40), Qt::SolidPattern},
                                                       {QColor(0x90, 0x90, 0x90), Qt::BDiagPattern},
                                                       {QColor(0x20, 0x20, 0x20), Qt::CrossPattern}};
    for (QAbstractSeries* series : chart->series()) {
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
            const QList<QBarSet*> sets = bars->barSets();
            for (int i = 0; i < sets.size(); ++i) {
                const auto& [colour, pattern] = fills[i % std::size(fills)];
                sets[i]->setBrush(QBrush(colour, pattern));
                sets[i]->setPen(QPen(Qt::black, 0.8));
            }
        }
    }
}

/// Puts the axes on the chart, attaches every series added so far to both, and finishes the style.
void addAxes(QChart* chart, QAbstractAxis* bottom, QAbstractAxis* left, const ChartStyle& style)
{
    chart->addAxis(bottom, Qt::AlignBottom);
    chart->addAxis(left, Qt::AlignLeft);
    for (QAbstractSeries* series : chart->series()) {
        series->attachAxis(bottom);
        series->attachAxis(left);
    }
    if (style.print) {
        styleForPrint(chart);
    }
}

void hideMarker(QChart* chart, QAbstractSeries* series)
{
    for (QLegendMarker* marker : chart->legend()->markers(series)) {
        marker->setVisible(false);
    }
}

void tooltipOnHover(QXYSeries* series, std::vector<QString> texts)
{
    QObject::connect(series, &QXYSeries::hovered, series, [series, texts](const QPointF& point, bool state) {
        if (!state) {
            QToolTip::hideText();
            return;
        }
        const QList<QPointF> points = series->points();
        for (int i = 0; i < points.size() && std::size_t(i) < texts.size(); ++i) {
            if (points[i] == point) {
                QToolTip::showText(QCursor::pos(), texts[std::size_t(i)]);
            }
        }
    });
}

} // namespace

QChart* costBreakdownChart(const core::PlanDocument& plan, const ChartStyle& style)
{
    const QString currency = currencyOf(plan);
    QChart* chart = newChart(
        QCoreApplication::translate("PlanCharts", "Total cost by option (%1), with its range").arg(currency), style);
    auto* bars = new QStackedBarSeries;
    auto* compute = new QBarSet(QCoreApplication::translate("PlanCharts", "Compute"));
    auto* storage = new QBarSet(QCoreApplication::translate("PlanCharts", "Storage"));
    auto* egress = new QBarSet(QCoreApplication::translate("PlanCharts", "Data transfer"));
    QStringList categories;
    double top = 0;
    std::vector<std::pair<double, double>> ranges;
    for (const core::PlanOption& o : plan.results.options) {
        if (categories.size() == kTopOptions) {
            break;
        }
        *compute << o.computeCost.value;
        *storage << o.storageCost.value;
        *egress << o.egressCost.value;
        categories << label(o);
        ranges.emplace_back(o.cost.low, o.cost.high);
        top = std::max(top, o.cost.high);
    }
    bars->append({compute, storage, egress});
    chart->addSeries(bars);
    auto* x = categoryAxis(categories);
    auto* y = valueAxis(QCoreApplication::translate("PlanCharts", "Cost (%1)").arg(currency), top);
    // Error bars: one vertical segment per option from the low to the high estimate.
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        auto* bar = new QLineSeries;
        bar->setName(QCoreApplication::translate("PlanCharts", "Range (low–high)"));
        bar->append(double(i), ranges[i].first);
        bar->append(double(i), ranges[i].second);
        QPen pen(style.dark && !style.print ? Qt::white : Qt::black);
        pen.setWidthF(style.print ? 1.5 : 2);
        bar->setPen(pen);
        chart->addSeries(bar);
        if (i > 0) {
            hideMarker(chart, bar);
        }
    }
    addAxes(chart, x, y, style);
    return chart;
}

QChart* timeCostChart(const core::PlanDocument& plan, const ChartStyle& style)
{
    const QString currency = currencyOf(plan);
    QChart* chart = newChart(QCoreApplication::translate(
                                 "PlanCharts", "Time against cost for every option; the Pareto front is highlighted"),
                             style);
    auto* all = new QScatterSeries;
    all->setName(QCoreApplication::translate("PlanCharts", "Option"));
    all->setMarkerSize(9);
    auto* front = new QScatterSeries;
    front->setName(QCoreApplication::translate("PlanCharts", "Pareto front: nothing else is both cheaper and faster"));
    front->setMarkerSize(14);
    front->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    auto* frontLine = new QLineSeries;
    std::vector<QString> allTexts;
    std::vector<QString> frontTexts;
    std::vector<std::tuple<double, double, QString>> points;
    for (const core::PlanOption& o : plan.results.options) {
        const double hours = o.hours.value;
        const double cost = o.cost.value;
        if (std::isfinite(hours) && std::isfinite(cost) && hours > 0 && cost > 0) {
            QString text = QStringLiteral("%1 %2 (%3)\n%4, %5")
                               .arg(providerText(o),
                                    label(o),
                                    QString::fromStdString(o.region),
                                    formatHours(hours),
                                    formatMoney(cost, currency));
            if (const QString commitment = commitmentText(o.rankedMode(), plan.currency()); !commitment.isEmpty()) {
                text += QLatin1Char('\n')
                        + QCoreApplication::translate("PlanCharts", "commits the lab to %1").arg(commitment);
            }
            points.emplace_back(hours, cost, text);
        }
    }
    std::sort(
        points.begin(), points.end(), [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
    double cheapestSoFar = INFINITY;
    double maxHours = 1, maxCost = 1, minHours = INFINITY, minCost = INFINITY;
    for (const auto& [hours, cost, text] : points) {
        maxHours = std::max(maxHours, hours);
        maxCost = std::max(maxCost, cost);
        minHours = std::min(minHours, hours);
        minCost = std::min(minCost, cost);
        if (cost < cheapestSoFar) { // sorted by time: a point is on the front when it is cheaper than all faster ones
            cheapestSoFar = cost;
            front->append(hours, cost);
            frontLine->append(hours, cost);
            frontTexts.push_back(text);
        } else {
            all->append(hours, cost);
            allTexts.push_back(text);
        }
    }
    tooltipOnHover(all, allTexts);
    tooltipOnHover(front, frontTexts);
    chart->addSeries(all);
    chart->addSeries(frontLine);
    chart->addSeries(front);
    hideMarker(chart, frontLine);
    auto* x = new QLogValueAxis;
    x->setTitleText(QCoreApplication::translate("PlanCharts", "Estimated time (hours, log scale)"));
    x->setLabelFormat(QStringLiteral("%.3g"));
    x->setBase(2); // a label at every doubling: base 10 would label one tick per decade
    x->setMinorTickCount(1);
    x->setRange(std::isfinite(minHours) ? minHours / 1.5 : 0.1, maxHours * 1.5);
    auto* y = new QLogValueAxis;
    y->setTitleText(QCoreApplication::translate("PlanCharts", "Cost (%1, log scale)").arg(currency));
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setBase(2);
    y->setMinorTickCount(1);
    y->setRange(std::isfinite(minCost) ? minCost / 1.5 : 1, maxCost * 1.5);
    addAxes(chart, x, y, style);
    return chart;
}

QChart* cumulativeCostChart(const core::PlanDocument& plan, const ChartStyle& style)
{
    const QString currency = currencyOf(plan);
    if (!plan.buyVsRent || !plan.buyVsRent->available) {
        const QString reason = plan.buyVsRent ? reasonText(plan.buyVsRent->unavailableReason) : QString();
        return newChart(
            QCoreApplication::translate("PlanCharts", "Buying against renting: not available (%1)").arg(reason), style);
    }
    const core::BuyVsRent& b = *plan.buyVsRent;
    const bool energyKnown = b.electricityPerKwh.has_value();
    QString title = QCoreApplication::translate(
                        "PlanCharts", "Cumulative cost of %1 × %2: renting against buying, at %3 % utilisation")
                        .arg(b.system.gpus)
                        .arg(QString::fromStdString(b.gpuName))
                        .arg(formatNumber(b.utilisation * 100, 0));
    if (!energyKnown) {
        title += QStringLiteral("<br>")
                 + QCoreApplication::translate("PlanCharts", "(electricity not included: set its price in Settings)");
    }
    QChart* chart = newChart(title, style);
    const std::map<std::string, QString> names{
        {"own", QCoreApplication::translate("PlanCharts", "Buy the server")},
        {"on_demand", QCoreApplication::translate("PlanCharts", "On-demand")},
        {"reserved_1y", QCoreApplication::translate("PlanCharts", "Reserved 1 year")},
        {"reserved_3y", QCoreApplication::translate("PlanCharts", "Reserved 3 years")},
        {"subscription_monthly", QCoreApplication::translate("PlanCharts", "Monthly subscription")}};
    auto* breakEvens = new QScatterSeries;
    breakEvens->setName(QCoreApplication::translate("PlanCharts", "Break-even"));
    breakEvens->setMarkerSize(12);
    breakEvens->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    double top = 0;
    std::vector<QString> breakEvenTexts;
    QStringList breakEvenLabels;
    auto addLine = [&](const core::CostLine& line) {
        auto* series = new QLineSeries;
        const auto name = names.find(line.key);
        series->setName(name != names.end() ? name->second : QString::fromStdString(line.key));
        int month = 0;
        for (const double value : line.cumulative) {
            series->append(month++, value);
            top = std::max(top, value);
        }
        chart->addSeries(series); // the theme picks the colour; then the width is ours
        QPen pen = series->pen();
        pen.setWidthF(style.print ? 2 : 2.5);
        if (line.key == "own") {
            pen.setStyle(Qt::DashLine); // tells the lines apart in black and white too
        }
        series->setPen(pen);
        if (line.breakEvenMonth) {
            const double m = *line.breakEvenMonth;
            const double cost = line.monthly * m;
            breakEvens->append(m, cost);
            breakEvenLabels << QCoreApplication::translate("PlanCharts", "month %1").arg(formatNumber(m, 0));
            breakEvenTexts.push_back(QCoreApplication::translate("PlanCharts", "Buying pays off against %1 after %2")
                                         .arg(series->name(), formatMonths(m)));
        }
    };
    addLine(b.own);
    for (const core::CostLine& line : b.rent) {
        addLine(line);
    }
    if (breakEvens->count() > 0) {
        tooltipOnHover(breakEvens, breakEvenTexts);
        chart->addSeries(breakEvens);
        // One label per break-even point, beside it (a series labels all its points with one format).
        for (int i = 0; i < breakEvens->count(); ++i) {
            auto* mark = new QScatterSeries;
            mark->append(breakEvens->at(i));
            mark->setMarkerSize(1);
            mark->setPointLabelsVisible(true);
            mark->setPointLabelsFormat(breakEvenLabels.value(i));
            mark->setPointLabelsClipping(false);
            chart->addSeries(mark);
            hideMarker(chart, mark);
        }
    } else {
        delete breakEvens;
    }
    auto* x = valueAxis(QCoreApplication::translate("PlanCharts", "Months"), b.months);
    x->setRange(0, b.months);
    x->setTickCount(std::min(13, b.months / 6 + 1));
    auto* y = valueAxis(QCoreApplication::translate("PlanCharts", "Cumulative cost (%1)").arg(currency), top);
    y->setLabelFormat(QStringLiteral("%.0f"));
    addAxes(chart, x, y, style);
    return chart;
}

QChart* spotDistributionChart(const core::PlanDocument& plan, bool cost, const ChartStyle& style)
{
    const QString currency = currencyOf(plan);
    QChart* chart =
        newChart(cost ? QCoreApplication::translate(
                     "PlanCharts", "Spot: distribution of cost (P10, P25, P50, P75, P90) against on-demand")
                      : QCoreApplication::translate(
                          "PlanCharts", "Spot: distribution of completion time (P10–P90) against on-demand"),
                 style);
    auto* boxes = new QBoxPlotSeries;
    boxes->setName(QCoreApplication::translate("PlanCharts", "Spot, simulated (box P25–P75, whiskers P10–P90)"));
    boxes->setBoxWidth(0.35); // one option alone is still drawn as a box, not a band across the chart
    auto* onDemand = new QScatterSeries;
    onDemand->setName(QCoreApplication::translate("PlanCharts", "On-demand"));
    onDemand->setMarkerSize(12);
    onDemand->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    QStringList categories;
    std::vector<QString> onDemandTexts;
    std::map<QBoxSet*, QString> boxTexts;
    double top = 0;
    double bottom = INFINITY;
    double widest = 0; // the widest P10–P90 spread, relative to its P50
    const auto valueText = [&](double v) { return cost ? formatMoney(v, currency) : formatHours(v); };
    for (const core::PlanOption& o : plan.results.options) {
        const core::PlanMode* spot = o.firstEligible(core::isSpot);
        const core::PlanMode* od = o.firstEligible(core::isOnDemand);
        if (!spot || !od || !spot->spot || !spot->spot->simulated || categories.size() == kTopOptions) {
            continue;
        }
        const core::PlanSpot& s = *spot->spot;
        double q[5];
        if (cost) {
            const core::PlanSpot::CostPercentiles c = s.simulatedCost.value_or(core::PlanSpot::CostPercentiles{});
            q[0] = c.p10;
            q[1] = c.p25;
            q[2] = c.p50;
            q[3] = c.p75;
            q[4] = c.p90;
        } else {
            const core::SpotOutcome& mc = *s.simulated;
            q[0] = mc.p10Hours + s.extraHours;
            q[1] = mc.p25Hours + s.extraHours;
            q[2] = mc.p50Hours + s.extraHours;
            q[3] = mc.p75Hours + s.extraHours;
            q[4] = mc.p90Hours + s.extraHours;
        }
        auto* set = new QBoxSet(q[0], q[1], q[2], q[3], q[4], label(o));
        boxes->append(set);
        const double odValue = cost ? od->cost.value : od->hours.value;
        onDemand->append(categories.size(), odValue);
        categories << label(o);
        top = std::max({top, q[4], odValue});
        bottom = std::min({bottom, q[0], odValue});
        widest = std::max(widest, q[2] > 0 ? (q[4] - q[0]) / q[2] : 0.0);
        const QString name =
            QStringLiteral("%1 %2 (%3)").arg(providerText(o), label(o), QString::fromStdString(o.region));
        boxTexts[set] =
            QCoreApplication::translate("PlanCharts", "%1, spot\nP10 %2 · P25 %3 · P50 %4 · P75 %5 · P90 %6")
                .arg(name, valueText(q[0]), valueText(q[1]), valueText(q[2]), valueText(q[3]), valueText(q[4]));
        onDemandTexts.push_back(
            QCoreApplication::translate("PlanCharts", "%1, on-demand: %2").arg(name, valueText(odValue)));
    }
    QObject::connect(boxes, &QBoxPlotSeries::hovered, boxes, [boxTexts](bool state, QBoxSet* set) {
        const auto it = boxTexts.find(set);
        if (state && it != boxTexts.end()) {
            QToolTip::showText(QCursor::pos(), it->second);
        } else {
            QToolTip::hideText();
        }
    });
    tooltipOnHover(onDemand, onDemandTexts);
    if (categories.isEmpty()) {
        delete boxes;
        delete onDemand;
        // Say why, and what would fill it: a plan whose options all lack a spot price (the Chinese clouds' spot
        // prices are not in the bundled catalog) is not the same as one whose spot prices have no rate.
        bool anySpotPrice = false;
        for (const core::PlanOption& o : plan.results.options) {
            for (const core::PlanMode& m : o.modes) {
                anySpotPrice = anySpotPrice || core::isSpot(m.mode);
            }
        }
        chart->setTitle(
            anySpotPrice
                ? QCoreApplication::translate("PlanCharts",
                                              "Spot: no option in this plan has a spot price with a published "
                                              "interruption rate")
                      + QStringLiteral("<br>")
                      + QCoreApplication::translate("PlanCharts",
                                                    "(their providers publish none, and GPU Planner does not guess "
                                                    "one: their spot prices are on the Compare page, not simulated)")
                : QCoreApplication::translate("PlanCharts", "Spot: no option in this plan has a spot price")
                      + QStringLiteral("<br>")
                      + QCoreApplication::translate("PlanCharts",
                                                    "(the catalog has none for these offers; Catalog → Refresh "
                                                    "prices reads Alibaba Cloud's and Tencent Cloud's with your "
                                                    "account)"));
        return chart;
    }
    if (widest < 0.02) {
        // A box that is a line is not a drawing fault: say what it means.
        chart->setTitle(chart->title() + QStringLiteral("<br>")
                        + QCoreApplication::translate("PlanCharts",
                                                      "(P10 to P90 within 2 %: at these interruption rates spot "
                                                      "barely changes this run)"));
    }
    chart->addSeries(boxes);
    chart->addSeries(onDemand);
    auto* x = categoryAxis(categories);
    auto* y = valueAxis(cost ? QCoreApplication::translate("PlanCharts", "Cost (%1)").arg(currency)
                             : QCoreApplication::translate("PlanCharts", "Hours"),
                        top);
    // The spread is the point of this chart: the axis spans the data, not zero to the top, so a narrow
    // distribution is still seen as a box. The axis title and tick labels say where it starts.
    const double margin = std::max((top - bottom) * 0.25, top * 0.02);
    y->setRange(std::max(0.0, bottom - margin), top + margin);
    y->applyNiceNumbers();
    if (!cost) {
        y->setLabelFormat(QStringLiteral("%.1f"));
    }
    addAxes(chart, x, y, style);
    return chart;
}

QChart* pricePerTflopChart(const core::PlanDocument& plan, const ChartStyle& style)
{
    const QString currency = currencyOf(plan);
    QChart* chart =
        newChart(QCoreApplication::translate(
                     "PlanCharts", "Price per effective TFLOPS-hour by GPU model (cheapest on-demand offer, %1)")
                     .arg(currency),
                 style);
    const double cnyPerUsd = plan.exchangeRate ? plan.exchangeRate->cnyPerUsd : 0;
    std::map<QString, double> best;
    for (const core::PlanOption& o : plan.results.options) {
        const core::PlanMode* od = o.firstEligible(core::isOnDemand);
        const double effective = o.gpus * o.training.peakTflops * o.training.efficiency.value;
        if (!od || effective <= 0 || od->price.unit != core::PriceUnit::Hour) {
            continue;
        }
        double price = od->price.amount * o.nodes;
        const core::Currency from = od->price.currency;
        if (from != plan.currency()) {
            if (cnyPerUsd <= 0) {
                continue;
            }
            price = from == core::Currency::USD ? price * cnyPerUsd : price / cnyPerUsd;
        }
        const QString gpu = QString::fromStdString(o.gpuName);
        const double perTflop = price / effective;
        auto it = best.find(gpu);
        if (it == best.end() || perTflop < it->second) {
            best[gpu] = perTflop;
        }
    }
    std::vector<std::pair<QString, double>> sorted(best.begin(), best.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    auto* set = new QBarSet(QCoreApplication::translate("PlanCharts", "Price per effective TFLOPS-hour"));
    QStringList categories;
    double top = 0;
    for (const auto& [gpu, value] : sorted) {
        *set << value;
        categories << gpu;
        top = std::max(top, value);
    }
    set->setLabelColor(style.dark && !style.print ? Qt::white : Qt::black);
    auto* bars = new QHorizontalBarSeries;
    bars->append(set);
    bars->setLabelsVisible(true);
    bars->setLabelsFormat(QStringLiteral("@value"));
    bars->setLabelsPrecision(3);
    bars->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    chart->addSeries(bars);
    chart->legend()->hide();
    auto* y = categoryAxis(categories, false);
    auto* x = valueAxis(
        QCoreApplication::translate("PlanCharts", "%1 per effective TFLOPS-hour (peak × efficiency)").arg(currency),
        top * 1.15);
    x->setLabelFormat(QStringLiteral("%.3f"));
    addAxes(chart, x, y, style);
    return chart;
}

std::vector<QChart*> allPlanCharts(const core::PlanDocument& plan, const ChartStyle& style)
{
    return {costBreakdownChart(plan, style),
            timeCostChart(plan, style),
            cumulativeCostChart(plan, style),
            spotDistributionChart(plan, false, style),
            spotDistributionChart(plan, true, style),
            pricePerTflopChart(plan, style)};
}

} // namespace gpuplan::ui
