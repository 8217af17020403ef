#!/bin/sh
# Runs the libFuzzer targets: tests/fuzz/run.sh SECONDS [TARGET...] (TARGET: catalog, workload, ... or fuzz_catalog).
# Configures and builds build-fuzz when needed, runs each target for SECONDS on a fresh copy of its seeds (the committed
# corpus is never written), and prints executions, findings and time per target. Crash inputs stay in a temporary
# folder whose paths are printed. Environment: GPUPLAN_FUZZ_BUILD (build folder, default <repo>/build-fuzz),
# GPUPLAN_FUZZ_JOBS (ninja -j, default 1), GPUPLAN_FUZZ_KEEP=1 keeps the working corpora too.
set -eu

usage() { echo "usage: $0 SECONDS [TARGET...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
seconds=$1
shift
case $seconds in '' | *[!0-9]*) usage ;; esac

here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build=${GPUPLAN_FUZZ_BUILD:-$source_dir/build-fuzz}
jobs=${GPUPLAN_FUZZ_JOBS:-1}

all=$(sed -n 's/^set(GPUPLAN_FUZZ_TARGETS \(.*\))$/\1/p' "$here/CMakeLists.txt")
if [ $# -eq 0 ]; then
    set -- $all
fi

if [ ! -f "$build/build.ninja" ]; then
    CC=clang CXX=clang++ cmake -S "$source_dir" -B "$build" -G Ninja -DGPUPLAN_FUZZ=ON \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF >/dev/null
fi
targets=""
for target in "$@"; do
    targets="$targets fuzz_${target#fuzz_}"
done
if ! build_log=$(nice -n 10 ninja -C "$build" -j "$jobs" $targets 2>&1); then
    printf '%s\n' "$build_log" | tail -n 40 >&2
    echo "$0: the fuzz build failed" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-fuzz.XXXXXX")
results="$work/results"
: >"$results"
for target in $targets; do
    name=${target#fuzz_}
    corpus="$work/$name/corpus"
    artifacts="$work/$name/artifacts"
    mkdir -p "$corpus" "$artifacts"
    if [ -d "$here/corpus/$name" ]; then
        cp "$here/corpus/$name"/* "$corpus"/ 2>/dev/null || true
    fi
    log="$work/$name/fuzz.log"
    : >"$log"
    start=$(date +%s)
    left=$seconds
    executions=0
    kept_before=0
    # A finding stops libFuzzer; it is started again (same working corpus) for the time left, at most 3 findings.
    while [ "$left" -gt 0 ]; do
        set +e
        nice -n 10 "$build/fuzz/$target" "$corpus" -max_total_time="$left" -rss_limit_mb=2048 -timeout=10 \
            -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log.run" 2>&1
        status=$?
        set -e
        cat "$log.run" >>"$log"
        runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log.run" | tail -n 1)
        executions=$((executions + ${runs:-0}))
        kept=$(find "$artifacts" -type f | wc -l)
        # Stop on a clean end, on a failure that left no input (a broken setup: see the log), or at 3 findings.
        [ $status -ne 0 ] && [ "$kept" -gt "${kept_before:-0}" ] && [ "$kept" -lt 3 ] || break
        kept_before=$kept
        left=$((seconds - ($(date +%s) - start)))
    done
    rm -f "$log.run"
    elapsed=$(($(date +%s) - start))
    findings=$(find "$artifacts" -type f | wc -l)
    printf '%s %s %s %s\n' "$target" "$executions" "$findings" "$elapsed" >>"$results"
done

printf '\n%-20s %14s %9s %8s\n' target executions findings seconds
while read -r target executions findings elapsed; do
    printf '%-20s %14s %9s %8s\n' "$target" "$executions" "$findings" "$elapsed"
done <"$results"
echo
found=0
for artifact in $(find "$work" -path '*/artifacts/*' -type f | sort); do
    [ $found -eq 1 ] || echo "findings (reproduce: $build/fuzz/fuzz_<target> FILE):"
    found=1
    echo "  $artifact"
done
[ $found -eq 1 ] || echo "no findings"
echo "logs: $work/<target>/fuzz.log"
if [ "${GPUPLAN_FUZZ_KEEP:-0}" != 1 ]; then
    find "$work" -path '*/corpus' -type d -prune -exec rm -rf {} +
fi
