#!/usr/bin/env bash
# Installs what is missing, builds everything and runs the whole suite: unit, GUI (offscreen),
# integration and quality gates. Exits non-zero if anything fails.
#
#   ./test.sh             the suite (what CI runs)
#   ./test.sh --sanitize  then the same suite again, built with AddressSanitizer and UndefinedBehaviorSanitizer
#                         (CMake preset "sanitize", folder build-sanitize; about twice the time)
set -euo pipefail
sanitize=0
case "${1:-}" in
    "") ;;
    --sanitize) sanitize=1 ;;
    *) echo "usage: ./test.sh [--sanitize]" >&2; exit 2 ;;
esac
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

if [ "$sanitize" -eq 1 ]; then
    started=$(date +%s)
    mkdir -p "$ROOT/build-sanitize"
    step "configuring the sanitizer build (cmake --preset sanitize)"
    run_logged "$ROOT/build-sanitize/configure.log" cmake --preset sanitize
    step "building with ASan and UBSan (cmake --build --preset sanitize)"
    run_logged "$ROOT/build-sanitize/build.log" cmake --build --preset sanitize -j "$(nproc)"
    # The CUDA probe is not part of the sanitizer build (it runs on other machines): the tests that deploy it
    # take the normal build's.
    cp "$ROOT"/build/bin/gpuplan-probe* "$ROOT/build-sanitize/bin/" 2>/dev/null || true
    step "running the tests under ASan and UBSan (ctest --preset sanitize)"
    if ! ctest --preset sanitize -j "$(nproc)"; then
        die "some tests failed under the sanitizers (details above; rerun one with: ctest --test-dir build-sanitize -R NAME --output-on-failure)"
    fi
    step "the sanitizer run took $(($(date +%s) - started)) s"
fi
