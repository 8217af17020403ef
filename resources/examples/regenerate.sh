#!/bin/sh
# Rebuilds the example plans from the bundled catalog: run after the catalog or the plan format changes.
#   resources/examples/regenerate.sh [path/to/gpuplan]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
gpuplan=${1:-"$here/../../build/bin/gpuplan"}
"$gpuplan" plan --preset resnet50-imagenet --top 100 -o "$here/resnet50-imagenet.gpuplan"
"$gpuplan" plan --preset llama2-7b-lora --budget 3000 --deadline 14d --top 100 -o "$here/llama2-7b-lora-budget.gpuplan"
