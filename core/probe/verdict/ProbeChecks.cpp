// The probe's own run: an error that stopped it (cuda_probe.md section 2) and a GPU it could not measure.
#include "probe/VerdictJudge.h"

#include <algorithm>
#include <iterator>

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
            figure("figure.nvml_unavailable"),
            figure("figure.nvml_library"),
            reason("probe.error.nvml_unavailable", {{"message", error.message}}));
        return false;
    }
    const std::string count = std::to_string(m_promised.count);
    if (error.code == "no_device" && promisedName().empty()) { // nothing promised: never "1 x " with no GPU
        add(Check::ProbeError,
            std::nullopt,
            VerdictLevel::Fail,
            figure("figure.no_gpus"),
            figure("figure.a_cuda_gpu"),
            reason("probe.error.no_device_unpromised", {{"message", error.message}}));
        return true;
    }
    if (error.code == "no_device") {
        add(Check::ProbeError,
            std::nullopt,
            VerdictLevel::Fail,
            figure("figure.no_gpus"),
            reason("figure.gpus_of", {{"count", count}, {"gpu", promisedName()}}),
            reason("probe.error.no_device", {{"count", count}, {"gpu", promisedName()}, {"message", error.message}}));
        return true;
    }
    // The errors ui/wording words by their code, with the probe's message; where the probe stopped (timeout,
    // interrupted, crashed) also names the GPU and the stage, each empty where the probe did not say.
    struct Known
    {
        const char* code;
        const char* key;
        bool where;
    };
    static const Known kKnown[] = {
        {"bad_arguments", "probe.error.bad_arguments", false},
        {"system_not_ready", "probe.error.system_not_ready", false},
        {"devices_unavailable", "probe.error.devices_unavailable", false},
        {"timeout", "probe.error.timeout", true},
        {"interrupted", "probe.error.interrupted", true},
        {"crashed", "probe.error.crashed", true},
    };
    for (const Known& known : kKnown) {
        if (error.code != known.code) {
            continue;
        }
        std::map<std::string, std::string> params = {{"message", error.message}};
        if (known.where) {
            params["code"] = error.code;
            params["gpu"] = error.gpu ? std::to_string(*error.gpu) : "";
            params["stage"] = error.stage;
        }
        add(Check::ProbeError,
            std::nullopt,
            VerdictLevel::Fail,
            textFigure(error.code),
            figure("figure.no_error"),
            reason(known.key, params));
        return true;
    }
    add(Check::ProbeError,
        std::nullopt,
        VerdictLevel::Fail,
        textFigure(error.code),
        figure("figure.no_error"),
        reason("probe.error.internal", {{"code", error.code}, {"message", error.message}}));
    return true;
}

/// Why a GPU could not be measured: by the kind of failure, which ui/wording words with what to do about it.
void Judge::judgeGpuError(const ProbeGpu& gpu)
{
    const ProbeError& e = *gpu.error;
    const std::map<std::string, std::string> params = {{"code", e.code}, {"message", e.message}, {"stage", e.stage}};
    // Our own GEMM kernel has not been validated on a GPU yet (it is informational): a fault inside it is far
    // more likely our bug than the GPU's, and everything measured before it stands.
    if (e.stage.rfind("gemm_own_", 0) == 0 || e.stage.rfind("reference_own_", 0) == 0) {
        add(Check::GpuError,
            gpu.index,
            VerdictLevel::Warn,
            textFigure(e.code),
            figure("figure.measured"),
            reason("probe.gpu_error.own_kernel", params));
        return;
    }
    // The codes ui/wording gives their own advice; any other code gets the general one.
    struct Advised
    {
        const char* code;
        const char* key;
    };
    static const Advised kAdvised[] = {
        {"ecc_uncorrectable", "probe.gpu_error.ecc_uncorrectable"},
        {"gpu_fault", "probe.gpu_error.gpu_fault"},
        {"out_of_memory", "probe.gpu_error.out_of_memory"},
        {"no_kernel_image", "probe.gpu_error.no_kernel_image"},
        {"system_not_ready", "probe.gpu_error.system_not_ready"},
        {"devices_unavailable", "probe.gpu_error.devices_unavailable"},
        {"nvlink_error", "probe.gpu_error.nvlink_error"},
        {"timeout", "probe.gpu_error.timeout"},
        {"interrupted", "probe.gpu_error.interrupted"},
        {"crashed", "probe.gpu_error.crashed"},
    };
    const auto advised =
        std::find_if(std::begin(kAdvised), std::end(kAdvised), [&](const Advised& a) { return e.code == a.code; });
    add(Check::GpuError,
        gpu.index,
        VerdictLevel::Fail,
        textFigure(e.code),
        figure("figure.measured"),
        reason(advised == std::end(kAdvised) ? "probe.gpu_error" : advised->key, params));
}

} // namespace gpuplan::core::verdict
