// cuBLASLt found at run time: dlopen from the places library_search.h lists (newest major the driver runs first),
// functions through dlsym. Types come from the build's cublasLt.h: the C API calls the probe uses are the same in
// cuBLASLt 11, 12 and 13, so an 11.8 build can drive a newer library (and must, for Hopper FP8 and Blackwell).
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

// The loaded library, or nullptr with the reason (searched places, what failed) in *reason. A candidate is kept
// only when cublasLtCreate and the heuristic for a plain FP16 GEMM succeed on the current device; otherwise the
// next one is tried. Loads once per process.
const Api* load(std::string* reason);
// What load() found, without loading: nullptr (and the reason, or "" when load() never ran).
const Api* loaded(std::string* reason);

} // namespace probe::lt
