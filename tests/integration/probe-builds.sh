#!/bin/sh
# Both probe builds are there and hold what DESIGN.md promises ("The probe ships twice"):
#   - the CUDA 11.8 build: SASS for sm_70 (V100) up to sm_90, and compute_90 PTX that newer GPUs JIT;
#   - the CUDA 13 build: SASS for sm_75 up to sm_120, Hopper as sm_90a (the wgmma kernel needs it), and
#     compute_120 PTX; no sm_70 (CUDA 13 cannot target it);
#   - each binary reports exactly what it holds (probe.architectures, from its build's PROBE_CUDA_ARCHITECTURES);
#   - neither needs a glibc newer than GLIBC_FLOOR (cuda_probe/glibc-floor/make-stubs.sh, linked in by
#     cuda_probe/CMakeLists.txt) nor a libgcc_s newer than GCC 4.8's (RHEL 7). core's DeployStrategy
#     (bundledProbeBuilds) states the same architectures and floors; keep them together.
#
# The CUDA 11.8 build is read with Debian's cuobjdump. The CUDA 13 build is read with CUDA 13's cuobjdump when
# the toolkit has one; the one in /usr/local/cuda here (nvcc's pip wheels) does not, and 11.8's cannot read CUDA
# 13's ELF flags, so fatbin-list.py lists it instead, after its listing of the 11.8 build matched cuobjdump's.
# Usage: probe-builds.sh BUILD_DIR          (reads BUILD_DIR/bin/gpuplan-probe and gpuplan-probe-cuda11.8)
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin="$1/bin"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

GLIBC_FLOOR=2.17
GCC_FLOOR=4.8.0

# Prints "ELF sm_NN" / "PTX sm_NN" lines the way cuobjdump names them (sm_90a: arch-specific).
list_cuobjdump() { # TOOL FILE
    env -i PATH=/usr/bin:/bin "$1" --list-elf "$2" | sed -n 's/.*\.\(sm_[0-9]*[a-z]*\)\.cubin$/ELF \1/p'
    env -i PATH=/usr/bin:/bin "$1" --list-ptx "$2" | sed -n 's/.*\.\(sm_[0-9]*[a-z]*\)\.ptx$/PTX \1/p'
}
list_fatbin() { python3 "$here/fatbin-list.py" "$1"; }

# VERSION <= LIMIT, compared part by part (2.3.4 < 2.17).
not_newer() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$2" ]; }

# The probe's claim, as it prints it in every document (also without a GPU): probe.architectures, one a line.
claimed_architectures() { # FILE
    timeout 60 "$1" --quick 2>/dev/null | python3 -c '
import json, sys
try:
    for arch in json.load(sys.stdin)["probe"]["architectures"]:
        print(arch)
except Exception as error:
    sys.exit("no JSON document with probe.architectures: %s" % error)'
}

check() { # FILE LISTING NEWEST_PTX WANTED_ELF... -- UNWANTED_ELF...
    file=$1 listing=$2 ptx=$3
    shift 3
    echo "$file:"
    echo "$listing" | sort -u | sed 's/^/    /'
    wanted=1
    for arch in "$@"; do
        if [ "$arch" = "--" ]; then wanted=0; continue; fi
        if echo "$listing" | grep -qx "ELF $arch"; then
            [ "$wanted" -eq 1 ] || fail "$file holds $arch SASS, which its toolkit cannot target"
        else
            [ "$wanted" -eq 0 ] || fail "$file has no $arch SASS"
        fi
    done
    echo "$listing" | grep -qx "PTX $ptx" || fail "$file has no PTX for its newest architecture (${ptx#sm_}: newer GPUs JIT it)"

    # What it holds is what it says it holds: ELF sm_X -> "sm_X", PTX sm_X -> "compute_X".
    held=$(echo "$listing" | sed -e 's/^ELF //' -e 's/^PTX sm_/compute_/' | sort -u)
    if claimed=$(claimed_architectures "$file"); then
        claimed=$(echo "$claimed" | sort -u)
        echo "    probe.architectures: $(echo "$claimed" | tr '\n' ' ')"
        [ "$claimed" = "$held" ] ||
            fail "$file claims [$(echo "$claimed" | tr '\n' ' ')] but holds [$(echo "$held" | tr '\n' ' ')]"
    else
        fail "$file --quick printed no probe.architectures (it must print one JSON document, also without a GPU)"
    fi

    glibc=$(objdump -T "$file" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)
    [ -n "$glibc" ] || { fail "objdump -T cannot read the glibc versions $file needs"; return; }
    echo "    newest glibc symbol: $glibc"
    not_newer "$glibc" "$GLIBC_FLOOR" || fail "$file needs glibc $glibc (> $GLIBC_FLOOR): $(objdump -T "$file" |
        grep -F "GLIBC_$glibc" | awk '{print $NF}' | tr '\n' ' ')"
    gcc=$(objdump -T "$file" | grep -o 'GCC_[0-9.]*' | sed 's/GCC_//' | sort -V | tail -n 1)
    if [ -n "$gcc" ]; then
        echo "    newest libgcc_s symbol: $gcc"
        not_newer "$gcc" "$GCC_FLOOR" || fail "$file needs libgcc_s GCC_$gcc (> GCC_$GCC_FLOOR)"
    fi
}

old="$bin/gpuplan-probe-cuda11.8"
new="$bin/gpuplan-probe"
for file in "$old" "$new"; do
    [ -f "$file" ] || { echo "FAIL: $file is missing (./test.sh builds both; the CUDA 11.8 one with cuda_probe/build-cuda11.sh)"; exit 1; }
done
[ -x /usr/bin/cuobjdump ] || { echo "FAIL: Debian's cuobjdump (nvidia-cuda-toolkit) is missing"; exit 1; }

echo "== $old, /usr/bin/cuobjdump --list-elf --list-ptx"
old_listing=$(list_cuobjdump /usr/bin/cuobjdump "$old")
check "$old" "$old_listing" sm_90 sm_70 sm_75 sm_80 sm_86 sm_89 sm_90

if [ -x /usr/local/cuda/bin/cuobjdump ]; then
    echo "== $new, /usr/local/cuda/bin/cuobjdump --list-elf --list-ptx"
    new_listing=$(list_cuobjdump /usr/local/cuda/bin/cuobjdump "$new")
else
    if [ "$(list_fatbin "$old" | sort -u)" != "$(echo "$old_listing" | sort -u)" ]; then
        fail "fatbin-list.py and cuobjdump disagree on $old"
    fi
    echo "== $new, fatbin-list.py (CUDA 13 has no cuobjdump here; the lister agreed with cuobjdump above)"
    new_listing=$(list_fatbin "$new")
fi
# Hopper as sm_90a, not plain sm_90: the wgmma kernel exists only in the arch-specific SASS.
check "$new" "$new_listing" sm_120 sm_75 sm_80 sm_86 sm_89 sm_90a sm_100 sm_120 -- sm_70 sm_90

[ "$failures" -eq 0 ] || exit 1
echo "both probe builds hold the architectures they promise and run on glibc $GLIBC_FLOOR"
