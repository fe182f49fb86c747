//===--- TorchDLPack.cpp - libtorch's side of the DLPack test -------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "TorchDLPack.h"

#include <ATen/ATen.h>
#include <ATen/DLConvertor.h>

#include <stdexcept>

namespace torchside {

static at::Tensor Exported, Imported;

bool available(std::string &) { return true; }

/// The dtype c10 calls \p Name ("Float", "BFloat16").
static at::ScalarType dtypeNamed(const std::string &Name) {
  for (at::ScalarType T :
       {at::kBool, at::kByte, at::kChar, at::kShort, at::kInt, at::kLong,
        at::kHalf, at::kBFloat16, at::kFloat, at::kDouble})
    if (Name == c10::toString(T))
      return T;
  throw std::runtime_error("no libtorch dtype " + Name);
}

DLManagedTensor *exportFromTorch(const std::string &Dtype) {
  at::ScalarType T = dtypeNamed(Dtype);
  at::Tensor Base = at::arange(24, at::kDouble).reshape({4, 6});
  if (T == at::kBool)
    Base = Base.remainder(3).eq(0);
  Exported = Base.to(T).t().narrow(1, 1, 2);
  return at::toDLPack(Exported);
}

long torchUseCount() { return static_cast<long>(Exported.use_count()); }

Seen importIntoTorch(DLManagedTensor *M) {
  Imported = at::fromDLPack(M);
  Seen S;
  S.Data = Imported.data_ptr();
  S.Sizes = Imported.sizes().vec();
  S.Strides = Imported.strides().vec();
  S.Dtype = c10::toString(Imported.scalar_type());
  at::Tensor Flat = Imported.to(at::kDouble).contiguous().reshape({-1});
  S.Values.assign(Flat.data_ptr<double>(),
                  Flat.data_ptr<double>() + Flat.numel());
  return S;
}

void releaseImported() { Imported = at::Tensor(); }

} // namespace torchside
