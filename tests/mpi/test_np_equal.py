"""`/summary` (timing columns aside) is identical for mpirun -np 1, 2 and 3."""
import sweeptest as t

env = t.Env()
experiment = env.write("np.toml", """
[experiment]
name = "np-equal"
seed = 11
replicates = 2

[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=150,arrival=exp:20,runtime=exp:300,size=uniform:1,24"
transforms = ["target_load:load={load}"]
load = 0.7

[sweep]
alloc = ["flat", "random", "sortedfreelist:order=snake", "mbs"]
sched = ["fcfs", "easy"]
load = [0.6, 0.9]

[[include]]
trace = "quickstart-a"
alloc = "mc1x1"
sched = "conservative"
""")
outputs = {}
for ranks in (1, 2, 3):
    outputs[ranks] = env.path(f"np{ranks}.h5")
    env.sweep(ranks, experiment, outputs[ranks])
    info = t.attrs(outputs[ranks])
    t.check(info["status"] == "complete", f"-np {ranks}: status {info['status']}")
    t.check(info["ranks"] == ranks, f"-np {ranks}: ranks attribute {info['ranks']}")
    t.check(info["done"] == 34, f"-np {ranks}: {info['done']} configs done, expected 34")
    t.check(0 <= info["master_cpu_share"] < 1, f"master CPU share {info['master_cpu_share']}")

for ranks in (2, 3):
    t.assert_same_results(outputs[ranks], outputs[1], f"-np {ranks} vs -np 1")
    # Rows are also in the same (expansion) order, whatever order results arrived in.
    a, b = t.summary(outputs[ranks]), t.summary(outputs[1])
    t.check(a.equals(b), f"-np {ranks}: /summary rows are not in the same order as -np 1")
ranks_used = set(t.configs(outputs[3])["rank"])
t.check(ranks_used <= {1, 2}, f"-np 3: configs ran on ranks {ranks_used}")
print("np 1/2/3: /summary and /configs identical")
