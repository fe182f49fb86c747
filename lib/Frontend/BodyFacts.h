//===--- BodyFacts.h - What a kernel body does ------------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The facts about one kernel body that skc's rules check: Note [Body
/// facts] in BodyFacts.cpp.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_BODYFACTS_H
#define SKC_LIB_FRONTEND_BODYFACTS_H

#include "ParseSession.h"

#include "skc/Parse/KernelDecl.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace skc {

class LocationMapper;

struct BodyFactOptions {
  /// Whether a function defined at a location is the kernel author's, and
  /// so followed.
  std::function<bool(clang::SourceLocation)> IsAuthorCode;
  /// Whether data reads are followed into the author's functions (for a
  /// meta function, where they are errors).
  bool FollowDataReads = false;
  /// The statements where the tensors have data (past a refusal of meta
  /// inputs, MetaInputRefusal.h): reads there are not facts.
  llvm::DenseSet<const clang::Stmt *> PastMetaRefusal;
  /// Whether parameter I of the kernel is an out argument (its generated
  /// declaration marks it SK_OUT_ARGUMENT).
  std::function<bool(unsigned)> IsOutArgument;
  /// Records a Clang error that a fact makes Sema explain (Note
  /// [Diagnostics left to Sema] in DiagnosticForwarding.cpp).
  std::function<void(Explanation, clang::SourceLocation)> Explain;
};

/// Appends the facts of \p FD's body to \p Facts.
void collectBodyFacts(const clang::FunctionDecl &FD, clang::ASTContext &Ctx,
                      LocationMapper &Locs, const BodyFactOptions &Options,
                      std::vector<BodyFact> &Facts);

} // namespace skc

#endif // SKC_LIB_FRONTEND_BODYFACTS_H
