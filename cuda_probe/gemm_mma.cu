// The "mma_sync" path of the own GEMM (own_gemm.h) for sm_80 and newer, and the entry points that choose between
// it and the sm_90a "wgmma" path (gemm_wgmma.cu).
//
// Design (the classic CUTLASS 2.x "multistage" kernel, reduced to one configuration):
//  - block tile 128 x 256 x 32 (M x N x K), 8 warps as 2 (M) x 4 (N), warp tile 64 x 64 = 4 x 8 mma tiles;
//  - 4-stage cp.async.cg (16 B, L2 only: each tile is read once per block) global -> shared pipeline,
//    96 KiB of shared memory, which fits the 99 KiB per-block limit of sm_86/sm_89/sm_120 as well as sm_80/sm_90;
//  - fragments through ldmatrix.x4, double-buffered in registers so the shared-memory loads of the next k16
//    step overlap the 32 mma.sync of the current one;
//  - XOR-swizzled shared memory so ldmatrix and the cp.async stores are free of bank conflicts;
//  - grouped block order (8 M-tiles per group) so the blocks resident at one time share A and B tiles in L2.
// Both operands are K-major (A rows, B columns are contiguous along K), which is what mma.sync .row.col wants: the
// A and B fragments come from non-transposed ldmatrix of the K-contiguous shared tiles.
#include "gemm_tiles.h"
#include "own_gemm.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <mutex>

namespace probe::owngemm {
namespace {

constexpr int kBlockM = 128;
constexpr int kBlockN = 256;
constexpr int kBlockK = 32;
constexpr int kStages = 4;
constexpr int kThreads = 256;
constexpr int kRowBytes = kBlockK * 2;                    // 64 B: one row of a shared tile (K-contiguous)
constexpr int kATileBytes = kBlockM * kRowBytes;          // 8 KiB
constexpr int kBTileBytes = kBlockN * kRowBytes;          // 16 KiB
constexpr int kStageBytes = kATileBytes + kBTileBytes;    // 24 KiB
constexpr int kSmemBytes = kStages * kStageBytes;         // 96 KiB
constexpr int kRowsPerCopy = kThreads / (kRowBytes / 16); // 64 rows per pass of 256 threads x 16 B
static_assert(kMultipleM % kBlockM == 0 && kMultipleN % kBlockN == 0 && kMultipleK % kBlockK == 0,
              "own_gemm.h promises sizes this kernel tiles exactly");
static_assert(kBlockM % kRowsPerCopy == 0 && kBlockN % kRowsPerCopy == 0, "whole copy passes per tile");

template <typename T>
struct MmaType;
template <>
struct MmaType<__half>
{
    static constexpr Input input = Input::F16;
};
template <>
struct MmaType<__nv_bfloat16>
{
    static constexpr Input input = Input::BF16;
};

// What the code loaded for this device was compiled for (__CUDA_ARCH__), so available() knows whether the
// kernel below has a body here (a binary built only for sm_75 runs on an A100 through its sm_75 code).
__device__ int gCodeArch;
__global__ void codeArchKernel()
{
#if defined(__CUDA_ARCH__)
    gCodeArch = __CUDA_ARCH__;
#endif
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
template <typename TOut>
__device__ __forceinline__ TOut fromFloat(float v);
template <>
__device__ __forceinline__ float fromFloat<float>(float v)
{
    return v;
}
template <>
__device__ __forceinline__ __half fromFloat<__half>(float v)
{
    return __float2half_rn(v);
}
template <>
__device__ __forceinline__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float v)
{
    return __float2bfloat16_rn(v);
}

// Byte offset of 16-byte chunk `chunk` (0..3) of row `row` in a shared tile of 64-byte rows. ldmatrix reads one
// 16 B chunk from each of 8 consecutive rows per 8x8 matrix (PTX ISA, "Warp-level matrix load instruction:
// ldmatrix"); unswizzled, rows r and r+2 would hit the same four banks (64 B rows: two rows per 128 B bank line).
// XOR-ing the chunk with bits 1..2 of the row spreads the 8 rows over all 8 distinct 16 B bank groups:
// bank group = (row & 1) * 4 + (chunk ^ ((row >> 1) & 3)). The cp.async stores (4 threads per row, 8 threads per
// 128 B wavefront) stay conflict-free too, since the XOR only permutes chunks within a row.
__device__ __forceinline__ constexpr uint32_t swizzle(int row, int chunk)
{
    return static_cast<uint32_t>(row * kRowBytes + ((chunk ^ ((row >> 1) & 3)) << 4));
}

__device__ __forceinline__ uint32_t sharedAddress(const void* p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cpAsync16(uint32_t dst, const void* src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
}

__device__ __forceinline__ void cpAsyncCommit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int Pending>
__device__ __forceinline__ void cpAsyncWait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}

__device__ __forceinline__ void ldmatrixX4(uint32_t (&r)[4], uint32_t address)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address));
}

template <typename T>
__device__ __forceinline__ void mma16816(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    if constexpr (MmaType<T>::input == Input::F16) {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    } else {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
}
#endif

template <typename T, typename TOut>
__global__ void __launch_bounds__(kThreads, 1)
    mmaGemmKernel(const T* __restrict__ a, const T* __restrict__ b, TOut* __restrict__ c, int m, int n, int k)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    extern __shared__ __align__(128) unsigned char smem[];
    const uint32_t smemBase = sharedAddress(smem);
    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int warpM = warp >> 2; // 0..1: rows warpM*64 .. +63 of the block tile
    const int warpN = warp & 3;  // 0..3: columns warpN*64 .. +63

    // Grouped order: a wave of ~100 resident blocks touches ~8 A row panels and ~13 B column panels, not all 64.
    const BlockTile tile = groupedTile(static_cast<int>(blockIdx.x), m / kBlockM, n / kBlockN);
    const int tileM = tile.m;
    const int tileN = tile.n;

    // Global -> shared: thread t copies chunk (t & 3) of rows (t >> 2) + 64 i. The swizzle term depends on row
    // bits 1..2 only, which adding 64 i keeps, so one destination offset serves every pass.
    const int copyRow = tid >> 2;
    const int copyChunk = tid & 3;
    const uint32_t copyDst = swizzle(copyRow, copyChunk);
    const T* aSrc = a + (static_cast<size_t>(tileM) * kBlockM + copyRow) * k + copyChunk * 8;
    const T* bSrc = b + (static_cast<size_t>(tileN) * kBlockN + copyRow) * k + copyChunk * 8;
    const size_t passStride = static_cast<size_t>(kRowsPerCopy) * k;
    const int kTiles = k / kBlockK;

    auto loadTile = [&](int kt, int slot) {
        const uint32_t sA = smemBase + slot * kStageBytes;
        const uint32_t sB = sA + kATileBytes;
        const T* ga = aSrc + kt * kBlockK;
        const T* gb = bSrc + kt * kBlockK;
#pragma unroll
        for (int i = 0; i < kBlockM / kRowsPerCopy; ++i)
            cpAsync16(sA + copyDst + i * kRowsPerCopy * kRowBytes, ga + i * passStride);
#pragma unroll
        for (int i = 0; i < kBlockN / kRowsPerCopy; ++i)
            cpAsync16(sB + copyDst + i * kRowsPerCopy * kRowBytes, gb + i * passStride);
    };

    // ldmatrix addresses. PTX ISA "Matrix Fragments for mma.m16n8k16 with floating point type": A fragment
    // a0..a3 = (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15); lanes 8i..8i+7
    // give the row addresses of matrix i, so lane l reads row (l & 15), k chunk (l >> 4). B fragment b0, b1 =
    // (n 0-7, k 0-7), (n 0-7, k 8-15); one x4 covers two n8 tiles: lane l reads n row (l & 7) + 8 (l >> 4),
    // k chunk (l >> 3) & 1. In both, ldmatrix hands thread t row t/4, elements 2(t%4), 2(t%4)+1 of each
    // matrix, which is exactly the mma operand layout (groupID = t/4, threadID_in_group = t%4).
    // Row offsets within the warp's slice are multiples of 16, so the swizzle depends on the lane only.
    const int aRow = warpM * 64 + (lane & 15);
    const int bRow = warpN * 64 + (lane & 7) + ((lane >> 4) << 3);
    uint32_t aOffset[2], bOffset[2]; // per k16 step within the 32-wide K tile
#pragma unroll
    for (int kk = 0; kk < 2; ++kk) {
        aOffset[kk] = swizzle(aRow, kk * 2 + (lane >> 4));
        bOffset[kk] = kATileBytes + swizzle(bRow, kk * 2 + ((lane >> 3) & 1));
    }

    float acc[4][8][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                acc[i][j][e] = 0.0f;
    uint32_t aFrag[2][4][4];
    uint32_t bFrag[2][8][2];

    auto loadFragments = [&](int buffer, int slot, int kk) {
        const uint32_t stage = smemBase + slot * kStageBytes;
#pragma unroll
        for (int mi = 0; mi < 4; ++mi)
            ldmatrixX4(aFrag[buffer][mi], stage + aOffset[kk] + mi * 16 * kRowBytes);
#pragma unroll
        for (int nj = 0; nj < 4; ++nj) {
            uint32_t r[4];
            ldmatrixX4(r, stage + bOffset[kk] + nj * 16 * kRowBytes);
            bFrag[buffer][2 * nj][0] = r[0];
            bFrag[buffer][2 * nj][1] = r[1];
            bFrag[buffer][2 * nj + 1][0] = r[2];
            bFrag[buffer][2 * nj + 1][1] = r[3];
        }
    };

    // Prologue: tiles 0 .. kStages-2 in flight, one commit group each (empty groups past the end keep the
    // count of groups, which wait_group relies on, the same in every iteration).
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < kTiles)
            loadTile(s, s);
        cpAsyncCommit();
    }
    cpAsyncWait<kStages - 2>(); // the oldest group (tile 0) has landed for this thread ...
    __syncthreads();            // ... and for every thread
    int readSlot = 0;
    int writeSlot = kStages - 1;
    loadFragments(0, readSlot, 0);

    for (int kt = 0; kt < kTiles; ++kt) {
#pragma unroll
        for (int kk = 0; kk < 2; ++kk) {
            if (kk == 1) {
                // Committed so far: kStages-1 + kt+1 groups; at most kStages-2 pending means tiles 0..kt+1
                // landed. The barrier also orders every warp's last ldmatrix of slot (kt-1) % kStages before
                // the cp.async that refills it in the next iteration.
                cpAsyncWait<kStages - 2>();
                __syncthreads();
                readSlot = readSlot == kStages - 1 ? 0 : readSlot + 1;
            }
            // Past the last tile this reads a stale slot; the fragments are never used.
            loadFragments((kk + 1) & 1, readSlot, (kk + 1) & 1);
            if (kk == 0) {
                const int next = kt + kStages - 1;
                if (next < kTiles)
                    loadTile(next, writeSlot);
                cpAsyncCommit();
                writeSlot = writeSlot == kStages - 1 ? 0 : writeSlot + 1;
            }
#pragma unroll
            for (int mi = 0; mi < 4; ++mi)
#pragma unroll
                for (int ni = 0; ni < 8; ++ni)
                    mma16816<T>(acc[mi][ni], aFrag[kk & 1][mi], bFrag[kk & 1][ni]);
        }
    }
    cpAsyncWait<0>(); // no copy may outlive the block (only empty groups remain, but be exact)

    // Accumulator layout (same PTX ISA section, "fragment for matrix C/D"): c0, c1 = row groupID, columns
    // 2 threadID_in_group + {0, 1}; c2, c3 = row groupID + 8. C is column-major: the 8 lanes of a column write
    // 8 consecutive elements, 32 B for FP32, per store instruction.
    const size_t rowBase = static_cast<size_t>(tileM) * kBlockM + warpM * 64 + (lane >> 2);
    const size_t colBase = static_cast<size_t>(tileN) * kBlockN + warpN * 64 + (lane & 3) * 2;
#pragma unroll
    for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 8; ++ni) {
            const size_t row = rowBase + mi * 16;
            const size_t col = colBase + ni * 8;
            TOut* p = c + row + col * static_cast<size_t>(m);
            p[0] = fromFloat<TOut>(acc[mi][ni][0]);
            p[m] = fromFloat<TOut>(acc[mi][ni][1]);
            p[8] = fromFloat<TOut>(acc[mi][ni][2]);
            p[static_cast<size_t>(m) + 8] = fromFloat<TOut>(acc[mi][ni][3]);
        }
#else
    // No sm_80 code here (sm_75 and older): available() says false and gemm() refuses before launching.
    (void)a;
    (void)b;
    (void)c;
    (void)m;
    (void)n;
    (void)k;
    __trap();
#endif
}

std::mutex gMutex;
constexpr int kMaxDevices = 64;
int gCodeArchOf[kMaxDevices]; // 0: not asked yet, -1: no kernel image for the device
bool gSmemSet[kMaxDevices][4];

// __CUDA_ARCH__ of the code this binary runs on `device` (cached), -1 when it holds none.
int codeArch(int device)
{
    std::lock_guard<std::mutex> lock(gMutex);
    if (device < 0 || device >= kMaxDevices)
        return -1;
    if (gCodeArchOf[device] != 0)
        return gCodeArchOf[device];
    int arch = -1;
    codeArchKernel<<<1, 1>>>();
    if (cudaGetLastError() == cudaSuccess) {
        int value = 0;
        if (cudaMemcpyFromSymbol(&value, gCodeArch, sizeof value) == cudaSuccess && value > 0)
            arch = value;
    }
    (void)cudaGetLastError(); // a missing kernel image is not sticky: leave no error behind for the caller
    gCodeArchOf[device] = arch;
    return arch;
}

template <typename T, typename TOut>
cudaError_t launchMma(const void* a, const void* b, void* c, int m, int n, int k, cudaStream_t stream, int device)
{
    auto kernel = mmaGemmKernel<T, TOut>;
    constexpr int instance = (MmaType<T>::input == Input::BF16 ? 2 : 0) + (sizeof(TOut) == 4 ? 1 : 0);
    if (device < 0 || device >= kMaxDevices)
        return cudaErrorInvalidDevice;
    {
        // The opt-in above 48 KiB of dynamic shared memory belongs to the function on the current device.
        std::lock_guard<std::mutex> lock(gMutex);
        if (!gSmemSet[device][instance]) {
            const cudaError_t status =
                cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
            if (status != cudaSuccess)
                return status;
            gSmemSet[device][instance] = true;
        }
    }
    const int blocks = (m / kBlockM) * (n / kBlockN);
    kernel<<<blocks, kThreads, kSmemBytes, stream>>>(
        static_cast<const T*>(a), static_cast<const T*>(b), static_cast<TOut*>(c), m, n, k);
    return cudaGetLastError();
}

} // namespace

bool available(int cc, Choice* choice, std::string* why)
{
    auto refuse = [why](std::string reason) {
        if (why)
            *why = std::move(reason);
        return false;
    };
    const std::string name = "sm_" + std::to_string(cc);
    if (cc < 80)
        return refuse("needs compute capability 8.0 or newer (mma.sync m16n8k16, cp.async); this GPU is " + name);
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess)
        return refuse("no current CUDA device");
    const int arch = codeArch(device);
    if (arch < 800)
        return refuse(arch < 0 ? "this probe binary holds no code for " + name
                               : "this probe binary runs sm_" + std::to_string(arch / 10)
                                     + " code on this GPU, without the sm_80 tensor-core instructions");
    int optin = 0;
    if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess
        || optin < kSmemBytes)
        return refuse("needs " + std::to_string(kSmemBytes / 1024) + " KiB of shared memory per block, " + name
                      + " offers " + std::to_string(optin / 1024) + " KiB");
    const bool wgmma = cc == 90 && detail::wgmmaUsable(device);
    if (choice)
        choice->method = wgmma ? "wgmma" : "mma_sync";
    if (why)
        *why = cc == 90 && !wgmma ? "no sm_90a code in this binary (or no cuTensorMapEncodeTiled in the driver): "
                                    "mma.sync path instead of wgmma"
                                  : "";
    return true;
}

cudaError_t
gemm(Input in, Output out, const void* a, const void* b, void* c, int m, int n, int k, cudaStream_t stream, int cc)
{
    const auto misaligned = [](const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 != 0; };
    if (!a || !b || !c || misaligned(a) || misaligned(b) || misaligned(c) || m <= 0 || n <= 0 || k <= 0
        || m % kMultipleM != 0 || n % kMultipleN != 0 || k % kMultipleK != 0)
        return cudaErrorInvalidValue;
    if (cc < 80)
        return cudaErrorInvalidDeviceFunction;
    int device = 0;
    if (const cudaError_t status = cudaGetDevice(&device); status != cudaSuccess)
        return status;
    if (codeArch(device) < 800)
        return cudaErrorNoKernelImageForDevice;
    if (cc == 90 && detail::wgmmaUsable(device))
        return detail::gemmWgmma(in, out, a, b, c, m, n, k, stream, device);
    if (in == Input::F16)
        return out == Output::F32 ? launchMma<__half, float>(a, b, c, m, n, k, stream, device)
                                  : launchMma<__half, __half>(a, b, c, m, n, k, stream, device);
    return out == Output::F32 ? launchMma<__nv_bfloat16, float>(a, b, c, m, n, k, stream, device)
                              : launchMma<__nv_bfloat16, __nv_bfloat16>(a, b, c, m, n, k, stream, device);
}

} // namespace probe::owngemm
