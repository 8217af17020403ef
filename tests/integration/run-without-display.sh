#!/usr/bin/env bash
# ./run.sh on a machine without a display: one line saying so, then the CLI's main job, exit 0.
set -u
out=$(env -u DISPLAY -u WAYLAND_DISPLAY ./run.sh 2>&1)
status=$?
echo "$out"
[ "$status" -eq 0 ] || { echo "FAIL: ./run.sh exited $status"; exit 1; }
echo "$out" | grep -q '^No display (\$DISPLAY and \$WAYLAND_DISPLAY are unset)' \
    || { echo "FAIL: the no-display note is missing"; exit 1; }
echo "$out" | grep -qE '^PROVIDER +INSTANCE +GPU' || { echo "FAIL: the catalog table header is missing"; exit 1; }
echo "$out" | grep -qE '^aws +p3\.2xlarge +1x V100' || { echo "FAIL: the p3.2xlarge row is missing"; exit 1; }
echo "PASS"
