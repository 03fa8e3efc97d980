#!/usr/bin/env bash
# The ctest test `slurm_skip_reason` (issue 16: "in a container without cgroups its skip reason
# is printed by scripts/test.sh"). In a private mount namespace whose cgroup file systems are
# unmounted (what a chroot or a container without cgroups looks like), cluster-up.sh must skip
# (exit 77) before starting any daemon, with a reason naming the missing cgroups; and
# scripts/list-skips.py, which scripts/test.sh runs on ctest's JUnit file, must print it.
#
#   skip_reason_test.sh SOURCE_DIR WORK_DIR
#
# Where no cgroup file system is mounted in the first place (a chroot, a container without
# cgroups), cluster-up.sh runs as it is. Where cgroups are mounted but no private mount namespace
# can be made (a chroot whose / is not a mount point), it skips: unmounting them would reach the
# host's.
#
# Exit status: 0 passed; 77 skipped (no root, no unshare or no private mount namespace here, or
# Slurm not installed, reason printed); anything else failed.
set -uo pipefail
SOURCE=${1:?usage: skip_reason_test.sh SOURCE_DIR WORK_DIR}
WORK=${2:?work dir}
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1

[ "$(id -u)" -eq 0 ] || { echo "SKIP: hiding the cgroup file systems needs root"; exit 77; }
command -v unshare >/dev/null || { echo "SKIP: unshare (util-linux) not found"; exit 77; }
cgroups_mounted() {
  stat -f -c %T /sys/fs/cgroup /sys/fs/cgroup/*/ 2>/dev/null | grep -q -E '^cgroup2?fs$'
}
if ! cgroups_mounted; then
  # Nothing to hide (a chroot or a container without cgroups): cluster-up.sh as it is.
  output=$("$HERE/cluster-up.sh" "$WORK/cluster" 2>&1)
  status=$?
else
  # A private mount namespace, so that unmounting there leaves the host's cgroups alone. It
  # needs / to be a mount point: in a chroot it is not, and unshare fails ("cannot change root
  # filesystem propagation: Invalid argument"); the cgroups then cannot be hidden safely.
  if ! error=$(unshare --mount --propagation private true 2>&1); then
    echo "SKIP: cannot hide the cgroup file systems: no private mount namespace here" \
      "(unshare --mount --propagation private: ${error:-failed}; in a chroot / is not a" \
      "mount point)"
    exit 77
  fi
  # Inside the namespace: unmount every cgroup file system, make sure none is left (else exit
  # 90 and never start a cluster), then run cluster-up.sh.
  # shellcheck disable=SC2016 # expanded by the inner bash
  output=$(unshare --mount --propagation private bash -c '
    umount -R /sys/fs/cgroup 2>/dev/null
    if stat -f -c %T /sys/fs/cgroup /sys/fs/cgroup/*/ 2>/dev/null | grep -q -E "^cgroup2?fs$"; then
      exit 90
    fi
    exec "$1" "$2"' hide-cgroups "$HERE/cluster-up.sh" "$WORK/cluster" 2>&1)
  status=$?
fi
echo "$output"
case $status in
  90) echo "SKIP: could not unmount the cgroup file systems in a private mount namespace"; exit 77 ;;
  77) ;;
  *) echo "FAIL: cluster-up.sh without cgroups exited $status, not 77 (skipped)"; exit 1 ;;
esac
reason=$(grep '^SKIP:' <<<"$output" | tail -n 1)
if ! grep -q 'no cgroup file system mounted at /sys/fs/cgroup' <<<"$reason"; then
  # An earlier check skipped (Slurm or munge not installed): pass its reason on.
  echo "SKIP: cluster-up.sh skipped before the cgroup check: ${reason#SKIP: }"
  exit 77
fi
[ ! -e "$WORK/cluster/pids/slurmd.pid" ] || { echo "FAIL: slurmd was started"; exit 1; }

# What scripts/test.sh prints: list-skips.py over a JUnit file in ctest's format holding the
# skipped test's output.
/usr/bin/python3 - "$WORK/results.xml" "$output" <<'PY'
import sys
from xml.sax.saxutils import escape
path, output = sys.argv[1], sys.argv[2]
with open(path, "w") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite tests="1" skipped="1">\n'
              '<testcase name="slurm_jobs" status="notrun"><skipped message="Skipped"/>'
              f'<system-out>{escape(output)}</system-out></testcase>\n</testsuite>\n')
PY
listing=$(/usr/bin/python3 "$SOURCE/scripts/list-skips.py" "$WORK/results.xml")
echo "$listing"
grep -q '^  slurm_jobs$' <<<"$listing" || { echo "FAIL: list-skips.py did not list slurm_jobs"; exit 1; }
grep -q 'SKIP: no cgroup file system mounted at /sys/fs/cgroup' <<<"$listing" ||
  { echo "FAIL: list-skips.py did not print the reason"; exit 1; }
echo "PASS: without cgroups the Slurm test skips and its reason is listed"
