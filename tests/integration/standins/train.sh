#!/usr/bin/env bash
# A stand-in training script (tests/integration/TestRun.cpp): prints timm's progress line every half second with a
# speed of 742 samples/s, keeps every CPU core busy while it runs (what a data-loader-bound job looks like), writes
# checkpoints and a metrics file, and on SIGINT saves an "interrupted" checkpoint and exits 130, as a trainer that
# handles KeyboardInterrupt does. Usage: train.sh STEPS [OUT_DIR]
steps=${1:-10}
out=${2:-output}
mkdir -p "$out/checkpoints"
burners=()
for ((c = 0; c < $(nproc); c++)); do
    (while :; do :; done) &
    burners+=($!)
done
finish() {
    kill "${burners[@]}" 2>/dev/null
}
trap 'echo "interrupted at step $step"; echo "interrupted $step" >"$out/checkpoints/interrupted.txt"; finish; exit 130' INT
trap finish EXIT
echo "Training stand-in: $steps steps on $(hostname)"
for ((step = 1; step <= steps; step++)); do
    printf 'Train: 0 [%4d/%d (%3d%%)]  Loss: %.3f (%.3f)  Time: 0.345s,  742.03/s  (0.350s,  731.42/s)  LR: 1.000e-03\n' \
        "$step" "$steps" $((step * 100 / steps)) 6.9 6.9
    if [ $((step % 5)) -eq 0 ]; then
        head -c 200000 /dev/urandom >"$out/checkpoints/step-$step.pt"
    fi
    sleep 0.5
done
printf '{"steps": %d, "top1": 76.1}\n' "$steps" >"$out/metrics.json"
echo "done"
