#!/usr/bin/env bash
# Runs the GUI in a real X server (Xvfb) and writes a PNG of each page, in English and Chinese.
# Usage: tests/ui/screenshots.sh OUT_DIR     (build first: ./run.sh or ./test.sh)
set -euo pipefail
out=${1:?usage: tests/ui/screenshots.sh OUT_DIR}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
app="$root/build/bin/gpuplanner"
[ -x "$app" ] || { echo "ERROR: $app is not built; run ./run.sh or ./test.sh first" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "ERROR: xvfb-run is missing (package xvfb)" >&2; exit 1; }
mkdir -p "$out"
for lang in en zh_CN; do
    # -a picks a free display number; the window is grabbed after the catalog has loaded.
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x800x24" \
        "$app" --lang "$lang" --screenshots "$out/$lang" >/dev/null
    echo "$out/$lang: $(ls "$out/$lang" | tr '\n' ' ')"
done
