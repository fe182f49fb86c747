//===--- SchemaSamples.cpp - Argument lists made from a schema ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/testing/SchemaSamples.h"

#include "sk/ops/Factories.h"
#include "sk/util/Exception.h"

#include <cstdlib>
#include <optional>
#include <sstream>

namespace sk {
namespace testing {

// Note [Schema samples]
// ~~~~~~~~~~~~~~~~~~~~~~~
// Samples come from the schema alone, so they are generic rather than
// clever:
//
//  - every tensor argument (Tensor, Tensor?, each element of Tensor[]) gets
//    the same shape from a pool (a scalar, [1], [5], [2, 3], [3, 1],
//    [4, 3, 2], [2, 3, 4, 5], an empty [0, 3], and the square [3, 3] and
//    [2, 3, 3] that matrix products of one shape need), then broadcasting
//    pairs ([2, 3] with [3], ...), float32 throughout, then float64,
//    int64, bool and bfloat16 on [2, 3], the first tensor transposed, and
//    a float table with int64 indices (and the other way round);
//  - one more table and indices sample has sorted indices starting at 0
//    and no optional tensors: indices that are also valid offsets
//    (embedding_bag's: ascending, the first 0);
//  - while the other arguments vary (below), the tensors are [2, 3],
//    [4, 3, 2], [3, 3] and the table with offsets, and optional tensors
//    are also left None;
//  - every other argument takes its default, or the first value of a pool
//    for its type, and then, one argument at a time, the pool's other
//    values (ints 0, 1, -1, 2; lists [], [0], [-1], [1, 1]; optionals None
//    and a value; strings "", "none", "tanh", "trunc" and "floor"; ...);
//  - an int[] argument also takes the first tensor's last size, for
//    arguments that name trailing dimensions (layer_norm's
//    normalized_shape);
//  - tensor values are small integers (0, 1, 2) stored in the tensor's
//    dtype, so index arguments are often in range (sorted ones, above, go
//    0, 0, 1, 1, 2, ...);
//  - a device argument is the CPU; a caller running the sample elsewhere
//    replaces it (and copies the tensors).
//
namespace {

/// Stands, in an int[] pool, for the first tensor's last size.
const std::string LastSizeMarker = "<the first tensor's last size>";

/// How the tensor arguments of one sample are made.
struct TensorPlan {
  /// The shape of the first tensor, and of every other one.
  std::vector<int64_t> First;
  std::vector<int64_t> Others;
  ScalarType Dtype = kFloat;
  /// The first tensor is the transpose of a contiguous one.
  bool TransposeFirst = false;
  /// The dtype of the other tensors, when it is not Dtype (a float table
  /// and int64 indices).
  std::optional<ScalarType> OthersDtype = std::nullopt;
  /// Optional tensor arguments (Tensor?) are None.
  bool OptionalTensorsNone = false;
  /// The other tensors hold ascending values from 0: indices that are
  /// also offsets.
  bool SortedOthers = false;

  ScalarType getDtype(bool IsFirst) const {
    return IsFirst ? Dtype : OthersDtype.value_or(Dtype);
  }

  std::string describe() const {
    std::ostringstream OS;
    OS << Dtype << " tensors " << IntArrayRef(First);
    if (Others != First || OthersDtype)
      OS << " and " << getDtype(false) << " " << IntArrayRef(Others);
    if (SortedOthers)
      OS << " (sorted from 0)";
    if (OptionalTensorsNone)
      OS << " (optional tensors None)";
    if (TransposeFirst)
      OS << " (first transposed)";
    return OS.str();
  }
};

/// A float table and sorted int64 indices, which are also valid offsets,
/// without optional tensors (embedding_bag's weight, indices, offsets).
TensorPlan makeTableAndOffsetsPlan() {
  TensorPlan P{{3, 4}, {5}, kFloat, false, kLong};
  P.OptionalTensorsNone = true;
  P.SortedOthers = true;
  return P;
}

std::vector<TensorPlan> makeTensorPlans(unsigned NumTensors) {
  std::vector<TensorPlan> Plans;
  const std::vector<std::vector<int64_t>> Shapes = {
      {},        {1},          {5},    {2, 3}, {3, 1},
      {4, 3, 2}, {2, 3, 4, 5}, {0, 3}, {3, 3}, {2, 3, 3}};
  for (const auto &S : Shapes)
    Plans.push_back({S, S, kFloat, false});
  if (NumTensors > 1) {
    Plans.push_back({{2, 3}, {3}, kFloat, false});
    Plans.push_back({{3, 1}, {1, 4}, kFloat, false});
    Plans.push_back({{2, 1, 4}, {3, 1}, kFloat, false});
  }
  for (ScalarType T : {kDouble, kLong, kBool, kBFloat16})
    Plans.push_back({{2, 3}, {2, 3}, T, false});
  Plans.push_back({{2, 3}, {2, 3}, kFloat, true});
  Plans.push_back({{4, 3, 2}, {4, 3, 2}, kFloat, true});
  if (NumTensors > 1) {
    // A float table and int64 indices (values 0-2 fit a first dimension
    // of 3), and the other way round.
    Plans.push_back({{3, 4}, {2, 3}, kFloat, false, kLong});
    Plans.push_back({{3, 4}, {5}, kFloat, false, kLong});
    Plans.push_back({{2, 3}, {2, 3}, kLong, false, kFloat});
    Plans.push_back(makeTableAndOffsetsPlan());
  }
  return Plans;
}

/// A tensor of \p Sizes holding small integers (0, 1, 2), on the CPU:
/// random ones, or with \p Sorted ascending ones from 0.
Tensor makeCPUTensor(IntArrayRef Sizes, ScalarType Dtype, bool Transposed,
                     bool Sorted, std::mt19937 &Random) {
  std::vector<int64_t> Shape(Sizes.begin(), Sizes.end());
  if (Transposed && Shape.size() >= 2)
    std::swap(Shape[Shape.size() - 1], Shape[Shape.size() - 2]);
  Tensor Values = empty(Shape, TensorOptions().dtype(kFloat));
  float *P = Values.data_ptr<float>();
  std::uniform_int_distribution<int> Digit(0, 2);
  for (int64_t I = 0, N = Values.numel(); I != N; ++I)
    P[I] = static_cast<float>(Sorted ? I * 3 / N : Digit(Random));
  Tensor Result = empty(Shape, TensorOptions().dtype(Dtype));
  Result.copy_(Values);
  if (Transposed && Shape.size() >= 2)
    Result = Result.transpose(-1, -2);
  return Result;
}

/// The IValue of a default as the schema writes it, or none when it cannot
/// be read for this type.
std::optional<IValue> parseDefault(const SchemaArgument &A) {
  const SchemaType &T = A.Type;
  std::string D = A.Default;
  if (D == "None")
    return IValue();
  auto ParseInt = [](const std::string &S) -> std::optional<int64_t> {
    if (S == "Mean")
      return 1; // at::Reduction::Mean
    if (S == "Sum")
      return 2;
    char *End = nullptr;
    long long V = std::strtoll(S.c_str(), &End, 10);
    if (End == S.c_str() || *End != '\0')
      return std::nullopt;
    return V;
  };
  if (T.IsList && T.Base == ValueKind::Int) {
    std::vector<int64_t> Values;
    if (D.size() >= 2 && D.front() == '[') {
      std::istringstream In(D.substr(1, D.size() - 2));
      std::string Item;
      while (std::getline(In, Item, ',')) {
        size_t Start = Item.find_first_not_of(' ');
        if (Start == std::string::npos)
          continue;
        if (auto V = ParseInt(Item.substr(Start)))
          Values.push_back(*V);
      }
    } else if (auto V = ParseInt(D)) {
      Values.assign(T.ListSize ? T.ListSize : 1, *V);
    } else {
      return std::nullopt;
    }
    return IValue(Values);
  }
  if (T.IsList)
    return std::nullopt;
  switch (T.Base) {
  case ValueKind::Int:
    if (auto V = ParseInt(D))
      return IValue(*V);
    return std::nullopt;
  case ValueKind::Float:
    return IValue(std::strtod(D.c_str(), nullptr));
  case ValueKind::Bool:
    return IValue(D == "True");
  case ValueKind::Scalar:
    if (D.find_first_of(".e") != std::string::npos)
      return IValue(std::strtod(D.c_str(), nullptr));
    if (auto V = ParseInt(D))
      return IValue(*V);
    return std::nullopt;
  case ValueKind::Str:
    if (D.size() >= 2)
      return IValue(D.substr(1, D.size() - 2));
    return std::nullopt;
  case ValueKind::ScalarType:
    if (D == "long")
      return IValue(static_cast<int64_t>(kLong));
    if (D == "float")
      return IValue(static_cast<int64_t>(kFloat));
    return std::nullopt;
  case ValueKind::MemoryFormat:
    if (D == "contiguous_format")
      return IValue(static_cast<int64_t>(MemoryFormat::Contiguous));
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

/// The values an argument of type \p T takes in samples, its base first.
std::vector<IValue> getPool(const SchemaArgument &A) {
  const SchemaType &T = A.Type;
  std::vector<IValue> Pool;
  if (T.IsList) {
    size_t N = T.ListSize ? T.ListSize : 2;
    switch (T.Base) {
    case ValueKind::Int:
      Pool = {IValue(std::vector<int64_t>(N, 1)),
              IValue(std::vector<int64_t>{0}),
              IValue(std::vector<int64_t>{-1}),
              IValue(std::vector<int64_t>(N, 2)),
              IValue(std::vector<int64_t>{}),
              IValue(LastSizeMarker)};
      break;
    case ValueKind::Float:
      Pool = {IValue(std::vector<double>(N, 2.0))};
      break;
    case ValueKind::Bool:
      Pool = {IValue(std::vector<bool>(N, true))};
      break;
    default:
      break;
    }
  } else {
    switch (T.Base) {
    case ValueKind::Int:
      Pool = {IValue(int64_t(1)), IValue(int64_t(0)), IValue(int64_t(-1)),
              IValue(int64_t(2))};
      break;
    case ValueKind::Float:
      Pool = {IValue(0.5), IValue(2.0)};
      break;
    case ValueKind::Bool:
      Pool = {IValue(false), IValue(true)};
      break;
    case ValueKind::Scalar:
      Pool = {IValue(int64_t(2)), IValue(0.5)};
      break;
    case ValueKind::ScalarType:
      Pool = {IValue(static_cast<int64_t>(kFloat)),
              IValue(static_cast<int64_t>(kLong)),
              IValue(static_cast<int64_t>(kDouble))};
      break;
    case ValueKind::MemoryFormat:
      Pool = {IValue(static_cast<int64_t>(MemoryFormat::Contiguous))};
      break;
    case ValueKind::Str:
      // The strings PyTorch's schemas take as enumerations (gelu's
      // approximate, div's rounding_mode), and one none of them takes.
      Pool = {IValue(std::string()), IValue(std::string("none")),
              IValue(std::string("tanh")), IValue(std::string("trunc")),
              IValue(std::string("floor"))};
      break;
    case ValueKind::Generator:
    case ValueKind::Device:
      break;
    default:
      SK_CHECK(false, "makeSchemaSamples(): no samples for argument '", A.Name,
               "' of type ", T.Spelling);
    }
  }
  if (T.IsOptional || T.Base == ValueKind::Generator ||
      T.Base == ValueKind::Device)
    Pool.insert(Pool.begin(), IValue());
  // The default, when it can be read, is the base value.
  if (A.HasDefault)
    if (std::optional<IValue> D = parseDefault(A))
      Pool.insert(Pool.begin(), std::move(*D));
  SK_CHECK(!Pool.empty(), "makeSchemaSamples(): no samples for argument '",
           A.Name, "' of type ", T.Spelling);
  return Pool;
}

bool isTensorArgument(const SchemaArgument &A) {
  return A.Type.Base == ValueKind::Tensor;
}

/// The sample \p Plan and \p Others make for \p Schema.
SchemaSample makeSample(const OperatorSchema &Schema, const TensorPlan &Plan,
                        const std::vector<IValue> &Others,
                        std::mt19937 &Random) {
  SchemaSample S;
  std::ostringstream Desc;
  Desc << Plan.describe();
  bool FirstTensor = true;
  size_t OtherIdx = 0;
  auto NextTensor = [&]() {
    Tensor T = makeCPUTensor(FirstTensor ? Plan.First : Plan.Others,
                             Plan.getDtype(FirstTensor),
                             FirstTensor && Plan.TransposeFirst,
                             !FirstTensor && Plan.SortedOthers, Random);
    FirstTensor = false;
    return T;
  };
  for (const SchemaArgument &A : Schema.Arguments) {
    if (!isTensorArgument(A)) {
      IValue V = Others[OtherIdx++];
      if (V.isString() && V.toStringRef() == LastSizeMarker)
        V = IValue(std::vector<int64_t>{
            Plan.First.empty() ? int64_t(1) : Plan.First.back()});
      if (A.Type.Base == ValueKind::Device && !A.Type.IsList) {
        S.Args.push_back(IValue(Device(kCPU)));
        Desc << ", " << A.Name << "=<the run's device>";
        continue;
      }
      Desc << ", " << A.Name << "=" << V;
      S.Args.push_back(std::move(V));
      continue;
    }
    if (A.Type.IsOptional && Plan.OptionalTensorsNone) {
      S.Args.push_back(IValue());
      continue;
    }
    if (A.Type.IsList) {
      std::vector<Tensor> List = {NextTensor(), NextTensor()};
      S.Args.push_back(IValue(std::move(List)));
      continue;
    }
    S.Args.push_back(IValue(NextTensor()));
  }
  S.Description = Desc.str();
  return S;
}

} // namespace

std::vector<SchemaSample> makeSchemaSamples(const OperatorSchema &Schema,
                                            std::mt19937 &Random) {
  std::vector<std::vector<IValue>> Pools;
  unsigned NumTensors = 0;
  for (const SchemaArgument &A : Schema.Arguments) {
    if (isTensorArgument(A))
      NumTensors += A.Type.IsList ? 2 : 1;
    else
      Pools.push_back(getPool(A));
  }

  // The base values of the other arguments, then each varied alone.
  std::vector<IValue> Base;
  for (const auto &Pool : Pools)
    Base.push_back(Pool.front());
  std::vector<std::pair<TensorPlan, std::vector<IValue>>> Plans;
  for (const TensorPlan &P : makeTensorPlans(NumTensors))
    Plans.push_back({P, Base});
  // Plans the varied values run with: common shapes, one without optional
  // tensors, square matrices, and a table with offsets.
  std::vector<TensorPlan> Varied = {{{2, 3}, {2, 3}, kFloat, false},
                                    {{4, 3, 2}, {4, 3, 2}, kFloat, false},
                                    {{2, 3}, {2, 3}, kFloat, false},
                                    {{3, 3}, {3, 3}, kFloat, false}};
  Varied[2].OptionalTensorsNone = true;
  if (NumTensors > 1)
    Varied.push_back(makeTableAndOffsetsPlan());
  for (size_t I = 0; I != Pools.size(); ++I)
    for (size_t J = 1; J < Pools[I].size(); ++J)
      for (const TensorPlan &P : Varied) {
        std::vector<IValue> Values = Base;
        Values[I] = Pools[I][J];
        Plans.push_back({P, std::move(Values)});
      }

  std::vector<SchemaSample> Samples;
  for (const auto &[Plan, Values] : Plans)
    Samples.push_back(makeSample(Schema, Plan, Values, Random));
  return Samples;
}

} // namespace testing
} // namespace sk
