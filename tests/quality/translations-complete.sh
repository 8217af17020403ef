#!/usr/bin/env bash
# Fails when a user-visible string of ui/ has no Chinese translation: lupdate the sources into a scratch
# copy of the .ts file and look for entries that are new ("unfinished") or gone ("vanished"/"obsolete").
set -u
root=${1:?usage: translations-complete.sh SOURCE_DIR LUPDATE}
lupdate=${2:?usage: translations-complete.sh SOURCE_DIR LUPDATE}
ts="$root/resources/translations/gpuplanner_zh_CN.ts"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp "$ts" "$scratch/check.ts"
"$lupdate" -silent -locations none "$root/ui" -ts "$scratch/check.ts" >"$scratch/lupdate.log" 2>&1 \
    || { cat "$scratch/lupdate.log"; exit 1; }
total=$(grep -c '<message' "$scratch/check.ts")
missing=$(grep -B3 -E 'type="(unfinished|vanished|obsolete)"' "$scratch/check.ts" | grep -o '<source>.*</source>' || true)
if [ -n "$missing" ] || grep -qE 'type="(unfinished|vanished|obsolete)"' "$scratch/check.ts"; then
    echo "resources/translations/gpuplanner_zh_CN.ts is incomplete or stale (cmake --build build --target update_translations, then translate):"
    grep -E -B4 'type="(unfinished|vanished|obsolete)"' "$scratch/check.ts" | grep -E '<source>|translation' | head -40
    exit 1
fi
[ "$total" -gt 0 ] || { echo "no messages found in $ts"; exit 1; }
echo "$total messages, all translated"
