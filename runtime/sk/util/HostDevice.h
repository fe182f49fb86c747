//===--- HostDevice.h - Functions for host and CUDA device code -*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// SK_HOST_DEVICE marks a function that CUDA kernels call too: `__host__
/// __device__` under nvcc (and Clang's CUDA mode), nothing in plain C++, so
/// that the same header compiles, and behaves the same on the host, either
/// way.
///
//===----------------------------------------------------------------------===//

#ifndef SK_UTIL_HOSTDEVICE_H
#define SK_UTIL_HOSTDEVICE_H

#if defined(__CUDACC__)
#define SK_HOST_DEVICE __host__ __device__
#else
#define SK_HOST_DEVICE
#endif

#endif // SK_UTIL_HOSTDEVICE_H
