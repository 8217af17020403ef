#!/usr/bin/env bash
# Starts GPU Planner. Installs what is missing and builds first (only what changed).
# Without a display it says so and runs the command-line planner's main job instead.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"
# shellcheck source=packaging/common.sh
. "$ROOT/packaging/common.sh"

ensure_build app

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "No display (\$DISPLAY and \$WAYLAND_DISPLAY are unset): showing the catalog with the command-line tool, build/bin/gpuplan."
    exec "$ROOT/build/bin/gpuplan" catalog "$@"
fi
step "starting build/bin/gpuplanner"
exec "$ROOT/build/bin/gpuplanner" "$@"
