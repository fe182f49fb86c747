//===--- DtypeDispatchFinder.h - Dtypes a kernel computes on ----*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds the dtypes a kernel body dispatches over, for the coverage report
/// (skc --coverage-report): the runtime's dispatch helpers name them
/// (Note [Dtype masks] in sk/iter/DtypeDispatch.h), and are known by their
/// mark, SK_DISPATCHES_DTYPES (Note [Analysis marks] in AnalysisMarks.cpp):
///
///   "listed", sk::dispatchDtypes<Mask>(...)   the dtypes whose bits are in
///                                            Mask
///   "all", sk::visitScalarType(...),         every dtype
///          sk::dispatchElementSize(...)
///
/// A kernel may dispatch in a helper: the calls of the functions and
/// lambdas the body reaches are followed, transitively, as long as they are
/// the author's code (not the runtime's, not a system header). Only code
/// that is instantiated counts: a generic lambda is read through its
/// instantiations, a function template through the specializations called.
/// The arguments of a dispatch are not walked: what its callback reaches
/// (the matrix product inside cdist) runs on the dtypes it names.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_LIB_FRONTEND_DTYPEDISPATCHFINDER_H
#define SKC_LIB_FRONTEND_DTYPEDISPATCHFINDER_H

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace clang {
class CallExpr;
class EnumDecl;
class FunctionDecl;
class SourceLocation;
} // namespace clang

namespace skc {

/// One per translation unit: results are memoized across the kernels of a
/// source, which share their helpers.
class DtypeDispatchFinder {
public:
  /// \p IsAuthorCode tells whether a function defined at a location is the
  /// kernel author's, and so followed.
  explicit DtypeDispatchFinder(
      std::function<bool(clang::SourceLocation)> IsAuthorCode)
      : IsAuthorCode(std::move(IsAuthorCode)) {}

  /// The names of the dtypes \p FD dispatches over, in sk::ScalarType
  /// order ("Half", "Float"); empty when it reaches no dispatch.
  std::vector<std::string> findDtypes(const clang::FunctionDecl &FD);

  /// The mask of dtypes (bit `1 << ScalarType value`) that \p FD reaches.
  uint64_t findMask(const clang::FunctionDecl &FD);

  /// Adds the dtypes of \p Call to \p Mask and returns true when it is a
  /// dispatch.
  bool addDispatch(const clang::CallExpr &Call, uint64_t &Mask);
  /// Adds the dtypes of \p Call's callee when it is the author's code.
  void followCall(const clang::CallExpr &Call, uint64_t &Mask);

private:
  /// The mask of every dtype of the sk::ScalarType enum \p ScalarType.
  uint64_t getAllDtypes(const clang::EnumDecl &ScalarType);
  /// Records the enum that the dispatch helper \p Callee takes.
  const clang::EnumDecl *noteScalarType(const clang::FunctionDecl &Callee);

  std::function<bool(clang::SourceLocation)> IsAuthorCode;
  /// Function -> mask; 0 while a function is being walked, which cuts
  /// recursion.
  llvm::DenseMap<const clang::FunctionDecl *, uint64_t> Memo;
  const clang::EnumDecl *ScalarType = nullptr;
};

} // namespace skc

#endif // SKC_LIB_FRONTEND_DTYPEDISPATCHFINDER_H
