// The probe's output (core/probe/ProbeResult.cpp parseProbeResult), judged (core/probe/Verdict.cpp judgeProbe,
// through judgeRun) against the bundled catalog and kept as the ledger keeps it (verificationRecord).
#include "FuzzSupport.h"

#include "gpuplan/deploy/Verification.h"
#include "gpuplan/probe/ProbeResult.h"
#include "gpuplan/probe/Verdict.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace gpuplan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string output(fuzz::asText(data, size));
    core::Result<core::ProbeResult> result = core::parseProbeResult(output, "fuzz: gpuplan-probe");
    if (!result) {
        return 0;
    }
    const core::Catalog& catalog = fuzz::bundledCatalog();
    // What a launch promised, and what the machine says it is (`gpuplan probe` without --gpu).
    core::ExpectedHardware promised{.gpuId = "a100-sxm4-80gb", .count = 1};
    (void)core::judgeProbe(*result, catalog, promised);
    core::RemoteFacts facts;
    for (const core::ProbeGpu& gpu : result->gpus) {
        facts.gpus.push_back({gpu.name, gpu.computeCapability, double(gpu.memoryTotalMib)});
    }
    promised = core::promisedHardware(core::ExpectedHardware{.gpuId = ""}, catalog, nullptr, facts);
    const core::JudgedRun judged = core::judgeRun(*result, catalog, promised, "lab@gpu", 1700000000);
    (void)core::verificationRecord(judged, output, 1, "lab@gpu", 1700000000);
    return 0;
}
