# install() rules and the CMake package: `find_package(skc CONFIG REQUIRED)`.
#
# Two export sets, both under the skc:: namespace:
#   skcTargets         skc::skc (the compiler) and skc::runtime: all a kernel
#                      library needs, with OpenMP, Highway and DLPack's
#                      header as its only dependencies;
#   skcCUDATargets     skc::runtime_cuda, the runtime's CUDA backend (with
#                      its registration object), when skc was built with
#                      SKC_ENABLE_CUDA; it needs the CUDA toolkit, so the
#                      package loads it only where find_package(CUDAToolkit)
#                      succeeds (COMPONENTS CUDA makes that required);
#   skcSerializeTargets skc::serialize, checkpoints (safetensors), which
#                      needs simdjson, so the package loads it only where
#                      find_package(simdjson) succeeds (COMPONENTS Serialize
#                      makes that required);
#   skcLibraryTargets  the compiler's own libraries (skc::Basic, Parse, Sema,
#                      Emit, and skc::LLVM), loaded only for
#                      `find_package(skc CONFIG REQUIRED COMPONENTS
#                      Libraries)`, since they bring LLVM, Clang and yaml-cpp.
# docs/cmake.md describes the package.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SKC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/skc" CACHE STRING
  "Where skcConfig.cmake is installed, relative to the prefix")

# The names the package gives the targets: skc::runtime, skc::Basic, ...
set_target_properties(skc_schema PROPERTIES EXPORT_NAME schema)
set_target_properties(skc_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(skc_runtime_testing PROPERTIES
  EXPORT_NAME runtime_testing)
set_target_properties(skc_llvm PROPERTIES EXPORT_NAME LLVM)
foreach(lib Basic Parse Frontend Sema Emit)
  set_target_properties(skc${lib} PROPERTIES EXPORT_NAME ${lib})
endforeach()
# The installed skc finds libLLVM and libclang-cpp where it was linked
# against them.
set_target_properties(skc skc-lsp PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS skc EXPORT skcTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
# The language server beside skc, and the diagnostics reference its
# diagnostics link to (<prefix>/share/doc/skc/diagnostics.md).
install(TARGETS skc-lsp RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES docs/diagnostics.md DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(TARGETS skc_schema skc_runtime skc_runtime_testing EXPORT skcTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
set_target_properties(skc_serialize PROPERTIES EXPORT_NAME serialize)
install(TARGETS skc_serialize EXPORT skcSerializeTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(EXPORT skcSerializeTargets NAMESPACE skc::
  DESTINATION "${SKC_INSTALL_CMAKEDIR}")
install(DIRECTORY runtime/sk DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def")

if(SKC_ENABLE_CUDA)
  set_target_properties(skc_runtime_cuda PROPERTIES EXPORT_NAME runtime_cuda)
  set(skc_cuda_install_targets skc_runtime_cuda)
  if(TARGET skc_runtime_cuda_registration)
    # The registration object (Note [CUDA registrations] in
    # runtime/sk/cuda/CUDARegistration.cpp) is installed as an object file:
    # programs of the installed package link it as their own, too.
    set_target_properties(skc_runtime_cuda_registration PROPERTIES
      EXPORT_NAME runtime_cuda_registration)
    list(APPEND skc_cuda_install_targets skc_runtime_cuda_registration)
  endif()
  install(TARGETS ${skc_cuda_install_targets} EXPORT skcCUDATargets
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
    OBJECTS DESTINATION "${CMAKE_INSTALL_LIBDIR}/skc-objects"
    INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
  install(EXPORT skcCUDATargets NAMESPACE skc::
    DESTINATION "${SKC_INSTALL_CMAKEDIR}")
endif()

install(TARGETS skcBasic skcParse skcFrontend skcSema skcEmit skc_llvm
  EXPORT skcLibraryTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY include/skc DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def")
install(FILES "${PROJECT_BINARY_DIR}/include/skc/Config.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/skc")

install(EXPORT skcTargets NAMESPACE skc::
  DESTINATION "${SKC_INSTALL_CMAKEDIR}")
install(EXPORT skcLibraryTargets NAMESPACE skc::
  DESTINATION "${SKC_INSTALL_CMAKEDIR}")
# skc::kernels (kernels/CMakeLists.txt), apart: with CUDA it needs
# skc::runtime_cuda.
install(EXPORT skcKernelsTargets NAMESPACE skc::
  DESTINATION "${SKC_INSTALL_CMAKEDIR}")
configure_package_config_file(cmake/skcConfig.cmake.in
  "${PROJECT_BINARY_DIR}/cmake/skcConfig.cmake"
  INSTALL_DESTINATION "${SKC_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
# 0.x: a new minor version may break the generated code's contract.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/cmake/skcConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES
    "${PROJECT_BINARY_DIR}/cmake/skcConfig.cmake"
    "${PROJECT_BINARY_DIR}/cmake/skcConfigVersion.cmake"
    cmake/SkcKernelLibrary.cmake
    cmake/SkcOpenBLAS.cmake
  DESTINATION "${SKC_INSTALL_CMAKEDIR}")

# The license and what changed, where a distribution looks for them.
install(FILES LICENSE CHANGELOG.md DESTINATION "${CMAKE_INSTALL_DOCDIR}")
