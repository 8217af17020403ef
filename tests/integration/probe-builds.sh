#!/bin/sh
# Both probe builds are there and hold what DESIGN.md promises ("The probe ships twice"): the CUDA 11.8 build
# has SASS for sm_70 (V100) up to sm_90, the CUDA 13 build from sm_75 to sm_90, and both carry compute_90 PTX for
# newer GPUs. Neither may need a glibc newer than 2.34 (Ubuntu 22.04 has 2.35).
#
# The CUDA 11.8 build is read with Debian's cuobjdump. The CUDA 13 build is read with CUDA 13's cuobjdump when
# the toolkit has one; the one in /usr/local/cuda here (nvcc's pip wheels) does not, and 11.8's cannot read CUDA
# 13's ELF flags, so fatbin-list.py lists it instead, after its listing of the 11.8 build matched cuobjdump's.
# Usage: probe-builds.sh BUILD_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin="$1/bin"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Prints "ELF sm_NN" / "PTX sm_NN" lines, sorted and unique, the way cuobjdump names them.
list_cuobjdump() { # TOOL FILE
    env -i PATH=/usr/bin:/bin "$1" --list-elf "$2" | sed -n 's/.*\.\(sm_[0-9]*[a-z]*\)\.cubin$/ELF \1/p'
    env -i PATH=/usr/bin:/bin "$1" --list-ptx "$2" | sed -n 's/.*\.\(sm_[0-9]*[a-z]*\)\.ptx$/PTX \1/p'
}
list_fatbin() { python3 "$here/fatbin-list.py" "$1"; }

check() { # FILE LISTING WANTED_ELF... -- UNWANTED_ELF...
    file=$1 listing=$2
    shift 2
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
    echo "$listing" | grep -qx "PTX sm_90" || fail "$file has no compute_90 PTX (newer GPUs JIT it)"
    glibc=$(objdump -T "$file" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)
    [ -n "$glibc" ] || { fail "objdump -T cannot read the glibc versions $file needs"; return; }
    echo "    newest glibc symbol: $glibc"
    [ "$(printf '%s\n2.34\n' "$glibc" | sort -V | tail -n 1)" = "2.34" ] || fail "$file needs glibc $glibc (> 2.34)"
}

old="$bin/gpuplan-probe-cuda11.8"
new="$bin/gpuplan-probe"
for file in "$old" "$new"; do
    [ -f "$file" ] || { echo "FAIL: $file is missing (./test.sh builds both; the CUDA 11.8 one with cuda_probe/build-cuda11.sh)"; exit 1; }
done
[ -x /usr/bin/cuobjdump ] || { echo "FAIL: Debian's cuobjdump (nvidia-cuda-toolkit) is missing"; exit 1; }

echo "== $old, /usr/bin/cuobjdump --list-elf --list-ptx"
old_listing=$(list_cuobjdump /usr/bin/cuobjdump "$old")
check "$old" "$old_listing" sm_70 sm_75 sm_80 sm_86 sm_89 sm_90

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
check "$new" "$new_listing" sm_75 sm_80 sm_86 sm_89 sm_90 -- sm_70

[ "$failures" -eq 0 ] || exit 1
echo "both probe builds hold the architectures they promise"
