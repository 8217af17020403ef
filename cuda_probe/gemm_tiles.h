// The block order the own GEMM kernels share (gemm_mma.cu, gemm_wgmma.cu). CUDA only: included by .cu files.
#pragma once

namespace probe::owngemm {

struct BlockTile
{
    int m, n; // tile indices along M and N
};

// Grouped order: consecutive blocks walk down kGroupM M-tiles before moving to the next N-tile, so a wave of
// resident blocks touches a few A row panels and B column panels (which stay in L2) instead of all of them.
__device__ __forceinline__ BlockTile groupedTile(int block, int tilesM, int tilesN)
{
    constexpr int kGroupM = 8;
    const int perGroup = kGroupM * tilesN;
    const int firstM = (block / perGroup) * kGroupM;
    const int groupRows = min(tilesM - firstM, kGroupM);
    return {firstM + (block % perGroup) % groupRows, (block % perGroup) / groupRows};
}

} // namespace probe::owngemm
