//===--- MetaOutputFlow.cpp - Outputs a meta function sets on every path --===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "MetaOutputFlow.h"

#include "AnalysisMarks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace skc {

// Note [Outputs on every path]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A must-analysis over the meta function's CFG. Each block adds the
// outputs its calls set:
//
//  - a member of the kernel marked SK_SETS_OUTPUT_AT_ARG(N)
//    (set_output_strided, set_output_raw_strided, set_output_contiguous)
//    with a constant argument N: that output;
//  - a member of the kernel marked SK_SETS_ALL_OUTPUTS (TensorIteratorBase's
//    build*): every output;
//  - a call handed the kernel (`this`, `*this`, or in a helper the
//    parameter it was handed in) of a function marked SK_SETS_OUTPUT(I)
//    (the runtime's helpers, such as resize_reduction): output I;
//  - a call handed the kernel whose callee the translation unit defines: what
//    that callee sets on every path, analysed the same way with the
//    parameter bound to the kernel, up to MaxHelperDepth calls deep.
//
// A block that cannot complete (a throw, SK_CHECK's failure branch, a call
// of a noreturn function) sets everything: no normal return follows it. An
// output is set on every path when it is set in what reaches the exit
// block: the intersection over predecessors, as -Wuninitialized computes
// definite assignment.

/// How deep helpers that are handed the kernel are followed.
static constexpr unsigned MaxHelperDepth = 4;

namespace {

/// An element of the lattice: the outputs set on every path so far, or Top
/// (no path reaches here yet: the identity of the intersection).
struct OutputSet {
  bool Top = false;
  bool All = false;
  SmallVector<int64_t, 2> Indices;

  static OutputSet top() {
    OutputSet S;
    S.Top = true;
    return S;
  }
  static OutputSet all() {
    OutputSet S;
    S.All = true;
    return S;
  }

  void add(int64_t I) {
    auto It = std::lower_bound(Indices.begin(), Indices.end(), I);
    if (It == Indices.end() || *It != I)
      Indices.insert(It, I);
  }
  void addAll(const OutputSet &O) {
    if (O.Top || O.All) {
      All = true;
      return;
    }
    for (int64_t I : O.Indices)
      add(I);
  }
  /// What both this and \p O set.
  void intersect(const OutputSet &O) {
    if (O.Top)
      return;
    if (Top) {
      *this = O;
      return;
    }
    if (O.All)
      return;
    if (All) {
      All = false;
      Indices = O.Indices;
      return;
    }
    SmallVector<int64_t, 2> Both;
    std::set_intersection(Indices.begin(), Indices.end(), O.Indices.begin(),
                          O.Indices.end(), std::back_inserter(Both));
    Indices = std::move(Both);
  }
  bool operator==(const OutputSet &O) const {
    return Top == O.Top && All == O.All && Indices == O.Indices;
  }
};

/// The analysis of one function, with the kernel bound to `this` (Param
/// null) or to a parameter of a helper.
class OutputFlow {
public:
  OutputFlow(clang::ASTContext &Ctx, unsigned Depth,
             SmallPtrSetImpl<const clang::FunctionDecl *> &Active)
      : Ctx(Ctx), Depth(Depth), Active(Active) {}

  OutputSet run(const clang::FunctionDecl &FD, const clang::ParmVarDecl *Param);

private:
  bool isKernel(const clang::Expr *E) const;
  /// The outputs the call \p Call sets.
  OutputSet setBy(const clang::CallExpr &Call);
  OutputSet followHelper(const clang::FunctionDecl &Callee,
                         const clang::ParmVarDecl *Param);

  clang::ASTContext &Ctx;
  unsigned Depth;
  SmallPtrSetImpl<const clang::FunctionDecl *> &Active;
  const clang::ParmVarDecl *KernelParam = nullptr;
};

} // namespace

bool OutputFlow::isKernel(const clang::Expr *E) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *Deref = dyn_cast<clang::UnaryOperator>(E);
      Deref && Deref->getOpcode() == clang::UO_Deref)
    E = Deref->getSubExpr()->IgnoreParenImpCasts();
  if (!KernelParam)
    return isa<clang::CXXThisExpr>(E);
  const auto *Ref = dyn_cast<clang::DeclRefExpr>(E);
  return Ref && Ref->getDecl() == KernelParam;
}

OutputSet OutputFlow::followHelper(const clang::FunctionDecl &Callee,
                                   const clang::ParmVarDecl *Param) {
  const clang::FunctionDecl *Def = nullptr;
  if (Depth >= MaxHelperDepth || !Callee.hasBody(Def) || !Def ||
      Active.count(Def))
    return OutputSet();
  if (Param)
    Param = Def->getParamDecl(Param->getFunctionScopeIndex());
  OutputFlow Helper(Ctx, Depth + 1, Active);
  return Helper.run(*Def, Param);
}

OutputSet OutputFlow::setBy(const clang::CallExpr &Call) {
  OutputSet S;
  if (const auto *Member = dyn_cast<clang::CXXMemberCallExpr>(&Call)) {
    const clang::CXXMethodDecl *MD = Member->getMethodDecl();
    const clang::Expr *Object = Member->getImplicitObjectArgument();
    if (MD && Object && isKernel(Object)) {
      if (const clang::AnnotateAttr *A =
              findMark(*MD, AnalysisMark::SetsOutputAtArg)) {
        std::optional<int64_t> Arg = getIntArg(*A, 0, Ctx);
        if (Arg && *Arg >= 0 && *Arg < Call.getNumArgs() &&
            !Call.getArg(*Arg)->isValueDependent())
          if (std::optional<APSInt> V =
                  Call.getArg(*Arg)->getIntegerConstantExpr(Ctx))
            S.add(V->getExtValue());
        return S;
      }
      if (hasMark(*MD, AnalysisMark::SetsAllOutputs))
        return OutputSet::all();
      // A helper method of the kernel's own struct.
      S.addAll(followHelper(*MD, /*Param=*/nullptr));
    }
  }
  const clang::FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee)
    return S;
  unsigned Offset =
      isa<clang::CXXOperatorCallExpr>(Call) && isa<clang::CXXMethodDecl>(Callee)
          ? 1
          : 0;
  for (unsigned I = 0, E = Call.getNumArgs(); I != E; ++I) {
    if (!isKernel(Call.getArg(I)) || I < Offset)
      continue;
    if (const clang::AnnotateAttr *A =
            findMark(*Callee, AnalysisMark::SetsOutput)) {
      if (std::optional<int64_t> Out = getIntArg(*A, 0, Ctx))
        S.add(*Out);
      continue;
    }
    unsigned ParamIndex = I - Offset;
    if (ParamIndex < Callee->getNumParams())
      S.addAll(followHelper(*Callee, Callee->getParamDecl(ParamIndex)));
  }
  return S;
}

/// Whether \p B cannot complete normally: it throws, or calls a noreturn
/// function.
static bool cannotComplete(const clang::CFGBlock &B) {
  if (B.hasNoReturnElement())
    return true;
  for (const clang::CFGElement &E : B)
    if (std::optional<clang::CFGStmt> S = E.getAs<clang::CFGStmt>())
      if (isa<clang::CXXThrowExpr>(S->getStmt()))
        return true;
  return false;
}

OutputSet OutputFlow::run(const clang::FunctionDecl &FD,
                          const clang::ParmVarDecl *Param) {
  KernelParam = Param;
  clang::Stmt *Body = FD.getBody();
  if (!Body)
    return OutputSet();
  clang::CFG::BuildOptions Options;
  std::unique_ptr<clang::CFG> Graph =
      clang::CFG::buildCFG(&FD, Body, &Ctx, Options);
  if (!Graph)
    return OutputSet();
  Active.insert(&FD);

  // What each block sets, and whether it can complete.
  unsigned N = Graph->getNumBlockIDs();
  std::vector<OutputSet> Gen(N);
  std::vector<bool> Stops(N, false);
  for (const clang::CFGBlock *B : *Graph) {
    Stops[B->getBlockID()] = cannotComplete(*B);
    for (const clang::CFGElement &E : *B)
      if (std::optional<clang::CFGStmt> S = E.getAs<clang::CFGStmt>())
        if (const auto *Call = dyn_cast<clang::CallExpr>(S->getStmt()))
          Gen[B->getBlockID()].addAll(setBy(*Call));
  }

  // Forward, to a fixed point, in reverse post-order.
  std::vector<OutputSet> Out(N, OutputSet::top());
  // (PostOrderCFGView iterates in reverse post-order, and skips the null
  // successors of unreachable edges that LLVM's traversal would follow.)
  clang::PostOrderCFGView Order(Graph.get());
  OutputSet AtExit = OutputSet::top();
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const clang::CFGBlock *B : Order) {
      OutputSet In = OutputSet::top();
      if (B == &Graph->getEntry())
        In = OutputSet();
      for (const clang::CFGBlock *Pred : B->preds())
        if (Pred)
          In.intersect(Out[Pred->getBlockID()]);
      if (B == &Graph->getExit()) {
        AtExit = In;
        continue;
      }
      OutputSet Next = In;
      if (Stops[B->getBlockID()])
        Next = OutputSet::all();
      else if (!In.Top)
        Next.addAll(Gen[B->getBlockID()]);
      if (!(Next == Out[B->getBlockID()])) {
        Out[B->getBlockID()] = std::move(Next);
        Changed = true;
      }
    }
  }
  Active.erase(&FD);
  // No path returns normally: every output is vacuously set.
  return AtExit.Top ? OutputSet::all() : AtExit;
}

OutputsSetOnEveryPath findOutputsSetOnEveryPath(const clang::FunctionDecl &Meta,
                                                clang::ASTContext &Ctx) {
  SmallPtrSet<const clang::FunctionDecl *, 4> Active;
  OutputSet S = OutputFlow(Ctx, /*Depth=*/0, Active).run(Meta, nullptr);
  OutputsSetOnEveryPath Result;
  Result.All = S.All || S.Top;
  Result.Indices = S.Indices;
  return Result;
}

} // namespace skc
