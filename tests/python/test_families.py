"""Every entry of every family, run from Python, equals `allocsim run` bit for bit (summary,
diagnostics, decisions, every job's row and nodes). The cases are the golden cases
(tests/golden/<family>/*.json, built from the registries: every entry has one), read back as
run() keywords."""
import glob
import json
import os

import pytest

import allocsim
from conftest import GOLDEN_DIR, assert_equal_to_cli

LISTS = {"transforms", "decisions"}
NUMBERS = {"bsd_threshold", "estimate_factor"}


def keywords(case):
    """run() keywords of a golden case: its canonical config text (`key=value;...`, lists as
    `[a | b]`) plus its seeds."""
    config = {"seed": case["seed"], "workload_seed": case["workload_seed"]}
    for part in case["config"].replace("${GOLDEN_DIR}", GOLDEN_DIR).split(";"):
        key, _, value = part.partition("=")
        if key in LISTS:
            value = [v for v in value.strip("[]").split(" | ") if v]
        elif key in NUMBERS:
            value = float(value)
        elif key == "strict":
            value = value == "1"
        config[key] = value
    return config


def cases():
    paths = sorted(glob.glob(os.path.join(GOLDEN_DIR, "*", "*.json")))
    assert paths, f"no golden cases in {GOLDEN_DIR!r} (ALLOCSIM_GOLDEN_DIR)"
    return [(os.path.relpath(p, GOLDEN_DIR), json.load(open(p, encoding="utf-8"))) for p in paths]


CASES = cases()


@pytest.mark.parametrize("name,case", CASES, ids=[name for name, _ in CASES])
def test_entry_equals_cli(tmp_path, name, case):
    config = keywords(case)
    result = allocsim.run(**config)
    assert result.config == case["config"].replace("${GOLDEN_DIR}", GOLDEN_DIR), name
    assert_equal_to_cli(tmp_path, result, **config)


FAMILIES = {"allocator": "allocators", "scheduler": "schedulers", "ordering": "orderings",
            "runtime_model": "runtime-models", "transform": "transforms", "mapper": "mappers",
            "pattern": "patterns"}


@pytest.mark.parametrize("golden,family", FAMILIES.items())
def test_every_entry_has_a_case(golden, family):
    """The cases above cover every entry allocsim.list() knows (the registries of the build)."""
    covered = {case["case"].split(".")[0] for _, case in CASES if case["family"] == golden}
    names = {entry["name"] for entry in allocsim.list(family)}
    missing = names - covered - ({"leanmd"} if family == "patterns" else set())
    assert not missing, f"{family} without a golden case: {sorted(missing)}"


def test_every_topology_kind_has_a_case():
    """Every topology entry's kind (a semitorus is a torus with wraps missing) has a case."""
    kinds = {keywords(case)["machine"].split(":")[0] for _, case in CASES}
    for entry in allocsim.list("topologies"):
        assert {"semitorus": "torus"}.get(entry["name"], entry["name"]) in kinds, entry["name"]
