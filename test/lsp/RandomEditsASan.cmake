# The random-edit test against skc-lsp built with AddressSanitizer: builds
# skc-lsp alone in a sanitized tree of this source tree (reused across
# runs), then replays the edits into it.
#
# cmake -DSOURCE_DIR=<skc> -DBINARY_DIR=<tree> -DPYTHON=<python3>
#       -DRUNTIME_INCLUDE=<dir> -DWORK_DIR=<dir> -P RandomEditsASan.cmake
include("${SOURCE_DIR}/test/cmake/Common.cmake")

if(NOT EXISTS "${BINARY_DIR}/CMakeCache.txt")
  skc_test_run(output "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${BINARY_DIR}"
    -G Ninja -DCMAKE_BUILD_TYPE=Release "-DSKC_SANITIZE=address"
    -DSKC_ENABLE_CUDA=OFF "-DSKC_SHARED_DIR=${SOURCE_DIR}/../shared")
endif()
skc_test_run(output "${CMAKE_COMMAND}" --build "${BINARY_DIR}"
  --target skc-lsp --parallel 2)
set(ENV{ASAN_OPTIONS} "detect_leaks=1:abort_on_error=0")
skc_test_run(output "${PYTHON}" "${SOURCE_DIR}/test/lsp/random_edits.py"
  "${BINARY_DIR}/tools/skc-lsp/skc-lsp" "${RUNTIME_INCLUDE}" "${WORK_DIR}")
