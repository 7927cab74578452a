"""Makes visible which side of threadbind-version-read-only-launches'
run-time test runs (version-read-only-launches.mlir): the first op of the
then-side of every scf.if whose condition combines threadbind_disjoint
calls prints "read-only", the first of its else-side "plain"."""
import re
import sys

lines = sys.stdin.read().split("\n")
tested = set()
out = []
for line in lines:
    if re.match(r"\s*func\.func ", line):
        tested = set()  # SSA names are a function's own
    m = re.match(r"\s*(%[\w]+) = (?:func\.)?call @threadbind_disjoint\w*\(", line)
    if m:
        tested.add(m.group(1))
    m = re.match(r"\s*(%[\w]+) = arith\.andi (%[\w]+), (%[\w]+)", line)
    if m and m.group(2) in tested and m.group(3) in tested:
        tested.add(m.group(1))
    out.append(line)
    m = re.match(r"(\s*)scf\.if (%[\w]+) \{$", line)
    if m and m.group(2) in tested:
        out.append(m.group(1) + '  vector.print str "read-only\\n"')
        continue
    if re.match(r"\s*\} else \{$", line) and len(out) > 1:
        # The else of the innermost open tested if: tracked by indentation.
        indent = re.match(r"(\s*)", line).group(1)
        for previous in reversed(out[:-1]):
            p = re.match(r"(\s*)scf\.if (%[\w]+) \{$", previous)
            if p and p.group(1) == indent:
                if p.group(2) in tested:
                    out.append(indent + '  vector.print str "plain\\n"')
                break
sys.stdout.write("\n".join(out))
