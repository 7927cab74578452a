"""Mutates a register-tiled kernel (map-loops-register-tiles.mlir): in the
first tiled k loop, the second output's multiply takes the first row's load
where it should take its own row's, as if the tile's rows were mixed up."""
import re
import sys

lines = sys.stdin.read().split("\n")
loads = []
for n, line in enumerate(lines):
    m = re.match(r"\s*(%\d+) = memref.load %arg0\[", line)
    if m:
        loads.append(m.group(1))
    if len(loads) == 2:
        break
first, second = loads
# Every use of the second row's load in the rest of the k loop's body (up
# to its scf.yield) now uses the first row's.
done = False
for n, line in enumerate(lines):
    if not done and re.match(r"\s*%s = memref.load" % re.escape(second), line):
        done = True
        continue
    if done and "scf.yield" in line:
        break
    if done and re.search(re.escape(second) + r"\b", line):
        lhs, _, rhs = line.partition("=")
        lines[n] = lhs + "=" + re.sub(re.escape(second) + r"\b", first, rhs)
sys.stdout.write("\n".join(lines))
