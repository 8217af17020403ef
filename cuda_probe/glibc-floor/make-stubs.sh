#!/bin/sh
# Writes stand-ins for glibc's shared libraries that make the linker record the symbol versions an older glibc
# (FLOOR, e.g. 2.17) has, so the probe linked against them runs on that glibc and every newer one.
#
# Usage: make-stubs.sh FLOOR OUTDIR [CC]        (CC: the compiler that links the probe, default cc)
#
# Why: the probe is built on Debian 12 (glibc 2.36) and copied to machines as old as CentOS 7 / RHEL 7 (2.17).
# The linker binds every reference to the newest (default) version of a symbol in the libraries it links
# against: pthread_create@GLIBC_2.34 in libc.so.6 where glibc 2.17 has pthread_create@GLIBC_2.2.5 in
# libpthread.so.0. `.symver` cannot fix that for the static libstdc++ and cudart. So each stub exports
# every symbol of the real library with all its versions, the default being the newest version <= FLOOR,
# which is what linking on glibc FLOOR would have chosen. Symbols glibc FLOOR lacks altogether are exported
# with hidden versions only: a shared library (libgcc_s) may still reference them by version, but an
# unversioned reference from the probe's own code fails to link -- give those a fallback in
# cuda_probe/glibc_compat.cpp. The stubs hold no code; at run time the real glibc is loaded.
#
# glibc 2.34 moved libpthread, libdl and librt into libc.so.6; the symbols that moved (they have a GLIBC_2.34
# version beside their old one) go back into their old library's stub, so the probe again needs
# libpthread.so.0 / libdl.so.2 / librt.so.1 (present, as empty stand-ins, on every glibc since 2.34).
set -eu

floor=$1
out=$2
cc=${3:-cc}

mkdir -p "$out"
tmp="$out/src"
rm -rf "$tmp"
mkdir -p "$tmp"

real() { # SONAME -> path of the real library the compiler would link
    path=$("$cc" -print-file-name="$1")
    [ -f "$path" ] || { echo "make-stubs: cannot find $1 (via $cc -print-file-name)" >&2; exit 1; }
    echo "$path"
}

# One line per exported symbol version: SONAME NAME VERSION KIND SIZE   (KIND: F function, O object)
for soname in libc.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libm.so.6 ld-linux-x86-64.so.2; do
    library=$(real "$soname")
    objdump -T "$library" | awk -v soname="$soname" '
        NF >= 6 && $0 ~ / (D[FO]|iD) / {   # functions, objects and IFUNCs (memcpy@@GLIBC_2.14)
            name = $NF; version = $(NF - 1); gsub(/[()]/, "", version)
            section = $(NF - 3); size = $(NF - 2)
            if (section == "*UND*" || version !~ /^GLIBC_2/ || name == version || name ~ /_version_placeholder$/) next
            kind = ($0 ~ / DO /) ? "O" : "F"
            print soname, name, version, kind, size
        }'
done >"$tmp/all"

# Version strings compare numerically part by part: GLIBC_2.3.4 < GLIBC_2.17.
awk -v floor="$floor" '
    function cmp(a, b,    x, y, n, m, i) {
        sub(/^GLIBC_/, "", a); sub(/^GLIBC_/, "", b)
        n = split(a, x, "."); m = split(b, y, ".")
        for (i = 1; i <= (n > m ? n : m); i++) {
            if ((x[i] + 0) != (y[i] + 0)) return (x[i] + 0) < (y[i] + 0) ? -1 : 1
        }
        return 0
    }
    # The library a symbol moved into libc.so.6 from in glibc 2.34 came from.
    function origin(name) {
        if (name ~ /^dl/) return "libdl.so.2"
        if (name ~ /^(shm_|mq_|__mq_|aio_|lio_|timer_)/) return "librt.so.1"
        if (name ~ /^(forkpty|openpty|login|logout|logwtmp|gai_|getaddrinfo_a|dn_|ns_|res_|_Fork|__isnanf128)/) return ""
        return "libpthread.so.0"
    }
    {
        key = $1 SUBSEP $2
        if (!(key in count)) { order[++keys] = key }
        n = ++count[key]; ver[key, n] = $3; kind[key] = $4; size[key] = $5
        if ($3 == "GLIBC_2.34") moved[key] = 1
    }
    END {
        for (k = 1; k <= keys; k++) {
            key = order[k]; split(key, parts, SUBSEP); soname = parts[1]; name = parts[2]
            target = soname
            if (soname == "libc.so.6" && (key in moved) && name != "__libc_start_main" && count[key] > 1) {
                target = origin(name)
                if (target == "") continue
            }
            best = ""
            for (i = 1; i <= count[key]; i++) {
                v = ver[key, i]
                # a moved symbol keeps only the versions it had in its old library
                if (target != soname && cmp(v, "GLIBC_2.34") >= 0) continue
                if (cmp(v, "GLIBC_" floor) <= 0 && (best == "" || cmp(v, best) > 0)) best = v
            }
            for (i = 1; i <= count[key]; i++) {
                v = ver[key, i]
                if (target != soname && cmp(v, "GLIBC_2.34") >= 0) continue
                print target, name, v, (v == best ? "@@" : "@"), kind[key], size[key]
            }
        }
    }' "$tmp/all" | sort -u >"$tmp/chosen"

for soname in libc.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libm.so.6 ld-linux-x86-64.so.2; do
    base=$(echo "$soname" | sed 's/[.-]/_/g')
    awk -v soname="$soname" '
        $1 == soname {
            n++; label = "stub_" n
            if ($5 == "O") {
                printf "\t.data\n\t.globl %s\n\t.type %s, @object\n\t.size %s, %d\n%s:\n\t.zero %d\n", label, label, label, strtonum_("0x" $6), label, (strtonum_("0x" $6) > 0 ? strtonum_("0x" $6) : 1)
            } else {
                printf "\t.text\n\t.globl %s\n\t.type %s, @function\n%s:\n\tret\n", label, label, label
            }
            printf "\t.symver %s, %s%s%s\n", label, $2, $4, $3
        }
        function strtonum_(hex,    i, c, v) {
            v = 0; hex = tolower(substr(hex, 3))
            for (i = 1; i <= length(hex); i++) { c = index("0123456789abcdef", substr(hex, i, 1)) - 1; v = v * 16 + c }
            return v
        }' "$tmp/chosen" >"$tmp/$base.s"
    # The version nodes the library defines; a default version (@@) takes effect only for names its node lists
    # as global, and "local: *" hides the stub_N labels.
    awk -v soname="$soname" '$1 == soname { print $3, ($4 == "@@" ? $2 : "") }' "$tmp/chosen" | sort -V | awk '
        $1 != node { if (node != "") printf "%s};\n", (first++ ? "" : "local: *; "); node = $1; printf "%s { ", node; globals = 0 }
        NF > 1 { printf "%s%s; ", (globals++ ? "" : "global: "), $2 }
        END { if (node != "") printf "%s};\n", (first ? "" : "local: *; ") }' >"$tmp/$base.map"
    if [ ! -s "$tmp/$base.map" ]; then echo "GLIBC_2.2.5 { local: *; };" >"$tmp/$base.map"; fi
    "$cc" -shared -nostdlib -o "$out/$soname" -Wl,-soname,"$soname" -Wl,--version-script,"$tmp/$base.map" "$tmp/$base.s"
done

# The names the linker looks for (-lc, -lpthread, ...). libc.so is a script, as glibc's own: libc_nonshared.a
# (atexit, pthread_atfork, ...) is linked into the program.
nonshared=$(real libc_nonshared.a)
cat >"$out/libc.so" <<SCRIPT
/* glibc $floor stand-in, written by cuda_probe/glibc-floor/make-stubs.sh */
GROUP ( $out/libc.so.6 $nonshared AS_NEEDED ( $out/ld-linux-x86-64.so.2 ) )
SCRIPT
ln -sf libpthread.so.0 "$out/libpthread.so"
ln -sf libdl.so.2 "$out/libdl.so"
ln -sf librt.so.1 "$out/librt.so"
ln -sf libm.so.6 "$out/libm.so"
echo "make-stubs: glibc $floor stand-ins in $out"
