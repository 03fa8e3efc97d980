#!/usr/bin/python3
"""Agarwal, Sharma & Kalé's mapping study (Figures 1-6) with `allocsim map`.

    /usr/bin/python3 experiments/agarwal-mapping.py [--allocsim build/allocsim] [--out results/agarwal-mapping]
    /usr/bin/python3 tools/plot_mapping.py results/agarwal-mapping/mapping.csv

The sweep engine simulates job streams; mapping one task graph is a single command, so this
script is the experiment: for p = 64 ... 4,096 it maps the most square 2D-mesh pattern with p
tasks onto the 2D torus (Figures 1-2) and the 3D torus (Figures 3-4) of p nodes, and LeanMD
(6x6x6 cells, one proxy per processor, METIS-partitioned into p groups) onto 2D and 3D tori
(Figures 5-6), with random (several seeds), TopoCentLB, TopoLB, TopoLB + refinement and Scotch.
Writes mapping.csv (one row per case, mapper and seed).
"""
import argparse
import csv
import json
import os
import subprocess
import sys

MAPPERS = ["random", "topocentlb", "topolb:order=2", "topolb:order=2+refine", "scotch"]
RANDOM_SEEDS = 5


def shape2d(p):
    """Most square a x b = p with a >= b (first side fastest, as Topology numbers nodes)."""
    b = int(p ** 0.5)
    while p % b:
        b -= 1
    return p // b, b


def shape3d(p):
    """Most cubic a x b x c = p with a >= b >= c."""
    best = None
    for c in range(1, int(round(p ** (1 / 3))) + 2):
        if p % c:
            continue
        a, b = shape2d(p // c)
        if b < c:
            continue
        key = a - c
        if best is None or key < best[0]:
            best = (key, (a, b, c))
    return best[1]


def cases():
    for p in [64, 128, 256, 512, 1024, 2048, 4096]:
        a, b = shape2d(p)
        x, y, z = shape3d(p)
        pattern = f"mesh2d:{a}x{b}"
        yield "mesh2d-2dtorus", p, pattern, f"torus:{a}x{b}"
        yield "mesh2d-3dtorus", p, pattern, f"torus:{x}x{y}x{z}"
    for p in [18, 64, 128, 256, 512, 1024]:
        a, b = shape2d(p)
        x, y, z = shape3d(p)
        pattern = f"leanmd:cells=6x6x6,procs={p}"
        yield "leanmd-2dtorus", p, pattern, f"torus:{a}x{b}"
        yield "leanmd-3dtorus", p, pattern, f"torus:{x}x{y}x{z}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--allocsim", default="build/allocsim")
    parser.add_argument("--out", default="results/agarwal-mapping")
    parser.add_argument("--max-p", type=int, default=4096, help="skip larger machines")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "mapping.csv")
    fields = ["study", "p", "pattern", "machine", "mapper", "seed", "hops_per_byte",
              "hop_bytes", "total_bytes", "max_link_load", "mean_link_load", "groups",
              "group_average_degree", "partition_seconds", "map_seconds"]
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for study, p, pattern, machine in cases():
            if p > args.max_p:
                continue
            for mapper in MAPPERS:
                seeds = range(1, RANDOM_SEEDS + 1) if mapper == "random" else [1]
                for seed in seeds:
                    command = [args.allocsim, "map", "--machine", machine, "--pattern", pattern,
                               "--mapper", mapper, "--seed", str(seed), "--format", "json"]
                    result = json.loads(subprocess.run(command, check=True, capture_output=True,
                                                       text=True).stdout)
                    row = {"study": study, "p": p, "pattern": pattern, "machine": machine,
                           "mapper": mapper, "seed": seed}
                    row.update({k: result[k] for k in fields if k in result})
                    writer.writerow(row)
                    handle.flush()
                    print(f"{study:15s} p={p:5d} {machine:16s} {mapper:22s} seed={seed} "
                          f"hops/byte={result['hops_per_byte']:.4f} "
                          f"t={result['map_seconds']:.3f}s", file=sys.stderr)
    print(path)


if __name__ == "__main__":
    main()
