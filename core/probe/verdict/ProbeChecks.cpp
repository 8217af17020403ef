// The probe's own run: an error that stopped it (cuda_probe.md section 2) and a GPU it could not measure.
#include "probe/VerdictJudge.h"

namespace gpuplan::core::verdict {

/// True when the error stopped the probe from measuring anything.
bool Judge::judgeProbeError()
{
    if (!m_result.error) {
        return false;
    }
    const ProbeError& error = *m_result.error;
    if (error.code == "no_driver" || error.code == "driver_too_old") {
        return true; // the "driver" line says it, with what to do
    }
    if (error.code == "nvml_unavailable") {
        add(Check::Nvml,
            std::nullopt,
            VerdictLevel::Warn,
            "NVML unavailable",
            "NVML (libnvidia-ml.so.1)",
            reason("probe.error.nvml_unavailable",
                   {{"message", error.message}},
                   "NVML (libnvidia-ml.so.1) could not be used, so the GPU names, memory health, temperature, "
                   "power and PCIe link could not be read; the speed tests still ran. The driver's NVML "
                   "library is missing (a partial driver install, or a container without the driver's "
                   "utilities). The probe said: "
                       + error.message));
        return false;
    }
    const std::string count = std::to_string(m_promised.count);
    if (error.code == "no_device" && promisedName().empty()) { // nothing promised: never "1 x " with no GPU
        add(Check::ProbeError,
            std::nullopt,
            VerdictLevel::Fail,
            "0 GPUs",
            "a CUDA GPU",
            reason("probe.error.no_device_unpromised",
                   {{"message", error.message}},
                   "The probe found no CUDA GPU on the instance. Check that `nvidia-smi` lists the GPUs and that "
                   "CUDA_VISIBLE_DEVICES does not hide them; if the provider attached none, terminate the "
                   "instance so that it stops costing money, and take it up with the provider."));
        return true;
    }
    if (error.code == "no_device") {
        add(Check::ProbeError,
            std::nullopt,
            VerdictLevel::Fail,
            "0 GPUs",
            count + " x " + promisedName(),
            reason("probe.error.no_device",
                   {{"count", count}, {"gpu", promisedName()}, {"message", error.message}},
                   "The probe found no CUDA GPU on the instance, but the offer promised " + count + " x "
                       + promisedName()
                       + ". Check that `nvidia-smi` lists the GPUs and that CUDA_VISIBLE_DEVICES does not hide "
                         "them; if the provider attached none, terminate the instance so that it stops costing "
                         "money, and take it up with the provider."));
        return true;
    }
    if (error.code == "bad_arguments") {
        add(Check::ProbeError,
            std::nullopt,
            VerdictLevel::Fail,
            error.code,
            "no error",
            reason("probe.error.bad_arguments",
                   {{"message", error.message}},
                   "The probe refused the command line GPU Planner gave it (" + error.message
                       + "). This is a GPU Planner bug; please report it with this message."));
        return true;
    }
    if (error.code == "system_not_ready") {
        add(Check::ProbeError,
            std::nullopt,
            VerdictLevel::Fail,
            error.code,
            "no error",
            reason("probe.error.system_not_ready",
                   {{"message", error.message}},
                   "The GPUs are there but not ready (" + error.message
                       + "): on machines whose GPUs are joined by NVSwitch the fabric manager must run before "
                         "CUDA can use them. Start it (`sudo systemctl start nvidia-fabricmanager`; its version "
                         "must match the driver's) and verify again; if it will not start, take it up with the "
                         "provider."));
        return true;
    }
    if (error.code == "devices_unavailable") {
        add(Check::ProbeError,
            std::nullopt,
            VerdictLevel::Fail,
            error.code,
            "no error",
            reason("probe.error.devices_unavailable",
                   {{"message", error.message}},
                   "The GPUs are there but busy or closed to new programs (" + error.message
                       + "): another process holds them in exclusive mode, or the compute mode prohibits use. "
                         "See `nvidia-smi` for the processes and the compute mode, stop what holds them and "
                         "verify again."));
        return true;
    }
    if (error.code == "timeout" || error.code == "interrupted" || error.code == "crashed") {
        const std::string gpu = error.gpu ? std::to_string(*error.gpu) : "";
        const std::map<std::string, std::string> params = {
            {"code", error.code}, {"gpu", gpu}, {"stage", error.stage}, {"message", error.message}};
        const std::string where =
            (gpu.empty() ? std::string() : " on GPU " + gpu) + (error.stage.empty() ? "" : " in " + error.stage);
        std::string text;
        if (error.code == "timeout") {
            text = "The probe stopped waiting" + where
                   + ": a GPU or driver call hung. A GPU that hangs is not usable; the results measured before "
                     "are below. Run the probe again; if it hangs again, terminate the instance.";
        } else if (error.code == "interrupted") {
            text = "The probe was stopped" + where
                   + " (a signal: the connection closed, or someone stopped it); the results measured before are "
                     "below. Run it again.";
        } else {
            text = "The probe crashed" + where
                   + "; the results measured before are below. Run it again; if it crashes the same way, report "
                     "it with the probe's output.";
        }
        add(Check::ProbeError,
            std::nullopt,
            VerdictLevel::Fail,
            error.code,
            "no error",
            reason("probe.error." + error.code, params, text));
        return true;
    }
    add(Check::ProbeError,
        std::nullopt,
        VerdictLevel::Fail,
        error.code,
        "no error",
        reason("probe.error.internal",
               {{"code", error.code}, {"message", error.message}},
               "The probe failed (" + error.code + "): " + error.message
                   + ". Run it again; if it fails the same way, report it with the probe's output."));
    return true;
}

/// Why a GPU could not be measured, with what to do about that kind of failure.
void Judge::judgeGpuError(const ProbeGpu& gpu)
{
    const ProbeError& e = *gpu.error;
    const std::string index = std::to_string(gpu.index);
    const std::string head = "GPU " + index + " could not be measured (" + e.code + "): " + e.message + ". ";
    // Our own GEMM kernel has not been validated on a GPU yet (it is informational): a fault inside it is far
    // more likely our bug than the GPU's, and everything measured before it stands.
    if (e.stage.rfind("gemm_own_", 0) == 0 || e.stage.rfind("reference_own_", 0) == 0) {
        add(Check::GpuError,
            gpu.index,
            VerdictLevel::Warn,
            e.code,
            "measured",
            reason("probe.gpu_error.own_kernel",
                   {{"code", e.code}, {"message", e.message}, {"stage", e.stage}},
                   head
                       + "It failed in the probe's own GEMM kernel, which is still experimental: more likely a "
                         "GPU Planner bug than a faulty GPU. The tests before it are judged as usual; the ones "
                         "after it did not run. Please report it with the probe's output."));
        return;
    }
    struct Advice
    {
        const char* code;
        const char* text;
    };
    static const Advice kAdvice[] = {
        {"ecc_uncorrectable",
         "Its memory had an uncorrectable error during the tests: do not train on it; terminate the instance and "
         "report the GPU to the provider."},
        {"gpu_fault",
         "The GPU faulted while running the probe's own kernels (an Xid error is likely in the kernel log, "
         "`dmesg`): do not train on it; terminate the instance and report the GPU."},
        {"out_of_memory",
         "There was not enough free GPU memory: another process holds it (see `nvidia-smi`). Stop it and verify "
         "again."},
        {"no_kernel_image",
         "This probe build holds no code this GPU can run. Deploy the probe again and let GPU Planner build it "
         "there; report the GPU's name if that fails too."},
        {"system_not_ready",
         "The GPU is not ready: on NVSwitch machines the fabric manager must run (`sudo systemctl start "
         "nvidia-fabricmanager`). Start it and verify again."},
        {"devices_unavailable",
         "The GPU is busy or closed to new programs (exclusive or prohibited compute mode, see `nvidia-smi`). "
         "Free it and verify again."},
        {"nvlink_error",
         "An NVLink between the GPUs had an uncorrectable error: multi-GPU training would fail or corrupt data. "
         "Terminate the instance and report it to the provider."},
        {"timeout",
         "It hung: a GPU that hangs is not usable. Run the probe again; if it hangs again, terminate the "
         "instance."},
        {"interrupted", "The probe was stopped before it finished with this GPU; run it again."},
        {"crashed", "The probe crashed while measuring it; run it again, and report it if it crashes again."},
    };
    for (const Advice& advice : kAdvice) {
        if (e.code == advice.code) {
            add(Check::GpuError,
                gpu.index,
                VerdictLevel::Fail,
                e.code,
                "measured",
                reason("probe.gpu_error." + e.code,
                       {{"code", e.code}, {"message", e.message}, {"stage", e.stage}},
                       head + advice.text));
            return;
        }
    }
    add(Check::GpuError,
        gpu.index,
        VerdictLevel::Fail,
        e.code,
        "measured",
        reason("probe.gpu_error",
               {{"code", e.code}, {"message", e.message}},
               head
                   + "A GPU that fails its tests is not usable; run the probe again, and if it fails the same way "
                     "terminate the instance."));
}

} // namespace gpuplan::core::verdict
