// The verdict's reasons about the measured speeds worded for the UI: compute, memory and host copies against
// the datasheet, peer copies and NCCL.
#include "wording/verdict/VerdictTextParts.h"

#include "gpuplan/probe/Checks.h"

namespace gpuplan::ui::verdicttext {

// ---- measurements -------------------------------------------------------------------------------------------

namespace {

/// A threshold row of core/probe/verdict (cuda_probe.md section 5) by its id ("sxm_hbm"). A rule saved in English
/// by an older version (a plan's verification) shows as it was saved.
QString ruleText(const QString& rule)
{
    static const std::map<QString, const char*> rules{
        {QStringLiteral("power_capped"), QT_TRANSLATE_NOOP("VerdictText", "70-75 W (power-capped)")},
        {QStringLiteral("geforce"), QT_TRANSLATE_NOOP("VerdictText", "GeForce, against the FP32-accumulate peak")},
        {QStringLiteral("v100"), QT_TRANSLATE_NOOP("VerdictText", "V100")},
        {QStringLiteral("pcie_hbm"), QT_TRANSLATE_NOOP("VerdictText", "PCIe HBM")},
        {QStringLiteral("sxm_hbm"), QT_TRANSLATE_NOOP("VerdictText", "SXM HBM")},
        {QStringLiteral("gddr"), QT_TRANSLATE_NOOP("VerdictText", "GDDR >= 150 W")},
        {QStringLiteral("tf32_gemm"), QT_TRANSLATE_NOOP("VerdictText", "TF32 GEMM, sm_80+")},
        {QStringLiteral("fp8_gemm"), QT_TRANSLATE_NOOP("VerdictText", "FP8 GEMM, sm_89/sm_90/sm_100")},
        {QStringLiteral("dram_hbm"), QT_TRANSLATE_NOOP("VerdictText", "DRAM copy/triad, HBM")},
        {QStringLiteral("dram_gddr"), QT_TRANSLATE_NOOP("VerdictText", "DRAM copy/triad, GDDR")},
        {QStringLiteral("pinned_link"),
         QT_TRANSLATE_NOOP("VerdictText", "H2D/D2H pinned, against the negotiated link")},
        {QStringLiteral("p2p_nvlink"), QT_TRANSLATE_NOOP("VerdictText", "P2P over NVLink, per direction")},
        {QStringLiteral("p2p_pcie"), QT_TRANSLATE_NOOP("VerdictText", "P2P over PCIe, against the negotiated link")},
    };
    const auto it = rules.find(rule);
    return it == rules.end() ? rule : VerdictText::tr(it->second);
}

/// The measurement's share of its peak, to two decimals. The "ratio" parameter is
/// already rounded to three, and rounding it again can differ (0.4548 -> 0.455 -> 0.46), so it is worked out anew.
QString shareText(const Args& p)
{
    const std::optional<double> value = p.number("value");
    const std::optional<double> peak = p.number("peak");
    return value && peak && *peak > 0 ? formatNumber(*value / *peak, 2) : p.fixed("ratio", 2);
}

bool isLinkTest(const QString& test)
{
    const std::optional<core::Check> check = core::checkByKey(test.toStdString());
    return check == core::Check::H2dPinned || check == core::Check::D2hPinned;
}

/// The share the measurement is judged by, with its verdict ("probe.measurement.ok", ".low", ".slow").
QString judgedMeasurementText(const QString& key, const Args& p, const QString& what)
{
    if (!p.all({"value", "unit", "peak", "ratio", "pass", "fail", "rule"})) {
        return {};
    }
    // A host copy is a share of the PCIe link it ran on (its generation and width, pcie_gen and pcie_width, are
    // on the "pcie" line too).
    const QString peak = isLinkTest(p.text("test"))
                             ? VerdictText::tr("the %1 GB/s of its PCIe link").arg(p.figure("peak"))
                             : VerdictText::tr("the %1 %2 datasheet peak").arg(p.figure("peak"), p.text("unit"));
    const QString value = p.figure("value");
    const QString ratio = shareText(p);
    const QString rule = ruleText(p.text("rule"));
    if (key == QLatin1String("probe.measurement.ok")) {
        return VerdictText::tr("The %1 test reached %2 %3, %4 of %5 (healthy from %6 for %7).")
            .arg(what, value, p.text("unit"), ratio, peak, p.fixed("pass", 2), rule);
    }
    if (key == QLatin1String("probe.measurement.slow")) {
        return VerdictText::tr("The %1 test reached %2 %3, %4 of %5, under the failing %6 for %7: it is much slower "
                               "than it should be (throttled, shared or faulty).")
            .arg(what, value, p.text("unit"), ratio, peak, p.fixed("fail", 2), rule);
    }
    if (key == QLatin1String("probe.measurement.low")) {
        return VerdictText::tr("The %1 test reached %2 %3, %4 of %5, below the healthy %6 for %7 but above the "
                               "failing %8.")
            .arg(what, value, p.text("unit"), ratio, peak, p.fixed("pass", 2), rule, p.fixed("fail", 2));
    }
    return {};
}

} // namespace

QString measurementText(const QString& key, const Args& p)
{
    if (!p.has("test")) {
        return {};
    }
    const QString what = testText(p.text("test"));
    if (key == QLatin1String("probe.measurement.skipped")) {
        return VerdictText::tr("The %1 test did not run: %2.")
            .arg(what, p.has("why") ? p.text("why") : VerdictText::tr("no figure"));
    }
    if (key == QLatin1String("probe.measurement.no_value")) {
        return VerdictText::tr("The %1 test gave no finite figure; not judged.").arg(what);
    }
    if (key == QLatin1String("probe.measurement.unknown_test")) {
        return VerdictText::tr("The probe reported a test this GPU Planner does not know (%1); not judged.")
            .arg(p.text("test"));
    }
    if (key == QLatin1String("probe.measurement.informational")) {
        return p.all({"value", "unit", "reference", "ratio"})
                   ? VerdictText::tr("The %1 test reached %2 %3, %4 of cuBLASLt's %5 TFLOPS on this GPU; shown for "
                                     "information, not judged.")
                         .arg(what, p.figure("value"), p.text("unit"), p.fixed("ratio", 2), p.figure("reference"))
                   : QString();
    }
    if (key == QLatin1String("probe.measurement.informational_alone")) {
        return p.all({"value", "unit"}) ? VerdictText::tr("The %1 test reached %2 %3; there is no cuBLASLt figure on "
                                                          "this GPU to compare it with, and it is shown for "
                                                          "information, not judged.")
                                              .arg(what, p.figure("value"), p.text("unit"))
                                        : QString();
    }
    if (key == QLatin1String("probe.measurement.mig")) {
        return VerdictText::tr("The %1 test ran on a MIG slice; its share of the whole GPU's peak is not judged.")
            .arg(what);
    }
    if (!p.all({"value", "unit"})) {
        return {};
    }
    const QString unit = p.text("unit");
    if (key == QLatin1String("probe.measurement.unit")) {
        // Verdict.cpp expects TFLOPS or GB/s and writes this line when the unit is the other one (expected_unit).
        const QString tflops = QStringLiteral("TFLOPS");
        const QString gbs = QStringLiteral("GB/s");
        if (unit == tflops || unit == gbs) {
            return VerdictText::tr("The %1 test reported %2 where %3 was expected; not judged.")
                .arg(what, unit, unit == tflops ? gbs : tflops);
        }
        return VerdictText::tr("The %1 test reported %2, not the unit expected for it; not judged.").arg(what, unit);
    }
    const QString value = p.figure("value");
    if (key == QLatin1String("probe.measurement.no_link")) {
        return VerdictText::tr("The %1 test reached %2 %3; the PCIe link it ran on is not known, so it is not judged.")
            .arg(what, value, unit);
    }
    if (key == QLatin1String("probe.measurement.no_peak")) {
        return p.has("gpu") ? VerdictText::tr("The %1 test reached %2 %3; the catalog has no datasheet peak for it on "
                                              "the %4, so its share is unknown and it is not judged.")
                                  .arg(what, value, unit, p.text("gpu"))
                            : QString();
    }
    if (key == QLatin1String("probe.measurement.no_threshold")) {
        return p.all({"peak", "ratio"}) ? VerdictText::tr("The %1 test reached %2 %3, %4 of the %5 %3 datasheet peak; "
                                                          "no healthy range is published for it, so it is not judged.")
                                              .arg(what, value, unit, shareText(p), p.figure("peak"))
                                        : QString();
    }
    return judgedMeasurementText(key, p, what);
}

QString peerText(const QString& key, const Args& p)
{
    if (!p.all({"peer", "value"})) {
        return {};
    }
    if (key == QLatin1String("probe.p2p.no_nvlink")) {
        return p.text("link") == QLatin1String("staged")
                   ? VerdictText::tr("This GPU reaches GPU %1 through the host (no peer access), not over the NVLink "
                                     "its model has: multi-GPU training will be slower. Check `nvidia-smi topo -m`.")
                         .arg(p.text("peer"))
                   : VerdictText::tr("This GPU reaches GPU %1 over PCIe, not over the NVLink its model has: multi-GPU "
                                     "training will be slower. Check `nvidia-smi topo -m`.")
                         .arg(p.text("peer"));
    }
    if (key == QLatin1String("probe.p2p.no_link")) {
        return VerdictText::tr("Copies to GPU %1 reached %2 GB/s; the link they ran on is not known, so they are not "
                               "judged.")
            .arg(p.text("peer"), p.figure("value"));
    }
    if (!p.all({"peak", "ratio"})) {
        return {};
    }
    const QString link = p.text("link") == QLatin1String("nvlink") ? VerdictText::tr("NVLink, per direction")
                                                                   : VerdictText::tr("the PCIe link");
    if (key == QLatin1String("probe.p2p.ok")) {
        return VerdictText::tr("Copies from this GPU to GPU %1 reached %2 GB/s, %3 of %4 GB/s (%5).")
            .arg(p.text("peer"), p.figure("value"), p.fixed("ratio", 2), p.figure("peak"), link);
    }
    if (key == QLatin1String("probe.p2p.low")) {
        return VerdictText::tr("Copies from this GPU to GPU %1 reached %2 GB/s, %3 of %4 GB/s (%5): slower than a "
                               "healthy link.")
            .arg(p.text("peer"), p.figure("value"), p.fixed("ratio", 2), p.figure("peak"), link);
    }
    if (key == QLatin1String("probe.p2p.slow")) {
        return VerdictText::tr("Copies from this GPU to GPU %1 reached %2 GB/s, %3 of %4 GB/s (%5): far slower than "
                               "the link allows.")
            .arg(p.text("peer"), p.figure("value"), p.fixed("ratio", 2), p.figure("peak"), link);
    }
    return {};
}

QString ncclText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.nccl.skipped")) {
        return VerdictText::tr("The NCCL all-reduce test did not run: %1.")
            .arg(p.has("why") ? p.text("why") : VerdictText::tr("no figure"));
    }
    if (!p.has("value")) {
        return {};
    }
    if (key == QLatin1String("probe.nccl.no_link")) {
        return VerdictText::tr("NCCL's all-reduce reached a bus bandwidth of %1 GB/s; the link between the GPUs is not "
                               "known, so it is not judged.")
            .arg(p.figure("value"));
    }
    if (!p.all({"peak", "ratio"})) {
        return {};
    }
    const QString link =
        p.text("link") == QLatin1String("nvlink") ? VerdictText::tr("NVLink") : VerdictText::tr("the PCIe link");
    QString head = VerdictText::tr("NCCL's all-reduce reached a bus bandwidth of %1 GB/s, %2 of the %3 GB/s per "
                                   "direction of %4")
                       .arg(p.figure("value"), p.fixed("ratio", 2), p.figure("peak"), link);
    if (key == QLatin1String("probe.nccl.ok")) {
        return VerdictText::tr("%1.").arg(head);
    }
    if (key == QLatin1String("probe.nccl.low")) {
        return VerdictText::tr("%1: slower than a healthy machine.").arg(head);
    }
    if (key == QLatin1String("probe.nccl.slow")) {
        return VerdictText::tr("%1: multi-GPU training will be held back by communication.").arg(head);
    }
    return {};
}

} // namespace gpuplan::ui::verdicttext
