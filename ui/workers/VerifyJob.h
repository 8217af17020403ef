#pragma once

#include "gpuplan/deploy/ProbeDeployment.h"
#include "gpuplan/deploy/SshSession.h"
#include "gpuplan/deploy/Verification.h"
#include "gpuplan/ledger/Ledger.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

// The Verify page's work: connect over SSH, run the probe there, judge it and keep the verdict with its launch.
// It blocks (network, the probe, SQLite) and is meant for a worker thread (a PageJob step, which also turns an
// exception from a library under core into an error); it never touches a widget.
namespace gpuplan::ui {

struct VerifyRequest
{
    core::SshTarget target;        // with its key file and jump hosts
    std::string knownHostsFile;    // empty: ~/.ssh/known_hosts
    core::ProbeBundle bundle;      // the prebuilt probes and the source this GPU Planner ships
    bool quick = true;             // the probe's quick mode (under 10 s)
    int burnSeconds = 0;           // a burn-in after the tests; 0: none
    core::ExpectedHardware stated; // what the user says was promised; gpuId empty: from the launch or the card
    std::optional<core::LedgerEntry> launch; // the ledger's launch this machine is: the verdict is kept with it
    std::filesystem::path ledgerFile;
    std::shared_ptr<const core::Catalog> catalog;
};

struct VerifyOutcome
{
    core::ProbeRun run;
    std::optional<core::JudgedRun> judged; // nullopt: the probe could not run (run.choice.why says why)
    std::optional<core::Error> notKept;    // the ledger could not keep the verdict
};

/// Connects (asking `prompter` about a host seen for the first time and for an encrypted key's passphrase), runs the
/// probe, judges it, and keeps the verdict with `request.launch` in the ledger. `onStage` and `prompter` are called
/// on the worker thread.
core::Result<VerifyOutcome> runVerification(VerifyRequest request,
                                            std::shared_ptr<core::CancelToken> cancel,
                                            std::function<void(core::VerifyStep)> onStage,
                                            core::Prompter& prompter);

} // namespace gpuplan::ui
