#!/usr/bin/env bash
# The ctest test `slurm_skip_reason_chroot` (issue 25: "slurm_skip_reason fails instead of
# skipping where unshare --propagation private is not possible (a chroot, where / is not a mount
# point)"). Runs skip_reason_test.sh in a chroot whose / is a plain folder (not a mount point),
# made inside a private mount namespace of its own so that nothing is left mounted:
#   1. with the cgroup file systems visible (/sys bound recursively): it cannot hide them
#      safely and must skip (exit 77) saying why, not fail;
#   2. without them (/sys bound alone): there is nothing to hide, and it must pass (cluster-up.sh
#      skips for the missing cgroups before starting a daemon, and the reason is listed).
#
#   chroot_skip_test.sh SOURCE_DIR WORK_DIR
#
# Exit status: 0 passed; 77 skipped (no root, no unshare or no mount namespace here, reason
# printed); anything else failed.
set -uo pipefail
SOURCE=$(cd "${1:?usage: chroot_skip_test.sh SOURCE_DIR WORK_DIR}" && pwd)
WORK=${2:?work dir}
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$WORK" && mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd) || exit 1

[ "$(id -u)" -eq 0 ] || { echo "SKIP: a chroot needs root"; exit 77; }
command -v unshare >/dev/null || { echo "SKIP: unshare (util-linux) not found"; exit 77; }
if ! error=$(unshare --mount --propagation private true 2>&1); then
  echo "SKIP: no private mount namespace here to build the chroot in ($error)"
  exit 77
fi

# In the namespace: ROOT (a folder, no mount point) gets /usr, /etc, /var, /dev, /proc, /sys
# (recursively or not), the source tree and WORK at their own paths, and a /tmp of its own.
run_in_chroot() {  # NAME SYS_BIND_OPTION: prints skip_reason_test.sh's output, returns its status
  local name=$1 sys_bind=$2 root=$WORK/$1/root
  mkdir -p "$root" "$WORK/$name/tmp"
  # shellcheck disable=SC2016 # expanded by the inner bash
  unshare --mount --propagation private bash -c '
    set -e
    root=$1 sys_bind=$2 source=$3 work=$4 here=$5 name=$6
    for dir in usr etc var dev proc sys tmp; do mkdir -p "$root/$dir"; done
    for link in bin sbin lib lib32 lib64; do
      [ -L "/$link" ] && ln -sfn "$(readlink "/$link")" "$root/$link"
    done
    for dir in usr etc var dev proc; do mount --rbind "/$dir" "$root/$dir"; done
    mount "$sys_bind" /sys "$root/sys"
    mount --bind "$work/$name/tmp" "$root/tmp"
    mkdir -p "$root/$source" "$root/$work"  # after /tmp, which may hold them
    mount --bind "$source" "$root/$source"
    mount --bind "$work" "$root/$work"
    set +e
    exec chroot "$root" "$here/skip_reason_test.sh" "$source" "$work/$name/skip"
  ' chroot-skip "$root" "$sys_bind" "$SOURCE" "$WORK" "$HERE" "$name" 2>&1
}

# 1. cgroups visible, no private mount namespace possible: skip with the reason.
output=$(run_in_chroot with-cgroups --rbind)
status=$?
echo "--- in a chroot with the cgroup file systems visible:"
echo "$output"
[ "$status" -eq 77 ] ||
  { echo "FAIL: skip_reason_test.sh in a chroot exited $status, not 77 (skipped)"; exit 1; }
grep -q '^SKIP: cannot hide the cgroup file systems: no private mount namespace' <<<"$output" ||
  { echo "FAIL: skipped without saying that no private mount namespace can be made"; exit 1; }
# A host whose / is no mount point either would have made this a plain run: check it was not.
if ! stat -f -c %T /sys/fs/cgroup /sys/fs/cgroup/*/ 2>/dev/null | grep -q -E '^cgroup2?fs$'; then
  echo "SKIP: no cgroup file system mounted on this host: case 1 did not test its skip"
  exit 77
fi

# 2. no cgroups in the chroot: nothing to hide, the test runs and passes.
output=$(run_in_chroot without-cgroups --bind)
status=$?
echo "--- in a chroot without cgroup file systems:"
echo "$output"
case $status in
  0) ;;
  77) echo "SKIP: in the chroot: $(grep '^SKIP:' <<<"$output" | tail -n 1 | cut -c7-)"; exit 77 ;;
  *) echo "FAIL: skip_reason_test.sh in a chroot without cgroups exited $status, not 0"; exit 1 ;;
esac
echo "PASS: in a chroot the Slurm skip test skips (cgroups visible) or runs (none), never fails"
