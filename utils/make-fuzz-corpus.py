#!/usr/bin/env python3
"""Writes the seed corpora of skc's fuzzers from PyTorch's own files.

  make-fuzz-corpus.py --input-dir DIR --output-dir OUT

DIR holds native_functions.yaml and tags.yaml. Under OUT it writes

  skc-fuzz-schema/  one file per `func:` string (the bare string, no newline);
  skc-fuzz-yaml/    files of a few consecutive entries each (comments and all,
                    so that a group's functional, inplace and out= variants
                    usually travel together), plus the whole tags.yaml.

Entries are split on lines that start with `- ` at column 0, so the script
needs no YAML library. Corpora belong in a build directory: never commit them.
"""

import argparse
import hashlib
import os
import re
import shutil
import sys

# A file of entries stops growing before it would pass this many bytes (a
# lone entry may be longer); utils/run-fuzzers.sh runs skc-fuzz-yaml with
# twice this as -max_len.
MAX_YAML_SEED = 4096
ENTRIES_PER_YAML_SEED = 4


def split_entries(text):
    """Returns the top-level `- ` items of a YAML list, each as its text."""
    entries = []
    current = []
    for line in text.splitlines(keepends=True):
        if line.startswith("- ") and current:
            entries.append("".join(current))
            current = []
        current.append(line)
    if current:
        entries.append("".join(current))
    # The file's header comment is not an entry.
    return [e for e in entries if re.search(r"^- ", e, re.MULTILINE)]


def func_string(entry):
    match = re.search(r"^- func:\s*(.*?)\s*$", entry, re.MULTILINE)
    if not match:
        return None
    value = match.group(1)
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return value


def write(directory, name, data):
    with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
        f.write(data)


def short_hash(data):
    return hashlib.sha1(data.encode("utf-8")).hexdigest()[:12]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input-dir", required=True)
    parser.add_argument("--output-dir", required=True)
    args = parser.parse_args()

    with open(os.path.join(args.input_dir, "native_functions.yaml"),
              encoding="utf-8") as f:
        entries = split_entries(f.read())
    with open(os.path.join(args.input_dir, "tags.yaml"), encoding="utf-8") as f:
        tags = f.read()

    schema_dir = os.path.join(args.output_dir, "skc-fuzz-schema")
    yaml_dir = os.path.join(args.output_dir, "skc-fuzz-yaml")
    for d in (schema_dir, yaml_dir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)

    num_funcs = 0
    for entry in entries:
        func = func_string(entry)
        if func is None:
            continue
        write(schema_dir, "func-" + short_hash(func), func)
        num_funcs += 1

    num_files = 0
    chunk = []
    for entry in entries + [None]:
        if chunk and (entry is None or len(chunk) == ENTRIES_PER_YAML_SEED or
                      len("".join(chunk)) + len(entry) > MAX_YAML_SEED):
            data = "".join(chunk)
            write(yaml_dir, "entries-" + short_hash(data) + ".yaml", data)
            num_files += 1
            chunk = []
        if entry is not None:
            chunk.append(entry)
    write(yaml_dir, "tags.yaml", tags)

    print(f"make-fuzz-corpus: {num_funcs} func strings in {schema_dir}, "
          f"{num_files} entry files and tags.yaml in {yaml_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
