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
        directory: the folder holding the files (a temporary one unless
            compile() was given output_dir).
    """

    def __init__(self, directory, keep_alive=None):
        self.directory = Path(directory)
        self._keep_alive = keep_alive  # a TemporaryDirectory, if any
        files = {name: self.directory / name for name in _FILES}
        missing = [name for name in ("program.so", "program.manifest.json",
                                     "bound.mlir", "kernels.ptx")
                   if not files[name].is_file()]
        if missing:
            raise ThreadBindError(
                f"{self.directory} holds no compiled program: "
                f"{', '.join(missing)} missing")
        self.mlir = files["bound.mlir"].read_text()
        self.ptx = files["kernels.ptx"].read_text()
        cubin = files["kernels.cubin"]
        self.cubin = cubin.read_bytes() if cubin.is_file() else None
        manifest = files["program.manifest.json"]
        try:
            self.manifest = json.loads(manifest.read_text())
        except ValueError as error:
            raise ThreadBindError(
                f"{manifest} is not a ThreadBind manifest: {error}") from None
        self.bundle_path = str(files["program.so"])
        self._bundle = None

    def load(self):
        """Opens the bundle: a Bundle mapping entry names to callables."""
        if self._bundle is None:
            self._bundle = Bundle(self.bundle_path, self.manifest)
        return self._bundle


# What one compilation leaves in its folder.
_FILES = ("program.so", "program.manifest.json", "bound.mlir", "kernels.ptx",
          "kernels.cubin")


def open_program(directory):
    """The Program that compile(..., output_dir=directory) left there: compile
    where ThreadBind is built, run where only the CUDA driver is (the bundle
    finds libThreadBindRuntime.so next to it, through LD_LIBRARY_PATH, or in
    the build tree it was linked in)."""
    return Program(directory)


def _run(compiler, args):
    result = subprocess.run([compiler, *args], capture_output=True,
                            text=True)
    if result.returncode != 0:
        raise ThreadBindError(
            "threadbind-compile failed:\n" + result.stderr.strip())
    return result


# MLIR text always holds one of these; a path to a file need not.
_MLIR_CHARACTERS = set("{}()=@%")


def _source_path(source_or_path):
    """The file to compile, or None when `source_or_path` is MLIR text. A
    pathlib.Path, or a one-line string without MLIR's punctuation, names a
    file, whatever its suffix; it must exist."""
    if isinstance(source_or_path, os.PathLike):
        path = Path(source_or_path)
    else:
        text = str(source_or_path)
        if "\n" in text or _MLIR_CHARACTERS & set(text):
            return None
        path = Path(text)
    if not path.is_file():
        raise ThreadBindError(f"no such MLIR file: {path}")
    return path


def compile(source_or_path, chip=None, output_dir=None, **pass_options):
    """Compiles MLIR text or a .mlir file with threadbind-compile.

    Keyword arguments become threadbind-compile flags (threads_per_block=128
    is --threads-per-block=128; see threadbind-compile --help). The files go
    to output_dir if given (created if needed; open_program reads them
    back), else to a temporary folder that lives as long as the Program.
    Files of an earlier compilation in output_dir are replaced only once
    this one succeeded. Raises ThreadBindError with the compiler's
    diagnostics if it fails.
    """
    compiler = find_compiler()
    source = _source_path(source_or_path)
    keep_alive = None
    if output_dir is None:
        keep_alive = tempfile.TemporaryDirectory(prefix="threadbind-")
        target = Path(keep_alive.name)
    else:
        target = Path(output_dir)
        target.mkdir(parents=True, exist_ok=True)
        if source is not None and any(
                (target / name).exists() and
                (target / name).samefile(source) for name in _FILES):
            raise ThreadBindError(
                f"compiling {source} into {target} would overwrite it: "
                "choose another output_dir")
    # Everything is made in a folder of its own beside the target, then
    # moved into place: a failed compilation leaves the target as it was.
    with tempfile.TemporaryDirectory(prefix=".threadbind-",
                                     dir=target) as scratch:
        work = Path(scratch)
        if source is None:
            # MLIR text becomes input.mlir beside what it makes, so the
            # places diagnostics and the manifest name exist; in a folder of
            # the caller's, only once the compilation succeeded.
            source = (target if keep_alive else work) / "input.mlir"
            source.write_text(str(source_or_path))
        # One run writes every form; the cubin needs ptxas, without which
        # the bundle carries PTX for the driver and the run is repeated
        # without it.
        args = [str(source), *([f"--chip={chip}"] if chip else []),
                *_flags(pass_options),
                "--emit=bundle", "-o", str(work / "program.so"),
                f"--manifest={work / 'program.manifest.json'}",
                f"--save-mlir={work / 'bound.mlir'}",
                f"--save-ptx={work / 'kernels.ptx'}"]
        try:
            _run(compiler, [*args, f"--save-cubin={work / 'kernels.cubin'}"])
        except ThreadBindError as error:
            if "--save-cubin: " not in str(error):
                raise
            _run(compiler, args)
        for name in (*_FILES, "input.mlir"):
            made = work / name
            if made.exists():
                os.replace(made, target / name)
            elif name in _FILES:  # nothing stale from an earlier compilation
                (target / name).unlink(missing_ok=True)
    return Program(target, keep_alive)
