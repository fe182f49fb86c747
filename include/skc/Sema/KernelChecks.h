//===--- KernelChecks.h - Pair kernel definitions with schemas --*- C++ -*-===//
//
// Part of skc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rules between a schema file and its kernel sources (issue 4): every
/// structured group has exactly one meta function; every kernel a
/// `dispatch:` lists for a built backend is defined, in a source of the
/// right kind; every definition belongs to an operator; each definition's
/// parameters are the ones its schema implies; meta functions set their
/// outputs and never read data; impls never set or reassign outputs; and
/// every precomputed field is set. Each problem is reported at the author's
/// line, with a note at the YAML entry and, for signatures, a fix-it that
/// rewrites the whole parameter list.
///
//===----------------------------------------------------------------------===//

#ifndef SKC_SEMA_KERNELCHECKS_H
#define SKC_SEMA_KERNELCHECKS_H

#include "skc/Parse/KernelDecl.h"
#include "skc/Sema/DispatchKey.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace skc {

class DiagnosticsEngine;
class OperatorModel;

struct KernelCheckOptions {
  /// Whether the sources given are all of the library's, so that a missing
  /// meta function or kernel can be reported.
  bool RequireAllKernels = true;
  /// The backends built, whose kernels are required; composite kernels are
  /// required when any backend is built.
  std::vector<DispatchKey> Backends = {DispatchKey::CPU};
};

void checkKernels(const OperatorModel &Model, llvm::ArrayRef<KernelDecl> Decls,
                  const KernelCheckOptions &Opts, DiagnosticsEngine &Diags);

/// A kernel a source defines, known by name only: what an editor's index
/// of a library's sources keeps.
struct KernelDefinitionName {
  KernelDeclKind Kind;
  /// As KernelDecl::Name has it.
  std::string Name;
  bool InCUDASource = false;
};

/// Reports every kernel a built backend needs that none of \p Defined is,
/// as checkKernels does when it requires all kernels. A native kernel named
/// counts for every function whose dispatch names it.
void checkKernelsDefined(const OperatorModel &Model,
                         llvm::ArrayRef<KernelDefinitionName> Defined,
                         const KernelCheckOptions &Opts,
                         DiagnosticsEngine &Diags);

} // namespace skc

#endif // SKC_SEMA_KERNELCHECKS_H
