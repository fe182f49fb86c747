//===--- CUDAStream.h - CUDA streams and the current stream -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A CUDAStream names a cudaStream_t and the device it belongs to
/// (c10::cuda::CUDAStream, without its packing). Kernels launch on
/// getCurrentCUDAStream(); the runtime's copies and fills do too.
///
/// Note [Current CUDA stream]
/// Each thread has one current stream per device, initially that device's
/// default stream: the legacy default stream (a null cudaStream_t), which
/// synchronizes with every other blocking stream of the device, as in
/// PyTorch. setCurrentCUDAStream changes it for the calling thread only;
/// CUDAStreamGuard does so for a scope. getStreamFromPool hands out
/// non-blocking streams from a small per-device pool, created on first use
/// and never destroyed (the pool lives as long as the process, so a
/// stream's handle stays valid in every thread that holds it).
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDASTREAM_H
#define SK_CUDA_CUDASTREAM_H

#include "sk/cuda/CUDAFunctions.h"

#include <cuda_runtime_api.h>

#include <ostream>

namespace sk {
namespace cuda {

/// A stream of one CUDA device. Cheap to copy; does not own the stream.
class CUDAStream {
public:
  CUDAStream(DeviceIndex Index, cudaStream_t Stream)
      : Index(Index), Stream(Stream) {}

  DeviceIndex device_index() const { return Index; }
  Device device() const { return Device(DeviceType::CUDA, Index); }
  cudaStream_t stream() const { return Stream; }
  operator cudaStream_t() const { return Stream; }
  /// Whether this is its device's default (null) stream.
  bool is_default() const { return Stream == nullptr; }

  /// Whether all work queued on the stream has completed.
  bool query() const;
  /// Waits until all work queued on the stream has completed, then throws
  /// the first failed check of its kernels (Note [Device checks]).
  void synchronize() const;

  bool operator==(const CUDAStream &O) const {
    return Index == O.Index && Stream == O.Stream;
  }
  bool operator!=(const CUDAStream &O) const { return !(*this == O); }

private:
  DeviceIndex Index;
  cudaStream_t Stream;
};

std::ostream &operator<<(std::ostream &OS, const CUDAStream &S);

/// The default stream of device \p Index (-1: the current device).
CUDAStream getDefaultCUDAStream(DeviceIndex Index = -1);
/// The calling thread's current stream on device \p Index (-1: the current
/// device). Note [Current CUDA stream].
CUDAStream getCurrentCUDAStream(DeviceIndex Index = -1);
/// Makes \p S the calling thread's current stream of its device.
void setCurrentCUDAStream(CUDAStream S);
/// A non-blocking stream of device \p Index (-1: the current device) from
/// its pool, round-robin.
CUDAStream getStreamFromPool(DeviceIndex Index = -1);

/// Makes a stream, and its device, current for a scope; restores both on
/// exit (c10::cuda::CUDAStreamGuard).
class CUDAStreamGuard {
public:
  explicit CUDAStreamGuard(CUDAStream S);
  CUDAStreamGuard(const CUDAStreamGuard &) = delete;
  CUDAStreamGuard &operator=(const CUDAStreamGuard &) = delete;
  ~CUDAStreamGuard();

  /// The stream that was current on the guarded device before.
  CUDAStream original_stream() const { return OriginalStream; }
  CUDAStream current_stream() const { return CurrentStream; }

private:
  DeviceIndex OriginalDevice;
  CUDAStream OriginalStream;
  CUDAStream CurrentStream;
};

} // namespace cuda
} // namespace sk

#endif // SK_CUDA_CUDASTREAM_H
