"""allocsim.sweep (an experiment file run by `mpirun allocsim sweep`) and allocsim.load (the
pandas frames of a result file, tools/allocsim_results.py)."""
import os
import shutil
import subprocess
import tempfile

from . import _paths


def load(path):
    """dict of DataFrames of a sweep result file: configs, summary, results (configs joined to
    summary), jobs, decisions, columns (units) and traces (tools/allocsim_results.py)."""
    from . import _results  # h5py is needed only here
    return _results.load(path)


def binary():
    """The allocsim program: $ALLOCSIM_BINARY, else the one built or installed with this
    module, else `allocsim` on PATH."""
    for candidate in (os.environ.get("ALLOCSIM_BINARY"), _paths.BINARY):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("allocsim")
    if not found:
        raise FileNotFoundError("allocsim program not found: set ALLOCSIM_BINARY")
    return found


def _toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"experiment: cannot write {type(value).__name__} {value!r} as TOML")


def toml_text(experiment):
    """An experiment dict ({"experiment": {...}, "base": {...}, "sweep": {...}, "include":
    [{...}], ...}) as the TOML text of an experiment file."""
    lines = []
    for name, body in experiment.items():
        if isinstance(body, dict):
            lines.append(f"[{name}]")
            lines += [f"{k} = {_toml_value(v)}" for k, v in body.items()]
        elif isinstance(body, (list, tuple)) and all(isinstance(b, dict) for b in body):
            for table in body:
                lines.append(f"[[{name}]]")
                lines += [f"{k} = {_toml_value(v)}" for k, v in table.items()]
        else:
            raise TypeError(f"experiment: top-level key {name!r} must be a table or a list of "
                            "tables")
        lines.append("")
    return "\n".join(lines)


def sweep(experiment, ranks=2, output=None, args=(), mpirun="mpirun", load_result=True):
    """Runs an experiment file (a path, or a dict of the same shape) with `mpirun -np ranks
    allocsim sweep` (ranks=1: no mpirun) and returns load(output) (the result path when
    load_result is False). output defaults to a new file in the current folder named after the
    experiment. As root, Open MPI needs OMPI_ALLOW_RUN_AS_ROOT=1 and
    OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 in the environment."""
    with tempfile.TemporaryDirectory(prefix="allocsim-sweep-") as scratch:
        path = experiment
        if isinstance(experiment, dict):
            name = experiment.get("experiment", {}).get("name", "experiment")
            path = os.path.join(scratch, f"{name}.toml")
            with open(path, "w", encoding="utf-8") as out:
                out.write(toml_text(experiment))
        path = os.fspath(path)
        if output is None:
            output = os.path.splitext(os.path.basename(path))[0] + ".h5"
        command = [binary(), "sweep", path, "-o", os.fspath(output), *args]
        if ranks > 1:
            command = [mpirun, "--oversubscribe", "-np", str(ranks)] + command
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed (exit {done.returncode}):\n"
                               f"{done.stderr.strip() or done.stdout.strip()}")
    return load(output) if load_result else output
