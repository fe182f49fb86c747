//===--- MetaInputRefusal.cpp - Where a meta function has data ------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "MetaInputRefusal.h"

#include "AnalysisMarks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/STLExtras.h"

#include <vector>

using namespace llvm;

namespace skc {

/// Whether \p S calls a function marked SK_REFUSES_META_INPUT.
static bool isRefusal(const clang::Stmt *S) {
  const auto *Call = dyn_cast<clang::CallExpr>(S);
  const clang::FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && hasMark(*Callee, AnalysisMark::RefusesMetaInput);
}

DenseSet<const clang::Stmt *>
findStatementsPastMetaRefusal(const clang::FunctionDecl &Meta,
                              clang::ASTContext &Ctx) {
  DenseSet<const clang::Stmt *> Past;
  clang::Stmt *Body = Meta.getBody();
  if (!Body)
    return Past;
  // Most meta functions refuse nothing: no CFG for them.
  bool Refuses = false;
  SmallVector<const clang::Stmt *, 32> Work = {Body};
  while (!Work.empty() && !Refuses) {
    const clang::Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    Refuses = isRefusal(S);
    append_range(Work, S->children());
  }
  if (!Refuses)
    return Past;
  clang::CFG::BuildOptions Options;
  std::unique_ptr<clang::CFG> Graph =
      clang::CFG::buildCFG(&Meta, Body, &Ctx, Options);
  if (!Graph)
    return Past;

  // A must-analysis, as Note [Outputs on every path] in MetaOutputFlow.cpp:
  // a block is past a refusal when every predecessor leaves it so, or it
  // calls one itself. Unknown (no path yet) starts true, the identity of
  // the conjunction.
  unsigned N = Graph->getNumBlockIDs();
  std::vector<bool> Calls(N, false), Out(N, true);
  for (const clang::CFGBlock *B : *Graph)
    for (const clang::CFGElement &E : *B)
      if (std::optional<clang::CFGStmt> S = E.getAs<clang::CFGStmt>())
        if (isRefusal(S->getStmt()))
          Calls[B->getBlockID()] = true;
  clang::PostOrderCFGView Order(Graph.get());
  auto In = [&](const clang::CFGBlock &B) {
    if (&B == &Graph->getEntry())
      return false;
    bool All = true;
    for (const clang::CFGBlock *Pred : B.preds())
      if (Pred)
        All = All && Out[Pred->getBlockID()];
    return All;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const clang::CFGBlock *B : Order) {
      bool Next = In(*B) || Calls[B->getBlockID()];
      if (Next != Out[B->getBlockID()]) {
        Out[B->getBlockID()] = Next;
        Changed = true;
      }
    }
  }
  // Within a block, from the first refusal on.
  for (const clang::CFGBlock *B : Order) {
    bool Refused = In(*B);
    for (const clang::CFGElement &E : *B) {
      std::optional<clang::CFGStmt> S = E.getAs<clang::CFGStmt>();
      if (!S)
        continue;
      if (Refused)
        Past.insert(S->getStmt());
      Refused = Refused || isRefusal(S->getStmt());
    }
  }
  return Past;
}

} // namespace skc
