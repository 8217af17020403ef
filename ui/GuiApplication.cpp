#include "GuiApplication.h"

#include "AppSettings.h"
#include "MainWindow.h"
#include "PlanSession.h"
#include "charts/PlanCharts.h"
#include "pages/CostsPage.h"
#include "pages/PlanWizard.h"
#include "wording/Language.h"

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/core/Log.h"
#include "gpuplan/workload/WorkloadLoader.h"

#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDir>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>

#include <cstdio>
#include <cstdlib>

namespace gpuplan::ui {

namespace {

QString screenshotFile(const QString& dir, int n, const QString& name)
{
    return QDir(dir).filePath(QStringLiteral("%1-%2.png").arg(n, 2, 10, QLatin1Char('0')).arg(name));
}

void grabInto(QWidget& window, const QString& file)
{
    QApplication::processEvents();
    if (!window.grab().save(file)) {
        std::fprintf(stderr, "gpuplanner: cannot write %s\n", qPrintable(file));
    } else {
        std::printf("%s\n", qPrintable(file));
    }
}

/// The charts as the PDF report will draw them (ChartStyle::print), one PNG each, at the report's proportions.
void grabChartsForPrint(MainWindow& window, const QString& dir, int& n)
{
    const core::PlanDocument* plan = window.session()->plan();
    if (!plan) {
        return;
    }
    ChartStyle print;
    print.print = true;
    const std::vector<QChart*> charts = allPlanCharts(*plan, print);
    auto* costs = window.findChild<CostsPage*>(QStringLiteral("costsPage"));
    for (int i = 0; i < int(charts.size()); ++i) {
        QChartView view(charts[std::size_t(i)]); // owns the chart
        view.setRenderHint(QPainter::Antialiasing);
        view.resize(1000, 620);
        grabInto(view, screenshotFile(dir, ++n, QStringLiteral("print-") + costs->chartViews()[i]->objectName()));
    }
}

/// The Costs view again under a dark palette: the charts follow it.
void grabChartsInDarkMode(MainWindow& window, const QString& dir, int& n)
{
    QApplication::setStyle(QStringLiteral("Fusion"));
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::WindowText, Qt::white);
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x33, 0x33, 0x33));
    dark.setColor(QPalette::Text, Qt::white);
    dark.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3a));
    dark.setColor(QPalette::ButtonText, Qt::white);
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xd8));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        dark.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x80));
    }
    QApplication::setPalette(dark);
    window.showPage(MainWindow::Page::Costs);
    auto* costs = window.findChild<CostsPage*>(QStringLiteral("costsPage"));
    for (int tab = 0; tab < costs->tabs()->count(); ++tab) {
        costs->tabs()->setCurrentIndex(tab);
        grabInto(window,
                 screenshotFile(dir, ++n, QStringLiteral("dark-costs-") + costs->chartViews()[tab]->objectName()));
    }
}

/// Writes `<dir>/<NN>-<page>.png` for each wizard page, then plans with the wizard's defaults and writes the
/// other pages, then quits. Run under a real X server (tests/ui/screenshots.sh starts Xvfb) so fonts and style
/// are those a user sees.
void takeScreenshots(MainWindow& window, const QString& dir)
{
    QDir().mkpath(dir);
    int n = 0;
    window.showPage(MainWindow::Page::Plan);
    auto* wizard = window.findChild<PlanWizard*>(QStringLiteral("planWizard"));
    for (int id : wizard->pageIds()) {
        while (wizard->currentId() != id) {
            wizard->next();
        }
        grabInto(window, screenshotFile(dir, ++n, QStringLiteral("plan-") + wizard->currentPage()->objectName()));
        if (wizard->currentPage()->objectName() == QLatin1String("workloadPage")) {
            // The page again with a throughput of one's own (the list ends with it and the file entry).
            auto* list = wizard->findChild<QComboBox*>(QStringLiteral("presetComboBox"));
            auto* units = wizard->findChild<QLineEdit*>(QStringLiteral("unitsPerEpochEdit"));
            list->setCurrentIndex(list->count() - 2);
            units->setText(QStringLiteral("1.28M"));
            grabInto(window, screenshotFile(dir, ++n, QStringLiteral("plan-workloadPage-measured")));
            units->clear();
            list->setCurrentIndex(0);
        }
    }
    QObject::connect(
        window.session(),
        &PlanSession::planChanged,
        &window,
        [&window, dir, n]() mutable {
            for (MainWindow::Page page : MainWindow::availablePages()) {
                if (page == MainWindow::Page::Plan) {
                    continue;
                }
                window.showPage(page);
                if (page == MainWindow::Page::Catalog) {
                    // Show the page in use: a priced row selected, so its sources are on screen.
                    if (auto* table = window.findChild<QTableView*>(QStringLiteral("catalogTable"))) {
                        table->selectRow(1);
                    }
                }
                if (page == MainWindow::Page::Costs) {
                    // One picture per chart.
                    auto* costs = window.findChild<CostsPage*>(QStringLiteral("costsPage"));
                    for (int tab = 0; tab < costs->tabs()->count(); ++tab) {
                        costs->tabs()->setCurrentIndex(tab);
                        grabInto(window,
                                 screenshotFile(
                                     dir, ++n, QStringLiteral("costs-") + costs->chartViews()[tab]->objectName()));
                    }
                    continue;
                }
                grabInto(window, screenshotFile(dir, ++n, MainWindow::pageKey(page)));
                if (page == MainWindow::Page::Launch) {
                    // Again as a managed job: the same Azure machine submitted to Azure Machine Learning.
                    const auto combo = [&window](const char* name) {
                        return window.findChild<QComboBox*>(QLatin1String(name));
                    };
                    combo("launchProviderComboBox")
                        ->setCurrentIndex(combo("launchProviderComboBox")->findData(QStringLiteral("azure")));
                    combo("launchInstanceComboBox")->setCurrentText(QStringLiteral("Standard_NC4as_T4_v3"));
                    combo("launchServiceComboBox")->setCurrentIndex(1);
                    combo("launchRegionComboBox")->setCurrentText(QStringLiteral("eastus"));
                    window.findChild<QLineEdit*>(QStringLiteral("launchJobImageLineEdit"))
                        ->setText(QStringLiteral("mcr.microsoft.com/azureml/curated/acpt-pytorch-2.2-cuda12.1"));
                    window.findChild<QLineEdit*>(QStringLiteral("launchJobCommandLineEdit"))
                        ->setText(QStringLiteral("python train.py --epochs 90"));
                    grabInto(window, screenshotFile(dir, ++n, QStringLiteral("launch-managed-job")));
                }
                if (page == MainWindow::Page::Compare) {
                    // Again with the excluded offers open, each group of them too.
                    auto* toggle = window.findChild<QToolButton*>(QStringLiteral("excludedToggle"));
                    auto* excluded = window.findChild<QTreeWidget*>(QStringLiteral("excludedList"));
                    toggle->setChecked(true);
                    excluded->expandAll();
                    grabInto(window, screenshotFile(dir, ++n, QStringLiteral("compare-excluded")));
                    toggle->setChecked(false);
                }
            }
            grabChartsForPrint(window, dir, n);
            grabChartsInDarkMode(window, dir, n);
            QCoreApplication::exit(0); // not quit(): that would ask to save the plan just made
        },
        Qt::SingleShotConnection);
    if (std::optional<PlanInputs> inputs = wizard->inputs()) {
        window.session()->replan(*inputs);
    } else {
        QCoreApplication::exit(0); // not quit(): that would ask to save the plan just made
    }
}

} // namespace

std::optional<GuiOptions> parseGuiOptions(const QStringList& arguments, QString* error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("GuiApplication", "GPU Planner"));
    parser.addHelpOption();
    const QCommandLineOption langOption(
        QStringLiteral("lang"),
        QApplication::translate("GuiApplication", "User interface language: en or zh_CN."),
        QStringLiteral("language"));
    const QCommandLineOption catalogOption(
        QStringLiteral("catalog"),
        QApplication::translate("GuiApplication", "Catalog folder to use instead of the bundled one."),
        QStringLiteral("dir"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshots"),
        QApplication::translate("GuiApplication", "Write a PNG of each page into this folder, then quit."),
        QStringLiteral("dir"));
    const QCommandLineOption verboseOption(
        {QStringLiteral("v"), QStringLiteral("verbose")},
        QApplication::translate("GuiApplication",
                                "Log what is done to the terminal; repeat for more (-vv, -vvv). Secrets are never "
                                "shown. GPUPLAN_LOG chooses per category, e.g. net=trace."));
    parser.addOption(langOption);
    parser.addOption(catalogOption);
    parser.addOption(screenshotOption);
    parser.addOption(verboseOption);
    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return std::nullopt;
    }
    GuiOptions options;
    // Compacted short options ("-vv") arrive as one name each.
    options.verbosity =
        int(parser.optionNames().count(QStringLiteral("v")) + parser.optionNames().count(QStringLiteral("verbose")));
    if (parser.isSet(QStringLiteral("help"))) {
        options.helpText = parser.helpText();
        return options;
    }
    const QString saved = AppSettings().language(); // chosen in Settings
    options.language = parser.isSet(langOption) ? parser.value(langOption)
                       : !saved.isEmpty()       ? saved
                                                : languageForLocale(QLocale::system().name());
    if (!kSupportedLanguages.contains(options.language)) {
        *error = QApplication::translate("GuiApplication", "Unknown language \"%1\"; supported: %2")
                     .arg(options.language, kSupportedLanguages.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    options.catalogDir = parser.isSet(catalogOption)
                             ? std::filesystem::path(parser.value(catalogOption).toStdString())
                             : core::bundledCatalogDir(QCoreApplication::applicationDirPath().toStdString());
    options.screenshotDir = parser.value(screenshotOption);
    return options;
}

int runGui(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("gpuplanner"));
    QApplication::setOrganizationName(QStringLiteral("gpuplanner"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QString error;
    std::optional<GuiOptions> options = parseGuiOptions(QApplication::arguments(), &error);
    if (!options) {
        std::fprintf(stderr, "gpuplanner: %s\n", qPrintable(error));
        return 2;
    }
    if (!options->helpText.isEmpty()) {
        std::printf("%s", qPrintable(options->helpText));
        return 0;
    }
    for (const std::string& problem : core::configureLogging(options->verbosity, std::getenv("GPUPLAN_LOG"))) {
        std::fprintf(stderr, "gpuplanner: warning: %s\n", problem.c_str());
    }
    if (!installTranslations(app, options->language)) {
        std::fprintf(stderr, "gpuplanner: no translation for %s, using English\n", qPrintable(options->language));
    }

    MainWindow window(options->catalogDir,
                      core::userCatalogDir(),
                      core::bundledWorkloadDir(QCoreApplication::applicationDirPath().toStdString()));
    window.show();
    if (!options->screenshotDir.isEmpty()) {
        QObject::connect(&window, &MainWindow::catalogLoaded, &app, [&window, dir = options->screenshotDir] {
            // Let the window lay out and paint once before it is grabbed; close any problems dialog too.
            QTimer::singleShot(300, &window, [&window, dir] { takeScreenshots(window, dir); });
        });
    }
    return QApplication::exec();
}

} // namespace gpuplan::ui
