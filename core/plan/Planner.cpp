// The recommender: every offer estimated and judged one at a time, the few best kept and ranked, and the reasons
// for each shown option. The estimate of one offer is in PlannerEstimates.cpp, the rules that exclude one in
// PlannerFilters.cpp.
#include "gpuplan/plan/Planner.h"

#include "plan/PlannerParts.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <type_traits>

namespace gpuplan::core {
// wire: a compile-time message for developers

static_assert(std::is_nothrow_move_constructible_v<RankedOption>, "ranking moves options, never copies them");
static_assert(std::is_nothrow_move_constructible_v<OfferEstimate>);

namespace planner {

std::string fixed(double value, int decimals)
{
    // As printf's "%.*f", faster; beyond 1e30 (not a price or an hour count) printf's form is kept.
    if (std::abs(value) < 1e30) {
        char buffer[64];
        const std::to_chars_result end =
            std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
        return std::string(buffer, end.ptr);
    }
    char buffer[400];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

Reason reason(std::string key, std::map<std::string, std::string> params)
{
    return Reason{std::move(key), std::move(params)};
}

Reason nested(std::string key, std::map<std::string, std::string> params, const Reason& cause)
{
    params["cause"] = cause.key;
    for (const auto& [name, value] : cause.params) {
        params["cause." + name] = value;
    }
    return Reason{std::move(key), std::move(params)};
}

} // namespace planner

using planner::reason;

const char* objectiveName(Objective objective)
{
    switch (objective) {
        case Objective::Cheapest:
            return "cheapest";
        case Objective::Fastest:
            return "fastest";
        case Objective::Value:
            return "value";
    }
    return "?";
}

std::optional<Objective> parseObjective(std::string_view name)
{
    for (Objective o : {Objective::Cheapest, Objective::Fastest, Objective::Value}) {
        if (name == objectiveName(o)) {
            return o;
        }
    }
    return std::nullopt;
}

Planner::Planner(const Catalog& catalog, const Assumptions& assumptions, const Calibration& calibration)
    : m_catalog(catalog)
    , m_assumptions(assumptions)
    , m_calibration(calibration)
{
    for (const Offer& offer : catalog.offers()) {
        const std::size_t slash = offer.instanceType.find('/');
        if (offer.service == ServiceKind::Managed && slash != std::string::npos) {
            m_managedTwins.emplace(offer.providerId + "|" + offer.instanceType.substr(slash + 1), &offer);
        }
    }
    for (const Offer& offer : catalog.offers()) {
        if (offer.service != ServiceKind::Managed) {
            auto twin = m_managedTwins.find(offer.providerId + "|" + offer.instanceType);
            if (twin != m_managedTwins.end()) {
                m_folded.insert(twin->second);
            }
        }
    }
}

std::vector<bool> paretoOptimal(const std::vector<std::pair<double, double>>& points)
{
    std::vector<bool> optimal(points.size(), true);
    for (std::size_t i = 0; i < points.size(); ++i) {
        for (std::size_t j = 0; j < points.size() && optimal[i]; ++j) {
            const bool noWorse = points[j].first <= points[i].first && points[j].second <= points[i].second;
            const bool better = points[j].first < points[i].first || points[j].second < points[i].second;
            optimal[i] = !(noWorse && better);
        }
    }
    return optimal;
}

Recommendation Planner::recommend(const Workload& w, const Constraints& constraints, const CostModel& model)
{
    Recommendation result;
    result.objective = constraints.objective.value_or(constraints.deadlineHours ? Objective::Cheapest
                                                      : constraints.budget      ? Objective::Fastest
                                                                                : Objective::Value);
    const std::string currency = currencyCode(constraints.currency);

    // An offer and region that meets every constraint, with the mode it would be paid in.
    struct Candidate
    {
        OfferEstimate* estimate;
        const ModeCost* paid;            // one of its modes
        std::optional<ModeCost> blended; // spot and on-demand in the chosen shares, when the plan mixes them

        const ModeCost& mode() const { return blended ? *blended : *paid; }
    };
    auto better = [&](const Candidate& a, const Candidate& b) {
        return result.objective == Objective::Fastest ? a.mode().hours.value < b.mode().hours.value
                                                      : a.mode().cost.value < b.mode().cost.value;
    };
    // The ranking key. Value ranks by cost x time, the same order as each relative to the cheapest and the
    // fastest, so that no offer has to wait for the others to be ranked.
    auto score = [&](const ModeCost& m) {
        switch (result.objective) {
            case Objective::Cheapest:
                return m.cost.value + m.hours.value * 1e-9;
            case Objective::Fastest:
                return m.hours.value + m.cost.value * 1e-12;
            case Objective::Value:
                return m.cost.value * m.hours.value;
        }
        return 0.0;
    };
    // The shown rows (and the runner-up the first names), best first; equal scores in provider and instance order.
    // Offers are estimated and judged one at a time, and only these few are kept: a catalog of 100 000 offers is
    // ranked without holding its rows.
    struct Kept
    {
        double score;
        OfferEstimate estimate;
        ModeCost mode;
        int regions; // regions of the offer that meet every constraint
    };
    auto before = [](const Kept& a, const Kept& b) {
        if (a.score != b.score) {
            return a.score < b.score;
        }
        return std::tie(a.estimate.provider->id, a.estimate.offer->instanceType)
               < std::tie(b.estimate.provider->id, b.estimate.offer->instanceType);
    };
    const std::size_t keep = std::size_t(std::max(constraints.top, 2));
    std::vector<Kept> kept; // a heap, the worst of the kept on top
    kept.reserve(keep + 1);
    const ExchangeRate rate = planExchangeRate(m_catalog, model);
    std::vector<OfferEstimate>& all = m_rows;
    std::vector<Candidate> candidates;
    for (const Offer& catalogOffer : m_catalog.offers()) {
        if (m_folded.count(&catalogOffer)) {
            continue; // a managed twin: its prices are modes of its machine's option
        }
        all.clear();
        estimateOffer(all, catalogOffer, w, constraints, model, rate);
        candidates.clear();
        for (OfferEstimate& e : all) {
            if (std::optional<planner::Excluded> out = planner::ruledOut(e, constraints, m_assumptions)) {
                result.excluded.push_back(
                    Exclusion{e.provider, e.offer->instanceType, e.region, std::move(out->rule), std::move(out->why)});
                continue;
            }
            const ModeCost* best = e.cheapestEligible();
            if (result.objective == Objective::Fastest) {
                for (const ModeCost& mode : e.modes) {
                    if (mode.eligible && !mode.managed && mode.hours.value < best->hours.value) {
                        best = &mode;
                    }
                }
            }
            Candidate option{&e, best, std::nullopt};
            if (constraints.spotShare && *constraints.spotShare > 0) {
                const ModeCost* spot = nullptr;
                const ModeCost* onDemand = nullptr;
                for (const ModeCost& mode : e.modes) {
                    if (mode.managed) {
                        continue;
                    }
                    if (mode.eligible && mode.mode == PricingMode::Spot) {
                        spot = &mode;
                    } else if (mode.eligible && mode.mode == PricingMode::OnDemand) {
                        onDemand = &mode;
                    }
                }
                if (spot && onDemand) {
                    const double share = std::min(1.0, *constraints.spotShare);
                    ModeCost& mixed = option.blended.emplace(*spot);
                    mixed.spotShare = share;
                    mixed.hours = spot->hours * share + onDemand->hours * (1 - share);
                    mixed.cost = spot->cost * share + onDemand->cost * (1 - share);
                }
            }
            candidates.push_back(std::move(option));
        }
        if (candidates.empty()) {
            continue;
        }
        // One row per instance type: its best region (the others are named in a note).
        ++result.eligibleCount;
        std::size_t best = 0;
        for (std::size_t i = 1; i < candidates.size(); ++i) {
            if (better(candidates[i], candidates[best])) {
                best = i;
            }
        }
        const Candidate& chosen = candidates[best];
        const double key = score(chosen.mode());
        const OfferEstimate& e = *chosen.estimate;
        if (kept.size() == keep) {
            const Kept& worst = kept.front();
            if (key > worst.score
                || (key == worst.score
                    && std::tie(worst.estimate.provider->id, worst.estimate.offer->instanceType)
                           <= std::tie(e.provider->id, e.offer->instanceType))) {
                continue;
            }
            std::pop_heap(kept.begin(), kept.end(), before);
            kept.pop_back();
        }
        ModeCost mode = chosen.mode(); // copied before its estimate (which holds `paid`) moves
        kept.push_back(Kept{key, std::move(*chosen.estimate), std::move(mode), int(candidates.size())});
        std::push_heap(kept.begin(), kept.end(), before);
    }
    if (result.eligibleCount == 0) {
        result.notes.push_back(Reason{"note.nothing_eligible", {}});
        return result;
    }
    std::sort_heap(kept.begin(), kept.end(), before);
    std::vector<RankedOption> ranked;
    std::vector<int> regionsOf;
    ranked.reserve(kept.size());
    for (Kept& k : kept) {
        ranked.push_back(RankedOption{std::move(k.estimate), std::move(k.mode), {}});
        regionsOf.push_back(k.regions);
    }

    const int n = result.eligibleCount;
    for (int i = 0; i < int(ranked.size()) && i < constraints.top; ++i) {
        RankedOption& o = ranked[std::size_t(i)];
        const OfferEstimate& e = o.estimate;
        const ModeCost& m = o.mode;
        const std::string modeName = pricingModeName(m.mode);
        std::map<std::string, std::string> costParams{{"cost", reasonNumber(m.cost.value)},
                                                      {"low", reasonNumber(m.cost.low)},
                                                      {"high", reasonNumber(m.cost.high)},
                                                      {"currency", currency},
                                                      {"mode", modeName}};
        if (m.commitment) {
            // The cost is this run's share of the term; the lab pays the whole term, so it is never said alone.
            costParams["commitment"] = reasonNumber(m.commitment->amount);
            costParams["commitment_months"] = reasonNumber(m.commitment->months);
        }
        o.reasons.push_back(reason("reason.cost", std::move(costParams)));
        o.reasons.push_back(reason("reason.time",
                                   {{"hours", reasonNumber(m.hours.value)},
                                    {"low", reasonNumber(m.hours.low)},
                                    {"high", reasonNumber(m.hours.high)}}));
        if (i == 0) {
            std::map<std::string, std::string> params{{"objective", objectiveName(result.objective)},
                                                      {"count", std::to_string(n)}};
            if (n > 1) {
                const RankedOption& next = ranked[1];
                if (next.mode.commitment) {
                    params["next_commitment"] = reasonNumber(next.mode.commitment->amount);
                    params["next_commitment_months"] = reasonNumber(next.mode.commitment->months);
                }
                params["next_provider"] = next.estimate.provider->name;
                params["next_instance"] = next.estimate.offer->instanceType;
                params["next_cost"] = reasonNumber(next.mode.cost.value);
                params["next_hours"] = reasonNumber(next.mode.hours.value);
                params["currency"] = currency;
            }
            o.reasons.push_back(reason("reason.rank", std::move(params)));
        }
        if (constraints.deadlineHours) {
            o.reasons.push_back(reason("reason.deadline",
                                       {{"margin", reasonNumber(*constraints.deadlineHours - m.hours.value)},
                                        {"misses_at_high", m.hours.high > *constraints.deadlineHours ? "1" : "0"}}));
        }
        if (m.spot) {
            const SpotDetail& s = *m.spot;
            const double interval = std::min(s.intervalHours, e.training->computeHours.value);
            std::map<std::string, std::string> params{{"probability", reasonNumber(s.rate.monthlyProbability.value)},
                                                      {"interval", reasonNumber(interval)}};
            if (s.simulated) {
                params["p50"] = reasonNumber(s.simulated->p50Hours);
                params["p90"] = reasonNumber(s.simulated->p90Hours);
                params["interruptions"] = reasonNumber(s.simulated->meanInterruptions);
            }
            o.reasons.push_back(reason("reason.spot", std::move(params)));
        }
        // Where the provider's billing rule moves the figure (whole hours when it is not known), say so.
        if (m.mode == PricingMode::OnDemand || m.mode == PricingMode::Spot) {
            const double billed = billedHours(m.hours.value, e.offer->billing);
            if (billed > m.hours.value * 1.05 + 1e-9) {
                const std::string provider = e.provider->name;
                o.reasons.push_back(reason(e.offer->billing ? "reason.billing" : "reason.billing_unknown",
                                           {{"provider", provider},
                                            {"hours", reasonNumber(m.hours.value)},
                                            {"billed", reasonNumber(billed)}}));
            }
        }
        const MemoryPlan& memory = e.training->memory;
        o.reasons.push_back(reason(memory.known ? "reason.memory" : "reason.memory_unknown",
                                   {{"needed_gb", reasonNumber(memory.totalGb())},
                                    {"capacity_gb", reasonNumber(e.gpu->memoryGb)},
                                    {"sharding", shardingName(memory.sharding)},
                                    {"checkpointing", memory.activationCheckpointing ? "1" : "0"},
                                    {"micro_batch", std::to_string(memory.microBatch)}}));
        if (constraints.sensitive) {
            std::string compliance;
            for (std::size_t c = 0; c < e.offer->compliance.size(); ++c) {
                compliance += (c ? ", " : "") + e.offer->compliance[c];
            }
            o.reasons.push_back(
                reason("reason.isolated",
                       {{"isolated", e.offer->physicallyIsolated() ? "1" : "0"}, {"compliance", compliance}}));
        }
        if (e.kwh) {
            std::map<std::string, std::string> params{{"kwh", reasonNumber(*e.kwh)}, {"region", e.region}};
            if (e.kgCo2e) {
                params["kg_co2e"] = reasonNumber(*e.kgCo2e);
            }
            o.reasons.push_back(reason("reason.energy", std::move(params)));
        }
        if (const int regions = regionsOf[std::size_t(i)]; regions > 1) {
            o.estimate.notes.push_back(Reason{"note.other_regions", {{"regions", std::to_string(regions - 1)}}});
        }
    }
    ranked.resize(std::min(ranked.size(), std::size_t(std::max(constraints.top, 0))));
    result.options = std::move(ranked);
    return result;
}

} // namespace gpuplan::core
