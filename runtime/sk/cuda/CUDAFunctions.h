//===--- CUDAFunctions.h - Devices of the CUDA backend ----------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How many GPUs there are and which one is current (c10/cuda/
/// CUDAFunctions.h). device_count() is the one query that never throws: a
/// machine without a driver or without a GPU has zero devices, which is
/// what tests check before they skip.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDAFUNCTIONS_H
#define SK_CUDA_CUDAFUNCTIONS_H

#include "sk/core/Device.h"

#include <cstdint>

namespace sk {
namespace cuda {

using DeviceIndex = int8_t;

/// The most devices the backend serves (its per-device tables).
constexpr int kMaxCUDADevices = 64;

/// The number of usable CUDA devices; 0, without throwing, when there is no
/// driver, no GPU or the runtime cannot start. Queried once per process.
int device_count() noexcept;

/// Whether a CUDA device is usable (device_count() > 0).
inline bool is_available() noexcept { return device_count() > 0; }

/// The calling thread's current device (cudaGetDevice).
DeviceIndex current_device();
/// Makes \p D the calling thread's current device (cudaSetDevice).
void set_device(DeviceIndex D);
/// Waits for all work on the current device (cudaDeviceSynchronize), then
/// throws the first failed check of its kernels (Note [Device checks] in
/// sk/cuda/DeviceChecks.h).
void device_synchronize();

/// \p D with its index filled in: the current device when it has none.
/// Throws sk::Error for an index at or past device_count().
Device resolveDevice(Device D);

} // namespace cuda
} // namespace sk

#endif // SK_CUDA_CUDAFUNCTIONS_H
