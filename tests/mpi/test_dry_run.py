"""`--dry-run` on a file with three different mistakes reports all three, and the sweep does
not start; on a good file it prints the config count and the work estimate."""
import os

import sweeptest as t

env = t.Env()
bad = env.write("bad.toml", """
[experiment]
name = "mistakes"

[base]
machine = "mesh:8x8"
trace = "quickstart-a"

[sweep]
alloc = ["flat", "mc1xl"]           # 1. misspelled allocator
machine = ["mesh:8x8", "torus:4x4x4"]

[[include]]
alloc = "mbs"                       # 2. a 2D-mesh allocator on a torus
machine = "torus:4x4x4"

[[include]]
trace = "missing-trace"             # 3. a trace that does not exist
""")
result = env.run([env.allocsim, "sweep", bad, "--dry-run"], expect=2)
problems = [line for line in result.stderr.splitlines() if line.startswith("  config #")]
t.check(len(problems) == 3, "expected 3 problems:\n" + result.stderr)
t.check(any("unknown allocator 'mc1xl'" in p for p in problems), result.stderr)
t.check(any("allocator 'mbs' cannot run on 'torus:4x4x4'" in p for p in problems), result.stderr)
t.check(any("trace 'missing-trace'" in p for p in problems), result.stderr)
t.check("3 problems" in result.stderr, result.stderr)

# The sweep itself refuses to start and writes nothing.
output = env.path("bad.h5")
env.sweep(1, bad, output, expect=2)
t.check(not os.path.exists(output), "a sweep with problems must not create its file")

good = env.write("good.toml", """
[base]
machine = "mesh:8x8"
[sweep]
trace = ["quickstart-a", "synthetic:jobs=50"]
alloc = ["flat", "mbs"]
""")
result = env.run([env.allocsim, "sweep", good, "--dry-run", "--shard", "1/2"])
t.check("4 configs" in result.stdout, result.stdout)
t.check("700 simulated jobs" in result.stdout, result.stdout)
t.check("shard 1/2:" in result.stdout, result.stdout)
t.check("no problems found" in result.stdout, result.stdout)
print("dry run: all three mistakes reported; good file estimated")
