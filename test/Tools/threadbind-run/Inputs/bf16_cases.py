"""Writes inputs for bf16-reference.mlir: f32 and f64 values that are hard
to round to bf16 (ties both ways, one unit off a tie, the largest finite
values and past them, subnormals, signed zeros, infinities, NaNs, f64
values between two f32 ones) and, for each, the bf16 bits that rounding to
nearest, ties to even, gives, found exactly with fractions."""

import bisect
import struct
import sys
from fractions import Fraction

import numpy as np


def bf16_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


# Every finite non-negative bf16, in order (0x0000 to 0x7F7F).
FINITE = [(Fraction(bf16_value(b)), b) for b in range(0x7F80)]
VALUES = [v for v, _ in FINITE]
MAX = VALUES[-1]
# The overflow threshold: half an ulp (of the last binade) past the largest.
PAST_MAX = MAX + (MAX - VALUES[-2]) / 2


def nearest_bits(x):
    """bf16 bits of float `x` rounded to nearest, ties to even."""
    if x != x:
        return None  # any NaN will do; checked apart
    sign = 0x8000 if np.signbit(x) else 0
    if x in (float("inf"), float("-inf")):
        return sign | 0x7F80
    v = abs(Fraction(x))
    if v >= PAST_MAX:
        return sign | 0x7F80
    i = bisect.bisect_left(VALUES, v)
    if i == len(VALUES):  # past the largest, short of the threshold
        return sign | FINITE[-1][1]
    if VALUES[i] == v:
        return sign | FINITE[i][1]
    lo, hi = FINITE[i - 1], FINITE[i]
    if v - lo[0] < hi[0] - v:
        return sign | lo[1]
    if v - lo[0] > hi[0] - v:
        return sign | hi[1]
    return sign | (lo[1] if lo[1] % 2 == 0 else hi[1])


def f32_from_bits(bits):
    return np.array([bits], dtype=np.uint32).view(np.float32)[0]


def main(out_dir):
    f32_bits = []
    for top in [0x3F80, 0x3F81, 0x4049, 0x7F7E, 0x7F7F, 0x0000, 0x0001,
                0x0080, 0x8001, 0xC2F7, 0x3380]:
        base = top << 16
        # exact, just below a tie, a tie, just above it, near the next one
        for low in [0x0000, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x0001]:
            f32_bits.append(base | low)
    f32_bits += [0x80000000, 0x7F800000, 0xFF800000, 0x7FFFFFFF]
    x = np.array(f32_bits, dtype=np.uint32).view(np.float32)
    # f64 values: each f32 above, and values a hair off the f32 grid, so a
    # conversion through f32 with rounding to nearest would round twice.
    d = []
    for v in x.astype(np.float64):
        d.append(v)
        if np.isfinite(v) and v != 0:
            d.append(np.nextafter(v, np.inf))
            d.append(np.nextafter(v, -np.inf))
    d += [1.0 + 2.0**-8 + 2.0**-40, 1.0 + 2.0**-8 - 2.0**-40, 3.4e38,
          3.5e38, 1e300, -1e300, 2.0**-140, float("nan")]
    d = np.array(d, dtype=np.float64)
    x = np.resize(x, d.shape)  # the same length, the f32 list repeated
    expect_x = [nearest_bits(float(v)) for v in x]
    expect_d = [nearest_bits(float(v)) for v in d]
    # A NaN's expected bits are marked 0xFFFF: the kernel only checks that
    # the result is a NaN.
    ex = np.array([0xFFFF if e is None else e for e in expect_x], np.uint16)
    ed = np.array([0xFFFF if e is None else e for e in expect_d], np.uint16)
    np.save(f"{out_dir}/x.npy", x)
    np.save(f"{out_dir}/d.npy", d)
    np.save(f"{out_dir}/ex.npy", ex.view(np.int16))
    np.save(f"{out_dir}/ed.npy", ed.view(np.int16))
    print(len(d))


if __name__ == "__main__":
    main(sys.argv[1])
