#!/usr/bin/python3
"""Load an `allocsim sweep` result file into pandas.

    import sys; sys.path.insert(0, "tools")
    from sweep_results import load
    configs, summary, joined = load("results.h5")

or from the shell: /usr/bin/python3 tools/sweep_results.py results.h5 [--csv out.csv]

Text columns are stored as codes with string-array label attributes and node ids as
intervals (see allocsim_results.py, which this module uses); `table()` decodes one table.
"""
import argparse
import os
import sys

import h5py
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from allocsim_results import _with_allocated_nodes, table  # noqa: E402,F401  (re-exported)


def decode(frame):
    """A frame read raw from a format 1 file: bytes columns as str (format 2 files hold no
    text in tables; use table())."""
    for column in frame.columns:
        if frame[column].dtype == object:
            frame[column] = frame[column].map(
                lambda v: v.decode("utf-8") if isinstance(v, bytes) else v)
    return frame


def load(path):
    """(configs, summary, joined) DataFrames; `joined` has one row per done config."""
    with h5py.File(path, "r") as f:
        configs = table(f["configs"])
        summary = table(f["summary"])
    return configs, summary, configs.merge(summary, on="config_id")


def jobs(path, config_id):
    """Per-job records of one config (sweeps with keep_jobs = true), allocated_nodes as text."""
    key = format(int(config_id), "016x")
    with h5py.File(path, "r") as f:
        return _with_allocated_nodes(table(f["jobs"][key]), f, key)


def attributes(path):
    with h5py.File(path, "r") as f:
        return dict(f.attrs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--csv", help="write the joined table here")
    args = parser.parse_args()
    configs, summary, joined = load(args.results)
    info = attributes(args.results)
    print(f"experiment {info.get('experiment')!r}: {len(configs)} configs, "
          f"{len(summary)} done ({info.get('status')})")
    if args.csv:
        joined.to_csv(args.csv, index=False)
        print(f"wrote {args.csv}")
    else:
        with pd.option_context("display.width", 160, "display.max_columns", 12):
            print(joined.head(20))


if __name__ == "__main__":
    sys.exit(main())
