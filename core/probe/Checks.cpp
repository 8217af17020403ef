// The catalogue of verdict checks (gpuplan/probe/Checks.h): keys, groups and where the probe reports each.
#include "gpuplan/probe/Checks.h"

#include <algorithm>
#include <array>

namespace gpuplan::core {

namespace {

using G = CheckGroup;
using S = CheckSource;

// The keys are the probe's (cuda_probe/measure.cu, report.cpp, nccl.cpp) and the ledger's: never rename one.
// tests/core/TestProbeChecks.cpp holds them against the schema and the probe's source.
constexpr std::array kChecks{
    CheckInfo{Check::Model, "model", G::Identity, S::Verdict, ""},
    CheckInfo{Check::GpuCount, "gpu_count", G::Identity, S::Verdict, ""},
    CheckInfo{Check::Memory, "memory", G::Identity, S::Verdict, ""},
    CheckInfo{Check::Driver, "driver", G::Identity, S::Verdict, ""},
    CheckInfo{Check::Nvml, "nvml", G::Identity, S::Verdict, ""},
    CheckInfo{Check::Mig, "mig", G::Identity, S::Verdict, ""},
    CheckInfo{Check::ProbeError, "probe_error", G::Probe, S::Verdict, ""},
    CheckInfo{Check::ProbeIncomplete, "probe_incomplete", G::Probe, S::Verdict, ""},
    CheckInfo{Check::GpuError, "gpu_error", G::Probe, S::Verdict, ""},
    CheckInfo{Check::Correctness, "correctness", G::Compute, S::GpuMember, ""},
    CheckInfo{Check::Fp32Fma, "fp32_fma", G::Compute, S::Measurement, "TFLOPS"},
    CheckInfo{Check::GemmFp16, "gemm_fp16", G::Compute, S::Measurement, "TFLOPS"},
    CheckInfo{Check::GemmBf16, "gemm_bf16", G::Compute, S::Measurement, "TFLOPS"},
    CheckInfo{Check::GemmTf32, "gemm_tf32", G::Compute, S::Measurement, "TFLOPS"},
    CheckInfo{Check::GemmFp8, "gemm_fp8", G::Compute, S::Measurement, "TFLOPS"},
    CheckInfo{Check::WmmaFp16, "wmma_fp16", G::Compute, S::Measurement, "TFLOPS"},
    CheckInfo{Check::GemmOwnFp16, "gemm_own_fp16", G::Compute, S::Measurement, "TFLOPS"},
    CheckInfo{Check::GemmOwnBf16, "gemm_own_bf16", G::Compute, S::Measurement, "TFLOPS"},
    CheckInfo{Check::DramCopy, "dram_copy", G::Memory, S::Measurement, "GB/s"},
    CheckInfo{Check::DramTriad, "dram_triad", G::Memory, S::Measurement, "GB/s"},
    CheckInfo{Check::H2dPinned, "h2d_pinned", G::Interconnect, S::Measurement, "GB/s"},
    CheckInfo{Check::D2hPinned, "d2h_pinned", G::Interconnect, S::Measurement, "GB/s"},
    CheckInfo{Check::P2p, "p2p", G::Interconnect, S::Measurement, "GB/s"},
    CheckInfo{Check::NcclAllreduce, "nccl_allreduce", G::Interconnect, S::MultiGpu, "GB/s"},
    CheckInfo{Check::Ecc, "ecc", G::Health, S::GpuMember, ""},
    CheckInfo{Check::RetiredPages, "retired_pages", G::Health, S::GpuMember, ""},
    CheckInfo{Check::RemappedRows, "remapped_rows", G::Health, S::GpuMember, ""},
    CheckInfo{Check::Temperature, "temperature", G::Health, S::GpuMember, ""},
    CheckInfo{Check::Power, "power", G::Health, S::GpuMember, ""},
    CheckInfo{Check::Pcie, "pcie", G::Health, S::GpuMember, ""},
    CheckInfo{Check::Throttle, "throttle", G::Health, S::GpuMember, ""},
    CheckInfo{Check::BurnErrors, "burn_errors", G::Burn, S::Verdict, ""},
    CheckInfo{Check::BurnSpeed, "burn_speed", G::Burn, S::Verdict, ""},
    CheckInfo{Check::BurnThrottle, "burn_throttle", G::Burn, S::Verdict, ""},
};

constexpr bool inEnumOrder()
{
    for (std::size_t i = 0; i < kChecks.size(); ++i) {
        if (static_cast<std::size_t>(kChecks[i].check) != i) {
            return false;
        }
    }
    return true;
}
static_assert(inEnumOrder(), "kChecks lists every Check once, in the order of the enum");
static_assert(kChecks.back().check == Check::BurnThrottle, "a new Check goes into kChecks too");

} // namespace

std::span<const CheckInfo> allChecks()
{
    return kChecks;
}

const CheckInfo& checkInfo(Check check)
{
    return kChecks[static_cast<std::size_t>(check)];
}

std::string_view checkKey(Check check)
{
    return checkInfo(check).key;
}

std::optional<Check> checkByKey(std::string_view key)
{
    const auto it = std::find_if(kChecks.begin(), kChecks.end(), [&](const CheckInfo& c) { return c.key == key; });
    return it == kChecks.end() ? std::nullopt : std::optional<Check>(it->check);
}

std::optional<Check> measurementByKey(std::string_view key)
{
    const std::optional<Check> check = checkByKey(key);
    if (!check) {
        return std::nullopt;
    }
    const CheckSource source = checkInfo(*check).source;
    return source == CheckSource::Measurement || source == CheckSource::MultiGpu ? check : std::nullopt;
}

std::string_view checkGroupKey(CheckGroup group)
{
    switch (group) {
        case CheckGroup::Identity:
            return "identity";
        case CheckGroup::Probe:
            return "probe";
        case CheckGroup::Compute:
            return "compute";
        case CheckGroup::Memory:
            return "memory";
        case CheckGroup::Interconnect:
            return "interconnect";
        case CheckGroup::Health:
            return "health";
        case CheckGroup::Burn:
            return "burn";
    }
    return "";
}

} // namespace gpuplan::core
