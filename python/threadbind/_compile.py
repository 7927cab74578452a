"""threadbind.compile: run threadbind-compile and keep what it made, in an
on-disk cache keyed on everything the output depends on."""

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ._bundle import Bundle, ThreadBindError


def find_compiler():
    """The threadbind-compile to run: $THREADBIND_COMPILE; the one of the
    installation this package belongs to (P/bin beside P/python, as
    `cmake --install` lays them out); the build tree of the source tree it
    lives in ($THREADBIND_BUILD_DIR, else build/); or PATH."""
    explicit = os.environ.get("THREADBIND_COMPILE")
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise ThreadBindError(
                f"THREADBIND_COMPILE={explicit} is not an executable")
        return explicit
    root = Path(__file__).resolve().parents[2]
    installed = root / "bin" / "threadbind-compile"
    if os.access(installed, os.X_OK):
        return str(installed)
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
        directory: the folder holding the files (output_dir if compile() was
            given one, else the cache's entry, or a temporary folder when
            the cache is off).
        diagnostics: what the compiler printed on success: warnings, and
            with remarks=True its remarks ("" when it printed nothing).
        remarks: the diagnostics' remark lines ("file:line:col: remark:
            ..."), without the notes that follow them.
        cached: whether compile() found it in the cache.
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
        diagnostics = self.directory / _DIAGNOSTICS
        self.diagnostics = (diagnostics.read_text()
                            if diagnostics.is_file() else "")
        self.remarks = [line for line in self.diagnostics.splitlines()
                        if ": remark: " in line]
        self.cached = False
        self._bundle = None

    def load(self):
        """Opens the bundle: a Bundle mapping entry names to callables."""
        if self._bundle is None:
            self._bundle = Bundle(self.bundle_path, self.manifest)
        return self._bundle

    def launcher(self, function):
        """A Launcher for host function `function`: launches its kernels
        from the PTX (or cubin) on device arrays in place, on a stream,
        without waiting (threadbind._launch). One per function is kept."""
        launchers = self.__dict__.setdefault("_launchers", {})
        if function not in launchers:
            from ._launch import Launcher
            launchers[function] = Launcher(self, function)
        return launchers[function]


# What one compilation leaves in its folder, and where what the compiler
# printed goes.
_FILES = ("program.so", "program.manifest.json", "bound.mlir", "kernels.ptx",
          "kernels.cubin")
_DIAGNOSTICS = "diagnostics.txt"
# What a cache entry, or a compilation's scratch folder, holds: the files,
# the text of a source given as text, and the diagnostics.
_ENTRY_FILES = (*_FILES, "input.mlir", _DIAGNOSTICS)


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
        error = ThreadBindError(
            "threadbind-compile failed:\n" + result.stderr.strip())
        error.diagnostics = result.stderr
        raise error
    return result


# -- The cache ---------------------------------------------------------------
#
# An entry is a folder named after the SHA-256 of what the output depends on:
# the source (its text, and its path, which locations in the output name),
# the chip and flags, the compiler (its path, size and modification time,
# and the runtime library's beside it) and the ptxas it would find (the
# CUDA_* variables it reads, and ptxas on PATH). A process fills a folder of
# its own and renames it into place; where another got there first, its
# entry stands and ours goes. Entries are never changed once made.

_CACHE_FORMAT = "threadbind-cache-1"


def cache_dir():
    """The cache's folder: $THREADBIND_CACHE_DIR, else
    $XDG_CACHE_HOME/threadbind, else ~/.cache/threadbind; None where
    $THREADBIND_NO_CACHE is set (to anything but "" or "0")."""
    if os.environ.get("THREADBIND_NO_CACHE", "") not in ("", "0"):
        return None
    explicit = os.environ.get("THREADBIND_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "threadbind"


def _file_identity(path):
    try:
        status = os.stat(path)
    except OSError:
        return f"{path}:missing"
    return f"{os.path.realpath(path)}:{status.st_size}:{status.st_mtime_ns}"


def _cache_key(compiler, content, source, args):
    digest = hashlib.sha256()
    runtime = Path(compiler).resolve().parent.parent / "lib" / \
        "libThreadBindRuntime.so"
    parts = [_CACHE_FORMAT, _file_identity(compiler), _file_identity(runtime),
             shutil.which("ptxas") or "",
             *(os.environ.get(v, "") for v in ("CUDA_ROOT", "CUDA_HOME",
                                              "CUDA_PATH")),
             str(source.resolve()) if source is not None else "<text>",
             *args]
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    digest.update(content)
    return digest.hexdigest()


def _cached_program(entry):
    """The Program of cache entry `entry`, or None where there is none (or
    only the remains of one)."""
    if not (entry / "program.so").is_file():
        return None
    try:
        program = Program(entry)
    except ThreadBindError:
        return None
    program.cached = True
    return program


def _store(root, entry, work):
    """Copies the compilation in `work` into the cache as `entry`; another
    process's entry of the same key wins. A cache that cannot be written
    costs the caching, not the compilation."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{entry.name[:16]}-",
                                      dir=root))
    except OSError:
        return
    try:
        for name in _ENTRY_FILES:
            if (work / name).exists():
                shutil.copy2(work / name, fresh / name)
        # The remains of an entry (a disk that filled, a file deleted by
        # hand) make way; a whole one, another process's, stays.
        if entry.exists() and _cached_program(entry) is None:
            shutil.rmtree(entry, ignore_errors=True)
        os.rename(fresh, entry)
    except OSError:
        shutil.rmtree(fresh, ignore_errors=True)


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
    is --threads-per-block=128, remarks=True --remarks; see threadbind-compile
    --help). What the compiler prints comes back as Program.diagnostics and
    Program.remarks. The files go to output_dir if given (created if needed;
    open_program reads them back), else stay in the cache (see cache_dir;
    a temporary folder that lives as long as the Program when it is off).
    A program compiled before from the same source, flags, chip, compiler
    and ptxas comes from the cache without running the compiler. Files of
    an earlier compilation in output_dir are replaced only once this one
    succeeded. Raises ThreadBindError with the compiler's diagnostics (also
    in its `diagnostics` attribute) if it fails.
    """
    compiler = find_compiler()
    source = _source_path(source_or_path)
    text = str(source_or_path)
    content = source.read_bytes() if source is not None else text.encode()
    flags = [*([f"--chip={chip}"] if chip else []), *_flags(pass_options)]
    root = cache_dir()
    entry = cached = None
    if root is not None:
        entry = root / _cache_key(compiler, content, source, flags)
        cached = _cached_program(entry)
        if cached is not None and output_dir is None:
            return cached
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
    # Everything is made (or copied from the cache) in a folder of its own
    # beside the target, then moved into place: a failed compilation leaves
    # the target as it was.
    hit = cached is not None
    with tempfile.TemporaryDirectory(prefix=".threadbind-",
                                     dir=target) as scratch:
        work = Path(scratch)
        if hit:
            for name in _ENTRY_FILES:
                if (entry / name).exists():
                    shutil.copy2(entry / name, work / name)
        else:
            # MLIR text is compiled from a file, so that the locations in
            # diagnostics and in the output name one that exists: in the
            # cache, in the program's own temporary folder, or in a folder
            # of the caller's once the compilation succeeded.
            text_file = None
            if source is None:
                text_file = _kept_text(root, entry, text)
                if text_file is None:
                    text_file = (target if keep_alive else work) / \
                        "input.mlir"
                    text_file.write_text(text)
            _compile_into(compiler, source or text_file, flags, work)
            if entry is not None:
                _store(root, entry, work)
                if output_dir is None:
                    stored = _cached_program(entry)
                    if stored is not None:
                        stored.cached = False
                        return stored
        for name in _ENTRY_FILES:
            made = work / name
            if made.exists():
                os.replace(made, target / name)
            elif name != "input.mlir":
                # nothing stale from an earlier compilation
                (target / name).unlink(missing_ok=True)
    program = Program(target, keep_alive)
    program.cached = hit
    return program


def _kept_text(root, entry, text):
    """MLIR text written where the cache keeps it (inputs/<key>/input.mlir),
    for an entry's output to name a file that stays; None without a cache,
    or where it cannot be written."""
    if entry is None:
        return None
    kept = root / "inputs" / entry.name / "input.mlir"
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(text)
    except OSError:
        return None
    return kept


def _compile_into(compiler, source, flags, work):
    """Runs the compiler on the file `source` with every output in `work`,
    and what it printed in work/diagnostics.txt."""
    # One run writes every form; the cubin needs ptxas, without which the
    # bundle carries PTX for the driver and the run is repeated without it.
    args = [str(source), *flags,
            "--emit=bundle", "-o", str(work / "program.so"),
            f"--manifest={work / 'program.manifest.json'}",
            f"--save-mlir={work / 'bound.mlir'}",
            f"--save-ptx={work / 'kernels.ptx'}"]
    try:
        result = _run(compiler,
                      [*args, f"--save-cubin={work / 'kernels.cubin'}"])
    except ThreadBindError as error:
        if "--save-cubin: " not in str(error):
            raise
        result = _run(compiler, args)
    (work / _DIAGNOSTICS).write_text(result.stderr)
