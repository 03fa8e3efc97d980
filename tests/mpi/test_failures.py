"""A config that throws is recorded `failed` with its message, one over its timeout
`timed_out`, and the sweep completes."""
import sweeptest as t

env = t.Env()
experiment = env.write("fail.toml", """
[experiment]
name = "failures"
seed = 3

[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=100,size=uniform:1,32"

[sweep]
alloc = ["flat", "random"]

# Strict reading of a trace with a malformed line: the simulation throws.
[[include]]
trace = "quickstart-bad"
strict = true

# Far too much work for its time budget: stopped cooperatively.
[[include]]
machine = "mesh:32x32"
sched = "conservative"
trace = "synthetic:jobs=300000,arrival=exp:1,runtime=exp:1000,size=uniform:1,256"
timeout = 0.3
""")
output = env.path("fail.h5")
result = env.sweep(2, experiment, output)
c = t.configs(output).set_index("label")
t.check(list(c["status"]) == ["done", "done", "failed", "timed_out"], f"{c['status']}")
failed = c.loc["include#1"]
t.check("quickstart-bad" in failed["error"] or "line" in failed["error"],
        f"failed config error text: {failed['error']!r}")
t.check(c.loc["include#2", "error"] != "", "timed-out config has no message")
t.check(len(t.summary(output)) == 2, "only done configs have /summary rows")
info = t.attrs(output)
t.check(info["status"] == "complete", f"status {info['status']}")
t.check((info["done"], info["failed"], info["timed_out"]) == (2, 1, 1), f"{info}")
report = env.run([env.allocsim, "report", output]).stdout
t.check("timed_out" in report and "failed" in report, "report does not list them:\n" + report)
print("failed and timed-out configs recorded; sweep completed")
