//===--- CUDACachingAllocator.cpp - Caching allocator for GPUs ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// Note [CUDA caching allocator policy]
/// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
/// cudaMalloc and cudaFree are slow and cudaFree synchronizes the device,
/// so freed blocks are cached, as c10's CUDACachingAllocator does, with a
/// simpler policy that is easy to check:
///
/// * Sizes. A request of N bytes gets a block of roundSize(N): a multiple
///   of 512 bytes up to 1 MiB (the small pool), else a multiple of 2 MiB
///   (the large pool). Each block is one cudaMalloc; blocks are never split
///   or merged. A small block serves only requests of its own rounded size,
///   a large one any request it holds that is at least half its size, best
///   fit first. Without splitting, that bounds the waste of a reused block
///   to half of it.
///
/// * Streams. A block belongs to the stream current at its allocation and
///   is reused only by allocations for that stream: work queued on one
///   stream runs in order, so memory freed on the host while a kernel on
///   the same stream may still read it is safe to hand to the next kernel
///   on that stream. A tensor used on another stream must say so with
///   recordStream(); at its free an event is recorded on each such stream,
///   and the block returns to the pool only when all of them completed
///   (checked, without blocking, at each allocation). Until then it counts
///   as PendingFreeBytes.
///
/// * Out of memory. When cudaMalloc fails for lack of memory, the pending
///   events are waited for, every cached block of the device is freed, and
///   the cudaMalloc tried once more; a second failure throws sk::CUDAError
///   with the sizes involved.
///
/// * Lifetime. The allocator is never destroyed: tensors may be freed from
///   static destructors, after which the CUDA driver may be gone, so the
///   cache is left to the process's exit.
///
/// One mutex guards everything; cudaMalloc runs under it, as in c10.
///
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDACachingAllocator.h"
#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAGuard.h"

#include <algorithm>
#include <iomanip>
#include <list>
#include <memory>
#include <mutex>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace sk {
namespace cuda {
namespace CUDACachingAllocator {

namespace {

struct Block {
  void *Ptr;
  size_t Size;
  DeviceIndex Dev;
  /// The stream the block was allocated for (Note [CUDA caching allocator
  /// policy]).
  cudaStream_t Stream;
  bool Allocated = false;
  /// Other streams the block was used on since its allocation.
  std::vector<cudaStream_t> StreamUses;
  /// Events recorded at its free that have not completed yet.
  int PendingEvents = 0;
};

/// Pools order blocks by stream, then size, then address: a lower_bound on
/// (stream, size) finds the best fit for that stream.
struct BlockOrder {
  bool operator()(const Block *A, const Block *B) const {
    return std::make_tuple(reinterpret_cast<uintptr_t>(A->Stream), A->Size,
                           reinterpret_cast<uintptr_t>(A->Ptr)) <
           std::make_tuple(reinterpret_cast<uintptr_t>(B->Stream), B->Size,
                           reinterpret_cast<uintptr_t>(B->Ptr));
  }
};
using BlockPool = std::set<Block *, BlockOrder>;

struct DeviceCache {
  BlockPool SmallPool;
  BlockPool LargePool;
  DeviceStats Stats;
  BlockPool &poolFor(size_t Size) {
    return Size <= kSmallSize ? SmallPool : LargePool;
  }
};

/// Sets the current device for a scope without the registry's guard: the
/// allocator runs under its mutex and must not throw while restoring.
class RawDeviceScope {
public:
  explicit RawDeviceScope(DeviceIndex D) {
    if (cudaGetDevice(&Previous) != cudaSuccess) {
      (void)cudaGetLastError();
      Previous = -1;
    }
    if (Previous != D)
      SK_CUDA_CHECK(cudaSetDevice(D));
  }
  ~RawDeviceScope() {
    if (Previous >= 0)
      (void)cudaSetDevice(Previous);
  }

private:
  int Previous = -1;
};

std::string formatBytes(uint64_t N) {
  std::ostringstream OS;
  if (N < (uint64_t(1) << 20)) {
    OS << N << " bytes";
    return OS.str();
  }
  OS << std::fixed << std::setprecision(2)
     << static_cast<double>(N) / double(1 << 20) << " MiB";
  return OS.str();
}

void freeBlock(void *Ptr);

class CachingAllocator final : public Allocator {
public:
  DataPtr allocate(size_t NBytes) override {
    DeviceIndex Dev = current_device();
    if (NBytes == 0)
      return DataPtr(nullptr, nullptr, Device(DeviceType::CUDA, Dev));
    cudaStream_t Stream = getCurrentCUDAStream(Dev).stream();
    size_t Rounded = roundSize(NBytes);
    std::lock_guard<std::mutex> Lock(Mutex);
    processEvents();
    DeviceCache &Cache = Caches[Dev];
    Block *B = takeCached(Cache.poolFor(Rounded), Stream, Rounded);
    if (!B)
      B = mallocBlock(Dev, Stream, Rounded, NBytes);
    B->Allocated = true;
    Cache.Stats.AllocatedBytes += B->Size;
    return DataPtr(B->Ptr, &freeBlock, Device(DeviceType::CUDA, Dev));
  }

  /// Device to device, ordered on the current stream of the device that
  /// holds \p Src, after the kernels that wrote it; \p Src's block goes back
  /// to the cache for that stream, so nothing reuses it before the copy.
  void copyData(void *Dst, const void *Src, size_t N) const override {
    if (!N)
      return;
    cudaPointerAttributes Attributes;
    SK_CUDA_CHECK(cudaPointerGetAttributes(&Attributes, Src));
    DeviceIndex Dev = static_cast<DeviceIndex>(Attributes.device);
    CUDAGuard Guard(Device(DeviceType::CUDA, Dev));
    SK_CUDA_CHECK(cudaMemcpyAsync(Dst, Src, N, cudaMemcpyDeviceToDevice,
                                  getCurrentCUDAStream(Dev).stream()));
  }

  void free(void *Ptr) noexcept {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Blocks.find(Ptr);
    if (It == Blocks.end() || !It->second->Allocated)
      return; // not ours: nothing sensible to do in a deleter
    Block *B = It->second.get();
    B->Allocated = false;
    DeviceCache &Cache = Caches[B->Dev];
    Cache.Stats.AllocatedBytes -= B->Size;
    if (B->StreamUses.empty()) {
      Cache.poolFor(B->Size).insert(B);
      return;
    }
    recordFreeEvents(*B);
  }

  void recordStream(void *Ptr, CUDAStream S) {
    if (!Ptr)
      return;
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Blocks.find(Ptr);
    SK_CHECK(It != Blocks.end() && It->second->Allocated,
             "recordStream: the pointer ", Ptr,
             " was not allocated by the CUDA caching allocator (a view's "
             "data pointer cannot be recorded; pass its storage)");
    Block &B = *It->second;
    if (S.stream() == B.Stream)
      return;
    if (std::find(B.StreamUses.begin(), B.StreamUses.end(), S.stream()) ==
        B.StreamUses.end())
      B.StreamUses.push_back(S.stream());
  }

  void emptyCache() {
    std::lock_guard<std::mutex> Lock(Mutex);
    synchronizeEvents();
    for (DeviceIndex D = 0; D != kMaxCUDADevices; ++D)
      releaseCachedBlocks(D);
  }

  DeviceStats stats(DeviceIndex D) {
    std::lock_guard<std::mutex> Lock(Mutex);
    return Caches[D].Stats;
  }

  void resetAccumulated(DeviceIndex D) {
    std::lock_guard<std::mutex> Lock(Mutex);
    DeviceStats &S = Caches[D].Stats;
    S.NumCudaMallocs = S.NumCudaFrees = S.NumOOMRetries = 0;
  }

private:
  /// The best cached block of \p Pool for \p Rounded bytes on \p Stream,
  /// removed from the pool; null when none fits.
  static Block *takeCached(BlockPool &Pool, cudaStream_t Stream,
                           size_t Rounded) {
    Block Key{nullptr, Rounded, 0, Stream, false, {}, 0};
    auto It = Pool.lower_bound(&Key);
    if (It == Pool.end() || (*It)->Stream != Stream ||
        !blockFits((*It)->Size, Rounded))
      return nullptr;
    Block *B = *It;
    Pool.erase(It);
    return B;
  }

  Block *mallocBlock(DeviceIndex Dev, cudaStream_t Stream, size_t Rounded,
                     size_t Requested) {
    DeviceCache &Cache = Caches[Dev];
    void *Ptr = nullptr;
    cudaError_t E = cudaMalloc(&Ptr, Rounded);
    if (E == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      ++Cache.Stats.NumOOMRetries;
      synchronizeEvents();
      releaseCachedBlocks(Dev);
      E = cudaMalloc(&Ptr, Rounded);
    }
    if (E == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      size_t Free = 0, Total = 0;
      if (cudaMemGetInfo(&Free, &Total) != cudaSuccess)
        (void)cudaGetLastError();
      throw CUDAError(
          sk::detail::str(
              "CUDA out of memory: tried to allocate ", formatBytes(Requested),
              " (a block of ", formatBytes(Rounded), ") on cuda:",
              static_cast<int>(Dev), ", which has ", formatBytes(Free),
              " free of ", formatBytes(Total), "; the caching allocator holds ",
              formatBytes(Cache.Stats.AllocatedBytes), " allocated and ",
              formatBytes(Cache.Stats.ReservedBytes),
              " reserved, after releasing its cache"),
          E);
    }
    if (E != cudaSuccess)
      detail::throwCUDAError(E, "cudaMalloc(&Ptr, Rounded)", __FILE__,
                             __LINE__);
    ++Cache.Stats.NumCudaMallocs;
    Cache.Stats.ReservedBytes += Rounded;
    auto Owned =
        std::make_unique<Block>(Block{Ptr, Rounded, Dev, Stream, false, {}, 0});
    Block *B = Owned.get();
    Blocks.emplace(Ptr, std::move(Owned));
    return B;
  }

  /// At the free of \p B, used on other streams: one event per stream; the
  /// block waits in Pending until all have completed. Must not throw: on
  /// an error, waits for the streams instead.
  void recordFreeEvents(Block &B) noexcept {
    DeviceCache &Cache = Caches[B.Dev];
    try {
      RawDeviceScope Scope(B.Dev);
      for (cudaStream_t S : B.StreamUses) {
        cudaEvent_t E;
        SK_CUDA_CHECK(cudaEventCreateWithFlags(&E, cudaEventDisableTiming));
        SK_CUDA_CHECK(cudaEventRecord(E, S));
        Pending.emplace_back(E, &B);
        ++B.PendingEvents;
      }
      B.StreamUses.clear();
      Cache.Stats.PendingFreeBytes += B.Size;
    } catch (...) {
      // Events already recorded stay pending; the block waits for them.
      for (cudaStream_t S : B.StreamUses)
        if (cudaStreamSynchronize(S) != cudaSuccess)
          (void)cudaGetLastError();
      B.StreamUses.clear();
      if (B.PendingEvents == 0)
        Cache.poolFor(B.Size).insert(&B);
      else
        Cache.Stats.PendingFreeBytes += B.Size;
    }
  }

  /// One event of \p B has completed.
  void eventDone(Block &B) {
    if (--B.PendingEvents != 0)
      return;
    DeviceCache &Cache = Caches[B.Dev];
    Cache.Stats.PendingFreeBytes -= B.Size;
    Cache.poolFor(B.Size).insert(&B);
  }

  /// Returns the blocks whose events have all completed to their pools.
  void processEvents() {
    for (auto It = Pending.begin(); It != Pending.end();) {
      cudaError_t E = cudaEventQuery(It->first);
      if (E == cudaErrorNotReady) {
        (void)cudaGetLastError();
        ++It;
        continue;
      }
      SK_CUDA_CHECK(E);
      SK_CUDA_CHECK(cudaEventDestroy(It->first));
      eventDone(*It->second);
      It = Pending.erase(It);
    }
  }

  /// Waits for every pending event and returns its block.
  void synchronizeEvents() {
    while (!Pending.empty()) {
      auto [E, B] = Pending.front();
      SK_CUDA_CHECK(cudaEventSynchronize(E));
      SK_CUDA_CHECK(cudaEventDestroy(E));
      Pending.pop_front();
      eventDone(*B);
    }
  }

  /// cudaFree of every cached block of device \p D.
  void releaseCachedBlocks(DeviceIndex D) {
    DeviceCache &Cache = Caches[D];
    if (Cache.SmallPool.empty() && Cache.LargePool.empty())
      return;
    RawDeviceScope Scope(D);
    for (BlockPool *Pool : {&Cache.SmallPool, &Cache.LargePool}) {
      for (Block *B : *Pool) {
        SK_CUDA_CHECK(cudaFree(B->Ptr));
        ++Cache.Stats.NumCudaFrees;
        Cache.Stats.ReservedBytes -= B->Size;
        Blocks.erase(B->Ptr);
      }
      Pool->clear();
    }
  }

  std::mutex Mutex;
  DeviceCache Caches[kMaxCUDADevices];
  /// Every block, cached or in use, by its address.
  std::unordered_map<void *, std::unique_ptr<Block>> Blocks;
  /// Events recorded at frees, with their blocks.
  std::list<std::pair<cudaEvent_t, Block *>> Pending;
};

CachingAllocator &instance() {
  // Never destroyed: Note [CUDA caching allocator policy], Lifetime.
  static CachingAllocator *A = new CachingAllocator;
  return *A;
}

void freeBlock(void *Ptr) { instance().free(Ptr); }

DeviceIndex checkedIndex(DeviceIndex D) {
  SK_CHECK(D >= 0 && D < kMaxCUDADevices,
           "CUDA caching allocator: invalid "
           "device index ",
           static_cast<int>(D));
  return D;
}

} // namespace

Allocator *get() { return &instance(); }

void recordStream(const DataPtr &Ptr, CUDAStream S) {
  instance().recordStream(Ptr.get(), S);
}

void recordStream(const Storage &S, CUDAStream Stream) {
  if (S)
    instance().recordStream(S->data(), Stream);
}

void recordStream(const Tensor &T, CUDAStream S) {
  SK_CHECK(T.defined() && T.is_cuda(),
           "recordStream: expected a CUDA tensor, but got one on '",
           T.defined() ? T.device().str() : "undefined", "'");
  recordStream(T.unsafeGetTensorImpl()->storage(), S);
}

void emptyCache() { instance().emptyCache(); }

DeviceStats getDeviceStats(DeviceIndex Index) {
  return instance().stats(checkedIndex(Index));
}

void resetAccumulatedStats(DeviceIndex Index) {
  instance().resetAccumulated(checkedIndex(Index));
}

DataPtr allocateTempStorage(size_t NBytes) {
  return instance().allocate(NBytes);
}

} // namespace CUDACachingAllocator
} // namespace cuda
} // namespace sk
