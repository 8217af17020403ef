#pragma once

#include "charts/PlanCharts.h"

#include "gpuplan/report/RunsReport.h"

class QChart;

namespace gpuplan::ui {

/// The Reports page's charts of what was spent, from the ledger's report (core::buildRunsReport), in its currency.
/// Each returns a new chart the caller owns; with nothing spent, the chart's title says so.

/// Spending by calendar month (UTC), stacked by provider: one bar set per provider.
QChart* spendByMonthChart(const core::RunsReport& report, const ChartStyle& style);
/// Spending by provider, most first.
QChart* spendByProviderChart(const core::RunsReport& report, const ChartStyle& style);
/// Spending by plan (bars) against each plan's budget (a marker on the same axis; no marker: no budget).
QChart* spendByPlanChart(const core::RunsReport& report, const ChartStyle& style);

/// How a plan is named in the report: its name, else its id, else "No plan".
QString planLabel(const std::string& planId, const std::string& planName);

} // namespace gpuplan::ui
