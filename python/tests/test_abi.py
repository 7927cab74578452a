"""The ctypes mirrors in threadbind/_abi.py against the C headers they
mirror: every structure's size and every field's offset and size, as a C
compiler lays them out on this host, and every enum constant both ways."""

import ctypes
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from threadbind import _abi

INCLUDE = Path(__file__).resolve().parents[2] / "include"
HEADERS = [INCLUDE / "threadbind/Runtime/Bundle.h",
           INCLUDE / "threadbind/Runtime/Runtime.h"]

# Each mirror and the C type it mirrors.
STRUCTS = {
    _abi.ArgumentStruct: "ThreadBindArgument",
    _abi.TermStruct: "ThreadBindTerm",
    _abi.GuardStruct: "ThreadBindGuard",
    _abi.RequirementStruct: "ThreadBindRequirement",
    _abi.EntryStruct: "ThreadBindEntry",
    _abi.LaunchRecordStruct: "ThreadBindLaunchRecord",
}

# Each mirrored enum and the prefix of its C constants.
ENUMS = {
    _abi.ElementType: ("ThreadBindElementType", "THREADBIND_"),
    _abi.Access: ("ThreadBindAccess", "THREADBIND_"),
    _abi.TermKind: ("ThreadBindTermKind", "THREADBIND_TERM_"),
}


@pytest.fixture(scope="module")
def c_layout(tmp_path_factory):
    """What the C compiler says: {(C type, field or None): (offset, size)}
    and {C constant: value}."""
    cc = shutil.which("cc")
    if not cc:
        pytest.skip("no C compiler")
    lines = ["#include <stddef.h>", "#include <stdio.h>",
             '#include "threadbind/Runtime/Bundle.h"',
             '#include "threadbind/Runtime/Runtime.h"',
             "int main(void) {"]
    for mirror, ctype in STRUCTS.items():
        lines.append(f'  printf("{ctype} - 0 %zu\\n", sizeof({ctype}));')
        for field, _ in mirror._fields_:
            lines.append(
                f'  printf("{ctype} {field} %zu %zu\\n", '
                f"offsetof({ctype}, {field}), "
                f"sizeof((({ctype} *)0)->{field}));")
    for enum, (_, prefix) in ENUMS.items():
        for name in enum.__members__:
            constant = prefix + name
            lines.append(f'  printf("= {constant} %d\\n", (int){constant});')
    for member in _abi.ElementType:
        lines.append(f'  printf("name {member.value} %s\\n", '
                     f"threadbind_element_type_name({member.value}));")
    lines.append('  printf("= THREADBIND_DYNAMIC %lld\\n", '
                 "(long long)THREADBIND_DYNAMIC);")
    lines += ["  return 0;", "}"]
    folder = tmp_path_factory.mktemp("abi")
    source, binary = folder / "layout.c", folder / "layout"
    source.write_text("\n".join(lines) + "\n")
    subprocess.run([cc, "-std=c11", "-I", str(INCLUDE), str(source), "-o",
                    str(binary)], check=True)
    fields, constants = {}, {}
    for line in subprocess.run([str(binary)], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        words = line.split()
        if words[0] == "=":
            constants[words[1]] = int(words[2])
        elif words[0] == "name":
            constants[("name", int(words[1]))] = words[2]
        else:
            field = None if words[1] == "-" else words[1]
            fields[(words[0], field)] = (int(words[2]), int(words[3]))
    return fields, constants


@pytest.mark.parametrize("mirror", list(STRUCTS), ids=lambda m: m.__name__)
def test_struct_layout_matches_the_header(c_layout, mirror):
    fields, _ = c_layout
    ctype = STRUCTS[mirror]
    assert ctypes.sizeof(mirror) == fields[(ctype, None)][1], ctype
    for name, field_type in mirror._fields_:
        offset, size = fields[(ctype, name)]
        assert getattr(mirror, name).offset == offset, (ctype, name)
        assert ctypes.sizeof(field_type) == size, (ctype, name)


def test_enum_values_match_the_header(c_layout):
    _, constants = c_layout
    for enum, (_, prefix) in ENUMS.items():
        for name, member in enum.__members__.items():
            assert constants[prefix + name] == member.value, name


def test_dynamic_matches_the_header(c_layout):
    """The stride or offset a strided argument's type leaves to the
    caller."""
    _, constants = c_layout
    assert constants["THREADBIND_DYNAMIC"] == _abi.DYNAMIC


@pytest.mark.parametrize("enum", list(ENUMS), ids=lambda e: e.__name__)
def test_every_header_constant_is_mirrored(enum):
    """A constant added to a C enum must reach the mirror too."""
    c_name, prefix = ENUMS[enum]
    text = "\n".join(h.read_text() for h in HEADERS)
    body = re.search(r"enum\s+" + c_name + r"\s*\{(.*?)\}", text, re.S)
    assert body, c_name
    declared = set(re.findall(r"\b(THREADBIND_\w+)\s*=", body.group(1)))
    assert declared == {prefix + name for name in enum.__members__}


def test_element_type_names_match_the_header(c_layout):
    """Python names each element type as the manifest and the runner do."""
    from threadbind._bundle import _TYPES
    _, constants = c_layout
    for member in _abi.ElementType:
        assert _TYPES[member][0] == constants[("name", member.value)], member
