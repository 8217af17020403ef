#!/usr/bin/env bash
# Runs a command in a private, real X server (Xvfb, 1280x800) on Qt's xcb platform, optionally under a window
# manager (openbox), so that GUI tests see what a user's desktop does: real windows, keyboard focus given by the
# X server (or the window manager), key events from the X server (xdotool).
#
#   tests/ui/with-x-server.sh [--window-manager] COMMAND [ARGS...]
set -euo pipefail
manager=0
if [ "${1:-}" = "--window-manager" ]; then
    manager=1
    shift
fi
[ $# -ge 1 ] || { echo "usage: $0 [--window-manager] COMMAND [ARGS...]" >&2; exit 2; }
tools="xvfb-run xdotool xprop"
[ "$manager" -eq 1 ] && tools="$tools openbox"
for tool in $tools; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is missing (packaging/system-packages.txt)" >&2; exit 1; }
done

export QT_QPA_PLATFORM=xcb GPUPLAN_WINDOW_MANAGER=$manager
# shellcheck disable=SC2016
exec xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
    set -e
    manager=$1
    shift
    if [ "$manager" -eq 1 ]; then
        openbox --sm-disable >/dev/null 2>&1 &
        wm=$!
        trap "kill $wm 2>/dev/null || true" EXIT
        # Ready once it has claimed the screen (the EWMH check window on the root).
        for _ in $(seq 100); do
            xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q "window id" && break
            sleep 0.1
        done
        xprop -root _NET_SUPPORTING_WM_CHECK | grep -q "window id" || { echo "openbox did not start" >&2; exit 1; }
    fi
    "$@"
' bash "$manager" "$@"
