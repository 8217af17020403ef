#include "gpuplan/probe/Verdict.h"

#include "gpuplan/core/Names.h"
#include "gpuplan/probe/Checks.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace gpuplan::core {

const char* verdictLevelName(VerdictLevel level)
{
    switch (level) {
        case VerdictLevel::Pass:
            return "pass";
        case VerdictLevel::Unknown:
            return "unknown";
        case VerdictLevel::Warn:
            return "warn";
        case VerdictLevel::Fail:
            return "fail";
    }
    return "unknown";
}

const VerdictLine* Verdict::find(std::string_view check, std::optional<int> gpu) const
{
    auto it = std::find_if(
        lines.begin(), lines.end(), [&](const VerdictLine& line) { return line.check == check && line.gpu == gpu; });
    return it == lines.end() ? nullptr : &*it;
}

namespace {

// ---- GPU names ------------------------------------------------------------------------------------------

std::vector<std::string> nameTokens(std::string_view name)
{
    std::vector<std::string> tokens;
    std::string current;
    for (char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            current.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        } else if (!current.empty()) {
            tokens.push_back(std::move(current));
            current.clear();
        }
    }
    if (!current.empty()) {
        tokens.push_back(std::move(current));
    }
    return tokens;
}

bool isMemoryToken(const std::string& token)
{
    return token.size() > 2 && token.compare(token.size() - 2, 2, "gb") == 0
           && std::all_of(token.begin(), token.end() - 2, [](char c) { return c >= '0' && c <= '9'; });
}

bool isFormFactorToken(const std::string& token)
{
    return token == "pcie" || token.rfind("sxm", 0) == 0;
}

/// The words that name the model: without vendor and brand prefixes, memory size and type, "Generation"
/// ("NVIDIA RTX 6000 Ada Generation"), and the form factor, which is compared apart.
std::set<std::string> modelWords(std::string_view name)
{
    std::set<std::string> words;
    for (const std::string& token : nameTokens(name)) {
        if (token == "nvidia" || token == "tesla" || token == "generation" || isMemoryToken(token)
            || token.rfind("hbm", 0) == 0 || isFormFactorToken(token)) {
            continue;
        }
        words.insert(token);
    }
    return words;
}

std::set<std::string> memoryWords(std::string_view name)
{
    std::set<std::string> words;
    for (const std::string& token : nameTokens(name)) {
        if (isMemoryToken(token)) {
            words.insert(token);
        }
    }
    return words;
}

bool saysPcie(std::string_view name)
{
    const std::vector<std::string> tokens = nameTokens(name);
    return std::find(tokens.begin(), tokens.end(), "pcie") != tokens.end();
}

std::string withoutPrefix(std::string normal)
{
    for (const char* prefix : {"nvidia", "tesla"}) {
        const std::string p(prefix);
        if (normal.rfind(p, 0) == 0 && normal.size() > p.size()) {
            normal.erase(0, p.size());
        }
    }
    return normal;
}

/// memory within 10 % of the datasheet figure: a card reports GiB less what ECC and the driver reserve.
bool memoryFits(const GpuSpec& spec, long long memoryMib)
{
    const double gib = static_cast<double>(memoryMib) / 1024.0;
    return spec.memoryGb > 0 && gib >= spec.memoryGb * 0.9 && gib <= spec.memoryGb * 1.1;
}

// ---- formatting -----------------------------------------------------------------------------------------

std::string fixed(double value, int decimals)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

/// 312 -> "312", 989.5 -> "989.5", 0.8125 -> "0.81" (2 significant decimals for ratios).
std::string figure(double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
    return buffer;
}

std::string ratioText(double ratio)
{
    return fixed(ratio, 2);
}

/// 13000 -> "13.0", 12020 -> "12.2".
std::string cudaVersionText(int version)
{
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string joined(const std::vector<std::string>& items, const char* separator = ", ")
{
    std::string text;
    for (const std::string& item : items) {
        text += (text.empty() ? "" : separator) + item;
    }
    return text;
}

Reason reason(std::string key, std::map<std::string, std::string> params, std::string text)
{
    return Reason{std::move(key), std::move(params), std::move(text)};
}

/// The share of busy samples with a hardware throttle reason from which a GPU fails: a tenth of the run is a
/// GPU that does not hold its clocks; less is a blip (a warning). Our choice, not a published figure; a device
/// check (tests/gpu/device-check.sh) on a healthy GPU shows no hardware reasons at all.
constexpr double kThrottleFailShare = 0.10;

/// Burn-in: the last tenth of the run against the first. Sustained load costs a healthy data-center GPU a few
/// percent as it warms up; our choice, to be checked against device checks (docs/probe-results.md).
constexpr double kBurnWarnRatio = 0.90;
constexpr double kBurnFailRatio = 0.80;

/// The bandwidth per direction of an "NVLinkN X GB/s" interconnect (the catalog's X is both directions together).
std::optional<double> nvlinkPerDirection(const GpuSpec& spec)
{
    if (spec.interconnect.rfind("NVLink", 0) != 0) {
        return std::nullopt;
    }
    const std::size_t space = spec.interconnect.find(' ');
    if (space == std::string::npos) {
        return std::nullopt;
    }
    const std::string rest = spec.interconnect.substr(space + 1);
    char* end = nullptr;
    const double value = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str() || value <= 0) {
        return std::nullopt;
    }
    const std::string unit(end);
    const double gbs = unit.rfind(" TB/s", 0) == 0 ? value * 1000 : unit.rfind(" GB/s", 0) == 0 ? value : 0;
    return gbs > 0 ? std::optional<double>(gbs / 2) : std::nullopt;
}

class Judge
{
public:
    Judge(const ProbeResult& result, const Catalog& catalog, const ExpectedHardware& promised)
        : m_result(result)
        , m_catalog(catalog)
        , m_promised(promised)
    {
        m_promisedSpec = catalog.findGpu(promised.gpuId);
        if (!m_promisedSpec) {
            Result<const GpuSpec*> resolved = catalog.resolveGpu(promised.gpuId);
            m_promisedSpec = resolved ? *resolved : nullptr;
        }
    }

    Verdict run()
    {
        judgeDriver();
        const bool fatal = judgeProbeError();
        if (!fatal || !m_result.gpus.empty()) {
            judgeCount();
            for (const ProbeGpu& gpu : m_result.gpus) {
                judgeGpu(gpu);
            }
            judgeMultiGpu();
        }
        if (!m_result.ok && !m_result.error
            && std::none_of(m_result.gpus.begin(), m_result.gpus.end(), [](auto& g) { return g.error.has_value(); })) {
            add(Check::ProbeIncomplete,
                std::nullopt,
                VerdictLevel::Warn,
                "ok: false",
                "ok: true",
                reason("probe.incomplete",
                       {},
                       "The probe says not every GPU could be measured but gives no reason; run it again."));
        }
        for (const VerdictLine& line : m_verdict.lines) {
            if (line.level != VerdictLevel::Unknown && line.level > m_verdict.level) {
                m_verdict.level = line.level;
            }
        }
        return std::move(m_verdict);
    }

private:
    void
    add(Check check, std::optional<int> gpu, VerdictLevel level, std::string measured, std::string expected, Reason why)
    {
        add(std::string(checkKey(check)), gpu, level, std::move(measured), std::move(expected), std::move(why));
    }

    /// A line keyed by a measurement's name: the catalogue's key, or the name of a test this build does not know.
    void add(std::string check,
             std::optional<int> gpu,
             VerdictLevel level,
             std::string measured,
             std::string expected,
             Reason why)
    {
        m_verdict.lines.push_back(
            VerdictLine{std::move(check), gpu, level, std::move(measured), std::move(expected), std::move(why)});
    }

    std::string promisedName() const { return m_promisedSpec ? m_promisedSpec->name : m_promised.gpuId; }

    // ---- driver and the probe's own errors (cuda_probe.md section 2) --------------------------------------

    /// The oldest Linux driver a CUDA major version runs on through minor-version compatibility.
    static const char* minimumDriver(int cudaRuntime)
    {
        switch (cudaRuntime / 1000) {
            case 13:
                return "580.65.06"; // cuda_probe.md 2.2: CUDA 13.0 GA >= 580.65.06
            case 12:
                return "525.60.13"; // cuda_probe.md 2.2: CUDA 12.x >= 525.60.13
            case 11:
                // https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html: CUDA 11.x
                // runs on 450.80.02 and newer.
                return "450.80.02";
            default:
                return nullptr;
        }
    }

    static constexpr const char* kCuda11Minimum = "450.80.02";

    void judgeDriver()
    {
        const ProbeDriver& driver = m_result.driver;
        const int build = m_result.probe.cudaRuntime;
        const std::string driverName = driver.version.value_or("unknown");
        const char* needed = minimumDriver(build);
        const std::string neededText = needed ? needed : "a driver for CUDA " + cudaVersionText(build);
        const std::string theDriver = driver.version ? "The driver " + *driver.version : "The driver";
        const std::string expected = "CUDA >= " + cudaVersionText(build) + " (driver >= " + neededText + ")";
        const std::string code = m_result.error ? m_result.error->code : "";
        if (code == "no_driver" || (driver.cudaVersion == 0 && code != "driver_too_old")) {
            add(Check::Driver,
                std::nullopt,
                VerdictLevel::Fail,
                "no driver",
                expected,
                reason("probe.driver.missing",
                       {{"cuda11_min_driver", kCuda11Minimum}},
                       std::string("No NVIDIA driver was found on the instance (libcuda.so.1 could not be "
                                   "loaded). Install the NVIDIA driver, or launch an image that has it (the "
                                   "provider's GPU image): 580 or newer runs either build of the probe, ")
                           + kCuda11Minimum + " or newer runs its CUDA 11.8 build."));
            return;
        }
        const std::string measured = driverName + " (CUDA " + cudaVersionText(driver.cudaVersion) + ")";
        if (code == "driver_too_old" || driver.cudaVersion < build) {
            std::map<std::string, std::string> params = {{"driver", driverName},
                                                         {"driver_cuda", cudaVersionText(driver.cudaVersion)},
                                                         {"build_cuda", cudaVersionText(build)},
                                                         {"build_min_driver", neededText},
                                                         {"cuda11_min_driver", kCuda11Minimum}};
            std::string text = theDriver + " supports CUDA up to " + cudaVersionText(driver.cudaVersion)
                               + ", older than this probe build's CUDA " + cudaVersionText(build) + ", which needs "
                               + (needed ? "driver " + neededText : neededText) + " or newer. ";
            if (build / 1000 > 11) {
                text += std::string("The CUDA 11.8 build of the probe runs on drivers from ") + kCuda11Minimum
                        + " on (and on V100); the deploy step picks that build when the remote driver is older than "
                          "R580, so deploy the probe again and let it choose, or update the driver to 580 or newer.";
                add(Check::Driver,
                    std::nullopt,
                    VerdictLevel::Fail,
                    measured,
                    expected,
                    reason("probe.driver.too_old", std::move(params), std::move(text)));
            } else {
                text += std::string("No older build of the probe exists: update the driver to ") + kCuda11Minimum
                        + " or newer (the provider's current GPU image has one).";
                add(Check::Driver,
                    std::nullopt,
                    VerdictLevel::Fail,
                    measured,
                    expected,
                    reason("probe.driver.too_old_for_any_build", std::move(params), std::move(text)));
            }
            return;
        }
        add(Check::Driver,
            std::nullopt,
            VerdictLevel::Pass,
            measured,
            expected,
            reason("probe.driver.ok",
                   {{"driver", driverName},
                    {"driver_cuda", cudaVersionText(driver.cudaVersion)},
                    {"build_cuda", cudaVersionText(build)}},
                   theDriver + " (CUDA " + cudaVersionText(driver.cudaVersion)
                       + ") is new enough for this probe build (CUDA " + cudaVersionText(build) + ")."));
    }

    /// True when the error stopped the probe from measuring anything.
    bool judgeProbeError()
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

    // ---- inventory ----------------------------------------------------------------------------------------

    void judgeCount()
    {
        const int got = static_cast<int>(m_result.gpus.size());
        const int want = m_promised.count;
        const std::map<std::string, std::string> params = {{"count", std::to_string(got)},
                                                           {"promised", std::to_string(want)}};
        if (got < want) {
            add(Check::GpuCount,
                std::nullopt,
                VerdictLevel::Fail,
                std::to_string(got),
                std::to_string(want),
                reason("probe.gpu_count.missing",
                       params,
                       "The probe found " + std::to_string(got) + " GPU(s); the offer promised " + std::to_string(want)
                           + ". You pay for GPUs that are not there."));
        } else if (got > want) {
            add(Check::GpuCount,
                std::nullopt,
                VerdictLevel::Warn,
                std::to_string(got),
                std::to_string(want),
                reason("probe.gpu_count.extra",
                       params,
                       "The probe found " + std::to_string(got) + " GPUs, more than the " + std::to_string(want)
                           + " promised: check that this is the instance type you launched."));
        } else {
            add(Check::GpuCount,
                std::nullopt,
                VerdictLevel::Pass,
                std::to_string(got),
                std::to_string(want),
                reason(
                    "probe.gpu_count.ok", params, "The probe found the " + std::to_string(want) + " promised GPU(s)."));
        }
    }

    /// The spec the GPU's figures are judged against: what it is when the name says so, else what was promised.
    const GpuSpec* judgeModel(const ProbeGpu& gpu)
    {
        // A MIG slice names itself after its profile ("... MIG 1g.10gb") with a share of the memory: the model is
        // the physical GPU's.
        const bool slice = gpu.parentName && !gpu.parentName->empty();
        const std::string name = slice ? *gpu.parentName : gpu.name;
        const GpuSpec* found = matchNvmlName(m_catalog, name, slice ? std::nullopt : std::optional(gpu.memoryTotalMib));
        if (!m_promisedSpec) {
            add(Check::Model,
                gpu.index,
                VerdictLevel::Fail,
                name,
                m_promised.gpuId,
                reason("probe.model.unknown_promise",
                       {{"name", name}, {"promised", m_promised.gpuId}},
                       "The promised GPU '" + m_promised.gpuId
                           + "' is not in the GPU catalog, so the probe's GPU cannot be checked against it."));
            return found;
        }
        const std::map<std::string, std::string> params = {
            {"name", name}, {"promised", m_promisedSpec->id}, {"found", found ? found->id : ""}};
        if (found == m_promisedSpec) {
            add(Check::Model,
                gpu.index,
                VerdictLevel::Pass,
                name,
                m_promisedSpec->name,
                reason("probe.model.ok", params, name + " is the promised " + m_promisedSpec->name + "."));
            return found;
        }
        if (found) {
            add(Check::Model,
                gpu.index,
                VerdictLevel::Fail,
                name + " (" + found->name + ")",
                m_promisedSpec->name,
                reason("probe.model.mismatch",
                       params,
                       "GPU " + std::to_string(gpu.index) + " reports itself as " + name + " (" + found->name
                           + " in the catalog), not the promised " + m_promisedSpec->name
                           + ": you are not getting what you pay for. Terminate the instance or take it up with "
                             "the provider."));
            return found;
        }
        // Not in the catalog under that name: the same family is likely a variant we do not list.
        const std::set<std::string> words = modelWords(name);
        const std::set<std::string> promisedWords = modelWords(m_promisedSpec->name);
        const bool sameFamily =
            !promisedWords.empty()
            && std::includes(words.begin(), words.end(), promisedWords.begin(), promisedWords.end());
        add(Check::Model,
            gpu.index,
            sameFamily ? VerdictLevel::Warn : VerdictLevel::Fail,
            name,
            m_promisedSpec->name,
            reason(sameFamily ? "probe.model.unconfirmed" : "probe.model.unknown",
                   params,
                   sameFamily
                       ? name
                             + " is not a name the catalog knows; it looks like a variant of the "
                               "promised "
                             + m_promisedSpec->name + " but that cannot be confirmed."
                       : name + " is not a GPU the catalog knows, and not the promised " + m_promisedSpec->name + "."));
        return m_promisedSpec;
    }

    void judgeMemory(const ProbeGpu& gpu)
    {
        std::optional<double> expectedGb = m_promised.memoryGbPerGpu;
        if (!expectedGb && m_promisedSpec) {
            expectedGb = m_promisedSpec->memoryGb;
        }
        const double gib = static_cast<double>(gpu.memoryTotalMib) / 1024.0;
        const std::string measured = fixed(gib, 1) + " GiB (" + std::to_string(gpu.memoryTotalMib) + " MiB)";
        if (gpu.parentName && !gpu.parentName->empty()) {
            add(Check::Memory,
                gpu.index,
                VerdictLevel::Unknown,
                measured,
                "a share",
                reason("probe.memory.mig_slice",
                       {{"mib", std::to_string(gpu.memoryTotalMib)}},
                       "This is a MIG slice with a share of the GPU's memory (" + fixed(gib, 1)
                           + " GiB); not compared with the whole GPU's."));
            return;
        }
        if (!expectedGb || *expectedGb <= 0) {
            add(Check::Memory,
                gpu.index,
                VerdictLevel::Unknown,
                measured,
                "unknown",
                reason("probe.memory.unknown",
                       {{"mib", std::to_string(gpu.memoryTotalMib)}},
                       "No memory size was "
                       "promised to compare "
                       "with."));
            return;
        }
        const std::map<std::string, std::string> params = {{"mib", std::to_string(gpu.memoryTotalMib)},
                                                           {"gib", reasonNumber(gib)},
                                                           {"promised_gb", reasonNumber(*expectedGb)}};
        // Drivers report GiB, datasheets round ("80GB" is 80 GiB on an A100, 79.6 GiB on an H100) and ECC on
        // GDDR reserves a few percent: 10 % below the promise is still the promised card.
        if (gib >= *expectedGb * 0.9) {
            add(Check::Memory,
                gpu.index,
                VerdictLevel::Pass,
                measured,
                figure(*expectedGb) + " GB",
                reason("probe.memory.ok",
                       params,
                       "GPU " + std::to_string(gpu.index) + " has " + fixed(gib, 1) + " GiB, as promised ("
                           + figure(*expectedGb) + " GB)."));
        } else {
            add(Check::Memory,
                gpu.index,
                VerdictLevel::Fail,
                measured,
                figure(*expectedGb) + " GB",
                reason("probe.memory.short",
                       params,
                       "GPU " + std::to_string(gpu.index) + " has only " + fixed(gib, 1) + " GiB; the offer promised "
                           + figure(*expectedGb) + " GB per GPU."));
        }
    }

    // ---- one GPU ------------------------------------------------------------------------------------------

    void judgeGpu(const ProbeGpu& gpu)
    {
        const GpuSpec* spec = judgeModel(gpu);
        judgeMemory(gpu);
        if (gpu.error) {
            judgeGpuError(gpu);
        }
        judgeCorrectness(gpu);
        for (const ProbeMeasurement& m : gpu.measurements) {
            judgeMeasurement(gpu, spec, m);
        }
        judgeEcc(gpu);
        judgeRetiredPages(gpu);
        judgeRemappedRows(gpu);
        judgeTemperature(gpu);
        judgePower(gpu, spec);
        judgePcie(gpu);
        judgeThrottle(gpu);
        judgeBurn(gpu);
        if (gpu.migEnabled.value_or(false)) {
            add(Check::Mig,
                gpu.index,
                VerdictLevel::Warn,
                "on",
                "off",
                reason("probe.mig.on",
                       {},
                       "MIG is on for GPU " + std::to_string(gpu.index)
                           + ": it is split into slices, each with a share of the GPU, so its speed cannot be "
                             "compared with the whole GPU's datasheet."));
        }
    }

    /// Why a GPU could not be measured, with what to do about that kind of failure.
    void judgeGpuError(const ProbeGpu& gpu)
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

    void judgeCorrectness(const ProbeGpu& gpu)
    {
        if (gpu.error) {
            return; // the "gpu_error" line fails this GPU already; its check may not have run
        }
        if (!gpu.correctness || !gpu.correctness->tolerance) {
            add(Check::Correctness,
                gpu.index,
                VerdictLevel::Unknown,
                "not measured",
                "ok",
                reason("probe.correctness.unknown", {}, "The probe did not report the GEMM check."));
            return;
        }
        const ProbeCorrectness& c = *gpu.correctness;
        const double tolerance = *c.tolerance;
        std::vector<std::string> faults;
        if (!c.repeatIdentical) {
            faults.push_back("the same GEMM twice gave different bits");
        }
        if (c.nanCount > 0) {
            faults.push_back(std::to_string(c.nanCount) + " NaN results");
        }
        if (!c.maxRelativeError) {
            faults.push_back("the relative error against the FP32 reference is not a finite number");
        } else if (*c.maxRelativeError > tolerance) {
            faults.push_back("relative error " + figure(*c.maxRelativeError) + " against the FP32 reference, over the "
                             + figure(tolerance) + " allowed");
        }
        if (!c.ok && faults.empty()) {
            faults.push_back("the probe marked the check failed");
        }
        const std::string error = c.maxRelativeError ? figure(*c.maxRelativeError) : "not finite";
        const std::string measured = std::string(c.repeatIdentical ? "repeat identical" : "repeat differs") + ", NaN "
                                     + std::to_string(c.nanCount) + ", max rel. error " + error;
        const std::string expected = "repeat identical, NaN 0, max rel. error <= " + figure(tolerance);
        const std::map<std::string, std::string> params = {
            {"repeat_identical", c.repeatIdentical ? "true" : "false"},
            {"nan_count", std::to_string(c.nanCount)},
            {"max_relative_error", c.maxRelativeError ? reasonNumber(*c.maxRelativeError) : "nan"},
            {"tolerance", reasonNumber(tolerance)},
            {"uuid", gpu.uuid}};
        if (faults.empty()) {
            add(Check::Correctness,
                gpu.index,
                VerdictLevel::Pass,
                measured,
                expected,
                reason("probe.correctness.ok", params, "The GEMM results are right and repeat exactly."));
            return;
        }
        // cuda_probe.md section 5 (last table row) and cuda_probe/README.md: a hard fail whatever the speed.
        add(Check::Correctness,
            gpu.index,
            VerdictLevel::Fail,
            measured,
            expected,
            reason("probe.correctness.failed",
                   params,
                   "GPU " + std::to_string(gpu.index) + " computes wrong results: " + joined(faults, "; ")
                       + ". A GPU that gives wrong results fails whatever its speed: do not train on it; terminate "
                         "the instance and report the GPU ("
                       + gpu.uuid + ") to the provider."));
    }

    // ---- measurements (cuda_probe.md section 5, "Recommended thresholds") ---------------------------------

    struct Threshold
    {
        double pass;
        double fail;
        const char* rule; // which row of the table
    };

    static bool isHbm(const GpuSpec& spec) { return spec.memoryType.rfind("HBM", 0) == 0; }

    /// The FP16/BF16 GEMM row for this GPU's class.
    static Threshold halfGemmThreshold(const GpuSpec& spec)
    {
        const std::string name = normalizedName(spec.id + " " + spec.name);
        if (spec.tdpWatts && *spec.tdpWatts <= 75) {
            return {0.40, 0.30, "70-75 W (power-capped)"};
        }
        if (name.find("geforce") != std::string::npos) {
            return {0.60, 0.45, "GeForce, against the FP32-accumulate peak"};
        }
        if (spec.computeCapability == "7.0") {
            return {0.55, 0.40, "V100"};
        }
        if (isHbm(spec)) {
            if (name.find("pcie") != std::string::npos) {
                return {0.60, 0.45, "PCIe HBM"};
            }
            return {0.65, 0.50, "SXM HBM"};
        }
        return {0.55, 0.40, "GDDR >= 150 W"};
    }

    /// The English name of a test in the reasons' text (ui/VerdictText words it for the GUI); nullptr for a check
    /// that is not a measurement.
    static const char* label(Check test)
    {
        switch (test) {
            case Check::Fp32Fma:
                return "FP32 FMA";
            case Check::GemmFp16:
                return "FP16 tensor GEMM";
            case Check::GemmBf16:
                return "BF16 tensor GEMM";
            case Check::GemmTf32:
                return "TF32 tensor GEMM";
            case Check::GemmFp8:
                return "FP8 tensor GEMM";
            case Check::WmmaFp16:
                return "FP16 WMMA kernel";
            case Check::DramCopy:
                return "memory copy";
            case Check::DramTriad:
                return "memory triad";
            case Check::H2dPinned:
                return "host-to-device copy";
            case Check::D2hPinned:
                return "device-to-host copy";
            case Check::P2p:
                return "peer-to-peer copy";
            case Check::GemmOwnFp16:
                return "own FP16 tensor GEMM";
            case Check::GemmOwnBf16:
                return "own BF16 tensor GEMM";
            case Check::NcclAllreduce:
                return "NCCL all-reduce";
            default:
                return nullptr;
        }
    }

    static bool isHostCopy(const ProbeMeasurement& m)
    {
        return m.test == Check::H2dPinned || m.test == Check::D2hPinned;
    }

    /// PCIe bandwidth per direction of the link the copy ran on (cuda_probe.md section 5: Gen3 x16 15.75,
    /// Gen4 31.5, Gen5 63 GB/s), scaled by the lanes; nullopt for other generations.
    static std::optional<double> linkBandwidth(const ProbeGpu& gpu)
    {
        if (!gpu.pcie || !gpu.pcie->genUnderLoad || !gpu.pcie->widthUnderLoad) {
            return std::nullopt;
        }
        double x16 = 0;
        switch (*gpu.pcie->genUnderLoad) {
            case 3:
                x16 = 15.75;
                break;
            case 4:
                x16 = 31.5;
                break;
            case 5:
                x16 = 63;
                break;
            default:
                return std::nullopt;
        }
        return x16 * *gpu.pcie->widthUnderLoad / 16.0;
    }

    void judgeMeasurement(const ProbeGpu& gpu, const GpuSpec* spec, const ProbeMeasurement& m)
    {
        const char* known = m.test ? label(*m.test) : nullptr;
        const std::string what = known ? known : m.name;
        std::map<std::string, std::string> params = {{"test", m.name}, {"method", m.method}};
        if (m.skipped) {
            params["why"] = *m.skipped;
            add(m.name,
                gpu.index,
                VerdictLevel::Unknown,
                "skipped",
                "",
                reason("probe.measurement.skipped", params, "The " + what + " test did not run: " + *m.skipped + "."));
            return;
        }
        if (!m.value) {
            add(m.name,
                gpu.index,
                VerdictLevel::Unknown,
                "no figure",
                "",
                reason(
                    "probe.measurement.no_value", params, "The " + what + " test gave no finite figure; not judged."));
            return;
        }
        const double value = *m.value;
        const std::string measured = figure(value) + " " + m.unit;
        params["value"] = reasonNumber(value);
        params["unit"] = m.unit;
        if (!known) {
            add(m.name,
                gpu.index,
                VerdictLevel::Unknown,
                measured,
                "",
                reason("probe.measurement.unknown_test",
                       params,
                       "The probe reported a test this GPU Planner does not know (" + m.name + "); not judged."));
            return;
        }

        if (m.informational) {
            judgeInformational(gpu, m, what, measured, params);
            return;
        }
        if (m.test == Check::P2p) {
            judgePeer(gpu, spec, m, what, measured, params);
            return;
        }

        // The datasheet figure the test is a share of.
        std::optional<double> peak;
        // Compute tests are in TFLOPS, the copies (DRAM, host, peer) in GB/s, whether or not the catalog knows
        // the GPU.
        const std::string peakUnit(checkInfo(*m.test).unit);
        std::optional<Threshold> threshold;
        if (spec) {
            const bool cublas = m.method == "cublaslt";
            switch (*m.test) {
                case Check::GemmFp16:
                case Check::GemmBf16:
                case Check::WmmaFp16:
                    peak = m.test == Check::GemmBf16 ? spec->peak.bf16 : spec->peak.fp16;
                    if (cublas) {
                        threshold = halfGemmThreshold(*spec);
                    }
                    break;
                case Check::GemmTf32:
                    peak = spec->peak.tf32;
                    if (cublas) {
                        threshold = Threshold{0.50, 0.35, "TF32 GEMM, sm_80+"};
                    }
                    break;
                case Check::GemmFp8:
                    peak = spec->peak.fp8;
                    if (cublas) {
                        threshold = Threshold{0.55, 0.40, "FP8 GEMM, sm_89/sm_90/sm_100"};
                    }
                    break;
                case Check::Fp32Fma:
                    peak = spec->peak.fp32;
                    break;
                case Check::DramCopy:
                case Check::DramTriad:
                    peak = spec->memoryBandwidthGBs;
                    threshold = isHbm(*spec) ? Threshold{0.75, 0.60, "DRAM copy/triad, HBM"}
                                             : Threshold{0.70, 0.55, "DRAM copy/triad, GDDR"};
                    break;
                case Check::H2dPinned:
                case Check::D2hPinned:
                    peak = linkBandwidth(gpu);
                    threshold = Threshold{0.60, 0.40, "H2D/D2H pinned, against the negotiated link"};
                    break;
                default:
                    break;
            }
        }
        if (m.unit != peakUnit) {
            add(m.name,
                gpu.index,
                VerdictLevel::Unknown,
                measured,
                peakUnit,
                reason("probe.measurement.unit",
                       params,
                       "The " + what + " test reported " + m.unit + " where " + peakUnit
                           + " was expected; not judged."));
            return;
        }
        if (!peak || *peak <= 0) {
            const std::string gpuName = spec ? spec->name : gpu.name;
            const bool link = isHostCopy(m);
            params["gpu"] = gpuName;
            add(m.name,
                gpu.index,
                VerdictLevel::Unknown,
                measured,
                "unknown",
                reason(link ? "probe.measurement.no_link" : "probe.measurement.no_peak",
                       params,
                       link ? "The " + what + " test reached " + measured
                                  + "; the PCIe link it ran on is not known, so it is not judged."
                            : "The " + what + " test reached " + measured
                                  + "; the catalog has no datasheet peak "
                                    "for it on the "
                                  + gpuName + ", so its share is unknown and it is not judged."));
            return;
        }
        const double ratio = value / *peak;
        params["peak"] = reasonNumber(*peak);
        params["ratio"] = reasonNumber(static_cast<double>(static_cast<long long>(ratio * 1000 + 0.5)) / 1000);
        const std::string measuredShare = measured + " (" + ratioText(ratio) + " of " + figure(*peak) + ")";
        if (!threshold) {
            add(m.name,
                gpu.index,
                VerdictLevel::Unknown,
                measuredShare,
                "peak " + figure(*peak) + " " + peakUnit,
                reason("probe.measurement.no_threshold",
                       params,
                       "The " + what + " test reached " + measured + ", " + ratioText(ratio) + " of the "
                           + figure(*peak) + " " + peakUnit
                           + " datasheet peak; no healthy range is published for it, so it is not judged."));
            return;
        }
        if (gpu.migEnabled.value_or(false)) {
            add(m.name,
                gpu.index,
                VerdictLevel::Unknown,
                measuredShare,
                "",
                reason("probe.measurement.mig",
                       params,
                       "The " + what + " test ran on a MIG slice; its share of the whole GPU's peak is not judged."));
            return;
        }
        params["pass"] = reasonNumber(threshold->pass);
        params["fail"] = reasonNumber(threshold->fail);
        params["rule"] = threshold->rule;
        const std::string expected = ">= " + ratioText(threshold->pass) + " of " + figure(*peak) + " " + peakUnit
                                     + " (fail < " + ratioText(threshold->fail) + ")";
        const bool link = isHostCopy(m);
        const std::string peakName = link ? "the " + figure(*peak) + " GB/s of its PCIe Gen"
                                                + std::to_string(gpu.pcie->genUnderLoad.value_or(0)) + " x"
                                                + std::to_string(gpu.pcie->widthUnderLoad.value_or(0)) + " link"
                                          : "the " + figure(*peak) + " " + peakUnit + " datasheet peak";
        const std::string head =
            "The " + what + " test reached " + measured + ", " + ratioText(ratio) + " of " + peakName;
        if (ratio >= threshold->pass) {
            add(m.name,
                gpu.index,
                VerdictLevel::Pass,
                measuredShare,
                expected,
                reason("probe.measurement.ok",
                       params,
                       head + " (healthy from " + ratioText(threshold->pass) + " for " + threshold->rule + ")."));
        } else if (ratio < threshold->fail) {
            add(m.name,
                gpu.index,
                VerdictLevel::Fail,
                measuredShare,
                expected,
                reason("probe.measurement.slow",
                       params,
                       head + ", under the failing " + ratioText(threshold->fail) + " for " + threshold->rule
                           + ": it is much slower than it should be (throttled, shared or faulty)."));
        } else {
            add(m.name,
                gpu.index,
                VerdictLevel::Warn,
                measuredShare,
                expected,
                reason("probe.measurement.low",
                       params,
                       head + ", below the healthy " + ratioText(threshold->pass) + " for " + threshold->rule
                           + " but above the failing " + ratioText(threshold->fail) + "."));
        }
    }

    /// Our own GEMM kernel: shown as a share of cuBLASLt on the same GPU (itself a health signal: a GPU on which
    /// a plain kernel keeps up with the library's but the library lags is suspicious), never judged until a device
    /// check has validated the kernel.
    void judgeInformational(const ProbeGpu& gpu,
                            const ProbeMeasurement& m,
                            const std::string& what,
                            const std::string& measured,
                            std::map<std::string, std::string> params)
    {
        const ProbeMeasurement* reference =
            gpu.measurement(m.test == Check::GemmOwnBf16 ? Check::GemmBf16 : Check::GemmFp16);
        if (reference && reference->value && *reference->value > 0) {
            const double ratio = *m.value / *reference->value;
            params["reference"] = reasonNumber(*reference->value);
            params["ratio"] = reasonNumber(static_cast<double>(static_cast<long long>(ratio * 1000 + 0.5)) / 1000);
            add(m.name,
                gpu.index,
                VerdictLevel::Unknown,
                measured + " (" + ratioText(ratio) + " of cuBLASLt)",
                "informational",
                reason("probe.measurement.informational",
                       params,
                       "The " + what + " test reached " + measured + ", " + ratioText(ratio) + " of cuBLASLt's "
                           + figure(*reference->value) + " TFLOPS on this GPU; shown for information, not judged."));
            return;
        }
        add(m.name,
            gpu.index,
            VerdictLevel::Unknown,
            measured,
            "informational",
            reason("probe.measurement.informational_alone",
                   params,
                   "The " + what + " test reached " + measured
                       + "; there is no cuBLASLt figure on this GPU to compare it with, and it is shown for "
                         "information, not judged."));
    }

    /// A copy from this GPU to another: against the NVLink of a GPU whose datasheet has one (per direction), else
    /// against the PCIe link. The thresholds are first guesses (nvbandwidth reaches about 0.8 of NVLink per
    /// direction), to be set from device checks.
    void judgePeer(const ProbeGpu& gpu,
                   const GpuSpec* spec,
                   const ProbeMeasurement& m,
                   const std::string& what,
                   const std::string& measured,
                   std::map<std::string, std::string> params)
    {
        const std::string peer = m.peer ? std::to_string(*m.peer) : "?";
        params["peer"] = peer;
        params["link"] = m.link;
        // 0: no NVLink (a plain double: GCC 12 warns of an optional copied below as maybe uninitialised)
        const double nvlink = spec ? nvlinkPerDirection(*spec).value_or(0) : 0;
        const std::string toPeer = measured + " to GPU " + peer + (m.link.empty() ? "" : " (" + m.link + ")");
        if (nvlink > 0 && m.link != "nvlink" && m_result.gpus.size() > 1) {
            add(Check::P2p,
                gpu.index,
                VerdictLevel::Warn,
                toPeer,
                "NVLink",
                reason("probe.p2p.no_nvlink",
                       params,
                       "GPU " + std::to_string(gpu.index) + " reaches GPU " + peer + " over "
                           + (m.link == "staged" ? std::string("the host (no peer access)") : std::string("PCIe"))
                           + ", not over the NVLink the " + spec->name
                           + " has: multi-GPU training will be slower. Check `nvidia-smi topo -m`."));
            return;
        }
        double peak = nvlink;
        std::string rule = "P2P over NVLink, per direction";
        if (peak <= 0) {
            peak = linkBandwidth(gpu).value_or(0);
            rule = "P2P over PCIe, against the negotiated link";
        }
        if (peak <= 0) {
            add(Check::P2p,
                gpu.index,
                VerdictLevel::Unknown,
                toPeer,
                "unknown",
                reason("probe.p2p.no_link",
                       params,
                       "The " + what + " test reached " + toPeer
                           + "; the link it ran on is not known, so it is not "
                             "judged."));
            return;
        }
        const double ratio = *m.value / peak;
        params["peak"] = reasonNumber(peak);
        params["ratio"] = reasonNumber(static_cast<double>(static_cast<long long>(ratio * 1000 + 0.5)) / 1000);
        const Threshold threshold{0.60, 0.40, ""};
        const std::string expected = ">= " + ratioText(threshold.pass) + " of " + figure(peak) + " GB/s (fail < "
                                     + ratioText(threshold.fail) + ")";
        const VerdictLevel level = ratio >= threshold.pass  ? VerdictLevel::Pass
                                   : ratio < threshold.fail ? VerdictLevel::Fail
                                                            : VerdictLevel::Warn;
        const char* key = level == VerdictLevel::Pass   ? "probe.p2p.ok"
                          : level == VerdictLevel::Fail ? "probe.p2p.slow"
                                                        : "probe.p2p.low";
        params["rule"] = rule;
        add(Check::P2p,
            gpu.index,
            level,
            toPeer + " (" + ratioText(ratio) + " of " + figure(peak) + ")",
            expected,
            reason(key,
                   params,
                   "Copies from GPU " + std::to_string(gpu.index) + " to GPU " + peer + " reached " + measured + ", "
                       + ratioText(ratio) + " of " + figure(peak) + " GB/s (" + rule + ")"
                       + (level == VerdictLevel::Pass   ? "."
                          : level == VerdictLevel::Fail ? ": far slower than the link allows."
                                                        : ": slower than a healthy link.")));
    }

    /// The machine-wide tests: NCCL's all-reduce bus bandwidth against the slowest link between the GPUs.
    void judgeMultiGpu()
    {
        for (const ProbeMeasurement& m : m_result.multiGpu) {
            if (m.test != Check::NcclAllreduce) {
                continue;
            }
            std::map<std::string, std::string> params = {{"test", m.name}, {"method", m.method}};
            if (m.skipped || !m.value) {
                params["why"] = m.skipped.value_or("no figure");
                add(m.name,
                    std::nullopt,
                    VerdictLevel::Unknown,
                    "skipped",
                    "",
                    reason(
                        "probe.nccl.skipped", params, "The NCCL all-reduce test did not run: " + params["why"] + "."));
                continue;
            }
            const std::string measured = figure(*m.value) + " GB/s";
            params["value"] = reasonNumber(*m.value);
            std::optional<double> peak = m_promisedSpec ? nvlinkPerDirection(*m_promisedSpec) : std::nullopt;
            const bool viaNvlink = peak.has_value();
            if (!peak && !m_result.gpus.empty()) {
                peak = linkBandwidth(m_result.gpus.front());
            }
            if (!peak) {
                add(m.name,
                    std::nullopt,
                    VerdictLevel::Unknown,
                    measured,
                    "unknown",
                    reason("probe.nccl.no_link",
                           params,
                           "NCCL's all-reduce reached a bus bandwidth of " + measured
                               + "; the link between the GPUs is not known, so it is not judged."));
                continue;
            }
            const double ratio = *m.value / *peak;
            params["peak"] = reasonNumber(*peak);
            params["ratio"] = reasonNumber(static_cast<double>(static_cast<long long>(ratio * 1000 + 0.5)) / 1000);
            params["link"] = viaNvlink ? "nvlink" : "pcie";
            // nccl-tests' bus bandwidth approaches the per-direction link speed on a healthy machine; these first
            // thresholds are loose until device checks on several GPUs set them.
            const VerdictLevel level = ratio >= 0.5  ? VerdictLevel::Pass
                                       : ratio < 0.3 ? VerdictLevel::Fail
                                                     : VerdictLevel::Warn;
            add(m.name,
                std::nullopt,
                level,
                measured + " (" + ratioText(ratio) + " of " + figure(*peak) + ")",
                ">= 0.50 of " + figure(*peak) + " GB/s (fail < 0.30)",
                reason(level == VerdictLevel::Pass   ? "probe.nccl.ok"
                       : level == VerdictLevel::Fail ? "probe.nccl.slow"
                                                     : "probe.nccl.low",
                       params,
                       "NCCL's all-reduce reached a bus bandwidth of " + measured + ", " + ratioText(ratio) + " of the "
                           + figure(*peak) + " GB/s per direction of " + (viaNvlink ? "NVLink" : "the PCIe link")
                           + (level == VerdictLevel::Pass   ? "."
                              : level == VerdictLevel::Fail ? ": multi-GPU training will be held back by communication."
                                                            : ": slower than a healthy machine.")));
        }
    }

    /// The burn-in: wrong results or Xid errors fail a GPU; so does a GPU that slows down under sustained load.
    void judgeBurn(const ProbeGpu& gpu)
    {
        if (!gpu.burn) {
            return;
        }
        const ProbeBurn& b = *gpu.burn;
        const std::string index = std::to_string(gpu.index);
        const std::map<std::string, std::string> counts = {{"seconds", reasonNumber(b.seconds)},
                                                           {"gemms", std::to_string(b.gemms)},
                                                           {"wrong", std::to_string(b.wrongResults)},
                                                           {"nan", std::to_string(b.nanCount)},
                                                           {"xid", b.xidErrors ? std::to_string(*b.xidErrors) : ""}};
        const std::string measured = std::to_string(b.gemms) + " GEMMs in " + fixed(b.seconds, 0) + " s, "
                                     + std::to_string(b.wrongResults) + " wrong, " + std::to_string(b.nanCount)
                                     + " NaN, Xid " + (b.xidErrors ? std::to_string(*b.xidErrors) : "n/a");
        if (b.wrongResults > 0 || b.nanCount > 0) {
            add(Check::BurnErrors,
                gpu.index,
                VerdictLevel::Fail,
                measured,
                "0 wrong, 0 NaN",
                reason("probe.burn.wrong_results",
                       counts,
                       "Under sustained load GPU " + index + " computed " + std::to_string(b.wrongResults)
                           + " wrong result(s) and " + std::to_string(b.nanCount) + " NaN(s) in "
                           + std::to_string(b.gemms)
                           + " GEMMs of the same inputs: it fails when it runs hot or long. Do not train on it; "
                             "terminate the instance and report the GPU ("
                           + gpu.uuid + ")."));
        } else if (b.xidErrors && *b.xidErrors > 0) {
            std::string xids;
            for (long long x : b.xids) {
                xids += (xids.empty() ? "" : ", ") + std::to_string(x);
            }
            std::map<std::string, std::string> params = counts;
            params["xids"] = xids;
            add(Check::BurnErrors,
                gpu.index,
                VerdictLevel::Fail,
                measured,
                "no Xid",
                reason("probe.burn.xid",
                       params,
                       "The driver reported " + std::to_string(*b.xidErrors) + " critical Xid error(s) (" + xids
                           + ") on GPU " + index
                           + " during the burn-in: the GPU or its driver faulted. Terminate the instance and report "
                             "the GPU."));
        } else {
            add(Check::BurnErrors,
                gpu.index,
                VerdictLevel::Pass,
                measured,
                "0 wrong, 0 NaN, no Xid",
                reason("probe.burn.ok",
                       counts,
                       "GPU " + index + " ran " + std::to_string(b.gemms) + " GEMMs in " + fixed(b.seconds, 0)
                           + " s of sustained load with identical results every time."));
        }
        if (b.tflopsFirst && b.tflopsLast && *b.tflopsFirst > 0) {
            const double ratio = *b.tflopsLast / *b.tflopsFirst;
            const std::map<std::string, std::string> params = {{"first", reasonNumber(*b.tflopsFirst)},
                                                               {"last", reasonNumber(*b.tflopsLast)},
                                                               {"ratio", reasonNumber(ratio)}};
            const std::string speed =
                figure(*b.tflopsFirst) + " -> " + figure(*b.tflopsLast) + " TFLOPS (" + ratioText(ratio) + ")";
            const std::string expected =
                ">= " + ratioText(kBurnWarnRatio) + " (fail < " + ratioText(kBurnFailRatio) + ")";
            if (ratio >= kBurnWarnRatio) {
                add(Check::BurnSpeed,
                    gpu.index,
                    VerdictLevel::Pass,
                    speed,
                    expected,
                    reason("probe.burn.steady",
                           params,
                           "GPU " + index + " held its speed under sustained load (" + speed + ")."));
            } else {
                const bool fail = ratio < kBurnFailRatio;
                add(Check::BurnSpeed,
                    gpu.index,
                    fail ? VerdictLevel::Fail : VerdictLevel::Warn,
                    speed,
                    expected,
                    reason(fail ? "probe.burn.slowdown" : "probe.burn.sags",
                           params,
                           "GPU " + index + " slowed down under sustained load, from " + figure(*b.tflopsFirst) + " to "
                               + figure(*b.tflopsLast) + " TFLOPS (" + ratioText(ratio)
                               + "): it cannot hold its clocks (cooling or power)"
                               + (fail ? "; a long training run on it will be much slower than planned." : ".")));
            }
        }
        if (b.throttle) {
            judgeThrottleShares(Check::BurnThrottle, gpu.index, *b.throttle, "burn");
        }
    }

    // ---- health (cuda_probe.md section 5, "Hard health checks") -------------------------------------------

    void judgeEcc(const ProbeGpu& gpu)
    {
        if (!gpu.ecc) {
            add(Check::Ecc,
                gpu.index,
                VerdictLevel::Unknown,
                "not reported",
                "0 uncorrectable",
                reason("probe.ecc.unknown", {}, "The GPU reports no ECC state (GeForce cards have no ECC)."));
            return;
        }
        const ProbeEcc& e = *gpu.ecc;
        const std::string measured = std::string(e.enabled ? "on" : "off") + ", volatile uncorrectable "
                                     + std::to_string(e.volatileUncorrected) + ", aggregate uncorrectable "
                                     + std::to_string(e.aggregateUncorrected);
        const std::map<std::string, std::string> params = {
            {"volatile_uncorrected", std::to_string(e.volatileUncorrected)},
            {"aggregate_uncorrected", std::to_string(e.aggregateUncorrected)},
            {"volatile_corrected", std::to_string(e.volatileCorrected)}};
        const std::string index = std::to_string(gpu.index);
        if (e.volatileUncorrected > 0) {
            add(Check::Ecc,
                gpu.index,
                VerdictLevel::Fail,
                measured,
                "0 volatile uncorrectable",
                reason("probe.ecc.uncorrectable",
                       params,
                       "GPU " + index + " had " + std::to_string(e.volatileUncorrected)
                           + " uncorrectable ECC error(s) since the driver loaded: its memory is faulty and programs "
                             "on it can crash or compute garbage. Terminate the instance and report the GPU."));
        } else if (!e.enabled) {
            add(Check::Ecc,
                gpu.index,
                VerdictLevel::Warn,
                measured,
                "ECC on",
                reason("probe.ecc.off",
                       params,
                       "ECC is off on GPU " + index + ": memory errors go unnoticed and cannot be counted."));
        } else if (e.aggregateUncorrected > 0) {
            add(Check::Ecc,
                gpu.index,
                VerdictLevel::Warn,
                measured,
                "0 aggregate uncorrectable",
                reason("probe.ecc.history",
                       params,
                       "GPU " + index + " has had " + std::to_string(e.aggregateUncorrected)
                           + " uncorrectable ECC error(s) in its lifetime, none since the driver loaded."));
        } else {
            add(Check::Ecc,
                gpu.index,
                VerdictLevel::Pass,
                measured,
                "0 uncorrectable",
                reason("probe.ecc.ok", params, "No uncorrectable ECC errors."));
        }
    }

    void judgeRetiredPages(const ProbeGpu& gpu)
    {
        if (!gpu.retiredPages) {
            return; // Ampere and newer remap rows instead
        }
        const ProbeRetiredPages& p = *gpu.retiredPages;
        const std::string measured =
            std::to_string(p.count) + " retired, " + (p.pending > 0 ? "retirement pending" : "none pending");
        const std::map<std::string, std::string> params = {{"count", std::to_string(p.count)},
                                                           {"pending", std::to_string(p.pending)}};
        if (p.pending > 0) {
            add(Check::RetiredPages,
                gpu.index,
                VerdictLevel::Fail,
                measured,
                "none pending",
                reason("probe.retired_pages.pending",
                       params,
                       "GPU " + std::to_string(gpu.index)
                           + " has memory pages waiting to be retired: it needs a reset before its memory can be "
                             "trusted. Terminate the instance or ask the provider to reset the GPU."));
        } else {
            add(Check::RetiredPages,
                gpu.index,
                VerdictLevel::Pass,
                measured,
                "none pending",
                reason("probe.retired_pages.ok", params, "No page retirement is pending."));
        }
    }

    void judgeRemappedRows(const ProbeGpu& gpu)
    {
        if (!gpu.remappedRows) {
            return; // pre-Ampere retires pages instead
        }
        const ProbeRemappedRows& r = *gpu.remappedRows;
        const std::string measured = std::to_string(r.correctable) + " correctable, " + std::to_string(r.uncorrectable)
                                     + " uncorrectable" + (r.pending ? ", remap pending" : "")
                                     + (r.failure ? ", remap failed" : "");
        const std::map<std::string, std::string> params = {{"correctable", std::to_string(r.correctable)},
                                                           {"uncorrectable", std::to_string(r.uncorrectable)},
                                                           {"pending", r.pending ? "true" : "false"},
                                                           {"failure", r.failure ? "true" : "false"}};
        const std::string index = std::to_string(gpu.index);
        if (r.failure) {
            add(Check::RemappedRows,
                gpu.index,
                VerdictLevel::Fail,
                measured,
                "no failure, none pending",
                reason("probe.remapped_rows.failure",
                       params,
                       "GPU " + index
                           + " ran out of spare memory rows (row remapping failed): its memory is "
                             "faulty. Terminate the instance and report the GPU."));
        } else if (r.pending) {
            add(Check::RemappedRows,
                gpu.index,
                VerdictLevel::Fail,
                measured,
                "no failure, none pending",
                reason("probe.remapped_rows.pending",
                       params,
                       "GPU " + index
                           + " has a row remap pending: it needs a reset before its memory can be "
                             "trusted. Terminate the instance or ask the provider to reset the GPU."));
        } else {
            add(Check::RemappedRows,
                gpu.index,
                VerdictLevel::Pass,
                measured,
                "no failure, none pending",
                reason("probe.remapped_rows.ok", params, "No row remap is pending or failed."));
        }
    }

    void judgeTemperature(const ProbeGpu& gpu)
    {
        const ProbeTemperature& t = gpu.temperature;
        const std::optional<int> hottest = t.maxUnderLoadC ? t.maxUnderLoadC : t.currentC;
        if (!hottest || !t.slowdownC) {
            add(Check::Temperature,
                gpu.index,
                VerdictLevel::Unknown,
                hottest ? std::to_string(*hottest) + " C" : "not reported",
                t.slowdownC ? "< " + std::to_string(*t.slowdownC) + " C" : "unknown",
                reason("probe.temperature.unknown",
                       {},
                       "The temperature under load or the slowdown threshold was not reported."));
            return;
        }
        const std::string measured = std::to_string(*hottest) + " C";
        const std::string expected = "< " + std::to_string(*t.slowdownC) + " C (slowdown)";
        const std::map<std::string, std::string> params = {{"celsius", std::to_string(*hottest)},
                                                           {"slowdown", std::to_string(*t.slowdownC)}};
        if (*hottest >= *t.slowdownC) {
            add(Check::Temperature,
                gpu.index,
                VerdictLevel::Fail,
                measured,
                expected,
                reason("probe.temperature.slowdown",
                       params,
                       "GPU " + std::to_string(gpu.index) + " reached " + measured + " under load, at or above its "
                           + std::to_string(*t.slowdownC)
                           + " C slowdown threshold: it slows itself down. The cooling of this host is failing; "
                             "terminate the instance or take it up with the provider."));
        } else {
            add(Check::Temperature,
                gpu.index,
                VerdictLevel::Pass,
                measured,
                expected,
                reason("probe.temperature.ok",
                       params,
                       "The GPU stayed at " + measured + " under load, below its " + std::to_string(*t.slowdownC)
                           + " C slowdown threshold."));
        }
    }

    void judgePower(const ProbeGpu& gpu, const GpuSpec* spec)
    {
        const ProbePower& p = gpu.power;
        if (m_result.probe.mode == "quick") {
            // The quick run's GEMMs last well under a second each, with idle gaps between them: too short for the
            // board to reach its power limit, and NVML's power reading is a 1 s average on Ampere and newer.
            add(Check::Power,
                gpu.index,
                VerdictLevel::Unknown,
                p.underLoadW ? figure(*p.underLoadW) + " W" : "not reported",
                "full run",
                reason("probe.power.quick",
                       {},
                       "Power is judged only in the full run: the quick run's GEMMs are too short for the GPU to "
                       "reach its power limit."));
            return;
        }
        if (!p.underLoadW || !p.limitW || *p.limitW <= 0) {
            add(Check::Power,
                gpu.index,
                VerdictLevel::Unknown,
                p.underLoadW ? figure(*p.underLoadW) + " W" : "not reported",
                p.limitW ? ">= " + figure(0.75 * *p.limitW) + " W" : "unknown",
                reason("probe.power.unknown", {}, "The power under load or the enforced limit was not reported."));
            return;
        }
        const double ratio = *p.underLoadW / *p.limitW;
        const std::string measured =
            figure(*p.underLoadW) + " W (" + ratioText(ratio) + " of " + figure(*p.limitW) + " W)";
        const std::string expected = ">= 0.75 x " + figure(*p.limitW) + " W";
        const std::map<std::string, std::string> params = {
            {"watts", reasonNumber(*p.underLoadW)}, {"limit", reasonNumber(*p.limitW)}, {"ratio", reasonNumber(ratio)}};
        // DCGM targeted_power's 0.75 (cuda_probe.md section 1.2 and 5); only a warning on 70 W cards.
        if (ratio >= 0.75) {
            add(Check::Power,
                gpu.index,
                VerdictLevel::Pass,
                measured,
                expected,
                reason("probe.power.ok",
                       params,
                       "Under load the GPU drew " + figure(*p.underLoadW) + " W, " + ratioText(ratio)
                           + " of its enforced " + figure(*p.limitW) + " W limit."));
            return;
        }
        const bool lowPower = (spec && spec->tdpWatts && *spec->tdpWatts <= 75) || *p.limitW <= 75;
        add(Check::Power,
            gpu.index,
            lowPower ? VerdictLevel::Warn : VerdictLevel::Fail,
            measured,
            expected,
            reason("probe.power.low",
                   params,
                   "Under load the GPU drew only " + figure(*p.underLoadW) + " W, " + ratioText(ratio)
                       + " of its enforced " + figure(*p.limitW)
                       + " W limit (a healthy GPU under a GEMM draws at least 0.75 of it): it is held back by power "
                         "delivery, clocks or another tenant."));
    }

    void judgePcie(const ProbeGpu& gpu)
    {
        if (!gpu.pcie || !gpu.pcie->genUnderLoad || !gpu.pcie->widthUnderLoad || !gpu.pcie->genMax
            || !gpu.pcie->widthMax) {
            add(Check::Pcie,
                gpu.index,
                VerdictLevel::Unknown,
                "not reported",
                "unknown",
                reason("probe.pcie.unknown", {}, "The PCIe link under load was not reported."));
            return;
        }
        const ProbePcie& l = *gpu.pcie;
        const std::string measured = "Gen" + std::to_string(*l.genUnderLoad) + " x" + std::to_string(*l.widthUnderLoad);
        const std::string expected = "Gen" + std::to_string(*l.genMax) + " x" + std::to_string(*l.widthMax);
        const std::map<std::string, std::string> params = {{"gen", std::to_string(*l.genUnderLoad)},
                                                           {"width", std::to_string(*l.widthUnderLoad)},
                                                           {"gen_max", std::to_string(*l.genMax)},
                                                           {"width_max", std::to_string(*l.widthMax)}};
        if (*l.genUnderLoad >= *l.genMax && *l.widthUnderLoad >= *l.widthMax) {
            add(Check::Pcie,
                gpu.index,
                VerdictLevel::Pass,
                measured,
                expected,
                reason("probe.pcie.ok", params, "The PCIe link ran at its full " + expected + " under load."));
            return;
        }
        std::string text = "The PCIe link of GPU " + std::to_string(gpu.index) + " ran at " + measured
                           + " under load, below its " + expected + ": host-device copies are slower.";
        text += m_promised.virtualMachine ? " Inside a VM the reported link often is not the physical one, so this is "
                                            "only a warning."
                                          : " On bare metal this is a badly seated card or riser; take it up with the "
                                            "provider.";
        add(Check::Pcie,
            gpu.index,
            m_promised.virtualMachine ? VerdictLevel::Warn : VerdictLevel::Fail,
            measured,
            expected,
            reason(m_promised.virtualMachine ? "probe.pcie.degraded_vm" : "probe.pcie.degraded", params, text));
    }

    static bool isHardThrottle(const std::string& why)
    {
        return why == "hw_slowdown" || why == "hw_thermal" || why == "hw_power_brake";
    }

    /// Throttling judged by the share of the busy samples that carried each reason: one 25 ms sample of
    /// hw_slowdown is a blip (a warning), a tenth of the run is a GPU that does not hold its clocks (a fail).
    /// `phase` is "gemm" (the GEMM tests) or "burn" (the burn-in).
    void judgeThrottleShares(Check check, int gpu, const ProbeThrottle& t, const std::string& phase)
    {
        const std::string index = std::to_string(gpu);
        const std::string during = phase == "burn" ? "burn-in" : "GEMM tests";
        if (t.samples <= 0) {
            add(check,
                gpu,
                VerdictLevel::Unknown,
                "no busy samples",
                "",
                reason("probe.throttle.no_samples",
                       {{"phase", phase}},
                       "NVML gave no clock readings while the GPU was busy during the " + during + "; not judged."));
            return;
        }
        std::vector<std::string> listed;
        std::string hardest;
        double hardShare = 0;
        double thermalShare = 0;
        for (const auto& [why, share] : t.shares) {
            listed.push_back(why + " " + fixed(share * 100, 0) + " %");
            if (isHardThrottle(why) && share > hardShare) {
                hardShare = share;
                hardest = why;
            } else if (why == "sw_thermal") {
                thermalShare = share;
            }
        }
        const std::string measured = listed.empty() ? "none" : joined(listed);
        const std::string expected = "hw_slowdown, hw_thermal, hw_power_brake < " + fixed(kThrottleFailShare * 100, 0)
                                     + " % of " + std::to_string(t.samples) + " busy samples";
        std::map<std::string, std::string> params = {{"phase", phase},
                                                     {"samples", std::to_string(t.samples)},
                                                     {"reason", hardest},
                                                     {"share", reasonNumber(hardShare)}};
        if (hardShare >= kThrottleFailShare) {
            add(check,
                gpu,
                VerdictLevel::Fail,
                measured,
                expected,
                reason("probe.throttle.hardware_sustained",
                       params,
                       "GPU " + index + " was slowed down by hardware (" + hardest + ") in " + fixed(hardShare * 100, 0)
                           + " % of the busy samples of the " + during
                           + ": overheating, a power supply fault or a power brake. It will not run at its speed; "
                             "terminate the instance or take it up with the provider."));
        } else if (hardShare > 0) {
            add(check,
                gpu,
                VerdictLevel::Warn,
                measured,
                expected,
                reason("probe.throttle.hardware_brief",
                       params,
                       "GPU " + index + " was briefly slowed down by hardware (" + hardest + ", "
                           + fixed(hardShare * 100, 0) + " % of the busy samples of the " + during
                           + "); watch its speed during training."));
        } else if (thermalShare >= kThrottleFailShare) {
            params["share"] = reasonNumber(thermalShare);
            add(check,
                gpu,
                VerdictLevel::Warn,
                measured,
                expected,
                reason("probe.throttle.thermal_sustained",
                       params,
                       "The driver slowed GPU " + index + " down because it ran hot (sw_thermal) in "
                           + fixed(thermalShare * 100, 0) + " % of the busy samples of the " + during + "."));
        } else {
            add(check,
                gpu,
                VerdictLevel::Pass,
                measured,
                expected,
                reason("probe.throttle.ok_shares",
                       params,
                       "No harmful clock throttling in " + std::to_string(t.samples) + " busy samples of the " + during
                           + "."));
        }
    }

    void judgeThrottle(const ProbeGpu& gpu)
    {
        if (gpu.throttle) {
            judgeThrottleShares(Check::Throttle, gpu.index, *gpu.throttle, "gemm");
            return;
        }
        // cuda_probe.md section 5 fails HW slowdown, HW thermal and power brake under load; section 3 also flags
        // SW thermal slowdown, which is the driver's own (softer) reaction to heat: a warning. SW power cap is
        // normal under a GEMM.
        std::vector<std::string> hard;
        std::vector<std::string> soft;
        for (const std::string& why : gpu.throttleReasons) {
            if (why == "hw_slowdown" || why == "hw_thermal" || why == "hw_power_brake") {
                hard.push_back(why);
            } else if (why == "sw_thermal") {
                soft.push_back(why);
            }
        }
        const std::string measured = gpu.throttleReasons.empty() ? "none" : joined(gpu.throttleReasons);
        const std::string expected = "no hw_slowdown, hw_thermal, hw_power_brake, sw_thermal";
        const std::map<std::string, std::string> params = {{"reasons", joined(gpu.throttleReasons, ",")}};
        const std::string index = std::to_string(gpu.index);
        if (!hard.empty()) {
            add(Check::Throttle,
                gpu.index,
                VerdictLevel::Fail,
                measured,
                expected,
                reason("probe.throttle.hardware",
                       params,
                       "GPU " + index + " was slowed down by hardware during the GEMM test (" + joined(hard)
                           + "): overheating, a power supply fault or a power brake. It will not run at its speed; "
                             "terminate the instance or take it up with the provider."));
        } else if (!soft.empty()) {
            add(Check::Throttle,
                gpu.index,
                VerdictLevel::Warn,
                measured,
                expected,
                reason("probe.throttle.thermal",
                       params,
                       "The driver slowed GPU " + index
                           + " down because it ran hot (sw_thermal) during the GEMM "
                             "test."));
        } else {
            add(Check::Throttle,
                gpu.index,
                VerdictLevel::Pass,
                measured,
                expected,
                reason("probe.throttle.ok", params, "No harmful clock throttling during the GEMM test."));
        }
    }

    const ProbeResult& m_result;
    const Catalog& m_catalog;
    const ExpectedHardware& m_promised;
    const GpuSpec* m_promisedSpec = nullptr;
    Verdict m_verdict;
};

} // namespace

const GpuSpec* matchNvmlName(const Catalog& catalog, std::string_view nvmlName, std::optional<long long> memoryMib)
{
    const std::string wanted = withoutPrefix(normalizedName(nvmlName));
    if (wanted.empty()) {
        return nullptr;
    }
    auto fits = [&](const GpuSpec& spec) { return !memoryMib || *memoryMib <= 0 || memoryFits(spec, *memoryMib); };
    // 1. The name itself: "NVIDIA A100-SXM4-80GB" is the id a100-sxm4-80gb, "Tesla T4" the name T4.
    for (const GpuSpec& spec : catalog.gpus()) {
        bool same =
            withoutPrefix(normalizedName(spec.id)) == wanted || withoutPrefix(normalizedName(spec.name)) == wanted;
        for (const std::string& alias : spec.aliases) {
            same = same || withoutPrefix(normalizedName(alias)) == wanted;
        }
        if (same && fits(spec)) {
            return &spec;
        }
    }
    // 2. The model words ("NVIDIA H100 80GB HBM3" -> {h100}), the form factor and the memory size.
    const std::set<std::string> words = modelWords(nvmlName);
    if (words.empty()) {
        return nullptr;
    }
    const bool pcie = saysPcie(nvmlName);
    const std::set<std::string> memory = memoryWords(nvmlName);
    const GpuSpec* best = nullptr;
    double bestDistance = 0;
    bool tie = false;
    for (const GpuSpec& spec : catalog.gpus()) {
        if (modelWords(spec.name) != words || saysPcie(spec.id + " " + spec.name) != pcie || !fits(spec)) {
            continue;
        }
        // A size in the name ("80GB") must be the spec's, whatever the memory reads.
        const std::set<std::string> specMemory = memoryWords(spec.id + " " + spec.name);
        if (!memory.empty() && !specMemory.empty() && memory != specMemory) {
            continue;
        }
        const double distance = memoryMib ? std::abs(static_cast<double>(*memoryMib) / 1024.0 - spec.memoryGb) : 0.0;
        if (!best || distance < bestDistance) {
            best = &spec;
            bestDistance = distance;
            tie = false;
        } else if (distance == bestDistance) {
            tie = true;
        }
    }
    return tie ? nullptr : best;
}

Verdict judgeProbe(const ProbeResult& result, const Catalog& catalog, const ExpectedHardware& promised)
{
    return Judge(result, catalog, promised).run();
}

} // namespace gpuplan::core
