#!/usr/bin/env bash
# One named case of the allocsim command-line tests. Usage: cli_test.sh CASE ALLOCSIM DATA_DIR
set -uo pipefail
case_name=$1 allocsim=$2 data=$3
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
fail() { echo "FAIL: $*"; echo "--- stdout"; head -c 3000 "$out"; echo "--- stderr"; cat "$err"; exit 1; }
need_traces() {
  if [ -z "${ALLOCSIM_TRACE_DIR:-}" ]; then echo "SKIP: ALLOCSIM_TRACE_DIR not set"; exit 77; fi
}

case $case_name in
  nasa_json)
    need_traces
    "$allocsim" run --machine mesh:16x8 --trace NASA-iPSC-1993-3.1-cln --sched easy \
      --alloc sortedfreelist:order=snake --format json >"$out" 2>"$err" || fail "exit $?"
    /usr/bin/python3 - "$out" <<'PY' || fail "json content"
import json, sys
doc = json.load(open(sys.argv[1]))
assert {"config", "summary", "diagnostics"} <= set(doc), doc.keys()
s = doc["summary"]
assert s["jobs"] == 18239, s["jobs"]
for key in ["makespan", "utilization", "offered_load", "mean_wait", "p95_wait", "mean_response",
            "mean_bounded_slowdown", "mean_pairwise_hops", "mean_components", "external_fragmentation"]:
    assert key in s, key
assert s["makespan"] == 7949022, s["makespan"]   # equals the SST reference run
PY
    ;;
  sdsc_dropped)
    need_traces
    "$allocsim" run --machine mesh:16x8 --trace SDSC-SP2-1998-4.2-cln --sched easy \
      --alloc sortedfreelist:order=snake --format json >"$out" 2>"$err" || fail "exit $?"
    grep -q '"runtime < 0 (dropped)": {"count": 5671' "$out" || fail "dropped jobs by reason"
    grep -q '"jobs": 54044' "$out" || fail "job count"
    ;;
  strict_malformed)
    "$allocsim" run --machine mesh:4x4 --trace "$data/malformed.swf" --strict >"$out" 2>"$err" &&
      fail "--strict accepted a malformed file"
    [ "$(wc -l <"$err")" -eq 1 ] || fail "error is not one line"
    grep -q 'malformed.swf:4: expected 18 fields, found 17' "$err" || fail "file:line missing"
    "$allocsim" run --machine mesh:4x4 --trace "$data/malformed.swf" >"$out" 2>"$err" ||
      fail "non-strict run failed"
    grep -q 'malformed line (skipped): 2 (lines 4 5)' "$out" || fail "skip count missing"
    ;;
  unknown_names)
    "$allocsim" run --machine mesh:4x4 --trace "$data/small.swf" --alloc sortedfreelst >"$out" 2>"$err" &&
      fail "unknown allocator accepted"
    grep -q "did you mean 'sortedfreelist'" "$err" || fail "no closest match"
    "$allocsim" run --machine cube:4 --trace "$data/small.swf" >"$out" 2>"$err" && fail "bad machine accepted"
    grep -q "accepted forms" "$err" || fail "no accepted forms"
    "$allocsim" run --machine mesh:4x4 --trace "$data/small.swf" --sched easy:ordr=fifo >"$out" 2>"$err" &&
      fail "unknown key accepted"
    grep -q "did you mean 'order'" "$err" || fail "no key suggestion"
    ;;
  list)
    "$allocsim" list >"$out" 2>"$err" || fail "exit $?"
    for word in allocators: schedulers: topologies: transforms: sortedfreelist easy conservative cplant target_load; do
      grep -q -- "$word" "$out" || fail "list lacks $word"
    done
    "$allocsim" list schedulrs >"$out" 2>"$err" && fail "unknown family accepted"
    grep -q "did you mean 'schedulers'" "$err" || fail "no family suggestion"
    ;;
  int_ranges)
    # Every integer parameter of every family declares its range (issue 25: an unbounded one is
    # cast to int and wraps around past 2^32), and a value past it is refused with its name.
    for family in allocators schedulers topologies orderings transforms runtime-models workloads \
      mappers patterns; do
      "$allocsim" list "$family" >"$out" 2>"$err" || fail "list $family: exit $?"
      if grep -E '=INT ' "$out" | grep -v '=INT in \[' >"$err"; then
        fail "list $family: integer parameters without a range: $(cat "$err")"
      fi
    done
    "$allocsim" run --machine mesh:8x8 --alloc paging:size_index=4294967296 \
      --trace "$data/small.swf" >"$out" 2>"$err" && fail "size_index past 2^32 accepted"
    grep -q "size_index" "$err" || fail "size_index not named: $(cat "$err")"
    ;;
  version)
    "$allocsim" --version >"$out" 2>"$err" || fail "exit $?"
    grep -q '^allocsim ' "$out" || fail "version text"
    ;;
  jobs_csv)
    csv=$(mktemp)
    "$allocsim" run --machine mesh:4x4 --trace "$data/small.swf" --sched fcfs --alloc flat \
      --jobs-out "$csv" >"$out" 2>"$err" || fail "exit $?"
    head -1 "$csv" | grep -q '^job_id,submit,start,end,wait,procs,runtime,estimate,bounded_slowdown,avg_pairwise_hops,components' ||
      fail "csv header: $(head -1 "$csv")"
    # small.swf keeps jobs 1, 2, 6 (job 5 needs 100 > 16 processors: dropped and counted).
    [ "$(tail -n +2 "$csv" | cut -d, -f1 | tr '\n' ' ')" = "1 2 6 " ] || fail "csv rows: $(cat "$csv")"
    grep -q 'processors > machine size 16 (dropped): 1' "$out" || fail "oversized job not counted"
    rm -f "$csv"
    ;;
  timeline_csv)
    # The hand-made schedule of timeline.swf (its comments): one row per event time at which
    # busy nodes, queued or running jobs change, the state after all events at that time. At
    # 15 job 4 ends as job 5 arrives and starts on one node: nothing changes, no row.
    csv=$(mktemp)
    "$allocsim" run --machine mesh:2x2 --trace "$data/timeline.swf" --sched fcfs --alloc flat \
      --timeline-out "$csv" >"$out" 2>"$err" || fail "exit $?"
    expected="time,busy_nodes,utilization,queued_jobs,running_jobs
0,4,1,0,2
1,4,1,1,2
2,4,1,2,2
5,2,0.5,2,1
10,4,1,1,1
13,1,0.25,0,1
17,0,0,0,0"
    [ "$(cat "$csv")" = "$expected" ] || fail "timeline: $(cat "$csv")"
    "$allocsim" run --machine mesh:2x2 --trace "$data/timeline.swf" \
      --timeline-out /nonexistent/dir/t.csv >"$out" 2>"$err" && fail "unwritable file accepted"
    grep -q -- "--timeline-out file" "$err" || fail "file error does not name the option: $(cat "$err")"
    rm -f "$csv"
    ;;
  bad_numbers)
    # Numeric options: NaN, infinities and negatives are refused with the option named.
    for option in "--estimate-factor nan" "--bsd-threshold -1" "--timeout -1" "--timeout inf"; do
      # shellcheck disable=SC2086
      "$allocsim" run --machine mesh:4x4 --trace "$data/small.swf" $option >"$out" 2>"$err" &&
        fail "$option accepted"
      grep -q -- "${option%% *}" "$err" || fail "$option: option not named"
      grep -q "finite number >= 0" "$err" || fail "$option: no reason"
    done
    ;;
  large_machine)
    # More than 10^7 nodes needs allow_large=1; the refusal gives a memory estimate.
    "$allocsim" run --machine mesh:10000x10000 --trace "$data/small.swf" >"$out" 2>"$err" &&
      fail "a 10^8-node machine was built"
    grep -q "100000000 nodes would take about 7.0 GB" "$err" || fail "no memory estimate"
    grep -q "allow_large=1" "$err" || fail "no override named"
    ;;
  slow_allocator_timeout)
    # Allocator searches that would run for hours poll --timeout: exact with no node budget
    # (80 of 1,024 processors), Gen-Alg over 160,000 processors, ANCA's recursive halving on a
    # fragmented 1024x1024 mesh. Each ends as timed out (exit 4), not as an internal error; the
    # test's own ctest timeout is the bound that catches a hang.
    while read -r machine alloc trace; do
      "$allocsim" run --machine "$machine" --alloc "$alloc" --trace "$trace" --timeout 1 \
        >"$out" 2>"$err"
      status=$?
      [ "$status" -eq 4 ] || fail "$alloc on $machine: exit $status, not 4 (timed out)"
      grep -q "timed out: simulation exceeded its timeout of 1" "$err" || fail "$alloc: message"
    done <<'CASES'
mesh:32x32 greedy-optimal:nodes=0 synthetic:jobs=20,size=const:80
mesh:400x400 genalg synthetic:jobs=30,size=uniform:2000,20000
mesh:1024x1024 anca synthetic:jobs=2000,size=uniform:1000,200000,arrival=exp:1
CASES
    ;;
  deps_without_sudo)
    # scripts/deps.sh as a user who is not root, on a machine without sudo, with packages
    # missing (a dpkg-query that knows none): a clear message, exit 1, no apt-get run.
    shim=$(mktemp -d)
    trap 'rm -f "$out" "$err"; rm -rf "$shim"' EXIT
    cp "$data/../../scripts/deps.sh" "$shim/deps.sh"
    printf '#!/bin/sh\nexit 1\n' >"$shim/dpkg-query"
    printf '#!/bin/sh\ntouch "%s/apt-get-ran"\n' "$shim" >"$shim/apt-get"
    chmod 755 "$shim" "$shim"/*
    as_user=()
    if [ "$(id -u)" -eq 0 ]; then
      command -v setpriv >/dev/null || { echo "SKIP: setpriv not found"; exit 77; }
      chmod 777 "$shim"
      as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    fi
    # PATH: the shims and the basic tools, no sudo (none of these folders holds one).
    tools=$(mktemp -d -p "$shim")
    for tool in bash env id grep cat; do ln -s "$(command -v "$tool")" "$tools/$tool"; done
    chmod 755 "$tools"
    "${as_user[@]}" env -i PATH="$shim:$tools" bash "$shim/deps.sh" >"$out" 2>"$err"
    status=$?
    [ "$status" -eq 1 ] || fail "deps.sh without sudo: exit $status, not 1"
    grep -q "needs root: run this script as root, or install sudo" "$err" || fail "no advice"
    grep -q "apt-get install build-essential" "$err" || fail "no command to run named"
    grep -q "command not found" "$err" && fail "a bare 'command not found'"
    [ ! -e "$shim/apt-get-ran" ] || fail "apt-get was run"
    ;;
  map_nodes_intervals)
    # `map --nodes` takes the interval notation allocsim prints (issue 29), inline or in a file.
    map_out=$(mktemp) nodes_file=$(mktemp)
    trap 'rm -f "$out" "$err" "$map_out" "$nodes_file"' EXIT
    "$allocsim" map --machine mesh:4x4 --pattern ring:4 --nodes 0-3 --out "$map_out" >"$out" 2>"$err" ||
      fail "--nodes 0-3: exit $?"
    grep -q "(4 processors)" "$out" || fail "--nodes 0-3 is not 4 processors"
    [ "$(grep -v '^#' "$map_out" | awk '{print $2}' | sort -n | tr '\n' ' ')" = "0 1 2 3 " ] ||
      fail "--nodes 0-3 mapped onto other nodes: $(cat "$map_out")"
    "$allocsim" map --machine mesh:4x4 --pattern ring:5 --nodes "0-1 8 10-11" --out "$map_out" \
      >"$out" 2>"$err" || fail "inline set: exit $?"
    [ "$(grep -v '^#' "$map_out" | awk '{print $2}' | sort -n | tr '\n' ' ')" = "0 1 8 10 11 " ] ||
      fail "'0-1 8 10-11' mapped onto other nodes: $(cat "$map_out")"
    printf '# the nodes of a job\n0-1 8\n10-11\n' >"$nodes_file"
    "$allocsim" map --machine mesh:4x4 --pattern ring:5 --nodes "$nodes_file" --out "$map_out" \
      >"$out" 2>"$err" || fail "file of intervals: exit $?"
    [ "$(grep -v '^#' "$map_out" | awk '{print $2}' | sort -n | tr '\n' ' ')" = "0 1 8 10 11 " ] ||
      fail "file of intervals mapped onto other nodes: $(cat "$map_out")"
    "$allocsim" map --machine mesh:4x4 --pattern ring:4 --nodes 0-16 >"$out" 2>"$err" &&
      fail "node 16 of a 16-node mesh accepted"
    grep -q "'0-16' is not a node id or first-last range of mesh:4x4 (nodes 0-15)" "$err" ||
      fail "no clear error for 0-16"
    ;;
  *) fail "unknown case $case_name" ;;
esac
echo "PASS: $case_name"
