#!/usr/bin/env python3
"""Checks the include rules of docs/ARCHITECTURE.md: which layer may include which.

Reads every #include "allocsim/<layer>/..." (and "<layer>/...") in include/allocsim/<layer>/ and
src/<layer>/ and fails, naming file and line, on an include the layer's row does not allow.
Usage: check-layers.py [REPOSITORY]   (run by ctest as `layer_rules`)
"""
import os
import re
import sys

# Layer -> layers it may include besides itself. A layer missing here may include anything
# except cli (only cli may include cli).
ALLOWED = {
    "util": set(),
    "topo": {"util"},
    "workload": {"util"},
    "geom": {"util", "topo"},
    "metrics": {"util", "topo", "workload"},
    "alloc": {"util", "topo", "workload", "geom"},
    "sched": {"util", "topo", "workload", "alloc"},
    "network": {"util", "topo"},
}
CORE_FORBIDDEN = ("mpi.h", "hdf5.h", "boost/mpi")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')


def layer_of(include, layers):
    parts = include.split("/")
    if parts[0] == "allocsim" and len(parts) > 2:
        return parts[1]
    if len(parts) > 1 and parts[0] in layers:
        return parts[0]
    return None


def main(root):
    layers = set()
    for base in ("include/allocsim", "src"):
        folder = os.path.join(root, base)
        if os.path.isdir(folder):
            layers |= {d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d))}
    problems = []
    for base in ("include/allocsim", "src"):
        for layer in sorted(layers):
            folder = os.path.join(root, base, layer)
            for directory, _, files in os.walk(folder):
                for name in sorted(files):
                    if not name.endswith((".hpp", ".cpp", ".h")):
                        continue
                    path = os.path.join(directory, name)
                    with open(path, encoding="utf-8") as handle:
                        for number, line in enumerate(handle, 1):
                            match = INCLUDE.match(line)
                            if not match:
                                continue
                            include = match.group(1)
                            where = f"{os.path.relpath(path, root)}:{number}"
                            target = layer_of(include, layers)
                            if target == "cli" and layer != "cli":
                                problems.append(f"{where}: {layer}/ includes cli/ ({include})")
                            elif (layer in ALLOWED and target and target != layer
                                  and target not in ALLOWED[layer]):
                                allowed = ", ".join(sorted(ALLOWED[layer])) or "nothing"
                                problems.append(f"{where}: {layer}/ includes {target}/ ({include});"
                                                f" {layer}/ may include only {allowed}")
                            if layer in ALLOWED and include.startswith(CORE_FORBIDDEN):
                                problems.append(f"{where}: core layer {layer}/ includes {include}")
    for problem in problems:
        print(problem)
    print(f"layer rules: {len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")))
