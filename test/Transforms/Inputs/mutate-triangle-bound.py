"""Mutates a triangular register-tiled kernel
(map-loops-register-tiles-triangular.mlir): in the first launch, the first
`arith.cmpi slt` becomes the predicate given as the argument. In a kernel
of 4x2 tiles that is a test against a row's upper column bound: `sle`
stores one column past each row's triangle. In a kernel of shared tiles it
is the test of whether the block's tile meets the triangle: `sgt` skips
tiles that do."""
import sys

predicate = sys.argv[1]
text = sys.stdin.read()
launch = text.index("gpu.launch")
at = text.index("arith.cmpi slt", launch)
sys.stdout.write(text[:at] + "arith.cmpi " + predicate +
                 text[at + len("arith.cmpi slt"):])
