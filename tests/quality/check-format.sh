#!/usr/bin/env bash
# Fails when a C++ or CUDA source differs from what .clang-format (clang-format 14) makes of it.
# With --fix it formats them instead (cmake --build build --target format).
set -u
fix=0
if [ "${1:-}" = "--fix" ]; then fix=1; shift; fi
root=${1:?usage: check-format.sh [--fix] SOURCE_DIR}
cd "$root" || exit 1
formatter=$(command -v clang-format-14 || command -v clang-format || true)
[ -n "$formatter" ] || { echo "clang-format-14 is missing (packaging/system-packages.txt lists it)"; exit 1; }
# node_modules (tests/integration/sdk) holds the cloud SDKs, not our sources.
mapfile -t files < <(find app core ui tests cuda_probe -name node_modules -prune -o -type f \
    \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' \) -print | sort)
[ "${#files[@]}" -gt 0 ] || { echo "no sources found"; exit 1; }
if [ "$fix" -eq 1 ]; then
    "$formatter" -i "${files[@]}" && echo "formatted ${#files[@]} sources"
    exit $?
fi
bad=()
for f in "${files[@]}"; do
    "$formatter" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -gt 0 ]; then
    echo "not formatted (run: $formatter -i FILE):"
    printf '  %s\n' "${bad[@]}"
    exit 1
fi
echo "${#files[@]} sources formatted"
