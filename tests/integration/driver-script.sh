#!/usr/bin/env bash
# Runs resources/scripts/install-nvidia-driver.sh in --dry-run mode for the distributions it supports and
# checks the commands it would run; and that it refuses what it does not know.
set -u
root=${1:?usage: driver-script.sh SOURCE_DIR}
script="$root/resources/scripts/install-nvidia-driver.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf 'ID=ubuntu\nVERSION_ID="22.04"\n' >"$dir/ubuntu"
printf 'ID="rocky"\nVERSION_ID="9.3"\n' >"$dir/rocky"
printf 'ID=arch\n' >"$dir/arch"

out=$(sh "$script" --dry-run --os-release "$dir/ubuntu" --docker) || fail "ubuntu dry run exited $?"
grep -q 'cuda/repos/ubuntu2204/x86_64/cuda-keyring' <<<"$out" || fail "ubuntu: no CUDA keyring for 22.04: $out"
grep -q 'nvidia-driver-580-server-open' <<<"$out" || fail "ubuntu: not the 580 server driver"
grep -q 'nvidia-container-toolkit' <<<"$out" || fail "ubuntu --docker: no container toolkit"

out=$(sh "$script" --dry-run --os-release "$dir/rocky" --branch 535) || fail "rocky dry run exited $?"
grep -q 'cuda-rhel9.repo' <<<"$out" || fail "rocky: not the RHEL 9 repository: $out"
grep -q 'nvidia-driver:535-open' <<<"$out" || fail "rocky: --branch 535 not used"
grep -q 'docker' <<<"$out" && fail "rocky without --docker installs docker"

err=$(sh "$script" --dry-run --os-release "$dir/arch" 2>&1) && fail "arch: accepted an unknown distribution"
grep -q 'not a distribution this script knows' <<<"$err" || fail "arch: unclear message: $err"
err=$(sh "$script" --branch 5x5 2>&1); [ $? -eq 2 ] || fail "--branch 5x5 did not exit 2"
echo "install-nvidia-driver.sh: ubuntu, rocky and unknown distributions as expected"
