#!/usr/bin/env bash
# Installs the official cloud SDKs that TestSdkSignatures compares our signers with (package-lock.json pins
# them) into node_modules here. Runs `npm ci` only when node_modules is missing or older than package-lock.json;
# otherwise it only checks. Needs Node.js and npm (packaging/system-packages.txt) and, when it installs, the npm
# registry; the test itself runs offline.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"

say() { printf '[sdk] %s\n' "$*"; }
fail() { printf '[sdk] ERROR: %s\n' "$*" >&2; exit 1; }

command -v node >/dev/null 2>&1 || fail "node is missing: install the packages in packaging/system-packages.txt"
command -v npm >/dev/null 2>&1 || fail "npm is missing: install the packages in packaging/system-packages.txt"

# npm writes node_modules/.package-lock.json on every install: its age is the install's.
installed=node_modules/.package-lock.json
if [ -f "$installed" ] && [ ! package-lock.json -nt "$installed" ]; then
    say "SDKs up to date ($here/node_modules)"
    exit 0
fi
say "installing the SDKs pinned in package-lock.json (npm ci)"
# --ignore-scripts: the one install script in the tree (@alicloud/openapi-core's postinstall) only fetches an
# older TypeScript for Node 10 and 12; nothing from the registry needs to run here.
npm ci --no-audit --no-fund --ignore-scripts \
    || fail "npm ci failed in $here (is the npm registry reachable? see the npm log above)"
