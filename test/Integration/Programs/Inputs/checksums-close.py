"""Compares two outputs of a program's checksum prints, line by line:
words must match exactly, numbers within --rtol (relative to the first
file's) plus --atol. For programs whose mapped form may round float sums
in another order (split reductions), where diff would flag the last digit
of a checksum. Exits 1, naming the first difference, if they differ."""

import argparse
import sys


def number(word):
    try:
        return float(word)
    except ValueError:
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("expected")
    parser.add_argument("actual")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=0.0)
    args = parser.parse_args()
    with open(args.expected) as f:
        expected = f.read().split("\n")
    with open(args.actual) as f:
        actual = f.read().split("\n")
    if len(expected) != len(actual):
        sys.exit(f"{len(expected)} lines expected, {len(actual)} found")
    for line, (want, got) in enumerate(zip(expected, actual), 1):
        a, b = want.split(), got.split()
        if len(a) != len(b):
            sys.exit(f"line {line}: {want!r} expected, {got!r} found")
        for x, y in zip(a, b):
            nx, ny = number(x), number(y)
            if nx is None or ny is None:
                if x != y:
                    sys.exit(f"line {line}: {want!r} expected, {got!r} found")
            elif not abs(nx - ny) <= args.atol + args.rtol * abs(nx):
                sys.exit(f"line {line}: {x} expected, {y} found (rtol "
                         f"{args.rtol}, atol {args.atol})")


if __name__ == "__main__":
    main()
