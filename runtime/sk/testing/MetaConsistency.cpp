//===--- MetaConsistency.cpp - Meta against CPU, from the schema ----------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/testing/MetaConsistency.h"
#include "sk/testing/SchemaSamples.h"

#include "sk/core/DeviceGuard.h"
#include "sk/core/DispatchKey.h"
#include "sk/dispatch/Dispatcher.h"
#include "sk/ops/Factories.h"
#include "sk/util/Exception.h"

#include <algorithm>
#include <optional>
#include <random>
#include <sstream>

namespace sk {
namespace testing {

// Note [Meta consistency samples]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The samples are Note [Schema samples] (SchemaSamples.cpp), copied to
// the backend and to Meta.
//
// Many samples are invalid for a given operator (mm of two [2, 3]). That
// is the point: a sample the CPU kernel rejects must not crash the Meta
// kernel, and one the CPU kernel accepts must give the same sizes, strides
// and dtype on Meta. Strides are compared on dimensions of size > 1 only,
// and not at all for empty tensors: elsewhere they carry no meaning and
// PyTorch's kernels do not agree on them either. A sample the CPU kernel
// rejects while the Meta kernel accepts it is not a failure: the fault may
// lie in the values, which a meta tensor does not have.

namespace {

/// \p T's sizes, strides and dtype on \p D, with its values unless \p D is
/// Meta.
Tensor copyTo(const Tensor &T, Device D) {
  if (D == T.device())
    return T;
  Tensor Result = empty_strided(T.sizes(), T.strides(),
                                TensorOptions().dtype(T.dtype()).device(D));
  if (!Result.is_meta())
    Result.copy_(T);
  return Result;
}

/// The arguments of one sample, on the backend and on Meta.
struct Sample {
  Stack Backend;
  Stack Meta;
};

/// \p S's arguments on \p Backend and on Meta: tensors copied, a device
/// argument each run's own.
Sample placeSample(const OperatorSchema &Schema, const SchemaSample &S,
                   Device Backend) {
  Sample Placed;
  for (size_t I = 0; I != S.Args.size(); ++I) {
    const IValue &V = S.Args[I];
    const SchemaType &T = Schema.Arguments[I].Type;
    if (T.Base == ValueKind::Device && !T.IsList) {
      Placed.Backend.push_back(IValue(Backend));
      Placed.Meta.push_back(IValue(Device(kMeta)));
    } else if (V.isTensor()) {
      Placed.Backend.push_back(IValue(copyTo(V.toTensor(), Backend)));
      Placed.Meta.push_back(IValue(copyTo(V.toTensor(), kMeta)));
    } else if (V.isTensorList()) {
      std::vector<Tensor> OnBackend, OnMeta;
      for (const Tensor &E : V.toTensorList()) {
        OnBackend.push_back(copyTo(E, Backend));
        OnMeta.push_back(copyTo(E, kMeta));
      }
      Placed.Backend.push_back(IValue(std::move(OnBackend)));
      Placed.Meta.push_back(IValue(std::move(OnMeta)));
    } else {
      Placed.Backend.push_back(V);
      Placed.Meta.push_back(V);
    }
  }
  return Placed;
}

/// Runs \p Op over \p Args on \p Where; returns the error message, or
/// nothing.
std::optional<std::string> run(const OperatorHandle &Op, Stack &Args,
                               Device Where) {
  try {
    Op.callBoxed(Args);
    // Errors a kernel finds on the device come at the next wait.
    synchronizeDevice(Where);
    return std::nullopt;
  } catch (const std::exception &E) {
    return std::string(E.what());
  }
}

/// What differs between result \p C of backend \p On and Meta result
/// \p M, or empty.
std::string compareTensors(const Tensor &C, const Tensor &M,
                           std::string_view On) {
  std::ostringstream OS;
  if (!M.defined() || !C.defined()) {
    if (M.defined() != C.defined())
      OS << "one result is undefined";
    return OS.str();
  }
  if (!M.is_meta())
    OS << "the Meta result is on " << M.device() << "; ";
  if (C.sizes() != M.sizes())
    OS << "sizes " << C.sizes() << " on " << On << ", " << M.sizes()
       << " on Meta; ";
  if (C.dtype() != M.dtype())
    OS << "dtype " << C.dtype() << " on " << On << ", " << M.dtype()
       << " on Meta; ";
  if (C.sizes() == M.sizes() && C.numel() != 0)
    for (int64_t D = 0; D != C.dim(); ++D)
      if (C.size(D) > 1 && C.stride(D) != M.stride(D)) {
        OS << "strides " << C.strides() << " on " << On << ", "
           << M.strides() << " on Meta; ";
        break;
      }
  std::string Diff = OS.str();
  if (Diff.size() >= 2)
    Diff.resize(Diff.size() - 2); // The last "; ".
  return Diff;
}

std::string compareResults(const Stack &CPU, const Stack &Meta,
                           std::string_view On) {
  if (CPU.size() != Meta.size())
    return "a different number of results";
  std::string Diff;
  for (size_t I = 0; I != CPU.size(); ++I) {
    std::string D;
    if (CPU[I].isTensor()) {
      D = Meta[I].isTensor() ? compareTensors(CPU[I].toTensor(),
                                              Meta[I].toTensor(), On)
                             : "the Meta result is not a tensor";
    } else if (CPU[I].isTensorList()) {
      const std::vector<Tensor> &C = CPU[I].toTensorList();
      const std::vector<Tensor> &M = Meta[I].toTensorList();
      if (C.size() != M.size())
        D = "lists of different lengths";
      for (size_t J = 0; D.empty() && J != C.size(); ++J)
        D = compareTensors(C[J], M[J], On);
    }
    if (!D.empty())
      Diff += (Diff.empty() ? "" : "; ") + ("result " + std::to_string(I) +
                                             ": " + D);
  }
  return Diff;
}

} // namespace

bool isDeviceAvailable(DeviceType T) {
  try {
    return empty({1}, TensorOptions().device(Device(T))).defined();
  } catch (const std::exception &) {
    return false;
  }
}

MetaConsistencyReport checkMetaConsistency(std::string_view Name,
                                           std::string_view Overload,
                                           bool ExpectMetaRefusal,
                                           Device Backend) {
  OperatorHandle Op = Dispatcher::singleton().findSchemaOrThrow(Name, Overload);
  const OperatorSchema &Schema = Op.schema();
  // Nothing would send such an operator to Meta.
  SK_CHECK(std::any_of(Schema.Arguments.begin(), Schema.Arguments.end(),
                       [](const SchemaArgument &A) {
                         return A.Type.Base == ValueKind::Tensor ||
                                A.Type.Base == ValueKind::Device;
                       }),
           "checkMetaConsistency(): ", Name,
           " has neither tensor nor device arguments");

  MetaConsistencyReport R;
  // "CPU", "CUDA": the backend as the dispatcher names it.
  std::string BackendName(toString(backendKeyOf(Backend.type())));
  std::mt19937 Random(20211101);
  std::string OpName = std::string(Name) +
                       (Overload.empty() ? "" : "." + std::string(Overload));
  for (const SchemaSample &Made : makeSchemaSamples(Schema, Random)) {
    Sample S = placeSample(Schema, Made, Backend);
    ++R.Samples;
    std::optional<std::string> CPUError = run(Op, S.Backend, Backend);
    std::optional<std::string> MetaError =
        run(Op, S.Meta, Device(DeviceType::Meta));
    if (CPUError) {
      ++R.RejectedOnCPU;
      continue;
    }
    if (MetaError) {
      ++R.RefusedOnMeta;
      if (R.FirstMetaRefusal.empty())
        R.FirstMetaRefusal = *MetaError;
      if (!ExpectMetaRefusal)
        R.Failures.push_back(OpName + "(" + Made.Description + "): ran on " +
                             BackendName +
                             ", but Meta refused it: " + *MetaError);
      continue;
    }
    if (ExpectMetaRefusal) {
      R.Failures.push_back(OpName + "(" + Made.Description +
                           "): Meta ran a data-dependent operator");
      continue;
    }
    ++R.Compared;
    std::string Diff = compareResults(S.Backend, S.Meta, BackendName);
    if (!Diff.empty())
      R.Failures.push_back(OpName + "(" + Made.Description + "): " + Diff);
  }
  return R;
}

} // namespace testing
} // namespace sk
