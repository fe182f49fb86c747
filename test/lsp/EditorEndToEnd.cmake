# skc-lsp through a real client: configures and builds the demo project
# (test/lit/LSP/Inputs/project) against skc installed in SKC_PREFIX, then
# runs test_editor_end_to_end.py under pytest-lsp with the installed
# skc-lsp. pytest-lsp comes from utils/setup.sh, in PYTHON_TOOLS; without
# it the test says so and is skipped.
#
# cmake -DSOURCE_DIR=<skc> -DBINARY_DIR=<dir> -DSKC_PREFIX=<prefix>
#       -DPYTHON_TOOLS=<venv> -DCXX_COMPILER=<c++> -P EditorEndToEnd.cmake
include("${SOURCE_DIR}/test/cmake/Common.cmake")

set(python "${PYTHON_TOOLS}/bin/python")
if(NOT EXISTS "${python}")
  skc_test_skip("no ${python}: utils/setup.sh installs pytest-lsp there")
endif()
execute_process(COMMAND "${python}" -c "import pytest_lsp"
  RESULT_VARIABLE missing OUTPUT_QUIET ERROR_QUIET)
if(NOT missing EQUAL 0)
  skc_test_skip("${python} has no pytest-lsp: run utils/setup.sh")
endif()
find_program(ninja NAMES ninja ninja-build)
if(NOT ninja)
  skc_test_skip("no Ninja to build the demo project")
endif()

set(project "${BINARY_DIR}/project")
file(REMOVE_RECURSE "${BINARY_DIR}")
file(COPY "${SOURCE_DIR}/test/lit/LSP/Inputs/project/"
  DESTINATION "${project}")
skc_test_configure("${project}" "${project}/build" Ninja)
skc_test_run(output "${CMAKE_COMMAND}" --build "${project}/build"
  --parallel 2)
if(NOT EXISTS "${project}/build/skc-projects/demo.json")
  message(FATAL_ERROR "FAILED: skc_add_kernel_library wrote no project "
    "file (${project}/build/skc-projects/demo.json)")
endif()

set(ENV{SKC_LSP} "${SKC_PREFIX}/bin/skc-lsp")
set(ENV{SKC_E2E_PROJECT} "${project}")
skc_test_run(output "${python}" -m pytest -v -p no:cacheprovider
  "${SOURCE_DIR}/test/lsp/test_editor_end_to_end.py")
