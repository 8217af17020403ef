#pragma once

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/deploy/ProbeDeployment.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/plan/PlanDocument.h"
#include "gpuplan/probe/Verdict.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace gpuplan::core {

// A probe run turned into what the user keeps: the verdict against what was paid for, the document that plans
// and reports carry, and the ledger's record. `gpuplan probe` and the Verify page share it.

/// What the instance was paid for: `stated` when it names a GPU; else the offer `launch` was made from (its GPU
/// and count); else what the first card says it is, with the count nvidia-smi listed, so that the verdict still
/// checks memory and speed against the datasheet. `launch` may be null.
ExpectedHardware promisedHardware(const ExpectedHardware& stated,
                                  const Catalog& catalog,
                                  const LedgerEntry* launch,
                                  const RemoteFacts& facts);

struct JudgedRun
{
    ExpectedHardware promised;
    Verdict verdict;
    PlanVerification verification; // what the plan's verifications and the ledger keep
};

/// Judges `result` (the run's probe document) against `promised` and the catalog; `when` in Unix seconds.
JudgedRun judgeRun(const ProbeResult& result,
                   const Catalog& catalog,
                   const ExpectedHardware& promised,
                   const std::string& host,
                   std::int64_t when);

/// The ledger's record of a judged run of launch `launchId`, with the probe's own document (`probeOutput`).
Verification verificationRecord(const JudgedRun& judged,
                                const std::string& probeOutput,
                                std::int64_t launchId,
                                const std::string& host,
                                std::int64_t when);

} // namespace gpuplan::core
