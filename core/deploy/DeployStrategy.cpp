#include "gpuplan/deploy/DeployStrategy.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
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
        gpu.memoryMib = std::strtod(fields[3].c_str(), nullptr);
        facts.gpus.push_back(gpu);
    }
    return int(facts.gpus.size());
}

std::vector<BundledProbe> bundledProbeBuilds()
{
    return {{"cuda13", "580.65.06", "7.5", "9.0"}, {"cuda11.8", "450.80.02", "7.0", "9.0"}};
}

DeployChoice chooseDeployment(const RemoteFacts& facts, const std::vector<BundledProbe>& builds)
{
    DeployChoice choice;
    if (facts.machine != "x86_64" && !facts.machine.empty()) {
        choice.why = Reason{"deploy.architecture",
                            {{"machine", facts.machine}},
                            "the probe is built for x86_64 and this machine is " + facts.machine};
        if (!facts.nvccVersion.empty()) {
            choice.kind = DeployChoice::Kind::BuildRemote;
            choice.why.text += "; building it there with nvcc " + facts.nvccVersion;
        }
        return choice;
    }
    if (facts.gpus.empty()) {
        choice.offerDriverScript = facts.nvidiaPciDevice;
        choice.why = facts.nvidiaPciDevice
                         ? Reason{"deploy.no_driver",
                                  {},
                                  "an NVIDIA GPU is installed but no driver answers (nvidia-smi is missing or fails): "
                                  "install the driver first"}
                         : Reason{"deploy.no_gpu", {}, "this machine has no NVIDIA GPU"};
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
    std::string refusals;
    for (const BundledProbe& build : builds) {
        if (compareVersions(facts.driverVersion, build.minimumDriver) < 0) {
            refusals += (refusals.empty() ? "" : "; ") + build.id + " needs driver " + build.minimumDriver;
            continue;
        }
        if (!lowestCc.empty() && compareVersions(lowestCc, build.lowestArchitecture) < 0) {
            refusals += (refusals.empty() ? "" : "; ") + build.id + " starts at sm_" + build.lowestArchitecture;
            continue;
        }
        choice.kind = DeployChoice::Kind::Prebuilt;
        choice.build = build.id;
        choice.why =
            Reason{"deploy.prebuilt",
                   {{"build", build.id}, {"driver", facts.driverVersion}},
                   "the " + build.id + " probe runs on driver " + facts.driverVersion
                       + (highestCc.empty() || compareVersions(highestCc, build.highestArchitecture) <= 0
                              ? ""
                              : " (compute capability " + highestCc + " runs its PTX, compiled at first use)")};
        return choice;
    }
    if (!facts.nvccVersion.empty()) {
        choice.kind = DeployChoice::Kind::BuildRemote;
        choice.why = Reason{"deploy.build_remote",
                            {{"nvcc", facts.nvccVersion}, {"driver", facts.driverVersion}},
                            "no bundled probe runs on driver " + facts.driverVersion + " (" + refusals
                                + "); building it there with nvcc " + facts.nvccVersion};
        return choice;
    }
    if (facts.dockerWithNvidiaRuntime && !facts.cudaVersionOfDriver.empty()) {
        choice.kind = DeployChoice::Kind::Container;
        // The image's CUDA must not be newer than the driver's: take the driver's own CUDA version.
        choice.image = "nvidia/cuda:" + facts.cudaVersionOfDriver + ".0-devel-ubuntu22.04";
        choice.why = Reason{"deploy.container",
                            {{"image", choice.image}, {"driver", facts.driverVersion}},
                            "no bundled probe runs on driver " + facts.driverVersion + " (" + refusals
                                + ") and there is no nvcc: running it in " + choice.image};
        return choice;
    }
    choice.offerDriverScript = true;
    choice.why = Reason{"deploy.driver_too_old",
                        {{"driver", facts.driverVersion}},
                        "driver " + facts.driverVersion + " is too old for the bundled probes (" + refusals
                            + "), and the machine has neither nvcc nor Docker with the NVIDIA runtime: update the "
                              "driver (GPU Planner can run its driver set-up script) and verify again"};
    return choice;
}

} // namespace gpuplan::core
