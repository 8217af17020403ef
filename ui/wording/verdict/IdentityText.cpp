// The verdict's reasons about the machine and the probe's run worded for the UI: driver, the probe's errors,
// GPU count and model, memory, GEMM correctness.
#include "wording/verdict/VerdictTextParts.h"

namespace gpuplan::ui::verdicttext {

// ---- driver and the probe's own errors ----------------------------------------------------------------------

namespace {

/// A driver version, or empty where the probe could not read it (a verdict saved by an older version says "unknown").
QString driverVersion(const Args& p)
{
    const QString driver = p.text("driver");
    return driver == QLatin1String("unknown") ? QString() : driver;
}

} // namespace

namespace {

/// probe.driver.too_old(_for_any_build) for a probe build whose oldest driver core does not know.
QString unknownFloorText(bool olderBuildRuns, const QString& driver, const Args& p)
{
    if (olderBuildRuns) {
        return driver.isEmpty()
                   ? VerdictText::tr(
                         "The driver supports CUDA up to %1, older than this probe build's CUDA %2. The "
                         "CUDA 11.8 build of the probe runs on drivers from %3 on (and on V100); the deploy "
                         "step picks that build when the remote driver is older than R580, so deploy the "
                         "probe again and let it choose, or update the driver to 580 or newer.")
                         .arg(p.text("driver_cuda"), p.text("build_cuda"), p.text("cuda11_min_driver"))
                   : VerdictText::tr(
                         "The driver %1 supports CUDA up to %2, older than this probe build's CUDA %3. The "
                         "CUDA 11.8 build of the probe runs on drivers from %4 on (and on V100); the deploy "
                         "step picks that build when the remote driver is older than R580, so deploy the "
                         "probe again and let it choose, or update the driver to 580 or newer.")
                         .arg(driver, p.text("driver_cuda"), p.text("build_cuda"), p.text("cuda11_min_driver"));
    }
    return driver.isEmpty()
               ? VerdictText::tr("The driver supports CUDA up to %1, older than this probe build's CUDA %2. No older "
                                 "build of the probe exists: update the driver to one for CUDA %2 or newer (the "
                                 "provider's current GPU image has one).")
                     .arg(p.text("driver_cuda"), p.text("build_cuda"))
               : VerdictText::tr("The driver %1 supports CUDA up to %2, older than this probe build's CUDA %3. No "
                                 "older build of the probe exists: update the driver to one for CUDA %3 or newer (the "
                                 "provider's current GPU image has one).")
                     .arg(driver, p.text("driver_cuda"), p.text("build_cuda"));
}

} // namespace

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
    if (!p.all({"driver_cuda", "build_cuda", "cuda11_min_driver"})) {
        return {};
    }
    // build_min_driver is set where core knows the build's driver floor (every build shipped today); a build it does
    // not know (a newer CUDA) is worded without it.
    const QString neededDriver = p.text("build_min_driver");
    if (neededDriver.isEmpty() || !neededDriver.front().isDigit()) {
        return unknownFloorText(olderBuildRuns, driver, p);
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
        const QString head =
            VerdictText::tr("This GPU could not be measured (%1): %2.").arg(p.text("code"), p.text("message"));
        QString advice;
        if (key == QLatin1String("probe.gpu_error.own_kernel")) {
            advice = VerdictText::tr("It failed in the probe's own GEMM kernel, which is still experimental: more "
                                     "likely a GPU Planner bug than a faulty GPU. The tests before it are judged as "
                                     "usual; the ones after it did not run. Please report it with the probe's "
                                     "output.");
        } else if (key == QLatin1String("probe.gpu_error.ecc_uncorrectable")) {
            advice = VerdictText::tr("Its memory had an uncorrectable error during the tests: do not train on it; "
                                     "terminate the instance and report the GPU to the provider.");
        } else if (key == QLatin1String("probe.gpu_error.gpu_fault")) {
            advice = VerdictText::tr("The GPU faulted while running the probe's own kernels (an Xid error is likely in "
                                     "the kernel log, `dmesg`): do not train on it; terminate the instance and report "
                                     "the GPU.");
        } else if (key == QLatin1String("probe.gpu_error.out_of_memory")) {
            advice = VerdictText::tr("There was not enough free GPU memory: another process holds it (see "
                                     "`nvidia-smi`). Stop it and verify again.");
        } else if (key == QLatin1String("probe.gpu_error.no_kernel_image")) {
            advice = VerdictText::tr("This probe build holds no code this GPU can run. Deploy the probe again and let "
                                     "GPU Planner build it there; report the GPU's name if that fails too.");
        } else if (key == QLatin1String("probe.gpu_error.system_not_ready")) {
            advice = VerdictText::tr("The GPU is not ready: on NVSwitch machines the fabric manager must run (`sudo "
                                     "systemctl start nvidia-fabricmanager`). Start it and verify again.");
        } else if (key == QLatin1String("probe.gpu_error.devices_unavailable")) {
            advice = VerdictText::tr("The GPU is busy or closed to new programs (exclusive or prohibited compute mode, "
                                     "see `nvidia-smi`). Free it and verify again.");
        } else if (key == QLatin1String("probe.gpu_error.nvlink_error")) {
            advice = VerdictText::tr("An NVLink between the GPUs had an uncorrectable error: multi-GPU training would "
                                     "fail or corrupt data. Terminate the instance and report it to the provider.");
        } else if (key == QLatin1String("probe.gpu_error.timeout")) {
            advice = VerdictText::tr("It hung: a GPU that hangs is not usable. Run the probe again; if it hangs again, "
                                     "terminate the instance.");
        } else if (key == QLatin1String("probe.gpu_error.interrupted")) {
            advice = VerdictText::tr("The probe was stopped before it finished with this GPU; run it again.");
        } else if (key == QLatin1String("probe.gpu_error.crashed")) {
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
    // The model lines carry catalog ids ("h100-sxm5-80gb") and the catalog names (promised_name, found_name).
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

} // namespace gpuplan::ui::verdicttext
