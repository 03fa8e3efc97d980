#!/bin/bash
# Submits a sharded sweep and its merge in one go:
#   jobs/submit-array.sh EXPERIMENT.toml SHARDS PARTS_DIR RESULTS.h5 [extra sbatch options]
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: jobs/submit-array.sh EXPERIMENT.toml SHARDS PARTS_DIR RESULTS.h5 [sbatch options]" >&2
  exit 2
fi
EXPERIMENT=$1 SHARDS=$2 PARTS=$3 RESULTS=$4
shift 4
HERE=$(cd "$(dirname "$0")" && pwd)
array=$(sbatch --parsable --array=1-"$SHARDS" "$@" "$HERE/sweep-array.sbatch" "$EXPERIMENT" "$PARTS")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterany:"$array" "$HERE/merge.sbatch" "$PARTS" "$RESULTS")
echo "array job $array ($SHARDS shards), merge job ${merge%%;*}"
