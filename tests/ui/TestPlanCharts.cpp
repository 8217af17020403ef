// The Costs view's charts drawn from the bundled example plans: every series has data, every axis a range.
#include "charts/PlanCharts.h"

#include "gpuplan/plan/PlanFile.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QChart>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QTest>
#include <QValueAxis>
#include <QXYSeries>

#include <functional>
#include <memory>

namespace {

const std::filesystem::path kExamples = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "examples";

/// "" when every series of the chart has points and every axis has labels to show; else what is empty.
QString emptyParts(QChart* chart)
{
    QStringList empty;
    if (chart->series().isEmpty()) {
        empty << QStringLiteral("no series");
    }
    for (QAbstractSeries* series : chart->series()) {
        const QString name = series->name().isEmpty() ? QStringLiteral("(unnamed)") : series->name();
        if (auto* xy = qobject_cast<QXYSeries*>(series); xy && xy->count() == 0) {
            empty << name;
        }
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
            if (bars->count() == 0) {
                empty << name;
            }
            for (QBarSet* set : bars->barSets()) {
                if (set->count() == 0) {
                    empty << set->label();
                }
            }
        }
        if (auto* boxes = qobject_cast<QBoxPlotSeries*>(series); boxes && boxes->count() == 0) {
            empty << name;
        }
        if (series->attachedAxes().size() != 2) {
            empty << name + QStringLiteral(": axes");
        }
    }
    // A localized label format without a precision ("%g") draws no labels at all: the axis looks empty.
    static const QRegularExpression localizable(QStringLiteral("^[^%]*%\\.\\d+[dieEfgG][^%]*$"));
    for (QAbstractAxis* axis : chart->axes()) {
        if (auto* value = qobject_cast<QValueAxis*>(axis); value && !(value->max() > value->min())) {
            empty << axis->titleText();
        }
        QString format;
        if (auto* value = qobject_cast<QValueAxis*>(axis)) {
            format = value->labelFormat();
        } else if (auto* log = qobject_cast<QLogValueAxis*>(axis)) {
            format = log->labelFormat();
        }
        if (!format.isEmpty() && chart->localizeNumbers() && !localizable.match(format).hasMatch()) {
            empty << axis->titleText() + QStringLiteral(": labels (") + format + QLatin1Char(')');
        }
    }
    return empty.join(QStringLiteral(", "));
}

} // namespace

class TestPlanCharts : public QObject
{
    Q_OBJECT

private slots:
    void everySeriesHasData_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<int>("chart");
        const QStringList charts{QStringLiteral("cost breakdown"),
                                 QStringLiteral("time vs cost"),
                                 QStringLiteral("cumulative"),
                                 QStringLiteral("spot time"),
                                 QStringLiteral("spot cost"),
                                 QStringLiteral("price per TFLOPS")};
        for (const char* example : {"resnet50-imagenet.gpuplan", "llama2-7b-lora-budget.gpuplan"}) {
            for (int i = 0; i < charts.size(); ++i) {
                QTest::addRow("%s: %s", example, qPrintable(charts[i])) << QString::fromLatin1(example) << i;
            }
        }
    }

    void everySeriesHasData()
    {
        QFETCH(QString, example);
        QFETCH(int, chart);
        gpuplan::core::Result<gpuplan::core::PlanDocument> plan =
            gpuplan::core::loadPlan(kExamples / example.toStdString());
        QVERIFY2(plan, plan ? "" : gpuplan::core::describe(plan.error()).c_str());
        const gpuplan::ui::ChartStyle style;
        const std::function<QChart*()> build[] = {
            [&] { return gpuplan::ui::costBreakdownChart(*plan, style); },
            [&] { return gpuplan::ui::timeCostChart(*plan, style); },
            [&] { return gpuplan::ui::cumulativeCostChart(*plan, style); },
            [&] { return gpuplan::ui::spotDistributionChart(*plan, false, style); },
            [&] { return gpuplan::ui::spotDistributionChart(*plan, true, style); },
            [&] { return gpuplan::ui::pricePerTflopChart(*plan, style); },
        };
        std::unique_ptr<QChart> c(build[chart]());
        QVERIFY2(!c->title().isEmpty(), "a chart says what it shows");
        const QString empty = emptyParts(c.get());
        QVERIFY2(empty.isEmpty(), qPrintable(c->title() + QStringLiteral(": empty: ") + empty));
    }

    // Issue 23: the Spot tabs were empty for a China-only plan with no hint. Without any spot price the chart says
    // so and where spot prices come from; with spot prices but no interruption rate it says that instead.
    void anEmptySpotChartSaysWhyAndWhatWouldFillIt()
    {
        using namespace gpuplan::core;
        Result<PlanDocument> plan = loadPlan(kExamples / "resnet50-imagenet.gpuplan");
        QVERIFY(plan);
        PlanDocument noSpot = *plan;
        PlanDocument noRate = *plan;
        int spotModes = 0;
        int rated = 0;
        for (PlanOption& option : noSpot.results.options) {
            spotModes += int(std::erase_if(option.modes, [](const PlanMode& mode) { return isSpot(mode.mode); }));
        }
        for (PlanOption& option : noRate.results.options) {
            for (PlanMode& mode : option.modes) {
                if (isSpot(mode.mode)) {
                    mode.eligible = false;
                    if (mode.spot && mode.spot->simulated) {
                        mode.spot->simulated.reset();
                        ++rated;
                    }
                }
            }
        }
        QVERIFY2(spotModes > 0 && rated > 0, "the example has spot prices, one of them with an interruption rate");
        std::unique_ptr<QChart> none(gpuplan::ui::spotDistributionChart(noSpot, false, {}));
        QVERIFY2(none->title().contains(QStringLiteral("no option in this plan has a spot price<br>"))
                     && none->title().contains(QStringLiteral("Refresh prices")),
                 qPrintable(none->title()));
        QVERIFY(none->series().isEmpty());
        std::unique_ptr<QChart> unrated(gpuplan::ui::spotDistributionChart(noRate, true, {}));
        QVERIFY2(unrated->title().contains(QStringLiteral("published interruption rate"))
                     && unrated->title().contains(QStringLiteral("does not guess")),
                 qPrintable(unrated->title()));
    }

    void paretoFrontIsNeitherBeatenOnCostNorOnTime()
    {
        gpuplan::core::Result<gpuplan::core::PlanDocument> plan =
            gpuplan::core::loadPlan(kExamples / "resnet50-imagenet.gpuplan");
        QVERIFY(plan);
        std::unique_ptr<QChart> c(gpuplan::ui::timeCostChart(*plan, {}));
        QXYSeries* front = nullptr;
        QXYSeries* rest = nullptr;
        for (QAbstractSeries* s : c->series()) {
            if (s->name().startsWith(QStringLiteral("Pareto"))) {
                front = qobject_cast<QXYSeries*>(s);
            } else if (s->name() == QStringLiteral("Option")) {
                rest = qobject_cast<QXYSeries*>(s);
            }
        }
        QVERIFY(front && rest && front->count() >= 2);
        // No other option is both faster and cheaper than a point on the front; each other one is beaten.
        for (const QPointF& f : front->points()) {
            for (const QPointF& o : rest->points()) {
                QVERIFY(!(o.x() <= f.x() && o.y() <= f.y()));
            }
        }
        for (const QPointF& o : rest->points()) {
            bool beaten = false;
            for (const QPointF& f : front->points()) {
                beaten = beaten || (f.x() <= o.x() && f.y() <= o.y());
            }
            QVERIFY(beaten);
        }
    }
};

QTEST_MAIN(TestPlanCharts)
#include "TestPlanCharts.moc"
