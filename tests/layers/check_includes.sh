#!/bin/sh
# Include rules between layers (README "Layout"): fails listing every include that breaks one.
# Usage: check_includes.sh SOURCE_DIR
root=${1:?source dir}
cd "$root" || exit 2
status=0
# forbid FOLDERS PATTERN WHY: no file under FOLDERS has an #include line matching PATTERN.
forbid() {
  folders=$1 pattern=$2 why=$3
  hits=$(grep -rnE "^#include [<\"]($pattern)" $folders 2>/dev/null)
  if [ -n "$hits" ]; then
    echo "$why:"
    echo "$hits"
    status=1
  fi
}
core="src/util src/topo src/workload src/geom src/alloc src/sched src/sim src/metrics src/network
      src/mapping include/allocsim/mapping include/allocsim/network include/allocsim/util include/allocsim/topo include/allocsim/workload include/allocsim/geom
      include/allocsim/alloc include/allocsim/sched include/allocsim/sim include/allocsim/metrics"
below_cli="$core src/output include/allocsim/output src/sweep include/allocsim/sweep"
# The core's own layers (docs/ARCHITECTURE.md): util includes no other layer; topo and workload
# include only util; geom only util and topo; metrics util, topo, workload and network (the one
# routing of bytes onto links); mapping also metrics; alloc util, topo, workload and geom; schedulers see their context, never the Simulation.
forbid "src/util include/allocsim/util" \
  'allocsim/(topo|workload|geom|alloc|sched|sim|metrics|mapping|network)/' "util/ includes no other layer"
forbid "src/topo include/allocsim/topo" \
  'allocsim/(workload|geom|alloc|sched|sim|metrics|mapping|network)/' "topo/ includes only util/"
forbid "src/workload include/allocsim/workload" \
  'allocsim/(topo|geom|alloc|sched|sim|metrics|mapping|network)/' "workload/ includes only util/"
forbid "src/geom include/allocsim/geom" 'allocsim/(workload|alloc|sched|sim|metrics|mapping|network)/' \
  "geom/ includes only util/ and topo/"
forbid "src/metrics include/allocsim/metrics" 'allocsim/(geom|alloc|sched|sim|mapping)/' \
  "metrics/ includes only util/, topo/, workload/ and network/ (bytes on links)"
forbid "src/mapping include/allocsim/mapping" 'allocsim/(geom|alloc|sched|sim|network)/' \
  "mapping/ includes only util/, topo/, workload/ and metrics/"
forbid "src/alloc include/allocsim/alloc" 'allocsim/(sched|sim|metrics|mapping|network)/' \
  "alloc/ includes only util/, topo/, workload/ and geom/"
forbid "src/network include/allocsim/network" \
  'allocsim/(workload|geom|alloc|sched|sim|metrics|mapping)/' "network/ includes only util/ and topo/"
forbid "src/sched include/allocsim/sched" 'allocsim/sim/' \
  "sched/ includes no sim/: schedulers see their SchedulerContext"
forbid "$below_cli" 'commands\.hpp|cli/' "nothing below cli/ includes cli/"
forbid "$core" 'allocsim/(sweep|output)/|mpi\.h|hdf5\.h|boost/mpi|toml|pybind11|Python\.h' \
  "the core has no MPI, HDF5, TOML, Python, writers or sweep"
forbid "src/output include/allocsim/output" 'allocsim/sweep/|mpi\.h|hdf5\.h|boost/mpi' \
  "the writers need nothing from the sweep, MPI or HDF5"
forbid "src/sweep/experiment include/allocsim/sweep/experiment" \
  'allocsim/sweep/(store|dispatch|report)/|mpi\.h|hdf5\.h|boost/mpi' \
  "experiment files -> configs know nothing of storage, dispatch or reports"
forbid "src/sweep/store include/allocsim/sweep/store" 'allocsim/sweep/(dispatch|report)/|boost/mpi|mpi\.h' \
  "the store knows nothing of dispatch or reports"
forbid "src/sweep/report include/allocsim/sweep/report" 'allocsim/sweep/dispatch/|boost/mpi|mpi\.h' \
  "reporting knows nothing of the dispatch"
forbid "src/sweep/experiment src/sweep/store src/sweep/dispatch src/sweep/report
        include/allocsim/sweep/experiment include/allocsim/sweep/store
        include/allocsim/sweep/dispatch include/allocsim/sweep/report" 'allocsim/sweep/reproduce/' \
  "reproduce sits on top of the sweep: no other sweep part includes it"
forbid "src/sweep/reproduce include/allocsim/sweep/reproduce" 'boost/mpi|mpi\.h' \
  "reproduce gets its sweep runner from cli/ (MPI stays in dispatch and cli)"
[ $status -eq 0 ] && echo "include rules hold"
exit $status
