#pragma once

#include "gpuplan/core/Prompter.h"
#include "gpuplan/deploy/ProbeDeployment.h"
#include "gpuplan/deploy/SshSession.h"
#include "gpuplan/deploy/Verification.h"
#include "gpuplan/ledger/Ledger.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

// A verification as both front ends run it (`gpuplan probe`, the Verify page): connect over SSH, run the probe
// there, judge it, and keep the verdict with its launch in the ledger.
namespace gpuplan::core {

struct VerifyRequest
{
    SshTarget target;                  // with its key file and jump hosts
    std::string knownHostsFile;        // empty: ~/.ssh/known_hosts
    ProbeBundle bundle;                // the prebuilt probes and the source this GPU Planner ships
    ProbeMode mode;                    // quick, and the seconds of burn-in (0: none)
    ExpectedHardware stated;           // what the user says was promised; gpuId empty: from the launch or the card
    std::optional<LedgerEntry> launch; // the ledger's launch this machine is: the verdict is kept with it
    std::filesystem::path ledgerFile;  // where that launch is
};

struct VerifyOutcome
{
    ProbeRun run;
    std::optional<JudgedRun> judged; // nullopt: the probe could not run (run.choice.why says why)
    std::optional<Error> notKept;    // the ledger could not keep the verdict
};

/// Connects (asking `prompter` about a host seen for the first time and for an encrypted key's passphrase), runs
/// the probe, judges it against the catalog at `now` (Unix seconds), and keeps the verdict with `request.launch`.
/// `onStage` and `prompter` are called on the caller's thread; it blocks (network, the probe, SQLite): the GUI runs
/// it on a worker thread.
Result<VerifyOutcome> verifyMachine(const VerifyRequest& request,
                                    const Catalog& catalog,
                                    Prompter& prompter,
                                    const CancelToken* cancel,
                                    const std::function<void(VerifyStep)>& onStage,
                                    std::int64_t now);

} // namespace gpuplan::core
