"""allocsim from Python: run simulations and sweeps, get pandas frames, write policies.

    import allocsim
    r = allocsim.run(machine="mesh:16x16", trace="NASA-iPSC-1993-3.1-cln", sched="easy",
                     alloc="mc1x1")
    r.summary["mean_wait"], r.units["mean_wait"]   # floats and their units
    r.jobs                                          # pandas DataFrame, one row per job

    class FirstFit(allocsim.Allocator):
        def allocate(self, job, machine):
            free = machine.free_nodes()
            return free[:job.size] if len(free) >= job.size else None

    allocsim.run(machine="mesh:16x16", trace=..., alloc=FirstFit())

The keywords of run() are the config fields of the CLI and of experiment files (one table:
allocsim.fields()). Results equal `allocsim run` bit for bit.
"""
import copy as _copy

from . import _allocsim
from ._allocsim import (Allocation, InputError, Job, Machine, MachineState, PolicyError,
                        RunningJob, SchedulerContext, SimulationTimeout, Trace)
from ._sweep import load, sweep

__version__ = _allocsim.__version__
__all__ = ["run", "Result", "Allocator", "Scheduler", "Machine", "Trace", "list", "fields",
           "sweep", "load", "node_ids", "PolicyError", "InputError", "SimulationTimeout", "Job",
           "Allocation", "MachineState", "SchedulerContext", "RunningJob"]

_list = list  # list() below shadows the builtin in this module


def _pandas():
    """pandas, imported on first use (a run that reads only its summary does not wait for it)."""
    import pandas  # pylint: disable=import-outside-toplevel
    return pandas


class Allocator:
    """Base of allocators written in Python; pass an instance as run(alloc=...).

    allocate(job, machine) returns the node ids for `job` (exactly job.size distinct free ids)
    or None ("not now"). `job` has id, size, submit, runtime, estimate, shape; `machine` has
    free_nodes(), is_free(n), free_count, node_count and topology (an allocsim.Machine:
    distance(a, b), coords(n), neighbours(n), route(a, b)). It must be a pure choice: schedulers
    ask freely (EASY asks for jobs it then does not start). commit(nodes) and release(nodes) tell
    a stateful allocator what the simulation did. Set contiguous_only = True when allocate() may
    refuse although enough nodes are free; the backfilling look-ahead then replays clone()s.
    """

    contiguous_only = False

    def allocate(self, job, machine):
        raise NotImplementedError(f"{type(self).__name__} must define allocate(job, machine)")

    def commit(self, nodes):
        """The simulation started a job on `nodes`."""

    def release(self, nodes):
        """A job on `nodes` ended."""

    def clone(self):
        """An independent copy with the same state (backfilling look-ahead)."""
        return _copy.deepcopy(self)


class Scheduler:
    """Base of schedulers written in Python; pass an instance as run(sched=...).

    schedule(context) is one scheduling pass at context.now: start every job that should start
    now with context.start(job, allocation). context.queue lists the waiting jobs (arrival
    order; ordered_queue("smallfirst") and the other built-in orders), context.running the
    running jobs (job, start, estimated_end, nodes), context.try_allocate(job) asks the run's
    allocator (an Allocation or None), context.free_count and context.topology describe the
    machine.
    """

    def schedule(self, context):
        raise NotImplementedError(f"{type(self).__name__} must define schedule(context)")


def node_ids(interval_set):
    """The node ids of an interval set "0-3 8" (a jobs frame's allocated_nodes) as a list."""
    out = []
    for part in interval_set.split():
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out


class Result:
    """One simulation's results: summary (dict), units (dict), jobs (DataFrame), diagnostics,
    decisions (DataFrame) and config (the canonical config text)."""

    def __init__(self, output, policy_names):
        self._output = output
        self.config = output.config
        if policy_names:  # the spec a Python policy stands in for is not what ran
            parts = self.config.split(";")
            for i, part in enumerate(parts):
                field = part.partition("=")[0]
                if field in policy_names:
                    parts[i] = f"{field}=python:{policy_names[field]}"
            self.config = ";".join(parts)
        self.summary = output.summary()
        self.units = output.units()
        self.job_units = output.job_units()
        self.diagnostics = output.diagnostics()
        self._jobs = None

    @property
    def jobs(self):
        """One row per job: job_id, the per-job metrics, allocated_nodes ("0-3 8")."""
        if self._jobs is None:
            self._jobs = _pandas().DataFrame(self._output.job_columns())
        return self._jobs

    @property
    def decisions(self):
        return _pandas().DataFrame(self._output.decisions())

    def summary_frame(self):
        """The summary as a DataFrame: metric, value, unit."""
        return _pandas().DataFrame({"metric": _list(self.summary),
                              "value": _list(self.summary.values()),
                              "unit": [self.units[k] for k in self.summary]})

    def __repr__(self):
        s = self.summary
        return (f"<allocsim.Result {int(s['jobs'])} jobs, mean wait {s['mean_wait']:.6g} s, "
                f"utilization {s['utilization']:.4g}: {self.config}>")


def run(trace_dir=None, **config):
    """One simulation. Keywords: the config fields (allocsim.fields()): machine, trace (a str or
    an allocsim.Trace), sched (a spec or an allocsim.Scheduler), alloc (a spec or an
    allocsim.Allocator), transforms (list), runtime_model, seed, workload_seed, bsd_threshold,
    estimate_factor, strict, timeout, decisions, pattern, mapper, keep_jobs (default True here).
    trace_dir: where trace NAMEs are found (default $ALLOCSIM_TRACE_DIR)."""
    names = {}
    for field, base in (("alloc", Allocator), ("sched", Scheduler)):
        value = config.get(field)
        if value is not None and not isinstance(value, str):
            if not isinstance(value, base):
                raise TypeError(f"run(): {field} must be a spec (str) or an allocsim."
                                f"{base.__name__}, not {type(value).__name__}")
            names[field] = type(value).__name__
    return Result(_allocsim._run(config, trace_dir), names)


def list(family):  # pylint: disable=redefined-builtin
    """The entries of one registry (as `allocsim list FAMILY`): allocators, schedulers,
    topologies, orderings, transforms, runtime-models, mappers, patterns. Each entry is a dict:
    name, summary, params (key, kind, default, help, choices)."""
    return _allocsim._entries(family)


def fields():
    """The config field table: name, type, default, unit, role, help of every run() keyword."""
    return _pandas().DataFrame(_allocsim._fields())


def _trace_jobs(self):
    """The trace's jobs as a DataFrame (id, submit, runtime, estimate, size, shape, user)."""
    return _pandas().DataFrame(self._columns())


Trace.jobs = property(_trace_jobs)
