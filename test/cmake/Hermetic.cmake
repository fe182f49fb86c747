# skc's build steps are hermetic (docs/cmake.md, Note [skc's build steps]):
# two build directories of one source tree, one made by Ninja and one,
# deeper, by Unix Makefiles, get the same generated files, facts files and
# coverage report, byte for byte. Builds the skc target of
# test/cmake/incremental/ in both.
#
# Arguments: SKC_PREFIX, SOURCE_DIR, BINARY_DIR, NINJA_PROGRAM, MAKE_PROGRAM,
# CXX_COMPILER, BUILD_TYPE.

include("${CMAKE_CURRENT_LIST_DIR}/Common.cmake")

if(NOT NINJA_PROGRAM OR NOT MAKE_PROGRAM)
  skc_test_skip("needs both Ninja and make")
endif()

file(REMOVE_RECURSE "${BINARY_DIR}")
set(ninja_build "${BINARY_DIR}/ninja")
set(make_build "${BINARY_DIR}/a/deeper/make")
skc_test_configure("${SOURCE_DIR}" "${ninja_build}" Ninja
  "-DCMAKE_MAKE_PROGRAM=${NINJA_PROGRAM}")
skc_test_configure("${SOURCE_DIR}" "${make_build}" "Unix Makefiles"
  "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
foreach(build IN ITEMS "${ninja_build}" "${make_build}")
  skc_test_run(output "${CMAKE_COMMAND}" --build "${build}"
    --target incr_ops_skc --parallel 2)
endforeach()

set(generated "skc-generated")
file(GLOB_RECURSE files RELATIVE "${ninja_build}/${generated}"
  "${ninja_build}/${generated}/incr_ops/*"
  "${ninja_build}/${generated}/incr_ops.facts/*.facts"
  "${ninja_build}/${generated}/incr_ops.coverage.md")
list(FILTER files INCLUDE REGEX "\\.(h|cpp|facts|md)$")
list(LENGTH files count)
# The schema's and the library's files of CPU, and both sources' facts.
if(count LESS 10)
  message(FATAL_ERROR "FAILED: only ${count} files to compare: ${files}")
endif()
foreach(file IN LISTS files)
  file(SHA256 "${ninja_build}/${generated}/${file}" ninja_hash)
  if(NOT EXISTS "${make_build}/${generated}/${file}")
    message(FATAL_ERROR "FAILED: ${file} is missing from the Make build")
  endif()
  file(SHA256 "${make_build}/${generated}/${file}" make_hash)
  if(NOT ninja_hash STREQUAL make_hash)
    message(FATAL_ERROR "FAILED: ${file} differs between the two build "
      "directories")
  endif()
endforeach()
message("OK: ${count} files the same in both build directories")
