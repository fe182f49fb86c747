# Helpers of the scripts in test/cmake/ (cmake -P).

# skc_test_skip(<why>): reports that the test cannot run here, and why, and
# ends the script (a macro, so that return() leaves the script). CTest
# reports the test as skipped (SKIP_REGULAR_EXPRESSION in CMakeLists.txt).
macro(skc_test_skip why)
  message("SKIPPED: ${why}")
  return()
endmacro()

# skc_test_run(<out-var> <command...>): runs the command, echoes it and what
# it printed, fails the test when it fails, and sets <out-var> to its output.
function(skc_test_run out)
  string(JOIN " " shown ${ARGN})
  message("$ ${shown}")
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE output
    ERROR_VARIABLE output RESULT_VARIABLE result)
  message("${output}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "FAILED (${result}): ${shown}")
  endif()
  set(${out} "${output}" PARENT_SCOPE)
endfunction()

# skc_test_configure(<source-dir> <binary-dir> <generator> [args...]):
# configures a project against skc installed in SKC_PREFIX.
function(skc_test_configure source binary generator)
  file(REMOVE_RECURSE "${binary}")
  set(args -S "${source}" -B "${binary}" -G "${generator}"
    "-DCMAKE_PREFIX_PATH=${SKC_PREFIX}"
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
  if(BUILD_TYPE)
    list(APPEND args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
  endif()
  skc_test_run(output "${CMAKE_COMMAND}" ${args} ${ARGN})
endfunction()
