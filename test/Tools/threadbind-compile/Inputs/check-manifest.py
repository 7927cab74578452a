"""Checks a ThreadBind launch manifest against the PTX it describes.

Every kernel in the manifest must be a `.entry` of the PTX with exactly the
parameters the manifest lists, in order and of the same PTX type, and a
constant block shape must match the entry's `.maxntid`. Prints one line per
kernel and exits non-zero on the first mismatch.

usage: check-manifest.py MANIFEST.json KERNELS.ptx
"""

import json
import re
import sys


def ptx_entries(ptx):
    entries = {}
    for m in re.finditer(r"\.entry\s+(\w+)\s*\((.*?)\)\s*(\.maxntid\s+([\d, ]+))?",
                         ptx, re.S):
        params = re.findall(r"\.param\s+\.(\w+)", m.group(2))
        maxntid = None
        if m.group(4):
            maxntid = [int(v) for v in m.group(4).split(",")]
        entries[m.group(1)] = (params, maxntid)
    return entries


def main():
    manifest = json.load(open(sys.argv[1]))
    entries = ptx_entries(open(sys.argv[2]).read())
    if not manifest["kernels"]:
        sys.exit("manifest lists no kernel")
    if len(manifest["kernels"]) != len(entries):
        sys.exit("manifest lists %d kernels, PTX has %d entries"
                 % (len(manifest["kernels"]), len(entries)))
    for kernel in manifest["kernels"]:
        name = kernel["name"]
        if name not in entries:
            sys.exit("kernel %s is not an entry of the PTX" % name)
        params, maxntid = entries[name]
        listed = [p["ptx_type"] for p in kernel["params"]]
        if listed != params:
            sys.exit("kernel %s: manifest params %s, PTX params %s"
                     % (name, listed, params))
        if [p["index"] for p in kernel["params"]] != list(range(len(params))):
            sys.exit("kernel %s: parameter indices are not 0..n-1" % name)
        block = kernel["block"]
        if all(isinstance(b, int) for b in block) and maxntid is not None:
            if block != maxntid[:3] + [1] * (3 - len(maxntid)):
                sys.exit("kernel %s: block %s, .maxntid %s"
                         % (name, block, maxntid))
        print("ok %s: %d params, block %s" % (name, len(params), block))


if __name__ == "__main__":
    main()
