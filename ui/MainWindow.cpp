// The main window: the navigation and its pages, the catalog loaded off the UI thread, and the wording of both.
// The menus and the plan-file actions behind them are in MainWindowMenus.cpp.
#include "MainWindow.h"

#include "AppSettings.h"
#include "PlanSession.h"
#include "dialogs/RefreshPricesDialog.h"
#include "pages/CatalogPage.h"
#include "pages/ComparePage.h"
#include "pages/CostsPage.h"
#include "pages/CredentialsPage.h"
#include "pages/InstancesPage.h"
#include "pages/LaunchPage.h"
#include "pages/PlanWizard.h"
#include "pages/ReportsPage.h"
#include "pages/RunPage.h"
#include "pages/VerifyPage.h"
#include "secrets/CredentialStore.h"

#include "gpuplan/core/Paths.h"
#include "gpuplan/plan/PlanFile.h"

#include <QAction>
#include <QEvent>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuplan::ui {

namespace {

constexpr int kPageRole = Qt::UserRole;

const QList<MainWindow::Page> kAllPages{
    MainWindow::Page::Plan,
    MainWindow::Page::Compare,
    MainWindow::Page::Costs,
    MainWindow::Page::Launch,
    MainWindow::Page::Instances,
    MainWindow::Page::Verify,
    MainWindow::Page::Run,
    MainWindow::Page::Reports,
    MainWindow::Page::Catalog,
    MainWindow::Page::Credentials,
};

QString pageName(MainWindow::Page page)
{
    switch (page) {
        case MainWindow::Page::Plan:
            return MainWindow::tr("Plan");
        case MainWindow::Page::Compare:
            return MainWindow::tr("Compare");
        case MainWindow::Page::Costs:
            return MainWindow::tr("Costs");
        case MainWindow::Page::Launch:
            return MainWindow::tr("Launch");
        case MainWindow::Page::Instances:
            return MainWindow::tr("Instances");
        case MainWindow::Page::Verify:
            return MainWindow::tr("Verify");
        case MainWindow::Page::Run:
            return MainWindow::tr("Run");
        case MainWindow::Page::Reports:
            return MainWindow::tr("Reports");
        case MainWindow::Page::Catalog:
            return MainWindow::tr("Catalog");
        case MainWindow::Page::Credentials:
            return MainWindow::tr("Credentials");
    }
    return {};
}

/// What a page does, shown as its tooltip in the navigation.
QString pagePurpose(MainWindow::Page page)
{
    switch (page) {
        case MainWindow::Page::Plan:
            return MainWindow::tr(
                "Describe a training run step by step: task, model, data, precision, budget, deadline.");
        case MainWindow::Page::Compare:
            return MainWindow::tr(
                "Every offer ranked on time, cost and risk, with the reasons for the recommendation.");
        case MainWindow::Page::Costs:
            return MainWindow::tr("Cost charts: by option, time against cost, renting against buying.");
        case MainWindow::Page::Launch:
            return MainWindow::tr("Launch the chosen instance through the provider's API.");
        case MainWindow::Page::Instances:
            return MainWindow::tr("What is running, what it has cost so far, and a guard against forgotten instances.");
        case MainWindow::Page::Verify:
            return MainWindow::tr("Prove over SSH that the GPU and its mixed-precision speed are what was paid for.");
        case MainWindow::Page::Run:
            return MainWindow::tr(
                "Run the training on an instance: sync, watch the GPUs live, bring the results home.");
        case MainWindow::Page::Reports:
            return MainWindow::tr("Every run and launch, plan against actual, and the spending against each budget.");
        case MainWindow::Page::Catalog:
            return MainWindow::tr("Every GPU offer of the providers, with sourced and dated prices.");
        case MainWindow::Page::Credentials:
            return MainWindow::tr("The cloud access keys, kept in the system keychain.");
    }
    return {};
}

} // namespace

QList<MainWindow::Page> MainWindow::availablePages()
{
    return {Page::Plan,
            Page::Compare,
            Page::Costs,
            Page::Launch,
            Page::Instances,
            Page::Verify,
            Page::Run,
            Page::Reports,
            Page::Catalog,
            Page::Credentials};
}

QString MainWindow::pageKey(Page page)
{
    static const QStringList keys{QStringLiteral("plan"),
                                  QStringLiteral("compare"),
                                  QStringLiteral("costs"),
                                  QStringLiteral("launch"),
                                  QStringLiteral("instances"),
                                  QStringLiteral("verify"),
                                  QStringLiteral("run"),
                                  QStringLiteral("reports"),
                                  QStringLiteral("catalog"),
                                  QStringLiteral("credentials")};
    return keys.value(static_cast<int>(page));
}

MainWindow::MainWindow(std::filesystem::path catalogDir,
                       std::filesystem::path userCatalogDir,
                       std::filesystem::path workloadDir,
                       QWidget* parent)
    : QMainWindow(parent)
    , m_catalogDir(std::move(catalogDir))
    , m_userCatalogDir(std::move(userCatalogDir))
    , m_workloadDir(std::move(workloadDir))
    , m_session(new PlanSession(this))
    , m_wizard(new PlanWizard(this))
    , m_navigation(new QListWidget(this))
    , m_pages(new QStackedWidget(this))
    , m_catalogPage(new CatalogPage(this))
    , m_statusLabel(new QLabel(this))
    , m_loadWatcher(new QFutureWatcher<std::shared_ptr<const PlanningData>>(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    resize(1280, 800);
    if (m_workloadDir.empty()) {
        m_workloadDir = m_catalogDir.parent_path() / "workloads";
    }
    m_comparePage = new ComparePage(m_session, this);
    m_costsPage = new CostsPage(m_session, this);
    // Reads only the settings until a credential is set or used: no keychain access at start.
    m_credentialStore = new CredentialStore(CredentialStore::optionsFromEnvironment(), this);
    m_credentialsPage = new CredentialsPage(m_credentialStore, this);
    m_launchPage = new LaunchPage(m_credentialStore, this);
    m_instancesPage = new InstancesPage(m_credentialStore, this);
    m_verifyPage = new VerifyPage(this);
    m_runPage = new RunPage(m_credentialStore, this);
    m_reportsPage = new ReportsPage(this);

    m_navigation->setObjectName(QStringLiteral("navigationList"));
    m_navigation->setFixedWidth(200);
    m_navigation->setSpacing(2);
    for (Page page : kAllPages) {
        auto* item = new QListWidgetItem(m_navigation);
        item->setData(kPageRole, static_cast<int>(page));
    }
    m_wizard->setWindowFlags(Qt::Widget); // a page of the window, not a dialog
    m_pages->setObjectName(QStringLiteral("pageStack"));
    m_pages->addWidget(m_wizard);
    m_pages->addWidget(m_comparePage);
    m_pages->addWidget(m_costsPage);
    m_pages->addWidget(m_launchPage);
    m_pages->addWidget(m_instancesPage);
    m_pages->addWidget(m_verifyPage);
    m_pages->addWidget(m_runPage);
    m_pages->addWidget(m_reportsPage);
    m_pages->addWidget(m_catalogPage);
    m_pages->addWidget(m_credentialsPage);

    auto* central = new QWidget(this);
    auto* layout = new QHBoxLayout(central);
    layout->addWidget(m_navigation);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);

    m_statusLabel->setObjectName(QStringLiteral("catalogStatusLabel"));
    statusBar()->addWidget(m_statusLabel, 1);
    buildMenus();

    connect(m_navigation, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item) {
            showPage(static_cast<Page>(item->data(kPageRole).toInt()));
        }
    });
    connect(m_loadWatcher,
            &QFutureWatcher<std::shared_ptr<const PlanningData>>::finished,
            this,
            &MainWindow::onCatalogLoaded);
    connect(m_wizard, &PlanWizard::planRequested, this, [this](PlanInputs inputs) {
        // What the Settings know and the wizard does not ask.
        const AppSettings settings;
        inputs.cnyPerUsd = settings.cnyPerUsd();
        inputs.buyVsRent.electricityPerKwh = settings.electricityPrice();
        inputs.buyVsRent.electricityCurrency =
            settings.electricityCurrency() == QLatin1String("USD") ? core::Currency::USD : core::Currency::CNY;
        inputs.buyVsRent.pue = settings.pue();
        m_session->replan(inputs);
        showPage(Page::Compare);
    });
    connect(m_session, &PlanSession::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_session, &PlanSession::planChanged, this, [this] { m_launchPage->setPlan(m_session->plan()); });
    connect(m_launchPage, &LaunchPage::launched, m_instancesPage, &InstancesPage::refresh);
    connect(m_session, &PlanSession::planChanged, this, [this] { m_verifyPage->setPlanOpen(m_session->hasPlan()); });
    connect(m_verifyPage, &VerifyPage::addToPlan, m_session, &PlanSession::addVerification);
    connect(m_instancesPage, &InstancesPage::verifyRequested, this, [this](std::int64_t entryId) {
        showPage(Page::Verify);
        m_verifyPage->chooseLaunch(entryId);
    });
    connect(m_instancesPage, &InstancesPage::runRequested, this, [this](std::int64_t entryId) {
        showPage(Page::Run);
        m_runPage->chooseLaunch(entryId);
    });
    connect(m_session, &PlanSession::planChanged, this, [this] { m_runPage->setPlan(m_session->plan()); });
    connect(m_runPage, &RunPage::runsChanged, m_reportsPage, &ReportsPage::refresh);
    connect(m_session, &PlanSession::planChanged, this, &MainWindow::updateTitle);
    connect(m_session, &PlanSession::measurementNotSaved, this, [this](const QString& why) {
        // Not modal: the plan (made without the measurement) is on screen behind it.
        auto* box = new QMessageBox(QMessageBox::Warning,
                                    tr("Measurement not saved"),
                                    tr("Your measured throughput could not be saved, so this plan does not use "
                                       "it. Check that the folder can be written and plan again.\n\n%1")
                                        .arg(why),
                                    QMessageBox::Ok,
                                    this);
        box->setObjectName(QStringLiteral("measurementNotSavedBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });

    retranslate();
    showPage(Page::Plan);

    connect(m_catalogPage, &CatalogPage::refreshPricesRequested, this, &MainWindow::refreshPrices);
    loadCatalog();
}

void MainWindow::loadCatalog()
{
    // Reading and checking the catalog and workload files is disk work: off the UI thread.
    m_loadWatcher->setFuture(
        QtConcurrent::run([dir = m_catalogDir, userDir = m_userCatalogDir, workloadDir = m_workloadDir] {
            return std::make_shared<const PlanningData>(loadPlanningData(dir, userDir, workloadDir));
        }));
}

void MainWindow::refreshPrices()
{
    if (!m_data || !m_data->catalog || !m_loadWatcher->isFinished()) {
        return;
    }
    auto* dialog =
        new RefreshPricesDialog(m_data->catalog->catalog, core::refreshedPricesDir(), m_credentialStore, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RefreshPricesDialog::pricesRefreshed, this, &MainWindow::loadCatalog);
    dialog->open();
}

MainWindow::~MainWindow()
{
    m_loadWatcher->waitForFinished();
    m_session->waitForIdle();
}

void MainWindow::showPage(Page page)
{
    if (!availablePages().contains(page)) {
        return;
    }
    for (int i = 0; i < m_navigation->count(); ++i) {
        if (m_navigation->item(i)->data(kPageRole).toInt() == static_cast<int>(page)) {
            m_navigation->setCurrentRow(i);
        }
    }
    switch (page) {
        case Page::Plan:
            m_pages->setCurrentWidget(m_wizard);
            break;
        case Page::Compare:
            m_pages->setCurrentWidget(m_comparePage);
            break;
        case Page::Costs:
            m_pages->setCurrentWidget(m_costsPage);
            break;
        case Page::Credentials:
            m_pages->setCurrentWidget(m_credentialsPage);
            break;
        case Page::Launch:
            m_pages->setCurrentWidget(m_launchPage);
            break;
        case Page::Instances:
            m_pages->setCurrentWidget(m_instancesPage);
            m_instancesPage->refresh();
            break;
        case Page::Verify:
            m_pages->setCurrentWidget(m_verifyPage);
            m_verifyPage->refreshLaunches();
            break;
        case Page::Run:
            m_pages->setCurrentWidget(m_runPage);
            m_runPage->refresh();
            break;
        case Page::Reports:
            m_pages->setCurrentWidget(m_reportsPage);
            m_reportsPage->refresh();
            break;
        default:
            m_pages->setCurrentWidget(m_catalogPage);
            break;
    }
}

void MainWindow::onCatalogLoaded()
{
    m_data = m_loadWatcher->result();
    if (m_data->catalog) {
        m_catalogPage->setCatalog(m_data->catalog->catalog, m_data->catalog->problems, m_data->findings);
        std::vector<core::Error> problems = m_data->catalog->problems;
        problems.insert(problems.end(), m_data->problems.begin(), m_data->problems.end());
        if (!problems.empty()) {
            showCatalogProblems(problems);
        }
    } else if (m_data->failure) {
        m_catalogPage->setLoadFailure(errorMessage(*m_data->failure));
        showCatalogProblems({*m_data->failure});
    }
    m_session->setData(m_data);
    m_launchPage->setData(m_data);
    m_instancesPage->setData(m_data);
    m_verifyPage->setData(m_data);
    m_runPage->setData(m_data);
    m_reportsPage->setData(m_data);
    // The ledger is reconciled with the providers at start, when it names any (InstancesPage::reconcile).
    m_instancesPage->reconcileAtStart();
    // A run that goes on without the program (it was closed, or killed) is followed again at once.
    m_runPage->refresh();
    m_wizard->setChoices(m_data->presets,
                         m_data->catalog ? m_data->catalog->catalog.gpus() : std::vector<core::GpuSpec>{});
    showExampleOnFirstStart();
    m_catalogLoaded = true;
    retranslate();
    emit catalogLoaded();
}

void MainWindow::showExampleOnFirstStart()
{
    AppSettings settings;
    const std::filesystem::path example = m_catalogDir.parent_path() / "examples" / "resnet50-imagenet.gpuplan";
    if (settings.exampleShown() || m_session->hasPlan() || !std::filesystem::exists(example)) {
        return;
    }
    settings.setExampleShown();
    // Shown as an untitled plan: saving it asks for a file of the user's, never over the bundled one.
    core::Result<core::PlanDocument> plan = core::loadPlan(example);
    if (plan) {
        std::optional<PlanInputs> inputs = inputsFromPlan(*plan);
        m_session->setPlan(std::move(plan).value(), std::move(inputs), false);
    }
}

void MainWindow::showCatalogProblems(const std::vector<core::Error>& problems)
{
    QStringList lines;
    for (const core::Error& problem : problems) {
        lines << QStringLiteral("%1 — %2: %3")
                     .arg(QString::fromStdString(problem.where), errorCodeText(problem.code), errorDetailText(problem));
    }
    if (!m_problemsBox) {
        m_problemsBox = new QMessageBox(QMessageBox::Warning, tr("Catalog problems"), {}, QMessageBox::Ok, this);
        m_problemsBox->setObjectName(QStringLiteral("catalogProblemsDialog"));
    }
    m_problemsBox->setText(m_data && m_data->catalog
                               ? tr("Some catalog entries could not be read and are left out. The rest of the "
                                    "catalog is loaded and works as usual.")
                               : tr("The catalog could not be loaded."));
    m_problemsBox->setInformativeText(lines.join(QLatin1Char('\n')));
    m_problemsBox->open(); // window-modal and non-blocking: the program keeps running
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::retranslate()
{
    m_fileMenu->setTitle(tr("&File"));
    m_newAction->setText(tr("&New plan…"));
    m_openAction->setText(tr("&Open…"));
    m_recentMenu->setTitle(tr("Open &recent"));
    m_saveAction->setText(tr("&Save"));
    m_saveAsAction->setText(tr("Save &as…"));
    m_exportReportAction->setText(tr("E&xport PDF report…"));
    m_exportReportAction->setToolTip(tr("The plan as a PDF for your PI: summary, comparison, charts, risks, buy "
                                        "or rent, method."));
    m_quitAction->setText(tr("&Quit"));
    m_settingsAction->setText(tr("S&ettings…"));
    m_helpMenu->setTitle(tr("&Help"));
    m_aboutAction->setText(tr("&About GPU Planner"));
    m_aboutQtAction->setText(tr("About &Qt"));
    updateTitle();
    for (int i = 0; i < m_navigation->count(); ++i) {
        QListWidgetItem* item = m_navigation->item(i);
        const auto page = static_cast<Page>(item->data(kPageRole).toInt());
        item->setText(pageName(page));
        item->setToolTip(pagePurpose(page));
    }
    m_catalogPage->retranslate();
    if (!m_catalogLoaded) {
        m_statusLabel->setText(tr("Loading the catalog…"));
    } else if (m_data && m_data->catalog) {
        const core::Catalog& catalog = m_data->catalog->catalog;
        const std::string newest = catalog.newestPriceDate();
        m_statusLabel->setText(tr("Catalog: %1 GPU models, %2 offers from %3 providers; newest price %4")
                                   .arg(catalog.gpus().size())
                                   .arg(catalog.offers().size())
                                   .arg(catalog.providers().size())
                                   .arg(newest.empty() ? tr("unknown") : QString::fromStdString(newest)));
    } else {
        m_statusLabel->setText(tr("The catalog could not be loaded."));
    }
}

} // namespace gpuplan::ui
