#include "ReportSections.h"

#include "wording/Format.h"
#include "wording/Language.h"
#include "wording/PlanText.h"

#include <QLocale>
#include <QUrl>

namespace gpuplan::ui {

namespace {

QString objectiveText(core::Objective objective)
{
    if (objective == core::Objective::Cheapest) {
        return Report::tr("lowest cost within the deadline");
    }
    if (objective == core::Objective::Fastest) {
        return Report::tr("shortest time within the budget");
    }
    return Report::tr("the best cost × time");
}

QString providerName(const core::PlanOption& option)
{
    return currentLanguage() == QLatin1String("zh_CN") && !option.providerNameZh.empty() ? q(option.providerNameZh)
                                                                                         : q(option.providerName);
}

} // namespace

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

QString rangeText(const core::Range& r, const std::function<QString(double)>& format)
{
    return Report::tr("%1 (%2 – %3)").arg(format(r.value), format(r.low), format(r.high));
}

QString stacked(const core::Range& r, const std::function<QString(double)>& format)
{
    return format(r.value) + QChar::LineSeparator + Report::tr("%1 – %2").arg(format(r.low), format(r.high));
}

QString modeName(core::PricingMode mode)
{
    return pricingModeText(mode);
}

QString modeName(const std::string& mode)
{
    return pricingModeText(q(mode));
}

QString offerName(const core::PlanOption& option)
{
    return Report::tr("%1 %2 (%3)").arg(providerName(option), q(option.instanceType), q(option.region));
}

QString percent(double share, int decimals)
{
    return Report::tr("%1 %").arg(formatNumber(share * 100, decimals));
}

QString urlText(const std::string& url)
{
    return QUrl::fromPercentEncoding(QByteArray::fromStdString(url));
}

ReportSections::ReportSections(PdfPageWriter& out,
                               const core::Report& report,
                               const ReportSettings& settings,
                               const QString& title,
                               std::vector<ReportFigure> figures)
    : m_out(out)
    , m_report(report)
    , m_settings(settings)
    , m_title(title)
    , m_figures(std::move(figures))
{
    m_money = [this](double v) { return formatMoney(v, QString::fromLatin1(core::currencyCode(m_report.currency))); };
}

void ReportSections::build()
{
    cover();
    summary();
    workload();
    assumptions();
    comparison();
    costs();
    risks();
    buyVsRent();
    verifications();
    spend();
    runs();
    method();
    glossary();
    m_out.finish();
}

void ReportSections::heading(const QString& text, int level, bool newPage, bool numbered)
{
    PdfTextStyle style;
    style.pointSize = level == 1 ? 15 : 11.5;
    style.bold = true;
    style.spaceBefore = level == 1 ? 14 : 8;
    style.spaceAfter = level == 1 ? 6 : 3;
    style.keepWithNext = true;
    style.pageBreakBefore = newPage;
    if (level == 1 && numbered) {
        ++m_section;
        m_out.text(Report::tr("%1  %2").arg(m_section).arg(text), style);
    } else {
        m_out.text(text, style);
    }
}

void ReportSections::paragraph(const QString& text, double pointSize, bool bold)
{
    m_out.text(text, {.pointSize = pointSize, .bold = bold});
}

void ReportSections::note(const QString& text)
{
    paragraph(text, 8.5);
}

void ReportSections::bullet(const QString& text)
{
    m_out.text(QStringLiteral("•  ") + text, {.spaceAfter = 2, .indent = 14, .firstLineIndent = -10});
}

/// A table whose first row is its header, repeated on every page it spans.
void ReportSections::table(const QStringList& headers,
                           const std::vector<QStringList>& rows,
                           const std::vector<int>& bold)
{
    m_out.table({headers, rows, bold});
}

void ReportSections::keyValues(const std::vector<std::pair<QString, QString>>& pairs)
{
    std::vector<QStringList> rows;
    for (const auto& [key, value] : pairs) {
        rows.push_back({key, value});
    }
    table({}, rows);
}

void ReportSections::cover()
{
    constexpr double kCoverTop = 45 * 96 / 25.4; // 45 mm at the writer's 96 dpi
    m_out.text(Report::tr("GPU plan for approval"), {.pointSize = 12, .spaceBefore = kCoverTop, .spaceAfter = 10});
    m_out.text(m_title.isEmpty() ? Report::tr("Training run") : m_title,
               {.pointSize = 24, .bold = true, .spaceAfter = 6});
    const core::PlanOption& best = m_report.summary.recommended;
    m_out.text(Report::tr("Recommended: %1, %2 × %3, about %4")
                       .arg(offerName(best), QString::number(best.gpus), q(best.gpuName), m_money(best.cost.value))
                   + commitmentClause(best),
               {.pointSize = 12, .spaceAfter = 24});
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
    lines.push_back({Report::tr("Currency"), QString::fromLatin1(core::currencyCode(m_report.currency))});
    lines.push_back(
        {Report::tr("Language"),
         currentLanguage() == QLatin1String("zh_CN") ? QStringLiteral("简体中文") : QStringLiteral("English")});
    keyValues(lines);
    m_out.text(Report::tr("Made with GPU Planner from the plan file. Every price cites its source and "
                          "date (section \"Assumptions\"); figures are estimates with a low and a high "
                          "bound."),
               {.pointSize = 9, .spaceBefore = 18});
}

QString ReportSections::limitText(core::LimitVerdict verdict, bool budget, double limit) const
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
QString ReportSections::termText(double amount, double months) const
{
    return Report::tr("%1 over %2").arg(m_money(amount), formatMonths(months));
}

/// "; commits the lab to ¥72,071 over 12 months" for an option ranked with a reservation or subscription, empty
/// for one without a term: its cost is only this run's share, so it is never shown without the whole term.
QString ReportSections::commitmentClause(const core::PlanOption& o) const
{
    const core::PlanMode* ranked = o.rankedMode();
    return ranked && ranked->commitment ? Report::tr("; commits the lab to %1")
                                              .arg(termText(ranked->commitment->amount, ranked->commitment->months))
                                        : QString();
}

QString ReportSections::optionLine(const core::PlanOption& o) const
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

void ReportSections::summary()
{
    const core::ReportSummary& s = m_report.summary;
    const core::PlanOption& best = s.recommended;
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
    if (const core::PlanMode* ranked = best.rankedMode(); ranked && ranked->commitment) {
        recommendation +=
            QLatin1Char(' ')
            + Report::tr("That cost is this run's share of the term: paying %1 commits the lab to "
                         "%2, used or not.")
                  .arg(modeName(best.mode), termText(ranked->commitment->amount, ranked->commitment->months));
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
    rows.push_back({Report::tr("Cheapest"), s.cheapest ? optionLine(*s.cheapest) : Report::tr("the recommended one")});
    rows.push_back({Report::tr("Fastest"), s.fastest ? optionLine(*s.fastest) : Report::tr("the recommended one")});
    rows.push_back({Report::tr("Budget"), limitText(s.budgetVerdict, true, s.budget.value_or(0))});
    rows.push_back({Report::tr("Deadline"), limitText(s.deadlineVerdict, false, s.deadlineHours.value_or(0))});
    keyValues(rows);
    heading(Report::tr("Why this one"), 2);
    for (const core::Reason& reason : best.reasons) {
        bullet(reasonText(reason));
    }
}

void ReportSections::workload()
{
    heading(Report::tr("Workload"));
    const core::PlanWorkload& w = m_report.workload;
    std::vector<std::pair<QString, QString>> rows;
    rows.push_back({Report::tr("Workload"), m_title});
    const bool zh = currentLanguage() == QLatin1String("zh_CN");
    QString description = q(zh ? w.descriptionZh : w.description);
    if (description.isEmpty()) {
        description = q(w.description);
    }
    if (!description.isEmpty()) {
        rows.push_back({Report::tr("Description"), description});
    }
    if (!w.task.empty()) {
        rows.push_back({Report::tr("Task"), taskText(q(w.task))});
    }
    rows.push_back({Report::tr("Model parameters"), formatParameterCount(w.parameters)});
    rows.push_back({Report::tr("Epochs"), formatNumber(w.epochs, 1)});
    rows.push_back(
        {Report::tr("Work in all"),
         Report::tr("%1 %2").arg(formatNumber(w.units, 0),
                                 throughputUnitText(w.unit.empty() ? QStringLiteral("samples") : q(w.unit)))});
    keyValues(rows);
}

void ReportSections::assumptions()
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
        if (!a.efficiencyBasis.empty()) {
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
    rows.push_back({Report::tr("Electricity price"),
                    a.electricityPerKwh
                        ? Report::tr("%1 per kWh")
                              .arg(formatMoney(*a.electricityPerKwh,
                                               a.electricityCurrency
                                                   ? QString::fromLatin1(core::currencyCode(*a.electricityCurrency))
                                                   : QString(),
                                               2))
                        : Report::tr("unknown (not set in Settings): owning is compared without energy")});
    rows.push_back({Report::tr("PUE (owned servers)"), a.pue ? formatNumber(*a.pue, 2) : Report::tr("unknown")});
    rows.push_back({Report::tr("Prices as of"), q(a.catalogPriceDate)});
    rows.push_back({Report::tr("Setup per run"), rangeText(a.setupHours, formatHours)});
    rows.push_back(
        {Report::tr("Upload bandwidth"),
         Report::tr("%1 Mbit/s (%2 to %3)")
             .arg(formatNumber(a.uploadMbps.value), formatNumber(a.uploadMbps.low), formatNumber(a.uploadMbps.high))});
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
        sources.push_back({s.date.empty() ? Report::tr("undated") : q(s.date), urlText(s.url)});
    }
    table({Report::tr("As of"), Report::tr("Source")}, sources);
}

void ReportSections::comparison()
{
    heading(Report::tr("Comparison"));
    paragraph(Report::tr("The %1 best offers in every pricing mode the catalog has for them. Costs include "
                         "storage and data egress; times include setup and data upload. Ranges run from the "
                         "low to the high estimate.")
                  .arg(m_report.options.size()));
    std::vector<QStringList> rows;
    std::vector<int> bold;
    for (const core::ComparisonRow& row : m_report.comparison) {
        const core::PlanOption& o = m_report.options[row.option];
        const core::PlanMode& m = row.mode;
        // The ranked row of an option whose ranked mode is not among its modes has no price of its own.
        const bool priced = !row.ranked || o.rankedMode() != nullptr;
        QString price = Report::tr("unknown");
        if (priced) {
            price = Report::tr("%1 / %2").arg(
                        formatMoney(m.price.amount, QString::fromLatin1(core::currencyCode(m.price.currency))),
                        priceUnitText(m.price.unit))
                    + QChar::LineSeparator
                    + (m.price.asOf.empty() ? Report::tr("undated") : Report::tr("as of %1").arg(q(m.price.asOf)));
        }
        QString cost = stacked(m.cost, m_money);
        if (m.commitment) {
            cost += QChar::LineSeparator
                    + Report::tr("commits %1").arg(termText(m.commitment->amount, m.commitment->months));
        }
        QString note = m.eligible ? QString() : reasonText(m.whyNot);
        if (row.ranked && row.rank == 1) {
            bold.push_back(static_cast<int>(rows.size()));
        }
        rows.push_back({row.ranked ? QString::number(row.rank) : QString(),
                        row.ranked ? offerName(o) : QString(),
                        row.ranked ? Report::tr("%1 × %2").arg(o.gpus).arg(q(o.gpuName)) : QString(),
                        planModeText(o, m),
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
           Report::tr("Cost (%1)").arg(QString::fromLatin1(core::currencyCode(m_report.currency))),
           Report::tr("Eligible")},
          rows,
          bold);
}

void ReportSections::costs()
{
    heading(Report::tr("Costs"));
    paragraph(Report::tr("The charts of the Costs view, drawn from the same plan."));
    for (ReportFigure& figure : m_figures) {
        if (figure.placeholder.isEmpty()) {
            m_out.figure(figure.size, std::move(figure.draw));
        } else {
            note(figure.placeholder);
        }
    }
}

} // namespace gpuplan::ui
