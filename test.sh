#!/usr/bin/env bash
# Installs what is missing, builds everything and runs the whole suite: unit, GUI (offscreen),
# integration and quality gates. Exits non-zero if anything fails.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"
# shellcheck source=packaging/common.sh
. "$ROOT/packaging/common.sh"

ensure_build test

step "installing the official cloud SDKs that TestSdkSignatures compares with (tests/integration/sdk/setup.sh)"
"$ROOT/tests/integration/sdk/setup.sh" || die "installing the cloud SDKs failed (TestSdkSignatures needs them; details above)"

step "running the tests (ctest --preset test)"
export QT_QPA_PLATFORM=offscreen
if ! ctest --preset test -j "$(nproc)"; then
    die "some tests failed (details above; rerun one with: ctest --test-dir build -R NAME --output-on-failure)"
fi
