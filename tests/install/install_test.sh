#!/bin/bash
# `cmake --install` of the build tree into WORK/prefix, then a downstream project
# (tests/install/downstream) configured with find_package(allocsim) against that prefix, built
# and run.
#   install_test.sh BUILD_DIR SOURCE_DIR WORK CXX_COMPILER
set -euo pipefail
build=$1 source=$2 work=$3 cxx=$4
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
for f in bin/allocsim include/allocsim/sim/simulation.hpp; do
  [ -e "$work/prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done
ls "$work"/prefix/lib*/cmake/allocsim/allocsimConfig.cmake >/dev/null
cmake -S "$source/tests/install/downstream" -B "$work/downstream" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release \
  >"$work/configure.log"
# The package must come from the prefix, not from the build tree.
grep -q "allocsim_DIR:PATH=$work/prefix/" "$work/downstream/CMakeCache.txt" || {
  echo "allocsim_DIR not in the prefix:" >&2
  grep allocsim_DIR "$work/downstream/CMakeCache.txt" >&2
  exit 1
}
cmake --build "$work/downstream" >"$work/build.log"
out=$("$work/downstream/downstream")
echo "$out"
[ "$out" = "jobs 20" ]
"$work/prefix/bin/allocsim" --version
