// The Verify page: the form (host, key, jump host, launch, the GPU promised, the probe's mode) and the run, off the
// UI thread (PageJob), with the host-key and passphrase questions brought to the UI thread. What it shows of a run,
// the stages and the verdict, is in VerifyPageVerdict.cpp.
#include "VerifyPage.h"

#include "MainWindow.h"
#include "Questions.h"
#include "dialogs/SshQuestions.h"
#include "widgets/StatusLabel.h"
#include "wording/LaunchText.h"
#include "workers/CloudJobs.h"
#include "workers/UiThreadPrompter.h"

#include "gpuplan/core/Paths.h"
#include "gpuplan/deploy/SshConfig.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/net/Clock.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gpuplan::ui {

namespace {

std::filesystem::path probeDir()
{
    return core::bundledProbeDir(QCoreApplication::applicationDirPath().toStdString());
}

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

VerifyPage::VerifyPage(QWidget* parent)
    : QWidget(parent)
    , m_introLabel(new QLabel(this))
    , m_hostLabel(new QLabel(this))
    , m_host(new QLineEdit(this))
    , m_keyLabel(new QLabel(this))
    , m_keyFile(new QLineEdit(this))
    , m_browseKey(new QPushButton(this))
    , m_jumpLabel(new QLabel(this))
    , m_jump(new QLineEdit(this))
    , m_launchLabel(new QLabel(this))
    , m_launch(new QComboBox(this))
    , m_gpuLabel(new QLabel(this))
    , m_gpu(new QComboBox(this))
    , m_count(new QSpinBox(this))
    , m_quick(new QCheckBox(this))
    , m_burn(new QSpinBox(this))
    , m_verifyButton(new QPushButton(this))
    , m_cancelButton(new QPushButton(this))
    , m_addToPlanButton(new QPushButton(this))
    , m_stages(new QListWidget(this))
    , m_deployment(new QLabel(this))
    , m_verdict(new QLabel(this))
    , m_lines(new QTableWidget(this))
    , m_status(new StatusLabel(this))
    , m_launchReader(this)
    , m_job(
          this, [this](bool) { updateButtons(); }, &m_pool)
{
    setObjectName(QStringLiteral("verifyPage"));
    m_host->setObjectName(QStringLiteral("hostEdit"));
    m_keyFile->setObjectName(QStringLiteral("keyFileEdit"));
    m_jump->setObjectName(QStringLiteral("jumpEdit"));
    m_launch->setObjectName(QStringLiteral("launchCombo"));
    m_gpu->setObjectName(QStringLiteral("promisedGpuCombo"));
    m_count->setObjectName(QStringLiteral("promisedCountSpin"));
    m_quick->setObjectName(QStringLiteral("quickCheckBox"));
    m_burn->setObjectName(QStringLiteral("burnSecondsSpin"));
    m_verifyButton->setObjectName(QStringLiteral("verifyButton"));
    m_cancelButton->setObjectName(QStringLiteral("cancelVerifyButton"));
    m_addToPlanButton->setObjectName(QStringLiteral("addToPlanButton"));
    m_stages->setObjectName(QStringLiteral("stagesList"));
    m_deployment->setObjectName(QStringLiteral("deploymentLabel"));
    m_verdict->setObjectName(QStringLiteral("verdictLabel"));
    m_lines->setObjectName(QStringLiteral("verdictTable"));
    m_status->setObjectName(QStringLiteral("verifyStatusLabel"));

    m_introLabel->setWordWrap(true);
    m_deployment->setWordWrap(true);
    m_deployment->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // What the remote machine says (GPU names, uname) is shown as text, never as markup.
    m_deployment->setTextFormat(Qt::PlainText);
    m_verdict->setTextFormat(Qt::PlainText);
    m_status->setTextFormat(Qt::PlainText);
    m_quick->setChecked(true);
    m_burn->setRange(0, core::kMaxBurnSeconds);
    m_burn->setSingleStep(30);
    m_count->setRange(1, 16);
    // One row, left to right: connect -> detect -> upload -> (build ->) run.
    m_stages->setSelectionMode(QAbstractItemView::NoSelection);
    m_stages->setFocusPolicy(Qt::NoFocus);
    m_stages->setFlow(QListView::LeftToRight);
    m_stages->setSpacing(6);
    m_stages->setFrameShape(QFrame::NoFrame);
    m_stages->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_stages->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_stages->setFixedHeight(m_stages->fontMetrics().height() * 2 + 8);
    m_stages->setStyleSheet(QStringLiteral("QListWidget { background: transparent; }"));
    QFont big = m_verdict->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    m_verdict->setFont(big);
    m_lines->setColumnCount(6);
    m_lines->verticalHeader()->hide();
    m_lines->horizontalHeader()->setStretchLastSection(true);
    for (int column = 0; column < 5; ++column) {
        m_lines->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    }
    m_lines->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the reasons wrap instead
    m_lines->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_lines->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_lines->setWordWrap(true);
    m_lines->setAlternatingRowColors(true);

    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(m_keyFile, 1);
    keyRow->addWidget(m_browseKey);
    auto* gpuRow = new QHBoxLayout;
    gpuRow->addWidget(m_gpu, 1);
    gpuRow->addWidget(m_count);
    auto* form = new QFormLayout;
    form->addRow(m_hostLabel, m_host);
    form->addRow(m_keyLabel, keyRow);
    form->addRow(m_jumpLabel, m_jump);
    form->addRow(m_launchLabel, m_launch);
    form->addRow(m_gpuLabel, gpuRow);
    auto* modeRow = new QHBoxLayout;
    modeRow->addWidget(m_quick);
    modeRow->addSpacing(12);
    modeRow->addWidget(m_burn);
    modeRow->addStretch(1);
    form->addRow(QString(), modeRow);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_verifyButton);
    buttons->addWidget(m_cancelButton);
    buttons->addStretch(1);
    buttons->addWidget(m_addToPlanButton);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_introLabel);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_stages);
    layout->addWidget(m_deployment);
    layout->addWidget(m_verdict);
    layout->addWidget(m_lines, 1);
    layout->addWidget(m_status);

    connect(m_verifyButton, &QPushButton::clicked, this, &VerifyPage::verify);
    connect(m_host, &QLineEdit::returnPressed, this, &VerifyPage::verify);
    connect(m_cancelButton, &QPushButton::clicked, this, &VerifyPage::cancel);
    connect(m_addToPlanButton, &QPushButton::clicked, this, [this] {
        if (m_lastVerification) {
            emit addToPlan(*m_lastVerification);
            m_status->setStatus(tr("The verdict is in the plan; its report shows it once the plan is saved."));
        }
    });
    connect(m_browseKey, &QPushButton::clicked, this, [this] {
        const QString file =
            QFileDialog::getOpenFileName(this, tr("Private key"), QDir::home().filePath(QStringLiteral(".ssh")));
        if (!file.isEmpty()) {
            m_keyFile->setText(file);
        }
    });
    connect(m_launch, &QComboBox::currentIndexChanged, this, [this] {
        // A launch brings its promise: the offer's GPU and count are judged unless the user names others.
        const bool fromLaunch = m_launch->currentData().toLongLong() > 0;
        if (fromLaunch) {
            m_gpu->setCurrentIndex(0);
        }
    });
    connect(m_gpu, &QComboBox::currentIndexChanged, this, [this] { m_count->setEnabled(m_gpu->currentIndex() > 0); });

    retranslate();
    fillStages();
    updateButtons();
}

void VerifyPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWidget::changeEvent(event);
}

void VerifyPage::retranslate()
{
    m_introLabel->setText(
        tr("Prove that a machine's GPUs are what was paid for: GPU Planner logs in over SSH, uploads its CUDA probe "
           "(or builds it there), measures tensor-core and memory speed, and checks model, memory, driver, ECC and "
           "throttling against the datasheet."));
    m_hostLabel->setText(tr("Host:"));
    m_host->setPlaceholderText(tr("ubuntu@203.0.113.7, user@host:2222, or a Host of ~/.ssh/config"));
    m_keyLabel->setText(tr("Key file:"));
    m_keyFile->setPlaceholderText(
        tr("empty: the host's IdentityFile in ~/.ssh/config, ssh-agent, then the keys in ~/.ssh"));
    m_browseKey->setText(tr("Browse…"));
    m_jumpLabel->setText(tr("Jump host:"));
    m_jump->setPlaceholderText(
        tr("optional, as OpenSSH's ProxyJump: user@gateway[:port][,user@next] (empty: the host's ProxyJump in "
           "~/.ssh/config)"));
    m_launchLabel->setText(tr("Launch:"));
    m_gpuLabel->setText(tr("Promised GPU:"));
    m_quick->setText(tr("Quick probe (under 10 s; the full one takes up to a minute)"));
    m_burn->setPrefix(tr("Burn-in: "));
    m_burn->setSuffix(tr(" s"));
    m_burn->setSpecialValueText(tr("No burn-in"));
    m_burn->setToolTip(tr("After the tests, keep every GPU under full GEMM load for this long and check each result: "
                          "finds GPUs that err or slow down when hot (like gpu-burn)"));
    m_verifyButton->setText(tr("Verify"));
    m_cancelButton->setText(tr("Cancel"));
    m_addToPlanButton->setText(tr("Add to plan"));
    m_lines->setHorizontalHeaderLabels(
        {tr("Check"), tr("GPU"), tr("Result"), tr("Measured"), tr("Expected"), tr("Why")});

    const QSignalBlocker blockLaunch(m_launch);
    const qlonglong launch = m_launch->currentData().toLongLong();
    m_launch->clear();
    m_launch->addItem(tr("Not one of my launches"), qlonglong(0));
    for (const core::LedgerEntry& entry : m_launches) {
        m_launch->addItem(launchEntryText(entry), qlonglong(entry.id));
    }
    m_launch->setCurrentIndex(std::max(0, m_launch->findData(launch)));
    fillGpuChoices();
    fillStages();
    if (m_lastOutcome) {
        showOutcome(*m_lastOutcome);
    }
}

void VerifyPage::fillGpuChoices()
{
    const QSignalBlocker block(m_gpu);
    const QString chosen = m_gpu->currentData().toString();
    m_gpu->clear();
    m_gpu->addItem(tr("As the launch's offer says, else as the card reports"), QString());
    if (m_data && m_data->catalog) {
        for (const core::GpuSpec& gpu : m_data->catalog->catalog.gpus()) {
            m_gpu->addItem(q(gpu.name), q(gpu.id));
        }
    }
    m_gpu->setCurrentIndex(std::max(0, m_gpu->findData(chosen)));
    m_count->setEnabled(m_gpu->currentIndex() > 0);
}

void VerifyPage::setData(std::shared_ptr<const PlanningData> planningData)
{
    m_data = std::move(planningData);
    fillGpuChoices();
    updateButtons();
}

void VerifyPage::setPlanOpen(bool open)
{
    m_planOpen = open;
    updateButtons();
}

void VerifyPage::refreshLaunches()
{
    if (m_launchReader.isRunning()) {
        return;
    }
    m_launchReader.run(
        "read ledger",
        []() -> core::Result<std::vector<core::LedgerEntry>> {
            core::Result<LedgerSnapshot> read = readLedger(core::defaultLedgerFile(), 0);
            if (!read) {
                return read.error();
            }
            std::vector<core::LedgerEntry> live;
            std::copy_if(read->entries.begin(), read->entries.end(), std::back_inserter(live), [](const auto& e) {
                return !core::isFinal(e.state);
            });
            return live;
        },
        [this](const core::Result<std::vector<core::LedgerEntry>>& read) {
            m_launches = read ? *read : std::vector<core::LedgerEntry>{};
            const qlonglong chosen =
                m_launchToChoose ? qlonglong(m_launchToChoose) : m_launch->currentData().toLongLong();
            m_launchToChoose = 0;
            retranslate(); // refills the list
            const int index = m_launch->findData(chosen);
            m_launch->setCurrentIndex(index < 0 ? 0 : index);
        });
}

void VerifyPage::chooseLaunch(std::int64_t entryId)
{
    m_launchToChoose = entryId;
    refreshLaunches(); // the list then shows it chosen
}

void VerifyPage::verify()
{
    if (m_job.isBusy()) {
        return;
    }
    if (!m_data || !m_data->catalog) {
        m_status->setStatus(tr("The catalog is not loaded yet."), true);
        return;
    }
    // As ssh(1) would reach it: what is typed here, then ~/.ssh/config for the host (an alias works too).
    core::Result<core::SshTarget> target = core::resolveSshTarget({m_host->text().trimmed().toStdString(),
                                                                   m_keyFile->text().trimmed().toStdString(),
                                                                   m_jump->text().trimmed().toStdString(),
                                                                   {}});
    if (!target) {
        core::Error error = target.error();
        const bool jump = core::takeJumpHostFrame(error); // named by the field it was typed in
        error.where = (jump ? tr("Jump host") : tr("Host")).toStdString() + " " + error.where;
        m_status->setStatus(errorText(error), true);
        (jump ? m_jump : m_host)->setFocus();
        return;
    }
    core::VerifyRequest request;
    request.target = *target;
    request.bundle = core::findProbeBundle(probeDir());
    if (request.bundle.binaries.empty() && request.bundle.sourceArchive.empty()) {
        m_status->setStatus(tr("This GPU Planner has neither a built probe nor the probe's source beside it (%1).")
                                .arg(QString::fromStdString(probeDir().string())),
                            true);
        return;
    }
    request.knownHostsFile = m_knownHostsFile.toStdString();
    request.mode = core::ProbeMode{m_quick->isChecked(), m_burn->value()};
    request.stated.gpuId = m_gpu->currentData().toString().toStdString();
    request.stated.count = request.stated.gpuId.empty() ? 1 : m_count->value();
    const qlonglong launchId = m_launch->currentData().toLongLong();
    for (const core::LedgerEntry& entry : m_launches) {
        if (entry.id == launchId) {
            request.launch = entry;
        }
    }
    request.ledgerFile = core::defaultLedgerFile();

    m_stage.reset();
    m_stagesDone.clear();
    m_failed = false;
    m_lastOutcome.reset();
    m_lastVerification.reset();
    m_deployment->clear();
    m_verdict->clear();
    m_lines->setRowCount(0);
    m_status->setStatus(tr("Verifying %1…").arg(q(request.target.display())));
    m_job.begin();
    fillStages();

    m_job.run(
        "verify",
        [this,
         request = std::move(request),
         catalog = std::shared_ptr<const core::Catalog>(m_data, &m_data->catalog->catalog),
         onStage = m_job.onUiThread<core::VerifyStep>([this](core::VerifyStep stage) { onStage(stage); })](
            PageJob::Token cancel) {
            UiThreadPrompter prompter(this, cancel, sshLoginAnswers(this));
            return core::verifyMachine(request, *catalog, prompter, cancel.get(), onStage, core::unixNow());
        },
        [this](core::Result<core::VerifyOutcome> outcome) { onFinished(std::move(outcome)); });
}

void VerifyPage::cancel()
{
    if (m_job.cancel()) {
        m_status->setStatus(tr("Cancelling…"));
    }
}

void VerifyPage::onStage(core::VerifyStep stage)
{
    if (m_stage) {
        m_stagesDone.push_back(*m_stage);
    }
    m_stage = stage;
    fillStages();
}

void VerifyPage::onFinished(core::Result<core::VerifyOutcome> outcome)
{
    const bool cancelled = m_job.cancelled();
    if (!outcome) {
        m_failed = true;
        if (!m_stage) {
            m_stage = core::VerifyStep::Connect;
        }
        m_job.end();
        fillStages();
        m_status->setStatus(cancelled && outcome.error().code == core::ErrorCode::Cancelled
                                ? tr("Cancelled; nothing was judged.")
                                : errorText(outcome.error()),
                            true);
        emit finished();
        return;
    }
    m_lastOutcome = std::move(*outcome);
    m_failed = !m_lastOutcome->judged;
    m_job.end();
    fillStages();
    showOutcome(*m_lastOutcome);
    emit finished();
}

void VerifyPage::updateButtons()
{
    const bool busy = m_job.isBusy();
    m_verifyButton->setEnabled(!busy && m_data && m_data->catalog);
    m_cancelButton->setEnabled(busy);
    m_addToPlanButton->setEnabled(!busy && m_planOpen && m_lastVerification.has_value());
    for (QWidget* field :
         std::initializer_list<QWidget*>{m_host, m_keyFile, m_browseKey, m_jump, m_launch, m_gpu, m_quick, m_burn}) {
        field->setEnabled(!busy);
    }
    m_count->setEnabled(!busy && m_gpu->currentIndex() > 0);
}

} // namespace gpuplan::ui
