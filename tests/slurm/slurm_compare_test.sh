#!/usr/bin/env bash
# The ctest test `slurm_compare` (issue 28, section 3): allocsim's schedule against a real
# Slurm's. Starts a Slurm of 8 nodes on 127.0.0.1 (cluster-up.sh --nodes 8, topology/tree with
# topology-compare.conf's three leaf switches), runs 100 sleep jobs on it and compares, pass by
# pass, what allocsim's scheduler and its slurm-tree allocator would do (slurm_compare.py), and
# takes the cluster down again, also on failure.
#
#   slurm_compare_test.sh ALLOCSIM SOURCE_DIR WORK_DIR [SLURM_COMPARE_OPTIONS...]
#
# N schedulable nodes, found out on Debian 12 (Slurm 22.05.8): several slurmd on one host work
# for batch jobs although Debian builds Slurm without --enable-multiple-slurmd. Each node is its
# own `NodeName=nK NodeHostname=HOST NodeAddr=127.0.0.1 Port=P` line and its own `slurmd -N nK`
# (spool, PID and log files per node through %n); slurmctld registers all of them, allocates
# whole nodes and starts batch scripts on them (checked with 4 and 8 nodes). What fails is
# `srun` of a step spanning several of these nodes ("task launch failed"), which the sleep jobs
# here do not use. Each node has one CPU, so a job of k tasks (--nodes=k --ntasks=k) holds k
# nodes: the model of `allocsim --machine flat:8` (and slurm-topology:topology-compare.conf).
# The single-node alternative (one node with CPUs=N, CR_Core) was not needed.
#
# About 2 to 2.5 minutes (the jobs take about 90 s; the cluster starts in 2 s). The debug flags
# Backfill,BackfillMap (SLURM_COMPARE_DEBUG_FLAGS overrides) let the comparison say what
# Slurm's backfill planned for each job that started at another pass than allocsim's.
#
# Exit status: 0 passed; 77 skipped (Slurm cannot be installed or started here; the reason is
# printed); anything else failed. Every daemon it starts is stopped by its PID file: by the
# EXIT trap, or, if this script is killed outright (ctest's timeout), by a detached watchdog.
set -uo pipefail

ALLOCSIM=${1:?usage: slurm_compare_test.sh ALLOCSIM SOURCE_DIR WORK_DIR [OPTIONS...]}
: "${2:?source dir}"  # SOURCE_DIR: the same arguments as slurm_test.sh
WORK=${3:?work dir}
shift 3
HERE=$(cd "$(dirname "$0")" && pwd)
NODES=8
SCHED_PARAMS=sched_interval=1,bf_interval=1,bf_resolution=1

[ -d "$WORK" ] && "$HERE/cluster-down.sh" "$WORK"
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

watchdog=""
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
    if [ -f "$WORK/log/slurmctld.log" ]; then
      echo "--- last lines of slurmctld.log"
      tail -n 15 "$WORK/log/slurmctld.log"
    fi
  fi
  "$HERE/cluster-down.sh" "$WORK"
  [ -n "$watchdog" ] && kill "$watchdog" 2>/dev/null
  exit "$status"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
(
  # shellcheck disable=SC2016 # expanded by the watchdog's own bash
  setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; "$2" "$3"' watchdog \
    $$ "$HERE/cluster-down.sh" "$WORK" </dev/null >/dev/null 2>&1 &
  echo $! >"$WORK/watchdog.pid"
)
watchdog=$(cat "$WORK/watchdog.pid")

"$HERE/cluster-up.sh" "$WORK" --nodes "$NODES" --sched-params "$SCHED_PARAMS" \
  --topology "$HERE/topology-compare.conf" \
  --debug-flags "${SLURM_COMPARE_DEBUG_FLAGS:-Backfill,BackfillMap}"
status=$?
[ "$status" -eq 0 ] || exit "$status"
# shellcheck source=/dev/null
. "$WORK/env"

/usr/bin/python3 "$HERE/slurm_compare.py" --allocsim "$ALLOCSIM" --work "$WORK" \
  --nodes "$NODES" --sched-params "$SCHED_PARAMS" --topology "$HERE/topology-compare.conf" "$@"
