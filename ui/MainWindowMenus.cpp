// The main window's menus and what they do: the plan files (new, open, recent, save, export the PDF report), the
// settings and the about box; with them the window's title, which names the open plan, the question about unsaved
// changes, and the plan files dropped on the window.
#include "MainWindow.h"

#include "AppSettings.h"
#include "PlanSession.h"
#include "Questions.h"
#include "dialogs/SettingsDialog.h"
#include "pages/PlanWizard.h"
#include "report/ReportPdf.h"
#include "wording/Language.h"

#include "gpuplan/core/Paths.h"
#include "gpuplan/report/RunsReport.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QStatusBar>

namespace gpuplan::ui {

namespace {

QString takeNextFileName()
{
    const std::optional<QVariant> next = Questions::takeNextAnswer(Question::FileName);
    return next ? next->toString() : QString();
}

} // namespace

void MainWindow::buildMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    m_fileMenu->setObjectName(QStringLiteral("fileMenu"));
    m_newAction = m_fileMenu->addAction(QString(), this, [this] {
        if (maybeSave()) {
            m_wizard->useSettingsDefaults();
            m_wizard->restart();
            showPage(Page::Plan);
        }
    });
    m_newAction->setShortcut(QKeySequence::New);
    m_openAction = m_fileMenu->addAction(QString(), this, [this] {
        QString path = takeNextFileName();
        if (path.isEmpty()) {
            path = QFileDialog::getOpenFileName(
                this, tr("Open plan"), QString(), tr("GPU Planner plans (*.gpuplan);;All files (*)"));
        }
        if (!path.isEmpty()) {
            openPlan(path);
        }
    });
    m_openAction->setShortcut(QKeySequence::Open);
    m_recentMenu = m_fileMenu->addMenu(QString());
    m_recentMenu->setObjectName(QStringLiteral("recentFilesMenu"));
    m_saveAction = m_fileMenu->addAction(QString(), this, [this] { savePlan(); });
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAsAction = m_fileMenu->addAction(QString(), this, [this] { savePlanAs(); });
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    m_exportReportAction = m_fileMenu->addAction(QString(), this, [this] { exportReport(); });
    m_exportReportAction->setObjectName(QStringLiteral("exportReportAction"));
    m_exportReportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    m_fileMenu->addSeparator();
    m_settingsAction = m_fileMenu->addAction(QString(), this, &MainWindow::showSettings);
    m_settingsAction->setObjectName(QStringLiteral("settingsAction"));
    m_settingsAction->setShortcut(QKeySequence::Preferences);
    m_fileMenu->addSeparator();
    m_quitAction = m_fileMenu->addAction(QString(), this, &QWidget::close);
    m_quitAction->setShortcut(QKeySequence::Quit);
    updateRecentMenu();

    m_helpMenu = menuBar()->addMenu(QString());
    m_helpMenu->setObjectName(QStringLiteral("helpMenu"));
    m_aboutAction = m_helpMenu->addAction(QString(), this, &MainWindow::showAbout);
    m_aboutAction->setObjectName(QStringLiteral("aboutAction"));
    m_aboutQtAction = m_helpMenu->addAction(QString(), qApp, &QApplication::aboutQt);
}

void MainWindow::showAbout()
{
    const QString dataDir = QString::fromStdString(core::userDataDir().string());
    auto* box = new QMessageBox(
        QMessageBox::NoIcon,
        tr("About GPU Planner"),
        tr("<h3>GPU Planner %1</h3>"
           "<p>Plans a training run on cloud GPUs: compares every offer of eight providers on time, cost and risk, "
           "launches the chosen instance, and proves with its CUDA probe that the GPU is what was paid for.</p>"
           "<p>Every price and specification in the catalog names its source and date (Catalog page); what is "
           "unknown is shown as unknown.</p>"
           "<p>Your plans' settings, the ledger of launches and your own offers are kept in <tt>%2</tt>; "
           "credentials in the system keychain.</p>"
           "<p>Diagnostics: start it with <tt>--verbose</tt> (or set <tt>GPUPLAN_LOG=debug</tt>); secrets are "
           "never written to the log.</p>")
            .arg(QApplication::applicationVersion(), dataDir.toHtmlEscaped()),
        QMessageBox::Ok,
        this);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showSettings()
{
    auto* settings = new AppSettings(this);
    const double catalogRate = m_data && m_data->catalog && m_data->catalog->catalog.exchangeRate()
                                   ? m_data->catalog->catalog.exchangeRate()->cnyPerUsd
                                   : 7.0;
    auto* dialog = new SettingsDialog(settings, catalogRate, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(settings, &AppSettings::changed, this, [this, settings] {
        m_wizard->useSettingsDefaults();
        if (settings->language() != currentLanguage() && kSupportedLanguages.contains(settings->language())) {
            installTranslations(*qApp, settings->language()); // every page retranslates on LanguageChange
        }
    });
    connect(dialog, &QObject::destroyed, settings, &QObject::deleteLater);
    dialog->open();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = AppSettings().recentFiles();
    for (const QString& file : files) {
        m_recentMenu->addAction(QFileInfo(file).fileName(), this, [this, file] { openPlan(file); })->setToolTip(file);
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::updateTitle()
{
    const QString file =
        m_session->filePath().isEmpty() ? tr("Untitled plan") : QFileInfo(m_session->filePath()).fileName();
    setWindowTitle(m_session->hasPlan() ? tr("%1[*] — GPU Planner").arg(file) : tr("GPU Planner"));
    setWindowModified(m_session->isModified());
    m_saveAction->setEnabled(m_session->hasPlan());
    m_saveAsAction->setEnabled(m_session->hasPlan());
    m_exportReportAction->setEnabled(m_session->hasPlan());
}

bool MainWindow::maybeSave()
{
    if (!m_session->isModified() || !m_session->hasPlan()) {
        return true;
    }
    SaveAnswer answer = SaveAnswer::Cancel;
    if (const std::optional<QVariant> next = Questions::takeNextAnswer(Question::SaveChanges)) {
        answer = static_cast<SaveAnswer>(next->toInt());
    } else {
        const auto button = QMessageBox::question(this,
                                                  tr("Unsaved plan"),
                                                  tr("The plan has changes that are not saved. Save them?"),
                                                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                                  QMessageBox::Save);
        answer = button == QMessageBox::Save      ? SaveAnswer::Save
                 : button == QMessageBox::Discard ? SaveAnswer::Discard
                                                  : SaveAnswer::Cancel;
    }
    switch (answer) {
        case SaveAnswer::Save:
            return savePlan();
        case SaveAnswer::Discard:
            return true;
        case SaveAnswer::Cancel:
            return false;
    }
    return false;
}

bool MainWindow::openPlan(const QString& path)
{
    if (!maybeSave()) {
        return false;
    }
    if (core::Status opened = m_session->open(path); !opened) {
        QMessageBox::warning(this,
                             tr("Cannot open the plan"),
                             tr("%1\n\n%2: %3")
                                 .arg(QString::fromStdString(opened.error().where),
                                      errorCodeText(opened.error().code),
                                      errorDetailText(opened.error())));
        return false;
    }
    AppSettings().addRecentFile(path);
    updateRecentMenu();
    showPage(Page::Compare);
    return true;
}

bool MainWindow::savePlan()
{
    return m_session->filePath().isEmpty() ? savePlanAs() : savePlanAs(m_session->filePath());
}

bool MainWindow::savePlanAs(const QString& given)
{
    QString path = given.isEmpty() ? takeNextFileName() : given;
    if (path.isEmpty()) {
        path = QFileDialog::getSaveFileName(
            this, tr("Save plan"), QStringLiteral("plan.gpuplan"), tr("GPU Planner plans (*.gpuplan)"));
    }
    if (path.isEmpty()) {
        return false;
    }
    if (!path.endsWith(QLatin1String(".gpuplan"))) {
        path += QStringLiteral(".gpuplan");
    }
    if (core::Status saved = m_session->save(path); !saved) {
        QMessageBox::warning(
            this,
            tr("Cannot save the plan"),
            tr("%1: %2").arg(QString::fromStdString(saved.error().where), errorDetailText(saved.error())));
        return false;
    }
    AppSettings().addRecentFile(path);
    updateRecentMenu();
    updateTitle();
    return true;
}

bool MainWindow::exportReport(const QString& given)
{
    if (!m_session->hasPlan()) {
        return false;
    }
    QString path = given.isEmpty() ? takeNextFileName() : given;
    if (path.isEmpty()) {
        const QString suggested = m_session->filePath().isEmpty()
                                      ? QStringLiteral("plan-report.pdf")
                                      : QFileInfo(m_session->filePath()).completeBaseName() + QStringLiteral(".pdf");
        path = QFileDialog::getSaveFileName(this, tr("Export PDF report"), suggested, tr("PDF files (*.pdf)"));
    }
    if (path.isEmpty()) {
        return false;
    }
    if (!path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
        path += QStringLiteral(".pdf");
    }
    AppSettings settings;
    ReportSettings report;
    report.paper = parsePaper(settings.reportPaper()).value_or(QPageSize::A4);
    report.lab = settings.reportLab();
    report.author = settings.reportAuthor();

    QProgressDialog progress(tr("Writing the report…"), tr("Cancel"), 0, 0, this);
    progress.setObjectName(QStringLiteral("reportProgressDialog"));
    progress.setWindowTitle(tr("Export PDF report"));
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    progress.show();
    int pages = 0;
    const QString where = m_session->filePath().isEmpty() ? tr("the open plan") : m_session->filePath();
    // The plan's runs as the ledger has them now (a quick local read): plan against actual in the report.
    core::PlanDocument plan = *m_session->plan();
    (void)core::attachLedgerRuns(plan, core::defaultLedgerFile()); // without them, the plan's own runs are reported
    core::Status written = writeReportPdf(plan, where, path, report, [&](int done, int total) {
        pages = total;
        progress.setMaximum(total);
        progress.setValue(done);
        progress.setLabelText(tr("Writing page %1 of %2…").arg(std::min(done + 1, total)).arg(total));
        QCoreApplication::processEvents();
        return !progress.wasCanceled();
    });
    progress.reset();
    if (!written) {
        if (written.error().code != core::ErrorCode::Cancelled) {
            QMessageBox::warning(this, tr("Cannot write the report"), errorMessage(written.error()));
        }
        return false;
    }
    statusBar()->showMessage(tr("Wrote %1 (%2 pages).").arg(QDir::toNativeSeparators(path)).arg(pages), 10000);
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (maybeSave()) {
        event->accept();
    } else {
        event->ignore();
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".gpuplan"))) {
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".gpuplan"))) {
            openPlan(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
    }
}

} // namespace gpuplan::ui
