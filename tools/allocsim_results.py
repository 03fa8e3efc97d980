#!/usr/bin/python3
"""Load an `allocsim sweep` result file into pandas DataFrames.

    import sys; sys.path.insert(0, "tools")
    import allocsim_results
    frames = allocsim_results.load("results.h5")
    frames["results"]          # one row per done config: /configs joined to /summary
    frames["jobs"]             # per-job records of every config with keep_jobs (config_id first)
    frames["decisions"]        # situation/decision rows (config_id first)
    frames["timeline"]         # machine state over time of every config with keep_timeline
                               # (config_id first; time, busy_nodes, utilization, queued_jobs,
                               # running_jobs: one row per event time at which one changes)
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

load() checks the file as allocsim's C++ reader does (src/sweep/store/validate.cpp): the HDF5
superblock, the format attribute, table shapes, label attributes, unique config ids, the root
counts against /configs, /summary against the done configs and the node intervals against the
tables and the machine. A damaged file raises ResultFileError (a ValueError) naming the file and
the dataset or attribute.
"""
import argparse
import os
import re
import struct
import sys

import h5py
import numpy as np
import pandas as pd

TABLES = ("configs", "summary")
GROUPS = ("jobs", "decisions", "timeline")
NODE_COLUMNS = ("node_interval_offset", "node_interval_count")
ALLOCATED_NODES = {"column": "allocated_nodes", "unit": "",
                   "description": "the job's node ids as an interval set (\"0-3 8\", Batsim's "
                                  "notation)"}


STATUSES = ("pending", "done", "failed", "timed_out")
SIGNATURE = b"\x89HDF\r\n\x1a\n"


class ResultFileError(ValueError):
    """A damaged or foreign result file: `path` and `dataset` (or attribute) name what is wrong,
    as the checks of allocsim's C++ reader (src/sweep/store/validate.cpp) do."""

    def __init__(self, path, dataset, message):
        self.path, self.dataset = path, dataset
        super().__init__(f"{path} is damaged: {dataset}: {message}")


def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else value


def check_superblock(path):
    """The HDF5 superblock read by hand (src/sweep/store/file_checks.cpp): a signature, a known
    version and field sizes, and a file as long as the end-of-file address it records."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        at = 0
        while True:
            if at + 8 > size:
                raise ResultFileError(path, "superblock", "no HDF5 signature at offset 0 or "
                                      "after a user block")
            f.seek(at)
            block = f.read(96)
            if block[:8] == SIGNATURE:
                break
            at = 512 if at == 0 else at * 2
    version = block[8]
    if version in (0, 1):
        offsets, lengths, fields = block[13], block[14], 24 if version == 0 else 28
    elif version in (2, 3):
        offsets, lengths, fields = block[9], block[10], 12
    else:
        raise ResultFileError(path, "superblock", f"version {version} (expected 0 to 3)")
    if offsets not in (2, 4, 8) or lengths not in (2, 4, 8):
        raise ResultFileError(path, "superblock", f"addresses of {offsets} and lengths of "
                              f"{lengths} bytes (expected 2, 4 or 8)")
    need = fields + 3 * offsets if version < 2 else fields + 4 * offsets + 4
    if len(block) < need:
        raise ResultFileError(path, "superblock", f"the file ends inside it ({size} bytes)")
    base = int.from_bytes(block[fields:fields + offsets], "little")
    eof = int.from_bytes(block[fields + 2 * offsets:fields + 3 * offsets], "little")
    undefined = (1 << (8 * offsets)) - 1
    if undefined in (base, eof):
        raise ResultFileError(path, "superblock", "undefined base or end-of-file address")
    if (base or at) + eof > size:
        raise ResultFileError(path, "superblock", f"truncated: it records {(base or at) + eof} "
                              f"bytes, the file has {size}")


def _lock_holder(path):
    """"pid N on host H" from the sweep's lock file beside `path` (src/sweep/store/lock.cpp
    writes "pid host"), or None."""
    try:
        with open(path + ".lock") as f:
            pid, host = f.read().split()[:2]
    except (OSError, ValueError):
        return None
    return f"pid {pid} on host {host}" if pid.isdigit() else None


def _check_shape(path, dataset):
    """A table: one dimension, a compound type, rows its stored bytes can hold."""
    name = dataset.name
    if not isinstance(dataset, h5py.Dataset):
        raise ResultFileError(path, name, "is not a dataset")
    if dataset.dtype.names is None:
        raise ResultFileError(path, name, "is not a table (expected a compound type)")
    if len(dataset.shape) != 1:
        raise ResultFileError(path, name, f"has {len(dataset.shape)} dimensions (expected 1)")
    rows = dataset.shape[0]
    if rows:
        declared = rows * dataset.dtype.itemsize
        stored = dataset.id.get_storage_size()
        limit = stored * 1100 + 65536 if dataset.compression or dataset.shuffle else stored
        if declared > limit:
            raise ResultFileError(path, name, f"declares {rows} rows ({declared} bytes) but "
                                  f"stores {stored} bytes")


def _check_labels(path, dataset):
    """Label attributes: every uint32 column has labels_<column> with pages @1, @2, ... without
    gaps, every labels attribute belongs to such a column, no label repeats, status labels are
    status names."""
    names = dataset.dtype.names
    if any(dataset.dtype.fields[n][0].kind == "O" for n in names):
        return  # format 1: strings inside the table
    coded = {n: dataset.dtype.fields[n][0] == np.dtype("<u4") for n in names}
    pages = {}
    for attr in dataset.attrs:
        if not attr.startswith("labels_"):
            continue
        column, _, page = attr[7:].partition("@")
        if "@" in attr[7:] and not re.fullmatch(r"[1-9][0-9]*", page):
            raise ResultFileError(path, f"{dataset.name} attribute {attr}",
                                  "its page is not a number from 1")
        column = attr[7:].rpartition("@")[0] if "@" in attr[7:] else column
        if not coded.get(column):
            raise ResultFileError(path, f"{dataset.name} attribute {attr}",
                                  f"there is no text column '{column}' (a uint32 column of codes)")
        pages.setdefault(column, set()).add(int(page) if page else 0)
    for column, is_coded in coded.items():
        if not is_coded:
            continue
        have = pages.get(column, set())
        if not have:
            raise ResultFileError(path, f"{dataset.name} attribute labels_{column}",
                                  f"missing (column '{column}' holds text codes)")
        if max(have) + 1 != len(have):
            raise ResultFileError(path, f"{dataset.name} attribute labels_{column}",
                                  "label pages must follow each other without gaps")
        names_ = labels(dataset, column)
        if len(set(names_)) != len(names_):
            raise ResultFileError(path, f"{dataset.name} attribute labels_{column}",
                                  "a label appears twice")
        if dataset.name == "/configs" and column == "status":
            for label in names_:
                if label not in STATUSES:
                    raise ResultFileError(path, "/configs attribute labels_status",
                                          f"has the label '{label}' (expected pending, done, "
                                          "failed or timed_out)")


def machine_nodes(spec):
    """Nodes of a machine spec KIND:AxBx...[:params] (product of the sides), or None."""
    match = re.fullmatch(r"[^:]*:([0-9]+(?:x[0-9]+)*)(?::.*)?", spec)
    if not match:
        return None
    nodes = 1
    for side in match.group(1).split("x"):
        if int(side) <= 0:
            return None
        nodes *= int(side)
    return nodes


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
    """A table dataset as a DataFrame, text columns decoded to str (its shape and labels
    checked first: ResultFileError)."""
    path = dataset.file.filename
    _check_shape(path, dataset)
    _check_labels(path, dataset)
    frame = pd.DataFrame(dataset[()])
    for column in frame.columns:
        names = labels(dataset, column)
        if names is not None:
            codes = frame[column].to_numpy()
            if len(codes) and int(codes.max()) >= len(names):
                raise ResultFileError(path, f"{dataset.name} attribute labels_{column}",
                                      f"column {column} has code {int(codes.max())} but "
                                      f"{len(names)} labels")
            lookup = np.empty(len(names), dtype=object)
            lookup[:] = names
            frame[column] = pd.Series(lookup[codes], index=frame.index, dtype=object)
        elif frame[column].dtype == object:  # format 1: strings inside the table
            frame[column] = frame[column].map(_text)
    return frame


def _check_contents(path, info, configs, summary):
    """Config ids unique, /summary rows are done configs and, unless the file is live
    ("running"), every done config has one and the root counts match the rows."""
    ids = configs["config_id"].tolist()
    statuses = configs["status"].tolist()
    seen = {}
    for row, (cid, status) in enumerate(zip(ids, statuses)):
        if cid in seen:
            raise ResultFileError(path, "/configs", f"config_id {cid:016x} in rows {seen[cid]} "
                                  f"and {row} (config ids must be unique)")
        seen[cid] = row
        if status not in STATUSES:
            raise ResultFileError(path, "/configs", f"row {row} has status '{status}'")
    summarized = set()
    for row, cid in enumerate(summary["config_id"].tolist()):
        if cid in summarized:
            raise ResultFileError(path, "/summary", f"config_id {cid:016x} twice (row {row}; "
                                  "config ids must be unique)")
        summarized.add(cid)
        if cid not in seen or statuses[seen[cid]] != "done":
            raise ResultFileError(path, "/summary", f"row {row} is config {cid:016x}, which is "
                                  "not a done config of /configs")
    if _text(info.get("status", "")) == "running":
        return
    for row, (cid, status) in enumerate(zip(ids, statuses)):
        if status == "done" and cid not in summarized:
            raise ResultFileError(path, "/summary", f"has no row for config {cid:016x} "
                                  f"(/configs row {row}, done)")
    for name in ("done", "failed", "timed_out"):
        count = statuses.count(name)
        if int(info.get(name, 0)) != count:
            raise ResultFileError(path, f"root attribute {name}", f"is {int(info.get(name, 0))} "
                                  f"but /configs has {count} {name} rows")
    if int(info.get("pending", 0)) < statuses.count("pending"):
        raise ResultFileError(path, "root attribute pending", "is less than the pending rows")


def _interval_text(pairs):
    return " ".join(str(a) if a == b else f"{a}-{b}" for a, b in pairs)


def _with_allocated_nodes(frame, file, key, nodes=None):
    """/jobs/<key> with its CSR node columns replaced by the interval-set text column; the
    intervals checked: offsets in order and within /job_nodes/<key>, 0 <= first <= last, and
    last < nodes (the machine's nodes) when given."""
    if not all(c in frame.columns for c in NODE_COLUMNS):
        return frame
    path, name = file.filename, f"/jobs/{key}"
    if "job_nodes" not in file or key not in file["job_nodes"]:
        raise ResultFileError(path, f"/job_nodes/{key}", "missing")
    table_ = file["job_nodes"][key]
    _check_shape(path, table_)
    if table_.dtype.names[:2] != ("first", "last"):
        raise ResultFileError(path, table_.name, "has no columns first, last")
    pairs = table_[()]
    pairs = list(zip(pairs["first"].tolist(), pairs["last"].tolist()))
    offsets = [int(o) for o in frame["node_interval_offset"].tolist()]
    counts = [int(c) for c in frame["node_interval_count"].tolist()]
    following = 0
    for job, (offset, count) in enumerate(zip(offsets, counts)):
        if offset + count > len(pairs):
            raise ResultFileError(path, name, f"row {job} has node intervals {offset} + {count}, "
                                  f"past the end of its {len(pairs)} rows of /job_nodes")
        if offset < following:
            raise ResultFileError(path, name, f"row {job} has node_interval_offset {offset}, "
                                  f"before the end of the previous job's ({following})")
        following = offset + count
        for row in range(offset, offset + count):
            first, last = pairs[row]
            if first < 0 or first > last or (nodes is not None and last >= nodes):
                raise ResultFileError(path, name, f"/job_nodes row {row} is the interval "
                                      f"{first}-{last} (expected 0 <= first <= last"
                                      + (f" < {nodes}, the machine's nodes)" if nodes else ")"))
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


def _group(file, name, machines=None):
    """The tables /name/<config id hex> stacked, each row led by its config_id; `machines`:
    {config id hex: machine spec} of /configs (a table of no config there is damage)."""
    if name not in file:
        return pd.DataFrame(), None
    parts = []
    first = None
    for key in sorted(file[name]):
        if machines is not None and key not in machines:
            raise ResultFileError(file.filename, f"/{name}/{key}", "belongs to no config of "
                                  "/configs (expected the 16 hex digits of a config_id)")
        frame = table(file[name][key])
        if name == "jobs":
            spec = machines.get(key) if machines is not None else None
            frame = _with_allocated_nodes(frame, file, key,
                                          machine_nodes(spec) if isinstance(spec, str) else None)
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
    one row per done config), jobs, decisions, timeline, columns (units and descriptions) and traces.
    Every frame's .attrs holds the file's root attributes."""
    frames = {}
    columns = []
    check_superblock(path)
    try:
        f = h5py.File(path, "r")
    except OSError as error:
        holder = _lock_holder(path)
        if holder:
            raise ResultFileError(path, "file", f"a running sweep writes it: {holder} holds "
                                  f"its lock '{path}.lock'") from error
        raise ResultFileError(path, "file", f"HDF5 cannot open it ({error})") from error
    with f:
        kind, _, version = _text(f.attrs.get("format", "")).partition("/")
        if kind != "allocsim-sweep":
            raise ResultFileError(path, "root attribute format",
                                  "not an allocsim sweep result file")
        if version not in ("1", "2"):
            raise ResultFileError(path, "root attribute format",
                                  f"result format {kind}/{version}, which this module (formats "
                                  "1 and 2) does not know: use the tools/ of the allocsim "
                                  f"version that wrote it ({_text(f.attrs.get('version', '?'))})")
        for name in TABLES:
            if name not in f:
                raise ResultFileError(path, f"/{name}", "missing")
            _check_shape(path, f[name])
        for name in TABLES:
            frames[name] = table(f[name])
            columns += _column_rows(name, f[name])
        for name, needed in (("configs", ("config_id", "status")), ("summary", ("config_id",))):
            for column in needed:
                if column not in frames[name].columns:
                    raise ResultFileError(path, f"/{name}", f"has no column {column}")
        _check_contents(path, f.attrs, frames["configs"], frames["summary"])
        machines = dict(zip((format(int(i), "016x") for i in frames["configs"]["config_id"]),
                            frames["configs"].get("machine", [None] * len(frames["configs"]))))
        for group in GROUPS:
            frames[group], first = _group(f, group, machines)
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
