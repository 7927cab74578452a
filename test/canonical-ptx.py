"""Writes the PTX read from a file (or stdin) in a form that leaves out what
compiling kernels apart may change by design, and nothing else.

threadbind-serialize-kernels compiles groups of kernels that share nothing on
LLVM contexts of their own and joins their PTX. Against one LLVM module
compiled whole, that changes:
  - where things stand: each group's module-scope declarations come before
    its own functions rather than all at the top, and groups keep their
    order, which may differ from the whole module's (the items are sorted
    here);
  - blank lines between the groups (dropped here);
  - the function number LLVM puts in basic-block labels and local depots
    ($L__BB3_1, __local_depot3), and the call-site number in call-sequence
    comments and call prototypes (// callseq 3, prototype_3), counted per
    LLVM module: these names are local to their function (numbers dropped
    here).
Every instruction, directive and symbol name stays as it is, so two PTX
files with the same canonical form differ in nothing else.

usage: canonical-ptx.py [FILE]
"""

import re
import sys

LOCAL_NUMBERS = re.compile(r"(\$L__BB|__local_depot|callseq |prototype_)\d+")


def canonical(ptx):
    lines = ptx.splitlines()
    header_end = next(i for i, line in enumerate(lines)
                      if line.startswith(".address_size")) + 1
    header, items, current, depth = lines[:header_end], [], [], 0
    for line in lines[header_end:]:
        if not line.strip():
            continue
        # A comment line at module scope (`// .globl k`, `// g has been
        # demoted`) is an item of its own: LLVM prints some where the
        # module's globals go, some beside the function.
        if depth == 0 and not current and line.lstrip().startswith("//"):
            items.append(line)
            continue
        current.append(LOCAL_NUMBERS.sub(r"\1", line))
        code = line.split("//", 1)[0]
        depth += code.count("{") - code.count("}")
        # An item ends with its closing brace, or with a ';' at module
        # scope; a `// .globl` comment starts the function after it.
        ends = depth == 0 and (code.rstrip().endswith("}")
                               or code.rstrip().endswith(";"))
        if ends:
            items.append("\n".join(current))
            current = []
    if current:
        items.append("\n".join(current))
    return "\n".join(header + sorted(items)) + "\n"


def main():
    text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    sys.stdout.write(canonical(text))


if __name__ == "__main__":
    main()
