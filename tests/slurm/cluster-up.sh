#!/usr/bin/env bash
# Brings up a one-node Slurm cluster on 127.0.0.1 whose configuration, state, logs and PID files
# live in WORK, and its Unix sockets in a short /tmp/allocsim-slurm.* folder named in
# WORK/rundir. Usage: cluster-up.sh WORK [--nodes N] [--cpus C] [--topology FILE]
#                            [--sched-params LIST] [--debug-flags LIST]
#
# - default: one node named after the host, 8 CPUs (the jobs/ scripts' test, slurm_test.sh);
# - --nodes N: N nodes n0 .. n(N-1), each its own slurmd on 127.0.0.1 with a port of its own
#   (NodeHostname=the host, `slurmd -N nK`), C CPUs each (default 1); slurm_compare_test.sh
#   says what Debian 12's Slurm 22.05 does with that;
# - --topology FILE: TopologyPlugin=topology/tree with FILE as topology.conf;
# - --sched-params LIST: SchedulerParameters (default sched_interval=1,bf_interval=1);
# - --debug-flags LIST: slurmctld DebugFlags (e.g. Backfill,BackfillMap: each reservation logged);
# - the nodes: WORK/nodes, one name a line.
#
# - expects slurmctld, slurmd, slurm-client, munge and /etc/munge/munge.key (installed by
#   `scripts/deps.sh --slurm`; a test never installs anything) and starts a private munged;
# - writes WORK/etc/slurm.conf (free TCP ports, so two test runs on one host do not collide);
# - starts munged, slurmctld and slurmd in the background, each recorded in WORK/pids/NAME.pid,
#   and waits until the node is idle;
# - writes WORK/env, to be sourced: SLURM_CONF and the Open MPI settings jobs need.
#
# Exit status: 0 up; 77 Slurm cannot be installed or started here (reason on stdout; the
# daemons already started are stopped again); 1 usage error. Stop with cluster-down.sh WORK,
# which stops exactly the processes named in WORK/pids.
set -uo pipefail

USAGE="usage: cluster-up.sh WORK [--nodes N] [--cpus C] [--topology FILE] [--sched-params LIST]"
USAGE+=" [--debug-flags LIST]"
WORK=${1:?$USAGE}
shift
NODES=0  # 0: the one node named after the host
CPUS=""
TOPOLOGY=""
SCHED_PARAMS=sched_interval=1,bf_interval=1
DEBUG_FLAGS=""
while [ $# -gt 0 ]; do
  case $1 in
    --nodes) NODES=${2:?$USAGE}; shift 2 ;;
    --cpus) CPUS=${2:?$USAGE}; shift 2 ;;
    --topology) TOPOLOGY=${2:?$USAGE}; shift 2 ;;
    --sched-params) SCHED_PARAMS=${2:?$USAGE}; shift 2 ;;
    --debug-flags) DEBUG_FLAGS=${2:?$USAGE}; shift 2 ;;
    *) echo "$USAGE" >&2; exit 1 ;;
  esac
done
usage_error() { echo "$*" >&2; exit 1; }
[[ "$NODES" =~ ^[0-9]+$ && "$NODES" -le 64 ]] || usage_error "--nodes: 0 .. 64, not '$NODES'"
[[ -z "$CPUS" || "$CPUS" =~ ^[1-9][0-9]*$ ]] || usage_error "--cpus: a positive count, not '$CPUS'"
[ -z "$TOPOLOGY" ] || [ -r "$TOPOLOGY" ] || usage_error "--topology: cannot read '$TOPOLOGY'"
[ -z "$TOPOLOGY" ] || TOPOLOGY=$(cd "$(dirname "$TOPOLOGY")" && pwd)/$(basename "$TOPOLOGY")
mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd) || exit 1
HERE=$(cd "$(dirname "$0")" && pwd)
PACKAGES=(slurmctld slurmd slurm-client munge)

skip() {
  echo "SKIP: $*"
  "$HERE/cluster-down.sh" "$WORK" >/dev/null 2>&1
  exit 77
}
log() { echo "[cluster-up $(date +%T)] $*"; }
tail_of() { tail -q -n 5 "$@" 2>/dev/null | tr '\n' ' '; }  # FILES: their last lines, on one line

# ---- packages (installed by `scripts/deps.sh --slurm`, never by a test) ---------------------
missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] || skip "${missing[*]} not installed: run scripts/deps.sh --slurm"
for tool in munged slurmctld slurmd sbatch squeue scontrol srun; do
  command -v "$tool" >/dev/null || skip "$tool not found after installing ${PACKAGES[*]}"
done
[ "$(id -u)" -eq 0 ] || skip "the test cluster runs its daemons as root (SlurmUser=root)"

# ---- cgroups ---------------------------------------------------------------------------------
# slurmd (22.05) initialises its cgroup support at start-up even with proctrack/linuxproc and
# task/none, and exits ("Unable to initialize cgroup") when no cgroup file system is mounted, as
# in a chroot or a container started without one. Checked first so that the reason is plain.
CGROUP_ROOT=/sys/fs/cgroup
stat -f -c %T "$CGROUP_ROOT" "$CGROUP_ROOT"/*/ 2>/dev/null | grep -q -E '^cgroup2?fs$' ||
  skip "no cgroup file system mounted at $CGROUP_ROOT (slurmd cannot start without one):" \
    "run the Slurm test on a host, or in a container with cgroups mounted"

# ---- munge -----------------------------------------------------------------------------------
KEY=/etc/munge/munge.key
[ -s "$KEY" ] || skip "$KEY missing: run scripts/deps.sh --slurm"
# Debian's munged runs as user munge (it refuses a key it does not own); our private munged runs
# as the key's owner. Unix sockets (munged's, slurmd's and its job steps') go to a short
# directory under /tmp, as a socket path must fit in 108 bytes and WORK may lie deep in a build
# tree; cluster-down.sh removes it. No /run/munge: nothing here uses the default socket.
mkdir -p "$WORK/pids" "$WORK/log" "$WORK/etc" "$WORK/state"
KEY_OWNER=$(stat -c %U "$KEY")
RUN=$(mktemp -d /tmp/allocsim-slurm.XXXXXX) || skip "cannot create a directory in /tmp"
echo "$RUN" >"$WORK/rundir"
mkdir -p "$RUN/munge" "$RUN/spool"
chmod 0755 "$RUN" "$RUN/munge"
chown "$KEY_OWNER" "$RUN/munge"
MUNGE_SOCKET=$RUN/munge/munge.socket.2
start_daemon() {  # NAME LOG COMMAND...: runs COMMAND in the foreground of a background job
  local name=$1 logfile=$2
  shift 2
  # setsid: ctest's or a terminal's signals to the process group do not reach the daemon
  # before cluster-down.sh stops it; no inherited stdio, so ctest never waits on its pipes.
  setsid "$@" </dev/null >>"$logfile" 2>&1 &
  echo $! >"$WORK/pids/$name.pid"
}
MUNGED=(munged --foreground --socket="$MUNGE_SOCKET" --key-file="$KEY"
        --seed-file="$RUN/munge/munged.seed" --pid-file="$RUN/munge/munged.pid")
if [ "$KEY_OWNER" = root ]; then
  start_daemon munged "$WORK/log/munged.out" "${MUNGED[@]}"
else
  start_daemon munged "$WORK/log/munged.out" setpriv --reuid="$KEY_OWNER" \
    --regid="$(stat -c %G "$KEY")" --init-groups "${MUNGED[@]}"
fi
for _ in $(seq 100); do
  [ -S "$MUNGE_SOCKET" ] && munge --socket="$MUNGE_SOCKET" -n </dev/null 2>/dev/null |
    unmunge --socket="$MUNGE_SOCKET" >/dev/null 2>&1 && break
  sleep 0.1
done
munge --socket="$MUNGE_SOCKET" -n </dev/null 2>/dev/null |
  unmunge --socket="$MUNGE_SOCKET" >/dev/null 2>&1 ||
  skip "munged did not start: $(tail_of "$WORK/log/munged.out")"
log "munged up ($MUNGE_SOCKET)"

# ---- slurm.conf ------------------------------------------------------------------------------
# One port for slurmctld and one for each slurmd.
PORTS=$(/usr/bin/python3 - "$((NODES > 0 ? NODES + 1 : 2))" <<'PY'
import socket
import sys
sockets = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))
PY
)
read -r CTLD_PORT SLURMD_PORT _ <<<"$PORTS"
read -r -a NODE_PORTS <<<"${PORTS#* }"
[ -n "${SLURMD_PORT:-}" ] || skip "no free TCP port on 127.0.0.1"
HOST=$(hostname -s)
if [ "$NODES" -eq 0 ]; then
  CPUS=${CPUS:-8}
  NODE_NAMES=("$HOST")
  # RealMemory is advertised (config_overrides), large enough for the jobs/ scripts' --mem.
  NODE_LINES="NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS Sockets=1 CoresPerSocket=$CPUS ThreadsPerCore=1 RealMemory=65536 State=UNKNOWN"
  SLURMD_FILES="SlurmdSpoolDir=$RUN/spool
SlurmdPidFile=$WORK/state/slurmd.pid
SlurmdLogFile=$WORK/log/slurmd.log"
else
  CPUS=${CPUS:-1}
  NODE_NAMES=()
  NODE_LINES=""
  for ((i = 0; i < NODES; i++)); do
    NODE_NAMES+=("n$i")
    NODE_LINES+="NodeName=n$i NodeHostname=$HOST NodeAddr=127.0.0.1 Port=${NODE_PORTS[$i]} CPUs=$CPUS Sockets=1 CoresPerSocket=$CPUS ThreadsPerCore=1 RealMemory=1024 State=UNKNOWN
"
  done
  # %n: each slurmd its own spool folder, PID file and log.
  SLURMD_FILES="SlurmdSpoolDir=$RUN/spool/%n
SlurmdPidFile=$WORK/state/slurmd.%n.pid
SlurmdLogFile=$WORK/log/slurmd.%n.log"
  for name in "${NODE_NAMES[@]}"; do mkdir -p "$RUN/spool/$name"; done
fi
printf '%s\n' "${NODE_NAMES[@]}" >"$WORK/nodes"
TOPOLOGY_LINES=""
if [ -n "$TOPOLOGY" ]; then
  cp "$TOPOLOGY" "$WORK/etc/topology.conf"
  TOPOLOGY_LINES="TopologyPlugin=topology/tree"
fi
cat >"$WORK/etc/slurm.conf" <<EOF
# Nodes on 127.0.0.1, written by tests/slurm/cluster-up.sh.
ClusterName=allocsim-test
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire also sets how long a requeued job waits before it may start again (default 120 s).
AuthInfo=socket=$MUNGE_SOCKET,cred_expire=10
StateSaveLocation=$WORK/state
SlurmctldPidFile=$WORK/state/slurmctld.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
$SLURMD_FILES
# debug2: the log then shows each time-limit check ("Testing job time limits", every 30 s),
# which the test uses to time its --signal job.
SlurmctldDebug=debug2
SlurmdDebug=info
${DEBUG_FLAGS:+DebugFlags=$DEBUG_FLAGS}
# No cgroups, no accounting (wait with squeue / scontrol show job, not sacct).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# Debian's Open MPI has PMIx but no PMI-1/2.
MpiDefault=pmix
# More CPUs than the machine's cores, so that a few small jobs run side by side.
SlurmdParameters=config_overrides
SchedulerType=sched/backfill
# Look at pending jobs every second (defaults: 60 s and 30 s), so that a requeued job starts as
# soon as its begin time has come.
SchedulerParameters=$SCHED_PARAMS
MailProg=/bin/true
ReturnToService=2
KillWait=5
MinJobAge=600
InactiveLimit=0
Waittime=0
$TOPOLOGY_LINES
$NODE_LINES
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
# PMIx's per-step client directories (spmix_appdir_<uid>_<job>.<step>, in /tmp by default) go
# to RUN too: job ids start again at 1 in every test cluster, and a step killed outright leaves
# its directory behind, which would make the next cluster's step of that id fail.
mkdir -p "$RUN/pmix"
echo "PMIxCliTmpDirBase=$RUN/pmix" >"$WORK/etc/mpi.conf"
export SLURM_CONF=$WORK/etc/slurm.conf

# ---- daemons ---------------------------------------------------------------------------------
start_daemon slurmctld "$WORK/log/slurmctld.out" slurmctld -D -i -f "$SLURM_CONF"
if [ "$NODES" -eq 0 ]; then
  start_daemon slurmd "$WORK/log/slurmd.out" slurmd -D -f "$SLURM_CONF" -N "$HOST"
  DAEMONS=(slurmctld slurmd)
else
  DAEMONS=(slurmctld)
  for name in "${NODE_NAMES[@]}"; do
    start_daemon "slurmd.$name" "$WORK/log/slurmd.$name.out" slurmd -D -f "$SLURM_CONF" -N "$name"
    DAEMONS+=("slurmd.$name")
  done
fi
NODE_LIST=$(IFS=,; echo "${NODE_NAMES[*]}")
state=""
for _ in $(seq 1800); do
  state=$(sinfo -h -n "$NODE_LIST" -o %T 2>/dev/null | sort -u | tr '\n' ' ')
  [ "$state" = "idle " ] && break
  for name in "${DAEMONS[@]}"; do
    kill -0 "$(cat "$WORK/pids/$name.pid")" 2>/dev/null ||
      skip "$name exited at start-up: $(tail_of "$WORK/log/$name.out" "$WORK/log/$name.log")"
  done
  sleep 0.1
done
[ "$state" = "idle " ] ||
  skip "nodes $NODE_LIST not all idle after 180 s (states '${state}'):" \
    "$(tail_of "$WORK"/log/slurmd*.log)"
log "slurmctld :$CTLD_PORT and slurmd :${NODE_PORTS[*]} up," \
  "nodes $NODE_LIST idle with $CPUS CPUs each"

# Open MPI names its shared-memory segments after the host and the job id, and this private
# cluster numbers its jobs from 1 again on every run: two runs at once (or a segment left by a
# job killed at its time limit) would map each other's segments and crash in the shared-memory
# transport. Each run keeps its segments in a folder of its own.
mkdir -p "$WORK/shm"
cat >"$WORK/env" <<EOF
export SLURM_CONF=$SLURM_CONF
# Open MPI as root, and all of its traffic on the loopback interface.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
export PMIX_MCA_ptl_tcp_if_include=lo
export OMPI_MCA_btl_vader_backing_directory=$WORK/shm OMPI_MCA_osc_sm_backing_directory=$WORK/shm
EOF
exit 0
