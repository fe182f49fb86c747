# OpenBLAS for the kernel library's matrix products, preferring Debian's
# OpenMP build (libopenblas-openmp-dev) where it is installed: it runs on
# the runtime's OpenMP threads, so the two share one thread pool (Note [One
# thread pool] in kernels/cpu/LinearAlgebra.cpp). The pthreads build keeps
# a pool of its own whose threads spin after each call, taking the cores
# that the runtime's next parallel loop needs.
#
# Debian installs both builds in directories of their own and points
# /usr/lib's libopenblas.so at one through update-alternatives, the
# pthreads one first. Linking the OpenMP build by its full path makes CMake
# give programs a run path to its directory, so they load it whatever the
# alternative says.
#
# Used by skc's own build and by its installed package (skcConfig.cmake);
# BLA_VENDOR and CMAKE_LIBRARY_PATH are the caller's again afterwards.
macro(skc_find_openblas)
  set(_skc_saved_bla_vendor "${BLA_VENDOR}")
  set(_skc_saved_library_path "${CMAKE_LIBRARY_PATH}")
  set(BLA_VENDOR OpenBLAS)
  if(CMAKE_LIBRARY_ARCHITECTURE)
    list(PREPEND CMAKE_LIBRARY_PATH
      "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp")
  endif()
  find_package(BLAS ${ARGN})
  set(BLA_VENDOR "${_skc_saved_bla_vendor}")
  set(CMAKE_LIBRARY_PATH "${_skc_saved_library_path}")
endmacro()
