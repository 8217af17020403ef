#pragma once

#include "gpuplan/core/Reason.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// What the probe's deployment learns of the remote machine before it chooses how to run the probe.
struct RemoteFacts
{
    std::string osId;      // /etc/os-release ID: "ubuntu", "rocky"
    std::string osVersion; // VERSION_ID: "22.04"
    std::string machine;   // uname -m: "x86_64"
    /// From `nvidia-smi --query-gpu=driver_version,name,compute_cap,memory.total --format=csv,noheader,nounits`;
    /// empty when nvidia-smi is missing or failed.
    std::string driverVersion; // "535.183.01"
    struct Gpu
    {
        std::string name;
        std::string computeCapability; // "8.0"; empty when this driver cannot tell
        double memoryMib = 0;          // 0: unknown ("[N/A]", or not a reading)
    };
    std::vector<Gpu> gpus;
    bool nvidiaPciDevice = false; // lspci shows an NVIDIA device (a GPU without a working driver)
    std::string nvccPath;         // the remote CUDA compiler: on PATH, else /usr/local/cuda/bin/nvcc; empty: none
    std::string nvccVersion;      // its release, "12.4"
    std::string glibcVersion;     // the system C library, "2.35" (getconf GNU_LIBC_VERSION); empty: unknown
    bool dockerWithNvidiaRuntime = false;
    std::string cudaVersionOfDriver; // nvidia-smi's "CUDA Version: 12.2"
};

/// Reads `nvidia-smi --query-gpu=driver_version,name,compute_cap,memory.total --format=csv,noheader,nounits`
/// output into facts.driverVersion and facts.gpus. Lines it cannot read are left out; returns how many GPUs.
int readNvidiaSmi(const std::string& csv, RemoteFacts& facts);

/// A prebuilt probe that ships with GPU Planner (cuda_probe/, built once per toolkit).
struct BundledProbe
{
    std::string id;                  // "cuda13", "cuda11.8"
    std::string minimumDriver;       // the oldest driver the build runs on, e.g. "580.65.06"
    std::string lowestArchitecture;  // "7.0"
    std::string highestArchitecture; // the newest SASS it holds, "9.0" (newer GPUs JIT its PTX)
    std::string minimumGlibc;        // the newest glibc symbol version the binary needs, "2.17"; empty: unknown
};

/// The oldest CUDA toolkit that builds the probe's source (cuda_fp8.h arrived in 11.8).
inline constexpr const char* kProbeMinimumCuda = "11.8";

/// The lowest compute capability a CUDA toolkit builds the probe for: "7.0" (the tensor-core kernels need Volta),
/// "7.5" from CUDA 13, which dropped sm_70.
std::string lowestArchitectureOf(const std::string& cuda);

/// The two builds, newest first, with the driver floors of NVIDIA's compatibility table
/// (https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html: CUDA 13.x >= 580,
/// 11.x >= 450.80.02).
std::vector<BundledProbe> bundledProbeBuilds();

/// How the probe will run on the remote machine.
struct DeployChoice
{
    enum class Kind
    {
        Prebuilt,    // upload `build`
        BuildRemote, // upload the probe's source, build it with the remote nvcc
        Container,   // run in `image` with Docker and the NVIDIA runtime
        Stop,        // cannot run: `why` says why; `offerDriverScript` when a newer driver would help
    };
    Kind kind = Kind::Stop;
    std::string build; // Prebuilt
    std::string image; // Container
    Reason why;        // for every kind: why this way (or why not at all)
    bool offerDriverScript = false;
};

/// Picks the first way that works: a prebuilt probe whose driver floor, architectures and glibc fit the machine,
/// else (when the probe's source is at hand) a build with the remote nvcc (11.8 or newer, and no newer than the
/// driver's CUDA major release), else a build and run in an nvidia/cuda container matching the driver's CUDA,
/// else a stop with the exact reason. A machine that is not x86_64 can only build the probe there.
DeployChoice
chooseDeployment(const RemoteFacts& facts, const std::vector<BundledProbe>& builds, bool sourceAvailable = true);

/// -1, 0, 1 comparing dotted versions numerically ("535.183.01" < "580.65.06"; "12.4" < "12.10").
int compareVersions(const std::string& a, const std::string& b);

} // namespace gpuplan::core
