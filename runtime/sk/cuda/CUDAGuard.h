//===--- CUDAGuard.h - The CUDA device guard --------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The DeviceGuardImplInterface of DeviceType::CUDA (cudaGetDevice /
/// cudaSetDevice), which makes sk::DeviceGuard switch GPUs, and CUDAGuard,
/// a DeviceGuard that takes a device index. The impl is registered at
/// static initialization (Note [CUDA registrations] in
/// CUDARegistration.cpp).
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDAGUARD_H
#define SK_CUDA_CUDAGUARD_H

#include "sk/core/DeviceGuard.h"
#include "sk/cuda/CUDAFunctions.h"

namespace sk {
namespace cuda {

/// The process's CUDA guard impl.
const impl::DeviceGuardImplInterface &getCUDAGuardImpl();

/// Makes cuda:\p Index current for a scope (c10::cuda::CUDAGuard).
class CUDAGuard : public DeviceGuard {
public:
  explicit CUDAGuard(DeviceIndex Index)
      : DeviceGuard(Device(DeviceType::CUDA, Index)) {}
  explicit CUDAGuard(Device D) : DeviceGuard(D) {}
};

} // namespace cuda
} // namespace sk

#endif // SK_CUDA_CUDAGUARD_H
