#include "ReportPdf.h"

#include "Format.h"
#include "Language.h"
#include "PlanText.h"
#include "charts/PlanCharts.h"
#include "gpuplan/report/Report.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QChart>
#include <QCoreApplication>
#include <QFile>
#include <QGraphicsScene>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextObjectInterface>
#include <QTextTable>

#include <cmath>
#include <memory>
#include <set>

namespace gpuplan::ui {

namespace {

using json = nlohmann::json;

/// The translation context of the report's words.
struct Report
{
    Q_DECLARE_TR_FUNCTIONS(Report)
};

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

constexpr int kChartObject = QTextFormat::UserObject + 1;
constexpr int kChartIndex = QTextFormat::UserProperty + 1;

// Page geometry in points at 72 per inch... the writer's resolution is 96 dpi so that the charts and the text
// use the same pixel metrics as on screen; the output is vector whatever the resolution.
constexpr int kDpi = 96;
constexpr double kMarginMm = 18;
constexpr double kHeaderMm = 10; // from the page edge to the header line, and to the footer line

double mm(double millimetres)
{
    return millimetres * kDpi / 25.4;
}

/// Draws the Costs view's charts where the document has a chart object: QChart onto the PDF's painter, so the
/// PDF gets paths and text, not pixels.
class ChartObjects final : public QObject, public QTextObjectInterface
{
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)

public:
    /// Takes the charts and lays each out in a scene of its own, `size` or taller where a vertical category axis
    /// needs room for one readable label per category (a label taller than its slot is elided).
    ChartObjects(std::vector<QChart*> charts, const QSizeF& size)
    {
        for (QChart* chart : charts) {
            QSizeF chartSize = size;
            for (QAbstractAxis* axis : chart->axes(Qt::Vertical)) {
                if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis)) {
                    chartSize.setHeight(std::max(size.height(), categories->count() * 20.0 + 140));
                }
            }
            auto scene = std::make_unique<QGraphicsScene>();
            scene->addItem(chart); // the scene owns it
            chart->setGeometry(QRectF(QPointF(0, 0), chartSize));
            scene->setSceneRect(chart->geometry());
            m_scenes.push_back(std::move(scene));
        }
        // The charts lay themselves out on posted LayoutRequests, the axes once their labels are measured.
        for (int round = 0; round < 3; ++round) {
            QCoreApplication::sendPostedEvents();
        }
    }

    std::size_t count() const { return m_scenes.size(); }

    QSizeF intrinsicSize(QTextDocument*, int, const QTextFormat& format) override
    {
        const int index = format.property(kChartIndex).toInt();
        return index < 0 || index >= static_cast<int>(m_scenes.size())
                   ? QSizeF()
                   : m_scenes[static_cast<std::size_t>(index)]->sceneRect().size();
    }

    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat& format) override
    {
        const int index = format.property(kChartIndex).toInt();
        if (index < 0 || index >= static_cast<int>(m_scenes.size())) {
            return;
        }
        QGraphicsScene& scene = *m_scenes[static_cast<std::size_t>(index)];
        scene.render(painter, rect, scene.sceneRect());
    }

private:
    std::vector<std::unique_ptr<QGraphicsScene>> m_scenes;
};

QString rangeText(const core::Range& r, const std::function<QString(double)>& format)
{
    return Report::tr("%1 (%2 – %3)").arg(format(r.value), format(r.low), format(r.high));
}

/// The central figure over its range, for a narrow table cell.
QString stacked(const core::Range& r, const std::function<QString(double)>& format)
{
    return format(r.value) + QChar::LineSeparator + Report::tr("%1 – %2").arg(format(r.low), format(r.high));
}

QString modeName(const std::string& mode)
{
    return pricingModeText(q(mode));
}

QString providerName(const core::ReportOption& option)
{
    return currentLanguage() == QLatin1String("zh_CN") && !option.providerNameZh.empty() ? q(option.providerNameZh)
                                                                                         : q(option.providerName);
}

QString offerName(const core::ReportOption& option)
{
    return Report::tr("%1 %2 (%3)").arg(providerName(option), q(option.instanceType), q(option.region));
}

QString percent(double share, int decimals = 0)
{
    return Report::tr("%1 %").arg(formatNumber(share * 100, decimals));
}

/// Builds the report's QTextDocument with a QTextCursor (no HTML, so no text from a plan is markup).
class ReportBuilder
{
public:
    /// `title`: the workload as the UI names it (empty: unnamed).
    ReportBuilder(QTextDocument& document,
                  const core::Report& report,
                  const ReportSettings& settings,
                  const QString& title)
        : m_cursor(&document)
        , m_report(report)
        , m_settings(settings)
        , m_title(title)
    {
        m_money = [this](double v) { return formatMoney(v, q(m_report.currency)); };
    }

    /// Blocks that must stay on the page of the block after them (headings, figure captions above).
    const std::set<int>& keepWithNext() const { return m_keepWithNext; }

    void build(std::size_t chartCount)
    {
        cover();
        summary();
        workload();
        assumptions();
        comparison();
        costs(chartCount);
        risks();
        buyVsRent();
        verifications();
        spend();
        method();
        glossary();
    }

private:
    // ---- blocks ----

    QTextCharFormat textFormat(double pointSize = 10, bool bold = false) const
    {
        QTextCharFormat f;
        f.setFontPointSize(pointSize);
        f.setFontWeight(bold ? QFont::Bold : QFont::Normal);
        f.setForeground(Qt::black);
        return f;
    }

    void
    block(double spaceBefore = 0, double spaceAfter = 4, Qt::Alignment align = Qt::AlignLeft, bool pageBreak = false)
    {
        QTextBlockFormat f;
        f.setTopMargin(spaceBefore);
        f.setBottomMargin(spaceAfter);
        f.setAlignment(align);
        f.setLineHeight(125, QTextBlockFormat::ProportionalHeight);
        if (pageBreak) {
            f.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        }
        if (m_first) {
            m_cursor.setBlockFormat(f);
            m_first = false;
        } else {
            m_cursor.insertBlock(f);
        }
    }

    /// A section heading (numbered at level 1 unless `numbered` is false) or a sub-heading (level 2).
    void heading(const QString& text, int level = 1, bool newPage = false, bool numbered = true)
    {
        block(level == 1 ? 14 : 8, level == 1 ? 6 : 3, Qt::AlignLeft, newPage);
        m_keepWithNext.insert(m_cursor.block().blockNumber());
        if (level == 1 && !numbered) {
            m_cursor.insertText(text, textFormat(15, true));
        } else if (level == 1) {
            ++m_section;
            m_cursor.insertText(Report::tr("%1  %2").arg(m_section).arg(text), textFormat(15, true));
        } else {
            m_cursor.insertText(text, textFormat(11.5, true));
        }
    }

    void paragraph(const QString& text, double pointSize = 10, bool bold = false)
    {
        block();
        m_cursor.insertText(text, textFormat(pointSize, bold));
    }

    void note(const QString& text) { paragraph(text, 8.5); }

    void bullet(const QString& text)
    {
        block(0, 2);
        QTextBlockFormat f = m_cursor.blockFormat();
        f.setLeftMargin(14);
        f.setTextIndent(-10);
        m_cursor.setBlockFormat(f);
        m_cursor.insertText(QStringLiteral("•  ") + text, textFormat());
    }

    /// A table whose first row is its header, repeated on every page it spans. `widths` in percent.
    void table(const QStringList& headers,
               const std::vector<QStringList>& rows,
               const std::vector<double>& widths,
               const std::vector<int>& boldRows = {})
    {
        block(2, 0);
        QTextTableFormat f;
        f.setHeaderRowCount(headers.isEmpty() ? 0 : 1);
        f.setBorder(headers.isEmpty() ? 0 : 0.5); // key-value lists read better without rules
        f.setBorderBrush(QColor(90, 90, 90));
        f.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        f.setCellPadding(3);
        f.setCellSpacing(0);
        f.setWidth(QTextLength(QTextLength::PercentageLength, 100));
        QList<QTextLength> constraints;
        for (double w : widths) {
            constraints << QTextLength(QTextLength::PercentageLength, w);
        }
        f.setColumnWidthConstraints(constraints);
        const int headerRows = headers.isEmpty() ? 0 : 1;
        const int columns = static_cast<int>(widths.size());
        QTextTable* t = m_cursor.insertTable(static_cast<int>(rows.size()) + headerRows, columns, f);
        auto fill = [&](int row, const QStringList& cells, bool bold, bool shaded) {
            for (int col = 0; col < columns; ++col) {
                QTextTableCell cell = t->cellAt(row, col);
                if (shaded) {
                    QTextTableCellFormat cf = cell.format().toTableCellFormat();
                    cf.setBackground(QColor(225, 225, 225));
                    cell.setFormat(cf);
                }
                QTextCursor c = cell.firstCursorPosition();
                QTextBlockFormat bf;
                bf.setLineHeight(115, QTextBlockFormat::ProportionalHeight);
                c.setBlockFormat(bf);
                c.insertText(col < cells.size() ? cells[col] : QString(), textFormat(8.5, bold));
            }
        };
        if (headerRows) {
            fill(0, headers, true, true);
        }
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const bool bold = std::find(boldRows.begin(), boldRows.end(), static_cast<int>(r)) != boldRows.end();
            fill(static_cast<int>(r) + headerRows, rows[r], bold, false);
        }
        m_cursor.movePosition(QTextCursor::End);
    }

    void keyValues(const std::vector<std::pair<QString, QString>>& pairs)
    {
        std::vector<QStringList> rows;
        for (const auto& [key, value] : pairs) {
            rows.push_back({key, value});
        }
        table({}, rows, {32, 68});
    }

    // ---- sections ----

    void cover()
    {
        block(mm(45), 10, Qt::AlignLeft);
        m_cursor.insertText(Report::tr("GPU plan for approval"), textFormat(12, false));
        block(0, 6);
        m_cursor.insertText(m_title.isEmpty() ? Report::tr("Training run") : m_title, textFormat(24, true));
        block(0, 24);
        const core::ReportOption& best = m_report.summary.recommended;
        m_cursor.insertText(
            Report::tr("Recommended: %1, %2 × %3, about %4")
                    .arg(offerName(best), QString::number(best.gpus), q(best.gpuName), m_money(best.cost.value))
                + commitmentClause(best),
            textFormat(12));
        std::vector<std::pair<QString, QString>> lines;
        if (!m_settings.lab.isEmpty()) {
            lines.push_back({Report::tr("Lab / project"), m_settings.lab});
        }
        if (!m_settings.author.isEmpty()) {
            lines.push_back({Report::tr("Prepared by"), m_settings.author});
        }
        lines.push_back({Report::tr("Date"), QLocale().toString(m_settings.date, QLocale::LongFormat)});
        lines.push_back({Report::tr("Plan computed"), q(m_report.created)});
        lines.push_back({Report::tr("Prices as of"), q(m_report.assumptions.catalogPriceDate)});
        lines.push_back({Report::tr("Currency"), q(m_report.currency)});
        lines.push_back(
            {Report::tr("Language"),
             currentLanguage() == QLatin1String("zh_CN") ? QStringLiteral("简体中文") : QStringLiteral("English")});
        keyValues(lines);
        block(18, 4);
        m_cursor.insertText(Report::tr("Made with GPU Planner from the plan file. Every price cites its source and "
                                       "date (section \"Assumptions\"); figures are estimates with a low and a high "
                                       "bound."),
                            textFormat(9));
    }

    QString limitText(core::LimitVerdict verdict, bool budget, double limit) const
    {
        const QString amount = budget ? m_money(limit) : formatHours(limit);
        switch (verdict) {
            case core::LimitVerdict::NotSet:
                return budget ? Report::tr("No budget was set.") : Report::tr("No deadline was set.");
            case core::LimitVerdict::Within:
                return budget ? Report::tr("Within the budget of %1, even at the high estimate.").arg(amount)
                              : Report::tr("Meets the deadline of %1, even at the high estimate.").arg(amount);
            case core::LimitVerdict::AtRisk:
                return budget ? Report::tr("Within the budget of %1 at the central estimate, over it at the high "
                                           "estimate.")
                                    .arg(amount)
                              : Report::tr("Meets the deadline of %1 at the central estimate, misses it at the high "
                                           "estimate.")
                                    .arg(amount);
            case core::LimitVerdict::Exceeds:
                return budget ? Report::tr("Over the budget of %1.").arg(amount)
                              : Report::tr("Misses the deadline of %1.").arg(amount);
        }
        return {};
    }

    /// "¥72,071 over 12 months": what a term binds the lab to pay in all.
    QString termText(double amount, double months) const
    {
        return Report::tr("%1 over %2").arg(m_money(amount), formatMonths(months));
    }

    /// "; commits the lab to ¥72,071 over 12 months" for an option ranked with a reservation or subscription, empty
    /// for one without a term: its cost is only this run's share, so it is never shown without the whole term.
    QString commitmentClause(const core::ReportOption& o) const
    {
        return o.commitmentAmount
                   ? Report::tr("; commits the lab to %1").arg(termText(*o.commitmentAmount, o.commitmentMonths))
                   : QString();
    }

    QString optionLine(const core::ReportOption& o) const
    {
        return Report::tr("%1, %2 × %3, %4: %5, %6")
                   .arg(offerName(o),
                        QString::number(o.gpus),
                        q(o.gpuName),
                        modeName(o.mode),
                        rangeText(o.cost, m_money),
                        rangeText(o.hours, formatHours))
               + commitmentClause(o);
    }

    void summary()
    {
        const core::ReportSummary& s = m_report.summary;
        const core::ReportOption& best = s.recommended;
        heading(Report::tr("Summary"), 1, true);
        QString recommendation =
            Report::tr("We recommend %1 with %2 × %3, paying %4. It should cost about %5 (%6 to %7) and take "
                       "about %8 (%9 to %10), setup and data upload included.")
                .arg(offerName(best),
                     QString::number(best.gpus),
                     q(best.gpuName),
                     modeName(best.mode),
                     m_money(best.cost.value),
                     m_money(best.cost.low),
                     m_money(best.cost.high),
                     formatHours(best.hours.value),
                     formatHours(best.hours.low),
                     formatHours(best.hours.high));
        if (best.commitmentAmount) {
            recommendation += QLatin1Char(' ')
                              + Report::tr("That cost is this run's share of the term: paying %1 commits the lab to "
                                           "%2, used or not.")
                                    .arg(modeName(best.mode), termText(*best.commitmentAmount, best.commitmentMonths));
        }
        paragraph(recommendation, 11, false);
        paragraph(Report::tr("It ranks first of %1 offers that meet every constraint (%2 were left out), by %3.")
                      .arg(s.eligibleCount)
                      .arg(s.excludedCount)
                      .arg(objectiveText(s.objective)));
        std::vector<std::pair<QString, QString>> rows{{Report::tr("Recommended"), optionLine(best)}};
        if (s.runnerUp) {
            rows.push_back({Report::tr("Runner-up"), optionLine(*s.runnerUp)});
        }
        rows.push_back(
            {Report::tr("Cheapest"), s.cheapest ? optionLine(*s.cheapest) : Report::tr("the recommended one")});
        rows.push_back({Report::tr("Fastest"), s.fastest ? optionLine(*s.fastest) : Report::tr("the recommended one")});
        rows.push_back({Report::tr("Budget"), limitText(s.budgetVerdict, true, s.budget.value_or(0))});
        rows.push_back({Report::tr("Deadline"), limitText(s.deadlineVerdict, false, s.deadlineHours.value_or(0))});
        keyValues(rows);
        heading(Report::tr("Why this one"), 2);
        for (const json& reason : best.reasons) {
            bullet(reasonText(reason));
        }
    }

    static QString objectiveText(const std::string& objective)
    {
        if (objective == "cheapest") {
            return Report::tr("lowest cost within the deadline");
        }
        if (objective == "fastest") {
            return Report::tr("shortest time within the budget");
        }
        return Report::tr("the best cost × time");
    }

    void workload()
    {
        heading(Report::tr("Workload"));
        const json& w = m_report.workload;
        const json& definition = w.contains("definition") ? w["definition"] : json();
        std::vector<std::pair<QString, QString>> rows;
        rows.push_back({Report::tr("Workload"), m_title});
        const bool zh = currentLanguage() == QLatin1String("zh_CN");
        QString description =
            definition.is_object() ? q(definition.value(zh ? "description_zh" : "description", "")) : QString();
        if (description.isEmpty() && definition.is_object()) {
            description = q(definition.value("description", ""));
        }
        if (!description.isEmpty()) {
            rows.push_back({Report::tr("Description"), description});
        }
        if (w.contains("task") && w["task"].is_string()) {
            rows.push_back({Report::tr("Task"), taskText(q(w["task"].get<std::string>()))});
        }
        if (w.contains("parameters") && w["parameters"].is_number()) {
            rows.push_back({Report::tr("Model parameters"),
                            Report::tr("%1 million").arg(formatNumber(w["parameters"].get<double>() / 1e6, 0))});
        }
        if (w.contains("epochs") && w["epochs"].is_number()) {
            rows.push_back({Report::tr("Epochs"), formatNumber(w["epochs"].get<double>(), 1)});
        }
        if (w.contains("units") && w["units"].is_number()) {
            rows.push_back({Report::tr("Work in all"),
                            Report::tr("%1 %2").arg(formatNumber(w["units"].get<double>(), 0),
                                                    throughputUnitText(q(w.value("unit", "samples"))))});
        }
        keyValues(rows);
    }

    void assumptions()
    {
        const core::ReportAssumptions& a = m_report.assumptions;
        heading(Report::tr("Assumptions"));
        std::vector<std::pair<QString, QString>> rows;
        const QString precision =
            a.precisionAsked.empty() || a.precisionAsked == "auto"
                ? Report::tr("the best each GPU supports (%1 on the recommended one)").arg(q(a.precisionUsed).toUpper())
                : q(a.precisionAsked).toUpper();
        rows.push_back({Report::tr("Precision"), precision});
        if (a.peakTflops) {
            rows.push_back({Report::tr("Datasheet peak"),
                            Report::tr("%1 TFLOPS per GPU (dense)").arg(formatNumber(*a.peakTflops, 1))});
        }
        if (a.efficiency) {
            QString text = rangeText(*a.efficiency, [](double v) { return percent(v); });
            if (!a.efficiencyBasis.is_null()) {
                text += Report::tr(", %1").arg(reasonText(a.efficiencyBasis));
            }
            rows.push_back({Report::tr("Efficiency (share of peak)"), text});
        }
        rows.push_back({Report::tr("Framework"), q(a.framework)});
        rows.push_back({Report::tr("Exchange rate"),
                        Report::tr("1 USD = %1 CNY, %2 (%3)")
                            .arg(formatNumber(a.cnyPerUsd, 4),
                                 q(a.exchangeRateDate),
                                 a.exchangeRateUserSet ? Report::tr("set by the user") : q(a.exchangeRateSource))});
        rows.push_back(
            {Report::tr("Electricity price"),
             a.electricityPerKwh
                 ? Report::tr("%1 per kWh").arg(formatMoney(*a.electricityPerKwh, q(a.electricityCurrency), 2))
                 : Report::tr("unknown (not set in Settings): owning is compared without energy")});
        rows.push_back({Report::tr("PUE (owned servers)"), a.pue ? formatNumber(*a.pue, 2) : Report::tr("unknown")});
        rows.push_back({Report::tr("Prices as of"), q(a.catalogPriceDate)});
        rows.push_back({Report::tr("Setup per run"), rangeText(a.setupHours, formatHours)});
        rows.push_back({Report::tr("Upload bandwidth"),
                        Report::tr("%1 Mbit/s (%2 to %3)")
                            .arg(formatNumber(a.uploadMbps.value),
                                 formatNumber(a.uploadMbps.low),
                                 formatNumber(a.uploadMbps.high))});
        if (a.checkpointWriteGbs) {
            rows.push_back(
                {Report::tr("Checkpoint writes"), Report::tr("%1 GB/s").arg(formatNumber(*a.checkpointWriteGbs, 1))});
        }
        if (a.monteCarloRuns > 0) {
            rows.push_back({Report::tr("Spot simulation"), Report::tr("%1 Monte Carlo runs").arg(a.monteCarloRuns)});
        }
        rows.push_back({Report::tr("Sensitive data"),
                        a.sensitive ? Report::tr("yes: only isolated or certified offers") : Report::tr("no")});
        if (!a.countries.empty()) {
            QStringList countries;
            for (const std::string& c : a.countries) {
                countries << q(c);
            }
            rows.push_back({Report::tr("Regions allowed"), countries.join(QStringLiteral(", "))});
        }
        keyValues(rows);
        heading(Report::tr("Sources of the prices used"), 2);
        std::vector<QStringList> sources;
        for (const core::ReportSource& s : a.priceSources) {
            sources.push_back({s.date.empty() ? Report::tr("undated") : q(s.date), q(s.url)});
        }
        table({Report::tr("As of"), Report::tr("Source")}, sources, {14, 86});
    }

    void comparison()
    {
        heading(Report::tr("Comparison"), 1, true);
        paragraph(Report::tr("The %1 best offers in every pricing mode the catalog has for them. Costs include "
                             "storage and data egress; times include setup and data upload. Ranges run from the "
                             "low to the high estimate.")
                      .arg(m_report.options.size()));
        std::vector<QStringList> rows;
        std::vector<int> bold;
        for (const core::ComparisonRow& row : m_report.comparison) {
            const core::ReportOption& o = m_report.options[row.option];
            const core::ReportMode& m = row.mode;
            QString price = Report::tr("unknown");
            if (m.price) {
                price =
                    Report::tr("%1 / %2").arg(formatMoney(m.price->amount, q(m.price->currency)),
                                              priceUnitText(q(m.price->unit)))
                    + QChar::LineSeparator
                    + (m.price->asOf.empty() ? Report::tr("undated") : Report::tr("as of %1").arg(q(m.price->asOf)));
            }
            QString cost = stacked(m.cost, m_money);
            if (m.commitmentAmount) {
                cost += QChar::LineSeparator
                        + Report::tr("commits %1").arg(termText(*m.commitmentAmount, m.commitmentMonths));
            }
            QString note = m.eligible ? QString() : reasonText(m.whyNot);
            if (row.ranked && row.rank == 1) {
                bold.push_back(static_cast<int>(rows.size()));
            }
            rows.push_back({row.ranked ? QString::number(row.rank) : QString(),
                            row.ranked ? offerName(o) : QString(),
                            row.ranked ? Report::tr("%1 × %2").arg(o.gpus).arg(q(o.gpuName)) : QString(),
                            modeName(m.mode),
                            price,
                            stacked(m.hours, formatHours),
                            cost,
                            m.eligible ? Report::tr("yes") : Report::tr("no: %1").arg(note)});
        }
        table({Report::tr("#"),
               Report::tr("Offer"),
               Report::tr("GPUs"),
               Report::tr("Pricing"),
               Report::tr("Price"),
               Report::tr("Time"),
               Report::tr("Cost (%1)").arg(q(m_report.currency)),
               Report::tr("Eligible")},
              rows,
              {5, 20, 12, 11, 12, 11, 13, 16},
              bold);
    }

    void costs(std::size_t chartCount)
    {
        heading(Report::tr("Costs"), 1, true);
        paragraph(Report::tr("The charts of the Costs view, drawn from the same plan."));
        for (std::size_t i = 0; i < chartCount; ++i) {
            block(6, 8, Qt::AlignHCenter);
            QTextCharFormat f;
            f.setObjectType(kChartObject);
            f.setProperty(kChartIndex, static_cast<int>(i));
            m_cursor.insertText(QString(QChar::ObjectReplacementCharacter), f);
        }
    }

    void risks()
    {
        const core::ReportRisks& r = m_report.risks;
        heading(Report::tr("Risks"));
        heading(Report::tr("Spot interruption"), 2);
        if (r.spot.empty()) {
            paragraph(Report::tr("No ranked offer has a spot price whose interruption rate is published, so no option "
                                 "here depends on spot capacity."));
        } else {
            paragraph(Report::tr("Interruptions are modelled as a Poisson process from the provider's published "
                                 "monthly interruption rate; the run saves checkpoints at Daly's optimum interval and "
                                 "restarts from the last one. P90: nine runs in ten finish within this."));
            std::vector<QStringList> rows;
            for (const core::SpotRisk& s : r.spot) {
                rows.push_back(
                    {QString::number(s.rank),
                     q(s.offer),
                     rangeText(s.monthlyInterruption, [](double v) { return percent(v); }),
                     formatHours(s.mtbfHours),
                     s.checkpointIntervalHours ? formatHours(*s.checkpointIntervalHours) : Report::tr("unknown"),
                     s.p90Hours ? formatHours(*s.p90Hours) : Report::tr("unknown"),
                     s.p90Cost ? m_money(*s.p90Cost) : Report::tr("unknown")});
            }
            table({Report::tr("#"),
                   Report::tr("Offer"),
                   Report::tr("Interrupted per month"),
                   Report::tr("Mean time between"),
                   Report::tr("Checkpoint every"),
                   Report::tr("P90 time"),
                   Report::tr("P90 cost")},
                  rows,
                  {5, 29, 17, 13, 12, 12, 12});
        }
        heading(Report::tr("Reserved and subscription commitments"), 2);
        if (r.commitments.empty()) {
            paragraph(Report::tr("No offer in the comparison binds the lab to a term."));
        } else {
            std::vector<QStringList> rows;
            for (const core::CommitmentRisk& c : r.commitments) {
                rows.push_back({QString::number(c.rank),
                                q(c.offer),
                                modeName(c.mode),
                                formatMonths(c.months),
                                m_money(c.amount),
                                m_money(c.runCost.value),
                                c.eligible ? Report::tr("yes") : Report::tr("no")});
            }
            paragraph(Report::tr("A reservation or subscription is paid for its whole term, used or not. The "
                                 "commitment is what the term costs; the run cost is the share this run uses."));
            table({Report::tr("#"),
                   Report::tr("Offer"),
                   Report::tr("Pricing"),
                   Report::tr("Term"),
                   Report::tr("Commitment"),
                   Report::tr("Run cost"),
                   Report::tr("Fits the project")},
                  rows,
                  {5, 31, 14, 10, 14, 12, 14});
        }
        heading(Report::tr("Data sensitivity"), 2);
        if (r.sensitive) {
            paragraph(Report::tr("The data was marked sensitive: %n offer(s) were left out because they are neither "
                                 "physically isolated nor under a compliance programme.",
                                 nullptr,
                                 r.excludedAsSensitive));
            if (!r.recommendedIsolation.is_null()) {
                paragraph(Report::tr("Recommended offer: %1").arg(reasonText(r.recommendedIsolation)));
            }
        } else {
            paragraph(Report::tr("The data was not marked sensitive, so offers were not filtered by isolation or "
                                 "compliance. Mark it in the wizard if the data may not leave a certified "
                                 "environment."));
        }
        if (!r.exclusionsByRule.empty()) {
            heading(Report::tr("Offers left out"), 2);
            std::vector<QStringList> rows;
            for (const auto& [rule, count] : r.exclusionsByRule) {
                rows.push_back({ruleText(rule), QString::number(count)});
            }
            table({Report::tr("Rule"), Report::tr("Offers")}, rows, {80, 20});
        }
    }

    static QString ruleText(const std::string& rule)
    {
        static const std::map<std::string, const char*> names{
            {"framework", QT_TRANSLATE_NOOP("Report", "the framework does not run there")},
            {"sensitive", QT_TRANSLATE_NOOP("Report", "not isolated or certified for sensitive data")},
            {"memory", QT_TRANSLATE_NOOP("Report", "the model does not fit in GPU memory")},
            {"no_price", QT_TRANSLATE_NOOP("Report", "no published price")},
            {"rdma", QT_TRANSLATE_NOOP("Report", "several servers without RDMA between them")},
            {"deadline", QT_TRANSLATE_NOOP("Report", "misses the deadline")},
            {"budget", QT_TRANSLATE_NOOP("Report", "over the budget")},
            {"pricing", QT_TRANSLATE_NOOP("Report", "no pricing mode could be judged")},
            {"region", QT_TRANSLATE_NOOP("Report", "outside the regions allowed")},
            {"scale", QT_TRANSLATE_NOOP("Report", "outside the GPU count asked for")},
            {"unknown", QT_TRANSLATE_NOOP("Report", "no usable estimate")},
        };
        auto it = names.find(rule);
        return it == names.end() ? q(rule) : Report::tr(it->second);
    }

    void buyVsRent()
    {
        const core::ReportBuyVsRent& b = m_report.buyVsRent;
        heading(Report::tr("Buy or rent"));
        if (!b.available) {
            paragraph(b.unavailableReason.empty() ? Report::tr("The plan does not compare buying with renting.")
                                                  : Report::tr("Not compared: %1").arg(q(b.unavailableReason)));
            return;
        }
        paragraph(Report::tr("Buying %1 (%2 × %3) against renting the same GPUs for %4 at %5 utilisation. "
                             "Owning adds maintenance of %6 a year and energy at PUE %7; the server is written off "
                             "over %8 years.")
                      .arg(q(b.system),
                           QString::number(b.gpus),
                           q(b.gpuName),
                           formatMonths(b.months),
                           percent(b.utilisation),
                           percent(b.maintenancePerYear),
                           formatNumber(b.pue, 2),
                           formatNumber(b.depreciationYears, 0)));
        if (!b.electricityPerKwh) {
            note(Report::tr("The electricity price is unknown (set it in Settings), so owning is shown without "
                            "energy: its real cost is higher."));
        }
        std::vector<QStringList> rows;
        QStringList sources;
        auto line = [&](const core::ReportRentLine& l, const QString& name) {
            rows.push_back({name,
                            l.offer.empty() ? QString() : q(l.offer),
                            m_money(l.upfront),
                            m_money(l.monthly),
                            m_money(l.total),
                            l.key == "own"     ? QString()
                            : l.breakEvenMonth ? Report::tr("month %1").arg(formatNumber(*l.breakEvenMonth, 0))
                                               : Report::tr("not within %1").arg(formatMonths(b.months))});
            sources.push_back(Report::tr("%1: %2, %3").arg(name, q(l.source.date), q(l.source.url)));
        };
        line(b.own, Report::tr("Buy"));
        for (const core::ReportRentLine& l : b.rent) {
            line(l, modeName(l.key));
        }
        table({Report::tr("Way"),
               Report::tr("Offer"),
               Report::tr("Up front"),
               Report::tr("Per month"),
               Report::tr("After %1").arg(formatMonths(b.months)),
               Report::tr("Owning is cheaper from")},
              rows,
              {14, 28, 13, 13, 15, 17});
        heading(Report::tr("Sources"), 2);
        for (const QString& source : sources) {
            note(source);
        }
    }

    void verifications()
    {
        if (m_report.verifications.empty()) {
            return;
        }
        heading(Report::tr("GPU verification"), 1, true);
        for (const core::ReportVerification& v : m_report.verifications) {
            heading(Report::tr("%1 on %2: %3").arg(q(v.when), q(v.host), levelText(v.level)), 2);
            const QString promised = Report::tr("%1 × %2").arg(v.expectedCount).arg(q(v.expectedGpu));
            if (v.gpuCount == 0) {
                paragraph(Report::tr("No GPU was found; the offer promised %1.").arg(promised));
            } else {
                paragraph(Report::tr("Found %1 × %2 with driver %3; the offer promised %4.")
                              .arg(v.gpuCount)
                              .arg(q(v.gpuName), v.driver.empty() ? Report::tr("unknown") : q(v.driver), promised));
            }
            std::vector<QStringList> rows;
            for (const core::ReportCheck& c : v.checks) {
                rows.push_back({q(c.check) + (c.gpu ? Report::tr(" (GPU %1)").arg(*c.gpu) : QString()),
                                levelText(c.level),
                                q(c.measured),
                                q(c.expected),
                                reasonText(c.reason)});
            }
            table({Report::tr("Check"),
                   Report::tr("Result"),
                   Report::tr("Measured"),
                   Report::tr("Expected"),
                   Report::tr("Why")},
                  rows,
                  {18, 10, 16, 16, 40});
        }
    }

    static QString levelText(const std::string& level)
    {
        if (level == "pass") {
            return Report::tr("pass");
        }
        if (level == "warn") {
            return Report::tr("warning");
        }
        if (level == "fail") {
            return Report::tr("FAIL");
        }
        return Report::tr("not judged");
    }

    void spend()
    {
        if (m_report.spend.empty()) {
            return;
        }
        heading(Report::tr("Spend"), 1, true);
        std::vector<QStringList> rows;
        std::map<std::string, double> totals;
        for (const core::ReportSpend& s : m_report.spend) {
            rows.push_back({q(s.provider),
                            q(s.instanceId),
                            q(s.instanceType),
                            q(s.region),
                            q(s.started),
                            s.ended.empty() ? Report::tr("running") : q(s.ended),
                            formatHours(s.hours),
                            formatMoney(s.cost, q(s.currency))});
            totals[s.currency] += s.cost;
        }
        std::vector<int> bold;
        for (const auto& [currency, total] : totals) {
            bold.push_back(static_cast<int>(rows.size()));
            rows.push_back({Report::tr("Total"), {}, {}, {}, {}, {}, {}, formatMoney(total, q(currency))});
        }
        table({Report::tr("Provider"),
               Report::tr("Instance"),
               Report::tr("Type"),
               Report::tr("Region"),
               Report::tr("Started"),
               Report::tr("Ended"),
               Report::tr("Hours"),
               Report::tr("Cost")},
              rows,
              {11, 16, 14, 11, 14, 14, 8, 12},
              bold);
    }

    void method()
    {
        heading(Report::tr("Appendix A: method and formulas"), 1, true, false);
        bullet(Report::tr("Throughput of one GPU = 1 ÷ (training FLOPs per unit ÷ (datasheet dense peak × "
                          "efficiency) + FLOPs ÷ (memory bandwidth × arithmetic intensity)), softly capped by what "
                          "the software stack (tuned, typical or plain) can feed a GPU. Per sample: about 3 × the "
                          "forward FLOPs. Per token of a transformer (PaLM, appendix B): 6N + 12·L·h·s for full "
                          "training, 4N + 8·L·h·s + 6·N_trainable for LoRA. Activation checkpointing, where memory "
                          "needs it, costs a third more compute."));
        bullet(Report::tr("Efficiency, intensity and the stack's factors are fitted to published training results "
                          "(the calibration set), then corrected by the nearest published cases; the low and high "
                          "bounds are where the published figure fell 80 % of the time when each source was held "
                          "out of the fit."));
        bullet(Report::tr("Several GPUs lose the part of the gradient all-reduce (over NVLink, PCIe or the network) "
                          "that the backward pass does not hide, and a fitted overhead per doubling. Several "
                          "servers without RDMA are left out unless the plan allows them."));
        bullet(Report::tr("Time = setup + data upload at the lab's bandwidth + work ÷ throughput + a checkpoint every "
                          "hour (weights and Adam state at 1 GB/s). A data set larger than the instance's memory is "
                          "read again every epoch, from local NVMe or a network volume, which can cap the throughput. "
                          "Cost = billed "
                          "hours × hourly price (per-second, per-minute or per-hour billing as the provider bills) "
                          "+ storage for the run + egress of the final checkpoint."));
        bullet(Report::tr("Spot: interruptions as a Poisson process with mean time between them M = −730 h ÷ "
                          "ln(1 − p) for a monthly interruption probability p; checkpoint interval by Daly (2006); "
                          "expected time by Daly's eq. 13; percentiles from a seeded Monte Carlo simulation."));
        bullet(Report::tr("Reservations and subscriptions are eligible only when the project lasts their whole "
                          "term; their commitment is the term's full price."));
        bullet(Report::tr("Buy vs rent: purchase price + maintenance + energy (power × PUE × utilisation × "
                          "electricity price) per month against renting the same GPUs; break-even is the first "
                          "month owning has cost less in total."));
        bullet(Report::tr("Exchange: one USD/CNY rate with its date for every conversion in the plan."));
    }

    void glossary()
    {
        heading(Report::tr("Appendix B: glossary"), 1, false, false);
        keyValues({
            {Report::tr("On-demand"), Report::tr("pay by the hour, stop any time")},
            {Report::tr("Spot / preemptible"),
             Report::tr("spare capacity at a discount that the provider may take back "
                        "at short notice")},
            {Report::tr("Reserved"), Report::tr("a lower hourly price in exchange for paying a 1- or 3-year term")},
            {Report::tr("Subscription"), Report::tr("monthly or yearly rental of an instance (包年包月)")},
            {Report::tr("BF16 / FP16 / FP32"),
             Report::tr("number formats; mixed precision trains in 16 bits with "
                        "32-bit master weights")},
            {Report::tr("TFLOPS"), Report::tr("trillion floating-point operations per second")},
            {Report::tr("MFU"), Report::tr("model FLOPs utilisation: useful FLOPs over the GPUs' peak")},
            {Report::tr("P90"), Report::tr("the value nine runs in ten stay within")},
            {Report::tr("PUE"),
             Report::tr("power usage effectiveness: a data centre's total power over its IT "
                        "power")},
            {Report::tr("RDMA"), Report::tr("direct memory access between servers (InfiniBand, RoCE, EFA)")},
            {Report::tr("Break-even"), Report::tr("the month from which owning has cost less than renting")},
        });
    }

    QTextCursor m_cursor;
    const core::Report& m_report;
    const ReportSettings& m_settings;
    QString m_title;
    std::function<QString(double)> m_money;
    std::set<int> m_keepWithNext;
    int m_section = 0;
    bool m_first = true;
};

/// Moves each block that must stay with the next one to a new page when the next one starts on another page. One
/// pass in document order: the layout below a moved block is redone before the next block is measured.
void keepBlocksWithNext(QTextDocument& doc, const std::set<int>& keep, double pageHeight)
{
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    auto pageOf = [&](const QTextBlock& b) {
        return static_cast<int>(std::floor(layout->blockBoundingRect(b).top() / pageHeight));
    };
    for (int number : keep) {
        const QTextBlock block = doc.findBlockByNumber(number);
        const QTextBlock next = block.next();
        if (!block.isValid() || !next.isValid() || pageOf(block) == pageOf(next)
            || block.blockFormat().pageBreakPolicy() == QTextFormat::PageBreak_AlwaysBefore) {
            continue;
        }
        QTextBlockFormat format = block.blockFormat();
        format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        QTextCursor(block).setBlockFormat(format);
    }
}

QFont reportFont()
{
    // Latin letters and digits from DejaVu Sans, Chinese from Noto Sans CJK SC (named, so that fontconfig does not
    // fall back to the Japanese forms). Qt's PDF writer maps Noto CJK's Latin glyphs back to text unreliably
    // (pdftotext loses digits), which a PI's copy and search would too.
    QFont font;
    font.setFamilies({QStringLiteral("DejaVu Sans"), QStringLiteral("Noto Sans CJK SC")});
    font.setPointSizeF(10);
    return font;
}

} // namespace

std::optional<QPageSize::PageSizeId> parsePaper(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("a4")) {
        return QPageSize::A4;
    }
    if (n == QLatin1String("letter")) {
        return QPageSize::Letter;
    }
    return std::nullopt;
}

core::Status writeReportPdf(const json& plan,
                            const QString& where,
                            const QString& pdfFile,
                            const ReportSettings& settings,
                            const ReportProgress& progress)
{
    core::Result<core::Report> built = core::buildReport(plan, where.toStdString());
    if (!built) {
        return built.error();
    }
    const core::Report& report = *built;

    QPdfWriter writer(pdfFile);
    writer.setResolution(kDpi);
    writer.setPageLayout(QPageLayout(QPageSize(settings.paper), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
    const QString title = workloadNameText(json{{"workload", report.workload}});
    writer.setTitle(Report::tr("GPU plan: %1").arg(title));
    writer.setCreator(QStringLiteral("GPU Planner"));
    writer.setPdfVersion(QPagedPaintDevice::PdfVersion_1_6);

    const QRectF page(0, 0, writer.width(), writer.height());
    const QRectF body = page.adjusted(mm(kMarginMm), mm(kMarginMm + 4), -mm(kMarginMm), -mm(kMarginMm + 2));

    // The charts take the application's font: the report's while they are made and drawn (Noto Sans CJK SC, not
    // whichever CJK face fontconfig would fall back to).
    struct AppFontGuard
    {
        QFont saved = QApplication::font();
        ~AppFontGuard() { QApplication::setFont(saved); }
    } fontGuard;
    QFont chartFont = reportFont();
    chartFont.setPointSizeF(8);
    QApplication::setFont(chartFont);
    ChartStyle style;
    style.print = true;
    ChartObjects charts(allPlanCharts(plan, style), QSizeF(body.width(), body.width() * 0.52));

    QTextDocument doc;
    doc.documentLayout()->setPaintDevice(&writer);
    doc.setDefaultFont(reportFont());
    doc.setDocumentMargin(0);
    QTextOption option = doc.defaultTextOption();
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere); // long source URLs
    doc.setDefaultTextOption(option);
    doc.setPageSize(body.size());
    doc.documentLayout()->registerHandler(kChartObject, &charts);

    ReportBuilder builder(doc, report, settings, title);
    builder.build(charts.count());
    keepBlocksWithNext(doc, builder.keepWithNext(), body.height());

    const int pages = doc.pageCount();
    const QString date = settings.date.toString(Qt::ISODate);
    QPainter painter;
    if (!painter.begin(&writer)) {
        return core::Error{core::ErrorCode::FileUnreadable, "cannot write the PDF", pdfFile.toStdString()};
    }
    QFont small = reportFont();
    small.setPointSizeF(8);
    for (int p = 0; p < pages; ++p) {
        if (progress && !progress(p, pages)) {
            painter.end();
            QFile::remove(pdfFile);
            return core::Error{core::ErrorCode::Cancelled, "the export was cancelled", pdfFile.toStdString()};
        }
        if (p > 0) {
            writer.newPage();
        }
        painter.save();
        painter.translate(body.topLeft());
        painter.translate(0, -p * body.height());
        QAbstractTextDocumentLayout::PaintContext context;
        context.clip = QRectF(0, p * body.height(), body.width(), body.height());
        context.palette.setColor(QPalette::Text, Qt::black);
        painter.setClipRect(context.clip);
        doc.documentLayout()->draw(&painter, context);
        painter.restore();
        if (p == 0) {
            continue; // the cover has no header or footer
        }
        painter.setFont(small);
        painter.setPen(QPen(QColor(60, 60, 60), 0.6));
        const double top = mm(kHeaderMm);
        const double bottom = page.height() - mm(kHeaderMm);
        const QRectF header(body.left(), top - mm(5), body.width(), mm(5));
        painter.drawText(header, Qt::AlignLeft | Qt::AlignBottom, title);
        painter.drawText(header, Qt::AlignRight | Qt::AlignBottom, Report::tr("GPU Planner report"));
        painter.drawLine(QPointF(body.left(), top + 2), QPointF(body.right(), top + 2));
        painter.drawLine(QPointF(body.left(), bottom - 2), QPointF(body.right(), bottom - 2));
        const QRectF footer(body.left(), bottom, body.width(), mm(5));
        painter.drawText(footer, Qt::AlignLeft | Qt::AlignTop, date);
        painter.drawText(footer, Qt::AlignRight | Qt::AlignTop, Report::tr("Page %1 of %2").arg(p + 1).arg(pages));
    }
    if (progress) {
        progress(pages, pages);
    }
    if (!painter.end()) {
        return core::Error{core::ErrorCode::FileUnreadable, "cannot finish the PDF", pdfFile.toStdString()};
    }
    return core::Ok{};
}

} // namespace gpuplan::ui

#include "ReportPdf.moc"
