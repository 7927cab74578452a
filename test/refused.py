#!/usr/bin/env python3
"""The contract for input a ThreadBind tool refuses, checked in one place.

    // RUN: %refused threadbind-compile %s -o %t.ptx 2>&1 | FileCheck %s

runs the command and exits 0 only when
- the command exited non-zero, and was not killed by a signal;
- its input, the first argument that names an existing file, is byte for
  byte what it was (the command reads a copy that keeps the file's name,
  so diagnostics still name it);
- every output it was asked for (-o, --manifest, --save-mlir, --save-ptx,
  --save-cubin, and the manifest threadbind-compile would put beside a
  regular -o file) still holds what it held before: each is created with
  a sentinel first, so an existing file must come through untouched;
- nothing new whose name contains an output's name appeared beside it
  (a temporary file left behind, an implicit side file).
The command's standard output and error pass through, for FileCheck.
"""

import os
import shutil
import subprocess
import sys
import tempfile

OUTPUT_FLAGS = ("-o", "--manifest", "--save-mlir", "--save-ptx",
                "--save-cubin")
SENTINEL = b"threadbind: an output that must not be touched\n"


def outputs_of(args):
    """The output paths the arguments name (flag and value split or joined
    with '=')."""
    paths = []
    it = iter(range(len(args)))
    for i in it:
        arg = args[i]
        for flag in OUTPUT_FLAGS:
            if arg == flag and i + 1 < len(args):
                paths.append(args[i + 1])
                next(it, None)
            elif arg.startswith(flag + "="):
                paths.append(arg[len(flag) + 1:])
    return paths


def is_file_output(path):
    return path != "-" and not path.startswith("/dev/")


def main():
    command = sys.argv[1:]
    if not command:
        sys.exit("usage: refused.py TOOL ARGS...")
    work = tempfile.mkdtemp(prefix="threadbind-refused-")
    try:
        # The input: copied, so a tool that damaged it damages the copy.
        original = None
        for i, arg in enumerate(command[1:], start=1):
            if not arg.startswith("-") and os.path.isfile(arg):
                original = arg
                with open(arg, "rb") as f:
                    before = f.read()
                copy = os.path.join(work, os.path.basename(arg))
                shutil.copyfile(arg, copy)
                command[i] = copy
                break
        outputs = [p for p in outputs_of(command) if is_file_output(p)]
        tool = os.path.basename(command[0])
        if tool == "threadbind-compile" and "--manifest" not in " ".join(
                command):
            outputs += [p + ".manifest.json" for p in outputs_of(command)[:1]
                        if is_file_output(p)]
        for path in outputs:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path, "wb") as f:
                f.write(SENTINEL)
        listing = {path: set(os.listdir(os.path.dirname(os.path.abspath(path))))
                   for path in outputs}

        result = subprocess.run(command, capture_output=True)
        sys.stdout.buffer.write(result.stdout)
        sys.stderr.buffer.write(result.stderr)
        sys.stderr.flush()

        broken = []
        if result.returncode == 0:
            broken.append("it exited 0")
        elif result.returncode < 0:
            broken.append(f"it was killed by signal {-result.returncode}")
        if original is not None:
            with open(command[command.index(copy)], "rb") as f:
                if f.read() != before:
                    broken.append(f"it changed its input {original}")
        for path in outputs:
            name = os.path.basename(path)
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.exists(path):
                broken.append(f"it removed the existing file {path}")
            else:
                with open(path, "rb") as f:
                    if f.read() != SENTINEL:
                        broken.append(f"it wrote {path}")
            new = {e for e in set(os.listdir(folder)) - listing[path]
                   if name in e}
            if new:
                broken.append(f"it left {', '.join(sorted(new))} beside "
                              f"{path}")
        for path in outputs:
            if os.path.exists(path):
                os.remove(path)
        if broken:
            print(f"refused.py: the contract for refused input failed for "
                  f"`{' '.join(sys.argv[1:])}`: {'; '.join(broken)}",
                  file=sys.stderr)
            return 1
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
