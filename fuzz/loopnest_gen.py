"""The program generator of fuzz/loopnest_fuzz.py: a `Case` draws, from
one seed, a parallel loop nest in MLIR (its loops, body, options and
sizes), the program that prints what it computes, and the
threadbind-compile options it is run with. loopnest_fuzz.py's docstring
says what a case may hold.
"""

import random

TYPES = ["f32", "f64", "i32", "i64", "f16", "i8", "i16"]
INDEX_MIN, INDEX_MAX = -2**63, 2**63 - 1
# Kernel names the PTX printer cannot spell, and names of libc and runtime
# functions a bundle must not bind its entries to.
ODD_NAMES = ["vector.add", "a-b", 'q"x', "back\\slash", "mgpuStreamCreate",
             "threadbind_bundle_entries", "kernel$1", "_Z3fooi", "main2"]
# Names of functions the CPU run itself calls (memref.alloc is malloc):
# given only to the bundle's copy of the kernel.
LIBC_NAMES = ["malloc", "free", "memcpy"]


def mlir_symbol(name):
    """`name` as an MLIR symbol reference, quoted where it must be."""
    if all(c.isalnum() or c in "_$." for c in name) and not name[0].isdigit():
        return "@" + name
    return '@"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def is_float(t):
    return t.startswith("f")


class Case:
    """One random program: a kernel function, a @main that fills inputs,
    calls it and prints every output, and the pipeline options."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        # Choices added after cases were first recorded draw from their own
        # stream, so that a case taking none of them is the program it was.
        self.later_rng = random.Random(f"{seed}:later")
        self.seed = seed
        self.lines = []
        self.tmp = 0
        self.name = "kernel"
        # For loops whose bounds upstream's CPU lowering cannot run (it
        # overflows near the ends of the index type): the same kernel
        # written over iteration numbers, the reference to compare with.
        self.reference_lines = None
        self.helpers = []
        self.dims = 1

    def fresh(self, prefix="v"):
        self.tmp += 1
        return f"%{prefix}{self.tmp}"

    def emit(self, line):
        self.lines.append(line)

    def emit_reduce(self, t, value, op, indent):
        """An scf.reduce of `value` whose combiner is arith.`op`."""
        pad = " " * indent
        self.emit(f"{pad}scf.reduce({value} : {t}) {{")
        self.emit(f"{pad}^bb0(%a: {t}, %b: {t}):")
        self.emit(f"{pad}  %y = arith.{op} %a, %b : {t}")
        self.emit(f"{pad}  scf.reduce.return %y : {t}")
        self.emit(f"{pad}}}")

    # -- values ----------------------------------------------------------

    def const(self, t, value):
        name = self.fresh("k")
        if is_float(t):
            self.emit(f"    {name} = arith.constant {float(value)} : {t}")
        else:
            self.emit(f"    {name} = arith.constant {int(value)} : {t}")
        return name

    def from_index(self, t, iv):
        """An element-typed value of index `iv`."""
        i32 = self.fresh()
        self.emit(f"    {i32} = arith.index_cast {iv} : index to i32")
        if t == "i32":
            return i32
        out = self.fresh()
        if t == "i64":
            self.emit(f"    {out} = arith.extsi {i32} : i32 to i64")
        elif t in ("i8", "i16"):
            self.emit(f"    {out} = arith.trunci {i32} : i32 to {t}")
        else:
            self.emit(f"    {out} = arith.sitofp {i32} : i32 to {t}")
        return out

    def binary(self, t, a, b):
        rng = self.rng
        if is_float(t):
            op = rng.choice(["addf", "subf", "mulf", "maximumf", "minimumf"])
        else:
            op = rng.choice(["addi", "subi", "muli", "maxsi", "minsi",
                             "andi", "ori", "xori"])
        out = self.fresh()
        self.emit(f"    {out} = arith.{op} {a}, {b} : {t}")
        return self.clamp(t, out) if op in ("mulf", "muli") else out

    def clamp(self, t, v):
        """Keeps magnitudes small (f16 integers are exact below 2048)."""
        lo, hi = self.const(t, -60), self.const(t, 60)
        a, b = self.fresh(), self.fresh()
        mx, mn = ("maximumf", "minimumf") if is_float(t) else ("maxsi",
                                                                "minsi")
        self.emit(f"    {a} = arith.{mx} {v}, {lo} : {t}")
        self.emit(f"    {b} = arith.{mn} {a}, {hi} : {t}")
        return b

    def compare(self, t, a, b):
        out = self.fresh("c")
        pred = self.rng.choice(["lt", "gt", "le", "ge", "eq", "ne"])
        if is_float(t):
            self.emit(f"    {out} = arith.cmpf o{pred}, {a}, {b} : {t}")
        else:
            spred = {"lt": "slt", "gt": "sgt", "le": "sle",
                     "ge": "sge"}.get(pred, pred)
            self.emit(f"    {out} = arith.cmpi {spred}, {a}, {b} : {t}")
        return out

    # -- the program -----------------------------------------------------
    def build(self):
        rng = self.rng
        self.type = rng.choice(TYPES)
        self.options = self.pipeline_options()
        self.bundle_name = None
        if rng.random() < 0.08:
            self.name = rng.choice(ODD_NAMES)
        elif rng.random() < 0.03:
            self.bundle_name = rng.choice(LIBC_NAMES)
        kind = rng.random()
        if kind < 0.2:
            self.build_reduction()
        elif kind < 0.28:
            self.build_matmul()
        elif kind < 0.4:
            self.build_limits()
        else:
            self.build_map()
        kernel_end = len(self.lines)
        for line in self.helpers:
            self.emit(line)
        self.emit_main()
        if self.reference_lines is not None:
            self.reference_lines += self.lines[kernel_end:]
        # A dimension order, once the loop's dimensions are known: the
        # bound ones are at most 3, and more are linearised onto z. It names
        # the dimensions as written, one-trip ones that normalisation folds
        # away included.
        if rng.random() < 0.15:
            order = list(range(min(self.dims, 3)))
            rng.shuffle(order)
            self.options["map"] += " dim-order=" + ",".join(map(str, order))

    def pipeline_options(self):
        rng = self.rng
        policy = rng.choice(["grid-stride", "grid-stride", "cover"])
        if rng.random() < 0.35:
            # An explicit block of any rank, often more dimensions than the
            # loop has: the extra ones must not rerun iterations.
            shape = [rng.choice([1, 2, 4, 8, 16, 32, 64])
                     for _ in range(rng.randint(1, 3))]
            while shape[0] * (shape[1] if len(shape) > 1 else 1) * (
                    shape[2] if len(shape) > 2 else 1) > 1024:
                shape[shape.index(max(shape))] //= 2
            block = "block-shape=" + ",".join(map(str, shape))
        else:
            block = f"threads-per-block={rng.choice([32, 64, 128, 256])}"
        cap = f" max-blocks={rng.choice([1, 2, 3])}" if rng.random() < 0.1 \
            else ""
        # Caps of a few blocks, where grid-stride grids split and balance.
        if cap and self.later_rng.random() < 0.5:
            cap = f" max-blocks={self.later_rng.choice([5, 7, 13])}"
        # Transposes go through workgroup memory by default; sometimes not.
        stage = " stage-transposes=false" if rng.random() < 0.2 else ""
        # Contiguous nests run as one loop by default; sometimes not.
        if rng.random() < 0.2:
            stage += " collapse-nests=false"
        # Column reductions split over block rows by default; sometimes not.
        if rng.random() < 0.2:
            stage += " reduction-split-columns=false"
        # Matmul-shaped nests get register tiles by default; sometimes not.
        if rng.random() < 0.2:
            stage += " register-tiles=false"
        # Their k loops run through workgroup memory by default; sometimes
        # not.
        if rng.random() < 0.2:
            stage += " shared-tiles=false"
        return {
            "map": f"{block} grid-policy={policy}{cap}{stage}",
            "tail": rng.choice(["pad", "split", "keep"]),
            "widen": " ".join(
                x for x in [
                    rng.choice(["", "nested-loops"]),
                    rng.choice(["", "unroll=2", "unroll=3"]),
                    rng.choice(["", "vector-bytes=8"])] if x),
            # 16: the larger nests take shared or register tiles, the
            # smaller a thread an output.
            "resident": rng.choice([1, 2, 3, 16]),
            # The 32-bit index copies, as threadbind-compile makes them by
            # default; sometimes not.
            "narrow": rng.random() < 0.75,
        }

    def build_map(self):
        rng, t = self.rng, self.type
        dims = rng.choice([1, 1, 2, 2, 3, 4])
        lbs = [rng.choice([0, 0, 1, 3]) for _ in range(dims)]
        steps = [rng.choice([1, 1, 1, 2, 3]) for _ in range(dims)]
        budget = {1: 3000, 2: 60, 3: 14, 4: 7}[dims]
        extents = [rng.randint(0 if rng.random() < 0.1 else 1, budget)
                   for _ in range(dims)]
        perm = list(range(dims))
        rng.shuffle(perm)
        nin = rng.choice([1, 2])
        # Inputs: index k of input j is ivs[q[k]] * scale + offset.
        inputs = []
        for _ in range(nin):
            q = list(range(dims))
            rng.shuffle(q)
            scale = [rng.choice([1, 1, 1, 2]) for _ in range(dims)]
            offset = [rng.choice([0, 0, 1, 2]) for _ in range(dims)]
            shape = [extents[q[k]] * scale[k] + offset[k] + 1
                     for k in range(dims)]
            inputs.append((q, scale, offset, shape))
        out_shape = [extents[perm[k]] for k in range(dims)]
        self.dims = dims
        dynamic = rng.random() < 0.7
        mt = lambda shape: "memref<" + "x".join(
            "?" if dynamic else str(s) for s in shape) + f"x{t}>"
        # Input 0 read through a subview at a dynamic offset along its first
        # dimension: the array is 2 rows longer.
        shifted = rng.random() < 0.2
        arrays = [list(inputs[j][3]) for j in range(nin)]
        if shifted:
            arrays[0][0] += 2
        args = [f"%in{j}: {mt(arrays[j])}" for j in range(nin)]
        args += [f"%out: {mt(out_shape)}", "%flagi: i32", f"%s: {t}"]
        if shifted:
            args.append("%off: index")
        self.emit(f"func.func {mlir_symbol(self.name)}({', '.join(args)}) {{")
        # A bundle takes no i1 arguments: the flag comes as an i32.
        self.emit("    %flag = arith.trunci %flagi : i32 to i1")
        for v in sorted(set(lbs + steps + [0, 1, 2])):
            self.emit(f"    %c{v} = arith.constant {v} : index")
        views = {j: (f"%in{j}", mt(arrays[j])) for j in range(nin)}
        if shifted:
            views[0] = self.subview(t, arrays[0], dynamic)
        scalar = "%s"
        if rng.random() < 0.2:
            scalar = self.helper_call(t, "%s")
        # Upper bounds: the output's sizes (its dims are the extents).
        ubs = []
        for d in range(dims):
            k = perm.index(d)
            ub = self.fresh("ub")
            if dynamic:
                self.emit(f"    %d{k} = arith.constant {k} : index")
                self.emit(f"    {ub} = memref.dim %out, %d{k} : "
                          f"{mt(out_shape)}")
            else:
                self.emit(f"    {ub} = arith.constant {out_shape[k]} : index")
            ubs.append(ub)
        ivs = [f"%i{d}" for d in range(dims)]
        self.emit(f"    scf.parallel ({', '.join(ivs)}) = "
                  f"({', '.join(f'%c{v}' for v in lbs)}) to "
                  f"({', '.join(ubs)}) step "
                  f"({', '.join(f'%c{v}' for v in steps)}) {{")
        loaded = []
        for j, (q, scale, offset, shape) in enumerate(inputs):
            idx = []
            for k in range(dims):
                v = ivs[q[k]]
                if scale[k] != 1:
                    c = self.fresh("ix")
                    self.emit(f"    {c} = arith.constant {scale[k]} : index")
                    m = self.fresh("ix")
                    self.emit(f"    {m} = arith.muli {v}, {c} : index")
                    v = m
                if offset[k]:
                    c = self.fresh("ix")
                    self.emit(f"    {c} = arith.constant {offset[k]} : index")
                    a = self.fresh("ix")
                    self.emit(f"    {a} = arith.addi {v}, {c} : index")
                    v = a
                idx.append(v)
            val = self.fresh("x")
            view, view_type = views[j]
            self.emit(f"    {val} = memref.load {view}[{', '.join(idx)}] : "
                      f"{view_type}")
            loaded.append(val)

            def neighbour(k):
                # The element one further along dimension k (in bounds:
                # each dimension has a spare element).
                a = self.fresh("ix")
                self.emit(f"    {a} = arith.addi {idx[k]}, %c1 : index")
                near = self.fresh("x")
                moved = idx[:k] + [a] + idx[k + 1:]
                self.emit(f"    {near} = memref.load {view}"
                          f"[{', '.join(moved)}] : {view_type}")
                loaded.append(near)

            # Sometimes a neighbour too, along the first dimension, as a
            # stencil reads: the mapping treats such nests apart.
            if self.later_rng.random() < 0.3:
                neighbour(0)
            # Sometimes one further along the last dimension too, as a
            # stencil reads j and j + 1: the mapping gives such nests a cover
            # launch beside the grid-stride one, which widening keeps or
            # drops.
            if dims > 1 and self.later_rng.random() < 0.3:
                neighbour(dims - 1)
        pool = loaded + [scalar, self.from_index(t, rng.choice(ivs))]
        value = rng.choice(pool)
        for _ in range(rng.randint(1, 4)):
            value = self.binary(t, value, rng.choice(pool))
            pool.append(value)
        out_idx = ", ".join(ivs[perm[k]] for k in range(dims))
        # In place, out[...] += value: an iteration run twice shows.
        accumulate = rng.random() < 0.3

        def store(v):
            self.store(t, v, out_idx, mt(out_shape), accumulate)

        kind = rng.choice(["plain", "uniform", "divergent", "one-sided"])
        if kind == "plain":
            store(value)
        else:
            if kind == "uniform":
                cond = "%flag"
            else:
                cond = self.compare(t, rng.choice(pool), rng.choice(pool))
            other = self.binary(t, rng.choice(pool), rng.choice(pool))
            self.emit(f"    scf.if {cond} {{")
            store(value)
            if kind == "one-sided":
                self.emit("    }")
            else:
                self.emit("    } else {")
                store(other)
                self.emit("    }")
        self.emit("    scf.reduce")
        self.emit("  }")
        self.emit("  return")
        self.emit("}")
        self.arrays = [(f"in{j}", arrays[j]) for j in range(nin)]
        self.arrays.append(("out", out_shape))
        self.mt = mt
        self.scalars = [("flagi", "i32", rng.choice([0, 1])),
                        ("s", t, rng.randint(-5, 5))]
        if shifted:
            self.scalars.append(("off", "index", rng.randint(0, 2)))
        self.results = ["out"]

    def store(self, t, value, where, memref_type, accumulate):
        """Stores `value` at %out[where], or adds it to what is there (an
        iteration run twice then shows)."""
        if accumulate:
            old = self.fresh("o")
            self.emit(f"    {old} = memref.load %out[{where}] : "
                      f"{memref_type}")
            total = self.fresh()
            add = "addf" if is_float(t) else "addi"
            self.emit(f"    {total} = arith.{add} {old}, {value} : {t}")
            value = total
        self.emit(f"    memref.store {value}, %out[{where}] : {memref_type}")

    def subview(self, t, shape, dynamic):
        """A view of `%in0` (of `shape`) from row %off, 2 rows shorter."""
        sizes, view_sizes = [], []
        for k, extent in enumerate(shape):
            if not dynamic and k > 0:
                sizes.append(str(extent))
                view_sizes.append(str(extent))
                continue
            if dynamic:
                dim, full = self.fresh("ix"), self.fresh("sz")
                self.emit(f"    {dim} = arith.constant {k} : index")
                self.emit(f"    {full} = memref.dim %in0, {dim} : "
                          f"{self.mt_of(t, shape, dynamic)}")
            size = self.fresh("sz")
            if k == 0:
                if dynamic:
                    self.emit(f"    {size} = arith.subi {full}, %c2 : index")
                else:
                    self.emit(f"    {size} = arith.constant {extent - 2} : "
                              "index")
            else:
                size = full
            sizes.append(size)
            view_sizes.append("?")
        strides = []
        for k in range(len(shape)):
            if k == len(shape) - 1:
                strides.append("1")
            elif dynamic:
                strides.append("?")
            else:
                inner = 1
                for e in shape[k + 1:]:
                    inner *= e
                strides.append(str(inner))
        view_type = (f"memref<{'x'.join(view_sizes)}x{t}, strided<["
                     f"{', '.join(strides)}], offset: ?>>")
        view = self.fresh("view")
        zeros = ", ".join(["%off"] + ["0"] * (len(shape) - 1))
        ones = ", ".join(["1"] * len(shape))
        self.emit(f"    {view} = memref.subview %in0[{zeros}] "
                  f"[{', '.join(sizes)}] [{ones}] : "
                  f"{self.mt_of(t, shape, dynamic)} to {view_type}")
        return view, view_type

    @staticmethod
    def mt_of(t, shape, dynamic):
        return "memref<" + "x".join(
            "?" if dynamic else str(s) for s in shape) + f"x{t}>"

    def helper_call(self, t, value):
        """`value` through a private function the host code calls before
        the loop; its name is one a bundle's two copies of the program
        would clash on."""
        name = self.rng.choice(["zero", "helper", "value", "scale"])
        add = "addf" if is_float(t) else "addi"
        self.helpers += [
            f"func.func private @{name}(%x: {t}) -> {t} {{",
            f"  %two = arith.constant {2.0 if is_float(t) else 2} : {t}",
            f"  %y = arith.{add} %x, %two : {t}",
            f"  return %y : {t}",
            "}"]
        out = self.fresh("h")
        self.emit(f"    {out} = func.call @{name}({value}) : ({t}) -> {t}")
        return out

    def build_reduction(self):
        rng = self.rng
        t = self.type if self.type != "f16" else "f32"
        self.type = t
        rows = rng.random() < 0.5
        # A row's elements down a column instead (a column sum, A^T x).
        columns = rows and rng.random() < 0.5
        n = rng.randint(0, 3000 if not rows else 300)
        m = rng.randint(0, 40) if rows else 1
        lb, step = rng.choice([0, 0, 2]), rng.choice([1, 1, 2])
        combiner = rng.choice(["add", "max", "min"])
        op = {("add", True): "addf", ("max", True): "maximumf",
              ("min", True): "minimumf", ("add", False): "addi",
              ("max", False): "maxsi", ("min", False): "minsi"}[
                  (combiner, is_float(t))]
        # A full reduction over two dimensions (linearised by the mapping),
        # and an epilogue: the result combined with a constant made after
        # the loop and with a scalar argument before it is stored.
        full2d = not rows and rng.random() < 0.3
        epilogue = rng.random() < 0.4
        # The same reduction written as a sequential scf.for carrying the
        # value in iter_args, as people write it; the mapping makes it
        # parallel (threadbind-parallelize-loop-reductions).
        as_for = not full2d and rng.random() < 0.3
        # A loop after a row's reduction that updates the row with the
        # result, an element an iteration (Gram-Schmidt's projection), over
        # a range of its own: the column split shares it out.
        update = rows and rng.random() < 0.4
        update_lb, update_step = rng.choice([0, 1]), rng.choice([1, 1, 3])
        if full2d:
            m = rng.randint(0, 40)
            n = rng.randint(0, 200)
        shape = [m, n] if rows or full2d else [n]
        if columns:
            shape = [n, m]
        mt = lambda s: "memref<" + "x".join("?" for _ in s) + f"x{t}>"
        outshape = [m] if rows else [1]
        self.dims = 1
        self.emit(f"func.func {mlir_symbol(self.name)}(%in0: {mt(shape)}, %out: "
                  f"memref<{'?' if rows else '1'}x{t}>, %flagi: i32, "
                  f"%s: {t}) {{")
        self.emit("    %c0 = arith.constant 0 : index")
        self.emit("    %c1 = arith.constant 1 : index")
        self.emit(f"    %lb = arith.constant {lb} : index")
        self.emit(f"    %st = arith.constant {step} : index")
        init = self.const(t, rng.randint(-5, 5))
        last = 1 if (rows and not columns) or full2d else 0
        self.emit(f"    %n = memref.dim %in0, %c{last} : {mt(shape)}")
        if rows or full2d:
            self.emit(f"    %m = memref.dim %in0, %c{1 - last} : "
                      f"{mt(shape)}")
        if rows:
            self.emit("    scf.parallel (%r) = (%c0) to (%m) step (%c1) {")
        if full2d:
            self.emit(f"    %red = scf.parallel (%r, %i) = (%c0, %lb) to "
                      f"(%m, %n) step (%c1, %st) init ({init}) -> {t} {{")
        elif as_for:
            self.emit(f"    %red = scf.for %i = %lb to %n step %st "
                      f"iter_args(%acc = {init}) -> ({t}) {{")
        else:
            self.emit(f"    %red = scf.parallel (%i) = (%lb) to (%n) step "
                      f"(%st) init ({init}) -> {t} {{")
        idx = "%r, %i" if rows or full2d else "%i"
        if columns:
            idx = "%i, %r"
        self.emit(f"      %x = memref.load %in0[{idx}] : {mt(shape)}")
        value = self.binary(t, "%x", "%s")
        if as_for:
            self.emit(f"      %next = arith.{op} %acc, {value} : {t}")
            self.emit(f"      scf.yield %next : {t}")
        else:
            self.emit_reduce(t, value, op, indent=6)
        self.emit("    }")
        stored = "%red"
        if epilogue:
            add = "addf" if is_float(t) else "addi"
            k = self.const(t, rng.randint(-3, 3))
            self.emit(f"    %e0 = arith.{add} %red, {k} : {t}")
            self.emit(f"    %e1 = arith.{add} %e0, %s : {t}")
            stored = "%e1"
        where = "%r" if rows else "%c0"
        self.emit(f"    memref.store {stored}, %out[{where}] : "
                  f"memref<{'?' if rows else '1'}x{t}>")
        if update:
            sub = "subf" if is_float(t) else "subi"
            self.emit(f"    %ulb = arith.constant {update_lb} : index")
            self.emit(f"    %ust = arith.constant {update_step} : index")
            self.emit("    scf.for %j = %ulb to %n step %ust {")
            at = "%j, %r" if columns else "%r, %j"
            self.emit(f"      %y = memref.load %in0[{at}] : {mt(shape)}")
            self.emit(f"      %z = arith.{sub} %y, {stored} : {t}")
            self.emit(f"      memref.store %z, %in0[{at}] : {mt(shape)}")
            self.emit("    }")
        if rows:
            self.emit("    scf.reduce")
            self.emit("  }")
        self.emit("  return")
        self.emit("}")
        self.arrays = [("in0", shape), ("out", outshape)]
        self.mt = lambda s, rows=rows: (
            mt(s) if s is shape else
            f"memref<{'?' if rows else '1'}x{t}>")
        self.shapes = {"in0": shape, "out": outshape}
        self.scalars = [("flagi", "i32", 0), ("s", t, rng.randint(-3, 3))]
        self.results = ["out", "in0"] if update else ["out"]

    def build_matmul(self):
        """A matmul-shaped nest: each output (i, j) runs a loop over k from
        lb by step (an scf.for carrying the sum, or an scf.parallel reducing
        it) that reads A along the row (stored row- or k-major) and B along
        the column, starting from the output's old value or a constant.
        Sometimes triangular: a square output, the columns of row i from 0
        to i (or i + 1), or from i to the end."""
        rng = self.rng
        # At most 20 products of values below 12: exact in f32, not in f16.
        # Past 8 steps of k, shared tiles run whole stages.
        t = self.type if self.type != "f16" else "f32"
        self.type = t
        m, n, k = rng.randint(0, 70), rng.randint(0, 70), rng.randint(0, 20)
        lb, step = rng.choice([0, 0, 1]), rng.choice([1, 1, 2])
        transposed = rng.random() < 0.3
        as_for = rng.random() < 0.5
        accumulate = rng.random() < 0.4
        triangle = rng.choice([None, None, "lower", "strict", "upper"])
        if triangle:
            n = m
        mt = f"memref<?x?x{t}>"
        mul, add = ("mulf", "addf") if is_float(t) else ("muli", "addi")
        # A triangle is two 1-D loops: options that name dimensions see one.
        self.dims = 1 if triangle else 2
        self.emit(f"func.func {mlir_symbol(self.name)}(%in0: {mt}, %in1: {mt}, "
                  f"%out: {mt}, %flagi: i32, %s: {t}) {{")
        self.emit("    %c0 = arith.constant 0 : index")
        self.emit("    %c1 = arith.constant 1 : index")
        self.emit(f"    %lb = arith.constant {lb} : index")
        self.emit(f"    %st = arith.constant {step} : index")
        self.emit(f"    %m = memref.dim %out, %c0 : {mt}")
        self.emit(f"    %n = memref.dim %out, %c1 : {mt}")
        self.emit(f"    %k = memref.dim %in1, %c0 : {mt}")
        if triangle:
            self.emit("    scf.parallel (%i) = (%c0) to (%m) step (%c1) {")
            self.emit("      %ie = arith.addi %i, %c1 : index")
            bounds = {"lower": ("%c0", "%ie"), "strict": ("%c0", "%i"),
                      "upper": ("%i", "%n")}[triangle]
            self.emit(f"    scf.parallel (%j) = ({bounds[0]}) to ({bounds[1]}) "
                      "step (%c1) {")
        else:
            self.emit("    scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step "
                      "(%c1, %c1) {")
        if accumulate:
            self.emit(f"      %init = memref.load %out[%i, %j] : {mt}")
        else:
            self.emit(f"      %init = arith.constant 0"
                      f"{'.0' if is_float(t) else ''} : {t}")
        a_index = "%l, %i" if transposed else "%i, %l"
        if as_for:
            self.emit("      %r = scf.for %l = %lb to %k step %st "
                      f"iter_args(%acc = %init) -> ({t}) {{")
        else:
            self.emit("      %r = scf.parallel (%l) = (%lb) to (%k) step (%st) "
                      f"init (%init) -> {t} {{")
        self.emit(f"        %av = memref.load %in0[{a_index}] : {mt}")
        self.emit(f"        %bv = memref.load %in1[%l, %j] : {mt}")
        self.emit(f"        %p = arith.{mul} %av, %bv : {t}")
        if as_for:
            self.emit(f"        %q = arith.{add} %acc, %p : {t}")
            self.emit(f"        scf.yield %q : {t}")
        else:
            self.emit_reduce(t, "%p", add, indent=8)
        self.emit("      }")
        self.emit(f"      memref.store %r, %out[%i, %j] : {mt}")
        self.emit("      scf.reduce")
        self.emit("    }")
        if triangle:
            self.emit("      scf.reduce")
            self.emit("    }")
        self.emit("  return")
        self.emit("}")
        ashape = [k, m] if transposed else [m, k]
        self.arrays = [("in0", ashape), ("in1", [k, n]), ("out", [m, n])]
        self.mt = lambda s: mt
        self.shapes = dict(self.arrays)
        self.scalars = [("flagi", "i32", 0), ("s", t, 1)]
        self.results = ["out"]

    def build_limits(self):
        """A loop whose bounds and steps sit near the ends of the index
        type; each iteration finds its number k = (iv - lb) / step without
        overflow (unsigned), and stores (or adds, or reduces) at k."""
        rng = self.rng
        # Sums of up to 300 values: exact in f32, not in f16.
        t = self.type if self.type != "f16" else "f32"
        self.type = t
        dims = rng.choice([1, 1, 2])
        self.dims = dims
        reduce = dims == 1 and rng.random() < 0.3
        budget = 300 if dims == 1 else 20
        lbs, ubs, steps, trips = [], [], [], []
        for _ in range(dims):
            step = rng.choice([1, 1, 2, 3, 7, 2**31 - 1, 2**31, 2**32 + 1,
                               2**54, 2**56, 2**62, INDEX_MAX])
            most = min(budget, (2**64 - 2) // step + 1)
            n = min(rng.choice([0, 1, 2, rng.randint(0, most), most]), most)
            span = (n - 1) * step if n else 0  # first to last iteration
            hi = INDEX_MAX - 1 - span
            anchors = [INDEX_MIN, INDEX_MIN + 5, -2**62, -2**32, -2**31, -7,
                       0, 1, 3, 2**31 - 2, 2**31, 2**32 - 1, 2**62, hi,
                       hi - 3]
            lb = max(INDEX_MIN, min(hi, rng.choice(anchors)))
            if n == 0:
                ub = max(INDEX_MIN, lb - rng.choice([0, 0, 1, 2**40]))
            else:
                last = lb + span
                r = rng.choice([1, step, rng.randint(1, step)])
                ub = min(last + r, INDEX_MAX)
            lbs.append(lb)
            ubs.append(ub)
            steps.append(step)
            trips.append(n)
        passed = rng.random() < 0.5  # bounds as arguments, not constants
        mt = lambda shape: "memref<" + "x".join(
            "?" for _ in shape) + f"x{t}>"
        shape = trips
        out_shape = [1] if reduce else trips
        args = [f"%in0: {mt(shape)}", f"%out: {mt(out_shape)}", "%flagi: i32",
                f"%s: {t}"]
        scalars = [("flagi", "i32", 0), ("s", t, rng.randint(-5, 5))]
        names = {}
        for d in range(dims):
            for what, value in (("lb", lbs[d]), ("ub", ubs[d]),
                                ("st", steps[d])):
                name = f"%{what}{d}"
                names[what, d] = name
                if passed:
                    args.append(f"{name}: index")
                    scalars.append((f"{what}{d}", "index", value))
        prologue = [f"func.func {mlir_symbol(self.name)}({', '.join(args)}) {{",
                    "    %c0 = arith.constant 0 : index",
                    "    %c1 = arith.constant 1 : index"]
        if not passed:
            for (what, d), name in names.items():
                value = {"lb": lbs, "ub": ubs, "st": steps}[what][d]
                prologue.append(f"    {name} = arith.constant {value} : index")
        for line in prologue:
            self.emit(line)
        ivs = [f"%i{d}" for d in range(dims)]
        init = self.const(t, rng.randint(-5, 5)) if reduce else None
        result = "%red = " if reduce else ""
        carried = f" init ({init}) -> {t}" if reduce else ""
        head = (f"    {result}scf.parallel ({', '.join(ivs)}) = "
                f"({', '.join(names['lb', d] for d in range(dims))}) to "
                f"({', '.join(names['ub', d] for d in range(dims))}) step "
                f"({', '.join(names['st', d] for d in range(dims))})"
                f"{carried} {{")
        # The reference walks iteration numbers j from 0 to the trip count
        # and computes iv = lb + j * step, which wraps back into range.
        js = [f"%j{d}" for d in range(dims)]
        reference_head = [
            f"    {result}scf.parallel ({', '.join(js)}) = "
            f"({', '.join('%c0' for _ in js)}) to "
            f"({', '.join(f'%n{d}' for d in range(dims))}) step "
            f"({', '.join('%c1' for _ in js)}){carried} {{"]
        for d in range(dims):
            reference_head += [
                f"    %jst{d} = arith.muli %j{d}, {names['st', d]} : index",
                f"    %i{d} = arith.addi {names['lb', d]}, %jst{d} : index"]
        body_start = len(self.lines)
        self.emit(head)
        ks = []
        for d in range(dims):
            diff = self.fresh("ix")
            self.emit(f"    {diff} = arith.subi {ivs[d]}, {names['lb', d]} "
                      ": index")
            k = self.fresh("k")
            self.emit(f"    {k} = arith.divui {diff}, {names['st', d]} : "
                      "index")
            ks.append(k)
        x = self.fresh("x")
        self.emit(f"    {x} = memref.load %in0[{', '.join(ks)}] : "
                  f"{mt(shape)}")
        value = self.binary(t, x, "%s")
        if reduce:
            combine = rng.choice(["add", "max", "min"])
            op = {"add": "addf", "max": "maximumf", "min": "minimumf"}[
                combine] if is_float(t) else {"add": "addi", "max": "maxsi",
                                             "min": "minsi"}[combine]
            self.emit_reduce(t, value, op, indent=4)
            self.emit("  }")
            self.emit(f"  memref.store %red, %out[%c0] : {mt(out_shape)}")
        else:
            self.store(t, value, ", ".join(ks), mt(out_shape),
                       rng.random() < 0.5)
            self.emit("    scf.reduce")
            self.emit("  }")
        self.emit("  return")
        self.emit("}")
        self.arrays = [("in0", shape), ("out", out_shape)]
        self.mt = mt
        self.scalars = scalars
        self.results = ["out"]
        counts = [f"    %n{d} = arith.constant {trips[d]} : index"
                  for d in range(dims)]
        self.reference_lines = (self.lines[:body_start] + counts +
                                reference_head +
                                self.lines[body_start + 1:])

    def emit_main(self):
        t = self.type
        self.emit("func.func @threadbind_max_resident_blocks(%t: index) -> "
                  "index {")
        self.emit(f"  %r = arith.constant {self.options['resident']} : index")
        self.emit("  return %r : index")
        self.emit("}")
        printer = {"f16": "F16", "f32": "F32", "f64": "F64", "i32": "I32",
                   "i64": "I64", "i8": "I8", "i16": "I16"}[t]
        self.emit(f"func.func private @printMemref{printer}(memref<*x{t}>) "
                  "attributes {llvm.emit_c_interface}")
        self.emit("func.func @main() {")
        self.emit("  %c0 = arith.constant 0 : index")
        self.emit("  %c1 = arith.constant 1 : index")
        names = []
        for name, shape in self.arrays:
            static = "memref<" + "x".join(str(s) for s in shape) + f"x{t}>"
            self.emit(f"  %{name}_s = memref.alloc() : {static}")
            total = 1
            for s in shape:
                total *= s
            flat = f"memref<{total}x{t}>"
            if len(shape) > 1:
                groups = "[[" + ", ".join(str(d) for d in range(
                    len(shape))) + "]]"
                self.emit(f"  %{name}_f = memref.collapse_shape %{name}_s "
                          f"{groups} : {static} into {flat}")
            else:
                self.emit(f"  %{name}_f = memref.cast %{name}_s : {static} "
                          f"to {flat}")
            # Small integer values: 7 i mod 23 - 11 (outputs: a sentinel).
            self.emit(f"  %{name}_n = arith.constant {total} : index")
            self.emit(f"  scf.for %i = %c0 to %{name}_n step %c1 {{")
            self.emit("    %i32 = arith.index_cast %i : index to i32")
            self.emit("    %c7 = arith.constant 7 : i32")
            self.emit("    %c23 = arith.constant 23 : i32")
            self.emit("    %c11 = arith.constant 11 : i32")
            if name == "out":
                self.emit("    %v = arith.constant 99 : i32")
            else:
                self.emit("    %m = arith.muli %i32, %c7 : i32")
                self.emit("    %r = arith.remsi %m, %c23 : i32")
                self.emit("    %v = arith.subi %r, %c11 : i32")
            if t == "i32":
                conv = "%v"
            elif t == "i64":
                self.emit(f"    %e = arith.extsi %v : i32 to {t}")
                conv = "%e"
            elif t in ("i8", "i16"):
                self.emit(f"    %e = arith.trunci %v : i32 to {t}")
                conv = "%e"
            else:
                self.emit(f"    %e = arith.sitofp %v : i32 to {t}")
                conv = "%e"
            self.emit(f"    memref.store {conv}, %{name}_f[%i] : {flat}")
            self.emit("  }")
            target = self.mt(shape)
            self.emit(f"  %{name} = memref.cast %{name}_s : {static} to "
                      f"{target}")
            names.append((f"%{name}", target))
        for name, ty, value in self.scalars:
            if ty == "i1":
                self.emit(f"  %{name} = arith.constant {'true' if value else 'false'}")
            elif is_float(ty):
                self.emit(f"  %{name} = arith.constant {float(value)} : {ty}")
            else:
                self.emit(f"  %{name} = arith.constant {value} : {ty}")
            names.append((f"%{name}", ty))
        self.emit(f"  call {mlir_symbol(self.name)}("
                  f"{', '.join(n for n, _ in names)}) : "
                  f"({', '.join(ty for _, ty in names)}) -> ()")
        for name, shape in self.arrays:
            if name not in self.results:
                continue
            total = 1
            for s in shape:
                total *= s
            if total == 0:
                continue  # printMemref prints garbage for an empty memref
            static = "memref<" + "x".join(str(s) for s in shape) + f"x{t}>"
            self.emit(f"  %{name}_u = memref.cast %{name}_s : {static} to "
                      f"memref<*x{t}>")
            self.emit(f"  call @printMemref{printer}(%{name}_u) : "
                      f"(memref<*x{t}>) -> ()")
        self.emit("  return")
        self.emit("}")

    def text(self):
        return "\n".join(self.lines) + "\n"

    def reference_text(self):
        """The program whose CPU run gives the expected output."""
        if self.reference_lines is None:
            return self.text()
        return "\n".join(self.reference_lines) + "\n"

    def pipeline(self):
        o = self.options
        widen = f"=\"{o['widen']}\"" if o["widen"] else ""
        return [f"-threadbind-map-to-gpu={o['map']}",
                f"-threadbind-remove-tail-checks=strategy={o['tail']}",
                "-threadbind-unswitch-uniform-conditions",
                "-threadbind-predicate-divergent-branches",
                f"-threadbind-widen-accesses{widen}",
                *(["-threadbind-narrow-indices"] if o["narrow"] else []),
                "-threadbind-test-emulate-gpu-launch"]
