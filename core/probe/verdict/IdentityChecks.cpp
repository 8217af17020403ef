// The identity checks: is it the machine that was promised (driver, GPU count, model, memory), and the match
// of an NVML name to a catalog GPU.
#include "probe/VerdictJudge.h"

#include "gpuplan/core/Names.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace gpuplan::core {

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

} // namespace

} // namespace gpuplan::core

namespace gpuplan::core::verdict {

namespace {

/// 13000 -> "13.0", 12020 -> "12.2".
std::string cudaVersionText(int version)
{
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

/// The oldest Linux driver a CUDA major version runs on through minor-version compatibility.
const char* minimumDriver(int cudaRuntime)
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

constexpr const char* kCuda11Minimum = "450.80.02";

} // namespace

void Judge::judgeDriver()
{
    const ProbeDriver& driver = m_result.driver;
    const int build = m_result.probe.cudaRuntime;
    const std::string driverName = driver.version.value_or(""); // empty: the probe could not read it
    const char* needed = minimumDriver(build);
    // "figure.driver_needed": the CUDA version the build needs and, where the table above knows it, its driver.
    std::map<std::string, std::string> neededParams = {{"cuda", cudaVersionText(build)}};
    if (needed) {
        neededParams["driver"] = needed;
    }
    const Reason expected = reason("figure.driver_needed", std::move(neededParams));
    const std::string code = m_result.error ? m_result.error->code : "";
    if (code == "no_driver" || (driver.cudaVersion == 0 && code != "driver_too_old")) {
        add(Check::Driver,
            std::nullopt,
            VerdictLevel::Fail,
            figure("figure.no_driver"),
            expected,
            reason("probe.driver.missing", {{"cuda11_min_driver", kCuda11Minimum}}));
        return;
    }
    // "figure.driver": the driver's version (absent where NVML could not say) and the CUDA version it supports.
    std::map<std::string, std::string> driverParams = {{"cuda", cudaVersionText(driver.cudaVersion)}};
    if (driver.version) {
        driverParams["driver"] = *driver.version;
    }
    const Reason measured = reason("figure.driver", std::move(driverParams));
    if (code == "driver_too_old" || driver.cudaVersion < build) {
        std::map<std::string, std::string> params = {{"driver", driverName},
                                                     {"driver_cuda", cudaVersionText(driver.cudaVersion)},
                                                     {"build_cuda", cudaVersionText(build)},
                                                     {"cuda11_min_driver", kCuda11Minimum}};
        // The oldest driver this build runs on, where the table above knows it.
        if (needed) {
            params["build_min_driver"] = needed;
        }
        // A build newer than CUDA 11 has the CUDA 11.8 build to fall back on; a CUDA 11 build has none.
        add(Check::Driver,
            std::nullopt,
            VerdictLevel::Fail,
            measured,
            expected,
            reason(build / 1000 > 11 ? "probe.driver.too_old" : "probe.driver.too_old_for_any_build",
                   std::move(params)));
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
                {"build_cuda", cudaVersionText(build)}}));
}

void Judge::judgeCount()
{
    const int got = static_cast<int>(m_result.gpus.size());
    const int want = m_promised.count;
    const std::map<std::string, std::string> params = {{"count", std::to_string(got)},
                                                       {"promised", std::to_string(want)}};
    const VerdictLevel level = got < want ? VerdictLevel::Fail : got > want ? VerdictLevel::Warn : VerdictLevel::Pass;
    const char* key = got < want   ? "probe.gpu_count.missing"
                      : got > want ? "probe.gpu_count.extra"
                                   : "probe.gpu_count.ok";
    add(Check::GpuCount,
        std::nullopt,
        level,
        reason("figure.count", {{"count", std::to_string(got)}}),
        reason("figure.count", {{"count", std::to_string(want)}}),
        reason(key, params));
}

/// The spec the GPU's figures are judged against: what it is when the name says so, else what was promised.
const GpuSpec* Judge::judgeModel(const ProbeGpu& gpu)
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
            textFigure(name),
            textFigure(m_promised.gpuId),
            reason("probe.model.unknown_promise", {{"name", name}, {"promised", m_promised.gpuId}}));
        return found;
    }
    // Catalog ids ("promised", "found") and the catalog's names for them ("promised_name", "found_name").
    const std::map<std::string, std::string> params = {{"name", name},
                                                       {"promised", m_promisedSpec->id},
                                                       {"promised_name", m_promisedSpec->name},
                                                       {"found", found ? found->id : ""},
                                                       {"found_name", found ? found->name : ""}};
    if (found == m_promisedSpec) {
        add(Check::Model,
            gpu.index,
            VerdictLevel::Pass,
            textFigure(name),
            textFigure(m_promisedSpec->name),
            reason("probe.model.ok", params));
        return found;
    }
    if (found) {
        add(Check::Model,
            gpu.index,
            VerdictLevel::Fail,
            reason("figure.name_as", {{"name", name}, {"as", found->name}}),
            textFigure(m_promisedSpec->name),
            reason("probe.model.mismatch", params));
        return found;
    }
    // Not in the catalog under that name: the same family is likely a variant we do not list.
    const std::set<std::string> words = modelWords(name);
    const std::set<std::string> promisedWords = modelWords(m_promisedSpec->name);
    const bool sameFamily =
        !promisedWords.empty() && std::includes(words.begin(), words.end(), promisedWords.begin(), promisedWords.end());
    add(Check::Model,
        gpu.index,
        sameFamily ? VerdictLevel::Warn : VerdictLevel::Fail,
        textFigure(name),
        textFigure(m_promisedSpec->name),
        reason(sameFamily ? "probe.model.unconfirmed" : "probe.model.unknown", params));
    return m_promisedSpec;
}

void Judge::judgeMemory(const ProbeGpu& gpu)
{
    std::optional<double> expectedGb = m_promised.memoryGbPerGpu;
    if (!expectedGb && m_promisedSpec) {
        expectedGb = m_promisedSpec->memoryGb;
    }
    const double gib = static_cast<double>(gpu.memoryTotalMib) / 1024.0;
    const Reason measured =
        reason("figure.memory", {{"gib", reasonNumber(gib)}, {"mib", std::to_string(gpu.memoryTotalMib)}});
    if (gpu.parentName && !gpu.parentName->empty()) {
        add(Check::Memory,
            gpu.index,
            VerdictLevel::Unknown,
            measured,
            figure("figure.a_share"),
            reason("probe.memory.mig_slice",
                   {{"mib", std::to_string(gpu.memoryTotalMib)}, {"gib", reasonNumber(gib)}}));
        return;
    }
    if (!expectedGb || *expectedGb <= 0) {
        add(Check::Memory,
            gpu.index,
            VerdictLevel::Unknown,
            measured,
            figure("figure.unknown"),
            reason("probe.memory.unknown", {{"mib", std::to_string(gpu.memoryTotalMib)}}));
        return;
    }
    const std::map<std::string, std::string> params = {{"mib", std::to_string(gpu.memoryTotalMib)},
                                                       {"gib", reasonNumber(gib)},
                                                       {"promised_gb", reasonNumber(*expectedGb)}};
    // Drivers report GiB, datasheets round ("80GB" is 80 GiB on an A100, 79.6 GiB on an H100) and ECC on
    // GDDR reserves a few percent: 10 % below the promise is still the promised card.
    const bool enough = gib >= *expectedGb * 0.9;
    add(Check::Memory,
        gpu.index,
        enough ? VerdictLevel::Pass : VerdictLevel::Fail,
        measured,
        valueFigure(*expectedGb, "GB"),
        reason(enough ? "probe.memory.ok" : "probe.memory.short", params));
}

} // namespace gpuplan::core::verdict

namespace gpuplan::core {

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

} // namespace gpuplan::core
