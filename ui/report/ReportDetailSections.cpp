#include "ReportSections.h"

#include "wording/Format.h"
#include "wording/PlanText.h"
#include "wording/ProviderText.h"
#include "wording/RunText.h"
#include "wording/VerdictText.h"

#include <functional>
#include <map>

namespace gpuplan::ui {

namespace {

QString ruleText(const std::string& rule)
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

QString levelText(core::VerdictLevel level)
{
    switch (level) {
        case core::VerdictLevel::Pass:
            return Report::tr("pass");
        case core::VerdictLevel::Warn:
            return Report::tr("warning");
        case core::VerdictLevel::Fail:
            return Report::tr("FAIL");
        case core::VerdictLevel::Unknown:
            break;
    }
    return Report::tr("not judged");
}

/// A verdict line's measured or expected figure: worded from its key (core::VerdictLine, figureText()); a text as
/// a plan kept it before figures were keys, as it is.
[[maybe_unused]] QString figureCell(const core::Reason& figure)
{
    return figureText(figure);
}
[[maybe_unused]] QString figureCell(const std::string& text)
{
    return q(text);
}

} // namespace

void ReportSections::risks()
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
            rows.push_back({QString::number(s.rank),
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
              rows);
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
              rows);
    }
    heading(Report::tr("Data sensitivity"), 2);
    if (r.sensitive) {
        paragraph(Report::tr("The data was marked sensitive: %n offer(s) were left out because they are neither "
                             "physically isolated nor under a compliance programme.",
                             nullptr,
                             r.excludedAsSensitive));
        if (r.recommendedIsolation) {
            paragraph(Report::tr("Recommended offer: %1").arg(reasonText(*r.recommendedIsolation)));
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
        table({Report::tr("Rule"), Report::tr("Offers")}, rows);
    }
}

void ReportSections::buyVsRent()
{
    heading(Report::tr("Buy or rent"));
    if (!m_report.buyVsRent || !m_report.buyVsRent->available) {
        const QString reason = m_report.buyVsRent ? reasonText(m_report.buyVsRent->unavailableReason) : QString();
        paragraph(reason.isEmpty() ? Report::tr("The plan does not compare buying with renting.")
                                   : Report::tr("Not compared: %1").arg(reason));
        return;
    }
    const core::BuyVsRent& b = *m_report.buyVsRent;
    paragraph(Report::tr("Buying %1 (%2 × %3) against renting the same GPUs for %4 at %5 utilisation. "
                         "Owning adds maintenance of %6 a year and energy at PUE %7; the server is written off "
                         "over %8.")
                  .arg(q(b.system.what),
                       QString::number(b.system.gpus),
                       q(b.gpuName),
                       formatMonths(b.months),
                       percent(b.utilisation),
                       percent(b.maintenancePerYear),
                       formatNumber(b.pue, 2),
                       formatYears(b.depreciationYears)));
    if (!b.electricityPerKwh) {
        note(Report::tr("The electricity price is unknown (set it in Settings), so owning is shown without "
                        "energy: its real cost is higher."));
    }
    std::vector<QStringList> rows;
    QStringList sources;
    auto line = [&](const core::CostLine& l, const QString& name) {
        rows.push_back({name,
                        l.offer.empty() ? QString() : q(l.offer),
                        m_money(l.upfront),
                        m_money(l.monthly),
                        m_money(l.cumulative.empty() ? 0 : l.cumulative.back()),
                        l.key == "own"     ? QString()
                        : l.breakEvenMonth ? Report::tr("month %1").arg(formatNumber(*l.breakEvenMonth, 0))
                                           : Report::tr("not within %1").arg(formatMonths(b.months))});
        const std::string& date = l.source.asOf.empty() ? l.source.retrieved : l.source.asOf;
        sources.push_back(Report::tr("%1: %2, %3").arg(name, q(date), urlText(l.source.url)));
    };
    line(b.own, Report::tr("Buy"));
    for (const core::CostLine& l : b.rent) {
        line(l, modeName(l.key));
    }
    table({Report::tr("Way"),
           Report::tr("Offer"),
           Report::tr("Up front"),
           Report::tr("Per month"),
           Report::tr("After %1").arg(formatMonths(b.months)),
           Report::tr("Owning is cheaper from")},
          rows);
    heading(Report::tr("Sources"), 2);
    for (const QString& source : sources) {
        note(source);
    }
}

void ReportSections::verifications()
{
    if (m_report.verifications.empty()) {
        return;
    }
    heading(Report::tr("GPU verification"));
    for (const core::PlanVerification& v : m_report.verifications) {
        heading(Report::tr("%1 on %2: %3").arg(q(v.when), q(v.host), levelText(v.verdict)), 2);
        const QString promised = Report::tr("%1 × %2").arg(v.expectedCount).arg(q(v.expectedGpu));
        if (v.gpuCount == 0) {
            paragraph(Report::tr("No GPU was found; the offer promised %1.").arg(promised));
        } else {
            paragraph(Report::tr("Found %1 × %2 with driver %3; the offer promised %4.")
                          .arg(v.gpuCount)
                          .arg(q(v.gpuName), v.driver.empty() ? Report::tr("unknown") : q(v.driver), promised));
        }
        std::vector<QStringList> rows;
        for (const core::PlanCheck& c : v.checks) {
            rows.push_back({q(c.check) + (c.gpu ? Report::tr(" (GPU %1)").arg(*c.gpu) : QString()),
                            levelText(c.level),
                            figureCell(c.measured),
                            figureCell(c.expected),
                            reasonText(c.reason)});
        }
        table({Report::tr("Check"),
               Report::tr("Result"),
               Report::tr("Measured"),
               Report::tr("Expected"),
               Report::tr("Why")},
              rows);
    }
}

void ReportSections::spend()
{
    if (m_report.spend.empty()) {
        return;
    }
    heading(Report::tr("Spend"));
    std::vector<QStringList> rows;
    std::map<std::string, double> totals;
    for (const core::PlanSpend& s : m_report.spend) {
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
          bold);
}

void ReportSections::runs()
{
    if (m_report.runs.empty()) {
        return;
    }
    heading(Report::tr("Runs: plan against actual"));
    const QString unknown = Report::tr("–");
    auto number = [](double value) { return formatNumber(value, value >= 100 ? 0 : (value >= 10 ? 1 : 2)); };
    auto planned = [&](std::optional<double> central,
                       std::optional<double> low,
                       std::optional<double> high,
                       const std::function<QString(double)>& format) {
        if (low && high) {
            return Report::tr("%1 (%2–%3)").arg(central ? format(*central) : unknown, format(*low), format(*high));
        }
        return central ? format(*central) : unknown;
    };
    auto money = [&](std::optional<double> amount, const std::string& currency) {
        return amount ? formatMoney(*amount, q(currency), 2) : unknown;
    };
    std::vector<QStringList> rows;
    for (const core::PlanRun& r : m_report.runs) {
        const QString unit = r.throughputUnit == "tokens" ? Report::tr("tokens/s") : Report::tr("samples/s");
        QString machine = q(r.host);
        if (!r.instanceType.empty()) {
            machine = Report::tr("%1 (%2 %3)").arg(machine, providerDisplayName(r.provider), q(r.instanceType));
        }
        const QString plannedSpeed =
            planned(r.plannedThroughput, r.plannedThroughputLow, r.plannedThroughputHigh, number);
        QString state = q(r.state);
        if (const std::optional<core::RunState> parsed = core::parseRunState(r.state)) {
            state = runStateText(*parsed, r.exitCode);
        }
        rows.push_back({machine,
                        q(r.started),
                        state,
                        planned(r.plannedHours, r.plannedHoursLow, r.plannedHoursHigh, formatHours),
                        formatHours(r.hours),
                        plannedSpeed == unknown ? unknown : plannedSpeed + QLatin1Char(' ') + unit,
                        r.throughput ? number(*r.throughput) + QLatin1Char(' ') + unit : unknown,
                        money(r.plannedCost, r.plannedCurrency),
                        money(r.cost, r.costCurrency),
                        r.gpuUtilization ? Report::tr("%1 %").arg(formatNumber(*r.gpuUtilization, 0)) : unknown});
    }
    table({Report::tr("Machine"),
           Report::tr("Started"),
           Report::tr("State"),
           Report::tr("Time planned"),
           Report::tr("Time taken"),
           Report::tr("Speed planned"),
           Report::tr("Speed measured"),
           Report::tr("Cost planned"),
           Report::tr("Cost"),
           Report::tr("GPU use")},
          rows);
}

void ReportSections::method()
{
    heading(Report::tr("Appendix A: method and formulas"), 1, false, false);
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

void ReportSections::glossary()
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

} // namespace gpuplan::ui
