#!/usr/bin/env bash
# Takes down the cluster that cluster-up.sh WORK started. Usage: cluster-down.sh WORK
#
# Cancels the jobs still queued, then stops exactly the processes named in WORK/pids (slurmd,
# slurmctld, munged, in that order): TERM, then KILL after 10 s. A PID is signalled only while
# its command line still names WORK (so a reused PID is never hit). Job steps left behind by a
# killed slurmd are found by the SLURM_CONF=WORK/etc/slurm.conf in their environment, never by
# name. Safe to run twice, or on a WORK where nothing was started.
set -uo pipefail

WORK=${1:?usage: cluster-down.sh WORK}
[ -d "$WORK/pids" ] || exit 0
WORK=$(cd "$WORK" && pwd)
CONF=$WORK/etc/slurm.conf
RUN=$(cat "$WORK/rundir" 2>/dev/null)

ours() {  # PID: alive and started for this cluster (its command line names WORK or RUN)
  local pid=$1 cmdline
  [ -n "$pid" ] && cmdline=$({ tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null) || return 1
  [[ "$cmdline" == *"$WORK/"* ]] || { [ -n "$RUN" ] && [[ "$cmdline" == *"$RUN/"* ]]; }
}

stop_pid() {  # PID NAME
  local pid=$1 name=$2
  ours "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || { echo "[cluster-down] stopped $name ($pid)"; return 0; }
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null
  echo "[cluster-down] killed $name ($pid): it ignored SIGTERM for 10 s"
}

# 1. Jobs: cancel what is left and give the steps a moment to end.
ctld_pid=$(cat "$WORK/pids/slurmctld.pid" 2>/dev/null)
if [ -f "$CONF" ] && ours "$ctld_pid"; then
  export SLURM_CONF=$CONF
  jobs=$(timeout 10 squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ')
  if [ -n "$jobs" ]; then
    echo "[cluster-down] cancelling jobs $jobs"
    # shellcheck disable=SC2086
    timeout 10 scancel $jobs 2>/dev/null
    for _ in $(seq 100); do
      [ -z "$(timeout 5 squeue -h -t R,CG,S -o %A 2>/dev/null)" ] && break
      sleep 0.1
    done
  fi
fi

# 2. The daemons, by their PID files.
# slurmd.NAME.pid: one slurmd per node of `cluster-up.sh --nodes N`.
for pidfile in "$WORK"/pids/slurmd.pid "$WORK"/pids/slurmd.*.pid "$WORK"/pids/slurmctld.pid; do
  [ -f "$pidfile" ] || continue
  name=${pidfile##*/}
  stop_pid "$(cat "$pidfile" 2>/dev/null)" "${name%.pid}"
done

# 3. Job steps that outlived slurmd (slurmstepd and its tasks carry our SLURM_CONF).
ancestors=" "
pid=$$
while [ "${pid:-0}" -gt 1 ]; do
  ancestors+="$pid "
  pid=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f2)
done
leftovers=()
for environ in /proc/[0-9]*/environ; do
  pid=${environ#/proc/}
  pid=${pid%/environ}
  [[ "$ancestors" == *" $pid "* ]] && continue
  env_text=$({ tr '\0' '\n' <"$environ"; } 2>/dev/null) || continue
  grep -qxF "SLURM_CONF=$CONF" <<<"$env_text" || continue
  comm=$(cat "/proc/$pid/comm" 2>/dev/null)
  if [ "$comm" = slurmstepd ] || grep -q '^SLURM_JOB_ID=' <<<"$env_text"; then
    leftovers+=("$pid")
  fi
done
if [ ${#leftovers[@]} -gt 0 ]; then
  echo "[cluster-down] stopping job processes left behind: ${leftovers[*]}"
  kill -KILL "${leftovers[@]}" 2>/dev/null
fi

# 4. munged last: the others authenticate through it until they are gone.
stop_pid "$(cat "$WORK/pids/munged.pid" 2>/dev/null)" munged
rm -f "$WORK"/pids/*.pid
# The socket directory cluster-up.sh made under /tmp.
case $RUN in
  /tmp/allocsim-slurm.*) rm -rf "$RUN" "$WORK/rundir" ;;
esac
exit 0
