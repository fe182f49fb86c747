//===--- MetaInputRefusalTest.cpp - Tests of where a meta has data --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Frontend/MetaInputRefusal.h"
#include "skc/Config.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace skc;
using namespace clang::ast_matchers;

namespace {

/// Whether each call of `read` in function \p Function is past a refusal,
/// in source order.
std::vector<bool> readsPastRefusal(StringRef Code, StringRef Function) {
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(
          (Twine(R"cpp(
#include "sk/util/Analysis.h"
SK_REFUSES_META_INPUT void refuse(int);
int read();
bool cond();
)cpp") + Code)
              .str(),
          {"-std=c++17", "-DSKC_ANALYSIS=1", "-I" SKC_RUNTIME_INCLUDE_DIR,
           "-resource-dir=" SKC_CLANG_RESOURCE_DIR},
          "input.cpp");
  EXPECT_TRUE(AST);
  clang::ASTContext &Ctx = AST->getASTContext();
  const auto *FD = selectFirst<clang::FunctionDecl>(
      "f",
      match(functionDecl(hasName(Function.str()), isDefinition()).bind("f"),
            Ctx));
  EXPECT_TRUE(FD);
  DenseSet<const clang::Stmt *> Past = findStatementsPastMetaRefusal(*FD, Ctx);
  std::vector<bool> Result;
  for (const BoundNodes &N :
       match(findAll(
                 callExpr(callee(functionDecl(hasName("read")))).bind("call")),
             *FD->getBody(), Ctx))
    Result.push_back(Past.contains(N.getNodeAs<clang::Stmt>("call")));
  return Result;
}

TEST(MetaInputRefusalTest, ReadsAfterARefusalOnEveryPath) {
  EXPECT_EQ(readsPastRefusal(R"cpp(
void f() {
  read();
  refuse(0);
  read();
  if (cond())
    read();
}
)cpp",
                             "f"),
            (std::vector<bool>{false, true, true}));
}

TEST(MetaInputRefusalTest, ARefusalOnOnePathIsNotEnough) {
  EXPECT_EQ(readsPastRefusal(R"cpp(
void f() {
  if (cond())
    refuse(0);
  read();
}
)cpp",
                             "f"),
            (std::vector<bool>{false}));
  EXPECT_EQ(readsPastRefusal(R"cpp(
void g() {
  if (cond())
    refuse(0);
  else
    refuse(1);
  read();
}
)cpp",
                             "g"),
            (std::vector<bool>{true}));
}

TEST(MetaInputRefusalTest, NoRefusalNoneWithData) {
  EXPECT_EQ(readsPastRefusal("void f() { read(); read(); }", "f"),
            (std::vector<bool>{false, false}));
}

} // namespace
