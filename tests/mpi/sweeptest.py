"""Helpers shared by the whole-program sweep tests (run by ctest with /usr/bin/python3)."""
import argparse
import os
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time

import h5py
import numpy as np
import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from sweep_results import decode, table  # noqa: E402,F401  (shared with the analysis tools)

TIMING_COLUMNS = {"wall_seconds", "rank"}  # differ between runs by nature


class Env:
    """Paths given by CMake, and a clean work folder for this test."""

    def __init__(self):
        parser = argparse.ArgumentParser()
        parser.add_argument("--allocsim", required=True)
        parser.add_argument("--mpirun", required=True)
        parser.add_argument("--data", required=True)
        parser.add_argument("--work", required=True)
        args = parser.parse_args()
        self.allocsim = args.allocsim
        self.mpirun = args.mpirun
        self.data = os.path.abspath(args.data)
        self.work = os.path.abspath(args.work)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        # Trace NAMEs of the experiments below are looked up in the test data folder.
        self.env = dict(os.environ, ALLOCSIM_TRACE_DIR=self.data)

    def path(self, name):
        return os.path.join(self.work, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def command(self, ranks, experiment, output, *extra):
        """`mpirun -np RANKS allocsim sweep ...` (ranks=0: allocsim alone, MPI singleton)."""
        sweep = [self.allocsim, "sweep", experiment, "-o", output, "--progress", "log", *extra]
        if ranks == 0:
            return sweep
        return [self.mpirun, "--oversubscribe", "-np", str(ranks), *sweep]

    def run(self, args, expect=0, timeout=150):
        result = subprocess.run(args, env=self.env, capture_output=True, text=True,
                                timeout=timeout)
        if expect is not None and result.returncode != expect:
            fail(f"{' '.join(args)} exited {result.returncode}, expected {expect}\n"
                 f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}")
        return result

    def sweep(self, ranks, experiment, output, *extra, expect=0):
        return self.run(self.command(ranks, experiment, output, *extra), expect=expect)

    def start(self, ranks, experiment, output, *extra):
        """Starts a sweep in the background; returns (process, stderr lines list)."""
        process = subprocess.Popen(self.command(ranks, experiment, output, *extra),
                                   env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        lines = []

        def pump(stream):
            for line in stream:
                lines.append(line)

        for stream in (process.stdout, process.stderr):
            threading.Thread(target=pump, args=(stream,), daemon=True).start()
        return process, lines


def fail(message):
    print("FAIL:", message, flush=True)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def master_pid(lines, process, timeout=60):
    """The master's pid, from its 'master pid N' start line."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for line in list(lines):
            if "master pid " in line:
                return int(line.split("master pid ")[1].split(";")[0])
        if process.poll() is not None:
            fail("sweep ended before printing its master pid:\n" + "".join(lines))
        time.sleep(0.01)
    fail("no master pid line")


def journal_frames(path):
    """Number of outcome frames in a journal (same format as src/sweep/store/journal.cpp)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return -1
    count, offset = 0, 0
    while offset + 24 <= len(data) and data[offset:offset + 4] == b"ASJ1":
        kind, length = struct.unpack_from("<IQ", data, offset + 4)
        if offset + 24 + length > len(data):
            break
        count += kind in (2, 3)  # outcome frames (2: earlier versions' encoding)
        offset += 24 + length
    return count


def wait_for_frames(journal, frames, process, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if journal_frames(journal) >= frames:
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.005)
    fail(f"journal {journal} never reached {frames} frames")


def configs(path):
    with h5py.File(path, "r") as f:
        return table(f["configs"])


def summary(path):
    with h5py.File(path, "r") as f:
        return pd.DataFrame(f["summary"][()])


def attrs(path):
    with h5py.File(path, "r") as f:
        return dict(f.attrs)


def comparable(path):
    """(/configs without timing columns, /summary), both sorted by config_id."""
    c = configs(path).drop(columns=list(TIMING_COLUMNS))
    c = c.sort_values("config_id").reset_index(drop=True)
    s = summary(path).sort_values("config_id").reset_index(drop=True)
    return c, s


def assert_same_results(path, reference, what):
    c1, s1 = comparable(path)
    c2, s2 = comparable(reference)
    check(list(c1.columns) == list(c2.columns), f"{what}: /configs columns differ")
    check(len(c1) == len(c2), f"{what}: {len(c1)} configs, reference has {len(c2)}")
    check(c1["config_id"].is_unique, f"{what}: a config appears twice in /configs")
    check(s1["config_id"].is_unique, f"{what}: a config appears twice in /summary")
    check(c1.equals(c2), f"{what}: /configs differ from the reference:\n{c1.compare(c2)}")
    check(list(s1.columns) == list(s2.columns), f"{what}: /summary columns differ")
    check(s1.equals(s2), f"{what}: /summary differs from the reference:\n{s1.compare(s2)}")


def kill(pid, sig):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def children(pid):
    """The child process ids of PID ([] once it is gone)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def cmdline(pid):
    """PID's command line, arguments joined by spaces ("" once it is gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def finish(process, timeout=60):
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        fail("sweep did not end")


SIGKILL, SIGTERM, SIGUSR1 = signal.SIGKILL, signal.SIGTERM, signal.SIGUSR1
