#include "pages/RunPage.h"

#include "secrets/CredentialStore.h"

#include "PlanningData.h"
#include "Questions.h"
#include "dialogs/SshQuestions.h"
#include "widgets/RunTimeline.h"
#include "widgets/StatusLabel.h"
#include "wording/ErrorText.h"
#include "wording/Format.h"
#include "wording/LaunchText.h"
#include "wording/RunText.h"
#include "workers/CloudJobs.h"
#include "workers/RunMonitor.h"
#include "workers/UiThreadPrompter.h"

#include "gpuplan/catalog/CatalogChecks.h"
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/cloud/LaunchChoice.h"
#include "gpuplan/deploy/SshConfig.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/plan/PlanDocument.h"
#include "gpuplan/run/WorkdirFiles.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

namespace gpuplan::ui {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

/// "45 s" under two minutes, else as formatHours says it ("12 min", "1.5 h").
QString durationText(std::int64_t seconds)
{
    return seconds < 120 ? RunPage::tr("%n s", nullptr, static_cast<int>(std::max<std::int64_t>(0, seconds)))
                         : formatHours(static_cast<double>(seconds) / 3600.0);
}

/// The lines of a multi-line field, trimmed, without the empty ones.
std::vector<std::string> linesOf(const QString& text)
{
    std::vector<std::string> out;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty()) {
            out.push_back(line.trimmed().toStdString());
        }
    }
    return out;
}

/// The comma- (or line-) separated items of a field.
std::vector<std::string> itemsOf(const QString& text)
{
    std::vector<std::string> out;
    for (const QString& item : text.split(QRegularExpression(QStringLiteral("[,\\n]")))) {
        if (!item.trimmed().isEmpty()) {
            out.push_back(item.trimmed().toStdString());
        }
    }
    return out;
}

} // namespace

RunPage::RunPage(CredentialStore* credentials, QWidget* parent)
    : QWidget(parent)
    , m_ledgerFile(core::defaultLedgerFile())
    , m_scriptsDir(core::bundledCatalogDir(QCoreApplication::applicationDirPath().toStdString()).parent_path()
                   / "scripts")
    , m_machineBox(new QGroupBox(this))
    , m_launchLabel(new QLabel(this))
    , m_launch(new QComboBox(this))
    , m_hostLabel(new QLabel(this))
    , m_host(new QLineEdit(this))
    , m_keyLabel(new QLabel(this))
    , m_keyFile(new QLineEdit(this))
    , m_jumpLabel(new QLabel(this))
    , m_jump(new QLineEdit(this))
    , m_specBox(new QGroupBox(this))
    , m_workdirLabel(new QLabel(this))
    , m_workdir(new QLineEdit(this))
    , m_browseWorkdir(new QPushButton(this))
    , m_listing(new QLabel(this))
    , m_commandLabel(new QLabel(this))
    , m_command(new QLineEdit(this))
    , m_setupLabel(new QLabel(this))
    , m_setup(new QPlainTextEdit(this))
    , m_datasetLabel(new QLabel(this))
    , m_dataset(new QLineEdit(this))
    , m_datasetRegion(new QLineEdit(this))
    , m_imageLabel(new QLabel(this))
    , m_image(new QLineEdit(this))
    , m_resultsLabel(new QLabel(this))
    , m_results(new QLineEdit(this))
    , m_speedLabel(new QLabel(this))
    , m_speedPreset(new QComboBox(this))
    , m_speedRegex(new QLineEdit(this))
    , m_tensorboardLabel(new QLabel(this))
    , m_tensorboardDir(new QLineEdit(this))
    , m_startButton(new QPushButton(this))
    , m_runLabel(new QLabel(this))
    , m_runs(new QComboBox(this))
    , m_stopButton(new QPushButton(this))
    , m_downloadButton(new QPushButton(this))
    , m_tensorboardButton(new QPushButton(this))
    , m_pauseButton(new QPushButton(this))
    , m_progress(new QProgressBar(this))
    , m_status(new StatusLabel(this))
    , m_deadman(new QLabel(this))
    , m_versus(new QTableWidget(4, 2, this))
    , m_adviceLabel(new QLabel(this))
    , m_log(new QPlainTextEdit(this))
    , m_reader(this, {}, &m_pool)
    , m_job(
          this, [this](bool) { updateButtons(); }, &m_pool)
    , m_listingJob(this, {}, &m_pool)
    , m_calibrationJob(this, {}, &m_pool)
{
    m_credentials = credentials;
    setObjectName(QStringLiteral("runPage"));
    m_pool.setMaxThreadCount(4);
    m_launch->setObjectName(QStringLiteral("runLaunchComboBox"));
    m_host->setObjectName(QStringLiteral("runHostEdit"));
    m_keyFile->setObjectName(QStringLiteral("runKeyFileEdit"));
    m_jump->setObjectName(QStringLiteral("runJumpEdit"));
    m_workdir->setObjectName(QStringLiteral("runWorkdirEdit"));
    m_listing->setObjectName(QStringLiteral("runListingLabel"));
    m_command->setObjectName(QStringLiteral("runCommandEdit"));
    m_setup->setObjectName(QStringLiteral("runSetupEdit"));
    m_dataset->setObjectName(QStringLiteral("runDatasetEdit"));
    m_datasetRegion->setObjectName(QStringLiteral("runDatasetRegionEdit"));
    m_datasetRegion->setMaximumWidth(140);
    m_image->setObjectName(QStringLiteral("runImageEdit"));
    m_results->setObjectName(QStringLiteral("runResultsEdit"));
    m_speedPreset->setObjectName(QStringLiteral("runSpeedPresetComboBox"));
    m_speedRegex->setObjectName(QStringLiteral("runSpeedRegexEdit"));
    m_tensorboardDir->setObjectName(QStringLiteral("runTensorboardEdit"));
    m_startButton->setObjectName(QStringLiteral("runStartButton"));
    m_runs->setObjectName(QStringLiteral("runRunsComboBox"));
    m_stopButton->setObjectName(QStringLiteral("runStopButton"));
    m_downloadButton->setObjectName(QStringLiteral("runDownloadButton"));
    m_tensorboardButton->setObjectName(QStringLiteral("runTensorboardButton"));
    m_pauseButton->setObjectName(QStringLiteral("runPauseChartsButton"));
    m_progress->setObjectName(QStringLiteral("runProgressBar"));
    m_status->setObjectName(QStringLiteral("runStatusLabel"));
    m_deadman->setObjectName(QStringLiteral("runDeadmanLabel"));
    m_versus->setObjectName(QStringLiteral("runVersusTable"));
    m_adviceLabel->setObjectName(QStringLiteral("runAdviceLabel"));
    m_log->setObjectName(QStringLiteral("runLogView"));

    m_setup->setMaximumHeight(70);
    m_setup->setTabChangesFocus(true);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000); // the whole log stays on the instance and comes home with the results
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::TypeWriter);
    m_log->setFont(mono);
    m_listing->setWordWrap(true);
    m_adviceLabel->setWordWrap(true);
    m_adviceLabel->setTextFormat(Qt::RichText);
    m_deadman->setWordWrap(true);
    m_progress->setVisible(false);
    m_pauseButton->setCheckable(true);
    m_speedPreset->addItem(QString(), QString());
    for (const std::string& preset : core::throughputPresets()) {
        m_speedPreset->addItem(QString(), q(preset));
    }
    m_speedPreset->addItem(QString(), QStringLiteral("custom"));
    m_versus->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_versus->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_versus->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_versus->setMaximumHeight(150);

    // The form: the machine, then the run's settings.
    auto* machine = new QFormLayout(m_machineBox);
    machine->addRow(m_launchLabel, m_launch);
    machine->addRow(m_hostLabel, m_host);
    machine->addRow(m_keyLabel, m_keyFile);
    machine->addRow(m_jumpLabel, m_jump);
    auto* spec = new QFormLayout(m_specBox);
    auto* workdirRow = new QHBoxLayout;
    workdirRow->addWidget(m_workdir, 1);
    workdirRow->addWidget(m_browseWorkdir);
    spec->addRow(m_workdirLabel, workdirRow);
    spec->addRow(QString(), m_listing);
    spec->addRow(m_commandLabel, m_command);
    spec->addRow(m_setupLabel, m_setup);
    auto* datasetRow = new QHBoxLayout;
    datasetRow->addWidget(m_dataset, 1);
    datasetRow->addWidget(m_datasetRegion);
    spec->addRow(m_datasetLabel, datasetRow);
    spec->addRow(m_imageLabel, m_image);
    spec->addRow(m_resultsLabel, m_results);
    auto* speedRow = new QHBoxLayout;
    speedRow->addWidget(m_speedPreset);
    speedRow->addWidget(m_speedRegex, 1);
    spec->addRow(m_speedLabel, speedRow);
    spec->addRow(m_tensorboardLabel, m_tensorboardDir);
    buildSpotSection();
    auto* form = new QWidget(this);
    auto* formLayout = new QVBoxLayout(form);
    formLayout->addWidget(m_machineBox);
    formLayout->addWidget(m_specBox);
    formLayout->addWidget(m_spotBox);
    formLayout->addWidget(m_startButton);
    formLayout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(360);

    // The run followed: its controls, how it stands against the plan, the GPUs, the advice, the log.
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_runLabel);
    controls->addWidget(m_runs, 1);
    controls->addWidget(m_stopButton);
    controls->addWidget(m_downloadButton);
    controls->addWidget(m_tensorboardButton);
    controls->addWidget(m_pauseButton);
    auto makeView = [this](const char* name) {
        auto* view = new QChartView(new QChart, this);
        view->setObjectName(QLatin1String(name));
        view->setRenderHint(QPainter::Antialiasing);
        view->setRubberBand(QChartView::HorizontalRubberBand); // drag to zoom; right-click zooms out
        view->setMinimumHeight(150);
        view->chart()->legend()->setAlignment(Qt::AlignRight);
        view->chart()->setMargins(QMargins(4, 4, 4, 4));
        return view;
    };
    m_utilizationView = makeView("runUtilizationChart");
    m_memoryView = makeView("runMemoryChart");
    m_powerView = makeView("runPowerChart");
    auto* charts = new QHBoxLayout;
    charts->addWidget(m_utilizationView);
    charts->addWidget(m_memoryView);
    charts->addWidget(m_powerView);
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(controls);
    topLayout->addWidget(m_status);
    topLayout->addWidget(m_progress);
    topLayout->addWidget(m_deadman);
    topLayout->addWidget(m_spotBanner);
    topLayout->addWidget(m_attemptsBox);
    auto* middle = new QHBoxLayout;
    middle->addWidget(m_versus, 1);
    middle->addWidget(m_adviceLabel, 1);
    topLayout->addLayout(middle);
    topLayout->addLayout(charts, 1);
    auto* monitor = new QSplitter(Qt::Vertical, this);
    monitor->addWidget(top);
    monitor->addWidget(m_log);
    monitor->setStretchFactor(0, 3);
    monitor->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(scroll);
    split->addWidget(monitor);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(m_startButton, &QPushButton::clicked, this, &RunPage::start);
    connect(m_stopButton, &QPushButton::clicked, this, &RunPage::stop);
    connect(m_downloadButton, &QPushButton::clicked, this, &RunPage::downloadResults);
    connect(m_tensorboardButton, &QPushButton::clicked, this, &RunPage::openTensorboard);
    connect(m_pauseButton, &QPushButton::toggled, this, [this](bool paused) {
        m_chartsPaused = paused;
        if (!paused) {
            redrawCharts();
        }
    });
    connect(m_browseWorkdir, &QPushButton::clicked, this, [this] {
        QString dir;
        if (const std::optional<QVariant> next = Questions::takeNextAnswer(Question::FileName)) {
            dir = next->toString();
        } else {
            dir = QFileDialog::getExistingDirectory(this, tr("Working directory"), m_workdir->text());
        }
        if (!dir.isEmpty()) {
            m_workdir->setText(dir);
            updateListing();
        }
    });
    connect(m_workdir, &QLineEdit::editingFinished, this, &RunPage::updateListing);
    connect(m_runs, qOverload<int>(&QComboBox::activated), this, [this](int index) {
        followRun(m_runs->itemData(index).toLongLong());
    });
    connect(m_launch, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        fillHostFromLaunch();
        updateSpotSection();
        updateButtons();
    });
    connect(m_speedPreset, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        m_speedRegex->setEnabled(m_speedPreset->currentData().toString() == QLatin1String("custom"));
    });
    m_speedRegex->setEnabled(false);
    m_monitorThread.setObjectName(QStringLiteral("runMonitor"));
    m_monitorThread.start();

    retranslate();
    updateButtons();
}

RunPage::~RunPage()
{
    stopMonitor();
    m_monitorThread.quit(); // the monitor's deleteLater runs first: it was posted before the quit
    m_monitorThread.wait();
}

void RunPage::setPollSeconds(int seconds)
{
    m_pollSeconds = std::max(1, seconds);
}

void RunPage::setData(std::shared_ptr<const PlanningData> planningData)
{
    m_data = std::move(planningData);
    updateButtons();
}

void RunPage::setPlan(const core::PlanDocument* plan)
{
    if (!plan) {
        m_planned.reset();
        m_plan.reset();
        m_planId.clear();
        return;
    }
    m_plan = *plan;
    m_planned = core::plannedRunOf(*plan);
    m_planId = core::planIdOf(*plan);
    // The precision the plan's option trains in: FP32 leaves the tensor cores unused (the advice says so).
    const int chosen = plan->choice.value_or(0);
    m_advice.precision = core::Precision::Amp;
    if (chosen >= 0 && static_cast<std::size_t>(chosen) < plan->results.options.size()) {
        m_advice.precision =
            core::parsePrecision(plan->results.options[static_cast<std::size_t>(chosen)].training.precision)
                .value_or(core::Precision::Amp);
    }
    if (plan->run) {
        fillForm(*plan->run);
    }
    showMeasurements();
}

std::optional<core::RunRecord> RunPage::followedRun() const
{
    return m_followed;
}

void RunPage::fillForm(const core::RunSpec& spec)
{
    m_workdir->setText(q(spec.workdir));
    m_command->setText(q(spec.command));
    QStringList setup;
    for (const std::string& line : spec.setup) {
        setup << q(line);
    }
    m_setup->setPlainText(setup.join(QLatin1Char('\n')));
    m_dataset->setText(q(spec.dataset));
    m_datasetRegion->setText(q(spec.datasetRegion));
    m_image->setText(q(spec.image));
    QStringList results;
    for (const std::string& path : spec.results) {
        results << q(path);
    }
    m_results->setText(results.join(QStringLiteral(", ")));
    m_speedPreset->setCurrentIndex(std::max(0, m_speedPreset->findData(q(spec.throughput.preset))));
    m_speedRegex->setText(q(spec.throughput.regex));
    m_throughputKept = spec.throughput;
    m_tensorboardDir->setText(q(spec.tensorboardLogdir));
    fillSpot(spec.spot);
    updateListing();
}

core::Result<core::RunSpec> RunPage::specFromForm() const
{
    core::RunSpec spec;
    spec.workdir = m_workdir->text().trimmed().toStdString();
    spec.command = m_command->text().trimmed().toStdString();
    spec.setup = linesOf(m_setup->toPlainText());
    spec.dataset = m_dataset->text().trimmed().toStdString();
    spec.datasetRegion = m_datasetRegion->text().trimmed().toStdString();
    spec.image = m_image->text().trimmed().toStdString();
    spec.results = itemsOf(m_results->text());
    spec.throughput.preset = m_speedPreset->currentData().toString().toStdString();
    spec.throughput.regex = m_speedRegex->text().toStdString();
    if (spec.throughput.preset == "custom") {
        spec.throughput.unit = m_throughputKept.unit;
        spec.throughput.perStep = m_throughputKept.perStep;
    }
    spec.tensorboardLogdir = m_tensorboardDir->text().trimmed().toStdString();
    spec.spot = spotFromForm();
    if (core::Status checked = core::checkRunSpec(spec); !checked) {
        return checked.error();
    }
    return spec;
}

void RunPage::updateListing()
{
    const QString dir = m_workdir->text().trimmed();
    if (dir.isEmpty()) {
        m_listing->clear();
        return;
    }
    m_listingJob.run(
        "list workdir",
        [dir] { return core::listWorkdir(dir.toStdString()); },
        [this](core::Result<core::WorkdirListing> listing) {
            if (!listing) {
                m_listing->setText(errorText(listing.error()));
                return;
            }
            m_listing->setText(runReasonText(core::Reason{
                "run.sync.listing",
                {{"files", std::to_string(listing->files.size())}, {"bytes", std::to_string(listing->bytes)}}}));
        });
}

void RunPage::refresh()
{
    m_reader.run(
        "read runs",
        [ledgerFile = m_ledgerFile]() -> core::Result<Snapshot> {
            core::Result<LedgerSnapshot> read = readLedger(ledgerFile, core::unixNow());
            if (!read) {
                return read.error();
            }
            Snapshot snapshot;
            for (const core::LedgerEntry& e : read->entries) {
                if (!core::isFinal(e.state) && e.intent.kind == core::LaunchKind::Instance) {
                    snapshot.launches.push_back(e);
                }
            }
            snapshot.runs = read->runs;
            snapshot.entries = read->entries;
            // A spot run's attempts and interruptions (readLedger makes no ledger when there is none).
            if (!snapshot.runs.empty()) {
                core::Result<std::unique_ptr<core::Ledger>> ledger = core::Ledger::open(ledgerFile);
                if (!ledger) {
                    return ledger.error();
                }
                core::Result<std::vector<core::RunAttempt>> attempts = (*ledger)->attempts();
                if (!attempts) {
                    return attempts.error();
                }
                snapshot.attempts = std::move(attempts).value();
            }
            return snapshot;
        },
        [this](core::Result<Snapshot> snapshot) {
            if (!snapshot) {
                m_status->setStatus(errorText(snapshot.error()), true);
                return;
            }
            m_snapshot = std::move(snapshot).value();
            fillRuns();
            updateSpotSection();
            showAttempts();
            // Started again while a run goes on: follow it (the newest).
            if (!m_followed && !m_job.isBusy()) {
                for (auto it = m_snapshot.runs.rbegin(); it != m_snapshot.runs.rend(); ++it) {
                    if (!core::isFinal(it->state)) {
                        attach(*it);
                        break;
                    }
                }
            }
        });
}

void RunPage::fillRuns()
{
    {
        const QSignalBlocker block(m_launch);
        const qlonglong chosen = m_launchToChoose ? m_launchToChoose : m_launch->currentData().toLongLong();
        m_launch->clear();
        m_launch->addItem(tr("Not one of my launches"), qlonglong(0));
        for (const core::LedgerEntry& entry : m_snapshot.launches) {
            m_launch->addItem(launchEntryText(entry), qlonglong(entry.id));
        }
        const int index = m_launch->findData(chosen);
        m_launch->setCurrentIndex(std::max(0, index));
        if (index >= 0) {
            m_launchToChoose = 0;
        }
    }
    fillHostFromLaunch();
    const QSignalBlocker block(m_runs);
    m_runs->clear();
    for (auto it = m_snapshot.runs.rbegin(); it != m_snapshot.runs.rend(); ++it) {
        const core::RunRecord& run = *it;
        const core::RunState state = m_followed && m_followed->id == run.id ? m_followed->state : run.state;
        m_runs->addItem(tr("Run %1 on %2: %3").arg(run.id).arg(q(run.host), runStateText(state)), qlonglong(run.id));
    }
    if (m_followed) {
        m_runs->setCurrentIndex(std::max(0, m_runs->findData(qlonglong(m_followed->id))));
    }
    showMeasurements();
    updateButtons();
}

void RunPage::fillHostFromLaunch()
{
    // The launch's own address and login user, unless a host was typed.
    for (const core::LedgerEntry& entry : m_snapshot.launches) {
        if (entry.id == m_launch->currentData().toLongLong() && m_host->text().trimmed().isEmpty()) {
            m_host->setText(q(core::sshHostOf(entry)));
        }
    }
}

void RunPage::chooseLaunch(std::int64_t entryId)
{
    m_launchToChoose = entryId;
    const int index = m_launch->findData(qlonglong(entryId));
    if (index >= 0) {
        m_launch->setCurrentIndex(index);
        m_launchToChoose = 0;
    }
    refresh();
}

void RunPage::followRun(std::int64_t runId)
{
    for (const core::RunRecord& run : m_snapshot.runs) {
        if (run.id == runId && (!m_followed || m_followed->id != runId)) {
            attach(run);
            fillRuns();
            return;
        }
    }
}

void RunPage::start()
{
    if (m_job.isBusy()) {
        return;
    }
    core::Result<core::RunSpec> spec = specFromForm();
    if (!spec) {
        m_status->setStatus(errorText(spec.error()), true);
        return;
    }
    core::Result<core::SshTarget> target = core::resolveSshTarget({m_host->text().trimmed().toStdString(),
                                                                   m_keyFile->text().trimmed().toStdString(),
                                                                   m_jump->text().trimmed().toStdString(),
                                                                   {}});
    if (!target) {
        m_status->setStatus(errorText(target.error()), true);
        m_host->setFocus();
        return;
    }
    core::RunRequest request;
    request.connection.target = *target;
    request.connection.knownHostsFile = m_knownHostsFile.toStdString();
    request.spec = *spec;
    request.launchId = m_launch->currentData().toLongLong();
    request.planId = m_planId;
    if (m_planned) {
        request.planned = *m_planned;
    }
    request.runScript = m_data ? m_data->runScript : std::string();
    request.ledgerFile = m_ledgerFile;
    request.sampleSeconds = 2;
    m_job.begin();
    m_log->clear();
    m_progress->setRange(0, 0);
    m_progress->setVisible(true);
    m_status->setStatus(tr("Connecting to %1…").arg(q(target->display())));
    m_job.run(
        "start run",
        [this,
         request = std::move(request),
         onProgress = m_job.onUiThread<core::RunProgress>([this](const core::RunProgress& p) {
             if (!p.note.empty()) {
                 m_status->setStatus(runReasonText(p.note));
             } else if (p.step == core::RunStep::Prepare) {
                 m_status->setStatus(tr("Preparing the run's folder on the instance…"));
             } else if (p.step == core::RunStep::Start) {
                 m_status->setStatus(tr("Starting the job…"));
             }
             if ((p.step == core::RunStep::Sync || p.step == core::RunStep::Dataset) && p.total > 0) {
                 m_progress->setRange(0, 1000);
                 m_progress->setValue(
                     static_cast<int>(1000.0 * static_cast<double>(p.done) / static_cast<double>(p.total)));
                 m_progress->setFormat(
                     tr("%1 of %2")
                         .arg(formatBytes(static_cast<double>(p.done)), formatBytes(static_cast<double>(p.total))));
             }
         })](PageJob::Token cancel) {
            UiThreadPrompter prompter(this, cancel, sshLoginAnswers(this));
            return core::startRun(request, prompter, cancel.get(), onProgress, core::unixNow());
        },
        [this](core::Result<core::RunRecord> started) {
            m_job.end();
            m_progress->setVisible(false);
            if (!started) {
                m_status->setStatus(tr("The run did not start: %1").arg(errorText(started.error())), true);
                refresh();
                return;
            }
            m_status->setStatus(
                tr("Run %1 started under %2 on %3.").arg(started->id).arg(q(started->method), q(started->host)));
            attach(*started);
            refresh();
            emit runsChanged();
        });
}

void RunPage::stopMonitor()
{
    if (m_monitor) {
        m_monitor->cancel(); // its SSH round trip or question ends now
        QMetaObject::invokeMethod(m_monitor, &RunMonitor::stop, Qt::QueuedConnection);
        m_monitor->deleteLater(); // in its thread, after stop
        m_monitor = nullptr;
    }
}

void RunPage::attach(const core::RunRecord& run)
{
    stopMonitor();
    m_tunnel.reset(); // TensorBoard of the run followed before
    m_followed = run;
    const core::Result<core::RunSpec> spec = core::runSpecOf(run);
    m_followedSpec = spec ? *spec : core::RunSpec{};
    m_samples.clear();
    m_notice.reset();
    m_recovering.reset();
    m_log->clear();
    redrawCharts();
    showMeasurements();
    showAttempts();
    m_adviceLabel->clear();
    // An ended run whose instance is gone (terminated, or reclaimed): what the ledger has, nothing to log in to.
    if (const core::LedgerEntry* launch = entryOf(run.launchId);
        core::isFinal(run.state) && launch && core::isFinal(launch->state)) {
        m_status->setStatus(tr("Run %1: %2.").arg(run.id).arg(runStateText(run.state, run.exitCode)),
                            run.state != core::RunState::Finished);
        updateButtons();
        return;
    }
    m_status->setStatus(tr("Connecting to run %1 on %2…").arg(run.id).arg(q(run.host)));
    RunMonitor::Recovery recovery;
    recovery.scriptsDir = m_scriptsDir;
    recovery.credentials = m_credentials;
    recovery.catalog =
        m_data && m_data->catalog ? std::shared_ptr<const core::Catalog>(m_data, &m_data->catalog->catalog) : nullptr;
    recovery.plan =
        m_plan && core::planIdOf(*m_plan) == run.planId ? std::make_shared<const core::PlanDocument>(*m_plan) : nullptr;
    m_monitor = new RunMonitor(run, m_ledgerFile, m_advice, m_pollSeconds, this, sshLoginAnswers(this), recovery);
    m_monitor->moveToThread(&m_monitorThread);
    connect(m_monitor, &RunMonitor::attached, this, [this](qint64 id) {
        if (m_followed && m_followed->id == id) {
            m_status->setStatus(tr("Following run %1.").arg(id));
        }
    });
    connect(m_monitor, &RunMonitor::polled, this, &RunPage::onPolled);
    connect(m_monitor, &RunMonitor::recovery, this, &RunPage::onRecovery);
    connect(m_monitor, &RunMonitor::failed, this, [this](qint64 id, const QString& message, bool lost) {
        if (m_followed && m_followed->id == id && m_recovering) {
            // The recovery failed: the ledger has the run as it left it (Interrupted where it gave up).
            m_recovering.reset();
            m_status->setStatus(tr("Run %1 was not recovered: %2").arg(id).arg(message), true);
            refresh();
            return;
        }
        if (m_followed && m_followed->id == id) {
            m_status->setStatus(lost ? tr("Lost the connection to run %1, trying again: %2").arg(id).arg(message)
                                     : tr("Cannot read run %1: %2").arg(id).arg(message),
                                true);
        }
    });
    QMetaObject::invokeMethod(m_monitor, &RunMonitor::start, Qt::QueuedConnection);
    updateButtons();
}

void RunPage::onPolled(qint64 id, const RunPoll& polled)
{
    if (!m_followed || m_followed->id != id) {
        return; // another run was chosen meanwhile
    }
    const bool wasFinal = core::isFinal(m_followed->state);
    m_followed = polled.record;
    m_samples = polled.samples;
    if (!polled.update.log.empty()) {
        m_log->moveCursor(QTextCursor::End);
        m_log->insertPlainText(
            QString::fromUtf8(polled.update.log.data(), static_cast<qsizetype>(polled.update.log.size())));
        m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
    }
    for (const core::Reason& problem : polled.update.problems) {
        m_status->setStatus(runReasonText(problem), true);
    }
    // A spot notice: said at once, and the ledger read again for the attempt it is kept with.
    const bool newNotice = polled.update.notice && (!m_notice || m_notice->seen != polled.update.notice->seen);
    if (polled.update.notice) {
        m_notice = polled.update.notice;
    }
    if (newNotice || polled.update.stateChanged) {
        refresh();
    }
    if (!m_chartsPaused) {
        redrawCharts();
    }
    showMeasurements();
    showAttempts();
    const core::RunAdvice& advice = polled.advice;
    if (advice.low) {
        QStringList causes;
        for (const core::Reason& cause : advice.causes) {
            causes << QStringLiteral("<li>%1</li>").arg(runReasonText(cause).toHtmlEscaped());
        }
        m_adviceLabel->setText(
            tr("<b>The GPUs have been %1 % busy for %2.</b> Likely why, from what was measured:")
                .arg(formatNumber(advice.meanUtilization, 0), durationText(core::unixNow() - advice.since))
            + QStringLiteral("<ul>%1</ul>").arg(causes.join(QString())));
    } else {
        m_adviceLabel->clear();
    }
    if (core::isFinal(m_followed->state)) {
        m_status->setStatus(tr("Run %1: %2.").arg(id).arg(runStateText(m_followed->state, m_followed->exitCode)),
                            m_followed->state != core::RunState::Finished);
        if (!wasFinal || polled.update.stateChanged) {
            keepAsCalibration();
            fillRuns();
            emit runsChanged();
        }
    } else if (m_status->isError()) {
        m_status->setStatus(tr("Following run %1.").arg(id));
    }
    updateButtons();
}

void RunPage::keepAsCalibration()
{
    if (!m_plan || !m_followed || m_followed->planId != m_planId) {
        return;
    }
    const std::optional<core::CalibrationCase> measured =
        core::calibrationCaseOf(*m_followed, *m_plan, core::todayUtc());
    if (!measured) {
        return;
    }
    // A file written to disk: on a worker, as everything slow.
    const QString finished =
        tr("Run %1 finished at %2; kept as your own calibration case, which plans use from the next "
           "start of GPU Planner.")
            .arg(m_followed->id)
            .arg(speedText(
                m_followed->measured.throughput, std::nullopt, std::nullopt, m_followed->measured.throughputUnit));
    m_calibrationJob.run(
        "keep calibration",
        [c = *measured] { return core::saveUserCalibration(c, core::userCalibrationDir()); },
        [this, finished](core::Result<std::filesystem::path> saved) {
            if (!saved) {
                m_status->setStatus(tr("The measured speed was not kept: %1").arg(errorText(saved.error())), true);
                return;
            }
            m_status->setStatus(finished);
        });
}

void RunPage::stop()
{
    if (!m_followed || m_job.isBusy()) {
        return;
    }
    const core::RunRecord run = *m_followed;
    m_job.begin();
    m_status->setStatus(tr("Stopping run %1: SIGINT, then SIGTERM after 30 s, then SIGKILL…").arg(run.id));
    m_job.run(
        "stop run",
        [this, run, ledgerFile = m_ledgerFile](PageJob::Token cancel) -> core::Status {
            UiThreadPrompter prompter(this, cancel, sshLoginAnswers(this));
            core::Result<std::unique_ptr<core::RunFollower>> follower =
                core::RunFollower::attach(run, ledgerFile, prompter, cancel.get());
            if (!follower) {
                return follower.error();
            }
            return (*follower)->stop(30, cancel.get());
        },
        [this](core::Status stopped) {
            m_job.end();
            if (!stopped) {
                m_status->setStatus(errorText(stopped.error()), true);
            }
            // Stopped or not, the monitor's next poll says how the run ended.
        });
}

void RunPage::downloadResults()
{
    if (!m_followed || m_job.isBusy()) {
        return;
    }
    QString into;
    if (const std::optional<QVariant> next = Questions::takeNextAnswer(Question::FileName)) {
        into = next->toString();
    } else {
        into = QFileDialog::getExistingDirectory(
            this, tr("Bring the results home into"), QDir::home().filePath(QStringLiteral("gpuplan-results")));
    }
    if (into.isEmpty()) {
        return;
    }
    const core::RunRecord run = *m_followed;
    m_job.begin();
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_status->setStatus(tr("Bringing the results of run %1 home…").arg(run.id));
    m_job.run(
        "download results",
        [this,
         run,
         into,
         ledgerFile = m_ledgerFile,
         onProgress =
             m_job.onUiThread<std::uintmax_t, std::uintmax_t>([this](std::uintmax_t done, std::uintmax_t total) {
                 if (total > 0) {
                     m_progress->setValue(
                         static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)));
                     m_progress->setFormat(
                         tr("%1 of %2")
                             .arg(formatBytes(static_cast<double>(done)), formatBytes(static_cast<double>(total))));
                 }
             })](PageJob::Token cancel) -> core::Result<core::ResultsDownload> {
            UiThreadPrompter prompter(this, cancel, sshLoginAnswers(this));
            core::Result<std::unique_ptr<core::RunFollower>> follower =
                core::RunFollower::attach(run, ledgerFile, prompter, cancel.get());
            if (!follower) {
                return follower.error();
            }
            return core::downloadResults(**follower, into.toStdString(), onProgress, cancel.get(), core::unixNow());
        },
        [this](core::Result<core::ResultsDownload> got) {
            m_job.end();
            m_progress->setVisible(false);
            if (!got) {
                m_status->setStatus(tr("The results did not come home: %1").arg(errorText(got.error())), true);
                return;
            }
            QString text = tr("%n file(s) brought home into %1, checked against their SHA-256 (SHA256SUMS).",
                              nullptr,
                              static_cast<int>(got->files.size()))
                               .arg(q(got->folder.string()));
            for (const std::string& missing : got->missing) {
                text += QLatin1Char('\n') + tr("The instance has no %1.").arg(q(missing));
            }
            m_status->setStatus(text, !got->missing.empty());
            if (m_followed) {
                m_followed->resultsDir = got->folder.string();
                m_followed->resultsAt = core::unixNow();
            }
            refresh();
            emit runsChanged();
        });
}

void RunPage::openTensorboard()
{
    if (!m_followed || m_job.isBusy()) {
        return;
    }
    const core::RunRecord run = *m_followed;
    m_job.begin();
    m_status->setStatus(tr("Starting TensorBoard on the instance…"));
    m_job.run(
        "open tensorboard",
        [this, run](PageJob::Token cancel) -> core::Result<std::shared_ptr<core::SshTunnel>> {
            UiThreadPrompter prompter(this, cancel, sshLoginAnswers(this));
            core::Result<std::unique_ptr<core::SshTunnel>> tunnel = core::openTensorboard(run, prompter, cancel.get());
            if (!tunnel) {
                return tunnel.error();
            }
            return std::shared_ptr<core::SshTunnel>(std::move(tunnel).value());
        },
        [this](core::Result<std::shared_ptr<core::SshTunnel>> tunnel) {
            m_job.end();
            if (!tunnel) {
                m_status->setStatus(errorText(tunnel.error()), true);
                return;
            }
            const QString url = QStringLiteral("http://127.0.0.1:%1/").arg((*tunnel)->localPort());
            // The tunnel lives as long as the page follows this run (a new run, or the page closing, ends it).
            m_tunnel = std::move(tunnel).value();
            m_status->setStatus(tr("TensorBoard: %1 (forwarded over SSH while this page follows the run)").arg(url));
            QDesktopServices::openUrl(QUrl(url));
        });
}

void RunPage::updateButtons()
{
    const bool busy = m_job.isBusy();
    const bool running = m_followed && !core::isFinal(m_followed->state);
    m_startButton->setEnabled(!busy && m_data);
    m_stopButton->setEnabled(!busy && running);
    m_downloadButton->setEnabled(!busy && m_followed.has_value());
    m_tensorboardButton->setEnabled(!busy && running && !m_followedSpec.tensorboardLogdir.empty());
    m_pauseButton->setEnabled(m_followed.has_value());
}

void RunPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWidget::changeEvent(event);
}

} // namespace gpuplan::ui
