# Probe only: turn every scf.for inside a gpu.launch into a one-shot
# scf.if (valid only when the grid covers the loop, as it does at the
# probe's sizes).
import re, sys
lines = open(sys.argv[1]).read().split('\n')
out = []
pat = re.compile(r'^(\s*)scf\.for (%[\w]+) = (%[\w]+) to (%[\w]+) step (%[\w]+)\s*(: (i32|i64))?\s*\{\s*$')
i = 0; n = 0
in_launch = 0
stack = []  # (depth at which region ends, var, lb)
depth = 0
subs = []
for line in lines:
    m = pat.match(line)
    if 'gpu.launch ' in line: in_launch = 1
    if m and in_launch:
        ind, var, lb, ub, st, _, ty = m.groups()
        ty = ty or 'index'
        n += 1
        out.append(f'{ind}%exact{n} = arith.cmpi slt, {lb}, {ub} : {ty}')
        out.append(f'{ind}scf.if %exact{n} {{')
        subs.append((depth + 1, var, lb))
        depth += 1
        continue
    for (_, var, lb) in subs:
        line = re.sub(re.escape(var) + r'\b', lb, line)
    depth += line.count('{') - line.count('}')
    while subs and depth < subs[-1][0]:
        subs.pop()
    out.append(line)
print('\n'.join(out))
print(f'// exact: {n} loops', file=sys.stderr)
