"""Shared fixtures: one compiled program for the whole session, and whether
a CUDA device is there to run it."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import threadbind  # noqa: E402

SOURCE = Path(__file__).with_name("kernels.mlir")


@pytest.fixture(autouse=True, scope="session")
def _cache_of_its_own(tmp_path_factory):
    """The tests compile into a cache of their own, never the user's."""
    previous = os.environ.get("THREADBIND_CACHE_DIR")
    os.environ["THREADBIND_CACHE_DIR"] = str(
        tmp_path_factory.mktemp("threadbind-cache"))
    yield
    if previous is None:
        del os.environ["THREADBIND_CACHE_DIR"]
    else:
        os.environ["THREADBIND_CACHE_DIR"] = previous


@pytest.fixture(scope="session")
def program():
    """kernels.mlir compiled here, or, where THREADBIND_TEST_PROGRAM names
    the folder of an earlier threadbind.compile(..., output_dir=...), that
    program: how the GPU tests run on a machine without the compiler."""
    saved = os.environ.get("THREADBIND_TEST_PROGRAM")
    if saved:
        return threadbind.open_program(saved)
    return threadbind.compile(SOURCE)


@pytest.fixture(scope="session")
def bundle(program):
    return program.load()


@pytest.fixture(scope="session")
def gpu(bundle):
    """Skips the test without a usable CUDA device."""
    if os.environ.get("THREADBIND_NO_GPU"):
        pytest.skip("THREADBIND_NO_GPU is set")
    try:
        bundle._runtime()
    except threadbind.ThreadBindError as error:
        pytest.skip(str(error))
    return bundle
