"""Mutates a shared-tile kernel (map-loops-shared-tiles.mlir): the first
barrier, between the block's stores into its tiles and the threads' reads
from them, is removed, as if a thread could read a tile before the others
had written their share."""
import sys

lines = sys.stdin.read().split("\n")
for n, line in enumerate(lines):
    if line.strip() == "gpu.barrier":
        del lines[n]
        break
sys.stdout.write("\n".join(lines))
