//===--- CUDACachingAllocator.h - Caching allocator for GPUs ----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Allocator of DeviceType::CUDA: device memory from cudaMalloc, kept
/// after it is freed and handed out again, so that a steady-state program
/// stops calling cudaMalloc and cudaFree (which synchronize the device).
/// The policy is Note [CUDA caching allocator policy] in
/// CUDACachingAllocator.cpp; in short, as c10's allocator but without
/// splitting blocks:
///
///  - sizes round up to 512 bytes (small requests, at most 1 MiB) or to
///    2 MiB (large ones); a block serves requests of its own rounded size
///    (small) or of at least half its size (large);
///  - a block belongs to the stream that was current when it was allocated
///    and is reused only for that stream; a block also used on other
///    streams (recordStream) is reused only once events recorded on those
///    streams at its free have completed;
///  - when cudaMalloc runs out of memory, the cache is released and the
///    allocation tried once more.
///
/// Kernels that need scratch memory (CUB's temp storage, cuBLAS
/// workspaces) allocate it here with allocateTempStorage: it comes from the
/// cache and goes back to it, stream-ordered, when the DataPtr dies.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDACACHINGALLOCATOR_H
#define SK_CUDA_CUDACACHINGALLOCATOR_H

#include "sk/core/Allocator.h"
#include "sk/core/Storage.h"
#include "sk/core/Tensor.h"
#include "sk/cuda/CUDAStream.h"

#include <cstddef>
#include <cstdint>

namespace sk {
namespace cuda {
namespace CUDACachingAllocator {

/// Requests up to this many bytes are small: rounded to kMinBlockSize.
constexpr size_t kSmallSize = size_t(1) << 20;
/// The granularity of small blocks.
constexpr size_t kMinBlockSize = 512;
/// The granularity of large blocks.
constexpr size_t kLargeRoundSize = size_t(2) << 20;

/// The size of the block that serves a request of \p NBytes (> 0).
constexpr size_t roundSize(size_t NBytes) {
  if (NBytes <= kSmallSize)
    return NBytes < kMinBlockSize
               ? kMinBlockSize
               : (NBytes + kMinBlockSize - 1) / kMinBlockSize * kMinBlockSize;
  return (NBytes + kLargeRoundSize - 1) / kLargeRoundSize * kLargeRoundSize;
}

/// Whether a cached block of \p BlockSize bytes may serve a request whose
/// rounded size is \p Rounded: the same size for small blocks, at most
/// twice the size for large ones (the rest of the block is wasted while it
/// is in use, so no more than half).
constexpr bool blockFits(size_t BlockSize, size_t Rounded) {
  if (Rounded <= kSmallSize)
    return BlockSize == Rounded;
  return BlockSize > kSmallSize && BlockSize >= Rounded &&
         BlockSize / 2 <= Rounded;
}

/// Byte counts of one device, for tests and diagnostics.
struct DeviceStats {
  /// Bytes in blocks handed out and not yet freed (rounded sizes).
  uint64_t AllocatedBytes = 0;
  /// Bytes obtained from cudaMalloc and not yet returned with cudaFree.
  uint64_t ReservedBytes = 0;
  /// Bytes of freed blocks waiting for events of other streams.
  uint64_t PendingFreeBytes = 0;
  uint64_t NumCudaMallocs = 0;
  uint64_t NumCudaFrees = 0;
  /// How often an out-of-memory cudaMalloc released the cache and retried.
  uint64_t NumOOMRetries = 0;
};

/// The allocator registered for DeviceType::CUDA. Allocates on the current
/// device, for its current stream.
Allocator *get();

/// Marks the block behind \p Ptr as used on \p S: when it is freed, it is
/// reused only after the work queued on \p S by then has completed. A
/// no-op for the block's own stream and for null pointers.
void recordStream(const DataPtr &Ptr, CUDAStream S);
/// recordStream for the memory of \p Storage.
void recordStream(const Storage &Storage, CUDAStream S);
/// recordStream for the storage of \p T, a CUDA tensor (Tensor.record_stream
/// in PyTorch).
void recordStream(const Tensor &T, CUDAStream S);

/// Returns every cached block that is not in use to the driver (cudaFree),
/// after waiting for the events of pending frees.
void emptyCache();

/// The counters of device \p Index.
DeviceStats getDeviceStats(DeviceIndex Index);
/// Zeroes the cumulative counters (mallocs, frees, retries) of \p Index.
void resetAccumulatedStats(DeviceIndex Index);

/// Scratch memory for a kernel on the current device and stream, such as
/// CUB's temp storage:
///
///   size_t Bytes = 0;
///   cub::DeviceReduce::Sum(nullptr, Bytes, In, Out, N, Stream);
///   DataPtr Temp = CUDACachingAllocator::allocateTempStorage(Bytes);
///   cub::DeviceReduce::Sum(Temp.get(), Bytes, In, Out, N, Stream);
///
/// Freed when the DataPtr dies; the block is reused by later work on the
/// same stream only, so the kernel need not finish first.
DataPtr allocateTempStorage(size_t NBytes);

} // namespace CUDACachingAllocator
} // namespace cuda
} // namespace sk

#endif // SK_CUDA_CUDACACHINGALLOCATOR_H
