"""Copies the runtime's headers to DEST with identifiers renamed, as a
runtime whose APIs changed their names would be: rename-runtime-api.py SRC
DEST OLD=NEW..."""
import os
import re
import shutil
import sys

src, dest, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
renames = [p.split("=", 1) for p in pairs]
shutil.copytree(src, dest, ignore=shutil.ignore_patterns("*.cpp", "*.cu"))
for root, _, files in os.walk(dest):
    for name in files:
        path = os.path.join(root, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for old, new in renames:
            text = re.sub(r"\b%s\b" % re.escape(old), new, text)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
