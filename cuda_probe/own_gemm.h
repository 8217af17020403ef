// The probe's own tensor-core GEMM, written without any library, so a GPU's tensor cores can be measured (and
// cross-checked against cuBLASLt) even where libcublasLt is missing. Two paths:
//   "mma_sync" (gemm_mma.cu): sm_80+ warp-level mma.sync m16n8k16 + ldmatrix + cp.async pipeline;
//   "wgmma"   (gemm_wgmma.cu): sm_90a warpgroup wgmma.mma_async fed by TMA through an mbarrier pipeline.
// Layout (kernels.h, cuBLASLt's "TN"): A M x K row-major, B K x N column-major, C M x N column-major.
// Accumulation is always FP32. Nothing here throws: every entry point returns a cudaError_t.
#pragma once

#include <cuda_runtime.h>

#include <string>

namespace probe::owngemm {

enum class Input
{
    F16,
    BF16
};
enum class Output
{
    F32,
    Same // the input type (F16/BF16), rounded to nearest even from the FP32 accumulator
};

struct Choice
{
    const char* method; // "wgmma" or "mma_sync"
};

// The sizes gemm() accepts are multiples of these: the block tile is 128 x 256 (M x N) in both paths, and the K
// step is 32 (mma_sync) or 64 (wgmma); no kernel handles partial tiles, so the caller pads or picks sizes.
constexpr int kMultipleM = 128;
constexpr int kMultipleN = 256;
constexpr int kMultipleK = 64;

// Whether this binary holds an own tensor-core kernel for the current device (cc = major*10+minor); false with
// the reason when not (sm_75 and older, or a binary without sm_80+ code for this GPU). On cc 9.0 the choice is
// "wgmma" only when the loaded binary really carries sm_90a code, otherwise "mma_sync" (then *why says so,
// and the result is still true). The answer is cached per device; call it with the device current.
bool available(int cc, Choice* choice, std::string* why);

// C = A x B on `stream`, for the current device. Returns cudaErrorInvalidValue for sizes that are not multiples
// of kMultiple*, null pointers, or pointers not 16-byte aligned; otherwise the launch error (cudaGetLastError).
cudaError_t
gemm(Input in, Output out, const void* a, const void* b, void* c, int m, int n, int k, cudaStream_t stream, int cc);

namespace detail {
// Between the two translation units; gemm() and available() (gemm_mma.cu) choose the path.
bool wgmmaUsable(int device);
cudaError_t gemmWgmma(
    Input in, Output out, const void* a, const void* b, void* c, int m, int n, int k, cudaStream_t stream, int device);
} // namespace detail

} // namespace probe::owngemm
