// The verdict's judge, shared by the files that judge one group of checks each (core/probe/verdict/*.cpp),
// with the figures and constants they share. Private to core/probe.
#pragma once

#include "gpuplan/core/Reason.h"
#include "gpuplan/probe/Checks.h"
#include "gpuplan/probe/Verdict.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core::verdict {

std::string joined(const std::vector<std::string>& items, const char* separator = ", ");
/// A reason by its key and raw parameters; ui/wording words it.
Reason reason(std::string key, std::map<std::string, std::string> params);
/// A figure of a verdict line ("figure.*", worded by ui/wording's figureText()) without parameters.
Reason figure(std::string key);
/// "figure.value": a number with its unit ("312 TFLOPS", "87 C"); an empty unit for a bare number.
Reason valueFigure(double value, std::string unit);
/// "figure.text": text shown as it is (a GPU's name, an error code, a unit).
Reason textFigure(std::string text);
/// "figure.share_threshold": ">= pass of peak unit (fail < fail)".
Reason thresholdFigure(double pass, double peak, const std::string& unit, double fail);

/// The bandwidth per direction of an "NVLinkN X GB/s" interconnect (the catalog's X is both directions together).
std::optional<double> nvlinkPerDirection(const GpuSpec& spec);
/// PCIe bandwidth per direction of the link the copy ran on (cuda_probe.md section 5: Gen3 x16 15.75,
/// Gen4 31.5, Gen5 63 GB/s), scaled by the lanes; nullopt for other generations.
std::optional<double> linkBandwidth(const ProbeGpu& gpu);

/// A row of cuda_probe.md section 5's "Recommended thresholds": the share of the peak that passes, under which a
/// test fails, and which row it is.
struct Threshold
{
    double pass;
    double fail;
    const char* rule; // which row of the table
};

/// Judges one probe document; each group of checks is judged in its own file (core/probe/verdict/).
class Judge
{
public:
    Judge(const ProbeResult& result, const Catalog& catalog, const ExpectedHardware& promised);

    Verdict run();

private:
    void add(Check check, std::optional<int> gpu, VerdictLevel level, Reason measured, Reason expected, Reason why);
    void
    add(std::string check, std::optional<int> gpu, VerdictLevel level, Reason measured, Reason expected, Reason why);
    std::string promisedName() const { return m_promisedSpec ? m_promisedSpec->name : m_promised.gpuId; }

    void judgeGpu(const ProbeGpu& gpu);

    // IdentityChecks.cpp: driver, count, model, memory
    void judgeDriver();
    void judgeCount();
    const GpuSpec* judgeModel(const ProbeGpu& gpu);
    void judgeMemory(const ProbeGpu& gpu);

    // ProbeChecks.cpp: the probe's own errors
    bool judgeProbeError();
    void judgeGpuError(const ProbeGpu& gpu);

    // ComputeChecks.cpp: GEMM correctness, and the speeds measured against the datasheet (compute, memory, host)
    void judgeCorrectness(const ProbeGpu& gpu);
    void judgeMeasurement(const ProbeGpu& gpu, const GpuSpec* spec, const ProbeMeasurement& m);
    void judgeInformational(const ProbeGpu& gpu, const ProbeMeasurement& m, std::map<std::string, std::string> params);

    // InterconnectChecks.cpp: peer copies and NCCL
    void judgePeer(const ProbeGpu& gpu,
                   const GpuSpec* spec,
                   const ProbeMeasurement& m,
                   std::map<std::string, std::string> params);
    void judgeMultiGpu();

    // HealthChecks.cpp: memory health, temperature, power, PCIe, throttling; BurnChecks.cpp: the burn-in
    void judgeEcc(const ProbeGpu& gpu);
    void judgeRetiredPages(const ProbeGpu& gpu);
    void judgeRemappedRows(const ProbeGpu& gpu);
    void judgeTemperature(const ProbeGpu& gpu);
    void judgePower(const ProbeGpu& gpu, const GpuSpec* spec);
    void judgePcie(const ProbeGpu& gpu);
    void judgeThrottleShares(Check check, int gpu, const ProbeThrottle& t, const std::string& phase);
    void judgeThrottle(const ProbeGpu& gpu);
    void judgeBurn(const ProbeGpu& gpu);

    const ProbeResult& m_result;
    const Catalog& m_catalog;
    const ExpectedHardware& m_promised;
    const GpuSpec* m_promisedSpec = nullptr;
    Verdict m_verdict;
};

} // namespace gpuplan::core::verdict
