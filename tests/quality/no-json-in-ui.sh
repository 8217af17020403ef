#!/usr/bin/env bash
# Fails when ui/ reads JSON itself: the GUI holds typed documents (core::PlanDocument, core::Report), and only
# core's file adapters (core/plan/PlanFile.cpp and the loaders) turn JSON into them (docs/architecture.md).
set -u
root=${1:?usage: no-json-in-ui.sh SOURCE_DIR}
status=0
includes=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](nlohmann/|QJson)' "$root/ui" \
        --include='*.h' --include='*.cpp' || true)
if [ -n "$includes" ]; then
    echo "ui/ must not include a JSON library (read a typed document from core instead):"
    echo "$includes"
    status=1
fi
uses=$(grep -rnE 'nlohmann::|QJson(Document|Object|Array|Value)' "$root/ui" --include='*.h' --include='*.cpp' || true)
if [ -n "$uses" ]; then
    echo "ui/ must not use JSON types:"
    echo "$uses"
    status=1
fi
files=$(find "$root/ui" -name '*.cpp' -o -name '*.h' | wc -l)
[ "$files" -gt 0 ] || { echo "no sources found under $root/ui"; exit 1; }
[ "$status" -eq 0 ] && echo "ui/: $files sources, no JSON"
exit $status
