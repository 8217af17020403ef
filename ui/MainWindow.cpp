#include "MainWindow.h"

#include "pages/CatalogPage.h"

#include <QEvent>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
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
    MainWindow::Page::Reports,
    MainWindow::Page::Catalog,
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
        case MainWindow::Page::Reports:
            return MainWindow::tr("Reports");
        case MainWindow::Page::Catalog:
            return MainWindow::tr("Catalog");
    }
    return {};
}

/// What a page will do, shown as the tooltip of a page that is still coming.
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
        case MainWindow::Page::Reports:
            return MainWindow::tr("PDF reports for the PI.");
        case MainWindow::Page::Catalog:
            return MainWindow::tr("Every GPU offer of the providers, with sourced and dated prices.");
    }
    return {};
}

} // namespace

QString errorCodeText(core::ErrorCode code)
{
    switch (code) {
        case core::ErrorCode::FileNotFound:
            return MainWindow::tr("file not found");
        case core::ErrorCode::FileUnreadable:
            return MainWindow::tr("file cannot be read");
        case core::ErrorCode::JsonSyntax:
            return MainWindow::tr("JSON syntax error");
        case core::ErrorCode::SchemaViolation:
            return MainWindow::tr("invalid value");
        case core::ErrorCode::UnknownReference:
            return MainWindow::tr("unknown reference");
        case core::ErrorCode::UnknownProvider:
            return MainWindow::tr("unknown provider");
        case core::ErrorCode::UnknownGpu:
            return MainWindow::tr("unknown GPU");
        case core::ErrorCode::InvalidArgument:
            return MainWindow::tr("invalid argument");
    }
    return {};
}

QList<MainWindow::Page> MainWindow::availablePages()
{
    return {Page::Catalog};
}

QString MainWindow::pageKey(Page page)
{
    static const QStringList keys{QStringLiteral("plan"),
                                  QStringLiteral("compare"),
                                  QStringLiteral("costs"),
                                  QStringLiteral("launch"),
                                  QStringLiteral("instances"),
                                  QStringLiteral("verify"),
                                  QStringLiteral("reports"),
                                  QStringLiteral("catalog")};
    return keys.value(static_cast<int>(page));
}

MainWindow::MainWindow(std::filesystem::path catalogDir, std::filesystem::path userCatalogDir, QWidget* parent)
    : QMainWindow(parent)
    , m_catalogDir(std::move(catalogDir))
    , m_userCatalogDir(std::move(userCatalogDir))
    , m_navigation(new QListWidget(this))
    , m_pages(new QStackedWidget(this))
    , m_catalogPage(new CatalogPage(this))
    , m_statusLabel(new QLabel(this))
    , m_loadWatcher(new QFutureWatcher<CatalogLoadOutcome>(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    resize(1280, 800);

    m_navigation->setObjectName(QStringLiteral("navigationList"));
    m_navigation->setFixedWidth(200);
    m_navigation->setSpacing(2);
    for (Page page : kAllPages) {
        auto* item = new QListWidgetItem(m_navigation);
        item->setData(kPageRole, static_cast<int>(page));
        if (!availablePages().contains(page)) {
            item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
        }
    }
    m_pages->setObjectName(QStringLiteral("pageStack"));
    m_pages->addWidget(m_catalogPage);

    auto* central = new QWidget(this);
    auto* layout = new QHBoxLayout(central);
    layout->addWidget(m_navigation);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);

    m_statusLabel->setObjectName(QStringLiteral("catalogStatusLabel"));
    statusBar()->addWidget(m_statusLabel, 1);

    connect(m_navigation, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item) {
            showPage(static_cast<Page>(item->data(kPageRole).toInt()));
        }
    });
    connect(m_loadWatcher, &QFutureWatcher<CatalogLoadOutcome>::finished, this, &MainWindow::onCatalogLoaded);

    retranslate();
    showPage(Page::Catalog);

    // Reading and checking the catalog files is disk work: off the UI thread.
    m_loadWatcher->setFuture(QtConcurrent::run([dir = m_catalogDir, userDir = m_userCatalogDir] {
        CatalogLoadOutcome outcome;
        core::Result<core::LoadedCatalog> result = core::loadCatalog(dir, userDir);
        if (result) {
            outcome.loaded = std::move(result).value();
            core::CheckOptions checks;
            checks.today = core::todayUtc();
            outcome.findings = core::checkCatalog(outcome.loaded->catalog, checks);
        } else {
            outcome.failure = result.error();
        }
        return outcome;
    }));
}

MainWindow::~MainWindow()
{
    m_loadWatcher->waitForFinished();
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
    if (page == Page::Catalog) {
        m_pages->setCurrentWidget(m_catalogPage);
    }
}

void MainWindow::onCatalogLoaded()
{
    CatalogLoadOutcome outcome = m_loadWatcher->result();
    m_catalog = std::move(outcome.loaded);
    m_loadFailure = std::move(outcome.failure);
    if (m_catalog) {
        m_catalogPage->setCatalog(m_catalog->catalog, m_catalog->problems, outcome.findings);
        if (!m_catalog->problems.empty()) {
            showCatalogProblems(m_catalog->problems);
        }
    } else if (m_loadFailure) {
        m_catalogPage->setLoadFailure(QString::fromStdString(m_loadFailure->message()));
        showCatalogProblems({*m_loadFailure});
    }
    m_catalogLoaded = true;
    retranslate();
    emit catalogLoaded();
}

void MainWindow::showCatalogProblems(const std::vector<core::Error>& problems)
{
    QStringList lines;
    for (const core::Error& problem : problems) {
        lines << QStringLiteral("%1 — %2: %3")
                     .arg(QString::fromStdString(problem.where),
                          errorCodeText(problem.code),
                          QString::fromStdString(problem.detail));
    }
    if (!m_problemsBox) {
        m_problemsBox = new QMessageBox(QMessageBox::Warning, tr("Catalog problems"), {}, QMessageBox::Ok, this);
        m_problemsBox->setObjectName(QStringLiteral("catalogProblemsDialog"));
    }
    m_problemsBox->setText(m_catalog ? tr("Some catalog entries could not be read and are left out. The rest of the "
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
    setWindowTitle(tr("GPU Planner"));
    for (int i = 0; i < m_navigation->count(); ++i) {
        QListWidgetItem* item = m_navigation->item(i);
        const auto page = static_cast<Page>(item->data(kPageRole).toInt());
        if (availablePages().contains(page)) {
            item->setText(pageName(page));
            item->setToolTip(pagePurpose(page));
        } else {
            item->setText(tr("%1 (coming)").arg(pageName(page)));
            item->setToolTip(tr("Coming in a later version: %1").arg(pagePurpose(page)));
        }
    }
    m_catalogPage->retranslate();
    if (!m_catalogLoaded) {
        m_statusLabel->setText(tr("Loading the catalog…"));
    } else if (m_catalog) {
        const std::string newest = m_catalog->catalog.newestPriceDate();
        m_statusLabel->setText(tr("Catalog: %1 GPU models, %2 offers from %3 providers; newest price %4")
                                   .arg(m_catalog->catalog.gpus().size())
                                   .arg(m_catalog->catalog.offers().size())
                                   .arg(m_catalog->catalog.providers().size())
                                   .arg(newest.empty() ? tr("unknown") : QString::fromStdString(newest)));
    } else {
        m_statusLabel->setText(tr("The catalog could not be loaded."));
    }
}

} // namespace gpuplan::ui
