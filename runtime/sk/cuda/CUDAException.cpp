//===--- CUDAException.cpp - Errors of CUDA runtime calls -----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/cuda/CUDAException.h"

namespace sk {

std::string cuda::detail::formatCUDAError(cudaError_t Code, const char *Expr,
                                          const char *File, int Line) {
  // Both strings come from cudart's tables: they need no driver or GPU.
  return sk::detail::str("CUDA error: '", Expr, "' failed with ",
                         cudaGetErrorName(Code), " (", cudaGetErrorString(Code),
                         ") at ", File, ":", Line);
}

void cuda::detail::throwCUDAError(cudaError_t Code, const char *Expr,
                                  const char *File, int Line) {
  // A sticky error (a kernel fault) stays; any other is cleared so that the
  // next check reports its own.
  (void)cudaGetLastError();
  throw CUDAError(formatCUDAError(Code, Expr, File, Line), Code);
}

} // namespace sk
