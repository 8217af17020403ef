#include "gpuplan/deploy/Verification.h"

#include "gpuplan/net/Clock.h"
#include "gpuplan/plan/PlanFile.h"

#include <chrono>

namespace gpuplan::core {

ExpectedHardware promisedHardware(const ExpectedHardware& stated,
                                  const Catalog& catalog,
                                  const LedgerEntry* launch,
                                  const RemoteFacts& facts)
{
    ExpectedHardware promised = stated;
    if (!promised.gpuId.empty()) {
        return promised;
    }
    if (launch) {
        if (const Offer* offer = catalog.findOffer(launch->intent.provider, launch->intent.instanceType)) {
            promised.gpuId = offer->gpuId;
            promised.count = offer->gpuCount;
            return promised;
        }
    }
    if (!facts.gpus.empty()) {
        if (const GpuSpec* seen =
                matchNvmlName(catalog, facts.gpus.front().name, static_cast<long long>(facts.gpus.front().memoryMib))) {
            promised.gpuId = seen->id;
        }
        promised.count = int(facts.gpus.size());
    }
    return promised;
}

JudgedRun judgeRun(const ProbeResult& result,
                   const Catalog& catalog,
                   const ExpectedHardware& promised,
                   const std::string& host,
                   std::int64_t when)
{
    JudgedRun judged;
    judged.promised = promised;
    judged.verdict = judgeProbe(result, catalog, promised);
    judged.verification =
        makePlanVerification(result,
                             judged.verdict,
                             promised,
                             host,
                             extendedIsoTime(std::chrono::system_clock::time_point(std::chrono::seconds(when))));
    return judged;
}

Verification verificationRecord(const JudgedRun& judged,
                                const std::string& probeOutput,
                                std::int64_t launchId,
                                const std::string& host,
                                std::int64_t when)
{
    // The probe's document alone, without a login banner or shell noise before it.
    const std::size_t start = probeOutput.find('{');
    return Verification{
        0,
        launchId,
        when,
        host,
        verdictLevelName(judged.verdict.level),
        // The GPU name and driver come from the remote host: not always UTF-8.
        verificationJson(judged.verification).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
        start == std::string::npos ? std::string() : probeOutput.substr(start)};
}

} // namespace gpuplan::core
