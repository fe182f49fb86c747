//===--- Pipeline.h - One skc run, as a library -----------------*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pipeline of one skc run, as a library (llvm/lib/TableGen/Main.cpp is
/// the model): read the schema and its catalogues, build and check the op
/// model, check the kernel sources against headers generated in memory,
/// and, when nothing was wrong, print what was asked and write every output
/// all or nothing. Diagnostics go to the DiagnosticsEngine; an Error is a
/// file that could not be read or written.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_DRIVER_PIPELINE_H
#define SKC_DRIVER_PIPELINE_H

#include "skc/Driver/Invocation.h"
#include "skc/Emit/Emitters.h"
#include "skc/Frontend/KernelSourceParser.h"
#include "skc/Parse/FunctionSchema.h"
#include "skc/Parse/KernelDecl.h"
#include "skc/Parse/SchemaFile.h"
#include "skc/Sema/KernelChecks.h"
#include "skc/Sema/OperatorModel.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
class SourceMgr;
} // namespace llvm

namespace skc {

class DiagnosticsEngine;

/// What reading and checking found.
struct Analysis {
  /// Owns the model's types.
  std::unique_ptr<TypeContext> Types = std::make_unique<TypeContext>();
  /// The tags catalogue, when there is one.
  std::optional<TagsFile> Tags;
  OperatorModel Model;
  /// The kernels the sources define.
  std::vector<KernelDecl> Decls;
  /// What they give the library, with Invocation::FactsPath or Merge.
  std::vector<ProvidedKernel> Provided;
  /// The files the sources include.
  std::set<std::string> Dependencies;
};

/// Reads and checks the schema and its catalogues, reporting to \p Diags,
/// whose SourceMgr gets the files; the sources are left alone. \p Cache
/// keeps, from one check of an edited schema to the next, what need not be
/// read again.
llvm::Expected<Analysis> analyzeSchema(const Invocation &Inv,
                                       DiagnosticsEngine &Diags,
                                       YAMLReadCache *Cache = nullptr);

/// What \p Inv asks the emitters for.
EmitOptions getEmitOptions(const Invocation &Inv);

/// The headers skc generates from \p Model, which kernel sources include.
std::vector<GeneratedFile> emitKernelHeaders(const Invocation &Inv,
                                             const OperatorModel &Model);

/// How the front end parses \p Inv's kernel sources, with \p Headers (from
/// emitKernelHeaders) mapped in.
KernelSourceOptions
getKernelSourceOptions(const Invocation &Inv,
                       llvm::ArrayRef<GeneratedFile> Headers);

/// How the kernels the front end finds are checked against the model.
KernelCheckOptions getKernelCheckOptions(const Invocation &Inv);

/// Reads and checks the schema, its catalogues and the kernel sources (or,
/// with Inv.Merge, their facts files), reporting to \p Diags, whose
/// SourceMgr gets the files. The sources are checked only against a schema
/// without errors.
llvm::Expected<Analysis> analyze(const Invocation &Inv,
                                 DiagnosticsEngine &Diags);

/// Prints what \p Inv asks for to \p Out (the op model, statistics, the
/// coverage report) and writes its files, all or nothing.
llvm::Error produceOutputs(const Invocation &Inv, const Analysis &A,
                           const llvm::SourceMgr &SM, llvm::raw_ostream &Out);

/// The paths of the files -o writes for \p Inv: fixed by the options alone,
/// so that a build system can name them before skc runs.
std::vector<std::string> getOutputPaths(const Invocation &Inv);

/// Everything: analyze(), then, when no error was reported,
/// produceOutputs(). Returns whether errors were reported.
llvm::Expected<bool> runPipeline(const Invocation &Inv,
                                 DiagnosticsEngine &Diags,
                                 llvm::raw_ostream &Out);

} // namespace skc

#endif // SKC_DRIVER_PIPELINE_H
