"""Mutates a shared-tile kernel (map-loops-shared-tiles.mlir): the N-th
barrier of the file (the argument, from 1), one between a block's stores
into its tiles and its threads' reads from them, is removed, as if a thread
could read a tile before the others had written their share."""
import sys

nth = int(sys.argv[1])
lines = sys.stdin.read().split("\n")
seen = 0
for n, line in enumerate(lines):
    if line.strip() == "gpu.barrier":
        seen += 1
        if seen == nth:
            del lines[n]
            break
sys.stdout.write("\n".join(lines))
