// The "wgmma" path of the own GEMM (own_gemm.h): sm_90a only (wgmma, setmaxnreg and TMA-with-mbarrier are
// "arch-accelerated" features that exist in sm_90a code, not in sm_90 or in PTX for compute_90).
//
// Design (the structure of CUTLASS 3's warp-specialized "cooperative" kernel, one configuration):
//  - block tile 128 x 256 x 64 (M x N x K), 3 warpgroups: warpgroup 0 is the producer (one thread issues TMA),
//    warpgroups 1 and 2 are consumers, each owning 64 rows x 256 columns of C through wgmma m64n256k16
//    (128 FP32 accumulator registers per thread);
//  - 4 stages of 48 KiB (A 16 KiB + B 32 KiB) = 192 KiB of shared memory, with a "full" and an "empty" mbarrier
//    per stage: TMA completes the full barrier by transaction bytes, the 8 consumer warps arrive on the empty one
//    once their wgmma reading that stage has retired;
//  - consumers keep one wgmma group in flight (wait_group 1), so the tensor cores never wait for the release;
//  - setmaxnreg moves registers from the producer (40) to the consumers (232): 128 x 40 + 256 x 232 <= 64 Ki;
//  - TMA's 128-byte swizzle and the wgmma descriptors' 128-byte swizzle mode describe the same layout, so the
//    tiles go from global memory to the tensor cores without any thread touching them.
// Everything that needs sm_90a is inside __CUDA_ARCH_FEAT_SM90_ALL (defined only when compiling for sm_90a), and
// everything that needs CUDA 12 types (CUtensorMap) inside CUDART_VERSION >= 12000, so this file compiles for
// every architecture and with CUDA 11.8; there, wgmmaUsable() is false and gemm() takes the mma.sync path.
#include "gemm_tiles.h"
#include "own_gemm.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#if CUDART_VERSION >= 12000
#include <cuda.h> // CUtensorMap and its enums only: the driver function comes through cudaGetDriverEntryPoint*
#endif

#include <cstdint>
#include <mutex>
#include <type_traits>

namespace probe::owngemm {
namespace {

constexpr int kMaxDevices = 64;
std::mutex gMutex;
int gUsable[kMaxDevices]; // 0: not asked yet, 1: yes, -1: no

} // namespace

#if CUDART_VERSION >= 12000
namespace {

// Whether the code loaded for this device is sm_90a code. All kernels of this file come from the same cubin of
// the fat binary, so when this kernel reports 1, wgmmaGemmKernel below has its body too.
__device__ int gHasSm90a;
__global__ void sm90aKernel()
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    gHasSm90a = 1;
#else
    gHasSm90a = 0;
#endif
}

constexpr int kBlockM = 128;
constexpr int kBlockN = 256;
constexpr int kBlockK = 64; // 64 x 2 B = 128 B: one TMA box row is exactly one 128-byte swizzle span
constexpr int kStages = 4;
constexpr int kConsumers = 2;
constexpr int kThreads = 128 * (1 + kConsumers);
constexpr uint32_t kATileBytes = kBlockM * kBlockK * 2;                    // 16 KiB
constexpr uint32_t kBTileBytes = kBlockN * kBlockK * 2;                    // 32 KiB
constexpr uint32_t kStageBytes = kATileBytes + kBTileBytes;                // 48 KiB
constexpr int kSmemBytes = kStages * kStageBytes + 2 * kStages * 8 + 1024; // + barriers + 1 KiB alignment slack
static_assert(kMultipleM % kBlockM == 0 && kMultipleN % kBlockN == 0 && kMultipleK % kBlockK == 0,
              "own_gemm.h promises sizes this kernel tiles exactly");
static_assert(kBlockM == 64 * kConsumers, "each consumer warpgroup owns one m64 slice");
static_assert(kBlockN <= 256 && kBlockM <= 256, "a TMA box dimension holds at most 256 elements");

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ __forceinline__ uint32_t sharedAddress(const void* p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarrierInit(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

// PTX ISA "mbarrier.test_wait/mbarrier.try_wait": waits for the completion of the phase with the given parity.
// A wait that gives up: a wrong tensor map or transaction count would otherwise spin for ever and leave the probe to
// its watchdog. After about 10 s (2e10 cycles at up to 2 GHz) the kernel traps, which the probe reports as a fault
// of this GPU in the own-GEMM test instead of a hang.
__device__ __forceinline__ void mbarrierWait(uint32_t bar, uint32_t parity)
{
    const long long start = clock64();
    uint32_t done = 0;
    do {
        if (clock64() - start > 20000000000LL)
            __trap();
        asm volatile("{\n"
                     ".reg .pred p;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n"
                     "}\n"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    } while (!done);
}

__device__ __forceinline__ void mbarrierArriveExpectTx(uint32_t bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbarrierArrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

// Box (x = K offset, y = row offset) of a 2-D tensor map into shared memory; completes `bar` by its bytes.
__device__ __forceinline__ void tmaLoad(uint32_t dst, const CUtensorMap* map, int x, int y, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
                 "[%4];\n" ::"r"(dst),
                 "l"(reinterpret_cast<uint64_t>(map)),
                 "r"(x),
                 "r"(y),
                 "r"(bar)
                 : "memory");
}

// PTX ISA "Matrix Descriptor Format" (wgmma): bits 0-13 start address >> 4, 16-29 leading dimension byte
// offset >> 4, 32-45 stride dimension byte offset >> 4, 49-51 base offset, 62-63 swizzle mode (1 = 128B).
// K-major operand with 128B swizzle ("Shared Memory Matrix Layout", K-major, 128B swizzling): a row is the
// 64 K values (128 B) of one M/N index, 8 rows form a 1024 B swizzle atom, atoms are stacked along M/N, so the
// stride byte offset is 1024; the leading byte offset is unused when one wgmma's K (16 x 2 B = 32 B) lies within
// the swizzle span (set to 1 as CUTLASS does). Stage tiles start 1024-aligned, so the base offset is 0; the k16
// steps inside the 128 B span advance the start address by 32 B, the swizzle being a function of the address
// bits (the same XOR TMA applied when writing: 16 B chunk ^= row % 8).
__device__ __forceinline__ uint64_t descriptor(uint32_t address)
{
    return static_cast<uint64_t>((address & 0x3FFFF) >> 4) | (static_cast<uint64_t>(1) << 16)
           | (static_cast<uint64_t>(1024 >> 4) << 32) | (static_cast<uint64_t>(1) << 62);
}

// Keeps the compiler from moving accesses of the accumulators across the asynchronous wgmma region
// (CUTLASS's warpgroup_fence_operand).
__device__ __forceinline__ void fenceAccumulators(float (&d)[128])
{
#pragma unroll
    for (int i = 0; i < 128; ++i)
        asm volatile("" : "+f"(d[i])::"memory");
}

#define PROBE_WG_D8(i)                                                                                          \
    "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), \
        "+f"(d[i + 7])
#define PROBE_WG_D128                                                                                         \
    PROBE_WG_D8(0), PROBE_WG_D8(8), PROBE_WG_D8(16), PROBE_WG_D8(24), PROBE_WG_D8(32), PROBE_WG_D8(40),       \
        PROBE_WG_D8(48), PROBE_WG_D8(56), PROBE_WG_D8(64), PROBE_WG_D8(72), PROBE_WG_D8(80), PROBE_WG_D8(88), \
        PROBE_WG_D8(96), PROBE_WG_D8(104), PROBE_WG_D8(112), PROBE_WG_D8(120)
#define PROBE_WG_REGS                                                                        \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "       \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "       \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "       \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "       \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "       \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, " \
    "%111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, "   \
    "%125, %126, %127}"

// D(64 x 256, FP32) += A(64 x 16, K-major in shared memory) x B(16 x 256, K-major in shared memory). The
// trailing immediates: scale-a 1, scale-b 1 (no negation), transpose-a 0, transpose-b 0 (both K-major).
template <typename T>
__device__ __forceinline__ void wgmma256(float (&d)[128], uint64_t descA, uint64_t descB)
{
    if constexpr (std::is_same_v<T, __half>) {
        asm volatile("{\n"
                     ".reg .pred p;\n"
                     "setp.ne.b32 p, %130, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 " PROBE_WG_REGS
                     ", %128, %129, p, 1, 1, 0, 0;\n"
                     "}\n"
                     : PROBE_WG_D128
                     : "l"(descA), "l"(descB), "r"(1));
    } else {
        asm volatile("{\n"
                     ".reg .pred p;\n"
                     "setp.ne.b32 p, %130, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " PROBE_WG_REGS
                     ", %128, %129, p, 1, 1, 0, 0;\n"
                     "}\n"
                     : PROBE_WG_D128
                     : "l"(descA), "l"(descB), "r"(1));
    }
}
#undef PROBE_WG_D8
#undef PROBE_WG_D128
#undef PROBE_WG_REGS

template <typename TOut>
__device__ __forceinline__ TOut fromFloat(float v)
{
    if constexpr (std::is_same_v<TOut, __half>)
        return __float2half_rn(v);
    else if constexpr (std::is_same_v<TOut, __nv_bfloat16>)
        return __float2bfloat16_rn(v);
    else
        return v;
}
#endif

template <typename T, typename TOut>
__global__ void __launch_bounds__(kThreads, 1) wgmmaGemmKernel(const __grid_constant__ CUtensorMap mapA,
                                                               const __grid_constant__ CUtensorMap mapB,
                                                               TOut* __restrict__ c,
                                                               int m,
                                                               int n,
                                                               int k)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    // TMA's 128B swizzle repeats every 1024 B and is computed from the shared address, and the descriptors
    // assume base offset 0: align the stage tiles to 1024 B by hand (the dynamic window's alignment is not
    // promised to be more than 16 B).
    extern __shared__ __align__(1024) unsigned char smemRaw[];
    const uint32_t base = (sharedAddress(smemRaw) + 1023u) & ~1023u;
    const uint32_t fullBar = base + kStages * kStageBytes;
    const uint32_t emptyBar = fullBar + kStages * 8;
    const int warpgroup = static_cast<int>(threadIdx.x) / 128;

    if (threadIdx.x == 0) {
#pragma unroll
        for (int s = 0; s < kStages; ++s) {
            mbarrierInit(fullBar + 8 * s, 1);               // the producer's arrive.expect_tx (+ TMA bytes)
            mbarrierInit(emptyBar + 8 * s, kConsumers * 4); // one arrival per consumer warp
        }
        // Makes the initialised barriers visible to the async proxy (TMA's complete_tx) as well.
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();

    // Grouped block order, as in gemm_mma.cu: resident blocks share A and B panels in L2.
    const BlockTile tile = groupedTile(static_cast<int>(blockIdx.x), m / kBlockM, n / kBlockN);
    const int tileM = tile.m;
    const int tileN = tile.n;
    const int kTiles = k / kBlockK;

    if (warpgroup == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
        if (threadIdx.x == 0) {
            for (int kt = 0; kt < kTiles; ++kt) {
                const int s = kt % kStages;
                const int round = kt / kStages;
                // Round r > 0 refills the slot of tile kt - kStages: wait for its release (empty phase r - 1).
                if (round > 0)
                    mbarrierWait(emptyBar + 8 * s, (round - 1) & 1);
                mbarrierArriveExpectTx(fullBar + 8 * s, kStageBytes);
                const uint32_t tile = base + s * kStageBytes;
                tmaLoad(tile, &mapA, kt * kBlockK, tileM * kBlockM, fullBar + 8 * s);
                tmaLoad(tile + kATileBytes, &mapB, kt * kBlockK, tileN * kBlockN, fullBar + 8 * s);
            }
        }
        return;
    }

    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
    const int consumer = warpgroup - 1;
    const int lane = static_cast<int>(threadIdx.x) & 31;
    float acc[128];
#pragma unroll
    for (int i = 0; i < 128; ++i)
        acc[i] = 0.0f;

    for (int kt = 0; kt < kTiles; ++kt) {
        const int s = kt % kStages;
        mbarrierWait(fullBar + 8 * s, (kt / kStages) & 1);
        const uint32_t tileA = base + s * kStageBytes + consumer * 64 * (kBlockK * 2); // this consumer's 64 rows
        const uint32_t tileB = base + s * kStageBytes + kATileBytes;
        fenceAccumulators(acc);
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int kk = 0; kk < kBlockK / 16; ++kk)
            wgmma256<T>(acc, descriptor(tileA + kk * 32), descriptor(tileB + kk * 32));
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        // One group stays in flight: the one just issued. The previous one has retired, so its stage is free.
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
        fenceAccumulators(acc);
        if (kt > 0 && lane == 0)
            mbarrierArrive(emptyBar + 8 * ((kt - 1) % kStages));
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    fenceAccumulators(acc);

    // PTX ISA "Matrix fragments for wgmma .m64nNk16", accumulator D: warp w of the warpgroup holds rows
    // 16 w + lane/4 (registers 4i, 4i+1) and + 8 (4i+2, 4i+3), columns 8 i + 2 (lane % 4) + {0, 1}.
    // C is column-major: the 8 lanes sharing a column write 8 consecutive elements per store instruction.
    const int warpInGroup = (static_cast<int>(threadIdx.x) & 127) >> 5;
    const size_t row = static_cast<size_t>(tileM) * kBlockM + consumer * 64 + warpInGroup * 16 + (lane >> 2);
    const size_t colBase = static_cast<size_t>(tileN) * kBlockN + (lane & 3) * 2;
    const size_t ld = static_cast<size_t>(m);
#pragma unroll
    for (int i = 0; i < 32; ++i) {
        TOut* p = c + row + (colBase + 8 * i) * ld;
        p[0] = fromFloat<TOut>(acc[4 * i]);
        p[ld] = fromFloat<TOut>(acc[4 * i + 1]);
        p[8] = fromFloat<TOut>(acc[4 * i + 2]);
        p[ld + 8] = fromFloat<TOut>(acc[4 * i + 3]);
    }
#else
    // Not sm_90a code: wgmmaUsable() is false here, so gemm() never launches it.
    (void)mapA;
    (void)mapB;
    (void)c;
    (void)m;
    (void)n;
    (void)k;
    __trap();
#endif
}

// cuTensorMapEncodeTiled as in CUDA 12.0's cuda.h; taken from the driver at run time (the probe links only the
// static CUDA runtime, never libcuda, so it starts on machines without a driver and reports that).
using EncodeTiled = CUresult (*)(CUtensorMap*,
                                 CUtensorMapDataType,
                                 cuuint32_t,
                                 void*,
                                 const cuuint64_t*,
                                 const cuuint64_t*,
                                 const cuuint32_t*,
                                 const cuuint32_t*,
                                 CUtensorMapInterleave,
                                 CUtensorMapSwizzle,
                                 CUtensorMapL2promotion,
                                 CUtensorMapFloatOOBfill);

// Called with gMutex held.
EncodeTiled encodeTiled()
{
    static bool asked = false;
    static EncodeTiled function = nullptr;
    if (asked)
        return function;
    asked = true;
    void* symbol = nullptr;
#if CUDART_VERSION >= 12050
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &symbol, 12000, cudaEnableDefault, &found)
            == cudaSuccess
        && found == cudaDriverEntryPointSuccess)
        function = reinterpret_cast<EncodeTiled>(symbol);
#else
    if (cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &symbol, cudaEnableDefault) == cudaSuccess)
        function = reinterpret_cast<EncodeTiled>(symbol);
#endif
    (void)cudaGetLastError();
    return function;
}

// A rows x k K-contiguous matrix, read in boxes of 64 (K) x boxRows with the 128-byte swizzle the wgmma
// descriptors expect.
bool makeMap(EncodeTiled encode, CUtensorMap* map, Input in, const void* data, int k, int rows, int boxRows)
{
    const cuuint64_t dims[2] = {static_cast<cuuint64_t>(k), static_cast<cuuint64_t>(rows)};
    const cuuint64_t strides[1] = {static_cast<cuuint64_t>(k) * 2}; // bytes, dimension 1; a multiple of 16
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(kBlockK), static_cast<cuuint32_t>(boxRows)};
    const cuuint32_t elementStrides[2] = {1, 1};
    return encode(map,
                  in == Input::F16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
                  2,
                  const_cast<void*>(data),
                  dims,
                  strides,
                  box,
                  elementStrides,
                  CU_TENSOR_MAP_INTERLEAVE_NONE,
                  CU_TENSOR_MAP_SWIZZLE_128B,
                  CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
           == CUDA_SUCCESS;
}

bool gSmemSet[kMaxDevices][4];

template <typename T, typename TOut>
cudaError_t
launchWgmma(Input in, const void* a, const void* b, void* c, int m, int n, int k, cudaStream_t stream, int device)
{
    auto kernel = wgmmaGemmKernel<T, TOut>;
    constexpr int instance = (std::is_same_v<T, __nv_bfloat16> ? 2 : 0) + (std::is_same_v<TOut, float> ? 1 : 0);
    EncodeTiled encode = nullptr;
    {
        std::lock_guard<std::mutex> lock(gMutex);
        encode = encodeTiled();
        if (!gSmemSet[device][instance]) {
            const cudaError_t status =
                cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
            if (status != cudaSuccess)
                return status;
            gSmemSet[device][instance] = true;
        }
    }
    if (!encode)
        return cudaErrorNotSupported;
    CUtensorMap mapA;
    CUtensorMap mapB;
    if (!makeMap(encode, &mapA, in, a, k, m, kBlockM) || !makeMap(encode, &mapB, in, b, k, n, kBlockN))
        return cudaErrorInvalidValue;
    const int blocks = (m / kBlockM) * (n / kBlockN);
    kernel<<<blocks, kThreads, kSmemBytes, stream>>>(mapA, mapB, static_cast<TOut*>(c), m, n, k);
    return cudaGetLastError();
}

} // namespace
#endif // CUDART_VERSION >= 12000

namespace detail {

bool wgmmaUsable(int device)
{
    if (device < 0 || device >= kMaxDevices)
        return false;
    std::lock_guard<std::mutex> lock(gMutex);
    if (gUsable[device] != 0)
        return gUsable[device] > 0;
    bool usable = false;
#if CUDART_VERSION >= 12000
    sm90aKernel<<<1, 1>>>();
    int value = 0;
    if (cudaGetLastError() == cudaSuccess && cudaMemcpyFromSymbol(&value, gHasSm90a, sizeof value) == cudaSuccess
        && value == 1) {
        int optin = 0;
        usable = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) == cudaSuccess
                 && optin >= kSmemBytes && encodeTiled() != nullptr;
    }
    (void)cudaGetLastError(); // a missing kernel image is not sticky: leave no error behind for the caller
#endif
    gUsable[device] = usable ? 1 : -1;
    return usable;
}

cudaError_t gemmWgmma(
    Input in, Output out, const void* a, const void* b, void* c, int m, int n, int k, cudaStream_t stream, int device)
{
#if CUDART_VERSION >= 12000
    if (device < 0 || device >= kMaxDevices)
        return cudaErrorInvalidDevice;
    if (in == Input::F16)
        return out == Output::F32 ? launchWgmma<__half, float>(in, a, b, c, m, n, k, stream, device)
                                  : launchWgmma<__half, __half>(in, a, b, c, m, n, k, stream, device);
    return out == Output::F32 ? launchWgmma<__nv_bfloat16, float>(in, a, b, c, m, n, k, stream, device)
                              : launchWgmma<__nv_bfloat16, __nv_bfloat16>(in, a, b, c, m, n, k, stream, device);
#else
    (void)in;
    (void)out;
    (void)a;
    (void)b;
    (void)c;
    (void)m;
    (void)n;
    (void)k;
    (void)stream;
    (void)device;
    return cudaErrorNotSupported;
#endif
}

} // namespace detail
} // namespace probe::owngemm
