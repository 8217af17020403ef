#!/bin/sh
# Installs an NVIDIA data-centre driver (and, with --docker, Docker with the NVIDIA container runtime) on a
# fresh cloud instance, when the GPU probe found none or one too old. GPU Planner offers it; it never runs it
# without the user's yes. The steps are NVIDIA's own for each distribution:
#   Ubuntu:       https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/index.html#ubuntu
#   Rocky/CentOS: https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/index.html#red-hat-enterprise-linux-rocky-linux
#   Container toolkit: https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html
# Branch 580 is the current long-term branch (CUDA 13, and the last to support V100); pass --branch 535 for
# an image that must stay on CUDA 12.
#
# Usage: install-nvidia-driver.sh [--branch N] [--docker] [--dry-run] [--os-release FILE]
#   --dry-run prints the commands instead of running them (what GPU Planner shows before asking).
set -eu

branch=580
docker=0
dry=0
os_release=/etc/os-release
while [ $# -gt 0 ]; do
    case "$1" in
        --branch) branch=${2:?--branch needs a number}; shift 2 ;;
        --docker) docker=1; shift ;;
        --dry-run) dry=1; shift ;;
        --os-release) os_release=${2:?--os-release needs a file}; shift 2 ;;
        *) echo "install-nvidia-driver.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
case "$branch" in *[!0-9]*|'') echo "install-nvidia-driver.sh: --branch must be a number, not '$branch'" >&2; exit 2 ;; esac

run() {
    if [ "$dry" -eq 1 ]; then
        echo "$*"
    else
        sh -c "$*"
    fi
}

[ -r "$os_release" ] || { echo "install-nvidia-driver.sh: cannot read $os_release: unknown distribution" >&2; exit 1; }
case "$os_release" in */*) ;; *) os_release="./$os_release" ;; esac # "." searches PATH for a bare name
# shellcheck disable=SC1090
. "$os_release"
id=${ID:-unknown}
version=${VERSION_ID:-}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo "

case "$id" in
    ubuntu)
        major=${version%%.*}; minor=${version#*.}
        repo="ubuntu${major}${minor}"
        run "${sudo}apt-get update"
        run "${sudo}apt-get install -y linux-headers-\$(uname -r) wget"
        run "wget -q https://developer.download.nvidia.com/compute/cuda/repos/${repo}/x86_64/cuda-keyring_1.1-1_all.deb -O /tmp/cuda-keyring.deb"
        run "${sudo}dpkg -i /tmp/cuda-keyring.deb"
        run "${sudo}apt-get update"
        run "${sudo}apt-get install -y nvidia-driver-${branch}-server-open || ${sudo}apt-get install -y cuda-drivers-${branch}"
        if [ "$docker" -eq 1 ]; then
            run "${sudo}apt-get install -y docker.io"
            run "curl -fsSL https://nvidia.github.io/libnvidia-container/gpgkey | ${sudo}gpg --dearmor -o /usr/share/keyrings/nvidia-container-toolkit-keyring.gpg"
            run "curl -s -L https://nvidia.github.io/libnvidia-container/stable/deb/nvidia-container-toolkit.list | sed 's#deb https://#deb [signed-by=/usr/share/keyrings/nvidia-container-toolkit-keyring.gpg] https://#g' | ${sudo}tee /etc/apt/sources.list.d/nvidia-container-toolkit.list"
            run "${sudo}apt-get update && ${sudo}apt-get install -y nvidia-container-toolkit"
            run "${sudo}nvidia-ctk runtime configure --runtime=docker && ${sudo}systemctl restart docker"
        fi
        ;;
    rocky|centos|rhel|almalinux)
        major=${version%%.*}
        run "${sudo}dnf install -y kernel-devel-\$(uname -r) kernel-headers-\$(uname -r) dnf-plugins-core"
        run "${sudo}dnf config-manager --add-repo https://developer.download.nvidia.com/compute/cuda/repos/rhel${major}/x86_64/cuda-rhel${major}.repo"
        run "${sudo}dnf module install -y nvidia-driver:${branch}-open || ${sudo}dnf install -y nvidia-driver-cuda-${branch}*"
        if [ "$docker" -eq 1 ]; then
            run "${sudo}dnf config-manager --add-repo https://download.docker.com/linux/centos/docker-ce.repo"
            run "${sudo}dnf install -y docker-ce && ${sudo}systemctl enable --now docker"
            run "curl -s -L https://nvidia.github.io/libnvidia-container/stable/rpm/nvidia-container-toolkit.repo | ${sudo}tee /etc/yum.repos.d/nvidia-container-toolkit.repo"
            run "${sudo}dnf install -y nvidia-container-toolkit"
            run "${sudo}nvidia-ctk runtime configure --runtime=docker && ${sudo}systemctl restart docker"
        fi
        ;;
    *)
        echo "install-nvidia-driver.sh: $id $version is not a distribution this script knows (Ubuntu, Rocky, CentOS, RHEL, AlmaLinux); install the driver by NVIDIA's guide for it" >&2
        exit 1
        ;;
esac
echo "install-nvidia-driver.sh: done; reboot so the new driver loads (sudo reboot), then verify again"
