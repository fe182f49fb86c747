//===--- SchemaSyntaxTest.cpp - The shared func: parser and type rule -----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "sk/schema/SchemaSyntax.h"

#include "gtest/gtest.h"

#include <string>
#include <string_view>

using namespace sk::schema;

namespace {

std::string_view text(std::string_view Src, SourceSpan S) {
  return Src.substr(S.Begin, S.End - S.Begin);
}

TEST(SchemaSyntaxTest, TreeWithSpans) {
  std::string_view Src = "  myops::f.out(Tensor(a!)[] self, int[2]? dims=None, "
                         "*, str mode=\"a,b\", Tensor(b!) out) -> (Tensor(b!) r)  ";
  SchemaSyntax S;
  SyntaxError E;
  ASSERT_TRUE(parseSchema(Src, S, E)) << E.message(Src);
  EXPECT_EQ(S.Namespace, "myops");
  EXPECT_EQ(S.Name, "f");
  EXPECT_EQ(S.Overload, "out");
  EXPECT_EQ(text(Src, S.NameSpan), "myops::f.out");
  EXPECT_EQ(text(Src, S.Span).back(), ')');
  ASSERT_EQ(S.Arguments.size(), 4u);
  EXPECT_EQ(S.KwargOnlyStart, 2);

  const ArgumentSyntax &Self = S.Arguments[0];
  EXPECT_EQ(Self.Name, "self");
  EXPECT_EQ(text(Src, Self.Type.Span), "Tensor(a!)[]");
  ASSERT_TRUE(Self.Type.Alias);
  EXPECT_EQ(Self.Type.Alias->Before, "a");
  EXPECT_TRUE(Self.Type.Alias->IsWrite);
  EXPECT_EQ(text(Src, Self.Type.Alias->Span), "(a!)");
  ASSERT_EQ(Self.Type.Suffixes.size(), 1u);
  EXPECT_TRUE(Self.Type.Suffixes[0].IsList);

  const ArgumentSyntax &Dims = S.Arguments[1];
  ASSERT_EQ(Dims.Type.Suffixes.size(), 2u);
  EXPECT_EQ(Dims.Type.Suffixes[0].ListSize, 2u);
  EXPECT_FALSE(Dims.Type.Suffixes[1].IsList);
  ASSERT_TRUE(Dims.Default);
  EXPECT_EQ(Dims.Default->Kind, DefaultKind::None);

  const ArgumentSyntax &Mode = S.Arguments[2];
  EXPECT_TRUE(Mode.IsKwargOnly);
  EXPECT_EQ(Mode.Default->Kind, DefaultKind::String);
  EXPECT_EQ(Mode.Default->Spelling, "\"a,b\"");

  ASSERT_EQ(S.Returns.size(), 1u);
  EXPECT_EQ(S.Returns[0].Name, "r");
}

TEST(SchemaSyntaxTest, DefaultsAreClassified) {
  std::string_view Src = "f(int a=-3, float b=1e-05, bool c=True, "
                         "int[] d=[0, -1], ScalarType? e=long, float g=-inf) -> ()";
  SchemaSyntax S;
  SyntaxError E;
  ASSERT_TRUE(parseSchema(Src, S, E)) << E.message(Src);
  EXPECT_EQ(S.Arguments[0].Default->Kind, DefaultKind::Int);
  EXPECT_EQ(S.Arguments[1].Default->Kind, DefaultKind::Float);
  EXPECT_EQ(S.Arguments[2].Default->Kind, DefaultKind::Bool);
  EXPECT_EQ(S.Arguments[3].Default->Kind, DefaultKind::List);
  EXPECT_EQ(S.Arguments[3].Default->ElementKinds,
            (std::vector<DefaultKind>{DefaultKind::Int, DefaultKind::Int}));
  EXPECT_EQ(S.Arguments[4].Default->Kind, DefaultKind::Identifier);
  EXPECT_EQ(S.Arguments[5].Default->Kind, DefaultKind::Float);
  EXPECT_TRUE(S.Returns.empty());
}

TEST(SchemaSyntaxTest, CustomClasses) {
  std::string_view Src =
      "f(__torch__.torch.classes.quantized.LinearPackedParamsBase p) -> ()";
  SchemaSyntax S;
  SyntaxError E;
  ASSERT_TRUE(parseSchema(Src, S, E)) << E.message(Src);
  EXPECT_FALSE(S.Arguments[0].Type.Base);
  EXPECT_EQ(S.Arguments[0].Type.ClassName,
            "quantized.LinearPackedParamsBase");
}

/// The first error of \p Src: its kind, where it points, and its message.
SyntaxError firstError(std::string_view Src) {
  SchemaSyntax S;
  SyntaxError E;
  EXPECT_FALSE(parseSchema(Src, S, E)) << Src;
  return E;
}

TEST(SchemaSyntaxTest, FirstErrorWithItsPlace) {
  std::string_view Src = "f(Tensor self) Tensor";
  SyntaxError E = firstError(Src);
  EXPECT_EQ(E.K, SyntaxError::Expected);
  EXPECT_EQ(E.What, ExpectedItem::Arrow);
  EXPECT_EQ(E.Offset, 15u);
  EXPECT_EQ(E.message(Src), "expected '->'");

  Src = "f(Tensr self) -> Tensor";
  E = firstError(Src);
  EXPECT_EQ(E.K, SyntaxError::UnknownType);
  EXPECT_EQ(text(Src, E.Span), "Tensr");
  EXPECT_EQ(E.message(Src), "unknown type 'Tensr'");

  Src = "a::b::f() -> ()";
  E = firstError(Src);
  EXPECT_EQ(E.K, SyntaxError::NestedNamespace);
  EXPECT_EQ(text(Src, E.Span), "a::b");

  Src = "f(int[x] a) -> ()";
  E = firstError(Src);
  EXPECT_EQ(E.K, SyntaxError::BadListSize);
  EXPECT_EQ(text(Src, E.Span), "x");

  EXPECT_EQ(firstError("f(Tensor(a|b!) a) -> ()").K,
            SyntaxError::AnnotationWriteSet);
  EXPECT_EQ(firstError("f(Tensor(a|b -> c|d) a) -> ()").K,
            SyntaxError::AnnotationBothSets);
  EXPECT_EQ(firstError("f(Tensor(A) a) -> ()").K,
            SyntaxError::InvalidAnnotation);
  EXPECT_EQ(firstError("f(*, *, Tensor a) -> ()").K,
            SyntaxError::KwargMarkerTwice);
  EXPECT_EQ(firstError("f() -> Tensor r=1").K, SyntaxError::ReturnDefault);
}

TEST(SchemaSyntaxTest, NestingHasALimit) {
  std::string Src = "f(Tensor";
  for (unsigned I = 0; I != MaxTypeNesting + 1; ++I)
    Src += "[]";
  Src += " a) -> ()";
  SyntaxError E = firstError(Src);
  EXPECT_EQ(E.K, SyntaxError::TypeTooDeep);
  // 200,000 suffixes stop at the limit too, without recursion.
  std::string Deep = "f(Tensor" + std::string(400000, '?') + " a) -> ()";
  EXPECT_EQ(firstError(Deep).K, SyntaxError::TypeTooDeep);
}

/// Whether the type of the only argument of `f(<Type> a) -> ()`, and of the
/// only return of `f() -> <Type>`, have C++ types.
std::pair<bool, bool> cppTypes(const std::string &Type) {
  SchemaSyntax A, R;
  SyntaxError E;
  std::string ArgSrc = "f(" + Type + " a) -> ()";
  std::string RetSrc = "f() -> " + Type;
  EXPECT_TRUE(parseSchema(ArgSrc, A, E)) << E.message(ArgSrc);
  EXPECT_TRUE(parseSchema(RetSrc, R, E)) << E.message(RetSrc);
  std::optional<TypeShape> ArgShape = getShape(A.Arguments[0].Type);
  std::optional<TypeShape> RetShape = getShape(R.Returns[0].Type);
  return {ArgShape && ArgShape->hasArgumentCppType(),
          RetShape && RetShape->hasReturnCppType()};
}

TEST(TypeShapeTest, TheRuleOfRuntimeCppTypes) {
  using P = std::pair<bool, bool>;
  EXPECT_EQ(cppTypes("Tensor"), P(true, true));
  EXPECT_EQ(cppTypes("SymInt"), P(true, true));
  EXPECT_EQ(cppTypes("SymBool"), P(true, true));
  EXPECT_EQ(cppTypes("Tensor?"), P(true, true));
  EXPECT_EQ(cppTypes("Tensor[]"), P(true, true));
  EXPECT_EQ(cppTypes("int[]"), P(true, false));
  EXPECT_EQ(cppTypes("int[1]?"), P(true, false));
  EXPECT_EQ(cppTypes("float[]?"), P(true, false));
  EXPECT_EQ(cppTypes("bool[3]"), P(true, false));
  EXPECT_EQ(cppTypes("bool[]"), P(false, false));
  EXPECT_EQ(cppTypes("Generator?"), P(true, false));
  EXPECT_EQ(cppTypes("Generator"), P(false, false));
  EXPECT_EQ(cppTypes("Tensor?[]"), P(false, false));
  EXPECT_EQ(cppTypes("Layout?"), P(false, false));
  EXPECT_EQ(cppTypes("Dimname"), P(false, false));
  EXPECT_EQ(cppTypes("DeviceIndex"), P(false, false));
  // Shapes the runtime cannot hold have none.
  EXPECT_EQ(cppTypes("int[][]"), P(false, false));
  EXPECT_EQ(cppTypes("Tensor??"), P(false, false));
}

TEST(BaseTypeTest, SpellingsRoundTrip) {
  int Count = 0;
  forEachBaseTypeSpelling([&](std::string_view S) {
    std::optional<BaseType> T = lookupBaseType(S);
    ASSERT_TRUE(T) << S;
    EXPECT_EQ(getSpelling(*T), S);
    ++Count;
  });
  EXPECT_GE(Count, 20);
  EXPECT_FALSE(lookupBaseType("Tensr"));
  EXPECT_EQ(getValueKind(*lookupBaseType("SymInt")), ValueKind::Int);
  EXPECT_EQ(getValueKind(*lookupBaseType("QScheme")), ValueKind::Other);
}

} // namespace
