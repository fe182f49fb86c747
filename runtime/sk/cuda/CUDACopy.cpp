//===--- CUDACopy.cpp - Copies and fills of CUDA tensors ------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// Note [CUDA copies]
/// ~~~~~~~~~~~~~~~~~~
/// copy_ and to() reach a CUDA tensor through sk::_copy_from (Note [Copies
/// between backends] in sk/ops/Copy.cpp), with the source expanded to the
/// destination's sizes. Three paths:
///
/// * One block: same dtype, both tensors non-overlapping and dense with the
///   same strides, and no aliasing between two device tensors: one
///   cudaMemcpy of the dense block (cudaMemcpyPeerAsync between devices).
/// * On the device, between two tensors of one device: a kernel reads and
///   writes each element at its strides and converts its dtype
///   (CUDACopyKernel.h), as PyTorch's copy kernel does. A source that
///   overlaps the destination is first copied to a fresh tensor.
/// * Through the host, between the CPU and a device (or two devices): the
///   device side is made dense on its device first where it is not, so
///   that only elements cross, never the gaps between them (which a
///   destination's image would otherwise read uninitialised, and write
///   back over whatever another kernel put there meanwhile). The source's
///   elements come to a CPU "image" (its dense block, viewed with its
///   strides, or the source itself on the CPU); the CPU copy loop converts
///   and lays them out; for a device destination, its dense image is then
///   copied back as one block.
///
/// Streams: each transfer is queued on the current stream of the device
/// side, under a guard for that device. Device-to-host copies then wait for
/// that stream (the host memory is pageable, and the caller reads it next);
/// host-to-device copies from pageable memory return once cudart has taken
/// the bytes, so the host buffer may go (a large one through the runtime's
/// own pinned buffers, Note [Pinned staging]). Copies between two devices wait
/// for the source device's current stream first and for the destination's
/// after, since neither stream orders the other. non_blocking is accepted
/// and ignored.
///
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDACopyKernel.h"
#include "sk/cuda/CUDAException.h"
#include "sk/cuda/CUDAFill.h"
#include "sk/cuda/CUDAFunctions.h"
#include "sk/cuda/CUDAGuard.h"
#include "sk/cuda/CUDAKernels.h"
#include "sk/cuda/CUDAStream.h"
#include "sk/cuda/CUDAStridedShape.h"

#include "sk/core/EmptyTensor.h"
#include "sk/iter/CopyBytes.h"
#include "sk/ops/Convert.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>

namespace sk {
namespace cuda {

/// The bytes from \p T's first element to the end of its last; T has
/// elements and non-negative strides.
static size_t extentBytes(const Tensor &T) {
  int64_t Last = 0;
  for (int64_t D = 0; D != T.dim(); ++D)
    Last += (T.sizes()[D] - 1) * T.strides()[D];
  return static_cast<size_t>(Last + 1) * T.itemsize();
}

/// Whether two elements of \p T surely share memory (a broadcast stride).
static bool hasInternalOverlap(const Tensor &T) {
  for (int64_t D = 0; D != T.dim(); ++D)
    if (T.sizes()[D] > 1 && T.strides()[D] == 0)
      return true;
  return false;
}

/// Whether the byte extents of device tensors \p A and \p B intersect.
static bool mayOverlap(const Tensor &A, const Tensor &B) {
  if (!A.is_alias_of(B))
    return false;
  auto *ABegin = static_cast<const char *>(A.data_ptr());
  auto *BBegin = static_cast<const char *>(B.data_ptr());
  return ABegin < BBegin + extentBytes(B) && BBegin < ABegin + extentBytes(A);
}

/// Copies \p N bytes from the device memory \p Src on \p Dev to host \p Dst
/// and waits for them.
static void copyToHost(void *Dst, const void *Src, size_t N, Device Dev) {
  CUDAGuard Guard(Dev);
  CUDAStream Stream = getCurrentCUDAStream(Dev.index());
  SK_CUDA_CHECK(
      cudaMemcpyAsync(Dst, Src, N, cudaMemcpyDeviceToHost, Stream.stream()));
  Stream.synchronize();
}

// Note [Pinned staging]
// ~~~~~~~~~~~~~~~~~~~~~
// The device reads host memory by DMA from pinned pages only; cudart copies
// pageable memory (a mapped checkpoint, a tensor of the CPU allocator)
// through a staging buffer of its own, one block after the other. A large
// copy goes through two pinned buffers per device of the runtime's
// instead, double-buffered: the host fills one (copyBytes) while the
// device reads the other, and an event recorded after each transfer says
// when its buffer is free again. The copy returns once the last chunk is
// queued: the source is no longer read, and the next copy waits on the
// events before it reuses a buffer. Unmeasured on a GPU yet.

namespace {
/// Two pinned buffers of one device, and when each was last read.
struct PinnedStaging {
  static constexpr size_t kChunkBytes = size_t(8) << 20;
  std::mutex Mutex;
  void *Buffers[2] = {nullptr, nullptr};
  cudaEvent_t Read[2] = {nullptr, nullptr};

  PinnedStaging() {
    for (int I = 0; I < 2; ++I) {
      SK_CUDA_CHECK(
          cudaHostAlloc(&Buffers[I], kChunkBytes, cudaHostAllocDefault));
      SK_CUDA_CHECK(cudaEventCreateWithFlags(&Read[I], cudaEventDisableTiming));
    }
  }
};

/// Copies from pageable memory of at least this size are staged.
constexpr size_t kStagingThreshold = size_t(4) << 20;
} // namespace

/// The staging buffers of device \p Dev, made on first use and kept for
/// the process.
static PinnedStaging &stagingOf(DeviceIndex Dev) {
  static std::mutex Mutex;
  static PinnedStaging *Slots[kMaxCUDADevices] = {};
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Slots[Dev])
    Slots[Dev] = new PinnedStaging;
  return *Slots[Dev];
}

/// Whether the device cannot read \p P by DMA: host memory not pinned.
static bool isPageable(const void *P) {
  cudaPointerAttributes Attributes;
  if (cudaPointerGetAttributes(&Attributes, P) != cudaSuccess) {
    (void)cudaGetLastError();
    return true;
  }
  return Attributes.type == cudaMemoryTypeUnregistered;
}

/// Copies \p N bytes from host \p Src to the device memory \p Dst on \p Dev.
static void copyToDevice(void *Dst, const void *Src, size_t N, Device Dev) {
  CUDAGuard Guard(Dev);
  CUDAStream Stream = getCurrentCUDAStream(Dev.index());
  if (N < kStagingThreshold || !isPageable(Src)) {
    SK_CUDA_CHECK(
        cudaMemcpyAsync(Dst, Src, N, cudaMemcpyHostToDevice, Stream.stream()));
    return;
  }
  PinnedStaging &S = stagingOf(Stream.device_index());
  std::lock_guard<std::mutex> Lock(S.Mutex);
  const auto *From = static_cast<const char *>(Src);
  auto *To = static_cast<char *>(Dst);
  int I = 0;
  for (size_t Offset = 0; Offset < N;
       Offset += PinnedStaging::kChunkBytes, I ^= 1) {
    size_t Bytes = std::min(PinnedStaging::kChunkBytes, N - Offset);
    SK_CUDA_CHECK(cudaEventSynchronize(S.Read[I]));
    copyBytes(S.Buffers[I], From + Offset, Bytes);
    SK_CUDA_CHECK(cudaMemcpyAsync(To + Offset, S.Buffers[I], Bytes,
                                  cudaMemcpyHostToDevice, Stream.stream()));
    SK_CUDA_CHECK(cudaEventRecord(S.Read[I], Stream.stream()));
  }
}

/// Copies \p N bytes between device memory on \p SrcDev and \p DstDev.
static void copyBetweenDevices(void *Dst, Device DstDev, const void *Src,
                               Device SrcDev, size_t N) {
  if (SrcDev == DstDev) {
    CUDAGuard Guard(DstDev);
    SK_CUDA_CHECK(cudaMemcpyAsync(Dst, Src, N, cudaMemcpyDeviceToDevice,
                                  getCurrentCUDAStream(DstDev.index())));
    return;
  }
  getCurrentCUDAStream(SrcDev.index()).synchronize();
  CUDAGuard Guard(DstDev);
  CUDAStream Stream = getCurrentCUDAStream(DstDev.index());
  SK_CUDA_CHECK(cudaMemcpyPeerAsync(Dst, DstDev.index(), Src, SrcDev.index(), N,
                                    Stream.stream()));
  Stream.synchronize();
}

/// A CPU tensor with the elements of \p T at the same strides: \p T itself
/// on the CPU; for a non-overlapping and dense CUDA tensor, a copy of its
/// block.
static Tensor hostImage(const Tensor &T) {
  if (!T.is_cuda())
    return T;
  SK_INTERNAL_ASSERT(T.is_non_overlapping_and_dense(),
                     "hostImage: a CUDA tensor with gaps");
  size_t Bytes = extentBytes(T);
  Tensor Buffer = sk::detail::empty_cpu(
      {static_cast<int64_t>(Bytes / T.itemsize())}, T.dtype());
  copyToHost(Buffer.data_ptr(), T.data_ptr(), Bytes, T.device());
  return Buffer.as_strided(T.sizes(), T.strides(), 0);
}

detail::StridedShape<2> detail::makeCopyShape(const Tensor &Dst,
                                              const Tensor &Src) {
  const int64_t *Strides[] = {Dst.strides().data(), Src.strides().data()};
  std::optional<StridedShape<2>> Shape =
      coalesceStridedShape<2>(Dst.dim(), Dst.sizes().data(), Strides);
  SK_CHECK(Shape, "copy_(): CUDA tensors with more than ", kMaxStridedDims,
           " dimensions that cannot be merged are not supported (sizes ",
           Dst.sizes(), ", strides ", Dst.strides(), " and ", Src.strides(),
           ")");
  return *Shape;
}

/// Dst = Src, two tensors of device \p Dev that do not overlap, by the
/// copy kernel.
static void copyOnDevice(const Tensor &Src, const Tensor &Dst, Device Dev) {
  detail::StridedShape<2> Shape = detail::makeCopyShape(Dst, Src);
  CUDAGuard Guard(Dev);
  detail::launchCopy(Dst.data_ptr(), Dst.dtype(), Src.data_ptr(), Src.dtype(),
                     Shape, Dst.numel(), getCurrentCUDAStream(Dev.index()));
  SK_CUDA_KERNEL_LAUNCH_CHECK();
}

/// A contiguous copy of CUDA tensor \p T on its device.
static Tensor freshCopy(const Tensor &T, Device Dev) {
  Tensor Fresh =
      native::empty_cuda(T.sizes(), T.dtype(), Dev, MemoryFormat::Contiguous);
  copyOnDevice(T, Fresh, Dev);
  return Fresh;
}

/// \p T when it is non-overlapping and dense, else freshCopy(T).
static Tensor denseOnDevice(const Tensor &T, Device Dev) {
  return T.is_non_overlapping_and_dense() ? T : freshCopy(T, Dev);
}

Tensor native::copy_from_cuda(const Tensor &Src, const Tensor &Dst, bool) {
  SK_INTERNAL_ASSERT(Src.sizes() == Dst.sizes(),
                     "_copy_from: the source was not expanded to ",
                     Dst.sizes());
  SK_CHECK(Src.is_cuda() || Src.is_cpu(), "copy_(): cannot copy from '",
           Src.device(), "' to '", Dst.device(), "'");
  SK_CHECK(Dst.is_cuda() || Dst.is_cpu(), "copy_(): cannot copy from '",
           Src.device(), "' to '", Dst.device(), "'");
  if (Dst.numel() == 0)
    return Dst;
  SK_CHECK(!hasInternalOverlap(Dst),
           "copy_(): unsupported operation: more than one element of the "
           "written-to tensor refers to a single memory location. Please "
           "clone() the tensor before performing the operation. (destination "
           "sizes ",
           Dst.sizes(), ", strides ", Dst.strides(), ")");
  Device SrcDev = Src.is_cuda() ? resolveDevice(Src.device()) : kCPU;
  Device DstDev = Dst.is_cuda() ? resolveDevice(Dst.device()) : kCPU;

  // The fast path: Note [CUDA copies].
  if (Src.dtype() == Dst.dtype() && Src.is_non_overlapping_and_dense() &&
      Dst.is_non_overlapping_and_dense() && Src.strides() == Dst.strides() &&
      !(Src.is_cuda() && Dst.is_cuda() && mayOverlap(Src, Dst))) {
    size_t Bytes = Dst.nbytes();
    if (Src.is_cpu())
      copyToDevice(Dst.data_ptr(), Src.data_ptr(), Bytes, DstDev);
    else if (Dst.is_cpu())
      copyToHost(Dst.data_ptr(), Src.data_ptr(), Bytes, SrcDev);
    else
      copyBetweenDevices(Dst.data_ptr(), DstDev, Src.data_ptr(), SrcDev, Bytes);
    return Dst;
  }

  // On the device. The kernel's threads read and write in no set order, so
  // a source that overlaps the destination is read into a fresh tensor
  // first.
  if (Src.is_cuda() && Dst.is_cuda() && SrcDev == DstDev) {
    copyOnDevice(mayOverlap(Src, Dst) ? freshCopy(Src, SrcDev) : Src, Dst,
                 DstDev);
    return Dst;
  }

  // Through the host: only the elements cross.
  Tensor HostSrc = hostImage(Src.is_cuda() ? denseOnDevice(Src, SrcDev) : Src);
  if (Dst.is_cpu()) {
    Dst.copy_(HostSrc);
    return Dst;
  }
  Tensor Target = Dst.is_non_overlapping_and_dense()
                      ? Dst
                      : native::empty_cuda(Dst.sizes(), Dst.dtype(), DstDev,
                                           MemoryFormat::Contiguous);
  Tensor HostDst = sk::detail::empty_strided_cpu(
      Target.sizes(), Target.strides(), Target.dtype());
  HostDst.copy_(HostSrc);
  copyToDevice(Target.data_ptr(), HostDst.data_ptr(), extentBytes(Target),
               DstDev);
  if (!Target.is_same(Dst))
    copyOnDevice(Target, Dst, DstDev);
  return Dst;
}

void native::fill_cuda(Tensor &Self, const Scalar &Value) {
  uint64_t Pattern = 0;
  visitScalarType(Self.dtype(), [&](auto Tag) {
    using T = decltype(Tag);
    T V = sk::detail::scalarToElement<T>(Value, "fill_");
    static_assert(sizeof(T) <= sizeof(Pattern));
    std::memcpy(&Pattern, &V, sizeof(T));
  });
  if (Self.numel() == 0)
    return;
  Device Dev = resolveDevice(Self.device());
  CUDAGuard Guard(Dev);
  cudaStream_t Stream = getCurrentCUDAStream(Dev.index());
  unsigned ItemSize = static_cast<unsigned>(Self.itemsize());
  if (Self.is_non_overlapping_and_dense()) {
    detail::launchFill(Self.data_ptr(), Self.numel(), ItemSize, Pattern,
                       Stream);
    SK_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }
  const int64_t *Strides[] = {Self.strides().data()};
  if (std::optional<detail::StridedShape<1>> Shape =
          detail::coalesceStridedShape<1>(Self.dim(), Self.sizes().data(),
                                          Strides)) {
    detail::launchFillStrided(Self.data_ptr(), *Shape, Self.numel(), ItemSize,
                              Pattern, Stream);
    SK_CUDA_KERNEL_LAUNCH_CHECK();
    return;
  }
  // More dimensions than the kernel takes: through the host.
  Tensor Host = hostImage(Self);
  Host.fill_(Value);
  copyToDevice(Self.data_ptr(), Host.data_ptr(), extentBytes(Self), Dev);
}

} // namespace cuda
} // namespace sk
