// The shape of a .gpuplan document, path by path: checkPlan refuses a document whose members are not of the kinds
// GPU Planner writes, before anything reads it (core/plan/PlanFile.cpp then reads it into a PlanDocument).

#include "gpuplan/plan/PlanFile.h"

#include "core/JsonChecker.h"

#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpuplan::core {

using nlohmann::json;

namespace {

/// What a member of a plan may be: the JSON kinds the writers (planJson, buyVsRentJson, verificationJson) produce.
enum Kind : unsigned
{
    Null = 1U << 0,
    Bool = 1U << 1,
    Whole = 1U << 2, // an integer from -1e9 to 1e9 (the readers keep it in an int)
    Number = 1U << 3,
    Text = 1U << 4,
    List = 1U << 5,
    Object = 1U << 6,
    Required = 1U << 7, // the writers always write it; readers index it without looking
};

/// How long a text may be: names, ids and sources are short; anything longer is not from GPU Planner, and
/// unbounded text would make the report's layout slow (wrapping is worse than linear in an unbroken word).
constexpr std::size_t kMaxShortText = 1000;
constexpr std::size_t kMaxLongText = 20000;

struct Rule
{
    std::string_view path;
    unsigned kinds;
    std::string_view as = {}; // the children follow this shared shape ("@range", "@reason", "@line")
    std::size_t maxText = kMaxShortText;
};

/// The plan document, path by path ("[]" is any element of a list, "*" any member). Members not listed are
/// kept but not read; their text is bounded all the same.
constexpr Rule kRules[] = {
    {"$", Object},
    {"$.format", Text | Required},
    {"$.version", Whole | Required},
    {"$.created", Text},
    {"$.notes", Text, {}, kMaxLongText},
    {"$.choice", Null | Whole},
    {"$.workload", Object | Required},
    {"$.workload.id", Text},
    {"$.workload.name", Text},
    {"$.workload.task", Text},
    {"$.workload.class", Text},
    {"$.workload.method", Text},
    {"$.workload.kind", Text},
    {"$.workload.parameters", Number},
    {"$.workload.epochs", Number},
    {"$.workload.units", Number},
    {"$.workload.unit", Text},
    {"$.workload.tokens_per_epoch", Number},
    {"$.workload.sequence_length", Number},
    {"$.workload.samples_per_epoch", Number},
    {"$.workload.definition", Object},
    {"$.workload.definition.name", Text},
    {"$.workload.definition.name_zh", Text},
    {"$.workload.definition.description", Text, {}, kMaxLongText},
    {"$.workload.definition.description_zh", Text, {}, kMaxLongText},
    {"$.workload.definition.sources[].note", Text, {}, kMaxLongText},
    {"$.constraints", Object | Required},
    {"$.constraints.budget", Null | Number},
    {"$.constraints.currency", Text | Required},
    {"$.constraints.deadline_hours", Null | Number},
    {"$.constraints.sensitive", Bool},
    {"$.constraints.framework", Text},
    {"$.constraints.min_gpus", Whole},
    {"$.constraints.max_gpus", Whole},
    {"$.constraints.precision", Text},
    {"$.constraints.project_months", Number},
    {"$.constraints.top", Whole},
    {"$.constraints.spot_share", Null | Number},
    {"$.constraints.modes", List},
    {"$.constraints.modes[]", Text},
    {"$.constraints.multi_node", Bool},
    {"$.constraints.require_rdma", Bool},
    {"$.constraints.countries", List},
    {"$.constraints.countries[]", Text},
    {"$.catalog", Object | Required},
    {"$.catalog.price_date", Text},
    {"$.catalog.exchange_rate", Null | Object},
    {"$.catalog.exchange_rate.cny_per_usd", Number | Required},
    {"$.catalog.exchange_rate.source", Text},
    {"$.catalog.exchange_rate.date", Text},
    {"$.catalog.exchange_rate.user_set", Bool},
    {"$.assumptions", Object},
    {"$.assumptions.setup_hours", Object, "@range"},
    {"$.assumptions.upload_mbps", Object, "@range"},
    {"$.assumptions.checkpoint_write_gb_s", Number},
    {"$.assumptions.checkpoint_every_hours", Number},
    {"$.assumptions.monte_carlo_runs", Whole},
    {"$.results", Object | Required},
    {"$.results.objective", Text},
    {"$.results.eligible", Whole},
    {"$.results.notes", List},
    {"$.results.notes[]", Text | Object, "@reason", kMaxLongText},
    {"$.results.excluded", List},
    {"$.results.excluded[]", Object},
    {"$.results.excluded[].provider", Text},
    {"$.results.excluded[].provider_name", Text},
    {"$.results.excluded[].provider_name_zh", Text},
    {"$.results.excluded[].instance_type", Text},
    {"$.results.excluded[].region", Text},
    {"$.results.excluded[].rule", Text},
    {"$.results.excluded[].reason", Object | Required, "@reason"},
    {"$.results.options", List | Required},
    {"$.results.options[]", Object},
    {"$.results.options[].rank", Whole},
    {"$.results.options[].provider", Text | Required},
    {"$.results.options[].instance_type", Text | Required},
    {"$.results.options[].region", Text | Required},
    {"$.results.options[].gpu", Text},
    {"$.results.options[].gpus", Whole | Required},
    {"$.results.options[].nodes", Whole},
    {"$.results.options[].provider_name", Text},
    {"$.results.options[].provider_name_zh", Text},
    {"$.results.options[].gpu_name", Text},
    {"$.results.options[].mode", Text | Required},
    {"$.results.options[].spot_share", Null | Number},
    {"$.results.options[].cost_breakdown", Object | Required},
    {"$.results.options[].cost_breakdown.compute", Object | Required, "@range"},
    {"$.results.options[].cost_breakdown.storage", Object | Required, "@range"},
    {"$.results.options[].cost_breakdown.egress", Object | Required, "@range"},
    {"$.results.options[].setup_hours", Object | Required, "@range"},
    {"$.results.options[].transfer_hours", Object | Required, "@range"},
    {"$.results.options[].checkpoint_hours", Object, "@range"},
    {"$.results.options[].price_per_hour", Null | Number},
    {"$.results.options[].price_currency", Text},
    {"$.results.options[].hours", Object | Required, "@range"},
    {"$.results.options[].cost", Object | Required, "@range"},
    {"$.results.options[].currency", Text},
    {"$.results.options[].modes", List | Required},
    {"$.results.options[].modes[]", Object},
    {"$.results.options[].modes[].mode", Text | Required},
    {"$.results.options[].modes[].managed_offer", Text},
    {"$.results.options[].modes[].price", Object | Required},
    {"$.results.options[].modes[].price.amount", Number | Required},
    {"$.results.options[].modes[].price.currency", Text | Required},
    {"$.results.options[].modes[].price.unit", Text},
    {"$.results.options[].modes[].price.source", Text},
    {"$.results.options[].modes[].price.as_of", Null | Text},
    {"$.results.options[].modes[].price.retrieved", Text},
    {"$.results.options[].modes[].price.date", Text}, // plans written before prices had two dates
    {"$.results.options[].modes[].hours", Object | Required, "@range"},
    {"$.results.options[].modes[].cost", Object | Required, "@range"},
    {"$.results.options[].modes[].eligible", Bool | Required},
    {"$.results.options[].modes[].why_not", Object, "@reason"},
    {"$.results.options[].modes[].commitment", Object},
    {"$.results.options[].modes[].commitment.months", Number | Required},
    {"$.results.options[].modes[].commitment.amount", Number | Required},
    {"$.results.options[].modes[].commitment.currency", Text},
    {"$.results.options[].modes[].spot", Object},
    {"$.results.options[].modes[].spot.monthly_interruption", Object | Required, "@range"},
    {"$.results.options[].modes[].spot.rate_source", Text},
    {"$.results.options[].modes[].spot.mtbf_hours", Number},
    {"$.results.options[].modes[].spot.checkpoint_interval_hours", Number},
    {"$.results.options[].modes[].spot.checkpoint_hours", Number},
    {"$.results.options[].modes[].spot.expected_compute_hours", Number},
    {"$.results.options[].modes[].spot.extra_hours", Number},
    {"$.results.options[].modes[].spot.monte_carlo", Object},
    {"$.results.options[].modes[].spot.monte_carlo.*", Number},
    {"$.results.options[].modes[].spot.monte_carlo_cost", Object},
    {"$.results.options[].modes[].spot.monte_carlo_cost.*", Number},
    {"$.results.options[].training", Object | Required},
    {"$.results.options[].training.gpu", Text},
    {"$.results.options[].training.count", Whole},
    {"$.results.options[].training.precision", Text},
    {"$.results.options[].training.stack", Text},
    {"$.results.options[].training.known", Bool},
    {"$.results.options[].training.unknown_reason", Text | Object, "@reason"}, // text: a plan of wave 1
    {"$.results.options[].training.throughput", Object},
    {"$.results.options[].training.throughput.value", Number},
    {"$.results.options[].training.throughput.low", Number},
    {"$.results.options[].training.throughput.high", Number},
    {"$.results.options[].training.throughput.unit", Text},
    {"$.results.options[].training.hours", Object, "@range"},
    {"$.results.options[].training.gpu_hours", Object, "@range"},
    {"$.results.options[].training.mfu", Null | Number},
    {"$.results.options[].training.peak_tflops", Object},
    {"$.results.options[].training.peak_tflops.value", Number},
    {"$.results.options[].training.peak_tflops.used", Text},
    {"$.results.options[].training.efficiency", Object, "@range"},
    {"$.results.options[].training.efficiency_basis", Object, "@reason"},
    {"$.results.options[].training.scaling", Object, "@range"},
    {"$.results.options[].training.limited_by", Text},
    {"$.results.options[].training.gpu_figures", Text},
    {"$.results.options[].training.time_shares", Object},
    {"$.results.options[].training.time_shares.*", Number},
    {"$.results.options[].training.input_pipeline_ceiling", Null | Number},
    {"$.results.options[].training.storage_ceiling", Null | Number},
    {"$.results.options[].training.calibration", Object},
    {"$.results.options[].training.calibration.nearness", Whole},
    {"$.results.options[].training.calibration.based_on", List},
    {"$.results.options[].training.calibration.based_on[]", Text},
    {"$.results.options[].training.calibration.user_data", Bool},
    {"$.results.options[].training.fits_memory", Null | Bool},
    {"$.results.options[].training.memory", Object},
    {"$.results.options[].training.memory.strategy", Text}, // a plan of wave 1
    {"$.results.options[].training.memory.sharding", Text},
    {"$.results.options[].training.memory.activation_checkpointing", Bool},
    {"$.results.options[].training.memory.*", Number},
    {"$.results.options[].training.fit_reason", Text | Object, "@reason"},
    {"$.results.options[].training.notes", List},
    {"$.results.options[].training.notes[]", Text | Object, "@reason"},
    {"$.results.options[].kwh", Null | Number},
    {"$.results.options[].kg_co2e", Null | Number},
    {"$.results.options[].reasons", List},
    {"$.results.options[].reasons[]", Object, "@reason"},
    {"$.results.options[].notes", List},
    {"$.results.options[].notes[]", Text | Object, "@reason"},
    {"$.buy_vs_rent", Null | Object},
    {"$.buy_vs_rent.available", Bool | Required},
    {"$.buy_vs_rent.reason", Text | Object, "@reason"},
    {"$.buy_vs_rent.system", Text},
    {"$.buy_vs_rent.gpu", Text},
    {"$.buy_vs_rent.gpu_name", Text},
    {"$.buy_vs_rent.gpus", Whole},
    {"$.buy_vs_rent.power_w", Number},
    {"$.buy_vs_rent.currency", Text},
    {"$.buy_vs_rent.utilisation", Number},
    {"$.buy_vs_rent.pue", Number},
    {"$.buy_vs_rent.maintenance_per_year", Number},
    {"$.buy_vs_rent.depreciation_years", Number},
    {"$.buy_vs_rent.electricity_per_kwh", Null | Number},
    {"$.buy_vs_rent.months", Whole},
    {"$.buy_vs_rent.own", Object, "@line"},
    {"$.buy_vs_rent.rent", List},
    {"$.buy_vs_rent.rent[]", Object, "@line"},
    {"$.run", Object},
    {"$.run.workdir", Text},
    {"$.run.excludes", List},
    {"$.run.excludes[]", Text},
    {"$.run.dataset", Text},
    {"$.run.dataset_region", Text},
    {"$.run.image", Text},
    {"$.run.setup", List},
    {"$.run.setup[]", Text, {}, kMaxLongText},
    {"$.run.command", Text, {}, kMaxLongText},
    {"$.run.results", List},
    {"$.run.results[]", Text},
    {"$.run.throughput", Object},
    {"$.run.throughput.preset", Text},
    {"$.run.throughput.regex", Text},
    {"$.run.throughput.unit", Text},
    {"$.run.throughput.per_step", Number},
    {"$.run.tensorboard_logdir", Text},
    {"$.verifications", List},
    {"$.verifications[]", Object},
    {"$.verifications[].when", Text | Required},
    {"$.verifications[].host", Text | Required},
    {"$.verifications[].verdict", Text | Required},
    {"$.verifications[].expected_gpu", Text},
    {"$.verifications[].expected_count", Whole},
    {"$.verifications[].gpu_name", Text},
    {"$.verifications[].gpu_count", Whole},
    {"$.verifications[].driver", Text},
    {"$.verifications[].lines", List | Required},
    {"$.verifications[].lines[]", Object},
    {"$.verifications[].lines[].check", Text | Required},
    {"$.verifications[].lines[].gpu", Null | Whole | Required},
    {"$.verifications[].lines[].level", Text | Required},
    {"$.verifications[].lines[].measured", Text | Object, "@reason"}, // text: a plan before figures were keys
    {"$.verifications[].lines[].expected", Text | Object, "@reason"},
    {"$.verifications[].lines[].reason", Object | Required, "@reason"},
    {"$.ledger", List},
    {"$.ledger[]", Object},
    {"$.ledger[].provider", Text},
    {"$.ledger[].instance_id", Text},
    {"$.ledger[].instance_type", Text},
    {"$.ledger[].region", Text},
    {"$.ledger[].started", Text},
    {"$.ledger[].ended", Text},
    {"$.ledger[].hours", Number},
    {"$.ledger[].cost", Number},
    {"$.ledger[].currency", Text},
    {"$.runs", List},
    {"$.runs[]", Object},
    {"$.runs[].host", Text},
    {"$.runs[].provider", Text},
    {"$.runs[].instance_type", Text},
    {"$.runs[].state", Text | Required},
    {"$.runs[].exit_code", Whole},
    {"$.runs[].started", Text},
    {"$.runs[].ended", Text},
    {"$.runs[].planned_hours", Number},
    {"$.runs[].planned_hours_low", Number},
    {"$.runs[].planned_hours_high", Number},
    {"$.runs[].hours", Number},
    {"$.runs[].planned_throughput", Number},
    {"$.runs[].planned_throughput_low", Number},
    {"$.runs[].planned_throughput_high", Number},
    {"$.runs[].throughput", Number},
    {"$.runs[].throughput_unit", Text},
    {"$.runs[].planned_cost", Number},
    {"$.runs[].planned_currency", Text},
    {"$.runs[].cost", Number},
    {"$.runs[].cost_currency", Text},
    {"$.runs[].gpu_utilization", Number},
    // Shared shapes.
    {"@range.value", Number | Required},
    {"@range.low", Number | Required},
    {"@range.high", Number | Required},
    {"@reason.key", Text},
    {"@reason.params", Object},
    {"@reason.params.*", Text | Number},
    {"@reason.text", Text, {}, kMaxLongText}, // written by wave 1 beside the key, not read
    {"@line.key", Text},
    {"@line.offer", Text},
    {"@line.upfront", Number},
    {"@line.monthly", Number},
    {"@line.cumulative", List},
    {"@line.cumulative[]", Number},
    {"@line.break_even_month", Null | Number},
    {"@line.source", Text},
    {"@line.date", Text},
};

/// The kinds a rule accepts as a reason parameter: their names separated by spaces ("object null"); the wording
/// says "an object or null".
std::string kindsText(unsigned kinds)
{
    std::string out;
    for (auto [kind, name] : {std::pair{Object, "object"},
                              std::pair{List, "array"},
                              std::pair{Text, "string"},
                              std::pair{Whole, "whole_number"},
                              std::pair{Number, "number"},
                              std::pair{Bool, "boolean"},
                              std::pair{Null, "null"}}) {
        if (kinds & kind) {
            out += (out.empty() ? "" : " ") + std::string(name);
        }
    }
    return out;
}

bool hasKind(const json& value, unsigned kinds)
{
    switch (value.type()) {
        case json::value_t::null:
            return kinds & Null;
        case json::value_t::boolean:
            return kinds & Bool;
        case json::value_t::number_integer:
        case json::value_t::number_unsigned: {
            if (kinds & Number) {
                return true;
            }
            const double n = value.get<double>();
            return (kinds & Whole) && n >= -1e9 && n <= 1e9;
        }
        case json::value_t::number_float:
            return kinds & Number;
        case json::value_t::string:
            return kinds & Text;
        case json::value_t::array:
            return kinds & List;
        case json::value_t::object:
            return kinds & Object;
        default:
            return false;
    }
}

class PlanShape
{
public:
    PlanShape()
    {
        for (const Rule& rule : kRules) {
            m_rules.emplace(rule.path, &rule);
            if (rule.kinds & Required) {
                const std::size_t dot = rule.path.rfind('.');
                m_required[rule.path.substr(0, dot)].push_back(rule.path.substr(dot + 1));
            }
        }
    }

    /// The first problem of `plan`, or Ok. Iterative over the document's depth (parseJson bounds it at 32).
    Status check(const json& plan, const std::string& file) const { return visit(plan, "$", "$", file); }

private:
    const Rule* find(const std::string& pattern) const
    {
        auto it = m_rules.find(pattern);
        return it == m_rules.end() ? nullptr : it->second;
    }

    Status visit(const json& node, const std::string& path, const std::string& pattern, const std::string& file) const
    {
        const Rule* rule = find(pattern);
        if (!rule) {
            // A member not listed: "*" covers every member of its parent.
            const std::size_t dot = pattern.rfind('.');
            if (dot != std::string::npos && pattern.back() != ']') {
                rule = find(pattern.substr(0, dot) + ".*");
            }
        }
        if (rule && !hasKind(node, rule->kinds)) {
            Reason reason{"error.json.wrong_type", {{"expected", kindsText(rule->kinds)}}};
            return Error{ErrorCode::SchemaViolation, std::move(putFound(reason, node)), file + ": " + path};
        }
        const std::size_t maxText = rule ? rule->maxText : kMaxShortText;
        if (node.is_string() && node.get_ref<const std::string&>().size() > maxText) {
            return Error{ErrorCode::SchemaViolation,
                         Reason{"error.plan.text_too_long",
                                {{"length", std::to_string(node.get_ref<const std::string&>().size())},
                                 {"max", std::to_string(maxText)}}},
                         file + ": " + path};
        }
        const std::string shape = rule && !rule->as.empty() ? std::string(rule->as) : pattern;
        if (node.is_object()) {
            if (auto it = m_required.find(shape); it != m_required.end()) {
                for (std::string_view key : it->second) {
                    if (!node.contains(key)) {
                        return Error{ErrorCode::SchemaViolation,
                                     Reason{"error.json.required_missing", {{"field", std::string(key)}}},
                                     file + ": " + path + "." + std::string(key)};
                    }
                }
            }
            for (const auto& [key, value] : node.items()) {
                if (key.size() > kMaxShortText) {
                    return Error{
                        ErrorCode::SchemaViolation, Reason{"error.plan.member_name_too_long", {}}, file + ": " + path};
                }
                if (Status s = visit(value, path + "." + key, shape + "." + key, file); !s) {
                    return s;
                }
            }
        } else if (node.is_array()) {
            for (std::size_t i = 0; i < node.size(); ++i) {
                if (Status s = visit(node[i], path + "[" + std::to_string(i) + "]", shape + "[]", file); !s) {
                    return s;
                }
            }
        }
        return Ok{};
    }

    std::unordered_map<std::string_view, const Rule*> m_rules;
    std::unordered_map<std::string_view, std::vector<std::string_view>> m_required;
};

} // namespace

Status checkPlan(const json& plan, const std::string& where)
{
    if (!plan.is_object() || plan.value("format", json()) != "gpuplan") {
        return Error{ErrorCode::SchemaViolation, Reason{"error.plan.not_a_plan", {}}, where + ": $.format"};
    }
    const json version = plan.value("version", json());
    if (!version.is_number_integer() || version.get<long long>() < 1) {
        Reason reason{"error.plan.no_version", {}};
        return Error{ErrorCode::SchemaViolation, std::move(putFound(reason, version)), where + ": $.version"};
    }
    if (version.get<long long>() > kPlanFormatVersion) {
        return Error{ErrorCode::SchemaViolation,
                     Reason{"error.plan.newer_version",
                            {{"version", std::to_string(version.get<long long>())},
                             {"max", std::to_string(kPlanFormatVersion)}}},
                     where + ": $.version"};
    }
    static const PlanShape shape;
    return shape.check(plan, where);
}

} // namespace gpuplan::core
