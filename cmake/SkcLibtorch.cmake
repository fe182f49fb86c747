# libtorch 2.x, the C++ library inside PyPI's `torch` wheel, as the
# reference of the kernel benchmarks and of the differential test: target
# skc_libtorch, when SKC_LIBTORCH_DIR holds the wheel's torch/include and
# torch/lib (utils/fetch-libtorch.sh puts them at the default place).
#
# ATen 2.x needs C++20 and the C++11 ABI: a translation unit that includes
# its headers goes into a target of its own with skc_use_libtorch(), which
# sets both; the rest of skc stays C++17. libtorch_cpu.so needs the CUDA
# toolkit's libcudart.so.13 and libcupti.so.13 at run time.

set(SKC_LIBTORCH_VERSION 2.15.0)
set(SKC_LIBTORCH_DIR "$ENV{HOME}/.cache/skc/libtorch-${SKC_LIBTORCH_VERSION}"
  CACHE PATH "libtorch from PyPI's torch wheel (utils/fetch-libtorch.sh)")

set(SKC_HAVE_LIBTORCH OFF)
if(EXISTS "${SKC_LIBTORCH_DIR}/lib/libtorch_cpu.so" AND
   EXISTS "${SKC_LIBTORCH_DIR}/include/ATen/ATen.h")
  set(SKC_HAVE_LIBTORCH ON)
  add_library(skc_libtorch INTERFACE)
  target_include_directories(skc_libtorch SYSTEM INTERFACE
    "${SKC_LIBTORCH_DIR}/include")
  target_link_libraries(skc_libtorch INTERFACE
    "${SKC_LIBTORCH_DIR}/lib/libtorch_cpu.so"
    "${SKC_LIBTORCH_DIR}/lib/libc10.so")
  target_compile_definitions(skc_libtorch INTERFACE _GLIBCXX_USE_CXX11_ABI=1)
  # The toolkit's libcudart.so.13 and libcupti.so.13, which the loader's
  # default path may lack.
  set(_skc_libtorch_rpath "${SKC_LIBTORCH_DIR}/lib")
  foreach(dir IN ITEMS "${CUDAToolkit_LIBRARY_DIR}" /usr/local/cuda/lib64
                       /usr/local/cuda/lib
                       /usr/local/cuda/extras/CUPTI/lib64)
    if(dir AND EXISTS "${dir}")
      list(APPEND _skc_libtorch_rpath "${dir}")
    endif()
  endforeach()
  target_link_options(skc_libtorch INTERFACE
    "LINKER:-rpath,$<JOIN:${_skc_libtorch_rpath},:>")
  message(STATUS "skc: libtorch ${SKC_LIBTORCH_VERSION} in "
    "${SKC_LIBTORCH_DIR}; the differential test and the kernel benchmarks "
    "compare against it")
else()
  message(STATUS "skc: libtorch not found in ${SKC_LIBTORCH_DIR}; the "
    "differential test skips and the kernel benchmarks run without their "
    "libtorch reference (utils/fetch-libtorch.sh)")
endif()

# Builds \p target's sources against libtorch: C++20, the C++11 ABI.
function(skc_use_libtorch target)
  set_target_properties(${target} PROPERTIES CXX_STANDARD 20
    CXX_STANDARD_REQUIRED ON)
  target_link_libraries(${target} PRIVATE skc_libtorch)
endfunction()
