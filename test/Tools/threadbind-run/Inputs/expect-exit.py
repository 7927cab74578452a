"""Runs a command and checks its exit status: expect-exit.py CODE CMD...

Prints the command's output and exits 0 only if the status is CODE, so a
lit test can pin an exact exit code (lit's `not` only knows non-zero)."""

import subprocess
import sys

expected = int(sys.argv[1])
result = subprocess.run(sys.argv[2:])
if result.returncode != expected:
    sys.exit("expected exit status %d, got %d" % (expected, result.returncode))
