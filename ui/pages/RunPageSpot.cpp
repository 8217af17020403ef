// The Run page's spot handling (issue 27): the form's section (the interruption watcher, the checkpoint bucket, the
// relaunch and resume, the periodic sync at the plan's Daly interval), the starter script, and what the run followed
// went through: its attempts on a timeline and in a table, its totals against the plan's spot percentiles, a notice
// the moment a poll sees it, and the recovery's current step. Everything shown comes from the ledger, so a program
// started again shows the same.
#include "pages/RunPage.h"

#include "Questions.h"
#include "widgets/RunTimeline.h"
#include "widgets/StatusLabel.h"
#include "wording/ErrorText.h"
#include "wording/Format.h"
#include "wording/PlanText.h"
#include "wording/ProviderText.h"
#include "wording/RecoveryText.h"
#include "wording/RunText.h"

#include "gpuplan/net/Clock.h"
#include "gpuplan/plan/PlanDocument.h"
#include "gpuplan/run/StarterScript.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <fstream>
#include <sstream>

namespace gpuplan::ui {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

QString dateTimeText(std::int64_t unix)
{
    return QLocale().toString(QDateTime::fromSecsSinceEpoch(unix), QStringLiteral("yyyy-MM-dd HH:mm"));
}

const QString kErrorStyle = QStringLiteral("color: #c62828;");

/// The starter script made from `plan` and the template in `scriptsDir`, written as `dir`/train.py; the spec to run it.
core::Result<core::RunSpec>
writeStarter(const core::PlanDocument& plan, const std::filesystem::path& scriptsDir, const std::filesystem::path& dir)
{
    const std::filesystem::path templateFile = scriptsDir / core::kStarterTemplateFile;
    std::ifstream in(templateFile, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in || text.str().empty()) {
        return frontEndError(core::ErrorCode::FileNotFound,
                             RunPage::tr("cannot read the starter script's template"),
                             templateFile.string());
    }
    const core::StarterSettings settings = core::starterSettingsOf(plan);
    core::Result<std::string> script = core::starterScript(settings, text.str());
    if (!script) {
        return script.error();
    }
    const std::filesystem::path file = dir / core::kStarterScriptFile;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << *script;
    out.close();
    if (!out) {
        return frontEndError(core::ErrorCode::FileUnreadable, RunPage::tr("cannot write the file"), file.string());
    }
    return core::starterRunSpec(settings, dir.string());
}

} // namespace

void RunPage::buildSpotSection()
{
    m_spotBox = new QGroupBox(this);
    m_spotWhy = new QLabel(this);
    m_spotWatch = new QCheckBox(this);
    m_spotRecover = new QCheckBox(this);
    m_bucketLabel = new QLabel(this);
    m_bucket = new QLineEdit(this);
    m_bucketRegion = new QLineEdit(this);
    m_bucketProblem = new QLabel(this);
    m_regionNote = new QLabel(this);
    m_checkpointLabel = new QLabel(this);
    m_checkpointDir = new QLineEdit(this);
    m_onDemandLabel = new QLabel(this);
    m_onDemandAfter = new QSpinBox(this);
    m_syncLine = new QLabel(this);
    m_starterButton = new QPushButton(this);
    m_spotBanner = new QLabel(this);
    m_attemptsBox = new QGroupBox(this);
    m_timeline = new RunTimeline(this);
    m_attempts = new QTableWidget(0, 5, this);
    m_totals = new QLabel(this);

    m_spotBox->setObjectName(QStringLiteral("runSpotGroup"));
    m_spotWhy->setObjectName(QStringLiteral("runSpotWhyLabel"));
    m_spotWatch->setObjectName(QStringLiteral("runSpotWatchCheckBox"));
    m_spotRecover->setObjectName(QStringLiteral("runSpotRecoverCheckBox"));
    m_bucket->setObjectName(QStringLiteral("runCheckpointBucketEdit"));
    m_bucketRegion->setObjectName(QStringLiteral("runCheckpointRegionEdit"));
    m_bucketProblem->setObjectName(QStringLiteral("runCheckpointBucketProblemLabel"));
    m_regionNote->setObjectName(QStringLiteral("runCheckpointRegionNoteLabel"));
    m_checkpointDir->setObjectName(QStringLiteral("runCheckpointDirEdit"));
    m_onDemandAfter->setObjectName(QStringLiteral("runOnDemandAfterSpinBox"));
    m_syncLine->setObjectName(QStringLiteral("runCheckpointSyncLabel"));
    m_starterButton->setObjectName(QStringLiteral("runWriteStarterButton"));
    m_spotBanner->setObjectName(QStringLiteral("runSpotBannerLabel"));
    m_attemptsBox->setObjectName(QStringLiteral("runAttemptsGroup"));
    m_timeline->setObjectName(QStringLiteral("runTimeline"));
    m_attempts->setObjectName(QStringLiteral("runAttemptsTable"));
    m_totals->setObjectName(QStringLiteral("runTotalsLabel"));

    for (QLabel* label : {m_spotWhy, m_bucketProblem, m_regionNote, m_syncLine, m_spotBanner, m_totals}) {
        label->setWordWrap(true);
    }
    m_bucketProblem->setStyleSheet(kErrorStyle);
    m_bucketProblem->setVisible(false);
    m_regionNote->setVisible(false);
    m_spotWhy->setVisible(false);
    m_bucketRegion->setMaximumWidth(140);
    m_checkpointDir->setText(QStringLiteral("checkpoints"));
    m_onDemandAfter->setRange(0, 49);
    m_spotBanner->setVisible(false);
    m_spotBanner->setStyleSheet(
        QStringLiteral("QLabel { background: #fff3e0; color: #8a3c00; border: 1px solid #ef6c00; padding: 4px; }"));
    m_attempts->verticalHeader()->setVisible(false);
    m_attempts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_attempts->setSelectionMode(QAbstractItemView::NoSelection);
    // One line a row (the full text is its tooltip), so that the table's height fits its rows.
    m_attempts->setWordWrap(false);
    m_attempts->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_attempts->horizontalHeader()->setStretchLastSection(true);
    m_attempts->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_attempts->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_attemptsBox->setVisible(false);

    auto* spot = new QFormLayout(m_spotBox);
    spot->addRow(m_spotWhy);
    spot->addRow(m_spotWatch);
    spot->addRow(m_spotRecover);
    auto* bucketRow = new QHBoxLayout;
    bucketRow->addWidget(m_bucket, 1);
    bucketRow->addWidget(m_bucketRegion);
    spot->addRow(m_bucketLabel, bucketRow);
    spot->addRow(QString(), m_bucketProblem);
    spot->addRow(QString(), m_regionNote);
    spot->addRow(m_checkpointLabel, m_checkpointDir);
    spot->addRow(m_onDemandLabel, m_onDemandAfter);
    spot->addRow(m_syncLine);
    spot->addRow(m_starterButton);

    auto* attempts = new QVBoxLayout(m_attemptsBox);
    attempts->setContentsMargins(6, 4, 6, 4);
    attempts->addWidget(m_totals);
    attempts->addWidget(m_timeline);
    attempts->addWidget(m_attempts);

    auto changed = [this] { updateSpotSection(); };
    connect(m_spotWatch, &QCheckBox::toggled, this, changed);
    connect(m_spotRecover, &QCheckBox::toggled, this, [this](bool on) {
        if (on) {
            m_spotWatch->setChecked(true); // recovery resumes from what the watcher synced
        }
        updateSpotSection();
    });
    connect(m_bucket, &QLineEdit::textChanged, this, changed);
    connect(m_bucketRegion, &QLineEdit::textChanged, this, changed);
    connect(m_checkpointDir, &QLineEdit::textChanged, this, changed);
    connect(m_starterButton, &QPushButton::clicked, this, &RunPage::writeStarterScript);
}

void RunPage::retranslateSpot()
{
    m_spotBox->setTitle(tr("Spot interruptions"));
    m_spotWatch->setText(tr("Survive spot interruptions"));
    m_spotWatch->setToolTip(tr("A watcher beside the job polls the provider's interruption notice, signals your "
                               "program to checkpoint, and copies the checkpoint folder to the bucket."));
    m_spotRecover->setText(tr("Relaunch and resume when the instance is reclaimed"));
    m_spotRecover->setToolTip(tr("A new instance in the plan's fallback order (the same zone, the region's other "
                                 "zones, the plan's other regions and providers), the job started again from the "
                                 "bucket's newest checkpoint."));
    m_bucketLabel->setText(tr("Checkpoint bucket:"));
    m_bucket->setPlaceholderText(tr("s3:// gs:// oss:// cos:// obs:// az://"));
    m_bucketRegion->setPlaceholderText(tr("its region"));
    m_checkpointLabel->setText(tr("Checkpoint folder:"));
    m_checkpointDir->setToolTip(tr("Where your program writes its checkpoints, in the working directory "
                                   "($GPUPLAN_CHECKPOINT_DIR)."));
    m_onDemandLabel->setText(tr("On demand after:"));
    m_onDemandAfter->setSpecialValueText(tr("never"));
    m_onDemandAfter->setSuffix(tr(" interruption(s)"));
    m_onDemandAfter->setToolTip(tr("From this many interruptions on, the relaunch is on demand (0: always spot)."));
    m_starterButton->setText(tr("Write a starter script…"));
    m_starterButton->setToolTip(tr("train.py for this plan (PyTorch, checkpoints on the interruption signal, resumes "
                                   "from the newest): replace its model and data sections with yours."));
    m_attemptsBox->setTitle(tr("Attempts and interruptions"));
    m_attempts->setHorizontalHeaderLabels({tr("Attempt"), tr("Where"), tr("Started"), tr("Ended"), tr("How it ended")});
    updateSpotSection();
    showAttempts();
}

void RunPage::fillSpot(const core::SpotHandling& spot)
{
    m_spotKept = spot;
    m_spotWatch->setChecked(spot.watch || spot.recover);
    m_spotRecover->setChecked(spot.recover);
    m_bucket->setText(q(spot.bucket));
    m_bucketRegion->setText(q(spot.bucketRegion));
    m_checkpointDir->setText(q(spot.checkpointDir));
    m_onDemandAfter->setValue(spot.onDemandAfter);
    updateSpotSection();
}

core::SpotHandling RunPage::spotFromForm() const
{
    core::SpotHandling spot = m_spotKept;
    spot.watch = m_spotWatch->isChecked() || m_spotRecover->isChecked();
    spot.recover = m_spotRecover->isChecked();
    spot.bucket = m_bucket->text().trimmed().toStdString();
    spot.bucketRegion = m_bucketRegion->text().trimmed().toStdString();
    spot.checkpointDir = m_checkpointDir->text().trimmed().toStdString();
    spot.onDemandAfter = m_onDemandAfter->value();
    return spot;
}

const core::LedgerEntry* RunPage::entryOf(std::int64_t launchId) const
{
    for (const core::LedgerEntry& entry : m_snapshot.entries) {
        if (entry.id == launchId && launchId != 0) {
            return &entry;
        }
    }
    return nullptr;
}

void RunPage::updateSpotSection()
{
    if (!m_spotBox) {
        return;
    }
    const core::SpotHandling spot = spotFromForm();
    // A launch of the ledger that is not spot cannot be reclaimed: the section is greyed, and says why.
    const core::LedgerEntry* launch = entryOf(m_launch->currentData().toLongLong());
    const bool onDemand = launch && launch->intent.pricingMode != "spot";
    m_spotWhy->setVisible(onDemand);
    if (onDemand) {
        m_spotWhy->setText(tr("The chosen launch is not a spot instance (%1): it is not reclaimed, so there is "
                              "nothing to survive.")
                               .arg(pricingModeText(q(launch->intent.pricingMode))));
    }
    m_spotWatch->setEnabled(!onDemand);
    m_spotRecover->setEnabled(!onDemand && m_spotWatch->isChecked());
    const bool on = !onDemand && spot.watch;
    for (QWidget* w : std::initializer_list<QWidget*>{m_bucket, m_bucketRegion, m_checkpointDir, m_onDemandAfter}) {
        w->setEnabled(on);
    }
    m_onDemandAfter->setEnabled(on && spot.recover);

    // The bucket, checked as the run will be: a bad one is said beside the field, by its name.
    m_bucketProblem->clear();
    if (on && !spot.bucket.empty()) {
        core::RunSpec probe;
        probe.command = "true";
        probe.spot = spot;
        if (const core::Status checked = core::checkRunSpec(probe); !checked) {
            const QString field =
                checked.error().where == "--checkpoint-bucket" ? tr("Checkpoint bucket") : tr("Checkpoint folder");
            m_bucketProblem->setText(tr("%1: %2").arg(field, errorText(checked.error())));
        }
    }
    m_bucketProblem->setVisible(!m_bucketProblem->text().isEmpty());

    // The bucket in another region than the instance: every checkpoint crosses regions, billed as egress.
    const std::string instanceRegion = launch ? launch->intent.region : std::string();
    const bool elsewhere =
        on && !spot.bucketRegion.empty() && !instanceRegion.empty() && spot.bucketRegion != instanceRegion;
    m_regionNote->setVisible(elsewhere);
    if (elsewhere) {
        m_regionNote->setText(tr("The bucket is in %1, the instance in %2: every checkpoint crosses regions, and "
                                 "traffic between regions is billed.")
                                  .arg(q(spot.bucketRegion), q(instanceRegion)));
    }

    // The periodic sync: the spec's own interval, else the plan's Daly optimum, else only on a notice.
    const core::PlannedRun planned = m_planned.value_or(core::PlannedRun{});
    const int every = core::syncEverySecondsOf(spot, planned);
    if (spot.syncEverySeconds > 0) {
        m_syncLine->setText(tr("Checkpoints go to the bucket every %1 (the run's setting), and at once on a notice.")
                                .arg(formatHours(spot.syncEverySeconds / 3600.0)));
    } else if (every > 0) {
        m_syncLine->setText(tr("Checkpoints go to the bucket every %1: Daly's optimum checkpoint interval for this "
                               "plan's spot interruption rate, and at once on a notice.")
                                .arg(formatHours(every / 3600.0)));
    } else {
        m_syncLine->setText(tr("Checkpoints go to the bucket only on a notice and at the end (the plan has no "
                               "spot checkpoint interval)."));
    }
    m_syncLine->setEnabled(on);
}

void RunPage::writeStarterScript()
{
    if (!m_plan) {
        m_status->setStatus(tr("Open a plan first: the starter script is made from it."), true);
        return;
    }
    QString dir;
    if (const std::optional<QVariant> next = Questions::takeNextAnswer(Question::FileName)) {
        dir = next->toString();
    } else {
        dir = QFileDialog::getExistingDirectory(this, tr("Write train.py into"), m_workdir->text());
    }
    if (dir.isEmpty()) {
        return;
    }
    const QString file = QDir(dir).filePath(QString::fromLatin1(core::kStarterScriptFile));
    if (QFileInfo::exists(file)) {
        const auto answer =
            QMessageBox::question(this,
                                  tr("Replace train.py?"),
                                  tr("%1 exists. Replace it with the starter script? Your file is lost.").arg(file),
                                  QMessageBox::Yes | QMessageBox::No,
                                  QMessageBox::No);
        if (answer != QMessageBox::Yes) {
            m_status->setStatus(tr("train.py was left as it is."));
            return;
        }
    }
    const core::Result<core::RunSpec> spec = writeStarter(*m_plan, m_scriptsDir, dir.toStdString());
    if (!spec) {
        m_status->setStatus(tr("The starter script was not written: %1").arg(errorText(spec.error())), true);
        return;
    }
    m_workdir->setText(dir);
    m_command->setText(q(spec->command));
    m_speedPreset->setCurrentIndex(std::max(0, m_speedPreset->findData(q(spec->throughput.preset))));
    m_speedRegex->setText(q(spec->throughput.regex));
    m_throughputKept = spec->throughput;
    m_results->setText(q(spec->results.empty() ? std::string() : spec->results.front()));
    m_checkpointDir->setText(q(spec->spot.checkpointDir));
    m_spotKept.signal = spec->spot.signal;
    updateListing();
    m_status->setStatus(
        tr("%1 written: replace its model and data sections with yours; the command and the speed pattern are set.")
            .arg(file));
}

void RunPage::showAttempts()
{
    if (!m_attemptsBox) {
        return;
    }
    std::vector<core::RunAttempt> attempts;
    if (m_followed) {
        for (const core::RunAttempt& a : m_snapshot.attempts) {
            if (a.runId == m_followed->id) {
                attempts.push_back(a);
            }
        }
    }
    const core::Result<core::RunSpec> spec =
        m_followed ? core::runSpecOf(*m_followed) : core::Result<core::RunSpec>(core::RunSpec{});
    const bool spotRun = spec && (spec->spot.watch || spec->spot.recover);
    const bool show = m_followed && (spotRun || attempts.size() > 1);
    m_attemptsBox->setVisible(show);

    // The banner: the recovery's current step while it recovers, else a notice the run's last poll saw.
    QString banner;
    if (m_followed && m_followed->state == core::RunState::Recovering) {
        banner = m_recovering ? tr("Recovering: %1").arg(recoveryProgressText(*m_recovering))
                              : tr("Recovering: the spot instance was reclaimed.");
    } else if (m_followed && m_notice && !core::isFinal(m_followed->state)) {
        banner = spotNoticeText(*m_notice);
    } else if (m_followed && m_notice && m_followed->state == core::RunState::Interrupted) {
        banner = spotNoticeText(*m_notice);
    }
    m_spotBanner->setText(banner);
    m_spotBanner->setVisible(!banner.isEmpty());
    if (!show) {
        m_runTotals.reset();
        return;
    }
    const std::int64_t now = core::unixNow();
    m_timeline->setAttempts(attempts, now);
    m_attempts->setRowCount(static_cast<int>(attempts.size()));
    for (int row = 0; row < static_cast<int>(attempts.size()); ++row) {
        const core::RunAttempt& a = attempts[static_cast<std::size_t>(row)];
        QString where = a.host.empty() ? tr("not launched by GPU Planner") : q(a.host);
        if (const core::LedgerEntry* entry = entryOf(a.launchId)) {
            const std::string& place = entry->intent.zone.empty() ? entry->intent.region : entry->intent.zone;
            where = tr("%1 %2, %3")
                        .arg(providerDisplayName(entry->intent.provider),
                             q(place),
                             pricingModeText(q(entry->intent.pricingMode)));
        }
        const QStringList cells{QString::number(a.number),
                                where,
                                dateTimeText(a.startedAt),
                                a.endedAt ? dateTimeText(*a.endedAt) : QString(),
                                attemptEndText(a)};
        for (int column = 0; column < cells.size(); ++column) {
            auto* item = m_attempts->item(row, column);
            if (!item) {
                item = new QTableWidgetItem;
                m_attempts->setItem(row, column, item);
            }
            item->setText(cells[column]);
            item->setToolTip(cells[column]);
        }
    }
    // As high as its rows (at most four; a wrapped row is higher), so that the charts keep their room.
    m_attempts->resizeRowsToContents();
    int height = m_attempts->horizontalHeader()->height() + 2 * m_attempts->frameWidth() + 6; // 6: the grid lines
    for (int row = 0; row < std::min(4, m_attempts->rowCount()); ++row) {
        height += m_attempts->verticalHeader()->sectionSize(row);
    }
    m_attempts->setFixedHeight(height);
    const core::RunTotals totals = core::runTotals(*m_followed, attempts, m_snapshot.entries, now);
    m_totals->setText(runTotalsText(totals, m_followed->planned));
    m_runTotals = totals;
    showMeasurements();
}

void RunPage::onRecovery(qint64 runId, const core::RecoveryProgress& progress)
{
    if (!m_followed || m_followed->id != runId) {
        return;
    }
    m_recovering = progress;
    if (progress.step == core::RecoveryStep::Interrupted) {
        m_followed->state = core::RunState::Recovering;
    }
    if (progress.step == core::RecoveryStep::Resumed) {
        m_followed->state = core::RunState::Running;
        m_recovering.reset();
        m_notice.reset();
        m_status->setStatus(recoveryProgressText(progress));
    }
    showAttempts();
    // A new attempt, a relaunch recorded: the ledger has it.
    if (progress.step == core::RecoveryStep::Interrupted || progress.step == core::RecoveryStep::Starting
        || progress.step == core::RecoveryStep::Resumed) {
        refresh();
    }
}

} // namespace gpuplan::ui
