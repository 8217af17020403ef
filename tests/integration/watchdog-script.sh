#!/usr/bin/env bash
# Runs resources/scripts/gpuplan-watchdog.sh in `run` mode in a sandbox, in virtual time: a fake nvidia-smi
# on PATH prints one line of a scenario file per call, a fake clock reads a file that a fake sleep advances,
# and a fake shutdown records the virtual time it was called at. Checks when the dead-man switch and the idle
# shutdown fire, that what cannot be read never counts as idle, that a bad rule is replaced (never dropped)
# and that bad machinery settings are refused.
# Also checks that `install` under GPUPLAN_WATCHDOG_PREFIX writes its files and starts nothing.
set -euo pipefail
root=${1:?usage: watchdog-script.sh SOURCE_DIR}
script="$root/resources/scripts/gpuplan-watchdog.sh"
[ -r "$script" ] || { echo "FAIL: no $script"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

mkdir -p "$dir/bin"
# Scenario lines, one per call (the last one repeats): "90" one GPU, "90,3" two GPUs, "exit N" fails with
# status N, "empty" prints nothing, anything else is printed as it is.
cat >"$dir/bin/nvidia-smi" <<'EOF'
#!/bin/sh
# Shell builtins only, to keep a few hundred polls fast.
[ "$*" = "--query-gpu=utilization.gpu --format=csv,noheader,nounits" ] ||
    { echo "fake nvidia-smi: unexpected arguments: $*" >&2; exit 64; }
read -r n <"$WD_CASE/calls"
n=$((n + 1))
echo "$n" >"$WD_CASE/calls"
i=0
while IFS= read -r l; do
    i=$((i + 1))
    line=$l
    [ "$i" -lt "$n" ] || break
done <"$WD_CASE/scenario"
case "$line" in
    "exit "*) echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." >&2
        exit "${line#exit }" ;;
    empty) ;;
    *) IFS=,; for v in $line; do echo " $v"; done ;;
esac
EOF
cat >"$dir/bin/clock" <<'EOF'
#!/bin/sh
read -r now <"$WD_CASE/now"
echo "$now"
EOF
# The fake sleep also moves the fake /proc counters: CPUs idle (or 100% busy when the case has a file cpu-busy),
# no network traffic (or 1 MB/s when it has net-busy).
cat >"$dir/bin/fake-sleep" <<'EOF'
#!/bin/sh
read -r now <"$WD_CASE/now"
echo $((now + $1)) >"$WD_CASE/now"
read -r _ user _ _ idle _ <"$WD_CASE/proc/stat"
if [ -e "$WD_CASE/cpu-busy" ]; then user=$((user + $1 * 100)); else idle=$((idle + $1 * 100)); fi
echo "cpu  $user 0 0 $idle 0 0 0 0 0 0" >"$WD_CASE/proc/stat"
read -r rx <"$WD_CASE/rx"
[ ! -e "$WD_CASE/net-busy" ] || rx=$((rx + $1 * 1000000))
echo "$rx" >"$WD_CASE/rx"
printf 'Inter-|   Receive |  Transmit\n face |bytes packets|bytes packets\n    lo: 999999 1 0 0 0 0 0 0 999999 1 0 0 0 0 0 0\n  eth0: %s 10 0 0 0 0 0 0 5000 10 0 0 0 0 0 0\n' "$rx" >"$WD_CASE/proc/net/dev"
EOF
cat >"$dir/bin/record-shutdown" <<'EOF'
#!/bin/sh
read -r now <"$WD_CASE/now"
echo "$now" >>"$WD_CASE/shutdown-at"
EOF
cat >"$dir/bin/record-force" <<'EOF'
#!/bin/sh
read -r now <"$WD_CASE/now"
echo "$now" >>"$WD_CASE/force-at"
EOF
# Guards: the real system must never be touched.
for tool in systemctl shutdown poweroff reboot wall nohup; do
    printf '#!/bin/sh\necho "%s $*" >>"%s/forbidden"\nexit 1\n' "$tool" "$dir" >"$dir/bin/$tool"
done
chmod +x "$dir/bin"/*

failures=0
pass() { echo "PASS: $1"; }
fail() {
    echo "FAIL: $1"
    echo "  --- output of the last run ---"
    sed 's/^/  | /' "$case_dir/out" | tail -n 25
    failures=$((failures + 1))
}

# start_case NAME SCENARIO...: a fresh case directory at virtual time 0 with the given scenario lines.
case_dir=""
start_case() {
    case_dir="$dir/$1"
    shift
    mkdir -p "$case_dir"
    echo 0 >"$case_dir/now"
    echo 0 >"$case_dir/calls"
    printf '%s\n' "$@" >"$case_dir/scenario"
    # A quiet machine: idle CPUs, no traffic, only a listening sshd (state 0A) in net/tcp.
    mkdir -p "$case_dir/proc/net"
    echo "cpu  1000 0 0 100000 0 0 0 0 0 0" >"$case_dir/proc/stat"
    echo 0 >"$case_dir/rx"
    printf 'Inter-|\n face |\n  eth0: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n' >"$case_dir/proc/net/dev"
    printf '  sl  local_address rem_address   st\n   0: 00000000:0016 00000000:0000 0A\n' >"$case_dir/proc/net/tcp"
}

# repeat COUNT LINE: appends COUNT copies of LINE to the array $lines.
lines=()
repeat() {
    local i
    for ((i = 0; i < $1; i++)); do lines+=("$2"); done
}

# watchdog VAR=VALUE...: runs `run` in the current case with those settings; sets $rc.
rc=0
watchdog() {
    rc=0
    env -u GPUPLAN_DEADMAN_HOURS -u GPUPLAN_IDLE_MINUTES -u GPUPLAN_IDLE_PERCENT -u GPUPLAN_CHECK_SECONDS \
        -u GPUPLAN_MAX_POLLS -u GPUPLAN_STARTED_AT \
        PATH="$dir/bin:$PATH" WD_CASE="$case_dir" TMPDIR="$case_dir" \
        GPUPLAN_CLOCK="$dir/bin/clock" GPUPLAN_SLEEP="$dir/bin/fake-sleep" \
        GPUPLAN_SHUTDOWN="$dir/bin/record-shutdown" GPUPLAN_WATCHDOG_LOG="$case_dir/log" \
        GPUPLAN_FORCE_POWEROFF="$dir/bin/record-force" GPUPLAN_PROC="$case_dir/proc" GPUPLAN_IDLE_GRACE_MINUTES=0 \
        GPUPLAN_WATCHDOG_PREFIX="$case_dir/root" GPUPLAN_CHECK_SECONDS=60 GPUPLAN_MAX_POLLS=1000 "$@" \
        timeout 60 bash "$script" run >"$case_dir/out" 2>&1 || rc=$?
}
shutdown_at() { if [ -s "$case_dir/shutdown-at" ]; then cat "$case_dir/shutdown-at"; else echo none; fi; }
# shut_down_between LO HI: exactly one shutdown, at a virtual time in [LO, HI), and the script exited 0.
shut_down_between() {
    local at
    at=$(shutdown_at)
    [ "$rc" -eq 0 ] && [ "$(wc -l <"$case_dir/shutdown-at" 2>/dev/null || echo 0)" -eq 1 ] &&
        [ "$at" -ge "$1" ] && [ "$at" -lt "$2" ]
}
no_shutdown() { [ ! -e "$case_dir/shutdown-at" ]; }

# 1. Dead-man switch: 2 h, GPUs busy all along.
start_case deadman 90
watchdog GPUPLAN_DEADMAN_HOURS=2 GPUPLAN_IDLE_MINUTES=30
if shut_down_between 7200 7260 && grep -q 'dead-man switch fired: 7200 s since start, limit 2 h' "$case_dir/log"; then
    pass "dead-man 2 h, GPUs at 90%: shutdown at virtual $(shutdown_at) s"
else
    fail "dead-man 2 h, GPUs at 90%: expected shutdown in [7200, 7260) s and a log line, got $(shutdown_at) (exit $rc)"
fi

# 2. Idle: 20 min busy, then idle; 30 min idle shuts down at 50 min, not at 30.
lines=()
repeat 20 90
repeat 1 3
start_case idle "${lines[@]}"
watchdog GPUPLAN_DEADMAN_HOURS=0 GPUPLAN_IDLE_MINUTES=30
if shut_down_between 3000 3060 && grep -q 'idle shutdown fired: every GPU below 5% for 1800 s' "$case_dir/out"; then
    pass "idle 30 min after 20 min busy: shutdown at virtual $(shutdown_at) s (idle from 1200 s)"
else
    fail "idle 30 min after 20 min busy: expected shutdown in [3000, 3060) s, got $(shutdown_at) (exit $rc)"
fi

# 3. Idle interrupted: 20 min idle, one busy poll (at 1200 s), idle again: 30 min counted from after it.
lines=()
repeat 20 3
repeat 1 90
repeat 1 3
start_case interrupted "${lines[@]}"
watchdog GPUPLAN_DEADMAN_HOURS=0 GPUPLAN_IDLE_MINUTES=30
if shut_down_between 3000 3120 && grep -q 'busy again (utilisation 90 %) after 1200 s idle' "$case_dir/log"; then
    pass "idle interrupted by a busy poll at 1200 s: counter restarted, shutdown at virtual $(shutdown_at) s"
else
    fail "idle interrupted at 1200 s: expected shutdown in [3000, 3120) s (not 1800), got $(shutdown_at) (exit $rc)"
fi

# 4. Two GPUs, one busy and one idle: never idle, for 3 virtual hours.
start_case multigpu "90,2"
watchdog GPUPLAN_DEADMAN_HOURS=0 GPUPLAN_IDLE_MINUTES=30 GPUPLAN_MAX_POLLS=180
if [ "$rc" -eq 0 ] && no_shutdown && [ "$(cat "$case_dir/now")" -ge 10740 ] && [ "$(cat "$case_dir/calls")" -eq 180 ] &&
    grep -q 'stopping after 180 polls' "$case_dir/log"; then
    pass "two GPUs at 90% and 2%: no idle shutdown in 3 virtual hours (180 polls)"
else
    fail "two GPUs at 90% and 2%: expected no shutdown over 180 polls, got $(shutdown_at) (exit $rc)"
fi

# 5. nvidia-smi failing (exit 9): counts as busy, is logged, no shutdown.
start_case nvsmi-fails "exit 9"
watchdog GPUPLAN_DEADMAN_HOURS=0 GPUPLAN_IDLE_MINUTES=30 GPUPLAN_MAX_POLLS=90
if [ "$rc" -eq 0 ] && no_shutdown && [ "$(cat "$case_dir/calls")" -eq 90 ] &&
    grep -q 'nvidia-smi failed with exit status 9.*counting this poll as busy' "$case_dir/log"; then
    pass "nvidia-smi exits 9: logged, counted as busy, no shutdown in 90 polls"
else
    fail "nvidia-smi exits 9: expected a log line and no shutdown, got $(shutdown_at) (exit $rc)"
fi

# 6. Both rules off: says so, exits 0, no shutdown.
start_case off 3
watchdog GPUPLAN_DEADMAN_HOURS=0 GPUPLAN_IDLE_MINUTES=0
if [ "$rc" -eq 0 ] && no_shutdown && grep -q 'both off' "$case_dir/out" && [ "$(cat "$case_dir/calls")" -eq 0 ]; then
    pass "both rules off: says so and exits 0"
else
    fail "both rules off: expected exit 0, a message and no shutdown, got $(shutdown_at) (exit $rc)"
fi

# 7. A rule's bad value never leaves the machine unwatched: it is replaced (out of bounds: the nearest bound;
#    not a whole number: the script's default), the replacement is logged naming the variable, and the watchdog
#    runs and fires. Scenario: GPUs idle at 3%.
#    setting | expected shutdown window [lo, hi) | the value used | the other rules
n=0
for case in "GPUPLAN_DEADMAN_HOURS=-1 40000 43300 12 GPUPLAN_IDLE_MINUTES=0" \
    "GPUPLAN_DEADMAN_HOURS=abc 40000 43300 12 GPUPLAN_IDLE_MINUTES=0" \
    "GPUPLAN_IDLE_MINUTES=abc 3600 3660 60 GPUPLAN_DEADMAN_HOURS=24" \
    "GPUPLAN_IDLE_PERCENT=1.5 1800 1860 5 GPUPLAN_IDLE_MINUTES=30" \
    "GPUPLAN_IDLE_PERCENT=101 1800 1860 100 GPUPLAN_IDLE_MINUTES=30" \
    "GPUPLAN_CHECK_SECONDS=0 60 62 1 GPUPLAN_IDLE_MINUTES=1"; do
    read -r setting lo hi used others <<<"$case"
    var=${setting%%=*}
    n=$((n + 1))
    start_case "bad-rule-$n" 3
    watchdog GPUPLAN_DEADMAN_HOURS=24 GPUPLAN_MAX_POLLS=2000 "$others" "$setting"
    if shut_down_between "$lo" "$hi" && grep -q "^gpuplan-watchdog: $var .*using $used instead" "$case_dir/out" &&
        grep -q "$var .*using $used instead" "$case_dir/log"; then
        pass "bad rule $setting: logged, $used used, shutdown at virtual $(shutdown_at) s"
    else
        fail "bad rule $setting: expected a warning naming $var, $used used and a shutdown in [$lo, $hi), got" \
            "$(shutdown_at) (exit $rc)"
    fi
done
# A dead-man above the bound becomes the bound (a year), and the watchdog keeps watching.
start_case bad-deadman-huge 90
watchdog GPUPLAN_DEADMAN_HOURS=1000000 GPUPLAN_IDLE_MINUTES=30 GPUPLAN_MAX_POLLS=3
if [ "$rc" -eq 0 ] && no_shutdown && grep -q 'using 8760 instead' "$case_dir/out" &&
    grep -q 'watching: dead-man switch after 8760 h; idle shutdown after 30 min' "$case_dir/log"; then
    pass "dead-man 1000000 h: capped at 8760 h, both rules watched"
else
    fail "dead-man 1000000 h: expected it capped at 8760 h with both rules watched (exit $rc)"
fi
# The machinery's own settings (not rules) are still refused: exit 2 naming the variable, no shutdown.
start_case bad-max-polls 3
watchdog GPUPLAN_DEADMAN_HOURS=1 GPUPLAN_IDLE_MINUTES=30 GPUPLAN_MAX_POLLS=abc
if [ "$rc" -eq 2 ] && no_shutdown && grep -q "^gpuplan-watchdog: GPUPLAN_MAX_POLLS " "$case_dir/out"; then
    pass "bad setting GPUPLAN_MAX_POLLS=abc: exit 2: $(head -n 1 "$case_dir/out")"
else
    fail "bad setting GPUPLAN_MAX_POLLS=abc: expected exit 2 and a message naming it, got exit $rc"
fi

# 8. Garbage or nothing from nvidia-smi counts as busy; reading again resumes the idle count from scratch.
lines=()
repeat 10 3
repeat 1 "[N/A]"
repeat 10 3
repeat 1 empty
repeat 1 3
start_case garbage "${lines[@]}"
watchdog GPUPLAN_DEADMAN_HOURS=0 GPUPLAN_IDLE_MINUTES=30
if shut_down_between 3120 3180 && grep -q "printed '\[N/A\]'" "$case_dir/log" &&
    grep -q 'printed no GPU utilisation' "$case_dir/log"; then
    pass "'[N/A]' and empty output count as busy: shutdown only 30 min after the last, at $(shutdown_at) s"
else
    fail "'[N/A]' and empty output: expected shutdown in [3120, 3180) s, got $(shutdown_at) (exit $rc)"
fi

# 9. The dead-man switch fires even when the GPUs cannot be read, on time when the interval does not divide it.
start_case deadman-blind "exit 9"
watchdog GPUPLAN_DEADMAN_HOURS=1 GPUPLAN_IDLE_MINUTES=30 GPUPLAN_CHECK_SECONDS=70
if shut_down_between 3600 3601; then
    pass "dead-man 1 h with nvidia-smi failing, polls every 70 s: shutdown at virtual $(shutdown_at) s"
else
    fail "dead-man 1 h with nvidia-smi failing: expected shutdown at 3600 s, got $(shutdown_at) (exit $rc)"
fi

# 10. A failing shutdown command is logged, and the machine is powered off by force 300 s later (finding 7); when
#     that fails too the script exits 1 (systemd restarts it to try again).
force_at() { if [ -s "$case_dir/force-at" ]; then cat "$case_dir/force-at"; else echo none; fi; }
start_case shutdown-fails 90
watchdog GPUPLAN_DEADMAN_HOURS=1 GPUPLAN_IDLE_MINUTES=0 GPUPLAN_SHUTDOWN=false
if [ "$rc" -eq 0 ] && grep -q "shutdown command 'false' failed" "$case_dir/log" && [ "$(force_at)" = 3900 ] &&
    grep -q "still running 300 s after the shutdown; powering off by force" "$case_dir/log"; then
    pass "a failing shutdown command: logged, forced power-off at virtual $(force_at) s"
else
    fail "a failing shutdown command: expected a forced power-off at 3900 s, got $(force_at) (exit $rc)"
fi
start_case force-fails 90
watchdog GPUPLAN_DEADMAN_HOURS=1 GPUPLAN_IDLE_MINUTES=0 GPUPLAN_SHUTDOWN=false GPUPLAN_FORCE_POWEROFF=false
if [ "$rc" -eq 1 ] && grep -q "power-off command 'false' failed" "$case_dir/log"; then
    pass "shutdown and power-off both failing: logged, exit 1 (systemd tries again)"
else
    fail "shutdown and power-off both failing: expected exit 1 and a log line, got exit $rc"
fi
# A shutdown that hangs (a wedged driver) is given GPUPLAN_SHUTDOWN_TIMEOUT, then the power-off follows.
start_case shutdown-hangs 90
watchdog GPUPLAN_DEADMAN_HOURS=1 GPUPLAN_IDLE_MINUTES=0 GPUPLAN_SHUTDOWN="sleep 30" GPUPLAN_SHUTDOWN_TIMEOUT=1
if [ "$rc" -eq 0 ] && grep -q "shutdown command 'sleep 30' hung for 1 s" "$case_dir/log" && [ "$(force_at)" = 3900 ]; then
    pass "a hanging shutdown: cut off after 1 s, forced power-off at virtual $(force_at) s"
else
    fail "a hanging shutdown: expected a forced power-off at 3900 s, got $(force_at) (exit $rc)"
fi

# 10b. What shutting down means is said in the log: on EC2 it terminates and deletes the root disk (finding 6).
start_case says-terminate 3
watchdog GPUPLAN_DEADMAN_HOURS=0 GPUPLAN_IDLE_MINUTES=30
if shut_down_between 1800 1860 &&
    grep -q 'shutting down, which TERMINATES this instance and deletes its root disk' "$case_dir/log"; then
    pass "the log says the shutdown terminates the instance"
else
    fail "the log should say the shutdown terminates the instance (exit $rc)"
fi
start_case says-stop 3
watchdog GPUPLAN_DEADMAN_HOURS=0 GPUPLAN_IDLE_MINUTES=30 GPUPLAN_SHUTDOWN_MEANS=stop
if shut_down_between 1800 1860 && grep -q 'shutting down, which stops this instance' "$case_dir/log"; then
    pass "GPUPLAN_SHUTDOWN_MEANS=stop: the log says the shutdown stops the instance"
else
    fail "GPUPLAN_SHUTDOWN_MEANS=stop: the log should say the instance is stopped (exit $rc)"
fi

# 10c. Idle is not the user's work (finding 6): the first minutes are set-up time, and an SSH session, busy CPUs
#      or network traffic keep the machine from counting as idle, whatever the GPUs do (all idle at 3% here).
start_case grace 3
watchdog GPUPLAN_DEADMAN_HOURS=0 GPUPLAN_IDLE_MINUTES=30 GPUPLAN_IDLE_GRACE_MINUTES=60
if shut_down_between 5400 5460 && grep -q 'not idle: within the first 60 min' "$case_dir/log"; then
    pass "idle grace 60 min, idle 30 min, GPUs idle from the start: shutdown at virtual $(shutdown_at) s, not 1800"
else
    fail "idle grace 60 min: expected shutdown in [5400, 5460), got $(shutdown_at) (exit $rc)"
fi
for activity in ssh cpu net; do
    start_case "active-$activity" 3
    case "$activity" in
        ssh)
            printf '   1: 0A01000A:0016 0B01000A:D431 01\n' >>"$case_dir/proc/net/tcp"
            says='an SSH session is open'
            ;;
        cpu)
            : >"$case_dir/cpu-busy"
            says='the CPUs are 100% busy'
            ;;
        net)
            : >"$case_dir/net-busy"
            says='the network moves 1000 kB/s'
            ;;
    esac
    watchdog GPUPLAN_DEADMAN_HOURS=0 GPUPLAN_IDLE_MINUTES=30 GPUPLAN_MAX_POLLS=120
    if [ "$rc" -eq 0 ] && no_shutdown && grep -q "not idle: $says" "$case_dir/log"; then
        pass "GPUs idle but $says: no idle shutdown in 2 virtual hours"
    else
        fail "GPUs idle but $says: expected no shutdown over 120 polls and a log line, got $(shutdown_at) (exit $rc)"
    fi
done

# 11. install under a prefix: copies itself and writes the unit with the settings, starts nothing.
start_case install 90
rc=0
env PATH="$dir/bin:$PATH" WD_CASE="$case_dir" GPUPLAN_CLOCK="$dir/bin/clock" GPUPLAN_WATCHDOG_PREFIX="$case_dir/root" \
    GPUPLAN_WATCHDOG_LOG="$case_dir/log" GPUPLAN_DEADMAN_HOURS=3 GPUPLAN_IDLE_MINUTES=45 \
    bash "$script" >"$case_dir/out" 2>&1 || rc=$?
unit="$case_dir/root/etc/systemd/system/gpuplan-watchdog.service"
if [ "$rc" -eq 0 ] && cmp -s "$script" "$case_dir/root/usr/local/sbin/gpuplan-watchdog" &&
    [ -x "$case_dir/root/usr/local/sbin/gpuplan-watchdog" ] &&
    grep -qx 'ExecStart=/usr/local/sbin/gpuplan-watchdog run' "$unit" &&
    grep -qx 'Environment="GPUPLAN_DEADMAN_HOURS=3"' "$unit" && grep -qx 'Environment="GPUPLAN_IDLE_MINUTES=45"' "$unit" &&
    grep -qx 'Environment="GPUPLAN_STARTED_AT=0"' "$unit" &&
    grep -qx 'Environment="GPUPLAN_SHUTDOWN=shutdown -h now"' "$unit"; then
    pass "install under GPUPLAN_WATCHDOG_PREFIX: script copied, unit written with the settings"
else
    fail "install under GPUPLAN_WATCHDOG_PREFIX: exit $rc, unit: $(tr '\n' ' ' <"$unit" 2>/dev/null)"
fi

# 12. install with a dead-man above the bound still installs both rules (it used to refuse and install nothing,
#     not even the idle rule): the unit carries the capped dead-man and the idle rule as given.
start_case install-huge 90
rc=0
env PATH="$dir/bin:$PATH" WD_CASE="$case_dir" GPUPLAN_CLOCK="$dir/bin/clock" GPUPLAN_WATCHDOG_PREFIX="$case_dir/root" \
    GPUPLAN_WATCHDOG_LOG="$case_dir/log" GPUPLAN_DEADMAN_HOURS=1000000 GPUPLAN_IDLE_MINUTES=45 \
    bash "$script" >"$case_dir/out" 2>&1 || rc=$?
unit="$case_dir/root/etc/systemd/system/gpuplan-watchdog.service"
if [ "$rc" -eq 0 ] && [ -x "$case_dir/root/usr/local/sbin/gpuplan-watchdog" ] &&
    grep -qx 'Environment="GPUPLAN_DEADMAN_HOURS=8760"' "$unit" && grep -qx 'Environment="GPUPLAN_IDLE_MINUTES=45"' "$unit" &&
    grep -q 'GPUPLAN_DEADMAN_HOURS must be .* not .1000000.; using 8760 instead' "$case_dir/out"; then
    pass "install with a dead-man of 1000000 h: installed, capped at 8760 h, idle rule kept, warning printed"
else
    fail "install with a dead-man of 1000000 h: expected both rules installed (exit $rc), unit:" \
        "$(tr '\n' ' ' <"$unit" 2>/dev/null)"
fi

if [ -e "$dir/forbidden" ]; then
    echo "FAIL: the script called system commands: $(tr '\n' ';' <"$dir/forbidden")"
    failures=$((failures + 1))
fi
if [ "$failures" -gt 0 ]; then
    echo "gpuplan-watchdog.sh: $failures case(s) failed"
    exit 1
fi
echo "gpuplan-watchdog.sh: dead-man switch, idle shutdown and settings as expected"
