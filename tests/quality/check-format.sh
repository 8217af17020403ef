#!/usr/bin/env bash
# Fails when a C++ or CUDA source differs from what .clang-format (clang-format 14) makes of it.
set -u
root=${1:?usage: check-format.sh SOURCE_DIR}
cd "$root" || exit 1
formatter=$(command -v clang-format-14 || command -v clang-format || true)
[ -n "$formatter" ] || { echo "clang-format-14 is missing (packaging/system-packages.txt lists it)"; exit 1; }
mapfile -t files < <(find app core ui tests cuda_probe -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' \) | sort)
[ "${#files[@]}" -gt 0 ] || { echo "no sources found"; exit 1; }
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
