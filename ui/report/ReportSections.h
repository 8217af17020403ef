#pragma once

#include "PdfPageWriter.h"
#include "ReportPdf.h"
#include "gpuplan/report/Report.h"

#include <QCoreApplication>
#include <QSizeF>
#include <QString>

#include <functional>
#include <vector>

namespace gpuplan::ui {

/// The translation context of the report's words.
struct Report
{
    Q_DECLARE_TR_FUNCTIONS(Report)
};

/// One of the Costs view's charts as the report draws it: a figure, or the sentence of a chart that has no data.
struct ReportFigure
{
    QString placeholder; // not empty: the chart says only this
    QSizeF size;
    std::function<void(QPainter&, const QRectF&)> draw;
};

/// What each section of the PI's report says, written onto a PdfPageWriter: cover, summary, workload,
/// assumptions, comparison, costs, risks, buy vs rent, probe results and spend when the plan has them, method and
/// glossary. Words through Report::tr, in the UI's language.
class ReportSections
{
public:
    /// `title`: the workload as the UI names it (empty: unnamed).
    ReportSections(PdfPageWriter& out,
                   const core::Report& report,
                   const ReportSettings& settings,
                   const QString& title,
                   std::vector<ReportFigure> figures);

    void build();

private:
    // Blocks (ReportSections.cpp)
    void heading(const QString& text, int level = 1, bool newPage = false, bool numbered = true);
    void paragraph(const QString& text, double pointSize = 10, bool bold = false);
    void note(const QString& text);
    void bullet(const QString& text);
    void table(const QStringList& headers, const std::vector<QStringList>& rows, const std::vector<int>& bold = {});
    void keyValues(const std::vector<std::pair<QString, QString>>& pairs);

    // Words shared by the sections (ReportSections.cpp)
    QString limitText(core::LimitVerdict verdict, bool budget, double limit) const;
    QString termText(double amount, double months) const;
    QString commitmentClause(const core::PlanOption& option) const;
    QString optionLine(const core::PlanOption& option) const;

    // The plan and its choice (ReportSections.cpp)
    void cover();
    void summary();
    void workload();
    void assumptions();
    void comparison();
    void costs();

    // Risks, ownership, what happened, appendices (ReportDetailSections.cpp)
    void risks();
    void buyVsRent();
    void verifications();
    void spend();
    void runs();
    void method();
    void glossary();

    PdfPageWriter& m_out;
    const core::Report& m_report;
    const ReportSettings& m_settings;
    QString m_title;
    std::function<QString(double)> m_money; // an amount in the plan's currency
    std::vector<ReportFigure> m_figures;
    int m_section = 0;
};

// Words used across the sections.
QString q(const std::string& text);
QString rangeText(const core::Range& r, const std::function<QString(double)>& format);
/// The central figure over its range, for a narrow table cell.
QString stacked(const core::Range& r, const std::function<QString(double)>& format);
QString modeName(core::PricingMode mode);
/// A pricing mode id ("on_demand", "reserved_1y", ...: a buy-vs-rent line's key); an unknown id as itself.
QString modeName(const std::string& mode);
QString offerName(const core::PlanOption& option);
QString percent(double share, int decimals = 0);
/// A source address as a reader types it: percent-encoding decoded ("%2F" -> "/").
QString urlText(const std::string& url);

} // namespace gpuplan::ui
