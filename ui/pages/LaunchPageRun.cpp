// The Launch page's launch, each step off the UI thread (PageJob): the order made from the form, the provider's
// credential, its current price, the confirmation that states what the launch can cost, then the launch followed
// through request -> pending -> running -> SSH reachable. The form is in LaunchPage.cpp.
#include "LaunchPage.h"

#include "LaunchPageParts.h"

#include "AppSettings.h"
#include "MainWindow.h"
#include "Questions.h"
#include "widgets/StatusLabel.h"
#include "wording/LaunchText.h"
#include "wording/ProviderText.h"
#include "workers/UiThreadPrompter.h"

#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/LaunchWorkflow.h"
#include "gpuplan/core/Paths.h"
#include "gpuplan/net/Clock.h"

#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>

#include <cmath>

namespace gpuplan::ui {

using launchpage::kProgressRows;
using launchpage::money;

namespace { } // namespace

void LaunchPage::launch()
{
    if (m_job.isBusy()) {
        return;
    }
    if (!m_data || !m_data->catalog) {
        m_status->setStatus(tr("The catalog is not loaded yet."), true);
        return;
    }
    if (m_data->watchdogScript.empty()) {
        m_status->setStatus(tr("The watchdog script is missing from this installation: %1")
                                .arg(m_data->scriptProblem ? errorText(*m_data->scriptProblem) : QString()),
                            true);
        return;
    }
    resetProgress();
    m_job.begin();
    m_launchProvider = m_provider->currentData().toString().toStdString();
    m_status->setStatus(m_sshFrom->text().trimmed().isEmpty()
                            ? tr("Reading the key and finding this computer's address…")
                            : tr("Reading the key…"));
    std::shared_ptr<const core::Catalog> catalog(m_data, &m_data->catalog->catalog);
    m_job.run(
        "prepare launch",
        [p = preparation(), network = AppSettings().httpOptions(), catalog, script = m_data->watchdogScript] {
            return prepareLaunch(p, network, catalog, script, core::unixNow());
        },
        [this](core::Result<core::PreparedLaunch> prepared) { onPrepared(std::move(prepared)); });
}

bool LaunchPage::stoppedBeforeSending()
{
    if (!m_job.stopRequested()) {
        return false;
    }
    m_job.end();
    m_status->setStatus(tr("Not launched: cancelled before anything was sent."));
    return true;
}

void LaunchPage::onPrepared(core::Result<core::PreparedLaunch> prepared)
{
    if (stoppedBeforeSending()) {
        return;
    }
    if (!prepared) {
        m_job.end();
        core::Error error = prepared.error();
        const std::optional<core::LaunchInput> input = core::takeLaunchInputFrame(error);
        QString text = errorText(error);
        if (input == core::LaunchInput::SshSource) {
            text = tr("%1. Type the address in \"Open SSH to\".").arg(text);
            m_sshFrom->setFocus();
        } else if (input == core::LaunchInput::PublicKey) {
            text = tr("%1. Choose the key file in \"SSH public key\".").arg(text);
            m_keyFile->setFocus();
        }
        m_status->setStatus(tr("Not launched. %1").arg(text), true);
        return;
    }
    // The credential first: the provider is asked for its current price of this configuration, which the
    // confirmation shows beside the catalog's.
    m_order = std::move(prepared->order);

    QString loading = tr("Loading the %1 credential…").arg(m_provider->currentText());
    if (prepared->addressProblem) {
        loading +=
            QLatin1Char(' ')
            + tr("Could not look up this computer's public address (%1); the dry run checks the launch with %2 "
                 "(a documentation address, RFC 5737) in its place.")
                  .arg(errorText(*prepared->addressProblem), QString::fromStdString(m_order->request.sshSourceCidr));
    }
    m_status->setStatus(loading);
    const std::string provider = m_launchProvider;
    loadCloudAccess(
        m_store, {provider}, m_job.guarded([this, provider](std::vector<core::CloudAccess> access, auto failures) {
            if (stoppedBeforeSending()) {
                return;
            }
            if (access.empty()) {
                m_job.end();
                const auto failure = failures.find(provider);
                m_status->setStatus(tr("Not launched: no usable %1 credential (set one on the Credentials page). %2")
                                        .arg(providerDisplayName(provider),
                                             failure != failures.end() ? errorText(failure->second) : QString()),
                                    true);
                return;
            }
            launchWith(std::move(access.front()));
        }));
}

void LaunchPage::launchWith(core::CloudAccess access)
{
    core::LaunchWaitOptions wait;
    wait.until = m_order && m_order->request.job ? core::LaunchWait::Running : core::LaunchWait::Ssh;
    wait.sshPort = m_sshPort->value();
    if (const int poll = qEnvironmentVariableIntValue("GPUPLAN_POLL_SECONDS"); poll > 0) {
        wait.pollInterval = std::chrono::seconds(poll);
    }
    m_declined = false;
    m_sent = false;
    m_status->setStatus(tr("Asking %1 for its current price…").arg(m_provider->currentText()));
    // One job from here: the price, the confirmation (a dialog on this thread, the worker waiting for it), the launch.
    m_job.run(
        "launch",
        [this,
         access = std::move(access),
         network = AppSettings().httpOptions(),
         order = *m_order,
         wait,
         progress = m_job.onUiThread<core::LaunchProgress>([this](const core::LaunchProgress& p) { onProgress(p); })](
            PageJob::Token cancel) {
            UiThreadPrompter prompter(
                this,
                cancel,
                {{}, {}, [this](const core::LaunchOrder& asked, const std::optional<core::Error>& problem) {
                     return confirmLaunch(asked, problem);
                 }});
            return runLaunch(access,
                             network,
                             order,
                             wait,
                             core::defaultLedgerFile(),
                             prompter,
                             std::move(cancel),
                             progress,
                             core::unixNow());
        },
        [this](const core::Result<core::LaunchOutcome>& outcome) { onLaunched(outcome); });
}

bool LaunchPage::confirmLaunch(const core::LaunchOrder& order, const std::optional<core::Error>& quoteProblem)
{
    const bool yes = confirm(order, quoteProblem);
    m_declined = !yes;
    m_status->setStatus(!yes                   ? tr("Not launched.")
                        : order.request.dryRun ? tr("Checking the launch with the provider…")
                                               : tr("Launching…"));
    return yes;
}

bool LaunchPage::confirm(const core::LaunchOrder& order, const std::optional<core::Error>& quoteProblem)
{
    const core::LaunchRequest& r = order.request;
    const core::LaunchConfirmation confirmation{m_provider->currentData().toString().toStdString(),
                                                order,
                                                quoteProblem,
                                                core::mostBeforeDeadman(order, core::unixNow())};
    const QStringList lines = launchConfirmationLines(confirmation);
    const QString text = lines.join(QLatin1Char('\n'));
    Questions::recordAsked(Question::ConfirmLaunch, text);
    if (const std::optional<QVariant> next = Questions::takeNextAnswer(Question::ConfirmLaunch)) {
        return next->toBool();
    }
    QMessageBox box(QMessageBox::Question,
                    r.job      ? tr("Submit this job?")
                    : r.dryRun ? tr("Check the launch?")
                               : tr("Launch this instance?"),
                    text,
                    QMessageBox::Cancel,
                    this);
    box.setObjectName(QStringLiteral("launchConfirmBox"));
    QPushButton* go = box.addButton(r.job      ? tr("Submit")
                                    : r.dryRun ? tr("Check")
                                               : tr("Launch"),
                                    QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == go;
}

void LaunchPage::onProgress(const core::LaunchProgress& progress)
{
    m_sent = m_sent || progress.step != core::LaunchStep::Recorded;
    for (std::size_t i = 0; i < std::size(kProgressRows); ++i) {
        if (kProgressRows[i].step == progress.step) {
            for (std::size_t j = 0; j <= i; ++j) {
                QListWidgetItem* item = m_progress->item(static_cast<int>(j));
                item->setIcon(style()->standardIcon(QStyle::SP_DialogApplyButton));
                item->setData(Qt::UserRole, true);
            }
        }
    }
    if (progress.step == core::LaunchStep::ZoneRefused) {
        m_status->setStatus(tr("%1 has no capacity; trying the next zone.").arg(QString::fromStdString(progress.zone)));
        return;
    }
    m_status->setStatus(launchProgressText(progress));
}

void LaunchPage::onLaunched(const core::Result<core::LaunchOutcome>& outcome)
{
    const bool dryRun = m_order && m_order->request.dryRun;
    m_job.end();
    if (!outcome && outcome.error().code == core::ErrorCode::Cancelled && (m_declined || !m_sent)) {
        m_status->setStatus(m_declined ? tr("Not launched.") : tr("Not launched: cancelled before anything was sent."));
        return;
    }
    if (!outcome) {
        m_status->setStatus(tr("The launch failed. %1").arg(errorText(outcome.error())), true);
        return;
    }
    if (dryRun) {
        m_status->setStatus(outcome->dryRunPassed
                                ? tr("The provider says the launch would succeed; nothing was started.")
                                : tr("Dry run done; nothing was started."));
        emit launched(0);
        return;
    }
    if (outcome->entry.intent.kind == core::LaunchKind::Job) {
        m_status->setStatus(tr("Job %1 is %2 (ledger entry %3). Follow its log on the Instances page.")
                                .arg(QString::fromStdString(outcome->entry.instanceId),
                                     QString::fromLatin1(core::instanceStateName(outcome->entry.state)))
                                .arg(outcome->entry.id));
        emit launched(outcome->entry.id);
        return;
    }
    QString text = tr("%1 is %2 (ledger entry %3).")
                       .arg(QString::fromStdString(outcome->entry.instanceId),
                            QString::fromLatin1(core::instanceStateName(outcome->entry.state)))
                       .arg(outcome->entry.id);
    if (!outcome->instance.publicIp.empty()) {
        text += QLatin1Char(' ')
                + tr("Verify it with: gpuplan probe --host USER@%1")
                      .arg(QString::fromStdString(outcome->instance.publicIp));
    }
    if (outcome->budget && outcome->budget->level == core::BudgetLevel::Warn) {
        text += QLatin1Char(' ') + tr("The plan has used 80 % or more of its budget.");
    }
    m_status->setStatus(text);
    emit launched(outcome->entry.id);
}

void LaunchPage::resetProgress()
{
    for (int i = 0; i < m_progress->count(); ++i) {
        m_progress->item(i)->setIcon(QIcon());
        m_progress->item(i)->setData(Qt::UserRole, false);
    }
}

} // namespace gpuplan::ui
