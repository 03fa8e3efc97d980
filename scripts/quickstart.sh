#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, runs the default sweep
# (experiments/quickstart.toml, on workloads shipped in this repository) with 2 MPI ranks and
# prints its report.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=${OUT:-results/quickstart.h5}
mkdir -p "$(dirname "$OUT")"
rm -f "$OUT" "$OUT".journal
mpirun --oversubscribe -np 2 build/allocsim sweep experiments/quickstart.toml -o "$OUT"
build/allocsim report "$OUT" --group-by runtime_model,alloc,sched
echo "results: $OUT"
