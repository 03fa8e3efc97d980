#!/usr/bin/env bash
# The README's test command: installs what is missing (with Slurm and munge for the Slurm test),
# builds, checks formatting, and runs every test with ctest. Real-trace tests use
# ../shared/traces (as $ALLOCSIM_TRACE_DIR) when that folder exists and skip with a message
# otherwise; every skipped test is listed with its reason at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --slurm
scripts/build.sh
scripts/check-format.sh
if [ -z "${ALLOCSIM_TRACE_DIR:-}" ] && [ -d ../shared/traces ]; then
  export ALLOCSIM_TRACE_DIR=$(cd ../shared/traces && pwd)
fi
if [ -z "${ALLOCSIM_REFERENCE_DIR:-}" ] && [ -d ../shared/reference ]; then
  export ALLOCSIM_REFERENCE_DIR=$(cd ../shared/reference && pwd)
fi
# Open MPI refuses to run as root unless told it may (CI runs as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "${BUILD_DIR:-build}"
status=0
ctest --output-on-failure -j "$(nproc)" --output-junit ctest-results.xml "$@" || status=$?
/usr/bin/python3 ../scripts/list-skips.py ctest-results.xml || true
exit "$status"
