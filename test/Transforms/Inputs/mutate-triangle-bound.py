"""Mutates a triangular register-tiled kernel
(map-loops-register-tiles-triangular.mlir): in the first launch, the first
test against a row's upper column bound (`arith.cmpi slt`) becomes
inclusive (`sle`), so one column past each row's triangle is stored."""
import sys

text = sys.stdin.read()
launch = text.index("gpu.launch")
at = text.index("arith.cmpi slt", launch)
sys.stdout.write(text[:at] + "arith.cmpi sle" + text[at + len("arith.cmpi slt"):])
