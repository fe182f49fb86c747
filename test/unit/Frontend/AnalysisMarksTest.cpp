//===--- AnalysisMarksTest.cpp - Tests of the runtime's analysis marks ----===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The marks of runtime/sk/util/Analysis.h as the front end reads them:
/// every mark is in use by the runtime (or, for the two that generated code
/// and the authoring macros write, by those), and a mark holds through
/// overrides and template instantiations.
///
//===----------------------------------------------------------------------===//

#include "Frontend/AnalysisMarks.h"
#include "skc/Config.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;
using namespace clang::ast_matchers;

namespace {

std::unique_ptr<clang::ASTUnit> buildAST(StringRef Code) {
  return clang::tooling::buildASTFromCodeWithArgs(
      Code,
      {"-std=c++17", "-DSKC_ANALYSIS=1", "-DHWY_COMPILE_ONLY_STATIC=1",
       "-I" SKC_RUNTIME_INCLUDE_DIR, "-resource-dir=" SKC_CLANG_RESOURCE_DIR},
      "input.cpp");
}

const clang::FunctionDecl *findFunction(clang::ASTContext &Ctx,
                                        StringRef QualifiedName) {
  auto Matches =
      match(functionDecl(hasName(QualifiedName.str())).bind("f"), Ctx);
  return Matches.empty() ? nullptr
                         : Matches.front().getNodeAs<clang::FunctionDecl>("f");
}

/// Every annotation on a declaration of the translation unit.
class AnnotationCollector : public clang::DynamicRecursiveASTVisitor {
public:
  bool VisitDecl(clang::Decl *D) override {
    for (const auto *A : D->specific_attrs<clang::AnnotateAttr>())
      Seen.insert(A->getAnnotation());
    return true;
  }
  StringSet<> Seen;
};

TEST(AnalysisMarksTest, EveryMarkIsInUse) {
  // The runtime's authoring surface, and what generated code writes with
  // it: a definition through an authoring macro, a parameter as the
  // generated declarations mark it, a precompute struct.
  std::unique_ptr<clang::ASTUnit> AST = buildAST(R"cpp(
#include "sk/Kernel.h"
namespace sk::meta {
struct structured_x : impl::MetaBase {
  void meta(const Tensor &self);
};
} // namespace sk::meta
SK_META_FUNC(x)(const sk::Tensor &self) {}
void generated(const sk::Tensor &out SK_OUT_ARGUMENT);
struct Fields {
  int64_t kH;
};
template <uint64_t SetMask>
struct Precomputed : sk::impl::PrecomputeOut<Precomputed, Fields, SetMask> {
  SK_PRECOMPUTE_FIELD(0, int64_t, kH)
};
)cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  AnnotationCollector Collector;
  Collector.TraverseAST(AST->getASTContext());
  for (AnalysisMark Mark : getAllAnalysisMarks())
    EXPECT_TRUE(Collector.Seen.contains(getAnnotation(Mark)))
        << getAnnotation(Mark).str() << " marks nothing in the runtime";
  // And nothing is marked with a mark the front end does not know.
  for (const auto &Entry : Collector.Seen) {
    StringRef Name = Entry.getKey();
    if (!Name.starts_with("skc."))
      continue;
    EXPECT_TRUE(
        any_of(getAllAnalysisMarks(),
               [&](AnalysisMark M) { return getAnnotation(M) == Name; }))
        << Name.str() << " is not a mark the front end reads";
  }
}

TEST(AnalysisMarksTest, MarksHoldThroughOverridesAndInstantiations) {
  std::unique_ptr<clang::ASTUnit> AST = buildAST(R"cpp(
#include "sk/util/Analysis.h"
struct Base {
  SK_READS_DATA virtual int read() const;
  SK_SETS_OUTPUT_AT_ARG(1) virtual void set(int, int);
};
struct Derived : Base {
  int read() const override;
  void set(int, int) override;
};
template <typename T> SK_READS_DATA T get();
template <typename T> struct Box {
  SK_SETS_PRECOMPUTED("kH") void setKH();
};
int use() {
  Box<int>().setKH();
  return get<int>();
}
int unmarked();
)cpp");
  ASSERT_TRUE(AST);
  clang::ASTContext &Ctx = AST->getASTContext();
  const clang::FunctionDecl *Read = findFunction(Ctx, "Derived::read");
  ASSERT_TRUE(Read);
  EXPECT_TRUE(hasMark(*Read, AnalysisMark::ReadsData));
  EXPECT_FALSE(hasMark(*Read, AnalysisMark::SetsOutputAtArg));

  const clang::FunctionDecl *Set = findFunction(Ctx, "Derived::set");
  ASSERT_TRUE(Set);
  const clang::AnnotateAttr *At = findMark(*Set, AnalysisMark::SetsOutputAtArg);
  ASSERT_TRUE(At);
  EXPECT_EQ(getIntArg(*At, 0, Ctx), 1);
  EXPECT_EQ(getIntArg(*At, 1, Ctx), std::nullopt);

  // The specialisation get<int> and the member of Box<int>.
  auto Calls =
      match(callExpr(callee(functionDecl().bind("callee"))).bind("call"), Ctx);
  unsigned Checked = 0;
  for (const BoundNodes &N : Calls) {
    const auto *Callee = N.getNodeAs<clang::FunctionDecl>("callee");
    if (Callee->getName() == "get") {
      EXPECT_TRUE(hasMark(*Callee, AnalysisMark::ReadsData));
      ++Checked;
    } else if (Callee->getName() == "setKH") {
      const clang::AnnotateAttr *Field =
          findMark(*Callee, AnalysisMark::SetsPrecomputed);
      ASSERT_TRUE(Field);
      EXPECT_EQ(getStringArg(*Field, 0), StringRef("kH"));
      ++Checked;
    }
  }
  EXPECT_EQ(Checked, 2u);

  const clang::FunctionDecl *Unmarked = findFunction(Ctx, "unmarked");
  ASSERT_TRUE(Unmarked);
  for (AnalysisMark Mark : getAllAnalysisMarks())
    EXPECT_FALSE(hasMark(*Unmarked, Mark));
}

TEST(AnalysisMarksTest, MarksAreNothingWithoutAnalysis) {
  // Without -DSKC_ANALYSIS=1 (every compiler but skc's parse), no mark.
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(
          R"cpp(
#include "sk/util/Analysis.h"
SK_READS_DATA int read();
)cpp",
          {"-std=c++17", "-I" SKC_RUNTIME_INCLUDE_DIR,
           "-resource-dir=" SKC_CLANG_RESOURCE_DIR},
          "input.cpp");
  ASSERT_TRUE(AST);
  const clang::FunctionDecl *Read = findFunction(AST->getASTContext(), "read");
  ASSERT_TRUE(Read);
  EXPECT_FALSE(hasMark(*Read, AnalysisMark::ReadsData));
}

} // namespace
