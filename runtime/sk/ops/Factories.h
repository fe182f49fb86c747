//===--- Factories.h - Functions that make new tensors ----------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `sk::empty`, `zeros`, `ones`, `full`, `arange`, `rand`, `randn` and
/// their `*_like` forms, as torch.* has them:
///
/// \code
///   sk::Tensor A = sk::zeros({2, 3});                          // float32
///   sk::Tensor B = sk::full({2}, 7);                           // int64
///   sk::Tensor C = sk::arange(0, 1, 0.25, sk::kDouble);
///   sk::Generator G(42);
///   sk::Tensor D = sk::randn({4, 4}, &G, sk::kHalf);
///   sk::Tensor W = sk::empty({70000, 8192}, sk::TensorOptions(sk::kMeta));
/// \endcode
///
/// Each factory picks a per-device kernel (FactoryKernels.h) by the device
/// of its options. On the meta device every factory returns a meta tensor
/// and allocates and writes nothing. The `*_like` forms keep the input's
/// dtype and device unless the options say otherwise, and keep its strides
/// when it is dense (MemoryFormat::Preserve, the default).
///
//===----------------------------------------------------------------------===//

#ifndef SK_OPS_FACTORIES_H
#define SK_OPS_FACTORIES_H

#include "sk/core/Tensor.h"
#include "sk/ops/Generator.h"

#include <optional>

namespace sk {

/// Uninitialised memory. The memory format may come from \p Options or
/// \p Format, not both.
Tensor empty(IntArrayRef Sizes, TensorOptions Options = {},
             std::optional<MemoryFormat> Format = std::nullopt);
Tensor empty_strided(IntArrayRef Sizes, IntArrayRef Strides,
                     TensorOptions Options = {});
Tensor zeros(IntArrayRef Sizes, TensorOptions Options = {});
Tensor ones(IntArrayRef Sizes, TensorOptions Options = {});
/// Every element \p Value. Without a dtype in \p Options the value decides
/// it, as in PyTorch: bool -> bool, integer -> int64, else float32.
Tensor full(IntArrayRef Sizes, const Scalar &Value, TensorOptions Options = {});

/// [0, End) in steps of 1.
Tensor arange(const Scalar &End, TensorOptions Options = {});
/// [Start, End) in steps of \p Step: ceil((End - Start) / Step) elements,
/// int64 when all three are integers and no dtype is given, else float32.
Tensor arange(const Scalar &Start, const Scalar &End, const Scalar &Step = 1,
              TensorOptions Options = {});
Tensor arange(const Scalar &Start, const Scalar &End, TensorOptions Options);

/// Uniform on [0, 1), from \p Gen or (when null) the default generator.
/// Floating dtypes only.
Tensor rand(IntArrayRef Sizes, Generator *Gen, TensorOptions Options = {});
Tensor rand(IntArrayRef Sizes, TensorOptions Options = {});
/// Standard normal, from \p Gen or the default generator. Floating dtypes
/// only.
Tensor randn(IntArrayRef Sizes, Generator *Gen, TensorOptions Options = {});
Tensor randn(IntArrayRef Sizes, TensorOptions Options = {});

Tensor empty_like(const Tensor &Self, TensorOptions Options = {},
                  std::optional<MemoryFormat> Format = std::nullopt);
Tensor zeros_like(const Tensor &Self, TensorOptions Options = {},
                  std::optional<MemoryFormat> Format = std::nullopt);
Tensor ones_like(const Tensor &Self, TensorOptions Options = {},
                 std::optional<MemoryFormat> Format = std::nullopt);
/// Keeps \p Self's dtype (not \p Value's) unless \p Options sets one.
Tensor full_like(const Tensor &Self, const Scalar &Value,
                 TensorOptions Options = {},
                 std::optional<MemoryFormat> Format = std::nullopt);
Tensor rand_like(const Tensor &Self, Generator *Gen = nullptr,
                 TensorOptions Options = {},
                 std::optional<MemoryFormat> Format = std::nullopt);
Tensor randn_like(const Tensor &Self, Generator *Gen = nullptr,
                  TensorOptions Options = {},
                  std::optional<MemoryFormat> Format = std::nullopt);

} // namespace sk

#endif // SK_OPS_FACTORIES_H
