#!/bin/sh
# ctest DeviceCheckDryRun: the device check's dry run must exit 0 and plan every step, on a machine with no GPU:
# the build, the quick, full and burn runs and their schema checks as commands, the reference, the summary.
# Prints what is missing and fails otherwise. Usage: tests/gpu/check-dry-run.sh   (from the repository root)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
status=0
plan=$(bash "$here/device-check.sh" --dry-run 2>&1) || status=$?
echo "$plan"
if [ "$status" -ne 0 ]; then
    echo "check-dry-run: FAILED: device-check.sh --dry-run exited $status"
    exit 1
fi
missing=""
has() { printf '%s\n' "$plan" | grep -q -e "$1" || missing="$missing
  $2"; }
# Planned as commands (name, then its timeout or build method in parentheses), never skipped.
for step in run-quick run-full run-burn schema-quick schema-full schema-burn; do
    has "^\[plan\] step $step (" "step $step planned as a command"
done
has '^\[plan\] step run-quick (.*gpuplan-probe --quick' "the quick run's command"
has '^\[plan\] step run-full (.*gpuplan-probe >' "the full run's command"
has '^\[plan\] step run-burn (.*gpuplan-probe --quick --burn 60' "the burn run's command"
has '^\[plan\] step schema-full (.*validate_schema.py .*gpuplan-probe-1.schema.json' "the schema check's command"
# The build: planned, or said why it cannot run on this machine (no nvcc, no nlohmann/json.hpp).
has '^\[plan\] step build-cuda13 ' "step build-cuda13"
has '^\[plan\] step build-cuda11' "step build-cuda11 (built or skipped with a reason)"
has '^\[plan\] step reference' "step reference"
has '^\[device-check [0-9]*s\] reference: ' "which reference it would use"
has '^\[plan\] step summary: .*summarize.py' "step summary"
has '^\[plan\] dry run: nothing was built or run' "the closing line"
if [ -n "$missing" ]; then
    echo "check-dry-run: FAILED: the plan lacks:$missing"
    exit 1
fi
echo "check-dry-run: the plan names every step"
