"""Writes the object of the one gpu.binary in the MLIR read from stdin.

threadbind-opt --threadbind-to-ptx prints the PTX as the `assembly`
string of a #gpu.object; this turns it back into the bytes threadbind-compile writes,
so a test can compare the two with cmp.
"""

import re
import sys


def unescape(text):
    """MLIR's string escapes: \\\\, \\" and two hex digits."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\":
            out += c.encode()
            i += 1
        elif text[i + 1] in "\\\"":
            out += text[i + 1].encode()
            i += 2
        else:
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
    return bytes(out)


def main():
    objects = re.findall(r'#gpu\.object<.*?assembly = "((?:[^"\\]|\\.)*)"',
                         sys.stdin.read(), re.S)
    if len(objects) != 1:
        sys.exit(f"extract-gpu-binary: expected one #gpu.object, found "
                 f"{len(objects)}")
    sys.stdout.buffer.write(unescape(objects[0]))


if __name__ == "__main__":
    main()
