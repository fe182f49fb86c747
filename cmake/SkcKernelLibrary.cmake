# skc_add_kernel_library(<name>
#   SCHEMA <ops.yaml>
#   SOURCES <kernel sources...>
#   [CUDA_SOURCES <.cu sources...>]
#   [BACKENDS <CPU|CUDA|PrivateUse1|PrivateUse2|PrivateUse3>...]
#   [NAMESPACE <ns>] [CPP_NAMESPACE <ns>] [SHARDS <n>] [TAGS <tags.yaml>]
#   [DISPATCH_KEYS <keys.yaml>] [SKC_OPTIONS <flags...>]
#   [SARIF_OUTPUT <file>] [OUTPUT_VARIABLE <var>] [STATIC | SHARED])
#
# Runs skc over the schema and the kernel sources at build time and makes
# <name>, an ordinary library (static or shared as BUILD_SHARED_LIBS says,
# unless STATIC or SHARED is given) of the kernel sources and the generated
# C++ that links skc::runtime. docs/cmake.md has the details; in short:
#
# - skc writes into <build dir>/skc-generated/<name>/ a set of files fixed
#   by the options alone (see skc_kernel_library_outputs), rewriting only
#   those whose content changed. The generated directory and its parent
#   are PUBLIC include directories: "Functions.h" and "<name>/Functions.h"
#   both work.
# - The kernel sources are parsed with the flags they are compiled with: the
#   target exports its compile commands and skc reads them (-p).
# - skc runs as build steps, as a compiler and a linker do (Note [skc's
#   build steps] in docs/cmake.md): the files made from the schema alone;
#   a check of each kernel source, with its own depfile, writing a facts
#   file; and the library's step, which merges the facts, checks what needs
#   the whole library and writes the registrations. Each runs only when its
#   inputs changed, in parallel with the others and with the compiles. The
#   generated files are byproducts of a stamp, so that Ninja (restat) and
#   Make (no touch of unchanged outputs) rebuild only what skc rewrote.
# - Registrations are static initialisers that nothing references. For a
#   static <name>, the generated objects form <name>_skc_objects, which every
#   executable or shared library linking <name> gets as objects of its own
#   (INTERFACE_LINK_LIBRARIES_DIRECT), so the linker cannot drop them; a
#   shared <name> keeps them, like any object of a shared library.
# - The library's step writes its coverage report (skc --coverage-report)
#   to <build dir>/skc-generated/<name>.coverage.md; the target's
#   SKC_COVERAGE_REPORT property names it.
# - SKC_OPTIONS are more skc flags (-Werror, -Wno-<id>, ...); SARIF_OUTPUT
#   has skc also write its diagnostics there as SARIF (--sarif-output), a
#   run per step, and each source's check its own log beside its facts
#   file, on errors too; OUTPUT_VARIABLE receives the list of generated
#   files.
#
# Works in skc's own tree (skc::skc is an alias of the skc target) and from
# the installed package (skcConfig.cmake includes this file).

if(CMAKE_VERSION VERSION_LESS 3.24)
  message(FATAL_ERROR "skc_add_kernel_library needs CMake 3.24 or newer "
    "(INTERFACE_LINK_LIBRARIES_DIRECT); this is CMake ${CMAKE_VERSION}")
endif()
# include() and find_package() scope these; the function keeps the settings
# of its definition (CMP0116: DEPFILE paths as Ninja expects them).
cmake_policy(VERSION 3.24)

# Where the runtime's headers are, for skc's --runtime-include: set by the
# includer (the top-level CMakeLists.txt, or skcConfig.cmake).
if(NOT SKC_RUNTIME_INCLUDE_DIR)
  message(FATAL_ERROR "SkcKernelLibrary.cmake: set SKC_RUNTIME_INCLUDE_DIR "
    "(the directory holding sk/Kernel.h) before including it")
endif()
set_property(GLOBAL PROPERTY SKC_KERNEL_LIBRARY_RUNTIME_INCLUDE_DIR
  "${SKC_RUNTIME_INCLUDE_DIR}")

# skc_kernel_library_outputs(<out-var> OUTPUT_DIR <dir> BACKENDS <keys...>
#                            [SHARDS <n>] [OUTPUTS all|schema|library])
#
# Sets <out-var> to the files skc writes into <dir> for these options (the
# schema's content never changes the set): all of them, or those of
# skc --outputs=schema or --outputs=library. An installed skc is asked
# (skc --print-outputs), as PyTorch's build asks torchgen; in skc's own tree
# skc is built after configuration, so the list is derived here, and the
# skc-cmake-outputs test checks it against --print-outputs.
function(skc_kernel_library_outputs out)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR;SHARDS;OUTPUTS" "BACKENDS" ${ARGN})
  if(NOT ARG_SHARDS)
    set(ARG_SHARDS 1)
  endif()
  if(NOT ARG_OUTPUTS)
    set(ARG_OUTPUTS all)
  endif()
  set(skc_imported FALSE)
  if(TARGET skc::skc)
    get_target_property(skc_imported skc::skc IMPORTED)
  endif()
  if(skc_imported)
    get_target_property(skc_exe skc::skc LOCATION)
    list(JOIN ARG_BACKENDS "," backend_list)
    execute_process(
      COMMAND "${skc_exe}" --print-outputs -o "${ARG_OUTPUT_DIR}"
        "--backend=${backend_list}" "--shards=${ARG_SHARDS}"
        "--outputs=${ARG_OUTPUTS}"
      OUTPUT_VARIABLE files ERROR_VARIABLE error RESULT_VARIABLE result
      OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT result EQUAL 0)
      message(FATAL_ERROR "skc --print-outputs failed (${result}): ${error}")
    endif()
    string(REPLACE "\n" ";" files "${files}")
    # A new skc may write other files: configure again when it changes.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
      "${skc_exe}")
    set(${out} ${files} PARENT_SCOPE)
    return()
  endif()

  set(keys ${ARG_BACKENDS} Meta CompositeExplicitAutograd
    CompositeImplicitAutograd)
  list(REMOVE_DUPLICATES keys)
  set(files)
  set(sharded)
  if(NOT ARG_OUTPUTS STREQUAL "library")
    list(APPEND files NativeMetaFunctions.h NativeFunctions.h Operators.h
      Functions.h RegisterSchema.cpp)
    list(APPEND sharded Operators)
  endif()
  if(NOT ARG_OUTPUTS STREQUAL "schema")
    foreach(key IN LISTS keys)
      list(APPEND files ${key}Functions.h)
      list(APPEND sharded Register${key})
    endforeach()
  endif()
  foreach(stem IN LISTS sharded)
    if(ARG_SHARDS EQUAL 1)
      list(APPEND files ${stem}.cpp)
      continue()
    endif()
    math(EXPR last "${ARG_SHARDS} - 1")
    foreach(i RANGE ${last})
      list(APPEND files ${stem}_${i}.cpp)
    endforeach()
  endforeach()
  list(TRANSFORM files PREPEND "${ARG_OUTPUT_DIR}/")
  set(${out} ${files} PARENT_SCOPE)
endfunction()

# A JSON string literal of ${value}.
function(_skc_json_string out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  string(REPLACE "\n" "\\n" value "${value}")
  string(REPLACE "\t" "\\t" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()

# Writes ${CMAKE_BINARY_DIR}/skc-projects/<name>.json, the project file
# skc-lsp finds beside compile_commands.json (format: docs/editors.md).
function(_skc_write_project_file name)
  cmake_parse_arguments(ARG ""
    "SCHEMA;TAGS;DISPATCH_KEYS;NAMESPACE;CPP_NAMESPACE;SHARDS;GENERATED_DIR;RUNTIME_INCLUDE"
    "SOURCES;BACKENDS;SKC_OPTIONS" ${ARGN})
  set(json "{}")
  string(JSON json SET "${json}" version 1)
  foreach(pair name:name schema:ARG_SCHEMA tags:ARG_TAGS
      dispatchKeys:ARG_DISPATCH_KEYS namespace:ARG_NAMESPACE
      cppNamespace:ARG_CPP_NAMESPACE generatedDirectory:ARG_GENERATED_DIR
      runtimeInclude:ARG_RUNTIME_INCLUDE buildDirectory:CMAKE_BINARY_DIR)
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 key)
    list(GET pair 1 variable)
    if(NOT "${${variable}}" STREQUAL "")
      _skc_json_string(value "${${variable}}")
      string(JSON json SET "${json}" ${key} "${value}")
    endif()
  endforeach()
  string(JSON json SET "${json}" shards "${ARG_SHARDS}")
  foreach(pair sources:ARG_SOURCES backends:ARG_BACKENDS
      skcOptions:ARG_SKC_OPTIONS)
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 key)
    list(GET pair 1 variable)
    set(items)
    foreach(item IN LISTS ${variable})
      _skc_json_string(value "${item}")
      list(APPEND items "${value}")
    endforeach()
    list(JOIN items ", " items)
    string(JSON json SET "${json}" ${key} "[${items}]")
  endforeach()
  file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/skc-projects/${name}.json"
    CONTENT "${json}\n")
endfunction()

# Has every executable and shared library that links <name> also link
# <objects> as objects of its own (INTERFACE_LINK_LIBRARIES_DIRECT), in the
# build tree (BUILD_INTERFACE) or from the installed package
# (INSTALL_INTERFACE).
function(_skc_link_objects_directly name where objects)
  set(final_link "EXECUTABLE;SHARED_LIBRARY;MODULE_LIBRARY")
  set_property(TARGET ${name} APPEND PROPERTY INTERFACE_LINK_LIBRARIES_DIRECT
    "$<${where}:$<$<IN_LIST:$<TARGET_PROPERTY:TYPE>,${final_link}>:${objects}>>")
endfunction()

function(skc_add_kernel_library name)
  cmake_parse_arguments(ARG "STATIC;SHARED"
    "SCHEMA;NAMESPACE;CPP_NAMESPACE;SHARDS;TAGS;DISPATCH_KEYS;SARIF_OUTPUT;OUTPUT_VARIABLE"
    "SOURCES;CUDA_SOURCES;BACKENDS;SKC_OPTIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "skc_add_kernel_library(${name}): unknown arguments "
      "'${ARG_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT ARG_SCHEMA)
    message(FATAL_ERROR "skc_add_kernel_library(${name}): SCHEMA is required")
  endif()
  if(NOT ARG_SOURCES AND NOT ARG_CUDA_SOURCES)
    message(FATAL_ERROR "skc_add_kernel_library(${name}): give the kernel "
      "sources in SOURCES or CUDA_SOURCES")
  endif()
  if(ARG_STATIC AND ARG_SHARED)
    message(FATAL_ERROR "skc_add_kernel_library(${name}): STATIC or SHARED, "
      "not both")
  endif()
  if(NOT DEFINED ARG_SHARDS)
    set(ARG_SHARDS 1)
  endif()
  if(NOT ARG_SHARDS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "skc_add_kernel_library(${name}): SHARDS must be a "
      "positive integer, not '${ARG_SHARDS}'")
  endif()
  if(ARG_CUDA_SOURCES)
    get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT CUDA IN_LIST languages)
      message(FATAL_ERROR "skc_add_kernel_library(${name}): CUDA_SOURCES "
        "need the CUDA language: enable_language(CUDA) first")
    endif()
  endif()
  # skc reads the compile commands CMake writes; only these generators
  # write them.
  if(NOT CMAKE_GENERATOR MATCHES "^(Ninja|Unix Makefiles)$")
    message(FATAL_ERROR "skc_add_kernel_library(${name}): skc takes the "
      "kernel sources' flags from compile_commands.json, which the "
      "'${CMAKE_GENERATOR}' generator does not write; use Ninja or Unix "
      "Makefiles")
  endif()

  # The parsed sources, absolute, as the compile commands name them.
  set(cxx_sources)
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(path "${source}" ABSOLUTE)
    if(path MATCHES "\\.(cpp|cc|cxx|c\\+\\+|C)$")
      list(APPEND cxx_sources "${path}")
    endif()
  endforeach()
  set(cuda_sources)
  foreach(source IN LISTS ARG_CUDA_SOURCES)
    get_filename_component(path "${source}" ABSOLUTE)
    list(APPEND cuda_sources "${path}")
  endforeach()

  # Backends: skc's default (CPU for C++ sources, CUDA for .cu ones), always
  # spelled out so that the outputs below and skc agree.
  if(NOT ARG_BACKENDS)
    if(cxx_sources)
      list(APPEND ARG_BACKENDS CPU)
    endif()
    if(cuda_sources)
      list(APPEND ARG_BACKENDS CUDA)
    endif()
  endif()
  # The backends a project may build, read from the runtime's list of keys
  # (the selectable SK_BACKEND_KEYs), which skc reads too.
  get_property(runtime_include GLOBAL PROPERTY
    SKC_KERNEL_LIBRARY_RUNTIME_INCLUDE_DIR)
  file(STRINGS "${runtime_include}/sk/core/DispatchKeys.def" backend_keys
    REGEX "^SK_BACKEND_KEY\\([A-Za-z0-9]+, 1,")
  list(TRANSFORM backend_keys REPLACE "^SK_BACKEND_KEY\\(([A-Za-z0-9]+),.*"
    "\\1" OUTPUT_VARIABLE known_backends)
  foreach(backend IN LISTS ARG_BACKENDS)
    if(NOT backend IN_LIST known_backends)
      list(JOIN known_backends ", " known)
      message(FATAL_ERROR "skc_add_kernel_library(${name}): unknown backend "
        "'${backend}'; BACKENDS takes ${known}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES ARG_BACKENDS)
  list(JOIN ARG_BACKENDS "," backend_list)

  get_filename_component(schema "${ARG_SCHEMA}" ABSOLUTE)
  set(generated_root "${CMAKE_CURRENT_BINARY_DIR}/skc-generated")
  set(out_dir "${generated_root}/${name}")
  set(facts_dir "${generated_root}/${name}.facts")
  set(schema_stamp "${generated_root}/${name}.schema.stamp")
  set(stamp "${generated_root}/${name}.stamp")
  set(coverage_report "${generated_root}/${name}.coverage.md")
  skc_kernel_library_outputs(outputs OUTPUT_DIR "${out_dir}"
    BACKENDS ${ARG_BACKENDS} SHARDS ${ARG_SHARDS})
  skc_kernel_library_outputs(schema_outputs OUTPUT_DIR "${out_dir}"
    BACKENDS ${ARG_BACKENDS} SHARDS ${ARG_SHARDS} OUTPUTS schema)
  set(library_outputs ${outputs})
  list(REMOVE_ITEM library_outputs ${schema_outputs})
  set(generated_sources ${outputs})
  list(FILTER generated_sources INCLUDE REGEX "\\.cpp$")

  # What every step is given: the schema, its catalogues, the backends.
  set(options --schema "${schema}" "--backend=${backend_list}")
  set(depends "${schema}")
  set(tags)
  set(keys)
  if(ARG_TAGS)
    get_filename_component(tags "${ARG_TAGS}" ABSOLUTE)
    list(APPEND options --tags "${tags}")
    list(APPEND depends "${tags}")
  endif()
  if(ARG_DISPATCH_KEYS)
    get_filename_component(keys "${ARG_DISPATCH_KEYS}" ABSOLUTE)
    list(APPEND options --dispatch-keys "${keys}")
    list(APPEND depends "${keys}")
  endif()
  if(ARG_NAMESPACE)
    list(APPEND options "--namespace=${ARG_NAMESPACE}")
  endif()
  if(ARG_CPP_NAMESPACE)
    list(APPEND options "--cpp-namespace=${ARG_CPP_NAMESPACE}")
  endif()
  list(APPEND options "--runtime-include=${runtime_include}"
    ${ARG_SKC_OPTIONS})
  list(APPEND depends "$<TARGET_FILE:skc::skc>")
  set(sarif)
  if(ARG_SARIF_OUTPUT)
    get_filename_component(sarif "${ARG_SARIF_OUTPUT}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  if(ARG_OUTPUT_VARIABLE)
    set(${ARG_OUTPUT_VARIABLE} ${outputs} PARENT_SCOPE)
  endif()

  # The project file skc-lsp reads (docs/editors.md): what this rule gives
  # skc, so that an editor checks the library's files as the build does.
  _skc_write_project_file(${name}
    SCHEMA "${schema}" TAGS "${tags}" DISPATCH_KEYS "${keys}"
    SOURCES ${cxx_sources} ${cuda_sources} BACKENDS ${ARG_BACKENDS}
    NAMESPACE "${ARG_NAMESPACE}" CPP_NAMESPACE "${ARG_CPP_NAMESPACE}"
    SHARDS "${ARG_SHARDS}" GENERATED_DIR "${out_dir}"
    RUNTIME_INCLUDE "${runtime_include}" SKC_OPTIONS ${ARG_SKC_OPTIONS})

  # skc runs as a compiler and a linker do (Note [skc's build steps] in
  # docs/cmake.md). First, the files made from the schema alone: the
  # headers the kernel sources include. A stamp is the output and the
  # depfile's target; the files are byproducts, which Ninja restats and
  # Make never touches, so a run that rewrites nothing rebuilds nothing.
  # Its inputs are all in DEPENDS: a depfile would add nothing but the
  # time to rewrite it (CMake post-processes every depfile for Ninja).
  add_custom_command(
    OUTPUT "${schema_stamp}"
    BYPRODUCTS ${schema_outputs}
    COMMAND skc::skc ${options} -o "${out_dir}" --outputs=schema
      "--shards=${ARG_SHARDS}"
    COMMAND "${CMAKE_COMMAND}" -E touch "${schema_stamp}"
    DEPENDS ${depends}
    COMMENT "skc: generating ${name}'s headers from ${ARG_SCHEMA}"
    VERBATIM)
  add_custom_target(${name}_skc_headers DEPENDS "${schema_stamp}")

  # What every source's check parses first, the schema's NativeFunctions.h
  # and the runtime's headers it includes, parsed once per language into a
  # precompiled header, with the compile command of the first source of
  # that language; a check uses it when its own command has the same flags.
  foreach(language IN ITEMS cxx cuda)
    set(${language}_pch)
    if(NOT ${language}_sources)
      continue()
    endif()
    list(GET ${language}_sources 0 first)
    set(pch "${generated_root}/${name}.${language}.pch")
    add_custom_command(
      OUTPUT "${pch}"
      BYPRODUCTS "${pch}.flags"
      COMMAND skc::skc ${options} "--emit-pch=${pch}" "--depfile=${pch}.d"
        -p "${CMAKE_BINARY_DIR}" "${first}"
      DEPENDS ${depends}
      DEPFILE "${pch}.d"
      COMMENT "skc: precompiling ${name}'s headers (${language})"
      VERBATIM)
    set(${language}_pch "${pch}")
  endforeach()

  # Then each source, on its own, when it or what it includes changed:
  # its diagnostics, and a facts file of what it defines.
  set(facts_files)
  set(sarif_logs)
  foreach(path IN LISTS cxx_sources cuda_sources)
    set(pch "${cxx_pch}")
    if(path IN_LIST cuda_sources)
      set(pch "${cuda_pch}")
    endif()
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${path}")
    string(REPLACE "../" "__/" relative "${relative}")
    set(facts "${facts_dir}/${relative}.facts")
    set(check_sarif)
    set(check_sarif_byproduct)
    if(sarif)
      set(check_sarif "--sarif-output=${facts}.sarif")
      set(check_sarif_byproduct "${facts}.sarif")
      list(APPEND sarif_logs "--sarif-include=${facts}.sarif")
    endif()
    add_custom_command(
      OUTPUT "${facts}"
      BYPRODUCTS ${check_sarif_byproduct}
      COMMAND skc::skc ${options} "--facts=${facts}" "--depfile=${facts}.d"
        "--pch=${pch}" ${check_sarif} -p "${CMAKE_BINARY_DIR}" "${path}"
      DEPENDS ${depends} "${path}" "${pch}"
      DEPFILE "${facts}.d"
      COMMENT "skc: checking ${relative}"
      VERBATIM)
    list(APPEND facts_files "${facts}")
  endforeach()

  # Last, the library as a whole, from the facts: what no one source can
  # tell (a kernel no source defines, one defined twice), the
  # registrations and the coverage report. Its inputs are all in DEPENDS,
  # as the schema step's are: no depfile.
  set(merge_options --merge -o "${out_dir}" --outputs=library
    "--shards=${ARG_SHARDS}" "--coverage-report=${coverage_report}")
  set(byproducts ${library_outputs} "${coverage_report}")
  if(sarif)
    list(APPEND merge_options "--sarif-output=${sarif}" ${sarif_logs})
    list(APPEND byproducts "${sarif}")
  endif()
  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${byproducts}
    COMMAND skc::skc ${options} ${merge_options} ${facts_files}
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS ${depends} ${facts_files}
    COMMENT "skc: checking and generating ${name}"
    VERBATIM)
  # ${name}_skc is every step; each rule belongs to one target only (Make
  # would run a rule once per target that names its output).
  add_custom_target(${name}_skc DEPENDS "${stamp}")
  add_dependencies(${name}_skc ${name}_skc_headers)

  set(type)
  if(ARG_STATIC)
    set(type STATIC)
  elseif(ARG_SHARED)
    set(type SHARED)
  endif()
  add_library(${name} ${type} ${ARG_SOURCES} ${ARG_CUDA_SOURCES})
  # The kernel sources compile once the schema's headers are there, while
  # skc checks them.
  add_dependencies(${name} ${name}_skc_headers)
  set_target_properties(${name} PROPERTIES
    SKC_COVERAGE_REPORT "${coverage_report}" SKC_BACKENDS "${backend_list}"
    SKC_GENERATED_FILES "${outputs}")
  target_include_directories(${name} PUBLIC
    "$<BUILD_INTERFACE:${out_dir}>" "$<BUILD_INTERFACE:${generated_root}>")
  target_link_libraries(${name} PUBLIC skc::runtime)
  # skc parses the kernel sources with their own compile commands.
  set_target_properties(${name} PROPERTIES EXPORT_COMPILE_COMMANDS ON)

  get_target_property(library_type ${name} TYPE)
  get_target_property(runtime_type skc::runtime TYPE)
  if(library_type STREQUAL "SHARED_LIBRARY")
    if(runtime_type STREQUAL "STATIC_LIBRARY")
      message(FATAL_ERROR "skc_add_kernel_library(${name}): a shared kernel "
        "library needs a shared skc::runtime (build skc with "
        "-DBUILD_SHARED_LIBS=ON): with a static one, the library and the "
        "program would each hold a dispatcher of their own")
    endif()
    # Its own sources include the registrations, which the check of the
    # whole library writes.
    add_dependencies(${name} ${name}_skc)
    target_sources(${name} PRIVATE ${generated_sources})
    return()
  endif()

  # Static: Note [Static registration] in docs/cmake.md. The objects go into
  # every executable and shared library that links ${name}, directly or not,
  # and never into another static library.
  add_library(${name}_skc_objects OBJECT ${generated_sources})
  add_dependencies(${name}_skc_objects ${name}_skc)
  target_include_directories(${name}_skc_objects PRIVATE "${out_dir}")
  target_link_libraries(${name}_skc_objects PRIVATE skc::runtime)
  # (Installed, the library names its objects by their exported name:
  # skc_install_kernel_library.)
  _skc_link_objects_directly(${name} BUILD_INTERFACE ${name}_skc_objects)
endfunction()

# skc_install_kernel_library(<name> EXPORT <export-set> [NAMESPACE <ns>::]
#                            [INCLUDE_DESTINATION <dir>])
#
# Installs <name>, made by skc_add_kernel_library, into <export-set>: the
# library, its generated headers (into <dir>/<name>/; <dir> defaults to
# CMAKE_INSTALL_INCLUDEDIR) and, for a static library, its registration
# objects (<name>_skc_objects), which the exported <name> hands to every
# executable and shared library linking it, as in the build tree. Install
# the export set with install(EXPORT) as usual, with the same NAMESPACE;
# skc installs its own kernel library, skc::kernels, this way.
function(skc_install_kernel_library name)
  cmake_parse_arguments(ARG "" "EXPORT;NAMESPACE;INCLUDE_DESTINATION" ""
    ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_EXPORT)
    message(FATAL_ERROR "skc_install_kernel_library(${name} EXPORT "
      "<export-set> [NAMESPACE <ns>::] [INCLUDE_DESTINATION <dir>])")
  endif()
  get_target_property(files ${name} SKC_GENERATED_FILES)
  if(NOT files)
    message(FATAL_ERROR "skc_install_kernel_library(${name}): ${name} was "
      "not made by skc_add_kernel_library")
  endif()
  include(GNUInstallDirs)
  if(NOT ARG_INCLUDE_DESTINATION)
    set(ARG_INCLUDE_DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
  endif()
  list(FILTER files INCLUDE REGEX "\\.h$")
  install(FILES ${files} DESTINATION "${ARG_INCLUDE_DESTINATION}/${name}")
  # "Functions.h" and "<name>/Functions.h", as in the build tree.
  target_include_directories(${name} PUBLIC
    "$<INSTALL_INTERFACE:${ARG_INCLUDE_DESTINATION}/${name}>"
    "$<INSTALL_INTERFACE:${ARG_INCLUDE_DESTINATION}>")
  set(targets ${name})
  if(TARGET ${name}_skc_objects)
    list(APPEND targets ${name}_skc_objects)
    get_target_property(objects ${name}_skc_objects EXPORT_NAME)
    if(NOT objects)
      set(objects ${name}_skc_objects)
    endif()
    _skc_link_objects_directly(${name} INSTALL_INTERFACE
      "${ARG_NAMESPACE}${objects}")
  endif()
  install(TARGETS ${targets} EXPORT ${ARG_EXPORT}
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
    OBJECTS DESTINATION "${CMAKE_INSTALL_LIBDIR}/${name}-objects")
endfunction()

# skc_add_meta_tests(<name> LIBRARY <kernel library> SCHEMA <ops.yaml>
#                    [NAMESPACE <ns>] [TAGS <tags.yaml>])
#
# A GoogleTest executable <name> with one test per functional operator of
# the schema that has a Meta kernel: skc --emit-meta-tests writes it, and
# each test runs the operator on CPU and on Meta over samples made from its
# schema and compares sizes, strides and dtypes
# (sk/testing/MetaConsistency.h); the library's other device backends
# (CUDA) get the same tests, which skip in a process without the device.
# Register it with gtest_discover_tests.
function(skc_add_meta_tests name)
  cmake_parse_arguments(ARG "" "LIBRARY;SCHEMA;NAMESPACE;TAGS" "" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_LIBRARY OR NOT ARG_SCHEMA)
    message(FATAL_ERROR "skc_add_meta_tests(${name} LIBRARY <target> "
      "SCHEMA <ops.yaml> [NAMESPACE <ns>] [TAGS <tags.yaml>])")
  endif()
  find_package(GTest REQUIRED)
  get_filename_component(schema "${ARG_SCHEMA}" ABSOLUTE)
  set(source "${CMAKE_CURRENT_BINARY_DIR}/skc-generated/${name}.cpp")
  set(options --schema "${schema}" --emit-meta-tests "${source}"
    "--backend=$<TARGET_PROPERTY:${ARG_LIBRARY},SKC_BACKENDS>")
  set(depends "${schema}")
  set(tags)
  set(keys)
  if(ARG_TAGS)
    get_filename_component(tags "${ARG_TAGS}" ABSOLUTE)
    list(APPEND options --tags "${tags}")
    list(APPEND depends "${tags}")
  else()
    # skc reads the tags.yaml beside the schema when there is one.
    get_filename_component(schema_dir "${schema}" DIRECTORY)
    if(EXISTS "${schema_dir}/tags.yaml")
      list(APPEND depends "${schema_dir}/tags.yaml")
    endif()
  endif()
  if(ARG_NAMESPACE)
    list(APPEND options "--namespace=${ARG_NAMESPACE}")
  endif()
  # As for the library: a stamp is the output and the source a byproduct
  # that skc rewrites only when it changes, so a schema edit that changes
  # no test recompiles nothing.
  set(stamp "${source}.stamp")
  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS "${source}"
    COMMAND skc::skc ${options}
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS ${depends} "$<TARGET_FILE:skc::skc>"
    COMMENT "skc: meta-consistency tests of ${ARG_LIBRARY}"
    VERBATIM)
  add_custom_target(${name}_skc DEPENDS "${stamp}")
  add_executable(${name} "${source}")
  add_dependencies(${name} ${name}_skc)
  target_link_libraries(${name} PRIVATE ${ARG_LIBRARY} skc::runtime_testing
    GTest::gtest_main)
endfunction()
