"""`timeout = 3` ends a config that would run for minutes within a bounded overshoot, records it
as timed out (not failed) in the sweep's HDF5 file, and the rest of the sweep completes. The
slow config is conservative backfilling of a long, heavily loaded queue: every scheduling pass
walks the whole queue, so only the checks inside the scheduler's loops (not just between
events) can stop it on time. The second slow config is an allocator search that would run for
hours within one allocation (the exact optimum with no node budget, 80 of 1,024 processors):
only the checks inside the allocator's search can stop it."""
import sweeptest as t

env = t.Env()
experiment = env.write("timeout.toml", """
[experiment]
name = "timeout"
seed = 7
timeout = 3
[base]
machine = "mesh:16x16"
[sweep]
case = [
  {sched = "conservative", trace = "synthetic:jobs=200000,arrival=exp:1,runtime=exp:5000"},
  {sched = "easy", trace = "synthetic:jobs=50,size=uniform:1,64"},
  {sched = "fcfs", trace = "synthetic:jobs=50,size=uniform:1,64"},
  {alloc = "greedy-optimal:nodes=0", machine = "mesh:32x32", trace = "synthetic:jobs=20,size=const:80"},
]
""")
output = env.path("timeout.h5")
env.sweep(3, experiment, output)
configs = t.configs(output).set_index("index")
slow = configs.loc[0]
t.check(slow["status"] == "timed_out", f"slow config: {slow['status']}: {slow['error']}")
t.check("timeout of 3" in slow["error"], slow["error"])
# The overshoot is what the checks inside the loops bound; the assertion only catches a
# config that ran on regardless (a hang), not a slow machine.
t.check(3 <= slow["wall_seconds"] < 60, f"slow config ran {slow['wall_seconds']} s")
t.check((configs.loc[[1, 2], "status"] == "done").all(), configs["status"].tolist())
search = configs.loc[3]
t.check(search["status"] == "timed_out", f"slow allocator: {search['status']}: {search['error']}")
t.check("timeout of 3" in search["error"], search["error"])
t.check(3 <= search["wall_seconds"] < 60, f"slow allocator ran {search['wall_seconds']} s")
print(f"timed out after {slow['wall_seconds']:.2f} s and {search['wall_seconds']:.2f} s "
      "(limit 3 s); the other configs are done")
