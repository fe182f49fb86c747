# Configures examples/consumer against skc installed in SKC_PREFIX, builds
# it and runs it (cmake -P; see CMakeLists.txt).
#
# Arguments: SKC_PREFIX, SOURCE_DIR, BINARY_DIR, GENERATOR, CXX_COMPILER,
# BUILD_TYPE.

include("${CMAKE_CURRENT_LIST_DIR}/Common.cmake")

if(NOT GENERATOR MATCHES "^(Ninja|Unix Makefiles)$")
  skc_test_skip("skc_add_kernel_library needs Ninja or Unix Makefiles, "
    "and this build uses '${GENERATOR}'")
endif()

skc_test_configure("${SOURCE_DIR}" "${BINARY_DIR}" "${GENERATOR}")
skc_test_run(output "${CMAKE_COMMAND}" --build "${BINARY_DIR}" --parallel 2)
skc_test_run(output "${BINARY_DIR}/consumer")

# One line per call main.cpp makes, with its result.
set(expected
  "scale\\(x, 2\\) = tensor"
)
foreach(line IN LISTS expected)
  if(NOT output MATCHES "${line}")
    message(FATAL_ERROR "FAILED: the consumer's output lacks '${line}'")
  endif()
endforeach()
