#!/usr/bin/env python3
#===- bench/loop-census.py - Count the instructions of innermost loops ---===#
#
# Part of the ThreadBind project.
#
#===----------------------------------------------------------------------===#
#
# Reads PTX (threadbind-compile --emit ptx, nvcc -ptx) or SASS
# (cuobjdump -sass) and prints, for every kernel, each innermost loop: a
# label with a later branch back to it and no other loop inside. For each:
# the number of instructions from the label to the branch, and how many of
# each opcode (without modifiers), so two builds of one kernel can be
# compared by what their hot loops execute per iteration.
#
#   loop-census.py FILE...
#
#===----------------------------------------------------------------------===#

import re
import sys
from collections import Counter

# PTX: `$L__BB0_3:` labels, `@%p3 bra $L__BB0_3;` branches, `.entry name(`.
# SASS: every instruction is at an address, `@P0 BRA 0x1c0 ;` branches to
# one (or to a `.L_x_3:` label, as nvdisasm prints), `Function : name`.
LABEL = re.compile(r"^\s*(\$L__\w+|\.L_x_\d+):")
PTX_ENTRY = re.compile(r"\.entry\s+(\w+)")
SASS_ENTRY = re.compile(r"Function\s*:\s*(\S+)")
PTX_INSTR = re.compile(r"^\s*(@!?%\w+\s+)?([a-z][\w.]*)\s*([^;]*);")
SASS_INSTR = re.compile(
    r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][\w.]*)([^;]*);")
BRANCH_TARGET = re.compile(r"(\$L__\w+|\.L_x_\d+|0x[0-9a-f]+)")


def parse(lines):
    """Yields (kernel, [(label or None, opcode, operands)]) per kernel."""
    kernel, body = None, []
    for line in lines:
        m = PTX_ENTRY.search(line) or SASS_ENTRY.search(line)
        if m:
            if kernel:
                yield kernel, body
            kernel, body = m.group(1), []
            continue
        m = LABEL.match(line)
        if m:
            body.append((m.group(1), None, ""))
            continue
        m = PTX_INSTR.match(line)
        if m and kernel:
            body.append((None, m.group(2), m.group(3)))
            continue
        m = SASS_INSTR.search(line)
        if m and kernel:
            # An instruction's address is the label a branch names.
            body.append((hex(int(m.group(1), 16)), None, ""))
            body.append((None, m.group(3), m.group(4)))
    if kernel:
        yield kernel, body


def loops(body):
    """Innermost loops as (label, [opcodes]) from each label to the last
    branch back to it."""
    found = []
    label_at = {}
    for i, (label, opcode, operands) in enumerate(body):
        if label:
            label_at[label] = i
            continue
        if opcode.split(".")[0].lower() != "bra":
            continue
        m = BRANCH_TARGET.search(operands)
        if m and m.group(1) in label_at:
            start = label_at[m.group(1)]
            found.append((m.group(1), start, i))
    # Keep loops with no other loop strictly inside.
    innermost = [l for l in found
                 if not any(o is not l and l[1] <= o[1] and o[2] <= l[2]
                            and (o[1], o[2]) != (l[1], l[2]) for o in found)]
    result = []
    for label, start, end in innermost:
        ops = [op for lab, op, _ in body[start:end + 1] if op]
        # SASS ends every function with a branch to itself: not a loop.
        if len(ops) > 1:
            result.append((label, ops))
    return result


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: loop-census.py FILE...")
    for path in sys.argv[1:]:
        with open(path) as f:
            for kernel, body in parse(f):
                for label, ops in loops(body):
                    counts = Counter(op.split(".")[0] for op in ops)
                    summary = ", ".join(f"{n} {op}" for op, n in
                                        counts.most_common())
                    print(f"{path}: {kernel}: loop at {label}: "
                          f"{len(ops)} instructions ({summary})")


if __name__ == "__main__":
    main()
