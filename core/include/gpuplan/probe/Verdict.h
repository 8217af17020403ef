#pragma once

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/core/Reason.h"
#include "gpuplan/probe/ProbeResult.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// How a check came out. Unknown: it could not be judged (no datasheet peak, no published threshold, a
/// test the probe skipped, a value the driver did not report); it never raises the overall level.
enum class VerdictLevel
{
    Pass,
    Unknown,
    Warn,
    Fail,
};

/// "pass", "unknown", "warn", "fail".
const char* verdictLevelName(VerdictLevel level);
std::optional<VerdictLevel> parseVerdictLevel(std::string_view name);

/// What the offer promised for the instance.
struct ExpectedHardware
{
    std::string gpuId; // catalog GPU id (an alias or display name is resolved too)
    int count = 1;
    std::optional<double> memoryGbPerGpu; // nullopt: the catalog's figure for gpuId
    /// Inside a VM a PCIe link that trained down is only a warning (cuda_probe.md section 5).
    bool virtualMachine = true;
};

/// One judged check. `check` is a stable key ("model", "gemm_bf16", "ecc", ...); `gpu` the CUDA index it
/// is about, nullopt for the whole instance. `measured` and `expected` are short figures for a table, as data: a
/// key ("figure.value", "figure.share", "figure.not_reported") and raw parameters ({"value": "312", "unit":
/// "TFLOPS"}) that ui/wording words (figureText()); an empty key is no figure. `reason` is the why, as a stable key
/// ("probe.ecc.off") and raw parameters that ui/wording words.
struct VerdictLine
{
    std::string check;
    std::optional<int> gpu;
    VerdictLevel level = VerdictLevel::Pass;
    Reason measured;
    Reason expected;
    Reason reason;
};

struct Verdict
{
    VerdictLevel level = VerdictLevel::Pass; // the worst of the lines: pass, warn or fail
    std::vector<VerdictLine> lines;

    /// The line of that check (and GPU), or nullptr.
    const VerdictLine* find(std::string_view check, std::optional<int> gpu = std::nullopt) const;
};

/// Judges a probe document against what the offer promised and the catalog's datasheet figures, with the
/// thresholds of ../shared/reference/cuda_probe.md section 5: model, count and memory, driver, each
/// measurement's ratio to the dense datasheet peak for the GPU's class, memory health (ECC, retired
/// pages, remapped rows), temperature, power and PCIe under load, throttle reasons, GEMM correctness
/// (a hard fail), and the probe's own errors as advice. A promise the catalog does not know fails the
/// "model" check. Never throws. Thread safety: reentrant; reads its arguments only.
Verdict judgeProbe(const ProbeResult& result, const Catalog& catalog, const ExpectedHardware& promised);

/// The catalog GPU an NVML name denotes ("NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3", "Tesla T4"):
/// by id, name or alias ignoring case and punctuation, else by the model words of the name with the
/// form factor (PCIe or not) agreeing and, when `memoryMib` is given, the memory size within 10 %.
/// nullptr when none or more than one fits.
const GpuSpec* matchNvmlName(const Catalog& catalog, std::string_view nvmlName, std::optional<long long> memoryMib);

} // namespace gpuplan::core
