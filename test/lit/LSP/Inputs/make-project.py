"""Copies the project in Inputs/project to DIR and writes the project file
skc_add_kernel_library would write for it into DIR/build, with an empty
compile_commands.json, as a configured CMake build directory has.

Usage: make-project.py DIR RUNTIME_INCLUDE
"""
import json
import os
import shutil
import sys

out, runtime_include = sys.argv[1], sys.argv[2]
shutil.copytree(os.path.join(os.path.dirname(__file__), "project"), out)
build = os.path.join(out, "build")
os.makedirs(os.path.join(build, "skc-projects"))
with open(os.path.join(build, "compile_commands.json"), "w") as f:
    f.write("[]\n")
project = {
    "version": 1,
    "name": "demo",
    "schema": os.path.join(out, "ops.yaml"),
    "tags": os.path.join(out, "tags.yaml"),
    "dispatchKeys": os.path.join(out, "dispatch-keys.yaml"),
    "sources": [os.path.join(out, "kernels", "Neg.cpp"),
                os.path.join(out, "kernels", "Scale.cpp")],
    "backends": ["CPU"],
    "shards": 1,
    "buildDirectory": build,
    "generatedDirectory": os.path.join(build, "skc-generated", "demo"),
    "runtimeInclude": runtime_include,
    "skcOptions": [],
}
with open(os.path.join(build, "skc-projects", "demo.json"), "w") as f:
    json.dump(project, f, indent=2)
