#include "nccl.h"

#include "library_search.h"

#include <dlfcn.h>
#include <glob.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace probe::nccl {
namespace {

// The few declarations of NCCL's public nccl.h (src/nccl.h.in) the probe needs: ncclResult_t ncclSuccess = 0,
// ncclDataType_t ncclFloat = ncclFloat32 = 7, ncclRedOp_t ncclSum = 0; ncclComm_t is an opaque pointer.
using Comm = void*;
constexpr int kSuccess = 0;
constexpr int kFloat = 7;
constexpr int kSum = 0;

struct Api
{
    int (*getVersion)(int*) = nullptr;
    const char* (*getErrorString)(int) = nullptr;
    int (*commInitAll)(Comm*, int, const int*) = nullptr;
    int (*commDestroy)(Comm) = nullptr;
    int (*commAbort)(Comm) = nullptr; // optional
    int (*groupStart)() = nullptr;
    int (*groupEnd)() = nullptr;
    int (*allReduce)(const void*, void*, size_t, int, int, Comm, cudaStream_t) = nullptr;
    std::string path;
    int version = 0;
};

const char* const kName = "libnccl.so.2";

template <typename F>
bool resolve(void* handle, F& target, const char* symbol)
{
    target = reinterpret_cast<F>(dlsym(handle, symbol));
    return target != nullptr;
}

std::map<std::string, std::string> environment()
{
    std::map<std::string, std::string> env = libsearch::currentEnvironment();
    for (const char* name : {"NCCL_HOME", "NCCL_ROOT"})
        if (const char* v = std::getenv(name); v && *v)
            env[name] = v;
    return env;
}

const Api* load(std::string* problem)
{
    static Api api;
    static bool tried = false, loaded = false;
    static std::string failure;
    if (!tried) {
        tried = true;
        const char* home = std::getenv("HOME");
        std::string rejected;
        for (const auto& path : libraryCandidates(environment(), home && *home ? home : "/root", "")) {
            void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!handle) {
                if (path != kName) {
                    const char* e = dlerror();
                    rejected += "; " + (e ? std::string(e) : path);
                }
                continue;
            }
            Api a;
            const bool all =
                resolve(handle, a.getVersion, "ncclGetVersion")
                && resolve(handle, a.getErrorString, "ncclGetErrorString")
                && resolve(handle, a.commInitAll, "ncclCommInitAll")
                && resolve(handle, a.commDestroy, "ncclCommDestroy") && resolve(handle, a.groupStart, "ncclGroupStart")
                && resolve(handle, a.groupEnd, "ncclGroupEnd") && resolve(handle, a.allReduce, "ncclAllReduce");
            if (!all) {
                rejected += "; " + path + " lacks NCCL symbols";
                dlclose(handle);
                continue;
            }
            resolve(handle, a.commAbort, "ncclCommAbort");
            a.path = path;
            if (a.getVersion(&a.version) != kSuccess)
                a.version = 0;
            api = a;
            loaded = true;
            break;
        }
        if (!loaded)
            failure = "no NCCL found (" + searchedPlaces() + ")" + rejected;
    }
    if (!loaded && problem)
        *problem = failure;
    return loaded ? &api : nullptr;
}

// Communicators of one run; torn down however the run ends (abort after a failure: destroy may wait forever
// on a peer that never arrives).
struct Comms
{
    const Api& api;
    std::vector<Comm> comms;
    bool failed = false;
    ~Comms()
    {
        for (Comm c : comms)
            if (c)
                (failed && api.commAbort ? api.commAbort : api.commDestroy)(c);
    }
};

struct PerGpu
{
    int device = 0;
    void* send = nullptr;
    void* recv = nullptr;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
};

// Frees on every path; errors here are ignored (a sticky error already decided the result).
struct Resources
{
    std::vector<PerGpu> gpus;
    ~Resources()
    {
        for (auto& g : gpus) {
            cudaSetDevice(g.device);
            if (g.stream)
                cudaStreamSynchronize(g.stream);
            if (g.start)
                cudaEventDestroy(g.start);
            if (g.stop)
                cudaEventDestroy(g.stop);
            if (g.stream)
                cudaStreamDestroy(g.stream);
            if (g.send)
                cudaFree(g.send);
            if (g.recv)
                cudaFree(g.recv);
        }
    }
};

// CUDA failures as probe::CudaFailure, without measure.cu's throwCuda: the unit test links this file alone.
void cudaCheck(cudaError_t status, const char* call)
{
    if (status != cudaSuccess)
        throw CudaFailure(status, std::string(call) + ": " + cudaGetErrorString(status));
}
#define NCCL_CUDA(call) cudaCheck((call), #call)

struct NcclFailure : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

void check(const Api& api, int result, const char* call)
{
    if (result != kSuccess)
        throw NcclFailure(std::string(call) + ": " + api.getErrorString(result));
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void measure(const Api& api, const std::vector<int>& devices, bool quick, Measurement& m)
{
    const size_t bytes = (quick ? 64u : 256u) << 20;
    const size_t count = bytes / sizeof(float);
    const int n = static_cast<int>(devices.size());
    Resources res;
    for (int d : devices) {
        NCCL_CUDA(cudaSetDevice(d));
        size_t freeBytes = 0, total = 0;
        NCCL_CUDA(cudaMemGetInfo(&freeBytes, &total));
        if (freeBytes < 2 * bytes + (256u << 20)) {
            m.skipped = "not enough free device memory on GPU " + std::to_string(d);
            return;
        }
        res.gpus.push_back(PerGpu{d});
        PerGpu& g = res.gpus.back();
        NCCL_CUDA(cudaMalloc(&g.send, bytes));
        NCCL_CUDA(cudaMalloc(&g.recv, bytes));
        NCCL_CUDA(cudaMemset(g.send, 0, bytes)); // zeros: a float sum that can never overflow or go NaN
        NCCL_CUDA(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
        NCCL_CUDA(cudaEventCreate(&g.start));
        NCCL_CUDA(cudaEventCreate(&g.stop));
    }
    for (auto& g : res.gpus) {
        NCCL_CUDA(cudaSetDevice(g.device));
        NCCL_CUDA(cudaDeviceSynchronize());
    }

    Comms comms{api, std::vector<Comm>(static_cast<size_t>(n), nullptr)};
    if (const int r = api.commInitAll(comms.comms.data(), n, devices.data()); r != kSuccess) {
        std::fill(comms.comms.begin(), comms.comms.end(), nullptr); // NCCL cleans up what it began
        check(api, r, "ncclCommInitAll");
    }
    comms.failed = true; // until the run completes
    auto allReduceAll = [&] {
        check(api, api.groupStart(), "ncclGroupStart");
        for (int i = 0; i < n; ++i) {
            const PerGpu& g = res.gpus[static_cast<size_t>(i)];
            const int r =
                api.allReduce(g.send, g.recv, count, kFloat, kSum, comms.comms[static_cast<size_t>(i)], g.stream);
            if (r != kSuccess) {
                api.groupEnd();
                check(api, r, "ncclAllReduce");
            }
        }
        check(api, api.groupEnd(), "ncclGroupEnd");
    };
    auto synchronize = [&] {
        for (auto& g : res.gpus) {
            NCCL_CUDA(cudaSetDevice(g.device));
            NCCL_CUDA(cudaStreamSynchronize(g.stream));
        }
    };

    // nccl-tests' defaults: 5 warm-up iterations, then timed batches of 20 (quick: fewer batches).
    for (int i = 0; i < 5; ++i)
        allReduceAll();
    synchronize();
    const int iterations = 20, samples = quick ? 3 : 7;
    std::vector<double> rates;
    for (int s = 0; s < samples; ++s) {
        for (auto& g : res.gpus) {
            NCCL_CUDA(cudaSetDevice(g.device));
            NCCL_CUDA(cudaEventRecord(g.start, g.stream));
        }
        for (int i = 0; i < iterations; ++i)
            allReduceAll();
        for (auto& g : res.gpus) {
            NCCL_CUDA(cudaSetDevice(g.device));
            NCCL_CUDA(cudaEventRecord(g.stop, g.stream));
        }
        // The collective is as slow as its slowest rank.
        double slowestMs = 0;
        for (auto& g : res.gpus) {
            NCCL_CUDA(cudaSetDevice(g.device));
            NCCL_CUDA(cudaEventSynchronize(g.stop));
            float ms = 0;
            NCCL_CUDA(cudaEventElapsedTime(&ms, g.start, g.stop));
            slowestMs = std::max(slowestMs, static_cast<double>(ms));
        }
        if (slowestMs > 0)
            rates.push_back(busBandwidthGBs(algBandwidthGBs(bytes, slowestMs * 1e-3 / iterations), n));
    }
    synchronize();
    comms.failed = false;
    if (rates.empty()) {
        m.skipped = "no valid timing";
        return;
    }
    m.value = median(rates);
    m.min = *std::min_element(rates.begin(), rates.end());
    m.max = *std::max_element(rates.begin(), rates.end());
    m.repetitions = static_cast<int>(rates.size());
}

} // namespace

double algBandwidthGBs(size_t bytes, double seconds)
{
    return seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : NAN;
}

double busBandwidthGBs(double algBandwidth, int ranks)
{
    return ranks > 0 ? algBandwidth * 2.0 * (ranks - 1) / ranks : NAN;
}

std::vector<std::string>
libraryCandidates(const std::map<std::string, std::string>& env, const std::string& home, const std::string& root)
{
    std::vector<std::string> dirs;
    auto add = [&](const std::string& pattern) {
        for (auto& d : libsearch::matchingDirectories(pattern))
            dirs.push_back(std::move(d));
    };
    for (const char* name : {"NCCL_HOME", "NCCL_ROOT"})
        if (const auto it = env.find(name); it != env.end() && !it->second.empty()) {
            add(root + it->second + "/lib");
            add(root + it->second + "/lib64");
        }
    // NVIDIA's tarball installs; the deb (libnccl2) lands in the system lib dirs, pip in nvidia/nccl/lib.
    add(root + "/usr/local/nccl*/lib");
    add(root + "/usr/local/nccl*/lib64");
    for (auto& d : libsearch::libraryDirectories(env, home, root, {"nvidia/nccl/lib"}))
        dirs.push_back(std::move(d));

    std::vector<std::string> out{kName}; // the dynamic loader's own search (LD_LIBRARY_PATH, ldconfig cache)
    for (const auto& d : dirs) {
        std::string path = d + "/" + kName;
        if (access(path.c_str(), F_OK) == 0 && std::find(out.begin(), out.end(), path) == out.end())
            out.push_back(std::move(path));
    }
    return out;
}

std::string searchedPlaces()
{
    return std::string(kName)
           + " in the loader path, $NCCL_HOME, /usr/local/nccl*/lib, $CUDA_HOME, /usr/local/cuda*/lib64, system "
             "lib dirs, and the lib dirs and pip wheels (nvidia/nccl/lib) of the system Python, ~/.local, venvs "
             "(~/.venv, ~/*/.venv, ~/.virtualenvs/*, /opt/*), pyenv and conda installs with their envs";
}

Measurement allReduce(const std::vector<int>& devices, bool quick, LibraryInfo* used)
{
    Measurement m;
    m.name = "nccl_allreduce";
    m.unit = "GB/s";
    m.method = "nccl";
    m.shape = std::to_string(devices.size()) + (devices.size() == 1 ? " GPU, " : " GPUs, ")
              + std::to_string(quick ? 64 : 256) + " MiB float sum";
    std::string problem;
    const Api* api = load(&problem);
    if (used) {
        *used = LibraryInfo{};
        if (api) {
            used->path = api->path;
            used->version = api->version;
        } else {
            used->problem = problem;
        }
    }
    if (devices.size() < 2) {
        m.skipped = "only one GPU";
        return m;
    }
    if (!api) {
        m.skipped = problem;
        return m;
    }
    int previous = 0;
    const bool restore = cudaGetDevice(&previous) == cudaSuccess;
    try {
        measure(*api, devices, quick, m);
    } catch (const NcclFailure& e) {
        m.skipped = std::string("NCCL failed: ") + e.what();
    } catch (const CudaFailure& e) {
        m.skipped = std::string("CUDA failed: ") + e.what();
    } catch (const std::exception& e) {
        m.skipped = e.what();
    }
    if (!m.skipped.empty()) {
        m.value = m.min = m.max = NAN;
        m.repetitions = 0;
        if (used && used->problem.empty())
            used->problem = m.skipped;
    }
    if (restore)
        cudaSetDevice(previous);
    return m;
}

} // namespace probe::nccl
