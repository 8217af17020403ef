#pragma once

#include "workers/PageJob.h"

#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/plan/PlanDocument.h"
#include "gpuplan/run/RunWorkflow.h"
#include "gpuplan/run/SpotRecovery.h"

#include <QPointer>
#include <QThread>
#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QChart;
class QCheckBox;
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

class CredentialStore;

struct PlanningData;
class StatusLabel;
class RunMonitor;
class RunTimeline;
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
    /// `credentials`: the user's stored keys, for a spot run's relaunch (null: it cannot recover).
    explicit RunPage(CredentialStore* credentials = nullptr, QWidget* parent = nullptr);
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
    /// Tests: the folder of the instance scripts and the starter template (default: the bundled catalog's sibling
    /// "scripts", as gpuplan-run.sh is found).
    void setScriptsDir(const std::filesystem::path& dir) { m_scriptsDir = dir; }

    /// The run followed now (nullopt: none).
    std::optional<core::RunRecord> followedRun() const;

public slots:
    /// Reads the launches and runs from the ledger (a worker thread); attaches to the newest run still going when
    /// nothing is followed yet.
    void refresh();
    /// "Run on this instance…" of the Instances page: the launch is chosen as the machine.
    void chooseLaunch(std::int64_t entryId);
    /// Follows run `runId` of the ledger (as choosing it in the list of runs does).
    void followRun(std::int64_t runId);
    /// "Write a starter script…": train.py from the open plan into a folder (asked; Question::FileName in tests),
    /// then the command and the speed pattern from it.
    void writeStarterScript();
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
        std::vector<core::LedgerEntry> entries; // every entry (an attempt's launch may have ended)
        std::vector<core::RunAttempt> attempts; // of every run
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
    // The spot section and the attempts (RunPageSpot.cpp).
    void buildSpotSection();
    void retranslateSpot();
    void fillSpot(const core::SpotHandling& spot);
    core::SpotHandling spotFromForm() const;
    void updateSpotSection();
    void showAttempts();
    void onRecovery(qint64 runId, const core::RecoveryProgress& progress);
    const core::LedgerEntry* entryOf(std::int64_t launchId) const;
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
    std::filesystem::path m_scriptsDir;
    QPointer<CredentialStore> m_credentials;
    std::optional<core::RunTotals> m_runTotals; // the followed run over its attempts (showAttempts)
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
    // Spot interruptions.
    QGroupBox* m_spotBox = nullptr;
    QLabel* m_spotWhy = nullptr; // why the section is greyed
    QCheckBox* m_spotWatch = nullptr;
    QCheckBox* m_spotRecover = nullptr;
    QLabel* m_bucketLabel = nullptr;
    QLineEdit* m_bucket = nullptr;
    QLineEdit* m_bucketRegion = nullptr;
    QLabel* m_bucketProblem = nullptr; // a bad URL, said by the field's name
    QLabel* m_regionNote = nullptr;    // the bucket in another region than the instance
    QLabel* m_checkpointLabel = nullptr;
    QLineEdit* m_checkpointDir = nullptr;
    QLabel* m_onDemandLabel = nullptr;
    QSpinBox* m_onDemandAfter = nullptr;
    QLabel* m_syncLine = nullptr; // the periodic sync's interval: the plan's Daly optimum, or only on a notice
    QPushButton* m_starterButton = nullptr;
    core::ThroughputPattern m_throughputKept; // its unit and samples per step (the form shows preset and regex)
    core::SpotHandling m_spotKept; // what the form does not show (signal, attempts, sync interval...) of the plan's
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
    QLabel* m_spotBanner = nullptr;   // a spot notice seen now, or the recovery's current step
    QGroupBox* m_attemptsBox = nullptr;
    RunTimeline* m_timeline = nullptr;
    QTableWidget* m_attempts = nullptr;
    QLabel* m_totals = nullptr;
    std::optional<core::SpotNotice> m_notice;           // the followed run's, as its last poll saw it
    std::optional<core::RecoveryProgress> m_recovering; // the followed run's recovery, its last step
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
