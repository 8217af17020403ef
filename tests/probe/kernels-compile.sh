#!/bin/sh
# Proves, without a GPU, that the own tensor-core GEMM (cuda_probe/gemm_mma.cu, gemm_wgmma.cu) compiles to the
# instructions it is meant to use on every architecture it serves: the PTX must hold mma.sync m16n8k16 +
# ldmatrix + cp.async on sm_80/86/89 and wgmma + TMA + mbarrier on sm_90a, ptxas must accept it (-cubin) without
# spilling the main kernels, and the wgmma file must hold no sm_90a instruction in code for other architectures.
# With Debian's CUDA 11.8 present (/usr/bin/nvcc, cuda_probe/build-cuda11.sh), both files must also compile there
# (no sm_90a, no CUtensorMap: the guards). Usage: tests/probe/kernels-compile.sh (no arguments; ARCHS="sm_80 ..."
# in the environment narrows the architectures while developing).
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src="$root/cuda_probe"
nvcc=/usr/local/cuda/bin/nvcc
[ -x "$nvcc" ] || { echo "FAIL: $nvcc is missing"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kernels-compile.XXXXXX") || { echo "FAIL: no temporary directory"; exit 1; }
trap 'rm -rf "$work"' EXIT INT TERM
flags="-std=c++17 -O3 -Werror=all-warnings -I $src"
failed=0

fail() {
    echo "FAIL: $*"
    failed=1
}

# arch name -> nvcc target: sm_90a needs the arch-specific compute_90a (wgmma, setmaxnreg are not in compute_90).
gencode() {
    echo "-gencode=arch=compute_${1#sm_},code=$2_${1#sm_}"
}

# expect FILE.ptx PATTERN...: every pattern (fixed string) occurs in the PTX.
expect() {
    ptx=$1
    shift
    for pattern in "$@"; do
        grep -qF -- "$pattern" "$ptx" || fail "$(basename "$ptx") lacks $pattern"
    done
}

# absent FILE.ptx PATTERN...: no pattern occurs (sm_90a-only or sm_80-only code leaking into other targets).
absent() {
    ptx=$1
    shift
    for pattern in "$@"; do
        if grep -qF -- "$pattern" "$ptx"; then fail "$(basename "$ptx") holds $pattern (guarded code leaked)"; fi
    done
}

# sm_75 (the probe's oldest CUDA 13 target), plain sm_90 and the Blackwell targets (sm_100, sm_120: mma.sync
# path) must compile too, with the guarded code left out where it does not belong.
for arch in ${ARCHS:-sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_120}; do
    for file in gemm_mma gemm_wgmma; do
        ptx="$work/$file.$arch.ptx"
        # shellcheck disable=SC2086 # flags is a list of words
        if ! "$nvcc" $flags "$(gencode "$arch" compute)" -ptx "$src/$file.cu" -o "$ptx" >"$work/log" 2>&1; then
            cat "$work/log"
            fail "$file.cu does not compile to PTX for $arch"
            continue
        fi
        # shellcheck disable=SC2086
        if ! "$nvcc" $flags "$(gencode "$arch" sm)" -Xptxas -v -cubin "$src/$file.cu" -o "$work/$file.$arch.cubin" \
            >"$work/ptxas" 2>&1; then
            cat "$work/ptxas"
            fail "ptxas rejects $file.cu for $arch"
            continue
        fi
        # One line per kernel: registers, shared memory, spills (demangled enough to read).
        awk -v arch="$arch" '
            /Compiling entry function/ { name = $0 }
            /bytes spill stores/ { spill = $5 + 0; loads = $9 + 0 }
            /Used [0-9]+ registers/ { printf "  %-7s %s regs, spill %d/%d B: %s\n", arch, $5, spill, loads, name }
        ' "$work/ptxas" | sed -E "s/: .*_cu_[0-9a-f]{8}[0-9]+/: /; s/(EEv|Ev).*//"
        if grep -E '[1-9][0-9]* bytes spill stores' "$work/ptxas" >/dev/null; then
            fail "$file.cu spills registers on $arch"
        fi
        # setmaxnreg moves registers between warpgroups of a pool the kernel was built with: 384 threads x R must
        # cover the producer's 128 x 40 and the consumers' 256 x 232, so R >= 168, or the consumers wait for ever.
        if [ "$file" = gemm_wgmma ] && [ "$arch" = sm_90a ]; then
            short=$(awk '/Compiling entry function .*wgmmaGemmKernel/ { k = 1; next }
                         /Compiling entry function/ { k = 0 }
                         k && /Used [0-9]+ registers/ && $5 + 0 < 168 { print $5 }' "$work/ptxas")
            [ -z "$short" ] || fail "the wgmma kernel has $short registers, fewer than the 168 setmaxnreg needs"
        fi
        if grep -F 'Potential Performance Loss' "$work/ptxas"; then
            fail "ptxas serializes wgmma in $file.cu on $arch"
        fi
    done
    mma="$work/gemm_mma.$arch.ptx"
    wgmma="$work/gemm_wgmma.$arch.ptx"
    if [ -f "$mma" ]; then
        if [ "$arch" = sm_75 ]; then
            absent "$mma" mma.sync. cp.async. ldmatrix.
        else
            expect "$mma" mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 \
                mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 ldmatrix.sync.aligned.m8n8.x4 \
                cp.async.cg.shared.global cp.async.commit_group cp.async.wait_group
        fi
    fi
    if [ -f "$wgmma" ]; then
        if [ "$arch" = sm_90a ]; then
            expect "$wgmma" wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 \
                wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 cp.async.bulk.tensor.2d mbarrier.try_wait.parity \
                mbarrier.arrive.expect_tx setmaxnreg
        else
            absent "$wgmma" wgmma. setmaxnreg. cp.async.bulk. mbarrier.
        fi
    fi
done

# Debian's CUDA 11.8 knows no sm_90a and no CUtensorMap: both files must still compile (clean PATH, as
# cuda_probe/build-cuda11.sh does, so it does not pick up CUDA 13's ptxas).
if [ -x /usr/bin/nvcc ]; then
    for file in gemm_mma gemm_wgmma; do
        if ! env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin /usr/bin/nvcc -ccbin g++-11 -std=c++17 -O3 \
            -Werror=all-warnings -I "$src" -gencode=arch=compute_70,code=sm_70 \
            -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 -c "$src/$file.cu" -o "$work/$file.cuda11.o" >"$work/log" 2>&1; then
            cat "$work/log"
            fail "$file.cu does not compile with CUDA 11.8 (/usr/bin/nvcc)"
        fi
    done
    [ "$failed" -eq 0 ] && echo "  CUDA 11.8 (/usr/bin/nvcc): both files compile for sm_70 sm_80 sm_90"
else
    echo "  no /usr/bin/nvcc (CUDA 11.8): its check skipped"
fi

[ "$failed" -eq 0 ] || exit 1
echo "kernels compile for sm_80 sm_86 sm_89 sm_90a"
