#!/usr/bin/env bash
# Installs the system packages listed in packaging/system-packages.txt that are missing.
# Idempotent: when everything is installed it only checks and returns. Debian/Ubuntu (apt) only.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
list="$here/system-packages.txt"

say() { printf '[deps] %s\n' "$*"; }
fail() { printf '[deps] ERROR: %s\n' "$*" >&2; exit 1; }

command -v dpkg-query >/dev/null 2>&1 || fail "this script needs a Debian or Ubuntu system (dpkg/apt not found); install the packages in $list by hand"

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
known() { [ -n "$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v '(none)')" ]; }

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "not root and sudo is missing: run as root, or install sudo"
    sudo_cmd=(sudo)
fi

# Lines of the list that are not satisfied yet (each line: one package or "a | b" alternatives).
missing_lines=()
while IFS= read -r line; do
    line=${line%%#*}
    line=$(echo "$line" | xargs)
    [ -n "$line" ] || continue
    satisfied=0
    IFS='|' read -ra alternatives <<<"$line"
    for alt in "${alternatives[@]}"; do
        alt=$(echo "$alt" | xargs)
        if installed "$alt"; then satisfied=1; break; fi
    done
    [ "$satisfied" -eq 1 ] || missing_lines+=("$line")
done <"$list"

if [ "${#missing_lines[@]}" -eq 0 ]; then
    say "all system packages present"
    exit 0
fi

say "missing: ${missing_lines[*]}"
say "running: apt-get update"
"${sudo_cmd[@]}" apt-get update -qq >/tmp/gpuplan-apt-update.log 2>&1 \
    || fail "apt-get update failed (see /tmp/gpuplan-apt-update.log)"

to_install=()
for line in "${missing_lines[@]}"; do
    chosen=""
    IFS='|' read -ra alternatives <<<"$line"
    for alt in "${alternatives[@]}"; do
        alt=$(echo "$alt" | xargs)
        if known "$alt"; then chosen=$alt; break; fi
    done
    [ -n "$chosen" ] || fail "no package from '$line' is available from apt on this system"
    to_install+=("$chosen")
done

say "running: apt-get install ${to_install[*]}"
if ! DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${to_install[@]}" >/tmp/gpuplan-apt-install.log 2>&1; then
    tail -n 20 /tmp/gpuplan-apt-install.log >&2
    fail "apt-get install of ${to_install[*]} failed (full log: /tmp/gpuplan-apt-install.log)"
fi
say "installed ${#to_install[@]} package(s)"
