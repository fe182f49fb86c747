# -*- Python -*-
# lit configuration for skc's tests: the built skc, and FileCheck, not,
# split-file from the LLVM 22 tools.
import os
import sys

import lit.formats

config.name = "skc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.skc_obj_root, "test", "lit")

# Tools: our skc first, then LLVM's FileCheck, not, split-file, count.
path = os.path.pathsep.join(
    [config.skc_tools_dir, config.skc_lsp_tools_dir, config.llvm_tools_dir,
     config.environment["PATH"]])
config.environment["PATH"] = path

config.substitutions.append(("%pytorch_yaml", config.pytorch_yaml_dir))
config.substitutions.append(
    ("%pytorch25_yaml", os.path.join(config.shared_dir, "data", "pytorch-2.5")))
# PyTorch 2.15's schema files, which the repository carries.
config.substitutions.append(
    ("%pytorch215_yaml",
     os.path.join(config.skc_src_root, "third_party", "pytorch-2.15")))
# Tests of PyTorch's files in ../shared say `REQUIRES: shared-data`; without
# it they are reported as unsupported rather than failing.
if os.path.isdir(os.path.join(config.shared_dir, "data")):
    config.available_features.add("shared-data")
# Compiles generated code against the runtime's headers.
config.substitutions.append(
    ("%cxx", config.cxx_compiler + " -std=c++17 -Wall -Wextra -Werror"))
config.substitutions.append(("%runtime_include", config.runtime_include_dir))
config.substitutions.append(("%skc_src", config.skc_src_root))
config.substitutions.append(("%python", sys.executable))

# Diagnostics must not depend on the terminal.
config.environment["TERM"] = "dumb"
