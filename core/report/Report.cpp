#include "gpuplan/report/Report.h"

#include <algorithm>
#include <map>
#include <set>

namespace gpuplan::core {

namespace {

LimitVerdict judgeLimit(std::optional<double> limit, const Range& estimate)
{
    if (!limit) {
        return LimitVerdict::NotSet;
    }
    if (estimate.high <= *limit) {
        return LimitVerdict::Within;
    }
    return estimate.value <= *limit ? LimitVerdict::AtRisk : LimitVerdict::Exceeds;
}

/// The first option best by `key` (lowest), or nullopt when that is the recommended (the first) itself.
template <typename Key>
std::optional<PlanOption> bestBy(const std::vector<PlanOption>& options, Key key)
{
    auto best = std::min_element(
        options.begin(), options.end(), [&](const PlanOption& a, const PlanOption& b) { return key(a) < key(b); });
    if (best == options.end() || best == options.begin()) {
        return std::nullopt;
    }
    return *best;
}

void fillAssumptions(const PlanDocument& plan, Report& report)
{
    ReportAssumptions& a = report.assumptions;
    const Constraints& c = plan.constraints;
    a.precisionAsked = c.precision ? precisionName(*c.precision) : "auto";
    a.framework = c.framework;
    a.sensitive = c.sensitive;
    a.countries = c.countries;
    a.catalogPriceDate = plan.priceDate;
    if (plan.exchangeRate) {
        a.cnyPerUsd = plan.exchangeRate->cnyPerUsd;
        a.exchangeRateDate = plan.exchangeRate->date;
        a.exchangeRateSource = plan.exchangeRate->source;
        a.exchangeRateUserSet = plan.exchangeRate->userSet;
    }
    if (plan.assumptions) {
        a.setupHours = plan.assumptions->setupHours;
        a.uploadMbps = plan.assumptions->uploadMbps;
        if (plan.assumptions->checkpointWriteGbs > 0) {
            a.checkpointWriteGbs = plan.assumptions->checkpointWriteGbs;
        }
        a.monteCarloRuns = plan.assumptions->monteCarloRuns;
    }
    if (plan.buyVsRent) {
        a.electricityPerKwh = plan.buyVsRent->electricityPerKwh;
        if (plan.buyVsRent->available) {
            a.electricityCurrency = plan.buyVsRent->currency;
            if (plan.buyVsRent->pue > 0) {
                a.pue = plan.buyVsRent->pue;
            }
        }
    }

    // The recommended option's training estimate: precision, peak and efficiency.
    const PlanTraining& training = plan.results.options.front().training;
    a.precisionUsed = training.precision;
    if (training.known) {
        if (training.peakTflops > 0) {
            a.peakTflops = training.peakTflops;
        }
        a.efficiency = training.efficiency;
        a.efficiencyBasis = training.efficiencyBasis;
        a.mfu = training.mfu;
    }

    // Every price the comparison table shows, by source, newest first.
    std::set<std::pair<std::string, std::string>> seen;
    for (const PlanOption& option : report.options) {
        for (const PlanMode& mode : option.modes) {
            if (!mode.price.source.empty() && seen.insert({mode.price.asOf, mode.price.source}).second) {
                a.priceSources.push_back({mode.price.source, mode.price.asOf});
            }
        }
    }
    std::stable_sort(a.priceSources.begin(), a.priceSources.end(), [](const ReportSource& x, const ReportSource& y) {
        return x.date > y.date;
    });
}

void fillRisks(const PlanDocument& plan, Report& report)
{
    ReportRisks& risks = report.risks;
    for (const PlanOption& option : report.options) {
        for (const PlanMode& mode : option.modes) {
            if (mode.commitment) {
                risks.commitments.push_back({option.rank,
                                             option.label(),
                                             mode.mode,
                                             mode.commitment->months,
                                             mode.commitment->amount,
                                             mode.cost,
                                             mode.eligible});
            }
        }
    }
    // Every ranked option, not only the table's: the PI sees what spot would do.
    for (const PlanOption& option : plan.results.options) {
        if (risks.spot.size() >= static_cast<std::size_t>(kReportTableOptions)) {
            break;
        }
        for (const PlanMode& mode : option.modes) {
            if (!mode.spot || !mode.eligible) {
                continue;
            }
            const PlanSpot& spot = *mode.spot;
            SpotRisk risk;
            risk.rank = option.rank;
            risk.offer = option.label();
            risk.monthlyInterruption = spot.monthlyInterruption;
            risk.mtbfHours = spot.mtbfHours;
            risk.checkpointIntervalHours = spot.checkpointIntervalHours;
            if (spot.simulated) {
                // The simulated hours are compute only; the P90 of the whole run adds setup and upload.
                risk.p90Hours = spot.simulated->p90Hours + spot.extraHours;
                risk.meanInterruptions = spot.simulated->meanInterruptions;
            }
            if (spot.simulatedCost) {
                risk.p90Cost = spot.simulatedCost->p90;
            }
            risk.rateSource = spot.rateSource;
            risks.spot.push_back(risk);
        }
    }
    risks.sensitive = report.assumptions.sensitive;
    std::map<std::string, int> byRule;
    for (const PlanExclusion& x : plan.results.excluded) {
        ++byRule[x.rule];
    }
    risks.excludedAsSensitive = byRule.count("sensitive") ? byRule["sensitive"] : 0;
    risks.exclusionsByRule.assign(byRule.begin(), byRule.end());
    std::stable_sort(risks.exclusionsByRule.begin(), risks.exclusionsByRule.end(), [](const auto& x, const auto& y) {
        return x.second > y.second;
    });
    for (const Reason& reason : report.summary.recommended.reasons) {
        if (reason.key == "reason.isolated") {
            risks.recommendedIsolation = reason;
            break;
        }
    }
}

} // namespace

Result<Report> buildReport(const PlanDocument& plan, const std::string& where)
{
    const std::vector<PlanOption>& all = plan.results.options;
    if (all.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.report.no_options", {}}, where + ": $.results.options"};
    }

    Report report;
    report.workload = plan.workload;
    report.created = plan.created;
    report.notes = plan.notes;
    report.currency = plan.currency();

    ReportSummary& s = report.summary;
    s.recommended = all.front();
    if (all.size() > 1) {
        s.runnerUp = all[1];
    }
    s.cheapest = bestBy(all, [](const PlanOption& o) { return o.cost.value; });
    s.fastest = bestBy(all, [](const PlanOption& o) { return o.hours.value; });
    s.eligibleCount = plan.results.eligible;
    s.excludedCount = static_cast<int>(plan.results.excluded.size());
    s.objective = plan.results.objective;
    s.budget = plan.constraints.budget;
    s.deadlineHours = plan.constraints.deadlineHours;
    s.budgetVerdict = judgeLimit(s.budget, s.recommended.cost);
    s.deadlineVerdict = judgeLimit(s.deadlineHours, s.recommended.hours);

    report.options.assign(
        all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(all.size(), kReportTableOptions)));
    for (std::size_t i = 0; i < report.options.size(); ++i) {
        const PlanOption& option = report.options[i];
        // The mode it is ranked with first, then its other modes.
        ComparisonRow first{option.rank, true, i, {}};
        if (const PlanMode* ranked = option.rankedMode()) {
            first.mode = *ranked;
        } else {
            first.mode.mode = option.mode;
            first.mode.hours = option.hours;
            first.mode.cost = option.cost;
        }
        report.comparison.push_back(first);
        for (const PlanMode& mode : option.modes) {
            if (mode.mode != option.mode || !mode.managedOffer.empty()) {
                report.comparison.push_back({option.rank, false, i, mode});
            }
        }
    }

    fillAssumptions(plan, report);
    fillRisks(plan, report);
    report.buyVsRent = plan.buyVsRent;
    report.verifications = plan.verifications;
    report.spend = plan.ledger;
    report.runs = plan.runs;
    return report;
}

} // namespace gpuplan::core
