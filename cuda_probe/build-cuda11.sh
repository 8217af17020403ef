#!/bin/sh
# Second build of the probe with Debian's CUDA 11.8 (nvidia-cuda-toolkit, host compiler g++-11), for
# V100 (sm_70) and drivers older than R580. See DESIGN.md, "The probe ships twice". Its architectures
# (sm_70..sm_90 + compute_90 PTX) and its glibc floor (2.17, PROBE_GLIBC_FLOOR) are CMakeLists.txt's defaults
# for a toolkit older than 13; tests/integration/probe-builds.sh checks both.
#
# Usage: cuda_probe/build-cuda11.sh [BUILD_DIR]     (default: build/probe-cuda11 at the repository root)
#
# It installs what it needs (as root, or through sudo): adds the contrib and non-free components to the
# Debian apt sources when they are missing, then installs nvidia-cuda-toolkit and g++-11.
#
# The build runs with a clean PATH on purpose: with /usr/local/cuda/bin (CUDA 13) first on PATH,
# Debian's nvcc picks up CUDA 13's ptxas, which no longer knows sm_70, and the build fails.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build_dir=${1:-"$root/build/probe-cuda11"}

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi

export DEBIAN_FRONTEND=noninteractive

# --- contrib non-free --------------------------------------------------------------------------------
add_components() {
    changed=0
    # deb822 sources (Debian 12+): append the components to each "Components:" line missing them.
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        if grep -q '^Components:' "$f" && grep '^Components:' "$f" | grep -Eqv '(^|[[:space:]])non-free([[:space:]]|$)'; then
            $sudo sed -i -E '/^Components:/{/(^|[[:space:]])contrib([[:space:]]|$)/!s/$/ contrib/}' "$f"
            $sudo sed -i -E '/^Components:/{/(^|[[:space:]])non-free([[:space:]]|$)/!s/$/ non-free/}' "$f"
            changed=1
        fi
    done
    # one-line sources.list
    if [ -f /etc/apt/sources.list ] && grep -qE '^deb[[:space:]]' /etc/apt/sources.list; then
        if grep -E '^deb[[:space:]]' /etc/apt/sources.list | grep -Eqv '[[:space:]]non-free([[:space:]]|$)'; then
            $sudo sed -i -E '/^deb[[:space:]]/{/[[:space:]]contrib([[:space:]]|$)/!s/$/ contrib/}' /etc/apt/sources.list
            $sudo sed -i -E '/^deb[[:space:]]/{/[[:space:]]non-free([[:space:]]|$)/!s/$/ non-free/}' /etc/apt/sources.list
            changed=1
        fi
    fi
    if [ "$changed" -eq 1 ]; then echo "build-cuda11: added contrib non-free to the apt sources"; fi
}

debian_nvcc=/usr/bin/nvcc
if [ ! -x "$debian_nvcc" ] || ! command -v g++-11 >/dev/null 2>&1; then
    add_components
    $sudo apt-get update
    extra=""
    command -v cmake >/dev/null 2>&1 || extra="$extra cmake"
    command -v make >/dev/null 2>&1 || extra="$extra make"
    # shellcheck disable=SC2086
    $sudo apt-get install -y --no-install-recommends nvidia-cuda-toolkit g++-11 $extra
fi

"$debian_nvcc" --version | tail -n 2

# --- build with a clean PATH --------------------------------------------------------------------------
clean_path=/usr/sbin:/usr/bin:/sbin:/bin
# Debian's nvcc.profile points at /usr/lib/nvidia-cuda-toolkit; nothing from /usr/local/cuda may leak in.
env -i PATH="$clean_path" HOME="${HOME:-/root}" \
    cmake -S "$here" -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_COMPILER="$debian_nvcc" \
    -DCMAKE_CUDA_HOST_COMPILER=/usr/bin/g++-11 \
    -DCMAKE_CXX_COMPILER=/usr/bin/g++-11
env -i PATH="$clean_path" HOME="${HOME:-/root}" cmake --build "$build_dir" -j"$(nproc)"

echo "build-cuda11: built $build_dir/gpuplan-probe"
if command -v cuobjdump >/dev/null 2>&1; then
    env -i PATH="$clean_path" cuobjdump --list-elf "$build_dir/gpuplan-probe" || true
    env -i PATH="$clean_path" cuobjdump --list-ptx "$build_dir/gpuplan-probe" || true
fi

# Beside the CUDA 13 probe, under the name `gpuplan probe` looks for, when the main build exists.
main_bin="$(cd "$here/.." && pwd)/build/bin"
if [ -d "$main_bin" ]; then
    cp "$build_dir/gpuplan-probe" "$main_bin/gpuplan-probe-cuda11.8"
    echo "build-cuda11: copied to $main_bin/gpuplan-probe-cuda11.8"
fi
