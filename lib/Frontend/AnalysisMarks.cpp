//===--- AnalysisMarks.cpp - The runtime's APIs, as skc knows them --------===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "AnalysisMarks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace skc {

// Note [Analysis marks]
// ~~~~~~~~~~~~~~~~~~~~~
// skc's checks are about the runtime's API: which calls read tensor data,
// which set a kernel's outputs or precomputed fields, which dispatch over
// dtypes, which functions the authoring macros define. Recognising those by
// name (`data_ptr`, a `build` prefix, the macro's spelling) lets a renamed
// accessor or a new helper escape every check, silently. So the runtime
// marks them (runtime/sk/util/Analysis.h), the marks become Clang
// annotations under -DSKC_ANALYSIS=1, and the front end asks for marks,
// never names. Clang's static analyzer matches calls by CallDescription
// tables of names; clang-tidy's checks do too; a runtime that ships with
// its checker can do better.
//
// A mark holds for the function it is written on, the specialisations and
// instantiations of it, and the functions that override it: a kernel's
// struct calls TensorIteratorBase::set_output_raw_strided, which overrides
// MetaBase's marked one.

ArrayRef<AnalysisMark> getAllAnalysisMarks() {
  static constexpr AnalysisMark All[] = {
      AnalysisMark::ReadsData,        AnalysisMark::SetsOutput,
      AnalysisMark::SetsOutputAtArg,  AnalysisMark::SetsAllOutputs,
      AnalysisMark::SetsPrecomputed,  AnalysisMark::PrecomputeStructBase,
      AnalysisMark::DispatchesDtypes, AnalysisMark::RefusesMetaInput,
      AnalysisMark::KernelDefinition, AnalysisMark::OutArgument};
  return All;
}

StringRef getAnnotation(AnalysisMark Mark) {
  switch (Mark) {
  case AnalysisMark::ReadsData:
    return "skc.reads_data";
  case AnalysisMark::SetsOutput:
    return "skc.sets_output";
  case AnalysisMark::SetsOutputAtArg:
    return "skc.sets_output_at_arg";
  case AnalysisMark::SetsAllOutputs:
    return "skc.sets_all_outputs";
  case AnalysisMark::SetsPrecomputed:
    return "skc.sets_precomputed";
  case AnalysisMark::PrecomputeStructBase:
    return "skc.precompute_struct_base";
  case AnalysisMark::DispatchesDtypes:
    return "skc.dispatches_dtypes";
  case AnalysisMark::RefusesMetaInput:
    return "skc.refuses_meta_input";
  case AnalysisMark::KernelDefinition:
    return "skc.kernel";
  case AnalysisMark::OutArgument:
    return "skc.out_argument";
  }
  llvm_unreachable("unknown analysis mark");
}

static const clang::AnnotateAttr *findOwnMark(const clang::FunctionDecl &FD,
                                              StringRef Annotation) {
  for (const auto *A : FD.specific_attrs<clang::AnnotateAttr>())
    if (A->getAnnotation() == Annotation)
      return A;
  return nullptr;
}

static const clang::AnnotateAttr *
findMark(const clang::FunctionDecl &FD, StringRef Annotation, unsigned Depth) {
  if (Depth > 8)
    return nullptr;
  if (const clang::AnnotateAttr *A = findOwnMark(FD, Annotation))
    return A;
  for (const clang::FunctionDecl *Redecl : FD.redecls())
    if (const clang::AnnotateAttr *A = findOwnMark(*Redecl, Annotation))
      return A;
  if (const clang::FunctionDecl *Pattern =
          FD.getTemplateInstantiationPattern(/*ForDefinition=*/false))
    if (Pattern != &FD)
      if (const clang::AnnotateAttr *A =
              findMark(*Pattern, Annotation, Depth + 1))
        return A;
  if (const clang::FunctionTemplateDecl *Primary = FD.getPrimaryTemplate())
    if (const clang::FunctionDecl *Templated = Primary->getTemplatedDecl())
      if (Templated != &FD)
        if (const clang::AnnotateAttr *A =
                findMark(*Templated, Annotation, Depth + 1))
          return A;
  if (const auto *MD = dyn_cast<clang::CXXMethodDecl>(&FD))
    for (const clang::CXXMethodDecl *Overridden : MD->overridden_methods())
      if (const clang::AnnotateAttr *A =
              findMark(*Overridden, Annotation, Depth + 1))
        return A;
  return nullptr;
}

const clang::AnnotateAttr *findMark(const clang::FunctionDecl &FD,
                                    AnalysisMark Mark) {
  return findMark(FD, getAnnotation(Mark), 0);
}

bool hasOwnMark(const clang::Decl &D, AnalysisMark Mark) {
  for (const auto *A : D.specific_attrs<clang::AnnotateAttr>())
    if (A->getAnnotation() == getAnnotation(Mark))
      return true;
  return false;
}

std::optional<int64_t> getIntArg(const clang::AnnotateAttr &A, unsigned Index,
                                 const clang::ASTContext &Ctx) {
  if (Index >= A.args_size())
    return std::nullopt;
  const clang::Expr *E = A.args_begin()[Index];
  if (E->isValueDependent())
    return std::nullopt;
  if (std::optional<APSInt> V = E->getIntegerConstantExpr(Ctx))
    return V->getExtValue();
  return std::nullopt;
}

std::optional<StringRef> getStringArg(const clang::AnnotateAttr &A,
                                      unsigned Index) {
  if (Index >= A.args_size())
    return std::nullopt;
  if (const auto *S = dyn_cast<clang::StringLiteral>(
          A.args_begin()[Index]->IgnoreParenImpCasts()))
    return S->getString();
  return std::nullopt;
}

bool isNamespace(const clang::DeclContext *DC, ArrayRef<StringRef> Path) {
  for (StringRef Name : llvm::reverse(Path)) {
    while (DC && DC->isInlineNamespace())
      DC = DC->getParent();
    const auto *NS = dyn_cast_or_null<clang::NamespaceDecl>(DC);
    if (!NS || NS->getName() != Name)
      return false;
    DC = NS->getParent();
  }
  return DC && DC->getRedeclContext()->isTranslationUnit();
}

/// Returns whether \p RD is the class sk::\p Name.
bool isRuntimeClass(const clang::CXXRecordDecl *RD, StringRef Name) {
  return RD && RD->getIdentifier() && RD->getName() == Name &&
         isNamespace(RD->getDeclContext(), {"sk"});
}

} // namespace skc
