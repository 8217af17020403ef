#include "wording/VerdictText.h"

#include "wording/verdict/VerdictTextParts.h"

#include "gpuplan/probe/Checks.h"

#include <algorithm>
#include <iterator>

namespace gpuplan::ui {

namespace verdicttext {

namespace {

/// How a check is worded: its name in tables (the Verify page, the report) and, for a test, how the reasons'
/// sentences call it ("The memory triad test reached ..."); nullptr where a sentence uses the key.
struct CheckWording
{
    core::Check check;
    const char* name;
    const char* inSentence;
};

// One entry per check of the catalogue (core/probe/Checks.h); TestVerifyGui holds it complete.
const CheckWording kCheckWordings[] = {
    {core::Check::Model, QT_TRANSLATE_NOOP("VerdictText", "GPU model"), nullptr},
    {core::Check::GpuCount, QT_TRANSLATE_NOOP("VerdictText", "GPU count"), nullptr},
    {core::Check::Memory, QT_TRANSLATE_NOOP("VerdictText", "GPU memory"), nullptr},
    {core::Check::Driver, QT_TRANSLATE_NOOP("VerdictText", "NVIDIA driver"), nullptr},
    {core::Check::Nvml, QT_TRANSLATE_NOOP("VerdictText", "NVML"), nullptr},
    {core::Check::Mig, QT_TRANSLATE_NOOP("VerdictText", "MIG mode"), nullptr},
    {core::Check::ProbeError, QT_TRANSLATE_NOOP("VerdictText", "probe error"), nullptr},
    {core::Check::ProbeIncomplete, QT_TRANSLATE_NOOP("VerdictText", "probe incomplete"), nullptr},
    {core::Check::GpuError, QT_TRANSLATE_NOOP("VerdictText", "GPU error"), nullptr},
    {core::Check::Correctness, QT_TRANSLATE_NOOP("VerdictText", "GEMM correctness"), nullptr},
    {core::Check::Fp32Fma,
     QT_TRANSLATE_NOOP("VerdictText", "FP32 FMA peak"),
     QT_TRANSLATE_NOOP("VerdictText", "FP32 FMA")},
    {core::Check::GemmFp16,
     QT_TRANSLATE_NOOP("VerdictText", "FP16 GEMM (cuBLASLt)"),
     QT_TRANSLATE_NOOP("VerdictText", "FP16 tensor GEMM")},
    {core::Check::GemmBf16,
     QT_TRANSLATE_NOOP("VerdictText", "BF16 GEMM (cuBLASLt)"),
     QT_TRANSLATE_NOOP("VerdictText", "BF16 tensor GEMM")},
    {core::Check::GemmTf32,
     QT_TRANSLATE_NOOP("VerdictText", "TF32 GEMM (cuBLASLt)"),
     QT_TRANSLATE_NOOP("VerdictText", "TF32 tensor GEMM")},
    {core::Check::GemmFp8,
     QT_TRANSLATE_NOOP("VerdictText", "FP8 GEMM (cuBLASLt)"),
     QT_TRANSLATE_NOOP("VerdictText", "FP8 tensor GEMM")},
    {core::Check::WmmaFp16,
     QT_TRANSLATE_NOOP("VerdictText", "FP16 tensor cores (own kernel)"),
     QT_TRANSLATE_NOOP("VerdictText", "FP16 WMMA kernel")},
    {core::Check::GemmOwnFp16, QT_TRANSLATE_NOOP("VerdictText", "FP16 GEMM (own kernel, for information)"), nullptr},
    {core::Check::GemmOwnBf16, QT_TRANSLATE_NOOP("VerdictText", "BF16 GEMM (own kernel, for information)"), nullptr},
    {core::Check::DramCopy,
     QT_TRANSLATE_NOOP("VerdictText", "memory bandwidth (copy)"),
     QT_TRANSLATE_NOOP("VerdictText", "memory copy")},
    {core::Check::DramTriad,
     QT_TRANSLATE_NOOP("VerdictText", "memory bandwidth (triad)"),
     QT_TRANSLATE_NOOP("VerdictText", "memory triad")},
    {core::Check::H2dPinned,
     QT_TRANSLATE_NOOP("VerdictText", "host to GPU (pinned)"),
     QT_TRANSLATE_NOOP("VerdictText", "host-to-device copy")},
    {core::Check::D2hPinned,
     QT_TRANSLATE_NOOP("VerdictText", "GPU to host (pinned)"),
     QT_TRANSLATE_NOOP("VerdictText", "device-to-host copy")},
    {core::Check::P2p,
     QT_TRANSLATE_NOOP("VerdictText", "GPU to GPU (peer)"),
     QT_TRANSLATE_NOOP("VerdictText", "peer-to-peer copy")},
    {core::Check::NcclAllreduce, QT_TRANSLATE_NOOP("VerdictText", "NCCL all-reduce"), nullptr},
    {core::Check::Ecc, QT_TRANSLATE_NOOP("VerdictText", "ECC errors"), nullptr},
    {core::Check::RetiredPages, QT_TRANSLATE_NOOP("VerdictText", "retired pages"), nullptr},
    {core::Check::RemappedRows, QT_TRANSLATE_NOOP("VerdictText", "remapped rows"), nullptr},
    {core::Check::Temperature, QT_TRANSLATE_NOOP("VerdictText", "temperature"), nullptr},
    {core::Check::Power, QT_TRANSLATE_NOOP("VerdictText", "power limit"), nullptr},
    {core::Check::Pcie, QT_TRANSLATE_NOOP("VerdictText", "PCIe link"), nullptr},
    {core::Check::Throttle, QT_TRANSLATE_NOOP("VerdictText", "throttling"), nullptr},
    {core::Check::BurnErrors, QT_TRANSLATE_NOOP("VerdictText", "burn-in: results"), nullptr},
    {core::Check::BurnSpeed, QT_TRANSLATE_NOOP("VerdictText", "burn-in: speed"), nullptr},
    {core::Check::BurnThrottle, QT_TRANSLATE_NOOP("VerdictText", "burn-in: throttling"), nullptr},
};

const CheckWording* wordingOf(const QString& key)
{
    const std::optional<core::Check> check = core::checkByKey(key.toStdString());
    for (const CheckWording& wording : kCheckWordings) {
        if (check == wording.check) {
            return &wording;
        }
    }
    return nullptr;
}

} // namespace

/// "a; b; c" in the UI's language: the faults of a GEMM check, the refusals of the bundled probes.
QString clauses(const QStringList& items)
{
    QString text;
    for (const QString& item : items) {
        text = text.isEmpty() ? item : VerdictText::tr("%1; %2").arg(text, item);
    }
    return text;
}

QString testText(const QString& test)
{
    const CheckWording* wording = wordingOf(test);
    return wording && wording->inSentence ? VerdictText::tr(wording->inSentence) : test;
}

} // namespace verdicttext

using namespace verdicttext;

namespace {

QString probeText(const QString& key, const Args& p)
{
    using Wording = QString (*)(const QString&, const Args&);
    // By the key's second part: "probe.ecc.off" -> "ecc".
    static const std::map<QString, Wording> byGroup{{QStringLiteral("driver"), driverText},
                                                    {QStringLiteral("error"), errorText},
                                                    {QStringLiteral("incomplete"), errorText},
                                                    {QStringLiteral("gpu_error"), errorText},
                                                    {QStringLiteral("gpu_count"), inventoryText},
                                                    {QStringLiteral("model"), inventoryText},
                                                    {QStringLiteral("memory"), memoryText},
                                                    {QStringLiteral("correctness"), correctnessText},
                                                    {QStringLiteral("measurement"), measurementText},
                                                    {QStringLiteral("ecc"), memoryHealthText},
                                                    {QStringLiteral("retired_pages"), memoryHealthText},
                                                    {QStringLiteral("remapped_rows"), memoryHealthText},
                                                    {QStringLiteral("temperature"), temperatureText},
                                                    {QStringLiteral("power"), powerText},
                                                    {QStringLiteral("pcie"), pcieText},
                                                    {QStringLiteral("throttle"), throttleText},
                                                    {QStringLiteral("p2p"), peerText},
                                                    {QStringLiteral("nccl"), ncclText},
                                                    {QStringLiteral("burn"), burnText}};
    if (key == QLatin1String("probe.mig.on")) {
        return VerdictText::tr("MIG is on for this GPU: it is split into slices, each with a share of the GPU, so its "
                               "speed cannot be compared with the whole GPU's datasheet.");
    }
    const auto it = byGroup.find(key.section(QLatin1Char('.'), 1, 1));
    return it == byGroup.end() ? QString() : it->second(key, p);
}

} // namespace

QString checkName(const QString& check)
{
    const CheckWording* wording = wordingOf(check);
    return wording ? VerdictText::tr(wording->name) : check;
}

QString verdictReasonText(const QString& key, const std::map<std::string, std::string>& params)
{
    const Args p(params);
    if (key.startsWith(QLatin1String("probe."))) {
        return probeText(key, p);
    }
    if (key.startsWith(QLatin1String("deploy."))) {
        return deployText(key, p);
    }
    return {};
}

namespace {

/// The figures that are a fixed phrase ("figure.not_reported" -> "not reported").
struct FixedFigure
{
    const char* key;
    const char* text;
};

const FixedFigure kFixedFigures[] = {
    {"figure.on", QT_TRANSLATE_NOOP("VerdictText", "on")},
    {"figure.off", QT_TRANSLATE_NOOP("VerdictText", "off")},
    {"figure.unknown", QT_TRANSLATE_NOOP("VerdictText", "unknown")},
    {"figure.no_driver", QT_TRANSLATE_NOOP("VerdictText", "no driver")},
    {"figure.a_share", QT_TRANSLATE_NOOP("VerdictText", "a share")},
    {"figure.nvml_unavailable", QT_TRANSLATE_NOOP("VerdictText", "NVML unavailable")},
    {"figure.nvml_library", QT_TRANSLATE_NOOP("VerdictText", "NVML (libnvidia-ml.so.1)")},
    {"figure.no_gpus", QT_TRANSLATE_NOOP("VerdictText", "0 GPUs")},
    {"figure.a_cuda_gpu", QT_TRANSLATE_NOOP("VerdictText", "a CUDA GPU")},
    {"figure.no_error", QT_TRANSLATE_NOOP("VerdictText", "no error")},
    {"figure.measured", QT_TRANSLATE_NOOP("VerdictText", "measured")},
    {"figure.not_measured", QT_TRANSLATE_NOOP("VerdictText", "not measured")},
    {"figure.ok", QT_TRANSLATE_NOOP("VerdictText", "ok")},
    {"figure.skipped", QT_TRANSLATE_NOOP("VerdictText", "skipped")},
    {"figure.no_figure", QT_TRANSLATE_NOOP("VerdictText", "no figure")},
    {"figure.informational", QT_TRANSLATE_NOOP("VerdictText", "informational")},
    {"figure.burn_clean", QT_TRANSLATE_NOOP("VerdictText", "0 wrong, 0 NaN")},
    {"figure.no_xid", QT_TRANSLATE_NOOP("VerdictText", "no Xid")},
    {"figure.burn_clean_no_xid", QT_TRANSLATE_NOOP("VerdictText", "0 wrong, 0 NaN, no Xid")},
    {"figure.not_reported", QT_TRANSLATE_NOOP("VerdictText", "not reported")},
    {"figure.zero_uncorrectable", QT_TRANSLATE_NOOP("VerdictText", "0 uncorrectable")},
    {"figure.zero_volatile_uncorrectable", QT_TRANSLATE_NOOP("VerdictText", "0 volatile uncorrectable")},
    {"figure.zero_aggregate_uncorrectable", QT_TRANSLATE_NOOP("VerdictText", "0 aggregate uncorrectable")},
    {"figure.ecc_on", QT_TRANSLATE_NOOP("VerdictText", "ECC on")},
    {"figure.none_pending", QT_TRANSLATE_NOOP("VerdictText", "none pending")},
    {"figure.no_remap_failure", QT_TRANSLATE_NOOP("VerdictText", "no failure, none pending")},
    {"figure.full_run", QT_TRANSLATE_NOOP("VerdictText", "full run")},
    {"figure.no_busy_samples", QT_TRANSLATE_NOOP("VerdictText", "no busy samples")},
    {"figure.no_throttle", QT_TRANSLATE_NOOP("VerdictText", "no hw_slowdown, hw_thermal, hw_power_brake, sw_thermal")},
};

/// A number with its unit: "312 TFLOPS"; a bare number without one.
QString valueText(const Args& p, const char* value, const char* unit)
{
    return p.has(unit) ? VerdictText::tr("%1 %2").arg(p.figure(value), p.text(unit)) : p.figure(value);
}

/// "a, b, c" in the UI's language.
QString listed(const QStringList& items)
{
    QString text;
    for (const QString& item : items) {
        text = text.isEmpty() ? item : VerdictText::tr("%1, %2").arg(text, item);
    }
    return text;
}

/// The figures of the identity checks and the probe's run: driver, model, memory, GPUs.
QString identityFigure(const QString& key, const Args& p)
{
    if (key == QLatin1String("figure.probe_ok")) {
        return VerdictText::tr("ok: %1").arg(p.text("ok"));
    }
    if (key == QLatin1String("figure.driver_needed")) {
        return p.has("driver") ? VerdictText::tr("CUDA >= %1 (driver >= %2)").arg(p.text("cuda"), p.text("driver"))
                               : VerdictText::tr("CUDA >= %1 (driver >= a driver for CUDA %1)").arg(p.text("cuda"));
    }
    if (key == QLatin1String("figure.driver")) {
        return p.has("driver") ? VerdictText::tr("%1 (CUDA %2)").arg(p.text("driver"), p.text("cuda"))
                               : VerdictText::tr("unknown (CUDA %1)").arg(p.text("cuda"));
    }
    if (key == QLatin1String("figure.count")) {
        return p.text("count");
    }
    if (key == QLatin1String("figure.name_as")) {
        return VerdictText::tr("%1 (%2)").arg(p.text("name"), p.text("as"));
    }
    if (key == QLatin1String("figure.memory")) {
        return VerdictText::tr("%1 GiB (%2 MiB)").arg(p.fixed("gib", 1), p.text("mib"));
    }
    if (key == QLatin1String("figure.gpus_of")) {
        return VerdictText::tr("%1 x %2").arg(p.text("count"), p.text("gpu"));
    }
    if (key == QLatin1String("figure.correctness")) {
        const QString repeat = p.text("repeat_identical") == QLatin1String("true") ? VerdictText::tr("repeat identical")
                                                                                   : VerdictText::tr("repeat differs");
        return VerdictText::tr("%1, NaN %2, max rel. error %3")
            .arg(repeat,
                 p.text("nan_count"),
                 p.has("max_relative_error") ? p.figure("max_relative_error") : VerdictText::tr("not finite"));
    }
    if (key == QLatin1String("figure.correctness_expected")) {
        return VerdictText::tr("repeat identical, NaN 0, max rel. error <= %1").arg(p.figure("tolerance"));
    }
    return {};
}

/// The figures of the speed tests: a share of a datasheet peak, a copy to another GPU, the burn-in's speed.
QString speedFigure(const QString& key, const Args& p)
{
    if (key == QLatin1String("figure.share")) {
        return VerdictText::tr("%1 %2 (%3 of %4)")
            .arg(p.figure("value"), p.text("unit"), p.fixed("ratio", 2), p.figure("peak"));
    }
    if (key == QLatin1String("figure.peak")) {
        return VerdictText::tr("peak %1 %2").arg(p.figure("peak"), p.text("unit"));
    }
    if (key == QLatin1String("figure.share_threshold")) {
        return VerdictText::tr(">= %1 of %2 %3 (fail < %4)")
            .arg(p.fixed("pass", 2), p.figure("peak"), p.text("unit"), p.fixed("fail", 2));
    }
    if (key == QLatin1String("figure.share_of_cublaslt")) {
        return VerdictText::tr("%1 %2 (%3 of cuBLASLt)").arg(p.figure("value"), p.text("unit"), p.fixed("ratio", 2));
    }
    if (key == QLatin1String("figure.to_peer")) {
        const QString toPeer =
            p.has("link") ? VerdictText::tr("%1 %2 to GPU %3 (%4)")
                                .arg(p.figure("value"), p.text("unit"), p.text("peer"), p.text("link"))
                          : VerdictText::tr("%1 %2 to GPU %3").arg(p.figure("value"), p.text("unit"), p.text("peer"));
        return p.all({"ratio", "peak"})
                   ? VerdictText::tr("%1 (%2 of %3)").arg(toPeer, p.fixed("ratio", 2), p.figure("peak"))
                   : toPeer;
    }
    if (key == QLatin1String("figure.burn")) {
        return VerdictText::tr("%1 GEMMs in %2 s, %3 wrong, %4 NaN, Xid %5")
            .arg(p.text("gemms"),
                 p.fixed("seconds", 0),
                 p.text("wrong"),
                 p.text("nan"),
                 p.has("xid") ? p.text("xid") : VerdictText::tr("n/a"));
    }
    if (key == QLatin1String("figure.burn_speed")) {
        return VerdictText::tr("%1 -> %2 TFLOPS (%3)").arg(p.figure("first"), p.figure("last"), p.fixed("ratio", 2));
    }
    if (key == QLatin1String("figure.ratio_threshold")) {
        return VerdictText::tr(">= %1 (fail < %2)").arg(p.fixed("pass", 2), p.fixed("fail", 2));
    }
    return {};
}

/// The figures of the health checks: memory health, temperature, power, PCIe, throttling.
QString healthFigure(const QString& key, const Args& p, const ParamMap& params)
{
    if (key == QLatin1String("figure.ecc")) {
        return VerdictText::tr("%1, volatile uncorrectable %2, aggregate uncorrectable %3")
            .arg(p.text("enabled") == QLatin1String("true") ? VerdictText::tr("on") : VerdictText::tr("off"),
                 p.text("volatile_uncorrected"),
                 p.text("aggregate_uncorrected"));
    }
    if (key == QLatin1String("figure.retired_pages")) {
        return p.number("pending").value_or(0) > 0
                   ? VerdictText::tr("%1 retired, retirement pending").arg(p.text("count"))
                   : VerdictText::tr("%1 retired, none pending").arg(p.text("count"));
    }
    if (key == QLatin1String("figure.remapped_rows")) {
        QString text =
            VerdictText::tr("%1 correctable, %2 uncorrectable").arg(p.text("correctable"), p.text("uncorrectable"));
        if (p.text("pending") == QLatin1String("true")) {
            text = VerdictText::tr("%1, remap pending").arg(text);
        }
        if (p.text("failure") == QLatin1String("true")) {
            text = VerdictText::tr("%1, remap failed").arg(text);
        }
        return text;
    }
    if (key == QLatin1String("figure.below")) {
        return VerdictText::tr("< %1 %2").arg(p.figure("value"), p.text("unit"));
    }
    if (key == QLatin1String("figure.below_slowdown")) {
        return VerdictText::tr("< %1 C (slowdown)").arg(p.text("celsius"));
    }
    if (key == QLatin1String("figure.at_least")) {
        return VerdictText::tr(">= %1 %2").arg(p.figure("value"), p.text("unit"));
    }
    if (key == QLatin1String("figure.power")) {
        return VerdictText::tr("%1 W (%2 of %3 W)").arg(p.figure("watts"), p.fixed("ratio", 2), p.figure("limit"));
    }
    if (key == QLatin1String("figure.power_expected")) {
        return VerdictText::tr(">= %1 x %2 W").arg(p.fixed("share", 2), p.figure("limit"));
    }
    if (key == QLatin1String("figure.pcie")) {
        return VerdictText::tr("Gen%1 x%2").arg(p.text("gen"), p.text("width"));
    }
    if (key == QLatin1String("figure.throttle_shares")) {
        // Each reason's share as "share.<reason>", in the order of the reasons' names.
        QStringList shares;
        for (const auto& [name, value] : params) {
            if (name.starts_with("share.")) {
                const Args one({{"share", value}});
                const std::optional<double> share = one.number("share");
                shares << VerdictText::tr("%1 %2 %").arg(QString::fromStdString(name.substr(6)),
                                                         share ? formatNumber(*share * 100, 0) : one.text("share"));
            }
        }
        return shares.isEmpty() ? VerdictText::tr("none") : listed(shares);
    }
    if (key == QLatin1String("figure.throttle_expected")) {
        const std::optional<double> share = p.number("share");
        return VerdictText::tr("hw_slowdown, hw_thermal, hw_power_brake < %1 % of %2 busy samples")
            .arg(share ? formatNumber(*share * 100, 0) : p.text("share"), p.text("samples"));
    }
    if (key == QLatin1String("figure.throttle_reasons")) {
        const QStringList reasons = p.text("reasons").split(QLatin1Char(','), Qt::SkipEmptyParts);
        return reasons.isEmpty() ? VerdictText::tr("none") : listed(reasons);
    }
    return {};
}

} // namespace

QString figureText(const core::Reason& figure)
{
    if (figure.key.empty()) {
        return QString(QLatin1String(""));
    }
    const Args p(figure.params);
    if (figure.key == "saved.text") {
        return p.text("text"); // as an older plan saved it
    }
    const QString key = QString::fromStdString(figure.key);
    if (key == QLatin1String("figure.value")) {
        return valueText(p, "value", "unit");
    }
    if (key == QLatin1String("figure.text")) {
        return p.text("text");
    }
    const auto fixedFigure = std::find_if(
        std::begin(kFixedFigures), std::end(kFixedFigures), [&](const FixedFigure& f) { return figure.key == f.key; });
    if (fixedFigure != std::end(kFixedFigures)) {
        return VerdictText::tr(fixedFigure->text);
    }
    QString text = identityFigure(key, p);
    if (text.isNull()) {
        text = speedFigure(key, p);
    }
    if (text.isNull()) {
        text = healthFigure(key, p, figure.params);
    }
    if (!text.isNull()) {
        return text;
    }
    // A figure this version does not word: its key and parameters, never nothing.
    QStringList params;
    for (const auto& [name, value] : figure.params) {
        params << QStringLiteral("%1=%2").arg(QString::fromStdString(name), QString::fromStdString(value));
    }
    return params.isEmpty() ? key : QStringLiteral("%1 (%2)").arg(key, params.join(QStringLiteral(", ")));
}

} // namespace gpuplan::ui
