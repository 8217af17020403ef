#include "gpuplan/deploy/ProbeDeployment.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace gpuplan::core {

namespace {

// One command, tagged lines; each probe of the machine tolerates the tool being absent, and a tool that hangs
// (nvidia-smi on a GPU that fell off the bus, a wedged Docker daemon) is given up on, where `timeout` exists.
// wire: a shell command run on the remote machine
constexpr const char* kDetectCommand =
    "t() { if command -v timeout >/dev/null 2>&1; then timeout \"$@\"; else shift; \"$@\"; fi; }; "
    "echo \"os=$( (. /etc/os-release 2>/dev/null; echo \"$ID $VERSION_ID\") )\"; "
    "echo \"machine=$(uname -m)\"; "
    "echo smi-begin; t 20 nvidia-smi --query-gpu=driver_version,name,compute_cap,memory.total "
    "--format=csv,noheader,nounits 2>/dev/null; echo smi-end; "
    "echo \"cudaver=$(t 20 nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\\([0-9.]*\\).*/\\1/p' | head -n 1)\"; "
    "echo \"pci=$(lspci 2>/dev/null | grep -ci nvidia)\"; "
    "echo \"glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc //p')\"; "
    // Cloud images often have the toolkit without it on PATH.
    "nvccpath=$(command -v nvcc 2>/dev/null || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; }); "
    "echo \"nvccpath=$nvccpath\"; "
    "echo \"nvcc=$( [ -n \"$nvccpath\" ] && \"$nvccpath\" --version 2>/dev/null | "
    "sed -n 's/.*release \\([0-9.]*\\).*/\\1/p')\"; "
    "echo \"docker=$(t 10 docker info 2>/dev/null | grep -ci nvidia)\"";

/// The login shell may be fish or csh: every command runs in sh, the shell it is written for.
std::string inPosixShell(const std::string& command)
{
    // wire: a shell command run on the remote machine
    return "exec sh -c " + shellQuote(command);
}

std::string valueOf(const std::string& line, const char* key)
{
    const std::string prefix = std::string(key) + "=";
    return line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : std::string();
}

} // namespace

RemoteFacts readRemoteFacts(const std::string& output)
{
    RemoteFacts facts;
    std::stringstream in(output);
    std::string line;
    std::string smi;
    bool inSmi = false;
    while (std::getline(in, line)) {
        if (line == "smi-begin" || line == "smi-end") {
            inSmi = line == "smi-begin";
        } else if (inSmi) {
            smi += line + "\n";
        } else if (line.rfind("os=", 0) == 0) {
            const std::string os = valueOf(line, "os");
            const std::size_t space = os.find(' ');
            facts.osId = os.substr(0, space);
            facts.osVersion = space == std::string::npos ? std::string() : os.substr(space + 1);
        } else if (line.rfind("machine=", 0) == 0) {
            facts.machine = valueOf(line, "machine");
        } else if (line.rfind("cudaver=", 0) == 0) {
            facts.cudaVersionOfDriver = valueOf(line, "cudaver");
        } else if (line.rfind("pci=", 0) == 0) {
            facts.nvidiaPciDevice = std::atoi(valueOf(line, "pci").c_str()) > 0;
        } else if (line.rfind("glibc=", 0) == 0) {
            facts.glibcVersion = valueOf(line, "glibc");
        } else if (line.rfind("nvccpath=", 0) == 0) {
            facts.nvccPath = valueOf(line, "nvccpath");
        } else if (line.rfind("nvcc=", 0) == 0) {
            facts.nvccVersion = valueOf(line, "nvcc");
        } else if (line.rfind("docker=", 0) == 0) {
            facts.dockerWithNvidiaRuntime = std::atoi(valueOf(line, "docker").c_str()) > 0;
        }
    }
    readNvidiaSmi(smi, facts);
    return facts;
}

Result<RemoteFacts> detectRemote(SshSession& session, const CancelToken* cancel)
{
    std::string out;
    SshRunOptions options;
    options.timeout = std::chrono::seconds(60);
    options.cancel = cancel;
    Result<int> status = session.run(
        inPosixShell(kDetectCommand),
        [&out](SshStream stream, std::string_view chunk) {
            if (stream == SshStream::Stdout) {
                out.append(chunk);
            }
        },
        options);
    if (!status) {
        return status.error();
    }
    // The last line says the whole command ran: without it the facts would be blanks read as "no GPU".
    if (out.find("\ndocker=") == std::string::npos) {
        // "said": the start of what it printed, empty when it printed nothing.
        return Error{ErrorCode::RemoteCommandFailed,
                     Reason{"error.deploy.facts_unreadable",
                            {{"exit_status", std::to_string(*status)}, {"said", out.substr(0, 300)}}},
                     session.target().display()};
    }
    return readRemoteFacts(out);
}

namespace {

constexpr const char* kRemoteDir = ".gpuplanner-probe";
constexpr const char* kRemoteSource = ".gpuplanner-probe/source";

/// Keeps the last `limit` bytes of a command's output, for an error message.
struct OutputTail
{
    std::string text;
    std::size_t limit = 1500;
    void add(std::string_view chunk)
    {
        text.append(chunk);
        if (text.size() > limit) {
            text.erase(0, text.size() - limit);
        }
    }
};

/// Runs `command`; when it fails, RemoteCommandFailed with `what` (the step's reason) and the parameters
/// "exit_status" and "said" (the output's last lines, empty when it printed nothing).
Status runChecked(SshSession& session,
                  const std::string& command,
                  Reason what,
                  std::chrono::milliseconds timeout,
                  const CancelToken* cancel)
{
    OutputTail tail;
    SshRunOptions options;
    options.timeout = timeout;
    options.cancel = cancel;
    Result<int> status = session.run(
        inPosixShell(command), [&tail](SshStream, std::string_view chunk) { tail.add(chunk); }, options);
    if (!status) {
        return status.error();
    }
    if (*status != 0) {
        what.params["exit_status"] = std::to_string(*status);
        what.params["said"] = tail.text;
        return Error{ErrorCode::RemoteCommandFailed, std::move(what), session.target().display()};
    }
    return Ok{};
}

/// Uploads the probe's source archive (checksum checked) and unpacks it into kRemoteSource, replacing what an
/// earlier run left there.
Status uploadSource(SshSession& session, const std::filesystem::path& archive, const CancelToken* cancel)
{
    const std::string remoteArchive = std::string(kRemoteDir) + "/probe-source.tar.gz";
    if (Status sent = session.upload(archive.string(), remoteArchive, 0644, cancel); !sent) {
        return sent;
    }
    // wire: a shell command run on the remote machine
    return runChecked(session,
                      "rm -rf " + shellQuote(kRemoteSource) + " && mkdir -p " + shellQuote(kRemoteSource)
                          + " && tar xzf " + shellQuote(remoteArchive) + " -C " + shellQuote(kRemoteSource),
                      Reason{"error.deploy.unpack_failed", {}},
                      std::chrono::seconds(60),
                      cancel);
}

/// When the machine has no GPU or no driver the probe still runs where some way fits, for its own answer.
DeployChoice probeAnyway(const RemoteFacts& facts, const std::vector<BundledProbe>& builds, bool sourceAvailable)
{
    DeployChoice choice;
    for (const BundledProbe& build : builds) {
        if (build.minimumGlibc.empty() || facts.glibcVersion.empty()
            || compareVersions(facts.glibcVersion, build.minimumGlibc) >= 0) {
            choice.kind = DeployChoice::Kind::Prebuilt;
            choice.build = build.id;
            return choice;
        }
    }
    if (sourceAvailable && !facts.nvccPath.empty() && compareVersions(facts.nvccVersion, kProbeMinimumCuda) >= 0) {
        choice.kind = DeployChoice::Kind::BuildRemote;
    }
    return choice;
}

} // namespace

std::filesystem::path bundledProbeDir(const std::filesystem::path& executableDir)
{
    if (const char* overridden = std::getenv("GPUPLAN_PROBE_DIR"); overridden && *overridden) {
        return std::filesystem::path(overridden);
    }
    return executableDir;
}

ProbeBundle findProbeBundle(const std::filesystem::path& binDir)
{
    ProbeBundle bundle;
    for (const auto& [build, file] : {std::pair<const char*, const char*>{"cuda13", "gpuplan-probe"},
                                      std::pair<const char*, const char*>{"cuda11.8", "gpuplan-probe-cuda11.8"}}) {
        const std::filesystem::path path = binDir / file;
        if (std::filesystem::is_regular_file(path)) {
            bundle.binaries.push_back({build, path.string()});
        }
    }
    const std::filesystem::path source =
        (binDir / ".." / "share" / "gpuplanner" / "probe-source.tar.gz").lexically_normal();
    if (std::filesystem::is_regular_file(source)) {
        bundle.sourceArchive = source;
    }
    return bundle;
}

std::string requiredGlibc(const std::filesystem::path& binary)
{
    std::ifstream in(binary, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string newest;
    const std::string tag = "GLIBC_";
    for (std::size_t at = bytes.find(tag); at != std::string::npos; at = bytes.find(tag, at + 1)) {
        std::size_t end = at + tag.size();
        while (end < bytes.size() && (std::isdigit(static_cast<unsigned char>(bytes[end])) || bytes[end] == '.')) {
            ++end;
        }
        // A version name is NUL-terminated in the dynamic string table ("GLIBC_2.34\0"); GLIBC_PRIVATE is not one.
        const std::string version = bytes.substr(at + tag.size(), end - at - tag.size());
        if (end < bytes.size() && bytes[end] == '\0' && !version.empty()
            && std::isdigit(static_cast<unsigned char>(version[0]))
            && (newest.empty() || compareVersions(version, newest) > 0)) {
            newest = version;
        }
    }
    return newest;
}

std::string probeBuildCommand(const std::string& nvcc,
                              const std::string& cudaVersion,
                              const RemoteFacts& facts,
                              const std::string& output)
{
    // SASS for each GPU's compute capability; one newer than the toolkit knows gets the newest PTX it has, which
    // the driver compiles at first use.
    const int newest = compareVersions(cudaVersion, "12.8") >= 0 ? 120 : 90;
    std::vector<int> architectures;
    for (const RemoteFacts::Gpu& gpu : facts.gpus) {
        std::string digits = gpu.computeCapability;
        digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
        if (digits.empty() || digits.size() > 3
            || !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); })) {
            continue;
        }
        const int number = std::stoi(digits);
        if (std::find(architectures.begin(), architectures.end(), number) == architectures.end()) {
            architectures.push_back(number);
        }
    }
    std::string command = shellQuote(nvcc) + " -std=c++17 -O3 -I.";
    std::string names;
    auto add = [&names](const std::string& name) { names += (names.empty() ? "" : ",") + name; };
    if (architectures.empty()) {
        // No GPU told its compute capability: the lowest the toolkit builds the probe for, with PTX for the rest.
        std::string lowest = lowestArchitectureOf(cudaVersion); // "7.5" -> "75"
        lowest.erase(std::remove(lowest.begin(), lowest.end(), '.'), lowest.end());
        command += " -arch=sm_" + lowest;
        add("sm_" + lowest);
        add("compute_" + lowest);
    }
    // Hopper gets its arch-specific target where the toolkit has it (CUDA 12.0 on): the probe's own wgmma/TMA GEMM
    // exists only in sm_90a code, which runs on every compute capability 9.0 GPU.
    const bool hopperSpecific = compareVersions(cudaVersion, "12.0") >= 0;
    for (int number : architectures) {
        const std::string n = std::to_string(std::min(number, newest)) + (number == 90 && hopperSpecific ? "a" : "");
        if (number > newest) {
            command += " -gencode=arch=compute_" + n + ",code=compute_" + n;
            add("compute_" + n);
        } else {
            command += " -gencode=arch=compute_" + n + ",code=sm_" + n;
            add("sm_" + n);
        }
    }
    command += " " + shellQuote("-DPROBE_ARCHITECTURES=\"" + names + "\"") + " -o " + shellQuote(output)
               + " *.cu *.cpp -ldl -lpthread";
    return command;
}

std::string ProbeMode::arguments() const
{
    std::string text = quick ? " --quick" : "";
    if (burnSeconds > 0) {
        text += " --burn " + std::to_string(burnSeconds);
    }
    return text;
}

std::chrono::milliseconds ProbeMode::timeout(std::size_t gpus) const
{
    const long long perGpu = quick ? 40 : 150; // cuda_probe/main.cu's watchdog
    return std::chrono::seconds(perGpu * static_cast<long long>(std::max<std::size_t>(gpus, 1)) + 30 + burnSeconds
                                + 60);
}

std::string probeContainerCommand(const std::string& image, const RemoteFacts& facts, const ProbeMode& mode)
{
    // The image's CUDA version is its tag's: nvidia/cuda:12.4.0-devel-ubuntu22.04 -> 12.4.0.
    const std::size_t colon = image.rfind(':');
    const std::string cuda =
        colon == std::string::npos ? std::string() : image.substr(colon + 1, image.find('-', colon) - colon - 1);
    const std::string inside = "cd /probe-source && " + probeBuildCommand("nvcc", cuda, facts, "/tmp/gpuplan-probe")
                               + " 1>&2 && /tmp/gpuplan-probe" + mode.arguments();
    // wire: a shell command run on the remote machine
    // Read-only, and relabelled for SELinux hosts (RHEL, Rocky), where an unlabelled mount cannot be read.
    return "docker run --rm --gpus all -v \"$HOME\"/" + std::string(kRemoteSource) + ":/probe-source:ro,z "
           + shellQuote(image) + " sh -c " + shellQuote(inside);
}

Result<ProbeRun> runProbeOver(SshSession& session,
                              const ProbeBundle& bundle,
                              const ProbeMode& mode,
                              const std::function<void(VerifyStep)>& progress,
                              const CancelToken* cancel)
{
    auto step = [&progress](VerifyStep s) {
        if (progress) {
            progress(s);
        }
    };
    step(VerifyStep::Detect);
    Result<RemoteFacts> facts = detectRemote(session, cancel);
    if (!facts) {
        return facts.error();
    }
    ProbeRun run;
    run.facts = *facts;
    std::vector<BundledProbe> builds;
    for (BundledProbe build : bundledProbeBuilds()) {
        const auto binary = std::find_if(
            bundle.binaries.begin(), bundle.binaries.end(), [&](const ProbeBinary& b) { return b.build == build.id; });
        if (binary != bundle.binaries.end()) {
            build.minimumGlibc = requiredGlibc(binary->path);
            builds.push_back(build);
        }
    }
    const bool haveSource = !bundle.sourceArchive.empty();
    run.choice = chooseDeployment(run.facts, builds, haveSource);
    DeployChoice how = run.choice;
    if (how.kind == DeployChoice::Kind::Stop
        && (run.choice.why.key == "deploy.no_gpu" || run.choice.why.key == "deploy.no_driver")) {
        how = probeAnyway(run.facts, builds, haveSource); // the probe says it in its own structured words
    }
    if (how.kind == DeployChoice::Kind::Stop) {
        return run;
    }
    step(VerifyStep::Upload);
    if (Status made = runChecked(session,
                                 "mkdir -p " + shellQuote(kRemoteDir),
                                 Reason{"error.deploy.mkdir_failed", {{"dir", kRemoteDir}}},
                                 std::chrono::seconds(30),
                                 cancel);
        !made) {
        return made.error();
    }
    std::string command;
    if (how.kind == DeployChoice::Kind::Prebuilt) {
        const auto binary = std::find_if(
            bundle.binaries.begin(), bundle.binaries.end(), [&](const ProbeBinary& b) { return b.build == how.build; });
        const std::string remote = std::string(kRemoteDir) + "/gpuplan-probe-" + how.build;
        // Beside it first, then renamed: a probe still running from an earlier, abandoned run keeps its file.
        if (Status uploaded = session.upload(binary->path, remote + ".upload", 0755, cancel); !uploaded) {
            return uploaded.error();
        }
        if (Status moved = runChecked(session,
                                      "mv -f " + shellQuote(remote + ".upload") + " " + shellQuote(remote),
                                      Reason{"error.deploy.install_failed", {}},
                                      std::chrono::seconds(30),
                                      cancel);
            !moved) {
            return moved.error();
        }
        command = "./" + shellQuote(remote);
        run.buildUsed = how.build;
    } else {
        if (Status sent = uploadSource(session, bundle.sourceArchive, cancel); !sent) {
            return sent.error();
        }
        if (how.kind == DeployChoice::Kind::BuildRemote) {
            step(VerifyStep::Build);
            const std::string built = "../gpuplan-probe-built";
            if (Status compiled =
                    runChecked(session,
                               "cd " + shellQuote(kRemoteSource) + " && "
                                   + probeBuildCommand(run.facts.nvccPath, run.facts.nvccVersion, run.facts, built),
                               Reason{"error.deploy.build_failed", {{"nvcc", run.facts.nvccPath}}},
                               std::chrono::minutes(20),
                               cancel);
                !compiled) {
                return compiled.error();
            }
            command = "./" + shellQuote(std::string(kRemoteDir) + "/gpuplan-probe-built");
            run.buildUsed = "nvcc " + run.facts.nvccVersion;
        } else {
            step(VerifyStep::Build); // the container pulls its image and builds the probe, then runs it
            command = probeContainerCommand(how.image, run.facts, mode);
            run.buildUsed = how.image;
        }
    }
    if (how.kind != DeployChoice::Kind::Container) {
        command += mode.arguments();
    }
    step(VerifyStep::Run);
    SshRunOptions probeRun;
    // The probe's own watchdog ends it well before this; a container may first pull its image.
    probeRun.timeout = how.kind == DeployChoice::Kind::Container
                           ? std::chrono::milliseconds(std::chrono::minutes(40)) + mode.timeout(run.facts.gpus.size())
                           : mode.timeout(run.facts.gpus.size());
    probeRun.cancel = cancel;
    OutputTail errors;
    Result<int> status = session.run(
        inPosixShell(command),
        [&run, &errors](SshStream stream, std::string_view chunk) {
            if (stream == SshStream::Stdout) {
                run.output.append(chunk);
            } else {
                errors.add(chunk);
            }
        },
        probeRun);
    if (!status) {
        return status.error();
    }
    if (run.output.find_first_not_of(" \t\r\n") == std::string::npos && *status != 0) {
        // "said": the last lines of its standard error, empty when it wrote none.
        return Error{
            ErrorCode::RemoteCommandFailed,
            Reason{"error.deploy.probe_silent", {{"exit_status", std::to_string(*status)}, {"said", errors.text}}},
            session.target().display()};
    }
    Result<ProbeResult> parsed = parseProbeResult(run.output, session.target().display() + ": gpuplan-probe");
    if (!parsed) {
        return parsed.error();
    }
    run.result = *parsed;
    return run;
}

} // namespace gpuplan::core
