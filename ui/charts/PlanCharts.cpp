#include "PlanCharts.h"

#include "Format.h"
#include "PlanJson.h"
#include "PlanText.h"

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

using nlohmann::json;

namespace {

constexpr int kTopOptions = 10;

const json& options(const json& plan)
{
    static const json empty = json::array();
    const json* o = &empty;
    if (plan.contains("results") && plan["results"].contains("options")) {
        o = &plan["results"]["options"];
    }
    return *o;
}

QString currencyOf(const json& plan)
{
    return plan.contains("constraints") ? jsonText(plan["constraints"], "currency") : QStringLiteral("CNY");
}

/// An option on a category axis: its instance type (the provider is in the tooltip and the table).
QString label(const json& o)
{
    return jsonText(o, "instance_type");
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

QChart* costBreakdownChart(const json& plan, const ChartStyle& style)
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
    for (const json& o : options(plan)) {
        if (categories.size() == kTopOptions) {
            break;
        }
        const json& b = o["cost_breakdown"];
        *compute << jsonNumber(b["compute"], "value", 0);
        *storage << jsonNumber(b["storage"], "value", 0);
        *egress << jsonNumber(b["egress"], "value", 0);
        categories << label(o);
        ranges.emplace_back(jsonNumber(o["cost"], "low", 0), jsonNumber(o["cost"], "high", 0));
        top = std::max(top, jsonNumber(o["cost"], "high", 0));
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

QChart* timeCostChart(const json& plan, const ChartStyle& style)
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
    for (const json& o : options(plan)) {
        const double hours = jsonNumber(o["hours"], "value");
        const double cost = jsonNumber(o["cost"], "value");
        if (std::isfinite(hours) && std::isfinite(cost) && hours > 0 && cost > 0) {
            QString text = QStringLiteral("%1 %2 (%3)\n%4, %5")
                               .arg(providerText(o),
                                    jsonText(o, "instance_type"),
                                    jsonText(o, "region"),
                                    formatHours(hours),
                                    formatMoney(cost, currency));
            if (const QString commitment = commitmentText(rankedMode(o)); !commitment.isEmpty()) {
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

QChart* cumulativeCostChart(const json& plan, const ChartStyle& style)
{
    const json b = plan.value("buy_vs_rent", json());
    const QString currency = currencyOf(plan);
    if (!b.is_object() || !b.value("available", false)) {
        return newChart(QCoreApplication::translate("PlanCharts", "Buying against renting: not available (%1)")
                            .arg(jsonText(b, "reason")),
                        style);
    }
    const bool energyKnown = b["electricity_per_kwh"].is_number();
    QString title = QCoreApplication::translate(
                        "PlanCharts", "Cumulative cost of %1 × %2: renting against buying, at %3 % utilisation")
                        .arg(int(jsonNumber(b, "gpus")))
                        .arg(jsonText(b, "gpu_name"))
                        .arg(formatNumber(jsonNumber(b, "utilisation") * 100, 0));
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
    auto addLine = [&](const json& line) {
        auto* series = new QLineSeries;
        const auto name = names.find(line.value("key", std::string()));
        series->setName(name != names.end() ? name->second : jsonText(line, "key"));
        int month = 0;
        for (const json& value : line["cumulative"]) {
            series->append(month++, value.get<double>());
            top = std::max(top, value.get<double>());
        }
        chart->addSeries(series); // the theme picks the colour; then the width is ours
        QPen pen = series->pen();
        pen.setWidthF(style.print ? 2 : 2.5);
        if (line.value("key", std::string()) == "own") {
            pen.setStyle(Qt::DashLine); // tells the lines apart in black and white too
        }
        series->setPen(pen);
        const double m = jsonNumber(line, "break_even_month");
        if (std::isfinite(m)) {
            const double cost = jsonNumber(line, "monthly") * m;
            breakEvens->append(m, cost);
            breakEvenLabels << QCoreApplication::translate("PlanCharts", "month %1").arg(formatNumber(m, 0));
            breakEvenTexts.push_back(QCoreApplication::translate("PlanCharts", "Buying pays off against %1 after %2")
                                         .arg(series->name(), formatMonths(m)));
        }
    };
    addLine(b["own"]);
    for (const json& line : b["rent"]) {
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
    auto* x = valueAxis(QCoreApplication::translate("PlanCharts", "Months"), jsonNumber(b, "months", 12));
    x->setRange(0, jsonNumber(b, "months", 12));
    x->setTickCount(std::min(13, int(jsonNumber(b, "months", 12)) / 6 + 1));
    auto* y = valueAxis(QCoreApplication::translate("PlanCharts", "Cumulative cost (%1)").arg(currency), top);
    y->setLabelFormat(QStringLiteral("%.0f"));
    addAxes(chart, x, y, style);
    return chart;
}

QChart* spotDistributionChart(const json& plan, bool cost, const ChartStyle& style)
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
    for (const json& o : options(plan)) {
        const json* spot = eligibleMode(o, "spot");
        const json* od = eligibleMode(o, "on_demand");
        if (!spot || !od || !(*spot)["spot"].contains("monte_carlo") || categories.size() == kTopOptions) {
            continue;
        }
        const json& s = (*spot)["spot"];
        double q[5];
        if (cost) {
            const json& c = s["monte_carlo_cost"];
            const char* keys[] = {"p10", "p25", "p50", "p75", "p90"};
            for (int i = 0; i < 5; ++i) {
                q[i] = jsonNumber(c, keys[i], 0);
            }
        } else {
            const json& mc = s["monte_carlo"];
            const char* keys[] = {"p10_hours", "p25_hours", "p50_hours", "p75_hours", "p90_hours"};
            const double extra = jsonNumber(s, "extra_hours", 0);
            for (int i = 0; i < 5; ++i) {
                q[i] = jsonNumber(mc, keys[i], 0) + extra;
            }
        }
        auto* set = new QBoxSet(q[0], q[1], q[2], q[3], q[4], label(o));
        boxes->append(set);
        const double odValue = cost ? jsonNumber((*od)["cost"], "value", 0) : jsonNumber((*od)["hours"], "value", 0);
        onDemand->append(categories.size(), odValue);
        categories << label(o);
        top = std::max({top, q[4], odValue});
        bottom = std::min({bottom, q[0], odValue});
        widest = std::max(widest, q[2] > 0 ? (q[4] - q[0]) / q[2] : 0.0);
        const QString name = QStringLiteral("%1 %2 (%3)").arg(providerText(o), label(o), jsonText(o, "region"));
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
        for (const json& o : options(plan)) {
            for (const json& m : jsonMember(o, "modes")) {
                anySpotPrice = anySpotPrice || jsonText(m, "mode").startsWith(QLatin1String("spot"));
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

QChart* pricePerTflopChart(const json& plan, const ChartStyle& style)
{
    const QString currency = currencyOf(plan);
    QChart* chart =
        newChart(QCoreApplication::translate(
                     "PlanCharts", "Price per effective TFLOPS-hour by GPU model (cheapest on-demand offer, %1)")
                     .arg(currency),
                 style);
    const double cnyPerUsd = plan.contains("catalog")
                                 ? jsonNumber(plan["catalog"].value("exchange_rate", json::object()), "cny_per_usd", 0)
                                 : 0;
    std::map<QString, double> best;
    for (const json& o : options(plan)) {
        const json* od = eligibleMode(o, "on_demand");
        const json& t = o["training"];
        const double effective = jsonNumber(o, "gpus", 0) * jsonNumber(t["peak_tflops"], "value", 0)
                                 * jsonNumber(t["efficiency"], "value", 0);
        if (!od || effective <= 0 || (*od)["price"].value("unit", std::string()) != "hour") {
            continue;
        }
        double price = jsonNumber((*od)["price"], "amount", 0) * jsonNumber(o, "nodes", 1);
        const QString from = jsonText((*od)["price"], "currency");
        if (from != currency) {
            if (cnyPerUsd <= 0) {
                continue;
            }
            price = from == QLatin1String("USD") ? price * cnyPerUsd : price / cnyPerUsd;
        }
        const QString gpu = jsonText(o, "gpu_name");
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

std::vector<QChart*> allPlanCharts(const json& plan, const ChartStyle& style)
{
    return {costBreakdownChart(plan, style),
            timeCostChart(plan, style),
            cumulativeCostChart(plan, style),
            spotDistributionChart(plan, false, style),
            spotDistributionChart(plan, true, style),
            pricePerTflopChart(plan, style)};
}

} // namespace gpuplan::ui
