"""Validates manifests against docs/manifest.schema.json, and checks that the
schema refuses manifests broken in ways a reader would trip on (so that a
schema that accepts anything fails this test too).

usage: validate-manifest.py SCHEMA MANIFEST...
Prints one line per manifest; exits 1 at the first that is not valid."""

import copy
import json
import sys

import jsonschema


def breakages(manifest):
    """Copies of `manifest`, each broken in one way, with what was broken."""
    def broken(what, change):
        copied = copy.deepcopy(manifest)
        if change(copied) is not False:
            yield what, copied

    def first_kernel(change):
        def apply(m):
            if not m["kernels"]:
                return False
            change(m["kernels"][0])
        return apply

    yield from broken("version 1", lambda m: m.update(
        threadbind_manifest_version=1))
    yield from broken("no functions", lambda m: m.pop("functions"))
    yield from broken("a grid as text", first_kernel(
        lambda k: k["grid"].__setitem__(0, "ceildiv(dim(arg0, 0), 256)")))
    yield from broken("an unknown operator", first_kernel(
        lambda k: k["grid"].__setitem__(0, {"op": "pow", "args": [2, 3]})))
    yield from broken("a binary operator with one operand", first_kernel(
        lambda k: k["block"].__setitem__(0, {"op": "add", "args": [1]})))
    yield from broken("two grid extents", first_kernel(
        lambda k: k["grid"].pop()))
    yield from broken("a parameter without a source", first_kernel(
        lambda k: k["params"][0].pop("source")))
    yield from broken("a negative argument", first_kernel(
        lambda k: k["params"][0].__setitem__("source", {"arg": -1})))
    yield from broken("an unknown field", first_kernel(
        lambda k: k.__setitem__("grid_text", "1")))

    def unlaunchable_without_why(m):
        if not m["functions"]:
            return False
        m["functions"][0]["launchable"] = False
        m["functions"][0].pop("not_launchable", None)
    yield from broken("an unlaunchable function without a reason",
                      unlaunchable_without_why)


def main():
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sys.argv[2:]:
        manifest = json.load(open(path))
        errors = sorted(validator.iter_errors(manifest), key=str)
        if errors:
            print(f"invalid {path}: {errors[0].message} at "
                  f"{list(errors[0].absolute_path)}")
            return 1
        for what, copied in breakages(manifest):
            if validator.is_valid(copied):
                print(f"the schema accepts {path} with {what}")
                return 1
        print(f"valid: {len(manifest['functions'])} functions, "
              f"{len(manifest['kernels'])} kernels, "
              f"{len(manifest.get('entries', []))} entries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
