#!/usr/bin/env bash
# Fuzzes the trace readers, the spec parser, the TOML experiment loader, the network-model
# specs (run on a tiny machine) and the outcome journal reader with libFuzzer under
# AddressSanitizer and UndefinedBehaviorSanitizer (issues 16 and 25).
#
#   scripts/fuzz.sh [DURATION_SECONDS_PER_TARGET=60] [TARGET...]
#       targets: trace spec experiment network journal
#
# Builds with clang into build-fuzz/ (override with ALLOCSIM_FUZZ_BUILD); installs Debian's
# clang-16 and libclang-rt-16-dev (libFuzzer and the sanitizer runtimes) first when they are
# missing, so normal builds never need clang. Clang 16 rather than Debian's default 14: the
# sources capture structured bindings in lambdas (C++20), which clang 14 rejects. Each target starts from its seed corpus (tests/fuzz/corpus/<target>/, never modified)
# plus what earlier runs found (build-fuzz/corpus/<target>/). Exits non-zero on any crash,
# hang (one input over 10 s), out-of-memory (2 GB) or sanitizer report; the failing input is
# saved under build-fuzz/artifacts/<target>/. A normal build replays the seed corpus as ctest
# tests (fuzz_replay_*); copy a fixed finding into the seed corpus to keep it as a regression.
set -euo pipefail

DURATION=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(trace spec experiment network journal)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${ALLOCSIM_FUZZ_BUILD:-$ROOT/build-fuzz}

if ! [[ "$DURATION" =~ ^[0-9]+$ ]] || [ "$DURATION" -lt 1 ]; then
  echo "fuzz: DURATION must be a whole number of seconds >= 1, got '$DURATION'" >&2
  exit 2
fi

# clang with libFuzzer and the sanitizer runtimes (Debian packages), installed when missing.
need=()
CLANG=${ALLOCSIM_FUZZ_CLANG:-16}
for package in clang-$CLANG libclang-rt-$CLANG-dev; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    need+=("$package")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "fuzz: installing ${need[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || {
      echo "fuzz: ${need[*]} missing; run as root or install sudo" >&2
      exit 2
    }
    SUDO="sudo"
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

# A build folder configured with another compiler is reconfigured from scratch.
if [ -f "$BUILD/CMakeCache.txt" ] && ! grep -q "^CMAKE_CXX_COMPILER:.*clang++-$CLANG\$" "$BUILD/CMakeCache.txt"; then
  rm -rf "$BUILD/CMakeCache.txt" "$BUILD/CMakeFiles"
fi
SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
LAUNCHER=()
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="clang-$CLANG" -DCMAKE_CXX_COMPILER="clang++-$CLANG" "${LAUNCHER[@]}" \
  -DALLOCSIM_FUZZ=ON -DALLOCSIM_BUILD_BENCH=OFF \
  -DCMAKE_C_FLAGS="$SANITIZE" -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link $SANITIZE" >/dev/null
for target in "${TARGETS[@]}"; do
  cmake --build "$BUILD" -j"${ALLOCSIM_FUZZ_JOBS:-2}" --target "fuzz_$target" |
    grep -E "error|Built target fuzz_" || true
  [ -x "$BUILD/tests/fuzz/fuzz_$target" ] || {
    echo "fuzz: build of fuzz_$target failed" >&2
    exit 1
  }
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
failed=0
summary=()
for target in "${TARGETS[@]}"; do
  corpus="$BUILD/corpus/$target"
  artifacts="$BUILD/artifacts/$target"
  log="$BUILD/fuzz-$target.log"
  mkdir -p "$corpus" "$artifacts"
  dict=()
  [ -f "$ROOT/tests/fuzz/$target.dict" ] && dict=(-dict="$ROOT/tests/fuzz/$target.dict")
  echo "fuzz: $target for ${DURATION} s (log $log)"
  status=0
  "$BUILD/tests/fuzz/fuzz_$target" "$corpus" "$ROOT/tests/fuzz/corpus/$target" "${dict[@]}" \
    -max_total_time="$DURATION" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1 || true)
  if [ "$status" -ne 0 ] || grep -qE "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:" "$log"; then
    failed=1
    summary+=("$target: FAILED (exit $status), see $log and $artifacts/")
    grep -E "ERROR:|runtime error:|SUMMARY:|Test unit written" "$log" | head -5 >&2 || true
  else
    summary+=("$target: ok, ${runs:-?} inputs, ${speed:-?} inputs/s, ${cov:-coverage ?}")
  fi
done
echo "fuzz summary (${DURATION} s per target, ASan + UBSan):"
printf '  %s\n' "${summary[@]}"
exit $failed
