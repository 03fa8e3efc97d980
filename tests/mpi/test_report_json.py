"""Every `--format json` prints pure JSON on stdout (captions and notes on stderr), checked with
`python3 -m json.tool` as a user would: every report mode (plain, --group-by with replicate
intervals, pooled, --metrics aliases, --decisions) and `run --format json`. The text table has
units in its header, no exponent notation, and lines of at most 120 characters."""
import re
import subprocess
import sys

import sweeptest as t

env = t.Env()
experiment = env.write("json.toml", """
[experiment]
name = "json"
replicates = 2
[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=60,size=uniform:1,16"
decisions = ["mc1x1", "mm"]
[sweep]
alloc = ["mc1x1", "random"]
sched = ["fcfs", "easy"]
""")
output = env.path("json.h5")
env.sweep(1, experiment, output)


def json_tool(args):
    """Runs allocsim with args and pipes its stdout through python3 -m json.tool."""
    result = env.run([env.allocsim, *args])
    tool = subprocess.run([sys.executable, "-m", "json.tool"], input=result.stdout,
                          capture_output=True, text=True)
    t.check(tool.returncode == 0, f"{' '.join(args)}: not JSON ({tool.stderr.strip()}):\n"
            f"{result.stdout[:400]}")
    return result


modes = {
    "plain": ["report", output, "--format", "json"],
    "replicates": ["report", output, "--group-by", "alloc,sched", "--format", "json"],
    "pooled": ["report", output, "--group-by", "alloc", "--format", "json"],
    "aliases": ["report", output, "--metrics", "bsd,makespan", "--format", "json"],
    "decisions": ["report", output, "--decisions", "--format", "json"],
    "decisions_grouped": ["report", output, "--decisions", "--group-by", "alloc,sched",
                          "--format", "json"],
    "run": ["run", "--trace", "synthetic:jobs=30,size=uniform:1,8", "--machine", "mesh:8x8",
            "--decisions", "mc1x1", "--decisions", "mm", "--format", "json"],
}
for name, args in modes.items():
    result = json_tool(args)
    if name == "decisions":
        t.check("mean sum of pairwise distances" in result.stderr,
                f"decision caption not on stderr: {result.stderr!r}")

# The text table: units in the header, fixed precision, at most 120 columns per line.
table = env.run([env.allocsim, "report", output, "--group-by", "alloc,sched"]).stdout
t.check("makespan (s)" in table and "mean_wait (s)" in table, table)
t.check(not re.search(r"\d[eE][+-]\d", table), f"exponent notation in:\n{table}")
too_wide = [line for line in table.splitlines() if len(line) > 120]
t.check(not too_wide, f"lines over 120 characters:\n" + "\n".join(too_wide))
t.check(table.count("makespan (s) ") + table.count("makespan (s)\n") == 1,
        f"makespan repeated:\n{table}")
# A metric named twice (once by its alias) is one column.
twice = env.run([env.allocsim, "report", output, "--metrics", "bsd,mean_bounded_slowdown",
                 "--format", "csv"]).stdout.splitlines()[0].split(",")
t.check(twice.count("mean_bounded_slowdown") == 1, f"repeated column: {twice}")
print("ok")
