#pragma once

#include "gpuplan/deploy/DeployStrategy.h"
#include "gpuplan/deploy/SshSession.h"
#include "gpuplan/probe/ProbeResult.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// A prebuilt probe on this machine: its build id (bundledProbeBuilds) and file.
struct ProbeBinary
{
    std::string build;
    std::string path;
};

/// The steps of a verification, for progress: connect -> detect -> upload -> run.
enum class VerifyStep
{
    Detect,
    Upload,
    Run,
};

struct ProbeRun
{
    RemoteFacts facts;
    DeployChoice choice;
    std::string buildUsed; // the prebuilt probe that ran; empty when none did
    std::string output;    // what the probe printed
    std::optional<ProbeResult> result;
};

/// Reads the remote OS, architecture, nvidia-smi's driver and GPUs, lspci, nvcc and Docker's NVIDIA runtime
/// with one shell command. Errors: those of SshSession::run.
Result<RemoteFacts> detectRemote(SshSession& session, const CancelToken* cancel = nullptr);

/// Detects, chooses how to run the probe (chooseDeployment over the builds in `available`), uploads the
/// chosen prebuilt probe to ~/.gpuplanner-probe/ with its checksum checked, runs it (`--quick` when asked)
/// and parses its document. Where the machine has no GPU or no driver the first available build still runs,
/// so the verdict gets the probe's own structured answer. When the choice is a remote build or a container,
/// the result carries the choice and no document: this version runs only the bundled builds. Errors: SSH
/// errors, or SchemaViolation when the probe's output is not its document (the detail quotes its start).
Result<ProbeRun> runProbeOver(SshSession& session,
                              const std::vector<ProbeBinary>& available,
                              bool quick,
                              const std::function<void(VerifyStep)>& progress = {},
                              const CancelToken* cancel = nullptr);

} // namespace gpuplan::core
