// The verdict's health reasons worded for the UI: ECC and memory health, temperature, power, the PCIe link,
// clock throttling and the burn-in.
#include "wording/verdict/VerdictTextParts.h"

namespace gpuplan::ui::verdicttext {

// ---- health -------------------------------------------------------------------------------------------------

QString memoryHealthText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.ecc.unknown")) {
        return VerdictText::tr("The GPU reports no ECC state (GeForce cards have no ECC).");
    }
    if (key == QLatin1String("probe.ecc.uncorrectable")) {
        return p.has("volatile_uncorrected")
                   ? VerdictText::tr("This GPU had %1 uncorrectable ECC error(s) since the driver loaded: its memory "
                                     "is faulty and programs on it can crash or compute garbage. Terminate the "
                                     "instance and report the GPU.")
                         .arg(p.text("volatile_uncorrected"))
                   : QString();
    }
    if (key == QLatin1String("probe.ecc.off")) {
        return VerdictText::tr("ECC is off on this GPU: memory errors go unnoticed and cannot be counted.");
    }
    if (key == QLatin1String("probe.ecc.history")) {
        return p.has("aggregate_uncorrected")
                   ? VerdictText::tr("This GPU has had %1 uncorrectable ECC error(s) in its lifetime, none since the "
                                     "driver loaded.")
                         .arg(p.text("aggregate_uncorrected"))
                   : QString();
    }
    if (key == QLatin1String("probe.ecc.ok")) {
        return VerdictText::tr("No uncorrectable ECC errors.");
    }
    if (key == QLatin1String("probe.retired_pages.pending")) {
        return VerdictText::tr("This GPU has memory pages waiting to be retired: it needs a reset before its memory "
                               "can be trusted. Terminate the instance or ask the provider to reset the GPU.");
    }
    if (key == QLatin1String("probe.retired_pages.ok")) {
        return VerdictText::tr("No page retirement is pending.");
    }
    if (key == QLatin1String("probe.remapped_rows.failure")) {
        return VerdictText::tr("This GPU ran out of spare memory rows (row remapping failed): its memory is faulty. "
                               "Terminate the instance and report the GPU.");
    }
    if (key == QLatin1String("probe.remapped_rows.pending")) {
        return VerdictText::tr("This GPU has a row remap pending: it needs a reset before its memory can be trusted. "
                               "Terminate the instance or ask the provider to reset the GPU.");
    }
    if (key == QLatin1String("probe.remapped_rows.ok")) {
        return VerdictText::tr("No row remap is pending or failed.");
    }
    return {};
}

QString temperatureText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.temperature.unknown")) {
        return VerdictText::tr("The temperature under load or the slowdown threshold was not reported.");
    }
    if (!p.all({"celsius", "slowdown"})) {
        return {};
    }
    if (key == QLatin1String("probe.temperature.slowdown")) {
        return VerdictText::tr("This GPU reached %1 °C under load, at or above its %2 °C slowdown threshold: it "
                               "slows itself down. The cooling of this host is failing; terminate the instance or "
                               "take it up with the provider.")
            .arg(p.text("celsius"), p.text("slowdown"));
    }
    if (key == QLatin1String("probe.temperature.ok")) {
        return VerdictText::tr("The GPU stayed at %1 °C under load, below its %2 °C slowdown threshold.")
            .arg(p.text("celsius"), p.text("slowdown"));
    }
    return {};
}

QString powerText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.power.quick")) {
        return VerdictText::tr("Power is judged only in the full run: the quick run's GEMMs are too short for the GPU "
                               "to reach its power limit.");
    }
    if (key == QLatin1String("probe.power.unknown")) {
        return VerdictText::tr("The power under load or the enforced limit was not reported.");
    }
    if (!p.all({"watts", "limit", "ratio"})) {
        return {};
    }
    if (key == QLatin1String("probe.power.ok")) {
        return VerdictText::tr("Under load the GPU drew %1 W, %2 of its enforced %3 W limit.")
            .arg(p.figure("watts"), p.fixed("ratio", 2), p.figure("limit"));
    }
    if (key == QLatin1String("probe.power.low")) {
        return VerdictText::tr("Under load the GPU drew only %1 W, %2 of its enforced %3 W limit (a healthy GPU under "
                               "a GEMM draws at least 0.75 of it): it is held back by power delivery, clocks or "
                               "another tenant.")
            .arg(p.figure("watts"), p.fixed("ratio", 2), p.figure("limit"));
    }
    return {};
}

QString pcieText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.pcie.unknown")) {
        return VerdictText::tr("The PCIe link under load was not reported.");
    }
    if (!p.all({"gen", "width", "gen_max", "width_max"})) {
        return {};
    }
    if (key == QLatin1String("probe.pcie.ok")) {
        return VerdictText::tr("The PCIe link ran at its full Gen%1 x%2 under load.")
            .arg(p.text("gen_max"), p.text("width_max"));
    }
    if (key == QLatin1String("probe.pcie.degraded")) {
        return VerdictText::tr("The PCIe link of this GPU ran at Gen%1 x%2 under load, below its Gen%3 x%4: "
                               "host-device copies are slower. On bare metal this is a badly seated card or riser; "
                               "take it up with the provider.")
            .arg(p.text("gen"), p.text("width"), p.text("gen_max"), p.text("width_max"));
    }
    if (key == QLatin1String("probe.pcie.degraded_vm")) {
        return VerdictText::tr("The PCIe link of this GPU ran at Gen%1 x%2 under load, below its Gen%3 x%4: "
                               "host-device copies are slower. Inside a VM the reported link often is not the "
                               "physical one, so this is only a warning.")
            .arg(p.text("gen"), p.text("width"), p.text("gen_max"), p.text("width_max"));
    }
    return {};
}

namespace {

/// "the GEMM tests" or "the burn-in", by the phase Verdict.cpp names.
QString phaseText(const Args& p)
{
    return p.text("phase") == QLatin1String("burn") ? VerdictText::tr("the burn-in")
                                                    : VerdictText::tr("the GEMM tests");
}

/// A share 0..1 as whole percent.
QString percentText(const Args& p, const char* name)
{
    const std::optional<double> value = p.number(name);
    return value ? formatNumber(*value * 100, 0) : p.text(name);
}

QString throttleShareText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.throttle.no_samples")) {
        return VerdictText::tr("NVML gave no clock readings while the GPU was busy during %1; not judged.")
            .arg(phaseText(p));
    }
    if (!p.all({"samples", "share"})) {
        return {};
    }
    if (key == QLatin1String("probe.throttle.hardware_sustained")) {
        return VerdictText::tr("This GPU was slowed down by hardware (%1) in %2 % of the busy samples of %3: "
                               "overheating, a power supply fault or a power brake. It will not run at its speed; "
                               "terminate the instance or take it up with the provider.")
            .arg(p.text("reason"), percentText(p, "share"), phaseText(p));
    }
    if (key == QLatin1String("probe.throttle.hardware_brief")) {
        return VerdictText::tr("This GPU was briefly slowed down by hardware (%1, %2 % of the busy samples of %3); "
                               "watch its speed during training.")
            .arg(p.text("reason"), percentText(p, "share"), phaseText(p));
    }
    if (key == QLatin1String("probe.throttle.thermal_sustained")) {
        return VerdictText::tr("The driver slowed this GPU down because it ran hot (sw_thermal) in %1 % of the busy "
                               "samples of %2.")
            .arg(percentText(p, "share"), phaseText(p));
    }
    if (key == QLatin1String("probe.throttle.ok_shares")) {
        return VerdictText::tr("No harmful clock throttling in %1 busy samples of %2.")
            .arg(p.text("samples"), phaseText(p));
    }
    return {};
}

} // namespace

QString throttleText(const QString& key, const Args& p)
{
    if (key != QLatin1String("probe.throttle.hardware") && key != QLatin1String("probe.throttle.thermal")
        && key != QLatin1String("probe.throttle.ok")) {
        return throttleShareText(key, p);
    }
    if (key == QLatin1String("probe.throttle.hardware")) {
        // "reasons" lists every reason NVML gave; the sentence names the hardware ones, as judgeThrottle() does.
        QStringList hard;
        for (const QString& why : p.text("reasons").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (why == QLatin1String("hw_slowdown") || why == QLatin1String("hw_thermal")
                || why == QLatin1String("hw_power_brake")) {
                hard << why;
            }
        }
        return hard.isEmpty() ? QString()
                              : VerdictText::tr("This GPU was slowed down by hardware during the GEMM test (%1): "
                                                "overheating, a power supply fault or a power brake. It will not run "
                                                "at its speed; terminate the instance or take it up with the "
                                                "provider.")
                                    .arg(hard.join(QStringLiteral(", ")));
    }
    if (key == QLatin1String("probe.throttle.thermal")) {
        return VerdictText::tr("The driver slowed this GPU down because it ran hot (sw_thermal) during the GEMM test.");
    }
    if (key == QLatin1String("probe.throttle.ok")) {
        return VerdictText::tr("No harmful clock throttling during the GEMM test.");
    }
    return {};
}

QString burnText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.burn.wrong_results")) {
        return p.all({"wrong", "nan", "gemms"})
                   ? VerdictText::tr("Under sustained load this GPU computed %1 wrong result(s) and %2 NaN(s) in %3 "
                                     "GEMMs of the same inputs: it fails when it runs hot or long. Do not train on "
                                     "it; terminate the instance and report the GPU.")
                         .arg(p.text("wrong"), p.text("nan"), p.text("gemms"))
                   : QString();
    }
    if (key == QLatin1String("probe.burn.xid")) {
        return p.all({"xid", "xids"}) ? VerdictText::tr("The driver reported %1 critical Xid error(s) (%2) on this GPU "
                                                        "during the burn-in: the GPU or its driver faulted. Terminate "
                                                        "the instance and report the GPU.")
                                            .arg(p.text("xid"), p.text("xids"))
                                      : QString();
    }
    if (key == QLatin1String("probe.burn.ok")) {
        return p.all({"gemms", "seconds"}) ? VerdictText::tr("This GPU ran %1 GEMMs in %2 s of sustained load with "
                                                             "identical results every time.")
                                                 .arg(p.text("gemms"), p.fixed("seconds", 0))
                                           : QString();
    }
    if (!p.all({"first", "last", "ratio"})) {
        return {};
    }
    if (key == QLatin1String("probe.burn.steady")) {
        return VerdictText::tr("This GPU held its speed under sustained load (%1 -> %2 TFLOPS, %3).")
            .arg(p.figure("first"), p.figure("last"), p.fixed("ratio", 2));
    }
    if (key == QLatin1String("probe.burn.sags")) {
        return VerdictText::tr("This GPU slowed down under sustained load, from %1 to %2 TFLOPS (%3): it cannot hold "
                               "its clocks (cooling or power).")
            .arg(p.figure("first"), p.figure("last"), p.fixed("ratio", 2));
    }
    if (key == QLatin1String("probe.burn.slowdown")) {
        return VerdictText::tr("This GPU slowed down under sustained load, from %1 to %2 TFLOPS (%3): it cannot hold "
                               "its clocks (cooling or power); a long training run on it will be much slower than "
                               "planned.")
            .arg(p.figure("first"), p.figure("last"), p.fixed("ratio", 2));
    }
    return {};
}

} // namespace gpuplan::ui::verdicttext
