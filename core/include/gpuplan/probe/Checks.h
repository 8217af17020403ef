// The catalogue of verdict checks: each check's stable key, shared by the probe's JSON, the verdict, the Verify
// page and the report, with its group and where the probe reports it. No wording: the front ends word the names.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace gpuplan::core {

/// One check of the verdict (core/probe/Verdict.h), a line of the Verify page and the report.
enum class Check
{
    // identity: is it the machine that was promised
    Model,
    GpuCount,
    Memory,
    Driver,
    Nvml,
    Mig,
    // the probe's own run
    ProbeError,
    ProbeIncomplete,
    GpuError,
    // compute
    Correctness,
    Fp32Fma,
    GemmFp16,
    GemmBf16,
    GemmTf32,
    GemmFp8,
    WmmaFp16,
    GemmOwnFp16,
    GemmOwnBf16,
    // memory bandwidth
    DramCopy,
    DramTriad,
    // interconnect: host, peer GPUs, the machine's collective
    H2dPinned,
    D2hPinned,
    P2p,
    NcclAllreduce,
    // health under load
    Ecc,
    RetiredPages,
    RemappedRows,
    Temperature,
    Power,
    Pcie,
    Throttle,
    // burn-in
    BurnErrors,
    BurnSpeed,
    BurnThrottle,
};

enum class CheckGroup
{
    Identity,
    Probe,
    Compute,
    Memory,
    Interconnect,
    Health,
    Burn,
};

/// Where the probe's document (schema gpuplan-probe/1) carries what a check judges.
enum class CheckSource
{
    Verdict,     // worked out by the verdict from several members (model, count, probe errors, burn-in)
    GpuMember,   // a member of a GPU object named by the key ("ecc", "pcie", "throttle")
    Measurement, // a measurement of a GPU named by the key ("gemm_bf16")
    MultiGpu,    // a measurement of multi_gpu named by the key ("nccl_allreduce")
};

struct CheckInfo
{
    Check check;
    std::string_view key; // stable: the probe's JSON, the verdict's lines, the ledger and the report use it
    CheckGroup group;
    CheckSource source;
    std::string_view unit; // a measurement's unit ("TFLOPS", "GB/s"); empty for the others
};

/// Every check, in the order of the enum. Thread safety: constant data.
std::span<const CheckInfo> allChecks();

/// The entry of `check`.
const CheckInfo& checkInfo(Check check);

/// The stable key of `check` ("dram_triad").
std::string_view checkKey(Check check);

/// The check of that key; nullopt for a key this build does not know (a newer probe's test), which callers
/// show as itself and never judge.
std::optional<Check> checkByKey(std::string_view key);

/// The check of a measurement's name: as checkByKey, but only a Measurement or MultiGpu check.
std::optional<Check> measurementByKey(std::string_view key);

/// "identity", "probe", "compute", "memory", "interconnect", "health", "burn".
std::string_view checkGroupKey(CheckGroup group);

} // namespace gpuplan::core
