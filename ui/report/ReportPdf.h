#pragma once

#include "gpuplan/core/Result.h"

#include "gpuplan/plan/PlanDocument.h"

#include <QDate>
#include <QPageSize>
#include <QString>

#include <functional>

namespace gpuplan::ui {

/// What the cover says beyond the plan, and the paper. The language is the UI's (installTranslations).
struct ReportSettings
{
    QPageSize::PageSizeId paper = QPageSize::A4; // A4 or Letter
    QString lab;                                 // lab or project; empty: left off the cover
    QString author;                              // empty: left off the cover
    QDate date = QDate::currentDate();
};

/// "a4" / "letter" (any case) -> the page size; nullopt for anything else.
std::optional<QPageSize::PageSizeId> parsePaper(const QString& name);

/// Why `pdfFile` cannot be written, as a sentence for the user that names the file and the reason ("cannot write
/// /x/r.pdf: the folder /x does not exist"); empty when it can. Tries to open the file and leaves the folder as it was.
QString reportOutputProblem(const QString& pdfFile);

/// Called before each page is drawn with (pages done, pages in all); returning false stops the export (the
/// file is then removed and the result is Cancelled).
using ReportProgress = std::function<bool(int done, int total)>;

/// Writes the PI's report of a plan document as a PDF: cover, summary, workload and assumptions, comparison
/// table, the Costs view's charts drawn as vectors, risks, buy vs rent, probe results and spend when the plan
/// has them, method and glossary. Page numbers, header and footer, repeated table headers, headings kept with
/// what follows, fonts embedded. `where` names the plan in messages. Needs a QApplication (the charts are
/// QGraphicsWidgets) and runs on its thread. An output that cannot be written is InvalidArgument, its detail
/// reportOutputProblem's sentence; nothing is then created.
core::Status writeReportPdf(const core::PlanDocument& plan,
                            const QString& where,
                            const QString& pdfFile,
                            const ReportSettings& settings,
                            const ReportProgress& progress = {});

} // namespace gpuplan::ui
