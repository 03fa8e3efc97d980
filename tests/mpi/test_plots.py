"""The plot scripts on small real outputs: tools/plot_sweep.py and tools/mao_figures.py on a
sweep made here (PNG + PDF + caption written, caption naming the settings), tools/gantt.py on
`run --format batsim` output, tools/plot_timeline.py on `run --timeline-out` files; unknown columns, a file of another experiment, a non-result file
and a CSV that is not a Batsim jobs.csv give one-line errors (exit 2), never a traceback."""
import os
import subprocess
import sys

import sweeptest as t

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools")
env = t.Env()
experiment = env.write("plots.toml", """
[experiment]
name = "mao-plots"
replicates = 2
[base]
machine = "mesh:8x8"
transforms = ["truncate:max_jobs=60", "runtime_scale:factor={c}"]
[sweep]
trace = ["synthetic:jobs=80,size=uniform:1,16,arrival=exp:40,runtime=exp:300", "small.swf"]
alloc = ["mc1x1", "random"]
sched = ["fcfs", "easy"]
c = [0.5, 1.0, 2.0]
""")
output = env.path("plots.h5")
env.sweep(1, experiment, output)


def tool(script, *args, expect=0):
    result = subprocess.run([sys.executable, os.path.join(TOOLS, script), *args],
                            capture_output=True, text=True, env=env.env, timeout=300)
    t.check(result.returncode == expect, f"{script} {' '.join(args)} exited "
            f"{result.returncode}, expected {expect}\n{result.stdout}\n{result.stderr}")
    if expect:
        t.check("Traceback" not in result.stderr and result.stderr.startswith("error: "),
                f"{script}: not a clear error:\n{result.stderr}")
    return result


def check_figure(stem):
    for suffix in (".png", ".pdf", ".caption.txt"):
        path = stem + suffix
        t.check(os.path.exists(path) and os.path.getsize(path) > 0, f"{path} missing or empty")
    with open(stem + ".png", "rb") as f:
        t.check(f.read(8) == b"\x89PNG\r\n\x1a\n", f"{stem}.png is not a PNG")
    with open(stem + ".pdf", "rb") as f:
        t.check(f.read(5) == b"%PDF-", f"{stem}.pdf is not a PDF")
    with open(stem + ".caption.txt") as f:
        return f.read()


sweep_stem = env.path("bsd")
tool("plot_sweep.py", output, "--x", "c", "--metric", "bsd", "--lines", "alloc", "--facet",
     "sched", "-o", sweep_stem + ".png")
caption = check_figure(sweep_stem)
t.check("experiment: mao-plots" in caption and "truncate:max_jobs=60" in caption, caption)
t.check("small.swf" in caption and "replicates per setting: 2" in caption, caption)
t.check("mean bounded slowdown" in caption, caption)
# Two replicates give wide t-intervals: those crossing bounded slowdown's bound 1 are clipped.
t.check("drawn clipped at 1 (the smallest possible value)" in caption, caption)
sys.path.insert(0, TOOLS)
import plot_common  # noqa: E402
lower, upper, cut = plot_common.clip_intervals([1.5, 0.9, 3.0], [1.0, 0.2, 0.5], (1.0, None))
t.check(cut and lower == [0.5, 0.0, 0.5] and upper == [1.0, 0.2, 0.5], f"{lower} {upper}")
lower, upper, cut = plot_common.clip_intervals([0.5, 0.95], [0.1, 0.1], (0.0, 1.0))
t.check(cut and lower == [0.1, 0.1] and [round(u, 9) for u in upper] == [0.1, 0.05], f"{upper}")

# Row and column panels, --where filters, hours, and the runtime model and the averaged
# columns written on the figure (issue 29, item 5).
grid_stem = env.path("grid")
tool("plot_sweep.py", output, "--x", "c", "--metric", "mean_response", "--lines", "alloc",
     "--col", "sched", "--row", "trace", "--time-unit", "h", "-o", grid_stem + ".png")
caption = check_figure(grid_stem)
t.check(caption.startswith("mean turnaround (h)  [mean_response] against") and
        "one column of panels per sched, one row of panels per trace" in caption, caption)
t.check("Written on the figure: runtime model: fixed." in caption, caption)
where_stem = env.path("where")
tool("plot_sweep.py", output, "--x", "c", "--metric", "mean_wait", "--where", "sched=easy",
     "--time-unit", "days", "-o", where_stem + ".png")
caption = check_figure(where_stem)
t.check("Only runs with sched = easy." in caption and "mean wait (days)" in caption, caption)
t.check("runtime model: fixed; each point averages over: trace" in caption, caption)
import plot_sweep  # noqa: E402
frames = plot_common.load_results(output)
kept = plot_sweep.apply_where(frames["results"], [("c", "1"), ("sched", "easy")])
t.check(len(kept) > 0 and set(kept["c"].astype(float)) == {1.0} and
        set(kept["sched"]) == {"easy"}, kept[["c", "sched"]])
# Paired comparison (issue 29, item 2) on a hand-made frame: series "a" against baseline "b",
# replicates 0 and 1 at x = 1: b = 2, 4 and a = 3, 6 give ratios 1.5, 1.5 (no spread) and
# differences 1, 2: mean 1.5, 95 % t half-width t(0.975, 1) * sd / sqrt(2) = 12.7062 * 0.70711
# / 1.41421 = 6.3531.
import pandas as pd  # noqa: E402
hand = pd.DataFrame({"alloc": ["a", "a", "b", "b"], "replicate": [0, 1, 0, 1],
                     "x": [1.0] * 4, "m": [3.0, 6.0, 2.0, 4.0]})
ratios = plot_sweep.paired(hand, ["alloc", "x"], "alloc", "m", "b", "ratio")
t.check(list(ratios[ratios.alloc == "a"].m) == [1.5, 1.5], ratios)
differences = plot_sweep.paired(hand, ["alloc", "x"], "alloc", "m", "b", "difference")
values = list(differences[differences.alloc == "a"].m)
t.check(values == [1.0, 2.0] and abs(plot_common.t_half_width(values) - 6.3531) < 1e-3,
        f"{values} {plot_common.t_half_width(values)}")
paired_stem = env.path("paired")
tool("plot_sweep.py", output, "--x", "c", "--metric", "mean_response", "--lines", "alloc",
     "--col", "sched", "--baseline", "alloc=random", "--paired", "difference",
     "-o", paired_stem + ".png")
caption = check_figure(paired_stem)
t.check("minus that of random" in caption and "Paired comparison" in caption, caption)
bad = tool("plot_sweep.py", output, "--x", "c", "--baseline", "sched=easy", "-o",
           env.path("x.png"), expect=2).stderr
t.check("expected alloc=VALUE (the --lines column)" in bad, bad)
bad = tool("plot_sweep.py", output, "--x", "c", "--where", "sched=nope", "-o",
           env.path("x.png"), expect=2).stderr
t.check("no run has that value (values: " in bad, bad)
bad = tool("plot_sweep.py", output, "--x", "c", "--where", "schedeasy", "-o",
           env.path("x.png"), expect=2).stderr
t.check("expected KEY=VALUE" in bad, bad)

mao_stem = env.path("mao")
printed = tool("mao_figures.py", output, "--plot", mao_stem + ".png").stdout
# The saturation readings (issue 24): utilization leaving offered load at margins 1-10 points
# (primary), the slowdown-10 utilization and the plateau (secondary).
t.check(all(column in printed for column in ("sat1", "sat2", "sat10", "U@bsd10", "plateau")),
        printed)
check_figure(mao_stem)

# Errors: unknown column (with a suggestion), another experiment, not a result file.
bad = tool("plot_sweep.py", output, "--x", "c", "--metric", "mean_bounded_slowdwn",
           "-o", env.path("x.png"), expect=2).stderr
t.check("unknown metric 'mean_bounded_slowdwn'" in bad and "did you mean" in bad, bad)
bad = tool("plot_sweep.py", output, "--x", "alloc", "-o", env.path("x.png"), expect=2).stderr
t.check("not numeric" in bad, bad)
other = env.write("other.toml", """
[experiment]
name = "other"
[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=20,size=uniform:1,8"
[sweep]
alloc = ["mc1x1"]
""")
other_output = env.path("other.h5")
env.sweep(1, other, other_output)
bad = tool("mao_figures.py", other_output, expect=2).stderr
t.check("experiment 'other'" in bad, bad)
text_file = env.write("notes.h5", "not HDF5\n")
bad = tool("plot_sweep.py", text_file, "--x", "c", expect=2).stderr
t.check("not an allocsim sweep result file" in bad, bad)

# Gantt chart from `run --format batsim`.
jobs = env.run([env.allocsim, "run", "--trace", os.path.join(env.data, "small.swf"),
                "--machine", "mesh:8x8", "--alloc", "mc1x1", "--format", "batsim"]).stdout
jobs_csv = env.write("jobs.csv", jobs)
gantt_stem = env.path("gantt")
tool("gantt.py", jobs_csv, "-o", gantt_stem + ".png", "--nodes", "64")
t.check("Gantt chart of" in check_figure(gantt_stem), "gantt caption")
# Machine and settings in the title and caption, from the run's JSON or its --swf-out file.
run_args = [env.allocsim, "run", "--trace", os.path.join(env.data, "small.swf"), "--machine",
            "mesh:8x8", "--alloc", "mc1x1", "--swf-out", env.path("run.swf")]
run_json = env.write("run.json", env.run(run_args + ["--format", "json"]).stdout)
for source in (run_json, env.path("run.swf")):
    tool("gantt.py", jobs_csv, "-o", gantt_stem + ".png", "--config", source)
    caption = check_figure(gantt_stem)
    t.check("machine and settings: mesh:8x8: scheduler fcfs" in caption and
            "allocator mc1x1" in caption and "small.swf" in caption, caption)
    t.check("nodes 0-63" in caption, f"the machine's 64 nodes drawn: {caption}")
bad = tool("gantt.py", jobs_csv, "--config", jobs_csv, "-o", env.path("g.png"), expect=2).stderr
t.check("holds no run config" in bad, bad)
not_batsim = env.write("summary.csv", "alloc,utilization\nflat,0.5\n")
bad = tool("gantt.py", not_batsim, "-o", env.path("g.png"), expect=2).stderr
t.check("neither a Batsim jobs.csv nor an allocsim --jobs-out file" in bad, bad)
bad = tool("gantt.py", jobs_csv, "--nodes", "4", "-o", env.path("g.png"), expect=2).stderr
t.check("--nodes 4, but node" in bad, bad)
# allocsim's own --jobs-out file, the runtime model in the title, relative time and a mesh
# snapshot (issue 29, item 5). small.swf on mesh:8x8 under mc1x1: job 1 (4 nodes) on 0-1 8-9
# over [0, 100) s, job 2 (8 nodes) over [10, 60) s: at t = 30 both run, 12 nodes busy.
jobs_out = env.path("jobs-out.csv")
flow_json = env.write("flow.json", env.run(
    [env.allocsim, "run", "--trace", os.path.join(env.data, "small.swf"), "--machine", "mesh:8x8",
     "--alloc", "mc1x1", "--runtime-model", "flow:comm=0.5", "--jobs-out", jobs_out,
     "--format", "json"]).stdout)
snap_stem = env.path("snapshot")
tool("gantt.py", jobs_out, "--config", flow_json, "--relative", "--snapshot", "30",
     "-o", snap_stem + ".png")
caption = check_figure(snap_stem)
t.check("runtime model flow:" in caption and "counted from the first start" in caption, caption)
t.check("occupancy of the 8x8 mesh at t = 30 s" in caption and "12 nodes busy" in caption,
        caption)
bad = tool("gantt.py", jobs_out, "--machine", "dragonfly:p=2,a=4,h=2", "--snapshot", "30",
           "-o", env.path("g.png"), expect=2).stderr
t.check("--snapshot draws a 2D mesh or torus" in bad, bad)

# tools/plot_timeline.py on `run --timeline-out` files: the hand-made schedule of timeline.swf
# and small.swf drawn together (steps), then one alone with window means.
timelines = []
for trace, machine in (("timeline.swf", "mesh:2x2"), ("small.swf", "mesh:8x8")):
    timelines.append(env.path(trace.replace(".swf", "-timeline.csv")))
    env.run([env.allocsim, "run", "--trace", os.path.join(env.data, trace), "--machine", machine,
             "--timeline-out", timelines[-1]])
timeline_stem = env.path("timeline")
tool("plot_timeline.py", *timelines, "--label", "2x2", "--label", "8x8", "--time-unit", "h",
     "-o", timeline_stem + ".png")
caption = check_figure(timeline_stem)
t.check("utilization = busy nodes / machine nodes" in caption and "time in h" in caption, caption)
tool("plot_timeline.py", timelines[0], "--average", "5", "--relative", "-o", timeline_stem + ".png")
caption = check_figure(timeline_stem)
t.check("windows of 5 s" in caption and "first event" in caption, caption)
bad = tool("plot_timeline.py", jobs_out, "-o", env.path("x.png"), expect=2).stderr
t.check("not an allocsim --timeline-out file" in bad, bad)

# A sweep with keep_timeline = true stores each run's timeline as /timeline/<id>: the same rows
# as `run --timeline-out` (the hand-made FCFS schedule of timeline.swf), loaded by
# allocsim_results as frames["timeline"] and drawn by plot_timeline.py --config.
sys.path.insert(0, TOOLS)
import allocsim_results  # noqa: E402
import pandas as pd  # noqa: E402

timeline_experiment = env.write("timeline.toml", """
[experiment]
name = "timeline"
keep_timeline = true
[base]
machine = "mesh:2x2"
trace = "timeline.swf"
alloc = "flat"
[sweep]
sched = ["fcfs", "easy"]
""")
timeline_h5 = env.path("timeline.h5")
env.sweep(1, timeline_experiment, timeline_h5)
frames = allocsim_results.load(timeline_h5)
fcfs_id = frames["results"].loc[frames["results"]["sched"].str.startswith("fcfs"), "config_id"]
stored = frames["timeline"][frames["timeline"]["config_id"] == fcfs_id.iloc[0]]
from_run = pd.read_csv(timelines[0])
stored = stored.drop(columns="config_id").reset_index(drop=True).astype(float)
t.check(list(stored.columns) == list(from_run.columns) and stored.shape == from_run.shape and
        (stored == from_run.astype(float)).all().all(),
        f"stored timeline differs from run --timeline-out:\n{stored}\n{from_run}")
t.check(set(frames["columns"][frames["columns"]["table"] == "timeline"]["column"]) ==
        {"config_id", "time", "busy_nodes", "utilization", "queued_jobs", "running_jobs"},
        f"{frames['columns']}")
tool("plot_timeline.py", timeline_h5, "--config", "0", "--config", "1", "-o",
     timeline_stem + ".png")
t.check("config sched=" in check_figure(timeline_stem), "caption names the configs")
bad = tool("plot_timeline.py", output, "--config", "0", "-o", env.path("x.png"), expect=2).stderr
t.check("keep_timeline = true" in bad, bad)
print("ok")
