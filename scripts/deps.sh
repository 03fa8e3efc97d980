#!/usr/bin/env bash
# Installs the Debian packages allocsim needs, only when something is missing (idempotent).
set -euo pipefail
PACKAGES=(
  build-essential cmake pkg-config git
  libopenmpi-dev openmpi-bin libboost-mpi-dev libboost-serialization-dev
  libhdf5-dev libgtest-dev libbenchmark-dev libtomlplusplus-dev libcli11-dev zlib1g-dev
  libmetis-dev libscotch-dev
  python3 python3-h5py python3-pandas python3-matplotlib
)
missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} Debian packages present"
  exit 0
fi
echo "deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
