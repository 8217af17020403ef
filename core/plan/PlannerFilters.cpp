// The plan's rules: the countries a plan may name, and the filters that leave an offer in a region out of the
// recommendation, each with the reason the Compare page and `gpuplan plan` show.
#include "gpuplan/plan/Planner.h"

#include "plan/PlannerParts.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace gpuplan::core {

using planner::nested;
using planner::reason;

namespace {

bool frameworkRuns(const GpuSpec& gpu, const Offer& offer, const std::string& framework, Reason& why)
{
    if (offer.service == ServiceKind::Tpu || gpu.vendor == "Google") {
        if (framework != "jax" && framework != "tensorflow") {
            why = reason("excluded.framework_tpu", {{"framework", framework}});
            return false;
        }
        return true;
    }
    if (gpu.vendor == "AMD") {
        if (framework != "pytorch" && framework != "jax" && framework != "tensorflow") {
            why = reason("excluded.framework_rocm", {{"framework", framework}, {"gpu", gpu.name}});
            return false;
        }
    }
    return true;
}

} // namespace

std::vector<std::string> countryEntries(std::string_view text)
{
    std::vector<std::string> entries;
    std::string current;
    auto flush = [&] {
        if (!current.empty()) {
            entries.push_back(std::move(current));
            current.clear();
        }
    };
    // Separators: ASCII comma, semicolon and blanks, and the Chinese comma and enumeration comma.
    const std::string_view separators[] = {",", ";", " ", "\t", "\xEF\xBC\x8C" /* ， */, "\xE3\x80\x81" /* 、 */};
    for (std::size_t i = 0; i < text.size();) {
        bool separated = false;
        for (std::string_view s : separators) {
            if (text.substr(i, s.size()) == s) {
                flush();
                i += s.size();
                separated = true;
                break;
            }
        }
        if (!separated) {
            current += text[i++];
        }
    }
    flush();
    return entries;
}

bool isCountryCode(std::string_view entry)
{
    return entry.size() == 2 && std::isalpha(static_cast<unsigned char>(entry[0]))
           && std::isalpha(static_cast<unsigned char>(entry[1]));
}

Result<std::vector<std::string>> parseCountryCodes(std::string_view text)
{
    std::vector<std::string> codes;
    for (std::string entry : countryEntries(text)) {
        if (!isCountryCode(entry)) {
            return Error{
                ErrorCode::InvalidArgument, Reason{"error.plan.bad_country_entry", {{"found", entry}}}, "countries"};
        }
        for (char& c : entry) {
            c = char(std::toupper(static_cast<unsigned char>(c)));
        }
        if (std::find(codes.begin(), codes.end(), entry) == codes.end()) {
            codes.push_back(std::move(entry));
        }
    }
    return codes;
}

Status checkCountries(const std::vector<std::string>& countries, const Assumptions& assumptions)
{
    std::set<std::string> known;
    for (const ProviderFacts& provider : assumptions.providers) {
        for (const ProviderFacts::Region& region : provider.regions) {
            if (!region.country.empty()) {
                known.insert(region.country);
            }
        }
    }
    for (const std::string& code : countries) {
        if (known.count(code)) {
            continue;
        }
        std::string list;
        for (const std::string& k : known) {
            list += (list.empty() ? "" : ", ") + k;
        }
        // No "known" parameter: no region of the catalog names its country.
        Reason reason{"error.plan.unknown_country", {{"country", code}}};
        if (!list.empty()) {
            reason.params["known"] = list;
        }
        return Error{ErrorCode::NotFound, std::move(reason), "countries"};
    }
    return Ok{};
}

namespace planner {

std::optional<Excluded> ruledOut(OfferEstimate& e, const Constraints& constraints, const Assumptions& assumptions)
{
    const std::string currency = currencyCode(constraints.currency);
    const Offer& offer = *e.offer;
    Reason why;
    if (!frameworkRuns(*e.gpu, offer, constraints.framework, why)) {
        return Excluded{"framework", std::move(why)};
    }
    if (!constraints.countries.empty()) {
        const ProviderFacts::Region* where = assumptions.region(e.provider->id, e.region);
        const std::string country = where ? where->country : "";
        std::string allowed;
        for (const std::string& code : constraints.countries) {
            allowed += (allowed.empty() ? "" : ", ") + code;
        }
        if (country.empty()) {
            return Excluded{"region", reason("excluded.country_unknown", {{"region", e.region}, {"allowed", allowed}})};
        }
        if (std::find(constraints.countries.begin(), constraints.countries.end(), country)
            == constraints.countries.end()) {
            return Excluded{
                "region",
                reason("excluded.country", {{"region", e.region}, {"country", country}, {"allowed", allowed}})};
        }
    }
    if (constraints.sensitive && !offer.physicallyIsolated() && offer.compliance.empty()) {
        return Excluded{"sensitive", reason("excluded.sensitive", {})};
    }
    if (e.training->memory.known && !e.training->memory.fits) {
        return Excluded{
            "memory",
            nested("excluded.memory", {{"gpus", std::to_string(e.gpus)}, {"gpu", e.gpu->name}}, e.training->fit)};
    }
    if (!e.training->known) {
        return Excluded{"unknown", nested("excluded.unknown", {}, e.training->unknown)};
    }
    if (e.nodes > 1 && !constraints.multiNode) {
        return Excluded{"scale", reason("excluded.single_node", {{"nodes", std::to_string(e.nodes)}})};
    }
    if (e.nodes > 1 && constraints.requireRdma && !offer.rdma.value_or(false)) {
        return Excluded{"rdma", reason("excluded.rdma", {{"nodes", std::to_string(e.nodes)}})};
    }
    if (e.modes.empty()) {
        return Excluded{"no_price", reason("excluded.no_price", {})};
    }
    // Deadline and budget per mode: a mode that misses them is not a way to buy this offer.
    for (ModeCost& mode : e.modes) {
        if (!mode.eligible) {
            continue;
        }
        if (!constraints.modes.empty()
            && std::find(constraints.modes.begin(), constraints.modes.end(), mode.mode) == constraints.modes.end()) {
            mode.eligible = false;
            mode.why = reason("excluded.mode_not_chosen", {{"mode", pricingModeName(mode.mode)}});
            continue;
        }
        if (constraints.deadlineHours && mode.hours.value > *constraints.deadlineHours) {
            mode.eligible = false;
            mode.why = reason(
                "excluded.deadline",
                {{"hours", reasonNumber(mode.hours.value)}, {"deadline", reasonNumber(*constraints.deadlineHours)}});
        } else if (constraints.budget && mode.cost.value > *constraints.budget) {
            mode.eligible = false;
            mode.why = reason("excluded.budget",
                              {{"cost", reasonNumber(mode.cost.value)},
                               {"budget", reasonNumber(*constraints.budget)},
                               {"currency", currency}});
        }
    }
    if (!e.cheapestEligible()) {
        // Name the most telling mode's reason: on-demand's if there is one.
        const ModeCost* shown = &e.modes.front();
        for (const ModeCost& mode : e.modes) {
            if (mode.mode == PricingMode::OnDemand && !mode.managed) {
                shown = &mode;
            }
        }
        const std::string rule = shown->why.key == "excluded.deadline" ? "deadline"
                                 : shown->why.key == "excluded.budget" ? "budget"
                                                                       : "pricing";
        return Excluded{rule, shown->why};
    }
    return std::nullopt;
}

} // namespace planner

} // namespace gpuplan::core
