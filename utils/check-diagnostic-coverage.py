#!/usr/bin/env python3
# ===-- check-diagnostic-coverage.py - Is every diagnostic tested? --------=== #
#
# Part of skc, under the Apache License v2.0 with LLVM Exceptions.
#
# ===----------------------------------------------------------------------=== #
"""Checks that every diagnostic in the catalogue is expected by a lit test.

Usage: check-diagnostic-coverage.py SKC_SOURCE_ROOT

Reads the IDs of include/skc/Basic/DiagnosticKinds.def and scans the FileCheck
lines of every test under test/lit for `[ID]`, the way skc prints an ID after
each message. A check line is `PREFIX:` or `PREFIX-NEXT:`, `-SAME:`, `-DAG:`,
`-LABEL:`, `-COUNT-N:` (a `-NOT:` line expects the opposite, so it does not
count). Exits with 1, listing them, when a catalogue ID is never expected or a
test expects an ID the catalogue does not have; with 0 otherwise. This is
carbon's diagnostics coverage_test.cpp, for lit.

-verify directives (`# expected-error {{TEXT}}`) match messages, not IDs, so
they do not count: a diagnostic checked only with -verify still needs one
FileCheck line with its `[ID]` (test/lit/Sema/entry-fields.test has both).
"""

import os
import re
import sys

# IDs that no test needs to expect, each with the reason. Keep this empty:
# a diagnostic that cannot be triggered from a schema or tags file should be
# removed from the catalogue rather than listed here.
EXEMPT = {
    # "err_example": "reported only when the disk is full",
}

CATALOGUE = os.path.join("include", "skc", "Basic", "DiagnosticKinds.def")
TESTS = os.path.join("test", "lit")
DOCS = os.path.join("docs", "diagnostics.md")

DIAG_RE = re.compile(r"^DIAG\(\s*(\w+)\s*,")
# `# CHECK-NEXT: ...`, `CHECK: ...`, `// E3-SAME: ...`; the directive must
# be followed by a colon. RUN and lit keywords are not check lines.
CHECK_RE = re.compile(
    r"^\s*(?:(?:#|//|;)\s*)?([A-Za-z][A-Za-z0-9_-]*?)"
    r"(-NEXT|-SAME|-DAG|-LABEL|-EMPTY|-COUNT-\d+|-NOT)?:")
NOT_CHECKS = {"RUN", "REQUIRES", "UNSUPPORTED", "XFAIL", "END", "ALLOW_RETRIES"}
ID_RE = re.compile(r"\[((?:err|warn|note)_\w+)\]")


def read_catalogue(root):
    """Returns the catalogue's IDs in file order."""
    ids = []
    with open(os.path.join(root, CATALOGUE), encoding="utf-8") as f:
        for line in f:
            m = DIAG_RE.match(line)
            if m:
                ids.append(m.group(1))
    return ids


def expected_ids(root):
    """Returns {ID: first 'file:line' of a check line that expects it}."""
    found = {}
    test_root = os.path.join(root, TESTS)
    for dirpath, dirnames, filenames in os.walk(test_root):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(".test"):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = CHECK_RE.match(line)
                    if not m or m.group(1) in NOT_CHECKS or m.group(2) == "-NOT":
                        continue
                    for diag_id in ID_RE.findall(line):
                        where = "%s:%d" % (os.path.relpath(path, root), number)
                        found.setdefault(diag_id, where)
    return found


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: %s SKC_SOURCE_ROOT\n" % argv[0])
        return 2
    root = argv[1]
    catalogue = read_catalogue(root)
    if not catalogue:
        sys.stderr.write("error: no DIAG(...) lines in %s\n" % CATALOGUE)
        return 2
    found = expected_ids(root)

    status = 0
    untested = [i for i in catalogue if i not in found and i not in EXEMPT]
    if untested:
        status = 1
        print("error: %d diagnostic ID(s) in %s are never expected by a "
              "check line under %s:" % (len(untested), CATALOGUE, TESTS))
        for diag_id in untested:
            print("  " + diag_id)
    unknown = sorted(i for i in found if i not in catalogue)
    if unknown:
        status = 1
        print("error: %d ID(s) expected by tests are not in %s:"
              % (len(unknown), CATALOGUE))
        for diag_id in unknown:
            print("  %s (%s)" % (diag_id, found[diag_id]))
    # Every ID has an entry in the user documentation that links can point
    # at (skc-lsp's codeDescription): <a id="ID"></a>.
    with open(os.path.join(root, DOCS), encoding="utf-8") as f:
        anchors = set(re.findall(r'<a id="(\w+)"></a>', f.read()))
    undocumented = [i for i in catalogue if i not in anchors]
    if undocumented:
        status = 1
        print("error: %d diagnostic ID(s) have no <a id=...> entry in %s:"
              % (len(undocumented), DOCS))
        for diag_id in undocumented:
            print("  " + diag_id)
    stale = sorted(i for i in EXEMPT if i not in catalogue or i in found)
    if stale:
        status = 1
        print("error: exemptions that are no longer needed: " +
              ", ".join(stale))
    if status == 0:
        print("all %d diagnostic IDs of %s are expected by a test "
              "(%d exempt) and documented in %s"
              % (len(catalogue), CATALOGUE, len(EXEMPT), DOCS))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
