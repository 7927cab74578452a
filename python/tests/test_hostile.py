"""What the package does with input that is wrong, odd or hostile: a clear
ThreadBindError (or TypeError/OverflowError for a bad argument), never a
wrong result, a crash or a lost file (no GPU needed)."""

import shutil

import numpy as np
import pytest

import threadbind

ELEMENTWISE = """
func.func @apply(%x: memref<?xi32>, %y: memref<?xi32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xi32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {{
    %a = memref.load %x[%i] : memref<?xi32>
    %b = memref.load %y[%i] : memref<?xi32>
    %r = arith.{op} %a, %b : i32
    memref.store %r, %y[%i] : memref<?xi32>
  }}
  return
}}
"""

SCALARS = """
func.func @fill(%out: memref<?xi64>, %a: i8, %b: i32, %c: i64, %d: index,
                %e: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %out, %c0 : memref<?xi64>
  %a64 = arith.extsi %a : i8 to i64
  %b64 = arith.extsi %b : i32 to i64
  %d64 = arith.index_cast %d : index to i64
  %e64 = arith.fptosi %e : f32 to i64
  %s1 = arith.addi %a64, %b64 : i64
  %s2 = arith.addi %s1, %c : i64
  %s3 = arith.addi %s2, %d64 : i64
  %s4 = arith.addi %s3, %e64 : i64
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %s4, %out[%i] : memref<?xi64>
  }
  return
}
"""


def test_a_recompiled_program_runs_its_new_code(tmp_path):
    # dlopen hands back a library already loaded from the same path; the
    # second program must still run its own code.
    x = np.full(4, 5, dtype=np.int32)
    first = threadbind.compile(ELEMENTWISE.format(op="addi"),
                               output_dir=tmp_path)
    y = np.full(4, 2, dtype=np.int32)
    first.load().apply.reference(x, y)
    assert list(y) == [7] * 4
    second = threadbind.compile(ELEMENTWISE.format(op="subi"),
                                output_dir=tmp_path)
    y = np.full(4, 2, dtype=np.int32)
    second.load().apply.reference(x, y)
    assert list(y) == [3] * 4
    y = np.full(4, 2, dtype=np.int32)
    threadbind.open_program(tmp_path).load().apply.reference(x, y)
    assert list(y) == [3] * 4


def test_compile_never_overwrites_its_source(tmp_path):
    source = tmp_path / "bound.mlir"
    source.write_text(ELEMENTWISE.format(op="addi"))
    before = source.read_bytes()
    with pytest.raises(threadbind.ThreadBindError, match="would overwrite"):
        threadbind.compile(str(source), output_dir=tmp_path)
    assert source.read_bytes() == before


def test_a_failed_compile_leaves_the_folder_as_it_was(tmp_path):
    threadbind.compile(ELEMENTWISE.format(op="addi"), output_dir=tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(threadbind.ThreadBindError):
        threadbind.compile("func.func @f( {", output_dir=tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_paths_of_any_suffix_are_files(tmp_path):
    source = tmp_path / "kernel.txt"
    source.write_text(ELEMENTWISE.format(op="muli"))
    for given in (source, str(source)):
        program = threadbind.compile(given)
        assert "apply" in [e["name"] for e in program.manifest["entries"]]
    with pytest.raises(threadbind.ThreadBindError, match="no such MLIR file"):
        threadbind.compile(tmp_path / "missing.txt")
    with pytest.raises(threadbind.ThreadBindError, match="no such MLIR file"):
        threadbind.compile("missing.txt")


def test_scalars_that_do_not_fit_raise():
    entry = threadbind.compile(SCALARS).load().fill
    out = np.zeros(3, dtype=np.int64)
    entry.reference(out, -128, 2**31 - 1, -2**63 + 10, 5, 2.0)
    assert list(out) == [-128 + 2**31 - 1 - 2**63 + 10 + 5 + 2] * 3
    for args, error, message in [
        ((300, 0, 0, 0, 0.0), OverflowError,
         r"argument 1 \(i8\): 300 does not fit in i8 \(-128 to 127\)"),
        ((0, 3_000_000_000, 0, 0, 0.0), OverflowError, "does not fit in i32"),
        ((0, 0, 2**64 + 5, 0, 0.0), OverflowError, "does not fit in i64"),
        ((0, 0, 0, -2**63 - 1, 0.0), OverflowError, "does not fit in index"),
        ((0, 3e9, 0, 0, 0.0), TypeError, "3000000000.0 is not an integer"),
        ((True, 0, 0, 0, 0.0), TypeError, "True is not an integer"),
        ((0, 0, 0, 0, 1e39), OverflowError, "does not fit in f32"),
        ((0, 0, 0, 0, "1"), TypeError, "'1' is not a f32"),
    ]:
        with pytest.raises(error, match=message):
            entry.reference(out, *args)
    # NumPy integers count as integers; infinities are floats like any.
    entry.reference(out, np.int8(1), np.int64(2), 3, 4, float("inf"))


def test_a_library_that_is_no_bundle(tmp_path):
    library = tmp_path / "not-a-bundle.so"
    program = threadbind.compile(ELEMENTWISE.format(op="addi"))
    shutil.copyfile(program.bundle_path, library)
    with open(library, "r+b") as f:  # truncated: not loadable at all
        f.truncate(100)
    with pytest.raises(threadbind.ThreadBindError,
                       match="cannot open the bundle"):
        threadbind.Bundle(library)
    runtime = threadbind._compile.find_compiler()
    with pytest.raises(threadbind.ThreadBindError,
                       match="is not a ThreadBind bundle"):
        threadbind.Bundle(
            threadbind._compile.Path(runtime).parents[1] / "lib" /
            "libThreadBindRuntime.so")


def test_a_corrupt_manifest(tmp_path):
    threadbind.compile(ELEMENTWISE.format(op="addi"), output_dir=tmp_path)
    (tmp_path / "program.manifest.json").write_text("{ not json")
    with pytest.raises(threadbind.ThreadBindError,
                       match="program.manifest.json is not a ThreadBind "
                             "manifest"):
        threadbind.open_program(tmp_path)


def test_an_entry_without_a_cpu_reference():
    # A hand-written kernel with a barrier under a condition cannot run on
    # the host (the emulation splits phases at barriers in the launch body
    # and in loops of it only): the bundle has its GPU version only, and
    # says why.
    program = threadbind.compile("""
func.func @barrier(%a: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1.0 : f32
    %low = arith.cmpi ult, %tx, %c16 : index
    scf.if %low {
      memref.store %one, %a[%tx] : memref<?xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
""")
    entry = program.manifest["entries"][0]
    assert entry["reference_symbol"] is None
    assert "gpu.barrier" in entry["no_reference"]
    with pytest.raises(threadbind.ThreadBindError,
                       match="barrier has no CPU reference: .*gpu.barrier"):
        program.load().barrier.reference(np.zeros(32, np.float32))


def test_sizes_that_disagree_raise_before_the_call():
    # The loop runs over x's size and reads y there: a shorter y would be
    # read and written out of bounds.
    entry = threadbind.compile(ELEMENTWISE.format(op="addi")).load().apply
    x = np.ones(10, dtype=np.int32)
    with pytest.raises(ValueError,
                       match=r"apply: the sizes do not fit: argument 1 has 5 "
                             r"elements in dimension 0, but 'memref.load' at "
                             r".*input.mlir:8:10 needs 10 \(size 0 of argument 0\)"):
        entry.reference(x, np.ones(5, dtype=np.int32))
    y = np.ones(12, dtype=np.int32)
    entry.reference(x, y)  # a longer one is fine
    assert list(y) == [2] * 10 + [1] * 2
    entry.reference(np.ones(0, dtype=np.int32), np.ones(0, dtype=np.int32))


def test_i1_scalars_and_masks(tmp_path):
    """i1 arguments: a scalar takes a bool, 0 or 1, nothing else, and an
    i1 memref takes a NumPy bool array."""
    source = tmp_path / "masked.mlir"
    source.write_text("""
func.func @masked(%a: memref<?xf32>, %mask: memref<?xi1>, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %hundred = arith.constant 100.0 : f32
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %m = memref.load %mask[%i] : memref<?xi1>
    %take = arith.xori %m, %flag : i1
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.select %take, %hundred, %x : f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
""")
    entry = threadbind.compile(source).load().masked
    mask = np.array([True, False, False, True, False])
    for flag in (False, True, 0, 1):
        a = np.arange(5, dtype=np.float32)
        entry.reference(a, mask, flag)
        expected = np.where(mask ^ bool(flag), 100, np.arange(5))
        np.testing.assert_array_equal(a, expected)
    with pytest.raises(TypeError, match="is not an i1"):
        entry.reference(np.zeros(5, np.float32), mask, 2)
