//===--- KernelBenchCases.h - Every operator's benchmark call ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One call of every operator of the kernel library on a realistic shape,
/// by schema name with its boxed arguments (CPU tensors), for the
/// benchmarks against PyTorch: skc-bench-kernels-torch (libtorch, CPU) and
/// skc-bench-kernels-cuda (PyTorch on the GPU).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_BENCH_KERNELBENCHCASES_H
#define SKC_BENCH_KERNELBENCHCASES_H

#include "sk/dispatch/IValue.h"

#include <functional>
#include <string>
#include <vector>

namespace skbench {

/// One operator call: a label for the report ("add 16M f32"), the schema
/// name ("aten::add") and overload, and a maker of its arguments, so that
/// only the case running holds its inputs.
struct BenchCase {
  std::string Label;
  std::string Name, Overload;
  std::function<sk::Stack()> MakeArgs;
  /// Whether the call is bound by passes over its data, reading each
  /// input InputReads times and writing each output once (elementwise
  /// operators, reductions, softmax, layer_norm, batch_norm, pooling,
  /// copies), so that a copy of as many bytes bounds its time. Not so for
  /// matrix products and cdist (compute), lookups (they read what their
  /// indices name), masked_select and nonzero (a count first, read back
  /// by the host), or a case too small for bandwidth to matter.
  bool Streams = true;
  /// The passes over its inputs (out= arguments too) a streaming call
  /// must make: 2 for batch_norm training, which reads its input for the
  /// statistics, then to normalize it. An input that fits in the L2 cache
  /// is read from there the second time, and its vs_copy overstates.
  int InputReads = 1;
};

/// Appends the call of aten::\p Name.\p Overload to \p Cases; returns it.
BenchCase &addCase(std::vector<BenchCase> &Cases, std::string Label,
                   std::string Name, std::string Overload,
                   std::function<sk::Stack()> MakeArgs);

/// Every operator of the kernel library, float32 and, where it takes it,
/// bfloat16.
std::vector<BenchCase> makeKernelCases();

/// Arguments: normal and [0, 1) values, uniform int64 indices in
/// [0, High), and a bool mask of about half true, on the CPU.
sk::Tensor normal(std::vector<int64_t> Sizes,
                  sk::ScalarType D = sk::ScalarType::Float);
sk::Tensor unit(std::vector<int64_t> Sizes,
                sk::ScalarType D = sk::ScalarType::Float);
sk::Tensor indices(std::vector<int64_t> Sizes, int64_t High);
sk::Tensor mask(std::vector<int64_t> Sizes);

/// native_batch_norm's arguments for \p Input: normal weight and bias,
/// running mean 0 and variance 1, momentum 0.1, eps 1e-5.
sk::Stack batchNormArgs(sk::Tensor Input, bool Training);

/// native_batch_norm in training and in inference on a normal input of
/// \p Sizes ("batch_norm train 32x64x56x56", "batch_norm eval ...").
void addBatchNormCases(std::vector<BenchCase> &Cases,
                       std::vector<int64_t> Sizes);

} // namespace skbench

#endif // SKC_BENCH_KERNELBENCHCASES_H
