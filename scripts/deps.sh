#!/usr/bin/env bash
# Installs the Debian packages allocsim needs, only when something is missing (idempotent).
#   scripts/deps.sh          build, run and analysis packages
#   scripts/deps.sh --slurm  the same plus Slurm and munge for the Slurm test (tests/slurm), and
#                            munge's key /etc/munge/munge.key when missing (scripts/test.sh uses it)
set -euo pipefail
PACKAGES=(
  build-essential cmake pkg-config git
  libopenmpi-dev openmpi-bin libboost-mpi-dev libboost-serialization-dev
  libhdf5-dev libgtest-dev libbenchmark-dev libtomlplusplus-dev libcli11-dev zlib1g-dev
  libmetis-dev libscotch-dev libyaml-cpp-dev nlohmann-json3-dev libssl-dev libboost-dev clang-format-14
  python3 python3-h5py python3-pandas python3-matplotlib
  pybind11-dev python3-dev python3-pytest
)
SLURM_PACKAGES=(slurmctld slurmd slurm-client munge)
with_slurm=0
for argument in "$@"; do
  case "$argument" in
    --slurm) with_slurm=1 ;;
    *) echo "deps: unknown option '$argument' (expected --slurm)" >&2; exit 2 ;;
  esac
done
[ "$with_slurm" -eq 1 ] && PACKAGES+=("${SLURM_PACKAGES[@]}")

# Root runs commands directly, others through sudo; without sudo, say what to do instead.
SUDO=""
need_root() {  # WHAT: what needs root, for the message
  [ "$(id -u)" -eq 0 ] && return 0
  if ! command -v sudo >/dev/null; then
    echo "deps: $1 needs root: run this script as root, or install sudo, or do it yourself:" >&2
    shift
    echo "      $*" >&2
    exit 1
  fi
  SUDO="sudo"
}

missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} Debian packages present"
else
  echo "deps: installing ${missing[*]}"
  need_root "installing ${#missing[@]} missing packages" apt-get install "${missing[@]}"
  $SUDO apt-get update -qq
  # The packages' own services are not started (the Slurm test starts private daemons): unless
  # the system has a policy-rc.d, one that refuses every start is in place while installing.
  # Without it, in a chroot or a container without systemd, the packages would run munge's and
  # Slurm's init scripts: a munged left running in the chroot, or a failed start failing apt.
  policy=/usr/sbin/policy-rc.d
  own_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# written by allocsim scripts/deps.sh while it installs\nexit 101\n' |
      $SUDO tee "$policy" >/dev/null
    $SUDO chmod 0755 "$policy"
    own_policy=1
    trap '$SUDO rm -f "$policy"' EXIT
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    -o DPkg::Lock::Timeout=120 "${missing[@]}"
  if [ "$own_policy" -eq 1 ]; then
    $SUDO rm -f "$policy"
    trap - EXIT
  fi
fi

if [ "$with_slurm" -eq 1 ] && [ ! -s /etc/munge/munge.key ]; then
  echo "deps: creating /etc/munge/munge.key"
  need_root "creating /etc/munge/munge.key" mungekey --create --keyfile=/etc/munge/munge.key
  $SUDO mkdir -p /etc/munge
  if command -v mungekey >/dev/null; then
    $SUDO mungekey --create --keyfile=/etc/munge/munge.key --force
  else
    $SUDO dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  if getent passwd munge >/dev/null; then $SUDO chown munge:munge /etc/munge/munge.key; fi
  $SUDO chmod 0400 /etc/munge/munge.key
fi
