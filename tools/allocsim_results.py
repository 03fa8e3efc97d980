#!/usr/bin/python3
"""Load an `allocsim sweep` result file into pandas DataFrames.

    import sys; sys.path.insert(0, "tools")
    import allocsim_results
    frames = allocsim_results.load("results.h5")
    frames["results"]          # one row per done config: /configs joined to /summary
    frames["jobs"]             # per-job records of every config with keep_jobs (config_id first)
    frames["decisions"]        # situation/decision rows (config_id first)
    frames["columns"]          # table, column, unit, description of every stored column
    frames["traces"]           # name, path, sha256 of every trace the sweep read
    frames["results"].attrs    # the file's root attributes (provenance: command line, versions)

or from the shell: /usr/bin/python3 tools/allocsim_results.py results.h5 [--csv out.csv]

Every string comes back as `str` (h5py returns strings inside HDF5 tables as bytes; they are
decoded here). Units and descriptions are the tables' `unit` and `description` attributes,
one entry per column.
"""
import argparse
import sys

import h5py
import pandas as pd

TABLES = ("configs", "summary")
GROUPS = ("jobs", "decisions")


def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _frame(dataset):
    """A table dataset as a DataFrame with str (not bytes) text columns."""
    frame = pd.DataFrame(dataset[()])
    for column in frame.columns:
        if frame[column].dtype == object:
            frame[column] = frame[column].map(_text)
    return frame


def _column_rows(table, dataset):
    names = dataset.dtype.names or ()
    units = [_text(u) for u in dataset.attrs.get("unit", [""] * len(names))]
    descriptions = [_text(d) for d in dataset.attrs.get("description", [""] * len(names))]
    return [{"table": table, "column": n, "unit": u, "description": d}
            for n, u, d in zip(names, units, descriptions)]


def _group(file, name):
    """The tables /name/<config id hex> stacked, each row led by its config_id."""
    if name not in file:
        return pd.DataFrame(), None
    parts = []
    first = None
    for key in sorted(file[name]):
        frame = _frame(file[name][key])
        frame.insert(0, "config_id", pd.Series([int(key, 16)] * len(frame), dtype="uint64"))
        parts.append(frame)
        if first is None:
            first = file[name][key]
    return (pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()), first


def attributes(path):
    """The root attributes (provenance and bookkeeping) as a dict of str / numbers / lists."""
    with h5py.File(path, "r") as f:
        return {k: (list(map(_text, v)) if hasattr(v, "__len__") and not isinstance(v, str)
                    else _text(v)) for k, v in f.attrs.items()}


def load(path):
    """dict of DataFrames: configs, summary, results (configs joined to summary on config_id,
    one row per done config), jobs, decisions, columns (units and descriptions) and traces.
    Every frame's .attrs holds the file's root attributes."""
    frames = {}
    columns = []
    with h5py.File(path, "r") as f:
        if f.attrs.get("format", "").split("/")[0] != "allocsim-sweep":
            raise ValueError(f"{path} is not an allocsim sweep result file")
        for table in TABLES:
            frames[table] = _frame(f[table])
            columns += _column_rows(table, f[table])
        for group in GROUPS:
            frames[group], first = _group(f, group)
            if first is not None:
                columns += [{"table": group, "column": "config_id", "unit": "",
                             "description": "the config whose run the row belongs to"}]
                columns += _column_rows(group, first)
    frames["results"] = frames["configs"].merge(frames["summary"], on="config_id")
    frames["columns"] = pd.DataFrame(columns, columns=["table", "column", "unit", "description"])
    info = attributes(path)
    names = info.get("trace_names", [])
    frames["traces"] = pd.DataFrame({"name": names,
                                     "path": info.get("trace_paths", [""] * len(names)),
                                     "sha256": info.get("trace_sha256", [""] * len(names))})
    for frame in frames.values():
        frame.attrs.update(info)
    return frames


def units(frames, table="summary"):
    """{column: unit} of one table of load()'s result."""
    rows = frames["columns"][frames["columns"]["table"] == table]
    return dict(zip(rows["column"], rows["unit"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--csv", help="write the joined configs + summary table here")
    args = parser.parse_args()
    frames = load(args.results)
    info = frames["results"].attrs
    print(f"experiment {info.get('experiment')!r}: {len(frames['configs'])} configs, "
          f"{len(frames['summary'])} done ({info.get('status')}); allocsim "
          f"{info.get('version')}, HDF5 {info.get('hdf5_version')}, "
          f"{info.get('mpi_version')}, Boost {info.get('boost_version')}")
    for _, trace in frames["traces"].iterrows():
        print(f"trace {trace['name']}: {trace['path'] or '(generated)'} {trace['sha256']}")
    if args.csv:
        frames["results"].to_csv(args.csv, index=False)
        print(f"wrote {args.csv}")
    else:
        with pd.option_context("display.width", 160, "display.max_columns", 12):
            print(frames["results"].head(20))


if __name__ == "__main__":
    sys.exit(main())
