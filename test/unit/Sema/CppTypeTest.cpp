//===--- CppTypeTest.cpp - The C++ types skc reasons about ----------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "skc/Sema/CppType.h"

#include "gtest/gtest.h"

using namespace skc;

namespace {

using Name = CppType::Name;

TEST(CppTypeTest, TypesAreUniqued) {
  const CppType *Tensor = CppType::get(Name::Tensor);
  EXPECT_EQ(Tensor, CppType::get(Name::Tensor));
  EXPECT_EQ(CppType::getConstRef(Tensor), CppType::getConstRef(Tensor));
  EXPECT_NE(CppType::getConstRef(Tensor), CppType::getRef(Tensor));
  EXPECT_EQ(CppType::getOptional(Tensor),
            CppType::get(Name::Optional, Tensor));
  EXPECT_NE(CppType::get(Name::Array, CppType::get(Name::Bool), 2),
            CppType::get(Name::Array, CppType::get(Name::Bool), 3));
  EXPECT_NE(CppType::get(Name::Optional, Tensor),
            CppType::get(Name::Optional, CppType::get(Name::Scalar)));
}

TEST(CppTypeTest, SpellingsForAuthorsAndForGeneratedCode) {
  const CppType *Tensor = CppType::get(Name::Tensor);
  const CppType *T = CppType::getConstRef(CppType::getOptional(Tensor));
  EXPECT_EQ(T->getAuthorSpelling(), "const std::optional<Tensor> &");
  EXPECT_EQ(T->getQualifiedSpelling(), "const ::std::optional<::sk::Tensor> &");
  const CppType *Tuple = CppType::get(
      Name::Tuple, {CppType::getRef(Tensor), CppType::get(Name::Int64)});
  EXPECT_EQ(Tuple->getAuthorSpelling(), "std::tuple<Tensor &, int64_t>");
  EXPECT_EQ(CppType::get(Name::Array, CppType::get(Name::Bool), 3)
                ->getQualifiedSpelling(),
            "::std::array<bool, 3>");
  EXPECT_EQ(CppType::getPointer(CppType::get(Name::Generator))
                ->getQualifiedSpelling(),
            "::sk::Generator *");
}

TEST(CppTypeTest, PredicatesNotSpellings) {
  const CppType *Tensor = CppType::get(Name::Tensor);
  EXPECT_TRUE(CppType::getVoid()->isVoid());
  EXPECT_FALSE(Tensor->isVoid());
  EXPECT_TRUE(CppType::getConstRef(Tensor)->isReference());
  EXPECT_TRUE(CppType::getRef(Tensor)->isReference());
  EXPECT_FALSE(Tensor->isReference());
  EXPECT_TRUE(CppType::getPointer(Tensor)->isPointer());
  EXPECT_EQ(CppType::getConstRef(Tensor)->getPointee(), Tensor);
  EXPECT_TRUE(CppType::getOptional(Tensor)->isNamed(Name::Optional));
  EXPECT_FALSE(CppType::getConstRef(CppType::getOptional(Tensor))
                   ->isNamed(Name::Optional));
}

TEST(CppTypeTest, DeclarationsSpaceOnlyWhereNeeded) {
  const CppType *Tensor = CppType::get(Name::Tensor);
  EXPECT_EQ(CppType::getConstRef(Tensor)->getDeclaration("self", false),
            "const Tensor &self");
  EXPECT_EQ(CppType::get(Name::Int64)->getDeclaration("dim", true),
            "int64_t dim");
  EXPECT_EQ(CppType::getPointer(CppType::get(Name::Generator))
                ->getDeclaration("gen", true),
            "::sk::Generator *gen");
}

} // namespace
