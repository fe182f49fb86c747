//===--- CUDAGuard.cpp - The CUDA device guard ----------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDAGuard.h"
#include "sk/cuda/CUDAException.h"

namespace sk {
namespace cuda {

namespace {

class CUDAGuardImpl final : public impl::DeviceGuardImplInterface {
public:
  DeviceType type() const override { return DeviceType::CUDA; }

  Device exchangeDevice(Device D) const override {
    Device Old = getDevice();
    // cudaSetDevice is cheap but not free; skip it when nothing changes.
    if (Old.index() != D.index())
      setDevice(D);
    return Old;
  }

  Device getDevice() const override {
    return Device(DeviceType::CUDA, current_device());
  }

  void setDevice(Device D) const override {
    SK_INTERNAL_ASSERT(D.is_cuda(), "CUDA guard asked for '", D, "'");
    if (D.has_index())
      set_device(D.index());
  }

  void synchronizeDevice(Device D) const override {
    SK_INTERNAL_ASSERT(D.is_cuda(), "CUDA guard asked for '", D, "'");
    CUDAGuard Guard(D);
    device_synchronize();
  }
};

} // namespace

const impl::DeviceGuardImplInterface &getCUDAGuardImpl() {
  static const CUDAGuardImpl Impl;
  return Impl;
}

} // namespace cuda
} // namespace sk
