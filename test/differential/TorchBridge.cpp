//===--- TorchBridge.cpp - libtorch's operators, called by name -----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Built with libtorch 2.x (C++20, the C++11 ABI), in a target of its own.
///
//===----------------------------------------------------------------------===//

#include "TorchBridge.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/InferenceMode.h>
#include <c10/util/Exception.h>
#include <torch/headeronly/version.h>

#include <cstring>
#include <stdexcept>

namespace skdiff {
namespace {

/// The dtypes PlainTensor names, by their names in Python.
const std::pair<const char *, c10::ScalarType> DtypeNames[] = {
    {"bool", c10::kBool},     {"uint8", c10::kByte},
    {"int8", c10::kChar},     {"int16", c10::kShort},
    {"int32", c10::kInt},     {"int64", c10::kLong},
    {"float16", c10::kHalf},  {"bfloat16", c10::kBFloat16},
    {"float32", c10::kFloat}, {"float64", c10::kDouble}};

c10::ScalarType getScalarType(const std::string &Name) {
  for (const auto &[N, T] : DtypeNames)
    if (Name == N)
      return T;
  throw std::invalid_argument("no libtorch dtype named '" + Name + "'");
}

std::string getDtypeName(c10::ScalarType T) {
  for (const auto &[N, D] : DtypeNames)
    if (T == D)
      return N;
  throw std::invalid_argument(std::string("libtorch returned a tensor of ") +
                              c10::toString(T) + ", which skc lacks");
}

at::Tensor toTorch(const PlainTensor &P) {
  if (P.Dtype.empty())
    return at::Tensor();
  c10::ScalarType T = getScalarType(P.Dtype);
  int64_t Elements =
      static_cast<int64_t>(P.Storage.size()) / c10::elementSize(T);
  at::Tensor Base = at::empty({Elements}, at::TensorOptions().dtype(T));
  if (!P.Storage.empty())
    std::memcpy(Base.data_ptr(), P.Storage.data(), P.Storage.size());
  return Base.as_strided(P.Sizes, P.Strides, P.StorageOffset);
}

PlainTensor fromTorch(const at::Tensor &T) {
  PlainTensor P;
  if (!T.defined())
    return P;
  P.Dtype = getDtypeName(T.scalar_type());
  P.Sizes = T.sizes().vec();
  P.Strides = T.strides().vec();
  P.StorageOffset = T.storage_offset();
  const c10::Storage &S = T.storage();
  P.Storage.resize(S.nbytes());
  if (S.nbytes() != 0)
    std::memcpy(P.Storage.data(), S.data(), S.nbytes());
  return P;
}

c10::IValue toTorch(const PlainValue &V) {
  using Kind = PlainValue::Kind;
  switch (V.K) {
  case Kind::None:
    return c10::IValue();
  case Kind::Int:
    return c10::IValue(V.Int);
  case Kind::Double:
    return c10::IValue(V.Double);
  case Kind::Bool:
    return c10::IValue(V.Bool);
  case Kind::String:
    return c10::IValue(V.String);
  case Kind::ScalarType:
    return c10::IValue(getScalarType(V.String));
  case Kind::IntList:
    return c10::IValue(V.Ints);
  case Kind::DoubleList:
    return c10::IValue(V.Doubles);
  case Kind::BoolList: {
    c10::List<bool> L;
    for (bool B : V.Bools)
      L.push_back(B);
    return c10::IValue(L);
  }
  case Kind::Tensor:
    return c10::IValue(toTorch(V.Tensors.at(0)));
  case Kind::TensorList: {
    std::vector<at::Tensor> L;
    for (const PlainTensor &T : V.Tensors)
      L.push_back(toTorch(T));
    return c10::IValue(L);
  }
  }
  throw std::logic_error("unknown PlainValue kind");
}

PlainValue fromTorch(const c10::IValue &V) {
  using Kind = PlainValue::Kind;
  PlainValue P;
  if (V.isTensor()) {
    P.K = Kind::Tensor;
    P.Tensors.push_back(fromTorch(V.toTensor()));
  } else if (V.isTensorList()) {
    P.K = Kind::TensorList;
    for (const at::Tensor &T : V.toTensorVector())
      P.Tensors.push_back(fromTorch(T));
  } else if (V.isInt()) {
    P.K = Kind::Int;
    P.Int = V.toInt();
  } else if (V.isDouble()) {
    P.K = Kind::Double;
    P.Double = V.toDouble();
  } else if (V.isBool()) {
    P.K = Kind::Bool;
    P.Bool = V.toBool();
  } else if (!V.isNone()) {
    throw std::invalid_argument("a libtorch result of kind " + V.tagKind() +
                                " has no PlainValue");
  }
  return P;
}

/// Keeps libtorch's warnings (an out= tensor resized, ...) off stderr.
class QuietWarnings : public c10::WarningHandler {
  void process(const c10::Warning &) override {}
};

} // namespace

bool isTorchAvailable() { return true; }

std::string getTorchVersion() { return TORCH_VERSION; }

TorchOutcome callTorch(const std::string &Name, const std::string &Overload,
                       const std::vector<PlainValue> &Args) {
  static const bool OneThread = [] {
    at::set_num_threads(1);
    return true;
  }();
  (void)OneThread;
  static QuietWarnings Quiet;
  c10::WarningUtils::WarningHandlerGuard Warnings(&Quiet);
  c10::InferenceMode Guard;
  TorchOutcome Outcome;
  try {
    c10::OperatorHandle Op = c10::Dispatcher::singleton().findSchemaOrThrow(
        Name.c_str(), Overload.c_str());
    torch::jit::Stack Stack;
    for (const PlainValue &V : Args)
      Stack.push_back(toTorch(V));
    Op.callBoxed(Stack);
    for (const c10::IValue &V : Stack)
      Outcome.Results.push_back(fromTorch(V));
  } catch (const c10::Error &E) {
    Outcome.Error = E.what_without_backtrace();
    if (Outcome.Error.empty())
      Outcome.Error = "(a libtorch error without a message)";
  } catch (const std::exception &E) {
    Outcome.Error = E.what();
  }
  return Outcome;
}

struct PreparedTorchCall::Impl {
  c10::OperatorHandle Op;
  torch::jit::Stack Args;
};

PreparedTorchCall::PreparedTorchCall(const std::string &Name,
                                     const std::string &Overload,
                                     const std::vector<PlainValue> &Args) {
  c10::InferenceMode Guard;
  P = std::make_unique<Impl>(
      Impl{c10::Dispatcher::singleton().findSchemaOrThrow(Name.c_str(),
                                                          Overload.c_str()),
           {}});
  for (const PlainValue &V : Args)
    P->Args.push_back(toTorch(V));
  try {
    run();
  } catch (const c10::Error &E) {
    throw std::invalid_argument(Name + "." + Overload + ": " +
                                E.what_without_backtrace());
  }
}

PreparedTorchCall::~PreparedTorchCall() = default;

void PreparedTorchCall::run() {
  static QuietWarnings Quiet;
  c10::WarningUtils::WarningHandlerGuard Warnings(&Quiet);
  c10::InferenceMode Guard;
  torch::jit::Stack Stack = P->Args;
  P->Op.callBoxed(Stack);
}

void PreparedTorchCall::setThreads(int N) { at::set_num_threads(N); }

} // namespace skdiff
