//===--- TensorIteratorTest.cpp - Building TensorIterators ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/iter/TensorIterator.h"

#include "sk/iter/Loops.h"
#include "sk/iter/ReduceUtils.h"
#include "sk/iter/StructuredHelpers.h"
#include "sk/iter/TypePromotion.h"

#include "IterTestUtils.h"

#include <optional>
#include <set>
#include <utility>

using namespace sk;
using namespace sk::test;

namespace {

Tensor cpu(IntArrayRef Sizes, ScalarType Dtype = kFloat) {
  return detail::empty_cpu(Sizes, Dtype);
}
Tensor meta(IntArrayRef Sizes, ScalarType Dtype = kFloat) {
  return detail::empty_meta(Sizes, Dtype);
}

/// Records warnings while alive.
struct WarningRecorder {
  std::vector<std::string> Warnings;
  WarningHandler Previous;
  WarningRecorder() {
    Previous = setWarningHandler(
        [this](const std::string &W) { Warnings.push_back(W); });
  }
  ~WarningRecorder() { setWarningHandler(Previous); }
};

//===--- Shapes ---------------------------------------------------------===//

TEST(TensorIteratorTest, Broadcast_ShapesCombine) {
  Tensor A = cpu({1, 1024}), B = cpu({1024, 1});
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), A, B);
  EXPECT_EQ(Iter.output().sizes(), IntArrayRef({1024, 1024}));
  EXPECT_EQ(Iter.output().strides(), IntArrayRef({1024, 1}));
  EXPECT_EQ(Iter.output().dtype(), kFloat);
  EXPECT_EQ(Iter.ndim(), 2);
  EXPECT_EQ(Iter.numel(), 1024 * 1024);
  // A varies along the fast dimension, B along the slow one.
  EXPECT_EQ(Iter.strides(1), IntArrayRef({4, 0}));
  EXPECT_EQ(Iter.strides(2), IntArrayRef({0, 4}));
}

TEST(TensorIteratorTest, Broadcast_LeadingDimensionsAreAdded) {
  TensorIterator Iter =
      TensorIterator::binary_op(Tensor(), cpu({5, 1, 3}), cpu({4, 1}));
  EXPECT_EQ(Iter.output().sizes(), IntArrayRef({5, 4, 3}));
  EXPECT_EQ(infer_size_dimvector({3}, {2, 1}), DimVector({2, 3}));
  EXPECT_EQ(infer_size_dimvector({0}, {1}), DimVector({0}));
}

TEST(TensorIteratorTest, Broadcast_IncompatibleShapes_Fails) {
  expectError(
      [] {
        TensorIterator::binary_op(Tensor(), cpu({2, 3}), cpu({2, 4}));
      },
      "The size of tensor a (3) must match the size of tensor b (4) at "
      "non-singleton dimension 1");
  expectError(
      [] {
        TensorIterator::binary_op(Tensor(), meta({7, 3}), meta({5, 1}));
      },
      "The size of tensor a (7) must match the size of tensor b (5) at "
      "non-singleton dimension 0");
}

TEST(TensorIteratorTest, ZeroSize_BroadcastsWithOne) {
  TensorIterator Iter =
      TensorIterator::binary_op(Tensor(), cpu({0, 3}), cpu({1, 3}));
  EXPECT_EQ(Iter.output().sizes(), IntArrayRef({0, 3}));
  EXPECT_EQ(Iter.numel(), 0);
  int Calls = 0;
  Iter.for_each([&](char **, const int64_t *, int64_t) { ++Calls; });
  EXPECT_EQ(Calls, 0);
}

TEST(TensorIteratorTest, ZeroDim_GivesZeroDimOutput) {
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), cpu({}), cpu({}));
  EXPECT_EQ(Iter.output().dim(), 0);
  EXPECT_EQ(Iter.numel(), 1);
  EXPECT_EQ(Iter.ndim(), 0);
  int64_t Seen = 0;
  Iter.for_each([&](char **, const int64_t *, int64_t N) { Seen += N; });
  EXPECT_EQ(Seen, 1);
}

TEST(TensorIteratorTest, OneElement_BroadcastsAgainstAnything) {
  TensorIterator Iter =
      TensorIterator::binary_op(Tensor(), cpu({1}), cpu({2, 3}));
  EXPECT_EQ(Iter.output().sizes(), IntArrayRef({2, 3}));
  EXPECT_TRUE(Iter.is_scalar(1));
  EXPECT_FALSE(Iter.is_scalar(2));
}

//===--- Outputs --------------------------------------------------------===//

TEST(TensorIteratorTest, GivenOutput_IsUsedAsIs) {
  Tensor Out = cpu({2, 3});
  TensorIterator Iter = TensorIterator::binary_op(Out, cpu({2, 3}), cpu({3}));
  EXPECT_TRUE(Iter.output().is_same(Out));
}

TEST(TensorIteratorTest, WrongShapeOutput_IsResizedWithWarning) {
  WarningRecorder Rec;
  Tensor Out = cpu({2});
  TensorIterator::binary_op(Out, cpu({2, 3}), cpu({3}));
  EXPECT_EQ(Out.sizes(), IntArrayRef({2, 3}));
  ASSERT_EQ(Rec.Warnings.size(), 1u);
  EXPECT_NE(Rec.Warnings[0].find("An output with one or more elements was "
                                 "resized since it had shape [2], which does "
                                 "not match the required output shape [2, 3]"),
            std::string::npos)
      << Rec.Warnings[0];
  // An empty output is resized silently.
  Tensor Empty = cpu({0});
  TensorIterator::binary_op(Empty, cpu({2, 3}), cpu({3}));
  EXPECT_EQ(Empty.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(Rec.Warnings.size(), 1u);
}

TEST(TensorIteratorTest, InplaceOutput_CannotBroadcast) {
  Tensor Self = cpu({3});
  expectError(
      [&] {
        TensorIterator::binary_op(Self, Self, cpu({2, 3}));
      },
      "output with shape [3] doesn't match the broadcast shape [2, 3]");
}

TEST(TensorIteratorTest, ExpandedOutput_FailsOverlapCheck) {
  Tensor Base = cpu({3});
  Tensor Out = stridedView(Base, {2, 3}, {0, 1});
  expectError(
      [&] {
        TensorIterator::binary_op(Out, cpu({2, 3}), cpu({3}));
      },
      "unsupported operation: more than one element of the written-to "
      "tensor refers to a single memory location");
}

TEST(TensorIteratorTest, PartlyAliasedInput_FailsOverlapCheck) {
  Tensor Base = cpu({8});
  Tensor Out = stridedView(Base, {4}, {1}, 0);
  Tensor In = stridedView(Base, {4}, {1}, 2);
  expectError([&] { TensorIterator::binary_op(Out, In, cpu({4})); },
              "some elements of the input tensor and the written-to tensor "
              "refer to a single memory location");
}

//===--- Types ----------------------------------------------------------===//

TEST(TensorIteratorTest, TypePromotion_IntPlusFloatIsFloat) {
  TensorIterator Iter =
      TensorIterator::binary_op(Tensor(), cpu({2}, kInt), cpu({2}, kFloat));
  EXPECT_EQ(Iter.common_dtype(), kFloat);
  EXPECT_EQ(Iter.output().dtype(), kFloat);
  // No temporaries: the input keeps its dtype.
  EXPECT_EQ(Iter.input_dtype(0), kInt);
}

TEST(TensorIteratorTest, TypePromotion_WrappedNumberDoesNotWiden) {
  Tensor Half2 = cpu({2}, kHalf);
  Tensor S = wrapped_scalar_tensor(2.5);
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), Half2, S);
  EXPECT_EQ(Iter.output().dtype(), kHalf);
  TensorIterator IntIter = TensorIterator::binary_op(
      Tensor(), cpu({2}, kChar), wrapped_scalar_tensor(1000));
  EXPECT_EQ(IntIter.output().dtype(), kChar);
  TensorIterator FloatIter = TensorIterator::binary_op(
      Tensor(), cpu({2}, kInt), wrapped_scalar_tensor(0.5));
  EXPECT_EQ(FloatIter.output().dtype(), kFloat);
}

TEST(TensorIteratorTest, TypePromotion_ZeroDimTensorOfHigherCategory) {
  TensorIterator Iter =
      TensorIterator::binary_op(Tensor(), cpu({2}, kInt), cpu({}, kDouble));
  EXPECT_EQ(Iter.output().dtype(), kDouble);
  TensorIterator Same =
      TensorIterator::binary_op(Tensor(), cpu({2}, kFloat), cpu({}, kDouble));
  EXPECT_EQ(Same.output().dtype(), kFloat);
}

TEST(TensorIteratorTest, TypePromotion_AllScalarsPromote) {
  TensorIterator Iter = TensorIterator::binary_op(
      Tensor(), wrapped_scalar_tensor(1), wrapped_scalar_tensor(1.5));
  EXPECT_EQ(Iter.output().dtype(), kFloat);
}

TEST(TensorIteratorTest, FloatOp_PromotesIntegersToFloat) {
  TensorIterator Iter = TensorIterator::binary_float_op(
      Tensor(), cpu({2}, kLong), cpu({2}, kInt));
  EXPECT_EQ(Iter.output().dtype(), kFloat);
  TensorIterator Unary =
      TensorIterator::unary_float_op(Tensor(), cpu({2}, kBool));
  EXPECT_EQ(Unary.output().dtype(), kFloat);
  TensorIterator Double =
      TensorIterator::unary_float_op(Tensor(), cpu({2}, kDouble));
  EXPECT_EQ(Double.output().dtype(), kDouble);
}

TEST(TensorIteratorTest, SafeCasting_FloatIntoLong_Fails) {
  Tensor Out = cpu({2}, kLong);
  expectError(
      [&] { TensorIterator::binary_op(Out, cpu({2}), cpu({2}, kLong)); },
      "result type Float can't be cast to the desired output type Long");
  // Widening into the output is fine, and the output keeps its dtype.
  Tensor Wide = cpu({2}, kDouble);
  TensorIterator Iter = TensorIterator::binary_op(Wide, cpu({2}), cpu({2}));
  EXPECT_EQ(Iter.common_dtype(), kFloat);
  EXPECT_EQ(Iter.dtype(0), kDouble);
}

TEST(TensorIteratorTest, UnaryOp_DifferentOutputDtype_Fails) {
  Tensor Out = cpu({2}, kDouble);
  expectError([&] { TensorIterator::unary_op(Out, cpu({2})); },
              "Found dtype Double but expected Float");
}

TEST(TensorIteratorTest, ComparisonOp_OutputIsBool) {
  TensorIterator Iter =
      TensorIterator::comparison_op(Tensor(), cpu({2}, kInt), cpu({2}));
  EXPECT_EQ(Iter.output().dtype(), kBool);
  EXPECT_EQ(Iter.common_dtype(), kFloat);
  Tensor Out = cpu({2}, kFloat);
  TensorIterator Given =
      TensorIterator::comparison_op(Out, cpu({2}, kInt), cpu({2}, kInt));
  EXPECT_EQ(Given.output().dtype(), kFloat);
}

TEST(TensorIteratorTest, TernaryOp_PromotesAllInputs) {
  TensorIterator Iter = TensorIterator();
  Iter.build_ternary_op(Tensor(), cpu({2}, kInt), cpu({2}, kHalf),
                        cpu({1}, kBFloat16));
  EXPECT_EQ(Iter.output().dtype(), kFloat);
}

TEST(TensorIteratorTest, StaticDtypeAndDevice_AppliesToUndefinedOutputs) {
  Tensor In = meta({3}, kFloat);
  TensorIterator Iter = TensorIteratorConfig()
                            .add_owned_output(Tensor())
                            .add_input(In)
                            .check_all_same_dtype(false)
                            .declare_static_dtype_and_device(kBool, kMeta)
                            .build();
  EXPECT_EQ(Iter.output().dtype(), kBool);
  EXPECT_TRUE(Iter.output().is_meta());
  expectError(
      [] {
        TensorIteratorConfig C;
        C.declare_static_dtype(kBool);
      },
      "check_all_same_dtype(false) must be called before "
      "declare_static_dtype(...)");
}

TEST(TensorIteratorTest, StaticShape_SkipsBroadcasting) {
  Tensor Out = cpu({4, 3}), In = cpu({4, 3});
  TensorIterator Iter = TensorIteratorConfig()
                            .add_output(Out)
                            .add_input(In)
                            .resize_outputs(false)
                            .declare_static_shape({4, 3}, {1})
                            .build();
  EXPECT_EQ(Iter.numel(), 4);
  expectError(
      [] {
        TensorIteratorConfig C;
        C.declare_static_shape({2});
      },
      "resize_outputs() must be called before declare_static_shape(...)");
}

//===--- Devices and meta tensors ---------------------------------------===//

TEST(TensorIteratorTest, MetaInputs_GiveMetaOutputsWithoutData) {
  TensorIterator Iter =
      TensorIterator::binary_op(Tensor(), meta({1, 1024}), meta({1024, 1}));
  EXPECT_TRUE(Iter.is_meta());
  EXPECT_TRUE(Iter.output().is_meta());
  EXPECT_FALSE(Iter.output().unsafeGetTensorImpl()->has_storage());
  EXPECT_EQ(Iter.output().sizes(), IntArrayRef({1024, 1024}));
  EXPECT_EQ(Iter.output().strides(), IntArrayRef({1024, 1}));
  EXPECT_EQ(Iter.data_ptr(0), nullptr);
  expectError([&] { Iter.for_each([](char **, const int64_t *, int64_t) {}); },
              "cannot run a loop over meta tensors");
}

TEST(TensorIteratorTest, MetaAndCpu_MatchShapesDtypesStrides) {
  struct Case {
    std::vector<int64_t> A, B;
    ScalarType DA, DB;
  };
  std::vector<Case> Cases = {{{2, 3}, {3}, kInt, kFloat},
                             {{4, 1, 5}, {1, 6, 1}, kHalf, kHalf},
                             {{}, {7}, kDouble, kChar},
                             {{0, 2}, {2}, kBool, kLong}};
  for (const Case &C : Cases) {
    TensorIterator Cpu =
        TensorIterator::binary_op(Tensor(), cpu(C.A, C.DA), cpu(C.B, C.DB));
    TensorIterator Meta =
        TensorIterator::binary_op(Tensor(), meta(C.A, C.DA), meta(C.B, C.DB));
    EXPECT_EQ(Cpu.output().sizes(), Meta.output().sizes());
    EXPECT_EQ(Cpu.output().strides(), Meta.output().strides());
    EXPECT_EQ(Cpu.output().dtype(), Meta.output().dtype());
  }
}

TEST(TensorIteratorTest, MetaAndCpu_DeviceMismatch_Fails) {
  expectError(
      [] { TensorIterator::binary_op(Tensor(), meta({2}), cpu({2})); },
      "Expected all tensors to be on the same device, but found at least two "
      "devices, meta and cpu!");
}

TEST(TensorIteratorTest, CpuScalar_JoinsMetaOperands) {
  Tensor Zero = cpu({}, kDouble);
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), meta({3}), Zero);
  EXPECT_TRUE(Iter.output().is_meta());
  EXPECT_EQ(Iter.output().dtype(), kFloat);
  TensorIterator Wrapped = TensorIterator::binary_op(
      Tensor(), meta({3}, kInt), wrapped_scalar_tensor(2.5));
  EXPECT_EQ(Wrapped.output().dtype(), kFloat);
  EXPECT_TRUE(Wrapped.output().is_meta());
  // Two 0-dim CPU tensors are one too many.
  expectError(
      [&] {
        TensorIterator It;
        It.build_ternary_op(Tensor(), meta({3}), Zero, cpu({}, kDouble));
      },
      "Expected all tensors to be on the same device");
}

//===--- Layouts --------------------------------------------------------===//

TEST(TensorIteratorTest, ChannelsLastInput_GivesChannelsLastOutput) {
  Tensor A =
      detail::empty_cpu({2, 3, 4, 5}, kFloat, MemoryFormat::ChannelsLast);
  TensorIterator Iter = TensorIterator::unary_op(Tensor(), A);
  EXPECT_TRUE(Iter.output().is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_EQ(Iter.ndim(), 1);

  // With a broadcast bias the general path recovers the permutation.
  Tensor Bias = cpu({1, 3, 1, 1});
  TensorIterator Biased = TensorIterator::binary_op(Tensor(), A, Bias);
  EXPECT_EQ(Biased.output().strides(), A.strides());
  TensorIterator BiasFirst = TensorIterator::binary_op(Tensor(), Bias, A);
  EXPECT_EQ(BiasFirst.output().strides(), A.strides());

  Tensor M =
      detail::empty_meta({2, 3, 4, 5}, kHalf, MemoryFormat::ChannelsLast);
  TensorIterator MetaIter =
      TensorIterator::binary_op(Tensor(), M, meta({1, 3, 1, 1}, kHalf));
  EXPECT_TRUE(MetaIter.output().is_contiguous(MemoryFormat::ChannelsLast));
}

TEST(TensorIteratorTest, TransposedInput_OutputKeepsItsLayout) {
  Tensor A = transposed(cpu({4, 6}), 0, 1); // sizes {6, 4}, strides {1, 6}
  TensorIterator Iter = TensorIterator::unary_op(Tensor(), A);
  EXPECT_EQ(Iter.output().strides(), IntArrayRef({1, 6}));
  // Dense in the same order: one coalesced dimension.
  EXPECT_EQ(Iter.ndim(), 1);
  EXPECT_TRUE(Iter.is_contiguous());

  // Two inputs of one size and different layouts: the first one wins.
  TensorIterator Mixed = TensorIterator::binary_op(Tensor(), A, cpu({6, 4}));
  EXPECT_EQ(Mixed.output().strides(), IntArrayRef({1, 6}));
  TensorIterator Other = TensorIterator::binary_op(Tensor(), cpu({6, 4}), A);
  EXPECT_EQ(Other.output().strides(), IntArrayRef({4, 1}));
}

TEST(TensorIteratorTest, PermutedInput_ThreeCycleLayoutIsKept) {
  // Sizes {4, 6, 5} with strides {30, 1, 6}: dimension 1 is fastest, then
  // 2, then 0; the iteration order is a 3-cycle of the dimensions.
  Tensor Base = arange({4, 5, 6});
  Tensor A = stridedView(Base, {4, 6, 5}, {30, 1, 6});
  Tensor B = arange({4, 6, 5}, kFloat, 1000);
  TensorIterator Iter = TensorIterator::binary_op(Tensor(), A, B);
  EXPECT_EQ(Iter.output().strides(), IntArrayRef({30, 1, 6}));
  cpu_kernel(Iter, [](float X, float Y) { return X + Y; });
  std::vector<double> VA = toVector<double>(A), VB = toVector<double>(B);
  std::vector<double> Out = toVector<double>(Iter.output());
  for (size_t I = 0; I != Out.size(); ++I)
    EXPECT_EQ(Out[I], VA[I] + VB[I]) << I;
}

TEST(TensorIteratorTest, ContiguousInputs_CoalesceToOneDimension) {
  TensorIterator Iter =
      TensorIterator::binary_op(Tensor(), cpu({2, 3, 4}), cpu({2, 3, 4}));
  EXPECT_EQ(Iter.ndim(), 1);
  EXPECT_EQ(Iter.shape(), IntArrayRef({24}));
  EXPECT_EQ(Iter.strides(0), IntArrayRef({4}));
  // A sliced input keeps two dimensions.
  Tensor Big = cpu({2, 8});
  Tensor Slice = stridedView(Big, {2, 4}, {8, 1});
  TensorIterator Sliced = TensorIterator::unary_op(Tensor(), Slice);
  EXPECT_EQ(Sliced.ndim(), 2);
  EXPECT_EQ(Sliced.strides(1), IntArrayRef({4, 32}));
}

TEST(TensorIteratorTest, EnforceLinearIteration_KeepsRowMajorOrder) {
  Tensor A = transposed(cpu({4, 6}), 0, 1);
  TensorIterator Iter = TensorIteratorConfig()
                            .add_owned_output(Tensor())
                            .add_input(A)
                            .enforce_linear_iteration()
                            .build();
  EXPECT_EQ(Iter.output().strides(), IntArrayRef({4, 1}));
}

//===--- Note [Functional elementwise fast path] ------------------------===//

/// A functional structured-kernel iterator that records what
/// set_output_raw_strided is asked for.
struct RecordingIterator final : TensorIteratorBase {
  struct Call {
    std::vector<int64_t> Sizes, Strides;
    TensorOptions Options;
    bool operator==(const Call &O) const {
      return Sizes == O.Sizes && Strides == O.Strides && Options == O.Options;
    }
  };
  void set_output_raw_strided(int64_t Idx, IntArrayRef Sizes,
                              IntArrayRef Strides,
                              TensorOptions Options) override {
    Calls.push_back({Sizes.vec(), Strides.vec(), Options});
    Outputs[Idx] = impl::create_out(Sizes, Strides, Options);
    TensorIteratorBase::set_output_raw_strided(Idx, Sizes, Strides, Options);
  }
  using TensorIteratorBase::maybe_get_output;
  const Tensor &maybe_get_output(int64_t Idx) override { return Outputs[Idx]; }

  std::vector<Call> Calls;
  Tensor Outputs[2];
};

/// Builds a binary-op-like iterator over \p Inputs with \p NumOutputs
/// undefined outputs, of \p StaticDtype when given (as comparisons
/// declare bool); with \p Fast, with the output dtype and the common
/// device of \p Fast declared static, which keeps the result but takes
/// the general path.
void buildFunctional(RecordingIterator &Iter, const std::vector<Tensor> &Inputs,
                     bool IntegerToFloat, int NumOutputs = 1,
                     const RecordingIterator *Fast = nullptr,
                     std::optional<ScalarType> StaticDtype = std::nullopt) {
  TensorIteratorConfig Config;
  Config.set_check_mem_overlap(true)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .promote_integer_inputs_to_float(IntegerToFloat)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true);
  if (Fast)
    Config.declare_static_dtype_and_device(
        StaticDtype.value_or(Fast->common_dtype()), Fast->common_device());
  else if (StaticDtype)
    Config.declare_static_dtype(*StaticDtype);
  for (int I = 0; I != NumOutputs; ++I)
    Config.add_owned_output(Tensor());
  for (const Tensor &T : Inputs)
    Config.add_input(T);
  Iter.build(Config);
}

/// The message of the error \p F throws ("" when it does not throw).
template <typename Fn> std::string errorOf(Fn &&F) {
  try {
    F();
  } catch (const std::exception &E) {
    return E.what();
  }
  return "";
}

TEST(TensorIteratorTest, FunctionalFastPath_AgreesWithTheGeneralPath) {
  struct Case {
    std::vector<std::vector<int64_t>> Sizes;
    ScalarType Dtype;
    bool IntegerToFloat;
  };
  std::vector<Case> Cases = {
      {{{1, 1024}, {1024, 1}}, kFloat, false}, // broadcast
      {{{2, 3}, {2, 3}}, kHalf, false},        // one shape
      {{{5, 1, 3}, {4, 1}}, kFloat, false},    // ranks differ
      {{{4, 1}, {5, 1, 3}}, kDouble, false},
      {{{0, 2}, {2}}, kLong, false}, // no elements
      {{{2, 3}, {3}}, kInt, true},   // integers computed in float
      {{{}, {}}, kByte, false},      // all 0-dim
      {{{}, {3}}, kFloat, false},    // 0-dim with a tensor
      {{{1}, {1}}, kFloat, false},   // one element
      {{{1}, {}}, kFloat, false},
      {{{2, 3, 4, 5}, {2, 3, 4, 5}}, kFloat, false},
      {{{2, 1, 4, 1}, {1, 3, 1, 5}, {5}}, kBool, false}};
  for (const Case &C : Cases) {
    for (bool Meta : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "case " << &C - Cases.data()
                                        << (Meta ? " on meta" : " on cpu"));
      std::vector<Tensor> Inputs;
      for (const std::vector<int64_t> &S : C.Sizes)
        Inputs.push_back(Meta ? meta(S, C.Dtype) : cpu(S, C.Dtype));
      for (auto [NumOutputs, StaticDtype] :
           {std::pair<int, std::optional<ScalarType>>{1, std::nullopt},
            {2, std::nullopt},
            {1, kBool}}) {
        SCOPED_TRACE(::testing::Message()
                     << NumOutputs << " outputs"
                     << (StaticDtype ? ", static bool" : ""));
        RecordingIterator Fast, General;
        buildFunctional(Fast, Inputs, C.IntegerToFloat, NumOutputs, nullptr,
                        StaticDtype);
        buildFunctional(General, Inputs, C.IntegerToFloat, NumOutputs, &Fast,
                        StaticDtype);
        EXPECT_EQ(Fast.Calls, General.Calls);
        EXPECT_EQ(Fast.shape(), General.shape());
        EXPECT_EQ(Fast.is_meta(), Meta);
        EXPECT_EQ(Fast.common_dtype(), General.common_dtype());
        ASSERT_EQ(Fast.ntensors(), General.ntensors());
        for (int I = 0; I != Fast.ntensors(); ++I) {
          EXPECT_EQ(Fast.tensor(I).sizes(), General.tensor(I).sizes());
          EXPECT_EQ(Fast.tensor(I).strides(), General.tensor(I).strides());
          EXPECT_EQ(Fast.dtype(I), General.dtype(I));
          EXPECT_EQ(Fast.device(I), General.device(I));
          EXPECT_EQ(Fast.strides(I), General.strides(I));
          // Each path sets the data pointers its own way (Note
          // [Functional elementwise fast path]): both must be the
          // operands' own.
          void *Data = Meta ? nullptr : Fast.tensor(I).data_ptr();
          EXPECT_EQ(Fast.data_ptr(I), Data);
          if (!Meta) {
            EXPECT_EQ(General.data_ptr(I), General.tensor(I).data_ptr());
          }
        }
      }
    }
  }
}

TEST(TensorIteratorTest, FunctionalFastPath_ErrorsAsTheGeneralPath) {
  RecordingIterator Probe;
  buildFunctional(Probe, {cpu({2})}, false);
  auto ErrorsAgree = [&](std::vector<Tensor> Inputs) {
    std::string Fast = errorOf([&] {
      RecordingIterator Iter;
      buildFunctional(Iter, Inputs, false);
    });
    std::string General = errorOf([&] {
      RecordingIterator Iter;
      buildFunctional(Iter, Inputs, false, 1, &Probe);
    });
    EXPECT_NE(Fast, "");
    EXPECT_EQ(Fast, General);
  };
  // Sizes that do not broadcast, found at the second and the third input,
  // with equal and with different ranks.
  ErrorsAgree({cpu({2, 3}), cpu({2, 4})});
  ErrorsAgree({cpu({2, 3}), cpu({3}), cpu({4})});
  ErrorsAgree({cpu({3}), cpu({2, 4})});
  // A broadcast error comes before the device error of a later input.
  ErrorsAgree({cpu({2, 3}), cpu({2, 4}), meta({2, 3})});
  ErrorsAgree({cpu({2, 3}), meta({2, 3})});
}

TEST(TensorIteratorTest, FunctionalFastPath_LeavesOtherCasesToTheGeneralPath) {
  // Mixed dtypes promote, a transposed input keeps its layout, a CPU
  // scalar joins meta operands: all as before.
  TensorIterator Mixed;
  Mixed.build_borrowing_binary_op(Tensor(), cpu({2, 3}, kInt),
                                  cpu({3}, kFloat));
  EXPECT_EQ(Mixed.output().dtype(), kFloat);
  Tensor T = transposed(cpu({4, 6}), 0, 1);
  TensorIterator Strided;
  Strided.build_borrowing_binary_op(Tensor(), T, cpu({6, 4}));
  EXPECT_EQ(Strided.output().strides(), IntArrayRef({1, 6}));
  Tensor Zero = cpu({}, kFloat);
  TensorIterator Joined;
  Joined.build_borrowing_binary_op(Tensor(), meta({3}), Zero);
  EXPECT_TRUE(Joined.output().is_meta());
  // A given output takes the general path too (resized, with a warning
  // when it had elements).
  Tensor Out = cpu({0});
  TensorIterator Given;
  Given.build_borrowing_binary_op(Out, cpu({2}), cpu({2}));
  EXPECT_EQ(Out.sizes(), IntArrayRef({2}));
}

TEST(TensorIteratorTest, BorrowingBuilders_KeepTheirConfiguration) {
  // Note [Constant builder configurations]: the same flags every call.
  for (int Round = 0; Round != 2; ++Round) {
    TensorIterator Float;
    Float.build_borrowing_binary_float_op(Tensor(), cpu({2}, kInt),
                                          cpu({2}, kInt));
    EXPECT_EQ(Float.output().dtype(), kFloat);
    TensorIterator Binary;
    Binary.build_borrowing_binary_op(Tensor(), cpu({2}, kInt), cpu({2}, kInt));
    EXPECT_EQ(Binary.output().dtype(), kInt);
    Tensor LongOut = cpu({2}, kLong);
    expectError(
        [&] {
          TensorIterator Unsafe;
          Unsafe.build_borrowing_binary_op(LongOut, cpu({2}), cpu({2}));
        },
        "result type Float can't be cast to the desired output type Long");
  }
}

//===--- Reductions -----------------------------------------------------===//

TEST(TensorIteratorTest, ReductionShape_KeepdimOrNot) {
  EXPECT_EQ(reduction_shape({2, 3, 4}, {1}, false), DimVector({2, 4}));
  EXPECT_EQ(reduction_shape({2, 3, 4}, {-1, 0}, true), DimVector({1, 3, 1}));
  EXPECT_EQ(reduction_shape({2, 3, 4}, {}, false), DimVector());
  EXPECT_EQ(reduction_shape({}, {}, true), DimVector());
  expectError(
      [] {
        reduction_shape({2, 3}, {1, -1}, false);
      },
      "dim 1 appears multiple times in the list of dims");
  expectError(
      [] {
        reduction_shape({2, 3}, {2}, false);
      },
      "Dimension out of range (expected to be in range of [-2, 1], "
      "but got 2)");
}

TEST(TensorIteratorTest, ReduceOp_ReducedDimensionsComeFirst) {
  Tensor In = cpu({5, 6, 7});
  Tensor Out = cpu({5, 7});
  TensorIterator Iter = make_reduction(In, Out, {1}, false);
  EXPECT_EQ(Iter.num_output_elements(), 35);
  EXPECT_EQ(Iter.num_reduce_dims(), 1);
  EXPECT_EQ(Iter.shape()[0], 6);
  EXPECT_TRUE(Iter.is_dim_reduced(0));
  EXPECT_EQ(Iter.strides(0)[0], 0);

  Tensor Full = cpu({});
  TensorIterator All = make_reduction(In, Full, {}, false);
  EXPECT_EQ(All.num_output_elements(), 1);
  EXPECT_EQ(All.ndim(), 1); // coalesced
  expectError([&] { make_reduction(In, cpu({5}), {1}, false); },
              "reduction: expected an output of shape [5, 7]");
}

//===--- Splitting for 32-bit indexing ----------------------------------===//

TEST(TensorIteratorTest, Narrow_MovesDataPointersAlongTheDimension) {
  Tensor A = arange({4, 6}), Out = cpu({4, 6});
  Tensor B = stridedView(cpu({24}), {4, 6}, {1, 4}); // transposed
  TensorIterator Iter =
      TensorIteratorConfig().add_output(Out).add_input(A).add_input(B).build();
  ASSERT_EQ(Iter.shape(), IntArrayRef({6, 4}));
  TensorIterator Rows = Iter;
  Rows.narrow(1, 1, 2);
  EXPECT_EQ(Rows.shape(), IntArrayRef({6, 2}));
  for (int Arg = 0; Arg < 3; ++Arg)
    EXPECT_EQ(static_cast<char *>(Rows.data_ptr(Arg)) -
                  static_cast<char *>(Iter.data_ptr(Arg)),
              Iter.strides(Arg)[1])
        << "operand " << Arg;
  // A copy of A through the narrowed iteration writes rows 1 and 2 only.
  std::fill_n(Out.data_ptr<float>(), 24, -1.0f);
  Rows.serial_for_each(
      [](char **Data, const int64_t *Strides, int64_t N) {
        for (int64_t I = 0; I < N; ++I)
          *reinterpret_cast<float *>(Data[0] + I * Strides[0]) =
              *reinterpret_cast<float *>(Data[1] + I * Strides[1]);
      },
      {0, Rows.numel()});
  std::vector<double> Want(24, -1.0);
  for (int I = 6; I < 18; ++I)
    Want[I] = I;
  EXPECT_EQ(toVector<double>(Out), Want);
}

TEST(TensorIteratorTest, Narrow_ToOneIndexCoalescesTheDimensionAway) {
  // [3, 4, 5] read with strides that keep all three dimensions apart.
  Tensor In = stridedView(cpu({180}), {3, 4, 5}, {60, 11, 2});
  TensorIterator Iter =
      TensorIteratorConfig().add_owned_output(Tensor()).add_input(In).build();
  ASSERT_EQ(Iter.shape(), IntArrayRef({5, 4, 3}));
  TensorIterator Row = Iter;
  Row.narrow(1, 2, 1); // In[:, 2, :]
  EXPECT_EQ(Row.shape(), IntArrayRef({5, 3}));
  EXPECT_EQ(Row.strides(1), IntArrayRef({8, 240}));
  EXPECT_EQ(static_cast<char *>(Row.data_ptr(1)) -
                static_cast<char *>(Iter.data_ptr(1)),
            2 * 44);
  std::set<int64_t> Seen;
  auto *Base = static_cast<char *>(In.data_ptr());
  Row.serial_for_each(
      [&](char **Data, const int64_t *Strides, int64_t Size0, int64_t Size1) {
        for (int64_t J = 0; J < Size1; ++J)
          for (int64_t I = 0; I < Size0; ++I)
            Seen.insert((Data[1] + I * Strides[1] + J * Strides[3] - Base) / 4);
      },
      {0, Row.numel()});
  std::set<int64_t> Want;
  for (int64_t A = 0; A < 3; ++A)
    for (int64_t C = 0; C < 5; ++C)
      Want.insert(A * 60 + 2 * 11 + C * 2);
  EXPECT_EQ(Seen, Want);

  // A reduction keeps its dimensions: they say which ones are reduced.
  TensorIterator Reduce =
      make_reduction(cpu({3, 4, 5}), cpu({3, 5}), {1}, /*KeepDim=*/false);
  ASSERT_EQ(Reduce.shape(), IntArrayRef({4, 5, 3}));
  ASSERT_TRUE(Reduce.is_dim_reduced(0));
  Reduce.narrow(1, 2, 1);
  EXPECT_EQ(Reduce.shape(), IntArrayRef({4, 1, 3}));
  EXPECT_TRUE(Reduce.is_dim_reduced(0));
}

/// A view of \p Sizes and \p Strides (elements) of bytes over a storage
/// of one byte: an iteration's shape and offsets without the memory, for
/// tests that never read or write it.
Tensor bytesWithoutMemory(IntArrayRef Sizes, IntArrayRef Strides) {
  return stridedView(cpu({1}, kByte), Sizes, Strides);
}

/// Checks that \p Pieces of \p Iter, a 2-d iteration of one output and
/// one input broadcast along dim 1, each fit 32-bit offsets and tile it
/// along dim 1 in order.
void expectPiecesTileRows(const TensorIteratorBase &Iter,
                          const std::vector<TensorIterator> &Pieces) {
  int64_t Next = 0;
  for (const TensorIterator &Piece : Pieces) {
    EXPECT_TRUE(Piece.can_use_32bit_indexing());
    EXPECT_EQ(Piece.shape()[0], Iter.shape()[0]);
    EXPECT_GT(Piece.shape()[1], 0);
    EXPECT_EQ(static_cast<char *>(Piece.data_ptr(0)) -
                  static_cast<char *>(Iter.data_ptr(0)),
              Next * Iter.strides(0)[1]);
    EXPECT_EQ(Piece.data_ptr(1), Iter.data_ptr(1)) << "the row repeats";
    Next += Piece.shape()[1];
  }
  EXPECT_EQ(Next, Iter.shape()[1]);
}

TEST(TensorIteratorTest, SplitFor32BitIndexing_HalvesTooManyElements) {
  // 2^31 + 2^16 bytes from a broadcast row: too many elements for an
  // int32 index. Halves of the rows fit.
  const int64_t Rows = (int64_t(1) << 15) + 1, Cols = int64_t(1) << 16;
  auto Build = [&](int64_t Rows) {
    return TensorIteratorConfig()
        .resize_outputs(false)
        .add_owned_output(bytesWithoutMemory({Rows, Cols}, {Cols, 1}))
        .add_owned_input(bytesWithoutMemory({1, Cols}, {Cols, 1}))
        .build();
  };
  TensorIterator Iter = Build(Rows);
  ASSERT_EQ(Iter.shape(), IntArrayRef({Cols, Rows}));
  ASSERT_FALSE(Iter.can_use_32bit_indexing());
  EXPECT_EQ(Iter.get_dim_to_split(), 1);
  std::vector<TensorIterator> Pieces = splitFor32BitIndexing(Iter);
  ASSERT_EQ(Pieces.size(), 2u);
  EXPECT_EQ(Pieces[0].shape()[1], Rows / 2);
  expectPiecesTileRows(Iter, Pieces);
  // 2^33 + 3 * 2^16 bytes: halves of halves of halves, 8 pieces in order.
  TensorIterator Huge = Build((int64_t(1) << 17) + 3);
  std::vector<TensorIterator> Eighths = splitFor32BitIndexing(Huge);
  EXPECT_EQ(Eighths.size(), 8u);
  expectPiecesTileRows(Huge, Eighths);
}

TEST(TensorIteratorTest, SplitFor32BitIndexing_HalvesOffsetsPast2To31) {
  // Five elements 2^29 bytes apart: few elements, but the last is 2^31
  // bytes into its storage.
  const int64_t Step = int64_t(1) << 29;
  TensorIterator Iter = TensorIteratorConfig()
                            .add_owned_output(cpu({5}, kByte))
                            .add_owned_input(bytesWithoutMemory({5}, {Step}))
                            .build();
  ASSERT_FALSE(Iter.can_use_32bit_indexing());
  std::vector<TensorIterator> Pieces = splitFor32BitIndexing(Iter);
  ASSERT_EQ(Pieces.size(), 2u);
  EXPECT_EQ(Pieces[0].numel(), 2);
  EXPECT_EQ(Pieces[1].numel(), 3);
  EXPECT_TRUE(Pieces[1].can_use_32bit_indexing());
  EXPECT_EQ(static_cast<char *>(Pieces[1].data_ptr(1)) -
                static_cast<char *>(Iter.data_ptr(1)),
            2 * Step);
  EXPECT_EQ(static_cast<char *>(Pieces[1].data_ptr(0)) -
                static_cast<char *>(Iter.data_ptr(0)),
            2);
  // An iteration that fits is its own one piece.
  TensorIterator Small = TensorIterator::unary_op(cpu({3}), cpu({3}));
  std::vector<TensorIterator> One = splitFor32BitIndexing(Small);
  ASSERT_EQ(One.size(), 1u);
  EXPECT_EQ(One[0].data_ptr(0), Small.data_ptr(0));
  EXPECT_EQ(One[0].shape(), Small.shape());
}

//===--- Loops ----------------------------------------------------------===//

TEST(TensorIteratorTest, SerialForEach_AnyRangeVisitsEachElementOnce) {
  // A 3-d iteration that does not coalesce: every element of In is
  // visited exactly once by any split of the linear range.
  Tensor Big = cpu({180});
  Tensor In = stridedView(Big, {3, 4, 5}, {60, 11, 2});
  TensorIterator Iter =
      TensorIteratorConfig().add_owned_output(Tensor()).add_input(In).build();
  ASSERT_EQ(Iter.ndim(), 3);
  auto *Base = static_cast<char *>(In.data_ptr());
  for (int64_t Split = 0; Split <= Iter.numel(); ++Split) {
    std::multiset<int64_t> Seen;
    auto Record = [&](char **Data, const int64_t *Strides, int64_t Size0,
                      int64_t Size1) {
      for (int64_t J = 0; J < Size1; ++J)
        for (int64_t I = 0; I < Size0; ++I)
          Seen.insert((Data[1] + I * Strides[1] + J * Strides[3] - Base) / 4);
    };
    Iter.serial_for_each(Record, {0, Split});
    Iter.serial_for_each(Record, {Split, Iter.numel()});
    ASSERT_EQ(static_cast<int64_t>(Seen.size()), Iter.numel());
    std::set<int64_t> Unique(Seen.begin(), Seen.end());
    EXPECT_EQ(Unique.size(), Seen.size()) << "split at " << Split;
  }
}

TEST(TensorIteratorTest, ForEach_ParallelCoversEveryElement) {
  int Saved = get_num_threads();
  set_num_threads(2);
  Tensor In = arange({100, 37});
  Tensor Out = cpu({100, 37});
  TensorIterator Iter =
      TensorIterator::unary_op(Out, stridedView(In, {100, 37}, {37, 1}));
  Iter.for_each(
      [](char **Data, const int64_t *Strides, int64_t N) {
        for (int64_t I = 0; I < N; ++I)
          *reinterpret_cast<float *>(Data[0] + I * Strides[0]) =
              *reinterpret_cast<float *>(Data[1] + I * Strides[1]) * 2;
      },
      /*GrainSize=*/64);
  set_num_threads(Saved);
  EXPECT_EQ(toVector<double>(Out), iota(3700, 2));
}

} // namespace
