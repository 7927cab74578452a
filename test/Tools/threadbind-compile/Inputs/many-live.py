"""Prints a kernel whose threads each keep Q accumulators (default 72)
live across a loop (Horner's rule, which is no reduction, so it stays a
loop): more registers than a block of 1024 threads leaves a thread."""
import sys
Q = int(sys.argv[1]) if len(sys.argv) > 1 else 72
T = f"memref<?x{Q}xf32>"
F = ", ".join(["f32"] * Q)
L = [f"func.func @many_live(%x: memref<?xf32>, %coef: {T}, %out: {T}) {{",
     "  %c0 = arith.constant 0 : index",
     "  %c1 = arith.constant 1 : index",
     "  %zero = arith.constant 0.0 : f32",
     "  %n = memref.dim %x, %c0 : memref<?xf32>",
     f"  %k = memref.dim %coef, %c0 : {T}",
     "  scf.parallel (%i) = (%c0) to (%n) step (%c1) {",
     "    %v = memref.load %x[%i] : memref<?xf32>"]
accs = ", ".join(f"%a{q} = %zero" for q in range(Q))
L.append(f"    %r:{Q} = scf.for %j = %c0 to %k step %c1 iter_args({accs}) -> ({F}) {{")
for q in range(Q):
    L += [f"      %q{q} = arith.constant {q} : index",
          f"      %l{q} = memref.load %coef[%j, %q{q}] : {T}",
          f"      %m{q} = arith.mulf %a{q}, %v : f32",
          f"      %s{q} = arith.addf %m{q}, %l{q} : f32"]
L.append("      scf.yield " + ", ".join(f"%s{q}" for q in range(Q)) + f" : {F}")
L.append("    }")
for q in range(Q):
    L += [f"    %p{q} = arith.constant {q} : index",
          f"    memref.store %r#{q}, %out[%i, %p{q}] : {T}"]
L += ["    scf.reduce", "  }", "  return", "}"]
print("\n".join(L))
