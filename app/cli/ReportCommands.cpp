#include "ReportCommands.h"

#include "CatalogCommands.h"
#include "TerminalOutput.h"
#include "gpuplan/plan/PlanFile.h"
#include "gpuplan/report/RunsReport.h"
#include "report/ReportPdf.h"
#include "wording/Language.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLocale>

#include <cstdlib>
#include <iostream>

namespace gpuplan::cli {

int runReport(int& argc, char** argv, const ReportOptions& options)
{
    std::optional<QPageSize::PageSizeId> paper = ui::parsePaper(QString::fromStdString(options.paper));
    if (!paper) {
        std::cerr << "gpuplan report: --paper " << options.paper << ": use a4 or letter\n";
        return kExitBadInput;
    }
    core::Result<core::PlanDocument> plan = core::loadPlan(options.plan);
    if (!plan) {
        std::cerr << "gpuplan report: " << said(plan.error()) << '\n';
        return kExitBadInput;
    }
    // The plan's runs as the ledger has them now: plan against actual in the report.
    core::PlanDocument withRuns = *plan;
    if (core::Status attached = core::attachLedgerRuns(withRuns, core::defaultLedgerFile()); !attached) {
        std::cerr << "gpuplan report: warning: the ledger's runs are not in the report: " << said(attached.error())
                  << '\n';
    }

    // The charts are widgets: a QApplication, headless unless the caller chose a platform.
    if (!std::getenv("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    const QString language = options.language.empty() ? ui::languageForLocale(QLocale::system().name())
                                                      : QString::fromStdString(options.language);
    if (!ui::kSupportedLanguages.contains(language)) {
        std::cerr << "gpuplan report: --lang " << options.language << ": use en or zh_CN\n";
        return kExitBadInput;
    }
    if (!ui::installTranslations(app, language)) {
        std::cerr << "gpuplan report: the " << language.toStdString() << " translation is missing from this build\n";
        return kExitFailure;
    }
    QLocale::setDefault(language == QLatin1String("zh_CN") ? QLocale(QLocale::Chinese, QLocale::China)
                                                           : QLocale(QLocale::English, QLocale::UnitedStates));

    ui::ReportSettings settings;
    settings.paper = *paper;
    settings.lab = QString::fromStdString(options.lab);
    settings.author = QString::fromStdString(options.author);
    int pages = 0;
    QElapsedTimer timer;
    timer.start();
    core::Status written = ui::writeReportPdf(withRuns,
                                              QString::fromStdString(options.plan),
                                              QString::fromStdString(options.output),
                                              settings,
                                              [&pages](int, int total) {
                                                  pages = total;
                                                  return true;
                                              });
    if (!written) {
        std::cerr << "gpuplan report: " << said(written.error()) << '\n';
        return written.error().code == core::ErrorCode::InvalidArgument
                       || written.error().code == core::ErrorCode::SchemaViolation
                   ? kExitBadInput
                   : kExitFailure;
    }
    std::cout << "wrote " << options.output << ": " << pages << " pages in " << timer.elapsed() << " ms\n";
    return kExitOk;
}

} // namespace gpuplan::cli
