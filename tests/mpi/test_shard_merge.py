"""`--shard K/N` runs disjoint deterministic parts; `merge` combines them into the whole sweep
and refuses files of another experiment."""
import sweeptest as t

env = t.Env()
experiment = env.write("shard.toml", """
[experiment]
name = "shards"
seed = 4
replicates = 2
[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=80,size=uniform:1,16"
[sweep]
alloc = ["flat", "random", "mbs"]
sched = ["fcfs", "easy"]
""")
whole = env.path("whole.h5")
env.sweep(2, experiment, whole)
parts = []
for k in (1, 2, 3):
    parts.append(env.path(f"part{k}.h5"))
    env.sweep(1 if k != 2 else 2, experiment, parts[-1], "--shard", f"{k}/3")
    info = t.attrs(parts[-1])
    t.check(info["shard"] == f"{k}/3" and info["total_configs"] == 12, f"{info}")
ids = [set(t.configs(p)["config_id"]) for p in parts]
t.check(sum(len(s) for s in ids) == 12 and len(set.union(*ids)) == 12, "shards overlap or miss")

merged = env.path("all.h5")
result = env.run([env.allocsim, "merge", *reversed(parts), "-o", merged])
t.check("12 configs" in result.stdout, result.stdout)
t.assert_same_results(merged, whole, "merged shards")
t.check(t.summary(merged).equals(t.summary(whole)), "merged rows not in expansion order")

other = env.write("other.toml", open(experiment).read().replace("seed = 4", "seed = 5"))
foreign = env.path("foreign.h5")
env.sweep(1, other, foreign, "--shard", "1/3")
result = env.run([env.allocsim, "merge", parts[0], foreign, "-o", env.path("bad.h5")], expect=2)
t.check("different experiments" in result.stderr, result.stderr)
print("3 shards merged into the whole sweep; foreign file refused")
