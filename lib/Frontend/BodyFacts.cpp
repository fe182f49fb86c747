//===--- BodyFacts.cpp - What a kernel body does --------------------------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "BodyFacts.h"

#include "AnalysisMarks.h"
#include "ClangLocations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace llvm;
using clang::SourceManager;

namespace skc {

// Note [Body facts]
// ~~~~~~~~~~~~~~~~~
// What counts (BodyFact::FactKind), the runtime's APIs recognised by their
// marks (Note [Analysis marks] in AnalysisMarks.cpp):
//
//  FK_SetOutput      a call on the kernel itself (`this`) of a member marked
//                    SK_SETS_OUTPUT_AT_ARG(N) (set_output_strided,
//                    set_output_raw_strided, set_output_contiguous;
//                    OutputIndex when argument N is an integer constant
//                    expression) or SK_SETS_ALL_OUTPUTS (TensorIteratorBase's
//                    build*, which set every output: AllOutputs). Calls on
//                    another object (a local TensorIterator) do not set
//                    this kernel's outputs and are not facts. A call that
//                    is given `this` or `*this` as an argument (a helper
//                    such as resize_reduction(*this, ...)) may set any
//                    output: it is recorded with neither OutputIndex nor
//                    AllOutputs, and ThroughCall. Whether outputs are set on
//                    every path is the CFG's question
//                    (KernelDecl::OutputsSet); these facts say only that
//                    some path may set them, so that Sema warns rather than
//                    errs.
//  FK_DataAccess     a call of a function marked SK_READS_DATA (data_ptr,
//                    item, operator<< of a Tensor, ...); Detail is its
//                    name. In a meta function, also a call of a function
//                    the author defined that reaches one, through at most
//                    MaxReadDepth calls: the fact is the call in the kernel
//                    body, and Path the calls from there to the read, so
//                    that Sema can show the way as clang's static analyzer
//                    shows a path.
//  FK_AssignToParam  `P = ...` or `P op= ...` where P is a parameter of the
//                    kernel, builtin or overloaded, also through a cast
//                    (`const_cast<Tensor &>(out) = ...`) or a local
//                    reference bound to it; also when Clang rejected
//                    the assignment (`out = empty(...)` on a `const Tensor
//                    &out`, which Clang keeps as a RecoveryExpr: its first
//                    operand is P and the next token an assignment
//                    operator), so Sema can explain the error it caused.
//                    Detail is the parameter's name.
//  FK_PrecomputeSet  a call of a setter marked SK_SETS_PRECOMPUTED(Field)
//                    (Note [Precomputed fields] in MetaBase.h). Detail is
//                    the field.
//  FK_PrecomputeSetAgain
//                    such a call on a struct whose type says the field is
//                    set already: the generated setter's static_assert
//                    fails. Range is `.set_kH(...)`, for a fix-it that
//                    removes it.
//  FK_PrecomputeReturnUnset
//                    a return of the precompute struct (a class derived
//                    from the one marked SK_PRECOMPUTE_STRUCT_BASE) whose
//                    type says field Detail is not set: the conversion to
//                    meta()'s return type fails. Range is the returned
//                    value.
//
// The last two, and FK_AssignToParam on an out argument that Clang
// rejected, explain a Clang error that is then not forwarded (Note
// [Diagnostics left to Sema] (d) in DiagnosticForwarding.cpp).
//
// Whether outputs are set on every path is not a fact of one call; the
// CFG decides it (Note [Outputs on every path] in MetaOutputFlow.cpp).

static bool isAssignmentToken(const clang::Token &Tok) {
  switch (Tok.getKind()) {
  case clang::tok::equal:
  case clang::tok::plusequal:
  case clang::tok::minusequal:
  case clang::tok::starequal:
  case clang::tok::slashequal:
  case clang::tok::percentequal:
  case clang::tok::ampequal:
  case clang::tok::pipeequal:
  case clang::tok::caretequal:
  case clang::tok::lesslessequal:
  case clang::tok::greatergreaterequal:
    return true;
  default:
    return false;
  }
}

namespace {

/// Collects the facts of one kernel body (Note [Body facts]).
class BodyFactCollector {
public:
  BodyFactCollector(const clang::FunctionDecl &FD, clang::ASTContext &Ctx,
                    LocationMapper &Locs, const BodyFactOptions &Options,
                    std::vector<BodyFact> &Facts)
      : FD(FD), Ctx(Ctx), SM(Ctx.getSourceManager()), Locs(Locs),
        Options(Options), Facts(Facts) {}

  void collect(const clang::Stmt *Body) { scan(Body); }

private:
  void scan(const clang::Stmt *S);
  void recordFacts(const clang::Expr *E);
  void recordMemberCall(const clang::CXXMemberCallExpr *Call);
  /// A return of a precompute struct with fields unset.
  void recordReturn(const clang::ReturnStmt &R);
  /// Returns the kernel parameter \p E names, or null.
  const clang::ParmVarDecl *getParam(const clang::Expr *E) const;
  BodyFact &add(BodyFact::FactKind Kind, const clang::Expr *E,
                StringRef Detail);
  /// The calls from \p Callee's body to a data read, when \p Callee is the
  /// author's and reaches one within MaxReadDepth calls; else empty.
  ArrayRef<BodyFact::PathStep> findDataRead(const clang::FunctionDecl &Callee,
                                            unsigned Depth);

  const clang::FunctionDecl &FD;
  clang::ASTContext &Ctx;
  const SourceManager &SM;
  LocationMapper &Locs;
  const BodyFactOptions &Options;
  std::vector<BodyFact> &Facts;
  /// findDataRead's answers by definition and depth (a search from
  /// deeper down stops sooner); empty while one is being searched, which
  /// cuts recursion.
  DenseMap<std::pair<const clang::FunctionDecl *, unsigned>,
           std::vector<BodyFact::PathStep>>
      Reads;
};

} // namespace

void BodyFactCollector::scan(const clang::Stmt *S) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<clang::Expr>(S))
    recordFacts(E);
  else if (const auto *R = dyn_cast<clang::ReturnStmt>(S))
    recordReturn(*R);
  for (const clang::Stmt *Child : S->children())
    scan(Child);
}

const clang::ParmVarDecl *
BodyFactCollector::getParam(const clang::Expr *E) const {
  // Through casts (`const_cast<Tensor &>(out)`), and through local
  // references bound to a parameter (`Tensor &O = const_cast<...>(out)`),
  // a few deep.
  for (unsigned Depth = 0; Depth != 4; ++Depth) {
    const auto *Ref = dyn_cast<clang::DeclRefExpr>(E->IgnoreParenCasts());
    if (!Ref)
      return nullptr;
    if (const auto *P = dyn_cast<clang::ParmVarDecl>(Ref->getDecl()))
      return P->getDeclContext() == &FD ? P : nullptr;
    const auto *Alias = dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!Alias || !Alias->getType()->isReferenceType() || !Alias->getInit())
      return nullptr;
    E = Alias->getInit();
  }
  return nullptr;
}

BodyFact &BodyFactCollector::add(BodyFact::FactKind Kind, const clang::Expr *E,
                                 StringRef Detail) {
  BodyFact F;
  F.Kind = Kind;
  F.Range = Locs.toSMRange(E->getSourceRange(), SM, Ctx.getLangOpts());
  F.Detail = Detail.str();
  Facts.push_back(std::move(F));
  return Facts.back();
}

/// Whether \p E is `this` or `*this`.
static bool isThis(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<clang::CXXThisExpr>(E))
    return true;
  const auto *Deref = dyn_cast<clang::UnaryOperator>(E);
  return Deref && Deref->getOpcode() == clang::UO_Deref &&
         isa<clang::CXXThisExpr>(Deref->getSubExpr()->IgnoreParenImpCasts());
}

/// The name of \p FD as diagnostics show it ("data_ptr", "operator<<").
static std::string getCalleeName(const clang::FunctionDecl &FD) {
  return FD.getDeclName().getAsString();
}

/// How many calls deep data reads are followed from a meta function.
static constexpr unsigned MaxReadDepth = 4;

ArrayRef<BodyFact::PathStep>
BodyFactCollector::findDataRead(const clang::FunctionDecl &Callee,
                                unsigned Depth) {
  const clang::FunctionDecl *Def = nullptr;
  if (Depth > MaxReadDepth || !Callee.hasBody(Def) || !Def ||
      !Options.IsAuthorCode(Def->getLocation()))
    return {};
  // A lambda's body is part of the body that writes it, scanned in place
  // (and a macro's lambda, SK_CHECK's, is the runtime's).
  if (const auto *Method = dyn_cast<clang::CXXMethodDecl>(Def);
      Method && Method->getParent()->isLambda())
    return {};
  auto [It, Inserted] = Reads.try_emplace({Def, Depth});
  if (!Inserted)
    return It->second;
  std::vector<BodyFact::PathStep> Path;
  // The first call in source order that reads, directly or deeper.
  SmallVector<const clang::Stmt *, 16> Work = {Def->getBody()};
  while (!Work.empty() && Path.empty()) {
    const clang::Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<clang::CallExpr>(S))
      if (const clang::FunctionDecl *Next = Call->getDirectCallee()) {
        BodyFact::PathStep Step;
        Step.Range =
            Locs.toSMRange(Call->getSourceRange(), SM, Ctx.getLangOpts());
        Step.Function = getCalleeName(*Def);
        Step.Callee = getCalleeName(*Next);
        if (hasMark(*Next, AnalysisMark::ReadsData)) {
          Path.push_back(std::move(Step));
          break;
        }
        ArrayRef<BodyFact::PathStep> Rest = findDataRead(*Next, Depth + 1);
        if (!Rest.empty()) {
          Path.push_back(std::move(Step));
          Path.insert(Path.end(), Rest.begin(), Rest.end());
          break;
        }
      }
    SmallVector<const clang::Stmt *, 8> Children(S->children());
    Work.append(Children.rbegin(), Children.rend());
  }
  // The walk may have grown the map.
  std::vector<BodyFact::PathStep> &Slot = Reads[{Def, Depth}];
  Slot = std::move(Path);
  return Slot;
}

void BodyFactCollector::recordFacts(const clang::Expr *E) {
  if (const auto *Call = dyn_cast<clang::CallExpr>(E)) {
    const clang::FunctionDecl *Callee = Call->getDirectCallee();
    // A call that is handed the kernel itself (`resize_reduction(*this,
    // ...)`) may set outputs through it; see Note [Body facts].
    if (any_of(Call->arguments(), isThis))
      add(BodyFact::FK_SetOutput, E,
          Callee && Callee->getIdentifier() ? Callee->getName() : "a call")
          .ThroughCall = true;
    if (!Callee || Options.PastMetaRefusal.contains(E)) {
      // No read: the tensors have data here.
    } else if (hasMark(*Callee, AnalysisMark::ReadsData)) {
      add(BodyFact::FK_DataAccess, E, getCalleeName(*Callee));
    } else if (Options.FollowDataReads) {
      ArrayRef<BodyFact::PathStep> Path = findDataRead(*Callee, 1);
      if (!Path.empty())
        add(BodyFact::FK_DataAccess, E, Path.back().Callee).Path = Path.vec();
    }
  }
  if (const auto *Call = dyn_cast<clang::CXXMemberCallExpr>(E)) {
    recordMemberCall(Call);
    return;
  }
  if (const auto *Op = dyn_cast<clang::CXXOperatorCallExpr>(E)) {
    if (Op->isAssignmentOp() && Op->getNumArgs() == 2)
      if (const clang::ParmVarDecl *P = getParam(Op->getArg(0)))
        add(BodyFact::FK_AssignToParam, E, P->getName());
    return;
  }
  if (const auto *BO = dyn_cast<clang::BinaryOperator>(E)) {
    if (!BO->isAssignmentOp())
      return;
    if (const clang::ParmVarDecl *P = getParam(BO->getLHS()))
      add(BodyFact::FK_AssignToParam, E, P->getName());
    return;
  }
  // An assignment Clang rejected; see Note [Body facts].
  if (const auto *Recovery = dyn_cast<clang::RecoveryExpr>(E)) {
    ArrayRef<const clang::Expr *> Subs = Recovery->subExpressions();
    if (Subs.size() != 2)
      return;
    const clang::ParmVarDecl *P = getParam(Subs[0]);
    if (!P)
      return;
    std::optional<clang::Token> Next = clang::Lexer::findNextToken(
        Subs[0]->getEndLoc(), SM, Ctx.getLangOpts());
    if (!Next || !isAssignmentToken(*Next))
      return;
    add(BodyFact::FK_AssignToParam, E, P->getName());
    // Sema's err_impl_assigns_out explains Clang's error.
    if (Options.IsOutArgument &&
        Options.IsOutArgument(P->getFunctionScopeIndex()) && Options.Explain)
      Options.Explain(Explanation::AssignToOut, Next->getLocation());
  }
}

namespace {
/// A generated precompute_out<SetMask>: which fields are set (Note
/// [Precomputed fields] in the runtime's sk/iter/MetaBase.h).
struct PrecomputeStruct {
  uint64_t SetMask = 0;
  const clang::CXXRecordDecl *Fields = nullptr;

  /// The index of field \p Name, or -1.
  int getIndex(StringRef Name) const {
    for (const clang::FieldDecl *F : Fields->fields())
      if (F->getName() == Name)
        return static_cast<int>(F->getFieldIndex());
    return -1;
  }
};
} // namespace

/// The precompute struct \p T is, found by its base class template, which
/// the runtime marks SK_PRECOMPUTE_STRUCT_BASE: PrecomputeOut<Derived,
/// Fields, SetMask>.
static std::optional<PrecomputeStruct> getPrecomputeStruct(clang::QualType T) {
  const clang::CXXRecordDecl *RD =
      T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return std::nullopt;
  for (const clang::CXXBaseSpecifier &Base : RD->bases()) {
    const auto *Spec = dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
        Base.getType()->getAsCXXRecordDecl());
    if (!Spec ||
        !hasOwnMark(*Spec->getSpecializedTemplate()->getTemplatedDecl(),
                    AnalysisMark::PrecomputeStructBase))
      continue;
    const clang::TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() != 3 ||
        Args[1].getKind() != clang::TemplateArgument::Type ||
        Args[2].getKind() != clang::TemplateArgument::Integral)
      return std::nullopt;
    PrecomputeStruct P;
    P.Fields = Args[1].getAsType()->getAsCXXRecordDecl();
    P.SetMask = Args[2].getAsIntegral().getZExtValue();
    if (!P.Fields)
      return std::nullopt;
    return P;
  }
  return std::nullopt;
}

void BodyFactCollector::recordReturn(const clang::ReturnStmt &R) {
  std::optional<PrecomputeStruct> Want =
      getPrecomputeStruct(FD.getReturnType());
  const clang::Expr *Value = R.getRetValue();
  if (!Want || !Value)
    return;
  // The value as written: through the conversion Clang tried (a
  // constructor call of the declared type) or gave up on.
  const clang::Expr *Written = Value->IgnoreImplicit();
  for (;;) {
    if (const auto *Construct = dyn_cast<clang::CXXConstructExpr>(Written);
        Construct && Construct->getNumArgs() == 1) {
      Written = Construct->getArg(0)->IgnoreImplicit();
      continue;
    }
    if (const auto *Recovery = dyn_cast<clang::RecoveryExpr>(Written);
        Recovery && Recovery->subExpressions().size() == 1) {
      Written = Recovery->subExpressions()[0]->IgnoreImplicit();
      continue;
    }
    break;
  }
  std::optional<PrecomputeStruct> Got = getPrecomputeStruct(Written->getType());
  if (!Got || Got->SetMask == Want->SetMask)
    return;
  bool Any = false;
  for (const clang::FieldDecl *F : Want->Fields->fields()) {
    unsigned I = F->getFieldIndex();
    if (I >= 64 || !(Want->SetMask >> I & 1) || (Got->SetMask >> I & 1))
      continue;
    add(BodyFact::FK_PrecomputeReturnUnset, Written, F->getName());
    Any = true;
  }
  if (Any && Options.Explain)
    Options.Explain(Explanation::PrecomputeUnset, Written->getBeginLoc());
}

void BodyFactCollector::recordMemberCall(const clang::CXXMemberCallExpr *Call) {
  const clang::CXXMethodDecl *MD = Call->getMethodDecl();
  if (!MD)
    return;
  const clang::Expr *Object = Call->getImplicitObjectArgument();
  bool OnThis =
      Object && isa<clang::CXXThisExpr>(Object->IgnoreParenImpCasts());
  if (OnThis) {
    if (const clang::AnnotateAttr *A =
            findMark(*MD, AnalysisMark::SetsOutputAtArg)) {
      BodyFact &F = add(BodyFact::FK_SetOutput, Call, getCalleeName(*MD));
      std::optional<int64_t> Arg = getIntArg(*A, 0, Ctx);
      if (!Arg || *Arg < 0 || *Arg >= Call->getNumArgs())
        return;
      const clang::Expr *Index = Call->getArg(*Arg);
      if (Index->isValueDependent())
        return;
      if (std::optional<APSInt> V = Index->getIntegerConstantExpr(Ctx))
        F.OutputIndex = V->getExtValue();
      return;
    }
    if (hasMark(*MD, AnalysisMark::SetsAllOutputs)) {
      add(BodyFact::FK_SetOutput, Call, getCalleeName(*MD)).AllOutputs = true;
      return;
    }
  }
  const clang::AnnotateAttr *A = findMark(*MD, AnalysisMark::SetsPrecomputed);
  std::optional<StringRef> Field = A ? getStringArg(*A, 0) : std::nullopt;
  if (!Field)
    return;
  add(BodyFact::FK_PrecomputeSet, Call, *Field);
  // Set already on the struct it is called on? The generated setter's
  // static_assert fires; Sema says so at the call, with a fix-it that
  // removes it.
  std::optional<PrecomputeStruct> Struct =
      Object ? getPrecomputeStruct(Object->getType()) : std::nullopt;
  const auto *Member = dyn_cast<clang::MemberExpr>(Call->getCallee());
  int Index = Struct ? Struct->getIndex(*Field) : -1;
  if (!Member || Index < 0 || Index >= 64 || !(Struct->SetMask >> Index & 1))
    return;
  BodyFact Again;
  Again.Kind = BodyFact::FK_PrecomputeSetAgain;
  Again.Range = Locs.toSMRange(
      clang::SourceRange(Member->getOperatorLoc(), Call->getEndLoc()), SM,
      Ctx.getLangOpts());
  Again.Detail = Field->str();
  Facts.push_back(std::move(Again));
  if (Options.Explain)
    Options.Explain(Explanation::PrecomputeTwice, Member->getMemberLoc());
}

void collectBodyFacts(const clang::FunctionDecl &FD, clang::ASTContext &Ctx,
                      LocationMapper &Locs, const BodyFactOptions &Options,
                      std::vector<BodyFact> &Facts) {
  BodyFactCollector(FD, Ctx, Locs, Options, Facts).collect(FD.getBody());
}

} // namespace skc
