//===--- DtypeDispatchFinder.cpp - The dtypes a kernel computes on --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "DtypeDispatchFinder.h"

#include "AnalysisMarks.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace llvm;

namespace skc {

namespace {

/// Walks one body and hands its calls to the finder.
class CallWalker : public clang::DynamicRecursiveASTVisitor {
public:
  CallWalker(DtypeDispatchFinder &Finder, uint64_t &Mask)
      : Finder(Finder), Mask(Mask) {}

  /// A dispatch names the dtypes; what its callback calls (cdist's matrix
  /// product) runs on those, so its arguments are not walked.
  bool TraverseCallExpr(clang::CallExpr *Call) override {
    if (Finder.addDispatch(*Call, Mask))
      return true;
    return clang::DynamicRecursiveASTVisitor::TraverseCallExpr(Call);
  }

  bool VisitCallExpr(clang::CallExpr *Call) override {
    Finder.followCall(*Call, Mask);
    return true;
  }

  /// A lambda in the body is there to be called (by a dispatch helper, a
  /// loop, the body itself). A generic lambda's body is a pattern, whose
  /// calls are unresolved; its instantiations hold the calls made.
  bool TraverseLambdaExpr(clang::LambdaExpr *Lambda) override {
    const clang::CXXRecordDecl *Closure = Lambda->getLambdaClass();
    if (const clang::FunctionTemplateDecl *Generic =
            Closure->getDependentLambdaCallOperator()) {
      for (const clang::FunctionDecl *Instance : Generic->specializations())
        Mask |= Finder.findMask(*Instance);
      return true;
    }
    Mask |= Finder.findMask(*Lambda->getCallOperator());
    return true;
  }

private:
  DtypeDispatchFinder &Finder;
  uint64_t &Mask;
};

} // namespace

const clang::EnumDecl *
DtypeDispatchFinder::noteScalarType(const clang::FunctionDecl &Callee) {
  if (Callee.getNumParams() == 0)
    return nullptr;
  const clang::EnumDecl *Enum =
      Callee.getParamDecl(0)->getType()->getAsEnumDecl();
  if (Enum && !ScalarType)
    ScalarType = Enum;
  return Enum;
}

uint64_t DtypeDispatchFinder::getAllDtypes(const clang::EnumDecl &Enum) {
  // The enumerators up to Undefined are the dtypes (NumOptions aliases
  // Undefined).
  uint64_t Mask = 0;
  for (const clang::EnumConstantDecl *E : Enum.enumerators()) {
    if (E->getName() == "Undefined")
      break;
    uint64_t Value = E->getInitVal().getZExtValue();
    if (Value < 64)
      Mask |= uint64_t(1) << Value;
  }
  return Mask;
}

bool DtypeDispatchFinder::addDispatch(const clang::CallExpr &Call,
                                      uint64_t &Mask) {
  const clang::FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee)
    return false;
  const clang::AnnotateAttr *Mark =
      findMark(*Callee, AnalysisMark::DispatchesDtypes);
  if (!Mark)
    return false;
  std::optional<StringRef> Which = getStringArg(*Mark, 0);
  if (Which == "listed") {
    // The mask is the first template argument (dispatchDtypes<Mask>).
    noteScalarType(*Callee);
    const clang::TemplateArgumentList *Args =
        Callee->getTemplateSpecializationArgs();
    if (Args && Args->size() != 0 &&
        Args->get(0).getKind() == clang::TemplateArgument::Integral)
      Mask |= Args->get(0).getAsIntegral().getZExtValue();
  } else if (const clang::EnumDecl *Enum = noteScalarType(*Callee)) {
    Mask |= getAllDtypes(*Enum);
  }
  return true;
}

void DtypeDispatchFinder::followCall(const clang::CallExpr &Call,
                                     uint64_t &Mask) {
  const clang::FunctionDecl *Callee = Call.getDirectCallee();
  const clang::FunctionDecl *Definition = nullptr;
  if (Callee && Callee->hasBody(Definition) &&
      IsAuthorCode(Definition->getLocation()))
    Mask |= findMask(*Definition);
}

uint64_t DtypeDispatchFinder::findMask(const clang::FunctionDecl &FD) {
  auto [It, Inserted] = Memo.try_emplace(&FD, 0);
  if (!Inserted)
    return It->second;
  uint64_t Mask = 0;
  if (clang::Stmt *Body = FD.getBody())
    CallWalker(*this, Mask).TraverseStmt(Body);
  // The walk may have grown the map.
  Memo[&FD] = Mask;
  return Mask;
}

std::vector<std::string>
DtypeDispatchFinder::findDtypes(const clang::FunctionDecl &FD) {
  uint64_t Mask = findMask(FD);
  std::vector<std::string> Names;
  if (!ScalarType || Mask == 0)
    return Names;
  for (const clang::EnumConstantDecl *E : ScalarType->enumerators()) {
    if (E->getName() == "Undefined")
      break;
    uint64_t Value = E->getInitVal().getZExtValue();
    if (Value < 64 && (Mask >> Value & 1))
      Names.push_back(E->getName().str());
  }
  return Names;
}

} // namespace skc
