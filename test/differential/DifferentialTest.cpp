//===--- DifferentialTest.cpp - The kernel library against libtorch -------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every operator of the kernel library, run through skc's dispatcher and
/// through libtorch's on the same arguments, boxed, by schema name; one test
/// per operator (Note [Differential cases]). Where there is a GPU, every
/// operator with a CUDA kernel also runs on CUDA and on skc's own CPU
/// kernels over the same cases. Differences listed in docs/kernels.md are
/// counted, not failed.
///
//===----------------------------------------------------------------------===//

#include "PlainValues.h"
#include "TorchBridge.h"
#include "TorchProcess.h"

#include "sk/core/DeviceGuard.h"
#include "sk/dispatch/Dispatcher.h"
#include "sk/ops/Factories.h"
#include "sk/testing/MetaConsistency.h"
#include "sk/testing/SchemaSamples.h"
#include "sk/util/Exception.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

using namespace sk;
using skdiff::fromPlain;
using skdiff::PlainTensor;
using skdiff::PlainValue;
using skdiff::toPlain;

namespace {

// Note [Differential cases]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// Each operator starts from the argument lists of Note [Schema samples]
// (shapes, a scalar and empty ones among them, broadcasting pairs, five
// dtypes, a table with indices, every non-tensor argument's values). Each
// sample then runs as several cases:
//
//  - its floating tensors filled with normal values, with values in
//    [0, 1), and with special values (infinities, NaN, signed zeros, huge
//    and subnormal numbers among normal ones); integral and bool tensors
//    keep their small values, which are often valid indices;
//  - its input tensors laid out transposed (strides reversed), strided
//    (every other element of a wider tensor) and expanded (a first
//    dimension of stride 0);
//  - its floating tensors as float16 and as bfloat16;
//  - for out= operators, the out tensors as the sample has them (often the
//    wrong shape, so resized), then of the right shape (as skc's first run
//    left them) contiguous, transposed and strided, and empty.
//
// Both sides get the same bytes: each tensor travels as its whole storage
// with sizes, strides and offset. The results are compared as PyTorch's
// assert_close does: dtype, sizes, values within its tolerances per dtype
// (NaN equal to NaN), and also strides, on dimensions of size > 1 of
// non-empty results, where PyTorch defines them; and the call must fail on
// both sides or on neither.
//
// The same cases check the CUDA kernels against the CPU ones: each case's
// tensors (out= ones included) move to the GPU with their whole storages,
// so that offsets, strides and overlaps survive, and a device argument
// becomes the GPU. skc's CPU kernels are the reference there, since the
// libtorch run above holds them to PyTorch's.

/// The arguments of one case and what it is, for a failure's message.
struct Case {
  Stack Args;
  std::string Description;
  /// Its floating inputs hold special values.
  bool Special = false;
};

/// What a difference is about; the second column of docs/kernels.md's
/// table of deliberate differences.
enum class Aspect { Errors, Dtype, Sizes, Strides, Values, SpecialValues };

const char *getAspectName(Aspect A) {
  switch (A) {
  case Aspect::Errors:
    return "errors";
  case Aspect::Dtype:
    return "dtype";
  case Aspect::Sizes:
    return "sizes";
  case Aspect::Strides:
    return "strides";
  case Aspect::Values:
    return "values";
  case Aspect::SpecialValues:
    return "special values";
  }
  return "?";
}

/// What skc's results are compared with.
enum class Reference {
  /// libtorch's CPU kernels, on the same arguments.
  Libtorch,
  /// skc's own CPU kernels, for its results on CUDA.
  CPU,
  /// PyTorch's CUDA kernels, in a python3 process beside this one
  /// (TorchProcess.h), for skc's results on CUDA.
  TorchCUDA,
};

constexpr Reference AllReferences[] = {Reference::Libtorch, Reference::CPU,
                                       Reference::TorchCUDA};

/// How messages name the two sides of a comparison with a reference, whose
/// kernels are under test, and which docs/kernels.md sections list the
/// differences: its own, whose rows a whole run must all see, and others
/// that also hold for it (PyTorch's behaviour on the CPU, mostly that on
/// CUDA too) but need not all occur.
struct ReferenceTraits {
  const char *Ours;
  const char *Theirs;
  DispatchKey Backend;
  std::vector<std::string> Headings;
  std::vector<std::string> AlsoHeadings = {};
};

const ReferenceTraits &getTraits(Reference R) {
  static const ReferenceTraits Libtorch = {
      "skc",
      "libtorch",
      DispatchKey::CPU,
      {"## Deliberate differences from PyTorch",
       "## Differences from PyTorch not yet resolved"}};
  static const ReferenceTraits CPU = {
      "CUDA",
      "the CPU",
      DispatchKey::CUDA,
      {"## Differences between CUDA and the CPU"}};
  static const ReferenceTraits TorchCUDA = {
      "CUDA",
      "PyTorch",
      DispatchKey::CUDA,
      {"## Differences from PyTorch on CUDA"},
      {"## Deliberate differences from PyTorch",
       "## Differences from PyTorch not yet resolved"}};
  switch (R) {
  case Reference::Libtorch:
    return Libtorch;
  case Reference::CPU:
    return CPU;
  case Reference::TorchCUDA:
    return TorchCUDA;
  }
  return Libtorch;
}

//===----------------------------------------------------------------------===//
// Known differences, read from docs/kernels.md
//===----------------------------------------------------------------------===//

/// One row of docs/kernels.md's tables of differences (from PyTorch,
/// deliberate and not yet resolved; between CUDA and the CPU): an operator
/// (`aten::nonzero`, every overload; or one overload, `aten::nonzero.out`)
/// and the aspect that differs (`strides`), in every result or in one
/// (`values of result 2`).
struct KnownDifference {
  std::string Operator;
  std::string Aspect;
  /// A run that does not see the difference does not make the row stale:
  /// the reference's result depends on the machine it runs on (the aspect
  /// ends in ", on some CPUs"), or the row is in another reference's
  /// section (ReferenceTraits::AlsoHeadings).
  bool MayNotOccur = false;
  /// The differences of this run that the row covers.
  unsigned Matches = 0;
};

/// The suffix of an aspect that differs on some machines only.
constexpr std::string_view kOnSomeCPUs = ", on some CPUs";

/// Whether \p Headings holds \p Heading.
bool isOneOf(const std::string &Heading,
             const std::vector<std::string> &Headings) {
  return std::find(Headings.begin(), Headings.end(), Heading) != Headings.end();
}

/// docs/kernels.md: the source tree's, or SKC_KERNELS_DOC's on a GPU
/// machine that has the binaries and a checkout elsewhere.
std::string getKernelsDoc() {
  const char *Env = std::getenv("SKC_KERNELS_DOC");
  return Env && *Env ? Env : SKC_KERNELS_DOC;
}

std::vector<KnownDifference> readKnownDifferences(Reference R) {
  std::vector<KnownDifference> Known;
  std::string Doc = getKernelsDoc();
  std::ifstream In(Doc);
  if (!In)
    throw std::runtime_error("cannot read " + Doc +
                             ", which lists the known differences; set "
                             "SKC_KERNELS_DOC to the checkout's copy");
  const ReferenceTraits &Traits = getTraits(R);
  std::string Line;
  bool InOwnSection = false, InOtherSection = false;
  while (std::getline(In, Line)) {
    if (Line.rfind("## ", 0) == 0) {
      InOwnSection = isOneOf(Line, Traits.Headings);
      InOtherSection = isOneOf(Line, Traits.AlsoHeadings);
    }
    if (!(InOwnSection || InOtherSection) || Line.rfind("| `", 0) != 0)
      continue;
    // | `aten::nonzero` | strides | why |
    size_t OpEnd = Line.find('`', 3);
    size_t AspectStart = Line.find('|', OpEnd) + 1;
    size_t AspectEnd = Line.find('|', AspectStart);
    std::string Aspect = Line.substr(AspectStart, AspectEnd - AspectStart);
    Aspect.erase(0, Aspect.find_first_not_of(' '));
    Aspect.erase(Aspect.find_last_not_of(' ') + 1);
    bool OnSomeMachines = Aspect.size() > kOnSomeCPUs.size() &&
                          Aspect.compare(Aspect.size() - kOnSomeCPUs.size(),
                                         kOnSomeCPUs.size(), kOnSomeCPUs) == 0;
    if (OnSomeMachines)
      Aspect.erase(Aspect.size() - kOnSomeCPUs.size());
    Known.push_back(
        {Line.substr(3, OpEnd - 3), Aspect, OnSomeMachines || InOtherSection});
  }
  return Known;
}

/// The rows listing differences from \p R, read once.
std::vector<KnownDifference> &getKnownDifferences(Reference R) {
  static std::map<Reference, std::vector<KnownDifference>> Known = [] {
    std::map<Reference, std::vector<KnownDifference>> M;
    for (Reference Each : AllReferences)
      M[Each] = readKnownDifferences(Each);
    return M;
  }();
  return Known[R];
}

/// Whether a row lists this difference; counts it in every row that does.
/// A row about values covers them whatever the inputs hold; one about
/// special values covers only cases with special values.
bool isKnownDifference(const OperatorName &Op, Aspect A, size_t Result,
                       Reference R) {
  std::string Full =
      Op.Name + (Op.Overload.empty() ? std::string() : "." + Op.Overload);
  std::vector<std::string> Names = {getAspectName(A)};
  if (A == Aspect::SpecialValues)
    Names.push_back(getAspectName(Aspect::Values));
  bool Known = false;
  for (KnownDifference &K : getKnownDifferences(R))
    for (const std::string &Name : Names)
      if ((K.Operator == Op.Name || K.Operator == Full) &&
          (K.Aspect == Name ||
           K.Aspect == Name + " of result " + std::to_string(Result))) {
        ++K.Matches;
        Known = true;
        break;
      }
  return Known;
}

//===----------------------------------------------------------------------===//
// Tensors: values, layouts, and the way to libtorch and back
//===----------------------------------------------------------------------===//

enum class Values { Normal, UnitInterval, Special };

const char *getValuesName(Values V) {
  switch (V) {
  case Values::Normal:
    return "normal values";
  case Values::UnitInterval:
    return "values in [0, 1)";
  case Values::Special:
    return "special values";
  }
  return "?";
}

/// \p T with its floating values drawn anew as \p V says; other dtypes
/// keep theirs. A new tensor of \p T's layout.
Tensor refill(const Tensor &T, Values V, std::mt19937 &Random) {
  if (!isFloatingType(T.dtype()))
    return T;
  std::vector<int64_t> Sizes(T.sizes().begin(), T.sizes().end());
  Tensor Fresh = empty(Sizes, TensorOptions().dtype(kDouble));
  double *P = Fresh.data_ptr<double>();
  std::normal_distribution<double> Normal;
  std::uniform_real_distribution<double> Unit;
  const double Specials[] = {std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(),
                             0.0,
                             -0.0,
                             1e30,
                             -1e30,
                             1e-40};
  std::uniform_int_distribution<int> Pick(0, 2 * std::size(Specials) - 1);
  for (int64_t I = 0, N = Fresh.numel(); I != N; ++I) {
    switch (V) {
    case Values::Normal:
      P[I] = Normal(Random);
      break;
    case Values::UnitInterval:
      P[I] = Unit(Random);
      break;
    case Values::Special: {
      size_t K = Pick(Random);
      P[I] = K < std::size(Specials) ? Specials[K] : Normal(Random);
      break;
    }
    }
  }
  Tensor R =
      empty_strided(T.sizes(), T.strides(), TensorOptions().dtype(T.dtype()));
  R.copy_(Fresh);
  return R;
}

enum class Layout { AsMade, Contiguous, Transposed, Strided, Expanded };

const char *getLayoutName(Layout L) {
  switch (L) {
  case Layout::AsMade:
    return "as made";
  case Layout::Contiguous:
    return "contiguous";
  case Layout::Transposed:
    return "transposed";
  case Layout::Strided:
    return "strided";
  case Layout::Expanded:
    return "expanded";
  }
  return "?";
}

/// A tensor of \p Sizes and \p Dtype laid out as \p L says (AsMade and
/// Expanded: contiguous), its values uninitialized.
Tensor emptyWithLayout(IntArrayRef Sizes, ScalarType Dtype, Layout L) {
  TensorOptions Options = TensorOptions().dtype(Dtype);
  std::vector<int64_t> Shape(Sizes.begin(), Sizes.end());
  int64_t Dim = static_cast<int64_t>(Shape.size());
  if (L == Layout::Transposed && Dim >= 2) {
    std::vector<int64_t> Reversed(Shape.rbegin(), Shape.rend());
    std::vector<int64_t> Order;
    for (int64_t D = Dim - 1; D >= 0; --D)
      Order.push_back(D);
    return empty(Reversed, Options).permute(Order);
  }
  if (L == Layout::Strided && Dim >= 1) {
    std::vector<int64_t> Wide = Shape;
    Wide.back() *= 2;
    return empty(Wide, Options).slice(Dim - 1, 0, std::nullopt, 2);
  }
  return empty(Shape, Options);
}

/// \p T's values laid out as \p L says. Expanded changes the values: the
/// first row, repeated.
Tensor relayout(const Tensor &T, Layout L) {
  if (L == Layout::AsMade)
    return T;
  if (L == Layout::Expanded) {
    if (T.dim() == 0 || T.size(0) < 2)
      return T;
    std::vector<int64_t> RowShape(T.sizes().begin(), T.sizes().end());
    RowShape[0] = 1;
    Tensor Row = empty(RowShape, TensorOptions().dtype(T.dtype()));
    Row.copy_(T.narrow(0, 0, 1));
    return Row.expand(T.sizes());
  }
  Tensor R = emptyWithLayout(T.sizes(), T.dtype(), L);
  R.copy_(T);
  return R;
}

/// \p T on \p D with its whole storage, so that its offset, strides and
/// overlaps survive.
Tensor moveStorage(const Tensor &T, Device D) {
  if (!T.defined() || T.device() == D)
    return T;
  return fromPlain(toPlain(T), D);
}

//===----------------------------------------------------------------------===//
// Comparing results
//===----------------------------------------------------------------------===//

/// PyTorch's assert_close tolerances for \p T: {rtol, atol}.
std::pair<double, double> getTolerances(ScalarType T) {
  switch (T) {
  case kHalf:
    return {1e-3, 1e-5};
  case kBFloat16:
    return {1.6e-2, 1e-5};
  case kFloat:
    return {1.3e-6, 1e-5};
  case kDouble:
    return {1e-7, 1e-7};
  default:
    return {0, 0};
  }
}

/// The first difference between skc's \p S and the reference's \p R (on
/// the CPU), or none; values within the tolerances of the less precise of
/// their dtype and \p Inputs, the least precise floating input's (a
/// float32 out= of float16 inputs holds float16 results).
std::optional<std::pair<Aspect, std::string>> compareTensors(const Tensor &S,
                                                             const Tensor &R,
                                                             ScalarType Inputs,
                                                             Reference Ref) {
  const char *Ours = getTraits(Ref).Ours, *Theirs = getTraits(Ref).Theirs;
  std::ostringstream OS;
  if (S.defined() != R.defined())
    return std::make_pair(Aspect::Sizes, std::string("one result undefined"));
  if (!S.defined())
    return std::nullopt;
  if (S.dtype() != R.dtype()) {
    OS << "dtype " << S.dtype() << " from " << Ours << ", " << R.dtype()
       << " from " << Theirs;
    return std::make_pair(Aspect::Dtype, OS.str());
  }
  if (S.sizes() != R.sizes()) {
    OS << "sizes " << S.sizes() << " from " << Ours << ", " << R.sizes()
       << " from " << Theirs;
    return std::make_pair(Aspect::Sizes, OS.str());
  }
  if (S.numel() == 0)
    return std::nullopt;
  Tensor A = S.to(Device(kCPU)).to(kDouble).contiguous();
  Tensor B = R.to(kDouble).contiguous();
  const double *PA = A.data_ptr<double>(), *PB = B.data_ptr<double>();
  auto [RTol, ATol] = getTolerances(S.dtype());
  if (isFloatingType(S.dtype()) && getTolerances(Inputs).first > RTol)
    std::tie(RTol, ATol) = getTolerances(Inputs);
  for (int64_t I = 0, N = A.numel(); I != N; ++I) {
    double X = PA[I], Y = PB[I];
    bool Close = (std::isnan(X) && std::isnan(Y)) || X == Y ||
                 (std::isfinite(X) && std::isfinite(Y) &&
                  std::abs(X - Y) <= ATol + RTol * std::abs(Y));
    if (Close)
      continue;
    OS << "values differ at flat index " << I << " of " << S.sizes() << ": "
       << Ours << " " << X << ", " << Theirs << " " << Y;
    return std::make_pair(Aspect::Values, OS.str());
  }
  for (int64_t D = 0; D != S.dim(); ++D)
    if (S.size(D) > 1 && S.stride(D) != R.stride(D)) {
      OS << "strides " << S.strides() << " from " << Ours << ", " << R.strides()
         << " from " << Theirs;
      return std::make_pair(Aspect::Strides, OS.str());
    }
  return std::nullopt;
}

/// A difference in result Result.
struct Difference {
  Aspect What;
  size_t Result;
  std::string Message;
};

/// The tensors of result \p V: one, a list's, or none.
std::vector<Tensor> getTensors(const IValue &V) {
  if (V.isTensor())
    return {V.toTensor()};
  if (V.isTensorList())
    return V.toTensorList();
  return {};
}

std::optional<Difference> compareResults(const Stack &S, const Stack &R,
                                         ScalarType Inputs, Reference Ref) {
  if (S.size() != R.size())
    return Difference{Aspect::Sizes, 0, "a different number of results"};
  for (size_t I = 0; I != S.size(); ++I) {
    std::vector<Tensor> Ours = getTensors(S[I]), Theirs = getTensors(R[I]);
    if (Ours.size() != Theirs.size())
      return Difference{Aspect::Sizes, I,
                        "result " + std::to_string(I) +
                            ": lists of different lengths"};
    for (size_t J = 0; J != Ours.size(); ++J)
      if (auto D = compareTensors(Ours[J], Theirs[J], Inputs, Ref))
        return Difference{D->first, I,
                          "result " + std::to_string(I) + ": " + D->second};
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

bool isOutArgument(const SchemaArgument &A) {
  return A.IsWrite && A.IsKwargOnly;
}

/// \p S with every input tensor (not the out= ones) mapped by \p F.
template <typename Fn>
Stack mapInputs(const OperatorSchema &Schema, const Stack &S, Fn F) {
  Stack R;
  for (size_t I = 0; I != S.size(); ++I) {
    const IValue &V = S[I];
    if (isOutArgument(Schema.Arguments[I])) {
      R.push_back(V.isTensor()
                      ? IValue(relayout(V.toTensor(), Layout::Contiguous))
                      : V);
    } else if (V.isTensor()) {
      R.push_back(IValue(F(V.toTensor())));
    } else if (V.isTensorList()) {
      std::vector<Tensor> L;
      for (const Tensor &T : V.toTensorList())
        L.push_back(F(T));
      R.push_back(IValue(std::move(L)));
    } else {
      R.push_back(V);
    }
  }
  return R;
}

/// Runs \p Op on \p Args, on \p Where; returns its error, or none. A CUDA
/// kernel's checks of its input are reported at the next wait (Note [Device
/// checks] in sk/cuda/DeviceChecks.h), so the run waits for the device.
std::optional<std::string> runSkc(const OperatorHandle &Op, Stack &Args,
                                  Device Where = Device(DeviceType::CPU)) {
  try {
    Op.callBoxed(Args);
    synchronizeDevice(Where);
    return std::nullopt;
  } catch (const std::exception &E) {
    return std::string(E.what());
  }
}

std::vector<Case> makeCases(const OperatorHandle &Op,
                            const sk::testing::SchemaSample &Sample,
                            std::mt19937 &Random) {
  const OperatorSchema &Schema = Op.schema();
  std::vector<Case> Cases;
  auto Describe = [&](const std::string &What) {
    return Sample.Description + "; " + What;
  };
  // Values, then layouts of the inputs.
  for (Values V : {Values::Normal, Values::UnitInterval, Values::Special})
    for (Layout L : {Layout::AsMade, Layout::Transposed, Layout::Strided,
                     Layout::Expanded}) {
      Stack Args = mapInputs(Schema, Sample.Args, [&](const Tensor &T) {
        return relayout(refill(T, V, Random), L);
      });
      Cases.push_back({std::move(Args),
                       Describe(std::string(getValuesName(V)) + ", inputs " +
                                getLayoutName(L)),
                       V == Values::Special});
    }
  // Reduced-precision floating inputs.
  for (ScalarType D : {kHalf, kBFloat16}) {
    Stack Args = mapInputs(Schema, Sample.Args, [&](const Tensor &T) {
      Tensor R = refill(T, Values::Normal, Random);
      return isFloatingType(R.dtype()) ? R.to(D) : R;
    });
    Cases.push_back({std::move(Args), Describe("floating inputs as " +
                                               std::string(toString(D)))});
  }
  // out= tensors of the right shape, in every layout, and empty ones.
  if (std::none_of(Schema.Arguments.begin(), Schema.Arguments.end(),
                   isOutArgument))
    return Cases;
  Stack Probe = mapInputs(Schema, Sample.Args, [](const Tensor &T) {
    return relayout(T, Layout::Contiguous);
  });
  Stack Base = Probe;
  if (runSkc(Op, Probe))
    return Cases;
  for (Layout L : {Layout::Contiguous, Layout::Transposed, Layout::Strided,
                   Layout::AsMade}) {
    Stack Args = mapInputs(Schema, Base, [&](const Tensor &T) {
      return refill(T, Values::Normal, Random);
    });
    for (size_t I = 0; I != Args.size(); ++I) {
      if (!isOutArgument(Schema.Arguments[I]) || !Args[I].isTensor())
        continue;
      // The shape skc's run gave it; AsMade stands for an empty one.
      const Tensor &Shaped = Base[I].toTensor();
      Args[I] =
          IValue(L == Layout::AsMade
                     ? empty({0}, TensorOptions().dtype(Shaped.dtype()))
                     : emptyWithLayout(Shaped.sizes(), Shaped.dtype(), L));
    }
    Cases.push_back(
        {std::move(Args),
         Describe(std::string("out ") +
                  (L == Layout::AsMade ? "empty" : getLayoutName(L)))});
  }
  return Cases;
}

/// What one operator's run found.
struct Report {
  unsigned Cases = 0;
  unsigned Known = 0;
  /// The first few descriptions of each unlisted difference, by aspect.
  std::map<Aspect, std::vector<std::string>> Differences;
  std::map<Aspect, unsigned> Counts;
};

/// The whole run's totals against one reference, printed at the end.
struct Totals {
  unsigned Operators = 0, Cases = 0, Known = 0, Differences = 0;
};
Totals &getTotals(Reference R) {
  static std::map<Reference, Totals> Each;
  return Each[R];
}

/// How many cases of each difference a failure shows: 3, or
/// $SKC_DIFFERENTIAL_EXAMPLES.
size_t getExamplesWanted() {
  static const size_t Wanted = [] {
    const char *E = std::getenv("SKC_DIFFERENTIAL_EXAMPLES");
    return E ? std::strtoul(E, nullptr, 10) : 3;
  }();
  return Wanted;
}

/// Whether PyTorch's kernel of \p Op reads its inputs as if they were
/// contiguous, whatever their strides. Given a strided `indices`,
/// `_embedding_bag` reads past its end: libtorch 2.15's CPU kernel refused
/// the indices it saw, or crashed, depending on what lay there, and
/// PyTorch 2.11's CUDA kernel made an illegal memory access. Such an
/// operator gets contiguous copies of its inputs (the same values) on
/// PyTorch's side.
bool readsInputsAsContiguous(const OperatorName &Op) {
  return Op.Name == "aten::_embedding_bag";
}

/// \p Args as PyTorch's side gets them (readsInputsAsContiguous).
std::vector<PlainValue> toPlainForTorch(const OperatorSchema &Schema,
                                        const Stack &Args) {
  Stack ForTorch = readsInputsAsContiguous(Schema.Name)
                       ? mapInputs(Schema, Args,
                                   [](const Tensor &T) {
                                     return relayout(T, Layout::Contiguous);
                                   })
                       : Args;
  std::vector<PlainValue> Plain;
  for (size_t I = 0; I != ForTorch.size(); ++I)
    Plain.push_back(toPlain(ForTorch[I], Schema.Arguments[I].Type));
  return Plain;
}

/// One side's run of a case: its error, or its results.
struct Outcome {
  std::optional<std::string> Error;
  Stack Results;
};

/// A reference's outcome with its results as the runtime's values.
Outcome toOutcome(const skdiff::TorchOutcome &Theirs) {
  Outcome O;
  if (!Theirs.Error.empty()) {
    O.Error = Theirs.Error;
    return O;
  }
  for (const PlainValue &V : Theirs.Results) {
    if (V.K == PlainValue::Kind::TensorList) {
      std::vector<Tensor> L;
      for (const PlainTensor &P : V.Tensors)
        L.push_back(skdiff::fromPlain(P));
      O.Results.push_back(IValue(std::move(L)));
    } else if (V.K == PlainValue::Kind::Tensor) {
      O.Results.push_back(IValue(skdiff::fromPlain(V.Tensors.front())));
    } else {
      O.Results.push_back(IValue());
    }
  }
  return O;
}

/// The python3 process running PyTorch on CUDA, started on first use and
/// again after a call that ended it; nullptr, and why in \p Why, when
/// there is none.
skdiff::TorchProcess *getTorchCUDA(std::string &Why) {
  static std::unique_ptr<skdiff::TorchProcess> Process;
  static std::string Unavailable;
  if (!Unavailable.empty()) {
    Why = Unavailable;
    return nullptr;
  }
  if (!Process || !Process->isAlive()) {
    const char *Python = std::getenv("SKC_TORCH_PYTHON");
    Process =
        skdiff::TorchProcess::start(Python && *Python ? Python : "python3",
                                    skdiff::getTorchCUDAScript(), Unavailable);
    Why = Unavailable;
  }
  return Process.get();
}

/// "from libtorch 2.15.0", what the messages and totals say a run compared
/// with.
std::string getAgainst(Reference R) {
  switch (R) {
  case Reference::Libtorch:
    return "from libtorch " + skdiff::getTorchVersion();
  case Reference::CPU:
    return "on CUDA from the CPU";
  case Reference::TorchCUDA: {
    std::string Why;
    skdiff::TorchProcess *P = getTorchCUDA(Why);
    return "on CUDA from " + (P ? P->description() : "PyTorch");
  }
  }
  return "";
}

/// PyTorch's run of \p Plain on CUDA. A process that dies or answers
/// nonsense fails the case on PyTorch's side; the next case starts another.
Outcome runTorchCUDA(const OperatorName &Name,
                     const std::vector<PlainValue> &Plain) {
  std::string Why;
  skdiff::TorchProcess *Process = getTorchCUDA(Why);
  if (!Process)
    return Outcome{"PyTorch on CUDA went away: " + Why, {}};
  try {
    return toOutcome(Process->call(Name.Name, Name.Overload, Plain));
  } catch (const std::exception &E) {
    return Outcome{std::string("PyTorch's process: ") + E.what(), {}};
  }
}

/// \p Args on \p D: every tensor, out= ones included, by moveStorage; a
/// device argument \p D itself.
Stack placeOn(const OperatorSchema &Schema, const Stack &Args, Device D) {
  Stack Placed;
  for (size_t I = 0; I != Args.size(); ++I) {
    const IValue &V = Args[I];
    const SchemaType &T = Schema.Arguments[I].Type;
    if (T.Base == ValueKind::Device && !T.IsList && !V.isNone()) {
      Placed.push_back(IValue(D));
    } else if (V.isTensor()) {
      Placed.push_back(IValue(moveStorage(V.toTensor(), D)));
    } else if (V.isTensorList()) {
      std::vector<Tensor> L;
      for (const Tensor &E : V.toTensorList())
        L.push_back(moveStorage(E, D));
      Placed.push_back(IValue(std::move(L)));
    } else {
      Placed.push_back(V);
    }
  }
  return Placed;
}

/// The least precise floating dtype among \p Args' tensors; kDouble when
/// there is none.
ScalarType getLeastPreciseInput(const Stack &Args) {
  ScalarType Inputs = kDouble;
  for (const IValue &V : Args)
    for (const Tensor &T : getTensors(V))
      if (T.defined() && isFloatingType(T.dtype()) &&
          getTolerances(T.dtype()).first > getTolerances(Inputs).first)
        Inputs = T.dtype();
  return Inputs;
}

/// Runs every case of \p Op through skc and through \p Ref.
Report runOperator(const OperatorHandle &Op, Reference Ref) {
  const OperatorSchema &Schema = Op.schema();
  const OperatorName &Name = Schema.Name;
  const char *Ours = getTraits(Ref).Ours, *Theirs = getTraits(Ref).Theirs;
  Report R;
  std::mt19937 Random(20261126);
  auto Note = [&](Aspect A, size_t Result, const std::string &What) {
    if (isKnownDifference(Name, A, Result, Ref)) {
      ++R.Known;
      return;
    }
    ++R.Counts[A];
    std::vector<std::string> &Examples = R.Differences[A];
    if (Examples.size() < getExamplesWanted())
      Examples.push_back(What);
  };
  for (const sk::testing::SchemaSample &Sample :
       sk::testing::makeSchemaSamples(Schema, Random)) {
    for (Case &C : makeCases(Op, Sample, Random)) {
      ++R.Cases;
      ScalarType Inputs = getLeastPreciseInput(C.Args);
      // Each side gets its copy of the arguments before either writes its
      // out= ones. skc's results replace Run's arguments.
      Stack Run;
      Outcome Mine, Baseline;
      switch (Ref) {
      case Reference::Libtorch: {
        std::vector<PlainValue> Plain = toPlainForTorch(Schema, C.Args);
        Run = std::move(C.Args);
        Mine.Error = runSkc(Op, Run);
        Baseline =
            toOutcome(skdiff::callTorch(Name.Name, Name.Overload, Plain));
        break;
      }
      case Reference::CPU:
        Run = placeOn(Schema, C.Args, Device(DeviceType::CUDA));
        Baseline.Error = runSkc(Op, C.Args);
        Baseline.Results = std::move(C.Args);
        Mine.Error = runSkc(Op, Run, Device(DeviceType::CUDA));
        break;
      case Reference::TorchCUDA: {
        std::vector<PlainValue> Plain = toPlainForTorch(Schema, C.Args);
        Run = placeOn(Schema, C.Args, Device(DeviceType::CUDA));
        Mine.Error = runSkc(Op, Run, Device(DeviceType::CUDA));
        Baseline = runTorchCUDA(Name, Plain);
        break;
      }
      }
      std::string Where = "(" + C.Description + "): ";
      if (Mine.Error && !Baseline.Error) {
        Note(Aspect::Errors, 0,
             Where + Ours + " fails where " + Theirs + " runs: " + *Mine.Error);
        continue;
      }
      if (!Mine.Error && Baseline.Error) {
        Note(Aspect::Errors, 0,
             Where + Theirs + " fails where " + Ours +
                 " runs: " + *Baseline.Error);
        continue;
      }
      if (Mine.Error)
        continue;
      if (std::optional<Difference> D =
              compareResults(Run, Baseline.Results, Inputs, Ref))
        Note(D->What == Aspect::Values && C.Special ? Aspect::SpecialValues
                                                    : D->What,
             D->Result, Where + D->Message);
    }
  }
  return R;
}

/// The operators with a kernel for \p Backend (their own or a composite
/// one).
std::vector<std::string> getOperatorsWithKernelFor(DispatchKey Backend) {
  std::vector<std::string> Names;
  for (const OperatorName &N :
       Dispatcher::singleton().getRegisteredOperators()) {
    if (N.Name.rfind("aten::", 0) != 0)
      continue;
    OperatorHandle Op = *Dispatcher::singleton().findSchema(N.Name, N.Overload);
    if (!Op.hasKernelForDispatchKey(Backend) &&
        !Op.hasKernelForDispatchKey(DispatchKey::CompositeImplicitAutograd) &&
        !Op.hasKernelForDispatchKey(DispatchKey::CompositeExplicitAutograd))
      continue;
    Names.push_back(N.Name + (N.Overload.empty() ? "" : "." + N.Overload));
  }
  return Names;
}

/// Runs operator \p Full (`aten::add.Tensor`) against \p Ref and fails
/// the test on each kind of unlisted difference.
void checkOperator(const std::string &Full, Reference Ref) {
  size_t Dot = std::min(Full.find('.'), Full.size());
  OperatorHandle Op = Dispatcher::singleton().findSchemaOrThrow(
      Full.substr(0, Dot), Full.substr(std::min(Dot + 1, Full.size())));
  Report R = runOperator(Op, Ref);
  Totals &T = getTotals(Ref);
  ++T.Operators;
  T.Cases += R.Cases;
  T.Known += R.Known;
  for (const auto &[A, Examples] : R.Differences) {
    T.Differences += R.Counts[A];
    std::ostringstream OS;
    OS << Full << ": " << getAspectName(A) << " differ " << getAgainst(Ref)
       << " in " << R.Counts[A] << " of " << R.Cases << " cases, e.g.";
    for (const std::string &E : Examples)
      OS << "\n  " << Full << E;
    ADD_FAILURE() << OS.str();
  }
  ::testing::Test::RecordProperty("cases", static_cast<int>(R.Cases));
  ::testing::Test::RecordProperty("known_differences",
                                  static_cast<int>(R.Known));
}

class Differential : public ::testing::TestWithParam<std::string> {};

TEST_P(Differential, AgreesWithLibtorch) {
  if (!skdiff::isTorchAvailable())
    GTEST_SKIP() << "libtorch not found: run utils/fetch-libtorch.sh, or "
                    "configure with -DSKC_LIBTORCH_DIR=...";
  checkOperator(GetParam(), Reference::Libtorch);
}

class DifferentialCUDA : public ::testing::TestWithParam<std::string> {};

TEST_P(DifferentialCUDA, AgreesWithCPU) {
  if (!sk::testing::isDeviceAvailable(DeviceType::CUDA))
    GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  checkOperator(GetParam(), Reference::CPU);
}

class DifferentialTorchCUDA : public ::testing::TestWithParam<std::string> {};

TEST_P(DifferentialTorchCUDA, AgreesWithPyTorch) {
  if (!sk::testing::isDeviceAvailable(DeviceType::CUDA))
    GTEST_SKIP() << "no CUDA device: CUDA tests skipped";
  std::string Why;
  if (!getTorchCUDA(Why))
    GTEST_SKIP() << "no PyTorch on CUDA: " << Why;
  checkOperator(GetParam(), Reference::TorchCUDA);
}

std::string getTestName(const ::testing::TestParamInfo<std::string> &Info) {
  std::string Name = Info.param.substr(Info.param.find("::") + 2);
  std::replace_if(
      Name.begin(), Name.end(), [](char C) { return !std::isalnum(C); }, '_');
  return Name;
}

INSTANTIATE_TEST_SUITE_P(
    KernelLibrary, Differential,
    ::testing::ValuesIn(getOperatorsWithKernelFor(DispatchKey::CPU)),
    getTestName);

INSTANTIATE_TEST_SUITE_P(
    KernelLibrary, DifferentialCUDA,
    ::testing::ValuesIn(getOperatorsWithKernelFor(DispatchKey::CUDA)),
    getTestName);

INSTANTIATE_TEST_SUITE_P(
    KernelLibrary, DifferentialTorchCUDA,
    ::testing::ValuesIn(getOperatorsWithKernelFor(DispatchKey::CUDA)),
    getTestName);

/// Fails on each row of docs/kernels.md that lists a difference from \p R
/// that the run did not find: fixed, or never there. Only a run of every
/// operator can tell.
void checkEveryListedDifferenceOccurred(Reference R) {
  std::vector<std::string> Stale;
  for (const KnownDifference &K : getKnownDifferences(R))
    if (K.Matches == 0 && !K.MayNotOccur)
      Stale.push_back("`" + K.Operator + "` | " + K.Aspect);
  if (Stale.empty())
    return;
  std::ostringstream OS;
  OS << Stale.size() << " row(s) of docs/kernels.md list differences from "
     << getTraits(R).Theirs << " that no case showed; remove them:";
  for (const std::string &Row : Stale)
    OS << "\n  | " << Row << " |";
  ADD_FAILURE() << OS.str();
}

/// Keeps skc's warnings (an out= tensor resized, ...) off the log, as
/// TorchBridge.cpp does libtorch's, prints the run's totals and, after a
/// run of every operator, checks that docs/kernels.md lists no difference
/// the run did not find.
class DifferentialEnvironment : public ::testing::Environment {
  void SetUp() override {
    setWarningHandler([](const std::string &) {});
  }
  void TearDown() override {
    for (Reference R : AllReferences) {
      const Totals &T = getTotals(R);
      if (T.Operators == 0)
        continue;
      if (T.Operators == getOperatorsWithKernelFor(getTraits(R).Backend).size())
        checkEveryListedDifferenceOccurred(R);
      std::string Against = getAgainst(R);
      std::printf("[ differential ] %u operators, %u cases %s: %u listed "
                  "differences, %u unlisted\n",
                  T.Operators, T.Cases, Against.c_str(), T.Known,
                  T.Differences);
    }
  }
};

const auto *const Environment =
    ::testing::AddGlobalTestEnvironment(new DifferentialEnvironment);

} // namespace
