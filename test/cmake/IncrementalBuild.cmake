# What rebuilding a kernel library does (cmake -P; see CMakeLists.txt):
# nothing when nothing changed; after an edit of one kernel source or of a
# header it includes, skc's check of that source and of the library, that
# source's compile and the links, nothing else; skc's diagnostics of a
# source come out once, at the author's line; after an edit of the schema
# or of the key catalogue that changes no generated file, skc's steps
# alone; after one that changes a default, skc's steps, the generated files
# that hold it and what includes them, and the link; after one that adds a
# variant, skc's steps, the generated files it rewrote and what includes
# them, and the link. The program then prints what the edits changed.
# Builds a copy of test/cmake/incremental/ with GENERATOR.
#
# Arguments: SKC_PREFIX, SOURCE_DIR, BINARY_DIR, GENERATOR, MAKE_PROGRAM,
# CXX_COMPILER, BUILD_TYPE.

include("${CMAKE_CURRENT_LIST_DIR}/Common.cmake")

if(NOT MAKE_PROGRAM)
  skc_test_skip("no build program for the '${GENERATOR}' generator")
endif()

# The edits go to a copy of the project.
set(src "${BINARY_DIR}/src")
set(build "${BINARY_DIR}/build")
file(REMOVE_RECURSE "${BINARY_DIR}")
file(COPY "${SOURCE_DIR}/" DESTINATION "${src}")
skc_test_configure("${src}" "${build}" "${GENERATOR}"
  "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")

# skc_test_build(<out-var>): builds, and sets <out-var> to the sorted list
# of the steps that ran, as the build tool describes them.
function(skc_test_build out)
  skc_test_run(output "${CMAKE_COMMAND}" --build "${build}" --parallel 2)
  string(REPLACE "\n" ";" lines "${output}")
  set(steps)
  foreach(line IN LISTS lines)
    # Ninja: "[3/7] Building CXX object ..."; Make: "[ 42%] Building ...".
    if(line MATCHES "^\\[ *[0-9]+(/[0-9]+|%)\\] (.*)$")
      set(step "${CMAKE_MATCH_2}")
      if(NOT step MATCHES "^Built target ")
        list(APPEND steps "${step}")
      endif()
    endif()
  endforeach()
  list(SORT steps)
  set(${out} "${steps}" PARENT_SCOPE)
endfunction()

# skc_test_expect_steps(<what> <steps> <expected...>)
function(skc_test_expect_steps what steps)
  set(expected ${ARGN})
  list(SORT expected)
  if(NOT "${steps}" STREQUAL "${expected}")
    list(JOIN steps "\n  " ran)
    list(JOIN expected "\n  " wanted)
    message(FATAL_ERROR "FAILED: ${what}: the build ran\n  ${ran}\n"
      "but should have run only\n  ${wanted}")
  endif()
  message("OK: ${what}")
endfunction()

# skc's steps (docs/cmake.md): the schema's files, their precompiled
# header, each source's check, and the library's.
set(skc_headers "skc: generating incr_ops's headers from ops.yaml")
set(skc_pch "skc: precompiling incr_ops's headers (cxx)")
set(check_double "skc: checking kernels/Double.cpp")
set(check_relu "skc: checking kernels/Relu.cpp")
set(skc_library "skc: checking and generating incr_ops")
set(skc_steps "${skc_headers}" "${skc_pch}" "${check_double}"
  "${check_relu}" "${skc_library}")
set(compile_double
  "Building CXX object CMakeFiles/incr_ops.dir/kernels/Double.cpp.o")
set(archive "Linking CXX static library libincr_ops.a")
set(link "Linking CXX executable incr")

# File times tick coarsely (the kernel stamps files with a clock of a few
# milliseconds' resolution): an edit made right after a build can carry the
# very time of the build's outputs, and then looks old to Ninja and Make.
# Every edit below waits for the clock to move on first.
function(skc_test_wait_for_a_later_mtime)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
endfunction()

skc_test_build(steps)

skc_test_build(steps)
skc_test_expect_steps("a second build" "${steps}")
if(GENERATOR STREQUAL "Ninja")
  skc_test_run(output "${MAKE_PROGRAM}" -C "${build}" -n)
  if(NOT output MATCHES "no work to do")
    message(FATAL_ERROR "FAILED: 'ninja -n' has work to do after a build")
  endif()
endif()

skc_test_wait_for_a_later_mtime()
file(TOUCH "${src}/kernels/Double.cpp")
skc_test_build(steps)
skc_test_expect_steps("touching a kernel source" "${steps}"
  "${check_double}" "${skc_library}" "${compile_double}" "${archive}"
  "${link}")

skc_test_wait_for_a_later_mtime()
file(TOUCH "${src}/kernels/Factor.h")
skc_test_build(steps)
skc_test_expect_steps("touching a header a kernel source includes"
  "${steps}" "${check_double}" "${skc_library}" "${compile_double}"
  "${archive}" "${link}")

# An edit of that header that changes what the kernel computes.
skc_test_wait_for_a_later_mtime()
file(READ "${src}/kernels/Factor.h" factor)
string(REPLACE "kFactor = 2.0f" "kFactor = 3.0f" factor "${factor}")
file(WRITE "${src}/kernels/Factor.h" "${factor}")
skc_test_build(steps)
skc_test_expect_steps("editing a header a kernel source includes"
  "${steps}" "${check_double}" "${skc_library}" "${compile_double}"
  "${archive}" "${link}")

# A warning of skc's in a kernel source comes out once, from that source's
# check, at the author's line; the next build, which checks nothing, is
# silent.
skc_test_wait_for_a_later_mtime()
file(READ "${src}/kernels/Double.cpp" double)
string(REPLACE "SK_IMPL_FUNC(twice_out)(const Tensor &self,"
  "SK_IMPL_FUNC(twice_out)(const Tensor &input," renamed "${double}")
if(renamed STREQUAL double)
  message(FATAL_ERROR "FAILED: Double.cpp lacks twice_out's 'self'")
endif()
file(WRITE "${src}/kernels/Double.cpp" "${renamed}")
skc_test_run(output "${CMAKE_COMMAND}" --build "${build}" --parallel 2)
string(REGEX MATCHALL "Double\\.cpp:12:[0-9]+: warning: parameter 1 of 'twice_out' is named 'input'"
  warnings "${output}")
list(LENGTH warnings count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "FAILED: skc's warning came out ${count} times, "
    "not once at Double.cpp:12:\n${output}")
endif()
skc_test_run(output "${CMAKE_COMMAND}" --build "${build}" --parallel 2)
if(output MATCHES "warning: parameter")
  message(FATAL_ERROR "FAILED: a build with nothing to do repeated skc's "
    "warning:\n${output}")
endif()
message("OK: skc's warning came out once, at the author's line")
skc_test_wait_for_a_later_mtime()
file(WRITE "${src}/kernels/Double.cpp" "${double}")
skc_test_build(steps)
skc_test_expect_steps("undoing that edit" "${steps}"
  "${check_double}" "${skc_library}" "${compile_double}" "${archive}"
  "${link}")

# The key catalogue is an input of every skc step: an edit runs them again.
skc_test_wait_for_a_later_mtime()
file(APPEND "${src}/keys.yaml" "# a comment\n")
skc_test_build(steps)
skc_test_expect_steps("a key catalogue edit that changes no generated file"
  "${steps}" ${skc_steps})

# A comment changes no generated file: skc's steps run, rewrite nothing,
# and nothing is compiled again.
skc_test_wait_for_a_later_mtime()
file(APPEND "${src}/ops.yaml" "# a comment\n")
skc_test_build(steps)
skc_test_expect_steps("a schema edit that changes no generated file"
  "${steps}" ${skc_steps})

# A new default of shift's `by`: skc rewrites the files that spell the
# default (Functions.h and CPUFunctions.h, as C++ defaults; Operators.h and
# RegisterSchema.cpp, in the schema string), and what includes them is
# compiled again: main.cpp, Operators.cpp, the CPU and schema
# registrations. No kernel source is: a kernel takes every argument.
skc_test_wait_for_a_later_mtime()
file(READ "${src}/ops.yaml" ops)
string(REPLACE "float by=1)" "float by=10)" ops "${ops}")
file(WRITE "${src}/ops.yaml" "${ops}")
set(objects "CMakeFiles/incr_ops_skc_objects.dir/skc-generated/incr_ops")
skc_test_build(steps)
skc_test_expect_steps("a schema edit that changes a default" "${steps}"
  ${skc_steps}
  "Building CXX object ${objects}/Operators.cpp.o"
  "Building CXX object ${objects}/RegisterCPU.cpp.o"
  "Building CXX object ${objects}/RegisterSchema.cpp.o"
  "Building CXX object CMakeFiles/incr.dir/main.cpp.o"
  "${link}")

# A new variant of twice's group, and the program calling it: skc rewrites
# the API headers, Operators.cpp and the registrations of CPU, Meta and the
# schemas, which are compiled again, with main.cpp (it includes
# Functions.h). The kernel declarations do not change, so neither kernel
# source is compiled again nor the archive made again; nor do the composite
# registrations, which have no operator.
skc_test_wait_for_a_later_mtime()
file(APPEND "${src}/ops.yaml"
  "- func: twice_(Tensor(a!) self) -> Tensor(a!)\n"
  "  structured_delegate: twice.out\n")
file(READ "${src}/main.cpp" main)
set(marker "  // IncrementalBuild.cmake adds a call of twice_ here.\n")
if(NOT main MATCHES "${marker}")
  message(FATAL_ERROR "FAILED: main.cpp lacks the line '${marker}'")
endif()
string(REPLACE "${marker}"
  "  std::cout << \"twice_: \" << incr::twice_(X) << '\\n';\n" main "${main}")
file(WRITE "${src}/main.cpp" "${main}")
skc_test_build(steps)
skc_test_expect_steps("a schema edit that adds a variant" "${steps}"
  ${skc_steps}
  "Building CXX object ${objects}/Operators.cpp.o"
  "Building CXX object ${objects}/RegisterCPU.cpp.o"
  "Building CXX object ${objects}/RegisterMeta.cpp.o"
  "Building CXX object ${objects}/RegisterSchema.cpp.o"
  "Building CXX object CMakeFiles/incr.dir/main.cpp.o"
  "${link}")

skc_test_build(steps)
skc_test_expect_steps("a build after those" "${steps}")

skc_test_run(output "${build}/incr")
# kFactor is 3 and `by` 10 now.
foreach(expected "twice: tensor\\(\\[-6\\., -3\\.,  0\\.,  3\\.\\]\\)"
                 "clamp_min_zero: tensor\\(\\[0\\., 0\\., 0\\., 1\\.\\]\\)"
                 "shift: tensor\\(\\[ 8\\.,  9\\., 10\\., 11\\.\\]\\)"
                 "twice_: tensor\\(\\[-6\\., -3\\.,  0\\.,  3\\.\\]\\)")
  if(NOT output MATCHES "${expected}")
    message(FATAL_ERROR "FAILED: the program's output lacks '${expected}'")
  endif()
endforeach()
