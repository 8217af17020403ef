#!/usr/bin/env bash
# Runs ./test.sh from a fresh clone inside a clean Debian 12 root, the way a new user's machine would:
# nothing installed but what debootstrap gives (no CUDA 13, no Qt, no npm), so every install step of
# ./test.sh is exercised. A warm development machine hides missing install steps; this does not.
#
# Usage (as root):  tests/fresh-machine/debian12.sh [COMMIT] [WORK_DIR]
#   COMMIT    what to clone from this repository (default: HEAD)
#   WORK_DIR  where the root is built (default: /var/tmp/gpuplan-fresh-debian12); needs about 12 GB
#
# The pristine root is made once with debootstrap and kept as WORK_DIR/base.tar; every run unpacks it
# into a new WORK_DIR/root, so no run sees what an earlier one installed. Mounts live in a private
# mount namespace (unshare) and vanish when the run ends.
#
# Networks that inspect TLS: the machine's extra CA certificates (/usr/local/share/ca-certificates) are
# copied into the root and NODE_EXTRA_CA_CERTS points npm at the system bundle, or npm cannot reach its
# registry. The apt mirror is the one this machine uses (first URIs of /etc/apt/sources.list.d/debian.sources).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
commit=${1:-HEAD}
work=${2:-/var/tmp/gpuplan-fresh-debian12}

say() { printf '[fresh-debian12] %s\n' "$*"; }
die() { printf '[fresh-debian12] ERROR: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, chroot and mounts need it)"
command -v unshare >/dev/null || die "unshare (util-linux) is missing"
if ! command -v debootstrap >/dev/null; then
    say "installing debootstrap"
    apt-get install -y -qq debootstrap >/dev/null || die "could not install debootstrap"
fi

mirror=http://deb.debian.org/debian
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    first=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/debian.sources | head -n 1)
    [ -n "$first" ] && mirror=$first
fi
security=${mirror%/debian}/debian-security

mkdir -p "$work"
if [ ! -f "$work/base.tar" ]; then
    say "debootstrap bookworm from $mirror (once; kept as $work/base.tar)"
    rm -rf "$work/base"
    debootstrap --include=ca-certificates bookworm "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1 \
        || { tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap failed (full log: $work/debootstrap.log)"; }
    tar -C "$work/base" -cf "$work/base.tar.part" . && mv "$work/base.tar.part" "$work/base.tar"
    rm -rf "$work/base"
fi

root=$work/root
say "unpacking a pristine root into $root"
rm -rf "$root"
mkdir -p "$root"
tar -C "$root" -xf "$work/base.tar"

# What a fresh Debian 12 install has: the main component only (build-cuda11.sh adds contrib non-free).
cat >"$root/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
rm -f "$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf"
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi

say "cloning $commit of $repo into the root (a fresh clone, nothing else)"
git clone -q "$repo" "$root/root/gpuplanner"
git -C "$root/root/gpuplanner" checkout -q "$commit"
git -C "$root/root/gpuplanner" log -1 --format='[fresh-debian12] at %h %s'

log=$work/test.log
say "running ./test.sh in the root (output: $log)"
start=$(date +%s)
set +e
unshare --mount --propagation private bash -euo pipefail -c '
    root=$1
    mount -t proc proc "$root/proc"
    mount -t sysfs sys "$root/sys"
    mount --rbind /dev "$root/dev"
    mount -t tmpfs tmpfs "$root/dev/shm"
    mount -t tmpfs tmpfs "$root/run"
    mount -t tmpfs tmpfs "$root/tmp"
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
        bash -c "update-ca-certificates >/dev/null && cd /root/gpuplanner && ./test.sh"
' _ "$root" >"$log" 2>&1
rc=$?
set -e
took=$(($(date +%s) - start))
tail -n 25 "$log"
if [ "$rc" -ne 0 ]; then die "./test.sh failed in the fresh Debian 12 root after ${took} s (exit $rc; full output: $log)"; fi
say "./test.sh passed in the fresh Debian 12 root in ${took} s"
