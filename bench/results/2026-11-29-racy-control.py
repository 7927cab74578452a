#!/usr/bin/env python3
"""A negative control for the racecheck sweep (scripts/sanitize-shared.py):
row_sums of bench/python/ops.mlir (a block a row, partial sums combined in
shared memory) launched from its PTX through the Python package, as
compiled, or with every `bar.sync` removed from the PTX. Under
compute-sanitizer racecheck the intact kernels must report no hazard and
the racy ones some; the sums are checked either way.
    python3 2026-11-29-racy-control.py STAGE intact|racy
"""
import re
import shutil
import sys
import tempfile

import cupy as cp
import numpy as np

stage, mode = sys.argv[1], sys.argv[2]
sys.path.insert(0, stage + "/python")
import threadbind  # noqa: E402

with tempfile.TemporaryDirectory() as tmp:
    program_dir = tmp + "/ops"
    shutil.copytree(stage + "/python/programs/ops", program_dir)
    if mode == "racy":
        path = program_dir + "/kernels.ptx"
        ptx = open(path).read()
        ptx, removed = re.subn(r"\n\s*bar\.sync\s+0;", "", ptx)
        open(path, "w").write(ptx)
        shutil.os.remove(program_dir + "/kernels.cubin")
        print("removed %d bar.sync" % removed)
    program = threadbind.open_program(program_dir)
    m = cp.asarray(np.random.default_rng(1).integers(0, 8, (37, 1029))
                   .astype(np.float32))
    out = cp.zeros((37,), cp.float32)
    program.launcher("row_sums")(m, out)
    cp.cuda.runtime.deviceSynchronize()
    ok = bool(cp.all(out == m.sum(axis=1)))
    print("row_sums %s: %s" % (mode, "right" if ok else "WRONG"))
