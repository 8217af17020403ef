#include "VerdictText.h"

#include <cmath>
#include <initializer_list>
#include <optional>

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>
#include <QStringList>

#include "Format.h"
#include "gpuplan/deploy/DeployStrategy.h"

namespace gpuplan::ui {

namespace {

/// The translation context of the verdict's and the deployment's sentences.
class VerdictText
{
    Q_DECLARE_TR_FUNCTIONS(VerdictText)
};

using ParamMap = std::map<std::string, std::string>;

/// A reason's parameters as core/probe/Verdict.cpp sets them: text, and numbers as reasonNumber() writes them.
class Args
{
public:
    explicit Args(const ParamMap& params)
        : m_params(params)
    { }

    QString text(const char* name) const
    {
        const auto it = m_params.find(name);
        return it == m_params.end() ? QString() : QString::fromStdString(it->second);
    }
    bool has(const char* name) const { return !text(name).isEmpty(); }
    /// Every one of `names` is set: the wording needs them all, else the English text says it better.
    bool all(std::initializer_list<const char*> names) const
    {
        for (const char* name : names) {
            if (!has(name)) {
                return false;
            }
        }
        return true;
    }
    std::optional<double> number(const char* name) const
    {
        bool ok = false;
        const double value = text(name).toDouble(&ok);
        return ok && std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
    }
    /// reasonNumber() keeps ten significant digits; the English text rounds as these do, so the UI does too.
    /// Anything that does not read as a number is shown as it is.
    QString fixed(const char* name, int decimals) const
    {
        const std::optional<double> value = number(name);
        return value ? formatNumber(*value, decimals) : text(name);
    }
    /// Four significant digits, as Verdict.cpp's figure() (312, 989.5, 0.0001), with the locale's separators.
    QString figure(const char* name) const
    {
        const std::optional<double> value = number(name);
        return value ? QLocale().toString(*value, 'g', 4) : text(name);
    }

private:
    const ParamMap& m_params;
};

/// "a; b; c" in the UI's language: the faults of a GEMM check, the refusals of the bundled probes.
QString clauses(const QStringList& items)
{
    QString text;
    for (const QString& item : items) {
        text = text.isEmpty() ? item : VerdictText::tr("%1; %2").arg(text, item);
    }
    return text;
}

// ---- driver and the probe's own errors ----------------------------------------------------------------------

/// A driver version, or empty where the probe could not read it (Verdict.cpp then writes "unknown").
QString driverVersion(const Args& p)
{
    const QString driver = p.text("driver");
    return driver == QLatin1String("unknown") ? QString() : driver;
}

QString driverText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.driver.missing")) {
        if (!p.has("cuda11_min_driver")) {
            return {};
        }
        return VerdictText::tr("No NVIDIA driver was found on the instance (libcuda.so.1 could not be loaded). "
                               "Install the NVIDIA driver, or launch an image that has it (the provider's GPU "
                               "image): 580 or newer runs either build of the probe, %1 or newer runs its CUDA 11.8 "
                               "build.")
            .arg(p.text("cuda11_min_driver"));
    }
    const QString driver = driverVersion(p);
    if (key == QLatin1String("probe.driver.ok")) {
        if (!p.all({"driver_cuda", "build_cuda"})) {
            return {};
        }
        return driver.isEmpty()
                   ? VerdictText::tr("The driver (CUDA %1) is new enough for this probe build (CUDA %2).")
                         .arg(p.text("driver_cuda"), p.text("build_cuda"))
                   : VerdictText::tr("The driver %1 (CUDA %2) is new enough for this probe build (CUDA %3).")
                         .arg(driver, p.text("driver_cuda"), p.text("build_cuda"));
    }
    // "too_old": the probe's CUDA 11.8 build still runs there; "too_old_for_any_build": no build does.
    const bool olderBuildRuns = key == QLatin1String("probe.driver.too_old");
    if (!olderBuildRuns && key != QLatin1String("probe.driver.too_old_for_any_build")) {
        return {};
    }
    // build_min_driver is a version where Verdict.cpp knows the floor, else English words ("a driver for CUDA
    // 14.0"): leave that case to the English text.
    const QString neededDriver = p.text("build_min_driver");
    if (!p.all({"driver_cuda", "build_cuda", "cuda11_min_driver"}) || neededDriver.isEmpty()
        || !neededDriver.front().isDigit()) {
        return {};
    }
    if (olderBuildRuns) {
        return driver.isEmpty()
                   ? VerdictText::tr("The driver supports CUDA up to %1, older than this probe build's CUDA %2, "
                                     "which needs driver %3 or newer. The CUDA 11.8 build of the probe runs on "
                                     "drivers from %4 on (and on V100); the deploy step picks that build when the "
                                     "remote driver is older than R580, so deploy the probe again and let it "
                                     "choose, or update the driver to 580 or newer.")
                         .arg(p.text("driver_cuda"), p.text("build_cuda"), neededDriver, p.text("cuda11_min_driver"))
                   : VerdictText::tr("The driver %1 supports CUDA up to %2, older than this probe build's CUDA %3, "
                                     "which needs driver %4 or newer. The CUDA 11.8 build of the probe runs on "
                                     "drivers from %5 on (and on V100); the deploy step picks that build when the "
                                     "remote driver is older than R580, so deploy the probe again and let it "
                                     "choose, or update the driver to 580 or newer.")
                         .arg(driver,
                              p.text("driver_cuda"),
                              p.text("build_cuda"),
                              neededDriver,
                              p.text("cuda11_min_driver"));
    }
    return driver.isEmpty()
               ? VerdictText::tr("The driver supports CUDA up to %1, older than this probe build's CUDA %2, which "
                                 "needs driver %3 or newer. No older build of the probe exists: update the driver "
                                 "to %4 or newer (the provider's current GPU image has one).")
                     .arg(p.text("driver_cuda"), p.text("build_cuda"), neededDriver, p.text("cuda11_min_driver"))
               : VerdictText::tr("The driver %1 supports CUDA up to %2, older than this probe build's CUDA %3, "
                                 "which needs driver %4 or newer. No older build of the probe exists: update the "
                                 "driver to %5 or newer (the provider's current GPU image has one).")
                     .arg(driver,
                          p.text("driver_cuda"),
                          p.text("build_cuda"),
                          neededDriver,
                          p.text("cuda11_min_driver"));
}

QString errorText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.error.nvml_unavailable")) {
        const QString head =
            VerdictText::tr("NVML (libnvidia-ml.so.1) could not be used, so the GPU names, memory health, "
                            "temperature, power and PCIe link could not be read; the speed tests still ran. The "
                            "driver's NVML library is missing (a partial driver install, or a container without the "
                            "driver's utilities).");
        return p.has("message") ? VerdictText::tr("%1 The probe said: %2").arg(head, p.text("message")) : head;
    }
    if (key == QLatin1String("probe.error.no_device")) {
        if (!p.all({"count", "gpu"})) {
            return {};
        }
        return VerdictText::tr("The probe found no CUDA GPU on the instance, but the offer promised %1 × %2. Check "
                               "that `nvidia-smi` lists the GPUs and that CUDA_VISIBLE_DEVICES does not hide them; "
                               "if the provider attached none, terminate the instance so that it stops costing "
                               "money, and take it up with the provider.")
            .arg(p.text("count"), p.text("gpu"));
    }
    if (key == QLatin1String("probe.error.no_device_unpromised")) {
        return VerdictText::tr("The probe found no CUDA GPU on the instance. Check that `nvidia-smi` lists the GPUs "
                               "and that CUDA_VISIBLE_DEVICES does not hide them; if the provider attached none, "
                               "terminate the instance so that it stops costing money, and take it up with the "
                               "provider.");
    }
    if (key == QLatin1String("probe.error.bad_arguments")) {
        return VerdictText::tr("The probe refused the command line GPU Planner gave it (%1). This is a GPU Planner "
                               "bug; please report it with this message.")
            .arg(p.text("message"));
    }
    if (key == QLatin1String("probe.error.internal")) {
        return VerdictText::tr("The probe failed (%1): %2. Run it again; if it fails the same way, report it with the "
                               "probe's output.")
            .arg(p.text("code"), p.text("message"));
    }
    if (key == QLatin1String("probe.error.system_not_ready")) {
        return VerdictText::tr("The GPUs are there but not ready (%1): on machines whose GPUs are joined by NVSwitch "
                               "the fabric manager must run before CUDA can use them. Start it (`sudo systemctl start "
                               "nvidia-fabricmanager`; its version must match the driver's) and verify again; if it "
                               "will not start, take it up with the provider.")
            .arg(p.text("message"));
    }
    if (key == QLatin1String("probe.error.devices_unavailable")) {
        return VerdictText::tr("The GPUs are there but busy or closed to new programs (%1): another process holds "
                               "them in exclusive mode, or the compute mode prohibits use. See `nvidia-smi` for the "
                               "processes and the compute mode, stop what holds them and verify again.")
            .arg(p.text("message"));
    }
    if (key == QLatin1String("probe.error.timeout") || key == QLatin1String("probe.error.interrupted")
        || key == QLatin1String("probe.error.crashed")) {
        QString where;
        if (p.has("gpu") && p.has("stage")) {
            where = VerdictText::tr(" on GPU %1 in %2").arg(p.text("gpu"), p.text("stage"));
        } else if (p.has("gpu")) {
            where = VerdictText::tr(" on GPU %1").arg(p.text("gpu"));
        } else if (p.has("stage")) {
            where = VerdictText::tr(" in %1").arg(p.text("stage"));
        }
        if (key == QLatin1String("probe.error.timeout")) {
            return VerdictText::tr("The probe stopped waiting%1: a GPU or driver call hung. A GPU that hangs is not "
                                   "usable; the results measured before are below. Run the probe again; if it hangs "
                                   "again, terminate the instance.")
                .arg(where);
        }
        if (key == QLatin1String("probe.error.interrupted")) {
            return VerdictText::tr("The probe was stopped%1 (a signal: the connection closed, or someone stopped it); "
                                   "the results measured before are below. Run it again.")
                .arg(where);
        }
        return VerdictText::tr("The probe crashed%1; the results measured before are below. Run it again; if it "
                               "crashes the same way, report it with the probe's output.")
            .arg(where);
    }
    if (key == QLatin1String("probe.incomplete")) {
        return VerdictText::tr("The probe says not every GPU could be measured but gives no reason; run it again.");
    }
    if (key.startsWith(QLatin1String("probe.gpu_error."))) {
        const QString code = key.section(QLatin1Char('.'), 2);
        const QString head =
            VerdictText::tr("This GPU could not be measured (%1): %2.").arg(p.text("code"), p.text("message"));
        QString advice;
        if (code == QLatin1String("own_kernel")) {
            advice = VerdictText::tr("It failed in the probe's own GEMM kernel, which is still experimental: more "
                                     "likely a GPU Planner bug than a faulty GPU. The tests before it are judged as "
                                     "usual; the ones after it did not run. Please report it with the probe's "
                                     "output.");
        } else if (code == QLatin1String("ecc_uncorrectable")) {
            advice = VerdictText::tr("Its memory had an uncorrectable error during the tests: do not train on it; "
                                     "terminate the instance and report the GPU to the provider.");
        } else if (code == QLatin1String("gpu_fault")) {
            advice = VerdictText::tr("The GPU faulted while running the probe's own kernels (an Xid error is likely in "
                                     "the kernel log, `dmesg`): do not train on it; terminate the instance and report "
                                     "the GPU.");
        } else if (code == QLatin1String("out_of_memory")) {
            advice = VerdictText::tr("There was not enough free GPU memory: another process holds it (see "
                                     "`nvidia-smi`). Stop it and verify again.");
        } else if (code == QLatin1String("no_kernel_image")) {
            advice = VerdictText::tr("This probe build holds no code this GPU can run. Deploy the probe again and let "
                                     "GPU Planner build it there; report the GPU's name if that fails too.");
        } else if (code == QLatin1String("system_not_ready")) {
            advice = VerdictText::tr("The GPU is not ready: on NVSwitch machines the fabric manager must run (`sudo "
                                     "systemctl start nvidia-fabricmanager`). Start it and verify again.");
        } else if (code == QLatin1String("devices_unavailable")) {
            advice = VerdictText::tr("The GPU is busy or closed to new programs (exclusive or prohibited compute mode, "
                                     "see `nvidia-smi`). Free it and verify again.");
        } else if (code == QLatin1String("nvlink_error")) {
            advice = VerdictText::tr("An NVLink between the GPUs had an uncorrectable error: multi-GPU training would "
                                     "fail or corrupt data. Terminate the instance and report it to the provider.");
        } else if (code == QLatin1String("timeout")) {
            advice = VerdictText::tr("It hung: a GPU that hangs is not usable. Run the probe again; if it hangs again, "
                                     "terminate the instance.");
        } else if (code == QLatin1String("interrupted")) {
            advice = VerdictText::tr("The probe was stopped before it finished with this GPU; run it again.");
        } else if (code == QLatin1String("crashed")) {
            advice = VerdictText::tr("The probe crashed while measuring it; run it again, and report it if it crashes "
                                     "again.");
        } else {
            return {};
        }
        return VerdictText::tr("%1 %2").arg(head, advice);
    }
    if (key == QLatin1String("probe.gpu_error")) {
        return VerdictText::tr("This GPU could not be measured (%1): %2. A GPU that fails its tests is not usable; "
                               "run the probe again, and if it fails the same way terminate the instance.")
            .arg(p.text("code"), p.text("message"));
    }
    return {};
}

// ---- inventory ----------------------------------------------------------------------------------------------

QString inventoryText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.gpu_count.missing")) {
        return p.all({"count", "promised"})
                   ? VerdictText::tr("The probe found %1 GPU(s); the offer promised %2. You pay for GPUs that are "
                                     "not there.")
                         .arg(p.text("count"), p.text("promised"))
                   : QString();
    }
    if (key == QLatin1String("probe.gpu_count.extra")) {
        return p.all({"count", "promised"}) ? VerdictText::tr("The probe found %1 GPUs, more than the %2 promised: "
                                                              "check that this is the instance type you launched.")
                                                  .arg(p.text("count"), p.text("promised"))
                                            : QString();
    }
    if (key == QLatin1String("probe.gpu_count.ok")) {
        return p.has("promised") ? VerdictText::tr("The probe found the %1 promised GPU(s).").arg(p.text("promised"))
                                 : QString();
    }
    // The model lines carry catalog ids ("h100-sxm5-80gb"), not the catalog names the English text uses.
    if (key == QLatin1String("probe.model.unknown_promise")) {
        return p.has("promised") ? VerdictText::tr("The promised GPU '%1' is not in the GPU catalog, so the probe's "
                                                   "GPU cannot be checked against it.")
                                       .arg(p.text("promised"))
                                 : QString();
    }
    if (!p.all({"name", "promised"})) {
        return {};
    }
    if (key == QLatin1String("probe.model.ok")) {
        return VerdictText::tr("%1 is the promised GPU (%2).").arg(p.text("name"), p.text("promised"));
    }
    if (key == QLatin1String("probe.model.mismatch")) {
        return p.has("found") ? VerdictText::tr("This GPU reports itself as %1 (%2 in the catalog), not the promised "
                                                "%3: you are not getting what you pay for. Terminate the instance or "
                                                "take it up with the provider.")
                                    .arg(p.text("name"), p.text("found"), p.text("promised"))
                              : QString();
    }
    if (key == QLatin1String("probe.model.unconfirmed")) {
        return VerdictText::tr("%1 is not a name the catalog knows; it looks like a variant of the promised %2 but "
                               "that cannot be confirmed.")
            .arg(p.text("name"), p.text("promised"));
    }
    if (key == QLatin1String("probe.model.unknown")) {
        return VerdictText::tr("%1 is not a GPU the catalog knows, and not the promised %2.")
            .arg(p.text("name"), p.text("promised"));
    }
    return {};
}

QString memoryText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.memory.mig_slice")) {
        return p.has("mib") ? VerdictText::tr("This is a MIG slice with a share of the GPU's memory (%1 MiB); not "
                                              "compared with the whole GPU's.")
                                  .arg(p.text("mib"))
                            : QString();
    }
    if (key == QLatin1String("probe.memory.unknown")) {
        return VerdictText::tr("No memory size was promised to compare with.");
    }
    if (!p.all({"gib", "promised_gb"})) {
        return {};
    }
    if (key == QLatin1String("probe.memory.ok")) {
        return VerdictText::tr("This GPU has %1 GiB, as promised (%2 GB).")
            .arg(p.fixed("gib", 1), p.figure("promised_gb"));
    }
    if (key == QLatin1String("probe.memory.short")) {
        return VerdictText::tr("This GPU has only %1 GiB; the offer promised %2 GB per GPU.")
            .arg(p.fixed("gib", 1), p.figure("promised_gb"));
    }
    return {};
}

// ---- correctness --------------------------------------------------------------------------------------------

QString correctnessText(const QString& key, const Args& p)
{
    if (key == QLatin1String("probe.correctness.unknown")) {
        return VerdictText::tr("The probe did not report the GEMM check.");
    }
    if (key == QLatin1String("probe.correctness.ok")) {
        return VerdictText::tr("The GEMM results are right and repeat exactly.");
    }
    if (key != QLatin1String("probe.correctness.failed")
        || !p.all({"repeat_identical", "nan_count", "max_relative_error", "tolerance"})) {
        return {};
    }
    // The faults, as judgeCorrectness() lists them.
    QStringList faults;
    if (p.text("repeat_identical") != QLatin1String("true")) {
        faults << VerdictText::tr("the same GEMM twice gave different bits");
    }
    if (p.text("nan_count").toLongLong() > 0) {
        faults << VerdictText::tr("%1 NaN results").arg(p.text("nan_count"));
    }
    const std::optional<double> error = p.number("max_relative_error");
    const std::optional<double> tolerance = p.number("tolerance");
    if (!error) {
        faults << VerdictText::tr("the relative error against the FP32 reference is not a finite number");
    } else if (tolerance && *error > *tolerance) {
        faults << VerdictText::tr("relative error %1 against the FP32 reference, over the %2 allowed")
                      .arg(p.figure("max_relative_error"), p.figure("tolerance"));
    }
    if (faults.isEmpty()) {
        faults << VerdictText::tr("the probe marked the check failed");
    }
    const QString list = clauses(faults);
    return p.has("uuid") ? VerdictText::tr("This GPU computes wrong results: %1. A GPU that gives wrong results fails "
                                           "whatever its speed: do not train on it; terminate the instance and report "
                                           "the GPU (%2) to the provider.")
                               .arg(list, p.text("uuid"))
                         : VerdictText::tr("This GPU computes wrong results: %1. A GPU that gives wrong results fails "
                                           "whatever its speed: do not train on it; terminate the instance and report "
                                           "the GPU to the provider.")
                               .arg(list);
}

// ---- measurements -------------------------------------------------------------------------------------------

/// A test by name, as Verdict.cpp's label() calls it; a test it does not know by its id.
QString testText(const QString& test)
{
    static const std::map<QString, const char*> labels{
        {QStringLiteral("fp32_fma"), QT_TRANSLATE_NOOP("VerdictText", "FP32 FMA")},
        {QStringLiteral("gemm_fp16"), QT_TRANSLATE_NOOP("VerdictText", "FP16 tensor GEMM")},
        {QStringLiteral("gemm_bf16"), QT_TRANSLATE_NOOP("VerdictText", "BF16 tensor GEMM")},
        {QStringLiteral("gemm_tf32"), QT_TRANSLATE_NOOP("VerdictText", "TF32 tensor GEMM")},
        {QStringLiteral("gemm_fp8"), QT_TRANSLATE_NOOP("VerdictText", "FP8 tensor GEMM")},
        {QStringLiteral("wmma_fp16"), QT_TRANSLATE_NOOP("VerdictText", "FP16 WMMA kernel")},
        {QStringLiteral("dram_copy"), QT_TRANSLATE_NOOP("VerdictText", "memory copy")},
        {QStringLiteral("dram_triad"), QT_TRANSLATE_NOOP("VerdictText", "memory triad")},
        {QStringLiteral("h2d_pinned"), QT_TRANSLATE_NOOP("VerdictText", "host-to-device copy")},
        {QStringLiteral("d2h_pinned"), QT_TRANSLATE_NOOP("VerdictText", "device-to-host copy")},
        {QStringLiteral("p2p"), QT_TRANSLATE_NOOP("VerdictText", "peer-to-peer copy")},
    };
    const auto it = labels.find(test);
    return it == labels.end() ? test : VerdictText::tr(it->second);
}

/// A threshold row of Verdict.cpp (cuda_probe.md section 5); the rows that are only names ("V100", "SXM HBM")
/// read the same in every language.
QString ruleText(const QString& rule)
{
    static const std::map<QString, const char*> rules{
        {QStringLiteral("70-75 W (power-capped)"), QT_TRANSLATE_NOOP("VerdictText", "70-75 W (power-capped)")},
        {QStringLiteral("GeForce, against the FP32-accumulate peak"),
         QT_TRANSLATE_NOOP("VerdictText", "GeForce, against the FP32-accumulate peak")},
        {QStringLiteral("GDDR >= 150 W"), QT_TRANSLATE_NOOP("VerdictText", "GDDR >= 150 W")},
        {QStringLiteral("DRAM copy/triad, HBM"), QT_TRANSLATE_NOOP("VerdictText", "DRAM copy/triad, HBM")},
        {QStringLiteral("DRAM copy/triad, GDDR"), QT_TRANSLATE_NOOP("VerdictText", "DRAM copy/triad, GDDR")},
        {QStringLiteral("H2D/D2H pinned, against the negotiated link"),
         QT_TRANSLATE_NOOP("VerdictText", "H2D/D2H pinned, against the negotiated link")},
    };
    const auto it = rules.find(rule);
    return it == rules.end() ? rule : VerdictText::tr(it->second);
}

/// The measurement's share of its peak, to two decimals as the English text has it. The "ratio" parameter is
/// already rounded to three, and rounding it again can differ (0.4548 -> 0.455 -> 0.46), so it is worked out anew.
QString shareText(const Args& p)
{
    const std::optional<double> value = p.number("value");
    const std::optional<double> peak = p.number("peak");
    return value && peak && *peak > 0 ? formatNumber(*value / *peak, 2) : p.fixed("ratio", 2);
}

bool isLinkTest(const QString& test)
{
    return test == QLatin1String("h2d_pinned") || test == QLatin1String("d2h_pinned");
}

/// The share the measurement is judged by, with its verdict ("probe.measurement.ok", ".low", ".slow").
QString judgedMeasurementText(const QString& key, const Args& p, const QString& what)
{
    if (!p.all({"value", "unit", "peak", "ratio", "pass", "fail", "rule"})) {
        return {};
    }
    // A host copy is a share of the PCIe link it ran on; Verdict.cpp names that link's generation and width,
    // which are not among the parameters (the "pcie" line shows them).
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

QString measurementText(const QString& key, const Args& p)
{
    if (!p.has("test")) {
        return {};
    }
    const QString what = testText(p.text("test"));
    if (key == QLatin1String("probe.measurement.skipped")) {
        return p.has("why") ? VerdictText::tr("The %1 test did not run: %2.").arg(what, p.text("why")) : QString();
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
        // Verdict.cpp expects TFLOPS or GB/s and writes this line when the unit is the other one; the expected
        // unit is not a parameter, but it follows from the reported one.
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

QString throttleShareText(const QString& key, const Args& p);

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
        return p.has("why") ? VerdictText::tr("The NCCL all-reduce test did not run: %1.").arg(p.text("why"))
                            : QString();
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

// ---- deployment ---------------------------------------------------------------------------------------------

/// One refusal of chooseDeployment() ("cuda13 needs driver 580.65.06"), or empty when it reads otherwise.
QString refusalText(const QString& refusal)
{
    static const QRegularExpression driver(QStringLiteral("^(\\S+) needs driver (\\S+)$"));
    static const QRegularExpression architecture(QStringLiteral("^(\\S+) starts at sm_(\\S+)$"));
    static const QRegularExpression glibc(QStringLiteral("^(\\S+) needs glibc (\\S+) and this system has (\\S+)$"));
    if (const QRegularExpressionMatch m = driver.match(refusal); m.hasMatch()) {
        return VerdictText::tr("%1 needs driver %2").arg(m.captured(1), m.captured(2));
    }
    if (const QRegularExpressionMatch m = architecture.match(refusal); m.hasMatch()) {
        return VerdictText::tr("%1 starts at sm_%2").arg(m.captured(1), m.captured(2));
    }
    if (const QRegularExpressionMatch m = glibc.match(refusal); m.hasMatch()) {
        return VerdictText::tr("%1 needs glibc %2 and this system has %3")
            .arg(m.captured(1), m.captured(2), m.captured(3));
    }
    return {};
}

/// chooseDeployment()'s "because": why no bundled probe runs. Core passes it as English words, so it is read back
/// here by its three shapes; anything else is empty, and the caller shows the English text.
QString becauseText(const QString& because)
{
    static const QString architecture = QStringLiteral("the bundled probes are built for x86_64 and this machine is ");
    static const QString noneBundled = QStringLiteral("this GPU Planner has no bundled probe");
    static const QString noneRuns = QStringLiteral("no bundled probe runs here (");
    if (because.startsWith(architecture) && because.size() > architecture.size()) {
        return VerdictText::tr("the bundled probes are built for x86_64 and this machine is %1")
            .arg(because.mid(architecture.size()));
    }
    if (because == noneBundled) {
        return VerdictText::tr("this GPU Planner has no bundled probe");
    }
    if (!because.startsWith(noneRuns) || !because.endsWith(QLatin1Char(')'))) {
        return {};
    }
    QStringList refusals;
    const QString list = because.mid(noneRuns.size(), because.size() - noneRuns.size() - 1);
    for (const QString& refusal : list.split(QStringLiteral("; "))) {
        const QString text = refusalText(refusal);
        if (text.isEmpty()) {
            return {};
        }
        refusals << text;
    }
    return VerdictText::tr("no bundled probe runs here (%1)").arg(clauses(refusals));
}

/// The deployment's reasons are clauses ("the cuda13 probe runs on driver 580.82.07"): the CLI puts them after
/// "The probe did not run: ", so they start in lower case.
QString deployText(const QString& key, const Args& p)
{
    const QString minimumCuda = QString::fromLatin1(core::kProbeMinimumCuda);
    if (key == QLatin1String("deploy.no_gpu")) {
        return VerdictText::tr("this machine has no NVIDIA GPU");
    }
    if (key == QLatin1String("deploy.no_driver")) {
        return VerdictText::tr("an NVIDIA GPU is installed but no driver answers (nvidia-smi is missing or fails): "
                               "install the driver first");
    }
    if (key == QLatin1String("deploy.architecture")) {
        return p.has("machine")
                   ? VerdictText::tr("the bundled probes are built for x86_64 and this machine is %1, with "
                                     "neither nvcc %2 or newer nor Docker with the NVIDIA runtime to build "
                                     "the probe there")
                         .arg(p.text("machine"), minimumCuda)
                   : QString();
    }
    if (key == QLatin1String("deploy.prebuilt")) {
        // The English text adds when the newest GPU runs the build's PTX; which GPU is not a parameter.
        return p.all({"build", "driver"})
                   ? VerdictText::tr("the %1 probe runs on driver %2").arg(p.text("build"), p.text("driver"))
                   : QString();
    }
    if (key == QLatin1String("deploy.driver_too_old")) {
        // The English text lists each build's driver floor; those are not parameters.
        return p.has("driver") ? VerdictText::tr("driver %1 is too old for the bundled probes, and the machine has "
                                                 "neither nvcc %2 or newer nor Docker with the NVIDIA runtime: update "
                                                 "the driver (GPU Planner can run its driver set-up script) and verify "
                                                 "again")
                                     .arg(p.text("driver"), minimumCuda)
                               : QString();
    }
    const QString because = becauseText(p.text("because"));
    if (because.isEmpty()) {
        return {};
    }
    if (key == QLatin1String("deploy.build_remote")) {
        return p.has("nvcc") ? VerdictText::tr("%1; building it there with nvcc %2").arg(because, p.text("nvcc"))
                             : QString();
    }
    if (key == QLatin1String("deploy.container")) {
        return p.has("image") ? VerdictText::tr("%1; building and running it in %2 (Docker with the NVIDIA runtime)")
                                    .arg(because, p.text("image"))
                              : QString();
    }
    if (key == QLatin1String("deploy.cannot_run")) {
        return VerdictText::tr("%1, and the machine has neither nvcc %2 or newer nor Docker with the NVIDIA runtime "
                               "to build it there")
            .arg(because, minimumCuda);
    }
    return {};
}

} // namespace

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

} // namespace gpuplan::ui
