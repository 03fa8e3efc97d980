#!/usr/bin/python3
"""Load an `allocsim sweep` result file into pandas.

    import sys; sys.path.insert(0, "tools")
    from sweep_results import load
    configs, summary, joined = load("results.h5")

or from the shell: /usr/bin/python3 tools/sweep_results.py results.h5 [--csv out.csv]

The file needs nothing special: `pd.DataFrame(h5py.File(p)["summary"][()])` works as is; this
module only decodes the string columns (h5py returns variable-length strings inside tables as
bytes) and joins /configs with /summary on config_id.
"""
import argparse
import sys

import h5py
import pandas as pd


def decode(frame):
    for column in frame.columns:
        if frame[column].dtype == object:
            frame[column] = frame[column].str.decode("utf-8")
    return frame


def load(path):
    """(configs, summary, joined) DataFrames; `joined` has one row per done config."""
    with h5py.File(path, "r") as f:
        configs = decode(pd.DataFrame(f["configs"][()]))
        summary = pd.DataFrame(f["summary"][()])
    return configs, summary, configs.merge(summary, on="config_id")


def jobs(path, config_id):
    """Per-job records of one config (sweeps with keep_jobs = true)."""
    with h5py.File(path, "r") as f:
        return pd.DataFrame(f["jobs"][format(int(config_id), "016x")][()])


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
