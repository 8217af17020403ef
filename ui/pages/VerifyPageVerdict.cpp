// The Verify page's view of a run: the stages as they pass (connect -> detect -> upload -> (build ->) run) and the
// verdict, with a line per check worded and coloured by its level. The form and the run are in VerifyPage.cpp.
#include "VerifyPage.h"

#include "MainWindow.h"
#include "widgets/StatusLabel.h"
#include "wording/PlanText.h"
#include "wording/VerdictText.h"

#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QTableWidget>

namespace gpuplan::ui {

namespace {

const std::vector<core::VerifyStep> kStages{core::VerifyStep::Connect,
                                            core::VerifyStep::Detect,
                                            core::VerifyStep::Upload,
                                            core::VerifyStep::Build,
                                            core::VerifyStep::Run};

QString stageText(core::VerifyStep stage)
{
    switch (stage) {
        case core::VerifyStep::Connect:
            return VerifyPage::tr("Connect over SSH");
        case core::VerifyStep::Detect:
            return VerifyPage::tr("Detect the OS, driver and GPUs");
        case core::VerifyStep::Upload:
            return VerifyPage::tr("Upload the probe (checksum checked)");
        case core::VerifyStep::Build:
            return VerifyPage::tr("Build the probe there");
        case core::VerifyStep::Run:
            return VerifyPage::tr("Run the probe");
    }
    return {};
}

QString levelText(const QString& level)
{
    if (level == QLatin1String("pass")) {
        return VerifyPage::tr("pass");
    }
    if (level == QLatin1String("warn")) {
        return VerifyPage::tr("warning");
    }
    if (level == QLatin1String("fail")) {
        return VerifyPage::tr("FAIL");
    }
    return VerifyPage::tr("not judged");
}

QColor levelColor(const QString& level)
{
    if (level == QLatin1String("pass")) {
        return QColor(0x1b, 0x7f, 0x3a);
    }
    if (level == QLatin1String("warn")) {
        return QColor(0xa8, 0x65, 0x00);
    }
    if (level == QLatin1String("fail")) {
        return QColor(0xb0, 0x1c, 0x1c);
    }
    return QColor(0x60, 0x60, 0x60);
}

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

/// A check's measured or expected figure: worded from its key (core::VerdictLine, figureText()); a text as a plan
/// kept it before figures were keys, as it is.
[[maybe_unused]] QString figureCell(const core::Reason& figure)
{
    return figureText(figure);
}
[[maybe_unused]] QString figureCell(const std::string& text)
{
    return q(text);
}

} // namespace

void VerifyPage::fillStages()
{
    m_stages->clear();
    const bool built =
        std::find(m_stagesDone.begin(), m_stagesDone.end(), core::VerifyStep::Build) != m_stagesDone.end()
        || m_stage == core::VerifyStep::Build;
    for (core::VerifyStep stage : kStages) {
        if (stage == core::VerifyStep::Build && !built) {
            continue; // only when no bundled probe runs there
        }
        const bool done = std::find(m_stagesDone.begin(), m_stagesDone.end(), stage) != m_stagesDone.end();
        const bool current = m_stage == stage;
        QString state;
        QIcon icon;
        if (done) {
            state = tr("done");
            icon = style()->standardIcon(QStyle::SP_DialogApplyButton);
        } else if (current && m_failed) {
            state = tr("failed");
            icon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
        } else if (current && m_job.isBusy()) {
            state = tr("running…");
            icon = style()->standardIcon(QStyle::SP_BrowserReload);
        } else if (current) {
            state = tr("done");
            icon = style()->standardIcon(QStyle::SP_DialogApplyButton);
        }
        auto* item =
            new QListWidgetItem(icon, state.isEmpty() ? stageText(stage) : tr("%1: %2").arg(stageText(stage), state));
        item->setData(Qt::UserRole, int(stage));
        item->setData(Qt::UserRole + 1, done || (current && !m_job.isBusy() && !m_failed));
        if (state.isEmpty()) {
            item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        }
        m_stages->addItem(item);
    }
}

void VerifyPage::showOutcome(const core::VerifyOutcome& outcome)
{
    const QString why = reasonText(outcome.run.choice.why);
    if (!outcome.judged) {
        m_deployment->clear();
        m_verdict->setText(tr("The probe could not run"));
        m_verdict->setStyleSheet(QStringLiteral("color: %1").arg(levelColor(QStringLiteral("fail")).name()));
        m_lastVerification.reset();
        QString text = tr("The probe could not run there: %1").arg(why);
        if (outcome.run.choice.offerDriverScript) {
            text += QLatin1Char(' ')
                    + tr("GPU Planner's driver set-up script for Ubuntu and Rocky/CentOS is in "
                         "share/gpuplanner/scripts/install-nvidia-driver.sh (run it with --dry-run first).");
        }
        m_status->setStatus(text, true);
        updateButtons();
        return;
    }
    const core::PlanVerification& verification = outcome.judged->verification;
    m_lastVerification = verification;
    m_deployment->setText(tr("Ran the %1 probe (%2).").arg(q(outcome.run.buildUsed), why));
    const QString level = QString::fromLatin1(core::verdictLevelName(verification.verdict));
    const int gpus = verification.gpuCount;
    const QString found = gpus == 0
                              ? tr("no GPU found")
                              : tr("%1 × %2, driver %3").arg(gpus).arg(q(verification.gpuName), q(verification.driver));
    const std::string& promisedId = verification.expectedGpu;
    const core::GpuSpec* promisedGpu =
        m_data && m_data->catalog ? m_data->catalog->catalog.findGpu(promisedId) : nullptr;
    if (promisedId.empty()) { // nothing promised and no card to take it from
        m_verdict->setText(tr("%1 — %2").arg(levelText(level).toUpper(), found));
    } else {
        const QString promised =
            tr("%1 × %2").arg(verification.expectedCount).arg(promisedGpu ? q(promisedGpu->name) : q(promisedId));
        m_verdict->setText(tr("%1 — %2; promised %3").arg(levelText(level).toUpper(), found, promised));
    }
    m_verdict->setStyleSheet(QStringLiteral("color: %1").arg(levelColor(level).name()));
    m_lines->setRowCount(int(verification.checks.size()));
    int row = 0;
    for (const core::PlanCheck& line : verification.checks) {
        const QString lineLevel = QString::fromLatin1(core::verdictLevelName(line.level));
        const QStringList cells{checkName(q(line.check)),
                                line.gpu ? QString::number(*line.gpu) : tr("all"),
                                levelText(lineLevel),
                                figureCell(line.measured),
                                figureCell(line.expected),
                                reasonText(line.reason)};
        for (int column = 0; column < cells.size(); ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            item->setData(Qt::UserRole, q(line.check));
            if (column == 2) {
                item->setForeground(levelColor(lineLevel));
                item->setData(Qt::UserRole + 1, lineLevel);
            }
            m_lines->setItem(row, column, item);
        }
        ++row;
    }
    m_lines->resizeRowsToContents();
    if (outcome.notKept) {
        m_status->setStatus(tr("The verdict could not be kept in the ledger: %1").arg(errorText(*outcome.notKept)),
                            true);
    } else if (level == QLatin1String("fail")) {
        m_status->setStatus(tr("This machine is not what was paid for, or not healthy: see the failed lines."), true);
    } else {
        m_status->setStatus(level == QLatin1String("pass") ? tr("The GPUs are what was paid for.")
                                                           : tr("The GPUs work, with the warnings above."));
    }
    updateButtons();
}

} // namespace gpuplan::ui
