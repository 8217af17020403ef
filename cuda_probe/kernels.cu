#include "kernels.h"
#include "probe.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <mma.h>

namespace probe::kernels {
namespace {

__device__ __forceinline__ float hashUniform(size_t i, uint32_t seed)
{
    uint64_t x = static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull + 1;
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return static_cast<float>(x >> 40) * (2.0f / 16777216.0f) - 1.0f; // 24 bits -> [-1, 1)
}

__global__ void fillKernel(void* data, Element type, size_t count, uint32_t seed)
{
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        const float v = hashUniform(i, seed);
        switch (type) {
            case Element::F32:
                static_cast<float*>(data)[i] = v;
                break;
            case Element::F16:
                static_cast<__half*>(data)[i] = __float2half_rn(v);
                break;
            case Element::BF16:
                static_cast<__nv_bfloat16*>(data)[i] = __float2bfloat16_rn(v);
                break;
            case Element::FP8E4M3:
                static_cast<__nv_fp8_e4m3*>(data)[i] = __nv_fp8_e4m3(v);
                break;
        }
    }
}

__global__ void constantKernel(float* data, size_t count, float value)
{
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        data[i] = value;
}

__global__ void toFloatKernel(const void* in, Element type, float* out, size_t count)
{
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        if (type == Element::F16)
            out[i] = __half2float(static_cast<const __half*>(in)[i]);
        else if (type == Element::BF16)
            out[i] = __bfloat162float(static_cast<const __nv_bfloat16*>(in)[i]);
        else
            out[i] = static_cast<const float*>(in)[i];
    }
}

// Four independent 16-byte loads per thread and iteration: one load in flight per thread cannot cover DRAM latency.
__global__ void copyKernel(const uint4* __restrict__ src, uint4* __restrict__ dst, size_t count)
{
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    for (; i + 3 * stride < count; i += 4 * stride) {
        const uint4 v0 = src[i];
        const uint4 v1 = src[i + stride];
        const uint4 v2 = src[i + 2 * stride];
        const uint4 v3 = src[i + 3 * stride];
        dst[i] = v0;
        dst[i + stride] = v1;
        dst[i + 2 * stride] = v2;
        dst[i + 3 * stride] = v3;
    }
    for (; i < count; i += stride)
        dst[i] = src[i];
}

__device__ __forceinline__ float4 triadOf(const float4& x, const float4& y, float s)
{
    return make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
}

__global__ void
triadKernel(const float4* __restrict__ b, const float4* __restrict__ c, float4* __restrict__ a, float s, size_t count4)
{
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    for (; i + 3 * stride < count4; i += 4 * stride) {
        const float4 x0 = b[i], x1 = b[i + stride], x2 = b[i + 2 * stride], x3 = b[i + 3 * stride];
        const float4 y0 = c[i], y1 = c[i + stride], y2 = c[i + 2 * stride], y3 = c[i + 3 * stride];
        a[i] = triadOf(x0, y0, s);
        a[i + stride] = triadOf(x1, y1, s);
        a[i + 2 * stride] = triadOf(x2, y2, s);
        a[i + 3 * stride] = triadOf(x3, y3, s);
    }
    for (; i < count4; i += stride)
        a[i] = triadOf(b[i], c[i], s);
}

__global__ void fmaKernel(float* sink, int iterations)
{
    const float seed = static_cast<float>(threadIdx.x) * 1e-7f;
    float a0 = seed, a1 = seed + 0.1f, a2 = seed + 0.2f, a3 = seed + 0.3f;
    float a4 = seed + 0.4f, a5 = seed + 0.5f, a6 = seed + 0.6f, a7 = seed + 0.7f;
    const float m = 0.9999999f;
    const float c = 1e-7f;
#pragma unroll 16
    for (int i = 0; i < iterations; ++i) {
        a0 = fmaf(a0, m, c);
        a1 = fmaf(a1, m, c);
        a2 = fmaf(a2, m, c);
        a3 = fmaf(a3, m, c);
        a4 = fmaf(a4, m, c);
        a5 = fmaf(a5, m, c);
        a6 = fmaf(a6, m, c);
        a7 = fmaf(a7, m, c);
    }
    const float sum = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
    if (sum == -1234.5f)
        sink[blockIdx.x * blockDim.x + threadIdx.x] = sum; // never true; keeps the work
}

// Block: 4 warps in 2 x 2, each warp a 32 x 32 tile of C (2 x 2 fragments of 16 x 16); block tile 64 x 64.
__global__ void
wmmaKernel(const __half* __restrict__ a, const __half* __restrict__ b, float* __restrict__ c, int m, int n, int k)
{
    using namespace nvcuda;
    const int warp = threadIdx.x / 32;
    const int row0 = blockIdx.y * 64 + (warp / 2) * 32; // m
    const int col0 = blockIdx.x * 64 + (warp % 2) * 32; // n
    if (row0 >= m || col0 >= n)
        return;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            wmma::fill_fragment(acc[i][j], 0.0f);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[2];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb[2];
    for (int kk = 0; kk < k; kk += 16) {
        for (int i = 0; i < 2; ++i)
            wmma::load_matrix_sync(fa[i], a + static_cast<size_t>(row0 + 16 * i) * k + kk, k);
        for (int j = 0; j < 2; ++j)
            wmma::load_matrix_sync(fb[j], b + static_cast<size_t>(col0 + 16 * j) * k + kk, k);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j)
                wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(
                c + (row0 + 16 * i) + static_cast<size_t>(col0 + 16 * j) * m, acc[i][j], m, wmma::mem_col_major);
}

__global__ void
referenceKernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n, int k)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    const float* ar = a + static_cast<size_t>(row) * k;
    const float* bc = b + static_cast<size_t>(col) * k;
    float sum = 0.0f;
    for (int i = 0; i < k; ++i)
        sum = fmaf(ar[i], bc[i], sum);
    c[row + static_cast<size_t>(col) * m] = sum;
}

__global__ void diffKernel(const uint32_t* x,
                           const uint32_t* y,
                           size_t words,
                           const uint8_t* xt,
                           const uint8_t* yt,
                           size_t tail,
                           unsigned long long* result)
{
    unsigned long long local = 0;
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    const size_t first = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    for (size_t i = first; i < words; i += stride)
        local += x[i] != y[i];
    for (size_t i = first; i < tail; i += stride)
        local += xt[i] != yt[i];
    if (local)
        atomicAdd(result, local);
}

__global__ void nanKernel(const void* data, Element type, size_t count, unsigned long long* result)
{
    unsigned long long local = 0;
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        switch (type) {
            case Element::F32:
                local += isnan(static_cast<const float*>(data)[i]) ? 1 : 0;
                break;
            case Element::F16: {
                const uint16_t v = static_cast<const uint16_t*>(data)[i];
                local += ((v & 0x7c00u) == 0x7c00u && (v & 0x03ffu) != 0) ? 1 : 0;
                break;
            }
            case Element::BF16: {
                const uint16_t v = static_cast<const uint16_t*>(data)[i];
                local += ((v & 0x7f80u) == 0x7f80u && (v & 0x007fu) != 0) ? 1 : 0;
                break;
            }
            case Element::FP8E4M3: {
                const uint8_t v = static_cast<const uint8_t*>(data)[i];
                local += (v & 0x7fu) == 0x7fu ? 1 : 0;
                break;
            }
        }
    }
    if (local)
        atomicAdd(result, local);
}

__global__ void relErrorKernel(const float* c, const float* ref, size_t count, unsigned int* result)
{
    float worst = 0.0f;
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        const float r = ref[i];
        const float e = fabsf(c[i] - r) / fmaxf(fabsf(r), 1.0f);
        worst = (isnan(e) || isinf(e)) ? 3.0e38f : fmaxf(worst, e);
    }
    atomicMax(result, __float_as_uint(worst)); // non-negative floats order like their bits
}

constexpr int kThreads = 256;

int gridFor(size_t count)
{
    const size_t blocks = (count + kThreads - 1) / kThreads;
    return static_cast<int>(blocks < 65536 ? (blocks == 0 ? 1 : blocks) : 65536);
}

} // namespace

void fillRandom(void* data, Element type, size_t count, uint32_t seed, cudaStream_t stream)
{
    fillKernel<<<gridFor(count), kThreads, 0, stream>>>(data, type, count, seed);
    PROBE_LAUNCH();
}

void fillConstant(float* data, size_t count, float value, cudaStream_t stream)
{
    constantKernel<<<gridFor(count), kThreads, 0, stream>>>(data, count, value);
    PROBE_LAUNCH();
}

void toFloat(const void* in, Element type, float* out, size_t count, cudaStream_t stream)
{
    toFloatKernel<<<gridFor(count), kThreads, 0, stream>>>(in, type, out, count);
    PROBE_LAUNCH();
}

void copy(const void* src, void* dst, size_t bytes, int blocks, cudaStream_t stream)
{
    copyKernel<<<blocks, 512, 0, stream>>>(static_cast<const uint4*>(src), static_cast<uint4*>(dst), bytes / 16);
    PROBE_LAUNCH();
}

void triad(const float* b, const float* c, float* a, float scalar, size_t count, int blocks, cudaStream_t stream)
{
    triadKernel<<<blocks, 512, 0, stream>>>(reinterpret_cast<const float4*>(b),
                                            reinterpret_cast<const float4*>(c),
                                            reinterpret_cast<float4*>(a),
                                            scalar,
                                            count / 4);
    PROBE_LAUNCH();
}

void fmaPeak(float* sink, int blocks, int threads, int iterations, cudaStream_t stream)
{
    fmaKernel<<<blocks, threads, 0, stream>>>(sink, iterations);
    PROBE_LAUNCH();
}

void wmmaGemm(const void* a, const void* b, float* c, int m, int n, int k, cudaStream_t stream)
{
    const dim3 grid(static_cast<unsigned>(n / 64), static_cast<unsigned>(m / 64));
    wmmaKernel<<<grid, 128, 0, stream>>>(static_cast<const __half*>(a), static_cast<const __half*>(b), c, m, n, k);
    PROBE_LAUNCH();
}

void referenceGemm(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream)
{
    const dim3 block(16, 16);
    const dim3 grid(static_cast<unsigned>((n + 15) / 16), static_cast<unsigned>((m + 15) / 16));
    referenceKernel<<<grid, block, 0, stream>>>(a, b, c, m, n, k);
    PROBE_LAUNCH();
}

void countDifferentWords(const void* x, const void* y, size_t bytes, unsigned long long* result, cudaStream_t stream)
{
    PROBE_CUDA(cudaMemsetAsync(result, 0, sizeof *result, stream));
    const size_t words = bytes / 4;
    const size_t tail = bytes % 4;
    diffKernel<<<gridFor(words), kThreads, 0, stream>>>(static_cast<const uint32_t*>(x),
                                                        static_cast<const uint32_t*>(y),
                                                        words,
                                                        static_cast<const uint8_t*>(x) + words * 4,
                                                        static_cast<const uint8_t*>(y) + words * 4,
                                                        tail,
                                                        result);
    PROBE_LAUNCH();
}

void countNans(const void* data, Element type, size_t count, unsigned long long* result, cudaStream_t stream)
{
    PROBE_CUDA(cudaMemsetAsync(result, 0, sizeof *result, stream));
    nanKernel<<<gridFor(count), kThreads, 0, stream>>>(data, type, count, result);
    PROBE_LAUNCH();
}

void maxRelativeError(const float* c, const float* ref, size_t count, unsigned int* result, cudaStream_t stream)
{
    PROBE_CUDA(cudaMemsetAsync(result, 0, sizeof *result, stream));
    relErrorKernel<<<gridFor(count), kThreads, 0, stream>>>(c, ref, count, result);
    PROBE_LAUNCH();
}

} // namespace probe::kernels
