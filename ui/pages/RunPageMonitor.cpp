// The Run page's words and what it shows of the run followed: planned against measured, the dead-man's time, and
// the GPUs' charts over the last 30 minutes.
#include "pages/RunPage.h"

#include "widgets/StatusLabel.h"
#include "wording/Format.h"
#include "wording/RunText.h"

#include "gpuplan/net/Clock.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace gpuplan::ui {

namespace {

/// One line per GPU of `value` over the samples, on a time axis of the last 30 minutes.
void drawSeries(QChart* chart,
                const std::vector<core::MonitorSample>& samples,
                const QString& title,
                const QString& unit,
                std::optional<double> (*value)(const core::GpuReading&),
                std::optional<double> ceiling)
{
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    chart->setTitle(title);
    std::map<int, QLineSeries*> lines;
    double top = ceiling.value_or(1);
    for (const core::MonitorSample& sample : samples) {
        for (const core::GpuReading& gpu : sample.gpus) {
            const std::optional<double> v = value(gpu);
            if (!v) {
                continue;
            }
            QLineSeries*& line = lines[gpu.index];
            if (!line) {
                line = new QLineSeries;
                line->setName(RunPage::tr("GPU %1").arg(gpu.index));
            }
            line->append(static_cast<qreal>(sample.at) * 1000.0, *v);
            top = std::max(top, *v);
        }
    }
    auto* time = new QDateTimeAxis;
    time->setTickCount(3);
    // The run so far, at most its last 30 minutes (and at least a minute).
    const std::int64_t last = samples.empty() ? core::unixNow() : samples.back().at;
    const std::int64_t first = samples.empty() ? last : std::max(samples.front().at, last - 30 * 60);
    const std::int64_t from = std::min(first, last - 60);
    time->setFormat(last - from > 10 * 60 ? QStringLiteral("HH:mm") : QStringLiteral("mm:ss"));
    time->setRange(QDateTime::fromSecsSinceEpoch(from), QDateTime::fromSecsSinceEpoch(last));
    auto* axis = new QValueAxis;
    axis->setRange(0, ceiling ? *ceiling : top * 1.1);
    axis->setTitleText(unit);
    axis->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(time, Qt::AlignBottom);
    chart->addAxis(axis, Qt::AlignLeft);
    for (auto& [index, line] : lines) {
        chart->addSeries(line);
        line->attachAxis(time);
        line->attachAxis(axis);
    }
    chart->legend()->setVisible(lines.size() > 1);
}

} // namespace

/// "742 samples/s"; "742 (600–1000) samples/s" with a range.
QString RunPage::speedText(std::optional<double> value,
                           std::optional<double> low,
                           std::optional<double> high,
                           const std::string& unit)
{
    if (!value) {
        return RunPage::tr("unknown");
    }
    const QString per = unit == "tokens"  ? RunPage::tr("tokens/s")
                        : unit == "steps" ? RunPage::tr("steps/s")
                                          : RunPage::tr("samples/s");
    if (low && high && *high > *low) {
        return RunPage::tr("%1 (%2–%3) %4")
            .arg(formatNumber(*value, *value < 100 ? 1 : 0),
                 formatNumber(*low, *low < 100 ? 1 : 0),
                 formatNumber(*high, *high < 100 ? 1 : 0),
                 per);
    }
    return RunPage::tr("%1 %2").arg(formatNumber(*value, *value < 100 ? 1 : 0), per);
}

void RunPage::retranslate()
{
    m_machineBox->setTitle(tr("Machine"));
    m_launchLabel->setText(tr("Launch:"));
    m_launch->setToolTip(tr("The instance from the ledger: its dead-man and price are shown with the run."));
    m_hostLabel->setText(tr("Host:"));
    m_host->setPlaceholderText(tr("ubuntu@203.0.113.7, user@host:2222, or a Host of ~/.ssh/config"));
    m_keyLabel->setText(tr("Key file:"));
    m_keyFile->setPlaceholderText(tr("empty: ssh-agent, then ~/.ssh"));
    m_jumpLabel->setText(tr("Jump host:"));
    m_jump->setPlaceholderText(tr("USER@HOST[:PORT], if the instance is reached through one"));
    m_specBox->setTitle(tr("Run"));
    m_workdirLabel->setText(tr("Working directory:"));
    m_workdir->setPlaceholderText(tr("the folder with your training code"));
    m_workdir->setToolTip(tr("Sent to the instance with rsync over SSH (or SFTP); what .gitignore lists stays here."));
    m_browseWorkdir->setText(tr("Browse…"));
    m_commandLabel->setText(tr("Command:"));
    m_command->setPlaceholderText(tr("python train.py --epochs 90 --amp"));
    m_setupLabel->setText(tr("Setup:"));
    m_setup->setPlaceholderText(tr("commands run first, one per line (pip install -r requirements.txt)"));
    m_datasetLabel->setText(tr("Dataset:"));
    m_dataset->setPlaceholderText(tr("a local folder, or s3:// cos:// oss:// obs:// gs:// az:// (in $GPUPLAN_DATA)"));
    m_datasetRegion->setPlaceholderText(tr("its region"));
    m_datasetRegion->setToolTip(tr("The bucket's region (e.g. ap-beijing, us-east-1): a bucket in another region than "
                                   "the instance is said before the run starts."));
    m_imageLabel->setText(tr("Container image:"));
    m_image->setPlaceholderText(tr("empty: the instance's own Python; or nvcr.io/nvidia/pytorch:24.05-py3"));
    m_resultsLabel->setText(tr("Results:"));
    m_results->setPlaceholderText(tr("paths brought home, comma-separated: checkpoints, metrics.json"));
    m_speedLabel->setText(tr("Speed in the log:"));
    m_speedPreset->setItemText(0, tr("not read"));
    m_speedPreset->setItemText(1, tr("PyTorch Lightning"));
    m_speedPreset->setItemText(2, tr("Hugging Face Trainer"));
    m_speedPreset->setItemText(3, tr("timm"));
    m_speedPreset->setItemText(4, tr("Ultralytics"));
    m_speedPreset->setItemText(5, tr("my own pattern"));
    m_speedRegex->setPlaceholderText(tr("([0-9.]+) samples/s"));
    m_tensorboardLabel->setText(tr("TensorBoard logs:"));
    m_tensorboardDir->setPlaceholderText(tr("runs, lightning_logs… (in the working directory)"));
    m_startButton->setText(tr("Start the run"));
    m_runLabel->setText(tr("Run:"));
    m_stopButton->setText(tr("Stop"));
    m_stopButton->setToolTip(tr("SIGINT (your code can save a checkpoint), SIGTERM after 30 s, then SIGKILL."));
    m_downloadButton->setText(tr("Bring results home…"));
    m_downloadButton->setToolTip(tr("Download the result paths, the whole log and the GPU samples: resumable, "
                                    "checked with SHA-256."));
    m_tensorboardButton->setText(tr("Open TensorBoard"));
    m_tensorboardButton->setToolTip(tr("Started on the instance if needed and forwarded over SSH to this computer."));
    m_pauseButton->setText(tr("Pause charts"));
    m_pauseButton->setToolTip(tr("Freeze the charts to look closer (drag to zoom, right-click to zoom out)."));
    m_versus->setHorizontalHeaderLabels({tr("Planned"), tr("Measured")});
    m_versus->setVerticalHeaderLabels({tr("Speed"), tr("Time"), tr("Cost"), tr("GPU busy")});
    for (int i = 0; i < m_speedPreset->count(); ++i) {
        m_speedPreset->setItemData(i, m_speedPreset->itemText(i), Qt::ToolTipRole);
    }
    if (m_followed && !m_status->isError() && !m_job.isBusy()) {
        m_status->setStatus(
            core::isFinal(m_followed->state)
                ? tr("Run %1: %2.").arg(m_followed->id).arg(runStateText(m_followed->state, m_followed->exitCode))
                : tr("Following run %1.").arg(m_followed->id));
    }
    fillRuns();
    redrawCharts();
    retranslateSpot();
}

void RunPage::showMeasurements()
{
    auto set = [this](int row, int column, const QString& text) {
        auto* item = m_versus->item(row, column);
        if (!item) {
            item = new QTableWidgetItem;
            m_versus->setItem(row, column, item);
        }
        item->setText(text);
    };
    const core::PlannedRun planned = m_followed ? m_followed->planned : m_planned.value_or(core::PlannedRun{});
    const std::optional<core::MeasuredRun> measured =
        m_followed ? std::optional<core::MeasuredRun>(m_followed->measured) : std::nullopt;
    set(0, 0, speedText(planned.throughput, planned.throughputLow, planned.throughputHigh, planned.throughputUnit));
    set(1,
        0,
        planned.hours ? tr("%1 (%2–%3)")
                            .arg(formatHours(*planned.hours),
                                 formatHours(planned.hoursLow.value_or(*planned.hours)),
                                 formatHours(planned.hoursHigh.value_or(*planned.hours)))
                      : tr("unknown"));
    set(2, 0, planned.cost ? formatMoney(*planned.cost, QString::fromStdString(planned.currency)) : tr("unknown"));
    set(3, 0, tr("over 70 %"));
    if (!measured) {
        for (int row = 0; row < 4; ++row) {
            set(row, 1, QString());
        }
    } else {
        set(0, 1, speedText(measured->throughput, std::nullopt, std::nullopt, measured->throughputUnit));
        // A recovered run: its whole time, and what every instance it ran on cost.
        const bool several = m_runTotals && m_runTotals->attempts > 1;
        set(1, 1, tr("%1 so far").arg(formatHours(several ? m_runTotals->hours : measured->hours)));
        if (several) {
            set(2,
                1,
                m_runTotals->cost
                    ? tr("%1 on %2 instances")
                          .arg(formatMoney(*m_runTotals->cost, QString::fromStdString(m_runTotals->currency)))
                          .arg(m_runTotals->attempts)
                    : tr("unknown: an instance's price is not known"));
        } else {
            set(2,
                1,
                measured->cost
                    ? tr("%1 so far").arg(formatMoney(*measured->cost, QString::fromStdString(measured->costCurrency)))
                    : tr("unknown: the instance is not from the ledger"));
        }
        set(3,
            1,
            measured->gpuUtilization ? tr("%1 %").arg(formatNumber(*measured->gpuUtilization, 0)) : tr("unknown"));
        // Outside the plan's range: in the error colour, so that it shows.
        const bool slow = measured->throughput && planned.throughputLow
                          && measured->throughputUnit == planned.throughputUnit
                          && *measured->throughput < *planned.throughputLow;
        const bool fast = measured->throughput && planned.throughputHigh
                          && measured->throughputUnit == planned.throughputUnit
                          && *measured->throughput > *planned.throughputHigh;
        m_versus->item(0, 1)->setForeground(slow   ? QColor(0xc6, 0x28, 0x28)
                                            : fast ? QColor(0x2e, 0x7d, 0x32)
                                                   : QColor());
        m_versus->item(0, 1)->setToolTip(slow   ? tr("Slower than the plan's range")
                                         : fast ? tr("Faster than the plan's range")
                                                : QString());
    }
    // The dead-man of the launch it runs on, and its warning 15 minutes before.
    m_deadman->clear();
    if (m_followed && m_followed->launchId != 0) {
        for (const core::LedgerEntry& entry : m_snapshot.launches) {
            if (entry.id != m_followed->launchId) {
                continue;
            }
            if (const std::optional<std::int64_t> left = core::secondsUntilDeadman(entry, core::unixNow())) {
                const QString in = formatHours(static_cast<double>(*left) / 3600.0);
                if (*left <= 15 * 60) {
                    m_deadman->setText(tr("<b>The dead-man terminates this instance in %1:</b> bring the results "
                                          "home now.")
                                           .arg(in));
                    m_deadman->setStyleSheet(QStringLiteral("color: #c62828;"));
                } else {
                    m_deadman->setText(tr("The dead-man terminates this instance in %1 (a warning shows here 15 "
                                          "minutes before).")
                                           .arg(in));
                    m_deadman->setStyleSheet(QString());
                }
            }
        }
    }
}

void RunPage::redrawCharts()
{
    drawSeries(
        m_utilizationView->chart(),
        m_samples,
        tr("GPU busy"),
        tr("%"),
        [](const core::GpuReading& g) { return g.utilization; },
        100.0);
    drawSeries(
        m_memoryView->chart(),
        m_samples,
        tr("GPU memory"),
        tr("GiB"),
        [](const core::GpuReading& g) {
            return g.memoryUsedMiB ? std::optional<double>(*g.memoryUsedMiB / 1024.0) : std::nullopt;
        },
        std::nullopt);
    drawSeries(
        m_powerView->chart(),
        m_samples,
        tr("Power"),
        tr("W"),
        [](const core::GpuReading& g) { return g.powerW; },
        std::nullopt);
}

} // namespace gpuplan::ui
