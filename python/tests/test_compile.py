"""threadbind.compile and the Program it returns (no GPU needed)."""

import pytest

import threadbind


def test_program_holds_every_form(program):
    assert "gpu.launch" in program.mlir
    assert ".visible .entry axpy_kernel(" in program.ptx
    names = {k["name"] for k in program.manifest["kernels"]}
    assert {"axpy_kernel", "rows_kernel", "twice_f16_kernel"} <= names
    entries = [e["name"] for e in program.manifest["entries"]]
    assert entries == ["axpy", "rows", "total", "twice_f16", "padded",
                       "scale_view", "fixed_view", "shift_by"]


def test_cubin_is_an_elf(program):
    if program.cubin is None:
        pytest.skip("threadbind-compile found no ptxas")
    assert program.cubin[:4] == b"\x7fELF"


def test_saved_program_opens_elsewhere(tmp_path):
    source = threadbind._compile.Path(__file__).with_name("kernels.mlir")
    saved = threadbind.compile(source, output_dir=tmp_path / "out",
                               threads_per_block=64)
    again = threadbind.open_program(tmp_path / "out")
    assert again.ptx == saved.ptx and again.mlir == saved.mlir
    assert again.manifest == saved.manifest and again.cubin == saved.cubin
    assert again.manifest["kernels"][0]["block"] == [64, 1, 1]
    # A second compilation into the same folder leaves nothing of the first.
    (tmp_path / "out" / "kernels.cubin").write_bytes(b"stale")
    threadbind.compile(source, output_dir=tmp_path / "out")
    assert threadbind.open_program(tmp_path / "out").cubin != b"stale"
    with pytest.raises(threadbind.ThreadBindError,
                       match="holds no compiled program: program.so"):
        threadbind.open_program(tmp_path)


def test_pass_options_become_flags():
    text = open(threadbind._compile.Path(__file__).with_name(
        "kernels.mlir")).read()
    program = threadbind.compile(text, threads_per_block=128,
                                 vector_bytes=0, unswitch=False)
    axpy = next(k for k in program.manifest["kernels"]
                if k["name"] == "axpy_kernel")
    assert axpy["block"] == [128, 1, 1]
    assert "ld.global.v4" not in program.ptx


def test_compile_errors_carry_the_diagnostics():
    with pytest.raises(threadbind.ThreadBindError, match="error"):
        threadbind.compile("func.func @broken(%a: memref<?xf32>) {\n"
                           "  %x = arith.addf %a, %a : f32\n}\n")
    with pytest.raises(threadbind.ThreadBindError,
                       match="vector-bytes must be 0, 4, 8 or 16"):
        threadbind.compile("func.func @f() {\n  return\n}\n", vector_bytes=3)
    with pytest.raises(threadbind.ThreadBindError, match="no such MLIR"):
        threadbind.compile("missing-file.mlir")


def test_compiler_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("THREADBIND_COMPILE", str(tmp_path / "nope"))
    with pytest.raises(threadbind.ThreadBindError, match="not an executable"):
        threadbind.find_compiler()


# -- The compile cache --------------------------------------------------------

SOURCE_TEXT = """
func.func @scale(%x: memref<?xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.mulf %v, %s : f32
    memref.store %w, %x[%i] : memref<?xf32>
  }
  return
}
"""


@pytest.fixture
def compiler_runs(monkeypatch, tmp_path):
    """A cache of the test's own, and a list that grows by one each time
    threadbind.compile runs the compiler."""
    monkeypatch.setenv("THREADBIND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("THREADBIND_NO_CACHE", raising=False)
    runs = []
    real = threadbind._compile._run

    def counting(compiler, args):
        runs.append(args)
        return real(compiler, args)

    monkeypatch.setattr(threadbind._compile, "_run", counting)
    return runs


def test_a_second_compile_comes_from_the_cache(compiler_runs, tmp_path):
    first = threadbind.compile(SOURCE_TEXT, threads_per_block=64)
    assert compiler_runs and not first.cached
    count = len(compiler_runs)
    second = threadbind.compile(SOURCE_TEXT, threads_per_block=64)
    assert len(compiler_runs) == count and second.cached
    assert second.ptx == first.ptx and second.manifest == first.manifest
    assert second.directory == first.directory
    assert str(second.directory).startswith(str(tmp_path / "cache"))
    # The cached bundle runs (its CPU reference, no GPU needed).
    import numpy as np
    x = np.arange(8, dtype=np.float32)
    second.load().scale.reference(x, np.float32(2.0))
    assert list(x) == [2.0 * k for k in range(8)]
    # Into a folder of the caller's: copied from the cache.
    saved = threadbind.compile(SOURCE_TEXT, output_dir=tmp_path / "out",
                               threads_per_block=64)
    assert len(compiler_runs) == count and saved.cached
    assert saved.directory == tmp_path / "out"
    assert threadbind.open_program(tmp_path / "out").ptx == first.ptx


def test_a_changed_option_chip_or_source_misses(compiler_runs, tmp_path):
    threadbind.compile(SOURCE_TEXT, threads_per_block=64)
    count = len(compiler_runs)
    for variant in (dict(threads_per_block=128), dict(vector_bytes=0),
                    dict(threads_per_block=64, chip="sm_80")):
        program = threadbind.compile(SOURCE_TEXT, **variant)
        assert not program.cached and len(compiler_runs) > count, variant
        count = len(compiler_runs)
    changed = SOURCE_TEXT.replace("arith.mulf", "arith.addf")
    program = threadbind.compile(changed, threads_per_block=64)
    assert not program.cached and "add.f32" in program.ptx
    count = len(compiler_runs)
    # A file: its content counts, not only its name.
    path = tmp_path / "k.mlir"
    path.write_text(SOURCE_TEXT)
    assert not threadbind.compile(path).cached
    assert threadbind.compile(path).cached
    path.write_text(changed)
    assert not threadbind.compile(path).cached


def test_no_cache_runs_the_compiler_every_time(compiler_runs, monkeypatch,
                                               tmp_path):
    monkeypatch.setenv("THREADBIND_NO_CACHE", "1")
    assert threadbind._compile.cache_dir() is None
    threadbind.compile(SOURCE_TEXT)
    count = len(compiler_runs)
    assert not threadbind.compile(SOURCE_TEXT).cached
    assert len(compiler_runs) > count
    assert not (tmp_path / "cache").exists()


def test_the_cache_lives_under_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.delenv("THREADBIND_CACHE_DIR", raising=False)
    monkeypatch.delenv("THREADBIND_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert threadbind._compile.cache_dir() == tmp_path / "xdg" / "threadbind"
    monkeypatch.setenv("THREADBIND_CACHE_DIR", str(tmp_path / "mine"))
    assert threadbind._compile.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv("THREADBIND_NO_CACHE", "0")
    assert threadbind._compile.cache_dir() == tmp_path / "mine"


def test_a_writer_that_loses_the_race_keeps_its_program(compiler_runs,
                                                        monkeypatch,
                                                        tmp_path):
    # Another process renamed its entry into place first: ours is dropped,
    # the program still comes back, and no half-written folder is left.
    real_rename = threadbind._compile.os.rename

    def lost(src, dst):
        raise OSError("Directory not empty")

    monkeypatch.setattr(threadbind._compile.os, "rename", lost)
    program = threadbind.compile(SOURCE_TEXT)
    assert ".visible .entry scale_kernel(" in program.ptx
    monkeypatch.setattr(threadbind._compile.os, "rename", real_rename)
    leftovers = [p for p in (tmp_path / "cache").iterdir()
                 if p.name.startswith(".")]
    assert leftovers == []


def test_a_broken_entry_is_made_again(compiler_runs):
    first = threadbind.compile(SOURCE_TEXT)
    (first.directory / "kernels.ptx").unlink()
    count = len(compiler_runs)
    again = threadbind.compile(SOURCE_TEXT)
    assert len(compiler_runs) > count and not again.cached
    assert ".visible .entry scale_kernel(" in again.ptx
    assert threadbind.compile(SOURCE_TEXT).cached


def test_remarks_come_back(compiler_runs):
    program = threadbind.compile(SOURCE_TEXT, remarks=True)
    assert any("remark: bound to gpu.launch" in line
               for line in program.remarks)
    assert all(": remark: " in line for line in program.remarks)
    # From the cache too, and not without remarks=True.
    assert threadbind.compile(SOURCE_TEXT, remarks=True).remarks == \
        program.remarks
    assert threadbind.compile(SOURCE_TEXT).remarks == []


def test_errors_carry_the_diagnostics_as_an_attribute(compiler_runs):
    with pytest.raises(threadbind.ThreadBindError) as caught:
        threadbind.compile("func.func @broken(%a: memref<?xf32>) {\n"
                           "  %x = arith.addf %a, %a : f32\n}\n")
    assert "error:" in caught.value.diagnostics
    # Failures are not cached.
    cache = threadbind._compile.cache_dir()
    assert not any(p.name != "inputs" for p in cache.iterdir()) \
        if cache.exists() else True
