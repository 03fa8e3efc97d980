"""User errors in Python policies end the run with allocsim.PolicyError naming the job and the
simulated time (with the user's traceback), never a crash; bad keywords are TypeErrors."""
import re

import pytest

import allocsim
from conftest import Fcfs

TRACE = "synthetic:jobs=40,arrival=exp:20,runtime=exp:100,size=uniform:1,16,estimate=1.5"


class Answer(allocsim.Allocator):
    """Answers first fit until job `bad_job`, then what `answer(free, job)` returns."""

    def __init__(self, answer, bad_job=5):
        self.answer, self.bad_job = answer, bad_job

    def allocate(self, job, machine):
        free = machine.free_nodes()
        if len(free) < job.size:
            return None
        if job.id >= self.bad_job:
            return self.answer(free, job, machine)
        return free[:job.size]


def failure(answer, **run):
    with pytest.raises(allocsim.PolicyError) as error:
        allocsim.run(machine="mesh:8x8", trace=TRACE, sched="fcfs", alloc=Answer(answer), **run)
    message = str(error.value)
    assert re.search(r"Python allocator Answer\.allocate failed on job \d+ at simulated time "
                     r"[0-9.e+]+ s: ", message), message
    assert error.value.job_id >= 5 and error.value.time > 0
    return error.value, message


def divide_by_zero(free, job, machine):
    return free[:job.size // 0]


def test_exception_has_traceback_job_and_time():
    error, message = failure(divide_by_zero)
    assert "ZeroDivisionError: integer division or modulo by zero" in message
    assert "Traceback (most recent call last)" in message
    assert "in divide_by_zero" in message and "free[:job.size // 0]" in message
    assert isinstance(error.__cause__, ZeroDivisionError)
    assert f"job {error.job_id} " in message


def busy_first(free, job, machine):
    """A busy node and free ones (first fit while the machine is empty)."""
    busy = [n for n in range(machine.node_count) if not machine.is_free(n)]
    return busy[:1] + free[:job.size - 1] if busy else free[:job.size]


@pytest.mark.parametrize("answer,expected", [
    (busy_first, r"returned an unusable answer: node \d+ is busy \(job \d+ needs \d+ free "
                 r"nodes\)"),
    (lambda free, job, machine: [64] + free[:job.size - 1], r"node 64, which does not exist "
                                                            r"\(node ids are 0 to 63\)"),
    (lambda free, job, machine: [-1] + free[:job.size - 1], "node -1, which does not exist"),
    (lambda free, job, machine: [10**30], "does not exist"),
    (lambda free, job, machine: [free[0]] * job.size if job.size > 1 else [free[0], free[0]],
     r"unusable answer: node \d+ appears twice"),
    (lambda free, job, machine: free[:job.size + 1], r"unusable answer: \d+ nodes for a job "
                                                     r"that needs \d+"),
    (lambda free, job, machine: free[:job.size - 1], r"unusable answer: \d+ nodes for a job"),
    (lambda free, job, machine: "0 1 2", "must return a list of node ids or None, not str"),
    (lambda free, job, machine: 3, "must return a list of node ids or None, not int"),
    (lambda free, job, machine: [1.5] * job.size, r"returned 1\.5 \(float\) among its node ids"),
    (lambda free, job, machine: [True] * job.size, r"returned True \(bool\) among its node ids"),
])
def test_bad_answers(answer, expected):
    _, message = failure(answer)
    assert re.search(expected, message), message


def test_numpy_ints_and_tuples_are_node_ids():
    import numpy as np
    ok = allocsim.run(machine="mesh:8x8", trace=TRACE,
                      alloc=Answer(lambda free, job, m: tuple(np.array(free[:job.size]))))
    assert ok.summary == allocsim.run(machine="mesh:8x8", trace=TRACE, alloc="flat").summary


def test_machine_view_outside_the_call():
    kept = []

    class Keeper(allocsim.Allocator):
        def allocate(self, job, machine):
            kept.append(machine)
            free = machine.free_nodes()
            return free[:job.size] if len(free) >= job.size else None

    allocsim.run(machine="mesh:8x8", trace=TRACE, alloc=Keeper())
    with pytest.raises(RuntimeError, match="used after it returned"):
        kept[0].free_nodes()
    with pytest.raises(RuntimeError, match="used after it returned"):
        kept[0].topology  # pylint: disable=pointless-statement


class BadScheduler(allocsim.Scheduler):
    def __init__(self, action):
        self.action = action

    def schedule(self, context):
        for job in context.queue:
            self.action(context, job)


def test_scheduler_exception_names_the_pass_and_time():
    def fail(context, job):
        if context.now > 50:
            raise KeyError("no such thing")
        context.start(job)
    with pytest.raises(allocsim.PolicyError) as error:
        allocsim.run(machine="flat:64", trace=TRACE, sched=BadScheduler(fail))
    message = str(error.value)
    assert re.search(r"Python scheduler BadScheduler\.schedule failed in the scheduling pass at "
                     r"simulated time [0-9.]+ s: KeyError", message), message
    assert "in fail" in message and error.value.job_id is None and error.value.time > 50


def test_scheduler_starting_on_busy_nodes():
    def busy(context, job):
        taken = [n for r in context.running for n in r.nodes]
        context.start(job, taken[:job.size] if len(taken) >= job.size else None)
    with pytest.raises(allocsim.PolicyError, match=r"cannot start job \d+: node \d+ is busy"):
        allocsim.run(machine="flat:64", trace=TRACE, sched=BadScheduler(busy))


def test_python_allocator_failing_under_python_scheduler():
    with pytest.raises(allocsim.PolicyError, match="Answer.allocate failed on job") as error:
        allocsim.run(machine="mesh:8x8", trace=TRACE, sched=Fcfs(),
                     alloc=Answer(divide_by_zero))
    assert isinstance(error.value.__cause__, ZeroDivisionError)


def test_bad_keywords():
    with pytest.raises(TypeError, match=r"unknown keyword 'alocator'"):
        allocsim.run(trace=TRACE, alocator="flat")
    with pytest.raises(TypeError, match="did you mean 'seed'"):
        allocsim.run(trace=TRACE, sed=3)
    with pytest.raises(TypeError, match="seed must be a whole number, not str"):
        allocsim.run(trace=TRACE, seed="3")
    with pytest.raises(TypeError, match="alloc must be a spec .* or an allocsim.Allocator"):
        allocsim.run(trace=TRACE, alloc=object())
    with pytest.raises(ValueError, match="unknown allocator 'mc2x2'"):
        allocsim.run(trace=TRACE, alloc="mc2x2")
    with pytest.raises(ValueError, match="estimate_factor"):
        allocsim.run(trace=allocsim.Trace(TRACE), estimate_factor=3.0)


def test_still_works_after_failures():
    with pytest.raises(allocsim.PolicyError):
        allocsim.run(machine="mesh:8x8", trace=TRACE, alloc=Answer(divide_by_zero, bad_job=0))
    assert allocsim.run(machine="mesh:8x8", trace=TRACE).summary["jobs"] == 40


def test_exception_in_commit():
    class BadCommit(Answer):
        def commit(self, nodes):
            if len(nodes) > 8:
                raise ValueError(f"too many: {len(nodes)}")
    with pytest.raises(allocsim.PolicyError,
                       match=r"Python allocator BadCommit\.commit failed at simulated time "
                             r"[0-9.e+]+ s: ValueError: too many") as error:
        allocsim.run(machine="mesh:8x8", trace=TRACE, alloc=BadCommit(divide_by_zero, 10**9))
    assert "in commit" in str(error.value)


def test_scheduler_that_never_starts_jobs():
    class Lazy(allocsim.Scheduler):
        def schedule(self, context):
            pass
    with pytest.raises(allocsim.PolicyError, match=r"Python scheduler Lazy\.schedule failed in "
                       r"the scheduling pass at simulated time [0-9.e+]+ s: scheduler left "
                       r"placeable jobs waiting on an idle machine"):
        allocsim.run(machine="mesh:8x8", trace=TRACE, sched=Lazy())
