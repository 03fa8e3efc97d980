#!/usr/bin/python3
"""Figures 1-6 of Agarwal, Sharma & Kalé from experiments/agarwal-mapping.py output.

    /usr/bin/python3 tools/plot_mapping.py results/agarwal-mapping/mapping.csv [--out DIR]

Writes agarwal-mapping.png/.pdf (six panels: 2D-mesh pattern on 2D and 3D tori, full and
zoomed without random, and LeanMD on 2D and 3D tori) and prints the hops-per-byte table
(random: mean over seeds, next to the analytic expectation for the stencil cases).
"""
import argparse
import os
import sys

import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402
from plot_common import PlotError, plt  # noqa: E402

NEEDED = ["study", "p", "machine", "mapper", "hops_per_byte"]

ORDER = ["random", "topocentlb", "topolb", "topolb+refine", "scotch"]
STYLE = {
    "random": dict(color="tab:gray", marker="o"),
    "topocentlb": dict(color="tab:blue", marker="s"),
    "topolb": dict(color="tab:red", marker="^"),
    "topolb+refine": dict(color="tab:purple", marker="v", linestyle="--"),
    "scotch": dict(color="tab:green", marker="D", linestyle=":"),
}
LABEL = {"random": "random", "topocentlb": "TopoCentLB", "topolb": "TopoLB (order 2)",
         "topolb+refine": "TopoLB + refine", "scotch": "Scotch"}


def short(mapper):
    """topolb:order=2+refine:passes=20,scope=near -> topolb+refine."""
    return "+".join(stage.split(":")[0] for stage in mapper.split("+"))


def expected_random(machine):
    """Mean distance between two distinct random nodes of a torus (per axis k/4 or
    (k^2-1)/(4k), times p/(p-1))."""
    sides = [int(s) for s in machine.split(":")[1].split("x")]
    p = 1
    for k in sides:
        p *= k
    per_axis = sum(k / 4 if k % 2 == 0 else (k * k - 1) / (4 * k) for k in sides)
    return per_axis * p / (p - 1)


def panel(ax, data, study, title, with_random=True, expectation=False):
    rows = data[data.study == study]
    for mapper in ORDER:
        if mapper == "random" and not with_random:
            continue
        sel = rows[rows.short == mapper].groupby("p").hops_per_byte
        mean = sel.mean()
        ax.plot(mean.index, mean.values, label=LABEL[mapper], **STYLE[mapper])
        if mapper == "random":
            ax.fill_between(mean.index, sel.min().values, sel.max().values, color="tab:gray",
                            alpha=0.2)
    if expectation and with_random:
        machines = rows.groupby("p").machine.first()
        ax.plot(machines.index, [expected_random(m) for m in machines.values], color="black",
                linestyle=":", label="random, analytic")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("processors p (log scale)")
    ax.set_ylabel("hops per byte (links per byte)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--out", default=None, help="output folder (default: the CSV's)")
    args = parser.parse_args()
    out = args.out or os.path.dirname(os.path.abspath(args.csv))
    try:
        data = pd.read_csv(args.csv)
    except FileNotFoundError:
        raise PlotError(f"{args.csv}: no such file") from None
    missing = [c for c in NEEDED if c not in data.columns]
    if missing:
        raise PlotError(f"{args.csv} is not experiments/agarwal-mapping.py output (no column "
                        f"{', '.join(missing)})")
    data["short"] = data.mapper.map(short)

    fig, axes = plt.subplots(2, 3, figsize=(15, 8.5))
    panel(axes[0, 0], data, "mesh2d-2dtorus", "Fig. 1: 2D-mesh pattern on 2D torus",
          expectation=True)
    panel(axes[0, 1], data, "mesh2d-2dtorus", "Fig. 2: same, zoomed (no random)",
          with_random=False)
    panel(axes[0, 2], data, "leanmd-2dtorus", "Fig. 5: LeanMD 6x6x6 on 2D torus")
    panel(axes[1, 0], data, "mesh2d-3dtorus", "Fig. 3: 2D-mesh pattern on 3D torus",
          expectation=True)
    panel(axes[1, 1], data, "mesh2d-3dtorus", "Fig. 4: same, zoomed (no random)",
          with_random=False)
    panel(axes[1, 2], data, "leanmd-3dtorus", "Fig. 6: LeanMD 6x6x6 on 3D torus")
    fig.suptitle("Task mapping (Agarwal, Sharma & Kalé): mean hops per byte")
    fig.tight_layout()
    pc.legend_outside(fig, axes.flat)
    seeds = data[data.short == "random"].groupby(["study", "p"]).size().max()
    pc.save(fig, os.path.join(out, "agarwal-mapping.png"), [
        "Mean hops per byte of each mapper against processor count p (log2 axis); random: mean "
        f"of {seeds} seeds, grey band = min-max over the seeds; dotted black: analytic "
        "expectation of a random mapping.",
        f"data: {os.path.basename(args.csv)}; machines: "
        + ", ".join(sorted(data.machine.unique()))])

    table = data.groupby(["study", "p", "short"]).hops_per_byte.mean().unstack("short")[ORDER]
    machines = data.groupby(["study", "p"]).machine.first()
    table.insert(1, "random_analytic",
                 [expected_random(m) if s.startswith("mesh2d") else float("nan")
                  for (s, _), m in machines.items()])
    table["topolb_vs_random"] = table.topolb / table.random - 1
    table["refine_vs_topolb"] = table["topolb+refine"] / table.topolb - 1
    table["topocentlb_vs_topolb"] = table.topocentlb / table.topolb - 1
    pd.set_option("display.width", 250)
    print(table.round(3).to_string())
    table.round(4).to_csv(os.path.join(out, "agarwal-mapping-table.csv"))
    print(os.path.join(out, "agarwal-mapping.png"))


if __name__ == "__main__":
    sys.exit(pc.run(main))
