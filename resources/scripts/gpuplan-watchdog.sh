#!/usr/bin/env bash
# Dead-man switch and idle watchdog for a cloud GPU instance that GPU Planner launched, so that a forgotten
# instance never burns money. GPU Planner puts this script in the instance's cloud-init user-data; cloud-init
# runs it once, as root, at first boot. Run without an argument it installs itself and leaves the watchdog
# running after cloud-init finishes; `run` is the watchdog itself. When a rule fires it shuts the machine
# down. What that means depends on the provider, and GPU Planner says which (GPUPLAN_SHUTDOWN_MEANS): on EC2 the
# instance is launched with "terminate on shutdown", so shutting down TERMINATES it and deletes its root disk;
# on CVM it stops the instance. When the shutdown hangs (a wedged driver can block it) or fails, the machine is
# powered off by force (GPUPLAN_FORCE_POWEROFF) GPUPLAN_FORCE_AFTER_SECONDS later.
#
# Usage: gpuplan-watchdog [install|run|--help]
#   (none), install  copy this script to $GPUPLAN_WATCHDOG_PREFIX/usr/local/sbin/gpuplan-watchdog and start it
#                    as the systemd service gpuplan-watchdog.service (without systemd: nohup in the background)
#   run              the watchdog loop
#
# Rules (GPU Planner fills in the defaults below; a variable set in the environment overrides its default):
#   GPUPLAN_DEADMAN_HOURS   shut down this many hours after the watchdog started, whatever the GPUs do; 0 = off,
#                           at most 8760 (a year)
#   GPUPLAN_IDLE_MINUTES    shut down after this many consecutive minutes in which every GPU's utilisation stayed
#                           below GPUPLAN_IDLE_PERCENT; 0 = off, at most 10080 (a week)
#   GPUPLAN_IDLE_PERCENT    what "idle" means, in percent utilisation (1-100; default 5)
#   GPUPLAN_CHECK_SECONDS   how often the GPUs are polled, in seconds (1-86400; default 60)
#   GPUPLAN_IDLE_GRACE_MINUTES  idle time is not counted in the first this many minutes after the start, while
#                           the user sets the machine up (0-1440; default 30)
#   GPUPLAN_SHUTDOWN_MEANS  "terminate" or "stop": what shutting down does to this instance, said in the log
# A poll is idle only when every GPU is below GPUPLAN_IDLE_PERCENT AND nobody is logged in over SSH (an
# established connection to port GPUPLAN_SSH_PORT, default 22) AND the CPUs are below GPUPLAN_IDLE_CPU_PERCENT
# busy (default 20) AND the network moves less than GPUPLAN_IDLE_NET_KBPS kB/s (default 100): a user editing
# code, a data-loading step or a dataset download is work, not idleness.
# The numbers are whole numbers within those bounds (the same as GPU Planner's, core/.../WatchdogScript.h). A rule
# is never dropped for a bad value, since a machine left unwatched bills until someone notices: a number out of
# bounds is replaced by the nearest bound, anything else (a word, a sign, a fraction) by the default above, and
# the replacement is logged (stderr and the log) naming the variable.
# A poll in which nvidia-smi fails, hangs or prints anything but one utilisation figure per GPU counts as
# busy: the watchdog never shuts a machine down because it could not read it. The reason is logged.
# Idle time is measured from the first of a run of idle polls, so a single busy poll starts it again.
#
# Environment for the machinery and for tests (tests/integration/watchdog-script.sh):
#   GPUPLAN_STARTED_AT      epoch seconds the dead-man switch counts from (default: when `run` starts); the
#                           installer writes it into the service so a restart or a reboot does not reset it
#   GPUPLAN_WATCHDOG_LOG    log file (default /var/log/gpuplan-watchdog.log); every line also goes to stdout
#   GPUPLAN_WATCHDOG_PREFIX root under which `install` writes its files (default: none, the real system); when
#                           set, `install` only writes the files and starts nothing
#   GPUPLAN_SHUTDOWN        command that shuts the machine down (default: shutdown -h now); it is given
#                           GPUPLAN_SHUTDOWN_TIMEOUT seconds (default 120) before it counts as hung
#   GPUPLAN_FORCE_POWEROFF  command that powers off at once (default: poweroff -f), run when the machine still
#                           runs GPUPLAN_FORCE_AFTER_SECONDS (10-3600; default 300) after the shutdown
#   GPUPLAN_PROC            where /proc is (default /proc): stat, net/dev, net/tcp and net/tcp6 are read
#   GPUPLAN_CLOCK           command that prints the time in epoch seconds (default: date +%s)
#   GPUPLAN_SLEEP           command that waits N seconds, given N (default: sleep)
#   GPUPLAN_MAX_POLLS       testing only: stop (exit 0) after this many polls without firing; 0 = never (default)
# The commands are split on blanks (no quoting). After the shutdown (and, when the machine did not go down, the
# forced power-off) `run` exits 0, or 1 when the power-off failed too (systemd then restarts the service, which
# tries again).
set -euo pipefail

# --- filled in by GPU Planner ---------------------------------------------------------------------------
: "${GPUPLAN_DEADMAN_HOURS:=12}"
: "${GPUPLAN_IDLE_MINUTES:=60}"
: "${GPUPLAN_IDLE_PERCENT:=5}"
: "${GPUPLAN_CHECK_SECONDS:=60}"
: "${GPUPLAN_IDLE_GRACE_MINUTES:=30}"
: "${GPUPLAN_SHUTDOWN_MEANS:=terminate}"
# ---------------------------------------------------------------------------------------------------------
: "${GPUPLAN_SSH_PORT:=22}"
: "${GPUPLAN_IDLE_CPU_PERCENT:=20}"
: "${GPUPLAN_IDLE_NET_KBPS:=100}"

: "${GPUPLAN_WATCHDOG_LOG:=/var/log/gpuplan-watchdog.log}"
: "${GPUPLAN_WATCHDOG_PREFIX:=}"
: "${GPUPLAN_SHUTDOWN:=shutdown -h now}"
: "${GPUPLAN_SHUTDOWN_TIMEOUT:=120}"
: "${GPUPLAN_FORCE_POWEROFF:=poweroff -f}"
: "${GPUPLAN_FORCE_AFTER_SECONDS:=300}"
: "${GPUPLAN_PROC:=/proc}"
: "${GPUPLAN_CLOCK:=date +%s}"
: "${GPUPLAN_SLEEP:=sleep}"
: "${GPUPLAN_MAX_POLLS:=0}"
: "${GPUPLAN_STARTED_AT:=}"

name=gpuplan-watchdog
nvidia_smi_timeout=30 # seconds; a wedged GPU can make nvidia-smi hang, and the dead-man switch must still fire
read -ra clock_cmd <<<"$GPUPLAN_CLOCK"
read -ra sleep_cmd <<<"$GPUPLAN_SLEEP"
read -ra shutdown_cmd <<<"$GPUPLAN_SHUTDOWN"
read -ra force_cmd <<<"$GPUPLAN_FORCE_POWEROFF"

log() {
    local line
    printf -v line '%(%Y-%m-%d %H:%M:%S)T %s: %s' -1 "$name" "$*"
    printf '%s\n' "$line"
    { printf '%s\n' "$line" >>"$GPUPLAN_WATCHDOG_LOG"; } 2>/dev/null || true
}

config_error() {
    echo "$name: $*" >&2
    { printf '%(%Y-%m-%d %H:%M:%S)T %s: %s\n' -1 "$name" "$*" >>"$GPUPLAN_WATCHDOG_LOG"; } 2>/dev/null || true
    exit 2
}

# check_number VARIABLE MIN MAX UNIT [NOTE]: the variable must hold a whole number of UNIT in [MIN, MAX];
# normalises it (leading zeros would otherwise read as octal).
check_number() {
    local var=$1 min=$2 max=$3 unit=$4 note=${5:+ ($5)} value=${!1}
    case "$value" in
        -*) config_error "$var must be a whole number of $unit$note, not negative: '$value'" ;;
        '' | *[!0-9]*) config_error "$var must be a whole number of $unit$note, not '$value'" ;;
    esac
    [ "${#value}" -le 12 ] || config_error "$var is too large: '$value' $unit"
    value=$((10#$value))
    if [ "$value" -lt "$min" ] || [ "$value" -gt "$max" ]; then
        config_error "$var must be between $min and $max $unit$note, not $value"
    fi
    printf -v "$var" '%d' "$value"
}

config_warning() {
    echo "$name: $*" >&2
    { printf '%(%Y-%m-%d %H:%M:%S)T %s: %s\n' -1 "$name" "$*" >>"$GPUPLAN_WATCHDOG_LOG"; } 2>/dev/null || true
}

# check_rule VARIABLE MIN MAX FALLBACK UNIT [NOTE]: like check_number, but a rule's bad value never stops the
# script (which would leave the machine unwatched): a whole number out of [MIN, MAX] becomes the nearest bound,
# anything else FALLBACK, with a warning naming the variable.
check_rule() {
    local var=$1 min=$2 max=$3 fallback=$4 unit=$5 note=${6:+ ($6)} value=${!1} use
    case "$value" in
        '' | *[!0-9]*) use=$fallback ;;
        *)
            if [ "${#value}" -gt 12 ] || [ "$((10#$value))" -gt "$max" ]; then
                use=$max
            elif [ "$((10#$value))" -lt "$min" ]; then
                use=$min
            else
                printf -v "$var" '%d' "$((10#$value))"
                return 0
            fi
            ;;
    esac
    config_warning "$var must be a whole number of $unit from $min to $max$note, not '$value'; using $use instead"
    printf -v "$var" '%d' "$use"
}

check_config() {
    # The bounds are core::kMaxDeadmanHours and its kin (WatchdogScript.h); TestWatchdogRules compares them.
    check_rule GPUPLAN_DEADMAN_HOURS 0 8760 12 hours "0 = off"
    check_rule GPUPLAN_IDLE_MINUTES 0 10080 60 minutes "0 = off"
    check_rule GPUPLAN_IDLE_PERCENT 1 100 5 percent
    check_rule GPUPLAN_CHECK_SECONDS 1 86400 60 seconds
    check_rule GPUPLAN_IDLE_GRACE_MINUTES 0 1440 30 minutes
    check_rule GPUPLAN_IDLE_CPU_PERCENT 1 100 20 percent
    check_rule GPUPLAN_IDLE_NET_KBPS 1 10000000 100 "kB/s"
    check_rule GPUPLAN_SSH_PORT 1 65535 22 "(a port)"
    check_rule GPUPLAN_FORCE_AFTER_SECONDS 10 3600 300 seconds
    check_rule GPUPLAN_SHUTDOWN_TIMEOUT 1 3600 120 seconds
    case "$GPUPLAN_SHUTDOWN_MEANS" in
        terminate | stop) ;;
        *)
            config_warning "GPUPLAN_SHUTDOWN_MEANS must be terminate or stop, not '$GPUPLAN_SHUTDOWN_MEANS'; using terminate"
            GPUPLAN_SHUTDOWN_MEANS=terminate
            ;;
    esac
    check_number GPUPLAN_MAX_POLLS 0 999999999 polls "0 = no limit"
    if [ -n "$GPUPLAN_STARTED_AT" ]; then
        check_number GPUPLAN_STARTED_AT 0 99999999999 "epoch seconds"
    fi
    [ "${#clock_cmd[@]}" -gt 0 ] || config_error "GPUPLAN_CLOCK is empty"
    [ "${#sleep_cmd[@]}" -gt 0 ] || config_error "GPUPLAN_SLEEP is empty"
    [ "${#shutdown_cmd[@]}" -gt 0 ] || config_error "GPUPLAN_SHUTDOWN is empty"
    [ "${#force_cmd[@]}" -gt 0 ] || config_error "GPUPLAN_FORCE_POWEROFF is empty"
}

rules_off() {
    [ "$GPUPLAN_DEADMAN_HOURS" -eq 0 ] && [ "$GPUPLAN_IDLE_MINUTES" -eq 0 ]
}

# now: sets $now from the clock command; fails (status 1) with $clock_error set when it prints no number.
now=0
clock_error=""
read_clock() {
    local out
    if ! out=$("${clock_cmd[@]}" 2>&1); then
        clock_error="the clock command '$GPUPLAN_CLOCK' failed: ${out:-no output}"
        return 1
    fi
    case "$out" in
        '' | *[!0-9]*) clock_error="the clock command '$GPUPLAN_CLOCK' printed '$out', not epoch seconds"; return 1 ;;
    esac
    now=$((10#$out))
}

# read_gpus: on success sets $gpu_max (highest utilisation) and $gpu_list ("90,3"); otherwise fails with
# $gpu_error saying why, and the poll counts as busy.
gpu_max=0
gpu_list=""
gpu_error=""
errfile=""
read_gpus() {
    local out status=0 line count=0 value
    local -a query=(nvidia-smi --query-gpu=utilization.gpu "--format=csv,noheader,nounits")
    if command -v timeout >/dev/null 2>&1; then
        query=(timeout "$nvidia_smi_timeout" "${query[@]}")
    fi
    out=$("${query[@]}" 2>"$errfile") || status=$?
    if [ "$status" -ne 0 ]; then
        local err
        err=$(head -c 300 "$errfile" | tr '\n' ' ')
        [ -n "$err" ] || err=$(printf '%s' "$out" | head -c 300 | tr '\n' ' ')
        case "$status" in
            124) gpu_error="nvidia-smi did not answer within ${nvidia_smi_timeout} s" ;;
            127) gpu_error="nvidia-smi is not installed (not found on PATH)" ;;
            *) gpu_error="nvidia-smi failed with exit status $status${err:+: $err}" ;;
        esac
        return 1
    fi
    gpu_max=0
    gpu_list=""
    while IFS= read -r line || [ -n "$line" ]; do
        line=${line//[[:space:]]/}
        [ -n "$line" ] || continue
        case "$line" in
            *[!0-9]*)
                gpu_error="nvidia-smi printed '$line' where a utilisation figure belongs"
                return 1
                ;;
        esac
        if [ "${#line}" -gt 3 ] || [ "$((10#$line))" -gt 100 ]; then
            gpu_error="nvidia-smi printed '$line', not a utilisation in percent"
            return 1
        fi
        value=$((10#$line))
        [ "$value" -le "$gpu_max" ] || gpu_max=$value
        gpu_list+="${gpu_list:+,}$value"
        count=$((count + 1))
    done <<<"$out"
    if [ "$count" -eq 0 ]; then
        gpu_error="nvidia-smi printed no GPU utilisation"
        return 1
    fi
}

# What shutting down does here, for the log (GPU Planner fills GPUPLAN_SHUTDOWN_MEANS in per provider).
shutdown_meaning() {
    if [ "$GPUPLAN_SHUTDOWN_MEANS" = stop ]; then
        echo "which stops this instance"
    else
        echo "which TERMINATES this instance and deletes its root disk"
    fi
}

fire() {
    log "$*; shutting down, $(shutdown_meaning), with: $GPUPLAN_SHUTDOWN"
    local status=0
    local -a run=("${shutdown_cmd[@]}")
    command -v timeout >/dev/null 2>&1 && run=(timeout "$GPUPLAN_SHUTDOWN_TIMEOUT" "${shutdown_cmd[@]}")
    "${run[@]}" || status=$?
    case "$status" in
        0) ;;
        124) log "the shutdown command '$GPUPLAN_SHUTDOWN' hung for ${GPUPLAN_SHUTDOWN_TIMEOUT} s" ;;
        *) log "the shutdown command '$GPUPLAN_SHUTDOWN' failed with exit status $status" ;;
    esac
    # A machine going down ends this script before the wait is over; one that is still here did not go down.
    "${sleep_cmd[@]}" "$GPUPLAN_FORCE_AFTER_SECONDS"
    log "still running ${GPUPLAN_FORCE_AFTER_SECONDS} s after the shutdown; powering off by force: $GPUPLAN_FORCE_POWEROFF"
    status=0
    "${force_cmd[@]}" || status=$?
    if [ "$status" -ne 0 ]; then
        log "the power-off command '$GPUPLAN_FORCE_POWEROFF' failed with exit status $status"
        exit 1
    fi
    exit 0
}

# --- activity other than the GPUs: a logged-in user, busy CPUs, network traffic ---------------------------
# active_reason: empty when nothing but the GPUs could be working; else why the machine is not idle. Counters
# are compared with those of the previous poll; the first poll only reads them.
cpu_busy_prev="" cpu_total_prev="" net_bytes_prev="" net_time_prev=""
active_reason=""
read_activity() {
    active_reason=""
    local port_hex line local_addr state
    printf -v port_hex '%04X' "$GPUPLAN_SSH_PORT"
    local f
    for f in "$GPUPLAN_PROC/net/tcp" "$GPUPLAN_PROC/net/tcp6"; do
        [ -r "$f" ] || continue
        while read -r _ local_addr _ state _; do
            # state 01 is ESTABLISHED (include/net/tcp_states.h)
            if [ "$state" = 01 ] && [ "${local_addr##*:}" = "$port_hex" ]; then
                active_reason="an SSH session is open (port $GPUPLAN_SSH_PORT)"
                break 2
            fi
        done < <(tail -n +2 "$f")
    done
    local cpu user nice system idle iowait irq softirq steal total busy
    if read -r cpu user nice system idle iowait irq softirq steal _ <"$GPUPLAN_PROC/stat" 2>/dev/null && [ "$cpu" = cpu ]; then
        total=$((user + nice + system + idle + iowait + irq + softirq + steal))
        busy=$((total - idle - iowait))
        if [ -n "$cpu_total_prev" ] && [ "$total" -gt "$cpu_total_prev" ] && [ -z "$active_reason" ]; then
            local percent=$((100 * (busy - cpu_busy_prev) / (total - cpu_total_prev)))
            if [ "$percent" -ge "$GPUPLAN_IDLE_CPU_PERCENT" ]; then
                active_reason="the CPUs are ${percent}% busy"
            fi
        fi
        cpu_busy_prev=$busy cpu_total_prev=$total
    fi
    local name rx tx bytes=0
    if [ -r "$GPUPLAN_PROC/net/dev" ]; then
        while IFS=': ' read -r name rx _ _ _ _ _ _ _ tx _; do
            case "$name" in Inter-* | face | lo | '') continue ;; esac
            case "$rx$tx" in *[!0-9]*) continue ;; esac
            bytes=$((bytes + rx + tx))
        done < <(tr -s ' ' <"$GPUPLAN_PROC/net/dev" | sed 's/^ //; s/:/: /')
        if [ -n "$net_time_prev" ] && [ "$now" -gt "$net_time_prev" ] && [ -z "$active_reason" ]; then
            local rate=$(((bytes - net_bytes_prev) / 1000 / (now - net_time_prev)))
            if [ "$rate" -ge "$GPUPLAN_IDLE_NET_KBPS" ]; then
                active_reason="the network moves ${rate} kB/s"
            fi
        fi
        net_bytes_prev=$bytes net_time_prev=$now
    fi
}

run_loop() {
    check_config
    if rules_off; then
        log "dead-man switch and idle shutdown are both off (GPUPLAN_DEADMAN_HOURS=0, GPUPLAN_IDLE_MINUTES=0);" \
            "nothing to watch, exiting"
        exit 0
    fi
    errfile=$(mktemp "${TMPDIR:-/tmp}/$name.XXXXXX")
    trap 'rm -f "$errfile"' EXIT

    local started deadman_s=$((GPUPLAN_DEADMAN_HOURS * 3600)) idle_s=$((GPUPLAN_IDLE_MINUTES * 60))
    until read_clock; do
        log "$clock_error; trying again in ${GPUPLAN_CHECK_SECONDS} s"
        "${sleep_cmd[@]}" "$GPUPLAN_CHECK_SECONDS"
    done
    started=${GPUPLAN_STARTED_AT:-$now}
    local rules=()
    [ "$deadman_s" -eq 0 ] || rules+=("dead-man switch after ${GPUPLAN_DEADMAN_HOURS} h")
    [ "$idle_s" -eq 0 ] ||
        rules+=("idle shutdown after ${GPUPLAN_IDLE_MINUTES} min below ${GPUPLAN_IDLE_PERCENT}% on every GPU with no SSH session, CPUs below ${GPUPLAN_IDLE_CPU_PERCENT}% and network below ${GPUPLAN_IDLE_NET_KBPS} kB/s, counted from minute ${GPUPLAN_IDLE_GRACE_MINUTES}")
    local joined
    printf -v joined '%s; ' "${rules[@]}"
    log "watching: ${joined%; } (poll every ${GPUPLAN_CHECK_SECONDS} s, started at epoch $started); a rule that" \
        "fires shuts down, $(shutdown_meaning)"

    local polls=0 idle_since="" idle_polls=0 last_now=$now last_error="" last_why="" wait_s elapsed
    local grace_s=$((GPUPLAN_IDLE_GRACE_MINUTES * 60))
    while true; do
        if ! read_clock; then
            log "$clock_error; this poll is skipped"
        else
            if [ "$now" -lt "$last_now" ]; then
                log "the clock went back by $((last_now - now)) s; the idle time starts again"
                idle_since=""
            fi
            last_now=$now
            elapsed=$((now - started))
            if [ "$deadman_s" -gt 0 ] && [ "$elapsed" -ge "$deadman_s" ]; then
                fire "dead-man switch fired: ${elapsed} s since start, limit ${GPUPLAN_DEADMAN_HOURS} h (${deadman_s} s)"
            fi
            if [ "$idle_s" -gt 0 ]; then
                if ! read_gpus; then
                    if [ "$gpu_error" != "$last_error" ]; then
                        log "$gpu_error; counting this poll as busy"
                        last_error=$gpu_error
                    fi
                    if [ -n "$idle_since" ]; then
                        log "idle time restarts: the GPUs could not be read after $((now - idle_since)) s idle"
                    fi
                    idle_since=""
                else
                    if [ -n "$last_error" ]; then
                        log "nvidia-smi reads again: utilisation $gpu_list %"
                        last_error=""
                    fi
                    read_activity
                    local quiet=1 why=""
                    if [ "$gpu_max" -ge "$GPUPLAN_IDLE_PERCENT" ]; then
                        quiet=0
                    elif [ "$elapsed" -lt "$grace_s" ]; then
                        quiet=0 why="within the first ${GPUPLAN_IDLE_GRACE_MINUTES} min (set-up time)"
                    elif [ -n "$active_reason" ]; then
                        quiet=0 why=$active_reason
                    fi
                    if [ "$why" != "$last_why" ]; then
                        [ -z "$why" ] || log "GPUs below ${GPUPLAN_IDLE_PERCENT}% but not idle: $why"
                        last_why=$why
                    fi
                    if [ "$quiet" -eq 1 ]; then
                        if [ -z "$idle_since" ]; then
                            idle_since=$now
                            idle_polls=0
                            log "every GPU below ${GPUPLAN_IDLE_PERCENT}% (utilisation $gpu_list %); idle time starts"
                        fi
                        idle_polls=$((idle_polls + 1))
                        if [ "$((now - idle_since))" -ge "$idle_s" ]; then
                            fire "idle shutdown fired: every GPU below ${GPUPLAN_IDLE_PERCENT}% for" \
                                "$((now - idle_since)) s ($idle_polls polls), limit ${GPUPLAN_IDLE_MINUTES} min" \
                                "(${idle_s} s); utilisation now $gpu_list %"
                        fi
                    elif [ -n "$idle_since" ]; then
                        log "busy again (utilisation $gpu_list %${why:+; $why}) after $((now - idle_since)) s idle;" \
                            "idle time restarts"
                        idle_since=""
                    fi
                fi
            fi
        fi
        polls=$((polls + 1))
        if [ "$GPUPLAN_MAX_POLLS" -gt 0 ] && [ "$polls" -ge "$GPUPLAN_MAX_POLLS" ]; then
            log "stopping after $polls polls (GPUPLAN_MAX_POLLS, for testing); nothing fired"
            exit 0
        fi
        wait_s=$GPUPLAN_CHECK_SECONDS
        # Wake up exactly when the dead-man switch is due rather than up to one interval later.
        if [ "$deadman_s" -gt 0 ] && [ "$((started + deadman_s - last_now))" -gt 0 ] &&
            [ "$((started + deadman_s - last_now))" -lt "$wait_s" ]; then
            wait_s=$((started + deadman_s - last_now))
        fi
        "${sleep_cmd[@]}" "$wait_s"
    done
}

# systemd_quote VALUE: VALUE as one word of a unit file's Environment= line.
systemd_quote() {
    local v=${1//\\/\\\\}
    v=${v//\"/\\\"}
    v=${v//%/%%}
    printf '"%s"' "$v"
}

install_self() {
    check_config
    if rules_off; then
        echo "$name: dead-man switch and idle shutdown are both off (GPUPLAN_DEADMAN_HOURS=0," \
            "GPUPLAN_IDLE_MINUTES=0); nothing installed"
        exit 0
    fi
    local self=${BASH_SOURCE[0]}
    [ -f "$self" ] || { echo "$name: cannot install from '$self': run this script from a file" >&2; exit 1; }
    local prefix=${GPUPLAN_WATCHDOG_PREFIX%/}
    local bin=/usr/local/sbin/$name unit=/etc/systemd/system/$name.service
    if [ -z "$GPUPLAN_STARTED_AT" ]; then
        read_clock || { echo "$name: $clock_error" >&2; exit 1; }
        GPUPLAN_STARTED_AT=$now
    fi
    mkdir -p "$prefix${bin%/*}"
    cp "$self" "$prefix$bin.tmp"
    chmod 0755 "$prefix$bin.tmp"
    mv -f "$prefix$bin.tmp" "$prefix$bin"

    local vars=(GPUPLAN_DEADMAN_HOURS GPUPLAN_IDLE_MINUTES GPUPLAN_IDLE_PERCENT GPUPLAN_CHECK_SECONDS
        GPUPLAN_IDLE_GRACE_MINUTES GPUPLAN_SHUTDOWN_MEANS GPUPLAN_SSH_PORT GPUPLAN_IDLE_CPU_PERCENT
        GPUPLAN_IDLE_NET_KBPS GPUPLAN_STARTED_AT GPUPLAN_WATCHDOG_LOG GPUPLAN_SHUTDOWN GPUPLAN_SHUTDOWN_TIMEOUT
        GPUPLAN_FORCE_POWEROFF GPUPLAN_FORCE_AFTER_SECONDS)
    local systemd=0
    if [ -n "$prefix" ] || { [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; }; then
        systemd=1
    fi
    if [ "$systemd" -eq 1 ]; then
        mkdir -p "$prefix${unit%/*}"
        {
            echo "[Unit]"
            echo "Description=GPU Planner dead-man switch and idle watchdog (shuts the instance down)"
            echo ""
            echo "[Service]"
            echo "Type=simple"
            echo "ExecStart=$bin run"
            echo "Restart=on-failure"
            echo "RestartSec=30"
            local var
            for var in "${vars[@]}"; do
                echo "Environment=$(systemd_quote "$var=${!var}")"
            done
            echo ""
            echo "[Install]"
            echo "WantedBy=multi-user.target"
        } >"$prefix$unit"
    fi
    if [ -n "$prefix" ]; then
        echo "$name: installed $prefix$bin and $prefix$unit; GPUPLAN_WATCHDOG_PREFIX is set, so nothing is started"
    elif [ "$systemd" -eq 1 ]; then
        systemctl daemon-reload
        systemctl enable --now "$name.service"
        echo "$name: installed $bin and started $name.service (journalctl -u $name, $GPUPLAN_WATCHDOG_LOG)"
    else
        export "${vars[@]}"
        local -a detach=()
        command -v setsid >/dev/null 2>&1 && detach=(setsid)
        "${detach[@]}" nohup "$bin" run </dev/null >/dev/null 2>&1 &
        echo "$name: installed $bin and started it in the background (pid $!; no systemd, so it will not" \
            "survive a reboot); log: $GPUPLAN_WATCHDOG_LOG"
    fi
}

case "${1:-install}" in
    install) install_self ;;
    run) run_loop ;;
    -h | --help) sed -n '2,/^set -euo pipefail/{/^set/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" ;;
    *) echo "$name: unknown argument '$1' (use: install, run or --help)" >&2; exit 2 ;;
esac
