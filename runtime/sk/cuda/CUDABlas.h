//===--- CUDABlas.h - cuBLAS handles for kernels ----------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The cuBLAS handle a kernel uses (at::cuda::getCurrentCUDABlasHandle):
/// one per thread and device, bound to the thread's current stream at each
/// call, so that a GEMM runs in order with the kernels around it.
///
/// Note [cuBLAS handle pool]
/// Creating a handle costs milliseconds and some device memory, so handles
/// are pooled per device: a thread takes one on its first call for a
/// device and gives it back to the pool when it exits, for the next thread.
/// Pooled handles are never destroyed, as in c10: at process exit the
/// driver may already be gone, and cublasDestroy would then crash.
///
//===----------------------------------------------------------------------===//

#ifndef SK_CUDA_CUDABLAS_H
#define SK_CUDA_CUDABLAS_H

#include "sk/cuda/CUDAFunctions.h"
#include "sk/util/Exception.h"

#include <cublas_v2.h>

#include <string>

namespace sk {
namespace cuda {

/// The calling thread's cuBLAS handle for the current device, set to the
/// current stream.
cublasHandle_t getCurrentCUDABlasHandle();

namespace detail {
/// The message of a failed cuBLAS call (cublasGetStatusName/String).
std::string formatCUBLASError(cublasStatus_t Status, const char *Expr,
                              const char *File, int Line);
[[noreturn]] void throwCUBLASError(cublasStatus_t Status, const char *Expr,
                                   const char *File, int Line);
} // namespace detail

} // namespace cuda
} // namespace sk

/// Throws sk::Error unless \p EXPR, a cuBLAS call, returns
/// CUBLAS_STATUS_SUCCESS.
#define SK_CUBLAS_CHECK(EXPR)                                                  \
  do {                                                                         \
    const cublasStatus_t SkCublasStatus_ = (EXPR);                             \
    if (SK_UNLIKELY(SkCublasStatus_ != CUBLAS_STATUS_SUCCESS))                 \
      ::sk::cuda::detail::throwCUBLASError(SkCublasStatus_, #EXPR, __FILE__,   \
                                           __LINE__);                          \
  } while (false)

#endif // SK_CUDA_CUDABLAS_H
