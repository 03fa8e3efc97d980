#!/usr/bin/env bash
# Full disks, write errors, locks through other names, and interruption advice (issue 25).
# Usage: disks_test.sh CASE ALLOCSIM DATA_DIR. A full disk is RLIMIT_FSIZE (`ulimit -f`, with
# SIGXFSZ ignored, which exec keeps: writes past the limit fail with EFBIG) or /dev/full
# (ENOSPC); no root needed. No case waits for a fixed time: each waits for the event itself.
set -uo pipefail
case_name=$1 allocsim=$2 data=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() {
  echo "FAIL: $*"
  for f in "$work"/*.err; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done
  exit 1
}
# Open MPI as a singleton, without shared-memory segments (they count against RLIMIT_FSIZE).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PMIX_MCA_gds=hash \
  OMPI_MCA_btl=self,tcp OMPI_MCA_btl_vader_single_copy_mechanism=none
cp "$data/disks/"*.toml .
# Runs the rest of the line with files limited to $1 KiB.
limited() {
  local kib=$1
  shift
  (trap '' XFSZ; ulimit -f "$kib"; exec "$@")
}
# Exit status $1 is an error exit, not a signal, and stderr file $2 names $3 and the reason.
expect_clear_error() {
  local rc=$1 err=$2 name=$3
  [ "$rc" -ne 0 ] || fail "exit 0 on a full disk ($name)"
  [ "$rc" -lt 128 ] || fail "killed by signal $((rc - 128)) ($name)"
  grep -q -- "$name" "$err" || fail "the error does not name $name"
  grep -Eq "File too large|No space left on device" "$err" || fail "the error gives no reason"
  ! grep -q "internal error" "$err" || fail "an internal error"
}
# The result tables of two files are equal, except the columns of when and where a config ran.
same_results() {
  /usr/bin/python3 - "$1" "$2" <<'PY' || fail "resumed results differ from an uninterrupted run"
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
def tables(f):
    out = {}
    f.visititems(lambda n, o: out.__setitem__(n, o) if isinstance(o, h5py.Dataset) else None)
    return out
ta, tb = tables(a), tables(b)
assert sorted(ta) == sorted(tb), (sorted(ta), sorted(tb))
for name in ta:
    x, y = ta[name][()], tb[name][()]
    if x.dtype.names:
        for col in x.dtype.names:
            if col in ("wall_seconds", "rank"):
                continue
            assert np.array_equal(x[col], y[col]), (name, col)
        for key in ta[name].attrs:  # labels of the text columns
            if key.startswith("labels_"):
                assert list(ta[name].attrs[key]) == list(tb[name].attrs[key]), (name, key)
    else:
        assert np.array_equal(x, y), name
print("identical:", len(ta), "tables")
PY
}

case $case_name in
  full_disk_sweep)
    # Uninterrupted reference.
    "$allocsim" sweep small.toml -o ref.h5 >ref.out 2>ref.err || fail "reference sweep: exit $?"
    # The same sweep on a full disk: a clear error, never a crash...
    for kib in 40 120; do
      rm -f full.h5*
      limited $kib "$allocsim" sweep small.toml -o full.h5 >full.out 2>full.err
      rc=$?
      expect_clear_error $rc full.err "full.h5"
      grep -q "once it can be written, rerun with --resume: $allocsim sweep small.toml -o full.h5 --resume" full.err ||
        fail "no exact advice to resume"
      # ...and --resume once there is space again ends with exactly the uninterrupted results.
      "$allocsim" sweep small.toml -o full.h5 --resume >resume.out 2>resume.err ||
        fail "resume after a full disk ($kib KiB): exit $?"
      same_results ref.h5 full.h5
    done
    ;;
  full_disk_merge)
    "$allocsim" sweep small.toml -o a.h5 --shard 1/2 >a.out 2>a.err || fail "shard 1: exit $?"
    "$allocsim" sweep small.toml -o b.h5 --shard 2/2 >b.out 2>b.err || fail "shard 2: exit $?"
    a_size=$(( $(stat -c %s a.h5) / 1024 ))
    limited $((a_size / 2)) "$allocsim" merge a.h5 b.h5 -o merged.h5 >merge.out 2>merge.err
    expect_clear_error $? merge.err "merged.h5"
    [ ! -e merged.h5 ] || fail "a truncated merge output was left behind"
    "$allocsim" merge a.h5 b.h5 -o merged.h5 >merge.out 2>merge.err || fail "merge: exit $?"
    ;;
  write_errors)
    # Standard output and every output file option on a full device.
    "$allocsim" list >/dev/full 2>list.err && fail "list >/dev/full: exit 0"
    grep -q "cannot write standard output: No space left on device" list.err ||
      fail "list: no clear error"
    "$allocsim" run --machine mesh:8x8 --trace "$data/small.swf" >/dev/full 2>stdout.err &&
      fail "run >/dev/full: exit 0"
    [ "$(grep -c 'cannot write standard output' stdout.err)" = 1 ] || fail "run: no clear error"
    for option in --jobs-out --swf-out; do
      "$allocsim" run --machine mesh:8x8 --trace "$data/small.swf" $option /dev/full \
        >/dev/null 2>opt.err && fail "$option /dev/full: exit 0"
      grep -q "cannot write $option file '/dev/full': No space left on device" opt.err ||
        fail "$option: no clear error"
      # A regular file cut short by a full disk (EFBIG past the limit).
      limited 1 "$allocsim" run --machine mesh:8x8 --trace "synthetic:jobs=2000,arrival=exp:30,runtime=exp:600,size=uniform:1,32" \
        $option out.txt >/dev/null 2>opt.err
      expect_clear_error $? opt.err "out.txt"
    done
    "$allocsim" map --machine torus:4x4 --pattern mesh2d:4x4 --out /dev/full >/dev/null 2>map.err &&
      fail "map --out /dev/full: exit 0"
    grep -q "cannot write --out file '/dev/full': No space left on device" map.err ||
      fail "map --out: no clear error"
    ;;
  reproduce_folder)
    "$allocsim" reproduce bender-mm-tight -o /dev/null/results >r.out 2>r.err
    rc=$?
    [ $rc -ne 0 ] || fail "an uncreatable folder: exit 0"
    grep -q "cannot create the output folder '/dev/null/results': Not a directory" r.err ||
      fail "no clear error"
    ! grep -q "internal error" r.err || fail "an internal error"
    ;;
  sigint_advice)
    # Interrupt a sweep once it holds its output (the lock file exists), then follow its advice.
    "$allocsim" sweep long.toml -o long.h5 --progress log >long.out 2>long.err &
    pid=$!
    for _ in $(seq 600); do
      [ -s long.h5.lock ] && break
      kill -0 $pid 2>/dev/null || break
      sleep 0.1
    done
    [ -s long.h5.lock ] || fail "the sweep never took its lock"
    kill -INT $pid
    wait $pid
    rc=$?
    [ $rc -eq 3 ] || fail "interrupted sweep: exit $rc, expected 3"
    advice=$(grep -o 'rerun with --resume: .*' long.err)
    [ "$advice" = "rerun with --resume: $allocsim sweep long.toml -o long.h5 --progress log --resume" ] ||
      fail "advice is not the exact command: '$advice'"
    # The advice is true: the command it names continues (a few configs are enough: stop again).
    command=${advice#rerun with --resume: }
    eval "$command" >again.out 2>again.err &
    pid=$!
    for _ in $(seq 600); do
      grep -q "resume: " again.err 2>/dev/null && break
      kill -0 $pid 2>/dev/null || break
      sleep 0.1
    done
    grep -q "resume: .* already finished" again.err || fail "the advised command did not resume"
    kill -INT $pid 2>/dev/null
    wait $pid
    ;;
  reproduce_sigint)
    # A study interrupted once it holds its output: exit 3 (interrupted, as a sweep), and the
    # advice is the exact command with --resume, which runs (and stops cleanly again).
    [ -n "${ALLOCSIM_TRACE_DIR:-}" ] || { echo "SKIP: ALLOCSIM_TRACE_DIR not set (the gabl study reads a trace)"; exit 77; }
    for round in 1 2; do
      if [ "$round" -eq 1 ]; then
        "$allocsim" reproduce gabl -o study >study.out 2>study.err &
      else
        eval "exec $command" >study.out 2>study.err &
      fi
      pid=$!
      for _ in $(seq 600); do
        [ -s study/gabl.h5.lock ] && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.1
      done
      [ -s study/gabl.h5.lock ] || fail "round $round: the study never took its lock"
      kill -INT $pid
      wait $pid
      rc=$?
      [ $rc -eq 3 ] || fail "round $round: interrupted study: exit $rc, expected 3: $(tail -3 study.err)"
      advice=$(grep -o 'rerun with --resume: .*' study.err)
      [ "$advice" = "rerun with --resume: $allocsim reproduce gabl -o study --resume" ] ||
        fail "round $round: advice is not the exact command: '$advice'"
      command=${advice#rerun with --resume: }
      grep -q "did not complete" study.err && fail "round $round: an interruption reported as an error"
    done
    ;;
  *)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
echo PASS
