// What the PI's report says (core/report/Report.h), drawn from plan documents read the way the program reads them
// (core::planFromJson, then core::buildReport): the bundled examples (resources/examples/*.gpuplan) and copies of
// them changed here. Every expectation is derived from the plan JSON itself, never a figure typed into the test, so a
// regenerated example keeps the test meaningful.
#include "gpuplan/plan/PlanFile.h"
#include "gpuplan/report/Report.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace gpuplan::core;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

/// A plan price's as-of date: "as_of" (null when undated), or "date" in plans written before prices had two.
std::string asOfIn(const nlohmann::json& price)
{
    const nlohmann::json date = price.contains("as_of") ? price.at("as_of") : price.value("date", nlohmann::json(""));
    return date.is_string() ? date.get<std::string>() : "";
}

const fs::path kExamples = fs::path(GPUPLAN_SOURCE_DIR) / "resources" / "examples";
const std::string kLlama = "llama2-7b-lora-budget.gpuplan";
const std::string kResnet = "resnet50-imagenet.gpuplan";
const std::string kFile = "test.gpuplan"; // the `where` every report is built with

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

/// Every bundled example, sorted by name.
std::vector<std::string> exampleFiles()
{
    std::vector<std::string> files;
    for (const fs::directory_entry& entry : fs::directory_iterator(kExamples)) {
        if (entry.is_regular_file() && entry.path().extension() == ".gpuplan") {
            files.push_back(entry.path().filename().string());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

/// An example's document; a discarded value when it does not parse.
json readPlan(const std::string& file)
{
    std::ifstream in(kExamples / file, std::ios::binary);
    return json::parse(in, nullptr, false);
}

/// The plan read (planFromJson) and its report built (buildReport), both naming kFile: an error from either is the
/// answer. An exception leaving them (core never lets one out) fails the running test and reads as an error.
Result<Report> build(const json& plan)
{
    try {
        Result<PlanDocument> document = planFromJson(plan, kFile);
        if (!document) {
            return document.error();
        }
        return buildReport(*document, kFile);
    } catch (const std::exception& e) {
        const std::string message =
            "planFromJson or buildReport threw (core must not let exceptions out): " + std::string(e.what());
        QTest::qFail(message.c_str(), __FILE__, __LINE__);
        return Error{ErrorCode::InvalidArgument, Reason{"test.threw", {{"said", e.what()}}}, "<exception>"};
    }
}

Range rangeOf(const json& node)
{
    return {node.at("value").get<double>(), node.at("low").get<double>(), node.at("high").get<double>()};
}

std::string describe(const Range& r)
{
    return "{" + std::to_string(r.value) + ", " + std::to_string(r.low) + ", " + std::to_string(r.high) + "}";
}

std::optional<double> numberOrNull(const json& node, const char* key)
{
    auto it = node.find(key);
    if (it == node.end() || it->is_null()) {
        return std::nullopt;
    }
    return it->get<double>();
}

/// Whether a reason read from the plan is the plan's {"key", "params", "text"}: parameters are kept as text, a
/// numeric one as core::reasonNumber writes it.
bool sameReason(const Reason& got, const json& want)
{
    if (!want.is_object() || got.key != want.value("key", "")) {
        return false;
    }
    const json params = want.value("params", json::object());
    if (got.params.size() != params.size()) {
        return false;
    }
    for (const auto& [name, value] : params.items()) {
        auto it = got.params.find(name);
        if (it == got.params.end()
            || it->second != (value.is_string() ? value.get<std::string>() : reasonNumber(value.get<double>()))) {
            return false;
        }
    }
    return true;
}

bool sameReasons(const std::vector<Reason>& got, const json& want)
{
    if (!want.is_array() || got.size() != want.size()) {
        return false;
    }
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (!sameReason(got[i], want[i])) {
            return false;
        }
    }
    return true;
}

/// The term the option's ranked mode binds the lab to (reservations and subscriptions); nullopt: none.
std::optional<PlanMode::Commitment> rankedCommitment(const PlanOption& option)
{
    const PlanMode* ranked = option.rankedMode();
    return ranked ? ranked->commitment : std::nullopt;
}

/// "provider_name instance_type (region)", as the report labels a plan option.
std::string labelOf(const json& option)
{
    return option.value("provider_name", option.at("provider").get<std::string>()) + " "
           + option.at("instance_type").get<std::string>() + " (" + option.at("region").get<std::string>() + ")";
}

/// The first difference between a report option and the plan option it was read from; empty when none.
std::string optionDiff(const PlanOption& got, const json& want)
{
    const std::string name = labelOf(want);
    if (got.rank != want.at("rank").get<int>()) {
        return name + ": rank " + std::to_string(got.rank);
    }
    if (got.provider != want.at("provider").get<std::string>()) {
        return name + ": provider " + got.provider;
    }
    if (got.providerName != want.value("provider_name", got.provider)) {
        return name + ": provider name " + got.providerName;
    }
    if (got.instanceType != want.at("instance_type").get<std::string>()) {
        return name + ": instance type " + got.instanceType;
    }
    if (got.region != want.at("region").get<std::string>()) {
        return name + ": region " + got.region;
    }
    if (got.gpuName != want.value("gpu_name", std::string())) {
        return name + ": gpu name " + got.gpuName;
    }
    if (got.gpus != want.at("gpus").get<int>() || got.nodes != want.value("nodes", 1)) {
        return name + ": gpus/nodes " + std::to_string(got.gpus) + "/" + std::to_string(got.nodes);
    }
    if (pricingModeName(got.mode) != want.at("mode").get<std::string>()) {
        return name + ": mode " + pricingModeName(got.mode);
    }
    if (!(got.cost == rangeOf(want.at("cost")))) {
        return name + ": cost " + describe(got.cost) + " vs " + want.at("cost").dump();
    }
    if (!(got.hours == rangeOf(want.at("hours")))) {
        return name + ": hours " + describe(got.hours) + " vs " + want.at("hours").dump();
    }
    const json& modes = want.at("modes");
    if (got.modes.size() != modes.size()) {
        return name + ": " + std::to_string(got.modes.size()) + " modes, the plan has " + std::to_string(modes.size());
    }
    const json* rankedPrice = nullptr;
    for (std::size_t i = 0; i < modes.size(); ++i) {
        const PlanMode& m = got.modes[i];
        const json& w = modes[i];
        const std::string at = name + " mode " + std::to_string(i);
        if (pricingModeName(m.mode) != w.at("mode").get<std::string>() || m.eligible != w.value("eligible", true)) {
            return at + ": name or eligibility";
        }
        if (!(m.cost == rangeOf(w.at("cost"))) || !(m.hours == rangeOf(w.at("hours")))) {
            return at + ": cost or hours";
        }
        // Every mode of a plan has its price (checkPlan requires it), so a mode read is a priced one.
        if (!w.contains("price")) {
            return at + ": the plan's mode has no price, yet it was read";
        }
        const json& p = w.at("price");
        if (m.price.amount != p.at("amount").get<double>() || currencyCode(m.price.currency) != p.value("currency", "")
            || m.price.asOf != asOfIn(p) || m.price.source != p.value("source", "")
            || m.price.retrieved != p.value("retrieved", "")
            || priceUnitName(m.price.unit) != p.value("unit", "hour")) {
            return at + ": price " + p.dump();
        }
        if (!rankedPrice && m.mode == got.mode) {
            rankedPrice = &p;
        }
        if (w.contains("commitment") != m.commitment.has_value()) {
            return at + ": commitment presence";
        }
        if (m.commitment
            && (m.commitment->amount != w["commitment"].at("amount").get<double>()
                || m.commitment->months != w["commitment"].at("months").get<double>())) {
            return at + ": commitment " + w["commitment"].dump();
        }
        if (w.contains("why_not") && !sameReason(m.whyNot, w.at("why_not"))) {
            return at + ": why_not";
        }
    }
    // The price of the mode it is ranked with: the first mode of that name (PlanOption::rankedMode).
    const PlanMode* ranked = got.rankedMode();
    if (rankedPrice == nullptr) {
        if (ranked) {
            return name + ": a ranked mode the plan's modes do not have";
        }
    } else if (!ranked || ranked->price.amount != rankedPrice->at("amount").get<double>()
               || ranked->price.source != rankedPrice->value("source", "")) {
        return name + ": the ranked mode's price";
    }
    if (want.contains("reasons") && !sameReasons(got.reasons, want.at("reasons"))) {
        return name + ": reasons";
    }
    return {};
}

/// The first difference between the report's workload and the plan's workload member; empty when none.
std::string workloadDiff(const PlanWorkload& got, const json& want)
{
    const json definition = want.value("definition", json::object());
    if (got.id != want.value("id", "") || got.name != want.value("name", "")) {
        return "id or name: " + got.id + ", " + got.name;
    }
    if (got.nameZh != definition.value("name_zh", "") || got.description != definition.value("description", "")
        || got.descriptionZh != definition.value("description_zh", "")) {
        return "the definition's Chinese name or descriptions";
    }
    if (got.task != want.value("task", "") || got.modelClass != want.value("class", "")
        || got.method != want.value("method", "") || got.kind != want.value("kind", "")) {
        return "task, class, method or kind";
    }
    if (got.parameters != want.value("parameters", 0.0) || got.epochs != want.value("epochs", 0.0)
        || got.units != want.value("units", 0.0) || got.unit != want.value("unit", "")) {
        return "parameters, epochs or units";
    }
    if (got.tokensPerEpoch != numberOrNull(want, "tokens_per_epoch")
        || got.sequenceLength != numberOrNull(want, "sequence_length")
        || got.samplesPerEpoch != numberOrNull(want, "samples_per_epoch")) {
        return "tokens or samples per epoch, or sequence length";
    }
    if (got.definition.has_value() != want.contains("definition")) {
        return got.definition ? "a definition the plan does not have" : "the plan's definition was not read";
    }
    if (got.definition
        && (got.definition->id != definition.value("id", "") || got.definition->name != definition.value("name", ""))) {
        return "the definition's id or name: " + got.definition->id + ", " + got.definition->name;
    }
    return {};
}

/// Index of the first option with the lowest `key` (as std::min_element picks it).
template <typename Key>
std::size_t firstLowest(const json& options, Key key)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < options.size(); ++i) {
        if (key(options[i]) < key(options[best])) {
            best = i;
        }
    }
    return best;
}

/// The header's rule: within when even the high end fits, at risk when the centre does, else exceeded.
LimitVerdict expectedVerdict(const json& limit, const json& range)
{
    if (limit.is_null()) {
        return LimitVerdict::NotSet;
    }
    const double l = limit.get<double>();
    if (range.at("high").get<double>() <= l) {
        return LimitVerdict::Within;
    }
    return range.at("value").get<double>() <= l ? LimitVerdict::AtRisk : LimitVerdict::Exceeds;
}

std::size_t tableSize(const json& plan)
{
    return std::min<std::size_t>(plan["results"]["options"].size(), kReportTableOptions);
}

/// The spot modes the report's risks should list: eligible ones with a "spot" judgement, over every ranked
/// option in order, at most kReportTableOptions. Pairs of (option index, mode JSON).
std::vector<std::pair<std::size_t, json>> expectedSpot(const json& plan)
{
    std::vector<std::pair<std::size_t, json>> list;
    const json& options = plan["results"]["options"];
    for (std::size_t i = 0; i < options.size(); ++i) {
        for (const json& mode : options[i]["modes"]) {
            if (mode.contains("spot") && mode["spot"].is_object() && mode.value("eligible", true)
                && list.size() < static_cast<std::size_t>(kReportTableOptions)) {
                list.emplace_back(i, mode);
            }
        }
    }
    return list;
}

/// A probe run as `gpuplan probe --plan` appends it (PlanFile.h, verificationJson).
json sampleVerifications()
{
    json instanceWide = {
        {"check", "model"},
        {"gpu", nullptr},
        {"level", "pass"},
        {"measured", "NVIDIA RTX A6000"},
        {"expected", "RTX A6000"},
        {"reason", {{"key", "verdict.model_ok"}, {"params", json::object()}, {"text", "as promised"}}}};
    json perGpu = {{"check", "gemm_bf16"},
                   {"gpu", 0},
                   {"level", "warn"},
                   {"measured", "120 TFLOPS"},
                   {"expected", "155 TFLOPS"},
                   {"reason",
                    {{"key", "verdict.gemm_slow"},
                     {"params", {{"measured", "120"}, {"expected", "155"}}},
                     {"text", "GEMM is slower than the catalog says"}}}};
    json full = {{"when", "2026-12-05T10:00:00Z"},
                 {"host", "ubuntu@203.0.113.7"},
                 {"verdict", "warn"},
                 {"expected_gpu", "rtx-a6000"},
                 {"expected_count", 1},
                 {"gpu_name", "NVIDIA RTX A6000"},
                 {"gpu_count", 1},
                 {"driver", "570.86.15"},
                 {"lines", json::array({instanceWide, perGpu})}};
    // A run with no judged line: "lines" is still there, as verificationJson always writes it (checkPlan requires it).
    json bare = {
        {"when", "2026-12-06T08:30:00Z"}, {"host", "root@198.51.100.2"}, {"verdict", "fail"}, {"lines", json::array()}};
    return json::array({full, bare});
}

json sampleLedger()
{
    json ended = {{"provider", "lambda"},
                  {"instance_id", "i-0a1b2c"},
                  {"instance_type", "gpu_1x_a6000"},
                  {"region", "us-east-1"},
                  {"started", "2026-12-05T09:00:00Z"},
                  {"ended", "2026-12-05T17:15:00Z"},
                  {"hours", 8.25},
                  {"cost", 46.3},
                  {"currency", "CNY"}};
    json running = {{"provider", "aws"},
                    {"instance_id", "i-0ffee"},
                    {"instance_type", "g6e.xlarge"},
                    {"region", "us-east-2"},
                    {"started", "2026-12-06T08:00:00Z"},
                    {"hours", 0},
                    {"cost", 0},
                    {"currency", "USD"}};
    return json::array({ended, running});
}

} // namespace

class TestReportContent : public QObject
{
    Q_OBJECT

    /// One row per bundled example.
    static void addExamples()
    {
        QTest::addColumn<QString>("file");
        for (const std::string& file : exampleFiles()) {
            QTest::newRow(file.c_str()) << q(file);
        }
    }

private slots:
    void initTestCase()
    {
        const std::vector<std::string> files = exampleFiles();
        QVERIFY2(files.size() >= 2, "resources/examples has the two bundled plans");
        QVERIFY(std::find(files.begin(), files.end(), kLlama) != files.end());
        QVERIFY(std::find(files.begin(), files.end(), kResnet) != files.end());
        for (const std::string& file : files) {
            const json plan = readPlan(file);
            QVERIFY2(plan.is_object(), file.c_str());
            QVERIFY2(plan["results"]["options"].size() > static_cast<std::size_t>(kReportTableOptions),
                     "the examples have more options than the table shows, so the cut is tested");
        }
    }

    // ---- 1. The examples, read back against their own JSON ----

    void summaryIsTheRanking_data() { addExamples(); }
    void summaryIsTheRanking()
    {
        QFETCH(QString, file);
        const json plan = readPlan(file.toStdString());
        const json& results = plan["results"];
        const json& options = results["options"];
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        const ReportSummary& s = report->summary;

        std::string diff = optionDiff(s.recommended, options[0]);
        QVERIFY2(diff.empty(), ("recommended: " + diff).c_str());
        QVERIFY(s.runnerUp.has_value());
        diff = optionDiff(*s.runnerUp, options[1]);
        QVERIFY2(diff.empty(), ("runner-up: " + diff).c_str());

        const std::size_t cheapest =
            firstLowest(options, [](const json& o) { return o["cost"]["value"].get<double>(); });
        if (cheapest == 0) {
            QVERIFY2(!s.cheapest, "the recommended option is the cheapest, so no separate cheapest");
        } else {
            QVERIFY2(s.cheapest.has_value(), ("option " + std::to_string(cheapest) + " is cheaper").c_str());
            diff = optionDiff(*s.cheapest, options[cheapest]);
            QVERIFY2(diff.empty(), ("cheapest: " + diff).c_str());
        }
        const std::size_t fastest =
            firstLowest(options, [](const json& o) { return o["hours"]["value"].get<double>(); });
        if (fastest == 0) {
            QVERIFY2(!s.fastest, "the recommended option is the fastest, so no separate fastest");
        } else {
            QVERIFY2(s.fastest.has_value(), ("option " + std::to_string(fastest) + " is faster").c_str());
            diff = optionDiff(*s.fastest, options[fastest]);
            QVERIFY2(diff.empty(), ("fastest: " + diff).c_str());
        }

        QCOMPARE(s.eligibleCount, results.value("eligible", static_cast<int>(options.size())));
        QCOMPARE(s.excludedCount, static_cast<int>(results.value("excluded", json::array()).size()));
        QCOMPARE(q(objectiveName(s.objective)), q(results.value("objective", "")));
        QCOMPARE(q(report->workload.name), q(plan["workload"].value("name", "")));
        QCOMPARE(q(currencyCode(report->currency)), q(plan["constraints"].value("currency", "")));
        QCOMPARE(q(report->created), q(plan.value("created", "")));
        const std::string workload = workloadDiff(report->workload, plan["workload"]);
        QVERIFY2(workload.empty(), ("workload: " + workload).c_str());
    }

    void tableHoldsTheFirstOptions_data() { addExamples(); }
    void tableHoldsTheFirstOptions()
    {
        QFETCH(QString, file);
        const json plan = readPlan(file.toStdString());
        const json& options = plan["results"]["options"];
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        QCOMPARE(report->options.size(), tableSize(plan));
        for (std::size_t i = 0; i < report->options.size(); ++i) {
            const std::string diff = optionDiff(report->options[i], options[i]);
            QVERIFY2(diff.empty(), ("table option " + std::to_string(i) + ": " + diff).c_str());
        }
    }

    void comparisonHasEveryModeOfTheTable_data() { addExamples(); }
    void comparisonHasEveryModeOfTheTable()
    {
        QFETCH(QString, file);
        const json plan = readPlan(file.toStdString());
        const json& options = plan["results"]["options"];
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());

        struct Row
        {
            int rank;
            bool ranked;
            std::size_t option;
            std::string mode;
            Range cost;
            bool eligible;
        };
        std::vector<Row> want;
        int unranked = 0;
        for (std::size_t i = 0; i < tableSize(plan); ++i) {
            const json& o = options[i];
            const std::string rankedMode = o["mode"].get<std::string>();
            Row first{o["rank"].get<int>(), true, i, rankedMode, rangeOf(o["cost"]), true};
            for (const json& m : o["modes"]) {
                if (m["mode"].get<std::string>() == rankedMode) {
                    first.cost = rangeOf(m["cost"]);
                    first.eligible = m.value("eligible", true);
                    break;
                }
            }
            want.push_back(first);
            for (const json& m : o["modes"]) {
                if (m["mode"].get<std::string>() != rankedMode) {
                    want.push_back({o["rank"].get<int>(),
                                    false,
                                    i,
                                    m["mode"].get<std::string>(),
                                    rangeOf(m["cost"]),
                                    m.value("eligible", true)});
                    ++unranked;
                }
            }
        }
        QVERIFY2(unranked > 0, "the example's table has options with more than one mode");
        QCOMPARE(report->comparison.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            const ComparisonRow& got = report->comparison[i];
            const std::string at = "row " + std::to_string(i) + " (" + want[i].mode + ")";
            QVERIFY2(got.rank == want[i].rank && got.ranked == want[i].ranked && got.option == want[i].option,
                     (at + ": rank/ranked/option").c_str());
            QVERIFY2(pricingModeName(got.mode.mode) == want[i].mode,
                     (at + ": mode " + pricingModeName(got.mode.mode)).c_str());
            QVERIFY2(got.mode.cost == want[i].cost, (at + ": cost " + describe(got.mode.cost)).c_str());
            QVERIFY2(got.mode.eligible == want[i].eligible, (at + ": eligible").c_str());
        }
    }

    void assumptionsComeFromThePlan_data() { addExamples(); }
    void assumptionsComeFromThePlan()
    {
        QFETCH(QString, file);
        const json plan = readPlan(file.toStdString());
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        const ReportAssumptions& a = report->assumptions;
        const json& catalog = plan["catalog"];
        QCOMPARE(q(a.catalogPriceDate), q(catalog["price_date"].get<std::string>()));
        QCOMPARE(a.cnyPerUsd, catalog["exchange_rate"]["cny_per_usd"].get<double>());
        QCOMPARE(q(a.exchangeRateDate), q(catalog["exchange_rate"]["date"].get<std::string>()));
        QCOMPARE(q(a.exchangeRateSource), q(catalog["exchange_rate"].value("source", "")));
        QCOMPARE(a.exchangeRateUserSet, catalog["exchange_rate"].value("user_set", false));
        QCOMPARE(q(a.precisionAsked), q(plan["constraints"].value("precision", "auto")));
        QCOMPARE(q(a.framework), q(plan["constraints"].value("framework", "")));
        const json& training = plan["results"]["options"][0]["training"];
        QCOMPARE(q(a.precisionUsed), q(training.value("precision", "")));
        QVERIFY(a.efficiency.has_value());
        QVERIFY(*a.efficiency == rangeOf(training["efficiency"]));
        QCOMPARE(a.monteCarloRuns, plan["assumptions"].value("monte_carlo_runs", 0));
        QVERIFY(a.setupHours == rangeOf(plan["assumptions"]["setup_hours"]));
        const std::optional<double> electricity = numberOrNull(plan["buy_vs_rent"], "electricity_per_kwh");
        QCOMPARE(a.electricityPerKwh.has_value(), electricity.has_value());
        if (electricity) {
            QCOMPARE(*a.electricityPerKwh, *electricity);
        }
    }

    void priceSourcesCoverTheTable_data() { addExamples(); }
    void priceSourcesCoverTheTable()
    {
        QFETCH(QString, file);
        const json plan = readPlan(file.toStdString());
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        std::set<std::pair<std::string, std::string>> want; // (source, date)
        for (std::size_t i = 0; i < tableSize(plan); ++i) {
            for (const json& m : plan["results"]["options"][i]["modes"]) {
                if (m.contains("price") && !m["price"].value("source", "").empty()) {
                    want.insert({m["price"]["source"].get<std::string>(), asOfIn(m["price"])});
                }
            }
        }
        QVERIFY2(want.size() >= 2, "the example's table has prices from several sources");
        const std::vector<ReportSource>& got = report->assumptions.priceSources;
        std::set<std::pair<std::string, std::string>> seen;
        for (const ReportSource& source : got) {
            QVERIFY2(seen.insert({source.url, source.date}).second, ("listed twice: " + source.url).c_str());
        }
        QVERIFY2(seen == want, "every (source, date) of the table's prices, and nothing else");
        for (std::size_t i = 1; i < got.size(); ++i) {
            QVERIFY2(got[i - 1].date >= got[i].date, ("not newest first at " + std::to_string(i)).c_str());
        }
    }

    void buyVsRentIsRead_data() { addExamples(); }
    void buyVsRentIsRead()
    {
        QFETCH(QString, file);
        const json plan = readPlan(file.toStdString());
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        const json& bvr = plan["buy_vs_rent"];
        QVERIFY2(report->buyVsRent.has_value(), "the examples compare buying with renting");
        const BuyVsRent& b = *report->buyVsRent;
        QCOMPARE(b.available, bvr.value("available", false));
        QVERIFY2(b.available, "the examples compare buying with renting");
        QCOMPARE(q(b.system.what), q(bvr.value("system", "")));
        QCOMPARE(q(b.gpuName), q(bvr.value("gpu_name", "")));
        QCOMPARE(b.system.gpus, bvr.value("gpus", 0));
        QCOMPARE(b.months, bvr.value("months", 0));
        QCOMPARE(b.pue, bvr.value("pue", 0.0));
        QCOMPARE(b.system.powerWatts, bvr.value("power_w", 0.0));
        QCOMPARE(q(currencyCode(b.currency)), q(bvr.value("currency", "")));

        auto sameLine = [](const CostLine& got, const json& want) -> std::string {
            const std::string key = want.value("key", "");
            if (got.key != key) {
                return "key " + got.key + " vs " + key;
            }
            if (got.offer != want.value("offer", "") || got.upfront != want.value("upfront", 0.0)
                || got.monthly != want.value("monthly", 0.0)) {
                return key + ": offer, upfront or monthly";
            }
            // The total after the horizon is the last figure.
            if (got.cumulative.empty() || got.cumulative.back() != want["cumulative"].back().get<double>()) {
                return key + ": total is not the last cumulative figure";
            }
            if (got.cumulative != want["cumulative"].get<std::vector<double>>()) {
                return key + ": cumulative figures";
            }
            const std::optional<double> breakEven = numberOrNull(want, "break_even_month");
            if (got.breakEvenMonth != breakEven) {
                return key + ": break-even month";
            }
            if (got.source.url != want.value("source", "") || got.source.asOf != want.value("date", "")) {
                return key + ": source";
            }
            return {};
        };
        std::string diff = sameLine(b.own, bvr["own"]);
        QVERIFY2(diff.empty(), ("own: " + diff).c_str());
        QCOMPARE(b.own.upfront, bvr["own"]["upfront"].get<double>());
        QCOMPARE(b.rent.size(), bvr["rent"].size());
        for (std::size_t i = 0; i < b.rent.size(); ++i) {
            diff = sameLine(b.rent[i], bvr["rent"][i]);
            QVERIFY2(diff.empty(), ("rent " + std::to_string(i) + ": " + diff).c_str());
        }
    }

    void buyVsRentUnavailable()
    {
        json plan = readPlan(kLlama);
        plan["buy_vs_rent"] = {{"available", false}, {"reason", "no system to buy for this GPU"}};
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        QVERIFY2(report->buyVsRent.has_value(), "compared, though buying was not available");
        QVERIFY(!report->buyVsRent->available);
        // A plan of wave 1 saved the reason as an English sentence: it is shown as saved.
        QCOMPARE(q(report->buyVsRent->unavailableReason.key), QString("saved.text"));
        QCOMPARE(q(report->buyVsRent->unavailableReason.params.at("text")),
                 q(plan["buy_vs_rent"]["reason"].get<std::string>()));
        // A plan of today saves it as a key.
        plan["buy_vs_rent"]["reason"] = {{"key", "buy.no_server"}, {"params", json::object()}};
        Result<Report> keyed = build(plan);
        QVERIFY2(keyed.ok(), keyed.ok() ? "" : describe(keyed.error()).c_str());
        QCOMPARE(q(keyed->buyVsRent->unavailableReason.key), QString("buy.no_server"));
        QVERIFY(report->buyVsRent->rent.empty());
        // Not compared at all (absent, or null as planToJson writes it): no comparison in the report.
        plan.erase("buy_vs_rent");
        Result<Report> without = build(plan);
        QVERIFY2(without.ok(), without.ok() ? "" : describe(without.error()).c_str());
        QVERIFY(!without->buyVsRent.has_value());
        plan["buy_vs_rent"] = nullptr;
        Result<Report> null = build(plan);
        QVERIFY2(null.ok(), null.ok() ? "" : describe(null.error()).c_str());
        QVERIFY(!null->buyVsRent.has_value());
    }

    // ---- 2. Budget and deadline against the recommended option ----

    void limitsOfExamples_data() { addExamples(); }
    void limitsOfExamples()
    {
        QFETCH(QString, file);
        const json plan = readPlan(file.toStdString());
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        const json& best = plan["results"]["options"][0];
        const json& c = plan["constraints"];
        QCOMPARE(int(report->summary.budgetVerdict), int(expectedVerdict(c.value("budget", json()), best["cost"])));
        QCOMPARE(int(report->summary.deadlineVerdict),
                 int(expectedVerdict(c.value("deadline_hours", json()), best["hours"])));
    }

    void limitVerdicts_data()
    {
        QTest::addColumn<QString>("member"); // budget (against cost) or deadline_hours (against hours)
        QTest::addColumn<QString>("at");     // where the limit sits against the recommended option's range
        QTest::addColumn<int>("verdict");
        for (const char* member : {"budget", "deadline_hours"}) {
            QTest::addRow("%s above high", member) << member << "above_high" << int(LimitVerdict::Within);
            QTest::addRow("%s at high", member) << member << "at_high" << int(LimitVerdict::Within);
            QTest::addRow("%s between value and high", member) << member << "between" << int(LimitVerdict::AtRisk);
            QTest::addRow("%s at value", member) << member << "at_value" << int(LimitVerdict::AtRisk);
            QTest::addRow("%s below value", member) << member << "below_value" << int(LimitVerdict::Exceeds);
            QTest::addRow("%s null", member) << member << "null" << int(LimitVerdict::NotSet);
            QTest::addRow("%s absent", member) << member << "absent" << int(LimitVerdict::NotSet);
        }
    }
    void limitVerdicts()
    {
        QFETCH(QString, member);
        QFETCH(QString, at);
        QFETCH(int, verdict);
        json plan = readPlan(kLlama);
        const bool budget = member == "budget";
        const std::string key = member.toStdString();
        const std::string other = budget ? "deadline_hours" : "budget";
        const json best = plan["results"]["options"][0];
        const json& range = best[budget ? "cost" : "hours"];
        const double value = range["value"].get<double>();
        const double high = range["high"].get<double>();
        QVERIFY2(value > 0 && value < high, "the recommended option has a real range");

        json& constraints = plan["constraints"];
        std::optional<double> limit;
        if (at == "above_high") {
            limit = high * 1.25;
        } else if (at == "at_high") {
            limit = high;
        } else if (at == "between") {
            limit = (value + high) / 2;
        } else if (at == "at_value") {
            limit = value;
        } else if (at == "below_value") {
            limit = value / 2;
        }
        if (limit) {
            constraints[key] = *limit;
        } else if (at == "null") {
            constraints[key] = nullptr;
        } else {
            constraints.erase(key);
        }

        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        const ReportSummary& s = report->summary;
        QCOMPARE(int(budget ? s.budgetVerdict : s.deadlineVerdict), verdict);
        const std::optional<double>& read = budget ? s.budget : s.deadlineHours;
        QCOMPARE(read.has_value(), limit.has_value());
        if (limit) {
            QCOMPARE(*read, *limit);
        }
        // The other limit is untouched and judged on its own.
        const json& otherRange = best[budget ? "hours" : "cost"];
        QCOMPARE(int(budget ? s.deadlineVerdict : s.budgetVerdict),
                 int(expectedVerdict(constraints.value(other, json()), otherRange)));
    }

    // ---- 3. Risks: commitments and spot ----

    void commitmentsOfTheTable_data() { addExamples(); }
    void commitmentsOfTheTable()
    {
        QFETCH(QString, file);
        const json plan = readPlan(file.toStdString());
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        struct Want
        {
            int rank;
            std::string offer;
            std::string mode;
            double months;
            double amount;
            Range runCost;
            bool eligible;
        };
        std::vector<Want> want;
        bool someIneligible = false;
        for (std::size_t i = 0; i < tableSize(plan); ++i) {
            const json& o = plan["results"]["options"][i];
            for (const json& m : o["modes"]) {
                if (m.contains("commitment")) {
                    want.push_back({o["rank"].get<int>(),
                                    labelOf(o),
                                    m["mode"].get<std::string>(),
                                    m["commitment"]["months"].get<double>(),
                                    m["commitment"]["amount"].get<double>(),
                                    rangeOf(m["cost"]),
                                    m.value("eligible", true)});
                    someIneligible = someIneligible || !m.value("eligible", true);
                }
            }
        }
        QVERIFY2(!want.empty(), "the example's table has reserved or subscription modes");
        QVERIFY2(someIneligible, "and at least one of them is not eligible");
        const std::vector<CommitmentRisk>& got = report->risks.commitments;
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            const std::string at = want[i].offer + " " + want[i].mode;
            QVERIFY2(got[i].rank == want[i].rank && got[i].offer == want[i].offer
                         && pricingModeName(got[i].mode) == want[i].mode,
                     (at + ": which").c_str());
            QVERIFY2(got[i].amount == want[i].amount && got[i].months == want[i].months, (at + ": amount").c_str());
            QVERIFY2(got[i].runCost == want[i].runCost, (at + ": run cost").c_str());
            QVERIFY2(got[i].eligible == want[i].eligible, (at + ": eligible").c_str());
        }
    }

    // Issue 20, finding 14: a recommendation ranked with a reservation or subscription carries the whole term's
    // amount, so the summary can say it beside the run's cost (it was only in the risks table, pages later).
    void aCommittedRecommendationCarriesItsAmount()
    {
        json plan = readPlan(kLlama);
        json& options = plan["results"]["options"];
        // The plan's first option with a commitment mode, ranked with that mode and moved to the top.
        std::optional<std::size_t> found;
        for (std::size_t i = 0; i < options.size() && !found; ++i) {
            for (json& m : options[i]["modes"]) {
                if (m.contains("commitment")) {
                    m["eligible"] = true;
                    m.erase("why_not");
                    options[i]["mode"] = m["mode"];
                    options[i]["cost"] = m["cost"];
                    options[i]["hours"] = m["hours"];
                    found = i;
                    break;
                }
            }
        }
        QVERIFY2(found.has_value(), "the example has an option with a reserved or subscription price");
        json committed = options[*found];
        options.erase(options.begin() + static_cast<std::ptrdiff_t>(*found));
        options.insert(options.begin(), committed);
        for (std::size_t i = 0; i < options.size(); ++i) {
            options[i]["rank"] = static_cast<int>(i + 1);
        }
        json want;
        for (const json& m : committed["modes"]) {
            if (m["mode"] == committed["mode"]) {
                want = m["commitment"];
            }
        }

        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        const PlanOption& best = report->summary.recommended;
        QCOMPARE(q(pricingModeName(best.mode)), q(committed["mode"].get<std::string>()));
        const std::optional<PlanMode::Commitment> term = rankedCommitment(best);
        QVERIFY2(term.has_value(), "the recommendation's commitment");
        QCOMPARE(term->amount, want["amount"].get<double>());
        QCOMPARE(term->months, want["months"].get<double>());
        const std::optional<PlanMode::Commitment> first = rankedCommitment(report->options.front());
        QVERIFY(first.has_value() && first->amount == term->amount && first->months == term->months);
        // An option ranked on demand has none, even where it also has a reserved price.
        QVERIFY(report->summary.runnerUp.has_value());
        QVERIFY2(report->summary.runnerUp->rankedMode() != nullptr, "the runner-up has the mode it is ranked with");
        QVERIFY(!rankedCommitment(*report->summary.runnerUp).has_value());
        for (const PlanOption& o : report->options) {
            QVERIFY2(rankedCommitment(o).has_value() == (isReserved(o.mode) || isSubscription(o.mode)),
                     o.label().c_str());
        }
    }

    void spotRisks_data() { addExamples(); }
    void spotRisks()
    {
        QFETCH(QString, file);
        const json plan = readPlan(file.toStdString());
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        const std::vector<std::pair<std::size_t, json>> want = expectedSpot(plan);
        QVERIFY2(!want.empty(), "the example has a judged spot offer");
        const std::vector<SpotRisk>& got = report->risks.spot;
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            const json& option = plan["results"]["options"][want[i].first];
            const json& spot = want[i].second["spot"];
            const std::string at = labelOf(option);
            QCOMPARE(got[i].rank, option["rank"].get<int>());
            QCOMPARE(q(got[i].offer), q(at));
            QCOMPARE(got[i].mtbfHours, spot.value("mtbf_hours", 0.0));
            QVERIFY2(got[i].monthlyInterruption == rangeOf(spot["monthly_interruption"]),
                     (at + ": monthly interruption").c_str());
            QVERIFY2(got[i].p90Hours.has_value() && got[i].p90Cost.has_value(), (at + ": P90").c_str());
            QCOMPARE(*got[i].p90Hours, spot["monte_carlo"]["p90_hours"].get<double>() + spot.value("extra_hours", 0.0));
            QCOMPARE(*got[i].p90Cost, spot["monte_carlo_cost"]["p90"].get<double>());
            QVERIFY2(got[i].checkpointIntervalHours == numberOrNull(spot, "checkpoint_interval_hours"),
                     (at + ": checkpoint interval").c_str());
            QVERIFY2(got[i].meanInterruptions == numberOrNull(spot["monte_carlo"], "mean_interruptions"),
                     (at + ": mean interruptions").c_str());
            QCOMPARE(q(got[i].rateSource), q(spot.value("rate_source", "")));
        }
    }

    void spotRisksInTheTable()
    {
        // The resnet example's judged spot offer ranks below the table; moved up into it, it is still listed.
        json plan = readPlan(kResnet);
        json& options = plan["results"]["options"];
        const std::vector<std::pair<std::size_t, json>> found = expectedSpot(plan);
        QVERIFY(!found.empty());
        const std::size_t from = found.front().first;
        json moved = options[from];
        options.erase(from);
        options.insert(options.begin() + 1, moved);
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        QVERIFY(!report->risks.spot.empty());
        QCOMPARE(q(report->risks.spot.front().offer), q(labelOf(moved)));
        QCOMPARE(report->risks.spot.front().rank, moved["rank"].get<int>());
        QCOMPARE(report->risks.spot.size(), expectedSpot(plan).size());
        // ... and the table (option 1) now has the spot row of that offer.
        const auto row = std::find_if(report->comparison.begin(), report->comparison.end(), [](const ComparisonRow& r) {
            return r.option == 1 && r.mode.mode == PricingMode::Spot;
        });
        QVERIFY(row != report->comparison.end());
    }

    void spotRisksAreCapped()
    {
        json plan = readPlan(kResnet);
        const std::vector<std::pair<std::size_t, json>> found = expectedSpot(plan);
        QVERIFY(!found.empty());
        const json spotOption = plan["results"]["options"][found.front().first];
        json options = json::array({plan["results"]["options"][0]});
        const int copies = kReportTableOptions + 3;
        for (int i = 0; i < copies; ++i) {
            json copy = spotOption;
            copy["rank"] = i + 2;
            options.push_back(copy);
        }
        plan["results"]["options"] = options;
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        QCOMPARE(report->risks.spot.size(), static_cast<std::size_t>(kReportTableOptions));
        for (std::size_t i = 0; i < report->risks.spot.size(); ++i) {
            QCOMPARE(report->risks.spot[i].rank, static_cast<int>(i) + 2); // best first
        }
    }

    void ineligibleSpotIsNoRisk()
    {
        json plan = readPlan(kResnet);
        for (json& option : plan["results"]["options"]) {
            for (json& mode : option["modes"]) {
                if (mode.contains("spot")) {
                    mode["eligible"] = false;
                }
            }
        }
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        QVERIFY(report->risks.spot.empty());
    }

    // ---- 4. Probe verifications and ledger spend ----

    void verificationsAndLedgerAreRead()
    {
        json plan = readPlan(kLlama);
        plan["verifications"] = sampleVerifications();
        plan["ledger"] = sampleLedger();
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());

        const json& runs = plan["verifications"];
        QCOMPARE(report->verifications.size(), runs.size());
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const PlanVerification& v = report->verifications[i];
            const json& w = runs[i];
            QCOMPARE(q(v.when), q(w["when"].get<std::string>()));
            QCOMPARE(q(v.host), q(w["host"].get<std::string>()));
            QCOMPARE(q(verdictLevelName(v.verdict)), q(w["verdict"].get<std::string>()));
            QCOMPARE(q(v.expectedGpu), q(w.value("expected_gpu", "")));
            QCOMPARE(v.expectedCount, w.value("expected_count", 0));
            QCOMPARE(q(v.gpuName), q(w.value("gpu_name", "")));
            QCOMPARE(v.gpuCount, w.value("gpu_count", 0));
            QCOMPARE(q(v.driver), q(w.value("driver", "")));
            const json lines = w.value("lines", json::array());
            QCOMPARE(v.checks.size(), lines.size());
            for (std::size_t l = 0; l < lines.size(); ++l) {
                const PlanCheck& c = v.checks[l];
                const json& line = lines[l];
                QCOMPARE(q(c.check), q(line["check"].get<std::string>()));
                QCOMPARE(q(verdictLevelName(c.level)), q(line["level"].get<std::string>()));
                // A figure: a reason, an older plan's text ("saved.text"), or "" for none.
                auto sameFigure = [](const Reason& got, const json& want) {
                    if (want.is_string()) {
                        const std::string text = want.get<std::string>();
                        return text.empty() ? got.empty() : got == Reason{"saved.text", {{"text", text}}};
                    }
                    return sameReason(got, want);
                };
                QVERIFY2(sameFigure(c.measured, line.value("measured", json(""))), c.measured.key.c_str());
                QVERIFY2(sameFigure(c.expected, line.value("expected", json(""))), c.expected.key.c_str());
                QCOMPARE(c.gpu.has_value(), line["gpu"].is_number());
                if (c.gpu) {
                    QCOMPARE(*c.gpu, line["gpu"].get<int>());
                }
                QVERIFY2(sameReason(c.reason, line["reason"]), c.reason.key.c_str());
            }
        }
        QVERIFY2(!report->verifications.front().checks.empty(), "the first run has judged lines");

        const json& ledger = plan["ledger"];
        QCOMPARE(report->spend.size(), ledger.size());
        for (std::size_t i = 0; i < ledger.size(); ++i) {
            const PlanSpend& s = report->spend[i];
            const json& w = ledger[i];
            QCOMPARE(q(s.provider), q(w["provider"].get<std::string>()));
            QCOMPARE(q(s.instanceId), q(w["instance_id"].get<std::string>()));
            QCOMPARE(q(s.instanceType), q(w.value("instance_type", "")));
            QCOMPARE(q(s.region), q(w.value("region", "")));
            QCOMPARE(q(s.started), q(w.value("started", "")));
            QCOMPARE(q(s.ended), q(w.value("ended", "")));
            QCOMPARE(s.hours, w.value("hours", 0.0));
            QCOMPARE(s.cost, w["cost"].get<double>());
            QCOMPARE(q(s.currency), q(w["currency"].get<std::string>()));
        }
        QVERIFY2(report->spend.back().ended.empty(), "the second instance is still running");
    }

    void runsAreReportedAndKeptInThePlanFile()
    {
        json plan = readPlan(exampleFiles().front());
        plan["runs"] =
            json::array({{{"host", "ubuntu@203.0.113.9"},
                          {"provider", "aws"},
                          {"instance_type", "p4d.24xlarge"},
                          {"state", "finished"},
                          {"exit_code", 0},
                          {"started", "2026-12-03T09:10:00Z"},
                          {"ended", "2026-12-03T14:40:00Z"},
                          {"planned_hours", 5},
                          {"planned_hours_low", 4},
                          {"planned_hours_high", 6},
                          {"hours", 5.5},
                          {"planned_throughput", 2000},
                          {"throughput", 2100},
                          {"throughput_unit", "samples"},
                          {"planned_cost", 300},
                          {"planned_currency", "CNY"},
                          {"cost", 118.8},
                          {"cost_currency", "CNY"},
                          {"gpu_utilization", 93}},
                         {{"host", "ubuntu@203.0.113.10"}, {"state", "failed"}, {"exit_code", 2}, {"hours", 0.25}}});
        Result<Report> report = build(plan);
        QVERIFY2(report.ok(), report.ok() ? "" : describe(report.error()).c_str());
        QCOMPARE(report->runs.size(), std::size_t(2));
        const PlanRun& done = report->runs[0];
        QCOMPARE(q(done.host), QStringLiteral("ubuntu@203.0.113.9"));
        QCOMPARE(q(done.state), QStringLiteral("finished"));
        QCOMPARE(*done.exitCode, 0);
        QCOMPARE(*done.plannedHoursLow, 4.0);
        QCOMPARE(done.hours, 5.5);
        QCOMPARE(*done.throughput, 2100.0);
        QCOMPARE(*done.cost, 118.8);
        QCOMPARE(*done.gpuUtilization, 93.0);
        const PlanRun& failed = report->runs[1];
        QCOMPARE(*failed.exitCode, 2);
        // What it did not measure stays unknown, and is written back as absent, never 0.
        QVERIFY(!failed.throughput && !failed.cost && !failed.gpuUtilization && !failed.plannedHours);

        Result<PlanDocument> document = planFromJson(plan, kFile);
        QVERIFY(document.ok());
        const json written = planToJson(*document);
        QCOMPARE(written["runs"].size(), std::size_t(2));
        QVERIFY(!written["runs"][1].contains("throughput"));
        QVERIFY(!written["runs"][1].contains("cost"));
        QCOMPARE(written["runs"][0]["throughput"].get<double>(), 2100.0);
        Result<Report> again = build(written);
        QVERIFY2(again.ok(), again.ok() ? "" : describe(again.error()).c_str());
        QCOMPARE(again->runs.size(), std::size_t(2));
        QCOMPARE(q(again->runs[0].started), QStringLiteral("2026-12-03T09:10:00Z"));
        QVERIFY(!again->runs[1].throughput);

        // A run without its state is refused, naming where.
        plan["runs"][1].erase("state");
        QVERIFY(!build(plan).ok());
    }

    void noVerificationsNoLedger()
    {
        for (const std::string& file : exampleFiles()) {
            json plan = readPlan(file);
            plan.erase("verifications");
            plan.erase("ledger");
            Result<Report> absent = build(plan);
            QVERIFY2(absent.ok(), absent.ok() ? "" : describe(absent.error()).c_str());
            QVERIFY(absent->verifications.empty());
            QVERIFY(absent->spend.empty());
            // Empty lists. (A null "verifications" is not a list: it is refused, see badInput.)
            plan["verifications"] = json::array();
            plan["ledger"] = json::array();
            Result<Report> empty = build(plan);
            QVERIFY2(empty.ok(), empty.ok() ? "" : describe(empty.error()).c_str());
            QVERIFY(empty->verifications.empty());
            QVERIFY(empty->spend.empty());
        }
    }

    // ---- 5. Bad input: an error naming the file and the member, never a crash ----

    void badInput_data()
    {
        QTest::addColumn<QString>("pointer"); // JSON pointer of the member changed ("" is the whole plan)
        QTest::addColumn<QString>("value");   // its new value as JSON text; empty: the member is removed
        QTest::addColumn<QString>("place");   // the path the error must name

        // Not an object, so not a GPU Planner plan: planFromJson (checkPlan) names the missing "format" marker.
        QTest::newRow("plan is an array") << ""
                                          << "[]"
                                          << "$.format";
        QTest::newRow("plan is a string") << ""
                                          << "\"plan\""
                                          << "$.format";
        QTest::newRow("plan is null") << ""
                                      << "null"
                                      << "$.format";
        QTest::newRow("no results") << "/results"
                                    << ""
                                    << "$.results";
        QTest::newRow("results is an array") << "/results"
                                             << "[]"
                                             << "$.results";
        QTest::newRow("no options") << "/results/options"
                                    << ""
                                    << "$.results.options";
        QTest::newRow("options empty") << "/results/options"
                                       << "[]"
                                       << "$.results.options";
        QTest::newRow("options an object") << "/results/options"
                                           << "{}"
                                           << "$.results.options";
        QTest::newRow("option not an object") << "/results/options/0"
                                              << "3"
                                              << "$.results.options[0]";
        QTest::newRow("cost a string") << "/results/options/0/cost"
                                       << "\"cheap\""
                                       << "$.results.options[0].cost";
        QTest::newRow("hours without high") << "/results/options/0/hours/high"
                                            << ""
                                            << "$.results.options[0].hours.high";
        QTest::newRow("later option's cost negative") << "/results/options/5/cost/low"
                                                      << "-1"
                                                      << "$.results.options[5].cost.low";
        QTest::newRow("option without provider") << "/results/options/1/provider"
                                                 << ""
                                                 << "$.results.options[1].provider";
        QTest::newRow("mode without name") << "/results/options/3/modes/1/mode"
                                           << ""
                                           << "$.results.options[3].modes[1].mode";
        QTest::newRow("commitment amount a string") << "/results/options/3/modes/1/commitment/amount"
                                                    << "\"lots\""
                                                    << "$.results.options[3].modes[1].commitment.amount";
        QTest::newRow("price without amount") << "/results/options/0/modes/0/price/amount"
                                              << ""
                                              << "$.results.options[0].modes[0].price.amount";
        QTest::newRow("exchange rate zero") << "/catalog/exchange_rate/cny_per_usd"
                                            << "0"
                                            << "$.catalog.exchange_rate.cny_per_usd";
        QTest::newRow("budget negative") << "/constraints/budget"
                                         << "-5"
                                         << "$.constraints.budget";
        QTest::newRow("verifications an object") << "/verifications"
                                                 << "{}"
                                                 << "$.verifications";
        QTest::newRow("verification without host") << "/verifications/0/host"
                                                   << ""
                                                   << "$.verifications[0].host";
        QTest::newRow("verifications null") << "/verifications"
                                            << "null"
                                            << "$.verifications";
        QTest::newRow("verification without lines") << "/verifications/1/lines"
                                                    << ""
                                                    << "$.verifications[1].lines";
        QTest::newRow("verification not an object") << "/verifications/1"
                                                    << "\"ok\""
                                                    << "$.verifications[1]";
        QTest::newRow("check without level") << "/verifications/0/lines/1/level"
                                             << ""
                                             << "$.verifications[0].lines[1].level";
        QTest::newRow("ledger cost negative") << "/ledger/0/cost"
                                              << "-3.5"
                                              << "$.ledger[0].cost";
        QTest::newRow("ledger entry without currency") << "/ledger/1/currency"
                                                       << ""
                                                       << "$.ledger[1].currency";
        QTest::newRow("rent line upfront a string") << "/buy_vs_rent/rent/0/upfront"
                                                    << "\"x\""
                                                    << "$.buy_vs_rent.rent[0].upfront";
    }
    void badInput()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, place);
        json plan = readPlan(kLlama);
        plan["verifications"] = sampleVerifications();
        plan["ledger"] = sampleLedger();
        Result<Report> good = build(plan);
        QVERIFY2(good.ok(), good.ok() ? "" : describe(good.error()).c_str());

        const json::json_pointer at(pointer.toStdString());
        QVERIFY2(plan.contains(at), ("the example has " + pointer.toStdString()).c_str());
        if (value.isEmpty()) {
            plan.at(at.parent_pointer()).erase(at.back());
        } else {
            plan[at] = json::parse(value.toStdString());
        }
        Result<Report> report = build(plan);
        QVERIFY2(!report.ok(), "the broken plan is refused");
        const Error& error = report.error();
        QCOMPARE(q(error.where), q(kFile + ": " + place.toStdString()));
        QVERIFY2(!error.reason.key.empty(), "the error says what is wrong");
        QVERIFY2(error.reason.key.starts_with("error."), describe(error).c_str());
        QVERIFY(error.code == ErrorCode::InvalidArgument || error.code == ErrorCode::SchemaViolation);
    }

    void oddValuesNeverThrow()
    {
        // Every member of the objects the report reads, replaced by each kind of JSON value: reading the plan
        // (planFromJson) and building its report (buildReport) answer with a report or an error naming the file, and
        // never let an exception out.
        json base = readPlan(kResnet);
        // A smaller plan, so each of the many copies is cheap: the table, one more option, and the spot offer.
        const std::vector<std::pair<std::size_t, json>> spotFound = expectedSpot(base);
        QVERIFY(!spotFound.empty());
        json kept = json::array();
        for (std::size_t i = 0; i <= static_cast<std::size_t>(kReportTableOptions); ++i) {
            kept.push_back(base["results"]["options"][i]);
        }
        kept.push_back(base["results"]["options"][spotFound.front().first]);
        base["results"]["options"] = kept;
        base["verifications"] = sampleVerifications();
        base["ledger"] = sampleLedger();
        const std::vector<std::pair<std::size_t, json>> spot = expectedSpot(base);
        QVERIFY(!spot.empty());
        const std::string spotOption = "/results/options/" + std::to_string(spot.front().first);
        std::string spotMode;
        const json& modes = base["results"]["options"][spot.front().first]["modes"];
        for (std::size_t m = 0; m < modes.size(); ++m) {
            if (modes[m].contains("spot")) {
                spotMode = spotOption + "/modes/" + std::to_string(m);
                break;
            }
        }
        QVERIFY(!spotMode.empty());
        // The plan before any change is read and reported, so what follows is not a sweep of refusals only.
        Result<Report> whole = build(base);
        QVERIFY2(whole.ok(), whole.ok() ? "" : describe(whole.error()).c_str());
        const std::vector<std::string> objects = {"",
                                                  "/results",
                                                  "/results/options/0",
                                                  "/results/options/0/cost",
                                                  "/results/options/0/modes/0",
                                                  "/results/options/0/modes/0/price",
                                                  "/results/options/0/reasons/0",
                                                  "/results/options/0/training",
                                                  "/results/excluded/0",
                                                  "/catalog",
                                                  "/catalog/exchange_rate",
                                                  "/constraints",
                                                  "/assumptions",
                                                  "/buy_vs_rent",
                                                  "/buy_vs_rent/own",
                                                  "/buy_vs_rent/rent/0",
                                                  spotOption,
                                                  spotMode,
                                                  spotMode + "/spot",
                                                  spotMode + "/spot/monte_carlo",
                                                  spotMode + "/spot/monte_carlo_cost",
                                                  spotMode + "/spot/monthly_interruption",
                                                  "/verifications/0",
                                                  "/verifications/0/lines/0",
                                                  "/ledger/0"};
        const std::vector<json> values = {nullptr, true, -1, 0.5, "x", json::array(), json::object()};
        QStringList threw;
        QStringList unnamed;
        int tried = 0;
        int reported = 0;
        for (const std::string& object : objects) {
            const json::json_pointer parent(object);
            QVERIFY2(base.contains(parent) && base.at(parent).is_object(), object.c_str());
            for (const auto& item : base.at(parent).items()) {
                for (const json& value : values) {
                    json plan = base;
                    plan.at(parent)[item.key()] = value;
                    const std::string what = object + "/" + item.key() + " = " + value.dump();
                    ++tried;
                    try {
                        Result<PlanDocument> document = planFromJson(plan, kFile);
                        Result<Report> report =
                            document ? buildReport(*document, kFile) : Result<Report>(document.error());
                        if (!report.ok() && report.error().where.rfind(kFile + ": $", 0) != 0) {
                            unnamed << q(what + " -> " + describe(report.error()));
                        }
                        reported += report.ok() ? 1 : 0;
                    } catch (const std::exception& e) {
                        threw << q(what + " -> " + e.what());
                    }
                }
            }
        }
        qInfo("%d changed plans, %d of them read and reported", tried, reported);
        QVERIFY(tried > 500);
        for (const QString& line : threw) {
            qWarning("threw: %s", qPrintable(line));
        }
        for (const QString& line : unnamed) {
            qWarning("error without the place: %s", qPrintable(line));
        }
        QVERIFY2(threw.isEmpty(),
                 qPrintable(QString::number(threw.size()) + " of " + QString::number(tried)
                            + " changed plans made planFromJson or buildReport throw (listed above); first: "
                            + (threw.isEmpty() ? QString() : threw.front())));
        QVERIFY2(unnamed.isEmpty(),
                 qPrintable(QString::number(unnamed.size()) + " errors do not name the place (listed above)"));
    }
};

QTEST_GUILESS_MAIN(TestReportContent)
#include "TestReportContent.moc"
