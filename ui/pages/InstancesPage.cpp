#include "InstancesPage.h"

#include "AppSettings.h"
#include "MainWindow.h"
#include "Questions.h"
#include "models/InstanceTableModel.h"
#include "secrets/CredentialStore.h"
#include "widgets/StatusLabel.h"
#include "wording/ErrorText.h"
#include "wording/Format.h"
#include "wording/ProviderText.h"

#include "gpuplan/core/Paths.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/run/RunWorkflow.h"

#include <QCheckBox>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <set>

namespace gpuplan::ui {

namespace {

/// The most lines of a job's log the page keeps (the service keeps all of it).
constexpr int kJobLogLines = 5000;
/// How often a running job's log is read again.
constexpr int kJobLogPollMs = 10 * 1000;

} // namespace

InstancesPage::InstancesPage(CredentialStore* store, QWidget* parent)
    : QWidget(parent)
    , m_store(store)
    , m_introLabel(new QLabel(this))
    , m_table(new QTableView(this))
    , m_model(new InstanceTableModel(this))
    , m_showEnded(new QCheckBox(this))
    , m_reconcileButton(new QPushButton(this))
    , m_verifyButton(new QPushButton(this))
    , m_runButton(new QPushButton(this))
    , m_terminateButton(new QPushButton(this))
    , m_terminateAllButton(new QPushButton(this))
    , m_summary(new QLabel(this))
    , m_status(new StatusLabel(this))
    , m_timer(new QTimer(this))
    , m_jobLogLabel(new QLabel(this))
    , m_jobLog(new QPlainTextEdit(this))
    , m_jobLogTimer(new QTimer(this))
    , m_reader(this)
    , m_job(this, [this](bool) { updateButtons(); })
    , m_logReader(this)
{
    setObjectName(QStringLiteral("instancesPage"));
    m_introLabel->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("instancesTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_showEnded->setObjectName(QStringLiteral("showEndedCheckBox"));
    m_reconcileButton->setObjectName(QStringLiteral("reconcileButton"));
    m_verifyButton->setObjectName(QStringLiteral("verifyInstanceButton"));
    m_runButton->setObjectName(QStringLiteral("runOnInstanceButton"));
    m_terminateButton->setObjectName(QStringLiteral("terminateButton"));
    m_terminateAllButton->setObjectName(QStringLiteral("terminateAllButton"));
    m_summary->setObjectName(QStringLiteral("instancesSummaryLabel"));
    m_status->setObjectName(QStringLiteral("instancesStatusLabel"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_showEnded);
    buttons->addStretch(1);
    buttons->addWidget(m_reconcileButton);
    buttons->addWidget(m_verifyButton);
    buttons->addWidget(m_runButton);
    buttons->addWidget(m_terminateButton);
    buttons->addWidget(m_terminateAllButton);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_introLabel);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_jobLogLabel);
    layout->addWidget(m_jobLog, 1);
    layout->addWidget(m_summary);
    layout->addLayout(buttons);
    layout->addWidget(m_status);

    connect(m_reconcileButton, &QPushButton::clicked, this, &InstancesPage::reconcile);
    connect(m_verifyButton, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        if (rows.size() == 1) {
            emit verifyRequested(m_model->entries()[static_cast<std::size_t>(rows.front().row())].id);
        }
    });
    connect(m_runButton, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        if (rows.size() == 1) {
            emit runRequested(m_model->entries()[static_cast<std::size_t>(rows.front().row())].id);
        }
    });
    connect(m_terminateButton, &QPushButton::clicked, this, &InstancesPage::terminateSelected);
    connect(m_terminateAllButton, &QPushButton::clicked, this, &InstancesPage::terminateAll);
    connect(m_showEnded, &QCheckBox::toggled, this, &InstancesPage::showSnapshot);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &InstancesPage::updateButtons);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &InstancesPage::showJobLog);
    m_jobLogLabel->setObjectName(QStringLiteral("jobLogLabel"));
    m_jobLogLabel->setWordWrap(true);
    m_jobLog->setObjectName(QStringLiteral("jobLogView"));
    m_jobLog->setReadOnly(true);
    m_jobLog->setMaximumBlockCount(kJobLogLines);
    m_jobLog->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_jobLog->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_jobLogLabel->hide();
    m_jobLog->hide();
    m_jobLogTimer->setInterval(kJobLogPollMs);
    connect(m_jobLogTimer, &QTimer::timeout, this, &InstancesPage::readJobLogPage);
    // Uptime, cost so far and the time to the dead-man move on by themselves.
    m_timer->setInterval(30 * 1000);
    connect(m_timer, &QTimer::timeout, this, &InstancesPage::refresh);
    m_timer->start();

    retranslate();
    updateButtons();
}

void InstancesPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWidget::changeEvent(event);
}

void InstancesPage::retranslate()
{
    m_introLabel->setText(tr("Every instance launched from this computer, from the ledger. Costs accrue from the "
                             "price at launch. Reconcile asks the providers what really runs."));
    m_showEnded->setText(tr("Show ended"));
    m_reconcileButton->setText(tr("Reconcile now"));
    m_verifyButton->setText(tr("Verify GPU…"));
    m_verifyButton->setToolTip(tr("Prove over SSH that the selected instance's GPUs are what was paid for."));
    m_runButton->setText(tr("Run on this instance…"));
    m_runButton->setToolTip(tr("Sync your code to the selected instance, start the training and watch it live."));
    m_terminateButton->setText(tr("Terminate…"));
    m_terminateAllButton->setText(tr("Terminate all…"));
    updateSummary();
}

void InstancesPage::setData(std::shared_ptr<const PlanningData> planningData)
{
    m_data = std::move(planningData);
}

void InstancesPage::refresh()
{
    if (m_reader.isRunning()) {
        m_refreshAgain = true;
        return;
    }
    m_reader.run(
        "read ledger",
        [] { return readLedger(core::defaultLedgerFile(), core::unixNow()); },
        [this](core::Result<LedgerSnapshot> read) { onRead(std::move(read)); });
}

void InstancesPage::reconcileAtStart()
{
    m_reconcileWhenLive = true;
    refresh();
}

void InstancesPage::onRead(core::Result<LedgerSnapshot> read)
{
    if (m_refreshAgain) { // the ledger changed while it was read
        m_refreshAgain = false;
        refresh();
    }
    if (!read) {
        m_status->setStatus(tr("The ledger cannot be read. %1").arg(errorText(read.error())), true);
        return;
    }
    m_snapshot = std::move(read).value();
    if (m_reconcileWhenLive) {
        m_reconcileWhenLive = false;
        const bool anyLive = std::any_of(m_snapshot->entries.begin(), m_snapshot->entries.end(), [](const auto& e) {
            return !core::isFinal(e.state);
        });
        if (anyLive) {
            reconcile();
        }
    }
    showSnapshot();
}

void InstancesPage::showSnapshot()
{
    if (!m_snapshot) {
        return;
    }
    // The rows chosen stay chosen when the ledger is read again (every half minute): their ids, not their places.
    std::set<std::int64_t> selected;
    for (const QModelIndex& row : m_table->selectionModel()->selectedRows()) {
        selected.insert(m_model->entries()[static_cast<std::size_t>(row.row())].id);
    }
    m_model->setEntries(m_snapshot->entries, core::unixNow(), m_showEnded->isChecked());
    QItemSelection again;
    for (std::size_t i = 0; i < m_model->entries().size(); ++i) {
        if (selected.count(m_model->entries()[i].id)) {
            const int row = static_cast<int>(i);
            again.select(m_model->index(row, 0), m_model->index(row, m_model->columnCount() - 1));
        }
    }
    m_table->selectionModel()->select(again, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->resizeColumnsToContents();
    updateSummary();
    updateButtons();
}

void InstancesPage::updateSummary()
{
    if (!m_snapshot) {
        m_summary->clear();
        return;
    }
    int live = 0;
    std::map<core::Currency, double> cost;
    for (const core::LedgerEntry& e : m_snapshot->entries) {
        if (!core::isFinal(e.state)) {
            ++live;
            cost[e.intent.price.currency] += core::costSoFar(e, core::unixNow());
        }
    }
    QStringList sums;
    for (const auto& [currency, amount] : cost) {
        sums << formatMoney(amount, QString::fromLatin1(core::currencyCode(currency)), 2);
    }
    m_summary->setText(
        live == 0 ? tr("Nothing is running.")
                  : tr("%n instance(s) live; cost so far %1.", nullptr, live).arg(sums.join(QStringLiteral(" + "))));
}

void InstancesPage::updateButtons()
{
    bool anyLive = false;
    for (const core::LedgerEntry& e : m_model->entries()) {
        anyLive = anyLive || !core::isFinal(e.state);
    }
    const bool busy = m_job.isBusy();
    m_terminateButton->setEnabled(!busy && m_table->selectionModel()->hasSelection());
    const QModelIndexList selected = m_table->selectionModel()->selectedRows();
    // A managed job has no machine to log in to: nothing to verify over SSH.
    const bool oneMachine = selected.size() == 1 && [&] {
        const core::LedgerEntry& e = m_model->entries()[static_cast<std::size_t>(selected.front().row())];
        return !core::isFinal(e.state) && e.intent.kind == core::LaunchKind::Instance;
    }();
    m_verifyButton->setEnabled(oneMachine);
    m_runButton->setEnabled(oneMachine);
    m_terminateAllButton->setEnabled(!busy && anyLive);
    m_reconcileButton->setEnabled(!busy);
}

void InstancesPage::reconcile()
{
    if (m_job.isBusy()) {
        return;
    }
    m_job.begin();
    m_status->setStatus(tr("Asking the providers…"));
    m_job.run(
        "read ledger",
        [] { return readLedger(core::defaultLedgerFile(), core::unixNow()); },
        [this](const core::Result<LedgerSnapshot>& snapshot) {
            if (!snapshot) {
                m_job.end();
                m_status->setStatus(tr("The ledger cannot be read. %1").arg(errorText(snapshot.error())), true);
                return;
            }
            const std::vector<std::string> providers = ledgerProviders(*snapshot);
            if (providers.empty()) {
                m_job.end();
                m_status->setStatus(tr("The ledger names no provider: there is nothing to reconcile."));
                refresh();
                return;
            }
            loadCloudAccess(
                m_store, providers, m_job.guarded([this](std::vector<core::CloudAccess> access, auto failures) {
                    reconcileWith(std::move(access), std::move(failures));
                }));
        });
}

void InstancesPage::reconcileWith(std::vector<core::CloudAccess> access, std::map<std::string, core::Error> failures)
{
    // The catalog lives as long as the job that reads it (aliasing the planning data's lifetime).
    std::shared_ptr<const core::Catalog> catalog;
    if (m_data && m_data->catalog) {
        catalog = std::shared_ptr<const core::Catalog>(m_data, &m_data->catalog->catalog);
    }
    m_job.run(
        "reconcile",
        [access = std::move(access), network = AppSettings().httpOptions(), catalog] {
            return runReconcile(access, network, core::defaultLedgerFile(), catalog, core::unixNow());
        },
        [](core::Error e) {
            core::ReconcileReport report;
            report.failures.emplace("internal", std::move(e));
            return report;
        },
        [this, failures = std::move(failures)](core::ReconcileReport report) mutable {
            m_job.end();
            failures.merge(report.failures); // a provider whose credential failed keeps that reason
            QStringList lines;
            for (const core::Reason& note : report.notes) {
                lines << errorReasonText(note);
            }
            bool failed = false;
            for (const auto& [provider, error] : failures) {
                lines << tr("Not reconciled with %1: %2").arg(providerDisplayName(provider), errorText(error));
                failed = true;
            }
            if (lines.isEmpty()) {
                lines << tr("Reconciled: the ledger agrees with the providers.");
            }
            m_status->setStatus(lines.join(QLatin1Char('\n')), failed);
            refresh();
        });
}

void InstancesPage::terminateSelected()
{
    std::vector<std::int64_t> ids;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        const core::LedgerEntry& e = m_model->entries()[static_cast<std::size_t>(index.row())];
        if (!core::isFinal(e.state)) {
            ids.push_back(e.id);
        }
    }
    terminate(std::move(ids));
}

void InstancesPage::terminateAll()
{
    std::vector<std::int64_t> ids;
    if (m_snapshot) {
        for (const core::LedgerEntry& e : m_snapshot->entries) {
            if (!core::isFinal(e.state)) {
                ids.push_back(e.id);
            }
        }
    }
    terminate(std::move(ids));
}

void InstancesPage::terminate(std::vector<std::int64_t> ids)
{
    if (m_job.isBusy() || ids.empty() || !m_snapshot) {
        return;
    }
    // The runs whose results are still on these instances, read now (a run may have started since the last refresh).
    m_job.begin();
    m_job.run(
        "runs at risk",
        [ids, ledgerFile = core::defaultLedgerFile()]() -> core::Result<std::vector<core::RunRecord>> {
            core::Result<LedgerSnapshot> read = readLedger(ledgerFile, core::unixNow());
            if (!read) {
                return read.error();
            }
            std::vector<core::RunRecord> atRisk;
            for (std::int64_t id : ids) {
                for (const core::RunRecord& run : core::runsWithResultsAtRisk(read->runs, id)) {
                    atRisk.push_back(run);
                }
            }
            return atRisk;
        },
        [this, ids](core::Result<std::vector<core::RunRecord>> atRisk) {
            m_job.end();
            confirmTerminate(ids, atRisk ? *atRisk : std::vector<core::RunRecord>{});
        });
}

void InstancesPage::confirmTerminate(const std::vector<std::int64_t>& ids,
                                     const std::vector<core::RunRecord>& runsAtRisk)
{
    if (m_job.isBusy() || ids.empty() || !m_snapshot) {
        return;
    }
    QStringList names;
    std::vector<std::string> providers;
    for (const core::LedgerEntry& e : m_snapshot->entries) {
        if (std::find(ids.begin(), ids.end(), e.id) != ids.end()) {
            names << (e.instanceId.empty() ? tr("entry %1").arg(e.id) : QString::fromStdString(e.instanceId));
            if (std::find(providers.begin(), providers.end(), e.intent.provider) == providers.end()) {
                providers.push_back(e.intent.provider);
            }
        }
    }
    QString question =
        tr("Terminate %n instance(s)? Their disks are deleted with them: %1", nullptr, static_cast<int>(ids.size()))
            .arg(names.join(QStringLiteral(", ")));
    // A run whose results are still on the instance loses them: say so before the answer.
    QStringList atRisk;
    for (const core::RunRecord& run : runsAtRisk) {
        atRisk << QString::number(run.id);
    }
    if (!atRisk.isEmpty()) {
        question += QStringLiteral("\n\n")
                    + tr("The results of run %1 are not downloaded yet: terminating loses them. Bring them home "
                         "first on the Run page.")
                          .arg(atRisk.join(QStringLiteral(", ")));
    }
    bool yes = false;
    Questions::recordAsked(Question::ConfirmTerminate, question);
    if (const std::optional<QVariant> next = Questions::takeNextAnswer(Question::ConfirmTerminate)) {
        yes = next->toBool();
    } else {
        yes = QMessageBox::question(
                  this, tr("Terminate"), question, QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
              == QMessageBox::Yes;
    }
    if (!yes) {
        return;
    }
    m_job.begin();
    m_status->setStatus(tr("Terminating %1…").arg(names.join(QStringLiteral(", "))));
    loadCloudAccess(m_store, providers, m_job.guarded([this, ids](std::vector<core::CloudAccess> access, auto) {
        m_job.run(
            "terminate",
            [ids, access = std::move(access), network = AppSettings().httpOptions()] {
                return runTerminate(ids, access, network, core::defaultLedgerFile());
            },
            [ids](const core::Error& e) {
                std::map<std::int64_t, core::Error> failures;
                for (std::int64_t id : ids) {
                    failures.emplace(id, e);
                }
                return failures;
            },
            [this, count = ids.size()](const std::map<std::int64_t, core::Error>& failures) {
                m_job.end();
                QStringList lines;
                for (const auto& [id, error] : failures) {
                    lines << tr("Entry %1 was NOT terminated: %2").arg(id).arg(errorText(error));
                }
                m_status->setStatus(lines.isEmpty()
                                        ? tr("Asked the provider to terminate %n instance(s).", nullptr, int(count))
                                        : lines.join(QLatin1Char('\n')),
                                    !lines.isEmpty());
                refresh();
            });
    }));
}

void InstancesPage::showJobLog()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::optional<core::LedgerEntry> job;
    if (rows.size() == 1) {
        const core::LedgerEntry& e = m_model->entries()[static_cast<std::size_t>(rows.front().row())];
        if (e.intent.kind == core::LaunchKind::Job && !e.instanceId.empty()) {
            job = e;
        }
    }
    if (job && m_logJob && m_logJob->id == job->id) {
        m_logJob = job; // the same job, its state read again
        return;
    }
    m_logJob = job;
    m_logCursor.clear();
    m_logAccess.reset();
    m_jobLog->clear();
    m_jobLogTimer->stop();
    m_jobLogLabel->setVisible(job.has_value());
    m_jobLog->setVisible(job.has_value());
    if (!job) {
        return;
    }
    m_jobLogLabel->setText(tr("Log of job %1 on %2, read from the service…")
                               .arg(QString::fromStdString(job->instanceId), managedServiceName(job->intent.provider)));
    const std::int64_t id = job->id;
    loadCloudAccess(m_store,
                    {job->intent.provider},
                    [this, id](std::vector<core::CloudAccess> access, std::map<std::string, core::Error> failures) {
                        if (!m_logJob || m_logJob->id != id) {
                            return; // another row was chosen meanwhile
                        }
                        if (access.empty()) {
                            const QString why = failures.empty() ? QString() : errorText(failures.begin()->second);
                            m_jobLogLabel->setText(tr("The log cannot be read: %1").arg(why));
                            return;
                        }
                        m_logAccess = std::move(access.front());
                        readJobLogPage();
                    });
}

void InstancesPage::readJobLogPage()
{
    if (!m_logJob || !m_logAccess || m_logReader.isRunning()) {
        return;
    }
    const std::int64_t id = m_logJob->id;
    m_logReader.run(
        "job log",
        [access = *m_logAccess,
         network = AppSettings().httpOptions(),
         region = m_logJob->intent.region,
         jobId = m_logJob->instanceId,
         after = m_logCursor](PageJob::Token cancel) {
            return readJobLog(access, network, region, jobId, after, std::move(cancel));
        },
        [this, id](const core::Result<JobLogRead>& read) {
            if (!m_logJob || m_logJob->id != id) {
                return;
            }
            if (!read) {
                m_jobLogLabel->setText(tr("The log cannot be read: %1").arg(errorText(read.error())));
                m_jobLogTimer->stop();
                return;
            }
            for (const core::JobLogLine& line : read->page.lines) {
                m_jobLog->appendPlainText(QString::fromStdString(line.text));
            }
            m_logCursor = read->page.next;
            const bool ended = core::isFinal(read->job.state);
            m_jobLogLabel->setText((ended ? tr("Log of job %1 on %2; the job has ended (%3).")
                                          : tr("Log of job %1 on %2 (%3), read again every %4 s."))
                                       .arg(QString::fromStdString(read->job.instanceId),
                                            managedServiceName(m_logJob->intent.provider),
                                            QString::fromStdString(read->job.providerState))
                                       .arg(kJobLogPollMs / 1000));
            if (!ended) {
                m_jobLogTimer->start();
            } else {
                m_jobLogTimer->stop();
                if (!core::isFinal(m_logJob->state)) {
                    reconcile(); // the ledger hears how it ended
                }
            }
        });
}

} // namespace gpuplan::ui
