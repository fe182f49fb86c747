//===--- AnalysisMarks.h - The runtime's APIs, by their marks ---*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How the front end recognises the runtime's APIs in a kernel source's
/// AST: by the marks of runtime/sk/util/Analysis.h, which skc's -DSKC_ANALYSIS
/// turns into [[clang::annotate("skc.<mark>", args...)]] (Note [Analysis
/// marks] in AnalysisMarks.cpp).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_ANALYSISMARKS_H
#define SKC_LIB_FRONTEND_ANALYSISMARKS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace clang {
class AnnotateAttr;
class ASTContext;
class CXXRecordDecl;
class DeclContext;
class FunctionDecl;
class Decl;
} // namespace clang

namespace skc {

/// The marks of runtime/sk/util/Analysis.h, one per macro there.
enum class AnalysisMark {
  ReadsData,            ///< SK_READS_DATA
  SetsOutput,           ///< SK_SETS_OUTPUT(I)
  SetsOutputAtArg,      ///< SK_SETS_OUTPUT_AT_ARG(N)
  SetsAllOutputs,       ///< SK_SETS_ALL_OUTPUTS
  SetsPrecomputed,      ///< SK_SETS_PRECOMPUTED(Field)
  PrecomputeStructBase, ///< SK_PRECOMPUTE_STRUCT_BASE, on a class template
  DispatchesDtypes,     ///< SK_DISPATCHES_DTYPES(Which)
  RefusesMetaInput,     ///< SK_REFUSES_META_INPUT
  KernelDefinition,     ///< SK_KERNEL_DEFINITION(Kind)
  OutArgument,          ///< SK_OUT_ARGUMENT, on a parameter
};

/// Every mark, for tests that each is in use.
llvm::ArrayRef<AnalysisMark> getAllAnalysisMarks();

/// The annotation string of \p Mark ("skc.reads_data").
llvm::StringRef getAnnotation(AnalysisMark Mark);

/// The annotation of \p Mark on \p FD, or null. A function carries the
/// marks of the declaration it instantiates (a member of a class template,
/// a function template's specialisation) and of the virtual functions it
/// overrides.
const clang::AnnotateAttr *findMark(const clang::FunctionDecl &FD,
                                    AnalysisMark Mark);

/// Whether \p FD carries \p Mark.
inline bool hasMark(const clang::FunctionDecl &FD, AnalysisMark Mark) {
  return findMark(FD, Mark) != nullptr;
}

/// Whether \p D itself (a parameter, a class) carries \p Mark.
bool hasOwnMark(const clang::Decl &D, AnalysisMark Mark);

/// Argument \p Index of the annotation \p A as an integer, or none.
std::optional<int64_t> getIntArg(const clang::AnnotateAttr &A, unsigned Index,
                                 const clang::ASTContext &Ctx);
/// Argument \p Index of the annotation \p A as a string literal, or none.
std::optional<llvm::StringRef> getStringArg(const clang::AnnotateAttr &A,
                                            unsigned Index);

/// Returns whether \p DC is the namespace \p Path (outermost first)
/// directly under the translation unit; inline namespaces count as their
/// parent.
bool isNamespace(const clang::DeclContext *DC,
                 llvm::ArrayRef<llvm::StringRef> Path);

/// Returns whether \p RD is the class sk::\p Name.
bool isRuntimeClass(const clang::CXXRecordDecl *RD, llvm::StringRef Name);

} // namespace skc

#endif // SKC_LIB_FRONTEND_ANALYSISMARKS_H
