#!/usr/bin/env python3
"""threadbind.compile from Python, cold and from the on-disk cache.

For each MLIR file given (default: the shipped examples and the vector
add), times `threadbind.compile(path)` wall to wall, in this process:
cold (an empty cache: the compiler runs, the entry is written) and warm
(the same call again: the entry is found and read). Median of --repeat
runs, each cold run in a fresh cache folder.

usage: /usr/bin/python3 bench/compile-time/cache_time.py [--repeat N] [FILE...]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import threadbind  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    files = args.files or [*sorted((ROOT / "examples").glob("*.mlir")),
                           ROOT / "bench/kernels/vector-add.mlir"]
    os.environ.pop("THREADBIND_NO_CACHE", None)
    print("| file | cold ms | warm ms |")
    print("|---|---|---|")
    for path in files:
        cold, warm = [], []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as cache:
                os.environ["THREADBIND_CACHE_DIR"] = cache
                start = time.perf_counter()
                first = threadbind.compile(path)
                cold.append(time.perf_counter() - start)
                start = time.perf_counter()
                again = threadbind.compile(path)
                warm.append(time.perf_counter() - start)
                assert not first.cached and again.cached
        print(f"| {path.relative_to(ROOT)} | "
              f"{1e3 * statistics.median(cold):.1f} | "
              f"{1e3 * statistics.median(warm):.2f} |")


if __name__ == "__main__":
    main()
