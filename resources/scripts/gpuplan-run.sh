#!/usr/bin/env bash
# GPU Planner's run helper: goes to the instance with each run (core/run/RunWorkflow.cpp uploads it into the run's
# folder) and runs its training job detached, so that the job survives a dropped connection and a closed laptop.
#
#   gpuplan-run.sh start DIR METHOD INTERVAL   start DIR/job.sh detached; METHOD: auto, systemd, tmux or nohup
#   gpuplan-run.sh poll DIR LOG_OFFSET SAMPLES_OFFSET MAX_BYTES
#                                              the job's state, and what its log and samples gained since the offsets
#   gpuplan-run.sh stop DIR GRACE              SIGINT to the job, SIGTERM after GRACE s, SIGKILL after 2 x GRACE s
#   gpuplan-run.sh files DIR PATH...           the regular files under each PATH (relative to the job's workdir):
#                                              "SIZE<TAB>PATH" a line
#   gpuplan-run.sh tensorboard DIR LOGDIR PORT TensorBoard on 127.0.0.1:PORT over LOGDIR, started when not running
#   gpuplan-run.sh job DIR INTERVAL            (internal) the job itself, under the chosen supervisor
#   gpuplan-run.sh sample DIR INTERVAL         (internal) the GPU and CPU sampler
#
# A run's folder DIR holds job.sh (written by GPU Planner), workdir (the path of the synced working directory),
# output.log (everything the job prints), samples.csv, pid (the job's process group), method, started, and, once the
# job has ended, exit-code and ended. A spot run's folder also holds gpuplan-watch.sh and watch.conf (its interruption
# watcher, started beside the job), and what the watcher writes: notice, syncs.csv, watch.log. Nothing here needs
# root.
#
# samples.csv, a line per reading (see core/include/gpuplan/run/Monitor.h):
#   gpu,UNIX,INDEX,UTIL,MEM_USED_MIB,MEM_TOTAL_MIB,POWER_W,TEMP_C,SM_CLOCK_MHZ,THROTTLE_HEX
#   cpu,UNIX,BUSY_PERCENT,CORES
#   pcie,UNIX,INDEX,RX_MBS,TX_MBS
set -u

die() {
    echo "gpuplan-run: $*" >&2
    exit 2
}

alive() { # PID
    [ -n "$1" ] && kill -0 "$1" 2>/dev/null
}

# The process group of the job, when it still runs.
job_pid() { # DIR
    local pid
    pid=$(cat "$1/pid" 2>/dev/null) || return 1
    alive "$pid" && echo "$pid"
}

cmd_start() { # DIR METHOD INTERVAL
    local dir=$1 method=$2 interval=$3 self
    [ -f "$dir/job.sh" ] || die "no job.sh in $dir"
    [ ! -e "$dir/started" ] || die "the run in $dir has already started"
    self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
    local unit
    unit="gpuplan-$(basename "$dir")"
    if [ "$method" = auto ]; then
        # systemd when it runs this machine and keeps our units after we log out (root, or a user with linger), then
        # tmux, then a new session of nohup's.
        if [ -d /run/systemd/system ] && command -v systemd-run >/dev/null \
            && { [ "$(id -u)" = 0 ] || [ -e "/var/lib/systemd/linger/$(id -un)" ]; }; then
            method=systemd
        elif command -v tmux >/dev/null; then
            method=tmux
        else
            method=nohup
        fi
    fi
    echo "$method" >"$dir/method"
    date +%s >"$dir/started"
    case $method in
        systemd)
            local user=()
            [ "$(id -u)" = 0 ] || user=(--user)
            systemd-run "${user[@]}" --quiet --collect --unit "$unit" bash "$self" job "$dir" "$interval" \
                >>"$dir/supervisor.log" 2>&1 || die "systemd-run could not start the job (see $dir/supervisor.log)"
            ;;
        tmux)
            tmux new-session -d -s "$unit" "bash '$self' job '$dir' '$interval'" >>"$dir/supervisor.log" 2>&1 \
                || die "tmux could not start the job (see $dir/supervisor.log)"
            ;;
        nohup)
            # Job control on, so that the background job keeps SIGINT (stop sends it) instead of ignoring it.
            set -m
            setsid nohup bash "$self" job "$dir" "$interval" </dev/null >>"$dir/supervisor.log" 2>&1 &
            ;;
        *) die "unknown method $method" ;;
    esac
    # The job writes its pid at once: wait for it, so that a poll right after start sees the job running.
    local waited=0
    while [ ! -s "$dir/pid" ] && [ ! -e "$dir/exit-code" ] && [ $waited -lt 100 ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    [ -s "$dir/pid" ] || [ -e "$dir/exit-code" ] || die "the job did not start under $method (see $dir/supervisor.log)"
    echo "method=$method"
}

cmd_job() { # DIR INTERVAL
    local dir=$1 interval=$2 code sampler
    # Job control: the job gets a process group of its own (stop signals it and all its children), and keeps SIGINT
    # (a non-interactive shell's background jobs would ignore it).
    set -m
    bash "$0" sample "$dir" "$interval" </dev/null >/dev/null 2>&1 &
    sampler=$!
    # A spot run's interruption watcher (gpuplan-watch.sh): a process group of its own, outliving the job until it has
    # pushed the last checkpoint.
    if [ -f "$dir/watch.conf" ] && [ -f "$dir/gpuplan-watch.sh" ]; then
        bash "$dir/gpuplan-watch.sh" "$dir" </dev/null >>"$dir/watch.out" 2>&1 &
    fi
    bash "$dir/job.sh" </dev/null >>"$dir/output.log" 2>&1 &
    local job=$!
    echo "$job" >"$dir/pid.tmp" && mv "$dir/pid.tmp" "$dir/pid"
    trap '' HUP
    while :; do
        wait "$job"
        code=$?
        alive "$job" || break
    done
    # How it ended first: a poll that finds the job gone looks for it.
    date +%s >"$dir/ended.tmp" && mv "$dir/ended.tmp" "$dir/ended"
    echo "$code" >"$dir/exit-code.tmp" && mv "$dir/exit-code.tmp" "$dir/exit-code"
    kill "$sampler" 2>/dev/null
}

# Reads /proc/stat's first line: "busy total" jiffies of all cores.
cpu_jiffies() {
    local _ user nice system idle iowait irq softirq steal
    read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
    echo "$((user + nice + system + irq + softirq + steal)) $((user + nice + system + idle + iowait + irq + softirq + steal))"
}

cmd_sample() { # DIR INTERVAL
    local dir=$1 interval=$2 out="$1/samples.csv" cores busy0 total0 busy1 total1 now dmon=""
    cores=$(nproc 2>/dev/null || echo 0)
    read -r busy0 total0 < <(cpu_jiffies)
    local fields=index,utilization.gpu,memory.used,memory.total,power.draw,temperature.gpu,clocks.sm
    local reasons=""
    if command -v nvidia-smi >/dev/null; then
        # The clocks' event reasons: renamed from clocks_throttle_reasons in driver 535; older drivers know the old name.
        for name in clocks_event_reasons.active clocks_throttle_reasons.active; do
            if nvidia-smi --query-gpu="$name" --format=csv,noheader >/dev/null 2>&1; then
                reasons=,$name
                break
            fi
        done
        # PCIe traffic per GPU (MB/s), where the driver has it: nvidia-smi dmon's rxpci and txpci columns.
        nvidia-smi dmon -s t -d "$interval" 2>/dev/null | {
            local g=0 r=0 t=0 i words
            while read -r -a words; do
                if [ "${words[0]:-}" = "#" ]; then
                    for ((i = 1; i < ${#words[@]}; i++)); do
                        case ${words[i]} in gpu) g=$i ;; rxpci) r=$i ;; txpci) t=$i ;; esac
                    done
                elif [ $r -gt 0 ] && [ $t -gt 0 ] && [ ${#words[@]} -ge $g ]; then
                    printf 'pcie,%(%s)T,%s,%s,%s\n' -1 "${words[g - 1]}" "${words[r - 1]}" "${words[t - 1]}"
                fi
            done
        } >>"$out" &
        dmon=$!
    fi
    trap '[ -n "$dmon" ] && kill $dmon 2>/dev/null; exit 0' TERM INT
    while :; do
        sleep "$interval" &
        wait $!
        now=$(date +%s)
        read -r busy1 total1 < <(cpu_jiffies)
        if [ "$total1" -gt "$total0" ]; then
            echo "cpu,$now,$(((busy1 - busy0) * 100 / (total1 - total0))),$cores" >>"$out"
        fi
        busy0=$busy1 total0=$total1
        if command -v nvidia-smi >/dev/null; then
            nvidia-smi --query-gpu="$fields$reasons" --format=csv,noheader,nounits 2>/dev/null | sed "s/^/gpu,$now,/" >>"$out"
        fi
    done
}

# A file's bytes from OFFSET, at most MAX, with a header "NAME OFFSET LENGTH".
section() { # NAME FILE OFFSET MAX
    local name=$1 file=$2 offset=$3 max=$4 size length
    size=$(stat -c %s "$file" 2>/dev/null || echo 0)
    [ "$offset" -le "$size" ] || offset=$size
    length=$((size - offset))
    [ "$length" -le "$max" ] || length=$max
    echo "$name $offset $length"
    [ "$length" -eq 0 ] || tail -c +"$((offset + 1))" "$file" | head -c "$length"
    echo
}

cmd_poll() { # DIR LOG_OFFSET SAMPLES_OFFSET MAX_BYTES
    local dir=$1 state exit=- pid
    [ -d "$dir" ] || die "no run in $dir"
    if [ -e "$dir/exit-code" ]; then
        state=exited
    elif pid=$(job_pid "$dir"); then
        state=running
    elif [ ! -e "$dir/started" ]; then
        state=starting
    else
        # The job has just ended and its supervisor is writing exit-code, or the supervisor is gone (the machine
        # restarted, or it was killed): give it two seconds to say which.
        local waited=0
        while [ ! -e "$dir/exit-code" ] && [ $waited -lt 20 ]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        state=lost
        [ ! -e "$dir/exit-code" ] || state=exited
    fi
    [ "$state" != exited ] || exit=$(cat "$dir/exit-code")
    echo "gpuplan-run/1"
    echo "state $state"
    echo "exit $exit"
    echo "method $(cat "$dir/method" 2>/dev/null || echo -)"
    echo "now $(date +%s)"
    echo "stop_requested $([ -e "$dir/stop-requested" ] && echo yes || echo no)"
    # A spot run's watcher: its notice ("KEY VALUE" lines) and its checkpoint syncs (syncs.csv:
    # START,END,REASON,ok|failed,FILES).
    if [ -s "$dir/notice" ]; then
        sed -n 's/^\(provider\|kind\|action\|seen\|deadline\) \(.*\)$/notice.\1 \2/p' "$dir/notice"
    fi
    if [ -s "$dir/syncs.csv" ]; then
        awk -F, '$4 == "ok" { ok++; if ($2 > last) last = $2 } $4 == "failed" { failed++ }
            END { printf "checkpoint_synced %s\ncheckpoint_syncs %d\ncheckpoint_syncs_failed %d\n",
                  (ok ? last : "-"), ok, failed }' "$dir/syncs.csv"
    fi
    section log "$dir/output.log" "$2" "$4"
    section samples "$dir/samples.csv" "$3" "$4"
    echo "end"
}

cmd_stop() { # DIR GRACE
    local dir=$1 grace=$2 pid waited
    pid=$(job_pid "$dir") || { echo "stopped=not_running"; return 0; }
    date +%s >"$dir/stop-requested"
    for signal in INT TERM KILL; do
        kill -s "$signal" -- "-$pid" 2>/dev/null
        waited=0
        while alive "$pid" && [ $waited -lt $((grace * 10)) ]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        if ! alive "$pid"; then
            echo "stopped=$signal"
            return 0
        fi
    done
    echo "stopped=failed"
    return 1
}

cmd_files() { # DIR PATH...
    local dir=$1 workdir
    shift
    workdir=$(cat "$dir/workdir" 2>/dev/null) || die "no workdir recorded in $dir"
    cd "$workdir" || die "cannot enter $workdir"
    for path in "$@"; do
        if [ -e "$path" ]; then
            find "$path" -type f -printf '%s\t%p\n'
        else
            printf 'missing\t%s\n' "$path"
        fi
    done
}

cmd_tensorboard() { # DIR LOGDIR PORT
    local dir=$1 logdir=$2 port=$3 workdir pid
    if pid=$(cat "$dir/tensorboard.pid" 2>/dev/null) && alive "$pid"; then
        echo "tensorboard=running"
        return 0
    fi
    workdir=$(cat "$dir/workdir" 2>/dev/null) || die "no workdir recorded in $dir"
    cd "$workdir" || die "cannot enter $workdir"
    local start=()
    if command -v tensorboard >/dev/null; then
        start=(tensorboard)
    elif python3 -c 'import tensorboard' 2>/dev/null; then
        start=(python3 -m tensorboard.main)
    else
        echo "tensorboard=missing"
        return 3
    fi
    setsid nohup "${start[@]}" --logdir "$logdir" --host 127.0.0.1 --port "$port" </dev/null \
        >>"$dir/tensorboard.log" 2>&1 &
    echo $! >"$dir/tensorboard.pid"
    echo "tensorboard=started"
}

command=${1:-}
[ $# -gt 0 ] && shift
case $command in
    start) [ $# -eq 3 ] || die "usage: start DIR METHOD INTERVAL"; cmd_start "$@" ;;
    job) cmd_job "$@" ;;
    sample) cmd_sample "$@" ;;
    poll) [ $# -eq 4 ] || die "usage: poll DIR LOG_OFFSET SAMPLES_OFFSET MAX_BYTES"; cmd_poll "$@" ;;
    stop) [ $# -eq 2 ] || die "usage: stop DIR GRACE"; cmd_stop "$@" ;;
    files) [ $# -ge 2 ] || die "usage: files DIR PATH..."; cmd_files "$@" ;;
    tensorboard) [ $# -eq 3 ] || die "usage: tensorboard DIR LOGDIR PORT"; cmd_tensorboard "$@" ;;
    *) die "unknown command '$command' (start, poll, stop, files, tensorboard)" ;;
esac
