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
#include <string>
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
};

/// How a difference's message names the two sides.
const char *getOursName(Reference R) {
  return R == Reference::Libtorch ? "skc" : "CUDA";
}
const char *getTheirsName(Reference R) {
  return R == Reference::Libtorch ? "libtorch" : "the CPU";
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
  /// The differences of this run that the row covers.
  unsigned Matches = 0;
};

/// Whether the docs/kernels.md section headed \p Heading lists differences
/// from \p R.
bool listsDifferencesFrom(const std::string &Heading, Reference R) {
  if (R == Reference::CPU)
    return Heading == "## Differences between CUDA and the CPU";
  return Heading == "## Deliberate differences from PyTorch" ||
         Heading == "## Differences from PyTorch not yet resolved";
}

std::vector<KnownDifference> readKnownDifferences(Reference R) {
  std::vector<KnownDifference> Known;
  std::ifstream In(SKC_KERNELS_DOC);
  std::string Line;
  bool InSection = false;
  while (std::getline(In, Line)) {
    if (Line.rfind("## ", 0) == 0)
      InSection = listsDifferencesFrom(Line, R);
    if (!InSection || Line.rfind("| `", 0) != 0)
      continue;
    // | `aten::nonzero` | strides | why |
    size_t OpEnd = Line.find('`', 3);
    size_t AspectStart = Line.find('|', OpEnd) + 1;
    size_t AspectEnd = Line.find('|', AspectStart);
    std::string Aspect = Line.substr(AspectStart, AspectEnd - AspectStart);
    Aspect.erase(0, Aspect.find_first_not_of(' '));
    Aspect.erase(Aspect.find_last_not_of(' ') + 1);
    Known.push_back({Line.substr(3, OpEnd - 3), Aspect});
  }
  return Known;
}

/// The rows listing differences from \p R, read once.
std::vector<KnownDifference> &getKnownDifferences(Reference R) {
  static std::vector<KnownDifference> FromLibtorch =
      readKnownDifferences(Reference::Libtorch);
  static std::vector<KnownDifference> FromCPU =
      readKnownDifferences(Reference::CPU);
  return R == Reference::Libtorch ? FromLibtorch : FromCPU;
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
  const char *Ours = getOursName(Ref), *Theirs = getTheirsName(Ref);
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

/// Runs \p Op on \p Args; returns its error, or none.
std::optional<std::string> runSkc(const OperatorHandle &Op, Stack &Args) {
  try {
    Op.callBoxed(Args);
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
  static Totals AgainstLibtorch, AgainstCPU;
  return R == Reference::Libtorch ? AgainstLibtorch : AgainstCPU;
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

/// Whether libtorch 2.15's kernel of \p Op reads its inputs as if they
/// were contiguous, whatever their strides. Given a strided `indices`,
/// `_embedding_bag` reads past its end: it refused the indices it saw, or
/// crashed, depending on what lay there. Such an operator gets contiguous
/// copies of its inputs (the same values) on libtorch's side.
bool readsInputsAsContiguous(const OperatorName &Op) {
  return Op.Name == "aten::_embedding_bag";
}

/// One side's run of a case: its error, or its results.
struct Outcome {
  std::optional<std::string> Error;
  Stack Results;
};

/// libtorch's run of \p Plain, with its results as the runtime's values.
Outcome runLibtorch(const OperatorName &Name,
                    const std::vector<PlainValue> &Plain) {
  skdiff::TorchOutcome Theirs =
      skdiff::callTorch(Name.Name, Name.Overload, Plain);
  Outcome O;
  if (!Theirs.Error.empty()) {
    O.Error = Theirs.Error;
    return O;
  }
  for (const PlainValue &V : Theirs.Results) {
    if (V.K == PlainValue::Kind::TensorList) {
      std::vector<Tensor> L;
      for (const PlainTensor &P : V.Tensors)
        L.push_back(fromPlain(P));
      O.Results.push_back(IValue(std::move(L)));
    } else if (V.K == PlainValue::Kind::Tensor) {
      O.Results.push_back(IValue(fromPlain(V.Tensors.front())));
    } else {
      O.Results.push_back(IValue());
    }
  }
  return O;
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
  const char *Ours = getOursName(Ref), *Theirs = getTheirsName(Ref);
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
      if (Ref == Reference::Libtorch) {
        std::vector<PlainValue> Plain;
        Stack ForTorch =
            readsInputsAsContiguous(Name)
                ? mapInputs(Schema, C.Args,
                            [](const Tensor &T) {
                              return relayout(T, Layout::Contiguous);
                            })
                : C.Args;
        for (size_t I = 0; I != ForTorch.size(); ++I)
          Plain.push_back(toPlain(ForTorch[I], Schema.Arguments[I].Type));
        Run = std::move(C.Args);
        Mine.Error = runSkc(Op, Run);
        Baseline = runLibtorch(Name, Plain);
      } else {
        Run = placeOn(Schema, C.Args, Device(DeviceType::CUDA));
        Baseline.Error = runSkc(Op, C.Args);
        Baseline.Results = std::move(C.Args);
        Mine.Error = runSkc(Op, Run);
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
    OS << Full << ": " << getAspectName(A) << " differ ";
    if (Ref == Reference::Libtorch)
      OS << "from libtorch " << skdiff::getTorchVersion();
    else
      OS << "between CUDA and the CPU";
    OS << " in " << R.Counts[A] << " of " << R.Cases << " cases, e.g.";
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

/// Fails on each row of docs/kernels.md that lists a difference from \p R
/// that the run did not find: fixed, or never there. Only a run of every
/// operator can tell.
void checkEveryListedDifferenceOccurred(Reference R) {
  std::vector<std::string> Stale;
  for (const KnownDifference &K : getKnownDifferences(R))
    if (K.Matches == 0)
      Stale.push_back("`" + K.Operator + "` | " + K.Aspect);
  if (Stale.empty())
    return;
  std::ostringstream OS;
  OS << Stale.size() << " row(s) of docs/kernels.md list differences from "
     << getTheirsName(R) << " that no case showed; remove them:";
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
    for (Reference R : {Reference::Libtorch, Reference::CPU}) {
      const Totals &T = getTotals(R);
      if (T.Operators == 0)
        continue;
      DispatchKey Backend =
          R == Reference::Libtorch ? DispatchKey::CPU : DispatchKey::CUDA;
      if (T.Operators == getOperatorsWithKernelFor(Backend).size())
        checkEveryListedDifferenceOccurred(R);
      std::string Against =
          R == Reference::Libtorch
              ? "against libtorch " + skdiff::getTorchVersion()
              : std::string("on CUDA against the CPU");
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
