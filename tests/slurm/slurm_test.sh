#!/usr/bin/env bash
# The ctest test `slurm_jobs`: starts a one-node Slurm cluster on 127.0.0.1, submits
# the jobs/ scripts to it (slurm_jobs.py) and takes the cluster down again, also on failure.
#
#   slurm_test.sh ALLOCSIM SOURCE_DIR WORK_DIR [MPIRUN]
#
# Exit status: 0 passed; 77 skipped (Slurm cannot be installed or started here; the reason is
# printed); anything else failed. Every daemon it starts is stopped by its PID file: by the
# EXIT trap, or, if this script is killed outright (ctest's timeout sends SIGKILL), by a
# detached watchdog that waits for this script's end.
set -uo pipefail

ALLOCSIM=${1:?usage: slurm_test.sh ALLOCSIM SOURCE_DIR WORK_DIR [MPIRUN]}
SOURCE=${2:?source dir}
WORK=${3:?work dir}
MPIRUN=${4:-mpirun}
HERE=$(cd "$(dirname "$0")" && pwd)

# A previous run killed before its cleanup may have left daemons: stop those first.
[ -d "$WORK" ] && "$HERE/cluster-down.sh" "$WORK"
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

watchdog=""
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
    for f in "$WORK"/log/slurmctld.log "$WORK"/log/slurmd.log; do
      [ -f "$f" ] && { echo "--- last lines of $f"; tail -n 15 "$f"; }
    done
  fi
  "$HERE/cluster-down.sh" "$WORK"
  [ -n "$watchdog" ] && kill "$watchdog" 2>/dev/null
  exit "$status"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# The watchdog is no descendant of this script (ctest's timeout kills the whole process tree),
# holds no pipe of ctest's (all stdio redirected) and leaves with this script.
(
  # shellcheck disable=SC2016 # expanded by the watchdog's own bash
  setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; "$2" "$3"' watchdog \
    $$ "$HERE/cluster-down.sh" "$WORK" </dev/null >/dev/null 2>&1 &
  echo $! >"$WORK/watchdog.pid"
)
watchdog=$(cat "$WORK/watchdog.pid")

"$HERE/cluster-up.sh" "$WORK"
status=$?
[ "$status" -eq 0 ] || exit "$status"
# shellcheck source=/dev/null
. "$WORK/env"

/usr/bin/python3 "$HERE/slurm_jobs.py" --allocsim "$ALLOCSIM" --source "$SOURCE" \
  --mpirun "$MPIRUN" --work "$WORK"
