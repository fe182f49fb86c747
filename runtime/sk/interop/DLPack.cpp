//===--- DLPack.cpp - Sharing tensors through DLPack ----------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/interop/DLPack.h"

#include "sk/core/EmptyTensor.h"
#include "sk/core/Storage.h"
#include "sk/core/TensorImpl.h"
#include "sk/util/Exception.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

namespace sk {

// DLPack 0.8's kDLBool: Debian 12's dlpack.h (0.6) predates it, and
// PyTorch 2.x gives bools this code.
static constexpr uint8_t kDLBoolCode = 6;

namespace {
/// A runtime dtype and its DLPack type code; the bits are its element
/// size, with one lane.
struct DtypeCode {
  ScalarType Type;
  uint8_t Code;
};
} // namespace

/// Every runtime dtype's DLPack code: both directions read this table.
static constexpr DtypeCode kDtypeCodes[] = {
    {ScalarType::Bool, kDLBoolCode}, {ScalarType::Byte, kDLUInt},
    {ScalarType::Char, kDLInt},      {ScalarType::Short, kDLInt},
    {ScalarType::Int, kDLInt},       {ScalarType::Long, kDLInt},
    {ScalarType::Half, kDLFloat},    {ScalarType::BFloat16, kDLBfloat},
    {ScalarType::Float, kDLFloat},   {ScalarType::Double, kDLFloat}};

/// DLPack's description of \p T.
static DLDataType dlType(ScalarType T) {
  for (const DtypeCode &E : kDtypeCodes)
    if (E.Type == T)
      return DLDataType{E.Code, static_cast<uint8_t>(elementSize(T) * 8), 1};
  SK_CHECK(false, "toDLPack: DLPack has no type for ", toString(T));
  __builtin_unreachable();
}

/// The runtime's type for \p T.
static ScalarType scalarTypeOf(DLDataType T) {
  SK_CHECK(T.lanes == 1, "fromDLPack: vector types (", int(T.lanes),
           " lanes) are not supported");
  for (const DtypeCode &E : kDtypeCodes)
    if (E.Code == T.code && elementSize(E.Type) * 8 == T.bits)
      return E.Type;
  static constexpr const char *Codes[] = {
      "int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  std::string Code = T.code < std::size(Codes)
                         ? Codes[T.code]
                         : "code " + std::to_string(T.code);
  SK_CHECK(false, "fromDLPack: skc's runtime has no ", int(T.bits), "-bit ",
           Code, " type");
  __builtin_unreachable();
}

namespace {
/// What a DLManagedTensor from toDLPack owns: the tensor, and the sizes
/// and strides its DLTensor points at.
struct ExportedTensor {
  Tensor T;
  std::vector<int64_t> Sizes, Strides;
  DLManagedTensor Managed;
};
} // namespace

static void deleteExported(DLManagedTensor *M) {
  delete static_cast<ExportedTensor *>(M->manager_ctx);
}

DLManagedTensor *toDLPack(const Tensor &T) {
  SK_CHECK(T.defined(), "toDLPack: the tensor is undefined");
  SK_CHECK(!T.is_meta(), "toDLPack: a meta tensor has no memory to share");
  DLDevice Dev;
  if (T.is_cpu())
    Dev = {kDLCPU, 0};
  else if (T.is_cuda())
    Dev = {kDLCUDA, T.device().has_index() ? T.device().index() : 0};
  else
    SK_CHECK(false, "toDLPack: DLPack export of ", T.device(),
             " tensors is not supported");
  auto *E = new ExportedTensor{T, T.sizes().vec(), T.strides().vec(), {}};
  DLTensor &D = E->Managed.dl_tensor;
  // As at::toDLPack: the first element's address, no byte offset.
  D.data = T.numel() ? T.data_ptr() : nullptr;
  D.device = Dev;
  D.ndim = static_cast<int>(T.dim());
  D.dtype = dlType(T.dtype());
  D.shape = E->Sizes.data();
  D.strides = E->Strides.data();
  D.byte_offset = 0;
  E->Managed.manager_ctx = E;
  E->Managed.deleter = &deleteExported;
  return &E->Managed;
}

/// Calls the deleter of the DLManagedTensor a storage was made from.
static void deleteImported(void *Ctx) {
  auto *M = static_cast<DLManagedTensor *>(Ctx);
  if (M->deleter)
    M->deleter(M);
}

Tensor fromDLPack(DLManagedTensor *Src) {
  SK_CHECK(Src, "fromDLPack: the DLManagedTensor is null");
  const DLTensor &D = Src->dl_tensor;
  Device Dev = kCPU;
  switch (D.device.device_type) {
  case kDLCPU:
    break;
  case kDLCUDA:
    SK_CHECK(D.device.device_id >= 0 && D.device.device_id <= INT8_MAX,
             "fromDLPack: CUDA device ", D.device.device_id,
             " is out of range");
    Dev = Device(DeviceType::CUDA, static_cast<int8_t>(D.device.device_id));
    break;
  default:
    SK_CHECK(false,
             "fromDLPack: skc's runtime has no device for DLPack's "
             "device type ",
             int(D.device.device_type), " (only kDLCPU and kDLCUDA)");
  }
  ScalarType Dtype = scalarTypeOf(D.dtype);
  SK_CHECK(D.ndim >= 0 && (D.ndim == 0 || D.shape), "fromDLPack: ", D.ndim,
           " dimensions without a shape");
  std::vector<int64_t> Sizes(D.shape, D.shape + D.ndim);
  std::vector<int64_t> Strides(static_cast<size_t>(D.ndim));
  if (D.strides) {
    Strides.assign(D.strides, D.strides + D.ndim);
  } else {
    // No strides: compact and row-major.
    int64_t Stride = 1;
    for (int I = D.ndim - 1; I >= 0; --I) {
      Strides[I] = Stride;
      Stride *= std::max<int64_t>(Sizes[I], 1);
    }
  }
  for (int I = 0; I < D.ndim; ++I)
    SK_CHECK(Strides[I] >= 0 || Sizes[I] <= 1, "fromDLPack: stride ",
             Strides[I], " of dimension ", I,
             " is negative, which skc's runtime does not support");
  size_t Bytes = detail::computeStorageBytes("fromDLPack", Sizes, Strides,
                                             elementSize(Dtype));
  char *Data = static_cast<char *>(D.data) + D.byte_offset;
  Storage S = Storage::make(DataPtr(Data, Src, &deleteImported, Dev), Bytes);
  return Tensor(IntrusivePtr<TensorImpl>::make(
      TensorImpl::StridedTag(), std::move(S), Dtype, Dev, Sizes, Strides));
}

} // namespace sk
