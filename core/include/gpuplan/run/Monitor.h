#pragma once

#include "gpuplan/core/Reason.h"
#include "gpuplan/workload/Workload.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// What the instance's sampler measured while a run ran (resources/scripts/gpuplan-run.sh writes it every 1-2 s to
// the run's samples.csv), and what it means: the advice when the GPUs stay below 70 % busy.
namespace gpuplan::core {

/// One GPU at one moment, as nvidia-smi reported it; a field the GPU does not report ("[N/A]", "[Not Supported]")
/// is nullopt.
struct GpuReading
{
    int index = 0;
    std::optional<double> utilization;     // percent of time a kernel ran
    std::optional<double> memoryUsedMiB;   //
    std::optional<double> memoryTotalMiB;  //
    std::optional<double> powerW;          //
    std::optional<double> temperatureC;    //
    std::optional<double> smClockMHz;      //
    std::optional<std::uint64_t> throttle; // clocks_event_reasons.active, NVML's bit mask
    std::optional<double> pcieRxMBs;       // host to device, MB/s (nvidia-smi dmon), where sampled
    std::optional<double> pcieTxMBs;       // device to host
};

/// Everything sampled in one second.
struct MonitorSample
{
    std::int64_t at = 0; // Unix seconds
    std::vector<GpuReading> gpus;
    std::optional<double> cpuBusy; // percent of all cores busy (user + system + iowait... of /proc/stat) since the last
    std::optional<int> cpuCores;
};

/// Reads the sampler's lines (the format is gpuplan-run.sh's "samples" comment):
///   gpu,UNIX,INDEX,UTIL,MEM_USED,MEM_TOTAL,POWER,TEMP,SM_CLOCK,THROTTLE_HEX
///   cpu,UNIX,BUSY_PERCENT,CORES
///   pcie,UNIX,INDEX,RX_MBS,TX_MBS
/// Lines of one second become one sample, oldest first. A line that does not read (a broken sampler, a driver
/// that prints something else) is skipped and named in `problems` ("run.monitor.bad_line" {line, text}); it never
/// throws. `firstLine` numbers the lines of `text` for those messages.
std::vector<MonitorSample>
parseMonitorLines(std::string_view text, std::vector<Reason>* problems = nullptr, int firstLine = 1);

/// The names of the reasons set in a clocks_event_reasons mask, as keys: "run.throttle.idle",
/// "run.throttle.power_cap", "run.throttle.hw_slowdown", "run.throttle.thermal", "run.throttle.power_brake",
/// "run.throttle.sync_boost", "run.throttle.app_clocks", "run.throttle.display_clocks", and "run.throttle.other" for
/// bits this version does not know (newer drivers add some). Sw and hw thermal slowdown both say
/// "run.throttle.thermal".
std::vector<std::string> throttleReasonKeys(std::uint64_t mask);

/// What the advice is judged with.
struct AdviceSettings
{
    double threshold = 70;                // percent: the seed's line between a busy and an underused GPU
    std::int64_t lowForSeconds = 180;     // how long the mean must stay below it before advice is given
    double cpuBusyAbove = 85;             // percent of all cores: the data loader is the bottleneck
    double memoryShareBelow = 0.5;        // of the GPU's memory: the batch is small
    double pcieBusyAboveMBs = 4000;       // rx + tx per GPU: host-device copies dominate
    Precision precision = Precision::Amp; // the plan's: fp32 leaves the tensor cores unused
};

/// Advice on a run whose GPUs stay under the threshold.
struct RunAdvice
{
    bool low = false;           // the mean utilisation of every sample since `since` is under the threshold
    double meanUtilization = 0; // over those samples and every GPU
    std::int64_t since = 0;     // the first sample of the low stretch
    /// The likely causes, most likely first, each naming the measurement behind it: "run.advice.data_loader"
    /// {gpu_util, cpu_busy}, "run.advice.small_batch" {gpu_util, memory_share}, "run.advice.host_copies"
    /// {pcie_mbs}, "run.advice.no_amp" {precision}, else "run.advice.unexplained" {gpu_util}. gpu_util, cpu_busy and
    /// memory_share are percents, pcie_mbs MB/s per GPU (rx + tx), each a mean over the stretch, one decimal;
    /// precision is precisionName() ("fp32").
    std::vector<Reason> causes;
};

/// Looks at the newest samples (oldest first): when the utilisation averaged over the last
/// `settings.lowForSeconds` (and every sample of that stretch covers it) stays below the threshold, says why it
/// is likely low from what was measured over that stretch. Not low (or too short a stretch): low == false, no causes.
RunAdvice adviseOnUtilization(const std::vector<MonitorSample>& samples, const AdviceSettings& settings = {});

} // namespace gpuplan::core
