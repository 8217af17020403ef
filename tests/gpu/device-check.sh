#!/usr/bin/env bash
# The probe's device check: run from the repository root on a GPU machine that has a CUDA toolkit and a
# driver and maybe nothing else (no cmake, no internet). It builds the probe, runs it quick, full and under
# burn-in, checks every document against the schema, measures the same figures with an independent reference
# (PyTorch, else cuBLASLt linked the ordinary way) on the same GPU, and prints one table. About 5 minutes on
# an H200, under 8. Bash, not POSIX sh (arrays, process substitution). See docs/probe-results.md.
set -eu

usage() {
    cat <<'EOF'
Usage: tests/gpu/device-check.sh [options]        (run from the repository root)

  --dry-run            print every step (commands, paths found or not, the reference it would use) and exit 0;
                       builds nothing and touches no GPU
  --out DIR            where the documents and the summary go (default: $OUT if set, else ./device-check-out)
  --probe PATH         use this CUDA 13 probe binary instead of building one
  --probe-cuda11 PATH  use this CUDA 11.8 probe binary instead of building one
  --json-include DIR   a folder holding nlohmann/json.hpp (also: env PROBE_JSON_INCLUDE); otherwise
                       /usr/include, /usr/local/include, ./.probe-include, or nlohmann/ unpacked from
                       build/share/gpuplanner/probe-source.tar.gz
  --burn SECONDS       burn-in length (default 60)
  --no-burn            skip the burn-in run
  --no-cmake           build with nvcc directly even when cmake is there (the path a bare machine takes)
  --no-cuda11          skip the CUDA 11.8 build and its PTX run even when the toolkit is there
  --reference KIND     auto (default: PyTorch when importable, else cuBLASLt), torch, cublas or none
  --date YYYY-MM-DD    the date written into the summary (default: today)
  -h, --help           this text

Environment: PROBE_JSON_INCLUDE (as --json-include); DEVICE_CHECK_ARCHS overrides the architectures read from
cuda_probe/CMakeLists.txt for both builds (e.g. "90a-real", to try the script quickly; not for recorded runs).

Output (DIR): probe-quick.json, probe-full.json, probe-burn.json, probe-cuda11-ptx-quick.json,
device-check.json (the table as data, for the verdict's thresholds), device-check.md (a section appended,
ready for docs/probe-results.md), device-check.log (everything printed, build logs included).
Exit status: 0 when every step that ran succeeded (goals missed are reported in the table, not here), 1 when a
step failed, 2 on a bad argument.
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dry_run=0
out_dir=${OUT:-./device-check-out}
probe13=""
probe11=""
json_include=${PROBE_JSON_INCLUDE:-}
burn_seconds=60
do_burn=1
do_cuda11=1
use_cmake=1
reference_kind=auto
date_override=""

need_value() {
    if [ "$#" -lt 2 ] || [ -z "$2" ]; then
        echo "device-check: $1 needs a value (see --help)" >&2
        exit 2
    fi
}
while [ "$#" -gt 0 ]; do
    case "$1" in
    --dry-run) dry_run=1 ;;
    --out) need_value "$@"; out_dir=$2; shift ;;
    --probe) need_value "$@"; probe13=$2; shift ;;
    --probe-cuda11) need_value "$@"; probe11=$2; shift ;;
    --json-include) need_value "$@"; json_include=$2; shift ;;
    --burn) need_value "$@"; burn_seconds=$2; shift ;;
    --no-burn) do_burn=0 ;;
    --no-cuda11) do_cuda11=0 ;;
    --no-cmake) use_cmake=0 ;;
    --reference) need_value "$@"; reference_kind=$2; shift ;;
    --date) need_value "$@"; date_override=$2; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "device-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$burn_seconds" in '' | *[!0-9]*) echo "device-check: --burn needs whole seconds, not '$burn_seconds'" >&2; exit 2 ;; esac
case "$reference_kind" in auto | torch | cublas | none) ;; *) echo "device-check: --reference auto|torch|cublas|none, not '$reference_kind'" >&2; exit 2 ;; esac

cd "$root"
if [ ! -f cuda_probe/CMakeLists.txt ]; then
    echo "device-check: $root/cuda_probe/CMakeLists.txt is missing: run this from a GPU Planner checkout" >&2
    exit 2
fi

start_s=$(date +%s.%N)
elapsed() { awk -v a="$start_s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }'; }
say() { echo "[device-check $(elapsed)s] $*"; }
plan() { echo "[plan] $*"; }
schema=cuda_probe/schema/gpuplan-probe-1.schema.json

# --- what is on this machine ------------------------------------------------------------------------------
nvcc13=""
if [ -x /usr/local/cuda/bin/nvcc ]; then nvcc13=/usr/local/cuda/bin/nvcc; elif command -v nvcc >/dev/null 2>&1; then nvcc13=$(command -v nvcc); fi
nvcc13_release=""
[ -n "$nvcc13" ] && nvcc13_release=$("$nvcc13" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p' | head -n 1)

nvcc11=""
for c in /usr/local/cuda-11.8/bin/nvcc /usr/bin/nvcc; do
    if [ -x "$c" ] && "$c" --version 2>/dev/null | grep -q 'release 11\.8'; then nvcc11=$c; break; fi
done
host11=""
command -v g++-11 >/dev/null 2>&1 && host11=$(command -v g++-11)

cmake_bin=""
[ "$use_cmake" -eq 1 ] && command -v cmake >/dev/null 2>&1 && cmake_bin=$(command -v cmake)
timeout_bin=""
command -v timeout >/dev/null 2>&1 && timeout_bin=$(command -v timeout)
jobs=$(nproc 2>/dev/null || echo 4)

python=""
for c in python3 python; do
    if command -v "$c" >/dev/null 2>&1; then python=$(command -v "$c"); break; fi
done

# PyTorch: found, not assumed. find_spec looks without importing (fast, and no GPU is touched).
torch_python=""
has_torch() { "$1" -c 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("torch") else 1)' >/dev/null 2>&1; }
if [ "$reference_kind" = auto ] || [ "$reference_kind" = torch ]; then
    candidates=""
    for c in python3 python; do command -v "$c" >/dev/null 2>&1 && candidates="$candidates $(command -v "$c")"; done
    conda_base=""
    command -v conda >/dev/null 2>&1 && conda_base=$(conda info --base 2>/dev/null || true)
    for c in "$HOME"/.venv/bin/python3 "$HOME"/venv/bin/python3 /opt/*/bin/python3 /opt/*/.venv/bin/python3 \
        /opt/*/venv/bin/python3 "$HOME"/.pyenv/versions/*/bin/python /root/*/bin/python3 /root/*/.venv/bin/python3 \
        ${conda_base:+"$conda_base"/bin/python "$conda_base"/envs/*/bin/python} /opt/conda/bin/python \
        /opt/conda/envs/*/bin/python "$HOME"/miniconda3/bin/python "$HOME"/anaconda3/bin/python; do
        [ -x "$c" ] && candidates="$candidates $c"
    done
    for c in $candidates; do
        if has_torch "$c"; then torch_python=$c; break; fi
    done
fi

find_json_include() {
    if [ -n "$json_include" ]; then
        if [ -f "$json_include/nlohmann/json.hpp" ]; then echo "$json_include"; return 0; fi
        echo "device-check: --json-include/PROBE_JSON_INCLUDE '$json_include' has no nlohmann/json.hpp" >&2
        return 1
    fi
    for d in /usr/include /usr/local/include "$root/.probe-include"; do
        if [ -f "$d/nlohmann/json.hpp" ]; then echo "$d"; return 0; fi
    done
    if [ -f build/share/gpuplanner/probe-source.tar.gz ]; then echo "tarball:build/share/gpuplanner/probe-source.tar.gz"; return 0; fi
    return 1
}
json_found=$(find_json_include) || json_found=""

# The probe's architectures, read from cuda_probe/CMakeLists.txt so they are written once: from the line with
# "VERSION_GREATER_EQUAL 13" to the next endif(), the first set(NAME "NN-real;...") is CUDA 13's default, the
# second the older toolkits'.
arch_lines=$(sed -n '/VERSION_GREATER_EQUAL 13/,/^endif()/s/.*set([A-Za-z_]* "\([0-9][0-9a-z;-]*\)".*/\1/p' cuda_probe/CMakeLists.txt)
archs13=$(printf '%s\n' "$arch_lines" | sed -n 1p)
archs_old=$(printf '%s\n' "$arch_lines" | sed -n 2p)
if [ -z "$archs13" ] || [ -z "$archs_old" ]; then
    echo "device-check: could not read PROBE_CUDA_ARCHITECTURES from cuda_probe/CMakeLists.txt (the sed pattern in $0 needs updating)" >&2
    exit 1
fi
if [ -n "${DEVICE_CHECK_ARCHS:-}" ]; then archs13=$DEVICE_CHECK_ARCHS; archs_old=$DEVICE_CHECK_ARCHS; fi
# "75-real" -> sm_75 only; "90" -> sm_90 + compute_90 PTX; "90a-real" -> sm_90a; "NN-virtual" -> PTX only.
gencode_flags() {
    local IFS=';' a n
    for a in $1; do
        n=${a%%-*}
        case "$a" in
        *-real) printf ' -gencode=arch=compute_%s,code=sm_%s' "$n" "$n" ;;
        *-virtual) printf ' -gencode=arch=compute_%s,code=compute_%s' "$n" "$n" ;;
        *) printf ' -gencode=arch=compute_%s,code=[sm_%s,compute_%s]' "$n" "$n" "$n" ;;
        esac
    done
}
arch_names() {
    local IFS=';' a n names=""
    for a in $1; do
        n=${a%%-*}
        case "$a" in
        *-real) names="$names,sm_$n" ;;
        *-virtual) names="$names,compute_$n" ;;
        *) names="$names,sm_$n,compute_$n" ;;
        esac
    done
    echo "${names#,}"
}

# --- bookkeeping -----------------------------------------------------------------------------------------
work=""
steps_file=""
log=""
failures=0
if [ "$dry_run" -eq 0 ]; then
    mkdir -p "$out_dir"
    out_dir=$(cd "$out_dir" && pwd)
    work=$(mktemp -d "${TMPDIR:-/tmp}/device-check.XXXXXX")
    steps_file=$work/steps.tsv
    : >"$steps_file"
    log=$out_dir/device-check.log
    : >"$log"
    rm -f "$out_dir"/probe-*.json "$out_dir"/device-check.json
    exec > >(tee -a "$log") 2>&1
    tee_pid=$!
    # Wait for tee on the way out, so the last lines reach the console and the log before the caller collects them.
    trap 'exec >&- 2>&-; wait "$tee_pid" 2>/dev/null || true' EXIT
else
    work="<tmp>/device-check.XXXXXX"
    steps_file="$work/steps.tsv"
fi

record() { # name status seconds detail
    [ "$dry_run" -eq 1 ] && return 0
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$(printf '%s' "$4" | tr '\t\n' '  ')" >>"$steps_file"
    if [ "$2" = failed ]; then failures=$((failures + 1)); fi
}
with_timeout() { # seconds command... (0 seconds: no limit, and the command may be a shell function)
    local t=$1
    shift
    if [ -n "$timeout_bin" ] && [ "$t" -gt 0 ]; then "$timeout_bin" --kill-after=15 "$t" "$@"; else "$@"; fi
}
last_seconds=""
# run_step NAME TIMEOUT STDOUT COMMAND...: times it. STDOUT: a file (stderr then goes to the log), "-" (both to
# the console and the log), or "" (both to the log only). A failure shows the end of the step's own output.
run_step() {
    local name=$1 limit=$2 to=$3 rc=0 t0 t1
    shift 3
    if [ "$dry_run" -eq 1 ]; then
        plan "step $name (timeout ${limit}s): $*$([ -n "$to" ] && [ "$to" != - ] && echo " > $to")"
        return 0
    fi
    say "step $name: $*"
    local own=$work/step-$name.txt
    : >"$own"
    t0=$(date +%s.%N)
    if [ "$to" = - ]; then
        with_timeout "$limit" "$@" || rc=$?
    elif [ -n "$to" ]; then
        with_timeout "$limit" "$@" >"$to" 2>"$own" || rc=$?
    else
        with_timeout "$limit" "$@" >"$own" 2>&1 || rc=$?
    fi
    t1=$(date +%s.%N)
    cat "$own" >>"$log"
    last_seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    if [ "$rc" -eq 0 ]; then
        say "step $name: ok in ${last_seconds}s"
        record "$name" ok "$last_seconds" ""
    else
        local why="exit status $rc"
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then why="timed out after ${limit}s (exit $rc)"; fi
        say "FAILED: step $name: $why, after ${last_seconds}s; command: $*; log: $log"
        tail -n 12 "$own" | sed 's/^/    /'
        if [ -n "$to" ] && [ "$to" != - ] && [ -s "$to" ]; then
            say "  $to holds: $(tr -d '\n' <"$to" | sed -n 's/.*"error": *{\([^}]*\)}.*/error {\1}/p' | tr -s ' ' | cut -c1-300)"
        fi
        record "$name" failed "$last_seconds" "$why"
    fi
    return "$rc"
}
skip() { # name reason
    if [ "$dry_run" -eq 1 ]; then plan "step $1: skipped: $2"; else say "step $1: skipped: $2"; record "$1" skipped "" "$2"; fi
}

# --- the plan's header -------------------------------------------------------------------------------------
say "repository $root; output ${out_dir}; work dir $work"
say "nvcc (CUDA 13): ${nvcc13:-not found} ${nvcc13_release:+(release $nvcc13_release)}"
say "nvcc (CUDA 11.8): ${nvcc11:-not found}; g++-11: ${host11:-not found}"
say "cmake: ${cmake_bin:-not used (not found, or --no-cmake): building with nvcc directly}; timeout: ${timeout_bin:-not found}; cores: $jobs"
say "nlohmann/json.hpp: ${json_found:-not found (use --json-include DIR or PROBE_JSON_INCLUDE)}"
say "python3 for the schema check and the summary: ${python:-not found}"
say "architectures from cuda_probe/CMakeLists.txt: CUDA 13 '$archs13', CUDA 11.8 '$archs_old'"
if command -v nvidia-smi >/dev/null 2>&1; then
    if [ "$dry_run" -eq 1 ]; then plan "nvidia-smi found: would log the GPU, driver, clocks and power before the runs"; else
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv || true
    fi
else
    say "nvidia-smi: not found"
fi

# The reference this run will use.
reference=none
case "$reference_kind" in
auto) if [ -n "$torch_python" ]; then reference=torch; elif [ -n "$nvcc13" ]; then reference=cublas; fi ;;
torch) [ -n "$torch_python" ] && reference=torch ;;
cublas) [ -n "$nvcc13" ] && reference=cublas ;;
esac
case "$reference" in
torch) say "reference: PyTorch through $torch_python (tests/gpu/reference.py); cuBLASLt (tests/gpu/cublas_reference.cu) if it fails" ;;
cublas) say "reference: cuBLASLt (tests/gpu/cublas_reference.cu, built with $nvcc13 against the toolkit's libcublasLt); PyTorch not found" ;;
none) say "reference: none (asked for '$reference_kind'; PyTorch: ${torch_python:-not found}; nvcc: ${nvcc13:-not found})" ;;
esac

# --- 1. builds -------------------------------------------------------------------------------------------
json_dir=""
resolve_json() {
    case "$json_found" in
    "") return 1 ;;
    tarball:*)
        if [ "$dry_run" -eq 1 ]; then json_dir="$work/json-include (nlohmann/ from ${json_found#tarball:})"; return 0; fi
        mkdir -p "$work/json-include"
        tar -xzf "${json_found#tarball:}" -C "$work/json-include" ./nlohmann 2>>"$log" || tar -xzf "${json_found#tarball:}" -C "$work/json-include" nlohmann 2>>"$log" || return 1
        json_dir=$work/json-include ;;
    *) json_dir=$json_found ;;
    esac
}
# -I for the json folder unless it is a system folder (an explicit -I/usr/include reorders the system headers).
# -isystem: the probe's -Werror must not trip over a warning inside nlohmann.
json_flag() { case "$json_dir" in /usr/include | /usr/local/include) ;; *) printf '%s' "-isystem $json_dir" ;; esac; }

# build_probe NAME NVCC ARCHS OUTPUT [HOST_CXX] [CLEAN_PATH]
build_probe() {
    local name=$1 nvcc=$2 archs=$3 output=$4 host=${5:-} clean=${6:-} dir rc=0 pids="" f o objs=""
    local gencode names jflag
    gencode=$(gencode_flags "$archs")
    names=$(arch_names "$archs")
    jflag=$(json_flag)
    dir=$work/$name
    local envp=()
    [ -n "$clean" ] && envp=(env -i PATH="$clean" HOME="${HOME:-/root}")
    if [ -n "$cmake_bin" ]; then
        local cm=("${envp[@]}" "$cmake_bin" -S cuda_probe -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$nvcc"
            "-DCMAKE_CUDA_FLAGS=--threads 0 $jflag" "-DCMAKE_CXX_FLAGS=$jflag")
        # CMakeLists.txt picks the architectures by toolkit version itself; only the test override is passed.
        [ -n "${DEVICE_CHECK_ARCHS:-}" ] && cm+=("-DPROBE_CUDA_ARCHITECTURES=$archs")
        [ -n "$host" ] && cm+=("-DCMAKE_CUDA_HOST_COMPILER=$host" "-DCMAKE_CXX_COMPILER=$host")
        local bd=("${envp[@]}" "$cmake_bin" --build "$dir" -j"$jobs")
        if [ "$dry_run" -eq 1 ]; then
            plan "step $name (cmake): ${cm[*]} && ${bd[*]} && cp $dir/gpuplan-probe $output"
            plan "    if that fails: step $name-nvcc, nvcc directly as below (the cmake failure still fails the check)"
        else
            cmake_build() { "${cm[@]}" && "${bd[@]}" && cp "$dir/gpuplan-probe" "$output"; }
            say "step $name: ${cm[*]} && ${bd[*]}"
            if run_step "$name" 0 "" cmake_build; then return 0; fi
            # The measurements are what the GPU time is for: a probe built without cmake still gets them.
            say "step $name: the cmake build failed; building with nvcc directly so the runs can go on"
        fi
        name=$name-nvcc
        dir=$dir-nvcc
    fi
    # No cmake: the sources compiled in parallel, one nvcc each, then linked, with cuda_probe/CMakeLists.txt's flags.
    local common=(-std=c++17 -O3 --threads 0 -Icuda_probe)
    # shellcheck disable=SC2206 # both are lists of words without spaces
    common+=($jflag $gencode "-DPROBE_ARCHITECTURES=\"$names\"")
    [ -n "$host" ] && common+=(-ccbin "$host")
    if [ "$dry_run" -eq 1 ]; then
        plan "step $name (nvcc, $jobs at a time): for each cuda_probe/*.cu *.cpp: ${envp[*]} $nvcc ${common[*]} -c SRC -o $dir/SRC.o;"
        plan "    then ${envp[*]} $nvcc ${host:+-ccbin $host }$gencode $dir/*.o -o $output -Xcompiler -static-libstdc++ -ldl -lpthread"
        return 0
    fi
    mkdir -p "$dir"
    local t0 t1
    t0=$(date +%s.%N)
    say "step $name: nvcc ${common[*]} (each of cuda_probe/*.cu *.cpp), then link"
    for f in cuda_probe/*.cu cuda_probe/*.cpp; do
        o=$dir/$(basename "$f").o
        objs="$objs $o"
        ( "${envp[@]}" "$nvcc" "${common[@]}" -c "$f" -o "$o" >"$o.log" 2>&1 || { echo "compile of $f failed:"; cat "$o.log"; exit 1; } ) &
        pids="$pids $!"
    done
    for p in $pids; do wait "$p" || rc=1; done
    cat "$dir"/*.o.log >>"$log" 2>/dev/null || true
    if [ "$rc" -eq 0 ]; then
        # shellcheck disable=SC2086
        "${envp[@]}" "$nvcc" ${host:+-ccbin "$host"} $gencode $objs -o "$output" -Xcompiler -static-libstdc++ -ldl -lpthread >>"$log" 2>&1 || rc=$?
    fi
    t1=$(date +%s.%N)
    last_seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    if [ "$rc" -eq 0 ]; then
        say "step $name: ok in ${last_seconds}s -> $output"
        record "$name" ok "$last_seconds" ""
    else
        say "FAILED: step $name: nvcc compile or link failed (sources cuda_probe/, objects $dir, log $log)"
        tail -n 30 "$log"
        record "$name" failed "$last_seconds" "nvcc compile or link failed; see device-check.log"
    fi
    return "$rc"
}

bin13=""
if [ -n "$probe13" ]; then
    if [ -x "$probe13" ]; then bin13=$probe13; skip build-cuda13 "using --probe $probe13"; else
        say "FAILED: --probe $probe13 is not an executable file"; record build-cuda13 failed "" "--probe $probe13 is not executable"; fi
elif [ -z "$nvcc13" ]; then
    [ "$dry_run" -eq 1 ] && plan "step build-cuda13: CANNOT RUN: no nvcc (/usr/local/cuda/bin/nvcc or on PATH)"
    say "FAILED: build-cuda13: no nvcc at /usr/local/cuda/bin/nvcc or on PATH"; record build-cuda13 failed "" "no nvcc"
elif ! resolve_json; then
    [ "$dry_run" -eq 1 ] && plan "step build-cuda13: CANNOT RUN: nlohmann/json.hpp not found (--json-include DIR)"
    say "FAILED: build-cuda13: nlohmann/json.hpp not found in --json-include/PROBE_JSON_INCLUDE, /usr/include, /usr/local/include, ./.probe-include or build/share/gpuplanner/probe-source.tar.gz"
    record build-cuda13 failed "" "nlohmann/json.hpp not found"
else
    case "$nvcc13_release" in 1[3-9]* | [2-9][0-9]*) a13=$archs13 ;; *) say "warning: $nvcc13 is release '$nvcc13_release', not 13: using the older toolkits' architectures"; a13=$archs_old ;; esac
    if build_probe build-cuda13 "$nvcc13" "$a13" "$work/gpuplan-probe"; then bin13=$work/gpuplan-probe; fi
fi
# A dry run plans the runs even when the build could not run here, so the plan is complete.
if [ "$dry_run" -eq 1 ] && [ -z "$bin13" ]; then bin13="$work/gpuplan-probe"; fi

bin11=""
if [ -n "$probe11" ]; then
    if [ -x "$probe11" ]; then bin11=$probe11; skip build-cuda11 "using --probe-cuda11 $probe11"; else
        say "FAILED: --probe-cuda11 $probe11 is not an executable file"; record build-cuda11 failed "" "--probe-cuda11 $probe11 is not executable"; fi
elif [ "$do_cuda11" -eq 0 ]; then
    skip build-cuda11 "--no-cuda11"
elif [ -z "$nvcc11" ]; then
    skip build-cuda11 "no CUDA 11.8 toolkit (/usr/local/cuda-11.8/bin/nvcc or /usr/bin/nvcc 11.8)"
elif ! resolve_json; then
    skip build-cuda11 "nlohmann/json.hpp not found"
else
    # Like cuda_probe/build-cuda11.sh: a clean PATH, so CUDA 13's ptxas cannot leak into the 11.8 build.
    clean=/usr/sbin:/usr/bin:/sbin:/bin
    case "$nvcc11" in /usr/local/*) clean="$(dirname "$nvcc11"):$clean" ;; esac
    if build_probe build-cuda11 "$nvcc11" "$archs_old" "$work/gpuplan-probe-cuda11.8" "$host11" "$clean"; then
        bin11=$work/gpuplan-probe-cuda11.8
    fi
fi

cublas_bin=""
build_cublas_reference() {
    local cmd=("$nvcc13" -std=c++17 -O2 -arch=native tests/gpu/cublas_reference.cu -lcublasLt -o "$work/cublas_reference")
    run_step build-reference 300 "" "${cmd[@]}" && cublas_bin=$work/cublas_reference
}
if [ "$reference" = cublas ]; then
    build_cublas_reference || true
elif [ "$reference" = torch ] && [ "$dry_run" -eq 1 ]; then
    plan "step build-reference: only if PyTorch fails: $nvcc13 -std=c++17 -O2 -arch=native tests/gpu/cublas_reference.cu -lcublasLt -o $work/cublas_reference"
fi

# --- 2. probe runs and schema checks -----------------------------------------------------------------------
check_schema() { # name file
    if [ -z "$python" ] && [ "$dry_run" -eq 0 ]; then skip "schema-$1" "no python3"; return 0; fi
    if [ "$dry_run" -eq 0 ] && [ ! -s "$2" ]; then skip "schema-$1" "no document (the run printed nothing)"; return 0; fi
    run_step "schema-$1" 60 - "${python:-python3}" tests/gpu/validate_schema.py "$schema" "$2" || true
}
run_probe() { # name binary limit file args... (env assignments allowed first in args via env)
    local name=$1 bin=$2 limit=$3 file=$4
    shift 4
    if [ -z "$bin" ]; then skip "run-$name" "no probe binary (its build failed or was skipped)"; skip "schema-${name}" "no probe binary"; return 0; fi
    run_step "run-$name" "$limit" "$file" "$@" || true
    check_schema "$name" "$file"
}
run_probe quick "$bin13" 60 "$out_dir/probe-quick.json" "$bin13" --quick
run_probe full "$bin13" 200 "$out_dir/probe-full.json" "$bin13"

# --- 3. the independent reference, right after the full run (same GPU, same thermal state, before the burn) --
reference_json=$work/reference.json
if [ "$reference" = torch ]; then
    if ! run_step reference 300 "$reference_json" "$torch_python" tests/gpu/reference.py; then
        say "PyTorch reference failed (see the log); falling back to cuBLASLt"
        if [ -n "$nvcc13" ] && build_cublas_reference; then
            run_step reference-cublas 300 "$reference_json" "$cublas_bin" || true
        fi
    fi
elif [ "$reference" = cublas ]; then
    if [ -n "$cublas_bin" ] || [ "$dry_run" -eq 1 ]; then
        run_step reference 300 "$reference_json" "${cublas_bin:-$work/cublas_reference}" || true
    else
        skip reference "the cuBLASLt reference did not build"
    fi
elif [ "$reference_kind" = none ]; then
    skip reference "--reference none"
else
    skip reference "asked for '$reference_kind' but found neither PyTorch nor nvcc for it"
fi
if [ "$dry_run" -eq 0 ] && [ -s "$reference_json" ]; then cat "$reference_json"; fi

if [ -n "$bin11" ]; then
    # The 11.8 build's PTX (compute_90) compiled by the driver, as on a GPU newer than the build knows.
    run_probe cuda11-ptx "$bin11" 240 "$out_dir/probe-cuda11-ptx-quick.json" env CUDA_FORCE_PTX_JIT=1 "$bin11" --quick
else
    skip run-cuda11-ptx "no CUDA 11.8 probe (no CUDA 11.8 toolkit, or its build failed)"
fi

if [ "$do_burn" -eq 1 ]; then
    # --quick keeps the measurements before the burn short: the full run's figures are above.
    run_probe burn "$bin13" $((burn_seconds + 150)) "$out_dir/probe-burn.json" "$bin13" --quick --burn "$burn_seconds"
else
    skip run-burn "--no-burn"
fi

# --- 4. the table ------------------------------------------------------------------------------------------
summarize=("$python" tests/gpu/summarize.py --out "$out_dir" --steps "$steps_file" --catalog resources/catalog/gpus.json
    --quick "$out_dir/probe-quick.json" --full "$out_dir/probe-full.json" --burn "$out_dir/probe-burn.json"
    --ptx "$out_dir/probe-cuda11-ptx-quick.json" --reference "$reference_json" ${date_override:+--date "$date_override"})
if [ "$dry_run" -eq 1 ]; then
    plan "step summary: ${summarize[*]}"
    plan "    prints: figure | probe | reference | ratio | datasheet peak | goal | met; writes $out_dir/device-check.json, appends $out_dir/device-check.md"
    plan "dry run: nothing was built or run"
    exit 0
fi
if [ -n "$python" ]; then
    "${summarize[@]}" || { say "FAILED: tests/gpu/summarize.py (see above)"; failures=$((failures + 1)); }
else
    say "FAILED: no python3: no table; the documents are in $out_dir"
    failures=$((failures + 1))
fi
say "documents and summary in $out_dir; work dir (binaries, build trees) $work"
if [ "$failures" -gt 0 ]; then
    say "$failures step(s) FAILED: grep FAILED $log"
    exit 1
fi
say "every step ran; the table above says which goals were met"
