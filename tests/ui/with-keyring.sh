#!/usr/bin/env bash
# Runs a command against a private, real Secret Service: its own D-Bus session bus (dbus-run-session) and a
# gnome-keyring-daemon whose login keyring is unlocked with an empty password, all under a scratch home that is
# removed afterwards. The user's own keyring, settings and files are never touched.
#
#   tests/ui/with-keyring.sh COMMAND [ARGS...]
#
# Inside, GPUPLAN_PRIVATE_KEYRING=1 and XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_RUNTIME_DIR, HOME point into the
# scratch folder; TestKeychain re-runs itself through this script when that variable is not set.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }
for tool in dbus-run-session gnome-keyring-daemon secret-tool; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is missing (packaging/system-packages.txt)" >&2; exit 1; }
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-keyring.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home" "$scratch/data" "$scratch/config" "$scratch/run"
chmod 700 "$scratch/run"

export HOME="$scratch/home" XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config"
export XDG_RUNTIME_DIR="$scratch/run" GPUPLAN_PRIVATE_KEYRING=1
unset DBUS_SESSION_BUS_ADDRESS GNOME_KEYRING_CONTROL DISPLAY WAYLAND_DISPLAY

# dbus-run-session ends the bus when the command exits. The daemon runs in the foreground so that it can be
# stopped by its pid afterwards (left alone, one that had not finished starting outlives its bus). It reads the
# login password from stdin ("" plus a newline: an empty password, so no prompt); whatever environment it
# prints is exported, and it is ready once it owns org.freedesktop.secrets on the bus.
# shellcheck disable=SC2016
dbus-run-session -- bash -c '
    set -e
    scratch=$1
    shift
    echo "" | gnome-keyring-daemon --foreground --unlock --components=secrets >"$scratch/keyring.env" &
    daemon=$!
    trap "kill $daemon 2>/dev/null || true; wait $daemon 2>/dev/null || true" EXIT
    owned() {
        dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"
    }
    for _ in $(seq 100); do
        owned && break
        sleep 0.1
    done
    owned || { echo "with-keyring.sh: gnome-keyring-daemon did not start" >&2; exit 1; }
    set -a
    . "$scratch/keyring.env"
    set +a
    set +e
    "$@"
' with-keyring "$scratch" "$@" 2> >(grep -v "Failed to set fd limit" >&2)
