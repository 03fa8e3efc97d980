"""allocsim.sweep runs an experiment (a dict, or a file) with mpirun and allocsim.load returns
its frames; each config's summary equals allocsim.run() with the config's seeds."""
import os

import allocsim

EXPERIMENT = {
    "experiment": {"name": "python-sweep", "seed": 7, "keep_jobs": True},
    "base": {"machine": "mesh:8x8", "sched": "easy",
             "trace": "synthetic:jobs=30,arrival=exp:20,runtime=exp:100,size=uniform:1,16"},
    "sweep": {"alloc": ["flat", "mc1x1"], "load": {"from": 0.5, "to": 1.0, "step": 0.5}},
    "include": [{"alloc": "random", "load": 0.7}],
}
EXPERIMENT["base"]["transforms"] = ["target_load:load={load}"]


def test_sweep_dict_with_mpirun(tmp_path):
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    frames = allocsim.sweep(EXPERIMENT, ranks=2, output=tmp_path / "out.h5")
    results = frames["results"]
    assert len(results) == 5 and sorted(set(results["alloc"])) == ["flat", "mc1x1", "random"]
    assert frames["results"].attrs["experiment"] == "python-sweep"
    assert len(frames["jobs"]) == 5 * 30
    again = allocsim.load(tmp_path / "out.h5")
    assert again["results"].equals(results)
    row = results.iloc[0]
    run = allocsim.run(machine=row["machine"], trace=row["trace"], sched=row["sched"],
                       alloc=row["alloc"], transforms=row["transforms"].split("; "),
                       seed=int(row["seed"]), workload_seed=int(row["workload_seed"]))
    for metric in ("mean_wait", "makespan", "utilization", "mean_pairwise_hops"):
        assert run.summary[metric] == row[metric], metric


def test_sweep_file_one_rank(tmp_path):
    path = tmp_path / "exp.toml"
    path.write_text(allocsim._sweep.toml_text(EXPERIMENT))
    out = allocsim.sweep(path, ranks=1, output=tmp_path / "one.h5", load_result=False)
    assert allocsim.load(out)["results"].shape[0] == 5
