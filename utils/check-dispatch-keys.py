#!/usr/bin/env python3
# ===-- check-dispatch-keys.py - skc's keys against a torchgen release ----=== #
#
# Part of skc, under the Apache License v2.0 with LLVM Exceptions.
#
# ===----------------------------------------------------------------------=== #
"""Checks runtime/sk/core/DispatchKeys.def against a release's torchgen.

Usage: check-dispatch-keys.py MODEL_PY [SKC_SOURCE_ROOT]

MODEL_PY is `torchgen/model.py` from a `torch` wheel. Every key of its
`dispatch_keys` list must be a SK_SCHEMA_KEY, structured exactly when it is
in STRUCTURED_DISPATCH_KEYS and an alias exactly when
is_generic_dispatch_key() names it. Keys skc has beyond the release (those
of older releases) are listed, not errors. Exits with 1 on a mismatch.
"""

import os
import re
import sys


def torchgen_keys(model_py):
    text = open(model_py, encoding="utf-8").read()

    def keys_in(pattern):
        match = re.search(pattern, text, re.S)
        if not match:
            sys.exit(f"check-dispatch-keys: no match for {pattern!r} in {model_py}")
        return re.findall(r"DispatchKey\.(\w+)", match.group(1))

    supported = keys_in(r"\ndispatch_keys = \[(.*?)\]")
    structured = set(keys_in(r"\nSTRUCTURED_DISPATCH_KEYS = \{(.*?)\}"))
    generic = set(keys_in(r"def is_generic_dispatch_key\(.*?\{(.*?)\}"))
    return supported, structured, generic


def skc_keys(root):
    path = os.path.join(root, "runtime", "sk", "core", "DispatchKeys.def")
    text = open(path, encoding="utf-8").read()
    keys = {}
    for name, structured, alias in re.findall(
            r"^SK_SCHEMA_KEY\((\w+),\s*([01]),\s*([01]),", text, re.M):
        keys[name] = (structured == "1", alias == "1")
    return keys


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    root = sys.argv[2] if len(sys.argv) == 3 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    supported, structured, generic = torchgen_keys(sys.argv[1])
    ours = skc_keys(root)
    problems = []
    for key in supported:
        if key not in ours:
            problems.append(f"missing: {key}")
            continue
        want = (key in structured, key in generic)
        if ours[key] != want:
            problems.append(f"{key}: skc says structured={ours[key][0]} "
                            f"alias={ours[key][1]}, torchgen {want[0]} {want[1]}")
    extra = sorted(set(ours) - set(supported))
    print(f"{len(supported)} torchgen keys, {len(ours)} skc keys; "
          f"skc only (older releases, PrivateUse*): {' '.join(extra)}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
