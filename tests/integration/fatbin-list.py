#!/usr/bin/env python3
"""Lists the GPU code in an executable's .nv_fatbin section, as `cuobjdump --list-elf --list-ptx` does.

Used for the CUDA 13 probe where CUDA 13's own cuobjdump is not installed (the toolkit in /usr/local/cuda is
nvcc's pip wheels, and nvidia-cuda-cuobjdump is not among them); Debian's CUDA 11.8 cuobjdump cannot read
CUDA 13's ELF flags. The layout read here (fatbin header: magic 0xBA55ED50, u16 version, u16 header size, u64
size; each entry: u16 kind 1=PTX 2=ELF, u16 version, u32 header size, u64 payload size, u32 sm at offset 28) is
checked by probe-builds.sh, which compares this listing with cuobjdump's on the CUDA 11.8 build.

Usage: fatbin-list.py EXECUTABLE      prints "ELF sm_90" / "PTX sm_90" lines; exit 1 when nothing is found.
"""
import struct
import subprocess
import sys
import tempfile

MAGIC = 0xBA55ED50


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
        while entry + 32 <= end:
            kind, _ver, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
            (sm,) = struct.unpack_from("<I", data, entry + 28)
            yield {1: "PTX", 2: "ELF"}.get(kind, "kind%d" % kind), sm
            entry += entry_header + payload
        at = end


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    found = 0
    for kind, sm in entries(fatbin_section(sys.argv[1])):
        print("%s sm_%d" % (kind, sm))
        found += 1
    sys.exit(0 if found else 1)


if __name__ == "__main__":
    main()
