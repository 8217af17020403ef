// Reading a .gpuplan document into a PlanDocument, after checkPlan has checked the kind of every member: the values
// the program cannot use (a negative cost, an unknown pricing mode, an exchange rate of 0) are refused here, each
// problem naming the file and the JSON path.

#include "plan/PlanReader.h"

#include "core/JsonChecker.h"
#include "gpuplan/plan/PlanFile.h"
#include "gpuplan/workload/WorkloadLoader.h"

#include <utility>

namespace gpuplan::core {

using nlohmann::json;
using Need = JsonChecker::Need;

namespace {

/// Reads a checked document (checkPlan: every member is of its kind) into a plan, refusing values the program
/// cannot use. Problems are gathered by the checker; the first names the file and the JSON path.
class PlanReader
{
public:
    explicit PlanReader(const std::string& where)
        : m_check(where)
        , m_where(where)
    { }

    Result<PlanDocument> read(const json& plan)
    {
        PlanDocument out;
        out.created = text(plan, "created");
        out.notes = text(plan, "notes");
        if (auto choice = plan.find("choice"); choice != plan.end() && choice->is_number_integer()) {
            out.choice = choice->get<int>();
        }
        out.workload = workload(plan["workload"]);
        if (Result<Constraints> c = constraintsFromJson(plan["constraints"], m_where); c) {
            out.constraints = std::move(c).value();
        } else {
            return c.error();
        }
        const json& catalog = plan["catalog"];
        out.priceDate = text(catalog, "price_date");
        if (const json* rate = m_check.object(catalog, "exchange_rate", "$.catalog", Need::Optional)) {
            const std::string at = "$.catalog.exchange_rate";
            out.exchangeRate =
                PlanExchangeRate{m_check.positiveNumber(*rate, "cny_per_usd", at, Need::Required).value_or(0),
                                 text(*rate, "source"),
                                 text(*rate, "date"),
                                 m_check.boolean(*rate, "user_set", at, Need::Optional).value_or(false)};
        }
        if (const json* a = m_check.object(plan, "assumptions", "$", Need::Optional)) {
            const std::string at = "$.assumptions";
            PlanAssumptions assumptions;
            assumptions.setupHours = range(*a, "setup_hours", at, Need::Optional);
            assumptions.uploadMbps = range(*a, "upload_mbps", at, Need::Optional);
            assumptions.checkpointWriteGbs = optionalNumber(*a, "checkpoint_write_gb_s", at).value_or(0);
            assumptions.checkpointEveryHours = optionalNumber(*a, "checkpoint_every_hours", at).value_or(0);
            assumptions.monteCarloRuns = whole(*a, "monte_carlo_runs", at, 0);
            out.assumptions = assumptions;
        }
        out.results = results(plan["results"]);
        if (const json* buy = m_check.object(plan, "buy_vs_rent", "$", Need::Optional)) {
            out.buyVsRent = buyVsRent(*buy);
        }
        forEachObject(plan, "verifications", "$", [&](const json& node, const std::string& at) {
            out.verifications.push_back(verification(node, at));
        });
        forEachObject(plan, "ledger", "$", [&](const json& node, const std::string& at) {
            out.ledger.push_back(spend(node, at));
        });
        forEachObject(
            plan, "runs", "$", [&](const json& node, const std::string& at) { out.runs.push_back(planRun(node, at)); });
        if (const auto run = plan.find("run"); run != plan.end() && !run->is_null()) {
            Result<RunSpec> spec = readRunSpec(*run, "$.run");
            if (!spec) {
                return spec.error();
            }
            out.run = std::move(spec).value();
        }
        if (m_check.problemCount() > 0) {
            return m_check.takeProblems().front();
        }
        return out;
    }

private:
    static std::string text(const json& node, const char* key)
    {
        auto it = node.find(key);
        return it != node.end() && it->is_string() ? it->get<std::string>() : std::string{};
    }

    template <typename Visit>
    void forEachObject(const json& parent, const char* key, const std::string& path, Visit visit)
    {
        const json* list = m_check.array(parent, key, path, Need::Optional);
        if (!list) {
            return;
        }
        const std::string at = JsonChecker::child(path, key);
        for (std::size_t i = 0; i < list->size(); ++i) {
            if (m_check.isObject((*list)[i], JsonChecker::index(at, i))) {
                visit((*list)[i], JsonChecker::index(at, i));
            }
        }
    }

    /// {"value", "low", "high"}, none negative; an empty range when absent or malformed (with a problem when required).
    Range range(const json& parent, const char* key, const std::string& path, Need need)
    {
        const json* node = m_check.object(parent, key, path, need);
        if (!node) {
            return {};
        }
        const std::string at = JsonChecker::child(path, key);
        std::optional<double> value = m_check.nonNegativeNumber(*node, "value", at, Need::Required);
        std::optional<double> low = m_check.nonNegativeNumber(*node, "low", at, Need::Required);
        std::optional<double> high = m_check.nonNegativeNumber(*node, "high", at, Need::Required);
        return value && low && high ? Range{*value, *low, *high} : Range{};
    }

    /// {"key", "params"}; a parameter may be a number (written as a plain decimal). A plan written before
    /// reasons were keys (plan files of wave 1 kept English sentences in fit_reason, unknown_reason, notes and
    /// buy_vs_rent.reason) gives "saved.text" with the sentence as it was saved; the "text" beside a key, which
    /// the same files wrote, is not read: the key says it in the reader's language.
    static Reason reason(const json& node)
    {
        Reason out;
        if (node.is_string()) {
            out.key = "saved.text";
            out.params["text"] = node.get<std::string>();
            return out;
        }
        if (!node.is_object()) {
            return out;
        }
        out.key = text(node, "key");
        if (auto params = node.find("params"); params != node.end() && params->is_object()) {
            for (const auto& [name, value] : params->items()) {
                out.params[name] = value.is_string() ? value.get<std::string>() : reasonNumber(value.get<double>());
            }
        }
        return out;
    }

    static Reason member(const json& node, const char* key)
    {
        auto it = node.find(key);
        return it == node.end() ? Reason{} : reason(*it);
    }

    /// A verification line's figure: a reason, or in an older plan its text; "" (or absent) is no figure.
    static Reason figure(const json& node, const char* key)
    {
        auto it = node.find(key);
        return it == node.end() || (it->is_string() && it->get_ref<const std::string&>().empty()) ? Reason{}
                                                                                                  : reason(*it);
    }

    /// A list of reasons (or, in an older plan, of sentences).
    static std::vector<Reason> reasons(const json& node, const char* key)
    {
        std::vector<Reason> out;
        auto it = node.find(key);
        if (it != node.end() && it->is_array()) {
            for (const json& item : *it) {
                if (Reason r = reason(item); !r.empty()) {
                    out.push_back(std::move(r));
                }
            }
        }
        return out;
    }

    template <typename Enum>
    Enum choice(const json& node,
                const char* key,
                const std::string& path,
                std::optional<Enum> (*parse)(std::string_view),
                const char* known,
                Enum fallback)
    {
        return m_check.choice(node, key, path, Need::Optional, parse, known).value_or(fallback);
    }

    std::optional<double> optionalNumber(const json& node, const char* key, const std::string& path)
    {
        return m_check.nonNegativeNumber(node, key, path, Need::Optional);
    }

    /// A whole number that may be 0 (checkPlan has bounded it), or `fallback` when absent.
    int whole(const json& node, const char* key, const std::string& path, int fallback)
    {
        return static_cast<int>(optionalNumber(node, key, path).value_or(fallback));
    }

    PlanWorkload workload(const json& node)
    {
        const std::string at = "$.workload";
        PlanWorkload w;
        w.id = text(node, "id");
        w.name = text(node, "name");
        w.task = text(node, "task");
        w.modelClass = text(node, "class");
        w.method = text(node, "method");
        w.kind = text(node, "kind");
        w.parameters = optionalNumber(node, "parameters", at).value_or(0);
        w.epochs = optionalNumber(node, "epochs", at).value_or(0);
        w.units = optionalNumber(node, "units", at).value_or(0);
        w.unit = text(node, "unit");
        w.tokensPerEpoch = optionalNumber(node, "tokens_per_epoch", at);
        if (std::optional<double> length = optionalNumber(node, "sequence_length", at)) {
            w.sequenceLength = static_cast<int>(*length);
        }
        w.samplesPerEpoch = optionalNumber(node, "samples_per_epoch", at);
        if (auto definition = node.find("definition"); definition != node.end() && definition->is_object()) {
            w.nameZh = text(*definition, "name_zh");
            w.description = text(*definition, "description");
            w.descriptionZh = text(*definition, "description_zh");
            // An older plan's definition may not read any more: the plan still shows, it cannot be planned again.
            if (Result<Workload> parsed = parseWorkload(*definition, m_where + ": $.workload.definition")) {
                w.definition = std::move(parsed).value();
            }
        }
        return w;
    }

    PricingMode pricingMode(const json& node, const std::string& at)
    {
        return m_check.choice(node, "mode", at, Need::Required, parsePricingMode, kPricingModeNames)
            .value_or(PricingMode::OnDemand);
    }

    PlanPrice price(const json& node, const std::string& at)
    {
        PlanPrice p;
        p.amount = m_check.nonNegativeNumber(node, "amount", at, Need::Required).value_or(0);
        // wire: the values the file may hold, as it writes them (a reason parameter)
        p.currency =
            m_check.choice(node, "currency", at, Need::Required, parseCurrency, "USD, CNY").value_or(Currency::USD);
        // wire: the values the file may hold, as it writes them (a reason parameter)
        p.unit = choice(node, "unit", at, parsePriceUnit, "hour, month", PriceUnit::Hour);
        p.source = text(node, "source");
        // "date" is what plans written before prices had two dates call it.
        p.asOf = text(node, node.contains("as_of") ? "as_of" : "date");
        p.retrieved = text(node, "retrieved");
        return p;
    }

    PlanSpot spot(const json& node, const std::string& at)
    {
        PlanSpot s;
        s.monthlyInterruption = range(node, "monthly_interruption", at, Need::Required);
        s.rateSource = text(node, "rate_source");
        s.mtbfHours = optionalNumber(node, "mtbf_hours", at).value_or(0);
        s.checkpointIntervalHours = optionalNumber(node, "checkpoint_interval_hours", at).value_or(0);
        s.checkpointHours = optionalNumber(node, "checkpoint_hours", at).value_or(0);
        s.expectedComputeHours = optionalNumber(node, "expected_compute_hours", at).value_or(0);
        s.extraHours = optionalNumber(node, "extra_hours", at).value_or(0);
        if (const json* mc = m_check.object(node, "monte_carlo", at, Need::Optional)) {
            const std::string mcAt = JsonChecker::child(at, "monte_carlo");
            SpotOutcome o;
            o.p10Hours = optionalNumber(*mc, "p10_hours", mcAt).value_or(0);
            o.p25Hours = optionalNumber(*mc, "p25_hours", mcAt).value_or(0);
            o.p50Hours = optionalNumber(*mc, "p50_hours", mcAt).value_or(0);
            o.p75Hours = optionalNumber(*mc, "p75_hours", mcAt).value_or(0);
            o.p90Hours = optionalNumber(*mc, "p90_hours", mcAt).value_or(0);
            o.meanHours = optionalNumber(*mc, "mean_hours", mcAt).value_or(0);
            o.meanInterruptions = optionalNumber(*mc, "mean_interruptions", mcAt).value_or(0);
            s.simulated = o;
        }
        if (const json* mc = m_check.object(node, "monte_carlo_cost", at, Need::Optional)) {
            const std::string mcAt = JsonChecker::child(at, "monte_carlo_cost");
            s.simulatedCost = PlanSpot::CostPercentiles{optionalNumber(*mc, "p10", mcAt).value_or(0),
                                                        optionalNumber(*mc, "p25", mcAt).value_or(0),
                                                        optionalNumber(*mc, "p50", mcAt).value_or(0),
                                                        optionalNumber(*mc, "p75", mcAt).value_or(0),
                                                        optionalNumber(*mc, "p90", mcAt).value_or(0)};
        }
        return s;
    }

    PlanMode mode(const json& node, const std::string& at)
    {
        PlanMode m;
        m.mode = pricingMode(node, at);
        if (const json* p = m_check.object(node, "price", at, Need::Required)) {
            m.price = price(*p, JsonChecker::child(at, "price"));
        }
        m.hours = range(node, "hours", at, Need::Required);
        m.cost = range(node, "cost", at, Need::Required);
        m.eligible = m_check.boolean(node, "eligible", at, Need::Optional).value_or(true);
        m.whyNot = member(node, "why_not");
        m.managedOffer = text(node, "managed_offer");
        if (const json* c = m_check.object(node, "commitment", at, Need::Optional)) {
            const std::string cAt = JsonChecker::child(at, "commitment");
            m.commitment =
                PlanMode::Commitment{m_check.nonNegativeNumber(*c, "months", cAt, Need::Required).value_or(0),
                                     m_check.nonNegativeNumber(*c, "amount", cAt, Need::Required).value_or(0)};
        }
        if (const json* s = m_check.object(node, "spot", at, Need::Optional)) {
            m.spot = spot(*s, JsonChecker::child(at, "spot"));
        }
        return m;
    }

    PlanTraining training(const json& node, const std::string& at)
    {
        PlanTraining t;
        t.gpu = text(node, "gpu");
        t.count = whole(node, "count", at, 0);
        t.precision = text(node, "precision");
        t.stack = text(node, "stack");
        t.known = m_check.boolean(node, "known", at, Need::Optional).value_or(false);
        t.unknownReason = member(node, "unknown_reason");
        if (const json* throughput = m_check.object(node, "throughput", at, Need::Optional)) {
            const std::string tAt = JsonChecker::child(at, "throughput");
            t.throughput = {optionalNumber(*throughput, "value", tAt).value_or(0),
                            optionalNumber(*throughput, "low", tAt).value_or(0),
                            optionalNumber(*throughput, "high", tAt).value_or(0)};
            t.throughputUnit = text(*throughput, "unit");
        }
        t.hours = range(node, "hours", at, Need::Optional);
        t.gpuHours = range(node, "gpu_hours", at, Need::Optional);
        t.mfu = optionalNumber(node, "mfu", at);
        if (const json* peak = m_check.object(node, "peak_tflops", at, Need::Optional)) {
            t.peakTflops = optionalNumber(*peak, "value", JsonChecker::child(at, "peak_tflops")).value_or(0);
            t.peakUsed = text(*peak, "used");
        }
        t.gpuFigures = text(node, "gpu_figures");
        t.efficiency = range(node, "efficiency", at, Need::Optional);
        t.efficiencyBasis = member(node, "efficiency_basis");
        t.scaling = range(node, "scaling", at, Need::Optional);
        t.limitedBy = text(node, "limited_by");
        if (const json* shares = m_check.object(node, "time_shares", at, Need::Optional)) {
            const std::string sAt = JsonChecker::child(at, "time_shares");
            t.timeShares = PlanTraining::TimeShares{optionalNumber(*shares, "compute", sAt).value_or(0),
                                                    optionalNumber(*shares, "memory_bandwidth", sAt).value_or(0),
                                                    optionalNumber(*shares, "host", sAt).value_or(0),
                                                    optionalNumber(*shares, "communication", sAt).value_or(0)};
        }
        t.inputPipelineCeiling = optionalNumber(node, "input_pipeline_ceiling", at);
        t.storageCeiling = optionalNumber(node, "storage_ceiling", at);
        if (const json* calibration = m_check.object(node, "calibration", at, Need::Optional)) {
            const std::string cAt = JsonChecker::child(at, "calibration");
            t.nearness = whole(*calibration, "nearness", cAt, 0);
            t.basedOn = m_check.stringList(*calibration, "based_on", cAt);
            t.userData = m_check.boolean(*calibration, "user_data", cAt, Need::Optional).value_or(false);
        }
        t.fitsMemory = m_check.boolean(node, "fits_memory", at, Need::Optional);
        t.fitReason = member(node, "fit_reason");
        if (const json* memory = m_check.object(node, "memory", at, Need::Optional)) {
            const std::string mAt = JsonChecker::child(at, "memory");
            auto gb = [&](const char* key) { return optionalNumber(*memory, key, mAt).value_or(0); };
            t.memory = PlanTraining::Memory{
                text(*memory, "sharding") == "fsdp" ? "fsdp" : "ddp",
                m_check.boolean(*memory, "activation_checkpointing", mAt, Need::Optional).value_or(false),
                whole(*memory, "micro_batch", mAt, 0),
                gb("per_gpu_gb"),
                gb("capacity_gb"),
                gb("weights_gb"),
                gb("gradients_gb"),
                gb("optimizer_gb"),
                gb("activations_gb"),
                gb("reserve_gb")};
        }
        t.notes = reasons(node, "notes");
        return t;
    }

    PlanOption option(const json& node, const std::string& at)
    {
        PlanOption o;
        o.rank = m_check.count(node, "rank", at, Need::Optional).value_or(0);
        o.provider = m_check.string(node, "provider", at, Need::Required).value_or("");
        o.providerName = m_check.string(node, "provider_name", at, Need::Optional).value_or(o.provider);
        o.providerNameZh = text(node, "provider_name_zh");
        o.instanceType = m_check.string(node, "instance_type", at, Need::Required).value_or("");
        o.region = m_check.string(node, "region", at, Need::Required).value_or("");
        o.gpu = text(node, "gpu");
        o.gpuName = node.contains("gpu_name") ? text(node, "gpu_name") : o.gpu;
        o.gpus = m_check.count(node, "gpus", at, Need::Required).value_or(0);
        o.nodes = m_check.count(node, "nodes", at, Need::Optional).value_or(1);
        o.mode = pricingMode(node, at);
        o.spotShare = optionalNumber(node, "spot_share", at).value_or(0);
        if (const json* breakdown = m_check.object(node, "cost_breakdown", at, Need::Required)) {
            const std::string bAt = JsonChecker::child(at, "cost_breakdown");
            o.computeCost = range(*breakdown, "compute", bAt, Need::Required);
            o.storageCost = range(*breakdown, "storage", bAt, Need::Required);
            o.egressCost = range(*breakdown, "egress", bAt, Need::Required);
        }
        o.setupHours = range(node, "setup_hours", at, Need::Required);
        o.transferHours = range(node, "transfer_hours", at, Need::Required);
        o.checkpointHours = range(node, "checkpoint_hours", at, Need::Optional);
        o.pricePerHour = optionalNumber(node, "price_per_hour", at);
        // wire: the values the file may hold, as it writes them (a reason parameter)
        o.priceCurrency = choice(node, "price_currency", at, parseCurrency, "USD, CNY", Currency::USD);
        o.hours = range(node, "hours", at, Need::Required);
        o.cost = range(node, "cost", at, Need::Required);
        forEachObject(
            node, "modes", at, [&](const json& m, const std::string& mAt) { o.modes.push_back(mode(m, mAt)); });
        if (const json* t = m_check.object(node, "training", at, Need::Required)) {
            o.training = training(*t, JsonChecker::child(at, "training"));
        }
        o.kwh = optionalNumber(node, "kwh", at);
        o.kgCo2e = optionalNumber(node, "kg_co2e", at);
        if (auto reasons = node.find("reasons"); reasons != node.end() && reasons->is_array()) {
            for (const json& r : *reasons) {
                o.reasons.push_back(reason(r));
            }
        }
        o.notes = reasons(node, "notes");
        return o;
    }

    PlanResults results(const json& node)
    {
        const std::string at = "$.results";
        PlanResults r;
        // wire: the values the file may hold, as it writes them (a reason parameter)
        r.objective = choice(node, "objective", at, parseObjective, "cheapest, fastest, value", Objective::Value);
        forEachObject(
            node, "options", at, [&](const json& o, const std::string& oAt) { r.options.push_back(option(o, oAt)); });
        r.eligible = whole(node, "eligible", at, static_cast<int>(r.options.size()));
        forEachObject(node, "excluded", at, [&](const json& x, const std::string&) {
            r.excluded.push_back({text(x, "provider"),
                                  text(x, "provider_name"),
                                  text(x, "provider_name_zh"),
                                  text(x, "instance_type"),
                                  text(x, "region"),
                                  text(x, "rule"),
                                  member(x, "reason")});
        });
        r.notes = reasons(node, "notes");
        return r;
    }

    CostLine costLine(const json& node, const std::string& at)
    {
        CostLine line;
        line.key = m_check.string(node, "key", at, Need::Required).value_or("");
        line.offer = text(node, "offer");
        line.upfront = optionalNumber(node, "upfront", at).value_or(0);
        line.monthly = optionalNumber(node, "monthly", at).value_or(0);
        if (auto cumulative = node.find("cumulative"); cumulative != node.end() && cumulative->is_array()) {
            for (const json& amount : *cumulative) {
                line.cumulative.push_back(amount.is_number() ? amount.get<double>() : 0);
            }
        }
        line.breakEvenMonth = optionalNumber(node, "break_even_month", at);
        line.source.url = text(node, "source");
        line.source.asOf = text(node, "date");
        return line;
    }

    BuyVsRent buyVsRent(const json& node)
    {
        const std::string at = "$.buy_vs_rent";
        BuyVsRent b;
        b.available = m_check.boolean(node, "available", at, Need::Optional).value_or(false);
        b.unavailableReason = member(node, "reason");
        if (!b.available) {
            return b;
        }
        b.system.what = text(node, "system");
        b.system.gpuId = text(node, "gpu");
        b.gpuName = text(node, "gpu_name");
        b.system.gpus = m_check.count(node, "gpus", at, Need::Optional).value_or(0);
        b.system.powerWatts = optionalNumber(node, "power_w", at).value_or(0);
        // wire: the values the file may hold, as it writes them (a reason parameter)
        b.currency = choice(node, "currency", at, parseCurrency, "USD, CNY", Currency::CNY);
        b.utilisation = optionalNumber(node, "utilisation", at).value_or(0);
        b.pue = optionalNumber(node, "pue", at).value_or(0);
        b.maintenancePerYear = optionalNumber(node, "maintenance_per_year", at).value_or(0);
        b.depreciationYears = optionalNumber(node, "depreciation_years", at).value_or(0);
        b.electricityPerKwh = optionalNumber(node, "electricity_per_kwh", at);
        b.months = whole(node, "months", at, 0);
        if (const json* own = m_check.object(node, "own", at, Need::Optional)) {
            b.own = costLine(*own, at + ".own");
        }
        forEachObject(node, "rent", at, [&](const json& line, const std::string& lineAt) {
            b.rent.push_back(costLine(line, lineAt));
        });
        return b;
    }

    PlanVerification verification(const json& node, const std::string& at)
    {
        PlanVerification v;
        v.when = m_check.string(node, "when", at, Need::Required).value_or("");
        v.host = m_check.string(node, "host", at, Need::Required).value_or("");
        // wire: the values the file may hold, as it writes them (a reason parameter)
        v.verdict = m_check.choice(node, "verdict", at, Need::Required, parseVerdictLevel, "pass, unknown, warn, fail")
                        .value_or(VerdictLevel::Unknown);
        v.expectedGpu = text(node, "expected_gpu");
        v.expectedCount = whole(node, "expected_count", at, 0);
        v.gpuName = text(node, "gpu_name");
        v.gpuCount = whole(node, "gpu_count", at, 0);
        v.driver = text(node, "driver");
        if (m_check.array(node, "lines", at, Need::Required)) {
            forEachObject(node, "lines", at, [&](const json& line, const std::string& lineAt) {
                PlanCheck c;
                c.check = m_check.string(line, "check", lineAt, Need::Required).value_or("");
                // wire: the values the file may hold, as it writes them (a reason parameter)
                c.level =
                    m_check
                        .choice(line, "level", lineAt, Need::Required, parseVerdictLevel, "pass, unknown, warn, fail")
                        .value_or(VerdictLevel::Unknown);
                if (auto gpu = line.find("gpu");
                    gpu != line.end() && gpu->is_number_integer() && gpu->get<int>() >= 0) {
                    c.gpu = gpu->get<int>();
                }
                c.measured = figure(line, "measured");
                c.expected = figure(line, "expected");
                c.reason = member(line, "reason");
                v.checks.push_back(std::move(c));
            });
        }
        return v;
    }

    PlanSpend spend(const json& node, const std::string& at)
    {
        PlanSpend s;
        s.provider = m_check.string(node, "provider", at, Need::Required).value_or("");
        s.instanceId = m_check.string(node, "instance_id", at, Need::Required).value_or("");
        s.instanceType = text(node, "instance_type");
        s.region = text(node, "region");
        s.started = text(node, "started");
        s.ended = text(node, "ended");
        s.hours = optionalNumber(node, "hours", at).value_or(0);
        s.cost = m_check.nonNegativeNumber(node, "cost", at, Need::Required).value_or(0);
        s.currency = m_check.string(node, "currency", at, Need::Required).value_or("");
        return s;
    }

    PlanRun planRun(const json& node, const std::string& at)
    {
        PlanRun r;
        r.host = text(node, "host");
        r.provider = text(node, "provider");
        r.instanceType = text(node, "instance_type");
        r.state = m_check.string(node, "state", at, Need::Required).value_or("");
        if (const auto code = node.find("exit_code"); code != node.end() && code->is_number_integer()) {
            r.exitCode = code->get<int>(); // checkPlan bounded it (Whole); a signal's may be negative
        }
        r.started = text(node, "started");
        r.ended = text(node, "ended");
        r.plannedHours = optionalNumber(node, "planned_hours", at);
        r.plannedHoursLow = optionalNumber(node, "planned_hours_low", at);
        r.plannedHoursHigh = optionalNumber(node, "planned_hours_high", at);
        r.hours = optionalNumber(node, "hours", at).value_or(0);
        r.plannedThroughput = optionalNumber(node, "planned_throughput", at);
        r.plannedThroughputLow = optionalNumber(node, "planned_throughput_low", at);
        r.plannedThroughputHigh = optionalNumber(node, "planned_throughput_high", at);
        r.throughput = optionalNumber(node, "throughput", at);
        r.throughputUnit = text(node, "throughput_unit");
        r.plannedCost = optionalNumber(node, "planned_cost", at);
        r.plannedCurrency = text(node, "planned_currency");
        r.cost = optionalNumber(node, "cost", at);
        r.costCurrency = text(node, "cost_currency");
        r.gpuUtilization = optionalNumber(node, "gpu_utilization", at);
        return r;
    }

    JsonChecker m_check;
    std::string m_where;
};

} // namespace

Result<PlanDocument> readPlanDocument(const json& plan, const std::string& where)
{
    return PlanReader(where).read(plan);
}

} // namespace gpuplan::core
