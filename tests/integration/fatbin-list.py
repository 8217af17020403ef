#!/usr/bin/env python3
"""Lists the GPU code in an executable's .nv_fatbin section, as `cuobjdump --list-elf --list-ptx` does.

Used for the CUDA 13 probe where CUDA 13's own cuobjdump is not installed (the toolkit in /usr/local/cuda is
nvcc's pip wheels, and nvidia-cuda-cuobjdump is not among them); Debian's CUDA 11.8 cuobjdump cannot read
CUDA 13's ELF flags. The layout read here (fatbin header: magic 0xBA55ED50, u16 version, u16 header size, u64
size; each entry: u16 kind 1=PTX 2=ELF, u16 version, u32 header size, u64 payload size, u32 sm at offset 28, u64
flags at offset 40) is checked by probe-builds.sh, which compares this listing with cuobjdump's on the CUDA 11.8
build.

Arch-specific code (sm_90a, sm_100a) and family code (sm_100f) differ from plain sm_90 / sm_100 only in the entry's
flags: bit 0x100000 marks "a", 0x200000 "f" (found by compiling one kernel with nvcc 13 for sm_90, sm_90a, sm_100a
and sm_100f and comparing the entries; the embedded cubin's ELF e_flags are the same for sm_90 and sm_90a). Debian's
11.8 cuobjdump predates both and cannot check them: it names compute_90a PTX "sm_90" and cannot read CUDA 13 ELF.

Usage: fatbin-list.py EXECUTABLE      prints "ELF sm_90a" / "PTX sm_120" lines; exit 1 when nothing is found.
"""
import struct
import subprocess
import sys
import tempfile

MAGIC = 0xBA55ED50
ARCH_SPECIFIC = 0x100000  # sm_90a: runs only on that compute capability, may use wgmma / TMA / setmaxnreg
FAMILY_SPECIFIC = 0x200000  # sm_100f: runs on the family (CUDA 12.9+)


def fatbin_section(path):
    with tempfile.NamedTemporaryFile() as out:
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", path, out.name], check=True)
        return open(out.name, "rb").read()


def entries(data):
    at = 0
    while at + 16 <= len(data):
        magic, _version, header_size, fat_size = struct.unpack_from("<IHHQ", data, at)
        if magic != MAGIC:
            at += 8  # blobs are 8-byte aligned; skip padding
            continue
        entry = at + header_size
        end = entry + fat_size
        while entry + 48 <= end:  # the fields read below end at offset 48 (headers are 64 bytes or more)
            kind, _ver, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
            (sm,) = struct.unpack_from("<I", data, entry + 28)
            (flags,) = struct.unpack_from("<Q", data, entry + 40)
            suffix = "a" if flags & ARCH_SPECIFIC else "f" if flags & FAMILY_SPECIFIC else ""
            yield {1: "PTX", 2: "ELF"}.get(kind, "kind%d" % kind), "%d%s" % (sm, suffix)
            entry += entry_header + payload
        at = end


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    found = 0
    for kind, sm in entries(fatbin_section(sys.argv[1])):
        print("%s sm_%s" % (kind, sm))
        found += 1
    sys.exit(0 if found else 1)


if __name__ == "__main__":
    main()
