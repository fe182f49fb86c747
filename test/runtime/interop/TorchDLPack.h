//===--- TorchDLPack.h - libtorch's side of the DLPack test -----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What DLPackTorchTest asks of libtorch, through DLPack alone: libtorch's
/// headers need C++20 and skc's side stays C++17, so the two meet here
/// (TorchDLPack.cpp with libtorch, TorchDLPackAbsent.cpp without).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_RUNTIME_INTEROP_TORCHDLPACK_H
#define SKC_TEST_RUNTIME_INTEROP_TORCHDLPACK_H

#include <dlpack/dlpack.h>

#include <cstdint>
#include <string>
#include <vector>

namespace torchside {

/// Whether libtorch is linked; if not, why.
bool available(std::string &Why);

/// at::toDLPack of a libtorch tensor of dtype \p Dtype, as c10 names it
/// ("Float", "BFloat16", "Bool", ...): arange(24) as [4, 6], transposed and
/// narrowed to columns 1..3, so that it has strides and a storage offset.
/// libtorch keeps its own reference too, counted by torchUseCount().
DLManagedTensor *exportFromTorch(const std::string &Dtype);
/// How many references the tensor of the last exportFromTorch has (its own
/// and DLPack's).
long torchUseCount();

/// What libtorch sees of a DLPack tensor it imported.
struct Seen {
  const void *Data = nullptr;
  std::vector<int64_t> Sizes, Strides;
  /// c10's name of its dtype.
  std::string Dtype;
  /// Its elements as float64, row-major.
  std::vector<double> Values;
};
/// at::fromDLPack of \p M, kept alive until releaseImported().
Seen importIntoTorch(DLManagedTensor *M);
void releaseImported();

} // namespace torchside

#endif // SKC_TEST_RUNTIME_INTEROP_TORCHDLPACK_H
