#pragma once

#include <nlohmann/json.hpp>

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

/// The Costs view's charts, built from a plan document so the PDF report can draw the same ones. Each returns
/// a new chart the caller owns; a plan without the data gives a chart whose title says what is missing.
QChart* costBreakdownChart(const nlohmann::json& plan, const ChartStyle& style);
QChart* timeCostChart(const nlohmann::json& plan, const ChartStyle& style);
QChart* cumulativeCostChart(const nlohmann::json& plan, const ChartStyle& style);
QChart* spotDistributionChart(const nlohmann::json& plan, bool cost, const ChartStyle& style);
QChart* pricePerTflopChart(const nlohmann::json& plan, const ChartStyle& style);
/// All of them in the Costs view's order: cost breakdown, time vs cost, rent vs buy, spot time, spot cost,
/// price per TFLOPS.
std::vector<QChart*> allPlanCharts(const nlohmann::json& plan, const ChartStyle& style);

} // namespace gpuplan::ui
