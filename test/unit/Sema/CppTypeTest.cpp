//===--- CppTypeTest.cpp - The C++ types skc reasons about ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Sema/CppType.h"

#include "gtest/gtest.h"

using namespace skc;

namespace {

using Scope = CppType::Scope;

TEST(CppTypeTest, TypesAreUniqued) {
  const CppType *Tensor = CppType::getRuntime("Tensor");
  EXPECT_EQ(Tensor, CppType::get(Scope::Runtime, "Tensor"));
  EXPECT_EQ(CppType::getConstRef(Tensor), CppType::getConstRef(Tensor));
  EXPECT_NE(CppType::getConstRef(Tensor), CppType::getRef(Tensor));
  EXPECT_EQ(CppType::getOptional(Tensor),
            CppType::get(Scope::Std, "optional", Tensor));
  EXPECT_NE(CppType::get(Scope::Std, "array", CppType::getBuiltin("bool"), 2),
            CppType::get(Scope::Std, "array", CppType::getBuiltin("bool"), 3));
  // The same name in another scope is another type.
  EXPECT_NE(CppType::get(Scope::Std, "Tensor"), Tensor);
}

TEST(CppTypeTest, SpellingsForAuthorsAndForGeneratedCode) {
  const CppType *Tensor = CppType::getRuntime("Tensor");
  const CppType *T = CppType::getConstRef(CppType::getOptional(Tensor));
  EXPECT_EQ(T->getAuthorSpelling(), "const std::optional<Tensor> &");
  EXPECT_EQ(T->getQualifiedSpelling(), "const ::std::optional<::sk::Tensor> &");
  const CppType *Tuple = CppType::get(
      Scope::Std, "tuple", {CppType::getRef(Tensor), CppType::getBuiltin("int64_t")});
  EXPECT_EQ(Tuple->getAuthorSpelling(), "std::tuple<Tensor &, int64_t>");
  EXPECT_EQ(CppType::get(Scope::Std, "array", CppType::getBuiltin("bool"), 3)
                ->getQualifiedSpelling(),
            "::std::array<bool, 3>");
  EXPECT_EQ(CppType::getPointer(CppType::getRuntime("Generator"))
                ->getQualifiedSpelling(),
            "::sk::Generator *");
}

TEST(CppTypeTest, PredicatesNotSpellings) {
  const CppType *Tensor = CppType::getRuntime("Tensor");
  EXPECT_TRUE(CppType::getVoid()->isVoid());
  EXPECT_FALSE(Tensor->isVoid());
  EXPECT_TRUE(CppType::getConstRef(Tensor)->isReference());
  EXPECT_TRUE(CppType::getRef(Tensor)->isReference());
  EXPECT_FALSE(Tensor->isReference());
  EXPECT_TRUE(CppType::getPointer(Tensor)->isPointer());
  EXPECT_EQ(CppType::getConstRef(Tensor)->getPointee(), Tensor);
  EXPECT_TRUE(CppType::getOptional(Tensor)->isNamed(Scope::Std, "optional"));
  EXPECT_FALSE(CppType::getConstRef(CppType::getOptional(Tensor))
                   ->isNamed(Scope::Std, "optional"));
}

TEST(CppTypeTest, DeclarationsSpaceOnlyWhereNeeded) {
  const CppType *Tensor = CppType::getRuntime("Tensor");
  EXPECT_EQ(CppType::getConstRef(Tensor)->getDeclaration("self", false),
            "const Tensor &self");
  EXPECT_EQ(CppType::getBuiltin("int64_t")->getDeclaration("dim", true),
            "int64_t dim");
  EXPECT_EQ(CppType::getPointer(CppType::getRuntime("Generator"))
                ->getDeclaration("gen", true),
            "::sk::Generator *gen");
}

} // namespace
