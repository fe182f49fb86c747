//===--- CoverageReport.h - What a kernel library covers --------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `skc --coverage-report`: the operator x backend x variant matrix of a
/// kernel library, and the dtypes each backend's kernels compute on, as a
/// Markdown table (aligned, so that it reads as well in a terminal). The
/// matrix comes from the plan that Register<Key>.cpp is written from, so
/// it shows what the generated code registers; the dtypes come from the
/// dispatch calls the Clang front end finds in the kernels
/// (KernelDecl::Dtypes).
///
//===----------------------------------------------------------------------===//

#ifndef SKC_EMIT_COVERAGEREPORT_H
#define SKC_EMIT_COVERAGEREPORT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace skc {

class OperatorModel;
struct EmitOptions;
struct KernelDecl;

/// Writes the coverage report of \p Model, built for \p Opts, to \p OS.
/// \p Decls are the kernels the sources define; \p HaveSources says
/// whether sources were given (without them no dtype is known).
void printCoverageReport(const OperatorModel &Model, const EmitOptions &Opts,
                         llvm::ArrayRef<KernelDecl> Decls, bool HaveSources,
                         llvm::raw_ostream &OS);

} // namespace skc

#endif // SKC_EMIT_COVERAGEREPORT_H
