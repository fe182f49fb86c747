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

} // namespace skc

#endif // SKC_SEMA_KERNELCHECKS_H
