//===--- FunctionSchemaTest.cpp - Tests of the schema model ---------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Parse/FunctionSchema.h"
#include "SchemaTestUtils.h"

#include "gtest/gtest.h"

using namespace skc;
using skc::testing::SchemaParseHarness;

namespace {

TEST(TypeContextTest, TypesAreUniqued) {
  TypeContext Types;
  const Type *Tensor = Types.getBase(BaseTypeKind::Tensor);
  EXPECT_EQ(Types.getOptional(Tensor), Types.getOptional(Tensor));
  EXPECT_EQ(Types.getList(Tensor, 2), Types.getList(Tensor, 2));
  EXPECT_NE(Types.getList(Tensor, 2), Types.getList(Tensor, 0));
  EXPECT_EQ(Types.getList(Types.getOptional(Tensor), 0)->getAsString(),
            "Tensor?[]");
  EXPECT_EQ(Types.getOptional(Types.getList(Types.getBase(BaseTypeKind::Int),
                                            0))
                ->getAsString(),
            "int[]?");
}

TEST(TypeTest, TensorLikeTypes) {
  TypeContext Types;
  const Type *Tensor = Types.getBase(BaseTypeKind::Tensor);
  EXPECT_TRUE(Tensor->isTensorLike());
  EXPECT_TRUE(Types.getOptional(Tensor)->isTensorLike());
  EXPECT_TRUE(Types.getList(Tensor, 0)->isTensorLike());
  EXPECT_TRUE(Types.getList(Types.getOptional(Tensor), 0)->isTensorLike());
  EXPECT_FALSE(Types.getBase(BaseTypeKind::Int)->isTensorLike());
  EXPECT_FALSE(Types.getList(Types.getList(Tensor, 0), 0)->isTensorLike());
}

TEST(OperatorNameTest, ClassifiesInplaceDunderAndFunctional) {
  OperatorName N;
  N.Name = "add_";
  N.classify();
  EXPECT_TRUE(N.Inplace);
  EXPECT_EQ(N.Base, "add");

  N.Name = "__iadd__";
  N.classify();
  EXPECT_TRUE(N.Inplace && N.Dunder);
  EXPECT_EQ(N.Base, "add");

  N.Name = "__and__";
  N.classify();
  EXPECT_TRUE(N.Dunder);
  EXPECT_FALSE(N.Inplace);
  EXPECT_EQ(N.Base, "and");

  N.Name = "native_batch_norm_functional";
  N.classify();
  EXPECT_TRUE(N.FunctionalOverload);
  EXPECT_EQ(N.Base, "native_batch_norm");
}

struct KindCase {
  const char *Schema;
  SchemaKind Kind;
};

class SchemaKindTest : public ::testing::TestWithParam<KindCase> {};

TEST_P(SchemaKindTest, KindFollowsTorchgen) {
  SchemaParseHarness H;
  std::optional<FunctionSchema> S = H.parse(GetParam().Schema);
  ASSERT_TRUE(S) << H.firstMessage();
  EXPECT_EQ(S->getKind(), GetParam().Kind);
}

INSTANTIATE_TEST_SUITE_P(
    All, SchemaKindTest,
    ::testing::Values(
        KindCase{"add.Tensor(Tensor self, Tensor other) -> Tensor",
                 SchemaKind::Functional},
        KindCase{"add_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
                 SchemaKind::Inplace},
        KindCase{"add.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
                 SchemaKind::Out},
        KindCase{"f(Tensor self, Tensor(a!) running) -> Tensor",
                 SchemaKind::Mutable},
        KindCase{"f.out(Tensor self, *, Tensor(a!) out, Tensor(b!) "
                 "_scratch_x) -> Tensor(a!)",
                 SchemaKind::Scratch}));

TEST(FunctionSchemaTest, PartitionsArguments) {
  SchemaParseHarness H;
  std::optional<FunctionSchema> S =
      H.parse("where.self_out(Tensor condition, Tensor self, Tensor other, *, "
              "Tensor(a!) out) -> Tensor(a!)");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->SelfIndex, 1);
  EXPECT_EQ(S->KwargOnlyStart, 3);
  EXPECT_EQ(S->FirstOut, 3);
  ASSERT_EQ(S->getOutArguments().size(), 1u);
  EXPECT_EQ(S->getOutArguments()[0].Name, "out");
  EXPECT_FALSE(S->hasTensorOptions());
}

TEST(FunctionSchemaTest, FindsTensorOptionsGroup) {
  SchemaParseHarness H;
  std::optional<FunctionSchema> S = H.parse(
      "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? "
      "layout=None, Device? device=None, bool? pin_memory=None, "
      "MemoryFormat? memory_format=None) -> Tensor");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->TensorOptionsStart, 1);
}

TEST(FunctionSchemaTest, SignatureKeyPairsVariants) {
  SchemaParseHarness H;
  auto Functional =
      H.parse("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> "
              "Tensor");
  auto Inplace = H.parse("add_.Tensor(Tensor(a!) self, Tensor other, *, "
                         "Scalar alpha=1) -> Tensor(a!)");
  auto Out = H.parse("add.out(Tensor self, Tensor other, *, Scalar alpha=1, "
                     "Tensor(a!) out) -> Tensor(a!)");
  ASSERT_TRUE(Functional && Inplace && Out);
  EXPECT_EQ(Functional->getSignatureKey(),
            "add(Tensor self, Tensor other, *, Scalar alpha=1) -> (Tensor)");
  EXPECT_EQ(Inplace->getSignatureKey(), Functional->getSignatureKey());
  EXPECT_EQ(Out->getSignatureKey(), Functional->getSignatureKey());
}

TEST(FunctionSchemaTest, SignatureKeyDropsTensorOptions) {
  SchemaParseHarness H;
  auto Factory = H.parse("arange(Scalar end, *, ScalarType? dtype=None, "
                         "Layout? layout=None, Device? device=None, bool? "
                         "pin_memory=None) -> Tensor");
  auto Out =
      H.parse("arange.out(Scalar end, *, Tensor(a!) out) -> Tensor(a!)");
  ASSERT_TRUE(Factory && Out);
  EXPECT_EQ(Factory->getSignatureKey(), Out->getSignatureKey());
}

TEST(FunctionSchemaTest, SignatureKeyTurnsUnreturnedMutablesIntoReturns) {
  SchemaParseHarness H;
  auto Out = H.parse("_foreach_add.List_out(Tensor[] self, Tensor[] other, *, "
                     "Tensor(a!)[] out) -> ()");
  auto Functional =
      H.parse("_foreach_add.List(Tensor[] self, Tensor[] other) -> Tensor[]");
  ASSERT_TRUE(Out && Functional);
  EXPECT_EQ(Out->getSignatureKey(), Functional->getSignatureKey());
}

TEST(FunctionSchemaTest, PrintsCanonicalForm) {
  SchemaParseHarness H;
  auto S = H.parse("aten::split.Tensor( Tensor(a -> *) self,SymInt "
                   "split_size,int dim=0 )  ->  Tensor(a)[]");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->getAsString(), "aten::split.Tensor(Tensor(a -> *) self, SymInt "
                              "split_size, int dim=0) -> Tensor(a)[]");
  EXPECT_EQ(H.firstID(), "warn_schema_not_canonical");
}

} // namespace
