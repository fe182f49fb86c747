//===--- CUDAFunctions.cpp - Devices of the CUDA backend ------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDAFunctions.h"
#include "sk/cuda/CUDAException.h"
#include "sk/cuda/DeviceChecks.h"

#include <algorithm>

namespace sk {

int cuda::device_count() noexcept {
  static const int Count = [] {
    int N = 0;
    // cudaErrorNoDevice, cudaErrorInsufficientDriver and friends all mean
    // "no usable GPU here"; the error is cleared so that it does not show
    // up in the next check.
    if (cudaGetDeviceCount(&N) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    return std::min(N, kMaxCUDADevices);
  }();
  return Count;
}

cuda::DeviceIndex cuda::current_device() {
  int D = 0;
  SK_CUDA_CHECK(cudaGetDevice(&D));
  return static_cast<DeviceIndex>(D);
}

void cuda::set_device(DeviceIndex D) { SK_CUDA_CHECK(cudaSetDevice(D)); }

void cuda::device_synchronize() {
  SK_CUDA_CHECK(cudaDeviceSynchronize());
  reportDeviceChecks(current_device());
}

Device cuda::resolveDevice(Device D) {
  SK_INTERNAL_ASSERT(D.is_cuda(), "not a CUDA device: ", D);
  int Count = device_count();
  SK_CHECK(Count > 0, "CUDA: no CUDA device is available (asked for '", D,
           "')");
  if (!D.has_index())
    return Device(DeviceType::CUDA, current_device());
  SK_CHECK(D.index() < Count, "CUDA: invalid device '", D, "': there ",
           Count == 1 ? "is " : "are ", Count, " CUDA device",
           Count == 1 ? "" : "s");
  return D;
}

} // namespace sk
