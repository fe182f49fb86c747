//===--- OperatorSchemaTest.cpp - The runtime schema parser ---------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/dispatch/Dispatcher.h"
#include "sk/dispatch/OperatorSchema.h"

#include "../../support/FuncStrings.h"
#include "TestUtils.h"

#include <algorithm>

using namespace sk;

namespace {

TEST(OperatorSchemaTest, AliasAnnotationsKwargOnlyAndNamedReturns) {
  OperatorSchema S = OperatorSchema::parse(
      "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) "
      "max, Tensor(b!) max_values) -> (Tensor(a!) max, Tensor(b!) "
      "max_values)");
  EXPECT_EQ(S.Name.Name, "max");
  EXPECT_EQ(S.Name.Overload, "dim_max");
  ASSERT_EQ(S.Arguments.size(), 5u);
  EXPECT_FALSE(S.Arguments[2].IsKwargOnly);
  EXPECT_TRUE(S.Arguments[2].HasDefault);
  EXPECT_EQ(S.Arguments[2].Default, "False");
  EXPECT_TRUE(S.Arguments[3].IsKwargOnly);
  EXPECT_TRUE(S.Arguments[3].IsWrite);
  EXPECT_EQ(S.Arguments[4].Alias, "b!");
  ASSERT_EQ(S.Returns.size(), 2u);
  EXPECT_EQ(S.Returns[1].Name, "max_values");
  EXPECT_TRUE(S.Returns[1].IsWrite);
  EXPECT_TRUE(S.hasCppTypes());
}

TEST(OperatorSchemaTest, ListsOptionalsAndFixedSizes) {
  OperatorSchema S = OperatorSchema::parse(
      "f(Tensor(a!)[] self, Tensor?[] indices, int[2] k=[0,1], SymInt[]? s, "
      "bool[3] mask, float[]? scales=None) -> ()");
  ASSERT_EQ(S.Arguments.size(), 6u);
  const SchemaType &Self = S.Arguments[0].Type;
  EXPECT_TRUE(Self.IsList && !Self.IsOptional && S.Arguments[0].IsWrite);
  EXPECT_EQ(Self.Spelling, "Tensor[]");
  const SchemaType &Indices = S.Arguments[1].Type;
  EXPECT_TRUE(Indices.IsList && Indices.IsElementOptional &&
              !Indices.IsOptional);
  EXPECT_FALSE(Indices.hasArgumentCppType());
  EXPECT_EQ(S.Arguments[2].Type.ListSize, 2);
  EXPECT_EQ(S.Arguments[2].Default, "[0,1]");
  const SchemaType &Sizes = S.Arguments[3].Type;
  EXPECT_TRUE(Sizes.Base == ValueKind::Int && Sizes.IsList &&
              Sizes.IsOptional);
  EXPECT_EQ(Sizes.Spelling, "SymInt[]?");
  EXPECT_EQ(S.Arguments[4].Type.ListSize, 3);
  EXPECT_TRUE(S.Arguments[4].Type.hasArgumentCppType());
  EXPECT_TRUE(S.Returns.empty());
  EXPECT_FALSE(S.hasCppTypes()); // Tensor?[]
}

TEST(OperatorSchemaTest, DefaultsWithQuotesBracketsAndNumbers) {
  OperatorSchema S = OperatorSchema::parse(
      "g(Tensor self, str reduction=\"mean\", str s='a,b)', float eps=1e-05, "
      "int d=-1, MemoryFormat f=contiguous_format, ScalarType t=long, "
      "str e=\"\\\"'\\\\\") -> Tensor(a)");
  ASSERT_EQ(S.Arguments.size(), 8u);
  EXPECT_EQ(S.Arguments[1].Default, "\"mean\"");
  EXPECT_EQ(S.Arguments[2].Default, "'a,b)'");
  EXPECT_EQ(S.Arguments[3].Default, "1e-05");
  EXPECT_EQ(S.Arguments[4].Default, "-1");
  EXPECT_EQ(S.Arguments[5].Default, "contiguous_format");
  EXPECT_EQ(S.Arguments[6].Default, "long");
  EXPECT_EQ(S.Arguments[7].Default, "\"\\\"'\\\\\"");
  EXPECT_EQ(S.Returns[0].Alias, "a");
}

TEST(OperatorSchemaTest, WildcardAliasAndListReturns) {
  OperatorSchema S = OperatorSchema::parse(
      "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> "
      "Tensor(a)[]");
  EXPECT_EQ(S.Arguments[0].Alias, "a -> *");
  EXPECT_FALSE(S.Arguments[0].IsWrite);
  EXPECT_TRUE(S.Returns[0].Type.IsList);
  EXPECT_TRUE(S.Returns[0].Type.hasReturnCppType());
  EXPECT_EQ(S.str(), S.Text);
}

TEST(OperatorSchemaTest, MalformedSchemasAreErrorsWithAColumn) {
  SK_EXPECT_ERROR(OperatorSchema::parse("f(Tensr self) -> Tensor"),
                  "invalid schema 'f(Tensr self) -> Tensor': unknown type "
                  "'Tensr' at column");
  SK_EXPECT_ERROR(OperatorSchema::parse("f(Tensor self -> Tensor"),
                  "expected ')'");
  SK_EXPECT_ERROR(OperatorSchema::parse("f(Tensor self) Tensor"),
                  "expected '->' at column 16");
  SK_EXPECT_ERROR(OperatorSchema::parse("f(Tensor) -> Tensor"),
                  "expected an argument name");
  SK_EXPECT_ERROR(OperatorSchema::parse("f(int[0] a) -> Tensor"),
                  "list size '0' must be a positive integer at column 7");
  SK_EXPECT_ERROR(OperatorSchema::parse("f(Tensor a) -> Tensor b=1"),
                  "return values cannot have default values at column 24");
  SK_EXPECT_ERROR(OperatorSchema::parse("f(Tensor a) -> Tensor x y"),
                  "expected end of schema at column 25");
  SK_EXPECT_ERROR(OperatorSchema::parse("f(str a=\"x) -> Tensor"),
                  "expected a closing quote");
  SK_EXPECT_ERROR(OperatorSchema::parse("a::b::f(Tensor a) -> Tensor"),
                  "operator namespace 'a::b' must be a single identifier");
  SK_EXPECT_ERROR(OperatorSchema::parse("f(Tensor(a!|b) a) -> Tensor"),
                  "invalid alias annotation '(a!|b)' at column 10");
  SK_EXPECT_ERROR(OperatorSchema::parse("f(int x=[1,y z]) -> Tensor"),
                  "expected a default value at column 12");
}

// The grammar is skc's (sk/schema/SchemaSyntax.h); what the runtime cannot
// hold is the runtime's own error.
TEST(OperatorSchemaTest, TypesTheRuntimeCannotHoldAreErrors) {
  SK_EXPECT_ERROR(OperatorSchema::parse("f(int[][] a) -> Tensor"),
                  "the runtime has no 'int[][]' at column 3");
  SK_EXPECT_ERROR(OperatorSchema::parse("f(Tensor a) -> Tensor??"),
                  "the runtime has no 'Tensor?" "?' at column 16");
  OperatorSchema S = OperatorSchema::parse(
      "f(__torch__.torch.classes.quantized.Conv2dPackedParamsBase w) -> ()");
  EXPECT_EQ(S.Arguments[0].Type.Base, ValueKind::Other);
  EXPECT_FALSE(S.hasCppTypes());
}

/// The `func:` strings of PyTorch 1.13's native_functions.yaml.
std::vector<std::string> pytorchSchemas() {
  return skc::testing::readFuncStrings(SKC_PYTORCH_NATIVE_FUNCTIONS);
}

TEST(OperatorSchemaTest, ParsesEveryPyTorchSchemaAndPrintsItBack) {
  std::vector<std::string> Schemas = pytorchSchemas();
  if (Schemas.empty())
    GTEST_SKIP() << "no " << SKC_PYTORCH_NATIVE_FUNCTIONS;
  EXPECT_EQ(Schemas.size(), 2493u);
  size_t WithCppTypes = 0;
  for (const std::string &Text : Schemas) {
    OperatorSchema S;
    try {
      S = OperatorSchema::parse(Text);
    } catch (const Error &E) {
      ADD_FAILURE() << E.what();
      continue;
    }
    // Printing gives back the text: names, types, alias annotations,
    // defaults, '*' and returns were all kept.
    EXPECT_EQ(S.str(), Text);
    WithCppTypes += S.hasCppTypes();
  }
  std::cout << "[          ] " << Schemas.size() << " schemas parsed, "
            << WithCppTypes << " with runtime C++ types, "
            << Schemas.size() - WithCppTypes << " without\n";
  RecordProperty("schemas", static_cast<int>(Schemas.size()));
  RecordProperty("with_cpp_types", static_cast<int>(WithCppTypes));
}

// Generated code registers every schema at static initialization: it must
// not slow a program's start noticeably.
// Registration cost is measured by skc-bench-runtime, never asserted here:
// the machines running tests are shared and noisy.
TEST(OperatorSchemaTest, RegisteringEveryPyTorchSchema_FindsEachOne) {
  std::vector<std::string> Schemas = pytorchSchemas();
  if (Schemas.empty())
    GTEST_SKIP() << "no " << SKC_PYTORCH_NATIVE_FUNCTIONS;
  std::vector<RegistrationHandle> Handles;
  std::vector<OperatorSchema> Registered;
  for (const std::string &Text : Schemas) {
    OperatorSchema Schema = OperatorSchema::parse(Text);
    if (!Schema.hasCppTypes())
      continue;
    Schema = OperatorSchema::parse("pt113::" + Text);
    Handles.push_back(Dispatcher::singleton().registerDef(
        Schema, "registered at OperatorSchemaTest"));
    Registered.push_back(std::move(Schema));
  }
  EXPECT_GT(Registered.size(), 2000u);
  for (const OperatorSchema &Schema : Registered)
    EXPECT_TRUE(Dispatcher::singleton()
                    .findSchema(Schema.Name.Name, Schema.Name.Overload)
                    .has_value())
        << Schema.Name;
}

} // namespace
