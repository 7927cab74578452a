#!/usr/bin/env python3
"""ThreadBind against Triton on one GPU, in one process, on the same tensors:
a transpose and a 2-D add (8192x8192 and 8191x8191 f32) and an f32 matrix
product (2048^3), each checked against PyTorch's own result first and then
timed with CUDA events (median of --runs after --warmup untimed runs).

The ThreadBind side is kernels.mlir compiled into a bundle:

    threadbind-compile kernels.mlir --chip sm_90 --emit bundle -o kernels.so
    python3 compare_triton.py --bundle kernels.so [--runs N]

The Triton side is the three kernels below, written for this comparison.
PyTorch's copy, add and torch.mm (cuBLAS, TF32 off) are timed alongside as
references. Each system is timed as follows, after a 512 MB write that
empties the L2 (50 MB on an H100) and keeps the GPU busy while the host
launches:

  triton           events around the launch: the kernel's time, since the
                   queued write hides Triton's launch overhead
  threadbind       the bundle's launch records (Bundle.record_launches): its
                   own events around each kernel; the call synchronises the
                   device first, so these include the few microseconds the
                   driver takes to start a kernel on an idle GPU, which
                   Triton's number does not: the comparison leans against
                   ThreadBind, if at all
  threadbind-call  events around the whole Python call: argument checks,
                   the synchronisations before and after, and the kernel
  torch            events around the call, as for Triton
  NAME-cupti       with --cupti: the GPU time of each system's kernels as
                   CUPTI records it (torch.profiler), the one measure that
                   treats every system alike

The markdown table at the end gives ThreadBind's speed over Triton's (>1:
ThreadBind faster). Exits 1 if any result is wrong, 2 if PyTorch, Triton,
a CUDA GPU, the threadbind package or the bundle is missing.
"""

# Annotations stay unevaluated, so the kernels below can be defined before
# Triton is imported (tl.constexpr is read from their source when they are
# compiled): --help needs neither Triton nor PyTorch.
from __future__ import annotations

import argparse
import ctypes
import statistics
import sys
import warnings
from pathlib import Path

SCRIPT_DIR = Path(__file__).resolve().parent
RUNTIME = "libThreadBindRuntime.so"
FLUSH_BYTES = 512 << 20

# Bound by load_triton().
triton = None
tl = None


# ---------------------------------------------------------------------------
# The Triton kernels. Plain functions until load_triton() wraps them in
# triton.jit and triton.autotune.
# ---------------------------------------------------------------------------

def transpose_kernel(src, dst, M, N, src_row_stride, dst_row_stride,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """dst[j, i] = src[i, j] for src of M x N, both row-major: one
    BLOCK_M x BLOCK_N tile of src a program, read along its rows and written
    transposed (Triton stages it through shared memory, so both sides are
    coalesced). Masks cover the ragged tiles of the last row and column."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    inside = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(src + rows[:, None] * src_row_stride + cols[None, :],
                   mask=inside)
    # Row `col` of dst holds column `col` of the tile: the tile's rows are
    # contiguous there.
    tl.store(dst + cols[:, None] * dst_row_stride + rows[None, :],
             tl.trans(tile), mask=(cols[:, None] < N) & (rows[None, :] < M))


def add_kernel(a, b, c, count, BLOCK: tl.constexpr):
    """c = a + b over `count` elements. The 2-D add of contiguous matrices is
    launched on their flat 1-D views: that is what a Triton user writes for
    an elementwise op on contiguous data (rows and columns play no part),
    and it leaves one masked block at the very end instead of a ragged edge
    on every row. An element count not a multiple of 16 (8191^2) makes the
    mask vary by element, so Triton loads one float at a time there."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < count
    x = tl.load(a + offsets, mask=inside)
    y = tl.load(b + offsets, mask=inside)
    tl.store(c + offsets, x + y, mask=inside)


def matmul_kernel(a, b, c, M, N, K, a_row_stride, b_row_stride, c_row_stride,
                  PRECISION: tl.constexpr, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """c = a @ b for row-major a (M x K), b (K x N), c (M x N): one
    BLOCK_M x BLOCK_N tile of c a program, accumulated in f32 over K through
    block pointers. PRECISION is tl.dot's input_precision: "ieee" multiplies
    in f32 as ThreadBind does; "tf32" (Triton's default) rounds the inputs
    to TF32 for the tensor cores. Programs along axis 0 share a row panel
    of a."""
    tile_m = tl.program_id(1) * BLOCK_M
    tile_n = tl.program_id(0) * BLOCK_N
    a_tile = tl.make_block_ptr(a, shape=(M, K), strides=(a_row_stride, 1),
                               offsets=(tile_m, 0),
                               block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    b_tile = tl.make_block_ptr(b, shape=(K, N), strides=(b_row_stride, 1),
                               offsets=(0, tile_n),
                               block_shape=(BLOCK_K, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):
        # Zeros past the edges add nothing to the sums.
        x = tl.load(a_tile, boundary_check=(0, 1), padding_option="zero")
        y = tl.load(b_tile, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(x, y, acc, input_precision=PRECISION)
        a_tile = tl.advance(a_tile, (0, BLOCK_K))
        b_tile = tl.advance(b_tile, (BLOCK_K, 0))
    c_tile = tl.make_block_ptr(c, shape=(M, N), strides=(c_row_stride, 1),
                               offsets=(tile_m, tile_n),
                               block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(c_tile, acc, boundary_check=(0, 1))


# Small autotune lists, chosen per size (and per precision) on first use.
# (BLOCK_M, BLOCK_N, warps)
TRANSPOSE_CONFIGS = [(32, 32, 4), (64, 64, 4), (64, 64, 8), (128, 32, 4)]
# (BLOCK, warps)
ADD_CONFIGS = [(1024, 4), (2048, 4), (4096, 8), (8192, 8)]
# (BLOCK_M, BLOCK_N, BLOCK_K, warps, stages): the larger tiles suit the
# tensor cores (tf32), the smaller ones the FMA loop that ieee compiles to.
MATMUL_CONFIGS = [(128, 256, 32, 8, 3), (128, 128, 32, 8, 3),
                  (128, 64, 32, 4, 4), (64, 128, 32, 4, 4),
                  (64, 64, 32, 4, 4)]


class TritonKernels:
    """The kernels above, compiled by Triton, with their launchers."""

    def __init__(self):
        def config(warps, stages=None, **blocks):
            extra = {} if stages is None else {"num_stages": stages}
            return triton.Config(blocks, num_warps=warps, **extra)

        self._transpose = triton.autotune(
            configs=[config(w, BLOCK_M=m, BLOCK_N=n)
                     for m, n, w in TRANSPOSE_CONFIGS],
            key=["M", "N"])(triton.jit(transpose_kernel))
        self._add2d = triton.autotune(
            configs=[config(w, BLOCK=n) for n, w in ADD_CONFIGS],
            key=["count"])(triton.jit(add_kernel))
        self._matmul = triton.autotune(
            configs=[config(w, s, BLOCK_M=m, BLOCK_N=n, BLOCK_K=k)
                     for m, n, k, w, s in MATMUL_CONFIGS],
            key=["M", "N", "K", "PRECISION"])(triton.jit(matmul_kernel))

    def transpose(self, src, dst):
        m, n = src.shape
        self._transpose[lambda meta: (triton.cdiv(m, meta["BLOCK_M"]),
                                      triton.cdiv(n, meta["BLOCK_N"]))](
            src, dst, m, n, src.stride(0), dst.stride(0))

    def add2d(self, a, b, c):
        count = a.numel()
        self._add2d[lambda meta: (triton.cdiv(count, meta["BLOCK"]),)](
            a.view(-1), b.view(-1), c.view(-1), count)

    def matmul(self, a, b, c, precision):
        m, k = a.shape
        n = b.shape[1]
        self._matmul[lambda meta: (triton.cdiv(n, meta["BLOCK_N"]),
                                   triton.cdiv(m, meta["BLOCK_M"]))](
            a, b, c, m, n, k, a.stride(0), b.stride(0), c.stride(0),
            PRECISION=precision)

    def chosen(self, name):
        """The autotuned config last used by kernel `name`, as text."""
        best = getattr(getattr(self, "_" + name), "best_config", None)
        if best is None:
            return "?"
        parts = [f"{k}={v}" for k, v in best.kwargs.items()]
        parts.append(f"num_warps={best.num_warps}")
        if name == "matmul":
            parts.append(f"num_stages={best.num_stages}")
        return " ".join(parts)


# ---------------------------------------------------------------------------
# Loading: the threadbind package and the bundle (no GPU needed), then
# PyTorch and Triton.
# ---------------------------------------------------------------------------

def fail_setup(message):
    print(f"compare_triton: {message}", file=sys.stderr)
    sys.exit(2)


def unique(paths):
    seen, result = set(), []
    for path in paths:
        key = path.resolve()
        if key not in seen:
            seen.add(key)
            result.append(path)
    return result


def import_threadbind(python_dir, bundle_path):
    """The threadbind package: from --python if given, else from ../python
    beside this script (the staged layout and the repository's), this
    script's folder or the bundle's."""
    if python_dir is not None:
        candidates = [Path(python_dir)]
    else:
        candidates = unique([SCRIPT_DIR.parent / "python", SCRIPT_DIR,
                             bundle_path.parent,
                             SCRIPT_DIR.parent.parent / "python"])
    for folder in candidates:
        if (folder / "threadbind" / "__init__.py").is_file():
            sys.path.insert(0, str(folder.resolve()))
            import threadbind
            return threadbind
    fail_setup("no threadbind package (a threadbind/ folder) in " +
               ", ".join(str(c) for c in candidates) +
               "; pass --python DIR, the folder that holds threadbind/")


def preload_runtime(runtime, bundle_path):
    """Opens libThreadBindRuntime.so before the bundle, so the bundle's
    dependency on it (by its soname) resolves to that file: a bundle looks
    for it beside itself ($ORIGIN), on LD_LIBRARY_PATH and in the build tree
    it was linked in, none of which holds it in a staged lib/ folder.
    Returns the file opened, or None to leave it to those paths."""
    if runtime is not None:
        candidates = [Path(runtime)]
    else:
        folder = bundle_path.parent
        candidates = unique([folder / RUNTIME, folder / "lib" / RUNTIME,
                             folder.parent / "lib" / RUNTIME,
                             SCRIPT_DIR / "lib" / RUNTIME,
                             SCRIPT_DIR.parent / "lib" / RUNTIME])
    for path in candidates:
        if path.is_file():
            try:
                ctypes.CDLL(str(path.resolve()), mode=ctypes.RTLD_GLOBAL)
            except OSError as error:
                fail_setup(f"cannot open {path}: {error}")
            return path
    if runtime is not None:
        fail_setup(f"no such file: {runtime}")
    return None


def load_bundle(args):
    bundle_path = Path(args.bundle)
    if not bundle_path.is_file():
        fail_setup(f"no bundle {bundle_path}: compile it with "
                   "threadbind-compile kernels.mlir --chip sm_90 --emit "
                   "bundle -o kernels.so")
    threadbind = import_threadbind(args.python, bundle_path)
    runtime = preload_runtime(args.runtime, bundle_path)
    try:
        bundle = threadbind.Bundle(str(bundle_path))
    except threadbind.ThreadBindError as error:
        fail_setup(f"{error}\n(put {RUNTIME} beside the bundle or in lib/ "
                   "next to it, pass --runtime, or set LD_LIBRARY_PATH)")
    missing = [name for name in ("transpose", "add2d", "matmul")
               if name not in bundle.entries]
    if missing:
        fail_setup(f"{bundle_path} has no entry {', '.join(missing)}: "
                   "compile bench/triton/kernels.mlir")
    return threadbind, bundle, runtime


def load_triton():
    """PyTorch with a CUDA GPU, and Triton, or exit 2."""
    global triton, tl
    try:
        import torch
    except ImportError as error:
        fail_setup(f"PyTorch is needed ({error}); run this where PyTorch "
                   "with CUDA is installed")
    try:
        import triton as triton_module
        import triton.language as language
    except ImportError as error:
        fail_setup(f"Triton is needed ({error}); run this where Triton is "
                   "installed (it comes with PyTorch's CUDA wheels)")
    if not torch.cuda.is_available():
        fail_setup("PyTorch sees no CUDA GPU")
    triton, tl = triton_module, language
    torch.cuda.init()
    return torch


# ---------------------------------------------------------------------------
# Checking and timing.
# ---------------------------------------------------------------------------

class Case:
    """One kernel at one size: its inputs, PyTorch's reference result, the
    output every system writes into, and the work it does (bytes moved or
    flops) for the throughput column."""

    def __init__(self, kernel, size, reference, out, work, unit,
                 tolerance=None):
        self.kernel, self.size = kernel, size
        self.reference, self.out = reference, out
        self.work, self.unit = work, unit
        # None: the result must equal the reference bit for bit. Otherwise
        # the largest error over the largest magnitude of the reference.
        self.tolerance = tolerance
        self.systems = []  # (name, run, launch-record bundle or None)

    def add(self, name, run, bundle=None):
        self.systems.append((name, run, bundle))


def check(torch, case, tolerance):
    """(passed, what was seen) for case.out against case.reference."""
    out, ref = case.out, case.reference
    if tolerance is None:
        if torch.equal(out, ref):
            return True, "bit-exact"
        wrong = int((out != ref).sum().item())
        return False, f"{wrong} of {out.numel()} elements differ"
    error = ((out.double() - ref).abs().max() / ref.abs().max()).item()
    passed = error <= tolerance  # False for NaN
    return passed, (f"max error {error:.2e} of max |C| "
                    f"(tolerance {tolerance:.0e})")


class Timer:
    def __init__(self, torch, runs, warmup):
        self.torch, self.runs, self.warmup = torch, runs, warmup
        self.flush = torch.empty(FLUSH_BYTES, dtype=torch.uint8,
                                 device="cuda")
        self._flush_kernels = None  # names, once cupti() has seen them

    def _gpu_activity(self, work):
        """(name, start ns, duration ns) of every GPU activity of work(),
        as CUPTI records it through torch.profiler, in order."""
        torch = self.torch
        from torch.profiler import ProfilerActivity, profile
        torch.cuda.synchronize()
        with warnings.catch_warnings():
            # One trace a call: that events of earlier ones are gone is
            # what is wanted.
            warnings.filterwarnings("ignore", ".*Profiler clears events")
            with profile(activities=[ProfilerActivity.CUDA]) as trace:
                work()
                torch.cuda.synchronize()
        cuda = torch.autograd.DeviceType.CUDA
        return sorted(((e.name(), e.start_ns(), e.duration_ns())
                       for e in trace.profiler.kineto_results.events()
                       if e.device_type() == cuda),
                      key=lambda e: e[1])

    def cupti(self, run):
        """Median ms of the GPU work of run(), kernel by kernel as CUPTI saw
        it: the same measure for every system, without events or launch
        latency. Each run follows the flush, whose kernels separate the
        runs in the trace."""
        if self._flush_kernels is None:
            self._flush_kernels = {
                name for name, _, _ in self._gpu_activity(self.flush.zero_)}
        for _ in range(self.warmup):
            run()

        def work():
            for _ in range(self.runs):
                self.flush.zero_()
                run()

        times, current, names = [], None, []
        for name, _, duration in self._gpu_activity(work):
            if name in self._flush_kernels:
                if current is not None:
                    times.append(current)
                current, names = 0, []
            elif current is not None:
                current += duration
                names.append(name)
        if current is not None:
            times.append(current)
        if len(times) != self.runs or not all(times):
            raise RuntimeError(f"CUPTI saw {len(times)} runs with GPU work, "
                               f"not {self.runs}")
        return statistics.median(times) * 1e-6, names

    def events(self, run):
        """Median ms of CUDA events around run(), each after the flush."""
        torch = self.torch
        for _ in range(self.warmup):
            run()
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        times = []
        for _ in range(self.runs):
            self.flush.zero_()
            start.record()
            run()
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop))
        return statistics.median(times)

    def launches(self, bundle, run):
        """Median ms of the kernels run() launches through `bundle`, from
        its launch records, and the launches of the last run."""
        for _ in range(self.warmup):
            run()
        times, seen = [], []
        for _ in range(self.runs):
            self.flush.zero_()
            with bundle.record_launches() as launches:
                run()
            if not launches or any(l.milliseconds is None for l in launches):
                raise RuntimeError("the bundle recorded no timed launch")
            times.append(sum(l.milliseconds for l in launches))
            seen = list(launches)
        return statistics.median(times), seen


def describe(launch):
    return (f"{launch.kernel} grid {launch.grid} block {launch.block}, "
            f"{launch.registers} registers, {launch.shared_bytes} B shared, "
            f"occupancy {launch.occupancy:.2f}")


# ---------------------------------------------------------------------------
# The cases.
# ---------------------------------------------------------------------------

def transpose_case(torch, kernels, bundle, n):
    x = torch.randn(n, n, device="cuda")
    case = Case("transpose", f"{n}x{n}", torch.transpose(x, 0, 1).contiguous(),
                torch.empty(n, n, device="cuda"), 2 * n * n * 4, "gbps")
    out = case.out
    case.add("triton", lambda: kernels.transpose(x, out))
    case.add("threadbind", lambda: bundle.transpose(x, out), bundle)
    case.add("torch", lambda: out.copy_(x.t()))
    return case


def add_case(torch, kernels, bundle, n):
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    case = Case("add2d", f"{n}x{n}", a + b, torch.empty(n, n, device="cuda"),
                3 * n * n * 4, "gbps")
    out = case.out
    case.add("triton", lambda: kernels.add2d(a, b, out))
    case.add("threadbind", lambda: bundle.add2d(a, b, out), bundle)
    case.add("torch", lambda: torch.add(a, b, out=out))
    return case


def matmul_case(torch, kernels, bundle, n):
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    case = Case("matmul", f"{n}x{n}x{n}", torch.mm(a.double(), b.double()),
                torch.empty(n, n, device="cuda"), 2 * n ** 3, "gflops",
                tolerance=F32_TOLERANCE)
    out = case.out
    case.add("triton", lambda: kernels.matmul(a, b, out, "ieee"))
    case.add("triton-tf32", lambda: kernels.matmul(a, b, out, "tf32"))
    case.add("threadbind", lambda: bundle.matmul(a, b, out), bundle)
    case.add("torch", lambda: torch.mm(a, b, out=out))
    return case


# Largest error over the largest |C| of a 2048^3 product of standard normal
# matrices: about 1e-6 in f32 and 4e-4 in TF32, so the f32 tolerance also
# catches a product silently computed in TF32.
F32_TOLERANCE = 1e-5
TF32_TOLERANCE = 5e-3


def tolerance_for(case, system):
    if case.tolerance is not None and system.endswith("-tf32"):
        return TF32_TOLERANCE
    return case.tolerance


def run_case(torch, timer, kernels, case, results, cupti):
    """Checks then times every system of `case`; returns False if a check
    failed. results[(kernel, size, system)] gets the median ms."""
    print(f"\n== {case.kernel} {case.size} f32")
    passed_all = True
    for name, run, bundle in case.systems:
        case.out.fill_(float("nan"))
        run()
        torch.cuda.synchronize()
        passed, seen = check(torch, case, tolerance_for(case, name))
        print(f"check {name}: {'ok' if passed else 'FAILED'} ({seen})")
        if not passed:
            passed_all = False
            results[(case.kernel, case.size, name)] = None
            continue
        if name.startswith("triton"):
            print(f"  triton config: {kernels.chosen(case.kernel)}")
        timings = []
        if bundle is not None:
            ms, launches = timer.launches(bundle, run)
            for launch in launches:
                print(f"  threadbind launch: {describe(launch)}")
            timings.append((name, ms))
            timings.append((name + "-call", timer.events(run)))
        else:
            timings.append((name, timer.events(run)))
        if cupti:
            ms, names = timer.cupti(run)
            print(f"  cupti saw: {', '.join(n[:60] for n in names)}")
            timings.append((name + "-cupti", ms))
        for system, ms in timings:
            results[(case.kernel, case.size, system)] = ms
            rate = case.work / (ms * 1e-3) / 1e9
            print(f"RESULT kernel={case.kernel} size={case.size} "
                  f"system={system} median_ms={ms:.4f} "
                  f"{case.unit}={rate:.1f}")
    return passed_all


def table(cases, results, cupti):
    """The markdown table of ThreadBind's speed over Triton's."""
    def ms(key):
        value = results.get(key)
        return "FAIL" if value is None else f"{value:.4f}"

    def ratio(triton_key, threadbind_key):
        mine, theirs = results.get(threadbind_key), results.get(triton_key)
        if mine is None or theirs is None:
            return "-"
        return f"{theirs / mine:.2f}"

    header = ("| kernel | size | Triton | Triton ms | ThreadBind ms (kernel) "
              "| ThreadBind ms (Python call) | torch ms "
              "| ThreadBind/Triton (kernel) | ThreadBind/Triton (call) |")
    if cupti:
        header += (" Triton ms (CUPTI) | ThreadBind ms (CUPTI) "
                   "| ThreadBind/Triton (CUPTI) |")
    lines = [header, "|---" * header.count(" | ") + "|---|"]
    for case in cases:
        variants = [("triton", "f32")]
        if case.kernel == "matmul":
            variants = [("triton", "f32 (ieee)"), ("triton-tf32", "TF32")]
        for triton_system, label in variants:
            key = (case.kernel, case.size)
            theirs = key + (triton_system,)
            kernel, call = key + ("threadbind",), key + ("threadbind-call",)
            row = (f"| {case.kernel} | {case.size} | {label} "
                   f"| {ms(theirs)} | {ms(kernel)} | {ms(call)} "
                   f"| {ms(key + ('torch',))} "
                   f"| {ratio(theirs, kernel)} | {ratio(theirs, call)} |")
            if cupti:
                mine = key + ("threadbind-cupti",)
                theirs = key + (triton_system + "-cupti",)
                row += (f" {ms(theirs)} | {ms(mine)} "
                        f"| {ratio(theirs, mine)} |")
            lines.append(row)
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bundle", required=True,
                        help="kernels.mlir compiled with threadbind-compile "
                             "--emit bundle")
    parser.add_argument("--runs", type=int, default=50,
                        help="timed runs per system; the median is reported "
                             "(default 50)")
    parser.add_argument("--warmup", type=int, default=5,
                        help="untimed runs first (default 5)")
    parser.add_argument("--python", metavar="DIR",
                        help="the folder holding the threadbind package "
                             "(default: ../python beside this script, else "
                             "this script's folder or the bundle's)")
    parser.add_argument("--runtime", metavar="FILE",
                        help=f"{RUNTIME} to load (default: beside the bundle, "
                             "in lib/ next to it or next to its folder; else "
                             "LD_LIBRARY_PATH)")
    parser.add_argument("--cupti", action="store_true",
                        help="also time every system's GPU work as CUPTI "
                             "records it (torch.profiler): one measure for "
                             "all, free of events and launch latency")
    parser.add_argument("--kernels", default="transpose,add2d,matmul",
                        help="which to run, comma-separated (default all)")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1 and --warmup at least 0")
    chosen = args.kernels.split(",")
    unknown = set(chosen) - {"transpose", "add2d", "matmul"}
    if unknown:
        parser.error(f"unknown kernel {', '.join(sorted(unknown))}")

    threadbind, bundle, runtime = load_bundle(args)
    torch = load_triton()
    torch.backends.cuda.matmul.allow_tf32 = False  # torch.mm in true f32
    torch.manual_seed(0)
    kernels = TritonKernels()
    print(f"device {torch.cuda.get_device_name()}, torch {torch.__version__} "
          f"(CUDA {torch.version.cuda}), triton {triton.__version__}")
    print(f"bundle {args.bundle}, threadbind from "
          f"{Path(threadbind.__file__).parent}, runtime "
          f"{runtime or 'found by the loader'}")
    print(f"median of {args.runs} runs after {args.warmup} warm-up, each "
          f"after a {FLUSH_BYTES >> 20} MB write")

    timer = Timer(torch, args.runs, args.warmup)
    makers = {"transpose": (transpose_case, (8192, 8191)),
              "add2d": (add_case, (8192, 8191)),
              "matmul": (matmul_case, (2048,))}
    cases, results, passed = [], {}, True
    for name in ("transpose", "add2d", "matmul"):
        if name not in chosen:
            continue
        make, sizes = makers[name]
        for n in sizes:
            case = make(torch, kernels, bundle, n)
            passed &= run_case(torch, timer, kernels, case, results,
                               args.cupti)
            cases.append(case)
            # Keep only the numbers: the next case needs the memory.
            case.reference = case.out = None
            case.systems = []
            torch.cuda.empty_cache()

    print("\nThreadBind's speed over Triton's (>1: ThreadBind faster); "
          "torch.mm is cuBLAS in f32 (TF32 off).\n")
    print(table(cases, results, args.cupti))
    if not passed:
        print("\nsome results were wrong (see the FAILED checks above)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
