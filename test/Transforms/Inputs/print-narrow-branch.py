"""Makes visible which side of threadbind-narrow-indices' run-time test runs
(narrow-indices.mlir): in the functions under test, every scf.if whose
then-side is a launch, the copy (it holds a view of 2147483647 elements,
the pass's one-dimensional view of a base buffer), prints "narrow" first on its
then-side and "wide" first on its else-side.
With --mutate, also drops the stride of the first access @stencil
addresses in i32 (its index times the stride becomes the index alone), a
mutant the test's outputs must catch."""
import re
import sys

lines = sys.stdin.read().split("\n")
mutate = "--mutate" in sys.argv[1:]
# Only the functions under test; the host helpers' own launches stay quiet.
tested = {"matmul", "stencil", "row_sums", "cube", "view", "axpy"}
out = list(lines)
inserts = []  # (line number to insert after, text)
function = None
for number, line in enumerate(lines):
    f = re.match(r"\s*func\.func @(\w+)\(", line)
    if f:
        function = f.group(1)
    m = re.match(r"(\s*)scf\.if %[\w]+ \{$", line)
    if not m or function not in tested or \
            "gpu.launch" not in lines[number + 1]:
        continue
    indent = m.group(1)
    for end in range(number + 1, len(lines)):
        if lines[end] == indent + "} else {":
            if any("2147483647x" in l for l in lines[number:end]):
                inserts.append((number, indent + '  vector.print str "narrow\\n"'))
                inserts.append((end, indent + '  vector.print str "wide\\n"'))
            break
        if lines[end] == indent + "}":
            break
for number, text in sorted(inserts, reverse=True):
    out.insert(number + 1, text)
if mutate:
    function = None
    for i, line in enumerate(out):
        f = re.match(r"\s*func\.func @(\w+)\(", line)
        if f:
            function = f.group(1)
        if function != "stencil":
            continue
        m = re.match(r"(\s*)(%[\w]+) = arith\.muli (%[\w]+), %[\w]+ "
                     r"overflow<nsw> : i32$", line)
        if m:
            out[i] = (f"{m.group(1)}{m.group(2)} = arith.addi {m.group(3)}, "
                      f"%c0_mutant : i32")
            out.insert(i, f"{m.group(1)}%c0_mutant = arith.constant 0 : i32")
            break
    else:
        sys.exit("no access addressed in i32 to mutate")
sys.stdout.write("\n".join(out))
