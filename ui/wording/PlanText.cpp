// The plan's words: every reason, note and exclusion key of core/plan and core/estimate ("reason.*", "excluded.*",
// "unknown.*", "fit.advice", "note.*", "buy.*") with its sentence, and the names of pricing modes, tasks and stacks.
// About 600 lines on purpose: one file per family of keys, so that a key found in core is found worded here by one
// search; the verdict's keys are in VerdictText.cpp and verdict/, the launch's steps in LaunchText.cpp.
#include "wording/PlanText.h"
#include "wording/ProviderText.h"

#include "wording/Format.h"
#include "wording/Language.h"
#include "wording/VerdictText.h"

#include <QCoreApplication>

#include <map>

namespace gpuplan::ui {

namespace {

/// The translation context of every reason sentence.
struct Reasons
{
    Q_DECLARE_TR_FUNCTIONS(Reasons)
};

/// The translation context of the catalog's pricing-mode names ("on-demand, per hour"): the Catalog table's model,
/// where they began.
struct CatalogModes
{
    Q_DECLARE_TR_FUNCTIONS(gpuplan::ui::OfferTableModel)
};

/// A reason's parameters, read leniently: a missing parameter reads as empty text, a parameter that is no number
/// as NaN.
class Params
{
public:
    explicit Params(const std::map<std::string, std::string>& params, std::string prefix = {})
        : m_params(params)
        , m_prefix(std::move(prefix))
    { }

    QString text(const char* name) const
    {
        const auto it = m_params.find(m_prefix + name);
        return it == m_params.end() ? QString() : QString::fromStdString(it->second);
    }
    bool has(const char* name) const { return !text(name).isEmpty(); }
    bool flag(const char* name) const { return text(name) == QLatin1String("1"); }
    double number(const char* name) const
    {
        bool ok = false;
        const double value = text(name).toDouble(&ok);
        return ok ? value : NAN;
    }
    int integer(const char* name) const { return text(name).toInt(); }
    QString money(const char* name) const { return formatMoney(number(name), text("currency")); }
    QString hours(const char* name) const { return formatHours(number(name)); }
    /// The parameters of a nested reason ("cause.*") as their own set.
    Params cause() const { return Params(m_params, m_prefix + "cause."); }
    /// The parameters under the prefix, with the prefix taken off.
    std::map<std::string, std::string> values() const
    {
        if (m_prefix.empty()) {
            return m_params;
        }
        std::map<std::string, std::string> values;
        for (const auto& [key, value] : m_params) {
            if (key.size() > m_prefix.size() && key.starts_with(m_prefix)) {
                values[key.substr(m_prefix.size())] = value;
            }
        }
        return values;
    }

private:
    const std::map<std::string, std::string>& m_params;
    std::string m_prefix;
};

QString frameworkText(const QString& id)
{
    static const std::map<QString, QString> names{{QStringLiteral("pytorch"), QStringLiteral("PyTorch")},
                                                  {QStringLiteral("tensorflow"), QStringLiteral("TensorFlow")},
                                                  {QStringLiteral("jax"), QStringLiteral("JAX")},
                                                  {QStringLiteral("paddle"), QStringLiteral("PaddlePaddle")},
                                                  {QStringLiteral("mindspore"), QStringLiteral("MindSpore")}};
    const auto it = names.find(id);
    return it == names.end() ? id : it->second;
}

/// "FSDP (ZeRO-3) + activation checkpointing, micro-batch 4"
QString memoryPlanText(const Params& p)
{
    QString plan =
        p.text("sharding") == QLatin1String("fsdp") ? Reasons::tr("FSDP (ZeRO-3)") : Reasons::tr("data parallel (DDP)");
    if (p.flag("checkpointing")) {
        plan = Reasons::tr("%1 + activation checkpointing").arg(plan);
    }
    return Reasons::tr("%1, micro-batch %2").arg(plan).arg(p.integer("micro_batch"));
}

QString gigabytes(const Params& p, const char* name)
{
    return formatNumber(p.number(name), 1);
}

QString fitAdviceText(const Params& p)
{
    QString text = Reasons::tr("needs %1 GB per GPU even with %2, %3 GB available")
                       .arg(gigabytes(p, "needed_gb"), memoryPlanText(p), formatNumber(p.number("capacity_gb"), 0));
    QStringList options;
    if (p.has("fsdp_gpus")) {
        options << Reasons::tr("%1 × %2 with FSDP").arg(p.integer("fsdp_gpus")).arg(p.text("gpu"));
    }
    if (p.flag("lora")) {
        options << Reasons::tr("LoRA instead of a full fine-tune");
    }
    if (p.has("larger_gb")) {
        const QString size = formatNumber(p.number("larger_gb"), 0);
        options << (p.integer("gpus") <= 1 ? Reasons::tr("a card of %1 GB or more").arg(size)
                                           : Reasons::tr("%1 cards of %2 GB or more").arg(p.integer("gpus")).arg(size));
    }
    if (!options.isEmpty()) {
        text = Reasons::tr("%1; would fit: %2").arg(text, options.join(Reasons::tr(", or ")));
    }
    return text;
}

QString causeText(const QString& key, const Params& p)
{
    if (key == QLatin1String("unknown.no_peak")) {
        return Reasons::tr("the datasheet of %1 gives no peak for %2")
            .arg(p.text("gpu"), p.text("precision").toUpper());
    }
    if (key == QLatin1String("unknown.no_calibration")) {
        return Reasons::tr("no calibration case for %1 training").arg(p.text("family").toUpper());
    }
    if (key == QLatin1String("unknown.no_calibration_vendor")) {
        return Reasons::tr(
                   "no calibration for this accelerator: the calibration set has no published training result for %1 "
                   "accelerators, and NVIDIA's would be a guess")
            .arg(p.text("vendor"));
    }
    if (key == QLatin1String("unknown.does_not_fit")) {
        return Reasons::tr("does not fit in memory: %1").arg(fitAdviceText(p));
    }
    if (key == QLatin1String("unknown.measured_gpu")) {
        return Reasons::tr("the measured GPU '%1' is not in the catalog").arg(p.text("gpu"));
    }
    if (key == QLatin1String("unknown.no_flops")) {
        return Reasons::tr("the workload does not say how many FLOPs a sample takes");
    }
    if (key == QLatin1String("fit.advice")) {
        return fitAdviceText(p);
    }
    return {};
}

QString rankText(const Params& p)
{
    const QString objective = p.text("objective");
    const int count = p.integer("count");
    QString text;
    if (count <= 1) {
        text = Reasons::tr("the only offer that meets every constraint");
    } else if (objective == QLatin1String("cheapest")) {
        text = Reasons::tr("the cheapest of %1 offers that meet every constraint").arg(count);
    } else if (objective == QLatin1String("fastest")) {
        text = Reasons::tr("the fastest of %1 offers that meet every constraint").arg(count);
    } else {
        text = Reasons::tr("the best cost × time of %1 offers that meet every constraint").arg(count);
    }
    if (p.has("next_instance") && p.has("next_commitment")) {
        text = Reasons::tr("%1; next: %2 %3 at %4 (committing %5 over %6), %7")
                   .arg(text,
                        p.text("next_provider"),
                        p.text("next_instance"),
                        p.money("next_cost"),
                        p.money("next_commitment"),
                        formatMonths(p.number("next_commitment_months")),
                        p.hours("next_hours"));
    } else if (p.has("next_instance")) {
        text = Reasons::tr("%1; next: %2 %3 at %4, %5")
                   .arg(text,
                        p.text("next_provider"),
                        p.text("next_instance"),
                        p.money("next_cost"),
                        p.hours("next_hours"));
    }
    return text;
}

QString spotText(const Params& p)
{
    const QString probability = formatNumber(p.number("probability") * 100, 0);
    if (p.has("p50")) {
        return Reasons::tr("spot: %1 % chance of interruption per month, checkpoint every %2; P50 %3, P90 %4 of "
                           "compute, %5 interruptions expected")
            .arg(probability,
                 p.hours("interval"),
                 p.hours("p50"),
                 p.hours("p90"),
                 formatNumber(p.number("interruptions"), 1));
    }
    return Reasons::tr("spot: %1 % chance of interruption per month, checkpoint every %2")
        .arg(probability, p.hours("interval"));
}

QString isolationText(const Params& p)
{
    const QString compliance = p.text("compliance");
    if (p.flag("isolated")) {
        return compliance.isEmpty()
                   ? Reasons::tr("physically isolated (bare metal or dedicated host)")
                   : Reasons::tr("physically isolated (bare metal or dedicated host); compliance: %1").arg(compliance);
    }
    return Reasons::tr("documented compliance: %1").arg(compliance);
}

QString energyText(const Params& p)
{
    const double kwh = p.number("kwh");
    const QString energy = formatNumber(kwh, kwh < 10 ? 1 : 0);
    if (p.has("kg_co2e")) {
        const double kg = p.number("kg_co2e");
        return Reasons::tr("uses about %1 kWh, %2 kgCO2e on the %3 grid")
            .arg(energy, formatNumber(kg, kg < 10 ? 1 : 0), p.text("region"));
    }
    return Reasons::tr("uses about %1 kWh (grid carbon intensity of %2 unknown)").arg(energy, p.text("region"));
}

QString efficiencyBasisText(const Params& p)
{
    if (!p.has("nearby")) {
        // A plan saved before the performance model: the median of the nearest cases.
        static const char* const levels[] = {QT_TRANSLATE_NOOP("Reasons", "same GPU"),
                                             QT_TRANSLATE_NOOP("Reasons", "same architecture"),
                                             QT_TRANSLATE_NOOP("Reasons", "same model class, other GPUs"),
                                             QT_TRANSLATE_NOOP("Reasons", "other model classes")};
        const int level = p.integer("level");
        const QString match = level >= 1 && level <= 4 ? Reasons::tr(levels[level - 1]) : QString();
        const int cases = p.integer("cases");
        const QString family = p.text("family").toUpper();
        return cases == 1 ? Reasons::tr("one calibration case (%1, %2)").arg(match, family)
                          : Reasons::tr("median of %1 calibration cases (%2, %3)").arg(cases).arg(match, family);
    }
    static const char* const nearness[] = {QT_TRANSLATE_NOOP("Reasons", "this workload on this GPU"),
                                           QT_TRANSLATE_NOOP("Reasons", "this kind of model on this GPU"),
                                           QT_TRANSLATE_NOOP("Reasons", "this kind of model on this GPU generation")};
    QString text = Reasons::tr("the performance model fitted to %1 published results").arg(p.integer("cases"));
    const int level = p.integer("level");
    const int nearby = p.integer("nearby");
    if (nearby > 0 && level >= 1 && level <= 3) {
        text = Reasons::tr("%1, corrected by %2 nearby result(s) (%3)")
                   .arg(text)
                   .arg(nearby)
                   .arg(Reasons::tr(nearness[level - 1]));
    }
    if (p.text("user") == QLatin1String("1")) {
        text = Reasons::tr("%1; your own measurement is among them").arg(text);
    }
    return text;
}

/// "the project is 14 days"; a plan without a project length covers this run only.
QString projectText(double months)
{
    return months > 0 ? Reasons::tr("the project is %1").arg(formatMonths(months))
                      : Reasons::tr("the plan covers this run only");
}

/// "V100 has no BF16 figure: runs as FP16"
QString precisionSubstitutedText(const Params& p)
{
    return Reasons::tr("%1 has no %2 figure: runs as %3")
        .arg(p.text("gpu"), p.text("wanted").toUpper(), p.text("used").toUpper());
}

QString noteText(const QString& key, const Params& p)
{
    if (key == QLatin1String("note.precision_substituted")) {
        return precisionSubstitutedText(p);
    }
    if (key == QLatin1String("note.third_party_figures")) {
        return Reasons::tr("%1's figures are third-party or derived: its vendor publishes no datasheet")
            .arg(p.text("gpu"));
    }
    if (key == QLatin1String("note.scaled_from_measurement")) {
        return Reasons::tr("scaled from the measured %1 %2 on %3 × %4")
            .arg(
                formatNumber(p.number("value"), 0), throughputUnitText(p.text("unit")), p.text("count"), p.text("gpu"));
    }
    if (key == QLatin1String("note.high_end_capped")) {
        return Reasons::tr("the high end is held at the best efficiency published for this kind of model");
    }
    if (key == QLatin1String("note.dataset_streamed")) {
        return p.text("storage") == QLatin1String("local_nvme")
                   ? Reasons::tr("the data set does not fit the instance's memory and is read from local NVMe every "
                                 "epoch")
                   : Reasons::tr("the data set does not fit the instance's memory and is read from a network volume "
                                 "every epoch");
    }
    if (key == QLatin1String("note.checkpointing_recompute")) {
        return Reasons::tr("activation checkpointing recomputes the forward pass: a third more compute");
    }
    if (key == QLatin1String("note.other_regions")) {
        return Reasons::tr("also meets the constraints in %1 other region(s)").arg(p.integer("regions"));
    }
    if (key == QLatin1String("note.nothing_eligible")) {
        return Reasons::tr("no offer meets every constraint; the excluded list says what each one missed");
    }
    if (key == QLatin1String("note.storage_price_unknown")) {
        const bool zh = currentLanguage() == QLatin1String("zh_CN") && p.has("provider_zh");
        return Reasons::tr("storage price unknown for %1: not counted").arg(p.text(zh ? "provider_zh" : "provider"));
    }
    if (key == QLatin1String("buy.no_server")) {
        return Reasons::tr("ownership.json lists no server to buy");
    }
    if (key == QLatin1String("buy.no_on_demand_offer")) {
        return Reasons::tr("none of the servers in ownership.json has an on-demand offer to compare with");
    }
    return {};
}

QString wordedText(const QString& key, const Params& p)
{
    if (key.startsWith(QLatin1String("probe.")) || key.startsWith(QLatin1String("deploy."))) {
        return verdictReasonText(key, p.values());
    }
    if (key.startsWith(QLatin1String("note.")) || key.startsWith(QLatin1String("buy."))) {
        return noteText(key, p);
    }
    if (key.startsWith(QLatin1String("unknown.")) || key == QLatin1String("fit.advice")) {
        return causeText(key, p);
    }
    if (key == QLatin1String("saved.text")) {
        // A sentence an older plan file saved in English: shown as it was saved.
        return p.text("text");
    }
    if (key == QLatin1String("efficiency.basis")) {
        return efficiencyBasisText(p);
    }
    if (key == QLatin1String("reason.cost")) {
        if (p.has("commitment")) {
            // The run's share of a term is never shown without the whole term the lab pays for.
            return Reasons::tr("costs about %1 (%2 to %3) paying %4, which commits the lab to %5 over %6")
                .arg(p.money("cost"),
                     p.money("low"),
                     p.money("high"),
                     pricingModeText(p.text("mode")),
                     p.money("commitment"),
                     formatMonths(p.number("commitment_months")));
        }
        return Reasons::tr("costs about %1 (%2 to %3) paying %4")
            .arg(p.money("cost"), p.money("low"), p.money("high"), pricingModeText(p.text("mode")));
    }
    if (key == QLatin1String("reason.billing")) {
        return Reasons::tr("billed as %1 of %2 by %3's minimum and rounding")
            .arg(p.hours("billed"), p.hours("hours"), p.text("provider"));
    }
    if (key == QLatin1String("reason.billing_unknown")) {
        return Reasons::tr("%1's billing rule is not published: %2 is counted as %3, whole hours")
            .arg(p.text("provider"), p.hours("hours"), p.hours("billed"));
    }
    if (key == QLatin1String("reason.time")) {
        return Reasons::tr("finishes in about %1 (%2 to %3), setup and data upload included")
            .arg(p.hours("hours"), p.hours("low"), p.hours("high"));
    }
    if (key == QLatin1String("reason.rank")) {
        return rankText(p);
    }
    if (key == QLatin1String("reason.deadline")) {
        return p.flag("misses_at_high")
                   ? Reasons::tr("%1 to spare before the deadline (but the slow end of the range misses it)")
                         .arg(p.hours("margin"))
                   : Reasons::tr("%1 to spare before the deadline").arg(p.hours("margin"));
    }
    if (key == QLatin1String("reason.spot")) {
        return spotText(p);
    }
    if (key == QLatin1String("reason.memory")) {
        return Reasons::tr("fits in memory: %1 of %2 GB per GPU with %3")
            .arg(gigabytes(p, "needed_gb"), formatNumber(p.number("capacity_gb"), 0), memoryPlanText(p));
    }
    if (key == QLatin1String("reason.memory_unknown")) {
        return Reasons::tr("memory fit unknown: the workload gives no parameter count");
    }
    if (key == QLatin1String("reason.isolated")) {
        return isolationText(p);
    }
    if (key == QLatin1String("reason.energy")) {
        return energyText(p);
    }
    if (key == QLatin1String("excluded.framework_tpu")) {
        return Reasons::tr("TPUs train JAX and TensorFlow; %1 needs a GPU").arg(frameworkText(p.text("framework")));
    }
    if (key == QLatin1String("excluded.framework_rocm")) {
        return Reasons::tr("ROCm on %1 supports PyTorch, TensorFlow and JAX, not %2")
            .arg(p.text("gpu"), frameworkText(p.text("framework")));
    }
    if (key == QLatin1String("excluded.country")) {
        return Reasons::tr("%1 is in %2, outside the chosen countries (%3)")
            .arg(p.text("region"), p.text("country"), p.text("allowed"));
    }
    if (key == QLatin1String("excluded.country_unknown")) {
        return Reasons::tr("the catalog does not say which country %1 is in, so it may be outside %2")
            .arg(p.text("region"), p.text("allowed"));
    }
    if (key == QLatin1String("excluded.sensitive")) {
        return Reasons::tr("shared virtual machine: no bare-metal or dedicated-host option and no documented "
                           "compliance programme, so sensitive data should not go there");
    }
    if (key == QLatin1String("excluded.unknown")) {
        const QString cause = causeText(p.text("cause"), p.cause());
        return cause.isEmpty() ? QString() : Reasons::tr("cannot be estimated: %1").arg(cause);
    }
    if (key == QLatin1String("excluded.memory")) {
        const QString cause = causeText(p.text("cause"), p.cause());
        return cause.isEmpty() ? QString()
                               : Reasons::tr("does not fit in memory on %1 × %2: %3")
                                     .arg(p.integer("gpus"))
                                     .arg(p.text("gpu"), cause);
    }
    if (key == QLatin1String("excluded.single_node")) {
        return Reasons::tr("needs %1 servers; the plan allows one").arg(p.integer("nodes"));
    }
    if (key == QLatin1String("excluded.rdma")) {
        return Reasons::tr("needs %1 servers but has no RDMA / InfiniBand / EFA between them: NCCL over plain "
                           "Ethernet would waste most of the GPU time")
            .arg(p.integer("nodes"));
    }
    if (key == QLatin1String("excluded.no_price")) {
        return Reasons::tr("no published price in this region");
    }
    if (key == QLatin1String("excluded.mode_not_chosen")) {
        return Reasons::tr("the plan does not consider %1 prices").arg(pricingModeText(p.text("mode")));
    }
    if (key == QLatin1String("excluded.deadline")) {
        return Reasons::tr("takes about %1, past the deadline of %2").arg(p.hours("hours"), p.hours("deadline"));
    }
    if (key == QLatin1String("excluded.budget")) {
        return Reasons::tr("costs about %1, over the budget of %2").arg(p.money("cost"), p.money("budget"));
    }
    if (key == QLatin1String("excluded.spot_rate_unknown")) {
        const bool zh = currentLanguage() == QLatin1String("zh_CN") && p.has("provider_zh");
        return Reasons::tr("no published interruption rate for %1 spot: its time and cost would be a guess")
            .arg(p.text(zh ? "provider_zh" : "provider"));
    }
    if (key == QLatin1String("excluded.no_exchange_rate")) {
        return Reasons::tr("priced in %1, and without a USD-CNY exchange rate it cannot be compared in %2")
            .arg(p.text("from"), p.text("to"));
    }
    if (key == QLatin1String("excluded.commitment")) {
        return Reasons::tr("needs a %1-month commitment (%2); %3")
            .arg(p.text("months"), p.money("commitment"), projectText(p.number("project")));
    }
    if (key == QLatin1String("excluded.subscription_term")) {
        return Reasons::tr("a subscription is paid for at least %1; %2")
            .arg(formatMonths(p.number("months")), projectText(p.number("project")));
    }
    return {};
}

} // namespace

QString memoryPlanText(const core::MemoryPlan& plan)
{
    return memoryPlanText(Params({{"sharding", core::shardingName(plan.sharding)},
                                  {"checkpointing", plan.activationCheckpointing ? "1" : "0"},
                                  {"micro_batch", std::to_string(plan.microBatch)}}));
}

QString reasonText(const core::Reason& reason)
{
    const QString key = QString::fromStdString(reason.key);
    const QString worded = wordedText(key, Params(reason.params));
    if (!worded.isEmpty() || reason.empty()) {
        return worded;
    }
    // A key this version does not word (a plan from a newer GPU Planner): its key and figures, never nothing.
    QStringList params;
    for (const auto& [name, value] : reason.params) {
        params << QStringLiteral("%1=%2").arg(QString::fromStdString(name), QString::fromStdString(value));
    }
    return params.isEmpty() ? key : QStringLiteral("%1 (%2)").arg(key, params.join(QStringLiteral(", ")));
}

QString commitmentText(const core::PlanMode* mode, core::Currency currency)
{
    if (!mode || !mode->commitment) {
        return {};
    }
    return Reasons::tr("%1 over %2")
        .arg(formatMoney(mode->commitment->amount, QString::fromLatin1(core::currencyCode(currency))),
             formatMonths(mode->commitment->months));
}

QString planModeText(const core::PlanOption& option, const core::PlanMode& mode)
{
    if (mode.managedOffer.empty()) {
        return pricingModeText(mode.mode);
    }
    return Reasons::tr("managed job on %1, %2").arg(managedServiceName(option.provider), pricingModeText(mode.mode));
}

QString pricingModeText(core::PricingMode mode)
{
    return pricingModeText(QString::fromLatin1(core::pricingModeName(mode)));
}

QString pricingModeUnitText(core::PricingMode mode)
{
    switch (mode) {
        case core::PricingMode::OnDemand:
            return CatalogModes::tr("on-demand, per hour");
        case core::PricingMode::Spot:
            return CatalogModes::tr("spot, per hour");
        case core::PricingMode::Reserved1Year:
            return CatalogModes::tr("1-year reserved, per hour");
        case core::PricingMode::Reserved3Year:
            return CatalogModes::tr("3-year reserved, per hour");
        case core::PricingMode::SubscriptionMonthly:
            return CatalogModes::tr("monthly subscription, per month");
        case core::PricingMode::SubscriptionYearly:
            return CatalogModes::tr("yearly subscription, per month");
    }
    return {};
}

QString pricingModeText(const QString& mode)
{
    static const std::map<QString, const char*> names{
        {QStringLiteral("on_demand"), QT_TRANSLATE_NOOP("Reasons", "on-demand")},
        {QStringLiteral("spot"), QT_TRANSLATE_NOOP("Reasons", "spot")},
        {QStringLiteral("reserved_1y"), QT_TRANSLATE_NOOP("Reasons", "reserved 1 year")},
        {QStringLiteral("reserved_3y"), QT_TRANSLATE_NOOP("Reasons", "reserved 3 years")},
        {QStringLiteral("subscription_monthly"), QT_TRANSLATE_NOOP("Reasons", "monthly subscription")},
        {QStringLiteral("subscription_yearly"), QT_TRANSLATE_NOOP("Reasons", "yearly subscription")}};
    const auto it = names.find(mode);
    return it == names.end() ? mode : Reasons::tr(it->second);
}

QString providerText(const std::string& name, const std::string& nameZh)
{
    return QString::fromStdString(currentLanguage() == QLatin1String("zh_CN") && !nameZh.empty() ? nameZh : name);
}

QString providerText(const core::PlanOption& option)
{
    return providerText(option.providerName, option.providerNameZh);
}

QString workloadNameText(const core::PlanWorkload& workload)
{
    return QString::fromStdString(
        currentLanguage() == QLatin1String("zh_CN") && !workload.nameZh.empty() ? workload.nameZh : workload.name);
}

QString taskText(const QString& task)
{
    static const std::map<QString, const char*> names{
        {QStringLiteral("vision"), QT_TRANSLATE_NOOP("PlanText", "Image classification")},
        {QStringLiteral("detection"), QT_TRANSLATE_NOOP("PlanText", "Object detection")},
        {QStringLiteral("detection3d"), QT_TRANSLATE_NOOP("PlanText", "3D detection")},
        {QStringLiteral("nlp"), QT_TRANSLATE_NOOP("PlanText", "NLP (encoders)")},
        {QStringLiteral("llm"), QT_TRANSLATE_NOOP("PlanText", "Large language models")},
    };
    auto it = names.find(task);
    return it == names.end() ? task : QCoreApplication::translate("PlanText", it->second);
}

QString stackText(const QString& stack)
{
    static const std::map<QString, const char*> names{
        {QStringLiteral("tuned"),
         QT_TRANSLATE_NOOP("PlanText", "tuned (MLPerf/NGC-grade code: DALI, fused kernels, CUDA graphs)")},
        {QStringLiteral("typical"),
         QT_TRANSLATE_NOOP("PlanText", "typical (framework defaults with mixed precision and a good data loader)")},
        {QStringLiteral("plain"), QT_TRANSLATE_NOOP("PlanText", "plain (eager code, default data loading)")},
    };
    auto it = names.find(stack);
    return it == names.end() ? stack : QCoreApplication::translate("PlanText", it->second);
}

QString limiterText(const QString& limiter)
{
    static const std::map<QString, const char*> names{
        {QStringLiteral("compute"), QT_TRANSLATE_NOOP("PlanText", "compute")},
        {QStringLiteral("memory_bandwidth"), QT_TRANSLATE_NOOP("PlanText", "memory bandwidth")},
        {QStringLiteral("host"), QT_TRANSLATE_NOOP("PlanText", "what the software stack can feed the GPU")},
        {QStringLiteral("input_pipeline"), QT_TRANSLATE_NOOP("PlanText", "image decoding on the vCPUs")},
        {QStringLiteral("communication"), QT_TRANSLATE_NOOP("PlanText", "communication between GPUs")},
    };
    auto it = names.find(limiter);
    return it == names.end() ? limiter : QCoreApplication::translate("PlanText", it->second);
}

QString throughputUnitText(const QString& unit)
{
    if (unit == QLatin1String("samples/s")) {
        return Reasons::tr("samples/s");
    }
    if (unit == QLatin1String("tokens/s")) {
        return Reasons::tr("tokens/s");
    }
    return unit;
}

QString priceUnitText(core::PriceUnit unit)
{
    switch (unit) {
        case core::PriceUnit::Hour:
            return Reasons::tr("hour");
        case core::PriceUnit::Month:
            return Reasons::tr("month");
    }
    return {};
}

} // namespace gpuplan::ui
