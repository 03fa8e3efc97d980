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

Every string comes back as `str`. The file stores no text inside datasets (h5py would return
it as bytes): a text column holds integer codes into its labels, which are string-array
attributes of the table (`labels_<column>`, continued by `labels_<column>@1`, `@2`, ...: the
new values of each append), and each job's node ids are [first, last] intervals in /job_nodes/<id>
(columns node_interval_offset and node_interval_count of /jobs/<id> say which rows). This
module decodes both, so text columns and `allocated_nodes` ("0-3 8") are str as before; format 1
files (strings inside the tables) are read too. Units and descriptions are the tables' `unit`
and `description` attributes, one entry per column.
"""
import argparse
import sys

import h5py
import numpy as np
import pandas as pd

TABLES = ("configs", "summary")
GROUPS = ("jobs", "decisions")
NODE_COLUMNS = ("node_interval_offset", "node_interval_count")
ALLOCATED_NODES = {"column": "allocated_nodes", "unit": "",
                   "description": "the job's node ids as an interval set (\"0-3 8\", Batsim's "
                                  "notation)"}


def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else value


def labels(dataset, column):
    """The labels of a text column of a table dataset (list of str), or None for a column
    that is not text-coded."""
    out, page = [], 0
    while True:
        name = f"labels_{column}" + (f"@{page}" if page else "")
        if name not in dataset.attrs:
            return out if page else None
        out.extend(_text(v) for v in dataset.attrs[name])
        page += 1


def table(dataset):
    """A table dataset as a DataFrame, text columns decoded to str."""
    frame = pd.DataFrame(dataset[()])
    for column in frame.columns:
        names = labels(dataset, column)
        if names is not None:
            codes = frame[column].to_numpy()
            if len(codes) and int(codes.max()) >= len(names):
                raise ValueError(f"{dataset.file.filename}: {dataset.name} column {column} has "
                                 f"code {int(codes.max())} but {len(names)} labels")
            lookup = np.empty(len(names), dtype=object)
            lookup[:] = names
            frame[column] = pd.Series(lookup[codes], index=frame.index, dtype=object)
        elif frame[column].dtype == object:  # format 1: strings inside the table
            frame[column] = frame[column].map(_text)
    return frame


def _interval_text(pairs):
    return " ".join(str(a) if a == b else f"{a}-{b}" for a, b in pairs)


def _with_allocated_nodes(frame, file, key):
    """/jobs/<key> with its CSR node columns replaced by the interval-set text column."""
    if not all(c in frame.columns for c in NODE_COLUMNS):
        return frame
    pairs = file["job_nodes"][key][()]
    pairs = list(zip(pairs["first"].tolist(), pairs["last"].tolist()))
    offsets = frame["node_interval_offset"].tolist()
    counts = frame["node_interval_count"].tolist()
    frame = frame.drop(columns=list(NODE_COLUMNS))
    frame["allocated_nodes"] = [_interval_text(pairs[o:o + c]) for o, c in zip(offsets, counts)]
    return frame


def _column_rows(table_name, dataset):
    names = dataset.dtype.names or ()
    units = [_text(u) for u in dataset.attrs.get("unit", [""] * len(names))]
    descriptions = [_text(d) for d in dataset.attrs.get("description", [""] * len(names))]
    rows = [{"table": table_name, "column": n, "unit": u, "description": d}
            for n, u, d in zip(names, units, descriptions) if n not in NODE_COLUMNS]
    if NODE_COLUMNS[0] in names:
        rows.append(dict(ALLOCATED_NODES, table=table_name))
    return rows


def _group(file, name):
    """The tables /name/<config id hex> stacked, each row led by its config_id."""
    if name not in file:
        return pd.DataFrame(), None
    parts = []
    first = None
    for key in sorted(file[name]):
        frame = table(file[name][key])
        if name == "jobs":
            frame = _with_allocated_nodes(frame, file, key)
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
        kind, _, version = _text(f.attrs.get("format", "")).partition("/")
        if kind != "allocsim-sweep":
            raise ValueError(f"{path} is not an allocsim sweep result file")
        if version not in ("1", "2"):
            raise ValueError(f"{path} has result format {kind}/{version}, which this module "
                             "(formats 1 and 2) does not know: use the tools/ of the allocsim "
                             f"version that wrote it ({_text(f.attrs.get('version', '?'))})")
        for name in TABLES:
            frames[name] = table(f[name])
            columns += _column_rows(name, f[name])
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


def units(frames, table="summary"):  # pylint: disable=redefined-outer-name
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
