"""Run from an installed prefix's Python package, with nothing of the
build tree on PATH or in the environment: compile() must run the prefix's
threadbind-compile, link against the prefix's runtime, cache under
$HOME/.cache, and give a bundle whose CPU reference runs."""

import subprocess
import sys
from pathlib import Path

import numpy as np

import threadbind

prefix = Path(sys.argv[1]).resolve()
source = sys.argv[2]
compiler = Path(threadbind.find_compiler())
print("compiler in prefix:", compiler == prefix / "bin" / "threadbind-compile")
print("package in prefix:",
      Path(threadbind.__file__).resolve().is_relative_to(prefix))
program = threadbind.compile(source)
linked = subprocess.run(["ldd", program.bundle_path], capture_output=True,
                        text=True).stdout
print("runtime from prefix:",
      str(prefix / "lib" / "libThreadBindRuntime.so") in linked)
print("cache under HOME:",
      ".cache/threadbind" in str(program.directory))
a = np.arange(5, dtype=np.float32)
b = np.full(5, 2.0, dtype=np.float32)
c = np.zeros(5, dtype=np.float32)
program.load().vector_add.reference(a, b, c)
print("reference:", c.tolist())
print("again cached:", threadbind.compile(source).cached)
