//===--- Copy.cpp - copy_, clone, to, fill_, zero_ and resize_ ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The operators that write elements of an existing tensor. The CPU loops
/// first simplify the geometry (Note [Copy loop geometry]) so that the
/// common cases run as one plain loop over contiguous elements; transposing
/// copies run in tiles (Note [Tiled transposing copy]) and anything else
/// runs a strided N-d loop. On meta tensors these ops check shapes and
/// touch nothing.
///
//===----------------------------------------------------------------------===//

#include "sk/core/EmptyTensor.h"
#include "sk/core/Tensor.h"
#include "sk/dispatch/Library.h"
#include "sk/iter/CopyBytes.h"
#include "sk/ops/Convert.h"
#include "sk/ops/Factories.h"

#include <algorithm>
#include <cstring>

namespace sk {

void detail::scalarDoesNotFit(const char *Op, const Scalar &S, ScalarType To) {
  throw Error(detail::str(Op, "(): value ", S, " cannot be converted to type ",
                          To, " without overflow"));
}

namespace {

/// The shape of an elementwise loop over one or two tensors, outermost
/// dimension first, strides in bytes.
struct LoopGeometry {
  std::vector<int64_t> Sizes;
  std::vector<int64_t> DstStrides;
  std::vector<int64_t> SrcStrides;
};

} // namespace

// Note [Copy loop geometry]
// An elementwise loop may visit elements in any order, so before looping we
// (1) drop size-1 dimensions, (2) order the rest by the destination's
// strides, largest first, so that writes move forward through memory, and
// (3) merge each dimension into the one inside it when both tensors step
// through the pair as through one dimension (Stride[i] == Stride[i+1] *
// Size[i+1]). A contiguous copy becomes one dimension with unit strides, a
// copy between two channels-last tensors too, and a broadcast row becomes
// an inner dimension with source stride 0.
static LoopGeometry makeGeometry(IntArrayRef Sizes, IntArrayRef DstStrides,
                                 int64_t DstItem, IntArrayRef SrcStrides,
                                 int64_t SrcItem) {
  std::vector<size_t> Dims;
  for (size_t D = 0; D != Sizes.size(); ++D)
    if (Sizes[D] != 1)
      Dims.push_back(D);
  // Ties keep the dimension order (the index breaks them), as a stable
  // sort would.
  std::sort(Dims.begin(), Dims.end(), [&](size_t A, size_t B) {
    if (DstStrides[A] != DstStrides[B])
      return DstStrides[A] > DstStrides[B];
    if (SrcStrides[A] != SrcStrides[B])
      return SrcStrides[A] > SrcStrides[B];
    return A < B;
  });
  LoopGeometry G;
  for (size_t D : Dims) {
    int64_t Size = Sizes[D];
    int64_t DstStride = DstStrides[D] * DstItem;
    int64_t SrcStride = SrcStrides[D] * SrcItem;
    if (!G.Sizes.empty()) {
      int64_t &OuterSize = G.Sizes.back();
      // Merge the previous (outer) dimension into this one.
      if (G.DstStrides.back() == DstStride * Size &&
          G.SrcStrides.back() == SrcStride * Size) {
        Size *= OuterSize;
        G.Sizes.pop_back();
        G.DstStrides.pop_back();
        G.SrcStrides.pop_back();
      }
    }
    G.Sizes.push_back(Size);
    G.DstStrides.push_back(DstStride);
    G.SrcStrides.push_back(SrcStride);
  }
  return G;
}

/// Calls \p Inner(Dst, Src, Size, DstStride, SrcStride) once per run of the
/// innermost dimension of \p G.
template <typename InnerFn>
static void forEachRow(const LoopGeometry &G, char *Dst, const char *Src,
                       InnerFn &&Inner) {
  int64_t Rank = static_cast<int64_t>(G.Sizes.size());
  if (Rank == 0) {
    Inner(Dst, Src, 1, 0, 0);
    return;
  }
  int64_t InnerSize = G.Sizes.back();
  int64_t InnerDst = G.DstStrides.back(), InnerSrc = G.SrcStrides.back();
  std::vector<int64_t> Index(Rank - 1, 0);
  for (;;) {
    Inner(Dst, Src, InnerSize, InnerDst, InnerSrc);
    int64_t K = Rank - 2;
    for (; K >= 0; --K) {
      if (++Index[K] < G.Sizes[K]) {
        Dst += G.DstStrides[K];
        Src += G.SrcStrides[K];
        break;
      }
      Index[K] = 0;
      Dst -= G.DstStrides[K] * (G.Sizes[K] - 1);
      Src -= G.SrcStrides[K] * (G.Sizes[K] - 1);
    }
    if (K < 0)
      return;
  }
}

// Note [Tiled transposing copy]
// When the destination is contiguous along one dimension and the source
// along another (a transpose), no loop order reads and writes sequentially:
// row by row, every read of the source touches a new cache line. Such
// copies run in 32 x 32 tiles over the two dimensions, so the lines a tile
// reads stay in cache while its rows are written.

/// Moves the dimension along which the source is contiguous next to the
/// innermost one, if the copy is a transpose in Note [Tiled transposing
/// copy]'s sense; returns whether it did.
static bool prepareTiledCopy(LoopGeometry &G, int64_t DstItem,
                             int64_t SrcItem) {
  size_t Rank = G.Sizes.size();
  if (Rank < 2 || G.DstStrides.back() != DstItem ||
      G.SrcStrides.back() == SrcItem || G.SrcStrides.back() == 0)
    return false;
  for (size_t K = 0; K + 1 != Rank; ++K) {
    if (G.SrcStrides[K] != SrcItem)
      continue;
    for (std::vector<int64_t> *V : {&G.Sizes, &G.DstStrides, &G.SrcStrides}) {
      int64_t Moved = (*V)[K];
      V->erase(V->begin() + K);
      V->insert(V->end() - 1, Moved);
    }
    return true;
  }
  return false;
}

/// forEachRow for a geometry prepared by prepareTiledCopy: the last two
/// dimensions run in tiles.
template <typename InnerFn>
static void forEachRowTiled(const LoopGeometry &G, char *Dst, const char *Src,
                            InnerFn &&Inner) {
  constexpr int64_t Tile = 32;
  size_t Rank = G.Sizes.size();
  int64_t Rows = G.Sizes[Rank - 2], Cols = G.Sizes[Rank - 1];
  int64_t DstRow = G.DstStrides[Rank - 2], DstCol = G.DstStrides[Rank - 1];
  int64_t SrcRow = G.SrcStrides[Rank - 2], SrcCol = G.SrcStrides[Rank - 1];
  // The outer dimensions, plus one of size 1 so that forEachRow calls us
  // once per outer position.
  LoopGeometry Outer;
  Outer.Sizes.assign(G.Sizes.begin(), G.Sizes.end() - 2);
  Outer.DstStrides.assign(G.DstStrides.begin(), G.DstStrides.end() - 2);
  Outer.SrcStrides.assign(G.SrcStrides.begin(), G.SrcStrides.end() - 2);
  Outer.Sizes.push_back(1);
  Outer.DstStrides.push_back(0);
  Outer.SrcStrides.push_back(0);
  forEachRow(Outer, Dst, Src,
             [&](char *D, const char *S, int64_t, int64_t, int64_t) {
               for (int64_t R0 = 0; R0 < Rows; R0 += Tile) {
                 int64_t REnd = std::min(R0 + Tile, Rows);
                 for (int64_t C0 = 0; C0 < Cols; C0 += Tile) {
                   int64_t N = std::min(Tile, Cols - C0);
                   for (int64_t R = R0; R != REnd; ++R)
                     Inner(D + R * DstRow + C0 * DstCol,
                           S + R * SrcRow + C0 * SrcCol, N, DstCol, SrcCol);
                 }
               }
             });
}

/// Converts \p N elements from \p SrcBytes (stride \p SrcStride bytes) into
/// \p DstBytes (stride \p DstStride bytes).
template <typename D, typename S>
static void convertRow(char *DstBytes, const char *SrcBytes, int64_t N,
                       int64_t DstStride, int64_t SrcStride) {
  if (DstStride == sizeof(D) && SrcStride == sizeof(S)) {
    if constexpr (std::is_same_v<D, S>) {
      copyBytes(DstBytes, SrcBytes, N * sizeof(D));
    } else {
      D *__restrict Out = reinterpret_cast<D *>(DstBytes);
      const S *__restrict In = reinterpret_cast<const S *>(SrcBytes);
      for (int64_t I = 0; I != N; ++I)
        Out[I] = detail::convertElement<D>(In[I]);
    }
    return;
  }
  if (DstStride == sizeof(D) && SrcStride == 0) {
    D *Out = reinterpret_cast<D *>(DstBytes);
    std::fill(
        Out, Out + N,
        detail::convertElement<D>(*reinterpret_cast<const S *>(SrcBytes)));
    return;
  }
  for (int64_t I = 0; I != N; ++I)
    *reinterpret_cast<D *>(DstBytes + I * DstStride) =
        detail::convertElement<D>(
            *reinterpret_cast<const S *>(SrcBytes + I * SrcStride));
}

/// The bytes [Begin, End) that \p T's elements lie in; T has storage and
/// elements.
static std::pair<const char *, const char *> byteExtent(const Tensor &T) {
  const char *Begin = static_cast<const char *>(T.data_ptr());
  int64_t Last = 0;
  for (int64_t D = 0; D != T.dim(); ++D)
    Last += (T.sizes()[D] - 1) * T.strides()[D];
  return {Begin, Begin + (Last + 1) * static_cast<int64_t>(T.itemsize())};
}

/// Whether \p A and \p B might share an element (conservatively: whether
/// their byte extents intersect).
static bool mayOverlap(const Tensor &A, const Tensor &B) {
  if (!A.is_alias_of(B))
    return false;
  auto [ABegin, AEnd] = byteExtent(A);
  auto [BBegin, BEnd] = byteExtent(B);
  return ABegin < BEnd && BBegin < AEnd;
}

/// Whether two elements of \p T surely share memory (a broadcast stride);
/// at::has_internal_overlap's YES.
static bool hasInternalOverlap(const Tensor &T) {
  for (int64_t D = 0; D != T.dim(); ++D)
    if (T.sizes()[D] > 1 && T.strides()[D] == 0)
      return true;
  return false;
}

/// Whether \p From broadcasts to \p To (trailing dimensions equal or 1).
static bool isExpandableTo(IntArrayRef From, IntArrayRef To) {
  if (From.size() > To.size())
    return false;
  size_t Lead = To.size() - From.size();
  for (size_t I = 0; I != From.size(); ++I)
    if (From[I] != To[Lead + I] && From[I] != 1)
      return false;
  return true;
}

/// Same device type, and the same index where both name one.
static bool sameDevice(Device A, Device B) {
  return A.type() == B.type() &&
         (A.index() == B.index() || !A.has_index() || !B.has_index());
}

/// Whether the CUDA backend's copy kernel is registered (the program links
/// skc::runtime_cuda).
static bool cudaCopyAvailable();

/// Errors unless \p Op can write into a tensor on \p Dst from one on
/// \p Src in this build: not CUDA without the CUDA backend, and not out of
/// a meta tensor into one with data (anything goes into meta; other
/// backends' copies go to their sk::_copy_from, Note [Copies between
/// backends]).
static void checkCopyDevices(const char *Op, const Tensor &Self, Device Src,
                             Device Dst) {
  SK_CHECK_NOT_IMPLEMENTED(
      (!Src.is_cuda() && !Dst.is_cuda()) || cudaCopyAvailable(), Op,
      "(): CUDA is not available in this build: cannot copy from '", Src,
      "' to '", Dst, "'");
  if (Dst.is_meta())
    return;
  SK_CHECK_NOT_IMPLEMENTED(!Src.is_meta(), Op,
                           "(): Cannot copy out of meta tensor; no data! (a "
                           "meta tensor of sizes ",
                           Self.sizes(), " and dtype ", Self.dtype(),
                           " has no values to copy to '", Dst, "')");
  // Other backends copy with their own kernel (Note [Copies between
  // backends]).
}

// Note [Copies between backends]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The loops below reach CPU memory only. A copy to or from another backend
// (CUDA, with skc::runtime_cuda linked in; a PrivateUse1-3 device) is that
// backend's job:
// it goes to the dispatched operator sk::_copy_from(self, dst), PyTorch's
// _copy_from, which the backend registers for its key. The source arrives
// already expanded to the destination's sizes. Without a kernel the
// dispatcher's error names the operator and the backend. This is also what
// lets the out= and inplace wrappers skc generates from a backend's
// functional kernel (seed 002) store their result.

SK_LIBRARY_FRAGMENT(sk, m) {
  m.def("_copy_from(Tensor self, Tensor dst, bool non_blocking=False) "
        "-> Tensor");
  // fill_ of a tensor off the CPU: the backend's kernel, like _copy_from.
  m.def("_fill_(Tensor(a!) self, Scalar value) -> ()");
}

static const OperatorHandle &copyFromOp() {
  static const OperatorHandle CopyFrom =
      Dispatcher::singleton().findSchemaOrThrow("sk::_copy_from", "");
  return CopyFrom;
}

static bool cudaCopyAvailable() {
  return copyFromOp().hasKernelForDispatchKey(DispatchKey::CUDA);
}

static bool isHostOrMeta(Device D) { return D.is_cpu() || D.is_meta(); }

static void copyBetweenBackends(const char *Op, const Tensor &Self,
                                const Tensor &Src) {
  const OperatorHandle &CopyFrom = copyFromOp();
  Device Backend = isHostOrMeta(Self.device()) ? Src.device() : Self.device();
  DispatchKey Key = backendKeyOf(Backend.type());
  SK_CHECK_NOT_IMPLEMENTED(CopyFrom.hasKernelForDispatchKey(Key), Op,
                           "(): copying from '", Src.device(), "' to '",
                           Self.device(), "' needs the '", Key,
                           "' backend's kernel for sk::_copy_from, and none "
                           "is registered");
  static const auto Typed =
      CopyFrom.typed<Tensor(const Tensor &, const Tensor &, bool)>();
  Typed.call(Src.sizes() == Self.sizes() ? Src : Src.expand(Self.sizes()),
             Self, /*non_blocking=*/false);
}

/// copy_: \p Self = \p Src, broadcast and converted.
static void copyInto(const Tensor &Self, const Tensor &Src) {
  SK_CHECK(Self.defined() && Src.defined(),
           "copy_(): expected defined tensors, but the ",
           Self.defined() ? "source" : "destination", " is undefined");
  SK_CHECK(isExpandableTo(Src.sizes(), Self.sizes()),
           "copy_(): the source of size ", Src.sizes(),
           " cannot be broadcast to the destination of size ", Self.sizes());
  if (!Self.is_meta() && !Src.is_meta() &&
      (!isHostOrMeta(Self.device()) || !isHostOrMeta(Src.device()))) {
    if (Self.is_cuda() || Src.is_cuda())
      checkCopyDevices("copy_", Src, Src.device(), Self.device());
    if (Self.numel() != 0 && !Self.is_same(Src))
      copyBetweenBackends("copy_", Self, Src);
    return;
  }
  checkCopyDevices("copy_", Src, Src.device(), Self.device());
  if (Self.is_meta() || Self.numel() == 0 || Self.is_same(Src))
    return;
  SK_CHECK(!hasInternalOverlap(Self),
           "copy_(): unsupported operation: more than one element of the "
           "written-to tensor refers to a single memory location. Please "
           "clone() the tensor before performing the operation. (destination "
           "sizes ",
           Self.sizes(), ", strides ", Self.strides(), ")");
  // A source that overlaps the destination is read before anything is
  // written by copying it out first.
  Tensor From =
      mayOverlap(Self, Src) ? Src.clone(MemoryFormat::Contiguous) : Src;
  if (From.sizes() != Self.sizes())
    From = From.expand(Self.sizes());
  LoopGeometry G = makeGeometry(Self.sizes(), Self.strides(), Self.itemsize(),
                                From.strides(), From.itemsize());
  bool Tiled = prepareTiledCopy(G, Self.itemsize(), From.itemsize());
  char *Dst = static_cast<char *>(Self.data_ptr());
  const char *SrcBytes = static_cast<const char *>(From.data_ptr());
  visitScalarType(Self.dtype(), [&](auto DstTag) {
    visitScalarType(From.dtype(), [&](auto SrcTag) {
      auto *Row = convertRow<decltype(DstTag), decltype(SrcTag)>;
      if (Tiled)
        forEachRowTiled(G, Dst, SrcBytes, Row);
      else
        forEachRow(G, Dst, SrcBytes, Row);
    });
  });
}

Tensor &Tensor::copy_(const Tensor &Src) {
  copyInto(*this, Src);
  return *this;
}

const Tensor &Tensor::copy_(const Tensor &Src) const {
  copyInto(*this, Src);
  return *this;
}

Tensor Tensor::clone(std::optional<MemoryFormat> F) const {
  Tensor Result = empty_like(*this, TensorOptions(), F);
  Result.copy_(*this);
  return Result;
}

Tensor Tensor::to(TensorOptions O, bool Copy) const {
  ScalarType Dtype = O.dtype_opt().value_or(dtype());
  Device Dev = O.device_opt().value_or(device());
  MemoryFormat F = O.memory_format_opt().value_or(MemoryFormat::Preserve);
  bool Same = Dtype == dtype() && sameDevice(Dev, device()) &&
              (F == MemoryFormat::Preserve || is_contiguous(F));
  if (Same && !Copy)
    return *this;
  checkCopyDevices("to", *this, device(), Dev);
  Tensor Result =
      empty_like(*this, TensorOptions().dtype(Dtype).device(Dev), F);
  Result.copy_(*this);
  return Result;
}

Tensor Tensor::to(ScalarType D, bool Copy) const {
  return to(TensorOptions().dtype(D), Copy);
}

Tensor Tensor::to(Device D, bool Copy) const {
  return to(TensorOptions().device(D), Copy);
}

/// fill_ of \p Self, off the CPU and not meta: the backend's sk::_fill_
/// kernel.
static void fillOnBackend(const Tensor &Self, const Scalar &Value) {
  static const auto Fill = Dispatcher::singleton()
                               .findSchemaOrThrow("sk::_fill_", "")
                               .typed<void(Tensor &, const Scalar &)>();
  SK_CHECK_NOT_IMPLEMENTED(
      Fill.hasKernelForDispatchKey(backendKeyOf(Self.device().type())),
      "fill_(): ",
      Self.is_cuda() ? "CUDA is not available in this build"
                     : "no kernel for this device",
      " (a tensor on '", Self.device(), "')");
  Tensor Mutable = Self;
  Fill.call(Mutable, Value);
}

const Tensor &Tensor::fill_(const Scalar &Value) const {
  ScalarType Dtype = dtype();
  visitScalarType(Dtype, [&](auto Tag) {
    using T = decltype(Tag);
    T V = detail::scalarToElement<T>(Value, "fill_");
    if (is_meta() || numel() == 0)
      return;
    if (!is_cpu()) {
      fillOnBackend(*this, Value);
      return;
    }
    T *Data = static_cast<T *>(data_ptr());
    // Dense tensors fill their block in one pass; strides are never
    // negative, so element 0 starts the block.
    if (is_non_overlapping_and_dense()) {
      std::fill(Data, Data + numel(), V);
      return;
    }
    std::vector<int64_t> NoStrides(dim(), 0);
    LoopGeometry G =
        makeGeometry(sizes(), strides(), sizeof(T), NoStrides, sizeof(T));
    forEachRow(
        G, reinterpret_cast<char *>(Data), nullptr,
        [V](char *Dst, const char *, int64_t N, int64_t Stride, int64_t) {
          for (int64_t I = 0; I != N; ++I)
            *reinterpret_cast<T *>(Dst + I * Stride) = V;
        });
  });
  return *this;
}

const Tensor &Tensor::zero_() const {
  if (is_meta() || numel() == 0)
    return *this;
  // Zero is all-zero bits in every dtype (+0.0 for the floating ones).
  if (is_non_overlapping_and_dense() && is_cpu()) {
    std::memset(data_ptr(), 0, nbytes());
    return *this;
  }
  return fill_(0);
}

const Tensor &Tensor::resize_(IntArrayRef Sizes,
                              std::optional<MemoryFormat> F) const {
  SK_CHECK(F != MemoryFormat::Preserve,
           "resize_(): Unsupported memory format preserve");
  SK_CHECK(F != MemoryFormat::ChannelsLast || Sizes.size() == 4,
           "resize_(): required rank 4 tensor to use channels_last format, "
           "but got sizes ",
           Sizes);
  SK_CHECK(F != MemoryFormat::ChannelsLast3d || Sizes.size() == 5,
           "resize_(): required rank 5 tensor to use channels_last_3d "
           "format, but got sizes ",
           Sizes);
  std::vector<int64_t> Strides =
      stridesForMemoryFormat(Sizes, F.value_or(MemoryFormat::Contiguous));
  // Checks the sizes and that the new extent, offset included, fits size_t.
  size_t Bytes =
      detail::computeStorageBytes("resize_", Sizes, Strides, itemsize());
  size_t OffsetBytes;
  SK_CHECK(!__builtin_mul_overflow(static_cast<size_t>(storage_offset()),
                                   itemsize(), &OffsetBytes) &&
               !__builtin_add_overflow(Bytes, OffsetBytes, &OffsetBytes),
           "resize_(): storage size calculation overflowed with sizes=", Sizes,
           " and storage offset ", storage_offset());
  impl().resize(Sizes, F);
  return *this;
}

} // namespace sk
