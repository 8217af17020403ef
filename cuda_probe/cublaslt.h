// cuBLASLt found at run time: dlopen from the usual places (the loader's path, the CUDA toolkit's lib64,
// the system, pip's nvidia/cublas/lib), functions through dlsym. Types come from the build's cublasLt.h.
#pragma once

#include <cublasLt.h>

#include <string>

namespace probe::lt {

struct Api
{
    decltype(&cublasLtCreate) create = nullptr;
    decltype(&cublasLtDestroy) destroy = nullptr;
    decltype(&cublasLtGetVersion) getVersion = nullptr;
    decltype(&cublasLtMatmul) matmul = nullptr;
    decltype(&cublasLtMatmulDescCreate) descCreate = nullptr;
    decltype(&cublasLtMatmulDescDestroy) descDestroy = nullptr;
    decltype(&cublasLtMatmulDescSetAttribute) descSetAttribute = nullptr;
    decltype(&cublasLtMatrixLayoutCreate) layoutCreate = nullptr;
    decltype(&cublasLtMatrixLayoutDestroy) layoutDestroy = nullptr;
    decltype(&cublasLtMatmulPreferenceCreate) preferenceCreate = nullptr;
    decltype(&cublasLtMatmulPreferenceDestroy) preferenceDestroy = nullptr;
    decltype(&cublasLtMatmulPreferenceSetAttribute) preferenceSetAttribute = nullptr;
    decltype(&cublasLtMatmulAlgoGetHeuristic) algoGetHeuristic = nullptr;
    std::string path;
    size_t version = 0;
};

// The loaded library, or nullptr with the reason (searched places) in *reason.
const Api* load(std::string* reason);

} // namespace probe::lt
