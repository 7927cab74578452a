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
                       "scale_view", "fixed_view"]


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
