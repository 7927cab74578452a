#!/usr/bin/env python3
"""Writes the well-conditioned inputs that the corpus programs' BUNDLE lines
name as `--input I=@KIND`, into DIR, and prints the arguments with each
placeholder replaced by the file's path (gpu-check.sh --corpus runs it). Random data suits most programs; these do not
(LU without pivoting, Cholesky, triangular solves, Levinson-Durbin and
Floyd-Warshall diverge or race on it). Kinds, for an argument of the shape
its `--shape I=...` gives, f32:
  diagdom   uniform [-1, 1) plus n on the diagonal (n the row count)
  spd       the symmetric part of diagdom, positive definite
  harmonic  r[k] = 1 / (k + 2), a Toeplitz system durbin solves
  nonneg    uniform [0, 1), path lengths without negative cycles

  corpus-inputs.py DIR NAME ARGS...   (ARGS: the BUNDLE line's words)
"""
import re
import sys

import numpy as np


def make(kind, shape, rng):
    if kind in ("diagdom", "spd"):
        a = rng.uniform(-1, 1, size=shape).astype(np.float32)
        if kind == "spd":
            a = (a + a.T) / 2
        a[np.diag_indices(min(shape))] += shape[0]
        return a
    if kind == "harmonic":
        return (1.0 / (np.arange(shape[0]) + 2)).astype(np.float32)
    if kind == "nonneg":
        return rng.uniform(0, 1, size=shape).astype(np.float32)
    raise SystemExit(f"corpus-inputs.py: unknown input kind '{kind}'")


def main():
    directory, name, words = sys.argv[1], sys.argv[2], sys.argv[3:]
    shapes = {}
    for i, word in enumerate(words):
        if word == "--shape":
            index, dims = words[i + 1].split("=")
            shapes[index] = tuple(int(d) for d in dims.split("x"))
    rng = np.random.default_rng(1)
    out = []
    for word in words:
        m = re.fullmatch(r"(\d+)=@(\w+)", word)
        if m:
            index, kind = m.groups()
            path = f"{directory}/{name}-{index}.npy"
            np.save(path, make(kind, shapes[index], rng))
            word = f"{index}={path}"
        out.append(word)
    print(" ".join(out))


if __name__ == "__main__":
    main()
