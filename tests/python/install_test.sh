#!/bin/bash
# The install target puts the Python module where Debian's python finds it: `cmake --install`
# with prefix /usr/local into a staging root (DESTDIR), then PYTHON imports the staged package
# and runs a simulation; the folder must be one of PYTHON's own sys.path entries for that prefix.
#   install_test.sh BUILD_DIR WORK PYTHON
set -euo pipefail
build=$1 work=$2 python=$3
rm -rf "$work"
DESTDIR="$work/root" cmake --install "$build" --prefix /usr/local >"$work.log"
package=$(cd "$work/root" && ls -d usr/local/lib/python3*/dist-packages/allocsim)
"$python" - "/${package%/allocsim}" <<'PY' || { echo "/${package%/allocsim} is not on $python's sys.path" >&2; exit 1; }
import sys
sys.exit(0 if sys.argv[1] in sys.path else 1)
PY
PYTHONPATH="$work/root/${package%/allocsim}" "$python" -c "
import allocsim
assert allocsim.__file__.startswith('$work/root/'), allocsim.__file__
r = allocsim.run(machine='mesh:8x8', trace='synthetic:jobs=20', alloc='mc1x1')
print('installed module', allocsim.__file__, int(r.summary['jobs']), 'jobs')
assert len(r.jobs) == 20
"
