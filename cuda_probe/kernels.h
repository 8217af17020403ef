// The probe's own kernels. Matrix convention everywhere (it is cuBLASLt's "TN" layout):
// A is M x K row-major (A[m*K + k]), B is K x N column-major (B[n*K + k]), C is M x N column-major (C[m + n*M]).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace probe::kernels {

enum class Element
{
    F32,
    F16,
    BF16,
    FP8E4M3
};

// Pseudo-random values in [-1, 1] (a hash of the index and seed), written as the given element type.
void fillRandom(void* data, Element type, size_t count, uint32_t seed, cudaStream_t stream);
void fillConstant(float* data, size_t count, float value, cudaStream_t stream);
// Reads F16 or BF16 elements back as float (exactly the rounded inputs a GEMM saw).
void toFloat(const void* in, Element type, float* out, size_t count, cudaStream_t stream);

void copy(const void* src, void* dst, size_t bytes, int blocks, cudaStream_t stream); // bytes % 16 == 0
void triad(const float* b, const float* c, float* a, float scalar, size_t count, int blocks, cudaStream_t stream);

// FP32 FMA peak: each thread runs 8 independent FMA chains `iterations` times.
void fmaPeak(float* sink, int blocks, int threads, int iterations, cudaStream_t stream);
inline double fmaPeakFlops(int blocks, int threads, int iterations)
{
    return 2.0 * 8.0 * static_cast<double>(iterations) * blocks * threads;
}

// FP16 inputs, FP32 accumulate and output, tensor cores through WMMA (sm_70+). M, N % 64 == 0, K % 16 == 0.
void wmmaGemm(const void* a, const void* b, float* c, int m, int n, int k, cudaStream_t stream);
// Plain FP32 SIMT reference GEMM on float inputs.
void referenceGemm(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream);

// Device-side counters, all written to *result (device memory, zeroed first by the function).
void countDifferentWords(const void* x, const void* y, size_t bytes, unsigned long long* result, cudaStream_t stream);
void countNans(const void* data, Element type, size_t count, unsigned long long* result, cudaStream_t stream);
// max over i of |c_i - ref_i| / max(|ref_i|, 1); NaN in c counts as a huge error. *result holds float bits.
void maxRelativeError(const float* c, const float* ref, size_t count, unsigned int* result, cudaStream_t stream);

} // namespace probe::kernels
