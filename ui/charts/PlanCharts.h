#pragma once

#include "gpuplan/plan/PlanDocument.h"

#include <QString>

#include <vector>

class QChart;

namespace gpuplan::ui {

/// How a chart is drawn: on screen (light or dark) or for print (white, black text, thicker lines).
struct ChartStyle
{
    bool dark = false;
    bool print = false;
};

/// The Costs view's charts, built from a plan so the PDF report can draw the same ones. Each returns
/// a new chart the caller owns; a plan without the data gives a chart whose title says what is missing.
QChart* costBreakdownChart(const core::PlanDocument& plan, const ChartStyle& style);
QChart* timeCostChart(const core::PlanDocument& plan, const ChartStyle& style);
QChart* cumulativeCostChart(const core::PlanDocument& plan, const ChartStyle& style);
QChart* spotDistributionChart(const core::PlanDocument& plan, bool cost, const ChartStyle& style);
QChart* pricePerTflopChart(const core::PlanDocument& plan, const ChartStyle& style);
/// All of them in the Costs view's order: cost breakdown, time vs cost, rent vs buy, spot time, spot cost,
/// price per TFLOPS.
std::vector<QChart*> allPlanCharts(const core::PlanDocument& plan, const ChartStyle& style);

} // namespace gpuplan::ui
