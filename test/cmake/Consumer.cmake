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

# The program prints one line per call; consumer-output.txt holds what
# each must be.
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/consumer-output.txt" expected)
string(REGEX REPLACE "\n$" "" output "${output}")
# A line of output per list element, as file(STRINGS) reads the expected
# ones (no line holds a ';', and each line's brackets balance).
string(REPLACE "\n" ";" actual "${output}")
list(LENGTH expected expected_count)
list(LENGTH actual actual_count)
if(NOT actual_count EQUAL expected_count)
  message(FATAL_ERROR "FAILED: the consumer printed ${actual_count} lines, "
    "and consumer-output.txt has ${expected_count}")
endif()

set(failures 0)
math(EXPR last "${expected_count} - 1")
foreach(i RANGE ${last})
  list(GET expected ${i} want)
  list(GET actual ${i} got)
  if(got STREQUAL want)
    continue()
  endif()
  message("FAILED: line ${i}:\n  expected: ${want}\n  got:      ${got}")
  math(EXPR failures "${failures} + 1")
endforeach()
if(failures)
  message(FATAL_ERROR "FAILED: ${failures} of the consumer's lines differ "
    "from consumer-output.txt")
endif()
message("OK: the consumer printed consumer-output.txt")
