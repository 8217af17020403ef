#include "gpuplan/deploy/DeployStrategy.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

namespace gpuplan::core {

namespace {

std::string trimmed(const std::string& text)
{
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string::npos) {
        return {};
    }
    const std::size_t end = text.find_last_not_of(" \t\r\n");
    return text.substr(start, end - start + 1);
}

std::vector<long> parts(const std::string& version)
{
    std::vector<long> out;
    std::stringstream in(version);
    std::string part;
    while (std::getline(in, part, '.')) {
        out.push_back(std::strtol(part.c_str(), nullptr, 10));
    }
    return out;
}

/// The most GPU memory a reading may give, in MiB (1 PiB): more is not a reading, and would not fit the whole number
/// the catalog match takes.
constexpr double kMaxMemoryMib = 1024.0 * 1024.0 * 1024.0;

/// nvidia-smi's memory.total in MiB; 0 (unknown) for "[N/A]", an error text, or a value no GPU has (inf, nan, 1e94).
double memoryMibOf(const std::string& field)
{
    char* end = nullptr;
    const double mib = std::strtod(field.c_str(), &end);
    return end != field.c_str() && std::isfinite(mib) && mib >= 0 && mib <= kMaxMemoryMib ? mib : 0;
}

} // namespace

int compareVersions(const std::string& a, const std::string& b)
{
    const std::vector<long> x = parts(a);
    const std::vector<long> y = parts(b);
    for (std::size_t i = 0; i < std::max(x.size(), y.size()); ++i) {
        const long l = i < x.size() ? x[i] : 0;
        const long r = i < y.size() ? y[i] : 0;
        if (l != r) {
            return l < r ? -1 : 1;
        }
    }
    return 0;
}

int readNvidiaSmi(const std::string& csv, RemoteFacts& facts)
{
    std::stringstream in(csv);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::stringstream row(line);
        std::string field;
        while (std::getline(row, field, ',')) {
            fields.push_back(trimmed(field));
        }
        if (fields.size() < 4 || fields[0].empty() || !std::isdigit(static_cast<unsigned char>(fields[0][0]))) {
            continue; // a header, an error line ("NVIDIA-SMI has failed ..."), or a blank
        }
        facts.driverVersion = fields[0];
        RemoteFacts::Gpu gpu;
        gpu.name = fields[1];
        // Drivers before the compute_cap field print "[N/A]" or an error there.
        gpu.computeCapability = fields[2].find('.') != std::string::npos ? fields[2] : std::string();
        gpu.memoryMib = memoryMibOf(fields[3]);
        facts.gpus.push_back(gpu);
    }
    return int(facts.gpus.size());
}

std::vector<BundledProbe> bundledProbeBuilds()
{
    // CUDA 13: SASS up to Blackwell (sm_100, sm_120) with compute_120 PTX; 11.8: up to Hopper with compute_90 PTX.
    return {{"cuda13", "580.65.06", "7.5", "12.0"}, {"cuda11.8", "450.80.02", "7.0", "9.0"}};
}

std::string lowestArchitectureOf(const std::string& cuda)
{
    return compareVersions(cuda, "13.0") >= 0 ? "7.5" : "7.0";
}

namespace {

/// "12.4" -> "12.0": CUDA's minor-version compatibility lets a toolkit's programs run on any driver of its major
/// release.
std::string majorRelease(const std::string& version)
{
    return version.substr(0, version.find('.')) + ".0";
}

/// A toolkit of CUDA `cuda` builds for every GPU of the machine: CUDA 13 dropped sm_70 (V100), and the probe's
/// tensor-core kernels need sm_70 at least.
bool targetsEveryGpu(const std::string& cuda, const RemoteFacts& facts)
{
    const std::string lowest = lowestArchitectureOf(cuda);
    return std::none_of(facts.gpus.begin(), facts.gpus.end(), [&](const RemoteFacts::Gpu& gpu) {
        return !gpu.computeCapability.empty() && compareVersions(gpu.computeCapability, lowest) < 0;
    });
}

/// The remote nvcc can build the probe (cuda_fp8.h arrived in 11.8) for these GPUs, and the driver runs what it
/// builds.
bool nvccCanBuild(const RemoteFacts& facts)
{
    return !facts.nvccVersion.empty() && compareVersions(facts.nvccVersion, kProbeMinimumCuda) >= 0
           && (facts.cudaVersionOfDriver.empty()
               || compareVersions(facts.cudaVersionOfDriver, majorRelease(facts.nvccVersion)) >= 0)
           && targetsEveryGpu(facts.nvccVersion, facts);
}

/// The nvidia/cuda image for a driver: the newest CUDA release no newer than the driver's (a driver may report a
/// version no toolkit has, such as 12.7) that builds the probe for these GPUs.
std::optional<std::string> containerImage(const RemoteFacts& facts)
{
    if (!facts.dockerWithNvidiaRuntime || facts.cudaVersionOfDriver.empty()) {
        return std::nullopt;
    }
    // The CUDA toolkit releases from 11.8 on (https://developer.nvidia.com/cuda-toolkit-archive); each has
    // MAJOR.MINOR.0 devel images for Ubuntu 22.04 on Docker Hub.
    static const char* const kReleases[] = {
        "13.0", "12.9", "12.8", "12.6", "12.5", "12.4", "12.3", "12.2", "12.1", "12.0", "11.8"};
    for (const char* release : kReleases) {
        if (compareVersions(release, facts.cudaVersionOfDriver) <= 0 && targetsEveryGpu(release, facts)) {
            return "nvidia/cuda:" + std::string(release) + ".0-devel-ubuntu22.04";
        }
    }
    return std::nullopt;
}

using Params = std::map<std::string, std::string>;

/// The lower of `floor` and `version`, an empty `floor` being none yet.
void keepLowest(std::string& floor, const std::string& version)
{
    if (floor.empty() || compareVersions(version, floor) < 0) {
        floor = version;
    }
}

/// The remote build or the container, when one is possible; `cause` says why no bundled probe runs (the "cause"
/// parameter and the values behind it), and the reason adds the compiler or the image.
std::optional<DeployChoice> buildThere(const RemoteFacts& facts, bool sourceAvailable, Params cause)
{
    if (!sourceAvailable) {
        return std::nullopt;
    }
    DeployChoice choice;
    if (nvccCanBuild(facts)) {
        choice.kind = DeployChoice::Kind::BuildRemote;
        cause["nvcc"] = facts.nvccVersion;
        choice.why = Reason{"deploy.build_remote", std::move(cause)};
        return choice;
    }
    if (std::optional<std::string> image = containerImage(facts)) {
        choice.kind = DeployChoice::Kind::Container;
        choice.image = *image;
        cause["image"] = choice.image;
        choice.why = Reason{"deploy.container", std::move(cause)};
        return choice;
    }
    return std::nullopt;
}

} // namespace

DeployChoice chooseDeployment(const RemoteFacts& facts, const std::vector<BundledProbe>& builds, bool sourceAvailable)
{
    DeployChoice choice;
    if (facts.machine != "x86_64" && !facts.machine.empty()) {
        const Params cause{{"cause", "architecture"}, {"machine", facts.machine}};
        if (std::optional<DeployChoice> there = buildThere(facts, sourceAvailable, cause)) {
            return *there;
        }
        choice.why = Reason{"deploy.architecture", {{"machine", facts.machine}}};
        return choice;
    }
    if (facts.gpus.empty()) {
        choice.offerDriverScript = facts.nvidiaPciDevice;
        choice.why = Reason{facts.nvidiaPciDevice ? "deploy.no_driver" : "deploy.no_gpu", {}};
        return choice;
    }
    std::string lowestCc;
    std::string highestCc;
    for (const RemoteFacts::Gpu& gpu : facts.gpus) {
        if (gpu.computeCapability.empty()) {
            continue;
        }
        if (lowestCc.empty() || compareVersions(gpu.computeCapability, lowestCc) < 0) {
            lowestCc = gpu.computeCapability;
        }
        if (highestCc.empty() || compareVersions(gpu.computeCapability, highestCc) > 0) {
            highestCc = gpu.computeCapability;
        }
    }
    // Why each build does not run here ("refusal.<i>.build", ".needs" driver, sm or glibc, ".minimum"), and the
    // lowest floor of each kind (the driver, the compute capability, the C library a build needs).
    Params cause{{"cause", builds.empty() ? "none_bundled" : "refused"}};
    int refusals = 0;
    auto refuse = [&](const BundledProbe& build, const char* needs, const std::string& minimum) {
        const std::string at = "refusal." + std::to_string(refusals++) + ".";
        cause[at + "build"] = build.id;
        cause[at + "needs"] = needs;
        cause[at + "minimum"] = minimum;
    };
    std::string minimumDriver;
    std::string minimumCapability;
    std::string minimumGlibc;
    bool driverTooOld = true;
    for (const BundledProbe& build : builds) {
        if (compareVersions(facts.driverVersion, build.minimumDriver) < 0) {
            refuse(build, "driver", build.minimumDriver);
            keepLowest(minimumDriver, build.minimumDriver);
            continue;
        }
        driverTooOld = false;
        if (!lowestCc.empty() && compareVersions(lowestCc, build.lowestArchitecture) < 0) {
            refuse(build, "sm", build.lowestArchitecture);
            keepLowest(minimumCapability, build.lowestArchitecture);
            continue;
        }
        if (!build.minimumGlibc.empty() && !facts.glibcVersion.empty()
            && compareVersions(facts.glibcVersion, build.minimumGlibc) < 0) {
            refuse(build, "glibc", build.minimumGlibc);
            keepLowest(minimumGlibc, build.minimumGlibc);
            continue;
        }
        choice.kind = DeployChoice::Kind::Prebuilt;
        choice.build = build.id;
        choice.why = Reason{"deploy.prebuilt", {{"build", build.id}, {"driver", facts.driverVersion}}};
        if (!highestCc.empty() && compareVersions(highestCc, build.highestArchitecture) > 0) {
            // The newest GPU is newer than the build's SASS: the driver compiles the build's PTX for it at first use.
            choice.why.params["ptx_capability"] = highestCc;
        }
        return choice;
    }
    cause["refusals"] = std::to_string(refusals);
    if (!minimumDriver.empty()) {
        cause["driver"] = facts.driverVersion;
        cause["minimum_driver"] = minimumDriver;
    }
    if (!minimumCapability.empty()) {
        cause["capability"] = lowestCc;
        cause["minimum_capability"] = minimumCapability;
    }
    if (!minimumGlibc.empty()) {
        cause["glibc"] = facts.glibcVersion;
        cause["minimum_glibc"] = minimumGlibc;
    }
    if (std::optional<DeployChoice> there = buildThere(facts, sourceAvailable, cause)) {
        return *there;
    }
    choice.offerDriverScript = driverTooOld && !builds.empty();
    if (choice.offerDriverScript) {
        // Every build needs a newer driver: minimum_driver is the lowest of their floors, the update's target.
        choice.why =
            Reason{"deploy.driver_too_old", {{"driver", facts.driverVersion}, {"minimum_driver", minimumDriver}}};
    } else {
        choice.why = Reason{"deploy.cannot_run", std::move(cause)};
    }
    return choice;
}

} // namespace gpuplan::core
