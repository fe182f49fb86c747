"""A thousand random edits, replayed into a schema and a kernel source of a
project open in skc-lsp, with random requests between them: the server must
not crash, hang or leak (run it built with AddressSanitizer), and must
answer every request and publish diagnostics for the last version of each
file. Then a few edits, each checked before the next, so that the server
parses each file many times over whatever the timing.

Usage: random_edits.py SKC_LSP RUNTIME_INCLUDE WORK_DIR [--edits N] [--seed S]
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from lsp_client import Client, ServerGone  # noqa: E402

# Bytes an author, a paste or a fuzzer puts in: the schema's and C++'s
# punctuation, YAML's indicators, multi-byte UTF-8, a lone surrogate's
# worth of emoji, tabs, CRs.
PIECES = ["- func: ", "(", ")", "Tensor", "Tensor(a!) out", "->", ",", "*",
          ":", "  ", "\n", "\n  dispatch:\n    CPU: ", "structured: True",
          "'", '"', "{", "}", ";", "SK_IMPL_FUNC(", "SK_META_FUNC(neg)",
          "#include \"NativeFunctions.h\"\n", "self.item();", "é", "😀",
          "\t", "\r", "[", "]", "&", "|", ">", "#", "neg_out", "int[]", "?",
          "=", "!", "%", "@", "\\", "namespace sk {", "}\n", "//", "/*"]


# Edits made after the random ones, each checked before the next.
CHECKED_EDITS = 20


def position(text, rng):
    """A position in text, or now and then one beyond it."""
    lines = text.split("\n")
    line = rng.randrange(len(lines) + (1 if rng.random() < 0.05 else 0))
    width = len(lines[line]) if line < len(lines) else 0
    character = rng.randrange(width + (3 if rng.random() < 0.05 else 1))
    return line, min(character, width) if line < len(lines) else 0


def offset(text, line, character):
    lines = text.split("\n")
    if line >= len(lines):
        return len(text)
    return sum(len(l) + 1 for l in lines[:line]) + min(character,
                                                        len(lines[line]))


def utf16(text, line, character):
    """The UTF-16 column of a character column (LSP counts UTF-16)."""
    lines = text.split("\n")
    if line >= len(lines):
        return 0
    return len(lines[line][:character].encode("utf-16-le")) // 2


def random_edit(text, rng):
    """A random edit of text: (start, end, new text, edited text), with
    start and end as (line, character) in characters."""
    a = position(text, rng)
    b = position(text, rng) if rng.random() < 0.4 else a
    if offset(text, *b) < offset(text, *a):
        a, b = b, a
    new = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 4)))
    start, end = offset(text, *a), offset(text, *b)
    return a, b, new, text[:start] + new + text[end:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("skc_lsp")
    parser.add_argument("runtime_include")
    parser.add_argument("work_dir")
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--timeout", type=int, default=900)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    inputs = os.path.join(os.path.dirname(__file__), "..", "lit", "LSP",
                          "Inputs")
    if os.path.exists(args.work_dir):
        shutil.rmtree(args.work_dir)
    subprocess.check_call([sys.executable,
                           os.path.join(inputs, "make-project.py"),
                           args.work_dir, args.runtime_include])
    files = {os.path.join(args.work_dir, "ops.yaml"): "yaml",
             os.path.join(args.work_dir, "kernels", "Neg.cpp"): "cpp"}
    stderr_path = os.path.join(args.work_dir, "skc-lsp.stderr")
    started = time.monotonic()
    with open(stderr_path, "wb") as stderr:
        client = Client([args.skc_lsp, "--log=error"], stderr)
        try:
            client.wait_for_reply(client.request(
                "initialize", {"processId": os.getpid(), "capabilities": {},
                               "rootUri": "file://" + args.work_dir}))
            client.notify("initialized", {})
            texts, versions, first_texts = {}, {}, {}
            for path, language in files.items():
                texts[path] = open(path, encoding="utf-8").read()
                first_texts[path] = texts[path]
                versions[path] = 1
                client.notify("textDocument/didOpen", {"textDocument": {
                    "uri": "file://" + path, "languageId": language,
                    "version": 1, "text": texts[path]}})
            pending = []
            for edit in range(args.edits):
                path = rng.choice(list(files))
                uri = "file://" + path
                text = texts[path]
                (l0, c0), (l1, c1), new, texts[path] = random_edit(text, rng)
                versions[path] += 1
                client.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": versions[path]},
                    "contentChanges": [{"range": {
                        "start": {"line": l0,
                                  "character": utf16(text, l0, c0)},
                        "end": {"line": l1,
                                "character": utf16(text, l1, c1)}},
                        "text": new}]})
                if rng.random() < 0.3:
                    l, c = position(texts[path], rng)
                    where = {"textDocument": {"uri": uri},
                             "position": {"line": l, "character": c}}
                    method, params = rng.choice([
                        ("textDocument/hover", where),
                        ("textDocument/definition", where),
                        ("textDocument/references",
                         dict(where, context={"includeDeclaration": True})),
                        ("textDocument/completion", where),
                        ("textDocument/documentSymbol",
                         {"textDocument": {"uri": uri}}),
                        ("textDocument/inlayHint",
                         {"textDocument": {"uri": uri}, "range": {
                             "start": {"line": 0, "character": 0},
                             "end": {"line": 1000, "character": 0}}}),
                        ("workspace/executeCommand",
                         {"command": "skc.showGeneratedCode",
                          "arguments": [where]}),
                        ("textDocument/codeAction",
                         {"textDocument": {"uri": uri}, "range": {
                             "start": where["position"],
                             "end": where["position"]},
                          "context": {"diagnostics":
                                      client.published.get(uri, (0, []))[1]}}),
                    ])
                    pending.append(client.request(method, params))
                # A pause longer than the debounce delay now and then, so
                # that the edits are checked, not only coalesced.
                if rng.random() < 0.1:
                    time.sleep(rng.uniform(0.03, 0.12))
                if rng.random() < 0.02:
                    client.notify("textDocument/didSave",
                                  {"textDocument": {"uri": uri}})
                # Now and then, catch up: every answer, and each file's
                # diagnostics for its newest version.
                if edit % 100 == 99 or edit == args.edits - 1:
                    for id in pending:
                        client.wait_for_reply(id)
                    pending = []
                    for p in files:
                        client.wait_for_version("file://" + p, versions[p])
                    print("%d edits, %.1f s" % (edit + 1,
                                                time.monotonic() - started),
                          flush=True)
                if time.monotonic() - started > args.timeout:
                    raise TimeoutError("over %d s" % args.timeout)
            # Then each file back to its first text and edited a line at a
            # time, each version checked before the next: more whole parses
            # than a process may leave to its exit (llvm::BuryPointer keeps
            # 16), so a parse that does not free its AST shows as a leak.
            for path, language in files.items():
                comment = "#" if language == "yaml" else "//"
                for step in range(CHECKED_EDITS):
                    versions[path] += 1
                    client.notify("textDocument/didChange", {
                        "textDocument": {"uri": "file://" + path,
                                         "version": versions[path]},
                        "contentChanges": [{"text": "%s\n%s %d\n" % (
                            first_texts[path], comment, step)}]})
                    client.wait_for_version("file://" + path, versions[path])
            print("%d checked edits, %.1f s"
                  % (CHECKED_EDITS * len(files), time.monotonic() - started),
                  flush=True)
            client.wait_for_reply(client.request("shutdown", None))
            client.notify("exit", None)
            code = client.process.wait(timeout=60)
        except (ServerGone, TimeoutError) as e:
            client.process.kill()
            client.process.wait()
            print("FAILED: %s" % e)
            code = -1
    with open(stderr_path, "rb") as f:
        errors = f.read().decode("utf-8", "replace")
    if code != 0 or "Sanitizer" in errors:
        print("FAILED: skc-lsp exited with %d; its stderr:\n%s"
              % (code, errors[-20000:]))
        return 1
    print("OK: %d edits, %d diagnostics published, in %.1f s"
          % (args.edits, client.publish_count, time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
