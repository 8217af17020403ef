#!/usr/bin/env bash
# Prints how long `gpuplan report` takes for each example plan in each language: the PDF writing alone (as the
# command reports it) and the whole command, start-up included. The target is well under 2 s per report.
#   tests/bench/report-bench.sh [build/bin/gpuplan] [runs per case, default 5]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gpuplan=${1:-"$here/../../build/bin/gpuplan"}
runs=${2:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-28s %-6s %6s %10s %10s %10s\n' plan lang pages "write ms" "best ms" "wall ms"
for plan in "$here"/../../resources/examples/*.gpuplan; do
    for lang in en zh_CN; do
        best=""; total=0; wall_total=0; pages=0
        for _ in $(seq "$runs"); do
            start=$(date +%s%N)
            line=$("$gpuplan" report "$plan" -o "$out/r.pdf" --lang "$lang" 2>/dev/null)
            end=$(date +%s%N)
            ms=$(sed -n 's/.* in \([0-9]*\) ms$/\1/p' <<<"$line")
            pages=$(sed -n 's/.*: \([0-9]*\) pages.*/\1/p' <<<"$line")
            total=$((total + ms)); wall_total=$((wall_total + (end - start) / 1000000))
            if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
        done
        printf '%-28s %-6s %6s %10s %10s %10s\n' "$(basename "$plan" .gpuplan)" "$lang" "$pages" \
            "$((total / runs))" "$best" "$((wall_total / runs))"
    done
done
