# Configures test/cmake/downstream/ against skc installed in SKC_PREFIX,
# builds it, runs it (it checks its own results), and checks what a
# downstream project sees of skc (cmake -P; see CMakeLists.txt):
#   - the compile commands of the project's sources carry no -march, nor
#     any other ISA flag, from skc's targets;
#   - OUTPUT_VARIABLE named the files skc wrote;
#   - SARIF_OUTPUT wrote a log with no results.
#
# Arguments: SKC_PREFIX, SOURCE_DIR, BINARY_DIR, GENERATOR, MAKE_PROGRAM,
# CXX_COMPILER, BUILD_TYPE, and SANITIZE (a -fsanitize= list: the project
# and the program are then built and run under it).

include("${CMAKE_CURRENT_LIST_DIR}/Common.cmake")

if(NOT MAKE_PROGRAM)
  skc_test_skip("no ${GENERATOR} build program on this machine")
endif()

set(extra "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
if(SANITIZE)
  set(flags "-fsanitize=${SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all")
  list(APPEND extra "-DCMAKE_CXX_FLAGS=${flags}"
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE}")
endif()
skc_test_configure("${SOURCE_DIR}" "${BINARY_DIR}" "${GENERATOR}" ${extra})
skc_test_run(output "${CMAKE_COMMAND}" --build "${BINARY_DIR}" --parallel 2)

# The program checks every result itself.
set(ENV{ASAN_OPTIONS} "detect_leaks=0:abort_on_error=0")
set(ENV{UBSAN_OPTIONS} "print_stacktrace=1")
skc_test_run(output "${BINARY_DIR}/downstream")
if(NOT output MATCHES "OK: [0-9]+ checks")
  message(FATAL_ERROR "FAILED: the program did not say OK")
endif()

# No ISA flag reaches the project's own compile commands.
file(READ "${BINARY_DIR}/compile_commands.json" commands)
string(JSON count LENGTH "${commands}")
if(count EQUAL 0)
  message(FATAL_ERROR "FAILED: compile_commands.json lists no command")
endif()
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON command GET "${commands}" ${i} command)
  string(JSON file GET "${commands}" ${i} file)
  if(command MATCHES "(-march=|-mavx|-mfma|-msse4|-mtune=)[^ ]*")
    message(FATAL_ERROR "FAILED: '${CMAKE_MATCH_0}' in the compile command "
      "of ${file}: skc's targets must keep ISA flags to themselves")
  endif()
endforeach()
message("OK: ${count} compile commands without ISA flags")

# OUTPUT_VARIABLE: every file it names exists, and Functions.h is one.
file(STRINGS "${BINARY_DIR}/generated-files.txt" generated)
if(NOT generated MATCHES "/downstream_ops/Functions\\.h")
  message(FATAL_ERROR "FAILED: OUTPUT_VARIABLE: ${generated}")
endif()
foreach(path IN LISTS generated)
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "FAILED: OUTPUT_VARIABLE names ${path}, which skc "
      "did not write")
  endif()
endforeach()

# SARIF_OUTPUT: a SARIF log, without results for this clean project.
file(READ "${BINARY_DIR}/downstream_ops.sarif" sarif)
string(JSON version GET "${sarif}" version)
string(JSON results LENGTH "${sarif}" runs 0 results)
if(NOT version STREQUAL "2.1.0" OR NOT results EQUAL 0)
  message(FATAL_ERROR "FAILED: SARIF_OUTPUT: version ${version}, "
    "${results} results")
endif()
message("OK: the downstream project")
