"""Shared helpers of the Python module's tests: the allocsim program (the CLI a Python run must
equal), golden cases as run() keywords, bit-for-bit comparisons, and the Python re-implementations
of `flat` and `fcfs` the tests run."""
import csv
import json
import math
import os
import struct
import subprocess

import pytest

import allocsim

BINARY = os.environ.get("ALLOCSIM_BINARY", "allocsim")
GOLDEN_DIR = os.environ.get("ALLOCSIM_GOLDEN_DIR", "")
TEST_DATA = os.environ.get("ALLOCSIM_TEST_DATA", "")
NASA = "NASA-iPSC-1993-3.1-cln"

# run() keyword -> `allocsim run` option (repeated for lists); the keywords are the field
# table's names, the options the CLI's spelling of the same fields.
OPTIONS = {"machine": "--machine", "trace": "--trace", "sched": "--sched", "alloc": "--alloc",
           "transforms": "--transform", "runtime_model": "--runtime-model", "seed": "--seed",
           "workload_seed": "--workload-seed", "bsd_threshold": "--bsd-threshold",
           "estimate_factor": "--estimate-factor", "timeout": "--timeout",
           "decisions": "--decisions", "pattern": "--pattern", "mapper": "--mapper"}


class FirstFit(allocsim.Allocator):
    """`flat` in Python: the lowest free ids."""

    def allocate(self, job, machine):
        free = machine.free_nodes()
        return free[:job.size] if len(free) >= job.size else None


class Fcfs(allocsim.Scheduler):
    """`fcfs` in Python: start queue jobs in arrival order while they fit."""

    def schedule(self, context):
        for job in context.queue:
            allocation = context.try_allocate(job)
            if allocation is None:
                return
            context.start(job, allocation)


def cli_run(tmp_path, **config):
    """`allocsim run --format json --jobs-out` with the same settings: (JSON output, job rows)."""
    command = [BINARY, "run", "--format", "json", "--jobs-out", str(tmp_path / "jobs.csv")]
    for key, value in config.items():
        if key == "strict":
            command += ["--strict"] if value else []
            continue
        for item in value if isinstance(value, list) else [value]:
            command += [OPTIONS[key], str(item)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    with open(tmp_path / "jobs.csv", newline="", encoding="utf-8") as rows:
        return json.loads(done.stdout), list(csv.DictReader(rows))


def bits(value):
    """The bits of a float (None, JSON's NaN, as a NaN)."""
    return struct.pack("<d", math.nan if value is None else value)


def assert_same_summary(cli_summary, summary):
    assert list(cli_summary) == list(summary)
    for key, value in cli_summary.items():
        if value is None:
            assert math.isnan(summary[key]), key
        else:
            assert bits(value) == bits(summary[key]), (key, value, summary[key])


def assert_same_jobs(cli_rows, frame):
    """The CLI's --jobs-out rows and a Result's jobs frame hold the same values, bit for bit."""
    assert len(cli_rows) == len(frame)
    if cli_rows:
        assert list(cli_rows[0].keys()) == list(frame.columns)
    columns = {name: frame[name].tolist() for name in frame.columns}
    for i, row in enumerate(cli_rows):
        for name, text in row.items():
            value = columns[name][i]
            if name in ("allocated_nodes", "allocated_node_names"):
                assert text == value, (i, name)
            elif name == "job_id":
                assert int(text) == value, (i, name)
            else:
                assert bits(None if text == "null" else float(text)) == bits(value), (i, name)


def assert_equal_to_cli(tmp_path, result, **config):
    """run(**config)'s `result` equals `allocsim run` with the same settings."""
    out, rows = cli_run(tmp_path, **config)
    assert out["config"] == result.config
    assert_same_summary(out["summary"], result.summary)
    diagnostics = out["diagnostics"]
    assert diagnostics == result.diagnostics
    if "decisions" in out:
        assert out["decisions"] == result.decisions.to_dict("records")
    assert_same_jobs(rows, result.jobs)


@pytest.fixture
def trace_dir():
    """$ALLOCSIM_TRACE_DIR holding the NASA trace, else the test skips saying why."""
    directory = os.environ.get("ALLOCSIM_TRACE_DIR")
    if not directory:
        pytest.skip("ALLOCSIM_TRACE_DIR is not set: the real-trace tests need the folder of "
                    f"the Parallel Workloads Archive traces ({NASA})")
    if not any(os.path.exists(os.path.join(directory, NASA + ext))
               for ext in ("", ".swf", ".swf.gz", ".gz")):
        pytest.skip(f"{NASA} is not in ALLOCSIM_TRACE_DIR={directory}")
    return directory
