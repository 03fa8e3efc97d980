#!/usr/bin/env bash
# Regenerates the golden whole-simulation outputs (tests/golden/<family>/<case>.json) from the
# current code and shows what changed. Builds only the golden test binary, runs it with
# ALLOCSIM_REGEN_GOLDEN=1 (it writes every case's file and deletes files whose case is gone),
# then prints `git status` / `git diff --stat` / the diff for tests/golden. Review the diff before
# committing: see tests/golden/README.md for when regenerating is legitimate.
# Usage: scripts/regen-golden.sh [--stat]   (--stat: no full diff)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$BUILD_DIR" -j "$(nproc)" --target test_golden
ALLOCSIM_REGEN_GOLDEN=1 "$BUILD_DIR/tests/test_golden" --gtest_brief=1
echo "== golden files written; changes under tests/golden:"
git status --short -- tests/golden
git diff --stat -- tests/golden
if [ "${1:-}" != "--stat" ]; then
  git --no-pager diff -- tests/golden
fi
