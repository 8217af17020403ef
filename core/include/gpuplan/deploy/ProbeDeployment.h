#pragma once

#include "gpuplan/deploy/DeployStrategy.h"
#include "gpuplan/deploy/SshSession.h"
#include "gpuplan/probe/ProbeResult.h"

#include <chrono>
#include <filesystem>
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

/// What this GPU Planner can send to a machine: its prebuilt probes, and the probe's source for a build there.
struct ProbeBundle
{
    std::vector<ProbeBinary> binaries;
    std::filesystem::path sourceArchive; // the probe's source, .tar.gz; empty: only the prebuilt probes can run
};

/// Where the prebuilt probes are: beside the executables, or where GPUPLAN_PROBE_DIR says (tests).
std::filesystem::path bundledProbeDir(const std::filesystem::path& executableDir);

/// The bundle as it is laid out beside the executables in `binDir` (the build tree and an installation alike):
/// gpuplan-probe (cuda13), gpuplan-probe-cuda11.8, and ../share/gpuplanner/probe-source.tar.gz.
ProbeBundle findProbeBundle(const std::filesystem::path& binDir);

/// The newest glibc symbol version a prebuilt probe needs ("2.17"), read from the version names in the ELF
/// file; empty when the file cannot be read or names none.
std::string requiredGlibc(const std::filesystem::path& binary);

/// How the probe runs: quick (under 10 s) or full (under a minute per GPU), and optionally a burn-in of sustained
/// GEMM load on every GPU afterwards (`gpuplan-probe --burn SECONDS`).
struct ProbeMode
{
    bool quick = false;
    int burnSeconds = 0; // 0: no burn-in

    /// The probe's own arguments: "", " --quick", " --burn 60" ...
    std::string arguments() const;
    /// How long to wait for the probe's document on a machine with `gpus` GPUs before giving up on the connection:
    /// a minute longer than the probe's own watchdog (40 s quick or 150 s full per GPU, 30 s, and the burn-in), so
    /// that a hung GPU still ends in the probe's partial document and only a machine that stopped answering is cut.
    std::chrono::milliseconds timeout(std::size_t gpus) const;
};

/// The longest burn-in `gpuplan probe --burn` asks for: an hour of rented GPUs is already more than a check.
inline constexpr int kMaxBurnSeconds = 3600;

/// The steps of a verification, for progress: connect -> detect -> upload -> (build ->) run. Connecting is the
/// caller's (SshSession::connect); runProbeOver reports the others.
enum class VerifyStep
{
    Connect,
    Detect,
    Upload,
    Build,
    Run,
};

struct ProbeRun
{
    RemoteFacts facts;
    DeployChoice choice;   // how the probe was meant to run (or why it could not)
    std::string buildUsed; // "cuda13", "cuda11.8", "nvcc 12.4" (built there), "nvidia/cuda:12.2.0-devel-ubuntu22.04"
    std::string output;    // what the probe printed
    std::optional<ProbeResult> result;
};

/// The remote build: run in the uploaded source folder, compiles the probe with `nvcc` (of CUDA `cudaVersion`) for
/// the machine's GPUs into `output`: SASS for each compute capability, PTX for one newer than the toolkit knows,
/// and the lowest the toolkit builds the probe for (with PTX) when no GPU told its capability.
std::string probeBuildCommand(const std::string& nvcc,
                              const std::string& cudaVersion,
                              const RemoteFacts& facts,
                              const std::string& output);

/// The container run: mounts the uploaded source read-only, builds the probe inside `image` with the NVIDIA
/// runtime (compiler messages on stderr) and runs it, so that stdout carries only the probe's document.
std::string probeContainerCommand(const std::string& image, const RemoteFacts& facts, const ProbeMode& mode);

/// Reads what detectRemote's command printed (tagged lines "os=", "machine=", "smi-begin" ... "smi-end", "glibc=",
/// ...) into facts; lines it does not know are skipped. Thread safety: reentrant.
RemoteFacts readRemoteFacts(const std::string& output);

/// Reads the remote OS, architecture, glibc, nvidia-smi's driver and GPUs, lspci, nvcc and Docker's NVIDIA
/// runtime with one shell command. Errors: those of SshSession::run.
Result<RemoteFacts> detectRemote(SshSession& session, const CancelToken* cancel = nullptr);

/// Detects, chooses how to run the probe (chooseDeployment over what `bundle` holds), then runs it under
/// ~/.gpuplanner-probe/: uploads the chosen prebuilt probe with its checksum checked, or uploads the source
/// and builds it with the remote nvcc, or builds and runs it in an nvidia/cuda container; runs it in `mode` and
/// parses its document. Where the machine has no GPU or no driver the probe still runs when
/// any way fits, so the verdict gets the probe's own structured answer. When nothing can run, the result
/// carries the choice (its reason) and no document. Errors: SSH errors; RemoteCommandFailed when the remote
/// build fails (the reason's "exit_status", and "said" quoting the compiler's last lines); SchemaViolation when
/// the probe's output is not its document (the reason quotes its start).
Result<ProbeRun> runProbeOver(SshSession& session,
                              const ProbeBundle& bundle,
                              const ProbeMode& mode,
                              const std::function<void(VerifyStep)>& progress = {},
                              const CancelToken* cancel = nullptr);

} // namespace gpuplan::core
