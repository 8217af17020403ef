#pragma once

#include "workers/PageJob.h"

#include "gpuplan/core/Result.h"
#include "gpuplan/report/RunsReport.h"

#include <QWidget>

#include <filesystem>
#include <memory>
#include <optional>

class QChartView;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace gpuplan::ui {

class StatusLabel;
struct PlanningData;

/// Every run and launch with plan against actual (time, throughput, cost), and the spending by month, by plan and by
/// provider against each plan's budget; exported as CSV. Read from the ledger off the UI thread.
class ReportsPage final : public QWidget
{
    Q_OBJECT

public:
    explicit ReportsPage(QWidget* parent = nullptr);
    void setData(std::shared_ptr<const PlanningData> planningData);
    void retranslate();
    /// The ledger read (tests: one in a temporary folder); default core::defaultLedgerFile().
    void setLedgerFile(const std::filesystem::path& file);
    /// The report last read; nullopt until the ledger has been read.
    const std::optional<core::RunsReport>& report() const { return m_report; }

public slots:
    /// Reads the ledger again (a worker thread) and redraws.
    void refresh();
    /// Asks for a file and writes the runs and launches there as CSV (core::runsReportCsv).
    void exportCsv();

signals:
    /// The ledger was read and the page shows it (tests wait for it).
    void refreshed();
    /// The CSV was written to `file`.
    void exported(const QString& file);

protected:
    void changeEvent(QEvent* event) override;

private:
    void showReport(const core::Result<core::RunsReport>& read);
    void fillRuns();
    void fillLaunches();
    void redrawCharts();
    void updateSummary();

    std::shared_ptr<const PlanningData> m_data;
    std::filesystem::path m_ledgerFile;
    std::optional<core::RunsReport> m_report;
    bool m_refreshAgain = false;

    QLabel* m_intro;
    QLabel* m_runsLabel;
    QTableWidget* m_runs;
    QLabel* m_launchesLabel;
    QTableWidget* m_launches;
    QTabWidget* m_charts;
    QList<QChartView*> m_views;
    QLabel* m_summary;
    QPushButton* m_exportButton;
    StatusLabel* m_status;
    PageJob m_reader;
    PageJob m_writer;
};

} // namespace gpuplan::ui
