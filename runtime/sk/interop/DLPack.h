//===--- DLPack.h - Sharing tensors through DLPack --------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Zero-copy exchange of tensors with PyTorch, NumPy, JAX, CuPy and the
/// rest of the ecosystem through DLPack's classic `DLManagedTensor` ABI
/// (Debian's libdlpack-dev; at::toDLPack and at::fromDLPack in ATen):
///
///   DLManagedTensor *M = sk::toDLPack(T);   // T's memory, kept alive
///   at::Tensor A = at::fromDLPack(M);       // ... by whoever takes M
///   sk::Tensor B = sk::fromDLPack(at::toDLPack(A));
///
/// Sizes, strides and the byte offset are kept; memory is never copied.
/// Whoever takes a DLManagedTensor calls its deleter once, when done.
///
//===----------------------------------------------------------------------===//

#ifndef SK_INTEROP_DLPACK_H
#define SK_INTEROP_DLPACK_H

#include "sk/core/Tensor.h"

#include <dlpack/dlpack.h>

namespace sk {

/// A DLPack tensor over \p T's memory, which it keeps alive until its
/// deleter runs. CPU and CUDA tensors, of every dtype but those DLPack
/// lacks; a meta tensor has no memory to share and is an error.
DLManagedTensor *toDLPack(const Tensor &T);

/// A tensor over \p Src's memory, which calls \p Src's deleter when the
/// last tensor over it is gone. CPU (kDLCPU) and CUDA (kDLCUDA) memory, of
/// the runtime's dtypes, with one lane. On an error, an sk::Error naming
/// what the runtime lacks, \p Src is untouched and still the caller's.
Tensor fromDLPack(DLManagedTensor *Src);

} // namespace sk

#endif // SK_INTEROP_DLPACK_H
