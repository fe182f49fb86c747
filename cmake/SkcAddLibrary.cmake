# skc_add_library(NAME
#   SRCS <sources...>
#   [DEPS <public link dependencies...>]
#   [PRIVATE_DEPS <private link dependencies...>])
#
# Declares skc::<NAME> (target skc<NAME>): a static library of the compiler
# whose public headers live in include/skc/<NAME>/. Modelled on absl_cc_library
# and add_clang_library: one call per library, dependencies spelled as targets.
function(skc_add_library name)
  cmake_parse_arguments(ARG "" "" "SRCS;DEPS;PRIVATE_DEPS" ${ARGN})
  set(target skc${name})
  add_library(${target} STATIC ${ARG_SRCS})
  add_library(skc::${name} ALIAS ${target})
  # runtime/: the schema vocabulary the compiler shares with the runtime
  # (sk/core/*.def, which include nothing); no runtime header beyond them.
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/runtime>)
  target_link_libraries(${target} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  # LLVM style: no exceptions in the compiler libraries. The one file that
  # talks to yaml-cpp turns them back on for itself.
  target_compile_options(${target} PRIVATE -fno-exceptions)
  skc_set_warnings(${target})
endfunction()

# Warning flags shared by every target of the project: -Wall -Wextra, clean
# under g++ 12 and clang 22.
function(skc_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra
    $<$<BOOL:${SKC_WERROR}>:-Werror>)
endfunction()
