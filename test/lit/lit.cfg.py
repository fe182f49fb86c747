# -*- Python -*-
# lit configuration for skc's tests: the built skc, and FileCheck, not,
# split-file from the LLVM 22 tools.
import os

import lit.formats

config.name = "skc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.skc_obj_root, "test", "lit")

# Tools: our skc first, then LLVM's FileCheck, not, split-file, count.
path = os.path.pathsep.join(
    [config.skc_tools_dir, config.llvm_tools_dir, config.environment["PATH"]])
config.environment["PATH"] = path

config.substitutions.append(("%pytorch_yaml", config.pytorch_yaml_dir))
# Compiles generated code against the runtime's headers.
config.substitutions.append(
    ("%cxx", config.cxx_compiler + " -std=c++17 -Wall -Wextra -Werror"))
config.substitutions.append(("%runtime_include", config.runtime_include_dir))
config.substitutions.append(("%skc_src", config.skc_src_root))

# Diagnostics must not depend on the terminal.
config.environment["TERM"] = "dumb"
