#include "cublaslt.h"

#include <dlfcn.h>
#include <glob.h>

#include <cstdlib>
#include <vector>

namespace probe::lt {
namespace {

std::vector<std::string> globbed(const std::string& pattern)
{
    std::vector<std::string> out;
    glob_t g{};
    if (glob(pattern.c_str(), 0, nullptr, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; ++i)
            out.emplace_back(g.gl_pathv[i]);
    }
    globfree(&g);
    return out;
}

std::vector<std::string> candidates()
{
    // The build's major version first: its header describes that library best.
    std::vector<std::string> names;
    const int buildMajor = CUBLAS_VER_MAJOR;
    names.push_back("libcublasLt.so." + std::to_string(buildMajor));
    for (int major : {13, 12, 11})
        if (major != buildMajor)
            names.push_back("libcublasLt.so." + std::to_string(major));

    std::vector<std::string> dirs;
    for (const char* env : {"CUDA_HOME", "CUDA_PATH", "CONDA_PREFIX", "VIRTUAL_ENV"}) {
        if (const char* v = std::getenv(env); v && *v) {
            dirs.push_back(std::string(v) + "/lib64");
            dirs.push_back(std::string(v) + "/lib");
            for (const auto& d : globbed(std::string(v) + "/lib/python3*/site-packages/nvidia/cublas/lib"))
                dirs.push_back(d);
        }
    }
    dirs.push_back("/usr/local/cuda/lib64");
    for (const auto& d : globbed("/usr/local/cuda-*/lib64"))
        dirs.push_back(d);
    dirs.push_back("/usr/lib/x86_64-linux-gnu");
    dirs.push_back("/usr/lib64");
    dirs.push_back("/usr/lib/aarch64-linux-gnu");
    const char* home = std::getenv("HOME");
    for (const std::string& pattern :
         {std::string("/usr/local/lib/python3*/dist-packages/nvidia/cublas/lib"),
          std::string("/usr/local/lib/python3*/site-packages/nvidia/cublas/lib"),
          std::string("/usr/lib/python3/dist-packages/nvidia/cublas/lib"),
          std::string("/usr/lib/python3*/site-packages/nvidia/cublas/lib"),
          std::string("/opt/conda/lib/python3*/site-packages/nvidia/cublas/lib"),
          std::string("/opt/conda/envs/*/lib/python3*/site-packages/nvidia/cublas/lib"),
          std::string(home ? home : "/root") + "/.local/lib/python3*/site-packages/nvidia/cublas/lib",
          std::string(home ? home : "/root") + "/*/lib/python3*/site-packages/nvidia/cublas/lib"}) {
        for (const auto& d : globbed(pattern))
            dirs.push_back(d);
    }

    std::vector<std::string> out;
    for (const auto& n : names) {
        out.push_back(n); // the dynamic loader's own search (LD_LIBRARY_PATH, ldconfig cache)
        for (const auto& d : dirs)
            out.push_back(d + "/" + n);
    }
    return out;
}

template <typename F>
bool resolve(void* handle, F& target, const char* symbol)
{
    target = reinterpret_cast<F>(dlsym(handle, symbol));
    return target != nullptr;
}

Api api;
bool tried = false;
bool loaded = false;
std::string failure;

} // namespace

const Api* load(std::string* reason)
{
    if (!tried) {
        tried = true;
        for (const auto& path : candidates()) {
            void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!handle)
                continue;
            Api a;
            const bool all =
                resolve(handle, a.create, "cublasLtCreate") && resolve(handle, a.destroy, "cublasLtDestroy")
                && resolve(handle, a.getVersion, "cublasLtGetVersion") && resolve(handle, a.matmul, "cublasLtMatmul")
                && resolve(handle, a.descCreate, "cublasLtMatmulDescCreate")
                && resolve(handle, a.descDestroy, "cublasLtMatmulDescDestroy")
                && resolve(handle, a.descSetAttribute, "cublasLtMatmulDescSetAttribute")
                && resolve(handle, a.layoutCreate, "cublasLtMatrixLayoutCreate")
                && resolve(handle, a.layoutDestroy, "cublasLtMatrixLayoutDestroy")
                && resolve(handle, a.preferenceCreate, "cublasLtMatmulPreferenceCreate")
                && resolve(handle, a.preferenceDestroy, "cublasLtMatmulPreferenceDestroy")
                && resolve(handle, a.preferenceSetAttribute, "cublasLtMatmulPreferenceSetAttribute")
                && resolve(handle, a.algoGetHeuristic, "cublasLtMatmulAlgoGetHeuristic");
            if (!all) {
                dlclose(handle);
                continue;
            }
            a.path = path;
            a.version = a.getVersion();
            api = a;
            loaded = true;
            break;
        }
        if (!loaded)
            failure = "no cuBLASLt found (libcublasLt.so.13/12/11 in the loader path, /usr/local/cuda*/lib64, "
                      "system lib dirs, pip nvidia/cublas/lib)";
    }
    if (!loaded && reason)
        *reason = failure;
    return loaded ? &api : nullptr;
}

} // namespace probe::lt
