# Shared by run.sh and test.sh: say what is being done, stop with a clear message when a step fails.
step() { printf '==> %s\n' "$*"; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# run_logged LOG COMMAND...: runs the command with its output in LOG; on failure shows the tail and stops.
run_logged() {
    local log=$1
    shift
    if ! "$@" >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        die "'$*' failed (full output: $log)"
    fi
}

ensure_build() {
    local preset=$1
    step "checking system packages (packaging/system-packages.txt)"
    "$ROOT/packaging/install-deps.sh" || die "installing system packages failed"
    mkdir -p "$ROOT/build"
    step "configuring (cmake --preset default)"
    run_logged "$ROOT/build/configure.log" cmake --preset default
    step "building (cmake --build --preset $preset)"
    run_logged "$ROOT/build/build.log" cmake --build --preset "$preset" -j "$(nproc)"
    # The second probe build (CUDA 11.8: V100 and drivers older than R580) needs Debian's toolkit; the script
    # installs it (contrib non-free) and copies the probe beside the first as build/bin/gpuplan-probe-cuda11.8.
    step "building the CUDA 11.8 probe (cuda_probe/build-cuda11.sh)"
    run_logged "$ROOT/build/probe-cuda11.log" "$ROOT/cuda_probe/build-cuda11.sh" "$ROOT/build/probe-cuda11"
}
