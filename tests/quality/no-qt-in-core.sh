#!/usr/bin/env bash
# Fails when core/ includes a Qt header or links a Qt library: core must build without Qt (DESIGN.md).
set -u
root=${1:?usage: no-qt-in-core.sh SOURCE_DIR}
status=0
hits=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](Q[A-Za-z]|qt[a-z]*/)' "$root/core" \
        --include='*.h' --include='*.hpp' --include='*.cpp' --include='*.cc' || true)
if [ -n "$hits" ]; then
    echo "core/ must not include Qt headers:"
    echo "$hits"
    status=1
fi
links=$(grep -nE 'Qt[56]?::|find_package\(Qt' "$root/core/CMakeLists.txt" || true)
if [ -n "$links" ]; then
    echo "core/CMakeLists.txt must not use Qt:"
    echo "$links"
    status=1
fi
files=$(find "$root/core" -name '*.cpp' -o -name '*.h' | wc -l)
[ "$files" -gt 0 ] || { echo "no sources found under $root/core"; exit 1; }
[ "$status" -eq 0 ] && echo "core/: $files sources, no Qt"
exit $status
