#include "gpuplan/deploy/ProbeDeployment.h"

#include <algorithm>
#include <sstream>

namespace gpuplan::core {

namespace {

// One command, tagged lines; each probe of the machine tolerates the tool being absent.
constexpr const char* kDetectCommand =
    "echo \"os=$( (. /etc/os-release 2>/dev/null; echo \"$ID $VERSION_ID\") )\"; "
    "echo \"machine=$(uname -m)\"; "
    "echo smi-begin; nvidia-smi --query-gpu=driver_version,name,compute_cap,memory.total "
    "--format=csv,noheader,nounits 2>/dev/null; echo smi-end; "
    "echo \"cudaver=$(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\\([0-9.]*\\).*/\\1/p' | head -n 1)\"; "
    "echo \"pci=$(lspci 2>/dev/null | grep -ci nvidia)\"; "
    "echo \"nvcc=$(nvcc --version 2>/dev/null | sed -n 's/.*release \\([0-9.]*\\).*/\\1/p')\"; "
    "echo \"docker=$(docker info 2>/dev/null | grep -ci nvidia)\"";

std::string valueOf(const std::string& line, const char* key)
{
    const std::string prefix = std::string(key) + "=";
    return line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : std::string();
}

} // namespace

Result<RemoteFacts> detectRemote(SshSession& session, const CancelToken* cancel)
{
    std::string out;
    SshRunOptions options;
    options.timeout = std::chrono::seconds(60);
    options.cancel = cancel;
    Result<int> status = session.run(
        kDetectCommand,
        [&out](SshStream stream, std::string_view chunk) {
            if (stream == SshStream::Stdout) {
                out.append(chunk);
            }
        },
        options);
    if (!status) {
        return status.error();
    }
    RemoteFacts facts;
    std::stringstream in(out);
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
        } else if (line.rfind("nvcc=", 0) == 0) {
            facts.nvccVersion = valueOf(line, "nvcc");
        } else if (line.rfind("docker=", 0) == 0) {
            facts.dockerWithNvidiaRuntime = std::atoi(valueOf(line, "docker").c_str()) > 0;
        }
    }
    readNvidiaSmi(smi, facts);
    return facts;
}

Result<ProbeRun> runProbeOver(SshSession& session,
                              const std::vector<ProbeBinary>& available,
                              bool quick,
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
    for (const BundledProbe& build : bundledProbeBuilds()) {
        if (std::any_of(
                available.begin(), available.end(), [&](const ProbeBinary& b) { return b.build == build.id; })) {
            builds.push_back(build);
        }
    }
    run.choice = chooseDeployment(run.facts, builds);
    std::string build = run.choice.kind == DeployChoice::Kind::Prebuilt ? run.choice.build : std::string();
    const bool nothingToMeasure = run.choice.why.key == "deploy.no_gpu" || run.choice.why.key == "deploy.no_driver";
    if (build.empty() && nothingToMeasure && !builds.empty()) {
        build = builds.front().id; // the probe says it in its own structured words
    }
    if (build.empty()) {
        return run;
    }
    const auto binary =
        std::find_if(available.begin(), available.end(), [&](const ProbeBinary& b) { return b.build == build; });
    step(VerifyStep::Upload);
    SshRunOptions quickRun;
    quickRun.timeout = std::chrono::seconds(30);
    quickRun.cancel = cancel;
    Result<int> made = session.run("mkdir -p .gpuplanner-probe", {}, quickRun);
    if (!made) {
        return made.error();
    }
    const std::string remote = ".gpuplanner-probe/gpuplan-probe-" + build;
    if (Status uploaded = session.upload(binary->path, remote, 0755, cancel); !uploaded) {
        return uploaded.error();
    }
    step(VerifyStep::Run);
    SshRunOptions probeRun;
    probeRun.timeout = std::chrono::seconds(quick ? 120 : 300); // the probe's own watchdog ends it before this
    probeRun.cancel = cancel;
    Result<int> status = session.run(
        "./" + shellQuote(remote) + (quick ? " --quick" : ""),
        [&run](SshStream stream, std::string_view chunk) {
            if (stream == SshStream::Stdout) {
                run.output.append(chunk);
            }
        },
        probeRun);
    if (!status) {
        return status.error();
    }
    run.buildUsed = build;
    Result<ProbeResult> parsed = parseProbeResult(run.output, session.target().display() + ": gpuplan-probe");
    if (!parsed) {
        return parsed.error();
    }
    run.result = *parsed;
    return run;
}

} // namespace gpuplan::core
