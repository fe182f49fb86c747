//===--- BoxingTest.cpp - Every kernel type, unboxed and boxed ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// One op per C++ type that skc maps schema types to (lib/Sema/
// KernelSignature.cpp): each is registered from its schema string with an
// unboxed kernel (so the registration check accepts the pairing), then
// called typed, boxed over a stack, and typed into a boxed kernel.
//
//===----------------------------------------------------------------------===//

#include "sk/core/EmptyTensor.h"
#include "sk/core/OptionalRef.h"
#include "sk/dispatch/Dispatcher.h"
#include "sk/dispatch/Library.h"

#include "TestUtils.h"

using namespace sk;

namespace {

Tensor cpu(int64_t N) { return detail::empty_cpu({N}, kFloat); }

SK_LIBRARY(btest, m) {
  m.def("mask(Tensor self, bool[3] output_mask) -> Tensor");
  m.def("floats(Tensor self, float[] scales, float[]? factors=None) -> float");
  m.def("scalars(Tensor self, Scalar[] values, Scalar? alpha=None) -> Scalar");
  m.def("opt_ints(Tensor self, int[1]? dim, SymInt[]? size, *, "
        "str? mode=None, str name=\"x\") -> int");
  m.def("inplace_(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("out1(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("out2(Tensor self, *, Tensor(a!) values, Tensor(b!) indices) -> "
        "(Tensor(a!) values, Tensor(b!) indices)");
  m.def("boxed_inplace_(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("boxed_out2(Tensor self, *, Tensor(a!) values, Tensor(b!) indices) "
        "-> (Tensor(a!) values, Tensor(b!) indices)");
  m.def("unbind(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]");
  m.def("pair(Tensor self) -> (Tensor, Tensor)");
  m.def("returns_nothing(Tensor(a!)[] self) -> ()");
}

/// A boxed kernel for the ops with reference returns: it pushes copies of
/// the out handles, as a fallback would.
void boxedOuts(const OperatorHandle &Op, DispatchKeySet, Stack *S) {
  size_t NumArgs = Op.schema().Arguments.size();
  size_t NumRets = Op.schema().Returns.size();
  Stack Rets(S->end() - NumRets, S->end());
  if (Op.schema().Name.Name == "btest::boxed_inplace_")
    Rets = {(*S)[S->size() - NumArgs]};
  S->erase(S->end() - NumArgs, S->end());
  S->insert(S->end(), Rets.begin(), Rets.end());
}

SK_LIBRARY_IMPL(btest, CPU, m) {
  m.impl("mask", [](const Tensor &, std::array<bool, 3> Mask) {
    return cpu(Mask[0] * 4 + Mask[1] * 2 + Mask[2]);
  });
  m.impl("floats", [](const Tensor &, ArrayRef<double> Scales,
                      OptionalArrayRef<double> Factors) {
    double Sum = 0;
    for (double D : Scales)
      Sum += D;
    if (Factors)
      for (double D : *Factors)
        Sum += 100 * D;
    return Sum;
  });
  m.impl("scalars", [](const Tensor &, ArrayRef<Scalar> Values,
                       const std::optional<Scalar> &Alpha) {
    double Sum = Alpha ? Alpha->toDouble() * 1000 : 0;
    for (const Scalar &S : Values)
      Sum += S.toDouble();
    return Scalar(Sum);
  });
  m.impl("opt_ints",
         [](const Tensor &, OptionalIntArrayRef Dim, OptionalIntArrayRef Size,
            std::optional<std::string_view> Mode,
            std::string_view Name) -> int64_t {
           return (Dim ? Dim->front() : -1) * 1000 +
                  (Size ? static_cast<int64_t>(Size->size()) : -1) * 100 +
                  (Mode ? static_cast<int64_t>(Mode->size()) : -1) * 10 +
                  static_cast<int64_t>(Name.size());
         });
  m.impl("inplace_",
         [](Tensor &Self, const Scalar &) -> Tensor & { return Self; });
  m.impl("out1", [](const Tensor &, Tensor &Out) -> Tensor & { return Out; });
  m.impl("out2", [](const Tensor &, Tensor &Values, Tensor &Indices) {
    return std::tuple<Tensor &, Tensor &>(Values, Indices);
  });
  m.impl("boxed_inplace_", CppFunction::makeFromBoxedFunction<&boxedOuts>());
  m.impl("boxed_out2", CppFunction::makeFromBoxedFunction<&boxedOuts>());
  m.impl("unbind", [](const Tensor &Self, int64_t Dim) {
    return std::vector<Tensor>(static_cast<size_t>(Self.size(Dim)), cpu(1));
  });
  m.impl("pair",
         [](const Tensor &Self) { return std::make_tuple(Self, cpu(7)); });
  m.impl("returns_nothing", [](TensorList) {});
}

template <typename Sig> TypedOperatorHandle<Sig> op(const char *Name) {
  return Dispatcher::singleton().findSchemaOrThrow(Name, "").typed<Sig>();
}

/// Calls \p Name boxed with \p Args and returns the stack.
template <typename... Args> Stack callBoxed(const char *Name, Args &&...A) {
  Stack S;
  detail::pushArguments(S, A...);
  Dispatcher::singleton().findSchemaOrThrow(Name, "").callBoxed(S);
  return S;
}

TEST(BoxingTest, FixedSizeBoolList) {
  auto Mask = op<Tensor(const Tensor &, std::array<bool, 3>)>("btest::mask");
  EXPECT_EQ(Mask.call(cpu(1), {true, false, true}).size(0), 5);
  Stack S =
      callBoxed("btest::mask", cpu(1), std::array<bool, 3>{false, true, true});
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].toTensor().size(0), 3);
  // A boxed caller may push a list of the wrong length.
  Stack Bad = {IValue(cpu(1)), IValue(std::vector<bool>{true})};
  SK_EXPECT_ERROR(Dispatcher::singleton()
                      .findSchemaOrThrow("btest::mask", "")
                      .callBoxed(Bad),
                  "expected a bool[3] but got 1 bools");
}

TEST(BoxingTest, FloatListsAndOptionalFloatLists) {
  auto Floats = op<double(const Tensor &, ArrayRef<double>,
                          OptionalArrayRef<double>)>("btest::floats");
  EXPECT_EQ(Floats.call(cpu(1), {1.5, 2}, std::nullopt), 3.5);
  std::vector<double> F = {1, 2};
  EXPECT_EQ(Floats.call(cpu(1), {1.5}, ArrayRef<double>(F)), 301.5);
  Stack S = callBoxed("btest::floats", cpu(1), ArrayRef<double>({0.5}),
                      OptionalArrayRef<double>(ArrayRef<double>(F)));
  EXPECT_EQ(S.at(0).toDouble(), 300.5);
}

TEST(BoxingTest, ScalarListsAndOptionalScalarByConstRef) {
  auto Scalars = op<Scalar(const Tensor &, ArrayRef<Scalar>,
                           const std::optional<Scalar> &)>("btest::scalars");
  std::vector<Scalar> V = {Scalar(int64_t(1)), Scalar(2.5), Scalar(true)};
  EXPECT_EQ(Scalars.call(cpu(1), V, std::nullopt).toDouble(), 4.5);
  EXPECT_EQ(Scalars.call(cpu(1), V, Scalar(int64_t(2))).toDouble(), 2004.5);
  Stack S = callBoxed("btest::scalars", cpu(1), ArrayRef<Scalar>(V),
                      std::optional<Scalar>(Scalar(1.0)));
  EXPECT_EQ(S.at(0).toScalar().toDouble(), 1004.5);
  // Each element keeps its kind on the stack.
  Stack L;
  detail::pushArguments(L, ArrayRef<Scalar>(V));
  EXPECT_TRUE(L[0].toScalarList()[0].isIntegral(/*IncludeBool=*/false));
  EXPECT_TRUE(L[0].toScalarList()[1].isFloatingPoint());
  EXPECT_TRUE(L[0].toScalarList()[2].isBoolean());
}

TEST(BoxingTest, OptionalIntListsAndOptionalStrings) {
  auto OptInts =
      op<int64_t(const Tensor &, OptionalIntArrayRef, OptionalIntArrayRef,
                 std::optional<std::string_view>, std::string_view)>(
          "btest::opt_ints");
  EXPECT_EQ(
      OptInts.call(cpu(1), std::nullopt, std::nullopt, std::nullopt, "ab"),
      -1000 - 100 - 10 + 2);
  std::vector<int64_t> Dim = {3}, Size = {4, 5};
  EXPECT_EQ(OptInts.call(cpu(1), IntArrayRef(Dim), IntArrayRef(Size),
                         std::string_view("mean"), "x"),
            3000 + 200 + 40 + 1);
  Stack S =
      callBoxed("btest::opt_ints", cpu(1),
                OptionalIntArrayRef(IntArrayRef(Dim)), OptionalIntArrayRef(),
                std::optional<std::string_view>(std::string_view("sum")),
                std::string_view("name"));
  EXPECT_EQ(S.at(0).toInt(), 3000 - 100 + 30 + 4);
}

TEST(BoxingTest, InplaceAndOutReturnTheCallersTensor) {
  Tensor Self = cpu(2), Out = cpu(3);
  auto Inplace = op<Tensor &(Tensor &, const Scalar &)>("btest::inplace_");
  EXPECT_EQ(&Inplace.call(Self, int64_t(1)), &Self);
  auto Out1 = op<Tensor &(const Tensor &, Tensor &)>("btest::out1");
  EXPECT_EQ(&Out1.call(Self, Out), &Out);
  // Boxed, the return is a handle to the same tensor.
  Stack S = callBoxed("btest::out1", Self, Out);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_TRUE(S[0].toTensor().is_same(Out));
}

TEST(BoxingTest, TwoOutputsReturnATupleOfReferences) {
  Tensor Self = cpu(1), Values = cpu(2), Indices = cpu(3);
  auto Out2 =
      op<std::tuple<Tensor &, Tensor &>(const Tensor &, Tensor &, Tensor &)>(
          "btest::out2");
  auto [V, I] = Out2.call(Self, Values, Indices);
  EXPECT_EQ(&V, &Values);
  EXPECT_EQ(&I, &Indices);
  Stack S = callBoxed("btest::out2", Self, Values, Indices);
  ASSERT_EQ(S.size(), 2u);
  EXPECT_TRUE(S[0].toTensor().is_same(Values));
  EXPECT_TRUE(S[1].toTensor().is_same(Indices));
}

// Note [Reference returns] in sk/dispatch/Boxing.h.
TEST(BoxingTest, TypedCallsIntoBoxedKernelsReturnReferencesToArguments) {
  Tensor Self = cpu(1), Values = cpu(2), Indices = cpu(3);
  auto Inplace =
      op<Tensor &(Tensor &, const Scalar &)>("btest::boxed_inplace_");
  EXPECT_EQ(&Inplace.call(Self, int64_t(2)), &Self);
  auto Out2 =
      op<std::tuple<Tensor &, Tensor &>(const Tensor &, Tensor &, Tensor &)>(
          "btest::boxed_out2");
  auto [V, I] = Out2.call(Self, Values, Indices);
  EXPECT_EQ(&V, &Values);
  EXPECT_EQ(&I, &Indices);
}

TEST(BoxingTest, TensorListAndTupleReturns) {
  auto Unbind =
      op<std::vector<Tensor>(const Tensor &, int64_t)>("btest::unbind");
  EXPECT_EQ(Unbind.call(cpu(4), 0).size(), 4u);
  Stack S = callBoxed("btest::unbind", cpu(3), int64_t(0));
  EXPECT_EQ(S.at(0).toTensorList().size(), 3u);
  auto Pair = op<std::tuple<Tensor, Tensor>(const Tensor &)>("btest::pair");
  Tensor A = cpu(2);
  auto [First, Second] = Pair.call(A);
  EXPECT_TRUE(First.is_same(A));
  EXPECT_EQ(Second.size(0), 7);
  std::vector<Tensor> L = {A};
  op<void(TensorList)>("btest::returns_nothing").call(L);
  EXPECT_TRUE(callBoxed("btest::returns_nothing", TensorList(L)).empty());
}

TEST(BoxingTest, SignatureCheckComparesTheNewTypes) {
  Library L(Library::Fragment, "btest", std::nullopt, "BoxingTest.cpp", 1);
  L.def("mask2(Tensor self, bool[3] output_mask) -> Tensor");
  L.def("floats2(float[] scales) -> float");
  L.def("index2(Tensor self, Tensor?[] indices) -> Tensor");
  L.def("layout2(Layout? layout) -> Tensor");
  L.def("scalar_opt(Scalar? s) -> Tensor");
  Library I(Library::Impl, "btest", DispatchKey::CPU, "BoxingTest.cpp", 2);
  SK_EXPECT_ERROR(
      I.impl("mask2",
             [](const Tensor &Self, std::array<bool, 2>) { return Self; }),
      "argument 1 ('output_mask') is 'bool[3]' in the schema but 'bool[2]' "
      "in C++");
  SK_EXPECT_ERROR(I.impl("floats2", [](IntArrayRef) { return 1.0; }),
                  "'float[]' in the schema but 'int[]' in C++");
  SK_EXPECT_ERROR(
      I.impl("index2", [](const Tensor &Self, TensorList) { return Self; }),
      "'Tensor?[]' in the schema, which has no runtime C++ type");
  SK_EXPECT_ERROR(
      I.impl("layout2", [](std::optional<int64_t>) { return cpu(1); }),
      "'Layout?' in the schema, which has no runtime C++ type");
  SK_EXPECT_ERROR(I.impl("scalar_opt", [](const Scalar &) { return cpu(1); }),
                  "'Scalar?' in the schema but 'Scalar' in C++");
  // Boxed kernels are fine for types without a C++ type.
  I.impl("index2", CppFunction::makeFromBoxedFunction<&boxedOuts>());
}

} // namespace
