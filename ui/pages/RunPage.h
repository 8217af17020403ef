#pragma once

#include "workers/PageJob.h"

#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/plan/PlanDocument.h"
#include "gpuplan/run/RunWorkflow.h"

#include <QThread>
#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QDateTimeAxis;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace gpuplan::ui {

struct PlanningData;
class StatusLabel;
class RunMonitor;
struct RunPoll;

/// The Run stage: a run's settings (working directory, command, setup, dataset, image, results, the log's speed
/// pattern, TensorBoard), started on an instance over SSH and followed live: its log, the GPUs' utilisation, memory
/// and power over the last 30 minutes (charts), the advice when they stay under 70 %, its speed and cost against
/// the plan's, the dead-man's time; then its results brought home, TensorBoard opened through a tunnel. A run goes on
/// without the page: started again, the page finds the runs the ledger has and follows the newest that runs.
class RunPage final : public QWidget
{
    Q_OBJECT

public:
    explicit RunPage(QWidget* parent = nullptr);
    ~RunPage() override;

    void setData(std::shared_ptr<const PlanningData> planningData);
    /// The open plan: its run settings fill the form, its estimate is what the run is measured against.
    void setPlan(const core::PlanDocument* plan);
    void retranslate();

    /// Tests: where the ledger is (default: the user's) and the known_hosts file (default ~/.ssh/known_hosts).
    void setLedgerFile(const std::filesystem::path& file) { m_ledgerFile = file; }
    void setKnownHostsFile(const QString& file) { m_knownHostsFile = file; }
    /// Tests: the stretch under 70 % before advice (default 180 s) and the seconds between polls (default 2).
    void setAdviceAfter(int seconds) { m_advice.lowForSeconds = seconds; }
    void setPollSeconds(int seconds);

    /// The run followed now (nullopt: none).
    std::optional<core::RunRecord> followedRun() const;

public slots:
    /// Reads the launches and runs from the ledger (a worker thread); attaches to the newest run still going when
    /// nothing is followed yet.
    void refresh();
    /// "Run on this instance…" of the Instances page: the launch is chosen as the machine.
    void chooseLaunch(std::int64_t entryId);
    void start();
    void stop();
    void downloadResults();
    void openTensorboard();

signals:
    /// A run started, ended or brought its results home (the Reports page reads the ledger again).
    void runsChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Snapshot
    {
        std::vector<core::LedgerEntry> launches;
        std::vector<core::RunRecord> runs;
    };
    core::Result<core::RunSpec> specFromForm() const;
    void fillForm(const core::RunSpec& spec);
    void fillRuns();
    void attach(const core::RunRecord& run);
    void stopMonitor();
    void onPolled(qint64 runId, const RunPoll& polled);
    void showMeasurements();
    void redrawCharts();
    void showAdvice();
    void updateButtons();
    void updateListing();
    void keepAsCalibration();
    void fillHostFromLaunch();
    /// "742 samples/s"; "742 (600–1000) samples/s" with a range; "unknown" without a value.
    static QString speedText(std::optional<double> value,
                             std::optional<double> low,
                             std::optional<double> high,
                             const std::string& unit);

    std::shared_ptr<const PlanningData> m_data;
    std::optional<core::PlannedRun> m_planned;
    std::optional<core::PlanDocument> m_plan; // the open plan: a run of it that finishes becomes a calibration case
    std::string m_planId;
    std::filesystem::path m_ledgerFile;
    QString m_knownHostsFile;
    core::AdviceSettings m_advice;
    int m_pollSeconds = 2;

    // The machine.
    QGroupBox* m_machineBox = nullptr;
    QLabel* m_launchLabel = nullptr;
    QComboBox* m_launch = nullptr;
    QLabel* m_hostLabel = nullptr;
    QLineEdit* m_host = nullptr;
    QLabel* m_keyLabel = nullptr;
    QLineEdit* m_keyFile = nullptr;
    QLabel* m_jumpLabel = nullptr;
    QLineEdit* m_jump = nullptr;
    // The run's settings.
    QGroupBox* m_specBox = nullptr;
    QLabel* m_workdirLabel = nullptr;
    QLineEdit* m_workdir = nullptr;
    QPushButton* m_browseWorkdir = nullptr;
    QLabel* m_listing = nullptr; // what goes over: files and size
    QLabel* m_commandLabel = nullptr;
    QLineEdit* m_command = nullptr;
    QLabel* m_setupLabel = nullptr;
    QPlainTextEdit* m_setup = nullptr;
    QLabel* m_datasetLabel = nullptr;
    QLineEdit* m_dataset = nullptr;
    QLineEdit* m_datasetRegion = nullptr;
    QLabel* m_imageLabel = nullptr;
    QLineEdit* m_image = nullptr;
    QLabel* m_resultsLabel = nullptr;
    QLineEdit* m_results = nullptr;
    QLabel* m_speedLabel = nullptr;
    QComboBox* m_speedPreset = nullptr;
    QLineEdit* m_speedRegex = nullptr;
    QLabel* m_tensorboardLabel = nullptr;
    QLineEdit* m_tensorboardDir = nullptr;
    QPushButton* m_startButton = nullptr;
    // The run followed.
    QLabel* m_runLabel = nullptr;
    QComboBox* m_runs = nullptr;
    QPushButton* m_stopButton = nullptr;
    QPushButton* m_downloadButton = nullptr;
    QPushButton* m_tensorboardButton = nullptr;
    QPushButton* m_pauseButton = nullptr;
    QProgressBar* m_progress = nullptr;
    StatusLabel* m_status = nullptr;
    QLabel* m_deadman = nullptr;
    QTableWidget* m_versus = nullptr; // planned against measured
    QLabel* m_adviceLabel = nullptr;
    QChartView* m_utilizationView = nullptr;
    QChartView* m_memoryView = nullptr;
    QChartView* m_powerView = nullptr;
    QPlainTextEdit* m_log = nullptr;

    Snapshot m_snapshot;
    std::int64_t m_launchToChoose = 0;
    QThread m_monitorThread;         // where the run followed is polled
    RunMonitor* m_monitor = nullptr; // lives in m_monitorThread
    std::optional<core::RunRecord> m_followed;
    core::RunSpec m_followedSpec;
    std::vector<core::MonitorSample> m_samples; // the last 30 minutes, as the follower keeps them
    bool m_chartsPaused = false;
    std::shared_ptr<core::SshTunnel> m_tunnel; // TensorBoard's, while the page follows the run
    QThreadPool m_pool;
    PageJob m_reader;         // refresh()
    PageJob m_job;            // start, stop, results, TensorBoard
    PageJob m_listingJob;     // what the working directory sends
    PageJob m_calibrationJob; // a finished run's speed kept as a calibration case
};

} // namespace gpuplan::ui
