//===--- SchemaParserTest.cpp - Tests of the func: grammar ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Parse/SchemaParser.h"
#include "SchemaTestUtils.h"

#include "gtest/gtest.h"

using namespace skc;
using skc::testing::SchemaParseHarness;

namespace {

TEST(SchemaParserTest, ParsesEveryTypeForm) {
  SchemaParseHarness H;
  auto S = H.parse(
      "f(Tensor? a, Tensor[] b, Tensor?[] c, int[2] d, int[]? e, SymInt[1]? "
      "g, bool[3] h, Dimname[]? i, __torch__.torch.classes.quantized.Conv "
      "j) -> ()");
  ASSERT_TRUE(S) << H.firstMessage();
  const char *Expected[] = {"Tensor?",  "Tensor[]", "Tensor?[]",
                            "int[2]",   "int[]?",   "SymInt[1]?",
                            "bool[3]",  "Dimname[]?",
                            "__torch__.torch.classes.quantized.Conv"};
  ASSERT_EQ(S->Arguments.size(), std::size(Expected));
  for (size_t I = 0; I != std::size(Expected); ++I)
    EXPECT_EQ(S->Arguments[I].Ty->getAsString(), Expected[I]);
  EXPECT_TRUE(S->Returns.empty());
}

TEST(SchemaParserTest, ParsesAnnotations) {
  SchemaParseHarness H;
  auto S = H.parse("f(Tensor(a -> *) self, Tensor(b!)[] out2, Tensor(c)? x) "
                   "-> Tensor(a)");
  ASSERT_TRUE(S) << H.firstMessage();
  EXPECT_EQ(S->Arguments[0].Annotation->After, "*");
  EXPECT_TRUE(S->Arguments[1].Annotation->IsWrite);
  EXPECT_EQ(S->Arguments[1].Ty->getAsString(), "Tensor[]");
  EXPECT_EQ(S->Arguments[2].Annotation->Before, "c");
  EXPECT_EQ(S->Returns[0].Annotation->Before, "a");
}

TEST(SchemaParserTest, ParsesDefaultsOfEveryLiteralForm) {
  SchemaParseHarness H;
  auto S = H.parse(
      "f(int a=-1, float b=1e-05, bool c=True, str d='mean', str e=\"x\\\"y\", "
      "int[1] f=[-2,-1], int[2] g=0, int r=Mean, MemoryFormat m="
      "contiguous_format, ScalarType? t=None, Scalar s=0.5, int[] l=[]) -> ()");
  ASSERT_TRUE(S) << H.firstMessage();
  EXPECT_EQ(S->Arguments[0].Default->Kind, DefaultValue::DefaultKind::Int);
  EXPECT_EQ(S->Arguments[1].Default->Kind, DefaultValue::DefaultKind::Float);
  EXPECT_EQ(S->Arguments[2].Default->Kind, DefaultValue::DefaultKind::Bool);
  EXPECT_EQ(S->Arguments[3].Default->Kind, DefaultValue::DefaultKind::String);
  EXPECT_EQ(S->Arguments[4].Default->Spelling, "\"x\\\"y\"");
  EXPECT_EQ(S->Arguments[5].Default->Spelling, "[-2,-1]");
  EXPECT_EQ(S->Arguments[7].Default->Kind, DefaultValue::DefaultKind::Identifier);
  EXPECT_EQ(S->Arguments[9].Default->Kind, DefaultValue::DefaultKind::None);
  EXPECT_TRUE(H.Stored.Diagnostics.empty());
}

TEST(SchemaParserTest, ParsesNamedAndTupleReturns) {
  SchemaParseHarness H;
  auto S = H.parse("max.dim(Tensor self, int dim, bool keepdim=False) -> "
                   "(Tensor values, Tensor indices)");
  ASSERT_TRUE(S);
  ASSERT_EQ(S->Returns.size(), 2u);
  EXPECT_EQ(S->Returns[1].Name, "indices");
}

struct ErrorCase {
  const char *Schema;
  const char *ID;
  unsigned Column;
};

class SchemaParserErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SchemaParserErrorTest, PointsAtTheOffendingToken) {
  SchemaParseHarness H;
  EXPECT_FALSE(H.parse(GetParam().Schema).has_value());
  EXPECT_EQ(H.firstID(), GetParam().ID);
  EXPECT_EQ(H.firstColumn(), GetParam().Column) << H.firstMessage();
}

INSTANTIATE_TEST_SUITE_P(
    All, SchemaParserErrorTest,
    ::testing::Values(
        ErrorCase{"f(Tensr self) -> Tensor", "err_schema_unknown_type_suggest",
                  3},
        ErrorCase{"f(Tensor self, Frobnicator x) -> Tensor",
                  "err_schema_unknown_type", 16},
        ErrorCase{"f(Tensor self -> Tensor", "err_schema_expected", 15},
        ErrorCase{"f(Tensor self) Tensor", "err_schema_expected", 16},
        ErrorCase{"f(int(a) x) -> ()", "err_schema_annotation_not_tensor", 6},
        ErrorCase{"f(Tensor(A!) x) -> ()", "err_schema_invalid_annotation", 10},
        ErrorCase{"f(Tensor(a|b!) x) -> ()",
                  "err_schema_annotation_write_set", 10},
        ErrorCase{"f(Tensor x, *, int a, *, int b) -> ()",
                  "err_schema_kwarg_marker_twice", 23},
        ErrorCase{"f(Tensor x, int x) -> ()", "err_schema_duplicate_argument",
                  17},
        ErrorCase{"f(Tensor x, *, Tensor(a!) out, int y) -> Tensor(a!)",
                  "err_schema_out_not_last", 32},
        ErrorCase{"f(int x=True) -> ()", "err_schema_default_mismatch", 9},
        ErrorCase{"f(int[] x=1) -> ()", "err_schema_list_default_expected", 11},
        ErrorCase{"f(int[0] x) -> ()", "err_schema_bad_list_size", 7},
        ErrorCase{"a::b::f(Tensor x) -> ()", "err_schema_nested_namespace", 1},
        ErrorCase{"foo_out(Tensor x) -> ()",
                  "err_schema_reserved_out_suffix", 1},
        ErrorCase{"f(Tensor x) -> Tensor y=1", "err_schema_return_default",
                  24},
        ErrorCase{"f(str x='abc) -> ()", "err_schema_expected", 20}));

TEST(ParseOperatorNameTest, AcceptsNamesAndRejectsJunk) {
  std::optional<OperatorName> N = parseOperatorName("add.out");
  ASSERT_TRUE(N);
  EXPECT_EQ(N->Name, "add");
  EXPECT_EQ(N->Overload, "out");
  EXPECT_TRUE(parseOperatorName("my_ns::relu_"));
  EXPECT_FALSE(parseOperatorName("add."));
  EXPECT_FALSE(parseOperatorName("add out"));
  EXPECT_FALSE(parseOperatorName(""));
}

} // namespace
