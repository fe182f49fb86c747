//===--- TorchBridge.h - libtorch's operators, called by name ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The differential test's way into libtorch: an operator called by its
/// schema name through c10's dispatcher (boxed), on arguments described in
/// plain C++ types. Neither ATen's headers nor the runtime's appear here,
/// so that TorchBridge.cpp compiles as ATen 2.x requires (C++20) while the
/// test stays C++17 and sees only the runtime's.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_TEST_DIFFERENTIAL_TORCHBRIDGE_H
#define SKC_TEST_DIFFERENTIAL_TORCHBRIDGE_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace skdiff {

/// A strided tensor on the CPU: its whole storage, bytes from offset 0.
struct PlainTensor {
  /// The dtype as Python names it ("float32", "bfloat16"); empty for an
  /// undefined tensor.
  std::string Dtype;
  std::vector<int64_t> Sizes;
  std::vector<int64_t> Strides;
  int64_t StorageOffset = 0;
  std::vector<unsigned char> Storage;
};

/// An argument or result: the IValue kinds the kernel library's schemas
/// use. A Scalar travels as Int or Double; a ScalarType by its name (in
/// String), as the runtime's enumerators are not c10's.
struct PlainValue {
  enum class Kind {
    None,
    Int,
    Double,
    Bool,
    String,
    IntList,
    DoubleList,
    BoolList,
    ScalarType,
    Tensor,
    TensorList
  };
  Kind K = Kind::None;
  int64_t Int = 0;
  double Double = 0;
  bool Bool = false;
  std::string String;
  std::vector<int64_t> Ints;
  std::vector<double> Doubles;
  std::vector<bool> Bools;
  /// One for a Tensor; the elements of a TensorList.
  std::vector<PlainTensor> Tensors;
};

struct TorchOutcome {
  /// c10::Error's message without its backtrace; empty when the call ran.
  std::string Error;
  std::vector<PlainValue> Results;
};

/// Whether the test was built with libtorch.
bool isTorchAvailable();
/// libtorch's version ("2.15.0"), or empty.
std::string getTorchVersion();
/// Calls `Name.Overload` (`aten::add`, `Tensor`) on \p Args with libtorch,
/// below autograd, on one thread.
TorchOutcome callTorch(const std::string &Name, const std::string &Overload,
                       const std::vector<PlainValue> &Args);

/// A libtorch call made once and run many times, for the benchmarks: the
/// arguments become libtorch's tensors once, and run() calls the operator
/// (boxed, below autograd) on them.
class PreparedTorchCall {
public:
  /// Throws std::invalid_argument when libtorch rejects the call.
  PreparedTorchCall(const std::string &Name, const std::string &Overload,
                    const std::vector<PlainValue> &Args);
  ~PreparedTorchCall();
  PreparedTorchCall(const PreparedTorchCall &) = delete;
  PreparedTorchCall &operator=(const PreparedTorchCall &) = delete;

  void run();

  /// at::set_num_threads.
  static void setThreads(int N);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace skdiff

#endif // SKC_TEST_DIFFERENTIAL_TORCHBRIDGE_H
