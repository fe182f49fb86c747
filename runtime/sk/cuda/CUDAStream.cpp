//===--- CUDAStream.cpp - CUDA streams and the current stream -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDAStream.h"
#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAGuard.h"
#include "sk/cuda/DeviceChecks.h"

#include <array>
#include <atomic>
#include <mutex>

namespace sk {
namespace cuda {

namespace {

constexpr unsigned kStreamsPerPool = 8;

/// The pool of one device: created on first use, never destroyed.
/// Created is set, under Mutex, once every stream is; a failed creation
/// throws and leaves it unset for the next call to try again. (Not
/// std::call_once: libstdc++'s can hang after its function throws.)
struct StreamPool {
  std::mutex Mutex;
  std::atomic<bool> Created{false};
  std::array<cudaStream_t, kStreamsPerPool> Streams{};
  std::atomic<unsigned> Next{0};
};

StreamPool &poolOf(DeviceIndex Index) {
  static StreamPool Pools[kMaxCUDADevices];
  return Pools[Index];
}

/// The calling thread's current streams, one slot per device; a null slot
/// is the default stream (Note [Current CUDA stream]).
cudaStream_t &currentSlot(DeviceIndex Index) {
  thread_local cudaStream_t Current[kMaxCUDADevices] = {};
  return Current[Index];
}

/// \p Index, or the current device when it is -1; checked against the
/// device count.
DeviceIndex checkedIndex(DeviceIndex Index) {
  if (Index < 0)
    Index = current_device();
  int Count = device_count();
  SK_CHECK(Index < Count, "CUDA: invalid device index ",
           static_cast<int>(Index), ": there are ", Count, " CUDA devices");
  return Index;
}

} // namespace

bool CUDAStream::query() const {
  // A null handle is the current device's default stream.
  CUDAGuard Guard(Index);
  cudaError_t E = cudaStreamQuery(Stream);
  if (E == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  SK_CUDA_CHECK(E);
  return true;
}

void CUDAStream::synchronize() const {
  // A null handle is the current device's default stream.
  CUDAGuard Guard(Index);
  SK_CUDA_CHECK(cudaStreamSynchronize(Stream));
  reportDeviceChecks(*this);
}

std::ostream &operator<<(std::ostream &OS, const CUDAStream &S) {
  return OS << "stream " << static_cast<const void *>(S.stream())
            << " on device cuda:" << static_cast<int>(S.device_index());
}

CUDAStream getDefaultCUDAStream(DeviceIndex Index) {
  return CUDAStream(checkedIndex(Index), nullptr);
}

CUDAStream getCurrentCUDAStream(DeviceIndex Index) {
  Index = checkedIndex(Index);
  return CUDAStream(Index, currentSlot(Index));
}

void setCurrentCUDAStream(CUDAStream S) {
  currentSlot(checkedIndex(S.device_index())) = S.stream();
}

CUDAStream getStreamFromPool(DeviceIndex Index) {
  Index = checkedIndex(Index);
  StreamPool &Pool = poolOf(Index);
  if (!Pool.Created.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> Lock(Pool.Mutex);
    if (!Pool.Created.load(std::memory_order_relaxed)) {
      // The guard restores the caller's device, also when a creation
      // throws, which destroys the streams made before it.
      CUDAGuard Guard(Index);
      size_t Made = 0;
      try {
        for (; Made != kStreamsPerPool; ++Made)
          SK_CUDA_CHECK(cudaStreamCreateWithFlags(&Pool.Streams[Made],
                                                  cudaStreamNonBlocking));
      } catch (...) {
        for (size_t I = 0; I != Made; ++I)
          (void)cudaStreamDestroy(Pool.Streams[I]);
        throw;
      }
      Pool.Created.store(true, std::memory_order_release);
    }
  }
  unsigned N = Pool.Next.fetch_add(1, std::memory_order_relaxed);
  return CUDAStream(Index, Pool.Streams[N % kStreamsPerPool]);
}

CUDAStreamGuard::CUDAStreamGuard(CUDAStream S)
    : OriginalDevice(current_device()),
      OriginalStream(getCurrentCUDAStream(S.device_index())), CurrentStream(S) {
  if (S.device_index() != OriginalDevice)
    set_device(S.device_index());
  setCurrentCUDAStream(S);
}

CUDAStreamGuard::~CUDAStreamGuard() {
  // Restoring cannot fail for devices that were valid on entry; a
  // destructor must not throw, so errors here are dropped.
  currentSlot(OriginalStream.device_index()) = OriginalStream.stream();
  if (CurrentStream.device_index() != OriginalDevice)
    (void)cudaSetDevice(OriginalDevice);
}

} // namespace cuda
} // namespace sk
