"""Allocators and schedulers written in Python: the same schedule as their C++ counterparts,
the API they see (jobs, machine view, topology, scheduler context), Trace, list and fields."""
import allocsim
from conftest import Fcfs, FirstFit, assert_equal_to_cli

SHAPED = "synthetic:jobs=120,arrival=exp:5,runtime=exp:100,size=sides:5,estimate=1.5"
MIXED = "synthetic:jobs=120,arrival=exp:20,runtime=exp:100,size=uniform:1,32,estimate=1.5"


def same_schedule(a, b):
    columns = ["job_id", "start", "end", "allocated_nodes"]
    assert a.jobs[columns].equals(b.jobs[columns])
    assert a.summary == b.summary


def test_python_first_fit_equals_flat():
    for sched in ("fcfs", "easy", "conservative"):
        for machine in ("mesh:8x8", "flat:64"):
            ours = allocsim.run(machine=machine, trace=MIXED, sched=sched, alloc=FirstFit())
            theirs = allocsim.run(machine=machine, trace=MIXED, sched=sched, alloc="flat")
            same_schedule(ours, theirs)
            assert ours.config == theirs.config.replace("alloc=flat", "alloc=python:FirstFit")


def test_python_fcfs_equals_fcfs(tmp_path):
    for alloc in ("flat", "mc1x1", "submesh"):
        ours = allocsim.run(machine="mesh:8x8", trace=SHAPED, sched=Fcfs(), alloc=alloc)
        theirs = allocsim.run(machine="mesh:8x8", trace=SHAPED, sched="fcfs", alloc=alloc)
        same_schedule(ours, theirs)
    both = allocsim.run(machine="mesh:8x8", trace=SHAPED, sched=Fcfs(), alloc=FirstFit())
    same_schedule(both, allocsim.run(machine="mesh:8x8", trace=SHAPED, alloc="flat"))
    assert_equal_to_cli(tmp_path, theirs, machine="mesh:8x8", trace=SHAPED, alloc="submesh")


class Recorder(allocsim.Allocator):
    """First fit that checks what it is shown and follows commit/release."""

    def __init__(self):
        self.held = set()
        self.calls = 0

    def allocate(self, job, machine):
        self.calls += 1
        assert machine.node_count == 64 and machine.topology.spec == "torus:4x4x4"
        free = machine.free_nodes()
        assert machine.free_count == len(free) and all(machine.is_free(n) for n in free)
        assert not self.held & set(free) and len(self.held) + len(free) == 64
        assert job.size == job.procs > 0 and job.runtime >= 0 and job.estimate > 0
        assert job.index >= 0 and isinstance(job.id, int)
        return free[:job.size] if len(free) >= job.size else None

    def commit(self, nodes):
        assert not self.held & set(nodes)
        self.held |= set(nodes)

    def release(self, nodes):
        assert set(nodes) <= self.held
        self.held -= set(nodes)


def test_allocator_sees_the_machine_and_follows_it():
    recorder = Recorder()
    result = allocsim.run(machine="torus:4x4x4", trace=MIXED, sched="easy", alloc=recorder)
    assert recorder.calls >= len(result.jobs) and not recorder.held


def test_machine_distances_and_routes():
    torus = allocsim.Machine("torus:4x4x4")
    assert (torus.node_count, torus.dims, torus.sides, torus.kind) == (64, 3, [4, 4, 4], "torus")
    assert torus.coords(torus.id([3, 2, 1])) == [3, 2, 1]
    assert torus.distance(0, torus.id([3, 0, 0])) == 1  # around the wrap
    for a, b in ((0, 63), (5, 42), (17, 17)):
        route = torus.route(a, b)
        assert len(route) == torus.distance(a, b)
        at = a
        for link in route:
            step = torus.link(link)
            assert step["from"] == at and torus.is_link(link)
            at = step["to"]
        assert at == b
    assert sorted(torus.neighbours(0)) == [1, 3, 4, 12, 16, 48]
    flat = allocsim.Machine("flat:8")
    assert flat.distance(2, 5) == 1 and len(flat.route(2, 5)) == 2


def test_trace_read_once():
    trace = allocsim.Trace(MIXED, workload_seed=3)
    assert len(trace) == 120 and list(trace.jobs.columns)[:2] == ["id", "submit"]
    a = allocsim.run(machine="mesh:8x8", trace=trace, sched="easy", alloc="mc1x1")
    b = allocsim.run(machine="mesh:8x8", trace=trace, sched="easy", alloc="mc1x1")
    c = allocsim.run(machine="mesh:8x8", trace=MIXED, workload_seed=3, sched="easy", alloc="mc1x1")
    assert a.summary == b.summary == c.summary and a.config == c.config


def test_keywords_are_the_field_table():
    names = list(allocsim.fields()["name"])
    assert names[:6] == ["machine", "trace", "sched", "alloc", "transforms", "runtime_model"]
    assert "timeout" in names and "workload_seed" in names
    result = allocsim.run(trace=MIXED, transforms=["truncate:max_jobs=50"], bsd_threshold=60,
                          keep_jobs=False, runtime_model="dispersal:alpha=0.2", seed=9)
    assert result.summary["jobs"] == 50 and result.units["mean_wait"] == "s"
    assert "bsd_threshold=60" in result.config and len(result.jobs) == 0


def test_list_families():
    names = [entry["name"] for entry in allocsim.list("allocators")]
    assert "flat" in names and "mc1x1" in names
    easy = [e for e in allocsim.list("schedulers") if e["name"] == "easy"][0]
    assert easy["params"][0]["key"] == "order"
    assert allocsim.node_ids("0-3 8 10-11") == [0, 1, 2, 3, 8, 10, 11]


class ShapedFirstFit(FirstFit):
    """First fit declared shape-constrained: EASY's look-ahead replays clones of it."""

    contiguous_only = True
    clones = 0

    def clone(self):
        ShapedFirstFit.clones += 1
        return super().clone()


def test_contiguous_only_allocator_is_cloned_for_the_look_ahead():
    result = allocsim.run(machine="mesh:8x8", trace=MIXED, sched="easy", alloc=ShapedFirstFit())
    assert ShapedFirstFit.clones > 0 and result.summary["jobs"] == 120


def test_numpy_numbers_as_keywords():
    import numpy as np
    a = allocsim.run(trace=MIXED, seed=np.int64(4), bsd_threshold=np.float32(60),
                     strict=np.bool_(False))
    b = allocsim.run(trace=MIXED, seed=4, bsd_threshold=60.0, strict=False)
    assert a.summary == b.summary and a.config == b.config
