//===--- ClangLocationsTest.cpp - Tests of Clang locations as SMLocs ------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Frontend/ClangLocations.h"
#include "Frontend/KernelMacros.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;
using namespace clang::ast_matchers;

namespace {

// clang-format off
const char Code[] = R"cpp(#define DEFINE(Name) void Name
#define CALL(F, X) F(X)
int twice(int X) { return 2 * X; }
DEFINE(kernel)(int A,
               int B) {
  int C = CALL(twice, A);
}
)cpp";
// clang-format on

class ClangLocationsTest : public ::testing::Test {
protected:
  void SetUp() override {
    AST = clang::tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"},
                                                   "input.cpp");
    ASSERT_TRUE(AST);
  }

  /// "line:col text-at-loc" of \p Loc in skc's SourceMgr.
  std::string describe(SMLoc Loc) const {
    if (!Loc.isValid())
      return "<invalid>";
    auto [Line, Col] = SM.getLineAndColumn(Loc);
    return std::to_string(Line) + ":" + std::to_string(Col);
  }
  static std::string text(SMRange R) {
    return std::string(R.Start.getPointer(),
                       R.End.getPointer() - R.Start.getPointer());
  }

  std::unique_ptr<clang::ASTUnit> AST;
  SourceMgr SM;
};

TEST_F(ClangLocationsTest, FileLocationsAreTheSameOffsets) {
  clang::ASTContext &Ctx = AST->getASTContext();
  LocationMapper Locs(SM);
  const auto *Twice = selectFirst<clang::FunctionDecl>(
      "f", match(functionDecl(hasName("twice")).bind("f"), Ctx));
  ASSERT_TRUE(Twice);
  SMLoc Loc = Locs.toSMLoc(Twice->getLocation(), Ctx.getSourceManager());
  EXPECT_EQ(describe(Loc), "3:5");
  EXPECT_EQ(text(Locs.toSMRange(Twice->getSourceRange(), Ctx.getSourceManager(),
                                Ctx.getLangOpts())),
            "int twice(int X) { return 2 * X; }");
  // The file is copied into skc's SourceMgr once.
  EXPECT_EQ(SM.getNumBuffers(), 1u);
  Locs.toSMLoc(Twice->getBeginLoc(), Ctx.getSourceManager());
  EXPECT_EQ(SM.getNumBuffers(), 1u);
}

TEST_F(ClangLocationsTest, MacroLocationsAsClangsCaretLineShowsThem) {
  clang::ASTContext &Ctx = AST->getASTContext();
  const clang::SourceManager &CSM = Ctx.getSourceManager();
  LocationMapper Locs(SM);
  const auto *Kernel = selectFirst<clang::FunctionDecl>(
      "f", match(functionDecl(hasName("kernel")).bind("f"), Ctx));
  ASSERT_TRUE(Kernel);
  // A macro argument: where it is spelled.
  EXPECT_EQ(describe(Locs.toSMLoc(Kernel->getLocation(), CSM)), "4:8");
  // A token of the macro's body: the expansion.
  EXPECT_EQ(describe(Locs.toSMLoc(Kernel->getBeginLoc(), CSM)), "4:1");
  // A range across lines, from inside an expansion: the expansion on.
  SMRange Whole =
      Locs.toSMRange(Kernel->getSourceRange(), CSM, Ctx.getLangOpts());
  EXPECT_EQ(describe(Whole.Start), "4:1");
  EXPECT_EQ(describe(Whole.End), "7:2");
}

TEST_F(ClangLocationsTest, MacroArgumentAndParentheses) {
  clang::ASTContext &Ctx = AST->getASTContext();
  const clang::SourceManager &CSM = Ctx.getSourceManager();
  LocationMapper Locs(SM);
  const auto *Kernel = selectFirst<clang::FunctionDecl>(
      "f", match(functionDecl(hasName("kernel")).bind("f"), Ctx));
  ASSERT_TRUE(Kernel);
  clang::SourceLocation MacroName = CSM.getExpansionLoc(Kernel->getLocation());
  clang::SourceLocation Arg =
      getFirstMacroArgLoc(MacroName, CSM, Ctx.getLangOpts());
  EXPECT_EQ(describe(Locs.toSMLoc(Arg, CSM)), "4:8");
  // The parameter list after `DEFINE(kernel)`, across lines.
  clang::SourceRange Parens =
      getParenthesesAfter(CSM.getExpansionRange(Kernel->getLocation()).getEnd(),
                          CSM, Ctx.getLangOpts());
  ASSERT_TRUE(Parens.isValid());
  EXPECT_EQ(text(Locs.toSMRange(Parens, CSM, Ctx.getLangOpts())),
            "(int A,\n               int B)");
  // Not a macro invocation: the location itself, and no parentheses.
  const auto *Twice = selectFirst<clang::FunctionDecl>(
      "f", match(functionDecl(hasName("twice")).bind("f"), Ctx));
  clang::SourceLocation Body = Twice->getBody()->getBeginLoc();
  EXPECT_EQ(getFirstMacroArgLoc(Body, CSM, Ctx.getLangOpts()), Body);
  EXPECT_FALSE(getParenthesesAfter(Body, CSM, Ctx.getLangOpts()).isValid());
}

} // namespace
