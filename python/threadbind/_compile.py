"""threadbind.compile: run threadbind-compile and keep what it made."""

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ._bundle import Bundle, ThreadBindError


def find_compiler():
    """The threadbind-compile to run: $THREADBIND_COMPILE, the build tree
    this package lives in, or PATH."""
    explicit = os.environ.get("THREADBIND_COMPILE")
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise ThreadBindError(
                f"THREADBIND_COMPILE={explicit} is not an executable")
        return explicit
    root = Path(__file__).resolve().parents[2]
    build = Path(os.environ.get("THREADBIND_BUILD_DIR", root / "build"))
    candidate = build / "bin" / "threadbind-compile"
    if os.access(candidate, os.X_OK):
        return str(candidate)
    found = shutil.which("threadbind-compile")
    if found:
        return found
    raise ThreadBindError(
        "threadbind-compile not found: build ThreadBind (scripts/test.sh), "
        "put it on PATH, or set THREADBIND_COMPILE")


def _flags(options):
    """threads_per_block=128 -> --threads-per-block=128; True -> --flag;
    lists -> comma-separated."""
    flags = []
    for key, value in options.items():
        name = "--" + key.replace("_", "-")
        if value is True:
            flags.append(name)
        elif value is False:
            flags.append(f"{name}=false")
        elif isinstance(value, (list, tuple)):
            flags.append(f"{name}={','.join(str(v) for v in value)}")
        else:
            flags.append(f"{name}={value}")
    return flags


class Program:
    """What threadbind-compile made of one MLIR source.

    Attributes:
        mlir: the bound MLIR (gpu.launch form), text.
        ptx: the kernels' PTX, text.
        cubin: the kernels assembled by ptxas (bytes), or None without ptxas.
        manifest: the launch manifest, parsed from JSON.
        bundle_path: the host shared library with every entry.
    """

    def __init__(self, directory, mlir, ptx, cubin, manifest, bundle_path):
        self._directory = directory  # keeps the files alive with the object
        self.mlir = mlir
        self.ptx = ptx
        self.cubin = cubin
        self.manifest = manifest
        self.bundle_path = bundle_path
        self._bundle = None

    def load(self):
        """Opens the bundle: a Bundle mapping entry names to callables."""
        if self._bundle is None:
            self._bundle = Bundle(self.bundle_path, self.manifest)
        return self._bundle


def _run(compiler, args):
    result = subprocess.run([compiler, *args], capture_output=True,
                            text=True)
    if result.returncode != 0:
        raise ThreadBindError(
            "threadbind-compile failed:\n" + result.stderr.strip())
    return result


def compile(source_or_path, chip="sm_90", **pass_options):
    """Compiles MLIR text or a .mlir file with threadbind-compile.

    Keyword arguments become threadbind-compile flags (threads_per_block=128
    is --threads-per-block=128; see threadbind-compile --help). Raises
    ThreadBindError with the compiler's diagnostics if it fails.
    """
    compiler = find_compiler()
    directory = tempfile.TemporaryDirectory(prefix="threadbind-")
    work = Path(directory.name)
    text = str(source_or_path)
    if "\n" not in text and text.endswith(".mlir") and Path(text).is_file():
        source = Path(text)
    elif "\n" not in text and Path(text).suffix == ".mlir":
        raise ThreadBindError(f"no such MLIR file: {text}")
    else:
        source = work / "input.mlir"
        source.write_text(text)
    common = [str(source), f"--chip={chip}", *_flags(pass_options)]
    _run(compiler, [*common, "--emit=mlir", "-o", str(work / "bound.mlir")])
    _run(compiler, [*common, "--emit=ptx", "-o", str(work / "kernels.ptx")])
    bundle = work / "program.so"
    _run(compiler, [*common, "--emit=bundle", "-o", str(bundle)])
    cubin = None
    try:
        _run(compiler, [*common, "--emit=cubin", "-o",
                        str(work / "kernels.cubin")])
        cubin = (work / "kernels.cubin").read_bytes()
    except ThreadBindError:
        pass  # no ptxas here: the bundle carries PTX for the driver
    manifest = json.loads((work / "program.manifest.json").read_text())
    return Program(directory, (work / "bound.mlir").read_text(),
                   (work / "kernels.ptx").read_text(), cubin, manifest,
                   str(bundle))
