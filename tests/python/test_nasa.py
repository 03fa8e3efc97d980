"""On the NASA iPSC/860 trace (128 nodes, $ALLOCSIM_TRACE_DIR): a Python first-fit allocator
gives the same schedule as the C++ `flat` under EASY, and a run from Python equals the CLI's.
Skipped, saying why, without the trace folder."""
import allocsim
from conftest import NASA, FirstFit, assert_equal_to_cli


def test_first_fit_in_python_equals_flat_on_nasa(trace_dir):
    trace = allocsim.Trace(NASA, trace_dir=trace_dir)
    ours = allocsim.run(machine="flat:128", trace=trace, sched="easy", alloc=FirstFit())
    theirs = allocsim.run(machine="flat:128", trace=trace, sched="easy", alloc="flat")
    assert len(ours.jobs) == len(trace) > 10000
    columns = ["job_id", "submit", "start", "end", "allocated_nodes"]
    assert ours.jobs[columns].equals(theirs.jobs[columns])
    assert ours.summary == theirs.summary


def test_nasa_from_python_equals_cli(tmp_path, trace_dir):
    config = {"machine": "mesh:16x8", "trace": NASA, "sched": "easy", "alloc": "mc1x1"}
    assert_equal_to_cli(tmp_path, allocsim.run(trace_dir=trace_dir, **config), **config)
