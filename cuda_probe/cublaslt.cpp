#include "cublaslt.h"

#include "library_search.h"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <link.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

namespace probe::lt {
namespace {

// Whether this library can serve the probe on the current device: a handle, and an algorithm for FP16 1024^3.
bool usable(const Api& a, std::string* why)
{
    cublasLtHandle_t handle = nullptr;
    cublasStatus_t s = a.create(&handle);
    if (s != CUBLAS_STATUS_SUCCESS) {
        *why = "cublasLtCreate failed (status " + std::to_string(static_cast<int>(s)) + ")";
        return false;
    }
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
    cublasLtMatmulPreference_t pref = nullptr;
    int returned = 0;
    cublasLtMatmulHeuristicResult_t result{};
    const cublasOperation_t transA = CUBLAS_OP_T;
    const uint64_t workspace = 32ull << 20;
    s = a.descCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = a.descSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &transA, sizeof transA);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = a.layoutCreate(&la, CUDA_R_16F, 1024, 1024, 1024);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = a.layoutCreate(&lb, CUDA_R_16F, 1024, 1024, 1024);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = a.layoutCreate(&lc, CUDA_R_16F, 1024, 1024, 1024);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = a.preferenceCreate(&pref);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = a.preferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = a.algoGetHeuristic(handle, op, la, lb, lc, lc, pref, 1, &result, &returned);
    if (pref)
        a.preferenceDestroy(pref);
    for (auto layout : {lc, lb, la})
        if (layout)
            a.layoutDestroy(layout);
    if (op)
        a.descDestroy(op);
    a.destroy(handle);
    if (s != CUBLAS_STATUS_SUCCESS || returned < 1) {
        *why = "no FP16 GEMM algorithm for this GPU (status " + std::to_string(static_cast<int>(s)) + ")";
        return false;
    }
    return true;
}

template <typename F>
bool resolve(void* handle, F& target, const char* symbol)
{
    target = reinterpret_cast<F>(dlsym(handle, symbol));
    return target != nullptr;
}

Api api;
bool tried = false;
bool g_loaded = false;
std::string failure;

} // namespace

const Api* load(std::string* reason)
{
    if (!tried) {
        tried = true;
        int driver = 0;
        if (cudaDriverGetVersion(&driver) != cudaSuccess)
            driver = 0;
        const char* home = std::getenv("HOME");
        std::string rejected;
        for (const auto& path :
             libsearch::cublasLtCandidates(libsearch::currentEnvironment(), home ? home : "", "", driver)) {
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
            std::string why = "missing symbols";
            if (!all || !usable(a, &why)) {
                rejected += (rejected.empty() ? "" : "; ") + path + ": " + why;
                dlclose(handle);
                continue;
            }
            char resolved[4096] = {};
            a.path = dlinfo(handle, RTLD_DI_ORIGIN, resolved) == 0 && path.find('/') == std::string::npos
                         ? std::string(resolved) + "/" + path
                         : path;
            a.version = a.getVersion();
            api = a;
            g_loaded = true;
            break;
        }
        if (!g_loaded)
            failure = "no usable cuBLASLt found (searched " + libsearch::cublasLtSearchedPlaces() + ")"
                      + (rejected.empty() ? "" : "; rejected: " + rejected);
    }
    if (!g_loaded && reason)
        *reason = failure;
    return g_loaded ? &api : nullptr;
}

const Api* loaded(std::string* reason)
{
    if (!g_loaded && reason)
        *reason = tried ? failure : std::string();
    return g_loaded ? &api : nullptr;
}

} // namespace probe::lt
