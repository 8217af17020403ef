#!/bin/sh
# ctest DeviceCheckSummary: tests/gpu/summarize.py on recorded documents (tests/gpu/data: an H200 document with
# the issue-19 additions, a PyTorch reference) must print every row of the table, find the catalog's H200 and
# write device-check.json and device-check.md. Usage: tests/gpu/check-summary.sh [PYTHON]  (from the repo root)
set -eu
python=${1:-python3}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-summary.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf 'build-cuda13\tok\t95.2\t\nrun-quick\tok\t8.1\t\nrun-full\tok\t41.5\t\nreference\tok\t35.0\t\nrun-cuda11-ptx\tskipped\t\tno CUDA 11.8 toolkit\nrun-burn\tok\t71.0\t\nschema-full\tok\t0.1\t\n' >"$tmp/steps.tsv"
doc=$here/data/h200-additions.json
table=$("$python" "$here/summarize.py" --out "$tmp/out" --steps "$tmp/steps.tsv" --catalog resources/catalog/gpus.json \
    --quick "$doc" --full "$doc" --burn "$doc" --reference "$here/data/reference-torch.json" --date 2026-12-04)
echo "$table"
missing=""
for text in 'catalog: H200 SXM 141GB' 'reference: torch' 'gemm_fp16 ' 'gemm_bf16 ' 'gemm_tf32 ' 'gemm_fp8 ' 'dram_copy ' \
    'h2d_pinned ' 'd2h_pinned ' 'gemm_own_fp16 ' 'gemm_own_bf16 ' 'wmma_fp16 ' 'quick wall time' 'full wall time' \
    'burn: wrong results' 'burn: xid errors' 'burn: tflops first' 'power under load' 'throttle shares (full)' \
    'correctness ok' 'cuda 11.8 PTX JIT' '989.5' '4800.0' '0.987' '>= 0.7 of probe cuBLASLt'; do
    printf '%s\n' "$table" | grep -qF -e "$text" || missing="$missing
  '$text'"
done
for f in device-check.json device-check.md; do [ -s "$tmp/out/$f" ] || missing="$missing
  file $f"; done
"$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["gpu"]["catalog_id"]=="h200-sxm-141gb", d["gpu"]; assert d["date"]=="2026-12-04"; assert len(d["rows"])>=20, len(d["rows"])' "$tmp/out/device-check.json" || missing="$missing
  device-check.json content"
if [ -n "$missing" ]; then
    echo "check-summary: FAILED: missing from the summary:$missing"
    exit 1
fi
echo "check-summary: every row there"
