// What the deployment reads from the remote machine (core/deploy): the detection command's tagged lines (host facts,
// nvidia-smi's CSV, uname, glibc, nvcc), the choice of how to run the probe and the commands built from those facts,
// the promise read from the first card, and the GLIBC_ version names of a probe binary.
#include "FuzzSupport.h"

#include "gpuplan/deploy/DeployStrategy.h"
#include "gpuplan/deploy/ProbeDeployment.h"
#include "gpuplan/deploy/Verification.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace gpuplan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string output(fuzz::asText(data, size));
    const core::RemoteFacts facts = core::readRemoteFacts(output);
    core::RemoteFacts fromSmi;
    (void)core::readNvidiaSmi(output, fromSmi);

    const std::vector<core::BundledProbe> builds = core::bundledProbeBuilds();
    for (bool sourceAvailable : {true, false}) {
        const core::DeployChoice choice = core::chooseDeployment(facts, builds, sourceAvailable);
        if (choice.kind == core::DeployChoice::Kind::Container) {
            (void)core::probeContainerCommand(choice.image, facts, core::ProbeMode{.quick = true, .burnSeconds = 0});
        }
    }
    if (!facts.nvccPath.empty()) {
        (void)core::probeBuildCommand(facts.nvccPath, facts.nvccVersion, facts, "gpuplan-probe");
    }
    (void)core::lowestArchitectureOf(facts.nvccVersion);
    (void)core::compareVersions(facts.glibcVersion, facts.driverVersion);
    (void)core::promisedHardware(core::ExpectedHardware{.gpuId = ""}, fuzz::bundledCatalog(), nullptr, facts);

    (void)core::requiredGlibc(fuzz::writeInput("gpuplan-probe", data, size));
    return 0;
}
